"""The ``halfsuit`` command.

This module imports nothing heavy itself: everything loads inside ``main``, so Ctrl-C while the
libraries load is caught like any other (one line, exit 130, no traceback).
"""

from __future__ import annotations

import signal
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any


# Set by ``main``: the process ends with the command (not so for a command run by a test's runner).
PROCESS: list[bool] = []


def main() -> None:
    import gc

    PROCESS.append(True)
    # What the start makes (modules, classes, functions) lives as long as the process: frozen, the
    # collector no longer walks it at each collection while the command's modules load.
    gc.freeze()
    try:
        from .app import app

        gc.freeze()
        app()
    except KeyboardInterrupt:
        raise SystemExit(interrupted()) from None
    except Exception as exc:
        if by_interrupt(exc):
            raise SystemExit(interrupted()) from None
        raise
    except SystemExit as exc:
        if exc.code == INTERRUPTED and not _said:  # typer's own exit on Ctrl-C says nothing
            interrupted()
        elif exc.code != INTERRUPTED:
            # The command is over and its outputs are written: a Ctrl-C from now on would only
            # break Python's own clean-up with a traceback.
            signal.signal(signal.SIGINT, signal.SIG_IGN)
            if not _flushed():
                raise SystemExit(1) from None
        raise
    finally:
        # What the command made goes with the process. Frozen, the collections of Python's exit
        # no longer walk it: 0.1-0.2 s after a report, whose game, analysis and odds are large.
        gc.freeze()


INTERRUPTED = 130
_said: list[bool] = []


def interrupted() -> int:
    """What Ctrl-C does anywhere: one line on stderr, exit status 130 (outputs are all or nothing)."""
    if not _said:
        sys.stderr.write("interrupted\n")
        _said.append(True)
        # Worker processes' threads, cut short, may fail as the process exits (Python 3.11
        # reports it as an 'exception ignored'): after Ctrl-C that is not news.
        sys.unraisablehook = _quiet
    return INTERRUPTED


def _flushed() -> bool:
    """Whether what the command left in stdout's buffer went out. A reader that stopped reading
    (``| head -1``) before a short answer was flushed made Python's exit say "Exception ignored
    ... BrokenPipeError" and exit 120; a closed pipe ends every command quietly, exit 1 (click's
    own way, for one found while the command writes). Standard output then points nowhere, so
    the exit's own flush finds nothing to fail on."""
    import contextlib
    import os

    try:
        sys.stdout.flush()
    except BrokenPipeError:
        with contextlib.suppress(OSError, ValueError):  # (no file descriptor behind it, as under a test's runner)
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return False
    except (OSError, ValueError):  # (closed, or not a file: nothing more to say)
        pass
    return True


def by_interrupt(exc: BaseException) -> bool:
    """Whether ``exc`` was caused by Ctrl-C: Python wraps a KeyboardInterrupt that comes while a
    class is being made (as a library loads) in a RuntimeError."""
    seen: set[int] = set()
    cause: BaseException | None = exc
    while cause is not None and id(cause) not in seen:
        if isinstance(cause, KeyboardInterrupt):
            return True
        seen.add(id(cause))
        cause = cause.__cause__ or cause.__context__
    return False


def _quiet(unraisable: Any) -> None:
    pass


def __getattr__(name: str) -> Any:
    """``cli.main.app``, loaded on first use."""
    if name == "app":
        from .app import app

        return app
    raise AttributeError(name)
