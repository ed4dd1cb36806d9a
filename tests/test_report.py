"""Post-game reports, batch summaries and their commands.

The Markdown of two reports is compared byte for byte with golden files; after a deliberate
change, ``scripts/regen_golden.py`` rewrites them (and the sample report under ``reports/``).
"""

from __future__ import annotations

import functools
import re
import shutil
import signal
import subprocess
from collections.abc import Iterable
from dataclasses import replace
from pathlib import Path
from unittest import mock

import polars as pl
import pytest
from markdown_it import MarkdownIt
from typer.testing import CliRunner

from analyzer import record_json
from analyzer.batch import BatchResult, run_batch
from analyzer.errors import UsageError
from analyzer.files import write_bytes_atomic
from analyzer.record import dumps, load, loads
from analyzer.render import escape_md
from analyzer.replay import Game, replay
from analyzer.report import Report, build_report, write_report
from analyzer.rules import PlayState
from analyzer.simulate import simulate
from cli.main import app

TESTS = Path(__file__).resolve().parent
DATA = TESTS / "data"
SAMPLE_LOGS = TESTS.parent / "sample_logs"
GOLDEN_DIR = TESTS / "golden"
# golden file -> (record in tests/data, view of the grids). shared/g201.fish is a whole simulated
# game with every hand; markup.fish is its start with two hands and markup in the title, an X-
# field and comments.
GOLDEN = {
    "g201.md": ("shared/g201.fish", "public"),
    "markup.md": ("markup.fish", "Anna"),
}
PLAYERS = ("Anna", "Ben", "Cara", "Dev", "Eli", "Fay")


@functools.cache
def report_of(record: str, view: str = "public") -> Report:
    """The report of a record in tests/data, built once per test session."""
    return build_report(replay(load(DATA / record)), view)


def golden_markdown(record: str, view: str) -> str:
    return report_of(record, view).markdown()


@pytest.fixture(scope="module")
def g201() -> tuple[str, str]:
    report = report_of("shared/g201.fish")
    return report.html(), report.markdown()


@pytest.fixture(scope="module")
def markup() -> tuple[str, str]:
    report = report_of("markup.fish", "Anna")
    return report.html(), report.markdown()


# ---------------------------------------------------------------- golden Markdown


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_markdown_matches_golden(name: str) -> None:
    record, view = GOLDEN[name]
    expected = (GOLDEN_DIR / name).read_text(encoding="utf-8")
    assert golden_markdown(record, view) == expected, "run scripts/regen_golden.py and read the diff"


def test_files_are_named_after_the_record_and_deterministic(tmp_path: Path) -> None:
    game = replay(load(DATA / "markup.fish"))
    first = write_report(game, tmp_path / "a")
    second = write_report(replay(load(DATA / "markup.fish")), tmp_path / "b")
    assert [p.name for p in first.paths] == [
        "markup.html", "markup.md", "markup-known.svg", "markup-score.svg", "markup-replay.html",
    ]  # fmt: skip
    for a, b in zip(first.paths, second.paths, strict=True):
        assert a.read_bytes() == b.read_bytes(), a.name
    md = first.markdown.read_text(encoding="utf-8")
    for chart in first.charts:
        assert f"]({chart.name})" in md
        svg = chart.read_text(encoding="utf-8")
        assert svg.startswith("<?xml") and "<dc:date>" not in svg


def test_chart_links_survive_a_file_name_with_a_space(tmp_path: Path) -> None:
    path = tmp_path / "friday night.fish"
    shutil.copy(DATA / "markup.fish", path)
    files = write_report(replay(load(path)), tmp_path / "out")
    assert files.charts[0].name == "friday night-known.svg"
    assert "](friday%20night-known.svg)" in files.markdown.read_text(encoding="utf-8")
    assert 'id="chart-friday-night-known"' in files.html.read_text(encoding="utf-8")


