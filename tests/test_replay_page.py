"""The replay page: its embedded data against the analysis, its safety, the committed samples, and
the page itself driven in a real headless chromium (playwright, pointed at the system browser).

Browser tests save screenshots at 420 and 1400 px into ``$HALFSUIT_SCREENSHOTS`` (default: the
test's temporary folder) for a person to look at.
"""

from __future__ import annotations

import base64
import functools
import hashlib
import json
import os
import re
import shutil
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from analyzer.analysis import Analysis, analyze, view_tracker
from analyzer.cards import Card, parse_card
from analyzer.explain import Explainer, holds
from analyzer.hindsight import judged_analysis
from analyzer.knowledge import PUBLIC, ViewTracker
from analyzer.odds import card_odds
from analyzer.record import load, loads
from analyzer.replay import Game, replay
from analyzer.replay_page import (
    known_whys,
    odds_table,
    replay_data,
    replay_html,
    whole_percent,
    write_replay,
)
from analyzer.tactics import claimable, lockouts, mistake_moment, mistakes, threats
from cli.main import app

from .explain_checker import Checker

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
DATA = TESTS / "data"
SAMPLE_RECORD = ROOT / "sample_logs" / "simulated-game.fish"
SAMPLE_PAGE = ROOT / "reports" / "simulated-game-replay.html"


@functools.cache
def game_of(path: Path) -> Game:
    return replay(load(path))


@functools.cache
def analysis_of(path: Path) -> Analysis:
    game = game_of(path)
    return analyze(game, upto=game.trusted_until)


def page_data(text: str) -> dict[str, Any]:
    found = re.search(r'<script type="application/json" id="replay-data">(.*?)</script>', text, re.S)
    assert found, "the page embeds its data"
    data: dict[str, Any] = json.loads(found.group(1))
    return data


def decode(hexes: str, players: list[str], cards: list[Card]) -> dict[Card, tuple[str, ...]]:
    """A step's holders from the page's bit sets (two hex digits a card, bit i for seat i)."""
    out = {}
    for i, card in enumerate(cards):
        mask = int(hexes[2 * i : 2 * i + 2], 16)
        if mask:
            out[card] = tuple(p for k, p in enumerate(players) if mask >> k & 1)
    return out


def deck_cards(game: Game) -> list[Card]:
    return [c for b in game.record.rules.deck.books for c in b.cards]


# ---------------------------------------------------------------- the data


def test_committed_sample_holds_every_view_at_every_step_as_the_analysis_does() -> None:
    game, analysis = game_of(SAMPLE_RECORD), analysis_of(SAMPLE_RECORD)
    data = page_data(SAMPLE_PAGE.read_text(encoding="utf-8"))
    assert data["views"] == ["public", "Anna", "Dev", "Ben", "Eli", "Cara", "Fay"]
    assert data["last"] == analysis.steps == len(game.events) == 128
    cards = deck_cards(game)
    for view in data["views"]:
        steps = data["view"][view]["holders"]
        assert len(steps) == 129
        for at, hexes in enumerate(steps):
            assert decode(hexes, data["players"], cards) == analysis.holders(view, at), (view, at)
            books = [[data["books"].index(next(b for b in data["books"] if b["name"] == c.book.name)), c.team]
                     for c in claimable(game, analysis.holders(view, at), view)]  # fmt: skip
            assert data["view"][view]["claimable"][at] == books
    index = {b["name"]: i for i, b in enumerate(data["books"])}
    seat = {p: i for i, p in enumerate(data["players"])}
    for at in (0, 40, 95, 128):
        step = data["steps"][at]
        assert step["score"] == list(game.step(at).score)
        assert step["counts"] == [str(game.step(at).counts[p]) for p in data["players"]]
        want = [[seat[p], index[b.name]] for p, books in threats(analysis, at).items() for b in books or ()]
        assert step["threats"] == want
        assert step["lockouts"] == [
            [index[lock.book.name], [seat[p] for t in (1, 2) for p in lock.threats[t]]]
            for lock in lockouts(analysis, at)
        ]
    assert [(m["event"], m["player"]) for m in data["mistakes"]] == [
        (m.event, m.player) for m in mistakes(analysis).mistakes
    ]


