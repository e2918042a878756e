"""Item analysis of the class report (``grading/report/items.py``): the figures against hand
computation and a reference formula, the edge cases that have no figure, the flags, the options
counted from what the grader records, and the section of the page in both languages."""

from __future__ import annotations

import copy
import math
import random
import sys
from collections import Counter
from fractions import Fraction
from itertools import groupby
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from baccarat_kit.grading import report as rp
from baccarat_kit.grading.grade import default_source, load_exercises
from baccarat_kit.grading.judge.checks import correct_option, grade_question
from baccarat_kit.grading.report import items as it
from baccarat_kit.grading.report.items import (
    NO_ANSWER,
    NOT_RECORDED,
    group_size,
    item_rest_correlation,
    upper_lower_index,
)

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
from report_class import make_class  # noqa: E402
from test_report import Page  # noqa: E402


# ---------------------------------------------------------------- a class by hand
def _row(learner: str, exercise: str, scores: dict[str, float], points: dict[str, int] | None = None,
         extra: dict[str, dict[str, Any]] | None = None) -> dict[str, Any]:
    points = points or dict.fromkeys(scores, 1)
    qs = {q: {"score": s, "points": points[q], "passed": s >= points[q], **(extra or {}).get(q, {})}
          for q, s in scores.items()}
    return {"file": f"c/{learner}/{exercise}.ipynb", "learner": learner, "owner": learner, "exercise": exercise,
            "status": "ok", "score": sum(scores.values()), "max_score": sum(points.values()), "questions": qs}


def _doc(rows: list[dict[str, Any]]) -> dict[str, Any]:
    return {"schema_version": 5, "limits": {}, "submissions": rows}


HAND = {  # learner: (q1, q2, q3), a right/wrong exercise of three questions
    "ann": (1, 1, 1), "bob": (1, 1, 0), "cy": (1, 0, 1), "dee": (0, 1, 0), "eve": (0, 0, 0),
}


def _hand_items(min_responses: int = 1) -> dict[str, it.ItemStat]:
    rows = [_row(lr, "99-hand", dict(zip(("q1", "q2", "q3"), map(float, xs), strict=True))) for lr, xs in HAND.items()]
    rep = rp.build_report(_doc(rows))
    items = it.analyse({"99-hand": [r["questions"] for r in rows]}, rep.exercises, min_responses)
    assert [i.id for i in rep.items] == ["q1", "q2", "q3"]  # (the report's own call, default minimum)
    return {i.id: i for i in items}


def test_a_hand_computed_class() -> None:
    """q1: x = 1 1 1 0 0, rest = 2 1 1 1 0. p = 3/5; the right ones' mean rest M1 = 4/3, the wrong
    ones' M0 = 1/2, s_R = √(2/5) (divisor n): r = (M1 − M0)/s_R · √(pq) = 5/6 · √(3/5) = 0.645497.
    k = ⌊0.27·5 + ½⌋ = 1: the upper learner (rest 2) is right, the lower (rest 0) wrong: D = 1.

    q3: x = 1 0 1 0 0, rest = 2 2 1 1 0. M1 = 3/2, M0 = 1, s_R² = 0.56, p = 2/5:
    r = ½ · √(0.24/0.56) = ½√(3/7) = 0.327327. The upper group is one of the two tied at rest 2
    (one right, one wrong): ½ each; the lower learner is wrong: D = ½."""
    items = _hand_items()
    q1, q3 = items["q1"], items["q3"]
    assert (q1.n, q1.full, q1.difficulty) == (5, 3, pytest.approx(0.6))
    assert q1.r == pytest.approx(5 / 6 * math.sqrt(3 / 5), abs=1e-12)
    assert q1.d == pytest.approx(1.0)
    assert q3.difficulty == pytest.approx(0.4)
    assert q3.r == pytest.approx(0.5 * math.sqrt(3 / 7), abs=1e-12)
    assert q3.d == pytest.approx(0.5)
    assert round(q1.r, 6) == 0.645497 and round(q3.r, 6) == 0.327327
    # q2: x = 1 1 0 1 0, rest = 2 1 2 0 0
    x, rest = [1, 1, 0, 1, 0], [2, 1, 2, 0, 0]
    assert items["q2"].r == pytest.approx(np.corrcoef(x, rest)[0, 1], abs=1e-12)


