"""Regenerate the golden report files the tests compare against, and the samples under reports/.

Run after a deliberate change to reports (or to the analysis they show), then read the diff of
``tests/golden/`` and ``reports/`` before committing:

    python scripts/regen_golden.py

The cases live in ``tests/test_report.py`` (``GOLDEN``), so the test and this script agree; the
tests also check that ``write_samples`` gives the committed reports/ byte for byte.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from analyzer.record import load  # noqa: E402
from analyzer.replay import replay  # noqa: E402
from analyzer.report import ReportFiles, write_report  # noqa: E402
from tests.test_report import GOLDEN, GOLDEN_DIR, golden_markdown  # noqa: E402

# The sample report and replay page committed under reports/ and linked from the README: a
# whole simulated game.
SAMPLE = ROOT / "sample_logs" / "simulated-game.fish"
SAMPLES = ROOT / "reports"


def write_samples(out_dir: Path) -> ReportFiles:
    """The sample report, its charts and its replay page, written into ``out_dir``."""
    return write_report(replay(load(SAMPLE)), out_dir)


def main() -> None:
    GOLDEN_DIR.mkdir(parents=True, exist_ok=True)
    for name, (record, view) in GOLDEN.items():
        path = GOLDEN_DIR / name
        with path.open("w", encoding="utf-8", newline="\n") as f:
            f.write(golden_markdown(record, view))
        print(path.relative_to(ROOT))
    for written in write_samples(SAMPLES).paths:
        print(written.relative_to(ROOT))


if __name__ == "__main__":
    main()
