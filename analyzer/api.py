"""The Python API: one call per question, each on a game and a moment in it, in one view.

``at`` counts events (0 is right after the deal, ``None`` the end: in a lenient replay that broke
a rule about the cards, the last trusted step, as on the command line); ``view`` is ``"public"``
or a player with a ``Hand`` line. The examples run in the tests, from the project's root::

    >>> from analyzer import load, replay, holders, odds, mistakes
    >>> game = replay(load("sample_logs/lockout.fish"))

Modules that load numpy (odds, advice), polars (batch, tables) or matplotlib (report) are
imported only when the call that needs them is made.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from . import record as text_form
from . import record_json
from .analysis import Analysis, Holders, Progress, solve_position
from .analysis import analyze as analyze_game
from .cards import Card, parse_card
from .hindsight import judged_analysis, judged_at
from .knowledge import PUBLIC, Position, ViewTracker
from .record import Record
from .replay import Game
from .replay import replay as replay_record
from .tactics import Claimable, Lockout, MistakeReport, claimable, explain_mistakes
from .tactics import lockouts as find_lockouts
from .tactics import mistakes as find_mistakes
from .tactics import threats as find_threats

if TYPE_CHECKING:
    from .advice import Advice
    from .batch import BatchResult
    from .cards import Book
    from .odds import Odds
    from .report import ReportFiles


def load(path: str | Path) -> Record:
    """Read a record from a file: the ``.fish`` text form, or the JSON form (``.json``).

    >>> record = load("sample_logs/lockout.fish")
    >>> record.players
    ('Anna', 'Dev', 'Ben', 'Eli', 'Cara', 'Fay')
    """
    return record_json.load(path) if Path(path).suffix.lower() == ".json" else text_form.load(path)


def loads(text: str) -> Record:
    """Read a record from its text (the ``.fish`` form).

    >>> loads("Teams: Anna Ben Cara vs Dev Eli Fay\\n\\n1. Anna asks Dev for 7S: no\\n").events[0].yes
    False
    """
    return text_form.loads(text)


def dumps(record: Record) -> str:
    """A record's canonical text: ``loads(dumps(r))`` gives ``r`` back.

    >>> print(dumps(loads("Teams: Anna Ben Cara vs Dev Eli Fay\\n\\n1. Anna asks Dev for 7s: no")), end="")
    Rules: literature
    Deck: standard
    Teams: Anna Ben Cara vs Dev Eli Fay
    <BLANKLINE>
    1. Anna asks Dev for 7S: no
    """
    return text_form.dumps(record)


def replay(record: Record, lenient: bool = False) -> Game:
    """Replay a record with every rule checked: the state after each event.

    Raises ``RuleBreak`` at the first event against the rules; ``lenient=True`` collects them in
    ``game.violations`` instead (the events after the first are then untrusted).

    >>> game = replay(load("sample_logs/lockout.fish"))
    >>> len(game.events), game.final.score, game.step(11).turn
    (15, (0, 1), 'Ben')
    """
    return replay_record(record, lenient=lenient)


def position(game: Game, at: int | None = None, view: str = PUBLIC) -> Position:
    """What ``view`` knows after ``at`` events: each card's allowed holders, each player's unseen
    cards, and the "holds one of these" requirements that asks leave.

    >>> position(game, 11).known[parse_card("4S")]  # shown when Anna took it at event 4
    'Anna'
    """
    return ViewTracker(game, view).position(game.checked_step(at))


def holders(game: Game, at: int | None = None, view: str = PUBLIC) -> Holders:
    """Who can hold each card in play, exactly: the players some fitting deal gives it to.

    Raises ``Contradiction`` (naming the first event after which nothing fits) when no deal fits.

    >>> h = holders(game, 11)
    >>> h[parse_card("7S")], h[parse_card("2S")]
    (('Eli',), ('Anna',))
    """
    return solve_position(ViewTracker(game, view), game.checked_step(at))[1]


def odds(game: Game, at: int | None = None, view: str = PUBLIC) -> Odds:
    """Exact odds that each player holds each card, counting every fitting deal (fractions).

    >>> share = odds(game, 3).cards[parse_card("2S")]
    >>> {player: f"{float(f):.1%}" for player, f in share.items()}
    {'Anna': '34.1%', 'Ben': '33.0%', 'Eli': '33.0%'}
    """
    from .odds import card_odds

    return card_odds(solve_position(ViewTracker(game, view), game.checked_step(at))[0])


def claims(game: Game, at: int | None = None, view: str = PUBLIC) -> list[Claimable]:
    """The books a team can claim in a view, each with the declaration to make.

    >>> [c.declaration("Eli") for c in claims(game, 14, "Eli")]
    ['Claim low spades: I have 2♠ 3♠ 4♠ 5♠ 6♠ 7♠']
    """
    return claimable(game, holders(game, at, view), view)


def analyze(game: Game, upto: int | None = None, workers: int = 1, progress: Progress | None = None) -> Analysis:
    """Every step in every view (public and each hand) at once: what the tactics are built on.

    >>> analysis = analyze(game)
    >>> sorted(analysis.views), analysis.steps
    (['Anna', 'Ben', 'Cara', 'Dev', 'Eli', 'Fay', 'public'], 15)
    """
    last = None if upto is None else game.checked_step(upto, option="upto=")
    return analyze_game(game, upto=last, workers=workers, progress=progress)


def threats(game: Game | Analysis, at: int | None = None) -> dict[str, list[Book] | None]:
    """The books each player could take if given the turn, judged in their own view (``None``
    for a player whose hand neither a Hand line nor the whole record gives). Given a game, only
    the step ``at`` is solved, but the hands are worked out from the whole record, as on the
    command line: a record that no deal fits is refused at every step.

    >>> {p: [b.name for b in books or ()] for p, books in threats(game, 11).items() if books}
    {'Anna': ['low-spades'], 'Eli': ['low-spades']}
    """
    analysis = _at_one_step(game, at)
    return find_threats(analysis, _step(analysis, at))


def lockouts(game: Game | Analysis, at: int | None = None) -> list[Lockout]:
    """Books threatened from both sides, with the opponents each team must not ask. Given a
    game, only the step ``at`` is solved, but the hands are worked out from the whole record,
    as on the command line: a record that no deal fits is refused at every step.

    >>> [(lk.book.name, lk.avoid(1)) for lk in lockouts(game, 11)]
    [('low-spades', ['Eli'])]
    """
    analysis = _at_one_step(game, at)
    return find_lockouts(analysis, _step(analysis, at))


def mistakes(game: Game | Analysis, odds: bool = False, workers: int = 1, explain: bool = True) -> MistakeReport:
    """Missed and guessed claims, wrong claims, broken lockouts, hopeless asks and rule breaks,
    each with the explanations of what the player could have known (``explain=False`` leaves
    them out, for speed); with ``odds=True`` each quotes the odds the player faced (raising
    ``TooLarge`` if a view's odds are past the counter's budget, where the command line says the
    odds were not quoted and lists the mistakes all the same). Given a game, each player is
    judged in their own view wherever the record gives their hand, as on the command line (so a
    record that no deal fits is refused as a whole, naming the first event after which none
    does).

    >>> found = mistakes(game).mistakes
    >>> [(m.event, m.player, m.kind) for m in found]
    [(12, 'Ben', 'broken-lockout')]
    >>> why = found[0].explanations[0]
    >>> why.conclusion.words, why.text[:28], why.text[-44:]
    ('Anna holds 2♠', "1. 2♠ is not in Ben's hand. ", '5. So Anna holds 2♠: everyone else lacks it.')
    """
    analysis = game if isinstance(game, Analysis) else judged_analysis(game, workers=workers)[0]
    found = find_mistakes(analysis)
    if explain:
        found = explain_mistakes(analysis, found)
    if odds:
        from .tactics import quote_odds

        found = quote_odds(analysis, found, workers=workers)
    return found


def advice(game: Game, player: str, at: int | None = None) -> Advice:
    """Asks ranked by their exact odds, and claims with theirs, for the player on turn.

    >>> best = advice(game, "Ben", 11).asks[0]
    >>> best.target, best.card.pretty, f"{float(best.odds):.1%}"
    ('Dev', '9♥', '35.8%')
    """
    from .advice import suggest

    return suggest(game, player, game.checked_step(at))


def report(
    game: Game, out_dir: str | Path, view: str = PUBLIC, moments: Sequence[int] | None = None, odds: bool = True
) -> ReportFiles:
    """Write the post-game report (HTML, Markdown, SVG charts) into ``out_dir``.

    >>> import tempfile
    >>> files = report(game, tempfile.mkdtemp(), odds=False)
    >>> files.html.name
    'lockout.html'
    """
    from .report import write_report

    return write_report(game, out_dir, view, moments, odds=odds)


def batch(
    folder: str | Path,
    out_dir: str | Path,
    workers: int | None = None,
    progress: Callable[[int, int, str], None] | None = None,
) -> BatchResult:
    """Analyze every record in a folder: per-game, per-player and failure tables (polars), written
    as Parquet and CSV with a summary page.

    >>> import shutil, tempfile
    >>> folder = tempfile.mkdtemp()
    >>> for name in ("lockout.fish", "six-and-seven.fish"):
    ...     _ = shutil.copy(f"sample_logs/{name}", folder)
    >>> result = batch(folder, tempfile.mkdtemp(), workers=1)
    >>> result.games.select("file", "score1", "score2").rows()
    [('lockout.fish', 0, 1), ('six-and-seven.fish', 1, 0)]
    """
    from .batch import run_batch

    return run_batch(folder, out_dir, workers, progress)


def _step(analysis: Analysis, at: int | None) -> int:
    return analysis.game.checked_step(at, analysis.steps)


def _at_one_step(game: Game | Analysis, at: int | None) -> Analysis:
    """The analysis given, or every view the command line judges (worked-out hands included)
    solved at the one step asked for."""
    return game if isinstance(game, Analysis) else judged_at(game, game.checked_step(at))


__all__ = [
    "Card",
    "Game",
    "Record",
    "advice",
    "analyze",
    "batch",
    "claims",
    "dumps",
    "holders",
    "load",
    "loads",
    "lockouts",
    "mistakes",
    "odds",
    "parse_card",
    "position",
    "replay",
    "report",
    "threats",
]