@pytest.mark.parametrize(("view", "at"), [("public", 0), ("public", 61), ("Ben", 23), ("Dev", 60), ("Fay", 127)])
def test_committed_sample_odds_are_the_exact_odds_in_whole_percents(view: str, at: int) -> None:
    game = game_of(SAMPLE_RECORD)
    data = page_data(SAMPLE_PAGE.read_text(encoding="utf-8"))
    shares = card_odds(ViewTracker(game, view).position(at)).cards
    holders = analysis_of(SAMPLE_RECORD).holders(view, at)
    want = [whole_percent(shares[c][p]) for c in deck_cards(game) if len(holders.get(c, ())) > 1 for p in holders[c]]
    assert data["view"][view]["odds"][at] == want


def test_percent_rounds_to_whole_percents_and_keeps_a_possible_holder_visible() -> None:
    assert [whole_percent(Fraction(n, d)) for n, d in [(1, 2), (2, 3), (1, 100), (1, 101), (199, 200), (1, 1)]] == [
        50, 67, 1, 0, 100, 100,
    ]  # fmt: skip


def test_record_text_cannot_leave_the_data_and_only_the_page_script_may_run() -> None:
    path = DATA / "markup.fish"
    game, analysis = game_of(path), analysis_of(path)
    page = replay_html(replay_data(game, analysis, mistakes(analysis)))
    assert page.count("</script>") == 2 and page.count("<script") == 2
    assert "<script>alert" not in page and "<b>" not in page.split("<script", 1)[1].split("</script>")[0]
    data = page_data(page)
    assert data["title"] == '<script>alert("title")</script> & <b>friends</b>'
    assert data["events"][0]["comment"] == '<script>alert("comment")</script>'
    assert "&lt;script&gt;alert(&quot;title&quot;)" in page  # the <title>
    script = re.findall(r"<script>(.*?)</script>", page, re.S)[0]
    digest = base64.b64encode(hashlib.sha256(script.encode("utf-8")).digest()).decode("ascii")
    assert f"script-src 'sha256-{digest}'" in page
    assert "default-src 'none'" in page
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", page)
    assert "innerHTML" not in script and "eval(" not in script


def test_a_record_with_two_hands_has_those_views_only_and_odds_can_be_left_out(tmp_path: Path) -> None:
    game = game_of(DATA / "markup.fish")
    page = write_replay(game, tmp_path, with_odds=False)
    assert page.path.name == "markup-replay.html"
    assert page.data["views"] == ["public", "Anna", "Dev"]
    assert all(page.data["view"][v]["odds"] is None for v in page.data["views"])
    assert page.data["unjudged"] == ["Ben", "Eli", "Cara", "Fay"]


def test_a_lenient_record_steps_to_its_first_rule_break_and_marks_the_breaks() -> None:
    text = (DATA / "markup.fish").read_text(encoding="utf-8")
    text = text.replace("12. Anna asks Eli for KS: no", "12. Anna asks Ben for KS: no")
    game = replay(loads(text, "broken.fish"), lenient=True)
    analysis = analyze(game, upto=game.trusted_until)
    data = replay_data(game, analysis, mistakes(analysis))
    assert data["last"] == 11 and len(data["events"]) == 14
    assert [n for n, e in enumerate(data["events"], start=1) if "broken" in e] == [v.event for v in game.violations]
    assert "teammate" in data["events"][11]["broken"]
    assert all(len(data["view"][v]["holders"]) == 12 for v in data["views"])


