"""Post-game reports: one record as a self-contained HTML page and its Markdown twin.

A report tells the game (teams, rules, score, how each book left play), lists every event with
whose turn it was and the mistakes in it, tabulates each player, charts what each player knew
against the public and the score, shows who could hold every card at chosen moments, and
explains each mistake. It is built from the whole-game analysis (``analyze``) and the mistakes
of ``tactics``; one list of blocks is rendered twice (``render``), so both forms say the same.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

from .analysis import Analysis, Holders, view_tracker
from .cards import Card, parse_card
from .charts import known_chart, score_chart
from .explain import Explanation
from .files import check_not_input, encode_text, write_bytes_atomic
from .game_text import event_inline, kind_text, names, score_text, team_label, who
from .information import PlayerInformation, player_information
from .knowledge import PUBLIC, ViewTracker, resolve_view
from .mistake_cost import measured_text
from .odds import TooLarge, card_odds
from .pool import interrupts_held
from .record import Ask, Claim, Comment, Event, Pass, Record
from .render import (
    Block,
    Chart,
    Details,
    Figure,
    Heading,
    Inline,
    Items,
    Para,
    Row,
    Section,
    Table,
    anchor,
    em,
    html_page,
    joined,
    link,
    markdown_page,
    strong,
    styled,
)
from .replay import Game
from .replay_page import (
    Explanations,
    OddsTable,
    Shares,
    replay_data,
    replay_file,
    replay_html,
    replay_link,
)
from .rules import Outcome, RuleSet
from .stats import player_rows, rate_text
from .study import Study, report_moments, study
from .tactics import (
    KINDS,
    Mistake,
    MistakeReport,
    NotKnown,
    claimable,
    mistake_moment,
)
from .wording import plural, seen_by

MARKS = {"known": "●", "possible": "○", "impossible": "·"}
OUTCOME_TEXT = {
    Outcome.CORRECT: "correct claim",
    Outcome.WRONG: "wrong claim",
    Outcome.FORFEITED: "forfeited",
}
RULES_TEXT = {
    RuleSet.LITERATURE: "claims on your own turn; a wrong split inside the team is forfeited",
    RuleSet.FISH: "claims at any time; any wrong claim gives the book to the other team",
}


@dataclass(frozen=True)
class ReportFiles:
    """What a report wrote: the page, its Markdown twin, and the charts the Markdown links to."""

    html: Path
    markdown: Path
    charts: tuple[Path, ...]
    replay: Path | None = None

    @property
    def paths(self) -> tuple[Path, ...]:
        return (self.html, self.markdown, *self.charts, *((self.replay,) if self.replay else ()))


@dataclass(frozen=True)
class Report:
    """A report built and ready to render; ``stem`` names its files."""

    stem: str
    title: str
    blocks: tuple[Block, ...]
    charts: tuple[Chart, ...]
    found: MistakeReport
    why: Explanations  # the explanations at each mistake, for the replay page too

    def html(self) -> str:
        return html_page(self.title, self.blocks)

    def markdown(self) -> str:
        return markdown_page(self.blocks)


def write_report(
    game: Game,
    out_dir: str | Path,
    view: str = PUBLIC,
    moments: Sequence[int] | None = None,
    analysis: Analysis | None = None,
    odds: bool = True,
    found: MistakeReport | None = None,
    replay: bool = True,
    workers: int = 1,
    studied: Study | None = None,
) -> ReportFiles:
    """Write ``<stem>.html``, ``<stem>.md``, ``<stem>-*.svg`` and the replay page into ``out_dir``.

    ``stem`` is the record's file name without extension; the folder is made if needed. With
    ``replay`` (the default) the game's replay page ``<stem>-replay.html`` is written too and the
    report links to it. ``workers`` processes count the odds. See ``build_report`` for the
    other options.
    """
    if studied is None:
        name, steps = _checked(game, view, moments, analysis)
        with study(game, odds, replay, workers, analysis=analysis, found=found) as studied:
            return write_report(game, out_dir, name, steps, replay=replay, studied=studied)
    page = None
    if replay:  # all but its odds, made while the workers count them (as the charts are)
        page = replay_data(game, studied.analysis, studied.found, None, f"{game.record.name}.html", studied.why)
    report = build_report(game, view, moments, replay=replay, studied=studied)
    out = Path(out_dir)
    files = ReportFiles(
        out / f"{report.stem}.html",
        out / f"{report.stem}.md",
        tuple(out / chart.file for chart in report.charts),
        out / replay_file(report.stem) if replay else None,
    )
    inputs = [game.record.path] if game.record.path else []
    check_not_input(files.paths, inputs)
    texts = (*(chart.svg for chart in report.charts), report.html(), report.markdown())
    paths = (*files.charts, files.html, files.markdown)
    pages = [encode_text(text, path) for path, text in zip(paths, texts, strict=True)]  # all or none
    if page is not None and files.replay is not None:
        studied.put_odds(page)
        paths = (*paths, files.replay)
        pages.append(encode_text(replay_html(page), files.replay))
    # Every file made first, then put in place together: Ctrl-C waits the milliseconds that takes
    # (before, one coming while the replay page was made left the report's other files new).
    with interrupts_held():
        for path, data in zip(paths, pages, strict=True):
            write_bytes_atomic(path, data, inputs=inputs)
    return files


def _checked(game: Game, view: str, moments: Sequence[int] | None, analysis: Analysis | None) -> tuple[str, list[int]]:
    """The view's canonical name and the moments, checked before any work starts."""
    name = resolve_view(game.record, view)
    last = game.trusted_until if analysis is None else analysis.steps
    return name, report_moments(game, last, moments)


