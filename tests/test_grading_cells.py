"""Function answers cell by cell (issue 31): partial credit by the share of cells right, the full
list of wrong cells, and the misconception each wrong pattern expresses, for every function
question of the shipped exercises.

Nothing here restates the rule table: the right answers come from the engine (the question's
key), a wrong function flips some of them or plays a mistaken rule of
:func:`baccarat_kit.misconceptions.mistaken_rules`.
"""

from __future__ import annotations

import functools
import itertools
import json
import math
import random
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

import baccarat_kit as bk
from baccarat_kit.grading.judge.checks import Exercise, Question, grade_question
from baccarat_kit.grading.judge.keys import expected, mistaken_answers
from baccarat_kit.grading.term.authoring import read_source
from baccarat_kit.misconceptions import get, mistaken_rules

ROOT = Path(__file__).resolve().parents[1]
FUNCTIONS = [("01-card-values", "q5"), ("02-naturals-player", "q3"), ("03-banker-rule", "q5")]
"""Every function question of the shipped exercises (a test below keeps this list whole)."""


def question(exercise: str, qid: str) -> Question:
    path = ROOT / "exercises" / "source" / f"{exercise}.ipynb"
    meta = read_source(path)["metadata"]["baccarat_kit"]
    return Exercise.from_metadata(meta, str(path)).question(qid)


@functools.cache
def engine(exercise: str, qid: str) -> tuple[Any, ...]:
    """The engine's answer on every input of the question, in the domain's order."""
    q = question(exercise, qid)
    return tuple(expected(q.key, "", list(args)) for args in q.inputs())


def answer(results: list[Any]) -> dict[str, Any]:
    return {"status": "ok", "results": results, "tripped": 0, "kit_function": False}


def wrong_value(right: Any) -> Any:
    """Another answer of the same type: a flipped decision, another total."""
    return (not right) if isinstance(right, bool) else (right + 1) % 10


def flipped(exercise: str, qid: str, cells: list[int]) -> list[Any]:
    out = list(engine(exercise, qid))
    for i in cells:
        out[i] = wrong_value(out[i])
    return out


def grade(exercise: str, qid: str, results: list[Any], hidden: bool = True) -> Any:
    return grade_question(question(exercise, qid), answer(results), "", hidden=hidden)


def as_mistake(exercise: str, qid: str, mid: str) -> list[Any]:
    """Her function is exactly the mistaken rule ``mid``: the engine plays it on every input."""
    q = question(exercise, qid)
    return [dict(mistaken_answers(q.key, "", list(args))).get(mid, want)
            for args, want in zip(q.inputs(), engine(exercise, qid), strict=True)]


def test_the_list_of_function_questions_is_whole() -> None:
    found = []
    for path in sorted((ROOT / "exercises" / "source").glob("*.ipynb")):
        meta = read_source(path)["metadata"]["baccarat_kit"]
        found += [(meta["exercise"], q["id"]) for q in meta["questions"] if q["kind"] == "function"]
    assert found == FUNCTIONS


# ---------------------------------------------------------------- partial credit
@pytest.mark.parametrize(("exercise", "qid"), FUNCTIONS)
def test_one_wrong_cell_scores_more_than_four(exercise: str, qid: str) -> None:
    n = len(engine(exercise, qid))
    cells = random.Random(31).sample(range(n), 4)
    one, four = grade(exercise, qid, flipped(exercise, qid, cells[:1])), grade(exercise, qid, flipped(exercise, qid, cells))
    points = question(exercise, qid).points
    assert one.score > four.score
    # the share of cells right, rounded down to a hundredth of a point
    assert one.score == math.floor(Fraction(n - 1, n) * points * 100) / 100
    assert four.score == math.floor(Fraction(n - 4, n) * points * 100) / 100


def test_exercise_03_scores_each_further_wrong_cell_lower() -> None:
    """88 cells, 4 points: a cell is worth 4/88 > 0.01 point, so every further wrong cell scores
    less (monotone in general: more wrong cells never score more)."""
    order = random.Random(88).sample(range(88), 88)
    scores = [grade("03-banker-rule", "q5", flipped("03-banker-rule", "q5", order[:k])).score for k in range(89)]
    assert scores[0] == 4 and scores[-1] == 0
    assert all(a > b for a, b in itertools.pairwise(scores))


