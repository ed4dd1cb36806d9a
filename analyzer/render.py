"""A small document model for reports, rendered two ways: a self-contained HTML page, and Markdown.

Reports and batch summaries build a list of blocks once; ``html_page`` and ``markdown_page`` write
the same content. Plain strings are text from anywhere (the record included): the renderers escape
them, so a title or comment holding markup is shown, never run. Only the structure (spans, links,
tables) is markup. Output is deterministic: no dates, no randomness.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from importlib import resources
from urllib.parse import quote

# ---------------------------------------------------------------- the model


@dataclass(frozen=True)
class Span:
    """Inline structure: ``class`` (a styled span), ``strong``, ``em``, ``link``, ``anchor``."""

    kind: str
    content: tuple[Inline, ...] = ()
    ref: str = ""  # the class, the link target, or the anchor id


Inline = str | Span


def styled(cls: str, *content: Inline) -> Span:
    """Text with a CSS class in HTML (team colours, grid marks, tags); plain in Markdown."""
    return Span("class", content, cls)


def strong(*content: Inline) -> Span:
    return Span("strong", content)


def em(*content: Inline) -> Span:
    return Span("em", content)


def link(target: str, *content: Inline) -> Span:
    """A link; ``#id`` targets an ``anchor`` or a heading id of the same page."""
    return Span("link", content, target)


def anchor(ident: str) -> Span:
    return Span("anchor", (), ident)


def joined(items: Iterable[Sequence[Inline]], sep: Inline = ", ") -> tuple[Inline, ...]:
    """Several inline runs separated by ``sep``."""
    out: list[Inline] = []
    for i, item in enumerate(items):
        if i:
            out.append(sep)
        out.extend(item)
    return tuple(out)


@dataclass(frozen=True)
class Heading:
    level: int
    content: tuple[Inline, ...]
    ident: str = ""


@dataclass(frozen=True)
class Para:
    content: tuple[Inline, ...]
    cls: str = ""


@dataclass(frozen=True)
class Items:
    """A bulleted list."""

    items: tuple[tuple[Inline, ...], ...]


@dataclass(frozen=True)
class Row:
    cells: tuple[tuple[Inline, ...], ...]
    cls: str = ""


@dataclass(frozen=True)
class Table:
    """A table; ``align`` has one of ``l``, ``r``, ``c`` per column."""

    head: tuple[tuple[Inline, ...], ...]
    rows: tuple[Row, ...]
    align: str = ""
    cls: str = ""

    def column_align(self, i: int) -> str:
        return self.align[i] if i < len(self.align) else "l"


@dataclass(frozen=True)
class Chart:
    """An SVG chart: inlined in HTML, written next to the Markdown as ``file`` and linked."""

    file: str
    svg: str
    alt: str


@dataclass(frozen=True)
class Figure:
    chart: Chart
    caption: tuple[Inline, ...] = ()


@dataclass(frozen=True)
class Details:
    """A part the reader can fold: ``<details>`` in HTML; a bold line and the blocks in Markdown."""

    summary: tuple[Inline, ...]
    blocks: tuple[Block, ...]
    open: bool = False


@dataclass(frozen=True)
class Section:
    """A titled part of the page, with an id the contents can link to."""

    ident: str
    title: str
    blocks: tuple[Block, ...]


Block = Heading | Para | Items | Table | Figure | Details | Section


def table_or_none(table: Table, empty: str) -> Block:
    """The table, or a line saying there is nothing to list."""
    return table if table.rows else Para((empty,))


# ---------------------------------------------------------------- HTML

_CARD_RE = re.compile(r"(?<![\w])(?:10|[2-9JQKA])([♠♥♦♣])")


def escape_html(text: str) -> str:
    """Escape text for HTML, then colour cards written with suit symbols (red for ♥ and ♦)."""

    def card(m: re.Match[str]) -> str:
        colour = "red" if m.group(1) in "♥♦" else "black"
        return f'<span class="card {colour}">{m.group(0)}</span>'

    return _CARD_RE.sub(card, html.escape(text, quote=True))


