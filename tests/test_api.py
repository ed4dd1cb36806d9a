"""The Python API: every public name is documented with an example, and the examples run."""

from __future__ import annotations

import doctest
import subprocess
import sys
import types
from dataclasses import replace
from pathlib import Path

import pytest

import analyzer
from analyzer import api, tables

ROOT = Path(__file__).resolve().parents[1]


def run_examples(module: types.ModuleType) -> doctest.TestResults:
    """The module's examples, with what its docstring sets up (the lockout game, the API)."""
    game = analyzer.replay(analyzer.load(ROOT / "sample_logs" / "lockout.fish"))
    names = {name: getattr(analyzer, name) for name in analyzer.__all__}
    return doctest.testmod(module, extraglobs={**names, "game": game}, optionflags=doctest.ELLIPSIS)


@pytest.mark.parametrize("module", [analyzer, api, tables], ids=lambda m: m.__name__)
def test_the_examples_run(module: types.ModuleType, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)  # the examples name the sample records from the project's root
    result = run_examples(module)
    assert result.attempted > 0 and result.failed == 0


def test_every_public_function_has_an_example() -> None:
    for name in analyzer.__all__:
        value = getattr(analyzer, name)
        if isinstance(value, types.FunctionType):
            assert value.__doc__ and ">>>" in value.__doc__, name


def test_the_readme_import_line_gives_functions() -> None:
    from analyzer import holders, load, mistakes, odds, replay

    for fn in (load, replay, holders, odds, mistakes):
        assert callable(fn) and not isinstance(fn, types.ModuleType)
    # Importing the modules of the same names keeps the functions in the namespace.
    import analyzer.odds
    import analyzer.report

    assert isinstance(analyzer.odds, types.FunctionType) and isinstance(analyzer.report, types.FunctionType)


def test_the_package_ships_type_information() -> None:
    assert (ROOT / "analyzer" / "py.typed").is_file()
    with (ROOT / "pyproject.toml").open("rb") as f:
        import tomllib

        data = tomllib.load(f)
    assert "py.typed" in data["tool"]["setuptools"]["package-data"]["analyzer"]


def test_tables_convert_to_pandas() -> None:
    game = analyzer.replay(analyzer.load(ROOT / "sample_logs" / "lockout.fish"))
    frame = analyzer.events_table(game).to_pandas()
    assert list(frame["kind"][:3]) == ["ask", "ask", "ask"] and len(frame) == 15


