"""Odds commands: odds (exact fractions for every card) and suggest (advice for the player on turn)."""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Annotated

import typer

if TYPE_CHECKING:
    from collections.abc import Callable, Collection

    from rich.text import Text

    from analyzer.cards import Card
    from analyzer.replay import Game

from .common import (
    PUBLIC,
    AsOpt,
    AtOpt,
    JsonOpt,
    LenientOpt,
    RecordArg,
    check_at,
    check_view,
    counting_odds,
    handles_errors,
    load_game,
    out,
    plain,
    print_json,
    team_style,
)

RISKY = Fraction(1, 100)  # the least odds of a claim that ``suggest`` shows as a risky claim


def register(app: typer.Typer) -> None:
    app.command()(odds)
    app.command()(suggest)


def shade(f: Fraction) -> Text:
    """A percentage, shaded from dim (unlikely) to bold green (certain)."""
    from rich.text import Text

    from analyzer.wording import percent

    if f == 0:
        return Text("·", style="dim")
    pct = float(f) * 100
    style = (
        "bold green" if f == 1 else "green" if pct >= 60 else "yellow" if pct >= 30 else "white" if pct >= 10 else "dim"
    )
    return Text(percent(f), style=style)


@handles_errors
def odds(
    path: RecordArg, at: AtOpt = None, view: AsOpt = PUBLIC, json_out: JsonOpt = False, lenient: LenientOpt = False
) -> None:
    """Exact odds that each player holds each card, counting every fitting deal."""
    from rich.text import Text

    from analyzer.analysis import solve_position
    from analyzer.knowledge import ViewTracker
    from analyzer.tactics import exact_text
    from analyzer.wording import seen_by

    game = load_game(path, lenient)
    n = check_at(game, at)
    name = check_view(game, view)
    pos, holders = solve_position(ViewTracker(game, name), n)
    counting_odds()
    from analyzer.odds import odds_or_reason

    result = odds_or_reason(pos)
    if isinstance(result, str):
        # Too costly to count: the holders still stand, the odds are said to be missing.
        if json_out:
            print_json(
                {
                    "at": n,
                    "as": name,
                    "deals": None,
                    "cards": {c.code: dict.fromkeys(holders[c]) for c in pos.in_play},
                    "not_counted": result,
                }
            )
            return
        out.print(
            f"[bold]Who can hold each card {game.record.after_label(n)}, as {plain(seen_by(name))} sees it[/bold]"
        )
        out.print(Text(f"odds not counted: {result}", style="yellow"))
        _card_grid(game, holders, lambda c, p: Text("•") if p in holders[c] else Text("·", style="dim"))
        return
    if json_out:
        print_json(
            {
                "at": n,
                "as": name,
                "deals": str(result.deals),
                "cards": {c.code: {p: exact_text(f) for p, f in share.items()} for c, share in result.cards.items()},
            }
        )
        return
    title = f"Odds {game.record.after_label(n)}, as {seen_by(name)} sees it"
    count = f"({result.deals:,} fitting deals)"
    # The count on a line of its own where the terminal would break it in the middle of a number.
    gap = " " if len(title) + 1 + len(count) <= out.width else "\n"
    out.print(Text.assemble((title, "bold"), gap, count))
    cards = result.cards
    _card_grid(game, cards, lambda c, p: shade(cards[c].get(p, Fraction(0))))


def _card_grid(game: Game, cards: Collection[Card], cell: Callable[[Card, str], Text]) -> None:
    """A grid of the cards in play by book, one column per player (team colours), ``cell`` in each."""
    from rich.table import Table as RichTable
    from rich.text import Text

    record = game.record
    grid = RichTable(box=None, header_style="bold")
    grid.add_column("book")
    grid.add_column("card")
    for p in record.players:
        grid.add_column(Text(p, style=team_style(record.table.team_of(p))), justify="right")
    for book in record.rules.deck.books:
        first = True
        for c in book.cards:
            if c in cards:
                grid.add_row(plain(book.name) if first else "", c.pretty, *(cell(c, p) for p in record.players))
                first = False
    out.print(grid)


@handles_errors
def suggest(
    path: RecordArg,
    view: Annotated[str, typer.Option("--as", metavar="PLAYER", help="The player on turn, who must have a Hand line.")],
    at: AtOpt = None,
    top: Annotated[int, typer.Option(metavar="N", help="How many asks to show.")] = 10,
    json_out: JsonOpt = False,
    lenient: LenientOpt = False,
) -> None:
    """Advice for the player on turn: legal asks ranked by exact odds, and claims with their odds."""

    from rich.table import Table as RichTable
    from rich.text import Text

    from analyzer.wording import percent, plural

    game = load_game(path, lenient)
    n = check_at(game, at)
    counting_odds()
    from analyzer.advice import Advice, Adviser
    from analyzer.odds import TooLarge

    try:
        adviser = Adviser(game, view, n)
        if json_out:
            advice = Advice(adviser.player, n, adviser.odds.deals, adviser.asks(), adviser.claims())
        else:
            # Only what is printed: the first asks, and the claims at least 1% likely to be right.
            advice = Advice(adviser.player, n, adviser.odds.deals, adviser.asks(top), adviser.claims(RISKY))
            legal = len(adviser.options())
    except TooLarge as exc:
        if json_out:
            print_json({"at": n, "as": view, "deals": None, "asks": [], "claims": [], "not_counted": exc.message})
        else:
            out.print(Text(f"No advice after event {n}: the odds are not counted ({exc.message}).", style="yellow"))
        return
    if json_out:
        print_json(
            {
                "at": n,
                "as": advice.player,
                "deals": str(advice.deals),
                "asks": [a.to_dict() for a in advice.asks],
                "claims": [c.to_dict() for c in advice.claims],
            }
        )
        return
    out.print(
        f"[bold]{plain(advice.player)}, on turn {game.record.after_label(n)}[/bold] "
        f"({advice.deals:,} deals fit what you know)"
    )
    sure = [c for c in advice.claims if c.right == 1]
    for c in sure:
        out.print(f"[bold green]Claim now:[/bold green] {plain(c.declaration(advice.player))}")
    table = RichTable(box=None, header_style="bold", title="asks, best first")
    table.add_column("ask")
    table.add_column("odds", justify="right")
    table.add_column("bits given away", justify="right")
    table.add_column("warning", style="red")
    for a in advice.asks[:top]:
        pct = percent(a.odds)
        table.add_row(plain(f"ask {a.target} for {a.card.pretty}"), pct, f"{a.given:.2f}", plain(a.warning or ""))
    out.print(table)
    if legal > top:
        out.print(f"[dim]{plural(legal - top, 'more legal ask')} (--top to show them)[/dim]")
    likely = [c for c in advice.claims if 0 < c.right < 1 and c.right >= RISKY]
    for c in likely[:3]:
        out.print(
            f"[yellow]Risky claim[/yellow] ({percent(c.right)} right, book with your team "
            f"{percent(c.in_team)}): {plain(c.declaration(advice.player))}"
        )
