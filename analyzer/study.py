"""A game studied once for its report and its replay page.

Both show the same things: every view solved, the mistakes with their explanations and quoted
odds, the bits each ask gave away, and exact odds (every step of every view for the replay page).
``study`` computes each of them once for both. The counting goes to worker processes as soon as
the record is read; the caller meanwhile solves the views, explains the mistakes and draws the
charts, and waits for the counts only when it writes them (``Study.settle``). A step whose hidden
cards are as they were at an earlier step of its view is not counted again (``count_steps``), and
the public view's deals at every step, counted for its odds, are the ones the bits need.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .analysis import Analysis, Progress, analyze, judged_views, worth_workers
from .errors import UsageError
from .hindsight import deal_in_hindsight
from .information import AskInformation, ask_counts, ask_spans, deal_counter, told_by_asks
from .knowledge import PUBLIC, ViewTracker
from .pool import GameTasks, Task
from .record import Ask, Claim
from .replay import Game
from .replay_page import (
    Explanations,
    OddsJob,
    OddsTable,
    StepOdds,
    add_odds,
    count_steps,
    gather_odds,
    mistake_explanations,
    odds_jobs,
)
from .tactics import MistakeReport, explain_mistakes, mistakes, quote_odds

if TYPE_CHECKING:
    from .tactics import CountedOdds

Stage = Callable[[str], Progress | None]  # a named stage of the work -> its progress callback, if shown
AskJob = tuple[tuple[int, int], bool]  # a stretch of events, and whether its steps' deals are wanted too


@dataclass
class Study:
    """What a report and a replay page show of one game, each part computed once.

    ``tables`` and ``asks`` are filled in by ``settle``, which waits for the workers; ``odds`` is
    False once the exact odds are left out (a view too large to count), and ``left_out`` says why.
    With the odds of every step, ``found`` quotes its odds once settled: an ask's are the asker's
    odds at the step before it, counted among every step's.
    """

    analysis: Analysis
    found: MistakeReport
    why: Explanations
    odds: bool
    every_step: bool
    bits: bool
    tables: OddsTable | None = None
    asks: list[AskInformation] | None = None
    left_out: str | None = None
    _counts: list[tuple[OddsJob, Task[list[StepOdds | None]]]] = field(default_factory=list)
    _asked: list[tuple[AskJob, Task[tuple[dict[int, int], dict[int, int]]]]] = field(default_factory=list)
    _unquoted: bool = False  # the mistakes' odds are to be quoted once the counts are in
    _quoting: Progress | None = None
    _settled: bool = False

    def settle(self) -> None:
        """Wait for the counts and put them together (once)."""
        if self._settled or not self.odds:
            return
        self._settled = True
        from .odds import TooLarge

        views = list(self.analysis.views) if self.every_step else []
        self.tables = gather_odds(views, ((job, counted.result()) for job, counted in self._counts))
        if self._unquoted:
            try:
                self.found = quote_odds(self.analysis, self.found, progress=self._quoting, counted=self._counted())
            except TooLarge as exc:  # as when quoted without the counts: no odds at all
                self.odds, self.left_out, self.tables = False, exc.message, None
                return
        if self.bits:
            try:
                self.asks = self._told(self.tables.get(PUBLIC, {}))
            except TooLarge as exc:  # a must-declare game too big to count: no odds at all, as the report says
                self.odds, self.left_out, self.tables = False, exc.message, None

    def _counted(self) -> CountedOdds:
        """The odds counted at the step before each ask a mistake is about, in the asker's view."""
        assert self.tables is not None
        events = self.analysis.game.events
        counted: CountedOdds = {}
        for m in self.found.mistakes:
            e = events[m.event - 1] if 0 < m.event <= len(events) else None
            if isinstance(e, Ask) and (step := self.tables.get(e.asker, {}).get(m.event - 1)) is not None:
                counted[(e.asker, m.event - 1)] = step.shares()
        return counted

    def put_odds(self, data: dict[str, Any]) -> None:
        """Put the odds counted for every step into a replay page's data (``replay_data``), once
        they are in; nothing when they were left out."""
        self.settle()
        if self.tables is not None:
            add_odds(data, self.analysis, self.found, self.tables)

    def _told(self, public: dict[int, StepOdds | None]) -> list[AskInformation]:
        """The bits of every ask, from the deals counted for them and for the public view's odds."""
        game, last = self.analysis.game, self.analysis.steps
        deals: dict[int, int] = {at: counted.deals for at, counted in public.items() if counted is not None}
        asked: dict[int, int] = {}
        for _, task in self._asked:
            step_deals, ask_deals = task.result()
            deals.update(step_deals)
            asked.update(ask_deals)
        missing = [at for at in range(last + 1) if at not in deals]
        if missing:  # the public view's odds too large to count there, yet its deals may be counted
            count, tracker = deal_counter(), ViewTracker(game, PUBLIC)
            deals.update({at: count(tracker.position(at)) for at in missing})
        return told_by_asks(game, (1, last), deals, asked)


