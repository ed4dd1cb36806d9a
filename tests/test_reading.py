"""Reading records the way people write them: every independent error in one run with a
suggestion, bytes and characters refused where they stand, standard input, many records at
once, move numbers as written, and JSON errors at their place in the JSON file."""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path

import pytest
from typer.testing import CliRunner

from analyzer import json_text, record, record_json, source
from analyzer.errors import MAX_ERRORS, Contradiction, HalfsuitError, RecordErrors, RecordSyntaxError
from cli.main import app

ROOT = Path(__file__).resolve().parents[1]
LOCKOUT = ROOT / "sample_logs" / "lockout.fish"
TEAMS = "Teams: Ann Ben Cat vs Di Eve Zoe\n"


def run(*args: str, stdin: bytes | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, list(args), input=stdin)
    return result.exit_code, result.stdout, result.stderr


def errors_of(text: str, path: str = "draft.fish") -> list[HalfsuitError]:
    with pytest.raises(HalfsuitError) as info:
        record.loads(text, path)
    return info.value.errors


# ---------------------------------------------------------------- every error in one run

DRAFT = (
    "Title: Club night\n"
    "Rule: fish\n" + TEAMS + "\n"  # Rules
    "1. Ann asks Di for 7H: no\n"
    "2. Di ask Ann for 3H: no\n"  # asks
    "3. Ann asks Zeo for 4H: no\n"  # Zoe
    "4. Ann asks Eve for 5H: no\n"
    "5. Eve asks Cat for 6H: yse\n"  # yes
)


def test_four_independent_typos_give_four_errors_each_with_its_suggestion() -> None:
    found = errors_of(DRAFT)
    assert [(e.line, e.col, e.message) for e in found] == [
        (2, 1, "unknown header key 'Rule' (did you mean 'Rules'?)"),
        (6, 7, "cannot read this ask (did you mean 'asks'?)"),
        (7, 13, "'Zeo' is not a player of this game (did you mean 'Zoe'?)"),
        (9, 25, "cannot read this ask (did you mean 'yes'?)"),
    ]
    assert all(isinstance(e, RecordSyntaxError) for e in found)


def test_every_command_prints_every_error(tmp_path: Path) -> None:
    draft = tmp_path / "draft.fish"
    draft.write_text(DRAFT, encoding="utf-8")
    for command in (["validate"], ["format"], ["show"], ["mistakes"]):
        code, _, err = run(*command, str(draft))
        assert code == 2, command
        lines = err.splitlines()
        assert lines[:4] == [
            f"{draft}:2:1: unknown header key 'Rule' (did you mean 'Rules'?)",
            f"{draft}:6:7: cannot read this ask (did you mean 'asks'?)",
            f"{draft}:7:13: 'Zeo' is not a player of this game (did you mean 'Zoe'?)",
            f"{draft}:9:25: cannot read this ask (did you mean 'yes'?)",
        ], command


def test_the_errors_read_as_one_error_with_the_list() -> None:
    with pytest.raises(RecordErrors) as info:
        record.loads(DRAFT, "draft.fish")
    exc = info.value
    # It keeps HalfsuitError's interface, told as its first error.
    assert isinstance(exc, HalfsuitError)
    assert (exc.line, exc.col, exc.code, exc.exit_code, exc.path) == (2, 1, "header", 2, "draft.fish")
    assert len(exc.errors) == 4
    assert [e["line"] for e in exc.to_dict()["errors"]] == [2, 6, 7, 9]
    assert str(exc).count("\n") == 3
    # A lone error is raised as itself.
    with pytest.raises(RecordSyntaxError) as one:
        record.loads(TEAMS + "\nAnn asks Di for 7H: yse\n")
    assert one.value.errors == [one.value]


def test_suggestions_for_values_and_books() -> None:
    text = "Rules: literatur\nDeck: standerd\nBluffing: yse\nHouse: next-askr\n" + TEAMS + "\n"
    text += "Ann claims low-spadez: Ann 2S 3S 4S 5S 6S 7S: corect\n"
    messages = [e.message for e in errors_of(text)]
    assert messages == [
        "unknown rules 'literatur' (did you mean 'literature'?)",
        "unknown deck 'standerd' (did you mean 'standard'?)",
        "Bluffing is 'yes' or 'no', not 'yse' (did you mean 'yes'?)",
        "unknown house rule 'next-askr' (did you mean 'next-asker'?)",
        "cannot read this claim (did you mean 'correct'?)",  # the book is not checked: no deck
    ]
    messages = [e.message for e in errors_of(text.replace("standerd", "standard"))]
    assert messages[-2:] == [
        "'low-spadez' is not a book of the standard deck (did you mean 'low-spades'?)",
        "cannot read this claim (did you mean 'correct'?)",
    ]


