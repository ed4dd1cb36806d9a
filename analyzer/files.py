"""Writing output files so that nobody ever sees half of one.

Every file halfsuit writes goes first into a temporary file in the same folder, is flushed to
disk, and then takes the final name with one ``os.replace``: a reader (or a later run) finds the
previous file or the new one, never a torn mix, whatever happens meanwhile (a full disk, Ctrl-C,
a crash). A set of files that belong together (a batch's tables and summary) is written into a
fresh folder that replaces the old one at once, under a lock so two runs cannot interleave.

Every failure is an ``OutputError`` naming the path (``FILE: message``, exit 2), and an output
that resolves onto a file the command reads is refused before anything is written.
"""

from __future__ import annotations

import contextlib
import errno
import functools
import os
import shutil
import sys
import tempfile
from collections.abc import Collection, Iterable, Iterator
from pathlib import Path

from .errors import OutputError

__all__ = [
    "check_not_input",
    "encode_text",
    "published_folder",
    "write_bytes_atomic",
    "write_text_atomic",
]


def encode_text(text: str, path: str | Path) -> bytes:
    """``text`` as UTF-8, or an OutputError naming the first character UTF-8 cannot hold (a lone
    surrogate, which only a JSON ``\\ud800`` escape can produce)."""
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError as exc:
        bad = text[exc.start]
        line = text.count("\n", 0, exc.start) + 1
        raise OutputError(
            f"not written: line {line} of the output would hold U+{ord(bad):04X}, half of a surrogate "
            "pair, which a UTF-8 file cannot hold",
            path=str(path),
        ) from None


def write_text_atomic(path: str | Path, text: str, *, inputs: Iterable[str | Path] = ()) -> Path:
    """Write ``text`` as UTF-8 to ``path`` at once; see ``write_bytes_atomic``."""
    return write_bytes_atomic(path, encode_text(text, path), inputs=inputs)


def write_bytes_atomic(path: str | Path, data: bytes, *, inputs: Iterable[str | Path] = ()) -> Path:
    """Write ``data`` to ``path`` through a temporary file in its folder and one rename.

    A missing folder is made; a path that is not a regular file (``/dev/stdout``, a FIFO) is
    written to directly, not replaced. The file keeps the permissions of the one it replaces
    (new files get the usual ones); a symlink is written through, to the file it points at.
    Refuses (before writing) when ``path`` is one of ``inputs``. Returns ``path``.
    """
    check_not_input([path], inputs)
    given = Path(path)
    if given.is_dir():
        raise OutputError("is a folder, not a file", path=str(path))
    if given.exists() and not given.is_file():
        _write_stream(given, data, path)  # /dev/stdout, a FIFO: written to, never replaced
        return given
    target = given.resolve() if given.is_symlink() else given
    make_folder(target.parent, shown=Path(path).parent)
    mode = _mode_for(target)
    try:
        fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    except OSError as exc:
        raise _error(path, exc) from None
    try:
        try:
            _fill(fd, data)
            os.fsync(fd)
        finally:
            os.close(fd)
        os.chmod(tmp, mode)
        os.replace(tmp, target)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        if isinstance(exc, OSError):
            raise _error(path, exc) from None
        raise
    return Path(path)


def _write_stream(target: Path, data: bytes, shown: str | Path) -> None:
    try:
        fd = os.open(target, os.O_WRONLY)
        try:
            _fill(fd, data)
        finally:
            os.close(fd)
    except OSError as exc:
        raise _error(shown, exc) from None


