"""Start-up: what each table-side command loads, checked by module (a timing would flake on a busy
machine; ``halfsuit bench --startup`` gives the times). ``--help`` loads typer and the command
line's own two modules; the commands answered at the table load neither rich nor any library or
module of the analyzer that they do not use."""

from __future__ import annotations

import importlib
import inspect
import io
import subprocess
import sys
from pathlib import Path

import pytest
import typer
from rich.markup import escape as rich_escape
from rich.markup import render

from cli import app as cli_app
from cli import terminal

ROOT = Path(__file__).resolve().parents[1]
LOCKOUT = str(ROOT / "sample_logs" / "lockout.fish")
HEAVY = {"numpy", "polars", "matplotlib", "pandas", "pyarrow", "prompt_toolkit"}
# Modules of the analyzer none of the table-side commands needs: counting odds, pages, the
# simulator, the JSON form of records, writing files.
UNUSED = {
    "analyzer.odds",
    "analyzer.render",
    "analyzer.report",
    "analyzer.replay_page",
    "analyzer.simulate",
    "analyzer.bots",
    "analyzer.record_json",
    "analyzer.charts",
    "analyzer.batch",
    "analyzer.advice",
    "analyzer.information",
    "analyzer.files",  # (writing records: tempfile and shutil)
}


