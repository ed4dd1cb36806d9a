"""Printing for the commands answered at the table, without loading rich (a fifth of a second's
start on a slow machine): rich's console markup as halfsuit writes it (``[bold]``, ``[dim]``,
colours, ``[/]``), as ANSI styles on a terminal and as plain text elsewhere, the same text rich
prints; rich's borderless tables, the same layout; and, on a terminal, a line wider than it
broken between words (``line_breaks``, which ``common.out`` follows too).

The other commands print through rich itself (``common.out``); both write to ``sys.stdout`` as
they go, so their lines keep their order.
"""

from __future__ import annotations

import os
import re
import sys
import unicodedata
from collections.abc import Sequence
from typing import TextIO

# rich.markup's tags and escapes: ``[name]``, ``[/name]``, ``[/]``; ``\[`` is a literal bracket.
_TAGS = re.compile(r"((\\*)\[([a-z#/@][^[]*?)])")
_ESCAPE = re.compile(r"(\\*)(\[[a-z#/@][^[]*?])")
# SGR codes of the styles halfsuit uses: attributes, then colours (rich writes them in this order).
_ATTRIBUTES = {"bold": "1", "dim": "2", "italic": "3", "underline": "4"}
_COLOURS = {
    "black": "30",
    "red": "31",
    "green": "32",
    "yellow": "33",
    "blue": "34",
    "magenta": "35",
    "cyan": "36",
    "white": "37",
}
_SUITS = "♠♥♦♣"
# The control characters rich leaves out of what it prints (bell, backspace, vertical tab, form
# feed, carriage return).
_CONTROL = dict.fromkeys((7, 8, 11, 12, 13))


def escape(text: str) -> str:
    """``rich.markup.escape``: text that markup shows as written (the same result)."""
    text = _ESCAPE.sub(lambda m: f"{m[1]}{m[1]}\\{m[2]}", text)
    if text.endswith("\\") and not text.endswith("\\\\"):
        return text + "\\"
    return text


def pieces(markup: str) -> list[tuple[str, str]]:
    """The text of ``markup`` in pieces, each with the style on it (``"bold green"``), read as
    rich reads markup."""
    found: list[tuple[str, str]] = []
    stack: list[str] = []

    def add(text: str) -> None:
        text = text.replace("\\[", "[").translate(_CONTROL)
        if text:
            found.append((text, " ".join(stack)))

    position = 0
    for match in _TAGS.finditer(markup):
        whole, escapes, tag = match.groups()
        start, end = match.span()
        if start > position:
            add(markup[position:start])
        if escapes:
            backslashes, escaped = divmod(len(escapes), 2)
            if backslashes:
                found.append(("\\" * backslashes, " ".join(stack)))
            if escaped:
                add(whole[len(escapes) :])
                position = end
                continue
        if tag.startswith("/"):
            name = " ".join(tag[1:].split())
            if name:
                stack.pop(len(stack) - 1 - stack[::-1].index(name))
            else:
                stack.pop()
        else:
            stack.append(" ".join(tag.split()))
        position = end
    if position < len(markup):
        add(markup[position:])
    return found


def colour_on(stream: TextIO) -> tuple[bool, bool]:
    """Whether to write styles to ``stream``, and colours among them: on a terminal (not a dumb
    one) or with FORCE_COLOR; NO_COLOR keeps bold and dim but drops colours, as rich does."""
    force = bool(os.environ.get("FORCE_COLOR"))
    isatty = getattr(stream, "isatty", None)
    terminal = force or (
        isatty is not None and isatty() and os.environ.get("TERM", "").lower() not in ("dumb", "unknown")
    )
    return terminal, terminal and not os.environ.get("NO_COLOR")


def sgr(style: str, colours: bool) -> str:
    words = style.split()
    codes = [_ATTRIBUTES[w] for w in _ATTRIBUTES if w in words]
    if colours:
        codes += [_COLOURS[w] for w in words if w in _COLOURS][-1:]
    return ";".join(codes)