def build_report(
    game: Game,
    view: str = PUBLIC,
    moments: Sequence[int] | None = None,
    analysis: Analysis | None = None,
    odds: bool = True,
    found: MistakeReport | None = None,
    replay: bool = False,
    studied: Study | None = None,
) -> Report:
    """Build the report of a replayed game.

    ``view`` ('public' or a player with a Hand line) is the view of the card-location grids;
    ``moments`` are the steps to show them at (default: just before each claim, and the last
    step of an unfinished record). ``analysis`` saves recomputing one already made; it must
    hold the public view and every player with a Hand line. A lenient replay with rule breaks
    is analyzed up to its last trusted step. With ``odds`` (the default) the grids are shaded by
    exact odds, mistakes quote the odds the player faced, and the players table gives the bits
    each player's asks gave away and gained. ``found`` (the mistakes, explained, with their odds
    quoted when ``odds``) saves computing them again; ``studied`` (``study``) gives everything the
    report shows, counted already or being counted. With ``replay`` the report links each mistake
    to its step and view on the replay page.
    """
    if studied is None:
        name, steps = _checked(game, view, moments, analysis)
        with study(game, odds, False, analysis=analysis, found=found) as studied:
            return build_report(game, name, steps, replay=replay, studied=studied)
    record = game.record
    name = resolve_view(record, view)
    analysis = studied.analysis
    steps = report_moments(game, analysis.steps, moments)
    stem = record.name
    title = record.info.get("Title") or stem
    known = Chart(
        f"{stem}-known.svg",
        _known_svg(game, analysis),
        "Cards known over the game: each player's view against the public view",
    )
    score_svg = _score_svg(game, analysis.steps)
    score = Chart(f"{stem}-score.svg", score_svg, "The score after each event")
    studied.settle()  # the charts are drawn while the workers count; now the counts are needed
    odds, found, why = studied.odds, studied.found, studied.why
    bits = player_information(game, studied.asks) if odds and studied.asks is not None else None
    grids = Grids(game, analysis, studied.tables, odds)
    blocks: list[Block] = [
        Heading(1, (title,)),
        _subtitle(game, name),
        _banner(game),
        *((_replay_para(stem, name),) if replay else ()),
        Section("mistakes", "Mistakes: what to learn", _mistake_blocks(game, analysis, found, grids, why, replay)),
        Section("game", "The game", _game_blocks(game, analysis)),
        Section("players", "Players", (_players_table(game, found, bits), *((BITS_NOTE,) if bits else ()))),
        Section("charts", "Charts", _chart_blocks(game, known, score)),
        Section("timeline", "Timeline", _timeline(game, found)),
        Section("cards", "Card locations", _grids(game, grids, name, steps)),
    ]
    return Report(stem, title, tuple(blocks), (known, score), found, why)


def _replay_para(stem: str, view: str) -> Block:
    target = replay_link(stem, 0, view)
    return Para((link(target, "Step through the game"), " on its replay page, in any player's view."))


# ---------------------------------------------------------------- words the parts share


def _tag(kind: str) -> Inline:
    return styled("tag", kind_text(kind))


