"""Tactics commands: claims, threats, lockouts, mistakes."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape

from analyzer.analysis import Analysis, analyze
from analyzer.contracts import lockouts_dict, threats_dict
from analyzer.information import ask_information, player_information
from analyzer.knowledge import PUBLIC
from analyzer.odds import TooLarge
from analyzer.replay import Game
from analyzer.tactics import claimable, lockouts, mistakes, quote_odds, threats

from .common import WORKERS, check_at, err, handles_errors, load_game, out, print_json
from .deduce import AsOpt, AtOpt, JsonOpt, RecordArg, view_at


def register(app: typer.Typer) -> None:
    app.command()(claims)
    app.command("threats")(threats_cmd)
    app.command("lockouts")(lockouts_cmd)
    app.command("mistakes")(mistakes_cmd)


@handles_errors
def claims(path: RecordArg, at: AtOpt = None, view: AsOpt = PUBLIC, json_out: JsonOpt = False) -> None:
    """Books that can be claimed in a view, with the declaration to make."""
    game, name, n, _, holders = view_at(path, at, view)
    found = claimable(game, holders, name)
    if json_out:
        print_json({"at": n, "as": name, "claimable": [c.to_dict() for c in found]})
        return
    speaker = None if name == PUBLIC else name
    if not found:
        who = "the public" if name == PUBLIC else name
        out.print(f"No book is claimable after event {n} as {who} sees it.")
    for c in found:
        out.print(f"[green]team {c.team}[/green]  {c.declaration(speaker)}")


def _analyzed(path: Path, at: int | None) -> tuple[Game, int, Analysis]:
    """Every view of the record up to ``at`` (default: the end)."""
    game = load_game(path)
    n = check_at(game, at)
    return game, n, analyze(game, upto=n, workers=WORKERS)


@handles_errors
def threats_cmd(path: RecordArg, at: AtOpt = None, json_out: JsonOpt = False) -> None:
    """Books each player could take if given the turn, judged in their own view."""
    _, n, result = _analyzed(path, at)
    if json_out:
        print_json(threats_dict(result, n))
        return
    for player, books in threats(result, n).items():
        if books is None:
            out.print(f"{player}: [dim]no Hand line, so their view is unknown[/dim]")
        elif books:
            out.print(f"{player}: [bold red]{', '.join(b.name for b in books)}[/bold red]")
        else:
            out.print(f"{player}: none")


@handles_errors
def lockouts_cmd(path: RecordArg, at: AtOpt = None, json_out: JsonOpt = False) -> None:
    """Books threatened from both sides, and the opponents each team must not ask."""
    game, n, result = _analyzed(path, at)
    found = lockouts(result, n)
    if json_out:
        print_json(lockouts_dict(result, n))
        return
    missing = [p for p in game.record.players if not result.has_view(p)]
    if missing:
        err.print(f"not judged (no Hand line): {', '.join(missing)}")
    if not found:
        out.print(f"No lockout after event {n}.")
    for lk in found:
        out.print(
            f"[bold]{lk.book.pretty}[/bold]: team 1 {', '.join(lk.threats[1])} vs team 2 {', '.join(lk.threats[2])}"
        )
        for team in (1, 2):
            avoid = ", ".join(lk.avoid(team))
            out.print(f"  team {team} must not ask {avoid}: a failed ask hands them the turn and {lk.book.pretty}")


@handles_errors
def mistakes_cmd(
    path: RecordArg,
    json_out: JsonOpt = False,
    bits: Annotated[
        bool, typer.Option("--bits", help="Also total, per player, the bits their asks gave away and gained.")
    ] = False,
) -> None:
    """Missed claims, wrong claims, broken lockouts, hopeless asks and rule breaks."""
    game = load_game(path, lenient=True)
    result = analyze(game, upto=game.trusted_until, workers=WORKERS)
    report = mistakes(result)
    try:
        report = quote_odds(result, report, workers=WORKERS)
    except TooLarge as exc:
        err.print(f"odds not quoted: {escape(exc.message)}")
    if report.unjudged:
        err.print(f"not judged in their own view (no Hand line): {', '.join(report.unjudged)}")
    if json_out:
        print_json([m.to_dict() for m in report.mistakes])
        return
    if not report.mistakes:
        out.print("No mistakes found.")
    for m in report.mistakes:
        book = f" ({m.book.replace('-', ' ')})" if m.book else ""
        out.print(f"[bold]{m.event}.[/bold] {m.player} — [bold red]{m.kind.replace('-', ' ')}[/bold red]{book}")
        out.print(f"    {m.why}")
        if m.odds:
            out.print(f"    [dim]odds:[/dim] {m.odds}")
        out.print(f"    [dim]cost:[/dim] {m.cost}")
    if bits:
        try:
            totals = player_information(game, ask_information(game, result.steps, workers=WORKERS))
        except TooLarge as exc:
            out.print(f"[bold]Information[/bold]: not counted ({escape(exc.message)})")
            return
        out.print("[bold]Information[/bold] (public view, exact counts):")
        for p, info in totals.items():
            out.print(f"  {p}: {info.sentence()}")
