"""Deduction commands: state, who-has, hand, analyze."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

if TYPE_CHECKING:
    from fractions import Fraction

    from rich.text import Text

    from analyzer.analysis import Holders
    from analyzer.cards import Card
    from analyzer.explain import Explanation
    from analyzer.knowledge import Position
    from analyzer.odds import Odds
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
    check_view,
    counting_odds,
    handles_errors,
    load_game,
    out,
    plain,
    print_json,
    progress_bars,
    team_style,
)
from .terminal import say, say_text, table


def register(app: typer.Typer) -> None:
    app.command()(state)
    app.command("who-has")(who_has)
    app.command()(hand)
    app.command("analyze")(analyze_cmd)


def view_at(path: Path, at: int | None, view: str, lenient: bool) -> tuple[Game, str, int, Position, Holders]:
    """Load, check the options, and solve one view at one step."""
    from analyzer.analysis import solve_position
    from analyzer.knowledge import ViewTracker

    game = load_game(path, lenient)
    n = check_at(game, at)
    name = check_view(game, view)
    pos, holders = solve_position(ViewTracker(game, name), n)
    return game, name, n, pos, holders


@handles_errors
def state(
    path: RecordArg,
    at: AtOpt = None,
    view: AsOpt = PUBLIC,
    json_out: JsonOpt = False,
    lenient: LenientOpt = False,
    explain: Annotated[
        list[str] | None,
        typer.Option(
            "--explain",
            metavar="CARD",
            help="Explain who holds or lacks this card (repeat, or list cards with commas: 7S,2S).",
        ),
    ] = None,
) -> None:
    """Every card in play: who can hold it (known, possible, impossible), in one view at one step."""
    from analyzer.contracts import state_dict
    from analyzer.explain import Explainer
    from analyzer.game_text import left_play
    from analyzer.knowledge import ViewTracker

    game, name, n, _, holders = view_at(path, at, view, lenient)
    cards = [parse_card_arg(t, game) for text in explain or [] for t in text.replace(",", " ").split()]
    explainer = Explainer(ViewTracker(game, name), n) if cards else None
    why = {c: explainer.card(c) for c in cards} if explainer is not None else {}
    if json_out:
        data = state_dict(game, holders, name, n)
        if cards:
            data["explanations"] = {c.code: {p: e.to_dict() for p, e in w.items()} for c, w in why.items()}
        print_json(data)
        return
    render_grid(game, holders, name, n)
    for c, w in why.items():
        say(f"[bold]Why, for {c.pretty}[/bold]")
        gone = left_play(game, n, c)
        if gone is not None:
            say(plain(f"  {gone}"))
        elif not w:
            say("  no player is ruled out: any of them may hold it")
        print_explanations(c, holders.get(c, ()), w)


def print_explanations(card: Card, holders: tuple[str, ...], why: dict[str, Explanation]) -> None:
    """The holder's explanation (when known) and every ruled-out player's, one paragraph each."""
    shared: list[str] = []
    if len(holders) == 1 and holders[0] in why:
        h = holders[0]
        say_text(f"  why {h}: {why[h].text}")
        shared = [p for p, e in why.items() if p != h and _only_elsewhere(e, why[h])]
        if shared:
            say_text(f"  not {', '.join(shared)}: {h} holds {card.pretty}.", "dim")
    for p, e in why.items():
        if p in holders or p in shared:
            continue
        say_text(f"  not {p}: {e.text}")


def grid_mark(holders: tuple[str, ...], player: str) -> Text:
    from rich.text import Text

    if player not in holders:
        return Text("·", style="dim")
    if len(holders) == 1:
        return Text("●", style="bold green")
    return Text("○", style="yellow")


def render_grid(game: Game, holders: Holders, view: str, n: int) -> None:
    from rich.table import Table as RichTable
    from rich.text import Text

    from analyzer.contracts import player_summary
    from analyzer.tactics import claimable
    from analyzer.wording import seen_by

    record = game.record
    step = game.step(n)
    players = record.players
    who = seen_by(view)
    moment = record.after_label(n).capitalize()
    out.print(f"[bold]{moment}, as {plain(who)} sees it[/bold]   ● known  ○ possible  · impossible")
    grid = RichTable(box=None, header_style="bold", pad_edge=False)
    grid.add_column("book")
    grid.add_column("card")
    for p in players:
        grid.add_column(Text(p, style=team_style(record.table.team_of(p))), justify="center")
    for book in record.rules.deck.books:
        first = True
        for c in book.cards:
            if c not in holders:
                continue
            grid.add_row(plain(book.name) if first else "", c.pretty, *(grid_mark(holders[c], p) for p in players))
            first = False
    counts = ["", "cards"] + [step.count_text(p) for p in players]
    known = ["", "known"] + [str(len(player_summary(record, step, holders, p)["known"])) for p in players]
    grid.add_row(*counts, style="bold")
    grid.add_row(*known, style="dim")
    out.print(grid)
    for found in claimable(game, holders, view):
        out.print(f"[green]claimable by team {found.team}[/green]: {plain(found.declaration())}")


def parse_card_arg(text: str, game: Game) -> Card:
    from analyzer.cards import parse_card
    from analyzer.errors import UsageError

    try:
        card = parse_card(text)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    record = game.record
    if not record.rules.deck.has(card):
        deck = record.rules.deck.name
        where = f", line {record.header_lines['Deck']}" if "Deck" in record.header_lines else ""
        raise UsageError(f"{card.pretty} is not in this record's deck ({deck}{where})", path=record.path)
    return card


WitnessOpt = Annotated[
    bool, typer.Option("--witness", help="For each player who may hold the card, one fitting deal that puts it there.")
]


@handles_errors
def who_has(
    card_text: Annotated[str, typer.Argument(metavar="CARD", help="A card: 7S, 7♠, 7s, 10H, TH, RJ ...")],
    path: RecordArg,
    at: AtOpt = None,
    view: AsOpt = PUBLIC,
    json_out: JsonOpt = False,
    witness: WitnessOpt = False,
    lenient: LenientOpt = False,
) -> None:
    """Who can have a card: the holders, and why every other player is ruled out (or why the holder is known)."""
    from analyzer.explain import LACKS, Explainer
    from analyzer.game_text import left_play
    from analyzer.knowledge import ViewTracker
    from analyzer.wording import percent, seen_by

    game, name, n, pos, holders = view_at(path, at, view, lenient)
    card = parse_card_arg(card_text, game)
    claimed = next((r for r in game.step(n).books.values() if card in r.book.cards), None)
    if claimed is not None:
        if json_out:
            number = game.numbers[claimed.event - 1]
            print_json({"at": n, "as": name, "card": card.code, "holders": [], "known": False, "claimed": number})
        else:
            say(plain(left_play(game, n, card)))
        return
    h = holders[card]
    explainer = Explainer(ViewTracker(game, name), n)
    why = explainer.card(card)
    deals = {p: explainer.witness(card, p) for p in h} if witness and len(h) > 1 else {}
    counted: Odds | str | None = None
    share: dict[str, Fraction] | None = None
    if len(h) > 1:  # (a known card is certain: nothing to count)
        counting_odds()
        from analyzer.odds import odds_or_reason

        counted = odds_or_reason(pos)  # a sentence instead when too costly to count
        share = None if isinstance(counted, str) else counted.cards[card]
    if json_out:
        from analyzer.tactics import exact_text

        odds = {h[0]: "1"} if len(h) == 1 else None if share is None else {p: exact_text(f) for p, f in share.items()}
        data: dict[str, Any] = {
            "at": n,
            "as": name,
            "card": card.code,
            "holders": list(h),
            "known": len(h) == 1,
            "odds": odds,
            "ruled_out": {p: e.text for p, e in why.items() if e.conclusion is not None and e.conclusion.kind == LACKS},
            "explanations": {p: e.to_dict() for p, e in why.items()},
        }
        if witness:
            data["witness"] = {p: {c.code: q for c, q in deal.items()} for p, deal in deals.items()}
        print_json(data)
        return
    who = seen_by(name)
    if len(h) == 1:
        where = f"[bold green]{plain(h[0])}[/bold green]"
        say(
            f"[bold]{card.pretty}[/bold] is with {where} (known, {game.record.after_label(n)}, as {plain(who)} sees it)"
        )
    else:
        say(f"[bold]{card.pretty}[/bold] can be with ({game.record.after_label(n)}, as {plain(who)} sees it):")
        width = max(len(p) for p in h)  # the odds in one column
        for p in h:
            if share is None:
                say(f"  [bold]{plain(p)}[/bold]")
                continue
            say(f"  [bold]{plain(p):<{width}}[/bold] {percent(share[p]):>6}")
        if isinstance(counted, str):
            say_text(f"  odds not counted: {counted}", "dim")
    print_explanations(card, h, why)
    for p, deal in deals.items():
        say_text(f"  {p} may hold it, e.g. {_deal_text(deal, pos)}")


def _only_elsewhere(e: Explanation, holder: Explanation) -> bool:
    """Whether a ruled-out player's explanation is the holder's plus one ``elsewhere`` step."""
    return len(e.steps) == len(holder.steps) + 1 and e.steps[-1].rule == "elsewhere" and e.facts == holder.facts


def _deal_text(deal: dict[Card, str], pos: Position) -> str:
    """A fitting deal of the cards in play, player by player: whole hands, the cards the view
    knows too (each hand as many cards as its player holds)."""
    from analyzer.tactics import deal_text

    return deal_text({c: deal[c] for c in pos.in_play}, pos.players)


@handles_errors
def hand(
    player: Annotated[str, typer.Argument(metavar="PLAYER", help="The player whose cards to list.")],
    path: RecordArg,
    at: AtOpt = None,
    view: AsOpt = PUBLIC,
    json_out: JsonOpt = False,
    lenient: LenientOpt = False,
    explain: Annotated[bool, typer.Option("--explain", help="Say why each known card is theirs.")] = False,
) -> None:
    """A player's known and possible cards, by book."""
    from analyzer.contracts import player_summary
    from analyzer.errors import UsageError
    from analyzer.wording import plural, seen_by

    game, name, n, _, holders = view_at(path, at, view, lenient)
    who = game.record.table.resolve(player)
    if who is None:
        raise UsageError(f"'{player}' is not a player of this game", path=game.record.path)
    why: dict[Card, Explanation] = {}
    if explain:
        from analyzer.explain import Explainer, holds
        from analyzer.knowledge import ViewTracker

        explainer = Explainer(ViewTracker(game, name), n)
        why = {c: explainer.explain(holds(who, c)) for c, h in holders.items() if h == (who,)}
    summary = player_summary(game.record, game.step(n), holders, who)
    books = {}
    for book in game.record.rules.deck.books:
        known = [c.code for c in book.cards if holders.get(c) == (who,)]
        possible = [c.code for c in book.cards if c in holders and who in holders[c] and len(holders[c]) > 1]
        if known or possible:
            books[book.name] = {"known": known, "possible": possible}
    if json_out:
        data: dict[str, Any] = {"at": n, "as": name, "player": who, **summary, "books": books}
        if explain:
            data["explanations"] = {c.code: e.to_dict() for c, e in why.items()}
        print_json(data)
        return
    viewer = seen_by(name)
    say(
        f"[bold]{plain(who)}[/bold] (team {summary['team']}) holds {plural(summary['count'], 'card')} "
        f"{game.record.after_label(n)}; as {plain(viewer)} sees it, {len(summary['known'])} "
        f"{'is' if len(summary['known']) == 1 else 'are'} known"
    )
    rows = [
        (book_name, " ".join(_pretty(c) for c in cards["known"]), " ".join(_pretty(c) for c in cards["possible"]))
        for book_name, cards in books.items()
    ]
    lines = table(("book", "known", "possible"), rows, ("", "green", "yellow"))
    if lines is not None:
        for line in lines:
            say(line)
    else:  # wider than the console: rich wraps the cells
        from rich.table import Table as RichTable

        grid = RichTable(box=None, header_style="bold")
        grid.add_column("book")
        grid.add_column("known", style="green")
        grid.add_column("possible", style="yellow")
        for row in rows:
            grid.add_row(*(plain(cell) for cell in row))
        out.print(grid)
    for c, e in why.items():
        say_text(f"  {c.pretty}: {e.text}")


