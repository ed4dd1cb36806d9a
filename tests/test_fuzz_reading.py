"""Fuzzing both record readers: whatever the input (mutated records, surrogates, control
characters, deep nesting, huge numbers, bytes that are not UTF-8), reading ends in a record or
in a HalfsuitError, never another exception; and every record it accepts round-trips through
both forms. A small budget runs in the default suite, a large one under ``-m slow``."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from analyzer import record, record_json, source
from analyzer.errors import HalfsuitError
from analyzer.record import Record

ROOT = Path(__file__).resolve().parents[1]
# Seeds with every kind of event and header: a missing one is an error (read_text raises).
SEEDS = [
    (ROOT / "sample_logs" / name).read_text(encoding="utf-8")
    for name in ("lockout.fish", "wrong-claim-opponent.fish", "run-out-and-pass.fish", "jokers.fish", "bluffing.fish")
]
SMALL, LARGE = 40, 2_000

# Characters that break naive readers: line and paragraph separators, controls, surrogates,
# text direction controls, the separators of the format, and a few ordinary ones.
TRICKY = (
    "\n\r\t\x00\x0b\x0c\x1b\x1c\x7f\x85\xa0\u2028\u2029\u202e\u2066\ufeff\ud800\udfff"
    ":#,;. -_[]{}\"'\\0123456789aAsSvV♠♥é\U0001f600"
)
tricky_text = st.text(alphabet=st.sampled_from(TRICKY) | st.characters(), max_size=12)
long_runs = st.builds(lambda c, n: c * n, st.sampled_from(["9", " ", ":", "#", "\t", "a"]), st.integers(1, 6_000))


def _reads(read: Callable[[], Record]) -> Record | None:
    """The record read, or None when the reader refused the input as it should (HalfsuitError)."""
    try:
        return read()
    except HalfsuitError as exc:
        assert exc.errors and all(isinstance(e, HalfsuitError) for e in exc.errors)
        assert str(exc)  # every error can be told
        return None


def _round_trips(rec: Record) -> None:
    """An accepted record reads back the same from its canonical text and from its JSON."""
    text = record.dumps(rec)
    assert record.dumps(record.loads(text)) == text
    as_json = record_json.dumps(rec)
    assert record.dumps(record_json.loads(as_json)) == text
    assert record_json.dumps(record_json.loads(as_json)) == as_json


@st.composite
def mutated_records(draw: st.DrawFn) -> str:
    """A sample record with a few lines or characters changed."""
    lines = draw(st.sampled_from(SEEDS)).split("\n")
    for _ in range(draw(st.integers(1, 4))):
        i = draw(st.integers(0, len(lines) - 1))
        kind = draw(st.sampled_from(["insert", "replace-line", "delete", "duplicate", "cut"]))
        if kind == "insert":
            at = draw(st.integers(0, len(lines[i])))
            lines[i] = lines[i][:at] + draw(tricky_text | long_runs) + lines[i][at:]
        elif kind == "replace-line":
            lines[i] = draw(tricky_text)
        elif kind == "delete":
            del lines[i]
        elif kind == "duplicate":
            lines.insert(i, lines[i])
        else:
            lines[i] = lines[i][: draw(st.integers(0, len(lines[i])))]
        if not lines:
            lines = [""]
    return "\n".join(lines)


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False)
    | tricky_text
    | st.sampled_from(["Anna", "7S", "low-spades", "yes", "wrong", "ask", "claim", "comment"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(tricky_text, inner, max_size=4),
    max_leaves=12,
)


@st.composite
def mutated_json(draw: st.DrawFn) -> str:
    """A sample record's JSON with one value replaced somewhere, or its text cut or spliced."""
    doc: Any = record_json.to_dict(record.loads(draw(st.sampled_from(SEEDS))))
    parent: Any = None
    key: Any = None
    node = doc
    for _ in range(draw(st.integers(1, 4))):
        keys = list(node) if isinstance(node, dict) else list(range(len(node))) if isinstance(node, list) else []
        if not keys:
            break
        parent, key = node, draw(st.sampled_from(keys))
        if not isinstance(node[key], dict | list) or draw(st.booleans()):
            break
        node = node[key]
    if parent is not None:
        parent[key] = draw(json_values)
    text = json.dumps(doc, indent=draw(st.sampled_from([None, 2])), ensure_ascii=draw(st.booleans()))
    if draw(st.booleans()):
        at = draw(st.integers(0, len(text)))
        text = text[:at] + draw(tricky_text) + text[at + draw(st.integers(0, 3)) :]
    return text


