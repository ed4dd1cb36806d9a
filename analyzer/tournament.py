"""Tournaments between bots: duplicate pairs, every game a record, and how each bot stands.

Each deal is played twice with the teams swapped (a duplicate pair), so luck of the deal
cancels out. Game ``k`` of a tournament deals from seed ``base + k``; the bots draw from
generators seeded by the game, so a tournament is the same whichever machine plays it.

Every game is written as a canonical record (``NAME.fish``) as soon as it is finished: an
interrupted tournament resumes by skipping the games whose file is there. Standings come from
the records: win rate with a 95% Wilson interval, books per game, and an Elo-style rating.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from .bots import LADDER, play_deal
from .cards import DeckKind
from .files import make_folder, write_text_atomic
from .record import Record, dumps, load
from .replay import replay
from .rules import GameRules, HouseRule, RuleSet

Z95 = 1.959963984540054  # the normal quantile of a two-sided 95% interval
ELO_START = 1500.0
ELO_K = 16.0


@dataclass(frozen=True)
class GameSpec:
    """One game of a tournament: the deal's seed and the bot of each team (first seat's first)."""

    seed: int
    bots: tuple[str, str]
    players: int = 6
    deck: DeckKind = DeckKind.STANDARD
    rule_set: RuleSet = RuleSet.LITERATURE
    bluffing: bool = False
    house: frozenset[HouseRule] = frozenset()

    @property
    def name(self) -> str:
        return f"game-{self.seed}-{self.bots[0]}-vs-{self.bots[1]}"

    @property
    def rules(self) -> GameRules:
        return GameRules(self.rule_set, self.deck, self.bluffing, self.house)


@dataclass(frozen=True)
class GameResult:
    """What a tournament keeps of one game: its bots, points and books per team."""

    name: str
    bots: tuple[str, str]
    points: tuple[int, int]
    books: tuple[int, int]
    events: int
    finished: bool

    @property
    def winner(self) -> int | None:
        """0 or 1, the team with more points; None for a draw."""
        a, b = self.points
        return None if a == b else (0 if a > b else 1)

    def to_dict(self) -> dict[str, object]:
        return {
            "game": self.name,
            "bots": list(self.bots),
            "points": list(self.points),
            "books": list(self.books),
            "events": self.events,
            "finished": self.finished,
        }


def duplicate_pairs(
    bots: tuple[str, str],
    pairs: int,
    base_seed: int = 0,
    players: int = 6,
    deck: DeckKind = DeckKind.STANDARD,
    rule_set: RuleSet = RuleSet.LITERATURE,
    bluffing: bool = False,
    house: frozenset[HouseRule] = frozenset(),
) -> list[GameSpec]:
    """``pairs`` deals, each played by both seatings: 2 * pairs games (``pairs`` games when a bot
    plays itself: both seatings are then the same game, of the same name)."""
    for b in bots:
        if b not in LADDER:
            raise ValueError(f"no bot called '{b}': the bots are {', '.join(LADDER)}")
    a, b = bots
    specs = []
    for k in range(pairs):
        for seating in ((a, b),) if a == b else ((a, b), (b, a)):
            specs.append(GameSpec(base_seed + k, seating, players, deck, rule_set, bluffing, house))
    return specs


def result_of(record: Record, name: str) -> GameResult:
    game = replay(record)
    books = [0, 0]
    for r in game.final.books.values():
        if r.team is not None:
            books[r.team - 1] += 1
    bots = _bots_of(record)
    return GameResult(name, bots, game.final.score, (books[0], books[1]), len(game.events), game.finished)


def _bots_of(record: Record) -> tuple[str, str]:
    value = dict(record.extra).get("X-Bots", "")
    a, _, b = value.partition(" vs ")
    if not a or not b:
        raise ValueError(f"{record.path}: not a tournament game (no 'X-Bots: A vs B' line)")
    return a, b


def play_game(spec: GameSpec) -> tuple[GameResult, str]:
    """Play one game: its result and its canonical record text (a worker's task)."""
    record = play_deal(spec.bots, spec.players, spec.rules, spec.seed)
    return result_of(record, spec.name), dumps(record)


Mapper = Callable[
    [Callable[[GameSpec], tuple[GameResult, str]], Sequence[GameSpec], Callable[[tuple[GameResult, str]], None]],
    None,
]


def local_mapper(workers: int) -> Mapper:
    """Games on this machine: in worker processes (``pool.process_map``) when ``workers > 1``."""

    def run(
        fn: Callable[[GameSpec], tuple[GameResult, str]],
        specs: Sequence[GameSpec],
        each: Callable[[tuple[GameResult, str]], None],
    ) -> None:
        from .pool import process_map

        process_map(fn, specs, workers, each)

    return run


def play_tournament(
    specs: Sequence[GameSpec],
    out: Path,
    mapper: Mapper,
    resume: bool = False,
    each: Callable[[GameResult], None] | None = None,
) -> list[GameResult]:
    """Play the games not already written in ``out`` (with ``resume``), each written as it ends.

    Without ``resume`` a folder that already holds one of the games is refused, so a finished
    game is never overwritten by accident. Results come back in the order of ``specs``.
    """
    make_folder(out)
    _check_only_ours(out, specs)
    results: dict[str, GameResult] = {}
    todo = []
    for spec in specs:
        path = out / f"{spec.name}.fish"
        if path.exists():
            if not resume:
                raise FileExistsError(f"{path} exists: use --resume to go on with this tournament")
            record = load(path)
            _check_same_game(record, spec, path)
            results[spec.name] = result_of(record, spec.name)
            if each is not None:
                each(results[spec.name])
        else:
            todo.append(spec)

    def done(item: tuple[GameResult, str]) -> None:
        result, text = item
        write_text_atomic(out / f"{result.name}.fish", text)
        results[result.name] = result
        if each is not None:
            each(result)

    if todo:
        mapper(play_game, todo, done)
    return [results[s.name] for s in specs]


def _check_only_ours(out: Path, specs: Sequence[GameSpec]) -> None:
    """Refuse a folder holding records that are not games of this tournament: another pair of
    bots' (resumed with other bots, its games went in beside theirs) or a club's records (the
    tournament's games went in among them, and batch then read both as one lot)."""
    import re

    if not specs:
        return
    a, b = specs[0].bots
    seatings = {f"{a}-vs-{b}", f"{b}-vs-{a}"}
    game = re.compile(r"game-\d+-(.+)\.fish")

    def ours(name: str) -> bool:
        found = game.fullmatch(name)
        return found is not None and found.group(1) in seatings

    others = sorted(p.name for p in out.iterdir() if p.suffix.lower() in (".fish", ".json") and not ours(p.name))
    if others:
        raise FileExistsError(
            f"{out / others[0]} is not a game of this tournament ({a} vs {b}): write to another folder"
        )


def _check_same_game(record: Record, spec: GameSpec, path: Path) -> None:
    """Refuse to resume over a game played with other options: the name says only the seed and
    the bots, and its result would be counted in standings it does not belong to."""
    played, asked = _options(len(record.players), record.rules), _options(spec.players, spec.rules)
    if played != asked:
        raise FileExistsError(
            f"{path} was played with {played}, not {asked}: resume with the options the tournament "
            "was started with, or write to another folder"
        )


def _options(players: int, rules: GameRules) -> str:
    """``6 players, standard deck, literature rules`` (and bluffing and house rules when set)."""
    parts = [f"{players} players", f"{rules.deck_kind.value} deck", f"{rules.rule_set.value} rules"]
    if rules.bluffing:
        parts.append("bluffing")
    if rules.house:
        parts.append(f"house rules {', '.join(sorted(h.value for h in rules.house))}")
    return ", ".join(parts)


def wilson(wins: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (draws count as half a win)."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass
class Standing:
    bot: str
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    books: int = 0
    points: int = 0
    elo: float = ELO_START
    pair_wins: int = 0  # duplicate pairs where the bot scored more points over both games
    pair_draws: int = 0
    pairs: int = 0
    extra: dict[str, float] = field(default_factory=dict)

    @property
    def score(self) -> float:
        return self.wins + self.draws / 2

    @property
    def win_rate(self) -> float:
        return self.score / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.score, self.games)

    @property
    def books_per_game(self) -> float:
        return self.books / self.games if self.games else 0.0

    def to_dict(self) -> dict[str, object]:
        low, high = self.interval
        return {
            "bot": self.bot,
            "games": self.games,
            "wins": self.wins,
            "draws": self.draws,
            "losses": self.losses,
            "win_rate": round(self.win_rate, 4),
            "ci95": [round(low, 4), round(high, 4)],
            "books_per_game": round(self.books_per_game, 3),
            "points_per_game": round(self.points / self.games, 3) if self.games else 0.0,
            "elo": round(self.elo, 1),
            "pairs": self.pairs,
            "pair_wins": self.pair_wins,
            "pair_draws": self.pair_draws,
        }


def standings(results: Sequence[GameResult]) -> list[Standing]:
    """Per bot: games, wins (a draw is half), books, and an Elo rating updated game by game in order.

    Elo: each game moves both ratings by ``ELO_K * (score - expected)``, expected from the rating
    gap (400 points for 10:1 odds), starting at 1500. In a mirror match (a bot against itself) the
    bot's ratings cancel out: its line counts both sides.
    """
    table: dict[str, Standing] = {}
    pairs: dict[int, dict[str, int]] = {}
    for r in results:
        for side in (0, 1):
            s = table.setdefault(r.bots[side], Standing(r.bots[side]))
            s.games += 1
            s.books += r.books[side]
            s.points += r.points[side]
            if r.winner is None:
                s.draws += 1
            elif r.winner == side:
                s.wins += 1
            else:
                s.losses += 1
        a, b = table[r.bots[0]], table[r.bots[1]]
        if a is not b:
            expected = 1 / (1 + 10 ** ((b.elo - a.elo) / 400))
            score = 0.5 if r.winner is None else float(r.winner == 0)
            a.elo += ELO_K * (score - expected)
            b.elo -= ELO_K * (score - expected)
        seed = int(r.name.split("-")[1]) if r.name.startswith("game-") else id(r)
        pair = pairs.setdefault(seed, {})
        for side in (0, 1):
            pair[r.bots[side]] = pair.get(r.bots[side], 0) + r.points[side]
    for pair in pairs.values():
        if len(pair) != 2:
            continue
        (x, px), (y, py) = pair.items()
        table[x].pairs += 1
        table[y].pairs += 1
        if px == py:
            table[x].pair_draws += 1
            table[y].pair_draws += 1
        else:
            table[x if px > py else y].pair_wins += 1
    return sorted(table.values(), key=lambda s: (-s.win_rate, s.bot))


def cluster_mapper(client: object) -> Mapper:
    """Games on a Dask cluster (``analyzer.cluster``): the same games, the same results."""

    def run(
        fn: Callable[[GameSpec], tuple[GameResult, str]],
        specs: Sequence[GameSpec],
        each: Callable[[tuple[GameResult, str]], None],
    ) -> None:
        from .cluster import cluster_map

        cluster_map(client, fn, specs, each)

    return run
