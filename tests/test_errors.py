"""One family of errors: whatever path finds that no deal fits, it is exit 1 with its event."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from analyzer.errors import Contradiction, HalfsuitError
from analyzer.knowledge import ViewTracker
from analyzer.odds import card_odds, count_deals
from analyzer.record import loads
from analyzer.replay import replay
from analyzer.solver import NoFit
from cli.main import app

# Anna holds 2♣–5♣. Dev and Fay each ask for a low club they lack, so each holds 6♣ or 7♣ but
# not the one asked; Eli asks for 7♣, so he holds 6♣. Only Anna's hand makes this impossible: in
# public the three may hold her low clubs.
THREE_WANT_ONE = """Title: Three opponents each hold the last low club
Teams: Anna Ben Cara vs Dev Eli Fay
Hand Anna: 2C 3C 4C 5C 10H JH QH KH

1. Dev asks Ben for 6C: no
2. Ben asks Eli for 9H: no
3. Eli asks Cara for 7C: no
4. Cara asks Fay for 9D: no
5. Fay asks Anna for 6C: no
"""


def test_no_fit_is_a_contradiction() -> None:
    game = replay(loads(THREE_WANT_ONE))
    pos = ViewTracker(game, "Anna").position(5)
    for count in (card_odds, count_deals):
        with pytest.raises(Contradiction) as info:
            count(pos)
        assert isinstance(info.value, NoFit) and isinstance(info.value, HalfsuitError)
        assert info.value.exit_code == 1


@pytest.mark.parametrize("command", ["suggest", "odds", "who-has", "state"])
def test_a_contradiction_found_by_any_command_is_exit_1_with_its_event(tmp_path: Path, command: str) -> None:
    path = tmp_path / "contra.fish"
    path.write_text(THREE_WANT_ONE)
    args = [command, str(path), "--as", "Anna"]
    if command == "who-has":
        args.insert(1, "7C")
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 1, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert f"{path}:9: no deal fits Anna's hand and the record after event 5" in result.stderr
    assert "Traceback" not in result.stderr