def test_the_point_biserial_formula_is_pearsons_r() -> None:
    """For right/wrong items, (M1 − M0)/s · √(pq) and numpy's corrcoef agree on seeded data."""
    rng = random.Random(35)
    for _ in range(200):
        n = rng.randint(2, 60)
        x = [float(rng.random() < 0.6) for _ in range(n)]
        rest = [float(rng.randint(0, 8)) for _ in range(n)]
        r = item_rest_correlation(x, rest)
        if len(set(x)) == 1 or len(set(rest)) == 1:
            assert r is None
            continue
        right = [b for a, b in zip(x, rest, strict=True) if a]
        wrong = [b for a, b in zip(x, rest, strict=True) if not a]
        p = len(right) / n
        mean = sum(rest) / n
        s = math.sqrt(sum((b - mean) ** 2 for b in rest) / n)
        by_hand = (sum(right) / len(right) - sum(wrong) / len(wrong)) / s * math.sqrt(p * (1 - p))
        assert r == pytest.approx(by_hand, abs=1e-9)
        assert r == pytest.approx(float(np.corrcoef(x, rest)[0, 1]), abs=1e-9)


scores = st.sampled_from([0.0, 0.25, 0.5, 0.75, 1.0, 1.5, 2.0])


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(scores, st.integers(0, 12)), min_size=2, max_size=80))
def test_item_rest_r_equals_numpy_corrcoef(pairs: list[tuple[float, int]]) -> None:
    x = [a for a, _ in pairs]
    rest = [float(b) for _, b in pairs]
    r = item_rest_correlation(x, rest)
    if len(set(x)) == 1 or len(set(rest)) == 1:
        assert r is None
    else:
        assert r is not None and -1.0 <= r <= 1.0
        assert r == pytest.approx(float(np.corrcoef(x, rest)[0, 1]), abs=1e-9)


def _reference_d(x: list[float], rest: list[float], points: float) -> Fraction:
    """Kelley's D in exact fractions: groups of equal rest scores walked from each end, the
    group at the edge weighted by the places left in it."""
    k = group_size(len(x))

    def edge(descending: bool) -> Fraction:
        pairs = sorted(zip(rest, x, strict=True), key=lambda p: p[0], reverse=descending)
        left, total = k, Fraction(0)
        for _, group in groupby(pairs, key=lambda p: p[0]):
            xs = [Fraction(v) for _, v in group]
            take = min(left, len(xs))
            total += sum(xs, Fraction(0)) * take / len(xs)
            left -= take
            if not left:
                break
        return total / k

    return (edge(True) - edge(False)) / Fraction(points)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(scores, st.integers(0, 6)), min_size=2, max_size=80), st.randoms(use_true_random=False))
def test_upper_lower_d_matches_an_exact_reference_and_ignores_row_order(pairs: list[tuple[float, int]],
                                                                      shuffle: random.Random) -> None:
    x = [a for a, _ in pairs]
    rest = [float(b) for _, b in pairs]
    d = upper_lower_index(x, rest, 2.0)
    if len(set(x)) == 1 or len(set(rest)) == 1:
        assert d is None
        return
    assert d == pytest.approx(float(_reference_d(x, rest, 2.0)), abs=1e-12)
    shuffle.shuffle(pairs)
    assert upper_lower_index([a for a, _ in pairs], [float(b) for _, b in pairs], 2.0) == pytest.approx(d, abs=1e-12)


