"""What every command shares: reading records, turning known errors into exit codes, output."""

from __future__ import annotations

import functools
import os
import re
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, ParamSpec, TypeVar

import typer

from analyzer.cards import DeckKind
from analyzer.errors import HalfsuitError
from analyzer.rules import HouseRule, RuleSet

from .main import PROCESS, by_interrupt, interrupted
from .terminal import escape, line_breaks

# The library and rich load inside the functions that use them: a command imports what it
# uses, and `halfsuit --help` none of it.
if TYPE_CHECKING:
    from rich.console import Console
    from rich.progress import Progress

    from analyzer.record import Record
    from analyzer.replay import Game


class _Later:
    """A rich ``Console`` made on first use (rich takes a while to load). Its attributes are the
    console's; rich objects that drive a console themselves (progress bars enter it as a context)
    are given the console itself (``console_of``)."""

    def __init__(self, **options: Any) -> None:
        self._options = options
        self._console: Console | None = None

    def made(self) -> Console:
        if self._console is None:
            from rich.console import Console

            self._console = Console(**self._options)
        return self._console

    def __getattr__(self, name: str) -> Any:
        return getattr(self.made(), name)

    def print(self, *objects: Any, **options: Any) -> None:
        """``Console.print``; on a terminal, a line of text wider than it breaks between words,
        each next line under the first one's text, as ``terminal.say`` breaks it (elsewhere, and
        for anything but one line of text, as rich prints it)."""
        from rich.text import Text

        console = self.made()
        line = objects[0] if len(objects) == 1 and not options and console.is_terminal else None
        if isinstance(line, str):
            line = console.render_str(line)
        if not isinstance(line, Text) or "\n" in line.plain:
            console.print(*objects, **options)
            return
        for start, end, column in line_breaks(line.plain, console.width):
            console.print(Text(" " * column) + line[start:end])


def console_of(console: Console) -> Console:
    """The rich ``Console`` itself behind ``out`` or ``err``."""
    return console.made() if isinstance(console, _Later) else console


# No emoji codes either: a title ":fire:" stays that text.
if TYPE_CHECKING:
    out: Console
    err: Console
else:
    out = _Later(highlight=False, soft_wrap=True, emoji=False)
    err = _Later(stderr=True, highlight=False, soft_wrap=True, emoji=False)
DEBUG = {"on": False}
PUBLIC = "public"  # analyzer.knowledge.PUBLIC, the whole table's view, without loading that module
# Views of a game are solved in worker processes, one per core.
WORKERS = os.cpu_count() or 1

P = ParamSpec("P")
R = TypeVar("R")

AT_HELP = "Stop after this many events (0 is right after the deal); default: all."
AS_HELP = "Whose view: 'public' or a player with a Hand line."
JSON_HELP = "Print JSON to stdout instead of a table."
LENIENT_HELP = (
    "Read on past rule breaks: each is reported once (on stderr), and play goes on from what the record "
    "says happened, the player who acted taken to have had the turn."
)
LenientOpt = Annotated[bool, typer.Option("--lenient", help=LENIENT_HELP)]
RecordArg = Annotated[Path, typer.Argument(metavar="RECORD", help="A game record (.fish text or .json).")]
AtOpt = Annotated[int | None, typer.Option("--at", metavar="N", help=AT_HELP)]
# The game a command deals itself (simulate, tournament).
DeckOpt = Annotated[DeckKind, typer.Option(help="The deck variant.")]
RulesOpt = Annotated[RuleSet, typer.Option(help="literature or fish.")]
BluffingOpt = Annotated[bool, typer.Option("--bluffing", help="Allow asking for a card you hold.")]
HouseOpt = Annotated[list[HouseRule] | None, typer.Option(metavar="RULE", help="A house rule (repeat for more).")]
AsOpt = Annotated[str, typer.Option("--as", metavar="VIEW", help=AS_HELP)]
JsonOpt = Annotated[bool, typer.Option("--json", help=JSON_HELP)]


# Characters that steer a terminal (ESC starts its control sequences; C1 controls, bidi
# overrides) and lone surrogates, which no terminal encoding can carry.
_UNPRINTABLE = "[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff]"
# The same among the characters of ASCII: text of ASCII alone (nearly all) is shown without
# compiling the whole class, which takes as long as loading a small module.
_UNPRINTABLE_ASCII = re.compile("[\x00-\x08\x0b-\x1f\x7f]")