def test_exercise_01_never_scores_more_with_more_wrong_cells() -> None:
    order = random.Random(1100).sample(range(1100), 1100)
    ks = [0, 1, 2, 3, 4, 5, 50, 51, 300, 550, 1099, 1100]
    scores = [grade("01-card-values", "q5", flipped("01-card-values", "q5", order[:k])).score for k in ks]
    assert scores == sorted(scores, reverse=True) and scores[0] == 3 and scores[-1] == 0


# ---------------------------------------------------------------- the full list
def test_the_list_of_wrong_cells_is_complete_and_in_the_domains_order() -> None:
    q = question("03-banker-rule", "q5")
    inputs = q.inputs()
    cells = random.Random(9).sample(range(88), 9)
    results = flipped("03-banker-rule", "q5", cells)
    r = grade("03-banker-rule", "q5", results)
    assert r.wrong is not None
    assert [list(c.input) for c in r.wrong] == [inputs[i] for i in sorted(cells)]
    for c, i in zip(r.wrong, sorted(cells), strict=True):
        assert (c.got, c.want) == (repr(results[i]), repr(engine("03-banker-rule", "q5")[i]))
        assert c.rule == bk.rules.banker_rule(*inputs[i])
    listed = r.to_json()["wrong"]
    assert [w["input"] for w in listed] == [inputs[i] for i in sorted(cells)]
    assert all(set(w) == {"input", "got", "want", "rule", "misconception"} for w in listed)
    # every wrong cell is in the grader's message too (9 are fewer than a message lists)
    for c in r.wrong:
        assert c.line("banker_draws", "en") in r.message("en") and c.line("banker_draws", "zh") in r.message("zh")


def test_a_right_function_has_an_empty_list_and_other_questions_none() -> None:
    r = grade("03-banker-rule", "q5", list(engine("03-banker-rule", "q5")))
    assert r.score == 4 and r.wrong == () and r.to_json()["wrong"] == [] and r.to_json()["misconceptions"] == []
    value = grade_question(question("03-banker-rule", "q1"), {"status": "ok", "value": True}, "")
    assert value.wrong is None and value.to_json()["wrong"] is None
    unrun = grade("03-banker-rule", "q5", [])  # no results to judge: no list, not an empty one
    assert unrun.score == 0 and unrun.wrong is None and unrun.to_json()["wrong"] is None


def test_the_class_check_counts_and_lists_the_public_inputs_only() -> None:
    """A class copy's check() runs the public checks only: it says how many public inputs are
    wrong and lists those, never a hidden input."""
    q = question("03-banker-rule", "q5")
    inputs = q.inputs()
    public = sorted(inputs.index(list(i)) for c in q.public if c["check"] == "inputs" for i in c["inputs"])
    hidden_cell = next(i for i in range(88) if i not in public)
    results = flipped("03-banker-rule", "q5", [*public, hidden_cell])
    r = grade("03-banker-rule", "q5", results, hidden=False)
    assert [list(c.input) for c in r.wrong] == [inputs[i] for i in public]
    text = r.message("en")
    assert f"{len(public)} wrong result(s) on the {len(public)} public inputs" in text
    assert f"在這裡檢查的 {len(public)} 個公開輸入中有 {len(public)} 個結果不對" in r.message("zh")
    assert all(c.call("banker_draws") in text for c in r.wrong)
    hidden_call = f"banker_draws({', '.join(map(repr, inputs[hidden_cell]))})"
    assert hidden_call not in text and hidden_call not in r.message("zh")
    # the grader, with the hidden checks, lists that cell too
    full = grade("03-banker-rule", "q5", results)
    assert len(full.wrong) == len(public) + 1 and hidden_call in full.message("en")


# ---------------------------------------------------------------- misconceptions
def _mistakes_of(exercise: str, qid: str) -> list[str]:
    q = question(exercise, qid)
    seen = {mid for args in q.inputs() for mid, _ in mistaken_answers(q.key, "", list(args))}
    return [mid for mid in mistaken_rules() if mid in seen]


@pytest.mark.parametrize(("exercise", "qid", "mid"),
                         [(e, q, m) for e, q in FUNCTIONS for m in _mistakes_of(e, q)])