def test_no_suggestion_when_nothing_is_close() -> None:
    (error,) = errors_of(TEAMS + "\nAnn asks Quentin for 7H: no\n")
    assert error.message == "'Quentin' is not a player of this game"
    (error,) = errors_of(TEAMS + "\nAnn takes 7H from Di\n")
    assert error.message.startswith("cannot read this line: expected an ask")


def test_errors_that_follow_from_another_are_not_reported() -> None:
    # Without readable teams, names are not checked (every one would be "not a player").
    found = errors_of("Teams: Ann Ben Cat vs Di Eve\n\nAnn asks Di for 7H: no\nAnn asks Di for 1H: no\n")
    assert [(e.line, e.code) for e in found] == [(1, "teams"), (4, "bad-card")]
    # Without a known deck, cards are read but not checked against it.
    found = errors_of("Deck: tarot\n" + TEAMS + "\nAnn asks Di for 8H: no\nAnn asks Zed for 7H: no\n")
    assert [(e.line, e.code) for e in found] == [(1, "header"), (5, "unknown-player")]
    # A misspelled Teams key is the error, not a missing Teams line.
    found = errors_of("Team: Ann Ben Cat vs Di Eve Zoe\n\nAnn asks Di for 7H: no\n")
    assert [e.message for e in found] == ["unknown header key 'Team' (did you mean 'Teams'?)"]
    # A missing blank line is said once; the events are then read as events.
    found = errors_of(TEAMS + "1. Ann asks Di for 7H: no\n2. Di asks Ann for 3H: no\n")
    assert [(e.line, e.message) for e in found] == [
        (2, "an event inside the header: the header ends at the first blank line")
    ]


def test_at_most_twenty_errors_and_how_many_more() -> None:
    text = TEAMS + "\n" + "".join(f"Ann asks Zed for 7H: no  # {i}\n" for i in range(25))
    with pytest.raises(RecordErrors) as info:
        record.loads(text, "long.fish")
    assert len(info.value.errors) == MAX_ERRORS == 20
    assert info.value.more == 5
    assert str(info.value).splitlines()[-1] == "long.fish: 5 more errors not shown"


def test_hand_lines_errors_each_with_their_column() -> None:
    text = TEAMS + "Hand Ann: 2S 3S 4S 5S 6S 7S 9S XS\nHand Zed: 2H\nHand Ben: 2S 2D 2C 3D 3C 4D 4C 5D\n"
    found = errors_of(text)
    assert [(e.line, e.col, type(e).__name__) for e in found] == [
        (2, 32, "RecordSyntaxError"),  # XS
        (3, 6, "RecordSyntaxError"),  # Zed
    ]
    text = TEAMS + "Hand Ann: 2S 3S 4S 5S 6S 7S 9S 10S\nHand Ben: 2S 2D 2C 3D 3C 4D 4C 5D\n"
    (error,) = errors_of(text)
    assert isinstance(error, Contradiction) and (error.line, error.col) == (3, 11)


# ---------------------------------------------------------------- bytes and characters


def test_bytes_that_are_not_utf8_are_reported_by_line_and_column(tmp_path: Path) -> None:
    path = tmp_path / "latin1.fish"
    path.write_bytes(b"Title: Caf\xe9 night\n" + TEAMS.encode() + b"\n1. Ann asks Di for 7H: no  # d\xe9j\xe0 vu\n")
    with pytest.raises(RecordErrors) as info:
        record.load(path)
    assert [(e.line, e.col, e.code) for e in info.value.errors] == [(1, 11, "encoding"), (4, 31, "encoding")]
    assert info.value.errors[0].message == "byte 0xe9 is not UTF-8 text (save the record as UTF-8)"
    code, _, err = run("validate", str(path))
    assert code == 2 and f"{path}:1:11: byte 0xe9" in err and f"{path}:4:31:" in err