def _outcome(outcome: Outcome) -> Inline:
    return styled("ok" if outcome is Outcome.CORRECT else "bad", OUTCOME_TEXT[outcome])


def _subtitle(game: Game, view: str) -> Block:
    record = game.record
    rules = record.rules
    parts = [f"record {record.name}", f"{rules.rule_set.value} rules", f"{rules.deck.name} deck"]
    if "Date" in record.info:
        parts.append(record.info["Date"])
    parts.append(f"grids as {'the public' if view == PUBLIC else view} sees them")
    return Para((" · ".join(parts),), "sub")


def _banner(game: Game) -> Block:
    a, b = game.final.score
    score = styled("score", f"{a}–{b}")
    if not game.finished:
        stops = f"so far: unfinished, the record stops after {len(game.events)} events"
        return Para((score, " ", stops), "banner")
    winner = game.winner()
    if winner is None:
        return Para((score, " tie"), "banner")
    return Para((score, " ", *team_label(game, winner), " wins"), "banner")


# ---------------------------------------------------------------- the game


def _breaks_text(game: Game, steps: int, done: str) -> str:
    """Where a leniently read record breaks the rules, and how far it was analyzed or judged."""
    events = sorted({game.numbers[v.event - 1] for v in game.violations})
    where = f"event{'s' if len(events) > 1 else ''} {', '.join(map(str, events))}"
    if steps < len(game.events):
        return f"breaks the rules at {where}; {done} to {_upto(game.record, steps)}"
    return f"breaks the rules at {where} (the order of play only, so {done} to the end)"


def _game_blocks(game: Game, analysis: Analysis) -> tuple[Block, ...]:
    record = game.record
    rules = record.rules
    deck = rules.deck
    rows: list[tuple[str, tuple[Inline, ...]]] = []
    for key in ("Title", "Event", "Site", "Date", "Notes"):
        if key in record.info:
            rows.append((key, (record.info[key],)))
    for t in (1, 2):
        rows.append((f"Team {t}", names(game, record.table.teams[t - 1])))
    rows.append(("Rules", (strong(rules.rule_set.value), f": {RULES_TEXT[rules.rule_set]}")))
    rows.append(("Deck", (f"{deck.name}: {len(deck.cards)} cards in {len(deck.books)} books",)))
    rows.append(("Bluffing", ("allowed" if rules.bluffing else "no",)))
    if rules.house:
        rows.append(("House rules", (rules.house_text,)))
    rows.append(("Hand lines", names(game, record.hands) if record.hands else ("none",)))
    rows.append(("Events", (str(len(game.events)),)))
    if game.violations:
        rows.append(("Rule breaks", (f"the record {_breaks_text(game, analysis.steps, 'analyzed')}",)))
    rows.extend((key, (value,)) for key, value in record.extra)
    info = Items(tuple((strong(k), ": ", *v) for k, v in rows))
    books = Para((strong("Books"), " in deck order, and how each left play:"))
    return (info, books, _books_table(game), Para((strong("Score:"), " ", score_text(game))))


def _books_table(game: Game) -> Table:
    rows = []
    for book in game.record.rules.deck.books:
        result = game.final.books.get(book.name)
        if result is None:
            rows.append(Row(((book.pretty,), (styled("muted", "still in play"),), (), (), (), ())))
            continue
        scored = team_label(game, result.team) if result.team is not None else ("nobody",)
        outcome = _outcome(result.outcome)
        points = result.points if result.team is not None else 0
        cells = (
            (book.pretty,),
            (outcome,),
            (who(game, result.claimant),),
            scored,
            (str(points),),
            (link(f"#event-{result.event}", str(game.numbers[result.event - 1])),),
        )
        rows.append(Row(cells))
    head = (("book",), ("how",), ("claimed by",), ("scored by",), ("points",), ("event",))
    return Table(head, tuple(rows), align="llllrr")


# ---------------------------------------------------------------- players