def test_a_function_that_is_exactly_a_mistaken_rule_names_it(exercise: str, qid: str, mid: str) -> None:
    r = grade(exercise, qid, as_mistake(exercise, qid, mid))
    assert r.misconceptions == (mid,) and r.misconception == mid
    assert all(c.misconception == mid for c in r.wrong)
    m = get(mid)
    assert f"exactly the mistaken rule of the misconception [{mid}] '{m.claim('en')}'" in r.message("en")
    assert m.correction("en") in r.message("en")
    assert f"正是常見誤解〔{mid}〕「{m.claim('zh')}」的規則" in r.message("zh") and m.correction("zh") in r.message("zh")
    assert r.to_json()["misconception"] == mid and r.to_json()["misconceptions"] == [mid]


def test_every_function_question_can_name_a_misconception() -> None:
    """01 (keeping the tens), 02 (the player rule) and 03 (the banker rule) each have mistaken
    rules that a learner's function can be."""
    assert "total-keeps-tens" in _mistakes_of("01-card-values", "q5")
    assert {"player-5-stands", "player-6-draws"} <= set(_mistakes_of("02-naturals-player", "q3"))
    assert "banker-3-always" in _mistakes_of("03-banker-rule", "q5")


def test_a_total_that_keeps_the_tens_names_its_misconception() -> None:
    """Exercise 01: ``sum(values)``, as the mistaken rule's own total plays it."""
    keeps = mistaken_rules()["total-keeps-tens"].rules.total
    q = question("01-card-values", "q5")
    results = [keeps(list(args[0])) for args in q.inputs()]
    r = grade("01-card-values", "q5", results)
    assert r.misconception == "total-keeps-tens" and r.misconceptions == ("total-keeps-tens",)
    assert 0 < len(r.wrong) < 1100 and all(c.misconception == "total-keeps-tens" for c in r.wrong)
    assert r.score == math.floor(Fraction(1100 - len(r.wrong), 1100) * 3 * 100) / 100
    assert "[total-keeps-tens]" in r.message("en") and "〔total-keeps-tens〕" in r.message("zh")
    assert f"and {len(r.wrong) - 16} more" in r.message("en")  # a message lists 16; r.wrong has all
    # the class copy's public inputs name it too
    public = grade("01-card-values", "q5", results, hidden=False)
    assert public.misconception == "total-keeps-tens" and "On the inputs checked here" in public.message("en")


@pytest.mark.parametrize("mid", ["player-5-stands", "player-6-draws"])
def test_a_player_rule_off_by_one_names_its_misconception(mid: str) -> None:
    """Exercise 02: a player who stands on 5, or draws on 6, as the mistaken rule plays it."""
    draws = mistaken_rules()[mid].rules.player_draws
    q = question("02-naturals-player", "q3")
    r = grade("02-naturals-player", "q3", [draws(*args) for args in q.inputs()])
    assert r.misconceptions == (mid,) and len(r.wrong) == 1
    cell = r.wrong[0]
    assert cell.rule == bk.rules.player_rule(*cell.input) and cell.want == repr(bk.player_draws(*cell.input))
    assert get(mid).claim("zh") in r.message("zh") and get(mid).claim("en") in r.message("en")
    assert r.score == math.floor(Fraction(7, 8) * 3 * 100) / 100


def test_a_partial_match_names_what_it_explains_and_lists_the_rest_unexplained() -> None:
    """A banker 3 that always draws, plus one more flipped cell no mistake gives: the mistake is
    named for its cell, the other is listed as unexplained; in both languages, with the values."""
    q = question("03-banker-rule", "q5")
    inputs = q.inputs()
    results = as_mistake("03-banker-rule", "q5", "banker-3-always")
    mistaken_cells = {i for i, args in enumerate(inputs) if mistaken_answers(q.key, "", list(args))}
    other = next(i for i in range(88) if i not in mistaken_cells)  # no mistaken rule differs here
    results[other] = wrong_value(results[other])
    r = grade("03-banker-rule", "q5", results)
    assert r.misconceptions == ("banker-3-always",)
    explained = [c for c in r.wrong if c.misconception]
    assert len(explained) == 1 and len(r.wrong) == 2
    rest = next(c for c in r.wrong if c.misconception is None)
    assert list(rest.input) == inputs[other]
    m = get("banker-3-always")
    for lang, (claim, none) in {"en": (m.claim("en"), "no known misconception explains"),
                                "zh": (m.claim("zh"), "沒有已知的誤解可以解釋")}.items():
        text = r.message(lang)
        assert claim in text and m.correction(lang) in text and none in text
        assert explained[0].line("banker_draws", lang) in text and rest.line("banker_draws", lang) in text
    # the values are in each line: her answer, the engine's, the rule id
    t, v = inputs[other]
    want = bk.banker_draws(t, v)
    assert (f"banker_draws({t!r}, {v!r}) returned {not want!r}, expected {want!r} ({bk.rules.banker_rule(t, v)})"
            in r.message("en"))
    assert f"banker_draws({t!r}, {v!r}) 回傳 {not want!r}，應為 {want!r}（{bk.rules.banker_rule(t, v)}）" in r.message("zh")