@pytest.mark.parametrize(
    ("character", "what"),
    [
        ("\x1b", "an escape character"),
        ("\x0c", "a form feed"),
        ("\x85", "next-line character"),
        ("\u2028", "line separator"),
        ("\u2029", "paragraph separator"),
        ("\r", "a carriage return"),
        ("\x00", "a NUL character"),
        ("\u202e", "right-to-left override"),
        ("\ud800", "a lone surrogate"),
    ],
)
def test_characters_that_change_the_lines_are_refused_where_they_stand(character: str, what: str) -> None:
    # In a title, in a comment after an event, and in a whole-line comment: the error names
    # the line and column of the character, and the lines after it keep their numbers.
    text = f"Title: Finals {character}x\n{TEAMS}\n1. Ann asks Di for 7H: no  # a{character}b\n# c{character}d\n"
    text += "2. Di asks Zed for 3H: no\n"
    found = errors_of(text)
    assert [(e.line, e.col) for e in found] == [(1, 15), (4, 31), (5, 4), (6, 12)]
    assert all(what in e.message for e in found[:3])
    assert found[3].message.startswith("'Zed' is not a player")


def test_tabs_and_crlf_line_ends_are_fine() -> None:
    text = f"Title: a\tb\r\n{TEAMS}\r\n1. Ann asks\tDi for 7H: no  # x\ty\r\n"
    rec = record.loads(text)
    assert rec.info["Title"] == "a\tb" and rec.events[0].comment == "x\ty" and rec.events[0].line == 4


def test_lines_split_only_at_newlines() -> None:
    # str.splitlines would split at these and report a line past the end of the file.
    assert source.split_lines("a\x0cb\u2028c\x85d\r\ne\n") == ["a\x0cb\u2028c\x85d", "e"]
    found = errors_of(f"{TEAMS}\n1. Ann asks Di for 7H: no  # x\u2028y\n")
    assert [e.line for e in found] == [3]


# ---------------------------------------------------------------- stdin and many records


def test_stdin_as_dash_for_every_command_that_reads_a_record() -> None:
    text = LOCKOUT.read_bytes()
    code, out, _ = run("validate", "-", stdin=text)
    assert code == 0 and out.startswith("ok <stdin>: 15 events")
    code, out, _ = run("format", "-", stdin=text)
    assert code == 0 and out.encode() == text
    code, out, _ = run("show", "-", "--json", stdin=text)
    assert code == 0 and json.loads(out)["at"] == 15
    as_json = record_json.dumps(record.load(LOCKOUT)).encode()
    code, out, _ = run("convert", "-", "--to", "fish", stdin=as_json)
    assert code == 0 and out.encode() == text
    code, _, err = run("validate", "-", stdin=b"Teams: A B C vs D E F\n\nA asks Q for 2S: no\n")
    assert code == 2 and err.startswith("<stdin>:3:8: 'Q' is not a player")
    code, _, err = run("format", "-", "--in-place", stdin=text)
    assert code == 2 and "standard input" in err


def test_validate_and_format_check_take_many_records(tmp_path: Path) -> None:
    good = tmp_path / "good.fish"
    good.write_bytes(LOCKOUT.read_bytes())
    untidy = tmp_path / "untidy.fish"
    untidy.write_text(LOCKOUT.read_text(encoding="utf-8").replace("1. ", "", 1), encoding="utf-8")
    broken = tmp_path / "broken.fish"
    broken.write_text(TEAMS + "\nAnn asks Zed for 7H: no\n", encoding="utf-8")
    rule = tmp_path / "rule.fish"
    rule.write_text(TEAMS + "\nAnn asks Ben for 7H: no\n", encoding="utf-8")

    code, out, err = run("validate", str(good), str(untidy), str(rule))
    assert code == 1  # the worst: a rule break
    assert out.count("ok ") == 2
    assert err.splitlines()[-1] == f"1 of 3 records failed: {rule}"

    code, _, err = run("validate", str(good), str(broken), str(rule), str(tmp_path / "missing.fish"))
    assert code == 2  # the worst: a record that cannot be read
    assert f"{broken}:3:10: 'Zed' is not a player" in err
    assert f"{tmp_path / 'missing.fish'}: no such file" in err
    assert err.splitlines()[-1].startswith("3 of 4 records failed: ")

    code, out, _ = run("validate", "--json", str(good), str(broken))
    results = json.loads(out)
    assert code == 2 and [r["path"] for r in results] == [str(good), str(broken)]
    assert results[0]["events"] == 15 and results[1]["errors"][0]["code"] == "unknown-player"

    code, _, err = run("format", "--check", str(good), str(untidy))
    assert code == 1 and err.splitlines() == [f"{untidy}: not in canonical form", f"1 of 2 records failed: {untidy}"]
    code, _, err = run("format", str(good), str(untidy))
    assert code == 2 and "--check or --in-place" in err
    code, _, _ = run("format", "--in-place", str(good), str(untidy))
    assert code == 0 and untidy.read_bytes() == good.read_bytes()