def _players_table(game: Game, found: MistakeReport, bits: dict[str, PlayerInformation] | None) -> Block:
    rows = []
    for r in player_rows(game, found):
        info: tuple[tuple[Inline, ...], ...] = ()
        if bits is not None:
            mine = bits[r["player"]]
            info = ((f"{mine.given:.1f}",), (f"{mine.gained:.1f}",))
        judged: tuple[Inline, ...] = ()
        if r["player"] in found.worked_out:
            judged = (styled("muted", " (hand worked out from the record)"),)
        elif not r["hand"]:
            judged = (styled("muted", " (no Hand line)"),)
        cells = (
            (who(game, r["player"]),),
            (str(r["team"]),),
            (str(r["asks"]),),
            (rate_text(r["asks_yes"], r["asks"]),),
            (str(r["cards_won"]),),
            (str(r["cards_lost"]),),
            (str(r["claims_right"]),),
            (str(r["claims_wrong"]),),
            *info,
            (str(r["mistakes"]), *judged),
        )
        rows.append(Row(cells))
    extra: tuple[tuple[Inline, ...], ...] = (("bits given away",), ("bits gained",)) if bits is not None else ()
    head = (
        ("player",), ("team",), ("asks",), ("answered yes",), ("cards won",), ("cards lost",),
        ("claims right",), ("claims wrong",), *extra, (link("#mistakes", "mistakes"),),
    )  # fmt: skip
    return Table(head, tuple(rows), align="lrrrrrrrr" + "rr" * (bits is not None))


BITS_NOTE = Para(
    (
        "Bits given away: what a player's asks told the table about their own hand (they hold a card "
        "of the book, and not the one asked for). Bits gained: what the answers told everyone about "
        "the opponents asked. Both count fitting deals exactly: log2(deals before / deals after).",
    )
)


# ---------------------------------------------------------------- charts


def known_counts(holders: Sequence[Holders]) -> list[int]:
    """Cards in play with exactly one holder, after each step."""
    return [sum(1 for h in step.values() if len(h) == 1) for step in holders]


def _known_svg(game: Game, analysis: Analysis) -> str:
    record = game.record
    views = {v: known_counts(va.holders) for v, va in analysis.views.items()}
    players = {p: views[p] for p in record.players if p in views}
    last = analysis.steps
    in_play = [game.step(at).in_play for at in range(last + 1)]
    claims = [i for i, e in enumerate(game.events[:last], start=1) if isinstance(e, Claim)]
    teams = {p: record.table.team_of(p) for p in record.players}
    return known_chart(f"{record.name}-known", views[PUBLIC], players, teams, in_play, claims)


def _score_svg(game: Game, last: int) -> str:
    teams = game.record.table.teams
    labels = (f"team 1 ({', '.join(teams[0])})", f"team 2 ({', '.join(teams[1])})")
    scores = [game.step(at).score for at in range(last + 1)]
    return score_chart(f"{game.record.name}-score", scores, labels)


def _chart_blocks(game: Game, known: Chart, score: Chart) -> tuple[Block, ...]:
    whose = "each player with a Hand line" if game.record.hands else "the public (no Hand lines)"
    caption = (
        f"Cards whose holder is known (only one possible holder) after each event, for {whose}: "
        "their own view (solid) against the public view (dashed). The grey area is the cards "
        "still in play; thin rules mark claims."
    )
    return (Figure(known, (caption,)), Figure(score, ("The score after each event.",)))


# ---------------------------------------------------------------- timeline


def _mistake_id(k: int) -> str:
    return f"mistake-{k}"


def _timeline(game: Game, found: MistakeReport) -> tuple[Block, ...]:
    by_event: dict[int, list[tuple[int, Mistake]]] = {}
    for k, m in enumerate(found.mistakes, start=1):
        by_event.setdefault(m.event, []).append((k, m))
    rows: list[Row] = []
    broken = {v.event for v in game.violations}
    n = 0
    for item in game.record.body:
        if isinstance(item, Comment):
            rows.append(Row(((), (), (em(item.text),), (), (), ()), "note"))
            continue
        n += 1
        turn = game.play_state(n - 1).turn  # the rules decide it, the first turn included
        text = event_inline(game, item)
        if item.comment:
            text += (styled("muted", f"  # {item.comment}"),)
        result, cls = _result(game, item, n)
        if n in broken:
            result = (styled("tag broken", "rule break"), " ", *result)
            cls = f"{cls} broken".strip()
        elif n > game.trusted_until:
            cls = f"{cls} untrusted".strip()
        a, b = game.step(n).score
        tags = joined(
            ((link(f"#{_mistake_id(k)}", _tag(m.kind)),) for k, m in by_event.get(n, [])),
            " ",
        )
        cells = (
            (anchor(f"event-{n}"), str(game.numbers[n - 1])),
            (who(game, turn),) if turn is not None else (),
            text,
            result,
            (f"{a}–{b}",) if cls == "claim" else (),
            tags,
        )
        rows.append(Row(cells, cls))
    head = (("#",), ("turn",), ("event",), ("result",), ("score",), ("mistakes",))
    legend = Para(
        (
            "Every event, with the player whose turn it was. Claims are highlighted and show the "
            "score after them; mistake tags link to their explanation; events against the rules "
            "(read leniently) are marked, and the events after the first are greyed: they are not analyzed.",
        )
    )
    return (legend, Table(head, tuple(rows), align="rlllcl", cls="timeline"))


