"""Report charts drawn with matplotlib as SVG text, byte for byte the same on every run.

Figures are built with ``matplotlib.figure.Figure`` and saved by the SVG backend, so pyplot and
any GUI backend stay out (the same as running under Agg). Ids in the SVG come from a fixed salt
per chart and the file carries no date, so golden files and diffs stay stable.
"""

from __future__ import annotations

import io
import re
from collections.abc import Mapping, Sequence
from typing import Any

import matplotlib
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

TEAM_COLOURS = {1: "#0f766e", 2: "#a21caf"}
PUBLIC_COLOUR = "#64748b"
_STYLE: dict[Any, Any] = {
    "font.family": "DejaVu Sans",
    "font.size": 10,
    "axes.edgecolor": "#cbd5e1",
    "axes.labelcolor": "#334155",
    "axes.spines.top": False,
    "axes.spines.right": False,
    "xtick.color": "#475569",
    "ytick.color": "#475569",
    "svg.fonttype": "none",  # real <text>: smaller files, selectable labels
}


def svg_text(fig: Figure, name: str) -> str:
    """The figure as SVG text; ``name`` salts the ids so two charts on one page never share one."""
    buf = io.StringIO()
    ident = re.sub(r"[^A-Za-z0-9_-]", "-", name)
    rc: dict[Any, Any] = {**_STYLE, "svg.hashsalt": f"halfsuit-{name}", "svg.id": f"chart-{ident}"}
    with matplotlib.rc_context(rc):
        fig.savefig(buf, format="svg", metadata={"Date": None, "Creator": None})
    return buf.getvalue()


def _steps(values: Sequence[int]) -> tuple[list[int], list[int]]:
    """The points where a step series changes (and its ends): the same drawing, a smaller file."""
    xs = [i for i, v in enumerate(values) if i in (0, len(values) - 1) or v != values[i - 1]]
    return xs, [values[i] for i in xs]


def _figure(width: float, height: float) -> Figure:
    with matplotlib.rc_context(_STYLE):
        return Figure(figsize=(width, height))


def _margins(fig: Figure, left: float, bottom: float, top: float, hspace: float = 0.0) -> None:
    """Fixed margins in inches (a constrained layout would cost a second drawing)."""
    width, height = fig.get_size_inches()
    fig.subplots_adjust(
        left=left / width,
        right=1 - 0.15 / width,
        bottom=bottom / height,
        top=1 - top / height,
        wspace=0.08,
        hspace=hspace,
    )


def known_chart(
    name: str,
    public: Sequence[int],
    players: Mapping[str, Sequence[int]],
    teams: Mapping[str, int],
    in_play: Sequence[int],
    claims: Sequence[int],
) -> str:
    """Cards whose holder is known after each step: a panel per player, their view against public.

    Panels are laid out a team to a column, so the chart stays narrow enough to read on a phone.
    ``claims`` are the events that were claims (light rules). With no player views, one panel
    shows the public view alone.
    """
    columns = [[p for p in players if teams[p] == t] for t in (1, 2)]
    columns = [c for c in columns if c] or [[]]
    rows = max(1, *(len(c) for c in columns))
    fig = _figure(2.6 * len(columns), 1.3 * rows + 0.75)
    with matplotlib.rc_context(_STYLE):
        axes = fig.subplots(rows, len(columns), sharex=True, sharey=True, squeeze=False)
        last = max(1, len(public) - 1)
        top = max(in_play, default=1) + 1
        for c, column in enumerate(columns):
            for r in range(rows):
                ax = axes[r][c]
                if r >= len(column) and column:
                    ax.set_visible(False)
                    continue
                ax.fill_between(*_steps(in_play), color="#e2e8f0", step="post", linewidth=0)
                for event in claims:
                    ax.axvline(event, color="#cbd5e1", linewidth=0.6, zorder=0)
                ax.step(
                    *_steps(public),
                    where="post",
                    color=PUBLIC_COLOUR,
                    linewidth=1.2,
                    linestyle="--",
                    label="public",
                )
                if column:
                    player = column[r]
                    colour = TEAM_COLOURS[teams[player]]
                    ax.step(
                        *_steps(players[player]),
                        where="post",
                        color=colour,
                        linewidth=1.8,
                        label=player,
                    )
                    ax.set_title(player, color=colour, fontsize=10, fontweight="bold", loc="left", pad=2)
                else:
                    ax.set_title("public view", fontsize=10, loc="left", pad=2)
                ax.set_ylim(0, top)
                ax.set_xlim(0, last)
                ax.yaxis.set_major_locator(MaxNLocator(integer=True, nbins=3))
                ax.xaxis.set_major_locator(MaxNLocator(integer=True, nbins=4))
                ax.grid(axis="y", color="#eef2f7", linewidth=0.6)
        fig.supxlabel("after event", fontsize=10, color="#334155")
        fig.supylabel("cards known", fontsize=10, color="#334155")
        _margins(fig, left=0.7, bottom=0.55, top=0.2, hspace=0.45)
    return svg_text(fig, name)


