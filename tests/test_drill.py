"""The drill: every rule cell from the engine, the FSRS scheduler replayed against simulated
learners (every cell seen, missed cells back sooner), mastery, the clock that starts when the
prompt is on screen, a timed mode with adjustable time (fake clock), keys, a record that
survives a new kernel."""

from __future__ import annotations

import itertools
import random
import re
import statistics
from pathlib import Path

import pytest

import baccarat_kit as bk
from baccarat_kit import drill

pytest.importorskip("ipywidgets")
from baccarat_kit.widgets import Drill, plain_text
from baccarat_kit.widgets.drill import CHOICES


@pytest.fixture(autouse=True)
def _own_progress(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("BACCARAT_KIT_PROGRESS", str(tmp_path / "progress"))


def test_every_cell_of_the_rule_is_an_item_answered_by_the_engine() -> None:
    assert len(drill.MASTERY_CELLS) == len(set(drill.MASTERY_CELLS)) == 10 + 8 + 88
    assert len(drill.BANKER_CELLS) == 88
    for t in range(8):
        for v in (*range(10), None):
            it = drill.item(bk.rules.banker_rule(t, v))
            assert it.answer == ("draw" if bk.banker_draws(t, v) else "stand")
        assert drill.item(f"player-{t}").answer == ("draw" if bk.player_draws(t) else "stand")
    for t in range(10):
        assert drill.item(f"natural-{t}").answer == ("yes" if bk.rules.is_natural(t) else "no")
    coup = drill.coup_item(7, 3)
    assert coup.kind == "coup" and coup.answer == coup.params["coup"].winner


def test_a_missed_cell_comes_back_before_a_known_one() -> None:
    """Issue 22's done-when: with a seeded scheduler, the missed cell is asked first."""
    cells: dict = {}
    missed, known = "banker-5-vs-7", "banker-3-vs-8"
    step, now = 0, 1_000.0
    for _ in range(2):
        drill.answer(cells, known, True, 1.0, step=step, now=now)
        step, now = step + 1, now + 3
    drill.answer(cells, missed, False, 1.0, step=step, now=now)
    step += 1
    asked = []
    pool = (missed, known, *drill.BANKER_CELLS[:20])
    for s in range(step, step + 40):
        now += 3
        cell = drill.choose(cells, s, seed=11, now=now, pool=pool, avoid=asked[-1] if asked else None)
        assert cell is not None
        asked.append(cell)
        drill.answer(cells, cell, True, 1.0, step=s, now=now)
    assert asked.index(missed) <= 10  # due 20 s after the miss: a few 3 s answers later
    assert known not in asked or asked.index(missed) < asked.index(known)
    assert asked.count(missed) >= 2  # and, when nothing else is due, ahead of its 10 min
    assert not drill.is_mastered(cells[known])  # answers minutes apart, one sitting: not yet
    # The same seed and record choose the same cell; another seed may not.
    assert drill.choose({}, 0, seed=3, now=0) == drill.choose({}, 0, seed=3, now=0)
    assert len({drill.choose({}, 0, seed=s, now=0) for s in range(20)}) > 1


def _first_all_seen(log: list[tuple[str, bool]]) -> int | None:
    seen: set[str] = set()
    for n, (cell, _right) in enumerate(log, 1):
        seen.add(cell)
        if len(seen) == len(drill.MASTERY_CELLS):
            return n
    return None


def _return_gaps(log: list[tuple[str, bool]]) -> dict[bool, list[int]]:
    """Answers between one answer of a cell and the next time it is asked, by whether the first
    was right."""
    last: dict[str, tuple[int, bool]] = {}
    gaps: dict[bool, list[int]] = {True: [], False: []}
    for n, (cell, right) in enumerate(log):
        if cell in last:
            gaps[last[cell][1]].append(n - last[cell][0])
        last[cell] = (n, right)
    return gaps


@pytest.mark.parametrize("seed", [0, 1, 2026])
@pytest.mark.parametrize("seconds", [2.0, 5.0])
def test_replay_a_learner_who_never_errs_sees_all_106_cells_within_300_answers(seed: int, seconds: float) -> None:
    """Issue 31's done-when (on main: 28 cells after 160 answers, 50 after 10,000)."""
    cells: dict = {}
    log = drill.replay(lambda _c, _s: True, 300, seed=seed, seconds=seconds, cells=cells)
    first = _first_all_seen(log)
    assert first is not None and first <= 300, first
    if seconds <= drill.MASTERY_SECONDS:  # no error: a new cell each answer until all are in
        assert first == len(drill.MASTERY_CELLS)
    else:  # slow (Hard): each cell is back within minutes, between the new ones (measured 192 at seed 0)
        assert first > len(drill.MASTERY_CELLS)
    assert all(cells[c]["right"] == cells[c]["seen"] for c in cells)
    assert drill.mastered(cells) == 0  # one sitting, no second day: nothing is mastered yet
    if seconds > drill.MASTERY_SECONDS:  # right but slow: every review rated Hard, marked slow
        assert all(drill.is_slow(cells[c]) and cells[c]["slow"] == cells[c]["seen"]
                   for c in cells)
    st = drill.stats(cells, 1_800_000_000.0 + 300 * seconds)
    assert st["seen"] == 106 and st["new"] == 0 and st["answers"] == 300 and st["right"] == 300


@pytest.mark.parametrize("error_rate", [0.1, 0.2, 0.35])
def test_replay_with_errors_missed_cells_return_sooner_and_every_cell_is_still_seen(error_rate: float) -> None:
    rng = random.Random(f"learner:{error_rate}")
    cells: dict = {}
    log = drill.replay(lambda _c, _s: rng.random() >= error_rate, 600, seed=5, seconds=2.5, cells=cells)
    first = _first_all_seen(log)
    assert first is not None and first <= 300, first
    gaps = _return_gaps(log)
    assert gaps[False] and gaps[True]
    # (a leech, missed 3 times, waits at least MIN_GAP answers: measured at 10 %, a median of 7
    # against 24 for a right answer; before leeches were spaced, about 2)
    assert statistics.median(gaps[False]) * 3 <= statistics.median(gaps[True])
    assert max(gaps[False]) < 30  # a miss is never left waiting long
    # The same learner, right every time: the first return of each cell comes far later.
    clean = _return_gaps(drill.replay(lambda _c, _s: True, 600, seed=5, seconds=2.5))
    assert statistics.median(gaps[False]) < statistics.median(clean[True])
    assert drill.mastered(cells) == 0  # 600 answers in one sitting: no second day


def _counted_learner(slow_for: int = 0, wrong_for: int = 0, error: float = 0.0):  # type: ignore[no-untyped-def]
    """A learner slow (4 s, else 2.5 s) on a cell's first ``slow_for`` answers and wrong with
    probability ``error`` on its first ``wrong_for``: (right, seconds) callables for replay."""
    rng = random.Random("erring")
    asked: dict[str, int] = {}
    timed: dict[str, int] = {}

    def right(cell: str, _step: int) -> bool:
        asked[cell] = asked.get(cell, 0) + 1
        return asked[cell] > wrong_for or rng.random() >= error

    def seconds(cell: str, _step: int) -> float:
        timed[cell] = timed.get(cell, 0) + 1
        return 4.0 if timed[cell] <= slow_for else 2.5
    return right, seconds


@pytest.mark.parametrize(("name", "slow_for", "wrong_for", "error", "most"), [
    ("fast", 0, 0, 0.0, 240), ("slow", 4, 0, 0.0, 700), ("erring", 0, 3, 0.3, 1070)])
def test_replay_mastery_takes_sessions_on_separate_days(name: str, slow_for: int, wrong_for: int,
                                                        error: float, most: int) -> None:
    """One 60-answer session a day. Measured (seed 0): fast 212 answers (4 sessions), slow 636
    (11), erring 972 (17: a cell missed needs more evidence; under issue 37's rule of two
    calendar dates, 246, 636 and 422); the bounds leave about 10 % room."""
    right, seconds = _counted_learner(slow_for, wrong_for, error)
    cells: dict = {}
    log = drill.replay(right, 3000, seed=0, seconds=seconds if slow_for else 2.5 if error else 2.0,
                       session=60, cells=cells, until_mastered=True)
    assert drill.mastered(cells) == len(drill.MASTERY_CELLS), name
    assert len(log) <= most, (name, len(log))
    assert len(log) >= 2 * len(drill.MASTERY_CELLS)  # every cell twice at least, on two days
    assert all(e["spaced"] >= drill.spaced_needed(e) and e["p_known"] >= drill.mastery_p(e) for e in cells.values())
    if slow_for:  # the slow learner took longer than the fast one
        assert len(log) > 300


def test_a_slow_right_answer_is_rated_hard_and_comes_back_sooner() -> None:
    fast: dict = {}
    slow: dict = {}
    for cells in (fast, slow):  # a learner right on every first answer: P(known) starts high
        for n, cell in enumerate(drill.MASTERY_CELLS[:40]):
            drill.answer(cells, cell, True, 1.5, step=n, now=float(n))
    for n, now in enumerate((100.0, 100.0 + drill.DAY, 100.0 + 2 * drill.DAY)):
        drill.answer(fast, "banker-4-vs-2", True, 1.5, step=50 + n, now=now)
        drill.answer(slow, "banker-4-vs-2", True, 1.5 if n < 2 else 5.0, step=50 + n, now=now)
    assert drill.rating(True, slow=True) == 2
    assert slow["banker-4-vs-2"]["fsrs"]["due"] < fast["banker-4-vs-2"]["fsrs"]["due"]
    assert slow["banker-4-vs-2"]["fsrs"]["stability"] < fast["banker-4-vs-2"]["fsrs"]["stability"]
    assert drill.is_mastered(fast["banker-4-vs-2"]) and not drill.is_mastered(slow["banker-4-vs-2"])
    assert drill.is_slow(slow["banker-4-vs-2"])


def test_a_struggling_learner_is_not_buried_in_new_cells_nor_stalled() -> None:
    """While MAX_FAILING cells fail (missed fewer than LEECH_MISSES times), a new cell enters
    only every NEW_EVERY_HELD-th answer, not every NEW_EVERY-th; it still enters (issue 42: a
    held misconception stalled the drill, 60 cells never asked)."""
    cells: dict = {}
    failing = list(drill.MASTERY_CELLS[:drill.MAX_FAILING])
    for n, cell in enumerate(failing):
        drill.answer(cells, cell, False, 1.0, step=n, now=float(n))
    now = 100.0  # every failing cell is due again
    step = len(failing) + 2  # a new cell came NEW_EVERY answers ago: held back
    assert drill.choose(cells, step, seed=1, now=now) in failing
    step = len(failing) - 1 + drill.NEW_EVERY_HELD  # NEW_EVERY_HELD answers since: a new one
    assert drill.choose(cells, step, seed=1, now=now) not in cells
    chosen = drill.choose(cells, len(failing) + 2, seed=1, now=now)
    drill.answer(cells, chosen, True, 1.0, step=len(failing) + 2, now=now)
    assert drill.choose(cells, len(failing) + 3, seed=1, now=now + 1) not in cells  # fewer fail: every 2nd


def _knowing_learner(cells: dict, n: int = 60, now: float = 0.0) -> None:
    """First answers of ``n`` cells, all right (a learner who knows the rule: P(known) starts
    at the top of PRIOR_RANGE)."""
    for k, cell in enumerate(c for c in drill.MASTERY_CELLS if c != "player-5"):
        if k == n:
            break
        drill.answer(cells, cell, True, 1.0, step=k, now=now + k)


def test_mastery_needs_evidence_a_guesser_does_not_give_on_elapsed_time_not_dates() -> None:
    """Issue 42: two coin flips on two calendar dates passed a quarter of the time; minutes
    apart across 00:00 UTC counted as two days."""
    day, hour = drill.DAY, 3600.0
    cells: dict = {}
    _knowing_learner(cells)
    assert drill.prior(cells) == drill.PRIOR_RANGE[1]
    t0 = 60.0
    drill.answer(cells, "player-5", True, 1.0, step=100, now=t0)
    drill.answer(cells, "player-5", True, 1.0, step=101, now=t0 + 600)  # 10 min later: no evidence
    assert cells["player-5"]["h"] == "1"
    drill.answer(cells, "player-5", True, 1.0, step=102, now=t0 + 15 * hour)  # evidence, not 16 h
    entry = cells["player-5"]
    assert entry["h"] == "11" and entry["p_known"] >= drill.MASTERY_P and entry["spaced"] == 0
    assert not drill.is_mastered(entry)
    drill.answer(cells, "player-5", True, 4.0, step=103, now=t0 + 17 * hour)  # 16 h on, but slow
    assert not drill.is_mastered(cells["player-5"]) and cells["player-5"]["spaced"] == 0
    drill.answer(cells, "player-5", True, 2.9, step=104, now=t0 + 17 * hour + 2 * hour)  # in time, 16 h on
    entry = cells["player-5"]
    assert entry["spaced"] == 1 and entry["fsrs"]["state"] == 2 and entry["fsrs"]["stability"] >= drill.MIN_STABILITY
    assert drill.is_mastered(entry) and drill.is_mastered_now(entry, t0 + 20 * hour)
    # Mastery fades with memory: due (recall down to 90 %), it is due for a refresh, not mastered now.
    due = entry["fsrs"]["due"]
    assert not drill.is_mastered_now(entry, due) and drill.needs_refresh(entry, due)
    assert drill.recall(entry, due) == pytest.approx(drill.DESIRED_RETENTION, abs=0.02)
    drill.answer(cells, "player-5", True, 2.0, step=105, now=due + hour)  # one right answer renews it
    assert drill.is_mastered_now(cells["player-5"], due + 2 * hour)
    # A miss: not mastered; more evidence than before (a higher bar, one spaced review anew).
    drill.answer(cells, "player-5", False, 1.0, step=106, now=due + 3 * hour)
    entry = cells["player-5"]
    assert not drill.is_mastered(entry) and entry["spaced"] == 0 and drill.mastery_p(entry) == 0.975
    assert entry["fsrs"]["state"] == 3  # review → relearning (FSRS)
    # A guesser: half its first answers right, the prior at the floor; three days right: not enough.
    guess: dict = {}
    for k, cell in enumerate(drill.MASTERY_CELLS[:60]):
        drill.answer(guess, cell, k % 2 == 0, 1.0, step=k, now=float(k))
    assert drill.prior(guess) == drill.PRIOR_RANGE[0]
    for k in range(1, 4):
        drill.answer(guess, "natural-0", True, 1.0, step=100 + k, now=k * day)
    assert not drill.is_mastered(guess["natural-0"]) and guess["natural-0"]["p_known"] < drill.MASTERY_P


def test_nothing_is_mastered_within_one_sitting_whatever_the_clock_says() -> None:
    """Two sessions 10 minutes apart across 00:00 UTC (07:50 in Taipei), and one sitting of 300
    answers from 23:57 UTC, by a learner right in 2 s: nothing mastered (issue 42: 40 and 106)."""
    midnight = 1_800_057_600.0  # 2027-01-16 00:00 UTC
    cells: dict = {}
    drill.replay(lambda _c, _s: True, 120, seconds=2.0, session=60, gap=720.0, start=midnight - 600, cells=cells)
    assert drill.mastered(cells) == 0
    cells = {}
    drill.replay(lambda _c, _s: True, 300, seconds=2.0, start=midnight - 180, cells=cells)
    assert drill.mastered(cells) == 0 and len(cells) == len(drill.MASTERY_CELLS)


def _other(d: Drill) -> str:
    from baccarat_kit.widgets.drill import CHOICES

    return next(v for v, _k in CHOICES[d.item.kind] if v != d.item.answer)


def test_timed_mode_with_an_adjustable_time_on_a_fake_clock() -> None:
    now = [0.0]
    d = Drill(lang="en", seed=5, coups=False, clock=lambda: now[0])
    d.timed.value = True
    d.seconds.value = 2
    now[0] += 60  # the first answer after the drill appears is not timed
    first = d.item.id
    assert d.respond(d.item.answer) is True and "ms" not in d.cells[first]
    assert "untimed" in plain_text(d.feedback)
    now[0] += 5  # too late: a right answer counts as a miss
    cell = d.item.id
    assert d.respond(d.item.answer) is False
    assert d.cells[cell]["last"] == "wrong" and d.cells[cell]["ms"] == 5000
    assert "limit 2 s" in plain_text(d.feedback)
    d.seconds.value = 10  # WCAG 2.2.1: the learner gives themself more time
    now[0] += 5
    cell = d.item.id
    assert d.respond(d.item.answer) is True
    # ... for the timed mode and rounds only: the bar is the course's, kept with the record
    # (issue 42: a 6 s box let a 5-second learner master 61 cells by day 3)
    assert "within 3 s" in plain_text(d.definition) and d.mastery_seconds == drill.MASTERY_SECONDS
    assert d.cells[cell]["pace"] == "slow" and d.cells[cell]["fsrs"]["state"] == 1
    assert bk.progress.load()["drill"]["mastery"] == {"rule": drill.MASTERY_RULE, "seconds": drill.MASTERY_SECONDS}


def test_the_clock_starts_when_the_browser_shows_the_prompt() -> None:
    """Issue 31: on main the first answer was timed from when the widget was built and render
    delay was charged (a 0.3 s answer logged as 2.0 s). The browser's echo of the prompt (the
    front end's jsdlink copies ``shown_token`` into ``seen_token``) starts the clock."""
    now = [0.0]
    d = Drill(lang="en", seed=3, coups=False, clock=lambda: now[0])
    link = d._echo
    assert (link.source, link.target) == ((d.shown_token, "value"), (d.seen_token, "value"))
    now[0] = 75.0  # the learner scrolled down to the drill
    d.respond(d.item.answer)
    assert d.timed_from == "kernel"  # sent; no echo yet
    now[0] += 1.7  # the kernel, the network and the browser's rendering take 1.7 s
    d.seen_token.value = d.shown_token.value  # what the front end's link does once applied
    assert d.timed_from == "screen"
    now[0] += 0.3  # the learner answers 0.3 s after seeing it
    cell = d.item.id
    d.respond(d.item.answer)
    assert d.cells[cell]["ms"] == 300 and d.cells[cell]["clock"] == "screen"
    d.seen_token.value = d.shown_token.value - 1  # a stale echo (an earlier prompt) is ignored
    assert d.timed_from == "kernel"
    now[0] += 2.0  # no echo (no front end): timed from when the kernel sent the prompt
    cell = d.item.id
    d.respond(d.item.answer)
    assert d.cells[cell]["ms"] == 2000


def test_whole_coups_are_labelled_as_dealt_by_the_kit() -> None:
    d = Drill(lang="en", seed=4, record=False, clock=itertools.count().__next__)
    while d.item.kind != "coup":
        d.respond(d.item.answer)
    assert d.item.params["dealt_by_kit"]
    assert "the kit dealt from a shuffled shoe" in plain_text(d.prompt)
    zh = Drill(lang="zh", seed=4, record=False, clock=itertools.count().__next__)
    zh.item = d.item
    zh._render_item()
    assert "本工具從洗好的牌靴發出的牌" in plain_text(zh.prompt)


def test_the_queue_line_shows_due_counts_and_stats() -> None:
    t = [1_800_000_000.0]
    d = Drill(lang="en", seed=2, record=False, coups=False, clock=itertools.count().__next__,
              now=lambda: t[0])
    assert "not yet asked 106" in plain_text(d.queue)
    wrong = d.item.id
    d.respond(_other(d))
    for _ in range(3):
        t[0] += 3
        d.respond(d.item.answer)
    text = plain_text(d.queue)
    assert "learning 4" in text and "4 answers, 75% right" in text and "not yet asked 102" in text
    t[0] += 30  # the missed cell is due
    d._render_status()
    assert "due now 1" in plain_text(d.queue)
    assert d._next_item().id == wrong


def test_keys_answer_and_the_record_survives_a_new_drill() -> None:
    clock = itertools.count(0, 1).__next__
    d = Drill(lang="en", seed=9, clock=clock)
    from baccarat_kit.widgets.drill import KEYS

    while d.step < drill.COUP_EVERY + 1:  # a whole coup among them, answered card by card
        d.key_box.value = KEYS[d.expected].upper()  # what typing into the key box does
        assert d.key_box.value == ""
    assert d.coup_stats == {"seen": 1, "right": 1}
    assert all(e["right"] == e["seen"] for e in d.cells.values())
    assert d.press("x") is None and "use" in plain_text(d.feedback)
    wrong = d.item.id if d.item.kind != "coup" else None
    if wrong:
        d.respond(_other(d))
    again = Drill(lang="en", seed=9, clock=clock)  # a kernel restart: a new widget, same record
    assert again.step == d.step and again.cells == d.cells
    record = bk.progress.load()
    assert record["drill"]["step"] == d.step
    assert "mastered" in bk.progress.report("en") or "Rule drill" in bk.progress.report("en")
    html = d.heatmap_html()
    assert html.count("<td") == 88 and "✔" in html
    if wrong:
        assert "bk-heat-missed" in html
    assert "aria-" not in html  # plain table semantics; no ARIA attribute on a cell


def test_mastery_line_counts_cells() -> None:
    d = Drill(lang="zh", seed=1, record=False, coups=False, clock=itertools.count().__next__)
    assert "0 / 106" in plain_text(d.mastery) and "0 / 88" in plain_text(d.mastery)
    assert "目前熟練" in plain_text(d.mastery) and "該溫習" in plain_text(d.mastery)
    assert "至少 16 小時" in plain_text(d.definition) and "不看日期" in plain_text(d.definition)


def test_the_widget_reaches_106_of_106_mastered_within_340_answers_on_separate_days() -> None:
    """The whole widget's own answer path (whole coups dealt card by card every tenth item, each
    decision an answer), a learner right in 2 s, one 60-answer session a day, a new widget (a new
    kernel) each day reading yesterday's record: its first answer untimed. Measured (seed 0,
    ``benchmarks/bench_mastery.py``): 106 / 106 mastered now in the 5th session under issue 42's
    evidence rule (the 6th under issue 37's two calendar dates; before the card-by-card coup and
    the mastered-last order of practising ahead: 27 sessions)."""
    start = 1_800_000_000.0
    t, c = [start], [0.0]  # the wall clock jumps a day between sessions; each answer takes 2 s
    seen: set[str] = set()
    coup_answers = 0
    d = None
    for n in range(340):
        if n % 60 == 0:
            t[0] = start + (n // 60) * drill.DAY
            d = Drill(lang="en", seed=0, clock=lambda: c[0], now=lambda: t[0])
        assert d is not None
        t[0] += 2
        c[0] += 2
        if d.item.kind != "coup":
            seen.add(d.item.id)
        else:
            coup_answers += 1
        d.respond(d.expected)
        if drill.mastered(d.cells) == len(drill.MASTERY_CELLS):
            break
    assert d is not None
    assert seen == set(drill.MASTERY_CELLS) and coup_answers > 2 * d.coup_stats["seen"] > 0
    assert "Mastered now: 106 / 106 cells (banker matrix 88 / 88)" in plain_text(d.mastery)
    assert n // 60 + 1 >= 3  # not in one sitting: the spaced reviews came on later days
    assert all(e["spaced"] >= 1 for e in d.cells.values())


def test_a_new_learner_gets_an_order_of_new_cells_of_their_own() -> None:
    from baccarat_kit.widgets.drill import DEFAULT_SEED

    d = Drill(lang="en", clock=itertools.count().__next__)
    assert d.seed == DEFAULT_SEED  # the first question: the same for all (stored outputs)
    d.respond(d.item.answer)
    record = bk.progress.load()
    assert d.seed == record["seed"] == record["drill"]["seed"]
    assert Drill(lang="en").seed == record["seed"]  # and it stays theirs


def test_a_clock_set_back_does_not_break_the_schedule() -> None:
    cells: dict = {}
    drill.answer(cells, "banker-6-vs-6", True, 1.0, step=0, now=2_000_000_000.0)
    entry = drill.answer(cells, "banker-6-vs-6", True, 1.0, step=1, now=1_000.0)  # another machine's clock
    assert entry["fsrs"]["last_review"] == 2_000_000_000.0 and entry["fsrs"]["state"] == 2


def test_every_cell_of_a_new_learners_map_is_a_box_of_its_own(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A new learner's 88 cells are all "not yet asked" (grey, no mark): each has a border, so
    the map shows 88 empty boxes, as its legend's □ says, not one grey block."""
    import re

    monkeypatch.setenv(bk.progress.PROGRESS_ENV, str(tmp_path))
    html = Drill(lang="zh", seed=1, record=False).heatmap_html()
    cells = re.findall(r'<td class="bk-heat-([a-z]+)" style="([^"]*)"', html)
    assert len(cells) == 88 and {state for state, _ in cells} == {"new"}
    assert all(re.search(r"border:\s*1px solid #[0-9a-f]{3}", style) for _, style in cells)
    assert "□" in html  # the legend's box


def test_the_map_marks_slow_cells_and_shows_the_median_answer_time() -> None:
    t = [0.0]
    d = Drill(lang="en", seed=3, record=False, coups=False, clock=lambda: t[0], now=lambda: 1_800_000_000.0 + t[0])
    assert "No timed answers yet" in plain_text(d.heatmap)
    times = {}
    while len(times) < 4:
        wait = 6.0 if len(times) % 2 else 1.0  # every other cell right but slow (over 3 s)
        t[0] += 60 if not times and d.shown_at is None else wait
        cell = d.item.id
        d.respond(d.item.answer)
        if "ms" in d.cells[cell]:
            times[cell] = wait
    html = d.heatmap_html()
    slow = [c for c, s in times.items() if s > drill.MASTERY_SECONDS]
    assert slow and all(drill.is_slow(d.cells[c]) for c in slow)
    banker_slow = [c for c in slow if c.startswith("banker-")]
    assert banker_slow and html.count('class="bk-heat-slow"') == len(banker_slow)
    assert "◷ right last time, but slow" in html and "· learning" in html  # a mark of its own
    for cell in banker_slow:  # each slow cell says, on hover and to a screen reader, how slow
        assert f"{bk.widgets.drill.cell_words(cell, 'en')}: right last time, but slow (over the mastery time), 6.0 s last time\"" in html
        assert ">◷<span class=\"bk-sr\"" in html and "(over the mastery time), 6.0 s last time</span>" in html
    assert "Your median answer time (each cell's latest): 3.5 s; the mastery time is 3 s." in plain_text(d.heatmap)
    zh = Drill(lang="zh", seed=3, record=False, coups=False)
    zh.cells = d.cells
    assert "中位數" in zh.heatmap_html() and "3.5 秒" in zh.heatmap_html()


def test_replay_a_leech_never_takes_over_a_session_and_a_slow_row_is_not_mastered_until_fast() -> None:
    """Issue 37: a learner always wrong on one cell and slow (4 s) on the banker-6 row. Issue
    42: the cell is suspended at its SUSPEND_AT-th lapse (and so asked no more)."""
    leech, slow_row = "banker-3-vs-8", [c for c in drill.MASTERY_CELLS if c.startswith("banker-6-")]
    fast_row = [c for c in drill.MASTERY_CELLS if c.startswith("banker-2-")]
    cells: dict = {}
    session = 60
    log = drill.replay(lambda c, _s: c != leech, 10 * session, seed=0, session=session, cells=cells,
                       seconds=lambda c, _s: 4.0 if c in slow_row else 2.0)
    asked_leech = [n for n, (c, _r) in enumerate(log) if c == leech]
    assert len(asked_leech) == drill.SUSPEND_AT  # missed, taught, suspended
    for start in range(0, len(log) - 19):  # no 20 answers in a row give it more than 3 (15 %)
        assert sum(1 for c, _r in log[start:start + 20] if c == leech) <= 3
    assert drill.suspended(cells) == [leech] and drill.leeches(cells) == []
    second = asked_leech[1]  # its 2nd miss: the nearest cells with the other answer, in a row
    assert [c for c, _r in log[second + 1:second + 1 + len(drill.contrast(leech))]] == list(drill.contrast(leech))
    assert all(not drill.is_mastered(cells[c]) for c in slow_row)  # slow: never mastered
    assert sum(drill.is_mastered(cells[c]) for c in fast_row) == len(fast_row)
    # The slow row comes back before the known cells: Hard, so due sooner.
    assert max(cells[c]["fsrs"]["due"] for c in slow_row) < min(cells[c]["fsrs"]["due"] for c in fast_row)
    # Once the learner answers the row fast, on other days, it is mastered; resumed, the cell is asked again.
    assert drill.unsuspend(cells, leech) is not None and not drill.is_suspended(cells[leech])
    assert drill.lapses(cells[leech]) == 0 and drill.spaced_needed(cells[leech]) == 1 + drill.SUSPEND_AT // drill.LEECH_MISSES
    more = drill.replay(lambda c, _s: True, 6 * session, seed=0, session=session, cells=cells,
                        start=1_800_000_000.0 + 10 * drill.DAY, seconds=2.0)
    assert all(drill.is_mastered(cells[c]) for c in slow_row) and leech in {c for c, _r in more}


def test_contrast_cells_are_the_nearest_with_the_other_answer_and_worked_coups_differ() -> None:
    """Issue 42: "the cells beside it" of banker 0 against a 5 named banker 6 against a 5."""
    assert drill.contrast("banker-3-vs-8") == ("banker-3-vs-7", "banker-3-vs-9", "banker-2-vs-8")
    assert drill.contrast("banker-0-vs-5") == ("banker-3-vs-8", "banker-6-vs-5")  # 6 steps: none nearer
    for cell in drill.MASTERY_CELLS:
        near = drill.contrast(cell)
        assert near and all(drill.item(c).answer != drill.item(cell).answer for c in near), cell
        kind, row, col = drill._position(cell)
        others = [c for c in drill.MASTERY_CELLS if drill.item(c).answer != drill.item(cell).answer
                  and drill._position(c)[0] == kind and (drill._position(c)[2] == 10) == (col == 10)]
        dist = {c: abs(drill._position(c)[1] - row) + abs(drill._position(c)[2] - col) for c in others}
        assert dist[near[0]] == min(dist.values()), cell  # nothing nearer left out
    variants = set()
    for n in range(6):
        coup = drill.worked_coup("banker-3-vs-8", n)
        assert coup.player_third.value == 8 and coup.banker_third is None  # the engine stood
        variants.add(tuple(map(str, (*coup.player_cards, *coup.banker_cards))))
    assert len(variants) >= 5  # a different coup each time
    for cell in drill.MASTERY_CELLS:
        assert drill._reaches(drill.worked_coup(cell, 1), cell), cell
    cells: dict = {}
    for n in range(drill.LEECH_MISSES):
        assert not drill.is_leech(cells.get("player-5"))
        drill.answer(cells, "player-5", False, 1.0, step=n, now=n * 100.0)
    assert drill.is_leech(cells["player-5"]) and drill.teaching(cells["player-5"]) == "coup"


def test_teaching_escalates_by_lapse_count_each_level_different_and_suspends() -> None:
    """Issue 42: misses 5, 10 and 11 of a cell showed the identical block. Now, by lapse count:
    the rule row; the nearest cells with the other answer, asked next in a row; a worked coup the
    kit makes up, dealt card by card; the lesson section and a quiz on the row; suspension."""
    d = Drill(lang="en", seed=2, record=False, coups=False, clock=itertools.count().__next__)
    target = "banker-3-vs-8"
    blocks, nexts, texts = [], [], []
    for _ in range(drill.SUSPEND_AT):
        d.item, d.deal = drill.item(target), None
        d.respond("draw")  # wrong: banker 3 stands on an 8
        html = d.feedback.value
        texts.append(plain_text(d.feedback))
        level = re.search(r"bk-drill-teach-([a-z]+)", html)
        assert level, html
        blocks.append(level.group(1))
        nexts.append(d.item)
    assert blocks == list(drill.TEACHING)
    text = texts[-1]
    assert "banker 3 draws when the player's third card is 0–7, 9, stands when it is 8" in texts[0]
    assert "the nearest cells with the other answer: banker 3 against a player third card 7: Draw" in texts[1]
    assert "a coup the kit makes up to reach this cell, dealt card by card" in texts[2]
    assert "a quiz on this row" in texts[3] and "comes back soon" not in text  # suspended: it does not
    assert len(set(texts)) == len(texts)  # each level different from the last
    assert nexts[1].id == "banker-3-vs-7"  # the mini-drill: the nearest cells with the other answer
    assert nexts[2].kind == "coup" and nexts[2].params["made_up"] and nexts[2].params["cell"] == target
    assert nexts[3].kind == "row" and nexts[3].params["cell"] == target
    assert "suspended" in text and "04-banker-rule.ipynb#3.-Branch-B" in d.feedback.value
    assert drill.is_suspended(d.cells[target]) and target not in {d._next_item().id for _ in range(30)}
    html = d.heatmap_html()
    assert 'class="bk-heat-suspended"' in html and "‖" in html
    assert "Suspended cells (missed again and again): banker 3 against a player third card 8" in html
    assert d.unsuspend_button.layout.display is None and "Resume the suspended cells (1)" == d.unsuspend_button.description
    assert d.unsuspend() == [target] and not drill.is_suspended(d.cells[target])
    assert d.unsuspend_button.layout.display == "none"
    zh = Drill(lang="zh", seed=2, record=False, coups=False)
    zh.cells = {target: {**d.cells[target], "lapses": 2, "base": 0, "last": "wrong"}}
    assert "離它最近、答案不同的格子" in plain_text(zh._feedback_html(drill.item(target), "draw", False, False, 1.0))


def test_a_worked_coup_and_a_row_quiz_are_answered_in_the_widget() -> None:
    d = Drill(lang="en", seed=2, record=False, coups=False, clock=itertools.count().__next__)
    target = "banker-0-vs-5"
    for _ in range(3):
        d.item, d.deal = drill.item(target), None
        d.respond("stand")
    assert d.item.kind == "coup" and d.item.params["made_up"]
    assert "A coup the kit made up to reach this cell: these cards are not any source's." in plain_text(d.prompt)
    while d.item.kind == "coup":
        d.respond(d.expected)
    d.item, d.deal = drill.item(target), None
    d.respond("stand")  # the 4th miss: the lesson section, then a quiz on the row
    assert d.item.kind == "row" and d.kind == "row"
    assert "On which values of the player's third card does the banker draw?" in plain_text(d.prompt)
    labels = [b.description for b in d.answer_row.children]
    assert "0–9 (1)" in labels or "0–9 (2)" in labels or "0–9 (3)" in labels
    right = d.item.answer
    assert d.press(str("abc".index(right) + 1)) is True
    assert "banker 0 draws whatever the player's third card" in plain_text(d.feedback)


# ---------------------------------------------------------------- a whole coup, card by card
def _coups(n: int = 400) -> list:  # type: ignore[type-arg]
    return [drill.coup_item(seed, k).params["coup"] for seed in range(4) for k in range(n // 4)]


def test_the_card_by_card_coup_asks_the_engines_decisions_in_order_and_reveals_card_by_card() -> None:
    """Every stage's answer is the engine's (the coup's own step records), each third card is
    shown only after its decision is answered, a natural ends the deciding."""
    kinds = set()
    for coup in _coups():
        deal = drill.CardByCard(coup)
        assert len(deal.player_shown) == len(deal.banker_shown) == 2
        qs = deal.questions
        assert qs[0].step is coup.steps[0] and qs[-1].stage == "winner" and qs[-1].answer == coup.winner
        pt, bt = (sum(c.value for c in h[:2]) % 10 for h in (coup.player_cards, coup.banker_cards))
        if coup.natural:
            assert [q.stage for q in qs] == ["player", "winner"] and qs[0].answer == "natural"
            assert qs[0].cell in (f"natural-{pt}", f"natural-{bt}") and bk.rules.is_natural(int(qs[0].cell[8:]))
            kinds.add("natural")
        else:
            assert qs[0].answer == ("draw" if bk.player_draws(pt) else "stand") and qs[0].cell == f"player-{pt}"
            third = coup.player_third.value if coup.player_third else None
            assert qs[1].answer == ("draw" if bk.banker_draws(bt, third) else "stand")
            assert qs[1].cell == bk.rules.banker_rule(bt, third) and qs[1].step is coup.steps[1]
            kinds.add(("player", qs[0].answer, "banker", qs[1].answer))
        shown = []
        while not deal.finished:
            shown.append((len(deal.player_shown), len(deal.banker_shown)))
            deal, said = deal.answer(deal.question.answer)
            assert said.right and said.missed is None
        assert deal.right and deal.misses == () and deal.question is None and deal.choices == ()
        assert shown[0] == (2, 2)
        if not coup.natural:  # the player's third card only after the player's decision
            assert shown[1] == (len(coup.player_cards), 2) and shown[2] == (len(coup.player_cards), len(coup.banker_cards))
    assert len(kinds) >= 4  # naturals, and both hands drawing and standing, were dealt


def test_a_wrong_decision_in_a_coup_is_a_miss_of_its_cell_and_a_right_one_no_review() -> None:
    from baccarat_kit.coup import play

    deal = drill.CardByCard(play("2 3 3 4 4"))  # player 5 draws a 4; banker 7 stands; player 9 wins
    deal, said = deal.answer("natural")  # a natural taken where there is none: the higher total's
    assert not said.right and said.missed == "natural-7"
    deal2, said2 = drill.CardByCard(play("2 3 3 4 4")).answer("stand")
    assert said2.missed == "player-5" and said2.question.step.explain("en").startswith("Player 5 (0–5 draws)")
    deal, said = deal.answer("draw")
    assert said.missed == "banker-7-vs-4"
    deal, said = deal.answer("banker")
    assert not said.right and said.missed is None  # who wins: not a cell
    assert deal.misses == ("natural-7", "banker-7-vs-4") and not deal.right
    _, nat = drill.CardByCard(play("4 4 4 5")).answer("draw")  # both naturals: the player's 8
    assert nat.missed == "natural-8"
    with pytest.raises(bk.BaccaratError) as err:
        deal2.answer("tie")
    assert "draw, stand" in err.value.message("en") and "'tie'" in err.value.message("en")
    cells: dict = {}
    assert drill.coup_miss(cells, said2, step=3, now=100.0) is not None
    entry = cells["player-5"]
    assert entry["lapses"] == 1 and entry["last"] == "wrong" and "ms" not in entry
    assert entry["fsrs"]["due"] == 100.0 + drill.LEARNING_STEPS[0].total_seconds()
    _, right = drill.CardByCard(play("2 3 3 4 4")).answer("draw")
    assert drill.coup_miss(cells, right, step=4, now=110.0) is None and cells["player-5"]["seen"] == 1


def _to_coup(d: Drill) -> None:
    while d.item.kind != "coup":
        d.respond(d.expected)


def test_the_widget_deals_a_coup_card_by_card_by_keys_with_the_engines_reasons() -> None:
    from baccarat_kit.widgets.drill import KEYS

    d = Drill(lang="en", seed=4, record=False, clock=itertools.count().__next__)
    _to_coup(d)
    coup = d.item.params["coup"]
    p2 = " ".join(c.label for c in coup.player_cards[:2])
    assert f"Player {p2}," in plain_text(d.prompt) and "the kit dealt from a shuffled shoe" in plain_text(d.prompt)
    assert "Or is there a natural" in plain_text(d.prompt)
    assert [b.description for b in d.answer_row.children] == ["Draw (D)", "Stand (S)", "Natural (N)"]
    first = d.deal.question
    wrong = next(v for v in ("draw", "stand", "natural") if v != first.answer)
    step = d.step
    d.key_box.value = KEYS[wrong]
    text = plain_text(d.feedback)
    assert "counts as a miss of the cell" in text and first.step.explain("en") in text
    missed = d.deal.misses[0]
    assert d.cells[missed]["lapses"] == 1 and d.cells[missed]["clock"] == "coup" and d.step == step
    while d.item.kind == "coup":
        if d.kind == "coup-banker":
            assert "Banker: draw or stand?" in plain_text(d.prompt)
            assert [b.description for b in d.answer_row.children] == ["Draw (D)", "Stand (S)"]
            if coup.player_third is not None:
                assert coup.player_third.label in plain_text(d.prompt)
        d.key_box.value = KEYS[d.expected]
    assert "Result:" in plain_text(d.feedback) and "This coup: " in plain_text(d.feedback)
    assert d.coup_stats == {"seen": 1, "right": 0} and d.step == step + 1
    zh = Drill(lang="zh", seed=4, record=False, clock=itertools.count().__next__)
    _to_coup(zh)
    assert "還是有例牌" in plain_text(zh.prompt) and "例牌 (N)" in [b.description for b in zh.answer_row.children]


# ---------------------------------------------------------------- timed rounds
def test_a_timed_round_times_each_cell_against_its_target_and_keeps_the_best() -> None:
    clock = [0.0]
    d = Drill(lang="en", seed=6, clock=lambda: clock[0])
    assert "Timed round: 20 questions against the clock" in plain_text(d.round_status)
    assert d.round_button.description == "Start a timed round (20 questions)"
    d.seconds.value = 2
    d.start_round(size=4)
    assert d.round is not None and d.round.target == 2
    times = [1.0, 3.5, 1.5, 1.0]
    asked = []
    for n, s in enumerate(times):
        assert f"question {n + 1} of 4" in plain_text(d.round_status)
        assert d.item.kind != "coup"  # no whole coup in a round
        clock[0] += s
        asked.append(d.item.id)
        d.respond(d.expected if n != 2 else _other(d))
    assert d.round is None
    text = plain_text(d.round_status)
    assert "Timed round over: 3 of 4 right, 1 wrong, in 7.0 s." in text
    from baccarat_kit.widgets.drill import cell_words

    assert f"Cells over their target: {cell_words(asked[1], 'en')}" in text
    assert f"{cell_words(asked[1], 'en')}: 3.5 s (target 2 s) ◷ over target" in text
    assert f"Cells missed in this round: {cell_words(asked[2], 'en')}" in text
    assert "Best round: 3 of 4 right in 7.0 s. A new best!" in text
    assert all(d.cells[c]["seen"] >= 1 for c in asked)  # ordinary answers: FSRS has them
    assert drill.is_slow(d.cells[asked[1]])  # over the (same) mastery time: Hard
    rounds = bk.progress.load()["drill"]["rounds"]
    assert rounds["count"] == 1 and rounds["best"]["right"] == 3 and rounds["best"]["over"] == 1
    d.start_round(size=4)  # a slower, worse round: the best stays
    for _ in range(4):
        clock[0] += 2.5
        d.respond(_other(d))
    assert "A new best!" not in plain_text(d.round_status)
    again = Drill(lang="zh", seed=6)  # a new kernel: the best round is back
    assert "最佳一輪：4 題答對 3 題，7.0 秒。" in plain_text(again.round_status)
    assert bk.progress.load()["drill"]["rounds"]["count"] == 2


def test_an_untimed_answer_does_not_refresh_a_mastered_cell() -> None:
    """Red team of issue 42: the first answer after a drill appears is untimed, and it renewed
    a cell due for a refresh ("one right, in-time answer renews it")."""
    cells: dict = {}
    for i, c in enumerate(drill.MASTERY_CELLS):
        drill.answer(cells, c, True, 1.0, step=i, now=0)
    cell, now, step = "player-5", 0.0, 200
    while not drill.is_mastered(cells[cell]):
        now += 3 * drill.DAY
        step += 1
        drill.answer(cells, cell, True, 1.0, step=step, now=now)
    later = float(cells[cell]["fsrs"]["due"]) + 1
    assert drill.needs_refresh(cells[cell], later)
    drill.answer(cells, cell, True, None, step=step + 1, now=later)
    assert drill.needs_refresh(cells[cell], later + 1) and not drill.is_mastered_now(cells[cell], later + 1)
    drill.answer(cells, cell, True, 1.5, step=step + 2, now=later + 60)
    assert drill.is_mastered_now(cells[cell], later + 120)


def test_a_date_set_forward_in_one_sitting_masters_nothing() -> None:
    """Red team of issue 42 ("nothing is mastered within one sitting, whatever the clock says"):
    the system's date moved 17 h on in the middle of a sitting mastered all 106 cells."""
    wall, mono = [1.9e9], [0.0]
    d = Drill(lang="en", seed=3, coups=False, clock=lambda: mono[0],
              now=drill.sitting_clock(lambda: wall[0], lambda: mono[0]))
    for jump in (0.0, 17 * 3600.0):
        wall[0] += jump
        for _ in range(120):
            wall[0] += 1.0
            mono[0] += 1.0
            d.respond(d.expected)
    assert drill.mastered(d.cells, d.now()) == 0  # with the wall clock alone: 106 of 106
    assert max(e["t"] for e in d.cells.values()) <= 1.9e9 + 240  # the times kept are the real ones
    wall[0] = 1.9e9 + 100.0  # a date set back is believed
    assert d.now() == wall[0]


def test_a_rounds_clock_is_real_elapsed_time_and_the_button_cannot_reset_it() -> None:
    """Red team of issue 42: pressing "Start a timed round" again restarted the round under way
    and the question's clock, and pressing it on a question already read gave it fresh seconds."""
    clock = [100.0]
    d = Drill(lang="en", seed=6, record=False, coups=False, clock=lambda: clock[0])
    d.respond(d.expected)  # the drill's first answer (untimed); the next question is timed
    clock[0] += 10.0  # read for 10 s …
    asked = d.item.id
    d.start_round(size=3)  # … then the button: the question and its clock stay
    assert d.item.id == asked and d.round_button.disabled
    d.respond(d.expected)
    assert d.cells[asked]["ms"] == 10_000 and drill.is_slow(d.cells[asked])
    clock[0] += 1.0
    round_under_way = d.round
    d.start_round(size=3)  # again, during the round: nothing restarts
    assert d.round is round_under_way and len(d.round.answers) == 1
    d.seen_token.value = d.shown_token.value  # the browser's echo, 1 s after the kernel sent it
    clock[0] += 1.0
    d.respond(d.expected)
    clock[0] += 0.5
    d.respond(d.expected)
    s = d.last_round
    assert s is not None and d.round is None and not d.round_button.disabled
    assert s["seconds"] == 12.5  # from the first question on screen to the last answer, not 11.5
    assert "in 12.5 s." in plain_text(d.round_status)


def test_one_slow_right_answer_puts_a_cell_over_its_target() -> None:
    r = drill.TimedRound(size=3, target=3.0)
    for seconds in (1.0, 10.0, 1.0):
        r = r.add("player-5", True, seconds)
    cell = r.summary()["cells"][0]
    assert (cell["median"], cell["slowest"], cell["over"]) == (1.0, 10.0, True)
    assert r.summary()["over"] == ["player-5"]


def test_a_round_started_on_the_drills_first_untimed_question_asks_another() -> None:
    clock = [0.0]
    d = Drill(lang="en", seed=6, record=False, coups=False, clock=lambda: clock[0])
    first = d.item.id
    clock[0] += 30.0  # read, untimed, for 30 s
    d.start_round(size=2)
    assert d.item.id != first and d.shown_at == 30.0


def test_a_round_started_during_a_coup_puts_the_coup_back_and_the_pure_round_refuses_extra_answers() -> None:
    d = Drill(lang="en", seed=4, record=False, clock=itertools.count().__next__)
    _to_coup(d)
    seen = d.coup_stats["seen"]
    d.start_round(size=2)
    assert d.item.kind != "coup" and d.deal is None and d.coup_stats["seen"] == seen
    r = drill.TimedRound(size=1, targets={"player-5": 1.0}).add("player-5", True, 1.5)
    assert r.summary()["over"] == ["player-5"] and r.target_for("natural-8") == drill.MASTERY_SECONDS
    with pytest.raises(bk.BaccaratError):
        r.add("player-5", True, 1.0)


def test_every_cell_gets_the_engines_row_full_and_empty_banker_rows_as_the_trace_says() -> None:
    """Issue 42: for banker 0–2 and 7 (40 cells, both editions) the row read "banker 7 draws when
    the player's third card is , stands when it is 0–9"."""
    rows = {"player-6": "the player draws on 0–5, stands on 6–7",
            "natural-8": "a first-two-card total of 8–9 is a natural, 0–7 is not",
            "banker-6-player-stood": "when the player stood, the banker draws on 0–5, stands on 6–7",
            "banker-3-vs-8": "banker 3 draws when the player's third card is 0–7, 9, stands when it is 8",
            "banker-7-vs-2": "a banker 7 always stands",
            "banker-1-vs-9": "a banker 1 draws whatever the player's third card"}
    for lang in ("en", "zh"):
        d = Drill(lang=lang, seed=2, record=False, coups=False)
        for cell in drill.MASTERY_CELLS:
            text = d._row_text(cell)
            assert " , " not in text and "，" != text[-1] and not re.search(r"(is|是) ?(,|，|時)", text), (lang, text)
            if cell in rows and lang == "en":
                assert text == "This row of the rule table (asked of the rules engine): " + rows[cell] + ".", text
        assert "莊家 7 點一律停牌" in d._row_text("banker-7-vs-0") or lang == "en"
    zh = Drill(lang="zh", seed=2, record=False, coups=False)
    zh.cells = {"player-6": {"lapses": 1, "last": "wrong"}}
    assert "閒家 0–5 點補牌，6–7 點停牌" in zh._feedback_html(drill.item("player-6"), "draw", False, False, 1.0)


def test_ahead_of_time_a_cell_not_yet_mastered_comes_before_the_mastered_ones() -> None:
    """Nothing due, every cell seen: the widget replay with a new kernel each day left two cells,
    sent days away by an untimed first answer of a day, behind every mastered cell for 20
    sessions. Practising ahead asks a cell not yet mastered first."""
    cells: dict = {}
    day = drill.DAY
    for n, cell in enumerate(drill.MASTERY_CELLS):
        drill.answer(cells, cell, True, 1.0, step=n, now=float(n))
        drill.answer(cells, cell, True, 1.0, step=200 + n, now=day + n)  # mastered, due in days
    late = "banker-5-vs-8"
    cells[late] = {}
    drill.answer(cells, late, True, None, step=0, now=0.0)  # untimed first answers only
    drill.answer(cells, late, True, None, step=400, now=day * 3)
    assert not drill.is_mastered(cells[late]) and drill.mastered(cells) == 105
    now = day * 3 + 10
    assert drill.stats(cells, now)["due"] == 0
    assert cells[late]["fsrs"]["due"] > max(e["fsrs"]["due"] for c, e in cells.items() if c != late)
    assert drill.choose(cells, 500, seed=0, now=now) == late


# ---------------------------------------------------------------- issue 42: learners that must not pass
def _belief(cell: str, _step: int) -> bool:
    """"Banker draws on 0–5, stands on 6–7, whatever the player's third card", held."""
    it = drill.item(cell)
    return not cell.startswith("banker-") or ("draw" if it.params["total"] <= 5 else "stand") == it.answer


def test_a_held_misconception_never_stalls_the_rest() -> None:
    """Issue 42: after 10 sessions 60 cells had never been asked. Now every cell is asked within
    5 sessions and no cell takes more than 15 % of one (measured, seed 0: all asked in the 5th;
    the worst 8 %); the 13 cells of the belief end suspended, the others mastered."""
    cells: dict = {}
    log = drill.replay(_belief, 10 * 60, seed=0, seconds=2.0, session=60, cells=cells)
    assert {c for c, _r in log[:5 * 60]} == set(drill.MASTERY_CELLS)
    for s in range(10):
        part = [c for c, _r in log[s * 60:(s + 1) * 60]]
        assert max(part.count(c) for c in set(part)) <= 0.15 * 60
    wrong = [c for c in drill.MASTERY_CELLS if not _belief(c, 0)]
    assert len(wrong) == 13 and drill.suspended(cells) == wrong
    assert drill.mastered(cells) == len(drill.MASTERY_CELLS) - len(wrong)


def test_a_guesser_masters_at_most_one_cell_in_30_sessions() -> None:
    """Issue 42: a coin-flipper mastered 14–30 cells after 10 sessions. Measured (10 seeds of
    benchmarks' guesser): none, ever."""
    rng = random.Random("guesser")
    ever: set[str] = set()
    cells: dict = {}
    drill.replay(lambda _c, _s: rng.random() < 0.5, 30 * 60, seed=0, seconds=1.5, session=60, cells=cells,
                 on_session=lambda _n, c, _t: ever.update(x for x in drill.MASTERY_CELLS if drill.is_mastered(c.get(x))))
    assert len(ever) <= 1


def test_the_drill_has_one_persistent_live_region() -> None:
    """Issue 42: the feedback's role="status" element was removed and added again on every answer.
    The drill has one live region (``live``, ``widgets/_common.live_region``: the page marks its
    element once; its text changes), which says the feedback and then the next question; no
    output's value carries a role, nor the prompt an aria-live."""
    from baccarat_kit.widgets._common import LIVE

    d = Drill(lang="en", seed=4, record=False, clock=itertools.count().__next__)
    assert [w for w in d.children if LIVE in getattr(w, "_dom_classes", ())] == [d.live]
    for n in range(30):
        d.respond(d.expected if n % 3 else next(v for v, _k in CHOICES[d.kind] if v != d.expected))
        for out in (d.feedback, d.prompt, d.round_status, d.live):
            assert "role=" not in out.value and "aria-live" not in out.value
        said = plain_text(d.live)
        assert said.startswith(plain_text(d.feedback).split("\n")[0]) and plain_text(d.prompt) in said
    d.press("x")
    assert "role=" not in d.feedback.value and plain_text(d.live).startswith("For this question use:")


def test_the_lesson_links_name_headings_of_each_edition() -> None:
    """The 4th miss links the lesson section of the cell's table: each link's heading exists in
    the lesson of its edition (JupyterLab's anchors: the heading with spaces as hyphens)."""
    import json

    from baccarat_kit.i18n import message

    root = Path(__file__).resolve().parents[1] / "notebooks"
    for lang, folder in (("zh", root), ("en", root / "en")):
        for table in ("natural", "player", "stood", "banker"):
            href = message(f"widgets.drill.lesson-{table}-href", lang)
            name, _hash, anchor = href.partition("#")
            cells = json.loads((folder / name).read_text(encoding="utf-8"))["cells"]
            heads = {line.lstrip("#").strip().replace(" ", "-") for c in cells if c["cell_type"] == "markdown"
                     for line in "".join(c["source"]).splitlines() if line.startswith("#")}
            assert anchor in heads, (lang, href)