@functools.cache
def _unprintable() -> re.Pattern[str]:
    return re.compile(_UNPRINTABLE)


def visible(text: object) -> str:
    """``text`` with control characters shown as escapes (``\\x1b``), safe to write to a terminal."""
    shown = str(text)
    pattern = _UNPRINTABLE_ASCII if shown.isascii() else _unprintable()
    return pattern.sub(lambda m: f"\\x{ord(m[0]):02x}" if ord(m[0]) < 0x100 else f"\\u{ord(m[0]):04x}", shown)


def plain(text: object) -> str:
    """Text from a record or a file path, for rich: markup escaped and control characters shown."""
    return escape(visible(text))


def handles_errors(fn: Callable[P, R]) -> Callable[P, R]:
    """Print known errors as ``FILE:LINE: message`` on stderr and exit 1 or 2 (traceback with --debug)."""

    @functools.wraps(fn)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return fn(*args, **kwargs)
        except BrokenPipeError:
            raise  # (the reader stopped reading, as ``| head`` does: click ends quietly, as for every command)
        except (HalfsuitError, OSError) as exc:
            if DEBUG["on"]:
                raise
            sys.stderr.write(f"{visible(_located(exc))}{_order_hint(exc, kwargs)}\n")
            raise typer.Exit(exc.exit_code if isinstance(exc, HalfsuitError) else 2) from None
        except KeyboardInterrupt:
            raise typer.Exit(interrupted()) from None
        except Exception as exc:
            if by_interrupt(exc):
                raise typer.Exit(interrupted()) from None
            raise

    return wrapper


def read_record_bytes(path: Path) -> tuple[bytes, str]:
    """The bytes of a record and the name it goes by: ``-`` is standard input (``<stdin>``)."""
    from analyzer import source

    if str(path) == "-":
        return source.read_stream(sys.stdin.buffer), source.STDIN
    return source.read_file(path), str(path)


def is_json(data: bytes, name: str) -> bool:
    """Whether a record is in the JSON form: by its extension, or on standard input by starting
    with ``{``."""
    import codecs

    from analyzer import source

    start = data.removeprefix(codecs.BOM_UTF8).lstrip()
    return name.lower().endswith(".json") or (name == source.STDIN and start.startswith(b"{"))


def parse_record(data: bytes, name: str) -> Record:
    """A record from its bytes, in the JSON form or the ``.fish`` text form (``is_json``)."""
    from analyzer import source

    text = source.decode(data, name)
    if is_json(data, name):
        from analyzer import record_json

        return record_json.loads(text, name)
    from analyzer import record as fish

    return fish.loads(text, name)


def _order_hint(exc: HalfsuitError | OSError, arguments: dict[str, object]) -> str:
    """For a record not found where another of the command's arguments names a file: the
    arguments were likely given in the wrong order (``halfsuit hand RECORD PLAYER``), so the line
    says so, and the command's usage follows on a line of its own (as click's usage errors show
    it: one line would run past a terminal's width)."""
    if not (isinstance(exc, HalfsuitError) and exc.code == "unreadable" and exc.path):
        return ""
    others = [str(v) for v in arguments.values() if isinstance(v, str | Path) and str(v) != exc.path]
    if not any(v != "-" and Path(v).is_file() for v in others):
        return ""
    from typer._click.globals import get_current_context  # (typer's own click: see cli/app.py)

    ctx = get_current_context(silent=True)
    if ctx is None:
        return ""
    usage = " ".join(ctx.command.collect_usage_pieces(ctx))
    return f" (the arguments in the wrong order?)\nUsage: {ctx.command_path} {usage}"


def _located(exc: HalfsuitError | OSError) -> str:
    if isinstance(exc, HalfsuitError) or exc.filename is None:
        return str(exc)
    return f"{exc.filename}: {exc.strerror or exc}"