def test_without_ties_d_is_the_plain_top_minus_bottom() -> None:
    rng = random.Random(7)
    for n in (2, 3, 10, 37, 100):
        rest = [float(v) for v in rng.sample(range(1000), n)]
        x = [float(rng.random() < 0.5) for _ in range(n)]
        if len(set(x)) == 1:
            x[0] = 1.0 - x[0]
        k = group_size(n)
        order = sorted(range(n), key=rest.__getitem__)
        plain = (sum(x[i] for i in order[-k:]) - sum(x[i] for i in order[:k])) / k
        assert upper_lower_index(x, rest, 1.0) == pytest.approx(plain, abs=1e-12)


# ---------------------------------------------------------------- no figure where there is none
def test_everyone_right_one_learner_and_missing_answers_say_so() -> None:
    rows = [_row(lr, "99-hand", {"q1": 1.0, "q2": float(i % 2), "q3": float(i > 1)}) for i, lr in enumerate("abcd")]
    del rows[0]["questions"]["q3"]  # a question missing from a row: left out, not a 0
    rows.append(_row("e", "98-one", {"q1": 1.0, "q2": 0.0}))  # an exercise with one learner
    rows.append(_row("f", "97-solo", {"q1": 1.0}))
    rows.append(_row("g", "97-solo", {"q1": 0.0}))  # one question: the rest score is 0 for all
    rep = rp.build_report(_doc(rows))
    by = {(i.exercise, i.id): i for i in rep.items}
    everyone = by[("99-hand", "q1")]
    assert (everyone.difficulty, everyone.r, everyone.d, everyone.undefined) == (1.0, None, None, "all_full")
    assert by[("99-hand", "q3")].n == 3
    assert by[("99-hand", "q3")].undefined is None and by[("99-hand", "q3")].r is not None
    assert by[("98-one", "q1")].undefined == "one" and by[("98-one", "q2")].undefined == "one"
    assert by[("97-solo", "q1")].undefined == "rest_same"
    assert all(i.flags == ("too_few",) for i in rep.items)
    for lang in ("zh", "en"):
        page = rp.render_html(rep, lang)
        assert "nan" not in page.lower().replace("nano", "")
        section = Page(page).root.all("section", id="items")[0]
        row = next(r for r in section.all("tr") if r.attrs.get("data-q") == "q1"
                   and r.parent is not None and r.parent.parent is not None
                   and r.parent.parent.attrs.get("data-exercise") == "99-hand")
        assert row.attrs["data-r"] == "" and row.attrs["data-d"] == ""
        assert rp.classreport.message("report.items.undefined.all_full", lang) in row.text


def test_no_graded_row_gives_no_figures() -> None:
    rows = [_row("a", "99-hand", {"q1": 1.0})]
    rows[0]["status"] = "cell_timeout"
    rep = rp.build_report(_doc(rows))
    assert rep.items == []
    assert rp.classreport.message("report.items.none", "en") in rp.render_html(rep, "en")


# ---------------------------------------------------------------- flags
def _flag_class() -> tuple[dict[str, it.ItemStat], list[dict[str, Any]]]:
    """40 learners, the later the abler. 99-flags: q1 tracks ability, q2 runs against it, q3
    everyone but one right, q4 almost no one, q5, q8–q10 track ability at other levels. 06: q6 and q7, the kit's choices, their options
    recorded."""
    rows = []
    for i in range(40):
        able = i >= 20
        rows.append(_row(f"s{i:02d}", "99-flags", {"q1": float(able), "q2": float(not able), "q3": float(i != 0),
                                                   "q4": float(i == 39), "q5": float(i >= 10), "q8": float(i >= 15),
                                                   "q9": float(i >= 25), "q10": float(i >= 30)}))
        six, seven = able or i % 3 == 0, able
        rows.append(_row(f"s{i:02d}", "06-misconceptions", {"q6": float(six), "q7": float(seven)},
                         extra={"q6": {"option": "a" if six else "b"}, "q7": {"option": "a" if seven else "b"}}))
    rep = rp.build_report(_doc(rows))
    return {f"{i.exercise}:{i.id}": i for i in rep.items}, rows


