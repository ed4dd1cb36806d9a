"""Bad input at scale: records far larger than any real game are read and analysed in time
linear in their length."""

from __future__ import annotations

import time

import pytest

from analyzer import record, record_json
from analyzer.analysis import analyze
from analyzer.errors import RecordSyntaxError
from analyzer.replay import replay

TEAMS = "Teams: Anna Ben Cara vs Dev Eli Fay\n"


def _long_record(events: int) -> str:
    """A legal unfinished game that never ends: 2♠ goes back and forth between Anna and Dev,
    and both keep asking about the same books."""
    cycle = (
        "Anna asks Dev for 2S: yes",
        "Anna asks Dev for 3S: no",
        "Dev asks Anna for 2S: yes",
        "Dev asks Anna for 4H: no",
    )
    lines = [f"{i + 1}. {cycle[i % len(cycle)]}" for i in range(events)]
    return TEAMS + "\n" + "\n".join(lines) + "\n"


def _seconds(events: int) -> float:
    """CPU time to read, replay and solve every public step of a record (the least of two runs)."""
    text = _long_record(events)
    best = float("inf")
    for _ in range(2):
        start = time.process_time()
        game = replay(record.loads(text))
        analyze(game, upto=len(game.events), workers=1)
        best = min(best, time.process_time() - start)
    return best


def test_analysis_time_grows_linearly_with_the_record() -> None:
    # Quadratic work made 8,000 events take 3.5 times as long as 4,000; here four times the
    # events may take at most eight times as long (linear: four; quadratic: sixteen).
    small, large = _seconds(1_500), _seconds(6_000)
    assert large < 8 * small, (small, large)


def test_a_long_line_is_read_in_linear_time() -> None:
    # Blanks or colons a regular expression could split many ways once took minutes on one line.
    for line in (
        "Anna claims x: " + " " * 300_000 + "y",
        "Anna claims " + "a:" * 150_000,
        "Anna asks Dev " + ": " * 150_000,
        "Anna asks Dev for 7S" + " " * 300_000 + "x",
    ):
        start = time.process_time()
        with pytest.raises(RecordSyntaxError) as info:
            record.loads(TEAMS + "\n" + line + "\n")
        assert info.value.code == "garbled" and info.value.line == 3
        assert time.process_time() - start < 2, line[:20]


def test_json_records_are_read_in_time_linear_in_their_length() -> None:
    # Each event's line in the JSON was once found by counting the newlines before it.
    def seconds(events: int) -> float:
        text = record_json.dumps(record.loads(_long_record(events)))
        start = time.process_time()
        record_json.loads(text)
        return time.process_time() - start

    small, large = seconds(1_500), seconds(6_000)
    assert large < 8 * small, (small, large)
