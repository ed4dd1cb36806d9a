"""Commands on records themselves: validate, format, convert, simulate, show."""

from __future__ import annotations

import sys
from collections.abc import Callable
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

if TYPE_CHECKING:
    from analyzer.record import Event, Record
    from analyzer.replay import Game

from .common import (
    DEBUG,
    AtOpt,
    JsonOpt,
    LenientOpt,
    RecordArg,
    check_at,
    emit,
    handles_errors,
    is_json,
    json_text,
    load_game,
    load_record,
    out,
    parse_record,
    plain,
    print_json,
    read_record_bytes,
    team_style,
    visible,
)
from .terminal import escape, say


def register(app: typer.Typer) -> None:
    app.command()(validate)
    app.command("format")(format_record)
    app.command()(convert)
    app.command()(show)


RecordsArg = Annotated[list[Path], typer.Argument(help="Game records (.fish text or .json); '-' reads stdin.")]


def each_record(paths: list[Path], check: Callable[[Path], int]) -> int:
    """Run ``check`` on every record, printing each one's errors; the worst status.

    With several records an error in one does not stop the others, and the last line says
    which failed.
    """
    from analyzer.errors import HalfsuitError
    from analyzer.wording import plural

    if len(paths) == 1:
        return check(paths[0])
    worst = 0
    failed: list[str] = []
    for path in paths:
        try:
            status = check(path)
        except HalfsuitError as exc:
            if DEBUG["on"]:
                raise
            sys.stderr.write(f"{visible(str(exc))}\n")
            status = exc.exit_code
        if status:
            failed.append(str(path))
        worst = max(worst, status)
    if failed:
        sys.stderr.write(visible(f"{len(failed)} of {plural(len(paths), 'record')} failed: {', '.join(failed)}") + "\n")
    return worst


@handles_errors
def validate(
    paths: RecordsArg,
    lenient: LenientOpt = False,
    json_out: JsonOpt = False,
) -> None:
    """Check records: their format, every rule of play, their Hand lines, and that some deal fits.

    Move numbers that are missing, repeated or out of order are warned about (exit 0).
    """
    from analyzer.errors import HalfsuitError

    results: list[dict[str, object]] = []

    def check(path: Path) -> int:
        try:
            result, status = validate_one(path, lenient, json_out)
        except HalfsuitError as exc:
            results.append({"path": str(path), "errors": [e.to_dict() for e in exc.errors]})
            raise
        results.append(result)
        return status

    status = each_record(paths, check)
    if json_out:
        print_json(results if len(paths) > 1 else results[0])
    raise typer.Exit(status)


def validate_one(path: Path, lenient: bool, json_out: bool) -> tuple[dict[str, object], int]:
    """Check one record: its result for --json, and its exit status (printing what it found)."""
    from analyzer.analysis import check_fits
    from analyzer.record import number_warnings
    from analyzer.wording import plural

    game = load_game(path, lenient=lenient, warn=False)
    name = game.record.path or str(path)
    if not game.violations:
        check_fits(game)  # no rule broken in public: now check that some deal fits
    warnings = number_warnings(game.record)
    result = {
        "path": str(path),
        "events": len(game.events),
        "finished": game.finished,
        "score": list(game.final.score),
        "violations": [
            {"event": game.numbers[v.event - 1], "line": v.line, "code": v.code, "message": v.message}
            for v in game.violations
        ],
        "trusted_until": game.trusted_until,
        "warnings": [{"line": w.line, "number": w.number, "message": w.message} for w in warnings],
    }
    if not json_out:
        for w in warnings:
            sys.stderr.write(visible(f"{name}:{w.line}: warning: {w.message}") + "\n")
        for line in game.break_lines():
            sys.stderr.write(f"{visible(line)}\n")
        if game.violations:
            n = game.trusted_until
            trust = (
                f"events {game.record.after_label(n)} are untrusted"
                if n < len(game.events)
                else "the cards are trusted throughout"
            )
            sys.stderr.write(f"{visible(name)}: {plural(len(game.violations), 'rule break')}; {trust}\n")
        else:
            state = "finished" if game.finished else "unfinished"
            a, b = game.final.score
            ok = f" {visible(name)}: {plural(len(game.events), 'event')}, {state}, score {a}–{b}"
            say(f"[green]ok[/green]{escape(ok)}")
    return result, 1 if game.violations else 0


@handles_errors
def format_record(
    paths: RecordsArg,
    in_place: Annotated[bool, typer.Option("--in-place", "-i", help="Rewrite the files in canonical form.")] = False,
    check: Annotated[bool, typer.Option("--check", help="Exit 1 if a file is not in canonical form.")] = False,
) -> None:
    """Write a record in canonical form (to stdout, or back to the files with --in-place).

    The form is the file's own: JSON for a .json record, the .fish text for any other. The
    events are numbered 1, 2, 3... whatever numbers the file gave them.
    """
    from analyzer.errors import UsageError
    from analyzer.files import write_text_atomic

    if len(paths) > 1 and not (check or in_place):
        raise UsageError("several records are formatted with --check or --in-place, not to stdout")
    if in_place and any(str(p) == "-" for p in paths):
        raise UsageError("standard input cannot be rewritten in place")

    def one(path: Path) -> int:
        data, name = read_record_bytes(path)
        form = Form.json if is_json(data, name) else Form.fish
        text = canonical_text(parse_record(data, name), form, Path(name))
        if check:
            if data != text.encode("utf-8"):
                sys.stderr.write(f"{visible(name)}: not in canonical form\n")
                return 1
            return 0
        if in_place:
            write_text_atomic(path, text)
        else:
            emit(text, None, path)
        return 0

    raise typer.Exit(each_record(paths, one))