def test_flags_name_what_misbehaves() -> None:
    items, rows = _flag_class()
    flags = [r["questions"] for r in rows if r["exercise"] == "99-flags"]
    for qid in ("q1", "q2", "q3", "q4", "q5", "q8", "q9", "q10"):
        x = [qs[qid]["score"] for qs in flags]
        rest = [sum(q["score"] for q in qs.values()) - qs[qid]["score"] for qs in flags]
        assert items[f"99-flags:{qid}"].r == pytest.approx(float(np.corrcoef(x, rest)[0, 1]), abs=1e-12)
    assert items["99-flags:q1"].flags == ()
    assert "negative" in items["99-flags:q2"].flags and items["99-flags:q2"].r < 0  # type: ignore[operator]
    assert "too_easy" in items["99-flags:q3"].flags and "too_hard" in items["99-flags:q4"].flags
    q6 = items["06-misconceptions:q6"]
    assert [(o.key, o.chosen, o.right) for o in q6.options] == [("a", 27, True), ("b", 13, False)]
    assert "unchosen" not in q6.flags


def test_an_option_nobody_chose_is_flagged_with_its_misconception() -> None:
    rows = [_row(f"s{i:02d}", "06-misconceptions", {"q4": float(i % 2), "q1": float(i % 3 == 0)},
                 extra={"q4": {"option": "c" if i % 2 else "a", "misconception": None if i % 2 else "naturals-tie"}})
            for i in range(30)]
    items = {i.id: i for i in rp.build_report(_doc(rows)).items}
    q4 = items["q4"]
    assert q4.unchosen == ("b",) and "unchosen" in q4.flags
    assert [(o.key, o.chosen, o.misconception) for o in q4.options] == [
        ("a", 15, "naturals-tie"), ("b", 0, "matrix-after-natural"), ("c", 15, None)]
    for lang in ("zh", "en"):
        page = Page(rp.render_html(rp.build_report(_doc(rows)), lang))
        row = next(r for r in page.root.all("tr") if r.attrs.get("data-q") == "q4" and "data-flags" in r.attrs)
        assert "unchosen" in row.attrs["data-flags"].split()
        from baccarat_kit.misconceptions import get
        assert get("matrix-after-natural").claim(lang) in row.text  # the option's misconception in words
        assert rp.classreport.message("report.items.flag.unchosen", lang, unchosen="b") in row.text


def test_fewer_than_the_minimum_only_says_so() -> None:
    items = _hand_items(min_responses=30)
    assert all(i.flags == ("too_few",) for i in items.values())
    assert _hand_items(min_responses=5)["q1"].flags == ()


# ---------------------------------------------------------------- options as recorded
def test_the_grader_records_the_source_option_not_the_shuffled_letter() -> None:
    q = next(q for q in load_exercises(default_source())["06-misconceptions"].questions if len(q.options) == 3)
    lid = next(f"s{i}" for i in range(200) if q.option_order(f"s{i}") != list(q.options))
    shown = q.shown_options(lid)
    for letter, key in shown.items():
        got = grade_question(q, {"status": "ok", "value": letter}, lid).to_json()
        assert got["option"] == key
        assert got["passed"] == (key == correct_option(q, lid))
    assert grade_question(q, {"status": "ok", "value": "z"}, lid).to_json()["option"] is None
    assert grade_question(q, {"status": "missing"}, lid).to_json()["option"] is None
    value_q = load_exercises(default_source())["03-banker-rule"].questions[0]
    assert "option" not in grade_question(value_q, {"status": "ok", "value": True}, lid).to_json()


