"""AppTest smoke and flow tests for the three pages (no browser, no detector needed).

Photos are injected through the uploader (bad files) or the table through session
state (the correction flow), as the photo step's output would be.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path

import pytest
from PIL import Image
from streamlit.testing.v1 import AppTest

from app_pages.images import MAX_UPLOAD_BYTES
from app_pages.table import seat_entry
from referee.storage import DB_ENV

ROOT = Path(__file__).resolve().parent.parent
APP = str(ROOT / "app.py")
TIMEOUT = 60

ANN = seat_entry("bottom", "Ann", "Qs Qh Qd", "9h 9d 9c 9s Kd", "2s 3s 4s 5s 6s")
BOB = seat_entry("top", "Bob", "Ah Kc 3d", "Jh Jd 7c 8c 4h", "Th Td Tc 2d 3h")


@pytest.fixture
def app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[AppTest]:
    monkeypatch.setenv(DB_ENV, str(tmp_path / "app.sqlite3"))
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.run()
    assert not at.exception
    yield at


def texts(at: AppTest, kind: str) -> list[str]:
    return [str(e.value) for e in getattr(at, kind)]


def page_text(at: AppTest) -> str:
    parts = []
    for kind in ("markdown", "error", "success", "info", "warning", "caption", "title", "subheader"):
        parts.extend(texts(at, kind))
    return "\n".join(parts)


def png(width: int, height: int, mode: str = "RGB") -> bytes:
    out = io.BytesIO()
    Image.new(mode, (width, height)).save(out, format="PNG")
    return out.getvalue()


def jpeg(width: int, height: int) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (width, height), (200, 30, 30)).save(out, format="JPEG")
    return out.getvalue()


# ------------------------------------------------------------------ check page


def test_check_page_unfouled_with_categories_and_advice(app: AppTest) -> None:
    app.switch_page("app_pages/check.py").run()
    assert not app.exception
    assert any("Not fouled" in t for t in texts(app, "success"))
    html = page_text(app)
    assert "葫芦" in html and "full house" in html  # tail JJJ44, both languages by default
    assert any("Expected gain" in t for t in texts(app, "info"))


def test_check_page_foul_reason_and_language(app: AppTest) -> None:
    app.switch_page("app_pages/check.py").run()
    app.sidebar.radio[0].set_value("English").run()
    app.text_input(key="check_text").input("Ah Ad 2c | Kh Kd 3c 4s 5s | 9s 9h 9d 7c 8c").run()
    assert not app.exception
    errors = texts(app, "error")
    assert any("head (pair AA) beats middle (pair KK): A-A-2 against K-K-5-4-3, the A over the K; a head may not "
               "beat the middle" in e for e in errors)
    assert "三条" not in page_text(app) and "three of a kind" in page_text(app)


def test_check_page_special_and_missed_special(app: AppTest) -> None:
    app.switch_page("app_pages/check.py").run()
    app.text_input(key="check_text").input("As 2s 3s | 4s 5s 6s 7s 8s | 9s Ts Js Qs Ks").run()
    assert not app.exception
    assert "至尊清龙" in page_text(app)  # dragon flush


def test_check_page_bad_input_and_13_cards(app: AppTest) -> None:
    app.switch_page("app_pages/check.py").run()
    app.text_input(key="check_text").input("Ah Ah 2c | Kh Kd 3c 4s 5s | 9s 9h 9d 7c 8c").run()
    assert any("duplicate card ah" in e.lower() for e in texts(app, "error"))
    app.text_input(key="check_text").input("As Ks Qs Js Ts 9h 9d 9c 4h 4d 2c 3c 7d").run()
    assert not app.exception
    assert "Strongest legal arrangements" in page_text(app)


def test_check_page_picker(app: AppTest) -> None:
    """Clicking cards suit by suit fills head, middle, tail in click order; a second click takes one back."""
    app.switch_page("app_pages/check.py").run()
    app.segmented_control(key="check_how").set_value("Picking").run()

    def click(*labels: str) -> None:
        for label in labels:
            suit = {"♠": "s", "♥": "h", "♦": "d", "♣": "c"}[label[-1]]
            pills = app.pills(key=f"pick_{suit}")
            current = list(pills.value or [])
            pills.set_value([c for c in current if c != label] if label in current else [*current, label]).run()

    click("2♣", "3♦", "5♥", "6♠", "6♥", "8♣", "9♦", "10♣", "J♠", "J♥", "J♦", "4♣")
    assert not app.exception
    assert any("Pick 1 more card" in c for c in texts(app, "caption"))
    click("K♠")  # a slip: take it back
    click("K♠")
    click("4♦")
    assert not app.exception
    assert any("Not fouled" in t for t in texts(app, "success"))
    assert app.session_state["pick_rows"]["tail"] == ["J♠", "J♥", "J♦", "4♣", "4♦"]
    click("A♠")  # a 14th card is refused
    assert app.pills(key="pick_s").value == ["J♠", "6♠"]
    app.button(key="pick_clear").click().run()
    assert app.session_state["pick_rows"] == {"head": [], "middle": [], "tail": []}


# ------------------------------------------------------------------ score page


@pytest.mark.parametrize(
    ("name", "data", "message"),
    [
        ("empty.jpg", b"", "empty"),
        ("notes.jpg", b"this is not a photo at all", "not an image"),
        ("huge.jpg", b"\xff\xd8" + bytes(MAX_UPLOAD_BYTES), "MB"),
        ("wide.png", png(12_000, 8_000, "1"), "megapixels"),
        ("cut.jpg", jpeg(64, 64)[:300], "damaged or cut short"),
    ],
)
def test_score_page_bad_upload_shows_a_message(app: AppTest, name: str, data: bytes, message: str) -> None:
    app.file_uploader(key="score_upload").set_value((name, data, "image/jpeg")).run()
    assert not app.exception
    assert any(message in e for e in texts(app, "error")), texts(app, "error")


def inject_table(app: AppTest, seats: list[dict[str, str]], version: int = 100) -> None:
    """Put a table in the editor, as the photo step would (a new version resets the inputs)."""
    app.session_state["score_seats"] = seats
    app.session_state["score_original"] = [dict(s) for s in seats]
    app.session_state["score_version"] = version
    # Who sits where, as the user would pick it on the page (the seat pickers start again from it).
    app.session_state["seat_names"] = {s["seat"]: s["name"] for s in seats if s["name"]}
    app.session_state["pending_drop"] = [f"who_{p}{end}" for p in ("bottom", "right", "top", "left")
                                         for end in ("", "_name")]
    app.run()
    assert not app.exception


def scores_shown(app: AppTest) -> dict[str, int]:
    """Player totals from the settlement's score tiles."""
    import re

    for text in texts(app, "markdown"):
        if text.startswith('<div class="ssr-totals">'):  # the first totals on the page
            cells = re.findall(r"<b>(.+?)</b><span class=\"ssr-score[^\"]*\">([+\u22120-9]+)</span>", text)
            return {who: int(score.replace("\u2212", "-")) for who, score in cells}
    return {}