@contextmanager
def collector_paused() -> Iterator[None]:
    """The cycle collector held off for a command's work (``analyzer.pool.collector_paused``).

    When the process ends with the command (``halfsuit`` itself, not a test's runner), what the
    work made is frozen before the collector runs again: the first collection would walk all of
    it once more (0.05-0.1 s after a report) for memory the process gives back as it ends.
    """
    import gc

    from analyzer.pool import collector_paused as paused

    with paused():
        try:
            yield
        finally:
            if PROCESS:
                gc.freeze()


def counting_odds() -> None:
    """Load the exact counter (and numpy) only for the commands that count odds, and let glibc keep
    freed memory for reuse: a big count makes and drops many arrays."""
    from analyzer.odds import keep_freed_memory

    keep_freed_memory()


def load_record(path: Path) -> Record:
    """Read a record in the ``.fish`` text form or the JSON form, from a file or ``-`` (stdin)."""
    return parse_record(*read_record_bytes(path))


@functools.cache
def _library_loaded() -> None:
    """Freeze what the library made as it loaded (see ``cli.main``), once: a second record's turn
    would freeze the first game too, whose cycles then could never be collected."""
    import gc

    gc.freeze()


def load_game(path: Path, lenient: bool = False, warn: bool = True) -> Game:
    """Read and replay a record: strictly (the first rule break is an error), or leniently, each
    break then told on stderr unless ``warn`` is off (for commands that list them themselves)."""
    from analyzer.replay import replay

    _library_loaded()
    game = replay(load_record(path), lenient=lenient)
    if warn:
        for line in game.break_lines():
            sys.stderr.write(f"{visible(line)}\n")
    return game


def check_at(game: Game, at: int | None) -> int:
    """The step asked for; by default the last one (the last trusted one of a lenient replay)."""
    return game.checked_step(at, option="--at ")


def check_view(game: Game, view: str) -> str:
    from analyzer.knowledge import resolve_view

    return PUBLIC if view.lower() == PUBLIC else resolve_view(game.record, view)


def print_json(data: Any) -> None:
    import json

    from analyzer.files import encode_text

    write_stdout(encode_text(json_text(json.dumps(data, indent=2, ensure_ascii=False)) + "\n", "<stdout>"))


def write_stdout(data: bytes) -> None:
    """All of ``data`` on standard output. Unbuffered (``PYTHONUNBUFFERED``, ``-u``) its text layer
    drops what one write to a pipe leaves over: here the rest goes in writes of its own, so a
    pipe closed early (``| head``) fails in the command, exit 1, as for the text."""
    import select

    sys.stdout.flush()
    out = sys.stdout.buffer
    left = memoryview(data)
    while left:
        written = out.write(left)
        if written is None:  # (a non-blocking stdout, full: wait until it takes more)
            select.select([], [out], [])
            continue
        left = left[written:]
    sys.stdout.flush()


def json_text(text: str) -> str:
    """JSON text with any lone surrogate written as its ``\\udXXX`` escape: the same JSON, in UTF-8."""
    return re.sub("[\ud800-\udfff]", lambda m: f"\\u{ord(m[0]):04x}", text)


def emit(text: str, output: Path | None, source: Path | None = None) -> None:
    """Write text (made from the record ``source``, if any) to stdout, or to the file ``output``."""
    from analyzer.files import encode_text, write_text_atomic

    if output is None:
        write_stdout(encode_text(text, source or "<stdout>"))
    else:
        write_text_atomic(output, text, inputs=[source] if source else [])


def team_style(team: int) -> str:
    return "cyan" if team == 1 else "magenta"


class Stages:
    """Progress callbacks for the library, one bar per stage of a long command."""

    def __init__(self, bar: Progress | None) -> None:
        self.bar = bar

    def stage(self, description: str) -> Callable[[int, int], None] | None:
        """A ``progress(done, total)`` callback for one stage (None: nothing to show)."""
        if self.bar is None:
            return None
        bar, task = self.bar, self.bar.add_task(description, total=None)

        def update(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        return update


@contextmanager
def progress_bars(quiet: bool = False) -> Iterator[Stages]:
    """Rich progress bars on stderr while the block runs, when stderr is a terminal; nothing when
    it is piped or ``quiet`` (``--json``)."""
    if quiet or not err.is_terminal:
        yield Stages(None)
        return
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, console=console_of(err), transient=True) as bar:
        yield Stages(bar)