def test_a_hand_worked_out_from_the_record_is_a_view_with_its_odds() -> None:
    text = (DATA / "shared" / "g201.fish").read_text(encoding="utf-8")
    text = "".join(line for line in text.splitlines(keepends=True) if not line.startswith("Hand Fay"))
    game = replay(loads(text, "g201.fish"))
    analysis, _ = judged_analysis(game, upto=20)
    assert analysis.hand_status("Fay") == "worked out"
    odds = odds_table(game, ["Fay"], 20, worked_out=analysis.worked_out)
    data = replay_data(game, analysis, mistakes(analysis), odds)
    assert data["views"][-1] == "Fay" and data["hands"]["Fay"] == "worked out" and data["hands"]["Anna"] == "written"
    cards = deck_cards(game)
    for at in (0, 20):
        assert decode(data["view"]["Fay"]["holders"][at], data["players"], cards) == analysis.holders("Fay", at)
    shares = card_odds(view_tracker(game, "Fay", analysis.worked_out).position(20)).cards
    holders = analysis.holders("Fay", 20)
    want = [whole_percent(shares[c][p]) for c in cards if len(holders.get(c, ())) > 1 for p in holders[c]]
    assert data["view"]["Fay"]["odds"][20] == want
    assert all(set(holders[c]) <= {"Fay"} or "Fay" not in holders[c] for c in holders)  # Fay knows her hand


def known_texts(data: dict[str, Any], view: str, at: int) -> dict[str, str]:
    """The page's why of each known card (by its pretty name) at a step in a view, read from its
    runs as the page's script reads them."""
    out = {}
    for i, runs in data["view"][view]["known"].items():
        text = -1
        for start, t in runs:
            if start <= at:
                text = t
        if text >= 0:
            out[data["cards"][int(i)]] = data["knownWhy"][text]
    return out


@pytest.mark.parametrize("path", [SAMPLE_RECORD, DATA / "shared" / "g204.fish"], ids=["sample", "g204"])
def test_the_page_explains_every_known_card_at_every_step(path: Path) -> None:
    """The page carries why each known card's holder holds it at every step of every view: the
    explanation ``who-has`` gives there, but where one carried on from an earlier step still
    stands and a newer fact elsewhere would shorten it (``known_whys``). Those carried on pass the
    checker where they are shown: sound and irreducible. The committed sample carries them all."""
    game, analysis = game_of(path), analysis_of(path)
    data = page_data(SAMPLE_PAGE.read_text(encoding="utf-8")) if path == SAMPLE_RECORD else None
    shown = differ = 0
    for view in analysis.views:
        tracker = view_tracker(game, view, analysis.worked_out)
        for at, whys in enumerate(known_whys(analysis, view)):
            holders = analysis.holders(view, at)
            known = {c: h[0] for c, h in holders.items() if len(h) == 1}
            assert set(whys) == set(known), (view, at)
            if data is not None:
                assert known_texts(data, view, at) == {c.pretty: why.text for c, why in whys.items()}, (view, at)
            explainer = Explainer(tracker, at)
            for c, why in whys.items():
                shown += 1
                if why.text != explainer.explain(holds(known[c], c)).text:
                    differ += 1
                    assert why.conclusion == holds(known[c], c)
                    assert Checker(game.record, view, at).errors(why.to_dict()) == [], (view, at, c.code)
    assert shown > 10_000 and differ <= shown // 200, (shown, differ)


def test_committed_sample_is_small() -> None:
    assert SAMPLE_PAGE.stat().st_size < 2_000_000


def test_committed_samples_are_what_the_regeneration_script_writes(tmp_path: Path) -> None:
    import sys

    sys.path.insert(0, str(ROOT))
    from scripts.regen_golden import SAMPLES, write_samples

    written = write_samples(tmp_path)
    committed = sorted(p.name for p in SAMPLES.iterdir())
    assert sorted(p.name for p in written.paths) == committed
    for path in written.paths:
        assert path.read_bytes() == (SAMPLES / path.name).read_bytes(), f"run scripts/regen_golden.py: {path.name}"


