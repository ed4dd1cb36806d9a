"""The ``halfsuit`` app: one module per command group."""

from __future__ import annotations

from typing import Annotated

import typer

from . import bench, deal, deduce, odds_cmds, records, reports, score, tactics_cmds, tournament
from .common import DEBUG

app = typer.Typer(
    name="halfsuit",
    help="Exact deduction, tactics and reports for recorded games of Literature / Fish.",
    no_args_is_help=True,
    add_completion=True,
    pretty_exceptions_enable=False,
    # Plain help: no type noise (<bool>, <list[int]>), and it starts without loading rich's
    # Markdown and typer's rich formatting.
    rich_markup_mode=None,
)


def show_version(value: bool) -> None:
    if value:
        from analyzer import __version__

        print(f"halfsuit {__version__}")
        raise typer.Exit()


@app.callback()
def root(
    debug: Annotated[bool, typer.Option("--debug", help="Show the full traceback of an error.")] = False,
    version: Annotated[
        bool, typer.Option("--version", callback=show_version, is_eager=True, help="Print the version and exit.")
    ] = False,
) -> None:
    """halfsuit reads game records and works out exactly who can hold every card."""
    DEBUG["on"] = debug


for group in (records, score, deduce, deal, tactics_cmds, odds_cmds, reports, bench, tournament):
    group.register(app)

# One example per command, shown at the end of its --help.
EXAMPLES = {
    "validate": "halfsuit validate sample_logs/lockout.fish --lenient",
    "format": "halfsuit format game.fish --in-place",
    "convert": "halfsuit convert sample_logs/lockout.fish --to json --out lockout.json",
    "simulate": "halfsuit simulate --players 8 --deck jokers --count 20 --out games/",
    "show": "halfsuit show sample_logs/lockout.fish --at 11",
    "state": "halfsuit state sample_logs/lockout.fish --at 11 --as Ben",
    "who-has": "halfsuit who-has 7S sample_logs/lockout.fish --at 11",
    "hand": "halfsuit hand Eli sample_logs/lockout.fish --at 11 --as Ben",
    "analyze": "halfsuit analyze sample_logs/simulated-game.fish --json > analysis.json",
    "deal": "halfsuit deal sample_logs/lockout.fish",
    "claims": "halfsuit claims sample_logs/six-and-seven.fish --at 7 --as Anna",
    "threats": "halfsuit threats sample_logs/lockout.fish --at 11",
    "lockouts": "halfsuit lockouts sample_logs/lockout.fish --at 11",
    "mistakes": "halfsuit mistakes sample_logs/simulated-game.fish --bits",
    "odds": "halfsuit odds sample_logs/lockout.fish --at 11 --as Ben",
    "suggest": "halfsuit suggest sample_logs/lockout.fish --as Ben --at 11",
    "report": "halfsuit report sample_logs/simulated-game.fish --out reports/",
    "replay": "halfsuit replay sample_logs/simulated-game.fish --out reports/",
    "batch": "halfsuit batch games/ --out summary/ --workers 2",
    "bench": "halfsuit bench --games 2 --no-cpsat     halfsuit bench --startup",
    "tournament": "halfsuit tournament --bots counter,simple --games 100 --out games/",
    "mistake-costs": "halfsuit mistake-costs games/ --json",
    "score": "halfsuit score friday.fish   (then one event a line as it is played; quit or Ctrl-D ends)",
}
for command in app.registered_commands:
    name = command.name or (command.callback.__name__.replace("_", "-") if command.callback else "")
    if name in EXAMPLES and not command.epilog:
        command.epilog = f"Example: {EXAMPLES[name]}"
