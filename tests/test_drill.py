"""The drill: every rule cell from the engine, a seeded spaced-repetition scheduler, mastery,
a timed mode with adjustable time (fake clock), keys, a record that survives a new kernel."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

import baccarat_kit as bk
from baccarat_kit import drill

pytest.importorskip("ipywidgets")
from baccarat_kit.widgets import Drill, plain_text


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


def test_a_missed_cell_comes_back_before_a_mastered_one() -> None:
    """Issue 22's done-when: with a seeded scheduler, the missed cell is asked first."""
    cells: dict = {}
    missed, known = "banker-5-vs-7", "banker-3-vs-8"
    step = 0
    for _ in range(3):
        drill.answer(cells, known, True, 1.0, step=step)
        step += 1
    drill.answer(cells, missed, False, 1.0, step=step)
    step += 1
    asked = []
    for s in range(step, step + 40):
        cell = drill.choose(cells, s, seed=11, pool=(missed, known, *drill.BANKER_CELLS[:20]))
        asked.append(cell)
        drill.answer(cells, cell, True, 1.0, step=s)
    assert missed in asked and known in asked
    assert asked.index(missed) < asked.index(known)
    assert asked.index(missed) <= drill.RETRY_AFTER
    assert drill.is_mastered(cells[known]) and drill.mastered(cells) >= 1
    # The same seed and record choose the same cell; another seed may not.
    assert drill.choose({}, 0, seed=3) == drill.choose({}, 0, seed=3)
    assert len({drill.choose({}, 0, seed=s) for s in range(20)}) > 1


def test_mastery_needs_two_fast_right_answers_in_a_row() -> None:
    cells: dict = {}
    drill.answer(cells, "player-5", True, 4.0, step=0)   # right but slow
    drill.answer(cells, "player-5", True, 1.0, step=1)
    assert not drill.is_mastered(cells["player-5"])
    drill.answer(cells, "player-5", True, 2.9, step=2)
    assert drill.is_mastered(cells["player-5"])
    drill.answer(cells, "player-5", False, 1.0, step=3)
    assert not drill.is_mastered(cells["player-5"]) and cells["player-5"]["due"] == 3 + drill.RETRY_AFTER
    slow: dict = {}
    drill.answer(slow, "player-5", True, 5.0, step=0, mastery_seconds=6)
    drill.answer(slow, "player-5", True, 5.0, step=1, mastery_seconds=6)
    assert drill.is_mastered(slow["player-5"])  # the adjusted time counts


def _other(d: Drill) -> str:
    from baccarat_kit.widgets.drill import CHOICES

    return next(v for v, _k in CHOICES[d.item.kind] if v != d.item.answer)


def test_timed_mode_with_an_adjustable_time_on_a_fake_clock() -> None:
    now = [0.0]
    d = Drill(lang="en", seed=5, coups=False, clock=lambda: now[0])
    d.timed.value = True
    d.seconds.value = 2
    now[0] += 5  # too late: a right answer counts as a miss
    cell = d.item.id
    assert d.respond(d.item.answer) is False
    assert d.cells[cell]["last"] == "wrong" and d.cells[cell]["ms"] == 5000
    assert "limit 2 s" in plain_text(d.feedback)
    d.seconds.value = 10  # WCAG 2.2.1: the learner gives themself more time
    now[0] += 5
    assert d.respond(d.item.answer) is True
    assert "within 10 s" in plain_text(d.definition)


def test_keys_answer_and_the_record_survives_a_new_drill() -> None:
    clock = itertools.count(0, 1).__next__
    d = Drill(lang="en", seed=9, clock=clock)
    key = {"draw": "d", "stand": "s", "yes": "y", "no": "n", "player": "p", "banker": "b", "tie": "t"}
    for _ in range(8):
        d.key_box.value = key[d.item.answer].upper()  # what typing into the key box does
        assert d.key_box.value == ""
    assert d.step == 8 and all(e["right"] == e["seen"] for e in d.cells.values())
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
    assert "連續答對 2 次" in plain_text(d.definition)