def move(app: AppTest, card: str, *, seat: int, row: int) -> None:
    """The "move a card" correction (selectboxes show formatted labels, so pick by index)."""
    app.selectbox(key="move_card").set_value(card)
    app.selectbox(key="move_seat").select_index(seat)
    app.selectbox(key="move_row").select_index(row)
    app.button(key="move_go").click().run()


def test_score_page_scores_and_a_correction_changes_the_totals(app: AppTest) -> None:
    inject_table(app, [ANN, BOB])
    before = scores_shown(app)
    assert before and sum(before.values()) == 0 and before["Ann"] > 0
    # Ann's quads move to Bob's tail and Bob's tens to Ann: a correction of the photo's rows.
    move(app, "9s", seat=1, row=2)
    assert not app.exception
    # Both hands are now the wrong size: the page names them instead of scoring.
    errors = texts(app, "error")
    assert any("Ann" in e and "middle row must have 5 cards" in e for e in errors), errors
    move(app, "Tc", seat=0, row=1)
    assert not app.exception
    after = scores_shown(app)
    assert sum(after.values()) == 0
    assert after != before


def test_score_page_typed_correction_and_names_remembered(app: AppTest) -> None:
    inject_table(app, [ANN, BOB])
    before = scores_shown(app)
    # The photo misread Bob's 3h as 3c (a card Ann doesn't hold): fix it by typing; then rename Bob.
    app.text_input(key="seat_100_1_tail").input("Th Td Tc 2d 3c").run()
    assert scores_shown(app) == before
    app.text_input(key="seat_100_1_tail").input("Th Td Tc 9s 3c").run()  # a slip: Ann holds 9s
    assert any("duplicate card 9s" in e.lower() for e in texts(app, "error"))
    app.text_input(key="seat_100_0_middle").input("9h 9d 9c 2h Kd").run()  # Ann's 9s was really 2h
    assert not texts(app, "error")
    app.selectbox(key="who_top").set_value("\x00new").run()  # "someone new…"
    app.text_input(key="who_top_name").input("Bobby").run()
    assert not app.exception
    after = scores_shown(app)
    assert set(after) == {"Ann", "Bobby"} and after["Ann"] != before["Ann"]
    assert app.session_state["seat_names"]["top"] == "Bobby"