def inline_html(content: Iterable[Inline]) -> str:
    out = []
    for item in content:
        if isinstance(item, str):
            out.append(escape_html(item))
            continue
        inner = inline_html(item.content)
        ref = html.escape(item.ref, quote=True)
        if item.kind == "class":
            out.append(f'<span class="{ref}">{inner}</span>')
        elif item.kind == "strong":
            out.append(f"<strong>{inner}</strong>")
        elif item.kind == "em":
            out.append(f"<em>{inner}</em>")
        elif item.kind == "link":
            out.append(f'<a href="{ref}">{inner}</a>')
        elif item.kind == "anchor":
            out.append(f'<a id="{ref}"></a>')
        else:
            raise ValueError(f"unknown span kind {item.kind!r}")
    return "".join(out)


def _attr(name: str, value: str) -> str:
    return f' {name}="{html.escape(value, quote=True)}"' if value else ""


_ALIGN_CLASS = {"l": "", "r": "r", "c": "c"}


def _table_html(table: Table) -> str:
    def cell(tag: str, i: int, content: tuple[Inline, ...]) -> str:
        cls = _attr("class", _ALIGN_CLASS[table.column_align(i)])
        return f"<{tag}{cls}>{inline_html(content)}</{tag}>"

    lines = [f'<div class="scroll"><table{_attr("class", table.cls)}>']
    lines.append("<thead><tr>" + "".join(cell("th", i, h) for i, h in enumerate(table.head)) + "</tr></thead>")
    lines.append("<tbody>")
    for row in table.rows:
        cells = "".join(cell("td", i, c) for i, c in enumerate(row.cells))
        lines.append(f"<tr{_attr('class', row.cls)}>{cells}</tr>")
    lines.append("</tbody></table></div>")
    return "\n".join(lines)


_SVG_ID_RE = re.compile(r'(\sid="|url\(#|href="#)([^")]+)')


def inline_svg(svg: str) -> str:
    """An SVG file's text as an element to put in a page (no XML declaration or doctype).

    Ids inside are prefixed with the root's id, so two charts on one page share none.
    """
    start = svg.find("<svg")
    if start < 0:
        raise ValueError("not an SVG document")
    body = svg[start:].strip()
    root = re.match(r'<svg[^>]*\sid="([^"]+)"', body)
    if root is None:
        return body
    prefix = root.group(1)

    def rename(m: re.Match[str]) -> str:
        return m.group(0) if m.group(2) == prefix else f"{m.group(1)}{prefix}-{m.group(2)}"

    return _SVG_ID_RE.sub(rename, body)


def block_html(block: Block) -> str:
    if isinstance(block, Heading):
        level = block.level
        return f"<h{level}{_attr('id', block.ident)}>{inline_html(block.content)}</h{level}>"
    if isinstance(block, Para):
        return f"<p{_attr('class', block.cls)}>{inline_html(block.content)}</p>"
    if isinstance(block, Items):
        items = "".join(f"<li>{inline_html(i)}</li>" for i in block.items)
        return f"<ul>{items}</ul>"
    if isinstance(block, Table):
        return _table_html(block)
    if isinstance(block, Figure):
        caption = f"<figcaption>{inline_html(block.caption)}</figcaption>" if block.caption else ""
        label = html.escape(block.chart.alt, quote=True)
        svg = inline_svg(block.chart.svg)
        return f'<figure role="img" aria-label="{label}">{svg}{caption}</figure>'
    if isinstance(block, Details):
        inner = "\n".join(block_html(b) for b in block.blocks)
        state = " open" if block.open else ""
        return f"<details{state}><summary>{inline_html(block.summary)}</summary>\n{inner}\n</details>"
    inner = "\n".join(block_html(b) for b in block.blocks)
    ident = html.escape(block.ident, quote=True)
    return f'<section id="{ident}">\n<h2>{escape_html(block.title)}</h2>\n{inner}\n</section>'


# Scripts and network access are refused outright: the page needs neither, and a record's text
# that slipped through unescaped could not run.
_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:"


def asset(name: str) -> str:
    """A file of ``analyzer/assets`` (styles, the replay page's frame and script), as text."""
    return resources.files("analyzer").joinpath("assets", name).read_text(encoding="utf-8")


