"""The test suite itself: committed fixtures are required, and CI fails when nothing is tested."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from .fixtures import committed

ROOT = Path(__file__).resolve().parents[1]


def test_committed_fixtures_are_required_not_skipped() -> None:
    """No test skips over, or quietly empties its cases for, a committed file it cannot find."""
    guards = re.compile(r"skipif\([^)]*(not [A-Z_]+|exists\(\))|\.exists\(\) else|pytest\.skip\([^)]*not found")
    for path in sorted((ROOT / "tests").glob("*.py")):
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            if "chromium" in line:  # a browser is installed by CI, not committed
                continue
            assert not guards.search(line), f"{path.name}:{n}: {line.strip()}"


def test_a_missing_fixture_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match="committed test data is missing"):
        committed(tmp_path, "*.fish")
    (tmp_path / "a.fish").write_text("")
    assert committed(tmp_path, "*.fish") == [tmp_path / "a.fish"]


def test_ci_fails_when_no_test_is_collected(tmp_path: Path) -> None:
    """.ci/run with a pytest that collects nothing (exit 5) exits non-zero; 0 and 1 pass through."""
    bash = shutil.which("bash")
    assert bash is not None
    script = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    # Run the script's test step alone, with a stand-in pytest that exits as told.
    step = script[script.index("# The README's test command") :]
    fake = tmp_path / "bin"
    fake.mkdir()
    (fake / "python").write_text('#!/bin/sh\nexit "$FAKE_PYTEST_EXIT"\n')
    (fake / "python").chmod(0o755)
    for pytest_exit, expected in ((0, 0), (1, 1), (5, 1)):
        env = {**os.environ, "PATH": f"{fake}:{os.environ['PATH']}", "FAKE_PYTEST_EXIT": str(pytest_exit)}
        result = subprocess.run([bash, "-c", "set -euo pipefail\n" + step], env=env, capture_output=True, check=False)
        assert result.returncode == expected, (pytest_exit, result.stderr)