def test_score_page_problems_are_shown_next_to_their_card(app: AppTest) -> None:
    app.session_state["score_reading"] = {
        "seats": [], "round": None,
        "problems": [{"kind": "low_confidence", "message": "7h read with 31% confidence", "seat": "bottom",
                      "card": "7h", "blocking": False}],
    }
    inject_table(app, [ANN, BOB])
    assert any("7h read with 31% confidence" in t and "ssr-flag" in t for t in texts(app, "markdown"))


def test_score_page_banker_mode_and_save_needs_a_session(app: AppTest) -> None:
    app.sidebar.selectbox[0].set_value("fuzhou").run()
    inject_table(app, [ANN, BOB])
    assert app.selectbox(key="score_banker_choice").value is None  # no silent default: the page asks
    assert any("Who is the banker" in w for w in texts(app, "warning")) and not scores_shown(app)
    app.selectbox(key="score_banker_choice").set_value("Bob").run()
    assert not app.exception
    assert "庄家 banker" in page_text(app)
    assert any("Bob v Ann" in t and "Ann v Bob" not in t for t in texts(app, "markdown"))  # all against the banker
    assert any("No session is open" in t for t in texts(app, "caption"))


def test_house_rules_upload_is_validated(app: AppTest) -> None:
    app.sidebar.selectbox[0].set_value("house rules (upload)").run()
    uploader = app.sidebar.file_uploader[0]
    uploader.set_value(("house.toml", b'base = "popular"\nname = "ours"\nscoop = { pointz = 4 }\n',
                        "application/toml")).run()
    assert not app.exception
    assert any("house.toml" in e and "pointz" in e and "did you mean 'points'" in e for e in texts(app, "error"))
    app.sidebar.file_uploader[0].set_value(("house.toml", b'base = "popular"\nname = "ours"\n',
                                            "application/toml")).run()
    assert any("valid" in s for s in texts(app, "success"))
    inject_table(app, [ANN, BOB])
    assert "ours" in page_text(app)


# ------------------------------------------------------------------ history page


def start_session(app: AppTest, players: str = "Ann, Bob") -> None:
    app.switch_page("app_pages/history.py").run()
    app.text_input(key="new_place").input("kitchen")
    app.text_input(key="new_players").input(players)
    app.button[0].click().run()  # the form's submit button
    app.run()
    assert not app.exception


def save_round(app: AppTest, seats: list[dict[str, str]]) -> None:
    app.switch_page("app_pages/score.py").run()
    inject_table(app, seats, version=app.session_state["score_version"] + 1)
    app.button(key="score_save").click().run()
    app.run()
    assert not app.exception


def history_totals(app: AppTest) -> dict[str, int]:
    app.switch_page("app_pages/history.py").run()
    assert not app.exception
    return scores_shown(app)


