"""The ``deal`` command: the deal in hindsight, and filling in the Hand lines it fixes."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

if TYPE_CHECKING:
    from analyzer.hindsight import Hindsight

from .common import JsonOpt, LenientOpt, RecordArg, handles_errors, load_game, out, plain, print_json, team_style

STATUS = {"written": "Hand line", "worked out": "worked out from the record", "unknown": ""}


def register(app: typer.Typer) -> None:
    app.command("deal")(deal_cmd)


@handles_errors
def deal_cmd(
    path: RecordArg,
    fill: Annotated[
        bool,
        typer.Option("--fill", help="Write the Hand lines the record fixes completely into it (canonical form)."),
    ] = False,
    json_out: JsonOpt = False,
    lenient: LenientOpt = False,
) -> None:
    """Who was dealt each card, as far as the record fixes it: in every deal that fits, the same player.

    Unknown cards are shown as '?'. With --fill the hands fixed completely are written into the
    record as Hand lines (a hand with an open card is never written).
    """
    from analyzer import record as fish
    from analyzer import record_json
    from analyzer.files import write_text_atomic
    from analyzer.hindsight import deal_in_hindsight

    game = load_game(path, lenient)

    found = deal_in_hindsight(game)
    new = list(found.worked_out)
    if fill and new:
        text = record_json.dumps(found.filled()) if path.suffix.lower() == ".json" else fish.dumps(found.filled())
        write_text_atomic(path, text)
    if json_out:
        print_json({"path": str(path), **found.to_dict(), "filled": new if fill else []})
        return
    render(found)
    if fill:
        if new:
            out.print(f"wrote Hand lines for {plain(', '.join(new))} into {plain(path)}")
        else:
            out.print("no hand without a Hand line is fixed completely: the record is unchanged")


def render(found: Hindsight) -> None:
    from rich.text import Text

    from analyzer.wording import either, plural

    record = found.record
    width = max(len(p) for p in record.players)
    read = plural(found.upto, "event") + (", every Hand line" if record.hands else "")
    out.print(f"[bold]The deal[/bold], as the record fixes it ({read}):")
    for p in record.players:
        line = Text(f"{p:<{width}}  ", style=team_style(record.table.team_of(p)))
        line.append(" ".join(c.pretty for c in found.fixed(p)))
        missing = found.unknown(p)
        if missing:
            line.append((" " if found.fixed(p) else "") + " ".join("?" * missing), style="yellow")
        status = found.hand_status(p)
        note = STATUS[status] if status != "unknown" else f"{plural(missing, 'card')} open"
        line.append(f"  ({note})", style="dim")
        out.print(line)
    open_cards = [(c, ps) for c, ps in found.dealt.items() if len(ps) > 1]
    if open_cards:
        out.print(f"[bold]Open[/bold] ({plural(len(open_cards), 'card')}), and who may have been dealt each:")
        for c, ps in open_cards:
            out.print(f"  {c.pretty}: {'anyone' if len(ps) == len(record.players) else plain(either(ps))}")