def _result(game: Game, event: Event, n: int) -> tuple[tuple[Inline, ...], str]:
    """The result cell and the row class."""
    if isinstance(event, Ask):
        return ((styled("ok", "yes"),) if event.yes else (styled("bad", "no"),)), ""
    if isinstance(event, Pass):
        return (styled("muted", "turn passed"),), ""
    result = game.step(n).books.get(event.book.name)
    if result is None or result.event != n:  # a claim a lenient replay could not settle
        return (styled("bad", "not settled"),), "claim"
    outcome = _outcome(result.outcome)
    if result.team is None:
        return (outcome, ": nobody scores"), "claim"
    gain = styled(f"t{result.team}", f"team {result.team}")
    return (outcome, ": ", gain, f" +{result.points}"), "claim"


# ---------------------------------------------------------------- card locations


def _upto(record: Record, steps: int) -> str:
    """``event 24`` (as the file numbers it), or ``the deal`` when no event is trusted."""
    return record.event_label(steps) if steps else "the deal"


def _moment_title(game: Game, at: int) -> tuple[Inline, ...]:
    events = game.events
    after = game.record.after_label(at).capitalize()
    if at < len(events) and isinstance(nxt := events[at], Claim):
        return (f"{after}, just before ", who(game, nxt.claimant), f" claims {nxt.book.pretty}")
    if at == len(events):
        return (f"{after}, where the record ends",)
    return (after,)


def grid_table(
    game: Game,
    holders: Holders,
    at: int,
    shares: Shares | None = None,
    cards: Sequence[Card] | None = None,
) -> Table:
    """Cards in play × players: ● the only possible holder, ○ a possible holder, · impossible.

    With ``shares`` (exact odds) a possible holder shows its odds, shaded by how likely it is.
    ``cards`` limits the rows to those cards, without the book column (the totals still count
    every card).
    """
    players = game.record.players
    step = game.step(at)
    rows: list[Row] = []
    for book in game.record.rules.deck.books:
        shown = [c for c in book.cards if c in holders and (cards is None or c in cards)]
        for i, card in enumerate(shown):
            if shares is None:
                marks = tuple((_mark(holders[card], p),) for p in players)
            else:
                marks = tuple((_odds_mark(holders[card], shares[card].get(p, Fraction(0)), p),) for p in players)
            first = i == 0
            label: tuple[tuple[Inline, ...], ...] = ((book.pretty,) if first else (),) if cards is None else ()
            rows.append(Row((*label, (card.pretty,), *marks), "book-start" if first else ""))
    known = tuple((str(sum(1 for h in holders.values() if h == (p,))),) for p in players)
    blank: tuple[tuple[Inline, ...], ...] = ((),) if cards is None else ()
    rows.append(Row((*blank, ("held",), *((step.count_text(p),) for p in players)), "total"))
    rows.append(Row((*blank, ("known",), *known), "total"))
    book_head: tuple[tuple[Inline, ...], ...] = (("book",),) if cards is None else ()
    head = (*book_head, ("card",), *((who(game, p),) for p in players))
    return Table(head, tuple(rows), align="l" * len(head[: -len(players)]) + "c" * len(players), cls="grid")


class Grids:
    """The holders and odds behind the report's grids, in any view at any step.

    Odds come from ``tables`` when given (counted once for the report and the replay page), or
    are counted here view by view; a step too large to count goes unshaded.
    """

    def __init__(self, game: Game, analysis: Analysis, tables: OddsTable | None, odds: bool) -> None:
        self.game = game
        self.analysis = analysis
        self.tables = tables
        self.odds = odds
        self._trackers: dict[str, ViewTracker] = {}

    def shares(self, view: str, at: int) -> Shares | None:
        if not self.odds:
            return None
        if self.tables is not None and at in self.tables.get(view, {}):
            counted = self.tables[view][at]
            return None if counted is None else counted.shares()
        if view not in self._trackers:
            self._trackers[view] = view_tracker(self.game, view, self.analysis.worked_out)
        try:
            return card_odds(self._trackers[view].position(at)).cards
        except TooLarge:
            return None

    def table(self, view: str, at: int, cards: Sequence[Card] | None = None) -> Table:
        return grid_table(self.game, self.analysis.holders(view, at), at, self.shares(view, at), cards)