class Form(StrEnum):
    json = "json"
    fish = "fish"


def canonical_text(record: Record, form: Form, source: Path) -> str:
    """The record's canonical text in ``form``; refused (OutputError, naming the record) when that
    text would not read back as the same record, rather than written broken."""
    from analyzer import record as fish
    from analyzer import record_json
    from analyzer.errors import HalfsuitError, OutputError

    module = record_json if form is Form.json else fish
    text = module.dumps(record)
    try:
        same = module.dumps(module.loads(json_text(text) if form is Form.json else text)) == text
    except HalfsuitError as exc:
        why = f"not written: its {form.value} form would not read back ({exc.message})"
        raise OutputError(why, path=str(source)) from None
    if not same:
        raise OutputError(f"not written: its {form.value} form would read back differently", path=str(source))
    return json_text(text) if form is Form.json else text


@handles_errors
def convert(
    path: RecordArg,
    to: Annotated[Form, typer.Option("--to", metavar="json|fish", help="The form to write.")],
    output: Annotated[
        Path | None, typer.Option("--out", "-o", metavar="FILE", help="Write here instead of stdout.")
    ] = None,
) -> None:
    """Convert a record between the .fish text form and the JSON form (both round-trip)."""
    emit(canonical_text(load_record(path), to, path), output, path)


@handles_errors
def show(
    path: RecordArg,
    at: AtOpt = None,
    json_out: JsonOpt = False,
    lenient: LenientOpt = False,
) -> None:
    """Teams, score, card counts and the events as a readable table."""
    game = load_game(path, lenient=lenient)
    n = check_at(game, at)
    if json_out:
        print_json(show_dict(game, n))
        return
    render_show(game, n)


def show_dict(game: Game, n: int) -> dict[str, object]:
    from analyzer.record import event_text

    record = game.record
    step = game.step(n)
    return {
        "at": n,
        "rules": record.rules.rule_set.value,
        "deck": record.rules.deck_kind.value,
        "teams": [list(t) for t in record.table.teams],
        "turn": step.turn,
        "score": list(step.score),
        "counts": step.counts,
        "finished": n == len(game.events) and game.finished,
        "books": {
            name: {
                "event": game.numbers[r.event - 1],
                "claimant": r.claimant,
                "outcome": r.outcome.value,
                "team": r.team,
            }
            for name, r in step.books.items()
        },
        "events": [
            {"n": i, "number": game.numbers[i - 1], "line": e.line, "text": event_text(e), "comment": e.comment}
            for i, e in enumerate(game.events[:n], start=1)
        ],
    }


def render_show(game: Game, n: int) -> None:
    from rich.table import Table as RichTable

    from analyzer.record import Ask, Claim, Comment

    record = game.record
    table = record.table
    step = game.step(n)
    title = record.info.get("Title", record.name)
    out.print(f"[bold]{plain(title)}[/bold]  ({record.rules.rule_set.value}, {record.rules.deck_kind.value} deck)")
    for t, names in enumerate(table.teams, start=1):
        people = "  ".join(f"{plain(p)} ({step.count_text(p)})" for p in names)
        out.print(f"[{team_style(t)}]Team {t}[/]: {people}")
    a, b = step.score
    status = "finished" if game.finished and n == len(game.events) else record.after_label(n)
    out.print(f"Score {a}–{b} ({status})")
    events = RichTable(show_header=True, header_style="bold", box=None)
    events.add_column("#", justify="right")
    events.add_column("event")
    events.add_column("result")
    events.add_column("turn")
    i = 0
    for item in record.body:
        if isinstance(item, Comment):  # a comment line of the record, in its place
            events.add_row("", f"[dim]# {plain(item.text)}[/dim]", "", "")
            continue
        i += 1
        if i > n:
            break
        result = ""
        if isinstance(item, Ask):
            result = "[green]yes[/green]" if item.yes else "[red]no[/red]"
        elif isinstance(item, Claim):
            r = game.step(i).books[item.book.name]
            result = f"{r.outcome.value}" + (f" → team {r.team}" if r.team else "")
        text = plain(spoken(item))
        if item.comment:
            text += f"  [dim]# {plain(item.comment)}[/dim]"
        events.add_row(str(game.numbers[i - 1]), text, result, plain(game.step(i).turn or ""))
    out.print(events)


def spoken(event: Event) -> str:
    """An event as the table says it, cards with their suit symbols; an ask without its answer."""
    from analyzer.record import Ask, Holding, Pass

    if isinstance(event, Ask):
        return f"{event.asker} asks {event.target} for {event.card.pretty}"
    if isinstance(event, Pass):
        return f"{event.player} passes to {event.to}"

    def holding(h: Holding) -> str:
        return ", ".join(f"{p} {' '.join(c.pretty for c in cards)}" for p, cards in h)

    text = f"{event.claimant} claims {event.book.pretty}: {holding(event.said)}"
    return text if event.correct else f"{text}; actual {holding(event.actual or ())}"
