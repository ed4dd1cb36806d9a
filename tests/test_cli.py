"""The command line through typer's CliRunner: exit codes, JSON contracts, errors with FILE:LINE."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from analyzer import record as fish
from analyzer.simulate import simulate
from cli.main import app

from .test_solver import COLLECT_FOUR, EXPECTED, SHARED, SIX_AND_SEVEN

runner = CliRunner()


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture()
def six(tmp_path: Path) -> Path:
    path = tmp_path / "six.fish"
    path.write_text(SIX_AND_SEVEN)
    return path


@pytest.fixture()
def game(tmp_path: Path) -> Path:
    path = tmp_path / "sim.fish"
    path.write_text(fish.dumps(simulate(players=6, seed=11)))
    return path


def test_help_on_every_command() -> None:
    code, out, _ = run("--help")
    assert code == 0
    for command in (
        "validate",
        "format",
        "convert",
        "simulate",
        "show",
        "state",
        "who-has",
        "hand",
        "analyze",
        "claims",
        "threats",
        "lockouts",
        "mistakes",
        "score",
    ):
        assert command in out
        c, o, _ = run(command, "--help")
        assert c == 0 and "Usage" in o


def test_state_json_contract(six: Path) -> None:
    code, out, _ = run("state", str(six), "--at", "5", "--as", "Anna", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["at"] == 5 and data["as"] == "Anna"
    assert data["cards"]["6C"] == {"holders": ["Ben"]}
    assert data["cards"]["2C"] == {"holders": ["Anna"]}
    anna = data["players"]["Anna"]
    assert anna["team"] == 1 and anna["count"] == 8 and "2C" in anna["known"]
    assert set(anna["known"]) <= set(anna["possible"])
    assert data["players"]["Dev"]["team"] == 2
    assert {
        "book": "low-clubs",
        "team": 1,
        "holders": {"2C": "Anna", "3C": "Anna", "4C": "Anna", "5C": "Anna", "6C": "Ben", "7C": "Cara"},
    } in data["claimable"]


def test_state_drops_claimed_cards_and_uses_canonical_codes(six: Path) -> None:
    code, out, _ = run("state", str(six), "--json")
    data = json.loads(out)
    assert code == 0 and "2C" not in data["cards"] and "10H" in data["cards"]


def test_state_matches_expected_rows() -> None:
    for name, d in EXPECTED.items():
        row = d["views"][0]
        code, out, _ = run("state", str(SHARED / name), "--at", str(row["at"]), "--as", row["as"], "--json")
        assert code == 0
        got = {c: sorted(v["holders"]) for c, v in json.loads(out)["cards"].items()}
        assert got == row["holders"]


def test_who_has_any_spelling(six: Path) -> None:
    for spelling in ("6C", "6♣", "6c"):
        code, out, _ = run("who-has", spelling, str(six), "--at", "5", "--as", "Anna", "--json")
        assert code == 0
        data = json.loads(out)
        assert data["holders"] == ["Ben"] and data["known"] is True
        assert "event 5" in data["ruled_out"]["Cara"]
    code, out, _ = run("who-has", "7♣", str(six), "--at", "3", "--as", "Anna")
    assert code == 0 and "Ben" in out and "not Ben" in out


def test_hand_by_book(six: Path) -> None:
    code, out, _ = run("hand", "Ben", str(six), "--at", "5", "--as", "Anna", "--json")
    data = json.loads(out)
    assert code == 0 and data["books"]["low-clubs"]["known"] == ["6C"]
    code, out, _ = run("hand", "ben", str(six), "--at", "5")
    assert code == 0 and "Ben" in out


def test_claims_declaration(six: Path) -> None:
    code, out, _ = run("claims", str(six), "--at", "5", "--as", "Anna")
    assert code == 0
    assert "Claim low clubs: I have 2♣ 3♣ 4♣ 5♣, Ben has 6♣, Cara has 7♣" in out


def test_threats_and_lockouts(tmp_path: Path) -> None:
    path = tmp_path / "four.fish"
    path.write_text(COLLECT_FOUR)
    code, out, _ = run("threats", str(path), "--at", "6", "--json")
    data = json.loads(out)
    assert code == 0 and data["at"] == 6 and set(data["by"]) == {"Anna", "Dev", "Ben", "Eli", "Cara", "Fay"}
    record = fish.loads(COLLECT_FOUR)
    record.hands.pop("Fay")  # the other five hands fix hers: she is judged in her own view
    path.write_text(fish.dumps(record))
    code, out, _ = run("threats", str(path), "--at", "6", "--json")
    assert json.loads(out)["by"]["Fay"] == [] and json.loads(out)["worked_out"] == ["Fay"]
    code, out, _ = run("threats", str(path), "--at", "6")
    assert "Fay: none (hand worked out from the record)" in out
    record.hands.pop("Eli")  # two hands open: neither is fixed
    path.write_text(fish.dumps(record))
    code, out, _ = run("threats", str(path), "--at", "6", "--json")
    assert json.loads(out)["by"]["Fay"] is None and json.loads(out)["worked_out"] == []
    code, out, _ = run("threats", str(path), "--at", "6")
    assert "Fay: no Hand line" in out
    code, out, _ = run("lockouts", str(path), "--at", "6", "--json")
    assert code == 0 and "lockouts" in json.loads(out)


def test_analyze_json_has_every_step_and_view(game: Path) -> None:
    code, out, _ = run("analyze", str(game), "--json")
    assert code == 0
    data = json.loads(out)
    n = len(fish.load(game).events)
    assert len(data["steps"]) == n + 1
    assert data["views"] == ["public", "Anna", "Dev", "Ben", "Eli", "Cara", "Fay"]
    last = data["steps"][-1]
    assert set(last["views"]) == set(data["views"])
    assert isinstance(data["mistakes"], list)


def test_mistakes_json_is_a_list(game: Path) -> None:
    code, out, _ = run("mistakes", str(game), "--json")
    assert code == 0
    data = json.loads(out)
    assert isinstance(data, list)
    for m in data:
        assert {"event", "player", "kind", "book", "why"} <= set(m)
        assert m["kind"] in {"missed-claim", "wrong-claim", "broken-lockout", "hopeless-ask", "rule-break"}
    assert [m["event"] for m in data] == sorted(m["event"] for m in data)


@pytest.mark.parametrize("name", ["lockout.fish", "wrong-claim-opponent.fish", "simulated-game.fish"])
def test_the_apis_mistakes_are_what_the_command_line_prints(name: str) -> None:
    # The API's mistakes came with no explanations, where `halfsuit mistakes --json` has them.
    import analyzer

    path = ROOT / "sample_logs" / name
    code, out, _ = run("mistakes", str(path), "--json")
    assert code == 0
    found = analyzer.mistakes(analyzer.replay(analyzer.load(path), lenient=True), odds=True).mistakes
    assert [m.to_dict() for m in found] == json.loads(out)
    assert any(m["explanations"] for m in json.loads(out))


def test_record_commands(game: Path, tmp_path: Path) -> None:
    assert run("validate", str(game))[0] == 0
    code, out, _ = run("format", str(game))
    assert code == 0 and out == game.read_text()
    assert run("format", "--check", str(game))[0] == 0
    code, out, _ = run("convert", str(game), "--to", "json")
    assert code == 0
    as_json = tmp_path / "g.json"
    as_json.write_text(out)
    code, back, _ = run("convert", str(as_json), "--to", "fish")
    assert code == 0 and back == game.read_text()
    code, out, _ = run("show", str(game), "--at", "10", "--json")
    assert code == 0 and len(json.loads(out)["events"]) == 10
    code, out, _ = run("simulate", "--players", "8", "--deck", "jokers", "--seed", "4")
    expected = simulate(players=8, deck=fish.DeckKind.JOKERS, seed=4)
    expected.extra.append(("X-Seed", "4"))
    assert code == 0 and out == fish.dumps(expected)


def test_errors_have_file_line_and_exit_codes(tmp_path: Path, six: Path) -> None:
    bad = tmp_path / "bad.fish"
    bad.write_text(SIX_AND_SEVEN.replace("3. Ben asks Eli for 7C: no", "3. Ben asks Cara for 7C: no"))
    code, _, err = run("state", str(bad))
    assert code == 1 and f"{bad}:14:" in err and "Traceback" not in err
    bad.write_text(SIX_AND_SEVEN.replace("3. Ben asks Eli for 7C: no", "3. Ben asks Eli for 7X: no"))
    code, _, err = run("validate", str(bad))
    assert code == 2 and f"{bad}:14:" in err
    assert run("state", str(tmp_path / "missing.fish"))[0] == 2
    code, _, err = run("state", str(six), "--at", "99")
    assert code == 2 and "--at 99 is out of range: steps go from 0 to" in err
    record = fish.loads(SIX_AND_SEVEN)
    record.hands.pop("Ben")
    six.write_text(fish.dumps(record))
    code, _, err = run("state", str(six), "--as", "Ben")
    assert code == 2 and "no Hand line" in err
    code, _, err = run("who-has", "8S", str(six))
    assert code == 2 and err == f"{six}: 8♠ is not in this record's deck (standard, line 3)\n"


def test_contradiction_exit_1_names_the_event(tmp_path: Path) -> None:
    text = SIX_AND_SEVEN.replace(
        "7. Anna claims low-clubs: Anna 2C 3C 4C 5C, Ben 6C, Cara 7C: correct",
        "7. Anna claims low-clubs: Anna 2C 3C 4C 5C, Ben 7C, Cara 6C: correct",
    )
    record = fish.loads(text)
    record.hands = {}
    path = tmp_path / "contra.fish"
    path.write_text(fish.dumps(record))
    code, _, err = run("state", str(path))
    assert code == 1
    assert f"{path}:" in err and "after event 7" in err


def test_debug_shows_the_traceback(tmp_path: Path) -> None:
    bad = tmp_path / "bad.fish"
    bad.write_text("Teams: A B vs C\n")
    result = runner.invoke(app, ["--debug", "validate", str(bad)])
    assert result.exception is not None and result.exit_code != 0


# ---------------------------------------------------------------- lenient reading

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture()
def slips(tmp_path: Path) -> Path:
    """The lockout sample with two asks answered 'no' left out: two slips in the turn order."""
    text = (ROOT / "sample_logs" / "lockout.fish").read_text(encoding="utf-8")
    keep = [line for line in text.splitlines() if not line.startswith(("3. ", "7. "))]
    path = tmp_path / "slips.fish"
    path.write_text("\n".join(keep) + "\n")
    return path


LENIENT_COMMANDS = [
    ["show"],
    ["state"],
    ["who-has", "7S"],
    ["hand", "Anna"],
    ["analyze"],
    ["claims"],
    ["threats"],
    ["lockouts"],
    ["mistakes"],
    ["odds"],
    ["suggest", "--as", "Eli", "--at", "8"],
    ["deal"],
]


@pytest.mark.parametrize("command", LENIENT_COMMANDS, ids=lambda c: c[0])
def test_every_command_reads_leniently(command: list[str], slips: Path) -> None:
    if command[0] == "mistakes":  # always lenient: it lists the breaks among its findings
        code, out, _ = run(*command, str(slips), "--lenient", "--json")
        assert code == 0
        breaks = [m for m in json.loads(out) if m["kind"] == "rule-break"]
        # Named as the file numbers them (3. and 7. are left out), with their lines.
        assert [(m["event"], m["line"], m["index"]) for m in breaks] == [(4, 14, 3), (8, 17, 6)]
        return
    code, _, err = run(*command, str(slips))
    assert code == 1 and "it is Dev's turn" in err  # strict: the first slip stops it
    code, out, err = run(*command, str(slips), "--lenient")
    assert code == 0, err
    assert out
    assert err.count("[not-on-turn]") == 2
    assert f"{slips}:14: event 4: Anna asks, but it is Dev's turn" in err  # the number written on line 14


def test_validate_lenient_reports_each_slip_once(slips: Path) -> None:
    code, _, err = run("validate", "--lenient", str(slips))
    assert code == 1
    assert err.count("[not-on-turn]") == 2
    assert "2 rule breaks; the cards are trusted throughout" in err
    code, out, _ = run("validate", "--lenient", "--json", str(slips))
    data = json.loads(out)
    assert [(v["event"], v["code"]) for v in data["violations"]] == [(4, "not-on-turn"), (8, "not-on-turn")]
    assert data["trusted_until"] == 13


def test_report_and_batch_read_leniently(slips: Path, tmp_path: Path) -> None:
    code, _, _ = run("report", str(slips), "--out", str(tmp_path / "strict"), "--no-odds")
    assert code == 1
    code, _, err = run("report", str(slips), "--out", str(tmp_path / "r"), "--no-odds", "--lenient")
    assert code == 0, err
    md = (tmp_path / "r" / "slips.md").read_text(encoding="utf-8")
    assert "Anna asks, but it is Dev's turn" in md and "Eli asks, but it is Cara's turn" in md
    folder = tmp_path / "records"
    folder.mkdir()
    (folder / "slips.fish").write_text(slips.read_text())
    code, _, err = run("batch", str(folder), "--out", str(tmp_path / "b"), "--workers", "1")
    assert code == 1 and "1 failed" in err
    code, _, err = run("batch", str(folder), "--out", str(tmp_path / "b"), "--workers", "1", "--lenient")
    assert code == 0 and "1 of 1 records analyzed" in err
    # Each break told once on stderr, as --lenient says (a batch once told none of them).
    slipped = folder / "slips.fish"
    assert err.count("[not-on-turn]") == 2 and f"{slipped}:14: event 4: Anna asks, but it is Dev's turn" in err


@pytest.mark.parametrize("width", ["80", "200"])
def test_the_odds_title_never_breaks_the_count_of_deals(width: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # Rich leaves long lines for the terminal to wrap; at 80 columns the count of deals was cut in
    # the middle of a number ("...878,7" / "23,654,218 fitting deals)").
    from cli import common

    monkeypatch.setenv("COLUMNS", width)
    monkeypatch.setattr(common.out, "_console", None)  # (made again at this width)
    code, out, _ = run("odds", str(ROOT / "sample_logs" / "probing-opening.fish"))
    count = "(104,108,732,615,463,431,529,896,878,723,654,218 fitting deals)"
    title = "Odds after event 8, as the public sees it"
    assert code == 0
    lines = out.splitlines()
    if width == "80":
        assert lines[:2] == [title, count] and all(len(line.rstrip()) <= 80 for line in lines)
    else:
        assert lines[0] == f"{title} {count}"