def test_history_saved_round_appears_edit_and_delete_move_totals(app: AppTest) -> None:
    start_session(app)
    save_round(app, [ANN, BOB])
    totals = history_totals(app)
    assert totals["Ann"] > 0 and sum(totals.values()) == 0
    assert any("Round 1 ·" in e.label for e in app.expander)
    # Edit: give Bob Ann's hand and Ann Bob's hand; the totals flip.
    app.text_input(key="edit_1_0").input(f"{BOB['head']} | {BOB['middle']} | {BOB['tail']}")
    app.text_input(key="edit_1_1").input(f"{ANN['head']} | {ANN['middle']} | {ANN['tail']}")
    submit = next(b for b in app.button if "Save changes" in b.label)
    submit.click().run()
    app.run()
    assert not app.exception
    edited = scores_shown(app)
    assert edited["Ann"] == totals["Bob"] and edited["Bob"] == totals["Ann"]
    # Round 2: the same cards with the players swapped (what the edit made of round 1).
    save_round(app, [dict(ANN, name="Bob"), dict(BOB, name="Ann")])
    two = history_totals(app)
    assert two == {"Ann": 2 * edited["Ann"], "Bob": 2 * edited["Bob"]}
    # Delete round 1: only round 2 counts.
    app.checkbox(key="delete_sure_1").check().run()
    app.button(key="delete_1").click().run()
    app.run()
    assert not app.exception
    assert scores_shown(app) == edited
    assert not any("Round 1 ·" in e.label for e in app.expander)


def test_history_export(app: AppTest, tmp_path: Path) -> None:
    start_session(app)
    save_round(app, [ANN, BOB])
    app.switch_page("app_pages/history.py").run()
    from referee.storage import Database

    db = Database(tmp_path / "app.sqlite3")
    session = db.sessions()[0]
    assert "Ann" in db.export_csv(session.id)
    buttons = app.get("download_button")
    assert len(buttons) == 2


def test_score_page_quick_session_saves_the_round(app: AppTest, tmp_path: Path) -> None:
    inject_table(app, [ANN, BOB])
    app.button(key="score_quick_session").click().run()
    app.run()
    assert not app.exception
    assert any("Saved as round 1" in t for t in texts(app, "success"))
    from referee.storage import Database

    db = Database(tmp_path / "app.sqlite3")
    (session,) = db.sessions()
    assert session.players == ("Ann", "Bob")
    (record,) = db.rounds(session.id)
    assert record.scores == scores_shown(app)
    assert record.corrections == []
    # Saving the same round twice is not offered; the next round starts from an empty table, same names.
    assert app.button(key="score_save").disabled
    app.button(key="score_next").click().run()
    assert not app.exception
    assert [s["name"] for s in app.session_state["score_seats"]] == ["Ann", "Bob"]
    assert all(not s["head"] for s in app.session_state["score_seats"])


def heic(width: int, height: int) -> bytes:
    pillow_heif = pytest.importorskip("pillow_heif")
    out = io.BytesIO()
    pillow_heif.from_pillow(Image.new("RGB", (width, height), (30, 120, 30))).save(out, quality=70)
    return out.getvalue()


@pytest.mark.parametrize("kind", ["jpeg", "heic"])
def test_score_page_good_photo_is_read_or_explained(app: AppTest, kind: str) -> None:
    """A readable photo (no cards on it): read by the detector, or a sentence saying why it can't be."""
    data = jpeg(640, 480) if kind == "jpeg" else heic(640, 480)
    app.file_uploader(key="score_upload").set_value((f"table.{kind}", data, f"image/{kind}")).run()
    assert not app.exception
    assert not texts(app, "error")
    photo = app.session_state["score_photo"]
    assert photo.mime == "image/jpeg" and (photo.width, photo.height) == (640, 480)
    assert photo.converted_from == ("HEIC" if kind == "heic" else None)
    notice = app.session_state["score_notice"] if "score_notice" in app.session_state else None  # noqa: SIM401
    assert notice is None or "type each player's rows" in notice
    # Removing the photo keeps the rows but not the photo.
    app.file_uploader(key="score_upload").set_value(None).run()
    assert not app.exception
    assert app.session_state["score_photo"] is None


FIXTURES = ROOT / "tests" / "fixtures" / "photos"


def _photo_fixtures() -> list[Path]:
    return sorted(p for p in FIXTURES.glob("*.jpg") if p.with_suffix(".expected.json").exists())


