"""Commands on records themselves: validate, format, convert, simulate, show."""

from __future__ import annotations

import sys
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table as RichTable

from analyzer import record as fish
from analyzer import record_json
from analyzer.analysis import analyze
from analyzer.cards import DeckKind
from analyzer.errors import UsageError
from analyzer.files import write_text_atomic
from analyzer.record import Ask, Claim, Comment, event_text
from analyzer.replay import Game
from analyzer.rules import HouseRule, RuleSet
from analyzer.simulate import Style
from analyzer.simulate import simulate as run_simulation
from analyzer.wording import plural

from .common import (
    AT_HELP,
    JSON_HELP,
    WORKERS,
    LenientOpt,
    break_lines,
    check_at,
    emit,
    err,
    handles_errors,
    json_text,
    load_game,
    load_record,
    out,
    plain,
    print_json,
    team_style,
    visible,
)

RecordArg = Annotated[Path, typer.Argument(help="A game record (.fish text or .json).")]


def register(app: typer.Typer) -> None:
    app.command()(validate)
    app.command("format")(format_record)
    app.command()(convert)
    app.command()(simulate)
    app.command()(show)


@handles_errors
def validate(
    path: RecordArg,
    lenient: LenientOpt = False,
    json_out: Annotated[bool, typer.Option("--json", help=JSON_HELP)] = False,
) -> None:
    """Check a record: its format, every rule of play, its Hand lines, and that some deal fits it."""
    game = load_game(path, lenient=lenient, warn=False)
    if not game.violations:
        # No rule broken in public: now check that some deal fits, in public and with the hands.
        analyze(game, upto=len(game.events), workers=WORKERS)
    result = {
        "path": str(path),
        "events": len(game.events),
        "finished": game.finished,
        "score": list(game.final.score),
        "violations": [
            {"event": v.event, "line": v.line, "code": v.code, "message": v.message} for v in game.violations
        ],
        "trusted_until": game.trusted_until,
    }
    if json_out:
        print_json(result)
    else:
        for line in break_lines(game):
            sys.stderr.write(f"{visible(line)}\n")
        if game.violations:
            n = game.trusted_until
            trust = f"events after {n} are untrusted" if n < len(game.events) else "the cards are trusted throughout"
            sys.stderr.write(f"{plural(len(game.violations), 'rule break')}; {trust}\n")
        else:
            state = "finished" if game.finished else "unfinished"
            a, b = game.final.score
            out.print(f"[green]ok[/green] {plain(path)}: {len(game.events)} events, {state}, score {a}–{b}")
    if game.violations:
        raise typer.Exit(1)


@handles_errors
def format_record(
    path: RecordArg,
    in_place: Annotated[bool, typer.Option("--in-place", "-i", help="Rewrite the file in canonical form.")] = False,
    check: Annotated[bool, typer.Option("--check", help="Exit 1 if the file is not in canonical form.")] = False,
) -> None:
    """Write a record in canonical form (to stdout, or back to the file with --in-place)."""
    record = load_record(path)
    text = fish.dumps(record)
    if check:
        same = path.read_text(encoding="utf-8") == text
        if not same:
            err.print(f"{plain(path)}: not in canonical form")
        raise typer.Exit(0 if same else 1)
    if in_place:
        write_text_atomic(path, text)
    else:
        emit(text, None, path)


class Form(StrEnum):
    json = "json"
    fish = "fish"


@handles_errors
def convert(
    path: RecordArg,
    to: Annotated[Form, typer.Option("--to", help="The form to write.")],
    output: Annotated[Path | None, typer.Option("--out", "-o", help="Write here instead of stdout.")] = None,
) -> None:
    """Convert a record between the .fish text form and the JSON form (both round-trip)."""
    record = load_record(path)
    text = json_text(record_json.dumps(record)) if to is Form.json else fish.dumps(record)
    emit(text, output, path)


@handles_errors
def simulate(
    players: Annotated[int, typer.Option(help="4, 6 or 8 players.")] = 6,
    deck: Annotated[DeckKind, typer.Option(help="The deck variant.")] = DeckKind.STANDARD,
    rules: Annotated[RuleSet, typer.Option(help="literature or fish.")] = RuleSet.LITERATURE,
    bluffing: Annotated[bool, typer.Option("--bluffing", help="Allow asking for a card you hold.")] = False,
    house: Annotated[list[HouseRule] | None, typer.Option(help="A house rule (repeat for more).")] = None,
    seed: Annotated[int, typer.Option(help="Random seed: the same seed gives the same game.")] = 0,
    output: Annotated[Path | None, typer.Option("--out", "-o", help="Write here instead of stdout.")] = None,
    style: Annotated[
        Style, typer.Option(help="How the bots open: 'probing' asks around in untouched books, as people do.")
    ] = Style.STANDARD,
) -> None:
    """Simulate a complete legal game between sensible bots and write its record (with every hand)."""
    if players not in (4, 6, 8):
        raise UsageError(f"--players must be 4, 6 or 8, not {players}")
    record = run_simulation(
        players=players,
        deck=deck,
        rule_set=rules,
        bluffing=bluffing,
        house=frozenset(house or ()),
        seed=seed,
        style=style,
    )
    emit(fish.dumps(record), output)


@handles_errors
def show(
    path: RecordArg,
    at: Annotated[int | None, typer.Option(help=AT_HELP)] = None,
    json_out: Annotated[bool, typer.Option("--json", help=JSON_HELP)] = False,
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
            name: {"event": r.event, "claimant": r.claimant, "outcome": r.outcome.value, "team": r.team}
            for name, r in step.books.items()
        },
        "events": [
            {"n": i, "line": e.line, "text": event_text(e), "comment": e.comment}
            for i, e in enumerate(game.events[:n], start=1)
        ],
    }


def render_show(game: Game, n: int) -> None:
    record = game.record
    table = record.table
    step = game.step(n)
    title = record.info.get("Title", record.name)
    out.print(f"[bold]{plain(title)}[/bold]  ({record.rules.rule_set.value}, {record.rules.deck_kind.value} deck)")
    for t, names in enumerate(table.teams, start=1):
        people = "  ".join(f"{plain(p)} ({step.counts[p]})" for p in names)
        out.print(f"[{team_style(t)}]Team {t}[/]: {people}")
    a, b = step.score
    status = "finished" if game.finished and n == len(game.events) else f"after event {n}"
    out.print(f"Score {a}–{b} ({status})")
    events = RichTable(show_header=True, header_style="bold", box=None)
    events.add_column("#", justify="right")
    events.add_column("event")
    events.add_column("result")
    events.add_column("turn")
    for i, item in enumerate(game.events[:n], start=1):
        result = ""
        if isinstance(item, Ask):
            result = "[green]yes[/green]" if item.yes else "[red]no[/red]"
        elif isinstance(item, Claim):
            r = game.step(i).books[item.book.name]
            result = f"{r.outcome.value}" + (f" → team {r.team}" if r.team else "")
        text = plain(event_text(item).rsplit(":", 1)[0] if isinstance(item, Ask) else event_text(item))
        if item.comment:
            text += f"  [dim]# {plain(item.comment)}[/dim]"
        events.add_row(str(i), text, result, plain(game.step(i).turn or ""))
    out.print(events)
    comments = [c for c in record.body if isinstance(c, Comment)]
    if comments:
        out.print(f"[dim]{len(comments)} comment line(s) in the record[/dim]")
