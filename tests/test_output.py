"""What halfsuit writes: whole files or nothing, never over an input, record text never read as
terminal markup, every failure as ``FILE: message``, Ctrl-C as one line and exit 130.

Full disks are an injected ``OSError(ENOSPC)`` in the one place files are written
(``analyzer.files._fill``); interrupts are SIGINT sent to a real ``halfsuit batch`` process.
"""

from __future__ import annotations

import builtins
import dataclasses
import errno
import importlib
import io
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import polars as pl
import pytest
import typer
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from analyzer import files
from analyzer import record as fish
from analyzer.batch import OUTPUT_NAMES, analyze_file, run_batch
from analyzer.cards import DeckKind
from analyzer.errors import OutputError
from analyzer.files import check_not_input, published_folder, write_text_atomic
from analyzer.record import Record
from analyzer.simulate import Style, simulate
from cli import common, main, records
from cli.main import app

# The module, not the API's function of the same name (``analyzer.batch``).
batch = importlib.import_module("analyzer.batch")

runner = CliRunner()
HALFSUIT = [sys.executable, "-c", "from cli.main import main; main()"]
SHORT_RECORD = """Title: Short
Teams: Anna Ben Cara vs Dev Eli Fay

1. Anna asks Dev for 7S: no
2. Dev asks Anna for 2H: yes
3. Dev asks Anna for 3H: no
"""
# What a batch of short records writes: no claim is made and no hand is known in them, so the
# charts of claims and of mistakes per judged player are not drawn.
SHORT_OUTPUTS = [n for n in OUTPUT_NAMES if n not in ("summary-claims.svg", "summary-mistakes.svg")]
MARKUP_RECORD = """Title: Finals [/] Club night [draft] [link=https://example.com]click[/link]
Teams: Anna Ben Cara vs Dev Eli Fay

# oops [/]
1. Anna asks Dev for 7S: no  # [bold]loud[/bold] [/b]
2. Dev asks Anna for 7S: no
"""


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def leftovers(folder: Path) -> list[str]:
    """Temporary files, fresh or old folders and locks the writers leave behind (none, ever)."""
    return sorted(p.name for p in folder.iterdir() if p.name.startswith("."))


