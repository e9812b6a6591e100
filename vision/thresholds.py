"""Every threshold of what follows the detector, each with the measurement that set it.

"Validation tables": the 120 + 200 validation-family photo tables (``datasets.synth`` seeds 78 and 79); "the 520":
those and the 200 test tables (seed 77), see ``models/MODEL_CARD.md``. Sizes are in card heights (a card's height in
the photo) unless said otherwise.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Thresholds:
    # --- seats (vision.seats) ---
    angle_gap_deg: float = 30.0     # facing directions further apart belong to different players
    link_card_heights: float = 1.6  # cards closer than this lie in one player's area (a local scale: perspective)
    index_to_card: float = 4.6      # a card is about this many corner-index heights tall (training decks' mean)
    facing_away_cos: float = 0.5    # a seat whose cards' tops point within 60 deg of straight away from the table was
    #                                 read upside down
    middle_cos: float = 0.5         # a two-corner card facing within 60 deg of toward / away from the table's middle
    #                                 takes that way (else its neighbours')
    neighbours: int = 4             # one-corner cards around a two-corner card that settle its facing
    # --- the deck's proportions (vision.proportion) ---
    proportion_cards: int = 2       # cards seen by both corners that measure the deck at least
    proportion_range: tuple[float, float] = (0.85, 1.2)  # size factors of the mean card left as they are (the training
    #                                 decks' cards are 3.7-5.4 index heights tall, 10-90 %; the nicu decks measure 0.57)
    # --- rows within a seat (vision.rows) ---
    row_separation: float = 1.5     # gaps between rows at least this many times any gap inside a row
    row_tilt_search_deg: int = 32   # rows may run this far off the cards' own direction (perspective; 25 -> 32: one
    #                                 more of the 200 seed-79 validation tables right, none broken)
    row_turn_search_deg: int = 50   # and this far where its bands are clearer than any within row_tilt_search_deg: a
    #                                 card's own direction is known to a quarter turn, and a photo turned 38 deg laid a
    #                                 validation seat's rows 46 deg off it (see vision.rows.split_rows)
    max_open_anchors: int = 4       # cards per seat anchored either way (2 ** 4 splits at most)
    row_bends: int = 15             # a hand of 13 that shows no straight 3 + 5 + 5 rows is searched for rows laid as
    #                                 fans (each card turned a little further along its row: the rows are arcs), bent
    #                                 0.1-1.5 in 0.1 steps (vision.rows._fanned_rows), as clear as row_separation, the
    #                                 three rows side by side and none with a hole (row_bend_hole): of the ground
    #                                 truth's fanned seats, clear 1.75-12.5 with holes 1.01-1.32; special hands laid in
    #                                 a line, two lines or an arc split 1.5 clear or more only with holes of 3.4-10.9
    row_bend_hole: float = 1.5      # two neighbours in a fanned row at most this many median spacings apart (3,000
    #                                 lines, arcs and two lines of 13 jittered cards: 0 taken for fanned rows; 1.8: 2)
    fan_turn_span: float = 8.0      # a fanned 5-card row's cards turn at least this much (degrees) from end to end
    fan_turn_order: float = 0.8     # and in order along it (correlation of turn and place): then the fan is taken
    #                                 without the straight rows' word (vision.rows._turned_as_a_fan)
    same_place: float = 0.25        # two cards of a row closer along it than this share of the seat's median spacing
    #                                 lie at one place: seats laid out rightly on the 520 (readings and ground truth)
    #                                 keep 0.39 and more, two short seats filled wrongly had 0.02, 0.07
    hole: float = 1.8               # a short seat's full row with two neighbours this many median spacings apart has
    #                                 a card not seen in it (rows._holed_but_full): the perturbation checks' moved
    #                                 card filled wrongly showed 2.3
    max_turned: int = 4             # more one-corner cards turned than this in a seat: read from the far corners, their
    #                                 outline estimates err alike (the seat's rows are not checked)
    # --- what is clutter (vision.clutter) ---
    same_card: float = 0.6          # two reads of one identity whose outlines' centres are this close: one card
    max_duplicate_choices: int = 16  # tables of which-read-is-the-card tried at most (more: the duplicates block)
    clutter_scale: tuple[float, float] = (0.6, 1 / 0.55)  # a read outside these shares of its seat's median card
    #                                 size is artwork: real cards of the validation readings lie 0.61-1.76 of their
    #                                 seat's median (99.8 % of 12,601 within 0.74-1.44), reads on a card back's aces
    #                                 0.2-0.6 (0.55 -> 0.6: det8 reads a back's aces at 0.56 and 0.98 confidence), a
    #                                 court card's picture 1.86
    scale_fit_reads: int = 8        # reads a table's plane of card sizes is fitted to at least (vision.clutter:
    #                                 the reads not few, see artwork_reads)
    scale_fit_start: float = 0.3    # it is fitted first to the reads this near their median (the logarithm of the
    #                                 size: 0.74-1.35)
    scale_fit_spread: float = 0.4   # then to the reads this near it (0.67-1.5 of its size)
    artwork_reads: int = 6          # reads of one size (scale_fit_spread) together within artwork_reach of their own
    artwork_reach: float = 4.0      # card heights are few at most so (a card back's aces 4-5; a hand shows more): few
    #                                 and under clutter_scale's low end of the plane fitted to the rest, artwork. On
    #                                 1,010 cached synthetic tables' 38,696 reads, 397 are few: the 146 right reads
    #                                 among them lie at 0.6 of the plane or more but for 4 (0.46-0.6, no table lost by
    #                                 them), the 165 on no card at a median 0.43 (156 under 0.6). Reach 3 -> 4: a far
    #                                 seat's hand of 7-9 px indices laid wide, the ground truth as the detector with a
    #                                 card taken away, left a card 6 alike within 3 of its heights
    in_scale: tuple[float, float] = (0.7, 1.5)  # a read this size of a seat's cards may be one of them
    on_a_card: float = 0.75         # an unread index region this near a card's centre lies on that card
    unread_scale: float = 0.4       # an unread region apart from the hands whose long side is under this share of the
    #                                 held indices' at its place is no card's index (a card back's pattern): of the
    #                                 1,010 cached tables' unread regions apart, 3 of 541 on a card are under it (none
    #                                 in a table it would unblock), 135 of 880 on no card
    unread_hand_cluster: int = 10   # unread regions (or weak reads) together apart from the hands: a player's cards
    #                                 (validation tables settled right show at most 8 together, a hand left unread
    #                                 12-20)
    hand_reach: float = 1.5         # "together": within this many (median) card heights of one of them
    # --- doubts (vision.resolve, vision.unsure, vision.unseen, vision.twice) ---
    max_readings: int = 256         # combinations of the doubts' identities tried at most; beyond, they block
    plausible: float = 0.002        # an unsure card's identity at least this probable (over those no sure card holds)
    #                                 is tried: the truth was among them for 227 of 228 such cards of the validation
    #                                 tables (0.01: 219)
    max_unseen: int = 3             # cards missing from the whole table at most; beyond, the short seats block
    may_be: float = 0.01            # a sure card whose reader gave a card not seen this much may be that card (an Ah
    #                                 read 4h at 0.875, Ah 0.048, and the real 4h unseen); a reader's floor for
    #                                 identities it does not see is ~0.001-0.002
    max_named: int = 4              # a problem names the cards a doubtful card may be when they are at most this many
    # --- holes in a row, read again (vision.holes) ---
    hole_min: float = 1.6           # two neighbours of a row at least this many median spacings apart have a card
    #                                 between them (k cards: k + 1 spacings, +- hole_slack); with 0.45 slack: the
    #                                 validation tables 86 + 126 -> 89 + 128 settled, 0 wrong (session 20)
    hole_slack: float = 0.45
    max_in_a_hole: int = 3          # cards between two neighbours at most
    hole_min_gaps: int = 4          # a seat's median spacing from at least this many pairs of neighbours


THRESHOLDS = Thresholds()

__all__ = ["THRESHOLDS", "Thresholds"]
