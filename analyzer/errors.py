"""Errors that carry their place in the record.

Every error the analyzer raises about a record names the line (and column where it helps),
keeps the source line, has a stable ``code`` and an exit status: 2 for malformed input or
usage, 1 for a record that breaks the rules or contradicts itself.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

MAX_ERRORS = 20  # independent errors reported from one reading of a record


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

    @property
    def errors(self) -> list[HalfsuitError]:
        """Every error this one stands for: itself (``RecordErrors`` holds several)."""
        return [self]

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
    """No deal fits the record: it contradicts itself or the rules (exit 1).

    ``explanation`` (an ``analyzer.explain.Explanation``), when set, holds facts of the record
    that cannot all be true.
    """

    exit_code = 1
    code = "contradiction"
    explanation: Any = None

    def to_dict(self) -> dict[str, Any]:
        data = super().to_dict()
        if self.explanation is not None:
            data["explanation"] = self.explanation.to_dict()
        return data


class RecordErrors(HalfsuitError):
    """Several independent errors found in one reading of a record, in the order of the file.

    It reads as the first of them (its message, place and code); ``errors`` lists them all and
    its text is one ``FILE:LINE:COL: message`` line each. Its exit status is the worst of theirs.
    """

    def __init__(self, errors: Sequence[HalfsuitError], *, more: int = 0) -> None:
        first = errors[0]
        super().__init__(
            first.message, line=first.line, col=first.col, source=first.source, path=first.path, event=first.event
        )
        self._errors = list(errors)
        self.more = more  # errors found beyond those listed
        self.code = first.code
        self.exit_code = max(e.exit_code for e in errors)

    @property
    def errors(self) -> list[HalfsuitError]:
        return self._errors

    def __str__(self) -> str:
        lines = [str(e) for e in self._errors]
        if self.more:
            where = f"{self.path}: " if self.path else ""
            lines.append(f"{where}{self.more} more error{'s' if self.more != 1 else ''} not shown")
        return "\n".join(lines)

    def to_dict(self) -> dict[str, Any]:
        return {**super().to_dict(), "errors": [e.to_dict() for e in self._errors], "more": self.more}


def raise_errors(errors: Sequence[HalfsuitError]) -> None:
    """Raise what was found: nothing, the one error itself, or the first ``MAX_ERRORS`` together."""
    if not errors:
        return
    if len(errors) == 1:
        raise errors[0]
    ordered = sorted(errors, key=lambda e: (e.path or "", e.line or 0, e.col or 0))
    raise RecordErrors(ordered[:MAX_ERRORS], more=max(0, len(ordered) - MAX_ERRORS))


class OutputError(HalfsuitError):
    """An output that cannot or must not be written: a full disk, a missing permission, a file in
    the way, or a path that would overwrite an input (exit 2). Nothing was left half-written."""

    exit_code = 2
    code = "output"