def test_a_record_not_found_beside_a_file_given_first_shows_the_order(tmp_path: Path) -> None:
    """``halfsuit hand RECORD PLAYER``: the player is not a file and the record is, so the error
    says the order may be wrong and shows the usage; a record simply missing says only that."""
    code, _, err = run("hand", str(LOCKOUT), "Ann")
    assert code == 2
    assert err.splitlines() == [
        "Ann: no such file (the arguments in the wrong order?)",
        "Usage: halfsuit hand [OPTIONS] {PLAYER} {RECORD}",
    ]
    code, _, err = run("who-has", str(LOCKOUT), "7H")
    assert code == 2 and err.splitlines()[-1] == "Usage: halfsuit who-has [OPTIONS] {CARD} {RECORD}"
    code, _, err = run("hand", "Ann", str(tmp_path / "missing.fish"))
    assert code == 2 and err.strip() == f"{tmp_path / 'missing.fish'}: no such file"


# ---------------------------------------------------------------- numbers as written


def test_validate_warns_about_move_numbers_out_of_step(tmp_path: Path) -> None:
    # Number 4 skipped, 6 written twice, the eighth event without a number.
    written = [1, 2, 3, 5, 6, 6, 7, None, 9, 10, 11, 12, 13, 14, 15]
    lines = LOCKOUT.read_text(encoding="utf-8").splitlines(keepends=True)
    numbered = [i for i, line in enumerate(lines) if line[:1].isdigit()]
    for i, number in zip(numbered, written, strict=True):
        event = lines[i].split(". ", 1)[1]
        lines[i] = event if number is None else f"{number}. {event}"
    path = tmp_path / "numbers.fish"
    path.write_text("".join(lines), encoding="utf-8")
    rec = record.load(path)
    assert [e.number for e in rec.events] == written
    code, out, err = run("validate", str(path))
    assert code == 0 and out.startswith("ok ")
    line = rec.events[3].line
    assert err.splitlines() == [
        f"{path}:{line}: warning: move numbers jump from 3 to 5: number 4 is missing (an event left out?)",
        f"{path}:{line + 2}: warning: move number 6 is used again (first on line {line + 1})",
        f"{path}:{line + 4}: warning: this event has no move number (the others have one)",
    ]
    code, out, _ = run("validate", "--json", str(path))
    assert code == 0 and [w["number"] for w in json.loads(out)["warnings"]] == [5, 6, None]
    # format numbers the events 1..N.
    code, out, _ = run("format", str(path))
    numbers = [int(line.split(".")[0]) for line in out.splitlines() if line[:1].isdigit()]
    assert numbers == list(range(1, len(rec.events) + 1))
    # A number far ahead is likely mistyped; one too long to be a number is an error.
    far = record.loads(TEAMS + "\n1. Ann asks Di for 7H: no\n999999999. Di asks Ann for 3H: no\n")
    assert [w.message for w in record.number_warnings(far)] == [
        "move numbers jump from 1 to 999999999: is the number mistyped?"
    ]
    (error,) = errors_of(TEAMS + "\n" + "1" * 5000 + ". Ann asks Di for 7H: no\n")
    assert (error.line, error.col, error.message) == (3, 1, "a move number of 5,000 digits (at most 9)")
    # A record without numbers, or with them in step, gets no warning.
    assert record.number_warnings(record.load(LOCKOUT)) == []
    assert record.number_warnings(record.loads(TEAMS + "\nAnn asks Di for 7H: no\n")) == []


# ---------------------------------------------------------------- JSON errors at their place


def _pretty(doc: dict[str, object]) -> str:
    return json.dumps(doc, indent=2, ensure_ascii=False)


def _doc(**changes: object) -> dict[str, object]:
    doc: dict[str, object] = {
        "format": "halfsuit-record",
        "version": 1,
        "info": {"Title": "Finals"},
        "teams": [["Ann", "Ben", "Cat"], ["Di", "Eve", "Zoe"]],
        "events": [
            {"type": "ask", "asker": "Ann", "target": "Di", "card": "7H", "answer": "no"},
            {"type": "ask", "asker": "Di", "target": "Ann", "card": "3H", "answer": "no"},
        ],
    }
    doc.update(changes)
    return doc


