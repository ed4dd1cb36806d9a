"""Tactics commands: claims, threats, lockouts, mistakes."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from analyzer.analysis import Analysis, analyze
from analyzer.contracts import lockouts_dict, threats_dict
from analyzer.knowledge import PUBLIC
from analyzer.replay import Game
from analyzer.tactics import claimable, lockouts, mistakes, quote_odds, threats

from .common import WORKERS, LenientOpt, check_at, counting_odds, err, handles_errors, load_game, out, plain, print_json
from .deduce import AsOpt, AtOpt, JsonOpt, RecordArg, view_at


def register(app: typer.Typer) -> None:
    app.command()(claims)
    app.command("threats")(threats_cmd)
    app.command("lockouts")(lockouts_cmd)
    app.command("mistakes")(mistakes_cmd)


@handles_errors
def claims(
    path: RecordArg, at: AtOpt = None, view: AsOpt = PUBLIC, json_out: JsonOpt = False, lenient: LenientOpt = False
) -> None:
    """Books that can be claimed in a view, with the declaration to make."""
    game, name, n, _, holders = view_at(path, at, view, lenient)
    found = claimable(game, holders, name)
    if json_out:
        print_json({"at": n, "as": name, "claimable": [c.to_dict() for c in found]})
        return
    speaker = None if name == PUBLIC else name
    if not found:
        who = "the public" if name == PUBLIC else name
        out.print(f"No book is claimable after event {n} as {plain(who)} sees it.")
    for c in found:
        out.print(f"[green]team {c.team}[/green]  {plain(c.declaration(speaker))}")


def _analyzed(path: Path, at: int | None, lenient: bool) -> tuple[Game, int, Analysis]:
    """Every view of the record up to ``at`` (default: the end)."""
    game = load_game(path, lenient)
    n = check_at(game, at)
    return game, n, analyze(game, upto=n, workers=WORKERS)


@handles_errors
def threats_cmd(path: RecordArg, at: AtOpt = None, json_out: JsonOpt = False, lenient: LenientOpt = False) -> None:
    """Books each player could take if given the turn, judged in their own view."""
    _, n, result = _analyzed(path, at, lenient)
    if json_out:
        print_json(threats_dict(result, n))
        return
    for player, books in threats(result, n).items():
        if books is None:
            out.print(f"{plain(player)}: [dim]no Hand line, so their view is unknown[/dim]")
        elif books:
            out.print(f"{plain(player)}: [bold red]{plain(', '.join(b.name for b in books))}[/bold red]")
        else:
            out.print(f"{plain(player)}: none")


@handles_errors
def lockouts_cmd(path: RecordArg, at: AtOpt = None, json_out: JsonOpt = False, lenient: LenientOpt = False) -> None:
    """Books threatened from both sides, and the opponents each team must not ask."""
    game, n, result = _analyzed(path, at, lenient)
    found = lockouts(result, n)
    if json_out:
        print_json(lockouts_dict(result, n))
        return
    missing = [p for p in game.record.players if not result.has_view(p)]
    if missing:
        err.print(f"not judged (no Hand line): {plain(', '.join(missing))}")
    if not found:
        out.print(f"No lockout after event {n}.")
    for lk in found:
        sides = [plain(", ".join(lk.threats[team])) for team in (1, 2)]
        out.print(f"[bold]{lk.book.pretty}[/bold]: team 1 {sides[0]} vs team 2 {sides[1]}")
        for team in (1, 2):
            avoid = plain(", ".join(lk.avoid(team)))
            out.print(f"  team {team} must not ask {avoid}: a failed ask hands them the turn and {lk.book.pretty}")


@handles_errors
def mistakes_cmd(
    path: RecordArg,
    json_out: JsonOpt = False,
    bits: Annotated[
        bool, typer.Option("--bits", help="Also total, per player, the bits their asks gave away and gained.")
    ] = False,
    lenient: Annotated[
        bool, typer.Option("--lenient", help="Always on here: rule breaks are listed among the mistakes.")
    ] = True,
) -> None:
    """Missed claims, wrong claims, broken lockouts, hopeless asks and rule breaks (read leniently)."""
    game = load_game(path, lenient=True, warn=False)
    result = analyze(game, upto=game.trusted_until, workers=WORKERS)
    report = mistakes(result)
    counting_odds()
    from analyzer.information import ask_information, player_information
    from analyzer.odds import TooLarge

    try:
        report = quote_odds(result, report, workers=WORKERS)
    except TooLarge as exc:
        err.print(f"odds not quoted: {plain(exc.message)}")
    if report.unjudged:
        err.print(f"not judged in their own view (no Hand line): {plain(', '.join(report.unjudged))}")
    if json_out:
        print_json([m.to_dict() for m in report.mistakes])
        return
    if not report.mistakes:
        out.print("No mistakes found.")
    for m in report.mistakes:
        book = f" ({plain(m.book.replace('-', ' '))})" if m.book else ""
        out.print(f"[bold]{m.event}.[/bold] {plain(m.player)} — [bold red]{m.kind.replace('-', ' ')}[/bold red]{book}")
        out.print(f"    {plain(m.why)}")
        if m.odds:
            out.print(f"    [dim]odds:[/dim] {plain(m.odds)}")
        out.print(f"    [dim]cost:[/dim] {plain(m.cost)}")
    if bits:
        try:
            totals = player_information(game, ask_information(game, result.steps, workers=WORKERS))
        except TooLarge as exc:
            out.print(f"[bold]Information[/bold]: not counted ({plain(exc.message)})")
            return
        out.print("[bold]Information[/bold] (public view, exact counts):")
        for p, info in totals.items():
            out.print(f"  {plain(p)}: {plain(info.sentence())}")