def rendered(markup: str, stream: TextIO) -> str:
    """``markup`` as it shows on ``stream``: styled on a terminal, plain elsewhere."""
    found = pieces(markup)
    styled, colours = colour_on(stream)
    if not styled or any("\t" in text for text, _ in found):  # (tabs: expanded, unstyled)
        return "".join(text for text, _ in found).expandtabs(8)
    out = []
    for text, style in found:
        code = sgr(style, colours)
        out.append(f"\x1b[{code}m{text}\x1b[0m" if code else text)
    return "".join(out)


def say(markup: str = "", stream: TextIO | None = None) -> None:
    """Print one line of rich markup (record text in it escaped with ``common.plain``); on a
    terminal, broken between words where it is wider than the terminal (``line_breaks``)."""
    stream = stream or sys.stdout
    isatty = getattr(stream, "isatty", None)
    found = pieces(markup)
    spans = line_breaks("".join(text for text, _ in found), width()) if isatty is not None and isatty() else []
    if len(spans) < 2:
        stream.write(rendered(markup, stream) + "\n")
        return
    for start, end, column in spans:
        line, at = [], 0
        for text, style in found:
            part = text[max(0, start - at) : max(0, end - at)]
            if part:
                line.append(f"[{style}]{escape(part)}[/]" if style else escape(part))
            at += len(text)
        stream.write(" " * column + rendered("".join(line), stream) + "\n")


def line_breaks(plain: str, columns: int) -> list[tuple[int, int, int]]:
    """Where a line of text wider than ``columns`` breaks, between words, each next line to go
    under the first one's text (after its leading spaces): per line, the span of ``plain`` it
    shows and the column it starts at. One span when it fits, or when its leading spaces take
    half the width or more; a word longer than a line is cut."""
    cells = [2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in plain]
    if sum(cells) <= columns:
        return [(0, len(plain), 0)]
    indent = len(plain) - len(plain.lstrip(" "))
    if 2 * indent >= columns:
        return [(0, len(plain), 0)]
    spans: list[tuple[int, int, int]] = []
    start, column = 0, 0
    while True:
        room, end = columns - column, start
        while end < len(plain) and room >= cells[end]:
            room -= cells[end]
            end += 1
        if end == len(plain):
            spans.append((start, end, column))
            return spans
        cut = plain.rfind(" ", start + 1, end + 1)
        if cut <= start or not plain[start:cut].strip():
            cut = end  # (a word longer than the line)
        spans.append((start, len(plain[:cut].rstrip(" ")), column))
        start, column = cut, indent
        while start < len(plain) and plain[start] == " ":
            start += 1
        if start == len(plain):
            return spans


def say_text(text: str, style: str = "", stream: TextIO | None = None) -> None:
    """Print one line of text as written (no markup in it), in ``style``."""
    say(f"[{style}]{escape(text)}[/]" if style else escape(text), stream)


def width() -> int:
    """The width rich would give the console: COLUMNS, else the terminal's, else 80."""
    columns = os.environ.get("COLUMNS", "")
    if columns.isdigit() and int(columns) > 0:
        return int(columns)
    if sys.stdout.isatty():
        try:
            return os.get_terminal_size(sys.stdout.fileno()).columns
        except OSError:
            pass
    return 80


def table(header: Sequence[str], rows: Sequence[Sequence[str]], styles: Sequence[str] = ()) -> list[str] | None:
    """The lines of a rich ``Table(box=None)`` with a bold header, left-justified columns of
    plain text (``styles``: one style per column), each cell padded by a space on either side;
    None when it would not fit the console's width (rich would then wrap its cells)."""
    every = [header, *rows]
    if not all(c.isascii() or c in _SUITS for row in every for cell in row for c in cell):
        return None  # (wide characters: rich measures them)
    widths = [max(len(r[k]) for r in every) for k in range(len(header))]
    if sum(w + 2 for w in widths) > width():
        return None
    head = "".join(f" [bold]{escape(h.ljust(w))}[/bold] " for h, w in zip(header, widths, strict=True))
    lines = [head]
    for row in rows:
        cells = []
        for k, (cell, w) in enumerate(zip(row, widths, strict=True)):
            style = styles[k] if k < len(styles) else ""
            text = escape(cell.ljust(w))
            cells.append(f" [{style}]{text}[/] " if style else f" {text} ")
        lines.append("".join(cells))
    return lines
