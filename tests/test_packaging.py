"""Start-up and installation: the command line loads only what a command uses, and the runtime
dependencies are exactly the packages the runtime imports."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
HEAVY = ("numpy", "polars", "matplotlib", "pandas", "pyarrow")


def modules_after(code: str) -> set[str]:
    """The top-level packages loaded by running ``code`` in a fresh interpreter."""
    probe = f"{code}\nimport sys\nprint(' '.join(sorted({{m.split('.')[0] for m in sys.modules}})))"
    result = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True, timeout=60
    )
    return set(result.stdout.split())


@pytest.mark.parametrize(
    "code",
    [
        "import cli.main",
        "import analyzer",
        # The commands that answer at the table: loading their modules pulls no heavy library.
        "import analyzer.analysis, analyzer.tactics, analyzer.contracts, analyzer.simulate",
    ],
)
def test_starting_loads_no_heavy_library(code: str) -> None:
    loaded = modules_after(code)
    assert not loaded & set(HEAVY), f"{code!r} loads {sorted(loaded & set(HEAVY))}"


def test_the_help_loads_no_heavy_library() -> None:
    code = "import sys\nsys.argv = ['halfsuit', '--help']\nfrom cli.main import app\ntry:\n    app()\nexcept SystemExit:\n    pass"
    loaded = modules_after(code)
    assert not loaded & set(HEAVY), sorted(loaded & set(HEAVY))
