"""The ``simulate`` command: complete games between bots, written as records.

It has a module of its own because its options name the simulator's opening styles, and loading
the simulator is for this command only.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from analyzer.cards import DeckKind
from analyzer.rules import RuleSet
from analyzer.simulate import Style

from .common import BluffingOpt, DeckOpt, HouseOpt, RulesOpt, emit, handles_errors, out, plain


def register(app: typer.Typer) -> None:
    app.command()(simulate)


@handles_errors
def simulate(
    players: Annotated[int, typer.Option(metavar="N", help="4, 6 or 8 players.")] = 6,
    deck: DeckOpt = DeckKind.STANDARD,
    rules: RulesOpt = RuleSet.LITERATURE,
    bluffing: BluffingOpt = False,
    house: HouseOpt = None,
    seed: Annotated[
        int | None,
        typer.Option(
            metavar="N",
            min=0,
            help="Random seed: the same seed gives the same game. Default: a fresh one. Each record says its seed "
            "(X-Seed).",
        ),
    ] = None,
    count: Annotated[
        int,
        typer.Option(
            metavar="N", min=1, help="How many games: seeds SEED, SEED+1, ...; with more than one, --out is a folder."
        ),
    ] = 1,
    output: Annotated[
        Path | None, typer.Option("--out", "-o", metavar="PATH", help="Write here instead of stdout.")
    ] = None,
    style: Annotated[
        Style | None,
        typer.Option(
            help="How the simulator's play opens: 'probing' asks around in untouched books, as people do "
            "(default: standard). Not with --bots."
        ),
    ] = None,
    bots: Annotated[
        str | None,
        typer.Option(
            metavar="A,B",
            help="Seat two bots by team, first seat's team first (random, simple, counter, odds); each sees only "
            "its own view. Default: the simulator's own play.",
        ),
    ] = None,
) -> None:
    """Simulate complete legal games between sensible bots and write their records (with every hand).

    One game goes to stdout or to the file --out; with --count N, N games go into the folder
    --out, one file each (simulated-SEED.fish).
    """
    from analyzer import record as fish
    from analyzer.errors import UsageError
    from analyzer.files import make_folder

    from .tournament import bot_pair

    pair = bot_pair(bots) if bots is not None else None
    if pair is not None and style is not None:
        raise UsageError("--style is how the simulator's own play opens: with --bots each bot plays its own way")
    if players not in (4, 6, 8):
        raise UsageError(f"--players must be 4, 6 or 8, not {players}")
    if count > 1 and output is None:
        raise UsageError("--count needs --out: the folder to write the records into")
    import secrets

    from analyzer.simulate import simulate as run_simulation

    first = secrets.randbelow(2**31) if seed is None else seed
    for k in range(count):
        if pair is not None:
            from analyzer.bots import play_deal
            from analyzer.rules import GameRules

            game_rules = GameRules(rules, deck, bluffing, frozenset(house or ()))
            record = play_deal(pair, players, game_rules, first + k)  # says its seed and bots
        else:
            record = run_simulation(
                players=players,
                deck=deck,
                rule_set=rules,
                bluffing=bluffing,
                house=frozenset(house or ()),
                seed=first + k,
                style=style or Style.STANDARD,
            )
            record.extra.append(("X-Seed", str(first + k)))
        if count == 1:
            emit(fish.dumps(record), output)
        else:
            assert output is not None
            make_folder(output)
            emit(fish.dumps(record), output / f"simulated-{first + k}.fish")
            out.print(plain(output / f"simulated-{first + k}.fish"))
