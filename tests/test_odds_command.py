"""The ``odds`` command when a view costs more than the counter's budget: the holders still
stand, the title names the moment as the record numbers it, and the odds are said to be missing."""

from __future__ import annotations

import importlib
import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cli.main import app

ODDS = importlib.import_module("analyzer.odds")  # the module (``analyzer.odds`` names the API function)

LOCKOUT = Path(__file__).parent.parent / "sample_logs" / "lockout.fish"
WHY = "the exact odds of this view cost more than the counter's budget: about 40 s"


@pytest.fixture()
def renumbered(tmp_path: Path) -> Path:
    """The lockout record with its events numbered from 21."""
    text = re.sub(r"(?m)^(\d+)\. ", lambda m: f"{int(m.group(1)) + 20}. ", LOCKOUT.read_text())
    path = tmp_path / "renumbered.fish"
    path.write_text(text)
    return path


def test_odds_too_costly_names_the_moment_as_written(renumbered: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ODDS, "odds_or_reason", lambda pos: WHY)
    result = CliRunner().invoke(app, ["odds", str(renumbered), "--at", "3", "--as", "Anna"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == "Who can hold each card after event 23, as Anna sees it"
    assert lines[1] == f"odds not counted: {WHY}"
    # Anna's own 2♠ is hers alone; 4♠ (with Fay, unknown to Anna yet) could be with any of the others.
    two = next(line for line in lines if "2♠" in line).split()
    four = next(line for line in lines if "4♠" in line).split()
    assert two[-7:] == ["2♠", "•", "·", "·", "·", "·", "·"]
    assert four[-6:] == ["·", "•", "•", "•", "•", "•"]


def test_odds_too_costly_json_gives_holders(renumbered: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ODDS, "odds_or_reason", lambda pos: WHY)
    result = CliRunner().invoke(app, ["odds", str(renumbered), "--at", "3", "--as", "Anna", "--json"])
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert data["deals"] is None and data["not_counted"] == WHY
    assert list(data["cards"]["2S"]) == ["Anna"]