# The report's own rules; those it shares with the replay page are in assets/base.css.
CSS = """
body { margin: 0; background: var(--desk); color: var(--ink);
  font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial,
    sans-serif; }
main { max-width: 1120px; margin: 0 auto; padding: 1.5rem 1.25rem 4rem; }
h1 { font-size: 1.9rem; margin: .5rem 0 .25rem; line-height: 1.2; }
h2 { font-size: 1.3rem; margin: 0 0 .75rem; }
h3 { font-size: 1.05rem; margin: 1.25rem 0 .5rem; }
p { margin: .5rem 0; }
section { background: var(--paper); border: 1px solid var(--line); border-radius: 12px;
  padding: 1.1rem 1.35rem; margin: 1.1rem 0; box-shadow: 0 1px 2px rgba(15, 23, 42, .04); }
nav.toc { display: flex; flex-wrap: wrap; gap: .35rem .9rem; font-size: .92rem; }
nav.toc a { text-decoration: none; }
.sub { color: var(--muted); margin-top: 0; }
.banner { font-size: 1.25rem; margin: 1rem 0; padding: .8rem 1.1rem; border-radius: 10px;
  background: linear-gradient(90deg, var(--t1-soft), var(--paper) 50%, var(--t2-soft));
  border: 1px solid var(--line); }
.score { font-size: 2rem; font-weight: 700; font-variant-numeric: tabular-nums;
  margin-right: .6rem; }
.tag { display: inline-block; font-size: .74rem; line-height: 1.35; padding: 0 .45rem;
  margin: .05rem .2rem .05rem 0;
  border-radius: 999px; background: var(--bad-soft); color: var(--bad); white-space: nowrap; }
a .tag { text-decoration: none; }
.scroll { overflow-x: auto; margin: .5rem 0 1rem; }
table { border-collapse: collapse; font-variant-numeric: tabular-nums; font-size: .93rem; }
th, td { padding: .28rem .6rem; border-bottom: 1px solid var(--line); text-align: left;
  vertical-align: top; white-space: nowrap; }
/* A wide table's headings take two lines, not the screen's width. */
thead th { white-space: normal; min-width: 3.5rem; }
tbody tr:nth-child(even) { background: #fafbfd; }
tbody tr:hover { background: #f1f5f9; }
th.r, td.r { text-align: right; }
th.c, td.c { text-align: center; }
tr.claim { background: #fffbeb !important; }
tr.broken { background: #fef3c7 !important; }
tr.untrusted td { color: var(--muted); }
tr.note td { color: var(--muted); font-style: italic; }
tr.total td { font-weight: 600; border-top: 2px solid var(--line); }
table.grid td, table.grid th { padding: .12rem .5rem; }
table.grid tr.book-start td { border-top: 2px solid #cbd5e1; }
.o1, .o2, .o3, .o4, .o5 { min-width: 2.6em; }
figure { margin: .5rem 0 1.25rem; }
figure svg { width: 100%; max-width: 680px; height: auto; display: block; }
figcaption { color: var(--muted); font-size: .9rem; }
details { margin: .4rem 0; border: 1px solid var(--line); border-radius: 8px;
  padding: .35rem .8rem; }
details > summary { cursor: pointer; font-weight: 600; }
details[open] > summary { margin-bottom: .4rem; }
ul { margin: .4rem 0; padding-left: 1.3rem; }
h3 .tag, p .tag { font-size: .8rem; }
@media (max-width: 520px) {
  body { font-size: 14px; }
  main { padding: .75rem .45rem 3rem; }
  h1 { font-size: 1.45rem; }
  section { padding: .75rem .6rem; border-radius: 8px; }
  .banner { font-size: 1.05rem; padding: .6rem .7rem; }
  .score { font-size: 1.6rem; }
  th, td { padding: .22rem .4rem; }
  table.grid td, table.grid th { padding: .1rem .28rem; }
  .o1, .o2, .o3, .o4, .o5 { min-width: 2.3em; }
}
@media print {
  @page { margin: 12mm; }
  body { background: #fff; font-size: 10.5pt; }
  main { max-width: none; padding: 0; }
  nav.toc { display: none; }
  section { box-shadow: none; border: none; padding: 0; margin: 0 0 1rem; }
  details { border: none; padding: 0; }
  details::details-content { content-visibility: visible; display: block; }
  details > summary { list-style: none; }
  .scroll { overflow: visible; }
  table, figure, h3 { break-inside: avoid; }
  h2, h3 { break-after: avoid; }
  figure svg { max-width: 17cm; }
  a { color: inherit; text-decoration: none; }
  .o1, .o2, .o3, .o4, .o5, .tag, th, tr.claim { print-color-adjust: exact; -webkit-print-color-adjust: exact; }
}
"""


