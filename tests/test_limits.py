"""Bad input at scale: records far larger than any real game are read and analysed in time
linear in their length."""

from __future__ import annotations

import time

from analyzer import record
from analyzer.analysis import analyze
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