def _line_of(text: str, needle: str) -> tuple[int, int]:
    """1-based line and column of the first occurrence of ``needle``."""
    offset = text.index(needle)
    line, col, _ = json_text.line_col(text, offset)
    return line, col


def test_json_lone_surrogate_is_refused_at_its_place(tmp_path: Path) -> None:
    # The record: it passed validate, then crashed format, convert, show and report.
    text = '{"format":"halfsuit-record","version":1,"info":{"Title":"\\ud800"},"teams":[["A","B","C"],["D","E","F"]]}'
    with pytest.raises(RecordSyntaxError) as info:
        record_json.loads(text, "c.json")
    assert str(info.value) == "c.json:1:58: info.Title: a lone surrogate (\\ud800) is not a character"
    path = tmp_path / "c.json"
    path.write_text(text, encoding="utf-8")
    for command in (["validate"], ["format"], ["convert", "--to", "fish"], ["show"]):
        code, out, err = run(*command, str(path))
        assert (code, out) == (2, ""), command
        assert err == f"{path}:1:58: info.Title: a lone surrogate (\\ud800) is not a character\n", command
    # A pair of surrogates is one character, and fine.
    assert record_json.loads(text.replace("\\ud800", "\\ud83d\\ude00")).info["Title"] == "\U0001f600"


def test_json_control_characters_are_refused_at_their_place() -> None:
    text = _pretty(_doc(info={"Title": "Finals \u001b[2J"}))
    with pytest.raises(RecordSyntaxError) as info:
        record_json.loads(text, "c.json")
    assert info.value.message == (
        "info.Title: an escape character is not allowed in a record (lines end only at a newline; tabs are fine)"
    )
    assert (info.value.line, info.value.col) == _line_of(text, '"Finals')


def test_json_errors_cite_the_json_path_line_and_column() -> None:
    doc = _doc()
    doc["events"][1]["target"] = "Zed"  # type: ignore[index]
    doc["events"][0]["card"] = "8H"  # type: ignore[index]
    text = _pretty(doc)
    with pytest.raises(RecordErrors) as info:
        record_json.loads(text, "c.json")
    first, second = info.value.errors
    line, col = _line_of(text, '"8H"')
    assert str(first) == f"c.json:{line}:{col}: events[0].card: 8H is not in the standard deck"
    assert second.message == "events[1].target: 'Zed' is not a player of this game (did you mean 'Zoe'?)"
    assert (second.line, second.col) == _line_of(text, '"Zed"')
    assert (first.event, second.event) == (1, 2)


def test_json_rule_breaks_cite_the_line_of_the_event_in_the_json(tmp_path: Path) -> None:
    doc = _doc()
    doc["events"][1]["asker"] = "Eve"  # type: ignore[index]
    path = tmp_path / "c.json"
    path.write_text(_pretty(doc), encoding="utf-8")
    line = _pretty(doc).splitlines().index("    {", _line_of(_pretty(doc), '"asker": "Ann"')[0]) + 1
    code, _, err = run("validate", str(path))
    assert code == 1 and err.startswith(f"{path}:{line}: Eve asks")


def test_json_contradictions_cite_the_line_of_the_event_in_the_json(tmp_path: Path) -> None:
    events = [
        {"type": "ask", "asker": "Ann", "target": "Di", "card": "7H", "answer": "no"},
        {"type": "ask", "asker": "Di", "target": "Ann", "card": "3H", "answer": "no"},
        {"type": "ask", "asker": "Ann", "target": "Di", "card": "7H", "answer": "yes"},
    ]
    path = tmp_path / "c.json"
    path.write_text(_pretty(_doc(events=events)), encoding="utf-8")
    places = json_text.parse(path.read_text(encoding="utf-8"))
    line = places.place("events[2]")[0]  # type: ignore[index]
    code, _, err = run("validate", str(path))
    assert code == 1
    assert err.startswith(f"{path}:{line}: ") and "Di answers no, but held 7♥" in err


@pytest.mark.parametrize(
    ("changes", "where"),
    [
        ({"rules": "literature\n"}, "rules"),
        ({"deck": "standard\n"}, "deck"),
        ({"teams": [["Ann\n", "Ben", "Cat"], ["Di", "Eve", "Zoe"]]}, "teams[0][0]"),
        ({"info": {"Title": "Finals\n"}}, "info.Title"),
        ({"house": ["next-asker\n"]}, "house[0]"),
        ({"extra": [["X-Table", "2\n"]]}, "extra[0][1]"),
    ],
)
def test_json_values_ending_in_a_newline_are_refused_at_the_json_check(changes: dict[str, object], where: str) -> None:
    text = _pretty(_doc(**changes))
    with pytest.raises(RecordSyntaxError) as info:
        record_json.loads(text, "c.json")
    assert info.value.message.startswith(f"{where}: ")
    assert info.value.line is not None and info.value.line > 1