@contextmanager
def study(
    game: Game,
    odds: bool = True,
    every_step: bool = True,
    workers: int = 1,
    stage: Stage | None = None,
    analysis: Analysis | None = None,
    found: MistakeReport | None = None,
    bits: bool = True,
) -> Iterator[Study]:
    """Study a replayed game (up to its last trusted event) inside a ``with`` block.

    With ``odds``, the odds quoted in the mistakes and the bits of every ask are counted, and with
    ``every_step`` too the odds of every step in every view (the replay page's); ``workers``
    processes count them while the block goes on. ``stage(name)`` gives a progress callback
    for each part of the work. ``analysis`` and ``found`` (the mistakes, explained; quoted when
    ``odds``) save computing them again; without ``bits`` the asks' bits are not counted (the
    replay page shows none). Leaving the block by an error ends the workers.
    """
    named = stage or (lambda _: None)
    solving = named("solving each view") if analysis is None else None
    counting = named("counting the odds of every step") if odds and every_step else None
    bits = bits and odds
    asking = named("counting bits") if bits else None
    quoting = named("quoting odds in mistakes") if odds and found is None else None
    left_out: str | None = None
    with GameTasks(game, workers) as tasks:
        last = game.trusted_until
        worked_out = deal_in_hindsight(game).worked_out if analysis is None else analysis.worked_out
        views = judged_views(game, worked_out)
        if analysis is None and worth_workers(len(views), last):  # solved in the workers first
            analysis = analyze(game, upto=last, workers=workers, worked_out=worked_out, progress=solving)
        if analysis is not None:
            last = analysis.steps
        counts = []
        asked = []
        if odds and every_step:
            jobs = odds_jobs(views, last, worked_out, workers)
            tick = _ticks(len(jobs), counting)
            counts = [(job, tasks.submit(count_steps, job, tick)) for job in jobs]
        if bits:
            spans = [(span, not every_step) for span in ask_spans(last, workers)]
            tick = _ticks(len(spans), asking)
            asked = [(span, tasks.submit(_ask_counts, span, tick)) for span in spans]
        if analysis is None:
            analysis = analyze(game, upto=last, worked_out=worked_out, progress=solving)
        unquoted = False
        if found is None:
            found = explain_mistakes(analysis, mistakes(analysis))
            unquoted = odds and every_step  # quoted from the counts of every step (``settle``)
            if odds and not every_step:
                from .odds import TooLarge

                try:
                    found = quote_odds(analysis, found, progress=quoting)
                except TooLarge as exc:
                    odds, left_out = False, exc.message
        why = mistake_explanations(analysis, found)
        yield Study(
            analysis,
            found,
            why,
            odds,
            every_step,
            bits,
            left_out=left_out,
            _counts=counts,
            _asked=asked,
            _unquoted=unquoted,
            _quoting=quoting,
        )


def report_moments(game: Game, last: int, moments: Sequence[int] | None) -> list[int]:
    """The steps (up to ``last``) at which a report shows its card grids: ``moments`` checked, or
    by default just before each claim and at the end of an unfinished record."""
    if moments is None:
        claims = [i for i, e in enumerate(game.events, start=1) if isinstance(e, Claim)]
        chosen = [i - 1 for i in claims if i - 1 <= last]
        if not game.finished or last < len(game.events):
            chosen.append(last)
        return sorted(set(chosen))
    for at in moments:
        if not 0 <= at <= last:
            raise UsageError(
                f"moment {at} is out of range: the report covers steps 0 to {last}",
                path=game.record.path,
            )
    return sorted(set(moments))


def _ask_counts(game: Game, job: AskJob) -> tuple[dict[int, int], dict[int, int]]:
    """``information.ask_counts`` of a stretch, in a worker."""
    return ask_counts(game, *job)


def _ticks(total: int, progress: Progress | None) -> Callable[[], None] | None:
    """A callback for each finished task that reports (done, total); tasks may finish on the
    pool's thread, so the count is kept under a lock."""
    if progress is None:
        return None
    lock = threading.Lock()
    done = [0]

    def tick() -> None:
        with lock:
            done[0] += 1
            progress(done[0], total)

    progress(0, total)
    return tick