def test_one_coincidence_with_a_broad_mistake_names_nothing() -> None:
    """A mistake is named only where she follows it on at least half the cells where it differs
    from the table: one cell that a 13-cell mistake shares is not that misconception."""
    q = question("03-banker-rule", "q5")
    inputs = q.inputs()
    broad = "banker-0-5-always"
    only_broad = [i for i, args in enumerate(inputs)
                  if [m for m, _ in mistaken_answers(q.key, "", list(args))] == [broad]]
    assert only_broad
    results = list(engine("03-banker-rule", "q5"))
    i = only_broad[0]
    results[i] = dict(mistaken_answers(q.key, "", list(inputs[i])))[broad]
    r = grade("03-banker-rule", "q5", results)
    assert len(r.wrong) == 1 and r.misconceptions == () and r.misconception is None
    assert "No known misconception explains them" in r.message("en")


# ---------------------------------------------------------------- results.json and the feedback page
def _submission(results: list[Any]) -> Any:
    from baccarat_kit.grading.records import Submission

    r = grade("03-banker-rule", "q5", results)
    return Submission("x/03-banker-rule.ipynb", "ab" * 32, "03-banker-rule", "ann", "ok",
                      {"zh": "已評分。", "en": "Graded."}, [r], 4)


def test_results_json_and_the_feedback_page_carry_every_wrong_cell() -> None:
    from baccarat_kit.grading.grade import load_exercises
    from baccarat_kit.grading.records import SCHEMA_VERSION
    from baccarat_kit.grading.report.feedback import feedback_html

    assert SCHEMA_VERSION == 6
    results = as_mistake("03-banker-rule", "q5", "banker-0-5-always")
    sub = _submission(results)
    row = sub.to_json()
    q5 = row["questions"]["q5"]
    assert q5["misconception"] == "banker-0-5-always" and q5["misconceptions"] == ["banker-0-5-always"]
    assert len(q5["wrong"]) == len(sub.questions[0].wrong) > 0
    exercises = load_exercises(ROOT / "exercises" / "source")
    for page in (feedback_html(sub, exercises, "en"), feedback_html(row, exercises, "en")):  # also re-rendered from results.json
        assert f"Wrong inputs ({len(q5['wrong'])})" in page
        for w in q5["wrong"]:
            call = f"banker_draws({', '.join(map(repr, w['input']))})"
            assert f"<td><code>{call}</code></td><td><code>{w['got']}</code></td><td><code>{w['want']}</code></td><td>" in page
            assert f"<small>({w['rule']})</small>" in page
    assert "答錯的輸入" in feedback_html(sub, exercises, "zh")


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_feedback_table_says_the_rule_and_the_misconception_in_words(lang: str) -> None:
    """A learner cannot read ``banker-3-vs-8`` or ``banker-3-always``: each wrong cell's row names
    the engine's step and the misconception's claim in her language, the ids beside them."""
    from baccarat_kit import banker_draws
    from baccarat_kit.grading.grade import load_exercises
    from baccarat_kit.grading.report.feedback import feedback_html, rule_words
    from baccarat_kit.misconceptions import get

    sub = _submission(as_mistake("03-banker-rule", "q5", "banker-3-always"))
    page = feedback_html(sub, load_exercises(ROOT / "exercises" / "source"), lang)
    (w,) = sub.to_json()["questions"]["q5"]["wrong"]
    assert w["input"] == [3, 8] and w["rule"] == "banker-3-vs-8" and not banker_draws(3, 8)
    words = rule_words("banker-3-vs-8", lang)
    assert words == {"zh": "莊家 3 點遇閒家第三張 8 停牌", "en": "banker 3 stands on player third card 8"}[lang]
    claim = get("banker-3-always").claims[lang]
    assert f"<td>{words} <small>(banker-3-vs-8)</small></td>" in page
    assert f"<td>{claim} <small>[banker-3-always]</small></td>" in page
    # every rule id the engine makes has words, in both languages
    from baccarat_kit import rules

    ids = {rules.banker_rule(t, v) for t in range(8) for v in (None, *range(10))} | {rules.player_rule(t) for t in range(8)}
    assert all(rule_words(i, lang) for i in ids)


