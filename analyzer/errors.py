"""Errors that carry their place in the record.

Every error the analyzer raises about a record names the line (and column where it helps),
keeps the source line, has a stable ``code`` and an exit status: 2 for malformed input or
usage, 1 for a record that breaks the rules or contradicts itself.
"""

from __future__ import annotations

from typing import Any


class HalfsuitError(Exception):
    """Base of every error the library raises on purpose."""

    exit_code = 2
    code = "error"

    def __init__(
        self,
        message: str,
        *,
        line: int | None = None,
        col: int | None = None,
        source: str | None = None,
        path: str | None = None,
        event: int | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.col = col
        self.source = source
        self.path = path
        self.event = event

    def where(self) -> str:
        """``FILE:LINE:`` (or as much of it as is known; nothing for an error that is about the
        command's arguments, not about a place in a record)."""
        if self.path is None and self.line is None:
            return ""
        parts = [self.path or "<record>"]
        if self.line is not None:
            parts.append(str(self.line))
            if self.col is not None:
                parts.append(str(self.col))
        return ":".join(parts)

    def __str__(self) -> str:
        where = self.where()
        return f"{where}: {self.message}" if where else self.message

    def to_dict(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "message": self.message,
            "path": self.path,
            "line": self.line,
            "col": self.col,
            "event": self.event,
            "source": self.source,
        }


class RecordSyntaxError(HalfsuitError):
    """A line of the record cannot be read (exit 2)."""

    exit_code = 2
    code = "syntax"

    def __init__(self, message: str, *, code: str = "syntax", **kwargs: Any) -> None:
        super().__init__(message, **kwargs)
        self.code = code


class UsageError(HalfsuitError):
    """A request that cannot be answered as asked, such as the view of a player without a hand."""

    exit_code = 2
    code = "usage"


class RuleBreak(HalfsuitError):
    """An event against the rules of the game (exit 1)."""

    exit_code = 1

    def __init__(self, message: str, *, code: str = "rule", **kwargs: Any) -> None:
        super().__init__(message, **kwargs)
        self.code = code


class Contradiction(HalfsuitError):
    """No deal fits the record: it contradicts itself or the rules (exit 1)."""

    exit_code = 1
    code = "contradiction"


class OutputError(HalfsuitError):
    """An output that cannot or must not be written: a full disk, a missing permission, a file in
    the way, or a path that would overwrite an input (exit 2). Nothing was left half-written."""

    exit_code = 2
    code = "output"