def _odds_mark(holders: tuple[str, ...], share: Fraction, player: str) -> Inline:
    if player not in holders or len(holders) == 1:
        return _mark(holders, player)
    shade = min(5, int(share * 5) + 1)  # o1 (under 20%) .. o5 (80% and more)
    pct = f"{float(share) * 100:.0f}%" if share >= Fraction(1, 100) else "<1%"
    return styled(f"o{shade}", pct)


def _mark(holders: tuple[str, ...], player: str) -> Inline:
    if player not in holders:
        return styled("x", MARKS["impossible"])
    return styled("k", MARKS["known"]) if len(holders) == 1 else styled("p", MARKS["possible"])


def _legend(view: str, odds: bool) -> Para:
    seen = seen_by(view)
    possible: tuple[Inline, ...] = (
        ("the exact odds of a possible holder (shaded by how likely), counting every deal that fits, ",)
        if odds
        else (styled("p", MARKS["possible"]), " possible, ")
    )
    return Para(
        (
            f"Who can hold each card in play, as {seen} sees it: ",
            styled("k", MARKS["known"]), " known (the only possible holder), ",
            *possible,
            styled("x", MARKS["impossible"]), " impossible.",
        )
    )  # fmt: skip


def _grids(game: Game, grids: Grids, view: str, moments: list[int]) -> tuple[Block, ...]:
    blocks: list[Block] = [_legend(view, grids.odds)]
    if not moments:
        blocks.append(Para(("No moments to show.",)))
    for k, at in enumerate(moments):
        parts: list[Block] = [grids.table(view, at)]
        claims = claimable(game, grids.analysis.holders(view, at), view)
        if claims:
            lines = tuple((*team_label(game, c.team), ": ", c.declaration()) for c in claims)
            parts.append(Items(lines))
        blocks.append(Details(_moment_title(game, at), tuple(parts), open=k == 0))
    return tuple(blocks)


# ---------------------------------------------------------------- mistakes


def _mistake_blocks(
    game: Game, analysis: Analysis, found: MistakeReport, grids: Grids, why: Explanations, replay: bool
) -> tuple[Block, ...]:
    """The mistakes first, one line each with its cost; then each with its grid and explanation."""
    blocks: list[Block] = []
    kinds = Counter(m.kind for m in found.mistakes)
    if found.mistakes:
        summary = ", ".join(plural(kinds[k], kind_text(k)) for k in KINDS if kinds[k])
        blocks.append(Para((strong(plural(len(found.mistakes), "mistake")), f": {summary}.")))
    else:
        blocks.append(Para(("No mistakes found.",)))
    if found.worked_out:
        blocks.append(
            Para(
                (
                    "Judged with their hand worked out from the record (no Hand line, but every deal "
                    "that fits the record gives them the same cards): ",
                    *names(game, found.worked_out),
                    ".",
                )
            )
        )
    if found.unjudged:
        blocks.append(
            Para(
                (
                    "Hand not known (no Hand line, and the record does not fix it): ",
                    *names(game, found.unjudged),
                    ". They are judged from the public view only: what the whole table could see, a "
                    "lower bound of what they knew. A wrong claim of theirs is called a guess only "
                    "when the public view shows it.",
                )
            )
        )
    elif not found.worked_out:
        everyone = "Every player has a Hand line, so everyone is judged in their own view."
        blocks.append(Para((everyone,)))
    if found.unfinished:
        stops = (
            f"The record is unfinished: it stops {game.record.after_label(len(game.events))}. A claim that "
            "could be made and never was is counted as missed where it could first be made."
        )
        blocks.append(Para((stops,)))
    if game.violations:
        blocks.append(Para((f"The record {_breaks_text(game, analysis.steps, 'judged')}.",)))
    if not found.mistakes:
        return tuple(blocks)
    lines = tuple(_mistake_line(game, analysis, k, m, replay) for k, m in enumerate(found.mistakes, start=1))
    blocks.append(Items(lines))
    blocks.append(_mistakes_by_player(game, found))
    for k, m in enumerate(found.mistakes, start=1):
        blocks.extend(_mistake_detail(game, analysis, grids, why, k, m, replay))
    return tuple(blocks)


