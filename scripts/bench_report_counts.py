"""Time, in this one process, the counting a report hands to its worker processes.

    python scripts/bench_report_counts.py [RECORD] [--workers N]

The jobs are the report's (``study``): the exact odds of every step of every view, in the
stretches ``odds_jobs`` cuts for N workers (``count_steps``), and the deals once each ask is made
(``information.ask_counts``), one after the other in this process. Prints the processor time of each part
(``time.process_time``): what the workers spend counting, without their start-up.
"""

from __future__ import annotations

import argparse
import time

from analyzer.analysis import judged_views
from analyzer.hindsight import deal_in_hindsight
from analyzer.information import ask_counts, ask_spans
from analyzer.odds import keep_freed_memory
from analyzer.record import load
from analyzer.replay import replay
from analyzer.replay_page import count_steps, odds_jobs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("record", nargs="?", default="sample_logs/simulated-game.fish")
    parser.add_argument("--workers", type=int, default=2, help="cut the jobs as for this many workers")
    args = parser.parse_args()
    keep_freed_memory()
    game = replay(load(args.record))
    worked_out = deal_in_hindsight(game).worked_out
    views = judged_views(game, worked_out)
    last = game.trusted_until
    jobs = odds_jobs(views, last, worked_out, args.workers)
    spans = ask_spans(last, args.workers)
    start = time.process_time()
    for job in jobs:
        count_steps(game, job)
    steps = time.process_time() - start
    start = time.process_time()
    for span in spans:
        ask_counts(game, span, steps=False)
    asks = time.process_time() - start
    print(f"odds of every step: {steps:.3f} s ({len(jobs)} jobs); asks: {asks:.3f} s; together {steps + asks:.3f} s")


if __name__ == "__main__":
    main()