def _pretty(code: str) -> str:
    from analyzer.cards import parse_card

    return parse_card(code).pretty


@handles_errors
def analyze_cmd(path: RecordArg, json_out: JsonOpt = False, lenient: LenientOpt = False) -> None:
    """The whole game at once: every step in every view (public and each Hand), claims, threats, mistakes."""
    from rich.table import Table as RichTable

    from analyzer.contracts import analysis_dict
    from analyzer.hindsight import judged_analysis
    from analyzer.wording import plural

    game = load_game(path, lenient)
    with progress_bars(quiet=json_out) as bars:
        result = judged_analysis(game, workers=WORKERS, progress=bars.stage("solving each view"))[0]
    data = analysis_dict(result)
    if json_out:
        print_json(data)
        return
    a, b = data["score"]
    title = plain(game.record.info.get("Title", game.record.name))
    out.print(f"[bold]{title}[/bold]: {plural(len(game.events), 'event')}, score {a}–{b}")
    out.print(f"views: {plain(', '.join(data['views']))}")
    known = RichTable(box=None, header_style="bold", title="cards known (one holder) after the last event")
    known.add_column("view")
    known.add_column("known", justify="right")
    known.add_column("in play", justify="right")
    for v in data["views"]:
        cards = data["steps"][-1]["views"][v]["cards"]
        known.add_row(plain(v), str(sum(1 for h in cards.values() if len(h) == 1)), str(len(cards)))
    out.print(known)
    out.print(f"{plural(len(data['mistakes']), 'mistake')} (see `halfsuit mistakes`)")
