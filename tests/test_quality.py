"""The project's own checks as tests: ruff, mypy --strict, and the import contract."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, cwd=ROOT, capture_output=True, text=True, check=False)


def test_ruff_is_clean() -> None:
    pytest.importorskip("ruff")
    result = _run(sys.executable, "-m", "ruff", "check", "analyzer", "cli", "tests", "scripts")
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_strict_is_clean() -> None:
    pytest.importorskip("mypy")
    result = _run(sys.executable, "-m", "mypy", "--strict", "analyzer", "cli")
    assert result.returncode == 0, result.stdout + result.stderr


def test_library_never_imports_the_cli_typer_or_rich() -> None:
    pytest.importorskip("importlinter")
    lint = shutil.which("lint-imports") or str(Path(sys.executable).parent / "lint-imports")
    result = _run(lint)
    assert result.returncode == 0, result.stdout + result.stderr