# ---------------------------------------------------------------- the command

runner = CliRunner()


def test_cli_replay_writes_and_prints_the_page(tmp_path: Path) -> None:
    result = runner.invoke(app, ["replay", str(DATA / "markup.fish"), "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert [Path(line).name for line in result.stdout.splitlines()] == ["markup-replay.html"]
    data = page_data((tmp_path / "markup-replay.html").read_text(encoding="utf-8"))
    assert data["view"]["Anna"]["odds"] is not None


@pytest.mark.parametrize(
    ("text", "code", "message"),
    [
        ("Teams: A B vs C D\n\n1. A asks B for 7S: yes\n", 1, "x.fish:3: A asks a teammate"),
        ("Teams: A B vs C D\n\n1. A asks C for 7S: maybe\n", 2, "x.fish:3: cannot read this ask"),
    ],
)
def test_cli_replay_errors(tmp_path: Path, text: str, code: int, message: str) -> None:
    path = tmp_path / "x.fish"
    path.write_text(text, encoding="utf-8")
    result = runner.invoke(app, ["replay", str(path), "--out", str(tmp_path / "out")])
    assert result.exit_code == code
    assert message in result.stderr and result.stdout == ""
    assert not (tmp_path / "out").exists()


# ---------------------------------------------------------------- in a real browser

BROWSER_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--no-first-run",
]  # fmt: skip


def chromium_path() -> str | None:
    for name in ("/usr/bin/chromium", "chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        found = shutil.which(name)
        if found:
            return found
    return None


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    path = chromium_path()
    if path is None:
        pytest.skip("no chromium binary found (/usr/bin/chromium, chromium, chromium-browser, google-chrome)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        launched = pw.chromium.launch(executable_path=path, args=BROWSER_ARGS)
        yield launched
        launched.close()


@pytest.fixture
def shots(tmp_path: Path) -> Path:
    folder = Path(os.environ.get("HALFSUIT_SCREENSHOTS", tmp_path))
    folder.mkdir(parents=True, exist_ok=True)
    return folder


class Page:
    """A page in the browser, with every console error and uncaught exception collected."""

    def __init__(self, browser: Any, width: int) -> None:
        self.page = browser.new_page(viewport={"width": width, "height": 900})
        self.errors: list[str] = []
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type in ("error", "warning") else None)
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("requestfailed", lambda r: self.errors.append(f"request failed: {r.url}"))

    def __getattr__(self, name: str) -> Any:
        return getattr(self.page, name)

    def text(self, selector: str) -> str:
        value: str = self.page.locator(selector).inner_text()
        return value

    def step_and_view(self) -> tuple[int, str]:
        found = re.fullmatch(r"#(\d+)-(.*)", self.page.evaluate("location.hash"))
        assert found, self.page.evaluate("location.hash")
        return int(found.group(1)), found.group(2)


def check_grid(page: Page, game: Game, view: str, at: int, odds: bool = True) -> None:
    """Every cell of the page's grid against the analysis (and the exact odds) at this step and view."""
    holders = analysis_of(SAMPLE_RECORD).holders(view, at)
    shares = card_odds(ViewTracker(game, view).position(at)).cards if odds else None
    cells = page.evaluate(
        """() => Array.from(document.querySelectorAll('#grid tbody tr[data-card]')).map(tr => [
            tr.dataset.card,
            Array.from(tr.querySelectorAll('td[data-player]')).map(td => [
                td.dataset.player, td.firstChild.className, td.textContent])])"""
    )
    by_pretty = {c.pretty: c for c in holders}
    assert sorted(card for card, _ in cells) == sorted(c.pretty for c in holders)
    for pretty, row in cells:
        card = by_pretty[pretty]
        for player, cls, text in row:
            if player not in holders[card]:
                assert cls == "x", (pretty, player)
            elif len(holders[card]) == 1:
                assert cls == "k", (pretty, player)
            else:
                assert shares is not None
                share = whole_percent(shares[card][player])
                assert cls.startswith("o") and text == (f"{share}%" if share else "<1%"), (pretty, player, text)


@pytest.mark.browser
def test_replay_page_steps_switches_views_and_explains_cards(browser: Any, shots: Path) -> None:
    game = game_of(SAMPLE_RECORD)
    analysis = analysis_of(SAMPLE_RECORD)
    page = Page(browser, 1400)
    page.goto(SAMPLE_PAGE.as_uri())
    assert page.step_and_view() == (0, PUBLIC)
    assert page.text("#status").startswith("After the deal")
    check_grid(page, game, PUBLIC, 0)

    for _ in range(3):
        page.keyboard.press("ArrowRight")
    assert page.step_and_view() == (3, PUBLIC)
    assert page.text("#status").startswith("After event 3 of 128")
    page.keyboard.press("ArrowLeft")
    assert page.step_and_view() == (2, PUBLIC)
    assert page.locator("#events li.current").get_attribute("data-event") == "2"
    page.locator("#next").click()
    assert page.step_and_view() == (3, PUBLIC)

    slider = page.locator("#slider")
    slider.focus()
    page.keyboard.press("ArrowRight")  # the slider moves one step; the page does not move again
    page.keyboard.press("ArrowRight")
    assert page.step_and_view() == (5, PUBLIC)
    slider.evaluate("(s) => { s.value = '60'; s.dispatchEvent(new Event('input', {bubbles: true})); }")
    assert page.step_and_view() == (60, PUBLIC)
    check_grid(page, game, PUBLIC, 60)

    page.select_option("#view", "Dev")
    assert page.step_and_view() == (60, "Dev")
    check_grid(page, game, "Dev", 60)
    players = page.evaluate(
        "() => Array.from(document.querySelectorAll('#players tbody tr')).map(tr => [tr.dataset.player, tr.querySelector('.known').textContent])"
    )
    holders = analysis.holders("Dev", 60)
    for player, known in players:
        mine = [c.pretty for b in game.record.rules.deck.books for c in b.cards if holders.get(c) == (player,)]
        assert known == (" ".join(mine) or "—"), player
    claims = claimable(game, holders, "Dev")
    assert page.locator("#books li").count() == len(claims)
    for c in claims:
        assert page.locator(f'#books li[data-book="{c.book.name}"]').count() == 1

    # a card with several possible holders, then a known one, known by a chain of steps
    whys = dict(enumerate(known_whys(analysis, "Dev")))[60]
    for card in (next(c for c, h in holders.items() if len(h) > 2), next(c for c, why in whys.items() if why.steps)):
        page.locator(f'#grid tr[data-card="{card.pretty}"]').click()
        assert page.locator("#grid tr.selected").get_attribute("data-card") == card.pretty
        info = page.text("#card-info")
        assert info.startswith(f"{card.pretty} after event 60, as Dev sees it")
        shown = page.evaluate(
            "() => Array.from(document.querySelectorAll('#card-info .holder')).map(h => h.dataset.player)"
        )
        why = page.evaluate(
            "() => Array.from(document.querySelectorAll('#card-info li')).map(li => [li.className, li.textContent])"
        )
        if len(holders[card]) > 1:
            assert shown == list(holders[card])
            assert why == [] and "Why the others cannot hold it: on this page at the steps of the mistakes" in info
        else:
            holder = holders[card][0]
            assert shown == [] and f"{holder} holds it: nobody else can." in info
            text = whys[card].text
            assert why == [["why", f"{holder}: {text}"]]
        ruled = [p for p in game.record.players if p not in holders[card]]
        assert page.text("#card-info .ruled-out") == "Cannot hold it: " + ", ".join(ruled) + "."
    page.screenshot(path=str(shots / "replay-1400.png"), full_page=True)
    assert page.errors == []


@pytest.mark.browser
def test_the_arrow_keys_step_after_a_view_is_chosen_and_answers_come_into_sight(browser: Any) -> None:
    """Chosen from its list, the view kept the keyboard: → chose the next view, not the next
    step. And a click's answer could be a screen or more away: the mistake's panel 1,600 px
    above the list at 1280 px, a card's below the grid at 390."""
    page = Page(browser, 1280)
    page.goto(SAMPLE_PAGE.as_uri() + "#10-public")
    page.locator("#view").focus()  # (as a click on the list leaves it)
    page.locator("#view").select_option("Dev")
    page.keyboard.press("ArrowRight")
    assert page.step_and_view() == (11, "Dev")
    page.keyboard.press("Home")
    assert page.step_and_view() == (0, "Dev")

    def in_sight(selector: str) -> bool:
        box = page.locator(selector).bounding_box()
        return box is not None and 0 <= box["y"] < 900

    page.locator("#mistakes li button").last.scroll_into_view_if_needed()
    page.locator("#mistakes li button").last.click()
    assert in_sight("#mistake-panel")
    phone = Page(browser, 390)
    phone.goto(SAMPLE_PAGE.as_uri() + "#60-public")
    phone.locator("#grid tbody tr[data-card]").last.scroll_into_view_if_needed()
    phone.locator("#grid tbody tr[data-card]").last.click()
    box = phone.locator("#card-panel").bounding_box()
    assert box is not None and 0 <= box["y"] < 900
    # Scrolled sideways on a phone, the grid keeps its book names in sight, as its card names.
    phone.evaluate("() => { document.querySelector('#grid').closest('.scroll').scrollLeft = 400; }")
    label = phone.locator("#grid tr.book-head .label").first.bounding_box()
    card = phone.locator("#grid tbody th.card-name").first.bounding_box()
    assert label is not None and card is not None and label["x"] >= 0 and abs(label["x"] - card["x"]) < 20
    assert page.errors == [] and phone.errors == []


@pytest.mark.browser
def test_an_address_the_page_cannot_follow_is_set_right(browser: Any) -> None:
    """A name in another case is that player's view (it showed the public view, saying nothing);
    an address the page cannot read is written back as where the page is (it stayed wrong)."""
    page = Page(browser, 1280)
    page.goto(SAMPLE_PAGE.as_uri() + "#5-anna")
    assert page.step_and_view() == (5, "Anna")
    for wrong in ("#abc", "#-3-public"):
        page.evaluate(f"() => {{ location.hash = '{wrong}'; }}")
        page.wait_for_function("() => location.hash === '#5-Anna'")
    assert page.errors == []


@pytest.mark.browser
def test_a_card_nobody_is_ruled_out_of_says_so(browser: Any) -> None:
    """It said "Why the others cannot hold it: ..." where no other player was ruled out."""
    page = Page(browser, 1280)
    page.goto(SAMPLE_PAGE.as_uri() + "#0-public")
    page.locator("#grid tbody tr[data-card]").first.click()
    info = page.text("#card-info")
    assert "Nobody is ruled out yet." in info and "Why the others cannot hold it" not in info
    assert page.errors == []


@pytest.mark.browser
def test_replay_page_jumps_to_a_mistake_in_the_players_view(browser: Any, shots: Path) -> None:
    game = game_of(SAMPLE_RECORD)
    found = mistakes(analysis_of(SAMPLE_RECORD)).mistakes
    page = Page(browser, 420)
    page.goto(SAMPLE_PAGE.as_uri() + "#23-Ben")
    assert page.step_and_view() == (23, "Ben")
    assert page.locator("#view").input_value() == "Ben"
    check_grid(page, game, "Ben", 23)
    k = next(i for i, m in enumerate(found) if m.kind == "broken-lockout")
    m = found[k]
    view, at = mistake_moment(analysis_of(SAMPLE_RECORD), m)
    # Cara could see Dev's threat too: her broken lockout is judged in her own view (one she could
    # not see, in the view of the opponent who could take the book)
    assert view == m.player and m.judged is None
    page.locator(f'#mistakes li[data-mistake="{k}"] button').click()
    assert page.step_and_view() == (at, view)
    assert page.locator("#view").input_value() == view
    info = page.text("#mistake-info")
    assert m.why in info and m.cost in info
    assert f"In {view}'s own view after event {at}" in info
    focus = page.evaluate("() => Array.from(document.querySelectorAll('#grid tr.focus')).map(tr => tr.dataset.card)")
    assert sorted(focus) == sorted(parse_card(code).pretty for code in m.known)
    check_grid(page, game, view, at)
    # at a mistake's step the page carries why each card is placed or ruled out
    card = parse_card(next(iter(m.known)))
    page.locator(f'#grid tr[data-card="{card.pretty}"]').click()
    why = Explainer(ViewTracker(game, view), at).card(card)
    shown = page.evaluate(
        "() => Array.from(document.querySelectorAll('#card-info li.why')).map(li => [li.dataset.player, li.textContent])"
    )
    assert [p for p, _ in shown] == list(why) and why
    for player, text in shown:
        assert text == f"{player}: {why[player].text}"
    assert page.locator("#mistake-info details.why-card").count() >= 1
    # the page is laid out for a phone: nothing but the grid's own box scrolls sideways
    assert page.evaluate("document.documentElement.scrollWidth") <= 420
    page.screenshot(path=str(shots / "replay-420.png"), full_page=True)
    # a mistake tag in the event list does the same
    page.locator(f'#events button[data-mistake="{k}"]').click()
    assert page.step_and_view() == (at, view)
    page.keyboard.press("ArrowRight")
    assert page.step_and_view() == (at + 1, view)
    assert page.locator("#mistake-panel").is_hidden()
    assert page.errors == []


@pytest.mark.browser
@pytest.mark.parametrize("width", [420, 1400])
def test_report_reads_on_a_phone_and_prints_its_grids(browser: Any, shots: Path, width: int) -> None:
    page = Page(browser, width)
    page.goto((ROOT / "reports" / "simulated-game.html").as_uri())
    sections = page.evaluate("() => Array.from(document.querySelectorAll('main > section')).map(s => s.id)")
    assert sections[0] == "mistakes"
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    rows = page.evaluate(
        "() => Array.from(document.querySelectorAll('table.timeline tbody tr')).map(tr => tr.getBoundingClientRect().height)"
    )
    assert max(rows) < 2 * min(rows), "timeline rows stay on one line"
    page.screenshot(path=str(shots / f"report-{width}.png"), full_page=True)
    closed = "document.querySelector('details:not([open]) table.grid').checkVisibility()"
    assert page.evaluate(closed) is False
    page.emulate_media(media="print")
    assert page.evaluate(closed) is True, "printing unfolds the grids"
    assert page.evaluate("document.querySelector('#charts svg').checkVisibility()") is True
    assert page.errors == []


@pytest.mark.browser
def test_batch_summary_reads_on_a_phone_with_its_charts(browser: Any, shots: Path, tmp_path: Path) -> None:
    from analyzer.batch import run_batch

    folder = tmp_path / "in"
    folder.mkdir()
    for name in ("lockout.fish", "six-and-seven.fish", "team-out.fish"):
        shutil.copy(ROOT / "sample_logs" / name, folder / name)
    run_batch(folder, tmp_path / "out", workers=1)
    page = Page(browser, 420)
    page.goto((tmp_path / "out" / "summary.html").as_uri())
    assert page.evaluate("document.documentElement.scrollWidth") <= 420
    sizes = page.evaluate(
        "() => Array.from(document.querySelectorAll('figure svg')).map(s => s.getBoundingClientRect().width)"
    )
    assert len(sizes) == 4 and all(300 < w <= 420 for w in sizes), sizes
    page.screenshot(path=str(shots / "summary-420.png"), full_page=True)
    assert page.errors == []