def score_chart(name: str, scores: Sequence[tuple[int, int]], labels: tuple[str, str]) -> str:
    """Both teams' scores after each step, as steps (they change only at claims)."""
    fig = _figure(5.2, 2.4)
    with matplotlib.rc_context(_STYLE):
        ax = fig.subplots()
        for team in (1, 2):
            series = _steps([s[team - 1] for s in scores])
            colour = TEAM_COLOURS[team]
            ax.step(*series, where="post", color=colour, linewidth=2, label=labels[team - 1])
        ax.set_xlim(0, max(1, len(scores) - 1))
        ax.set_ylim(0, max([max(s) for s in scores] + [1]) + 0.5)
        ax.yaxis.set_major_locator(MaxNLocator(integer=True))
        ax.xaxis.set_major_locator(MaxNLocator(integer=True, nbins=5))
        ax.grid(axis="y", color="#eef2f7", linewidth=0.6)
        ax.set_xlabel("after event")
        ax.set_ylabel("points")
        ax.legend(loc="upper left", frameon=False, fontsize=9)
        _margins(fig, left=0.55, bottom=0.5, top=0.1)
    return svg_text(fig, name)


# ---------------------------------------------------------------- batch summaries

SERIES_COLOURS = ("#15803d", "#b91c1c", "#94a3b8", "#cbd5e1")  # won / lost / tied / unfinished, right / wrong


def stacked_bars(
    name: str,
    labels: Sequence[str],
    series: Mapping[str, Sequence[float]],
    xlabel: str,
    colours: Sequence[str] = SERIES_COLOURS,
) -> str:
    """Horizontal stacked bars, one row per label (top to bottom in the given order).

    Rows of text on the left and a legend on top: readable at a phone's width.
    """
    fig = _figure(5.2, 0.34 * max(len(labels), 1) + 1.1)
    with matplotlib.rc_context(_STYLE):
        ax = fig.subplots()
        rows = list(range(len(labels)))
        left = [0.0] * len(labels)
        for (label, values), colour in zip(series.items(), colours, strict=False):
            ax.barh(rows, values, left=left, color=colour, label=label, height=0.62)
            left = [a + b for a, b in zip(left, values, strict=True)]
        ax.set_yticks(rows, [_short(t) for t in labels])
        ax.invert_yaxis()
        ax.xaxis.set_major_locator(MaxNLocator(integer=True, nbins=5))
        ax.grid(axis="x", color="#eef2f7", linewidth=0.6)
        ax.set_axisbelow(True)
        ax.set_xlabel(xlabel)
        if len(series) > 1:
            ax.legend(
                loc="lower left", bbox_to_anchor=(0, 1.0), ncol=len(series), frameon=False, fontsize=9,
                borderaxespad=0.2, handlelength=1.2,
            )  # fmt: skip
        longest = max((len(_short(t)) for t in labels), default=4)
        _margins(fig, left=min(2.2, 0.25 + 0.075 * longest), bottom=0.5, top=0.4 if len(series) > 1 else 0.15)
    return svg_text(fig, name)


def _short(text: str, width: int = 28) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def histogram(name: str, values: Sequence[int], xlabel: str, ylabel: str) -> str:
    """How many values fall in each of about a dozen equal ranges."""
    fig = _figure(5.2, 2.4)
    with matplotlib.rc_context(_STYLE):
        ax = fig.subplots()
        ax.hist(list(values), bins=min(12, max(1, len(set(values)))), color=PUBLIC_COLOUR, edgecolor="#ffffff")
        ax.yaxis.set_major_locator(MaxNLocator(integer=True, nbins=5))
        ax.grid(axis="y", color="#eef2f7", linewidth=0.6)
        ax.set_axisbelow(True)
        ax.set_xlabel(xlabel)
        ax.set_ylabel(ylabel)
        _margins(fig, left=0.6, bottom=0.5, top=0.15)
    return svg_text(fig, name)