def test_ctrl_c_while_the_replay_page_is_made_leaves_no_file(tmp_path: Path) -> None:
    """The report's files are all made before any goes in place: an interrupt while the replay
    page is made (the last and slowest) once left the other files written."""
    game = replay(load(DATA / "markup.fish"))

    def interrupted(data: object) -> str:
        raise KeyboardInterrupt

    with mock.patch("analyzer.report.replay_html", interrupted), pytest.raises(KeyboardInterrupt):
        write_report(game, tmp_path / "out")
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())


def test_ctrl_c_while_the_files_go_in_place_comes_once_they_all_are(tmp_path: Path) -> None:
    """A Ctrl-C as the first file goes in place is held until the last one is: the whole set."""
    game = replay(load(DATA / "markup.fish"))
    calls: list[Path] = []

    def write_then_ctrl_c(path: Path, data: bytes, *, inputs: Iterable[str | Path] = ()) -> Path:
        calls.append(path)
        if len(calls) == 1:
            signal.raise_signal(signal.SIGINT)
        return write_bytes_atomic(path, data, inputs=inputs)

    with mock.patch("analyzer.report.write_bytes_atomic", write_then_ctrl_c), pytest.raises(KeyboardInterrupt):
        write_report(game, tmp_path / "out")
    written = sorted(p.name for p in (tmp_path / "out").iterdir())
    assert written == sorted(p.name for p in calls) and "markup-replay.html" in written and "markup.md" in written


# ---------------------------------------------------------------- the page


def test_html_has_score_players_books_and_mistakes(g201: tuple[str, str]) -> None:
    html, _ = g201
    assert "4–4" in html and "tie" in html
    for p in PLAYERS:
        assert f'<span class="t1">{p}</span>' in html or f'<span class="t2">{p}</span>' in html
    for book in ("low spades", "high clubs"):
        assert book in html
    assert "79 mistakes" in html
    assert 'id="mistake-1"' in html and 'href="#mistake-1"' in html
    assert 'id="event-116"' in html and 'href="#event-116"' in html
    assert "Every player has a Hand line" in html
    assert '<span class="card red">4♥</span>' in html
    cards = html.split('<section id="cards">')[1].split("</section>")[0]
    assert cards.count("<details") == 8  # a grid before each of the 8 claims
    found = html.split('<section id="mistakes">')[1].split("</section>")[0]
    assert found.count("<h3") == 79 and found.count('<table class="grid">') == 79  # each with its book's grid
    assert found.count("<details><summary>Why: how ") == 79  # and how the player could know


def test_html_is_self_contained(g201: tuple[str, str]) -> None:
    html, _ = g201
    assert "<script" not in html
    assert "<link" not in html and "@import" not in html
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", html)
    assert html.count("<svg") == 2
    assert "Content-Security-Policy" in html
    ids = re.findall(r'\sid="([^"]+)"', html)
    assert len(ids) == len(set(ids)), "ids are unique, the two charts' included"
    refs = set(re.findall(r"url\(#([^)]+)\)", html)) | set(re.findall(r'href="#([^"]+)"', html))
    assert refs <= set(ids), sorted(refs - set(ids))


def test_record_text_is_escaped_in_html(markup: tuple[str, str]) -> None:
    html, _ = markup
    assert "<script" not in html and "<img" not in html and "<b>" not in html
    assert "&lt;script&gt;alert(&quot;title&quot;)&lt;/script&gt; &amp; &lt;b&gt;friends&lt;/b&gt;" in html
    assert "&lt;script&gt;alert(&quot;comment&quot;)&lt;/script&gt;" in html
    assert "&lt;img src=x onerror=&quot;alert(&#x27;x-field&#x27;)&quot;&gt;" in html
    assert "&lt;b&gt;opening&lt;/b&gt; [link](http://example.com)" in html


