"""The ``halfsuit`` command.

This module imports nothing heavy itself: everything loads inside ``main``, so Ctrl-C while the
libraries load is caught like any other (one line, exit 130, no traceback).
"""

from __future__ import annotations

import sys
from typing import Any


def main() -> None:
    try:
        from .app import app

        app()
    except KeyboardInterrupt:
        raise SystemExit(interrupted()) from None


def interrupted() -> int:
    """What Ctrl-C does anywhere: one line on stderr, exit status 130 (outputs are all or nothing)."""
    sys.stderr.write("interrupted\n")
    return 130


def __getattr__(name: str) -> Any:
    """``cli.main.app``, loaded on first use."""
    if name == "app":
        from .app import app

        return app
    raise AttributeError(name)
