"""The ``halfsuit`` app: one module per command group."""

from __future__ import annotations

from typing import Annotated

import typer

from . import bench, deal, deduce, odds_cmds, records, reports, score, tactics_cmds
from .common import DEBUG

app = typer.Typer(
    name="halfsuit",
    help="Exact deduction, tactics and reports for recorded games of Literature / Fish.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


@app.callback()
def root(
    debug: Annotated[bool, typer.Option("--debug", help="Show the full traceback of an error.")] = False,
) -> None:
    """halfsuit reads game records and works out exactly who can hold every card."""
    DEBUG["on"] = debug


for group in (records, score, deduce, deal, tactics_cmds, odds_cmds, reports, bench):
    group.register(app)