def _fill(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def check_not_input(outputs: Iterable[str | Path], inputs: Iterable[str | Path]) -> None:
    """Refuse (OutputError) when an output path is, or leads to, a file the command reads, or is a
    folder that holds one (a folder output is replaced whole, so what is inside it would go)."""
    read = list(inputs)
    for output in outputs:
        for source in read:
            if _same_file(Path(output), Path(source)) or Path(source).resolve().is_relative_to(Path(output).resolve()):
                raise OutputError(
                    f"refusing to write over {source}, which this command reads; choose another --out",
                    path=str(output),
                )


def _same_file(a: Path, b: Path) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return a.resolve() == b.resolve()


def make_folder(folder: Path, shown: Path | None = None) -> None:
    """Make ``folder`` and its parents if missing; OutputError when a file is in the way."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise OutputError("is a file, not a folder", path=str(shown or folder)) from None
    except OSError as exc:
        raise _error(shown or folder, exc) from None


@functools.cache
def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _mode_for(target: Path, default: int = 0o666) -> int:
    try:
        return target.stat().st_mode & 0o7777
    except OSError:
        return default & ~_umask()


def _error(path: str | Path, exc: OSError) -> OutputError:
    reason = exc.strerror or str(exc)
    return OutputError(f"cannot write: {reason[:1].lower()}{reason[1:]}", path=str(path))


# ---------------------------------------------------------------- folders published at once


@contextlib.contextmanager
def published_folder(target: str | Path, names: Collection[str]) -> Iterator[Path]:
    """Yield a fresh empty folder to write into; on a clean exit it replaces ``target`` at once.

    ``names`` are the files such a folder holds: an existing ``target`` holding anything else is
    refused rather than replaced (it is not an earlier output, and replacing it would lose
    files). A lock beside ``target`` refuses a second run into the same folder while one is
    writing. On any error or interrupt the fresh folder is removed and ``target`` is untouched.
    """
    shown = Path(target)
    final = shown.resolve()
    if final.exists() and not final.is_dir():
        raise OutputError("is a file, not a folder", path=str(shown))
    make_folder(final.parent, shown=shown.parent)
    with _locked(final, shown):
        _clear_leftovers(final)
        _check_replaceable(final, shown, names)
        try:
            fresh = Path(tempfile.mkdtemp(dir=final.parent, prefix=f".{final.name}.new-"))
        except OSError as exc:
            raise _error(shown, exc) from None
        try:
            yield fresh
            os.chmod(fresh, _mode_for(final, 0o777))
            _publish(fresh, final)
        except OutputError as exc:
            # Name the file where it was going, not the fresh folder nobody will see.
            if exc.path is not None and Path(exc.path).is_relative_to(fresh):
                exc.path = str(shown / Path(exc.path).relative_to(fresh))
            raise
        except OSError as exc:
            raise _error(shown, exc) from None
        finally:
            shutil.rmtree(fresh, ignore_errors=True)


def _check_replaceable(final: Path, shown: Path, names: Collection[str]) -> None:
    if not final.is_dir():
        return
    try:
        others = sorted(p.name for p in final.iterdir() if p.name not in names)
    except OSError as exc:
        raise _error(shown, exc) from None
    if others:
        listed = ", ".join(others[:3]) + (f" and {len(others) - 3} more" if len(others) > 3 else "")
        raise OutputError(
            f"holds files this command did not write ({listed}); choose an empty or new folder for --out",
            path=str(shown),
        )


def _publish(fresh: Path, final: Path) -> None:
    """Put ``fresh`` in place of ``final``; the old contents end up in ``fresh`` (to be removed)."""
    if not final.exists():
        os.rename(fresh, final)
        return
    if not any(final.iterdir()):
        # No earlier set to keep whole, and the folder may be where a shell stands: the files
        # move in, the folder stays.
        for path in sorted(fresh.iterdir()):
            os.rename(path, final / path.name)
        return
    if _exchange(fresh, final):
        return
    # Without an atomic exchange there is a moment with the old set under another name.
    old = Path(tempfile.mkdtemp(dir=final.parent, prefix=f".{final.name}.old-"))
    os.rename(final, old / final.name)
    os.rename(fresh, final)
    os.rename(old, fresh)


def _exchange(a: Path, b: Path) -> bool:
    """Swap two paths in one step (Linux ``renameat2(RENAME_EXCHANGE)``); False where unsupported."""
    if not sys.platform.startswith("linux"):
        return False
    import ctypes  # (loaded only to publish a folder)

    libc = ctypes.CDLL(None, use_errno=True)
    renameat2 = getattr(libc, "renameat2", None)
    if renameat2 is None:
        return False
    at_fdcwd, rename_exchange = -100, 2
    if renameat2(at_fdcwd, os.fsencode(a), at_fdcwd, os.fsencode(b), rename_exchange) == 0:
        return True
    code = ctypes.get_errno()
    if code in (errno.ENOSYS, errno.EINVAL, errno.EOPNOTSUPP):
        return False
    raise OSError(code, os.strerror(code), str(b))


def _clear_leftovers(final: Path) -> None:
    """Remove fresh or old folders left by a run that was killed (the lock says none is running)."""
    import glob

    for stale in final.parent.glob(f".{glob.escape(final.name)}.*-*"):
        if stale.is_dir() and stale.name.split(".")[-1].startswith(("new-", "old-")):
            shutil.rmtree(stale, ignore_errors=True)


@contextlib.contextmanager
def _locked(final: Path, shown: Path) -> Iterator[None]:
    """Hold ``.NAME.lock`` beside the folder, or refuse at once when another run holds it."""
    import fcntl  # POSIX only: imported here so that merely reading records works anywhere

    lock = final.parent / f".{final.name}.lock"
    while True:
        try:
            fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o666)
        except OSError as exc:
            raise _error(shown, exc) from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise OutputError(
                "another halfsuit run is writing this folder; try again when it has finished", path=str(shown)
            ) from None
        # The holder before us removes the lock file as it lets go: make sure ours is still it.
        try:
            same = os.path.samestat(os.fstat(fd), os.stat(lock))
        except FileNotFoundError:
            same = False
        if same:
            break
        os.close(fd)
    try:
        yield
    finally:
        with contextlib.suppress(OSError):
            os.unlink(lock)
        os.close(fd)
