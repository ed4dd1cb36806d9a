"""The scorer at the table: the session checks each line as it is entered, and the terminal is
driven through a pseudo-terminal like a person would (a whole sample game, a refused event, an
undo, a kill in the middle)."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pexpect
import pytest

from analyzer import record as fish
from analyzer.errors import Contradiction, RecordSyntaxError, RuleBreak
from analyzer.record import Comment, Record
from cli.score import Scoring

ROOT = Path(__file__).resolve().parents[1]
LOCKOUT = ROOT / "sample_logs" / "lockout.fish"


def sample() -> Record:
    return fish.load(LOCKOUT)


def lines_of(record: Record) -> list[str]:
    """The body of a record as a person would type it: as written in the file."""
    text = LOCKOUT.read_text(encoding="utf-8")
    return text.split("\n\n", 1)[1].splitlines()


def header_only(tmp_path: Path) -> Path:
    path = tmp_path / "game.fish"
    path.write_text(LOCKOUT.read_text(encoding="utf-8").split("\n\n", 1)[0] + "\n")
    return path


# ---------------------------------------------------------------- the session


def test_each_line_is_checked_and_kept_or_refused(tmp_path: Path) -> None:
    path = header_only(tmp_path)
    scoring = Scoring.resume(path)
    assert scoring.status().startswith("after the deal: anyone may start;")
    body = lines_of(sample())
    assert scoring.enter(body[0]) is not None
    assert scoring.status().startswith("after event 1: Cara to ask;")
    kept = path.read_text()
    with pytest.raises(RuleBreak, match="it is Cara's turn"):
        scoring.enter("Dev asks Anna for 5D: no")
    with pytest.raises(RecordSyntaxError, match="not a player"):
        scoring.enter("Cara asks Zed for 2S: no")
    with pytest.raises(RuleBreak, match="answers no, but holds 9♠"):
        scoring.enter("Cara asks Dev for 9S: no")  # Dev's Hand line has it
    assert path.read_text() == kept and len(scoring.game.events) == 1
    assert scoring.enter("") is None


def test_a_contradiction_is_refused_even_without_hands(tmp_path: Path) -> None:
    path = tmp_path / "public.fish"
    path.write_text("Teams: Anna Ben Cara vs Dev Eli Fay\n")
    scoring = Scoring.resume(path)
    for line in ("Anna asks Dev for 7S: no", "Dev asks Anna for 6S: no", "Anna asks Eli for 5S: no"):
        scoring.enter(line)
    # Anna asked for 7S, so she did not hold it, and no card has moved since: she cannot give it.
    with pytest.raises(Contradiction, match="7♠"):
        scoring.enter("Eli asks Anna for 7S: yes")
    assert len(fish.load(path).events) == 3


def test_undo_who_has_and_claims(tmp_path: Path) -> None:
    path = header_only(tmp_path)
    scoring = Scoring.resume(path)
    body = [line for line in lines_of(sample()) if line.strip()]
    events = [line for line in body if not line.startswith("#")]
    for line in events[:11]:
        scoring.enter(line)
    # After event 11 the whole table can place every low spade (the sample's comments say why).
    assert scoring.who_has("2S") == "2♠ is with Anna (known to everyone)"
    assert scoring.who_has("7♠") == "7♠ is with Eli (known to everyone)"
    assert scoring.claims() == []  # split between the teams: a lockout, not a claim
    with pytest.raises(Exception, match=r"8♠ is not in this record.s deck \(standard, line 3\)"):
        scoring.who_has("8S")
    gone = scoring.undo()
    assert gone is not None and not isinstance(gone, Comment)
    assert len(fish.load(path).events) == 10
    assert "Eli to ask" in scoring.status()


def test_completion_offers_what_may_come_next(tmp_path: Path) -> None:
    scoring = Scoring.resume(header_only(tmp_path))
    assert {"Anna", "undo", "who-has"} <= set(scoring.words([]))
    assert list(scoring.words(["Anna"])) == ["asks", "claims", "passes"]
    asks = set(scoring.words(["Anna", "asks", "Dev", "for"]))
    assert {"7S", "Dev", "yes", "no"} <= asks and "8S" not in asks
    assert "low-spades" in set(scoring.words(["Anna", "claims"]))


def test_the_command_imports_prompt_toolkit_only_when_it_runs() -> None:
    probe = "import cli.app, sys; print('prompt_toolkit' in sys.modules)"
    result = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "False"


# ---------------------------------------------------------------- through a pseudo-terminal


def spawn(path: Path) -> pexpect.spawn:
    env = {**os.environ, "TERM": "xterm-256color", "PROMPT_TOOLKIT_NO_CPR": "1", "NO_COLOR": "1"}
    child = pexpect.spawn(
        sys.executable,
        ["-c", "from cli.main import main; main()", "score", str(path)],
        cwd=str(ROOT),
        env=env,
        encoding="utf-8",
        timeout=30,
        dimensions=(40, 220),
    )
    return child


def enter_header(child: pexpect.spawn, record: Record) -> None:
    child.expect("Teams")
    a, b = record.table.teams
    child.sendline(f"{' '.join(a)} vs {' '.join(b)}")
    for label in ("Rules", "Deck", "Bluffing", "House"):
        child.expect(label)
        child.sendline("")
    child.expect("Title")
    child.sendline(record.info["Title"])
    for player in record.players:
        child.expect(f"Hand {player}")
        child.sendline(" ".join(c.code for c in record.hands[player]))
    child.expect("writing")


def enter(child: pexpect.spawn, line: str, number: int) -> None:
    """Type one body line and wait until the scorer has kept (and saved) it."""
    child.sendline(line)
    if line.startswith("#"):
        child.expect(re.escape("ok " + line.split("#", 1)[0] + "#"))
    else:
        child.expect(re.escape(f"ok {number}. "))


def test_a_whole_game_scored_at_the_table(tmp_path: Path) -> None:
    path = tmp_path / "lockout.fish"
    rec = sample()
    child = spawn(path)
    enter_header(child, rec)
    number = 1
    for line in lines_of(rec):
        if not line.strip():
            continue
        if number == 4 and not line.startswith("#"):
            child.sendline("Anna asks Ben for 4S: yes")  # a teammate: refused, nothing kept
            child.expect("refused: Anna asks a teammate")
        if number == 7 and not line.startswith("#"):
            enter(child, "Cara asks Fay for 9H: no", 7)  # a slip of the scorer's...
            child.sendline("undo")  # ...taken back
            child.expect(re.escape("undone: 7. Cara asks Fay for 9H: no"))
        enter(child, line, number)
        if not line.startswith("#"):
            number += 1
    child.sendline("who-has 2C")
    child.expect("2♣ can be with")
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert path.read_text(encoding="utf-8") == fish.dumps(rec)


def test_a_kill_loses_nothing_and_the_game_goes_on(tmp_path: Path) -> None:
    path = tmp_path / "game.fish"
    rec = sample()
    body = [line for line in lines_of(rec) if line.strip()]
    child = spawn(path)
    enter_header(child, rec)
    number, done = 1, 0
    for line in body[:9]:
        enter(child, line, number)
        number += not line.startswith("#")
        done += 1
    child.kill(signal.SIGKILL)
    child.close()
    assert child.signalstatus == signal.SIGKILL
    kept = fish.load(path)
    assert len(kept.body) == done and len(kept.events) == number - 1
    assert fish.dumps(kept) == path.read_text(encoding="utf-8")
    # The same command picks the record up where it stopped.
    child = spawn(path)
    child.expect(f"continuing .*: {number - 1} events so far")
    for line in body[9:]:
        enter(child, line, number)
        number += not line.startswith("#")
    child.expect(re.escape(f"{number}. ["))  # the prompt is up: Ctrl-D goes to it, not to the terminal
    child.sendeof()
    child.expect(re.escape(f"saved {path}: {number - 1} events"))
    child.expect(pexpect.EOF)
    child.close()
    assert path.read_text(encoding="utf-8") == fish.dumps(rec)


def test_lines_piped_in_are_scored_the_same_way(tmp_path: Path) -> None:
    path = tmp_path / "piped.fish"
    header = "Anna Ben vs Dev Eli\n" + "\n" * 5 + "\n" * 4  # teams, the defaults, no hands
    events = "Anna asks Dev for 7S: no\nAnna asks Eli for 6S: no\nDev asks Anna for 5D: no\nundo\n"
    result = subprocess.run(
        [sys.executable, "-c", "from cli.main import main; main()", "score", str(path)],
        cwd=ROOT,
        input=header + events,
        capture_output=True,
        text=True,
        timeout=60,
    )
    # A line refused names the line of the input, and a script learns of it: the worst refusal's
    # exit status (here a rule break, 1) once the rest is saved (it was 0, the line unnamed).
    assert result.returncode == 1, result.stderr
    assert "line 12: refused: Anna asks, but it is Dev's turn; nothing was kept" in result.stdout
    assert "saved" in result.stdout and "Input is not a terminal" not in result.stderr
    assert "undone: 2. Dev asks Anna for 5D: no" in result.stdout
    text = "Rules: literature\nDeck: standard\nTeams: Anna Ben vs Dev Eli\n\n1. Anna asks Dev for 7S: no\n"
    assert path.read_text() == text


def test_a_word_of_the_scorer_with_more_after_it_does_nothing(tmp_path: Path) -> None:
    """ "undo 3" undid one line and said nothing of the 3; "status now" likewise."""
    from cli.score import run

    path = tmp_path / "game.fish"
    path.write_text(LOCKOUT.read_text(encoding="utf-8"))
    scoring = Scoring.resume(path)
    said: list[str] = []
    typed = iter(["undo 3", "status now", "undo"])
    with pytest.raises(StopIteration):
        run(scoring, lambda _: next(typed), said.append)
    assert "'undo' takes nothing after it: write 'undo' alone; nothing was done" in said
    assert "'status' takes nothing after it: write 'status' alone; nothing was done" in said
    assert len(scoring.game.events) == 14  # (the last "undo" alone took one line back)


def test_a_slip_of_the_scorer_is_named_with_what_was_meant(tmp_path: Path) -> None:
    """ "quti" and a book said aloud ("low spades") were refused as lines that could not be read."""
    from cli.score import run

    path = tmp_path / "game.fish"
    path.write_text(LOCKOUT.read_text(encoding="utf-8"))
    scoring = Scoring.resume(path)
    said: list[str] = []
    typed = iter(
        [
            "quti",
            "Eli claims low spades: Eli 3S 5S 6S 7S, Anna 2S 4S: correct",
            "Eli claims low-spades: Eli 3S 5S 6S 7S Anna 2S 4S: correct",  # (a comma left out)
        ]
    )
    with pytest.raises(StopIteration):
        run(scoring, lambda _: next(typed), said.append)
    assert "refused: 'quti' is not a word the scorer knows (did you mean 'quit'?); nothing was kept" in said
    assert (
        "refused: cannot read this claim: a book is one word ('low-spades', not 'low spades'); nothing was kept" in said
    )
    comma = "refused: 'Anna' is a player, not a card: a comma goes before each holder (column 40); nothing was kept"
    assert comma in said


def test_a_line_the_file_cannot_take_is_not_kept(tmp_path: Path) -> None:
    # The session kept the event in memory when the file could not be written, while saying
    # "nothing was kept": the next event took the wrong number and the file lost the line.
    from cli.score import run

    folder = tmp_path / "games"
    folder.mkdir()
    path = folder / "game.fish"
    path.write_text(LOCKOUT.read_text(encoding="utf-8").split("\n\n", 1)[0] + "\n")
    scoring = Scoring.resume(path)
    events = [line for line in lines_of(sample()) if line.strip() and not line.startswith("#")]
    scoring.enter(events[0])
    kept = path.read_text()
    path.unlink()
    folder.rmdir()
    folder.write_text("a file where the folder was\n")  # the record can no longer be written
    said: list[str] = []
    typed = iter([events[1], "undo"])

    def read(prompt: str) -> str:
        said.append(prompt)
        return next(typed)

    with pytest.raises(StopIteration):
        run(scoring, read, said.append)
    refused = f"not saved: {folder}: is a file, not a folder; nothing was kept"
    prompt = "2. [Cara's turn, 0–0] > "
    assert said[-5:] == [prompt, refused, prompt, refused, prompt]  # the event, then the undo
    assert len(scoring.game.events) == 1 and scoring.number == 2
    folder.unlink()
    scoring.save()
    assert path.read_text() == kept


def test_a_question_about_a_card_not_in_the_deck_is_answered_not_refused(tmp_path: Path) -> None:
    # "refused: ...; nothing was kept" is for entries: a question keeps nothing in any case.
    from cli.score import run

    scoring = Scoring.resume(header_only(tmp_path))
    said: list[str] = []
    typed = iter(["who-has 8S", "who-has ZZ"])
    with pytest.raises(StopIteration):
        run(scoring, lambda _: next(typed), said.append)
    assert said[1:] == [
        "8♠ is not in this record's deck (standard, line 3)",
        "'ZZ' is not a card (write e.g. 7S, 10H, QD, RJ)",
    ]


def test_a_header_cut_short_writes_nothing_and_exits_2(tmp_path: Path) -> None:
    # Input that ends in the middle of the header is incomplete input (2), not a rule break (1).
    path = tmp_path / "cut.fish"
    result = subprocess.run(
        [sys.executable, "-c", "from cli.main import main; main()", "score", str(path)],
        cwd=ROOT,
        input="Anna Ben Cara vs Dev Eli Fay\n",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2, result.stderr
    assert "no record written" in result.stdout and not path.exists()


def test_ctrl_c_in_the_header_clears_the_answer_and_twice_writes_nothing(tmp_path: Path) -> None:
    # One Ctrl-C threw every answer away (a scorer clearing a typo in the fifth hand lost four):
    # it now clears the answer being typed, and a second in a row stops.
    path = tmp_path / "cut.fish"
    child = spawn(path)
    child.expect("Teams")
    child.sendline("Anna Ben Cara vs Dev Eli Fay")
    child.expect("Rules")
    child.sendcontrol("c")
    child.expect("the answer is cleared")
    child.expect("Rules")
    child.sendcontrol("c")
    child.expect("no record written")
    child.expect("interrupted")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130 and not path.exists()


def test_a_dash_is_refused_not_written_as_a_file(tmp_path: Path) -> None:
    # "-" is standard input for every command that reads a record; the scorer wrote a file "-".
    result = subprocess.run(
        [sys.executable, "-c", "from cli.main import main; main()", "score", "-"],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        input="Anna Ben Cara vs Dev Eli Fay\n" + "\n" * 11,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2 and "give its path, not -" in result.stderr
    assert not (tmp_path / "-").exists()
