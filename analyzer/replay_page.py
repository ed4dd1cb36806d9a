"""The replay page: one self-contained HTML file to step through a game, in any view.

Everything the page shows is computed here, once, and embedded as JSON: for every step and
view the holders of every card (a bit set over the players, two hex digits a card), the exact
odds of each possible holder (whole percents), the claimable books, each player's threats in
their own view, the lockouts and the mistakes. The page's script (``assets/replay.js``, plain
JavaScript) only decodes and draws; it loads nothing, and the page's Content-Security-Policy
lets no other script run and no request leave.
"""

from __future__ import annotations

import base64
import hashlib
import html
import json
from collections.abc import Hashable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any
from urllib.parse import quote

from .analysis import Analysis, Holders, analyze, view_tracker
from .cards import Card
from .explain import (
    COUNT,
    Explainer,
    Explanation,
    Fact,
    Source,
    Statement,
    Unexplained,
    by_fact,
    holds,
    read_facts,
)
from .files import write_text_atomic
from .game_text import event_inline, kind_text, score_text
from .knowledge import PUBLIC
from .pool import game_map
from .record import Ask, Pass, actor
from .render import Inline, Span, asset
from .replay import Game
from .rules import Outcome
from .tactics import Mistake, MistakeReport, NotKnown, claimable, lockouts, mistake_moment, mistakes, threats
from .wording import either

Shares = dict[Card, dict[str, Fraction]]


def replay_file(stem: str) -> str:
    """The replay page's file name for a record's stem."""
    return f"{stem}-replay.html"


def replay_link(stem: str, at: int, view: str = PUBLIC) -> str:
    """A link to a step and view of the replay page: ``game-replay.html#23-Ben``."""
    return f"{quote(replay_file(stem))}#{at}-{quote(view, safe='')}"


# ---------------------------------------------------------------- odds, once per step and view


@dataclass(frozen=True)
class StepOdds:
    """The exact odds of every card in play in one view at one step, as whole numbers: of the
    ``deals`` that fit, ``ways[c][p]`` put card ``c`` with player ``p`` (its possible holders, in
    seat order). The page needs only whole percents, which need no fractions."""

    deals: int
    ways: dict[Card, dict[str, int]]

    def shares(self) -> Shares:
        """The odds as fractions (``card_odds(...).cards``), for the report's grids."""
        return {c: {p: Fraction(w, self.deals) for p, w in ways.items()} for c, ways in self.ways.items()}


OddsTable = dict[str, dict[int, StepOdds | None]]  # view -> step -> its odds (None: too large to count)
OddsJob = tuple[str, tuple[int, ...], tuple[Card, ...] | None]  # a view, some of its steps, its hand if worked out


def odds_table(
    game: Game,
    views: list[str],
    last: int,
    workers: int = 1,
    worked_out: dict[str, tuple[Card, ...]] | None = None,
) -> OddsTable:
    """The exact odds of every card at every step 0..last in each view (spread over ``workers``).

    ``worked_out`` gives the hands of views without a Hand line. A step too large to count
    exactly (house rule ``must-declare``) has None.
    """
    jobs = odds_jobs(views, last, worked_out or {}, workers)
    return gather_odds(views, zip(jobs, game_map(count_steps, game, jobs, workers), strict=True))


def gather_odds(views: Sequence[str], counted: Iterable[tuple[OddsJob, list[StepOdds | None]]]) -> OddsTable:
    """The odds of each view by step, from the counts of its jobs (``odds_jobs``, ``count_steps``)."""
    table: OddsTable = {v: {} for v in views}
    for (view, steps, _), odds in counted:
        table[view].update(zip(steps, odds, strict=True))
    return {v: dict(sorted(table[v].items())) for v in views}


