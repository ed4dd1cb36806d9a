"""The record formats: canonical text round trips, accepted spellings, and one test per kind of
malformed line; the JSON form round trips and reports errors by their place in the JSON."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from analyzer import json_text, record, record_json
from analyzer.errors import Contradiction, HalfsuitError, RecordSyntaxError

from .fixtures import SHARED, committed

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = committed(ROOT / "sample_logs", "*.fish")
SHARED_RECORDS = committed(SHARED, "*.fish")
RECORDS = SAMPLES + SHARED_RECORDS

TEAMS = "Teams: Anna Ben Cara vs Dev Eli Fay\n"
HEADER = "Rules: literature\nDeck: standard\n" + TEAMS


def _ids(path: Path) -> str:
    return f"{path.parent.name}/{path.name}"


def test_there_are_samples_and_shared_records() -> None:
    assert len(SAMPLES) >= 10
    assert SHARED_RECORDS


# ---------------------------------------------------------------- round trips


@pytest.mark.parametrize("path", RECORDS, ids=_ids)
def test_text_round_trip(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert record.dumps(record.loads(text, str(path))) == text


@pytest.mark.parametrize("path", RECORDS, ids=_ids)
def test_json_round_trip(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    as_json = record_json.dumps(record.loads(text, str(path)))
    back = record_json.loads(as_json)
    assert record.dumps(back) == text
    assert record_json.dumps(back) == as_json
    # Line numbers are those of the JSON text: where each event's object starts, and each
    # header value.
    places = json_text.parse(as_json)
    assert [e.line for e in back.body] == [places.place(f"events[{i}]")[0] for i in range(len(back.body))]  # type: ignore[index]
    assert back.header_lines["Teams"] == places.place("teams")[0]  # type: ignore[index]
    # A record built from decoded JSON has no file: its lines are those of the canonical text.
    direct = record.loads(text)
    built = record_json.from_dict(json.loads(as_json))
    assert [e.line for e in built.body] == [e.line for e in direct.body]
    assert built.header_lines == direct.header_lines


def test_json_in_any_order_keeps_canonical_line_numbers() -> None:
    text = (ROOT / "sample_logs" / "team-out.fish").read_text(encoding="utf-8")
    direct = record.loads(text)
    data = record_json.to_dict(direct)
    shuffled = {k: data[k] for k in reversed(list(data))}
    shuffled["info"] = dict(reversed(list(data["info"].items())))
    shuffled["hands"] = dict(reversed(list(data["hands"].items())))
    back = record_json.from_dict(shuffled)
    assert record.dumps(back) == text
    assert back.header_lines == direct.header_lines
    assert [e.line for e in back.body] == [e.line for e in direct.body]


def test_json_files(tmp_path: Path) -> None:
    rec = record.load(SAMPLES[0])
    out = tmp_path / "game.json"
    record_json.dump(rec, out)
    text = out.read_text(encoding="utf-8")
    assert text.endswith("}\n")
    assert json.loads(text)["format"] == "halfsuit-record"
    back = record_json.load(out)
    assert back.path == str(out)
    assert record.dumps(back) == record.dumps(rec)


def test_json_shape() -> None:
    text = (
        "Title: Shape\nX-Scorer: Gus\n" + TEAMS + "House: high-double, next-asker\nBluffing: yes\n"
        "Hand Dev: 3H 6H 3S 10S 10H 3D 10D 3C\nHand Anna: 2H 2S 9S 9H 2D 9D 2C 9C\n\n"
        "# first\n"
        "Anna asks Dev for 3H: yes  # got it\n"
        "Anna claims low-hearts: Anna 2H 3H, Ben 4H 5H 6H 7H: wrong;"
        " actual Anna 2H 3H, Ben 4H 5H 6H, Eli 7H\n"
        "Anna asks Eli for 9D: no\n"
    )
    data = json.loads(record_json.dumps(record.loads(text)))
    assert list(data) == [
        "format", "version", "info", "rules", "deck", "bluffing", "house", "teams", "hands",
        "extra", "events",
    ]  # fmt: skip
    assert data["info"] == {"Title": "Shape"}
    assert data["bluffing"] is True
    assert data["house"] == ["next-asker", "high-double"]
    assert data["teams"] == [["Anna", "Ben", "Cara"], ["Dev", "Eli", "Fay"]]
    assert list(data["hands"]) == ["Anna", "Dev"]  # seat order
    assert data["extra"] == [["X-Scorer", "Gus"]]
    assert data["events"][0] == {"type": "comment", "text": "first"}
    assert data["events"][1] == {
        "type": "ask", "asker": "Anna", "target": "Dev", "card": "3H", "answer": "yes",
        "comment": "got it",
    }  # fmt: skip
    assert data["events"][2]["actual"] == [["Anna", ["2H", "3H"]], ["Ben", ["4H", "5H", "6H"]], ["Eli", ["7H"]]]
    assert data["events"][2]["result"] == "wrong"
    assert "comment" not in data["events"][3]


def test_json_dumps_is_deterministic() -> None:
    rec = record.load(SAMPLES[0])
    assert record_json.dumps(rec) == record_json.dumps(record.load(SAMPLES[0]))
    assert record_json.dumps(rec) == json.dumps(record_json.to_dict(rec), indent=2, ensure_ascii=False) + "\n"


def test_json_keeps_non_ascii_text() -> None:
    rec = record.loads("Title: Café ♠\n" + TEAMS + "\n# déjà vu\n")
    text = record_json.dumps(rec)
    assert "Café ♠" in text and "déjà vu" in text
    assert record.dumps(record_json.loads(text)) == record.dumps(rec)


# ---------------------------------------------------------------- accepted spellings


@pytest.mark.parametrize(
    ("written", "canonical"),
    [
        ("Anna asks Dev for td: no", "Anna asks Dev for 10D: no"),
        ("Anna asks Dev for TD: no", "Anna asks Dev for 10D: no"),
        ("Anna asks Dev for t♦: no", "Anna asks Dev for 10D: no"),
        ("Anna asks Dev for 7♠: yes", "Anna asks Dev for 7S: yes"),
        ("Anna asks Dev for q♥: no", "Anna asks Dev for QH: no"),
        ("Anna asks Dev 7s: Yes", "Anna asks Dev for 7S: yes"),
        ("anna ASKS dev FOR 7s: NO", "Anna asks Dev for 7S: no"),
        ("12. Anna asks Dev for 7S: no", "Anna asks Dev for 7S: no"),
        ("1.Anna asks Dev for 7S:no", "Anna asks Dev for 7S: no"),
        ("   Anna asks Dev for 7S: no   ", "Anna asks Dev for 7S: no"),
        ("Anna asks Dev for 7S: no #  kept  ", "Anna asks Dev for 7S: no  # kept"),
        ("Anna asks Dev for 7S: no#x", "Anna asks Dev for 7S: no  # x"),
        (
            "Anna declares low-spades: Anna 2s 3S, Ben 4♠ 5S 6S 7S: Correct",
            "Anna claims low-spades: Anna 2S 3S, Ben 4S 5S 6S 7S: correct",
        ),
        (
            "Anna claims High-Spades : Anna 9S TS, ben JS QS KS AS : wrong ; Actual Anna 9S 10S, Eli JS QS KS AS",
            "Anna claims high-spades: Anna 9S 10S, Ben JS QS KS AS: wrong; actual Anna 9S 10S, Eli JS QS KS AS",
        ),
        ("anna passes to BEN", "Anna passes to Ben"),
        # Wrong claims without the real split, saying who scored where the rules need it.
        ("Anna claims LS: Anna 2S 3S 4S 5S 6S 7S: Wrong", "Anna claims low-spades: Anna 2S 3S 4S 5S 6S 7S: wrong"),
        (
            "Anna claims LS: Anna 2S 3S 4S 5S 6S 7S: wrong , Scored By dev",
            "Anna claims low-spades: Anna 2S 3S 4S 5S 6S 7S: wrong, to team 2",
        ),
        (
            "Anna claims LS: Anna 2S 3S 4S 5S 6S 7S: wrong,to TEAM 2",
            "Anna claims low-spades: Anna 2S 3S 4S 5S 6S 7S: wrong, to team 2",
        ),
        (
            "Anna claims LS: Anna 2S 3S 4S 5S 6S 7S: wrong, Forfeited",
            "Anna claims low-spades: Anna 2S 3S 4S 5S 6S 7S: wrong, forfeited",
        ),
    ],
)
def test_accepted_event_spellings(written: str, canonical: str) -> None:
    text = record.dumps(record.loads(TEAMS + "\n" + written + "\n"))
    assert text == HEADER + "\n1. " + canonical + "\n"


@pytest.mark.parametrize("short", ["LS", "ls", "Hc"])
def test_short_book_names(short: str) -> None:
    text = f"Anna claims {short}: Anna 2S 3S 4S 5S 6S 7S: correct\n"
    rec = record.loads(TEAMS + "\n" + text)
    expected = {"ls": "low-spades", "hc": "high-clubs"}[short.lower()]
    assert record.dumps(rec).endswith(f"1. Anna claims {expected}: Anna 2S 3S 4S 5S 6S 7S: correct\n")


def test_header_keys_any_case_any_order_made_canonical() -> None:
    text = (
        "x-first: one\n"
        "HAND dev: 3h 6H 3S TS 10H 3D 10D 3C\n"
        "teams: Anna Ben Cara VS Dev Eli Fay\n"
        "house: high-double, Must-Declare,  next-asker,claim-any-time\n"
        "BLUFFING: Yes\n"
        "deck: Standard\n"
        "rules: FISH\n"
        "notes: a note\n"
        "date: 2026-11-27\n"
        "site: the club\n"
        "event: friday\n"
        "title: Table 2\n"
        "hand anna: 2H 2S 9S 9H 2D 9D 2C 9C\n"
        "X-Second: two\n"
        "\n"
        "# whole-line comment\n"
        "\n"
        "Anna asks Dev for 3H: yes\n"
    )
    assert record.dumps(record.loads(text)) == (
        "Title: Table 2\nEvent: friday\nSite: the club\nDate: 2026-11-27\nNotes: a note\n"
        "Rules: fish\nDeck: standard\nBluffing: yes\n"
        "House: claim-any-time, must-declare, next-asker, high-double\n"
        "Teams: Anna Ben Cara vs Dev Eli Fay\n"
        "Hand Anna: 2H 2S 9S 9H 2D 9D 2C 9C\nHand Dev: 3H 6H 3S 10S 10H 3D 10D 3C\n"
        "x-first: one\nX-Second: two\n"
        "\n"
        "# whole-line comment\n"
        "1. Anna asks Dev for 3H: yes\n"
    )


def test_events_carry_the_number_written_in_the_file() -> None:
    text = TEAMS + "\n1. Anna asks Dev for 7S: no\nDev asks Anna for 2S: no\n# between\n7. Anna passes to Ben\n"
    text += "07. Ben claims low-spades: Ben 2S 3S 4S 5S 6S 7S: correct\n"
    rec = record.loads(text)
    assert [e.number for e in rec.events] == [1, None, 7, 7]
    assert [e.line for e in rec.events] == [3, 4, 6, 7]
    # The canonical text numbers the events 1..N whatever was written.
    assert "\n3. Anna passes to Ben\n4. Ben claims" in record.dumps(rec)
    # The JSON form is canonical: its events are numbered by their place.
    assert [e.number for e in record_json.loads(record_json.dumps(rec)).events] == [1, 2, 3, 4]


def test_defaults_are_written_and_bluffing_no_is_dropped() -> None:
    text = record.dumps(record.loads("Bluffing: no\n" + TEAMS))
    assert text == HEADER + "\n"


def test_comments_are_kept_in_place() -> None:
    text = TEAMS + "\n#  opening\nAnna asks Dev for 7S: no # why\n#\n   # indented\nDev passes to Eli\n"
    rec = record.loads(text)
    assert [type(x).__name__ for x in rec.body] == ["Comment", "Ask", "Comment", "Comment", "Pass"]
    assert record.dumps(rec) == (
        HEADER + "\n# opening\n1. Anna asks Dev for 7S: no  # why\n#\n# indented\n2. Dev passes to Eli\n"
    )


def test_hand_line_order_is_kept_and_cards_made_canonical() -> None:
    rec = record.loads(TEAMS + "Hand Ben: js 4s 7H jH 4D 4C tC JC\n")
    assert [c.code for c in rec.hands["Ben"]] == ["JS", "4S", "7H", "JH", "4D", "4C", "10C", "JC"]


def test_decks_and_deal_sizes() -> None:
    eight = "Teams: Anna Ben Cara Gus vs Dev Eli Fay Hal\n"
    rec = record.loads("Deck: jokers\n" + eight)
    assert list(rec.deal_sizes.values()) == [7, 7, 7, 7, 7, 7, 6, 6]
    assert rec.players == ("Anna", "Dev", "Ben", "Eli", "Cara", "Fay", "Gus", "Hal")
    ranks = record.loads("Deck: ranks\n" + TEAMS)
    assert list(ranks.deal_sizes.values()) == [9, 9, 9, 9, 8, 8]
    assert len(ranks.rules.deck.books) == 13
    no7 = record.loads("Deck: no-7s\n" + TEAMS).rules.deck
    assert [c.code for c in no7.book("low-hearts").cards] == ["2H", "3H", "4H", "5H", "6H", "8H"]


# ---------------------------------------------------------------- malformed records

MALFORMED = [
    # (label, text, exception, code, line)
    ("empty", "", RecordSyntaxError, "empty", 1),
    ("garbled-event", TEAMS + "\nAnna takes 7S from Dev\n", RecordSyntaxError, "garbled", 3),
    ("garbled-ask", TEAMS + "\nAnna asks Dev for 7S yes\n", RecordSyntaxError, "garbled", 3),
    ("garbled-claim", TEAMS + "\nAnna claims low-spades Anna 2S\n", RecordSyntaxError, "garbled", 3),
    ("garbled-pass", TEAMS + "\nAnna passes Ben\n", RecordSyntaxError, "garbled", 3),
    ("header-without-colon", TEAMS + "Friday game\n", RecordSyntaxError, "header", 2),
    ("unknown-player-ask", TEAMS + "\nAnna asks Zed for 7S: no\n", RecordSyntaxError, "unknown-player", 3),
    ("unknown-player-pass", TEAMS + "\nAnna passes to Zed\n", RecordSyntaxError, "unknown-player", 3),
    (
        "unknown-player-claim",
        TEAMS + "\nAnna claims low-spades: Zed 2S 3S 4S 5S 6S 7S: correct\n",
        RecordSyntaxError,
        "unknown-player",
        3,
    ),
    ("unknown-player-hand", TEAMS + "Hand Zed: 2S\n", RecordSyntaxError, "unknown-player", 2),
    ("bad-card", TEAMS + "\nAnna asks Dev for 1S: no\n", RecordSyntaxError, "bad-card", 3),
    ("bad-card-hand", TEAMS + "Hand Anna: 2S 3S XX 4S 5S 6S 7S 9S\n", RecordSyntaxError, "bad-card", 2),
    ("card-not-in-deck", TEAMS + "\nAnna asks Dev for 8S: no\n", RecordSyntaxError, "bad-card", 3),
    ("joker-not-in-deck", TEAMS + "\nAnna asks Dev for RJ: no\n", RecordSyntaxError, "bad-card", 3),
    ("two-in-no-2s", "Deck: no-2s\n" + TEAMS + "\nAnna asks Dev for 2S: no\n", RecordSyntaxError, "bad-card", 4),
    (
        "bad-book",
        TEAMS + "\nAnna claims low-eights: Anna 2S 3S 4S 5S 6S 7S: correct\n",
        RecordSyntaxError,
        "bad-book",
        3,
    ),
    (
        "half-suit-in-ranks-deck",
        "Deck: ranks\n" + TEAMS + "\nAnna claims low-spades: Anna 2S: correct\n",
        RecordSyntaxError,
        "bad-book",
        4,
    ),
    ("unknown-header-key", TEAMS + "Colour: blue\n", RecordSyntaxError, "header", 2),
    ("duplicate-header-key", "Title: a\n" + TEAMS + "title: b\n", RecordSyntaxError, "header", 3),
    ("duplicate-user-field", TEAMS + "X-A: 1\nx-a: 2\n", RecordSyntaxError, "header", 3),
    ("duplicate-hand", TEAMS + "Hand Anna: 2H 2S 9S 9H 2D 9D 2C 9C\nHand anna: 3H\n", RecordSyntaxError, "header", 3),
    ("hand-without-name", TEAMS + "Hand: 2S\n", RecordSyntaxError, "header", 2),
    ("missing-teams", "Title: no teams\nRules: fish\n\nAnna asks Dev for 7S: no\n", RecordSyntaxError, "header", 1),
    ("teams-without-vs", "Teams: Anna Ben Cara Dev Eli Fay\n", RecordSyntaxError, "teams", 1),
    ("teams-unequal", "Teams: Anna Ben Cara vs Dev Eli\n", RecordSyntaxError, "teams", 1),
    ("teams-too-small", "Teams: Anna vs Dev\n", RecordSyntaxError, "teams", 1),
    ("teams-too-big", "Teams: A B C D E vs F G H I J\n", RecordSyntaxError, "teams", 1),
    ("teams-bad-name", "Teams: Anna B.en vs Dev Eli\n", RecordSyntaxError, "teams", 1),
    ("teams-duplicate-name", "Teams: Anna Ben vs anna Eli\n", RecordSyntaxError, "teams", 1),
    ("unknown-rules", "Rules: poker\n" + TEAMS, RecordSyntaxError, "header", 1),
    ("unknown-deck", "Deck: tarot\n" + TEAMS, RecordSyntaxError, "header", 1),
    ("bad-bluffing", "Bluffing: maybe\n" + TEAMS, RecordSyntaxError, "header", 1),
    ("unknown-house-rule", TEAMS + "House: next-asker, no-talking\n", RecordSyntaxError, "header", 2),
    (
        "short-wrong-claim-with-a-bad-award",
        TEAMS + "\nAnna claims low-spades: Anna 2S 3S 4S 5S 6S 7S: wrong, to Dev\n",
        RecordSyntaxError,
        "claim",
        3,
    ),
    (
        "short-wrong-claim-scored-by-a-stranger",
        TEAMS + "\nAnna claims low-spades: Anna 2S 3S 4S 5S 6S 7S: wrong, scored by Zed\n",
        RecordSyntaxError,
        "unknown-player",
        3,
    ),
    (
        "wrong-claim-with-actual-and-award",
        TEAMS
        + "\nAnna claims low-spades: Anna 2S 3S 4S 5S 6S 7S: wrong, to team 2; actual Anna 2S 3S 4S 5S 6S, Dev 7S\n",
        RecordSyntaxError,
        "claim",
        3,
    ),
    (
        "correct-claim-with-actual",
        TEAMS + "\nAnna claims low-spades: Anna 2S 3S 4S 5S 6S 7S: correct; actual Anna 2S\n",
        RecordSyntaxError,
        "claim",
        3,
    ),
    (
        "claim-holder-without-cards",
        TEAMS + "\nAnna claims low-spades: Anna 2S 3S 4S 5S 6S 7S, Ben: correct\n",
        RecordSyntaxError,
        "claim",
        3,
    ),
    ("wrong-hand-size", TEAMS + "Hand Anna: 2S 3S 4S\n", Contradiction, "contradiction", 2),
    (
        "duplicate-card-across-hands",
        TEAMS + "Hand Anna: 2H 2S 9S 9H 2D 9D 2C 9C\nHand Ben: 2S JS 7H JH 4D 4C 10C JC\n",
        Contradiction,
        "contradiction",
        3,
    ),
    ("duplicate-card-in-hand", TEAMS + "Hand Anna: 2H 2H 9S 9H 2D 9D 2C 9C\n", Contradiction, "contradiction", 2),
]


@pytest.mark.parametrize(
    ("text", "kind", "code", "line"),
    [m[1:] for m in MALFORMED],
    ids=[m[0] for m in MALFORMED],
)
def test_malformed(text: str, kind: type[HalfsuitError], code: str, line: int) -> None:
    with pytest.raises(HalfsuitError) as info:
        record.loads(text, "game.fish")
    exc = info.value
    assert type(exc) is kind
    assert (exc.code, exc.line) == (code, line)
    assert exc.exit_code == (2 if kind is RecordSyntaxError else 1)
    assert exc.path == "game.fish"
    assert str(exc).startswith(f"game.fish:{line}")
    if text:
        assert exc.source == text.splitlines()[line - 1]


def test_error_columns() -> None:
    with pytest.raises(RecordSyntaxError) as info:
        record.loads(TEAMS + "\n3. Anna asks Dev for 7X: no\n")
    assert (info.value.line, info.value.col) == (3, 22)
    assert info.value.to_dict()["col"] == 22
    with pytest.raises(RecordSyntaxError) as info:
        record.loads(TEAMS + "Hand Anna: 2S 3S XX 4S\n")
    assert (info.value.line, info.value.col) == (2, 18)


def test_error_column_of_a_token_inside_an_earlier_word() -> None:
    with pytest.raises(RecordSyntaxError) as info:
        record.loads("Teams: Eve Ben vs Dev Eli\n\nEve asks Ev for 2S: no\n")
    assert info.value.col == 10
    with pytest.raises(RecordSyntaxError) as info:
        record.loads("Teams: Anna Ben vs Dev Eli\n\nAnna asks Dev for An: no\n")
    assert info.value.col == 19


def test_missing_blank_line_is_explained() -> None:
    with pytest.raises(RecordSyntaxError) as info:
        record.loads(TEAMS + "1. Anna asks Dev for 7S: no\n")
    assert "blank line" in info.value.message


def test_load_names_the_file(tmp_path: Path) -> None:
    missing = tmp_path / "missing.fish"
    with pytest.raises(RecordSyntaxError) as info:
        record.load(missing)
    assert (info.value.code, info.value.path, info.value.exit_code) == ("unreadable", str(missing), 2)
    bad = tmp_path / "bad.fish"
    bad.write_text(TEAMS + "\nAnna asks Zed for 7S: no\n", encoding="utf-8")
    with pytest.raises(RecordSyntaxError) as info:
        record.load(bad)
    assert str(info.value).startswith(f"{bad}:3:")


# ---------------------------------------------------------------- malformed JSON


def _doc(**changes: Any) -> dict[str, Any]:
    """A small valid JSON record, with top-level keys replaced."""
    doc: dict[str, Any] = {
        "format": "halfsuit-record",
        "version": 1,
        "teams": [["Anna", "Ben", "Cara"], ["Dev", "Eli", "Fay"]],
        "hands": {"Anna": ["2H", "2S", "9S", "9H", "2D", "9D", "2C", "9C"]},
        "events": [
            {"type": "comment", "text": "start"},
            {"type": "ask", "asker": "Anna", "target": "Dev", "card": "3H", "answer": "yes"},
            {"type": "ask", "asker": "Anna", "target": "Eli", "card": "4H", "answer": "no"},
        ],
    }
    doc.update(changes)
    return doc


def _event(index: int, **changes: Any) -> dict[str, Any]:
    doc = _doc()
    doc["events"][index].update(changes)
    return doc


def test_json_minimal_document_takes_the_defaults() -> None:
    rec = record_json.loads(json.dumps(_doc()))
    assert record.dumps(rec) == (
        HEADER + "Hand Anna: 2H 2S 9S 9H 2D 9D 2C 9C\n\n# start\n"
        "1. Anna asks Dev for 3H: yes\n2. Anna asks Eli for 4H: no\n"
    )


def test_json_accepts_the_text_spellings_of_values() -> None:
    doc = _doc(rules="FISH", house=["high-double", "next-asker"], info={"title": "t"})
    doc["events"][1]["card"] = "3♥"
    text = record.dumps(record_json.from_dict(doc))
    assert "Title: t\nRules: fish\n" in text and "House: next-asker, high-double\n" in text
    assert "1. Anna asks Dev for 3H: yes\n" in text


def test_json_null_actual_and_comment_mean_absent() -> None:
    claim = {
        "type": "claim", "claimant": "Anna", "book": "low-spades",
        "said": [["Anna", ["2S", "3S", "4S", "5S", "6S", "7S"]]], "result": "correct",
        "actual": None, "comment": None,
    }  # fmt: skip
    rec = record_json.from_dict(_doc(hands={}, events=[claim]))
    assert record.dumps(rec).endswith("\n1. Anna claims low-spades: Anna 2S 3S 4S 5S 6S 7S: correct\n")


JSON_ERRORS = [
    # (label, document, exception, code, message start, event number)
    ("not-an-object", [], RecordSyntaxError, "json", "the record: expected an object", None),
    (
        "missing-teams",
        {"format": "halfsuit-record", "version": 1},
        RecordSyntaxError,
        "json",
        "the record: missing key 'teams'",
        None,
    ),
    ("unknown-top-key", _doc(colour="blue"), RecordSyntaxError, "json", "colour: unknown key 'colour'", None),
    ("wrong-format", _doc(format="pgn"), RecordSyntaxError, "json", "format:", None),
    ("wrong-version", _doc(version=2), RecordSyntaxError, "json", "version:", None),
    ("boolean-version", _doc(version=True), RecordSyntaxError, "json", "version:", None),
    ("unknown-info-key", _doc(info={"Teams": "x"}), RecordSyntaxError, "json", "info.Teams: unknown key 'Teams'", None),
    ("two-line-title", _doc(info={"Title": "a\nb"}), RecordSyntaxError, "json", "info.Title:", None),
    ("unknown-rules", _doc(rules="poker"), RecordSyntaxError, "header", "rules: unknown rules", None),
    ("unknown-deck", _doc(deck="tarot"), RecordSyntaxError, "header", "deck: unknown deck", None),
    ("bluffing-not-boolean", _doc(bluffing="yes"), RecordSyntaxError, "json", "bluffing:", None),
    (
        "unknown-house-rule",
        _doc(house=["no-talking"]),
        RecordSyntaxError,
        "header",
        "house[0]: unknown house rule",
        None,
    ),
    ("one-team", _doc(teams=[["Anna", "Ben"]]), RecordSyntaxError, "teams", "teams:", None),
    (
        "name-with-space",
        _doc(teams=[["Anna Lee", "Ben"], ["Dev", "Eli"]]),
        RecordSyntaxError,
        "teams",
        "teams[0][0]:",
        None,
    ),
    (
        "unequal-teams",
        _doc(teams=[["Anna", "Ben", "Cara"], ["Dev", "Eli"]]),
        RecordSyntaxError,
        "teams",
        "teams: both teams",
        None,
    ),
    ("hand-of-unknown-player", _doc(hands={"Zed": ["2S"]}), RecordSyntaxError, "unknown-player", "hands.Zed:", None),
    ("bad-card-in-hand", _doc(hands={"Anna": ["2S", "1S"]}), RecordSyntaxError, "bad-card", "hands.Anna[1]:", None),
    (
        "card-not-in-deck",
        _doc(hands={"Anna": ["2H", "2S", "9S", "9H", "2D", "9D", "2C", "8S"]}),
        RecordSyntaxError,
        "bad-card",
        "hands.Anna[7]: 8S is not in",
        None,
    ),
    (
        "wrong-hand-size",
        _doc(hands={"Anna": ["2S"]}),
        Contradiction,
        "contradiction",
        "hands.Anna: Anna was dealt 8",
        None,
    ),
    (
        "duplicate-card-across-hands",
        _doc(
            hands={
                "Anna": ["2H", "2S", "9S", "9H", "2D", "9D", "2C", "9C"],
                "Ben": ["2S", "JS", "7H", "JH", "4D", "4C", "10C", "JC"],
            }
        ),
        Contradiction,
        "contradiction",
        "hands.Ben[0]: 2S is dealt also in Anna's hand",
        None,
    ),
    ("bad-user-field", _doc(extra=[["Colour", "blue"]]), RecordSyntaxError, "header", "extra[0]:", None),
    (
        "duplicate-user-field",
        _doc(extra=[["X-A", "1"], ["x-a", "2"]]),
        RecordSyntaxError,
        "header",
        "extra[1]: header key",
        None,
    ),
    ("events-not-a-list", _doc(events={}), RecordSyntaxError, "json", "events: expected a list", None),
    (
        "event-not-an-object",
        _doc(events=["Anna asks Dev for 3H: yes"]),
        RecordSyntaxError,
        "json",
        "events[0]: expected an object",
        None,
    ),
    (
        "event-type-not-a-string",
        _event(1, type=["ask"]),
        RecordSyntaxError,
        "json",
        "events[1].type: unknown event type",
        1,
    ),
    ("unknown-event-type", _event(1, type="trade"), RecordSyntaxError, "json", "events[1].type: unknown event", 1),
    ("unknown-event-key", _event(1, colour="blue"), RecordSyntaxError, "json", "events[1].colour: unknown key", 1),
    (
        "missing-event-key",
        _doc(events=[{"type": "pass", "player": "Anna"}]),
        RecordSyntaxError,
        "json",
        "events[0]: missing key 'to'",
        1,
    ),
    (
        "unknown-player",
        _event(2, target="Zed"),
        RecordSyntaxError,
        "unknown-player",
        "events[2].target: 'Zed' is not a player",
        2,
    ),
    ("player-not-a-name", _event(2, target="Z ed"), RecordSyntaxError, "unknown-player", "events[2].target:", 2),
    ("bad-card", _event(2, card="4 H"), RecordSyntaxError, "bad-card", "events[2].card:", 2),
    ("bad-answer", _event(2, answer=False), RecordSyntaxError, "json", "events[2].answer:", 2),
    ("two-line-comment", _event(2, comment="a\nb"), RecordSyntaxError, "json", "events[2].comment:", 2),
    ("separator-in-comment", _event(2, comment="a\u2028b"), RecordSyntaxError, "character", "events[2].comment:", 2),
    (
        "bad-book",
        _doc(
            events=[
                {
                    "type": "claim",
                    "claimant": "Anna",
                    "book": "low-eights",
                    "said": [["Anna", ["2S"]]],
                    "result": "correct",
                }
            ]
        ),
        RecordSyntaxError,
        "bad-book",
        "events[0].book: 'low-eights' is not a book",
        1,
    ),
    (
        "wrong-claim-to-team-3",
        _doc(
            events=[
                {
                    "type": "claim",
                    "claimant": "Anna",
                    "book": "low-spades",
                    "said": [["Anna", ["2S"]]],
                    "result": "wrong",
                    "to_team": 3,
                }
            ]
        ),
        RecordSyntaxError,
        "claim",
        "events[0].to_team: expected 1 or 2",
        1,
    ),
    (
        "wrong-claim-forfeited-and-to-a-team",
        _doc(
            events=[
                {
                    "type": "claim",
                    "claimant": "Anna",
                    "book": "low-spades",
                    "said": [["Anna", ["2S"]]],
                    "result": "wrong",
                    "to_team": 2,
                    "forfeited": True,
                }
            ]
        ),
        RecordSyntaxError,
        "claim",
        "events[0]: a wrong claim has its",
        1,
    ),
    (
        "correct-claim-with-actual",
        _doc(
            events=[
                {
                    "type": "claim",
                    "claimant": "Anna",
                    "book": "low-spades",
                    "said": [["Anna", ["2S"]]],
                    "result": "correct",
                    "actual": [["Anna", ["2S"]]],
                }
            ]
        ),
        RecordSyntaxError,
        "claim",
        "events[0].actual:",
        1,
    ),
    (
        "holder-without-cards",
        _doc(
            events=[
                {"type": "claim", "claimant": "Anna", "book": "low-spades", "said": [["Anna", []]], "result": "correct"}
            ]
        ),
        RecordSyntaxError,
        "claim",
        "events[0].said[0][0]: expected 'HOLDER CARD...'",
        1,
    ),
    (
        "holding-not-pairs",
        _doc(
            events=[
                {
                    "type": "claim",
                    "claimant": "Anna",
                    "book": "low-spades",
                    "said": [["Anna", "2S", "3S"]],
                    "result": "correct",
                }
            ]
        ),
        RecordSyntaxError,
        "json",
        "events[0].said[0]: expected a pair",
        1,
    ),
]


@pytest.mark.parametrize(
    ("doc", "kind", "code", "message", "event"),
    [e[1:] for e in JSON_ERRORS],
    ids=[e[0] for e in JSON_ERRORS],
)
def test_json_malformed(doc: Any, kind: type[HalfsuitError], code: str, message: str, event: int | None) -> None:
    with pytest.raises(HalfsuitError) as info:
        record_json.loads(json.dumps(doc), "game.json")
    exc = info.value
    assert type(exc) is kind
    assert exc.code == code
    assert exc.message.startswith(message), exc.message
    assert exc.event == event
    assert exc.exit_code == (2 if kind is RecordSyntaxError else 1)
    assert exc.path == "game.json"
    # The place is that of the value in the JSON text, all on line 1 here.
    assert exc.line == 1 and exc.col is not None
    assert str(exc).startswith(f"game.json:1:{exc.col}: {message}")


def test_json_syntax_error_has_line_and_column() -> None:
    with pytest.raises(RecordSyntaxError) as info:
        record_json.loads('{\n  "format": "halfsuit-record",\n  "version": 1,,\n}\n', "game.json")
    exc = info.value
    assert (exc.code, exc.line, exc.col, exc.exit_code) == ("json", 3, 16, 2)
    assert exc.source == '  "version": 1,,'
    assert str(exc).startswith("game.json:3:16: not valid JSON")


def test_json_duplicate_key_is_an_error() -> None:
    with pytest.raises(RecordSyntaxError) as info:
        record_json.loads('{"format": "halfsuit-record", "format": "halfsuit-record"}')
    assert info.value.code == "json"
    assert "'format' appears twice" in info.value.message


def test_json_load_unreadable(tmp_path: Path) -> None:
    with pytest.raises(RecordSyntaxError) as info:
        record_json.load(tmp_path / "missing.json")
    assert (info.value.code, info.value.exit_code) == ("unreadable", 2)