def test_results_without_the_option_field_are_read_as_far_as_they_tell() -> None:
    doc = make_class(60, hostile=False)
    recorded = {(i.exercise, i.id): [(o.key, o.chosen) for o in i.options] for i in rp.build_report(doc).items}
    older = copy.deepcopy(doc)
    for row in older["submissions"]:
        for q in (row.get("questions") or {}).values():
            q.pop("option", None)
    back = {(i.exercise, i.id): [(o.key, o.chosen) for o in i.options] for i in rp.build_report(older).items}
    assert back == recorded  # (every wrong option of 06 names its own misconception)
    assert any(recorded[k] for k in recorded if k[0] == "06-misconceptions")
    # a wrong answer naming no option's misconception cannot be placed: "not recorded"
    older["submissions"][0]["questions"].get("q1", {})
    row = next(r for r in older["submissions"] if r["exercise"] == "06-misconceptions" and r["status"] == "ok")
    row["questions"]["q1"].update(passed=False, score=0, misconception=None, answer="'z'")
    q1 = next(i for i in rp.build_report(older).items if i.exercise == "06-misconceptions" and i.id == "q1")
    assert dict((o.key, o.chosen) for o in q1.options)[NOT_RECORDED] == 1
    row["questions"]["q1"].update(answer=None)
    q1 = next(i for i in rp.build_report(older).items if i.exercise == "06-misconceptions" and i.id == "q1")
    assert dict((o.key, o.chosen) for o in q1.options)[NO_ANSWER] == 1


def test_options_and_misconceptions_add_up_on_the_generated_class() -> None:
    doc = make_class(120, hostile=False)
    rep = rp.build_report(doc)
    for item in rep.items:
        if item.options:
            assert sum(o.chosen for o in item.options) == item.n
            assert sum(o.chosen for o in item.options if o.right) == item.full
        stat = next(q for e in rep.exercises if e.id == item.exercise for q in e.questions if q.id == item.id)
        assert item.n == stat.graded and item.full == stat.full
        assert Counter(dict(item.misconceptions)) == stat.misconceptions


# ---------------------------------------------------------------- the page and the export
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_section_is_an_accessible_table_per_exercise(lang: str) -> None:
    rep = rp.build_report(make_class(40, hostile=False))
    page = Page(rp.render_html(rep, lang))
    section = page.root.all("section", id="items")[0]
    tables = section.all("table")
    assert [t.attrs["data-exercise"] for t in tables] == [e.id for e in rep.exercises]
    for t in tables:
        assert t.all("caption") and all(th.attrs.get("scope") == "col" for th in t.all("thead")[0].all("th"))
        for tr in t.all("tbody")[0].all("tr"):
            assert tr.all("th")[0].attrs.get("scope") == "row"
    by = {(i.exercise, i.id): i for i in rep.items}
    for t in tables:
        for tr in t.all("tr"):
            if "data-q" not in tr.attrs:
                continue
            item = by[(t.attrs["data-exercise"], tr.attrs["data-q"])]
            if item.n == 0:  # a written answer no one has scored by hand yet: no figure, no NaN
                assert (tr.attrs["data-r"], tr.attrs["data-d"], tr.attrs["data-p"]) == ("", "", "")
                continue
            assert float(tr.attrs["data-r"]) == pytest.approx(item.r, abs=1e-6)
            assert float(tr.attrs["data-d"]) == pytest.approx(item.d, abs=1e-6)
            assert float(tr.attrs["data-p"]) == pytest.approx(item.difficulty, abs=1e-6)
    assert any(a.attrs.get("href") == "#items" for a in page.root.all("a"))


def test_the_json_export_carries_both_languages() -> None:
    rep = rp.build_report(make_class(40, hostile=False))
    data = it.to_json(rep.items)
    q = next(d for d in data if d["exercise"] == "06-misconceptions" and d["question"] == "q1")
    wrong = next(o for o in q["options"] if o["misconception"])
    assert set(wrong["claim"]) == {"zh", "en"} and set(wrong["text"]) == {"zh", "en"}
    assert q["options"][0]["share"] == pytest.approx(q["options"][0]["chosen"] / q["n"])