def loaded_by(*args: str) -> set[str]:
    """Every module a fresh ``halfsuit ARGS`` has loaded when it ends (it must succeed)."""
    probe = (
        "import sys\n"
        "from cli.main import main\n"
        f"sys.argv = ['halfsuit', *{list(args)!r}]\n"
        "try:\n    main()\nexcept SystemExit as exc:\n    code = exc.code\nelse:\n    code = 0\n"
        "sys.stdout.flush()\n"
        "sys.stderr.write('\\nMODULES ' + ' '.join(sorted(sys.modules)) + '\\n')\n"
        "raise SystemExit(code)\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return set(done.stderr.rsplit("MODULES ", 1)[1].split())


def packages(modules: set[str]) -> set[str]:
    return {m.split(".")[0] for m in modules}


def test_the_help_loads_typer_and_the_command_line_only() -> None:
    loaded = loaded_by("--help")
    ours = {m for m in loaded if m.split(".")[0] in ("analyzer", "cli")}
    assert ours == {"cli", "cli.app", "cli.main"}
    assert not packages(loaded) & (HEAVY | {"rich"})


@pytest.mark.parametrize(
    "args",
    [
        ("validate", LOCKOUT),
        ("who-has", "7S", LOCKOUT, "--at", "11"),
        ("hand", "Eli", LOCKOUT, "--at", "11"),
        ("claims", LOCKOUT, "--at", "11"),
        ("threats", LOCKOUT, "--at", "11"),
        ("lockouts", LOCKOUT, "--at", "11"),
    ],
    ids=lambda a: a[0],
)
def test_a_table_side_command_loads_only_what_it_uses(args: tuple[str, ...]) -> None:
    loaded = loaded_by(*args)
    assert not packages(loaded) & (HEAVY | {"rich"}), sorted(packages(loaded) & (HEAVY | {"rich"}))
    assert not loaded & UNUSED, sorted(loaded & UNUSED)
    # Only the running command's own module of the command line.
    assert {m for m in loaded if m.startswith("cli.")} <= {
        "cli.app",
        "cli.main",
        "cli.common",
        "cli.terminal",
        "cli.records",
        "cli.deduce",
        "cli.tactics_cmds",
    }


def test_a_card_with_several_holders_loads_the_counter() -> None:
    assert "numpy" in packages(loaded_by("who-has", "2H", LOCKOUT, "--at", "11"))


def test_a_report_loads_no_polars(tmp_path: Path) -> None:
    """A report needs its players' numbers as rows, not as a table: polars loads for batches and tables."""
    loaded = packages(loaded_by("report", LOCKOUT, "--out", str(tmp_path), "--no-odds"))
    assert "matplotlib" in loaded
    assert "polars" not in loaded


def test_the_listed_help_is_each_commands_own() -> None:
    """--help lists each command from ``COMMANDS`` without loading its module: the summary there
    is the first paragraph of the command's docstring, and every declared command is listed."""
    declared = {}
    for module in {m for m, _ in cli_app.COMMANDS.values()}:
        group = typer.Typer()
        importlib.import_module(f"cli.{module}").register(group)
        for info in group.registered_commands:
            assert info.callback is not None
            name = info.name or info.callback.__name__.replace("_", "-")
            declared[name] = (module, (inspect.getdoc(info.callback) or "").split("\n\n")[0].replace("\n", " "))
    assert declared == cli_app.COMMANDS


MARKUP = [
    "plain",
    "[bold]Anna[/bold] (team 1) holds [green]7♠[/green]",
    "[bold red]low-spades[/bold red]  [dim](worked out)[/dim]",
    "[cyan]Team 1[/]: Anna",
    "a \\[not a tag] and \\\\[bold]bold after a backslash[/bold]",
    "ends in a backslash \\",
]
RECORD_TEXT = ["[bold]x[/bold]", "[/]", "a\\", "\\[b]", "[link=https://example.com]x", "7♠ [x] y"]


@pytest.mark.parametrize("text", RECORD_TEXT)
def test_escaping_is_riches(text: str) -> None:
    assert terminal.escape(text) == rich_escape(text)
    markup = f"[green]{terminal.escape(text)}[/green] {terminal.escape(text)}"
    assert "".join(t for t, _ in terminal.pieces(markup)) == render(markup).plain
    if not text.endswith("\\"):  # (rich shows a backslash at the very end doubled; so does this)
        assert render(markup).plain == f"{text} {text}"


@pytest.mark.parametrize("markup", MARKUP)
def test_markup_reads_as_rich_reads_it(markup: str) -> None:
    ours = terminal.pieces(markup)
    theirs = render(markup)
    assert "".join(t for t, _ in ours) == theirs.plain
    # The style on each character is the one rich puts there.
    styles = [style for text, style in ours for _ in text]
    for k, style in enumerate(styles):
        spans = [str(s.style) for s in theirs.spans if s.start <= k < s.end]
        assert set(style.split()) == {w for s in spans for w in s.split()}


class Screen(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_styles_on_a_terminal_and_plain_text_elsewhere(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm")
    screen, piped = Screen(), io.StringIO()
    for stream in (screen, piped):
        terminal.say("[bold green]7♠[/bold green] is with [bold]Eli[/bold]", stream)
    assert screen.getvalue() == "\x1b[1;32m7♠\x1b[0m is with \x1b[1mEli\x1b[0m\n"
    assert piped.getvalue() == "7♠ is with Eli\n"
    monkeypatch.setenv("NO_COLOR", "1")
    screen = Screen()
    terminal.say("[bold green]7♠[/bold green]", screen)
    assert screen.getvalue() == "\x1b[1m7♠\x1b[0m\n"


LONG = (
    "      - [bold]Anna holds 2♠[/bold]: 1. 2♠ is not in Eli's hand. 2. Cara answered no when Fay asked"
    " for 2♠ at event 1. 3. Fay asked for 2♠ at event 1, so Fay lacks it."
)


def test_a_long_line_breaks_between_words_on_a_terminal_only(monkeypatch: pytest.MonkeyPatch) -> None:
    # At 80 columns the terminal broke the explanations in the middle of words ("El" / "i").
    monkeypatch.setenv("COLUMNS", "40")
    monkeypatch.setenv("NO_COLOR", "1")
    screen, piped = Screen(), io.StringIO()
    for stream in (screen, piped):
        terminal.say(LONG, stream)
    assert piped.getvalue() == render(LONG).plain + "\n"
    lines = screen.getvalue().replace("\x1b[1m", "").replace("\x1b[0m", "").splitlines()
    assert lines == [
        "      - Anna holds 2♠: 1. 2♠ is not in",
        "      Eli's hand. 2. Cara answered no",
        "      when Fay asked for 2♠ at event 1.",
        "      3. Fay asked for 2♠ at event 1, so",
        "      Fay lacks it.",
    ]
    assert "\x1b[1mAnna holds 2♠\x1b[0m" in screen.getvalue()  # (the style stays on its words)


def test_rich_breaks_a_long_line_where_the_fast_printer_does(monkeypatch: pytest.MonkeyPatch) -> None:
    from rich.console import Console

    from cli import common

    monkeypatch.setenv("COLUMNS", "40")
    fast, slow = Screen(), Screen()
    terminal.say(LONG, fast)
    console = common._Later(file=slow, force_terminal=True, width=40, color_system=None, soft_wrap=True)
    console.print(LONG)
    assert isinstance(console.made(), Console)
    plain = [line.replace("\x1b[1m", "").replace("\x1b[0m", "") for line in fast.getvalue().splitlines()]
    assert slow.getvalue().splitlines() == plain and len(plain) == 5


def test_line_breaks_cut_a_word_longer_than_a_line_and_count_wide_characters() -> None:
    word = "x" * 25
    assert terminal.line_breaks(f"ab {word} cd", 10) == [(0, 2, 0), (3, 13, 0), (13, 23, 0), (23, 31, 0)]
    assert terminal.line_breaks("          deep indent and more words", 16) == [(0, 36, 0)]  # (half the width)
    assert terminal.line_breaks("漢字 漢字 漢字", 9) == [(0, 5, 0), (6, 8, 0)]  # (two columns each)
    assert terminal.line_breaks("fits", 4) == [(0, 4, 0)]


def test_a_table_is_laid_out_as_rich_lays_it_out() -> None:
    from rich.console import Console
    from rich.table import Table

    rows = [("low-spades", "3♠ 5♠", ""), ("high-diamonds", "", "9♦ 10♦ J♦")]
    lines = terminal.table(("book", "known", "possible"), rows, ("", "green", "yellow"))
    assert lines is not None
    grid = Table(box=None, header_style="bold")
    for name in ("book", "known", "possible"):
        grid.add_column(name)
    for row in rows:
        grid.add_row(*row)
    printed = io.StringIO()
    Console(file=printed, width=80).print(grid)
    assert [terminal.rendered(line, io.StringIO()) for line in lines] == printed.getvalue().splitlines()


def test_the_ascii_patterns_are_the_whole_patterns_within_ascii() -> None:
    """Text of ASCII alone is checked with a pattern quicker to compile: it must find exactly what
    the whole character class finds there, and text beyond ASCII still gets the whole class."""
    import re

    from analyzer import source
    from cli import common

    ascii_chars = [chr(c) for c in range(128)]
    for whole, short in ((source._REFUSED, source._REFUSED_ASCII), (common._UNPRINTABLE, common._UNPRINTABLE_ASCII)):
        assert [c for c in ascii_chars if re.fullmatch(whole, c)] == [c for c in ascii_chars if short.fullmatch(c)]
    for c in ascii_chars:
        found = source.refused_character(f"ab{c}")
        beyond = source.refused_character(f"é{c}")
        assert (found is None) == (beyond is None)
        if found is not None and beyond is not None:
            assert (found[0] - 1, found[1]) == beyond
        assert common.visible(f"é{c}") == "é" + common.visible(c)
    for c in "\x85\u2028\u202e\u2066\ud800":
        assert source.refused_character(f"ok {c}") is not None
    assert common.visible("\x9b \u202e \ud800") == "\\x9b \\u202e \\ud800"
    assert source.refused_character("ok\u00e9 \u2660") is None


def test_what_the_library_made_is_frozen_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """The start freezes the library's objects for the collector when the first record loads, and
    only then: freezing again at the next record would make the first game's cycles uncollectable."""
    import gc

    from cli import common

    calls: list[int] = []
    monkeypatch.setattr(gc, "freeze", lambda: calls.append(1))
    common._library_loaded.cache_clear()
    for _ in range(3):
        common.load_game(Path(LOCKOUT))
    assert calls == [1]


def test_the_command_lines_name_of_the_public_view_is_the_librarys() -> None:
    # cli.common spells it out so that a command need not load analyzer.knowledge to compare.
    from analyzer.knowledge import PUBLIC
    from cli import common

    assert common.PUBLIC == PUBLIC