@pytest.mark.parametrize("photo", _photo_fixtures() or [None], ids=lambda p: p.stem if p else "none")
def test_score_page_photo_fixture_exact_totals(app: AppTest, photo: Path | None) -> None:
    """``NAME.jpg`` + ``NAME.expected.json`` (``{"rules", "banker", "totals": {seat: points}}``)."""
    if photo is None:
        pytest.skip(f"no photo fixtures with expected totals in {FIXTURES}")
    vision_detector = pytest.importorskip("vision.detector", reason="the photo pipeline is not installed")
    if not vision_detector.CardDetector.available():
        pytest.skip("the card detector's model files are not in models/")
    import json

    expected = json.loads(photo.with_suffix(".expected.json").read_text())
    app.session_state["seat_names"] = {s: s for s in ("bottom", "right", "top", "left")}  # players named by seat
    app.sidebar.selectbox[0].set_value(expected.get("rules", "classic")).run()
    app.file_uploader(key="score_upload").set_value((photo.name, photo.read_bytes(), "image/jpeg")).run(timeout=180)
    assert not app.exception
    if expected.get("banker"):
        banker = next(s for s in app.selectbox if (s.key or "").startswith("score_banker_"))
        banker.set_value(expected["banker"]).run()
    assert scores_shown(app) == expected["totals"]