def test_record_text_is_escaped_in_markdown(markup: tuple[str, str]) -> None:
    _, md = markup
    assert md.startswith('# \\<script\\>alert("title")\\</script\\> \\& \\<b\\>friends\\</b\\>\n')
    assert not re.search(r"(?<!\\)<(script|img)", md)
    rendered = MarkdownIt("commonmark").enable("table").render(md)  # as a Markdown viewer would
    assert "<script" not in rendered and "<img src=x" not in rendered and "<b>" not in rendered
    assert "&lt;script&gt;alert(&quot;comment&quot;)&lt;/script&gt;" in rendered
    assert "<td>Anna asks Dev for 4♥  # a | pipe &amp; <code>" not in rendered
    assert "a | pipe &amp; `code`</td>" in rendered
    assert "a \\| pipe \\& \\`code\\`" in md  # a pipe in a comment does not break the table
    assert "\\[link\\](http://example.com) \\_under\\_" in md


def test_unfinished_record_partial_hands_and_a_player_view(markup: tuple[str, str]) -> None:
    html, md = markup
    assert "1–0" in md and "so far: unfinished, the record stops after 14 events" in md
    assert "Score:** 1–0 so far" in md
    assert "Hand not known (no Hand line, and the record does not fix it): Ben, Eli, Cara, Fay" in md
    assert "The record is unfinished: it stops after event 14." in md
    assert "grids as Anna sees them" in md
    assert "After event 10, just before Anna claims low hearts" in md
    assert "After event 14, where the record ends" in md
    assert "still in play" in md
    assert "(no Hand line)" in html


def test_moments_and_views_are_checked() -> None:
    game = replay(load(DATA / "markup.fish"))
    md = build_report(game, moments=[0, 3, 3]).markdown()
    assert md.count("After the deal") == 1 and "After event 3**" in md
    with pytest.raises(UsageError, match="moment 15 is out of range"):
        build_report(game, moments=[15])
    with pytest.raises(UsageError, match="Ben has no Hand line"):
        build_report(game, "Ben")


def test_lenient_replay_with_a_rule_break_is_reported_up_to_it() -> None:
    text = (DATA / "markup.fish").read_text(encoding="utf-8")
    text = text.replace("12. Anna asks Eli for KS: no", "12. Anna asks Ben for KS: no")
    game = replay(loads(text, "broken.fish"), lenient=True)
    md = build_report(game).markdown()
    # Ben, asked, has the turn; Eli then asks out of it: a second break, of the order of play only.
    assert "the record breaks the rules at events 12, 13; analyzed to event 11" in md
    assert "rule break" in md


def test_breaks_of_the_order_of_play_alone_are_analyzed_past() -> None:
    text = (DATA / "markup.fish").read_text(encoding="utf-8")
    lines = text.splitlines()
    n = next(i for i, line in enumerate(lines) if line.startswith("12. "))
    game = replay(loads("\n".join(lines[:n] + lines[n + 1 :]) + "\n", "slip.fish"), lenient=True)
    assert [v.code for v in game.violations] == ["not-on-turn"]
    md = build_report(game).markdown()
    # Named as the file numbers it: the line numbered 12 is gone, so the slip is the one numbered 13.
    assert "breaks the rules at event 13 (the order of play only, so analyzed to the end)" in md


def test_a_winner_is_named() -> None:
    games = (replay(simulate(players=4, seed=seed)) for seed in range(1, 30))
    game = next(g for g in games if g.winner() is not None)
    a, b = game.final.score
    winner = 1 if a > b else 2
    team = ", ".join(game.record.table.teams[winner - 1])
    assert f"{a}–{b} team {winner} ({team}) wins" in build_report(game).markdown()


# ---------------------------------------------------------------- batch


BROKEN = "Title: broken\nTeams: A B vs C D\n\n1. A asks C for 7S: maybe\n"
RULE_BREAK = "Teams: A B vs C D\n\n1. A asks B for 7S: yes\n"