def test_the_example_notebook_runs(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, str(ROOT / "docs" / "example.py"), str(tmp_path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    assert "Eli" in result.stdout and (tmp_path / "lockout.html").is_file()


@pytest.mark.parametrize("at", [-1, 16])
def test_a_step_outside_the_game_is_refused(at: int) -> None:
    # Below 0 a list index would have counted from the end and answered for the wrong moment.
    game = analyzer.replay(analyzer.load(ROOT / "sample_logs" / "lockout.fish"))
    analysis = analyzer.analyze(game, upto=11)
    asks = [
        lambda: analyzer.position(game, at),
        lambda: analyzer.holders(game, at),
        lambda: analyzer.odds(game, at),
        lambda: analyzer.claims(game, at),
        lambda: analyzer.threats(game, at),
        lambda: analyzer.lockouts(game, at),
        lambda: analyzer.advice(game, "Ben", at),
        lambda: analyzer.analyze(game, upto=at),
        lambda: analyzer.threats(analysis, 12 if at > 0 else at),  # past the steps analysed
    ]
    for ask in asks:
        with pytest.raises(analyzer.UsageError, match="out of range"):
            ask()
    # In the command line's words, the option named as the API names it.
    with pytest.raises(
        analyzer.UsageError, match=rf": at={at} is out of range: steps go from 0 to 15 \(the record has 15 events\)$"
    ):
        analyzer.holders(game, at)
    with pytest.raises(
        analyzer.UsageError,
        match=r"at=12 is out of range: the analysis covers steps from 0 to 11 \(the record has 15 events\)",
    ):
        analyzer.threats(analysis, 12)
    with pytest.raises(analyzer.UsageError, match=f": upto={at} is out of range"):
        analyzer.analyze(game, upto=at)
    with pytest.raises(analyzer.UsageError, match=f": steps: {at} is out of range"):
        analyzer.odds_table(game, steps=[3, at])


def test_mistakes_come_explained_unless_asked_not_to() -> None:
    game = analyzer.replay(analyzer.load(ROOT / "sample_logs" / "lockout.fish"))
    explained, plain = analyzer.mistakes(game).mistakes, analyzer.mistakes(game, explain=False).mistakes
    assert all(m.explanations for m in explained) and not any(m.explanations for m in plain)
    assert [replace(m, explanations=()) for m in explained] == plain


def test_by_default_a_lenient_replay_is_read_up_to_its_last_trusted_step() -> None:
    # Event 3 asks a teammate: what follows is untrusted, and the command line answers after
    # event 2; the API answered after event 4 (where Ben, asking for 3H, shows he lacks it).
    text = "Teams: Anna Ben Cara vs Dev Eli Fay\n\n1. Anna asks Dev for 7S: no\n2. Dev asks Ben for 7S: no\n"
    text += "3. Dev asks Eli for 2H: no\n4. Ben asks Dev for 3H: no\n"
    game = analyzer.replay(analyzer.loads(text), lenient=True)
    assert game.trusted_until == 2
    card = analyzer.parse_card("3H")
    assert analyzer.position(game).at == 2
    assert "Ben" in analyzer.holders(game)[card] and analyzer.holders(game) == analyzer.holders(game, 2)
    assert analyzer.odds(game).cards == analyzer.odds(game, 2).cards
    assert "Ben" not in analyzer.holders(game, 4)[card]


def test_the_odds_table_refuses_a_step_outside_the_game() -> None:
    # steps=[-1] gave the last step's odds in rows labelled step -1; past the end, an IndexError.
    game = analyzer.replay(analyzer.load(ROOT / "sample_logs" / "lockout.fish"))
    for step in (-1, 16):
        with pytest.raises(analyzer.UsageError, match="out of range"):
            analyzer.odds_table(game, steps=[3, step])


def test_the_events_table_gives_each_event_the_number_the_record_gives_it() -> None:
    # The command line says "after event 24" for the third event of this record: the table
    # had only the place (3), so its rows could not be matched with what the commands say.
    text = "Teams: Anna Ben Cara vs Dev Eli Fay\n\n21. Anna asks Dev for 7S: no\n22. Dev asks Ben for 7S: no\n"
    game = analyzer.replay(analyzer.loads(text + "24. Ben asks Dev for 3H: no\n"))
    table = analyzer.events_table(game)
    assert table.select("event", "number").rows() == [(1, 21), (2, 22), (3, 24)]
    assert game.record.after_label(3) == "after event 24"


def test_the_odds_table_names_a_view_as_the_holders_table_does() -> None:
    # A view asked for as "ben" was labelled "ben": a join or filter on the holders table's
    # "Ben" found nothing.
    game = analyzer.replay(analyzer.load(ROOT / "sample_logs" / "lockout.fish"))
    assert analyzer.odds_table(game, views=["ben"], steps=[11])["view"].unique().to_list() == ["Ben"]


def test_threats_lockouts_and_mistakes_judge_the_views_the_command_line_judges() -> None:
    # Without Fay's Hand line the other five fix her hand: the command line judges her in her
    # own view, and the API answered None for her threats (it solved only the written hands).
    from analyzer.analysis import analyze
    from analyzer.hindsight import judged_analysis
    from analyzer.tactics import lockouts, threats

    record = analyzer.load(ROOT / "sample_logs" / "collect-four.fish")
    record.hands.pop("Fay")
    game = analyzer.replay(record)
    whole = judged_analysis(game)[0]
    assert "Fay" in whole.worked_out
    for at in range(len(game.events) + 1):
        assert analyzer.threats(game, at) == threats(whole, at)
        assert analyzer.lockouts(game, at) == lockouts(whole, at)
    assert analyzer.threats(game)["Fay"] is not None
    assert analyzer.mistakes(game) == analyzer.mistakes(whole)
    assert analyzer.mistakes(game).worked_out == ["Fay"]
    assert threats(analyze(game), len(game.events))["Fay"] is None  # (the written hands alone)