def test_a_schema_4_gradebook_is_read_as_schema_5(tmp_path: Path) -> None:
    from baccarat_kit.grading.report.feedback import feedback_html
    from baccarat_kit.grading.term.gradebook import read_results

    old = _submission(flipped("03-banker-rule", "q5", [0])).to_json()
    for q in old["questions"].values():
        del q["wrong"], q["misconceptions"]
    path = tmp_path / "results.json"
    path.write_text(json.dumps({"schema_version": 4, "submissions": [old]}), encoding="utf-8")
    doc = read_results(path)
    assert doc["schema_version"] == 6 and doc["upgraded_from"] == 4
    q5 = doc["submissions"][0]["questions"]["q5"]
    assert q5["wrong"] is None and q5["misconceptions"] == ([q5["misconception"]] if q5["misconception"] else [])
    from baccarat_kit.grading.grade import load_exercises

    page = feedback_html(doc["submissions"][0], load_exercises(ROOT / "exercises" / "source"), "en")
    assert "banker_draws" in page and "Wrong inputs" not in page  # its message, no table it did not keep


def test_the_named_misconception_is_the_one_all_inputs_show() -> None:
    """On 03's public inputs a function may look like a broad mistake that all 88 cells do not
    bear out: the grader names what all inputs show, the class check what its inputs show."""
    q = question("03-banker-rule", "q5")
    inputs = q.inputs()
    public = sorted(inputs.index(list(i)) for c in q.public if c["check"] == "inputs" for i in c["inputs"])
    broad = "banker-0-5-always"
    results = list(engine("03-banker-rule", "q5"))
    for i in public:  # the broad mistake on the public inputs only
        results[i] = dict(mistaken_answers(q.key, "", list(inputs[i]))).get(broad, results[i])
    seen = grade("03-banker-rule", "q5", results, hidden=False)
    graded = grade("03-banker-rule", "q5", results)
    assert broad in seen.misconceptions
    assert broad not in graded.misconceptions and graded.misconception == (graded.misconceptions or (None,))[0]


def test_the_feedback_page_renders_the_inline_markdown_of_questions_and_messages_never_hers() -> None:
    """The question texts and messages write `code` and **bold**; the page showed the backticks
    and asterisks. Now they are <code> and <strong>, added after escaping: an answer of hers with
    backticks or tags in it stays text."""
    from baccarat_kit.grading.grade import load_exercises
    from baccarat_kit.grading.judge.checks import grade_question
    from baccarat_kit.grading.records import Submission
    from baccarat_kit.grading.report.feedback import feedback_html

    exercises = load_exercises(ROOT / "exercises" / "source")
    q1 = next(q for q in exercises["03-banker-rule"].questions if q.id == "q1")
    evil = "`x` <img src=x onerror=alert(1)> **y**"
    r = grade_question(q1, {"status": "ok", "type": "str", "value": evil}, "ann")
    sub = Submission("x/03-banker-rule.ipynb", "ab" * 32, "03-banker-rule", "ann", "ok",
                     {"zh": "已評分。", "en": "Graded."}, [r], 11)
    for lang in ("zh", "en"):
        page = feedback_html(sub, exercises, lang)
        assert "<code>True</code>" in page and "`True`" not in page  # q1's text: (`True` draws / `False` stands)
        assert "<code>case_a</code>" in page  # the message names the answer as code
        assert "<img" not in page and "onerror=alert(1)&gt;" in page
    q5 = next(q for q in exercises["03-banker-rule"].questions if q.id == "q5")
    page = feedback_html(Submission("x/03-banker-rule.ipynb", "ab" * 32, "03-banker-rule", "ann", "ok",
                                    {"zh": "已評分。", "en": "Graded."},
                                    [grade_question(q5, {"status": "missing"}, "ann")], 11), exercises, "en")
    assert "<strong>value</strong>" in page and "**value**" not in page