nesting = st.builds(
    lambda n, bracket: bracket[0] * n + bracket[1] * n,
    st.integers(1, 20_000),
    st.sampled_from(["[]", '{"a":}', "[{}]"]),
)
huge_numbers = st.builds(
    lambda digits, where: where.replace("N", digits),
    st.text(alphabet="0123456789", min_size=1, max_size=6_000),
    st.sampled_from(['{"version": N}', "[N]", "N", '{"format": "halfsuit-record", "version": -N.5e3}']),
)


@st.composite
def valid_records(draw: st.DrawFn) -> str:
    """Record text that must be accepted: free text of any printable characters, comments,
    names and events of the right shape (the rules of play are not the reader's business)."""
    free = st.text(
        alphabet=st.characters(blacklist_categories=("Cs", "Cc", "Zl", "Zp"), blacklist_characters="\u202e\u2066"),
        max_size=20,
    )
    letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-"
    name = st.builds(lambda a, b: a + b, st.sampled_from(letters[:52]), st.text(alphabet=letters, max_size=6))
    names = draw(st.lists(name, min_size=6, max_size=6, unique_by=str.lower))
    if any(n.lower() in ("vs", "asks", "claims", "declares", "passes", "to", "for") for n in names):
        names = ["Anna", "Ben", "Cara", "Dev", "Eli", "Fay"]
    lines = [
        f"Title: {draw(free)}",
        f"X-Note: {draw(free)}",
        f"Teams: {' '.join(names[:3])} vs {' '.join(names[3:])}",
        "",
    ]
    cards = ["2S", "7H", "10D", "QC", "AS", "9H"]
    for i in range(draw(st.integers(0, 8))):
        asker, target = draw(st.sampled_from(names)), draw(st.sampled_from(names))
        number = f"{draw(st.integers(1, 300))}. " if draw(st.booleans()) else ""
        line = (
            f"{number}{asker} asks {target} for {draw(st.sampled_from(cards))}: {draw(st.sampled_from(['yes', 'no']))}"
        )
        if draw(st.integers(0, 3)) == 0:  # a claim, correct or wrong in each of its forms
            holding = f"{asker} 2S 3S 4S, {target} 5S 6S 7S"
            verdict = draw(
                st.sampled_from(
                    [
                        "correct",
                        f"wrong; actual {holding}",
                        "wrong",
                        "wrong, to team 2",
                        "wrong, forfeited",
                        f"wrong, scored by {target}",
                    ]
                )
            )
            line = f"{number}{asker} {draw(st.sampled_from(['claims', 'declares']))} LS: {holding}: {verdict}"
        if draw(st.booleans()):
            line += f"  # {draw(free)}"
        lines.append(line if i % 3 else f"# {draw(free)}")
    return "\n".join(lines) + "\n"


def _text_reader(budget: int) -> Callable[..., None]:
    @settings(max_examples=budget, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(mutated_records() | tricky_text)
    def run(text: str) -> None:
        rec = _reads(lambda: record.loads(text, "fuzz.fish"))
        if rec is not None:
            _round_trips(rec)

    return run


def _bytes_reader(budget: int) -> Callable[..., None]:
    @settings(max_examples=budget, deadline=None)
    @given(st.binary(max_size=200) | mutated_records().map(lambda t: t.encode("utf-8", "surrogatepass")))
    def run(data: bytes) -> None:
        def read() -> Record:
            return record.loads(source.decode(data, "fuzz.fish"), "fuzz.fish")

        rec = _reads(read)
        if rec is not None:
            _round_trips(rec)

    return run


def _json_reader(budget: int) -> Callable[..., None]:
    @settings(max_examples=budget, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(mutated_json() | nesting | huge_numbers | tricky_text)
    def run(text: str) -> None:
        rec = _reads(lambda: record_json.loads(text, "fuzz.json"))
        if rec is not None:
            _round_trips(rec)

    return run


def _valid_round_trip(budget: int) -> Callable[..., None]:
    @settings(max_examples=budget, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(valid_records())
    def run(text: str) -> None:
        rec = record.loads(text)  # must be accepted
        _round_trips(rec)
        # The comments and free text are kept (up to the blanks at their ends).
        assert rec.info.get("Title", "") == text.split("\n")[0][len("Title:") :].strip()

    return run


test_text_reader_refuses_only_with_halfsuit_errors = _text_reader(SMALL)
test_bytes_reader_refuses_only_with_halfsuit_errors = _bytes_reader(SMALL)
test_json_reader_refuses_only_with_halfsuit_errors = _json_reader(SMALL)
test_valid_records_round_trip = _valid_round_trip(SMALL)
test_text_reader_long = pytest.mark.slow(_text_reader(LARGE))
test_bytes_reader_long = pytest.mark.slow(_bytes_reader(LARGE))
test_json_reader_long = pytest.mark.slow(_json_reader(LARGE))
test_valid_records_round_trip_long = pytest.mark.slow(_valid_round_trip(LARGE))
