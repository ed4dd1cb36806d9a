"""A record's bytes and characters, before any format reads them.

Both formats read their input through here: only regular files (a FIFO or a device named
``*.fish`` is refused at once instead of hanging or filling memory), at most ``MAX_BYTES``,
UTF-8 with every byte that is not reported by line and column, lines split only at ``\\n``
(a ``\\r`` before it belongs to the line ending), and characters that would change what a
line looks like on screen refused where they stand.
"""

from __future__ import annotations

import codecs
import functools
import os
import re
import stat
import unicodedata
from pathlib import Path
from typing import BinaryIO

from .errors import HalfsuitError, RecordSyntaxError, raise_errors

MAX_BYTES = 1 << 20  # 1 MiB: a whole game (130 to 250 events) takes 2 to 10 KB
MAX_EVENTS = 10_000  # a real game has 100 to 300
STDIN = "<stdin>"  # the name standard input goes by in messages

# Refused anywhere in a record: control characters but tab (a lone carriage return included),
# the Unicode line and paragraph separators, the controls that reorder text on screen, and
# lone surrogates (not characters at all: such text cannot be written as UTF-8).
_REFUSED = "[\x00-\x08\x0a-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]"
# The same characters among those of ASCII, for the lines (nearly all) that hold no other: the
# whole class takes as long to compile as a few dataclasses, and only text beyond ASCII needs it.
_REFUSED_ASCII = re.compile("[\x00-\x08\x0a-\x1f\x7f]")
_NAMES = {
    "\x00": "a NUL character",
    "\x0a": "a line break",
    "\x0b": "a vertical tab",
    "\x0c": "a form feed",
    "\x0d": "a carriage return",
    "\x1b": "an escape character",
    "\x85": "a next-line character (U+0085)",
    "\u2028": "a line separator (U+2028)",
    "\u2029": "a paragraph separator (U+2029)",
}


@functools.cache
def _refused() -> re.Pattern[str]:
    return re.compile(_REFUSED)


def refused_character(text: str) -> tuple[int, str] | None:
    """The first character a record may not hold, as (0-based index, why), or None."""
    m = (_REFUSED_ASCII if text.isascii() else _refused()).search(text)
    if m is None:
        return None
    ch = m.group()
    code = ord(ch)
    if 0xD800 <= code <= 0xDFFF:
        return m.start(), f"a lone surrogate (U+{code:04X}) is not a character"
    if ch in _NAMES:
        what = _NAMES[ch]
    elif code < 0xA0:
        what = f"a control character (U+{code:04X})"
    else:
        what = f"a text direction control ({unicodedata.name(ch).lower()}, U+{code:04X})"
    return m.start(), f"{what} is not allowed in a record (lines end only at a newline; tabs are fine)"


def split_lines(text: str) -> list[str]:
    """The lines of a record: split at ``\\n`` only, a ``\\r`` just before it dropped."""
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    return [line[:-1] if line.endswith("\r") else line for line in lines]


def read_file(path: str | Path) -> bytes:
    """The bytes of a record file: a regular file of at most ``MAX_BYTES``."""
    where = str(path)
    try:
        # Non-blocking, so that opening a FIFO returns at once and fstat can refuse it.
        fd = os.open(where, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except FileNotFoundError:
        raise _unreadable(where, "no such file") from None
    except OSError as exc:
        raise _unreadable(where, f"cannot read the record: {exc.strerror or exc}") from None
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise _unreadable(where, "a folder, not a record")
        if not stat.S_ISREG(mode):
            raise _unreadable(where, "not a regular file: records are read from files (or '-' for standard input)")
        os.set_blocking(fd, True)
        with os.fdopen(os.dup(fd), "rb") as f:
            return _limited(f, where)
    except OSError as exc:
        raise _unreadable(where, f"cannot read the record: {exc.strerror or exc}") from None
    finally:
        os.close(fd)


def read_stream(stream: BinaryIO, name: str = STDIN) -> bytes:
    """The bytes of a record given on a stream (standard input), at most ``MAX_BYTES``."""
    return _limited(stream, name)


def _limited(stream: BinaryIO, where: str) -> bytes:
    data = stream.read(MAX_BYTES + 1)
    if len(data) > MAX_BYTES:
        raise RecordSyntaxError(
            f"the record is larger than {MAX_BYTES // (1 << 20)} MiB, the most halfsuit reads "
            "(a whole game is a few kilobytes)",
            code="too-large",
            path=where,
        )
    return data


def _unreadable(where: str, message: str) -> RecordSyntaxError:
    return RecordSyntaxError(message, code="unreadable", path=where)


def decode(data: bytes, path: str | None = None) -> str:
    """UTF-8 text (a byte-order mark is encoding, not content); bytes that are not UTF-8 are
    reported by line and column, every line that has them."""
    if data.startswith(codecs.BOM_UTF8):
        data = data[len(codecs.BOM_UTF8) :]
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        pass
    errors: list[HalfsuitError] = []
    for n, raw in enumerate(data.split(b"\n"), start=1):
        try:
            raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            col = len(raw[: exc.start].decode("utf-8", "replace")) + 1
            bad = " ".join(f"0x{b:02x}" for b in raw[exc.start : exc.end])
            errors.append(
                RecordSyntaxError(
                    f"byte {bad} is not UTF-8 text (save the record as UTF-8)",
                    code="encoding",
                    line=n,
                    col=col,
                    source=raw.decode("utf-8", "replace").rstrip("\r"),
                    path=path,
                )
            )
    raise_errors(errors)
    return data.decode("utf-8")  # not reached: a line holds the bytes that failed