@pytest.fixture(scope="module")
def records(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Three simulated games (one in the JSON form), a malformed record and one against the rules."""
    folder = tmp_path_factory.mktemp("records")
    for seed in (1, 2):
        (folder / f"sim{seed}.fish").write_text(dumps(simulate(players=6, seed=seed)), encoding="utf-8")
    (folder / "sim3.json").write_text(record_json.dumps(simulate(players=6, seed=3)), encoding="utf-8")
    (folder / "broken.fish").write_text(BROKEN, encoding="utf-8")
    (folder / "rule.fish").write_text(RULE_BREAK, encoding="utf-8")
    (folder / "notes.txt").write_text("not a record", encoding="utf-8")
    return folder


@pytest.fixture(scope="module")
def batch(
    records: Path, tmp_path_factory: pytest.TempPathFactory
) -> tuple[BatchResult, Path, list[tuple[int, int, str]]]:
    """The batch of ``records`` in two worker processes, its output folder and the progress calls."""
    out = tmp_path_factory.mktemp("batch")
    calls: list[tuple[int, int, str]] = []
    result = run_batch(records, out, workers=2, progress=lambda d, t, n: calls.append((d, t, n)))
    return result, out, calls


def test_batch_analyzes_the_good_and_lists_the_failed(
    records: Path, batch: tuple[BatchResult, Path, list[tuple[int, int, str]]]
) -> None:
    result, out, calls = batch
    assert result.total == 5 and result.failed == 2
    assert result.games.get_column("file").to_list() == ["sim1.fish", "sim2.fish", "sim3.json"]
    assert result.players.height == 18
    assert result.players.get_column("file").to_list()[:6] == ["sim1.fish"] * 6
    assert sorted(d for d, _, _ in calls) == [1, 2, 3, 4, 5] and {t for _, t, _ in calls} == {5}
    failures = result.failures.to_dicts()
    assert [f["file"] for f in failures] == ["broken.fish", "rule.fish"]
    assert [f["exit_code"] for f in failures] == [2, 1]
    assert failures[0]["message"] == (
        f"{records / 'broken.fish'}:4: cannot read this ask: write 'ASKER asks TARGET for CARD: yes' (or ': no')"
    )
    assert failures[1]["message"].startswith(f"{records / 'rule.fish'}:3: A asks a teammate")
    for stem, frame in (("games", result.games), ("players", result.players), ("failures", result.failures)):
        assert pl.read_parquet(out / f"{stem}.parquet").equals(frame)
        assert pl.read_csv(out / f"{stem}.csv").columns == frame.columns
    summary = (out / "summary.md").read_text(encoding="utf-8")
    assert "5 records in" in summary and "3 analyzed, 2 failed" in summary
    assert "broken.fish | garbled | 2 |" in summary and "rule.fish | ask-teammate | 1 |" in summary
    for section in ("Wins by team", "Claim accuracy", "Mistakes per player per game", "Games", "Failures"):
        assert f"## {section}<a id=" in summary
    html = (out / "summary.html").read_text(encoding="utf-8")
    assert "<script" not in html and "A asks a teammate (B)" in html


def test_batch_output_does_not_depend_on_workers(
    records: Path, batch: tuple[BatchResult, Path, list[tuple[int, int, str]]], tmp_path: Path
) -> None:
    two, out, _ = batch
    one = run_batch(records, tmp_path, workers=1)
    assert one.games.equals(two.games) and one.players.equals(two.players)
    assert one.failures.equals(two.failures)
    for name in ("summary.md", "summary.html", "games.csv", "players.csv", "failures.csv"):
        assert (tmp_path / name).read_bytes() == (out / name).read_bytes(), name


def test_batch_of_nothing_is_a_usage_error(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="no records to analyze"):
        run_batch(tmp_path, tmp_path / "out")
    with pytest.raises(UsageError, match="not a folder"):
        run_batch(tmp_path / "missing", tmp_path / "out")


# ---------------------------------------------------------------- commands

runner = CliRunner()


def test_cli_report_writes_and_prints_the_paths(tmp_path: Path) -> None:
    result = runner.invoke(app, ["report", str(DATA / "markup.fish"), "--out", str(tmp_path), "--as", "anna"])
    assert result.exit_code == 0, result.output
    names = [Path(line).name for line in result.stdout.splitlines()]
    assert names == ["markup.html", "markup.md", "markup-known.svg", "markup-score.svg", "markup-replay.html"]
    assert "grids as Anna sees them" in (tmp_path / "markup.md").read_text(encoding="utf-8")


def test_cli_report_default_folder_and_moments(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["report", str(DATA / "markup.fish"), "--moment", "2"])
    assert result.exit_code == 0, result.output
    md = (tmp_path / "reports" / "markup.md").read_text(encoding="utf-8")
    assert "After event 2**" in md and "just before" not in md


def test_cli_report_refuses_a_moment_out_of_range_before_any_work(monkeypatch: pytest.MonkeyPatch) -> None:
    import analyzer.study

    def no_study(*args: object, **kwargs: object) -> None:
        raise AssertionError("the game was studied before its moments were checked")

    monkeypatch.setattr(analyzer.study, "study", no_study)
    result = runner.invoke(app, ["report", str(DATA / "markup.fish"), "--moment", "999"])
    assert result.exit_code == 2
    assert "moment 999 is out of range" in result.stderr


@pytest.mark.parametrize(
    ("text", "args", "code", "message"),
    [
        (RULE_BREAK, [], 1, "rule.fish:3: A asks a teammate"),
        (BROKEN, [], 2, "rule.fish:4: cannot read this ask"),
        (None, ["--as", "Ben"], 2, "Ben has no Hand line"),
        (None, ["--moment", "99"], 2, "moment 99 is out of range"),
    ],
)
def test_cli_report_errors(tmp_path: Path, text: str | None, args: list[str], code: int, message: str) -> None:
    path = tmp_path / "rule.fish"
    if text is None:
        shutil.copy(DATA / "markup.fish", path)
    else:
        path.write_text(text, encoding="utf-8")
    result = runner.invoke(app, ["report", str(path), "--out", str(tmp_path / "out"), *args])
    assert result.exit_code == code
    assert message in result.stderr
    assert result.stdout == ""


def test_cli_report_of_a_missing_file(tmp_path: Path) -> None:
    result = runner.invoke(app, ["report", str(tmp_path / "nope.fish")])
    assert result.exit_code == 2 and "no such file" in result.stderr


def test_cli_batch_counts_failures_and_exits_0(records: Path, tmp_path: Path) -> None:
    result = runner.invoke(app, ["batch", str(records), "--out", str(tmp_path), "--workers", "1"])
    assert result.exit_code == 0, result.output
    assert [Path(p).name for p in result.stdout.splitlines()] == [
        "games.parquet", "games.csv", "players.parquet", "players.csv",
        "failures.parquet", "failures.csv", "summary.html", "summary.md",
        "summary-wins.svg", "summary-claims.svg", "summary-mistakes.svg", "summary-length.svg",
    ]  # fmt: skip
    assert "3 of 5 records analyzed, 2 failed" in result.stderr
    assert "broken.fish:4: cannot read this ask" in result.stderr


def test_cli_batch_exits_1_when_every_record_fails(tmp_path: Path) -> None:
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "a.fish").write_text(BROKEN, encoding="utf-8")
    (tmp_path / "in" / "b.fish").write_text(RULE_BREAK, encoding="utf-8")
    result = runner.invoke(app, ["batch", str(tmp_path / "in"), "--out", str(tmp_path / "out"), "-j", "1"])
    assert result.exit_code == 1
    assert "0 of 2 records analyzed, 2 failed" in result.stderr


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--workers", "0"], "--workers"),
        ([], "no records to analyze"),
    ],
)
def test_cli_batch_usage_errors(tmp_path: Path, args: list[str], message: str) -> None:
    result = runner.invoke(app, ["batch", str(tmp_path), "--out", str(tmp_path / "out"), *args])
    assert result.exit_code == 2
    assert message in result.stderr


# ---------------------------------------------------------------- a real browser


def find_chromium() -> str | None:
    for name in ("/usr/bin/chromium", "chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        found = shutil.which(name)
        if found:
            return found
    return None


@pytest.mark.browser
@pytest.mark.parametrize("record", ["shared/g201.fish", "markup.fish"])
def test_page_renders_in_headless_chromium(record: str, tmp_path: Path) -> None:
    chromium = find_chromium()
    if chromium is None:
        pytest.skip("no chromium binary found (/usr/bin/chromium, chromium, chromium-browser, google-chrome)")
    report = report_of(record)
    page = tmp_path / f"{report.stem}.html"
    page.write_text(report.html(), encoding="utf-8")
    game = replay(load(DATA / record))
    command = [
        chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync",
        f"--user-data-dir={tmp_path / 'profile'}", "--enable-logging=stderr", "--v=0",
        "--dump-dom", page.as_uri(),
    ]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    dom = done.stdout
    a, b = game.final.score
    assert f'<span class="score">{a}–{b}</span>' in dom
    for p in game.record.players:
        assert f">{p}</span>" in dom
    assert dom.count("<svg") == 2 and 'id="mistakes"' in dom
    assert "<script" not in dom  # the escaped markup stayed text
    console = [line for line in done.stderr.splitlines() if "CONSOLE" in line or "Uncaught" in line]
    assert console == [], console
    assert "Refused to" not in done.stderr  # nothing the page asked for was blocked


# ---------------------------------------------------------------- for teaching


def test_report_opens_with_the_mistakes_each_with_its_grid_in_the_players_view() -> None:
    game = replay(load(DATA / "shared" / "g201.fish"))
    report = build_report(game, odds=False, replay=True)
    md = report.markdown()
    sections = re.findall(r"^## (.*?)<a id=", md, re.M)
    assert sections[0] == "Mistakes: what to learn" and sections[1] == "The game"
    assert "[Step through the game](g201-replay.html#0-public)" in md
    lines = re.findall(r"^- \[(\d+)\.\]\(#mistake-\1\) .*$", md, re.M)
    assert len(lines) == len(report.found.mistakes) == 79
    for k, m in enumerate(report.found.mistakes, start=1):
        line = next(x for x in md.splitlines() if x.startswith(f"- [{k}.](#mistake-{k}) "))
        assert f"[event {m.number}](#event-{m.event})" in line and f"cost: {escape_md(m.cost)}" in line
        # A broken lockout is judged in the view of the opponent who could take the book.
        assert f"[replay](g201-replay.html#{m.at}-{m.judged or m.player})" in line
    first = report.found.mistakes[0]
    view = first.judged or first.player
    detail = md.split('<a id="mistake-1"></a>')[1].split('<a id="mistake-2"></a>')[0]
    assert f"in {view}'s own view" in detail
    assert "| card | Anna | Dev | Ben | Eli | Cara | Fay |" in detail  # the grid, without a book column
    assert f"**Why: how {view} could know it, from the record**" in detail


def test_batch_summary_charts_and_links_every_game_to_its_report_and_replay_page(tmp_path: Path) -> None:
    folder = tmp_path / "in"
    folder.mkdir()
    for name in ("lockout.fish", "six-and-seven.fish"):
        shutil.copy(SAMPLE_LOGS / name, folder / name)
    (folder / "broken.fish").write_text(BROKEN, encoding="utf-8")
    result = runner.invoke(app, ["batch", str(folder), "--out", str(tmp_path / "out"), "-j", "1", "--reports"])
    assert result.exit_code == 0, result.output
    out = tmp_path / "out"
    printed = [Path(p).relative_to(out).as_posix() for p in result.stdout.splitlines()]
    for name in ("lockout", "six-and-seven"):
        assert f"games/{name}.fish/{name}.html" in printed and f"games/{name}.fish/{name}-replay.html" in printed
    html = (out / "summary.html").read_text(encoding="utf-8")
    assert html.count("<svg") == 4 and "<script" not in html
    targets = re.findall(r'href="([^"#]+)"', html)
    assert sorted(targets) == sorted(
        [
            *(f"games/{n}.fish/{n}{page}.html" for n in ("lockout", "six-and-seven") for page in ("", "-replay")),
            *(f"{t}.{ext}" for t in ("games", "players", "failures") for ext in ("parquet", "csv")),
        ]
    )
    assert all((out / target).is_file() for target in targets)
    md = (out / "summary.md").read_text(encoding="utf-8")
    for chart in ("wins", "claims", "mistakes", "length"):
        assert f"](summary-{chart}.svg)" in md and (out / f"summary-{chart}.svg").is_file()
    assert "[report](games/lockout.fish/lockout.html) · [replay](games/lockout.fish/lockout-replay.html)" in md
    report = (out / "games" / "lockout.fish" / "lockout.html").read_text(encoding="utf-8")
    assert 'href="lockout-replay.html#0-public"' in report
    # a later run without --reports replaces the whole folder, the games' pages included
    again = runner.invoke(app, ["batch", str(folder), "--out", str(out), "-j", "1"])
    assert again.exit_code == 0, again.output
    assert not (out / "games").exists() and "[report]" not in (out / "summary.md").read_text(encoding="utf-8")


def test_cli_report_without_the_replay_page(tmp_path: Path) -> None:
    result = runner.invoke(app, ["report", str(DATA / "markup.fish"), "--out", str(tmp_path), "--no-replay"])
    assert result.exit_code == 0, result.output
    assert not (tmp_path / "markup-replay.html").exists()
    assert "replay" not in (tmp_path / "markup.md").read_text(encoding="utf-8")


# ---------------------------------------------------------------- whose turn, as the rules say


def _timeline_turns(md: str) -> list[str]:
    """The turn column of the Markdown timeline, event by event."""
    section = md.split("## Timeline", 1)[1].split("\n## ", 1)[0]
    return [row.split(" | ")[1] for row in section.splitlines() if row.startswith('| <a id="event-')]


def test_the_timeline_takes_whose_turn_it_was_from_the_rules() -> None:
    """Under fish rules a claim moves no turn, so a game that opens with a claim has no turn after
    it: the turn of the event after it is the first turn, which the rules give whoever acts first
    (``Game.play_state``); the timeline asks them rather than deciding it again."""
    text = (SAMPLE_LOGS / "fish-rules.fish").read_text(encoding="utf-8").split("\n1. ", 1)[0]
    text += (
        "\n1. Ben claims high-clubs: Ben 9C 10C, Anna JC, Cara QC KC AC: correct\n"
        "2. Anna asks Dev for 9S: no\n3. Dev asks Ben for 5H: yes\n"
    )
    game = replay(loads(text, "claim-first.fish"))
    assert game.step(1).turn is None  # after the claim, nobody has had a turn yet
    turns = [game.play_state(at).turn for at in range(3)]
    assert turns == ["Ben", "Anna", "Dev"]
    assert _timeline_turns(build_report(game, odds=False).markdown()) == turns


def test_the_timeline_follows_the_rules_turn_wherever_they_put_it(monkeypatch: pytest.MonkeyPatch) -> None:
    game = replay(load(SAMPLE_LOGS / "lockout.fish"))
    decided = Game.play_state

    def first_turn_to_eli(self: Game, at: int) -> PlayState:
        state = decided(self, at)
        return replace(state, turn="Eli") if at == 0 else state

    monkeypatch.setattr(Game, "play_state", first_turn_to_eli)
    turns = _timeline_turns(build_report(game, odds=False).markdown())
    assert turns[0] == "Eli" and turns[1:] == [decided(game, at).turn for at in range(1, len(game.events))]