def test_score_page_reads_a_photo_then_a_correction_changes_the_totals(
        app: AppTest, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The whole photo flow with the real pipeline (layout, problems, annotation) and a stand-in
    detector that 'sees' two laid-out hands, one card of them with low confidence."""
    pytest.importorskip("vision.pipeline")
    from dataclasses import replace

    import test_layout

    from app_pages import reader
    from referee import load_ruleset
    from referee.round import Round
    from referee.settle import settle
    from vision.types import Detections

    cards = test_layout.table(["bottom", "top"])
    cards[3] = replace(cards[3], confidence=0.3)  # bottom's first middle card, 6s
    monkeypatch.setattr(reader, "detector", lambda: lambda image: Detections(width=1000, height=1000,
                                                                             cards=tuple(cards)))
    app.session_state["seat_names"] = {"bottom": "Ann", "top": "Bob"}
    app.file_uploader(key="score_upload").set_value(("table.jpg", jpeg(1000, 1000), "image/jpeg")).run()
    assert not app.exception
    assert not texts(app, "error")
    hands = {"Ann": test_layout.HANDS["bottom"], "Bob": test_layout.HANDS["top"]}
    expected = settle(Round.from_json({"players": [
        {"name": n, **dict(zip(("head", "middle", "tail"), (r.strip() for r in h.split("|")), strict=True))}
        for n, h in hands.items()]}), load_ruleset("classic"))
    assert scores_shown(app) == {p.name: p.score for p in expected.players}
    assert app.session_state["score_annotated_full"].shape == (1000, 1000, 3)  # the annotated photo, shown
    assert app.session_state["score_annotated"][:2] == b"\xff\xd8"  # as JPEG, encoded once
    flagged = [t for t in texts(app, "markdown") if "ssr-flag" in t and "6s" in t]
    assert flagged, "the low-confidence card is outlined where it lies"
    # Correct the reading: the photo put Bob's 2d in his middle; it belongs in Ann's tail... and Ann's
    # 4d in Bob's middle (a swap made of two moves).
    move(app, "2d", seat=0, row=2)
    move(app, "4d", seat=1, row=1)
    assert not app.exception and not texts(app, "error")
    corrected = scores_shown(app)
    assert corrected and corrected != {p.name: p.score for p in expected.players}
    app.button(key="score_quick_session").click().run()
    app.run()
    from referee.storage import Database

    db = Database(tmp_path / "app.sqlite3")
    (record,) = db.rounds(db.sessions()[0].id)
    assert record.photo_sha256 is not None and record.detections is not None
    assert {c["field"] for c in record.corrections} == {"middle", "tail"}
    assert record.scores == corrected
    # The history shows the round with its photo.
    app.switch_page("app_pages/history.py").run()
    assert not app.exception
    assert scores_shown(app) == corrected
    assert any("Round 1 ·" in e.label for e in app.expander)


def test_check_page_from_a_photo_of_one_hand(app: AppTest, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("vision.pipeline")
    import test_layout

    from app_pages import reader
    from vision.types import Detections

    calls: list[int] = []

    def detect(image: object) -> Detections:
        calls.append(1)
        return Detections(width=1000, height=1000, cards=tuple(test_layout.table(["bottom"])))

    monkeypatch.setattr(reader, "detector", lambda: detect)
    app.switch_page("app_pages/check.py").run()
    app.segmented_control(key="check_how").set_value("Photo").run()
    app.file_uploader(key="check_photo").set_value(("hand.jpg", jpeg(1000, 1000), "image/jpeg")).run()
    assert not app.exception
    assert app.text_input(key="check_photo_text").value == test_layout.HANDS["bottom"]
    assert any("Not fouled" in t for t in texts(app, "success"))
    # Correct a card by hand: the photo is not read again.
    app.text_input(key="check_photo_text").input("Ah Ad 2c | Kh Kd 3c 4s 5s | 9s 9h 9d 7c 8c").run()
    assert any("beats middle" in e for e in texts(app, "error"))
    assert len(calls) == 1
    app.file_uploader(key="check_photo").set_value(("bad.jpg", b"nope", "image/jpeg")).run()
    assert any("not an image" in e for e in texts(app, "error"))


def test_two_tabs_one_deletes_what_the_other_edits(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two browser tabs on one database: a round deleted in one is not resurrected or crashed on by the other."""
    monkeypatch.setenv(DB_ENV, str(tmp_path / "app.sqlite3"))
    one = AppTest.from_file(APP, default_timeout=TIMEOUT).run()
    start_session(one)
    save_round(one, [ANN, BOB])
    two = AppTest.from_file(APP, default_timeout=TIMEOUT).run()
    two.switch_page("app_pages/history.py").run()
    one.switch_page("app_pages/history.py").run()
    one.checkbox(key="delete_sure_1").check().run()
    one.button(key="delete_1").click().run()
    # Tab two still shows round 1 and tries to edit it.
    two.text_input(key="edit_1_0").input(f"{BOB['head']} | {BOB['middle']} | {BOB['tail']}")
    two.text_input(key="edit_1_1").input(f"{ANN['head']} | {ANN['middle']} | {ANN['tail']}")
    next(b for b in two.button if "Save changes" in b.label).click().run()
    assert not two.exception  # the rerun reads the database first: the round is gone, nothing is written
    assert not any("Round 1 ·" in e.label for e in two.expander)
    # Tab two saves a round into the session: it is round 2 (numbers are never reused).
    save_round(two, [ANN, BOB])
    from referee.storage import Database

    db = Database(tmp_path / "app.sqlite3")
    assert [r.number for r in db.rounds(db.sessions()[0].id)] == [2]


def test_history_session_details_and_delete(app: AppTest) -> None:
    start_session(app, "Ann, Bob")
    save_round(app, [ANN, BOB])
    app.switch_page("app_pages/history.py").run()
    sid = app.session_state["session_id"]
    app.text_input(key=f"session_{sid}_place").input("the club")
    next(b for b in app.button if "Save details" in b.label).click().run()
    app.run()
    assert not app.exception
    assert "the club" in str(app.selectbox(key="history_session").value)
    app.checkbox(key=f"session_{sid}_sure").check().run()
    app.button(key=f"session_{sid}_delete").click().run()
    app.run()
    assert not app.exception
    assert any("No sessions yet" in t for t in texts(app, "info"))


def test_session_link_opens_the_session_in_another_tab(app: AppTest) -> None:
    app.sidebar.selectbox[0].set_value("popular").run()
    start_session(app, "Ann, Bob")
    sid = app.session_state["session_id"]
    assert app.query_params["session"] in (str(sid), [str(sid)])
    other = AppTest.from_file(APP, default_timeout=TIMEOUT)
    other.query_params["session"] = str(sid)
    other.run()
    assert not other.exception
    assert other.session_state["session_id"] == sid
    assert other.session_state["rules_choice"] == "popular"
    assert other.session_state["seat_names"] == {"bottom": "Ann", "right": "Bob"}
    stale = AppTest.from_file(APP, default_timeout=TIMEOUT)
    stale.query_params["session"] = "999"
    stale.run()
    assert not stale.exception and stale.session_state["session_id"] is None