def test_json_nested_5000_deep_and_huge_integers_are_clear_errors(tmp_path: Path) -> None:
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 5000 + "]" * 5000, encoding="utf-8")
    code, _, err = run("validate", str(deep))
    assert code == 2
    assert err == f"{deep}:1:65: not valid JSON: nested deeper than 64 levels (a record nests six deep)\n"
    huge = tmp_path / "huge.json"
    huge.write_text('{"format": "halfsuit-record", "version": 1' + "0" * 4400 + "}", encoding="utf-8")
    code, _, err = run("validate", str(huge))
    assert code == 2
    assert err == f"{huge}:1:42: version: a number of 4,401 characters (at most 30)\n"


@pytest.mark.parametrize(
    ("text", "message", "col"),
    [
        ('{"format": "halfsuit-record",, }', "not valid JSON: expected a key in double quotes", 30),
        ('{"a": 1, "a": 2}', "the record: the key 'a' appears twice in one object", 10),
        ('{"a": NaN}', 'not valid JSON: expected a value, not "N"', 7),
        ('{"a": "x\ty"}', "not valid JSON: a control character (U+0009) in a string must be escaped", 9),
        ('{"a": "\\x"}', "not valid JSON: an unknown escape in a string", 8),
        ('{"a": "x', "not valid JSON: a string without its closing quote", 7),
        ('{"a": 1} 2', "not valid JSON: more text after the JSON value", 10),
        ("", "not valid JSON: the text ends where a value should be", 1),
    ],
)
def test_json_syntax_errors(text: str, message: str, col: int) -> None:
    with pytest.raises(RecordSyntaxError) as info:
        record_json.loads(text, "c.json")
    assert (info.value.message, info.value.line, info.value.col) == (message, 1, col)


# ---------------------------------------------------------------- limits


def test_only_regular_files_are_read(tmp_path: Path) -> None:
    fifo = tmp_path / "game.fish"
    os.mkfifo(fifo)
    # In a thread: a reader that blocked on the FIFO (or read /dev/zero to its end) would fail
    # the test instead of hanging it.
    for target in (str(fifo), "/dev/zero"):
        result: list[tuple[int, str, str]] = []
        worker = threading.Thread(target=lambda t=target, r=result: r.append(run("validate", t)), daemon=True)
        worker.start()
        worker.join(timeout=20)
        assert result, f"reading {target} did not return"
        message = f"{target}: not a regular file: records are read from files (or '-' for standard input)\n"
        assert result[0][0] == 2 and result[0][2] == message
    code, _, err = run("validate", str(tmp_path))
    assert code == 2 and err == f"{tmp_path}: a folder, not a record\n"


def test_records_larger_than_the_limit_are_refused(tmp_path: Path) -> None:
    big = tmp_path / "big.fish"
    big.write_text(TEAMS + "\n" + "# " + "x" * source.MAX_BYTES + "\n", encoding="utf-8")
    code, _, err = run("validate", str(big))
    assert (
        code == 2
        and err
        == f"{big}: the record is larger than 1 MiB, the most halfsuit reads (a whole game is a few kilobytes)\n"
    )
    code, _, err = run("validate", "-", stdin=big.read_bytes())
    assert code == 2 and err.startswith("<stdin>: the record is larger than 1 MiB")


def test_records_with_more_events_than_the_limit_are_refused() -> None:
    cycle = ("Ann asks Di for 2S: yes", "Ann asks Di for 3S: no", "Di asks Ann for 2S: yes", "Di asks Ann for 4H: no")
    events = "".join(f"{cycle[i % 4]}\n" for i in range(source.MAX_EVENTS + 1))
    text = TEAMS + "\n" + events
    assert len(text.encode()) < source.MAX_BYTES
    (error,) = errors_of(text)
    assert (error.line, error.code) == (source.MAX_EVENTS + 3, "too-many-events")
    assert error.message == "more than 10,000 events, the most halfsuit reads (a game has a few hundred)"
    assert len(record.loads(TEAMS + "\n" + events[: events.rindex("Ann")]).events) == source.MAX_EVENTS
