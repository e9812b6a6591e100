"""The catalogue of card decks (from ``shared/reference/card-decks.csv``) and the
fixed train / validation / test split by design family.

Splitting by *family*, never by deck, keeps duplicated artwork (``paris`` =
``gm-paris`` = ``bellot`` ...) on one side of the split only.

>>> sorted(set(FAMILY_SPLIT.values()))
['test', 'train', 'val']
>>> {d.family for d in decks_for_split("test")} >= {"aguilar"}
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Split = Literal["train", "val", "test"]
SPLITS: tuple[Split, ...] = ("train", "val", "test")
SourceKind = Literal["sheet", "files", "kde"]

AISLERIOT_DIR = "/usr/share/aisleriot/cards"
KDE_DIR = "/usr/share/carddecks"
OPENCLIPART_DIR = "/usr/share/openclipart/svg/recreation/games/cards"
# npm packages are installed under <cache>/npm/node_modules (see setup_art).
NPM_KENNARD = "@heruka_urgyen/react-playing-cards/src/images"
NPM_CARDSJS = "cardsJS/cards"


@dataclass(frozen=True)
class DeckSpec:
    """Where one deck's artwork lives and how to cut it into cards.

    ``pattern`` (``files`` kind) is a path with ``{rank}`` / ``{suit}`` fields,
    filled from ``rank_names`` / ``suit_names`` (indexed like ``referee.cards``:
    ranks 2..A, suits s h d c). Paths starting with ``npm:`` are resolved
    under the npm folder of the cache.
    """

    name: str
    family: str
    tier: str
    kind: SourceKind
    path: str
    rank_names: tuple[str, ...] = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
    suit_names: tuple[str, str, str, str] = ("S", "H", "D", "C")
    back: str | None = None
    max_width: int | None = None
    index_thin_px: int = 0      # ignore vertical lines thinner than this next to the index (frames)
    notes: str = ""


def _aisleriot(name: str, family: str, tier: str, notes: str = "") -> DeckSpec:
    return DeckSpec(name=f"aisleriot-{name}", family=family, tier=tier, kind="sheet",
                    path=f"{AISLERIOT_DIR}/{name}.svgz", notes=notes)


def _kennard(variant: str) -> DeckSpec:
    return DeckSpec(name=f"kennard-{variant}", family="kennard", tier="A", kind="files",
                    path=f"npm:{NPM_KENNARD}/{variant}/{{rank}}{{suit}}.svg",
                    rank_names=("2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A"),
                    back=f"npm:{NPM_KENNARD}/back.svg")


def _openclipart(variant: str) -> DeckSpec:
    return DeckSpec(name=f"openclipart-{variant}", family="nicu", tier="A-dup", kind="files",
                    path=f"{OPENCLIPART_DIR}/{variant}/{variant}_{{suit}}_{{rank}}.svg",
                    rank_names=("2", "3", "4", "5", "6", "7", "8", "9", "10", "j", "q", "k", "a"),
                    suit_names=("s", "h", "d", "c"))


def _kde(folder: str, svg: str, family: str, tier: str, max_width: int | None = None, thin: int = 0) -> DeckSpec:
    return DeckSpec(name=f"kde-{folder}", family=family, tier=tier, kind="kde",
                    path=f"{KDE_DIR}/svg-{folder}/{svg}",
                    rank_names=("2", "3", "4", "5", "6", "7", "8", "9", "10", "jack", "queen", "king", "1"),
                    suit_names=("spade", "heart", "diamond", "club"), max_width=max_width, index_thin_px=thin)


DECKS: tuple[DeckSpec, ...] = (
    _aisleriot("anglo", "anglo", "A"),
    _aisleriot("anglo_bitmap", "anglo", "A-dup"),
    _aisleriot("gnomangelo", "anglo", "A-dup"),
    _aisleriot("gnomangelo_bitmap", "anglo", "A-dup"),
    _aisleriot("anglo_modern", "anglo_modern", "A"),
    _aisleriot("anglo_modern_4_color", "anglo_modern", "A"),
    _aisleriot("anglo_poker", "anglo_poker", "A"),
    _aisleriot("atlasnye", "atlas", "A"),
    _aisleriot("bellot", "paris", "A"),
    _aisleriot("paris", "paris", "A"),
    _aisleriot("bonded", "bonded", "A", notes="in package aisleriot, not gnome-cards-data"),
    _aisleriot("dondorf", "dondorf", "A"),
    # Courts have no rank index at all: no corner-index label exists for J/Q/K.
    _aisleriot("guyenne-classic", "guyenne", "X", notes="tier A in the csv; courts lack an index: only with --tiers X"),
    _aisleriot("neoclassical", "neoclassical", "A"),
    _aisleriot("neoclassical_4_color", "neoclassical", "A"),
    _aisleriot("orell", "orell", "A"),
    _aisleriot("ornamental", "nicu", "A"),
    _aisleriot("plastic", "plastic", "A"),
    _aisleriot("tango", "tango", "A"),
    _aisleriot("tigullio", "tigullio", "A"),
    # tier B / C: only with --tiers
    _aisleriot("ancient_french", "paris", "B"),
    _aisleriot("atlasnye_skat", "atlas", "B"),
    _aisleriot("berlin", "berlin", "B"),
    _aisleriot("lattmann", "lattmann", "B"),
    _aisleriot("rheinland", "rheinland", "B"),
    _aisleriot("slavic_costumes", "slavic", "B"),
    _aisleriot("tarocco", "tarocco", "B"),
    _aisleriot("simplistic", "simplistic", "C"),
    # One-way layout: no bottom-right index, while the labels assume both corners.
    _aisleriot("tango_nuevo", "tango_nuevo", "X", notes="tier C in the csv; top-left index only"),
    _kennard("2color"),
    _kennard("2color-bf"),
    _kennard("4color"),
    _kennard("4color-bf"),
    DeckSpec(name="cardsjs-aguilar", family="aguilar", tier="A", kind="files",
             path=f"npm:{NPM_CARDSJS}/{{rank}}{{suit}}.svg",
             rank_names=("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"),
             back=f"npm:{NPM_CARDSJS}/Blue_Back.svg"),
    _openclipart("bordered"),
    _openclipart("ornamental"),
    _openclipart("simple"),
    _openclipart("white"),
    _kde("ancient-egyptians", "Ancient_Egyptians.svgz", "egyptians", "A", max_width=340, thin=5),
    _kde("penguins", "penguins.svgz", "penguins", "A"),
    _kde("standard", "standard.svgz", "kde_standard", "A"),
    _kde("dondorf", "dondorf.svgz", "dondorf", "A-dup"),
    _kde("gm-paris", "paris.svgz", "paris", "A-dup"),
    _kde("nicu-ornamental", "ornamental.svgz", "nicu", "A-dup"),
    _kde("nicu-white", "white.svgz", "nicu", "A-dup"),
    _kde("tigullio-international", "tigullio-international.svgz", "tigullio", "A-dup"),
)

DEFAULT_TIERS: tuple[str, ...] = ("A", "A-dup")

# Fixed split by design family. Test holds out aguilar (the most casino-like
# design), orell (cream card, art-nouveau courts) and tigullio; validation
# holds anglo_poker and nicu. Everything not listed here is train.
TEST_FAMILIES: tuple[str, ...] = ("aguilar", "orell", "tigullio")
VAL_FAMILIES: tuple[str, ...] = ("anglo_poker", "nicu")


def _family_split() -> dict[str, Split]:
    out: dict[str, Split] = {}
    for deck in DECKS:
        if deck.family in TEST_FAMILIES:
            out[deck.family] = "test"
        elif deck.family in VAL_FAMILIES:
            out[deck.family] = "val"
        else:
            out[deck.family] = "train"
    return out


FAMILY_SPLIT: dict[str, Split] = _family_split()


def split_of(deck: DeckSpec) -> Split:
    return FAMILY_SPLIT[deck.family]


SUPPORTED_KINDS: tuple[SourceKind, ...] = ("sheet", "files", "kde")


def decks_for_split(split: Split, tiers: tuple[str, ...] = DEFAULT_TIERS) -> list[DeckSpec]:
    return [d for d in DECKS if d.tier in tiers and split_of(d) == split and d.kind in SUPPORTED_KINDS]


def deck_by_name(name: str) -> DeckSpec:
    for deck in DECKS:
        if deck.name == name:
            return deck
    raise KeyError(name)


def families_by_split(tiers: tuple[str, ...] = DEFAULT_TIERS) -> dict[Split, list[str]]:
    return {s: sorted({d.family for d in decks_for_split(s, tiers)}) for s in SPLITS}