def _mistake_line(game: Game, analysis: Analysis, k: int, m: Mistake, replay: bool) -> tuple[Inline, ...]:
    """One line: event, player, kind, book, cost, and links to the detail and the replay page."""
    line: tuple[Inline, ...] = (
        link(f"#{_mistake_id(k)}", f"{k}."),
        " ",
        link(f"#event-{m.event}", f"event {m.number}"),
        " ",
        *((who(game, m.player), " ") if m.player else ()),
        _tag(m.kind),
        *((f" {kind_text(m.book)}",) if m.book else ()),
        f" — cost: {m.cost}",
    )
    if replay:
        view, at = mistake_moment(analysis, m)
        line += (" · ", link(replay_link(game.record.name, at, view), "replay"))
    return line


def _mistake_detail(
    game: Game, analysis: Analysis, grids: Grids, why: Explanations, k: int, m: Mistake, replay: bool
) -> tuple[Block, ...]:
    """A mistake's heading, what the player could have known, its cost, grid and explanations."""
    view, at = mistake_moment(analysis, m)
    event = game.events[m.event - 1] if m.event <= len(game.events) else None
    title: tuple[Inline, ...] = (f"{k}. Event {m.number}: ", *(event_inline(game, event) if event else ()))
    note = (" (", em(m.hand_note), ")") if m.hand_note else ()
    blocks: list[Block] = [
        Heading(3, title, _mistake_id(k)),
        Para((_tag(m.kind), " ", m.why, *((" — ", em(m.odds)) if m.odds else ()), *note)),
        Para((strong("Cost:"), f" {m.cost}")),
        *((Para((em(measured),)),) if (measured := measured_text(m.kind)) else ()),
    ]
    book = game.record.rules.deck.book(m.book) if m.book else None
    if book is not None:
        seen = f"{view}'s own view" if view != PUBLIC else "the public view (no Hand line to judge from)"
        moment = game.record.after_label(at)
        where: tuple[Inline, ...] = (f"{book.pretty.capitalize()} {moment}, in {seen}",)
        if replay:
            where += (" (", link(replay_link(game.record.name, at, view), "the whole grid on the replay page"), ")")
        blocks.append(Para((*where, ":")))
        blocks.append(grids.table(view, at, book.cards))
    lines = [_told(e) for e in m.explanations] or _known_why(game, why.get(view, {}).get(at, {}), m)
    if lines:
        seen = seen_by(view)
        summary = (f"Why: how {seen} could know it, from the record",)
        blocks.append(Details(summary, (Items(tuple(lines)),)))
    return tuple(blocks)


def _told(e: Explanation | NotKnown) -> tuple[Inline, ...]:
    """One explanation under a mistake: what it concludes, then its numbered sentences."""
    if isinstance(e, Explanation) and e.conclusion is not None:
        return (strong(e.conclusion.words), " — ", e.text)
    return (e.text,)


def _known_why(game: Game, why: dict[Card, dict[str, str]], m: Mistake) -> list[tuple[Inline, ...]]:
    """The explanations behind what the player could have known: each known card's holder, the
    player asked in a hopeless ask, and otherwise the players ruled out of an unsettled card."""
    event = game.events[m.event - 1] if m.event <= len(game.events) else None
    lines: list[tuple[Inline, ...]] = []
    for code, holders in m.known.items():
        card = parse_card(code)
        texts = why.get(card, {})
        if len(holders) == 1:
            chosen = [holders[0]]
        elif isinstance(event, Ask) and m.kind == "hopeless-ask":
            chosen = [event.target]
        else:
            chosen = [p for p in game.record.players if p not in holders]
        lines.extend((strong(card.pretty), f" — {texts[p]}") for p in chosen if p in texts)
    return lines


def _mistakes_by_player(game: Game, found: MistakeReport) -> Block:
    counts = Counter((m.player, m.kind) for m in found.mistakes)
    rows = []
    for p in game.record.players:
        cells = tuple((str(counts[(p, k)]) if counts[(p, k)] else "·",) for k in KINDS)
        total = sum(counts[(p, k)] for k in KINDS)
        rows.append(Row(((who(game, p),), *cells, (str(total),))))
    head = (("player",), *((kind_text(k),) for k in KINDS), ("total",))
    return Table(head, tuple(rows), align="l" + "r" * (len(KINDS) + 1))
