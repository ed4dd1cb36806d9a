"""The machine-readable answers of the analysis spec (the ``--json`` contracts), as plain data.

The command line prints these; reports and batches read them. Keys and orders are fixed: cards
in deck order with canonical codes, holders and players in seat order, teams numbered 1 and 2.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .record import Ask

# The analysis and the tactics load with the functions that use them: `hand` needs only
# player_summary.
if TYPE_CHECKING:
    from .analysis import Analysis, Holders
    from .cards import Card
    from .knowledge import Position
    from .record import Record
    from .replay import Game, Step


def holders_dict(holders: Holders) -> dict[str, list[str]]:
    return {c.code: list(h) for c, h in holders.items()}


def player_summary(record: Record, step: Step, holders: Holders, player: str) -> dict[str, Any]:
    """``team``, ``count``, ``known`` (cards only they can hold) and ``possible`` for one player."""
    known = [c.code for c, h in holders.items() if h == (player,)]
    possible = [c.code for c, h in holders.items() if player in h]
    return {
        "team": record.table.team_of(player),
        "count": step.counts[player],
        "known": known,
        "possible": possible,
    }


def state_dict(game: Game, holders: Holders, view: str, at: int) -> dict[str, Any]:
    """``state --json``: holders of every card in play, each player's cards, claimable books."""
    from .tactics import claimable

    record = game.record
    step = game.step(at)
    return {
        "at": at,
        "as": view,
        "turn": step.turn,
        "score": list(step.score),
        "cards": {c: {"holders": h} for c, h in holders_dict(holders).items()},
        "players": {p: player_summary(record, step, holders, p) for p in record.players},
        "claimable": [c.to_dict() for c in claimable(game, holders, view)],
    }


def threats_dict(analysis: Analysis, at: int) -> dict[str, Any]:
    from .tactics import threats

    found = threats(analysis, at)
    by = {p: None if bs is None else [b.name for b in bs] for p, bs in found.items()}
    return {"at": at, "by": by, "worked_out": list(analysis.worked_out)}


def lockouts_dict(analysis: Analysis, at: int) -> dict[str, Any]:
    from .tactics import lockouts

    return {"at": at, "lockouts": [lk.to_dict() for lk in lockouts(analysis, at)]}


def analysis_dict(analysis: Analysis) -> dict[str, Any]:
    """``analyze --json``: every step in every view, with claimable books, threats and mistakes."""
    from .tactics import claimable, mistakes

    game = analysis.game
    record = game.record
    steps = []
    for at in range(analysis.steps + 1):
        step = game.step(at)
        views = {}
        for name, va in analysis.views.items():
            h = va.at(at)
            views[name] = {
                "cards": holders_dict(h),
                "claimable": [c.to_dict() for c in claimable(game, h, name)],
            }
        steps.append(
            {
                "at": at,
                "turn": step.turn,
                "counts": step.counts,
                "score": list(step.score),
                "views": views,
                "threats": threats_dict(analysis, at)["by"],
            }
        )
    report = mistakes(analysis)
    return {
        "record": record.name,
        "rules": record.rules.rule_set.value,
        "deck": record.rules.deck_kind.value,
        "teams": [list(t) for t in record.table.teams],
        "players": list(record.players),
        "views": list(analysis.views),
        "worked_out": list(analysis.worked_out),
        "finished": game.finished,
        "score": list(game.final.score),
        "steps": steps,
        "mistakes": [m.to_dict() for m in report.mistakes],
        "unjudged": report.unjudged,
    }


def ruled_out_reasons(game: Game, pos: Position, card: Card, holders: tuple[str, ...]) -> dict[str, str]:
    """Why each player who cannot hold ``card`` is ruled out, in words."""
    events = game.events
    reasons: dict[str, str] = {}
    known = pos.known.get(card)
    for p in pos.players:
        if p in holders:
            continue
        if known is not None:
            reasons[p] = f"{card.pretty} is known to be with {known}"
            continue
        event = pos.ruled_out.get(card, {}).get(p)
        if event is None:
            reasons[p] = "counting: no deal that fits the record gives it to them"
        elif event == 0:
            reasons[p] = f"{p}'s own hand" if p == pos.view else "the view's own hand"
        else:
            e = events[event - 1]
            reasons[p] = f"{game.record.event_label(event)}: {_event_reason(e, p, card)}"
    return reasons


def _event_reason(event: object, player: str, card: Card) -> str:
    if isinstance(event, Ask):
        if event.target == player:
            return f"{player} answered no when {event.asker} asked for {card.pretty}"
        return f"{player} asked for {card.pretty}, so did not hold it"
    return "the record shows it elsewhere"