def snapshot(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


def full_disk(after: int = 10) -> Callable[[int, bytes], None]:
    """A write that puts ``after`` bytes on disk and then finds the disk full."""

    def fill(fd: int, data: bytes) -> None:
        os.write(fd, data[:after])
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    return fill


def interrupted_write(fd: int, data: bytes) -> None:
    os.write(fd, data[:10])
    raise KeyboardInterrupt


def reading_with(monkeypatch: pytest.MonkeyPatch, title: str, comment: str | None = None) -> None:
    """Every command reads records through ``with_title`` (``format`` parses the bytes it has read)."""
    load = with_title(common.load_record, title, comment)
    for module in (common, records):
        monkeypatch.setattr(module, "load_record", load)
    monkeypatch.setattr(records, "parse_record", with_title(common.parse_record, title, comment))


def with_title(read: Callable[..., Record], title: str, comment: str | None = None) -> Callable[..., Record]:
    """A reader that gives the record's title (and first comment) text the record reader itself
    would refuse: what the writers must survive if such text ever got past it."""

    def load(*args: Any) -> Record:
        record = read(*args)
        record.info["Title"] = title
        if comment is not None:
            record.body[0] = dataclasses.replace(record.body[0], comment=comment)
        return record

    return load


@pytest.fixture()
def record(tmp_path: Path) -> Path:
    """A short record in canonical form."""
    path = tmp_path / "game.fish"
    path.write_text(fish.dumps(fish.loads(SHORT_RECORD)), encoding="utf-8")
    return path


@pytest.fixture()
def folder(tmp_path: Path) -> Path:
    """Three short records."""
    games = tmp_path / "games"
    games.mkdir()
    for n in (1, 2, 3):
        (games / f"g{n}.fish").write_text(SHORT_RECORD.replace("Short", f"Short {n}"), encoding="utf-8")
    return games


# ---------------------------------------------------------------- one file at a time


def test_a_file_is_replaced_whole_keeping_its_permissions(tmp_path: Path) -> None:
    path = tmp_path / "new" / "deeper" / "out.txt"
    write_text_atomic(path, "one\n")  # the missing folders are made
    path.chmod(0o640)
    write_text_atomic(path, "two\n")
    assert path.read_text() == "two\n" and path.stat().st_mode & 0o777 == 0o640
    assert leftovers(path.parent) == []


def test_a_full_disk_leaves_the_old_file_and_says_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "out.txt"
    path.write_text("the old text\n")
    monkeypatch.setattr(files, "_fill", full_disk())
    with pytest.raises(OutputError) as caught:
        write_text_atomic(path, "a new text much longer than ten bytes\n")
    assert str(caught.value) == f"{path}: cannot write: no space left on device"
    assert caught.value.exit_code == 2
    assert path.read_text() == "the old text\n" and leftovers(tmp_path) == []


def test_an_interrupt_mid_write_leaves_the_old_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "out.txt"
    path.write_text("the old text\n")
    monkeypatch.setattr(files, "_fill", interrupted_write)
    with pytest.raises(KeyboardInterrupt):
        write_text_atomic(path, "a new text much longer than ten bytes\n")
    assert path.read_text() == "the old text\n" and leftovers(tmp_path) == []


def test_text_utf8_cannot_hold_is_refused_before_writing(tmp_path: Path) -> None:
    path = tmp_path / "out.fish"
    with pytest.raises(OutputError, match=r"line 2 of the output would hold U\+D800, half of a surrogate pair"):
        write_text_atomic(path, "Title: fine\nTitle: \ud800\n")
    assert not path.exists() and leftovers(tmp_path) == []


def test_what_is_in_the_way_is_named(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x")
    with pytest.raises(OutputError, match="is a file, not a folder"):
        write_text_atomic(tmp_path / "file" / "out.txt", "x")
    with pytest.raises(OutputError, match="is a folder, not a file"):
        write_text_atomic(tmp_path, "x")


def test_a_fifo_is_written_to_not_replaced(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()))
    reader.start()
    write_text_atomic(fifo, "through the pipe\n")
    reader.join(timeout=10)
    assert got == [b"through the pipe\n"] and fifo.is_fifo()


def test_an_output_onto_an_input_is_refused(tmp_path: Path) -> None:
    source = tmp_path / "game.fish"
    source.write_text("x")
    (tmp_path / "link.fish").symlink_to(source)
    os.link(source, tmp_path / "hard.fish")
    for output in (source, tmp_path / "link.fish", tmp_path / "hard.fish", tmp_path / "." / "game.fish"):
        with pytest.raises(OutputError, match=r"refusing to write over .*game\.fish, which this command reads"):
            check_not_input([output], [source])
    check_not_input([tmp_path / "other.fish"], [source])
    assert source.read_text() == "x"


# ---------------------------------------------------------------- a folder at once


def test_a_folder_is_replaced_at_once_or_not_at_all(tmp_path: Path) -> None:
    out = tmp_path / "out"
    with published_folder(out, ("a", "b")) as fresh:
        (fresh / "a").write_text("first a")
        (fresh / "b").write_text("first b")
        assert not out.exists()  # nothing shows until the whole set is there
    assert snapshot(out) == {"a": b"first a", "b": b"first b"}
    with pytest.raises(RuntimeError), published_folder(out, ("a", "b")) as fresh:
        (fresh / "a").write_text("second a")
        raise RuntimeError("failed half-way")
    assert snapshot(out) == {"a": b"first a", "b": b"first b"} and leftovers(tmp_path) == []
    with published_folder(out, ("a", "b")) as fresh:
        (fresh / "a").write_text("third a")
    assert snapshot(out) == {"a": b"third a"} and leftovers(tmp_path) == []


def test_an_empty_folder_is_filled_in_place(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "out[1]"
    out.mkdir()
    out.chmod(0o750)
    (tmp_path / ".out[1].new-abc123").mkdir()  # left by a killed run
    inode = out.stat().st_ino
    monkeypatch.chdir(out)  # batch --out . in an empty folder: the shell stays where it was
    with published_folder(Path("."), ("a",)) as fresh:
        (fresh / "a").write_text("new")
    assert out.stat().st_ino == inode and snapshot(out) == {"a": b"new"}
    assert leftovers(tmp_path) == [] and out.stat().st_mode & 0o777 == 0o750
    with published_folder(Path("."), ("a",)) as fresh:  # now a set to keep whole: swapped
        (fresh / "a").write_text("newer")
    assert (out / "a").read_text() == "newer" and out.stat().st_mode & 0o777 == 0o750


def test_a_folder_with_other_files_is_not_replaced(tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    (out / "a").write_text("mine")
    (out / "notes.txt").write_text("the user's")
    with (
        pytest.raises(OutputError, match=r"holds files this command did not write \(notes.txt\)"),
        published_folder(out, ("a",)),
    ):
        pass
    assert snapshot(out) == {"a": b"mine", "notes.txt": b"the user's"}


def test_a_second_writer_into_the_same_folder_is_refused(tmp_path: Path) -> None:
    out = tmp_path / "out"
    with published_folder(out, ("a",)) as fresh:
        (fresh / "a").write_text("first")
        with (
            pytest.raises(OutputError, match="another halfsuit run is writing this folder"),
            published_folder(tmp_path / "." / "out", ("a",)),
        ):
            pass
    assert snapshot(out) == {"a": b"first"} and leftovers(tmp_path) == []


def test_what_a_killed_run_left_is_cleared(tmp_path: Path) -> None:
    (tmp_path / ".out.new-abc123").mkdir()
    (tmp_path / ".out.new-abc123" / "a").write_text("half")
    with published_folder(tmp_path / "out", ("a",)) as fresh:
        (fresh / "a").write_text("whole")
    assert leftovers(tmp_path) == [] and (tmp_path / "out" / "a").read_text() == "whole"


# ---------------------------------------------------------------- the commands


def test_format_in_place_on_a_full_disk_keeps_the_record(record: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    before = record.read_bytes()
    record.write_bytes(before.replace(b"\n1. ", b"\n1.  ", 1))  # not canonical, so there is a change
    messy = record.read_bytes()
    monkeypatch.setattr(files, "_fill", full_disk())
    code, _, err = run("format", str(record), "--in-place")
    assert (code, err) == (2, f"{record}: cannot write: no space left on device\n")
    assert record.read_bytes() == messy and leftovers(record.parent) == []
    monkeypatch.undo()
    assert run("format", str(record), "--in-place")[0] == 0 and record.read_bytes() == before


def test_report_and_replay_on_a_full_disk_keep_the_previous_pages(
    record: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "reports"
    assert run("report", str(record), "--out", str(out), "--no-odds")[0] == 0
    assert run("replay", str(record), "--out", str(out), "--no-odds")[0] == 0
    before = snapshot(out)
    assert sorted(before) == ["game-known.svg", "game-replay.html", "game-score.svg", "game.html", "game.md"]
    monkeypatch.setattr(files, "_fill", full_disk(1000))
    for command in ("report", "replay"):
        code, _, err = run(command, str(record), "--out", str(out), "--no-odds")
        assert code == 2 and err.endswith(": cannot write: no space left on device\n") and "Traceback" not in err
    assert snapshot(out) == before and leftovers(out) == []


def test_outputs_never_overwrite_the_record(record: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(record.parent)
    markdown = record.with_name("game.md")
    record.rename(markdown)  # a record named like its own report
    text = markdown.read_bytes()
    code, out, err = run("report", "game.md", "--out", ".", "--no-odds")
    assert code == 2 and out == ""
    assert err == "game.md: refusing to write over game.md, which this command reads; choose another --out\n"
    code, _, err = run("convert", "game.md", "--to", "fish", "--out", "./game.md")
    assert code == 2 and "refusing to write over game.md" in err
    Path("link.fish").symlink_to(markdown)
    assert run("convert", "game.md", "--to", "json", "--out", "link.fish")[0] == 2
    assert markdown.read_bytes() == text and sorted(p.name for p in record.parent.iterdir()) == ["game.md", "link.fish"]


def test_out_into_a_missing_folder_is_made_onto_a_file_is_refused(record: Path, tmp_path: Path) -> None:
    target = tmp_path / "not" / "yet" / "game.json"
    assert run("convert", str(record), "--to", "json", "--out", str(target))[0] == 0
    assert json.loads(target.read_text())["format"] == "halfsuit-record"
    (tmp_path / "afile").write_text("x")
    code, _, err = run("report", str(record), "--out", str(tmp_path / "afile"), "--no-odds")
    assert (code, err) == (2, f"{tmp_path / 'afile'}: is a file, not a folder\n")
    code, _, err = run("batch", str(record.parent), "--out", str(tmp_path / "afile"))
    assert (code, err) == (2, f"{tmp_path / 'afile'}: is a file, not a folder\n")


def test_an_unwritable_place_is_file_message_exit_2(
    record: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def denied(*args: object, **kwargs: object) -> tuple[int, str]:
        raise PermissionError(errno.EACCES, os.strerror(errno.EACCES))

    monkeypatch.setattr(files.tempfile, "mkstemp", denied)
    target = tmp_path / "out.json"
    code, _, err = run("convert", str(record), "--to", "json", "--out", str(target))
    assert (code, err) == (2, f"{target}: cannot write: permission denied\n")


def test_writers_survive_text_no_file_can_hold(record: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    reading_with(monkeypatch, "\ud800 lone")
    code, out, err = run("show", str(record))
    assert code == 0 and "\\ud800 lone" in out and err == ""
    code, out, err = run("format", str(record))
    assert (code, out) == (2, "") and err.startswith(f"{record}: not written: ") and "Traceback" not in err
    code, out, err = run("convert", str(record), "--to", "json")  # JSON can say it, as an escape
    if code == 0:
        assert json.loads(out)["info"]["Title"] == "\ud800 lone"
    else:  # or the JSON reader refuses it: then it is not written either
        assert (code, out) == (2, "") and err.startswith(f"{record}: not written: ")
    code, out, err = run("report", str(record), "--out", str(tmp_path / "reports"), "--no-odds")
    assert code == 2 and "would hold U+D800" in err and not (tmp_path / "reports").exists()


def test_a_record_is_written_only_in_a_form_that_reads_back(
    record: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    as_json = tmp_path / "game.json"
    assert run("convert", str(record), "--to", "json", "--out", str(as_json))[0] == 0
    text = as_json.read_text(encoding="utf-8")
    assert run("format", str(as_json), "--in-place")[0] == 0  # a JSON record stays JSON
    assert as_json.read_text(encoding="utf-8") == text and run("format", str(as_json), "--check")[0] == 0
    reading_with(monkeypatch, "two\nlines")
    for form in ("fish", "json"):
        target = tmp_path / f"out.{form}"
        code, out, err = run("convert", str(record), "--to", form, "--out", str(target))
        assert (code, out) == (2, "") and err.startswith(f"{record}: not written: its {form} form would not read back")
        assert not target.exists()
    code, out, err = run("format", str(record), "--in-place")
    assert code == 2 and "would not read back" in err


def test_record_text_is_never_markup(tmp_path: Path) -> None:
    folder = tmp_path / "a[/b]"
    folder.mkdir(parents=True)
    path = folder / "x [red]y.fish"
    path.write_text(MARKUP_RECORD, encoding="utf-8")
    code, out, err = run("validate", str(path))
    assert (code, err) == (0, "") and f"ok {path}: 2 events" in out
    code, out, err = run("show", str(path))
    assert code == 0, err
    assert "Finals [/] Club night [draft] [link=https://example.com]click[/link]" in out
    assert "# [bold]loud[/bold] [/b]" in out
    code, out, err = run("analyze", str(path))
    assert code == 0 and "Finals [/] Club night [draft]" in out, err
    for command in ("state", "odds", "threats", "mistakes"):
        assert run(command, str(path))[0] == 0, command


def test_control_sequences_from_a_record_never_reach_the_terminal(
    record: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    reading_with(monkeypatch, "red \x1b[31mALERT\x1b]8;;https://x\x07 \x9b2J", "\x1b[2J")
    code, out, err = run("show", str(record))
    assert code == 0 and err == ""
    assert "red \\x1b[31mALERT\\x1b]8;;https://x\\x07 \\x9b2J" in out and "\\x1b[2J" in out
    assert "\x1b" not in out and "\x07" not in out and "\x9b" not in out


def test_errors_quoting_a_record_show_its_control_characters(tmp_path: Path) -> None:
    path = tmp_path / "bad\x1b[2J.fish"
    path.write_text("Teams: Anna Ben Cara vs Dev Eli Fay\n\n1. Anna asks Ben for 7S: no\n", encoding="utf-8")
    code, _, err = run("validate", str(path))
    assert code == 1 and "bad\\x1b[2J.fish:3:" in err and "\x1b" not in err


# Text no reader should let through, and text a terminal or a markup parser would act on.
NASTY = st.lists(
    st.one_of(
        st.characters(codec="utf-8"),
        st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF),  # lone surrogates
        st.characters(max_codepoint=0x9F, categories=["Cc"]),  # C0 and C1 controls, ESC
        st.sampled_from(["[", "]", "[/]", "[bold]", "[link=https://x]", ":fire:", "\u202e", "\\", "|", "<b>"]),
    ),
    min_size=1,
    max_size=8,
).map("".join)


@pytest.fixture(scope="module")
def short(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("short") / "short.fish"
    path.write_text(SHORT_RECORD, encoding="utf-8")
    return path


@settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck))
@given(title=NASTY, comment=NASTY)
def test_no_text_in_a_record_crashes_a_writer(short: Path, title: str, comment: str) -> None:
    writers_survive(short, title, comment)


@pytest.mark.slow
@settings(max_examples=500, deadline=None, suppress_health_check=list(HealthCheck))
@given(title=NASTY, comment=NASTY)
def test_no_text_in_a_record_crashes_a_writer_long(short: Path, title: str, comment: str) -> None:
    writers_survive(short, title, comment)


def writers_survive(short: Path, title: str, comment: str) -> None:
    """Whatever text a record's title and comments hold, every writer shows it, writes it, or
    refuses it with ``FILE: message``: never a traceback, never a control character on screen."""
    with pytest.MonkeyPatch.context() as monkeypatch:
        reading_with(monkeypatch, title, comment)
        code, out, err = run("show", str(short))
        assert code == 0, err
        assert not any(c in out for c in "\x1b\x07\x9b\x00") and not any("\ud800" <= c <= "\udfff" for c in out)
        for args in (["format"], ["convert", "--to", "json"], ["analyze", "--json"]):
            code, out, err = run(*args, str(short))
            assert code in (0, 2) and "Traceback" not in err, (args, err)
            if code == 2:
                assert err.startswith(f"{short}: not written: "), (args, err)
            else:
                out.encode("utf-8")
        monkeypatch.setattr(batch, "load_record", common.load_record)
        outcome = analyze_file(str(short))
        rows = [outcome.failure] if outcome.failure else [outcome.game]
        pl.DataFrame(rows).write_parquet(io.BytesIO())  # the tables can hold whatever comes back


# ---------------------------------------------------------------- batch


def test_batch_writes_the_good_and_lists_every_entry_it_did_not_analyse(folder: Path, tmp_path: Path) -> None:
    (folder / "dangling.fish").symlink_to(folder / "missing.fish")
    (folder / "loop.fish").symlink_to(folder / "loop.fish")
    os.mkfifo(folder / "pipe.fish")
    (folder / "dir.fish").mkdir()
    (folder / "deep.json").write_text("[" * 5000 + "]" * 5000)
    (folder / "huge.json").write_text('{"format": "halfsuit-record", "version": ' + "9" * 4400 + "}")
    out = tmp_path / "summary"
    code, stdout, err = run("batch", str(folder), "--out", str(out), "--workers", "1")
    assert code == 0, err
    assert [Path(line).name for line in stdout.splitlines()] == SHORT_OUTPUTS
    failures = pl.read_parquet(out / "failures.parquet").to_dicts()
    why = {f["file"]: (f["code"], f["exit_code"], f["message"]) for f in failures}
    assert sorted(why) == ["dangling.fish", "deep.json", "dir.fish", "huge.json", "loop.fish", "pipe.fish"]
    assert why["dangling.fish"] == (
        "not-a-record",
        2,
        f"{folder / 'dangling.fish'}: not read: a symlink to a missing file",
    )
    assert why["loop.fish"][2].endswith("not read: a symlink loop")
    assert why["pipe.fish"][2].endswith("not read: a FIFO, not a regular file")
    assert why["dir.fish"][2].endswith("not read: a folder, not a record")
    for name in ("deep.json", "huge.json"):  # bad input, not a bug
        assert why[name][:2] != ("internal", 1) and why[name][1] == 2, why[name]
    for f in failures:
        assert f"{f['message']}\n" in err
    assert "3 of 9 records analyzed, 6 failed" in err
    assert pl.read_parquet(out / "games.parquet").get_column("file").to_list() == ["g1.fish", "g2.fish", "g3.fish"]


def test_an_unreadable_record_is_file_message_in_a_batch_and_alone(
    folder: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    locked = folder / "locked.fish"
    locked.write_text(SHORT_RECORD, encoding="utf-8")
    real_open = io.open

    def guarded_open(file: Any, *args: Any, **kwargs: Any) -> Any:
        if str(file).endswith("locked.fish"):  # what chmod 000 does to anyone but root
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(file))
        return real_open(file, *args, **kwargs)

    real_os_open = os.open

    def guarded_os_open(file: Any, *args: Any, **kwargs: Any) -> int:  # the records' reader opens so
        if str(file).endswith("locked.fish"):
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(file))
        return real_os_open(file, *args, **kwargs)

    monkeypatch.setattr(io, "open", guarded_open)
    monkeypatch.setattr(builtins, "open", guarded_open)
    monkeypatch.setattr(os, "open", guarded_os_open)
    code, out, err = run("validate", str(locked))
    assert (code, out) == (2, "") and err.startswith(f"{locked}:") and "ermission denied" in err
    assert "Usage" not in err and "Traceback" not in err
    result = run_batch(folder, tmp_path / "out", workers=1)
    (failure,) = result.failures.to_dicts()
    assert failure["file"] == "locked.fish" and failure["exit_code"] == 2
    assert failure["message"].startswith(f"{locked}:") and "ermission denied" in failure["message"]
    assert result.games.height == 3


def test_batch_lists_a_record_the_tables_cannot_hold_and_writes_the_rest(
    folder: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    read = batch.load_record

    def load(path: Path) -> Record:
        loaded = read(path)
        if path.name == "g2.fish":
            loaded.info["Title"] = "\ud800"
        return loaded

    monkeypatch.setattr(batch, "load_record", load)
    result = run_batch(folder, tmp_path / "out", workers=1)
    assert result.games.get_column("file").to_list() == ["g1.fish", "g3.fish"]
    (failure,) = result.failures.to_dicts()
    assert failure["file"] == "g2.fish" and failure["exit_code"] == 2
    assert failure["message"] == (
        f"{folder / 'g2.fish'}: not summarized: its title holds U+D800, half of a surrogate pair, "
        "which the tables (UTF-8) cannot hold"
    )
    assert pl.read_parquet(tmp_path / "out" / "games.parquet").height == 2
    assert analyze_file(str(folder / "g1.fish")).failure is None


def test_batch_names_a_file_name_that_is_not_utf8(folder: Path, tmp_path: Path) -> None:
    os.rename(folder / "g1.fish", os.fsencode(folder) + b"/\xff.fish")
    result = run_batch(folder, tmp_path / "out", workers=1)
    assert result.games.get_column("file").to_list() == ["\\udcff.fish", "g2.fish", "g3.fish"]


def test_batch_on_a_full_disk_keeps_the_previous_set(
    folder: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "summary"
    run_batch(folder, out, workers=1)
    before = snapshot(out)
    (folder / "g3.fish").unlink()
    monkeypatch.setattr(files, "_fill", full_disk(100))
    code, _, err = run("batch", str(folder), "--out", str(out), "--workers", "1")
    assert code == 2 and err.endswith(": cannot write: no space left on device\n")
    assert snapshot(out) == before and leftovers(tmp_path) == []


def test_batch_interrupted_while_writing_keeps_the_previous_set(
    folder: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "summary"
    run_batch(folder, out, workers=1)
    before = snapshot(out)
    monkeypatch.setattr(files, "_fill", interrupted_write)
    code, stdout, err = run("batch", str(folder), "--out", str(out), "--workers", "1")
    assert (code, stdout, err) == (130, "", "interrupted\n")
    assert snapshot(out) == before and leftovers(tmp_path) == []


def test_batch_never_writes_over_its_records_or_other_files(folder: Path, tmp_path: Path) -> None:
    records = snapshot(folder)
    code, _, err = run("batch", str(folder), "--out", str(folder))
    assert (code, err) == (
        2,
        f"{folder}: refusing to write over {folder}, which this command reads; choose another --out\n",
    )
    code, _, err = run("batch", str(folder), "--out", str(tmp_path))  # the folder that holds the records
    assert (code, err) == (
        2,
        f"{tmp_path}: refusing to write over {folder}, which this command reads; choose another --out\n",
    )
    assert snapshot(folder) == records


def test_batch_refuses_a_folder_another_run_is_writing(folder: Path, tmp_path: Path) -> None:
    out = tmp_path / "summary"
    with published_folder(out, OUTPUT_NAMES):
        code, _, err = run("batch", str(folder), "--out", str(out), "--workers", "1")
    assert (code, err) == (2, f"{out}: another halfsuit run is writing this folder; try again when it has finished\n")


# ---------------------------------------------------------------- interrupts


def test_main_turns_an_interrupt_anywhere_into_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def interrupt(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    def typer_exit(*args: object, **kwargs: object) -> None:
        raise SystemExit(130)  # what typer does, silently, on Ctrl-C while it reads the arguments

    def while_a_class_is_made(*args: object, **kwargs: object) -> None:
        # Ctrl-C as a library makes a class: Python 3.11 wraps it in a RuntimeError
        raise RuntimeError("Error calling __set_name__") from KeyboardInterrupt()

    for call in (interrupt, typer_exit, while_a_class_is_made):
        monkeypatch.setattr(type(app), "__call__", call)
        monkeypatch.setattr(main, "_said", [])
        with pytest.raises(SystemExit) as caught:
            main.main()
        assert caught.value.code == 130 and capsys.readouterr().err == "interrupted\n"


def test_a_command_interrupted_inside_a_wrapped_error_says_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    @common.handles_errors
    def command() -> None:
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt as exc:
            raise RuntimeError("Error calling __set_name__") from exc

    monkeypatch.setattr(main, "_said", [])
    with pytest.raises(typer.Exit) as caught:
        command()
    assert caught.value.exit_code == 130 and capsys.readouterr().err == "interrupted\n"

    @common.handles_errors
    def broken() -> None:
        raise RuntimeError("a bug")

    with pytest.raises(RuntimeError, match="a bug"):
        broken()


INTERRUPT_WHILE_LOADING = """
import os, signal, sys

class Interrupt:
    def find_spec(self, name, path=None, target=None):
        if name == "typer":  # the first library the command loads: Ctrl-C right then
            sys.meta_path.remove(self)
            os.kill(os.getpid(), signal.SIGINT)
        return None

sys.meta_path.insert(0, Interrupt())
sys.argv = ["halfsuit", "--help"]
from cli.main import main
main()
"""


def test_ctrl_c_while_the_command_loads_is_one_line() -> None:
    done = subprocess.run([sys.executable, "-c", INTERRUPT_WHILE_LOADING], capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout, done.stderr) == (130, "", "interrupted\n")


def _children(pid: int) -> list[int]:
    """The processes ``pid`` started, and theirs (workers may come from a fork server)."""
    try:
        text = Path(f"/proc/{pid}/task/{pid}/children").read_text()
    except OSError:
        return []
    return [d for c in text.split() for d in (int(c), *_children(int(c)))]


def _gone(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(") ")[1][0] == "Z"
    except OSError:
        return True


@pytest.fixture(scope="module")
def big_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Six 8-player games: a batch of them takes several seconds on two cores."""
    games = tmp_path_factory.mktemp("big")
    for seed in range(1, 7):
        (games / f"g{seed}.fish").write_text(fish.dumps(simulate(players=8, seed=seed)), encoding="utf-8")
    return games


def test_ctrl_c_stops_a_batch_at_once_and_leaves_the_previous_set(big_folder: Path, tmp_path: Path) -> None:
    out = tmp_path / "summary"
    with published_folder(out, OUTPUT_NAMES) as fresh:
        (fresh / "summary.md").write_text("the previous run\n")
    before = snapshot(out)
    proc = subprocess.Popen(
        [*HALFSUIT, "batch", str(big_folder), "--out", str(out), "--workers", "2"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 60
    while len(_children(proc.pid)) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(0.5)  # into the analysis
    workers = _children(proc.pid)
    assert len(workers) >= 2, "the workers never started"
    sent = time.monotonic()
    proc.send_signal(signal.SIGINT)
    stdout, stderr = proc.communicate(timeout=60)
    took = time.monotonic() - sent
    assert (proc.returncode, stdout, stderr) == (130, "", "interrupted\n")
    assert took < 5, f"took {took:.1f} s to stop"
    assert snapshot(out) == before and leftovers(tmp_path) == []
    deadline = time.monotonic() + 5
    while not all(_gone(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert all(_gone(pid) for pid in workers), "a worker outlived the batch"


@pytest.mark.parametrize("buffered", [True, False])
@pytest.mark.parametrize("command", [["who-has", "2S"], ["odds"]])
def test_a_reader_that_stops_reading_ends_the_command_quietly(command: list[str], buffered: bool) -> None:
    """``halfsuit who-has 2S game.fish | head -1``: the pipe closes before the answer is written.
    A closed pipe is not a malformed record: no message, and the exit click gives it (1), the
    same for every command (``who-has`` once said "[Errno 32] Broken pipe" and exited 2), with
    Python's output buffered or not (buffered, a short answer waited in the buffer and Python's
    exit said "Exception ignored ... BrokenPipeError", exit 120)."""
    record = Path(__file__).resolve().parents[1] / "sample_logs" / "probing-opening.fish"
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"} | (
        {} if buffered else {"PYTHONUNBUFFERED": "1"}
    )
    read, write = os.pipe()
    proc = subprocess.Popen(
        [*HALFSUIT, *command, str(record)], stdout=write, stderr=subprocess.PIPE, text=True, env=env
    )
    os.close(write)
    os.close(read)  # (before the command has loaded: its first write finds no reader)
    _, stderr = proc.communicate(timeout=60)
    assert (proc.returncode, stderr) == (1, "")


def test_json_to_a_reader_that_stops_reading_ends_the_command_as_the_text_does() -> None:
    """Unbuffered (``PYTHONUNBUFFERED``), a write of 3.8 MB to a pipe whose reader stopped after
    one line took what the pipe held and dropped the rest unsaid: exit 0. Now exit 1, no message."""
    record = Path(__file__).resolve().parents[1] / "sample_logs" / "simulated-game.fish"
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen(
        [*HALFSUIT, "analyze", str(record), "--json"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env
    )
    assert proc.stdout is not None and proc.stderr is not None
    assert proc.stdout.readline() == b"{\n"
    proc.stdout.close()
    stderr = proc.stderr.read()
    assert (proc.wait(timeout=60), stderr) == (1, b"")


def test_notes_on_stderr_stay_whole_lines_off_a_terminal() -> None:
    """Written to a file or a pipe, a note is one line, as the answers on stdout are (it was broken
    at 80 columns, with spaces left at the ends)."""
    record = (Path(__file__).resolve().parents[1] / "sample_logs" / "lockout.fish").read_text()
    no_hands = "".join(line for line in record.splitlines(keepends=True) if not line.startswith("Hand "))
    done = subprocess.run([*HALFSUIT, "mistakes", "-"], input=no_hands, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0
    (note,) = [line for line in done.stderr.splitlines() if line.startswith("hand not known")]
    assert note.endswith("a lower bound of what they knew") and len(note) > 120


@pytest.mark.parametrize("moment", [0.05, 0.15, 0.2, 0.25, 0.3, 0.35, 0.5])
def test_ctrl_c_to_the_whole_command_while_its_workers_start_is_one_line(moment: float, tmp_path: Path) -> None:
    """Ctrl-C at a terminal goes to every process of the command, the pool's fork server too: while
    the server loaded its modules it printed a traceback of its own, and the command, its pool
    broken, said "Aborted!" and exited 1."""
    record = tmp_path / "probing.fish"
    record.write_text(fish.dumps(simulate(players=8, deck=DeckKind.JOKERS, seed=3, style=Style.PROBING)))
    proc = subprocess.Popen(
        [*HALFSUIT, "mistakes", str(record)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # (a group of its own, as a terminal's foreground job is)
    )
    time.sleep(moment)
    os.killpg(proc.pid, signal.SIGINT)
    try:
        stdout, stderr = proc.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        raise AssertionError("the command did not end after Ctrl-C") from None
    assert (proc.returncode, stdout, stderr) == (130, "", "interrupted\n")


@pytest.mark.parametrize(
    "moment", [0.2, 1.0, pytest.param(0.6, marks=pytest.mark.slow), pytest.param(1.5, marks=pytest.mark.slow)]
)
def test_ctrl_c_at_any_moment_of_a_report_ends_it_at_once_and_quietly(moment: float, tmp_path: Path) -> None:
    """The report's counts run in workers beside its other work: Ctrl-C while they are queued
    once made the process wait for ever at exit, or print a traceback of the pool's threads."""
    out = tmp_path / "report"
    record = Path(__file__).resolve().parents[1] / "sample_logs" / "simulated-game.fish"
    proc = subprocess.Popen(
        [*HALFSUIT, "report", str(record), "--out", str(out)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 60
    while len(_children(proc.pid)) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(moment)
    proc.send_signal(signal.SIGINT)
    try:
        stdout, stderr = proc.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        proc.kill()  # (and its fork server, which ends with it)
        proc.communicate()
        raise AssertionError("the report did not end after Ctrl-C") from None
    if proc.returncode == 0:  # it was done before the interrupt came
        assert stderr == ""
    else:
        assert (proc.returncode, stdout, stderr) == (130, "", "interrupted\n")
        # No file, or (the interrupt held while they went in place) every one of them.
        written = sorted(p.name for p in out.iterdir()) if out.is_dir() else []
        if written:
            charts = re.findall(r"simulated-game-[a-z]+\.svg", (out / "simulated-game.md").read_text(encoding="utf-8"))
            assert written == sorted(
                {"simulated-game.html", "simulated-game.md", "simulated-game-replay.html", *charts}
            )


def test_two_batches_into_one_folder_never_mix(folder: Path, tmp_path: Path) -> None:
    other = tmp_path / "other"
    other.mkdir()
    for name in ("g1.fish", "g2.fish"):
        (other / name).write_bytes((folder / name).read_bytes())
    out = tmp_path / "summary"
    runs = [
        subprocess.Popen(
            [*HALFSUIT, "batch", str(source), "--out", str(out), "--workers", "1"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for source in (folder, other)
    ]
    results = [(p.wait(timeout=120), p.stderr.read() if p.stderr else "") for p in runs]
    codes = sorted(code for code, _ in results)
    assert codes in ([0, 0], [0, 2]), results
    for code, err in results:
        if code == 2:
            assert err == f"{out}: another halfsuit run is writing this folder; try again when it has finished\n"
    # Whichever run published last, its tables and its summary agree: one complete set.
    games = pl.read_parquet(out / "games.parquet").get_column("file").to_list()
    summary = (out / "summary.md").read_text(encoding="utf-8")
    assert games in (["g1.fish", "g2.fish", "g3.fish"], ["g1.fish", "g2.fish"])
    assert f"{len(games)} analyzed, 0 failed" in summary
    assert pl.read_csv(out / "games.csv").get_column("file").to_list() == games
    assert sorted(p.name for p in out.iterdir()) == sorted(SHORT_OUTPUTS) and leftovers(tmp_path) == []
