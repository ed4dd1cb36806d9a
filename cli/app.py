"""The ``halfsuit`` app: one module per command group, each loaded only when one of its commands
runs (or shows its help).

``halfsuit --help`` reads the commands' first lines from their modules, which load nothing of the
library at import; running a command builds that command alone from its declaration (typer reads
every parameter of a command, a few milliseconds each) and imports what its body uses.
"""

from __future__ import annotations

import functools
import importlib
from typing import Annotated

import typer
from typer._click import Command, Context, HelpFormatter
from typer._click.exceptions import UsageError
from typer._click.utils import make_default_short_help
from typer.core import TyperGroup
from typer.main import get_command_from_info
from typer.models import CommandInfo

# Each command, in the order --help lists them: the module (in cli/) that declares it, and the
# first paragraph of its help (its docstring's; a test keeps them the same), which --help lists
# without loading any command's module.
COMMANDS = {
    "validate": (
        "records",
        "Check records: their format, every rule of play, their Hand lines, and that some deal fits.",
    ),
    "format": ("records", "Write a record in canonical form (to stdout, or back to the files with --in-place)."),
    "convert": ("records", "Convert a record between the .fish text form and the JSON form (both round-trip)."),
    "simulate": (
        "simulate_cmd",
        "Simulate complete legal games between sensible bots and write their records (with every hand).",
    ),
    "show": ("records", "Teams, score, card counts and the events as a readable table."),
    "score": ("score", "Score a game at the table: the teams (and hands, if known), then one event a line."),
    "state": ("deduce", "Every card in play: who can hold it (known, possible, impossible), in one view at one step."),
    "who-has": (
        "deduce",
        "Who can have a card: the holders, and why every other player is ruled out (or why the holder is known).",
    ),
    "hand": ("deduce", "A player's known and possible cards, by book."),
    "analyze": (
        "deduce",
        "The whole game at once: every step in every view (public and each Hand), claims, threats, mistakes.",
    ),
    "deal": (
        "deal",
        "Who was dealt each card, as far as the record fixes it: in every deal that fits, the same player.",
    ),
    "claims": ("tactics_cmds", "Books that can be claimed in a view, with the declaration to make."),
    "threats": ("tactics_cmds", "Books each player could take if given the turn, judged in their own view."),
    "lockouts": ("tactics_cmds", "Books threatened from both sides, and the opponents each team must not ask."),
    "mistakes": (
        "tactics_cmds",
        "Missed claims, wrong claims, broken lockouts, hopeless asks and rule breaks (read leniently).",
    ),
    "odds": ("odds_cmds", "Exact odds that each player holds each card, counting every fitting deal."),
    "suggest": (
        "odds_cmds",
        "Advice for the player on turn: legal asks ranked by exact odds, and claims with their odds.",
    ),
    "report": (
        "reports",
        "Write a post-game report: an HTML page and its Markdown twin with charts (SVG), and a replay page.",
    ),
    "replay": (
        "reports",
        "Write a replay page: one HTML file to step through the game in every view (opens from disk).",
    ),
    "batch": (
        "reports",
        "Analyze every record in a folder: per-game and per-player tables and a summary page with charts.",
    ),
    "bench": ("bench", "Time `analyze` (every step, every view) on simulated 6- and 8-player games; peak memory too."),
    "tournament": ("tournament", "Play bots against each other in duplicate pairs and rank them."),
    "mistake-costs": (
        "tournament",
        "What each kind of mistake cost in played games: how often the team lost the book, and the points.",
    ),
}

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


@functools.cache
def declarations(module: str) -> dict[str, CommandInfo]:
    """The commands a module declares (its ``register``), by name, each with its example."""
    group = typer.Typer()
    importlib.import_module(f"cli.{module}").register(group)
    found = {}
    for info in group.registered_commands:
        name = info.name or (info.callback.__name__.replace("_", "-") if info.callback else "")
        if info.epilog is None and name in EXAMPLES:
            info.epilog = f"Example: {EXAMPLES[name]}"
        found[name] = info
    return found


def declared(name: str) -> CommandInfo:
    """The declaration of one command."""
    return declarations(COMMANDS[name][0])[name]


class Commands(TyperGroup):
    """The commands of ``halfsuit``, each built when it is asked for."""

    def list_commands(self, ctx: Context) -> list[str]:
        return list(COMMANDS)

    def get_command(self, ctx: Context, cmd_name: str) -> Command | None:
        if cmd_name not in self.commands and cmd_name in COMMANDS:
            self.commands[cmd_name] = get_command_from_info(
                declared(cmd_name), pretty_exceptions_short=app.pretty_exceptions_short, rich_markup_mode=None
            )
        return self.commands.get(cmd_name)

    def format_commands(self, ctx: Context, formatter: HelpFormatter) -> None:
        """The list of commands with the first words of each one's help (no command is loaded)."""
        limit = formatter.width - 6 - max(len(name) for name in COMMANDS)
        with formatter.section("Commands"):
            formatter.write_dl([(name, make_default_short_help(text, limit)) for name, (_, text) in COMMANDS.items()])

    def resolve_command(self, ctx: Context, args: list[str]) -> tuple[str | None, Command | None, list[str]]:
        try:
            return self._click_resolve_command(ctx, args)
        except UsageError as exc:
            from difflib import get_close_matches

            matches = get_close_matches(args[0], list(COMMANDS)) if args else []
            if matches:
                exc.message = f"{exc.message.rstrip('.')}. Did you mean {', '.join(repr(m) for m in matches)}?"
            raise


app = typer.Typer(
    name="halfsuit",
    help="Exact deduction, tactics and reports for recorded games of Literature / Fish.",
    cls=Commands,
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
    from .common import DEBUG

    DEBUG["on"] = debug