def odds_jobs(views: list[str], last: int, worked_out: dict[str, tuple[Card, ...]], workers: int) -> list[OddsJob]:
    """Every step of every view cut into stretches for ``workers`` processes: the public view's
    first (it costs the most), and short enough that the last ones keep every worker busy."""
    size = last + 1 if workers <= 1 else max(8, -(-(last + 1) // 4))
    ordered = sorted(views, key=lambda v: v != PUBLIC)
    return [
        (v, tuple(range(lo, min(last, lo + size - 1) + 1)), worked_out.get(v))
        for v in ordered
        for lo in range(0, last + 1, size)
    ]


def count_steps(game: Game, job: OddsJob) -> list[StepOdds | None]:
    """The odds of one view at some of its steps (in order). A step whose never-shown cards and
    slots are as at an earlier step (an event that only moved a known card) is not counted again."""
    from .information import signature
    from .odds import TooLarge, card_ways

    view, steps, hand = job
    tracker = view_tracker(game, view, None if hand is None else {view: hand})
    counted: dict[Hashable, tuple[int, dict[Card, dict[str, int]]] | None] = {}
    out: list[StepOdds | None] = []
    for at in steps:
        pos = tracker.position(at)
        key = signature(pos)  # what the count depends on (``information.signature``)
        if key not in counted:
            try:
                counted[key] = card_ways(pos)
            except TooLarge:
                counted[key] = None
        found = counted[key]
        if found is None:
            out.append(None)
            continue
        deals, hidden = found
        ways = {c: {pos.known[c]: deals} if c in pos.known else hidden[c] for c in pos.in_play}
        out.append(StepOdds(deals, ways))
    return out


Explanations = dict[str, dict[int, dict[Card, dict[str, str]]]]  # view -> step -> card -> player -> text


def mistake_explanations(analysis: Analysis, found: MistakeReport) -> Explanations:
    """Why each card in play is placed or ruled out, at the step of each mistake in its player's view.

    Explanations of every card at every step would not fit a page (measured on the 128-event
    sample: about 110 a view and step, 14 KB; 13 MB for the whole game), so the page carries
    them where a coach looks: at each mistake, as the mistaken player saw it; at every other
    step, why each known card's holder holds it (``known_explanations``: 63 KB on the sample).
    """
    out: Explanations = {}
    for m in found.mistakes:
        view, at = mistake_moment(analysis, m)
        if at in out.get(view, {}):
            continue
        explainer = analysis.explainer(view, at)
        cards: dict[Card, dict[str, str]] = {}
        for card in explainer.cards:
            try:
                found_card = explainer.card(card)
            except Unexplained:
                continue  # the rules fell short: the page shows the holders without a why
            if found_card:
                cards[card] = {p: e.text for p, e in found_card.items()}
        out.setdefault(view, {})[at] = cards
    return out


@dataclass(frozen=True)
class KnownWhy:
    """Why each known card's holder holds it, at every step of every view: each different text
    once (``texts``), and per view and card (its index in deck order) the steps from which each
    text holds, ``[step, text]`` (text -1: not known, or not explained, from that step on). A card
    known at step 40 and still at 90 for the same reasons is one entry."""

    texts: list[str]
    runs: dict[str, dict[int, list[list[int]]]]


def known_explanations(analysis: Analysis) -> KnownWhy:
    """``KnownWhy`` of every view the analysis solved, up to its last step (``known_whys``)."""
    cards = {c: i for i, c in enumerate(c for book in analysis.game.record.rules.deck.books for c in book.cards)}
    texts: dict[str, int] = {}
    runs: dict[str, dict[int, list[list[int]]]] = {}
    for view in analysis.views:
        now: dict[int, int] = {}
        mine: dict[int, list[list[int]]] = {}
        for at, found in enumerate(known_whys(analysis, view)):
            current = {cards[c]: texts.setdefault(why.text, len(texts)) for c, why in found.items()}
            for i in sorted(now.keys() | current.keys()):
                if now.get(i, -1) != current.get(i, -1):
                    mine.setdefault(i, []).append([at, current.get(i, -1)])
            now = current
        runs[view] = mine
    return KnownWhy(list(texts), runs)


def known_whys(analysis: Analysis, view: str) -> Iterator[dict[Card, Explanation]]:
    """At each step of one view (0 to the analysis's last), why each known card's holder holds it.

    A card known by a fact of its own (in the view's hand, or received in an ask) is explained by
    that fact, as ``Explainer`` does. Another keeps its explanation from one step to the next
    while every fact of it still stands (the same statement from the same source), no new fact
    touches its book, and, if it rests on a hand size, no book was claimed in between; else the
    view's ``Explainer`` at that step explains it anew. Whether some facts imply a statement, and
    whether each of them is needed, depends only on those facts, the players and the cards in
    play, and on the cards in play only through hand sizes (without one, the facts' own cards
    are all that is constrained, and a card a standing fact names is still in play): so an
    explanation carried on is as sound and irreducible as where it was made. It is
    the one ``who-has`` gives there but where a new fact elsewhere (another book, or a hand size)
    shortens that one: on the sample game none of 11,775; on the shared record g204, 61 of
    21,342. Explaining every known card anew at every step would take 2.1 s on the sample game
    (seven views, 903 steps); this takes about 0.7 s, 0.4 s of it in the explainers. A holder
    the rules do not reach (``Unexplained``) goes without one there."""
    game = analysis.game
    deck = game.record.rules.deck
    tracker = view_tracker(game, view, analysis.worked_out)
    kept: dict[Card, tuple[frozenset[tuple[Statement, Source]], Explanation]] = {}  # its facts, and the why
    seen: set[tuple[Statement, Source]] = set()
    in_play: tuple[Card, ...] = ()
    alone: dict[tuple[Statement, Source], Explanation] = {}  # a card known by a fact of its own: that fact
    for at in range(analysis.steps + 1):
        holders = analysis.holders(view, at)
        known = {c: h[0] for c, h in holders.items() if len(h) == 1}
        pos = tracker.position(at)
        if pos.in_play != in_play:  # (a claim: hand sizes are judged among fewer cards)
            kept = {c: old for c, old in kept.items() if all(s.kind != COUNT for s, _ in old[0])}
            in_play = pos.in_play
        facts = read_facts(tracker, pos) if known else []
        standing = {(f.statement, f.source) for f in facts}
        touched = {deck.book_of(c).name for s, _ in standing - seen for c in (s.cards or (s.card,)) if c}
        proved: dict[Statement, Fact] = {}  # (the first fact of each statement, as the explainer takes it)
        for f in facts:
            proved.setdefault(f.statement, f)
        explainer: Explainer | None = None
        found: dict[Card, tuple[frozenset[tuple[Statement, Source]], Explanation]] = {}
        for c, p in known.items():
            fact = proved.get(holds(p, c))
            if fact is not None:  # (the explainer's own, whatever else changed)
                key = (fact.statement, fact.source)
                if key not in alone:
                    alone[key] = by_fact(fact, game.record)
                found[c] = (frozenset([key]), alone[key])
                continue
            old = kept.get(c)
            if (
                old is not None
                and old[1].conclusion == holds(p, c)
                and old[0] <= standing
                and deck.book_of(c).name not in touched
            ):
                found[c] = old
                continue
            explainer = explainer or Explainer(tracker, at, pos, facts)
            try:
                why = explainer.explain(holds(p, c))
            except Unexplained:
                continue
            found[c] = (frozenset((f.statement, f.source) for f in why.facts), why)
        kept, seen = found, standing
        yield {c: why for c, (_, why) in found.items()}


def whole_percent(share: Fraction) -> int:
    """Whole percents as the grids show them; 0 stands for a possible holder under 1%."""
    return _whole_percent(share.numerator, share.denominator)


def _whole_percent(n: int, d: int) -> int:
    """``whole_percent`` of n/d (in lowest terms or not: the rounding is the same)."""
    return (200 * n + d) // (2 * d) if 100 * n >= d else 0


# ---------------------------------------------------------------- the embedded data


def _segments(content: tuple[Inline, ...], cls: str = "") -> list[Any]:
    """Inline runs as JSON: a plain string, or ``[class, text]`` for a styled one."""
    out: list[Any] = []
    for item in content:
        if isinstance(item, str):
            out.append([cls, item] if cls else item)
        elif isinstance(item, Span):
            out.extend(_segments(item.content, item.ref if item.kind == "class" else cls))
    return out


def _mask(players: dict[str, int], holders: tuple[str, ...]) -> int:
    mask = 0
    for p in holders:
        mask |= 1 << players[p]
    return mask


def _event_data(game: Game, n: int) -> dict[str, Any]:
    event = game.events[n - 1]
    players = {p: i for i, p in enumerate(game.record.players)}
    data: dict[str, Any] = {
        "text": _segments(event_inline(game, event)),
        "by": players[actor(event)],
        "n": game.numbers[n - 1],  # the event's number as the file writes it
    }
    if isinstance(event, Ask):
        data["kind"], data["result"] = "ask", "yes" if event.yes else "no"
    elif isinstance(event, Pass):
        data["kind"], data["result"] = "pass", "turn passed"
    else:
        data["kind"] = "claim"
        result = game.step(n).books.get(event.book.name)
        data["result"] = "not settled" if result is None or result.event != n else _claim_result(result.outcome)
    if event.comment:
        data["comment"] = event.comment
    return data


def _claim_result(outcome: Outcome) -> str:
    return {Outcome.CORRECT: "correct", Outcome.WRONG: "wrong", Outcome.FORFEITED: "forfeited"}[outcome]


def replay_data(
    game: Game,
    analysis: Analysis,
    found: MistakeReport,
    odds: OddsTable | None = None,
    report: str | None = None,
    why: Explanations | None = None,
) -> dict[str, Any]:
    """Everything the replay page shows, as plain JSON data (deterministic: no dates).

    ``why`` (default: ``mistake_explanations``) are the explanations the page carries of every
    card at the mistakes' steps; beside them, why each known card's holder holds it at every step
    (``known_explanations``). Without ``odds`` the page shows none; ``add_odds`` puts them
    in later (a report makes the rest of the page while the odds are still being counted).
    """
    record = game.record
    deck = record.rules.deck
    players = {p: i for i, p in enumerate(record.players)}
    cards = [c for book in deck.books for c in book.cards]
    card_index = {c: i for i, c in enumerate(cards)}
    book_index = {b.name: i for i, b in enumerate(deck.books)}
    last = analysis.steps
    views = list(analysis.views)
    if why is None:
        why = mistake_explanations(analysis, found)
    known = known_explanations(analysis)

    def holders_hex(holders: Holders) -> str:
        return "".join(f"{_mask(players, holders[c]) if c in holders else 0:02x}" for c in cards)

    steps = []
    for at in range(last + 1):
        step = game.step(at)
        taken = sorted(
            [book_index[name], r.team or 0, players[r.claimant], _claim_result(r.outcome), r.event]
            for name, r in step.books.items()
        )
        steps.append(
            {
                "counts": [step.count_text(p) for p in record.players],  # "≤5" when only a bound
                "turn": players[step.turn] if step.turn is not None else -1,
                "score": list(step.score),
                "books": taken,
                "threats": [
                    [players[p], book_index[b.name]]
                    for p, found_books in threats(analysis, at).items()
                    for b in found_books or ()
                ],
                "lockouts": [
                    [book_index[lock.book.name], [players[p] for t in (1, 2) for p in lock.threats[t]]]
                    for lock in lockouts(analysis, at)
                ],
            }
        )
    view_data = {}
    for v in views:
        per_step = analysis.views[v].holders[: last + 1]
        view_data[v] = {
            "holders": [holders_hex(h) for h in per_step],
            "claimable": [[[book_index[c.book.name], c.team] for c in claimable(game, h, v)] for h in per_step],
            "odds": None,
            "why": {
                str(at): {str(card_index[c]): texts for c, texts in cards.items()}
                for at, cards in sorted(why.get(v, {}).items())
            },
            "known": {str(i): runs for i, runs in known.runs[v].items()},
        }
    broken = {v.event: v.message for v in game.violations}
    events = []
    for n in range(1, len(game.events) + 1):
        data = _event_data(game, n)
        if n in broken:
            data["broken"] = broken[n]
        events.append(data)
    data = {
        "title": record.info.get("Title") or record.name,
        "record": record.name,
        "rules": record.rules.rule_set.value,
        "deck": deck.name,
        "score": score_text(game),
        "players": list(record.players),
        "teams": [record.table.team_of(p) for p in record.players],
        "books": [{"name": b.name, "pretty": b.pretty, "cards": [card_index[c] for c in b.cards]} for b in deck.books],
        "cards": [c.pretty for c in cards],
        "knownWhy": known.texts,
        "events": events,
        "last": last,
        "steps": steps,
        "views": views,
        "hands": {v: analysis.hand_status(v) for v in views if v != PUBLIC},
        "view": view_data,
        "mistakes": _mistakes_data(analysis, found),
        "unjudged": list(found.unjudged),
        "report": report,
    }
    if odds is not None:
        add_odds(data, analysis, found, odds)
    return data


def add_odds(data: dict[str, Any], analysis: Analysis, found: MistakeReport, odds: OddsTable) -> None:
    """Put the odds of every step into the page data of ``replay_data``: for each view counted,
    at each step, the whole percents of each possible holder of each card with several, in deck
    order (None at a step too large to count); and the mistakes again, quoting the odds that
    came with these counts (``Study.settle``)."""
    data["mistakes"] = _mistakes_data(analysis, found)
    cards = [c for book in analysis.game.record.rules.deck.books for c in book.cards]
    last = analysis.steps
    for v in analysis.views:
        shares = odds.get(v)
        if shares is None:
            continue
        rows: list[list[int] | None] = []
        for at, holders in enumerate(analysis.views[v].holders[: last + 1]):
            counted = shares.get(at)
            if counted is None:
                rows.append(None)
                continue
            deals, ways = counted.deals, counted.ways
            row: list[int] = []
            for c in cards:
                held = holders.get(c, ())
                if len(held) > 1:
                    mine = ways[c]
                    row.extend(_whole_percent(mine.get(p, 0), deals) for p in held)
            rows.append(row)
        data["view"][v]["odds"] = rows


def _mistakes_data(analysis: Analysis, found: MistakeReport) -> list[dict[str, Any]]:
    return [_mistake_data(m, *mistake_moment(analysis, m)) for m in found.mistakes]


def _mistake_data(m: Mistake, view: str, at: int) -> dict[str, Any]:
    data: dict[str, Any] = {
        "at": at,
        "event": m.event,
        "number": m.number,
        "player": m.player,
        "kind": kind_text(m.kind),
        "book": kind_text(m.book) if m.book else None,
        "why": m.why,
        "cost": m.cost,
        "view": view,
        "known": m.known,
    }
    if m.odds:
        data["odds"] = m.odds
    if m.hand_note:
        data["note"] = m.hand_note
    if m.explanations:  # [what it concludes, the sentences]
        data["explanations"] = [[explained(e), e.text] for e in m.explanations]
    return data


def explained(e: Explanation | NotKnown) -> str:
    """What an explanation under a mistake concludes (``Anna holds 4♥``), or who may hold a card
    the player could not place."""
    if isinstance(e, Explanation):
        return e.conclusion.words if e.conclusion is not None else ""
    return f"{e.card.pretty}: {either(e.holders)}"


# ---------------------------------------------------------------- the page


def _json_for_script(data: dict[str, Any]) -> str:
    """JSON that cannot end its <script> element early: <, > and & are written as escapes."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def replay_html(data: dict[str, Any]) -> str:
    """The page: a static frame, the data, the script and the styles, all inline."""
    script = asset("replay.js")
    digest = base64.b64encode(hashlib.sha256(script.encode("utf-8")).digest()).decode("ascii")
    # Only this script may run (its hash); nothing may be fetched.
    csp = f"default-src 'none'; script-src 'sha256-{digest}'; style-src 'unsafe-inline'; img-src data:"
    title = html.escape(f"Replay: {data['title']}")
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f'<meta http-equiv="Content-Security-Policy" content="{csp}">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        '<meta name="generator" content="halfsuit">\n'
        f"<title>{title}</title>\n<style>{asset('base.css')}{asset('replay.css')}</style>\n</head>\n<body>\n"
        f"{asset('replay.html')}"
        f'<script type="application/json" id="replay-data">{_json_for_script(data)}</script>\n'
        f"<script>{script}</script>\n</body>\n</html>\n"
    )


@dataclass(frozen=True)
class ReplayPage:
    """A written replay page and the data in it."""

    path: Path
    data: dict[str, Any]


def write_replay(
    game: Game,
    out_dir: str | Path,
    analysis: Analysis | None = None,
    found: MistakeReport | None = None,
    odds: OddsTable | None = None,
    with_odds: bool = True,
    report: str | None = None,
    why: Explanations | None = None,
    workers: int = 1,
) -> ReplayPage:
    """Write ``<stem>-replay.html`` into ``out_dir`` (made if needed).

    ``analysis``, ``found`` (the mistakes) and ``odds`` save computing them again; without
    ``odds`` they are counted here when ``with_odds``. ``report`` is the file name of the
    game's report, for a link back; ``why`` the explanations already worked out
    (``mistake_explanations``).
    """
    if analysis is None:
        analysis = analyze(game, upto=game.trusted_until, workers=workers)
    if found is None:
        found = mistakes(analysis)
    if odds is None and with_odds:
        odds = odds_table(game, list(analysis.views), analysis.steps, workers, analysis.worked_out)
    return write_page(game, out_dir, replay_data(game, analysis, found, odds, report, why))


def write_page(game: Game, out_dir: str | Path, data: dict[str, Any]) -> ReplayPage:
    """Write the replay page of ``replay_data`` into ``out_dir`` as ``<stem>-replay.html``."""
    path = Path(out_dir) / replay_file(game.record.name)
    write_text_atomic(path, replay_html(data), inputs=[game.record.path] if game.record.path else [])
    return ReplayPage(path, data)
