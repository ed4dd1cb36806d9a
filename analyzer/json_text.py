"""Strict JSON, read with the place of every value, so that errors can point into the file.

The reader takes RFC 8259 JSON and no more (no NaN, no trailing commas), refuses a key given
twice in one object, a lone surrogate in a string (``"\\ud800"`` is not a character), nesting
deeper than ``MAX_DEPTH`` and numbers longer than ``MAX_NUMBER`` characters, each as a
``RecordSyntaxError`` with its line and column. Values are addressed by their JSON path:
``info.Title``, ``events[3].asker``.
"""

from __future__ import annotations

import json
import re
from bisect import bisect_right
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from .errors import RecordSyntaxError

MAX_DEPTH = 64  # a record nests six deep
MAX_NUMBER = 30  # characters of one number: a record holds only its version

_SPACE = re.compile(r"[ \t\n\r]*")
_STRING = re.compile(r'"(?:[^"\\\x00-\x1f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"')
_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?")
_SURROGATE = re.compile("[\ud800-\udfff]")
_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*")


def member(path: str, key: str) -> str:
    """The path of an object's member: ``info.Title`` (``info["a b"]`` for an unusual key)."""
    if _KEY.fullmatch(key):
        return f"{path}.{key}" if path else key
    return f"{path}[{json.dumps(key, ensure_ascii=False)}]"


def item(path: str, index: int) -> str:
    """The path of an array's item: ``events[3]``."""
    return f"{path}[{index}]"


@dataclass(frozen=True)
class Document:
    """Decoded JSON and where each value starts in its text."""

    value: Any
    text: str
    starts: dict[str, int]  # JSON path ("" for the whole document) -> offset in the text

    @cached_property
    def line_starts(self) -> list[int]:
        """The offset where each line starts (found once: a record asks for thousands of places)."""
        return line_starts(self.text)

    def place(self, path: str) -> tuple[int, int, str] | None:
        """``(line, column, source line)`` of the value at ``path``, when it is in the text."""
        offset = self.starts.get(path)
        return None if offset is None else line_col(self.text, offset, self.line_starts)


def line_starts(text: str) -> list[int]:
    """The offset where each line of ``text`` starts."""
    return [0, *(m.end() for m in re.finditer("\n", text))]


def line_col(text: str, offset: int, starts: list[int] | None = None) -> tuple[int, int, str]:
    """1-based line and column of an offset, and that line's text (``starts``: the text's
    ``line_starts``, when known)."""
    starts = line_starts(text) if starts is None else starts
    line = bisect_right(starts, offset)
    start = starts[line - 1]
    end = starts[line] - 1 if line < len(starts) else len(text)
    return line, offset - start + 1, text[start:end].rstrip("\r")


def parse(text: str, path: str | None = None) -> Document:
    """Read JSON text; a ``RecordSyntaxError`` with line and column when it is not acceptable."""
    return _Parser(text, path).document()


class _Parser:
    def __init__(self, text: str, path: str | None) -> None:
        self.text = text
        self.path = path
        self.pos = 0
        self.starts: dict[str, int] = {}

    def fail(self, message: str, at: int | None = None, where: str | None = None) -> RecordSyntaxError:
        line, col, source = line_col(self.text, self.pos if at is None else at)
        said = f"{where}: {message}" if where else f"not valid JSON: {message}"
        return RecordSyntaxError(said, code="json", line=line, col=col, source=source, path=self.path)

    def space(self) -> None:
        m = _SPACE.match(self.text, self.pos)
        assert m is not None  # the pattern matches the empty string
        self.pos = m.end()

    def document(self) -> Document:
        self.space()
        value = self.value("", 0)
        self.space()
        if self.pos != len(self.text):
            raise self.fail("more text after the JSON value")
        return Document(value, self.text, self.starts)

    def value(self, where: str, depth: int) -> Any:
        self.starts[where] = self.pos
        c = self.text[self.pos : self.pos + 1]
        if c in ("{", "["):
            if depth >= MAX_DEPTH:
                raise self.fail(f"nested deeper than {MAX_DEPTH} levels (a record nests six deep)")
            return self.object(where, depth + 1) if c == "{" else self.array(where, depth + 1)
        if c == '"':
            return self.string(where)
        if c == "-" or c.isdigit():
            return self.number(where)
        for word, meaning in (("true", True), ("false", False), ("null", None)):
            if self.text.startswith(word, self.pos):
                self.pos += len(word)
                return meaning
        if not c:
            raise self.fail("the text ends where a value should be")
        raise self.fail(f"expected a value, not {json.dumps(c, ensure_ascii=False)}")

    def object(self, where: str, depth: int) -> dict[str, Any]:
        out: dict[str, Any] = {}
        self.pos += 1
        self.space()
        if self.text.startswith("}", self.pos):
            self.pos += 1
            return out
        while True:
            self.space()
            if not self.text.startswith('"', self.pos):
                raise self.fail("expected a key in double quotes")
            at = self.pos
            key = self.string(where)
            if key in out:
                raise self.fail(f"the key '{key}' appears twice in one object", at, where or "the record")
            self.space()
            if not self.text.startswith(":", self.pos):
                raise self.fail("expected ':' after the key")
            self.pos += 1
            self.space()
            out[key] = self.value(member(where, key), depth)
            if self.close("}"):
                return out

    def array(self, where: str, depth: int) -> list[Any]:
        out: list[Any] = []
        self.pos += 1
        self.space()
        if self.text.startswith("]", self.pos):
            self.pos += 1
            return out
        while True:
            self.space()
            out.append(self.value(item(where, len(out)), depth))
            if self.close("]"):
                return out

    def close(self, end: str) -> bool:
        """After a member or item: True at the closing bracket, False at a comma."""
        self.space()
        c = self.text[self.pos : self.pos + 1]
        self.pos += 1
        if c == end:
            return True
        if c != ",":
            self.pos -= 1
            raise self.fail(f"expected ',' or '{end}'")
        return False

    def string(self, where: str) -> str:
        m = _STRING.match(self.text, self.pos)
        if m is None:
            raise self._bad_string()
        value: str = json.loads(m.group())
        bad = _SURROGATE.search(value)
        if bad is not None:
            escape = re.search(r"\\u[dD][89a-fA-F][0-9a-fA-F]{2}", m.group())
            at = self.pos + (escape.start() if escape else 0)
            code = ord(bad.group())
            raise self.fail(f"a lone surrogate (\\u{code:04x}) is not a character", at, where or "the record")
        self.pos = m.end()
        return value

    def _bad_string(self) -> RecordSyntaxError:
        """Why the string starting here is not one, at the character that breaks it."""
        i = self.pos + 1
        while i < len(self.text):
            c = self.text[i]
            if c == '"':
                break
            if c < " ":
                return self.fail(f"a control character (U+{ord(c):04X}) in a string must be escaped", i)
            if c == "\\":
                if not re.match(r'\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4})', self.text[i : i + 6]):
                    return self.fail("an unknown escape in a string", i)
                i += 6 if self.text[i + 1] == "u" else 2
                continue
            i += 1
        return self.fail("a string without its closing quote")

    def number(self, where: str) -> int | float:
        m = _NUMBER.match(self.text, self.pos)
        if m is None:
            raise self.fail("expected a number")
        digits = m.group()
        if len(digits) > MAX_NUMBER:
            raise self.fail(f"a number of {len(digits):,} characters (at most {MAX_NUMBER})", where=where or None)
        self.pos = m.end()
        if any(c in digits for c in ".eE"):
            return float(digits)
        return int(digits)
