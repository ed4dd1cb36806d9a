"""Tactics commands: claims, threats, lockouts, mistakes."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

if TYPE_CHECKING:
    from analyzer.analysis import Analysis
    from analyzer.cards import Card
    from analyzer.explain import Explanation
    from analyzer.replay import Game

from .common import (
    PUBLIC,
    WORKERS,
    AsOpt,
    AtOpt,
    JsonOpt,
    LenientOpt,
    RecordArg,
    check_at,
    counting_odds,
    err,
    handles_errors,
    load_game,
    out,
    plain,
    print_json,
    progress_bars,
)
from .deduce import view_at
from .terminal import say, say_text


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
    from analyzer.tactics import claimable
    from analyzer.wording import seen_by

    game, name, n, _, holders = view_at(path, at, view, lenient)
    found = claimable(game, holders, name)
    why: list[dict[Card, Explanation]] = []
    if found:  # (the explanations load only when there is a book to explain)
        from analyzer.explain import Explainer, holds
        from analyzer.knowledge import ViewTracker

        explainer = Explainer(ViewTracker(game, name), n)
        why = [{card: explainer.explain(holds(p, card)) for card, p in c.holders.items()} for c in found]
    if json_out:
        books = [
            {**c.to_dict(), "why": {card.code: e.to_dict() for card, e in w.items()}}
            for c, w in zip(found, why, strict=True)
        ]
        print_json({"at": n, "as": name, "claimable": books})
        return
    speaker = None if name == PUBLIC else name
    if not found:
        who = seen_by(name)
        say(f"No book is claimable {game.record.after_label(n)} as {plain(who)} sees it.")
    for c, w in zip(found, why, strict=True):
        say(f"[green]team {c.team}[/green]  {plain(c.declaration(speaker))}")
        for card, e in w.items():
            say_text(f"    {card.pretty} ({c.holders[card]}): {e.text}")


def _analyzed(path: Path, at: int | None, lenient: bool) -> tuple[Game, int, Analysis]:
    """Every view to judge at step ``at`` (default: the end), hands worked out from the record
    included, each solved at that step alone (where no deal fits, the error names the first
    event after which none does)."""
    from analyzer.hindsight import judged_at

    game = load_game(path, lenient)
    n = check_at(game, at)
    return game, n, judged_at(game, n)


@handles_errors
def threats_cmd(path: RecordArg, at: AtOpt = None, json_out: JsonOpt = False, lenient: LenientOpt = False) -> None:
    """Books each player could take if given the turn, judged in their own view."""
    from analyzer.contracts import threats_dict
    from analyzer.tactics import HAND_NOTES, threats

    _, n, result = _analyzed(path, at, lenient)
    if json_out:
        print_json(threats_dict(result, n))
        return
    for player, books in threats(result, n).items():
        note = f" [dim]({HAND_NOTES['worked out']})[/dim]" if player in result.worked_out else ""
        if books is None:
            say(f"{plain(player)}: [dim]no Hand line, so their view is unknown[/dim]")
        elif books:
            say(f"{plain(player)}: [bold red]{plain(', '.join(b.name for b in books))}[/bold red]{note}")
        else:
            say(f"{plain(player)}: none{note}")


@handles_errors
def lockouts_cmd(path: RecordArg, at: AtOpt = None, json_out: JsonOpt = False, lenient: LenientOpt = False) -> None:
    """Books threatened from both sides, and the opponents each team must not ask."""
    from analyzer.contracts import lockouts_dict
    from analyzer.tactics import HAND_NOTES, lockouts

    game, n, result = _analyzed(path, at, lenient)
    if json_out:
        print_json(lockouts_dict(result, n))
        return
    found = lockouts(result, n)
    missing = [p for p in game.record.players if not result.has_view(p)]
    if missing:
        err.print(f"not judged (no Hand line, and the record does not fix their hand): {plain(', '.join(missing))}")
    if result.worked_out:
        err.print(f"{HAND_NOTES['worked out']}: {plain(', '.join(result.worked_out))}")
    if not found:
        say(f"No lockout {game.record.after_label(n)}.")
    for lk in found:
        sides = [plain(", ".join(lk.threats[team])) for team in (1, 2)]
        say(f"[bold]{lk.book.pretty}[/bold]: team 1 {sides[0]} vs team 2 {sides[1]}")
        for team in (1, 2):
            avoid = plain(", ".join(lk.avoid(team)))
            say(f"  team {team} must not ask {avoid}: a failed ask hands them the turn and {lk.book.pretty}")


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
    from rich.text import Text

    from analyzer.explain import Explanation
    from analyzer.hindsight import judged_analysis
    from analyzer.tactics import HAND_NOTES, explain_mistakes, mistakes, quote_odds

    game = load_game(path, lenient=True, warn=False)
    counting_odds()
    from analyzer.information import ask_information, player_information
    from analyzer.odds import TooLarge

    asks = None
    with progress_bars(quiet=json_out) as bars:
        result = judged_analysis(game, workers=WORKERS, progress=bars.stage("solving each view"))[0]
        report = explain_mistakes(result, mistakes(result))
        try:
            report = quote_odds(result, report, workers=WORKERS, progress=bars.stage("quoting odds"))
        except TooLarge as exc:
            err.print(f"odds not quoted: {plain(exc.message)}")
        if bits and not json_out:
            try:
                asks = ask_information(game, result.steps, workers=WORKERS, progress=bars.stage("counting bits"))
            except TooLarge as exc:
                err.print(f"bits not counted: {plain(exc.message)}")
    if report.worked_out:
        err.print(f"judged with their {HAND_NOTES['worked out']}: {plain(', '.join(report.worked_out))}")
    if report.unjudged:
        err.print(
            f"hand not known (no Hand line, and the record does not fix it): {plain(', '.join(report.unjudged))}; "
            "judged from the public view only, a lower bound of what they knew"
        )
    if report.unfinished:
        err.print(f"the record is unfinished: it stops {game.record.after_label(len(game.events))}")
    if json_out:
        print_json([m.to_dict() for m in report.mistakes])
        return
    if not report.mistakes:
        out.print("No mistakes found.")
    for m in report.mistakes:
        book = f" ({plain(m.book.replace('-', ' '))})" if m.book else ""
        note = f"  [dim]({plain(m.hand_note)})[/dim]" if m.hand_note else ""
        kind = m.kind.replace("-", " ")
        out.print(
            f"[bold]{m.number}.[/bold] {plain(m.player)} — [bold red]{kind}[/bold red]{book}"
            f"  [dim]line {m.line}[/dim]{note}"
        )
        out.print(f"    {plain(m.why)}")
        if m.odds:
            out.print(f"    [dim]odds:[/dim] {plain(m.odds)}")
        out.print(f"    [dim]cost:[/dim] {plain(m.cost)}")
        for told in m.explanations:
            head = f"{told.conclusion.words}: " if isinstance(told, Explanation) and told.conclusion else ""
            out.print(Text(f"      - {head}{told.text}"))
    if asks is not None:
        totals = player_information(game, asks)
        out.print("[bold]Information[/bold] (public view, exact counts):")
        for p, info in totals.items():
            out.print(f"  {plain(p)}: {plain(info.sentence())}")