def html_page(title: str, blocks: Sequence[Block], nav: bool = True) -> str:
    """A complete, self-contained HTML page (inline CSS, inline SVG, no script, no network)."""
    parts = [block_html(b) for b in blocks]
    sections = [b for b in blocks if isinstance(b, Section)]
    if nav and len(sections) > 1:
        links = "".join(f'<a href="#{html.escape(s.ident, quote=True)}">{escape_html(s.title)}</a>' for s in sections)
        first = next(i for i, b in enumerate(blocks) if isinstance(b, Section))
        parts.insert(first, f'<nav class="toc">{links}</nav>')
    body = "\n".join(parts)
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f'<meta http-equiv="Content-Security-Policy" content="{_CSP}">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        '<meta name="generator" content="halfsuit">\n'
        f"<title>{html.escape(title)}</title>\n<style>{asset('base.css')}{CSS}</style>\n</head>\n"
        f"<body>\n<main>\n{body}\n</main>\n</body>\n</html>\n"
    )


# ---------------------------------------------------------------- Markdown

_MD_SPECIAL = re.compile(r"([\\`*_\[\]<>|#!~&])")


def escape_md(text: str) -> str:
    """Escape text so Markdown shows it as written (no emphasis, links, HTML or table breaks)."""
    return _MD_SPECIAL.sub(r"\\\1", text.replace("\n", " "))


def inline_md(content: Iterable[Inline]) -> str:
    out = []
    for item in content:
        if isinstance(item, str):
            out.append(escape_md(item))
            continue
        inner = inline_md(item.content)
        if item.kind == "class":
            out.append(inner)
        elif item.kind == "strong":
            out.append(f"**{inner}**" if inner else "")
        elif item.kind == "em":
            out.append(f"*{inner}*" if inner else "")
        elif item.kind == "link":
            out.append(f"[{inner}]({item.ref})")
        elif item.kind == "anchor":
            out.append(f'<a id="{html.escape(item.ref, quote=True)}"></a>')
        else:
            raise ValueError(f"unknown span kind {item.kind!r}")
    return "".join(out)


_MD_ALIGN = {"l": "---", "r": "--:", "c": ":-:"}


def _table_md(table: Table) -> str:
    def row(cells: Iterable[tuple[Inline, ...]]) -> str:
        return "| " + " | ".join(inline_md(c) for c in cells) + " |"

    lines = [row(table.head)]
    lines.append("|" + "|".join(_MD_ALIGN[table.column_align(i)] for i in range(len(table.head))) + "|")
    lines.extend(row(r.cells) for r in table.rows)
    return "\n".join(lines)


def block_md(block: Block) -> str:
    """One block in Markdown."""
    if isinstance(block, Heading):
        anchor_tag = f'<a id="{html.escape(block.ident, quote=True)}"></a>' if block.ident else ""
        return f"{'#' * block.level} {inline_md(block.content)}{anchor_tag}".rstrip()
    if isinstance(block, Para):
        return inline_md(block.content)
    if isinstance(block, Items):
        return "\n".join(f"- {inline_md(i)}" for i in block.items)
    if isinstance(block, Table):
        return _table_md(block)
    if isinstance(block, Figure):
        img = f"![{escape_md(block.chart.alt)}]({quote(block.chart.file)})"
        return f"{img}\n\n{inline_md(block.caption)}" if block.caption else img
    if isinstance(block, Details):
        inner = "\n\n".join(block_md(b) for b in block.blocks)
        return f"**{inline_md(block.summary)}**\n\n{inner}"
    inner = "\n\n".join(block_md(b) for b in block.blocks)
    return f'## {escape_md(block.title)}<a id="{html.escape(block.ident, quote=True)}"></a>\n\n{inner}'


def markdown_page(blocks: Sequence[Block]) -> str:
    return "\n\n".join(block_md(b) for b in blocks).rstrip() + "\n"
