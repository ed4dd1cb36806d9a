"""What every command shares: reading records, turning known errors into exit codes, output."""

from __future__ import annotations

import functools
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, ParamSpec, TypeVar

import typer
from rich.console import Console

from analyzer import record as fish
from analyzer import record_json
from analyzer.errors import HalfsuitError, UsageError
from analyzer.knowledge import PUBLIC, resolve_view
from analyzer.record import Record
from analyzer.replay import Game, replay

out = Console(highlight=False, soft_wrap=True)
err = Console(stderr=True, highlight=False)
DEBUG = {"on": False}
# Views of a game are solved in worker processes, one per core.
WORKERS = os.cpu_count() or 1

P = ParamSpec("P")
R = TypeVar("R")

AT_HELP = "Stop after this many events (0 is right after the deal); default: all."
AS_HELP = "Whose view: 'public' or a player with a Hand line."
JSON_HELP = "Print JSON to stdout instead of a table."


def handles_errors(fn: Callable[P, R]) -> Callable[P, R]:
    """Print known errors as ``FILE:LINE: message`` on stderr and exit 1 or 2 (traceback with --debug)."""

    @functools.wraps(fn)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return fn(*args, **kwargs)
        except HalfsuitError as exc:
            if DEBUG["on"]:
                raise
            sys.stderr.write(f"{exc}\n")
            raise typer.Exit(exc.exit_code) from None
        except KeyboardInterrupt:
            raise typer.Exit(130) from None

    return wrapper


def counting_odds() -> None:
    """Load the exact counter (and numpy) only for the commands that count odds, and let glibc keep
    freed memory for reuse: a big count makes and drops many arrays."""
    from analyzer.odds import keep_freed_memory

    keep_freed_memory()


def load_record(path: Path) -> Record:
    """Read a record in the ``.fish`` text form or the JSON form (by extension or content)."""
    if not path.exists():
        raise UsageError(f"no such file: {path}", path=str(path))
    if path.is_dir():
        raise UsageError(f"{path} is a folder, not a record", path=str(path))
    if path.suffix.lower() == ".json":
        return record_json.load(path)
    return fish.load(path)


def load_game(path: Path, lenient: bool = False) -> Game:
    return replay(load_record(path), lenient=lenient)


def check_at(game: Game, at: int | None) -> int:
    n = len(game.events)
    if at is None:
        return n
    if not 0 <= at <= n:
        raise UsageError(f"--at {at} is out of range: the record has {n} events", path=game.record.path)
    return at


def check_view(game: Game, view: str) -> str:
    return PUBLIC if view.lower() == PUBLIC else resolve_view(game.record, view)


def print_json(data: Any) -> None:
    sys.stdout.write(json.dumps(data, indent=2, ensure_ascii=False) + "\n")


def team_style(team: int) -> str:
    return "cyan" if team == 1 else "magenta"
