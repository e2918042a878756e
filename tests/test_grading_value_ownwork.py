"""Issue 20, "every point is earned": value and choice answers are the learner's own work.

* each exercise says which kit calls it allows (``metadata.baccarat_kit.allowed_calls``, and one
  line of its title cell in both languages);
* the grader's static reading (:func:`baccarat_kit.grading.judge.ownwork.analyse_values`) refuses
  an answer whose code calls the kit beyond them, and names the call;
* in the grading run the kit's decision and key code is absent (tripwires), except inside the
  allowed calls; answers computed after a trip are not own work;
* the model solutions need neither, and still prove their keys;
* ``check()`` in the learner's kernel says it at once (class and self-study copies);
* untouched copies with a generic solver cell (tests/fixtures/submissions/value-solvers, made by
  make_fixtures.py) earn 0 on every value and choice question, beside the model solutions.
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

import pytest

from baccarat_kit.cli import main
from baccarat_kit.grading.judge import selfcheck
from baccarat_kit.grading.judge.checks import Exercise, SpecError, allowed_calls_line
from baccarat_kit.grading.judge.ownwork import BASE_CALLS, analyse_values
from baccarat_kit.grading.sandbox import bwrap as _bwrap

ROOT = Path(__file__).resolve().parents[1]
SOURCES = sorted((ROOT / "exercises" / "source").glob("*.ipynb"))
SOLVERS = sorted((ROOT / "tests" / "fixtures" / "submissions" / "value-solvers").glob("*.ipynb"))
SETUP = ["import baccarat_kit as bk", "LEARNER_ID = 's1'", 'check = bk.grading.Checker("06-misconceptions")']
HANDS = ['hands = bk.grading.hands_for("04-whole-coups", LEARNER_ID)']


def load(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8"))


def exercise_of(path: Path) -> Exercise:
    return Exercise.from_metadata(load(path)["metadata"]["baccarat_kit"], str(path))


# ---------------------------------------------------------------- the static reading
@pytest.mark.parametrize("cell, detail", [
    ("q1 = bk.banker_draws(3, 8)", "bk.banker_draws"),
    ("q1 = check.letter('q1', bk.banker_draws(3, 8))", "bk.banker_draws"),  # check.letter on a kit value
    ("x = bk.play('4 4 4 5')\nq1 = x.winner", "bk.play"),  # followed through a notebook name
    ("from baccarat_kit import play as deal\nq1 = deal('4 4 4 5').winner", "bk.play"),
    ("from baccarat_kit.rules import BANKER_DRAWS_ON as T\nq1 = 8 in T[3]", "bk.rules.BANKER_DRAWS_ON"),
    ("q1 = getattr(bk, 'pl' + 'ay')('4 4 4 5').winner", "getattr"),
    ("q1 = [bk][0].play('4 4 4 5')", "bk"),
    ("q1 = bk.grading.example_hand('tie')", "bk.grading.example_hand"),  # not allowed in 06
    ("q1 = check._load().questions[0].key", "._load"),
    ("check = bk.play\nq1 = check('4 4 4 5').winner", "bk.play"),  # a "check" that is not the checker
    ("def f():\n    global q1\n    q1 = bk.play('4 4 4 5').winner\nf()", "bk.play"),
    ("import importlib\nq1 = importlib.import_module('baccarat_kit').play('4 4 4 5')", "import importlib"),
    ("import helper\nq1 = helper.q1", "import helper"),  # a module of her own, written to disk
    ("%run helper.py", "%run"),
    ("bk.banker_draws(3, 8)\nq1 = _", "_"),  # IPython's output cache
    ("q1 = Out[3]", "Out"),
    ("%time q1 = bk.banker_draws(3, 8)", "(no assignment)"),  # magics are not read: no assignment seen
])
def test_an_answer_that_calls_the_kit_beyond_the_allowed_calls_is_refused_naming_the_call(
        cell: str, detail: str) -> None:
    assert analyse_values([*SETUP, cell], ["q1"]) == {"q1": (False, detail)}


@pytest.mark.parametrize("cell", [
    "q1 = False",
    "q1 = check.letter('q1', False)",
    "t, third = 3, 8\nq1 = check.letter('q1', not (t == 3 and third == 8))",
    "from decimal import Decimal\nq1 = check.letter('q5', str(Decimal(100)))",
    "%time x = 1\nq1 = 'a'",
    "bk.set_language('en')\ncheck.options('q1')\nq1 = 'b'",
])
def test_own_work_with_allowed_calls_passes(cell: str) -> None:
    assert analyse_values([*SETUP, cell], ["q1"]) == {"q1": (True, "")}


def test_data_calls_are_allowed_only_where_the_exercise_allows_them() -> None:
    cells = [*SETUP, *HANDS, "player_totals = [len(h.split()) for h in hands]"]
    assert analyse_values(cells, ["player_totals"]) == {"player_totals": (False, "bk.grading.hands_for")}
    assert analyse_values(cells, ["player_totals"], ["bk.grading.hands_for"]) == {"player_totals": (True, "")}


def test_in_a_kernels_history_only_the_last_binding_counts() -> None:
    history = [*SETUP, "q1 = bk.banker_draws(3, 8)", "q1 = False"]
    assert analyse_values(history, ["q1"], latest=True) == {"q1": (True, "")}
    assert analyse_values(history, ["q1"]) == {"q1": (False, "bk.banker_draws")}  # a notebook: any may run


def test_allowed_calls_must_be_kit_paths() -> None:
    meta = load(SOURCES[0])["metadata"]["baccarat_kit"]
    for bad in ("bk.play", ["os.system"], [3], ["bk.play()"]):
        with pytest.raises(SpecError) as err:
            Exercise.from_metadata({**meta, "allowed_calls": bad}, "x")
        assert "allowed_calls" in err.value.message("en")


# ---------------------------------------------------------------- the exercises say it, the solutions keep it
@pytest.mark.parametrize("source", SOURCES, ids=lambda p: p.stem)
def test_each_exercise_says_at_the_top_which_kit_calls_it_allows(source: Path) -> None:
    ex = exercise_of(source)
    assert ex.allowed_calls[:len(BASE_CALLS)] == BASE_CALLS
    assert not {"bk.play", "bk.banker_draws", "bk.settle", "bk.hand_total", "bk.parse_card"} & set(ex.allowed_calls)
    title = load(source)["cells"][0]
    assert allowed_calls_line(ex, "zh") in title["source"]
    assert allowed_calls_line(ex, "en") in title["metadata"]["translations"]["en"]
    for copy, lang in ((ROOT / "exercises" / source.name, "zh"), (ROOT / "exercises" / "en" / source.name, "en")):
        nb = load(copy)
        assert nb["metadata"]["baccarat_kit"]["allowed_calls"] == list(ex.allowed_calls)
        assert allowed_calls_line(ex, lang) in nb["cells"][0]["source"], copy


@pytest.mark.parametrize("source", SOURCES, ids=lambda p: p.stem)
def test_model_solutions_are_own_work_and_prove_their_keys(source: Path) -> None:
    nb = load(source)
    ex = exercise_of(source)
    values = [q.answer for q in ex.questions if q.kind != "function"]
    assert analyse_values(selfcheck._code_cells(nb), values, ex.all_allowed_calls) == {v: (True, "") for v in values}
    selfcheck.prove(nb, str(source))  # full marks against every key, own-work checks included


def test_a_model_solution_that_asks_the_engine_is_refused_at_release(tmp_path: Path) -> None:
    nb = load(ROOT / "exercises" / "source" / "03-banker-rule.ipynb")
    for cell in nb["cells"]:
        if cell["cell_type"] == "code" and cell["source"].startswith("case_a = "):
            cell["source"] = "case_a = bk.banker_draws(3, 8)  # SOLUTION"
    with pytest.raises(selfcheck.KeyDisagreement) as err:
        selfcheck.prove(nb, "03")
    assert "q1" in err.value.message("en") and "bk.banker_draws" in err.value.message("en")


# ---------------------------------------------------------------- check() in the learner's kernel
def _copy(tmp_path: Path, name: str, kind: str) -> Path:
    from baccarat_kit.grading.term.release import dumps_notebook, edition, release_notebook

    source = ROOT / "exercises" / "source" / name
    nb = release_notebook(edition(load(source), "en", str(source)), str(source), kind, "en")
    (tmp_path / name).write_text(dumps_notebook(nb), encoding="utf-8")
    return tmp_path


@pytest.mark.parametrize("kind", ["class", "self-study"])
def test_check_says_at_once_when_a_value_uses_a_forbidden_call(tmp_path: Path, kind: str) -> None:
    from baccarat_kit.grading import Checker

    check = Checker("03-banker-rule", lang="en", folder=_copy(tmp_path, "03-banker-rule.ipynb", kind))
    ns: dict[str, Any] = {"LEARNER_ID": "s1", "case_a": False,
                          "In": ["", "import baccarat_kit as bk", "case_a = bk.banker_draws(3, 8)"]}
    report = check("q1", namespace=ns)
    assert not report.passed and "bk.banker_draws" in report.text and "your own code" in report.text
    ns["In"].append("case_a = False  # read from the table")
    assert check("q1", namespace=ns).passed


def test_self_study_check_reads_function_answers_statically_too(tmp_path: Path) -> None:
    from baccarat_kit.grading import Checker

    check = Checker("03-banker-rule", lang="en", folder=_copy(tmp_path, "03-banker-rule.ipynb", "self-study"))
    table = {0: range(10), 1: range(10), 2: range(10), 3: [0, 1, 2, 3, 4, 5, 6, 7, 9], 4: range(2, 8),
             5: range(4, 8), 6: (6, 7), 7: ()}

    def banker_draws(total: int, player_third: int | None) -> bool:  # right everywhere, never trips
        return total <= 5 if player_third is None else player_third in table[total]

    ns: dict[str, Any] = {"LEARNER_ID": "s1", "banker_draws": banker_draws, "In": [
        "", "import baccarat_kit as bk", "T = bk.rules.BANKER_DRAWS_ON",
        "def banker_draws(total, player_third):\n    return player_third in T[total] if player_third is not None"
        " else total <= 5"]}
    report = check("q5", namespace=ns)
    assert not report.passed and ".BANKER_DRAWS_ON" in report.text  # the cells run say so, not the values
    ns["In"].append("def banker_draws(total, player_third):\n    return total <= 5")  # her own, last
    assert "BANKER_DRAWS_ON" not in check("q5", namespace=ns).text


def test_check_letter_takes_only_plain_values(tmp_path: Path) -> None:
    from baccarat_kit.grading import Checker

    check = Checker("06-misconceptions", lang="en", folder=_copy(tmp_path, "06-misconceptions.ipynb", "class"))

    class Sneaky(str):
        pass

    ns = {"LEARNER_ID": "s1"}
    assert check.letter("q4", "banker", namespace=ns) in "abc"
    with pytest.raises(SpecError):
        check.letter("q4", Sneaky("banker"), namespace=ns)


# ---------------------------------------------------------------- the grading run: the kit's code is absent
try:
    _bwrap.check()
    SANDBOX = "bwrap"
except _bwrap.SandboxMissing:
    SANDBOX = "none"


def test_the_kits_decision_and_key_code_is_absent_while_the_cells_run() -> None:
    from baccarat_kit.grading.judge.checks import Question
    from baccarat_kit.grading.sandbox.session import Limits, run_notebook

    ex = exercise_of(ROOT / "exercises" / "source" / "04-whole-coups.ipynb")
    cells = ["import baccarat_kit as bk", "LEARNER_ID = 's1'", 'check = bk.grading.Checker("04-whole-coups")',
             *HANDS, "player_totals = [len(h) for h in hands]",  # before any trip: kept
             "try:\n    bk.play(hands[0])\nexcept RuntimeError as err:\n    said = str(err)",
             "banker_totals = [0 for h in hands]",  # after the trip: late
             "try:\n    bk.grading.judge.keys.expected({'fn': 'coup', 'args': ['4 4 4 5', 'winner']}, '')\n"
             "except RuntimeError:\n    pass",
             "winners = said"]
    questions: list[Question] = [q for q in ex.questions if q.answer in ("player_totals", "banker_totals", "winners")]
    report, parsed = run_notebook(cells, questions, Limits(sandbox=SANDBOX, notebook_timeout=40),
                                  allowed_calls=ex.all_allowed_calls)
    assert report["status"] == "ok" and report["errors"] == 0, report
    assert parsed is not None
    assert len(parsed["answers"]["q1"]["value"]) == 5  # hands_for (allowed) dealt with the engine inside
    assert "bk.coup.play is absent" in parsed["answers"]["q3"]["value"]
    assert set(report["late"]) == {"banker_totals", "winners"}
    assert report["late"]["winners"] == "bk.coup.play, cell 6"


# ---------------------------------------------------------------- untouched copies with a solver cell
@pytest.fixture(scope="module")
def batch(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    out = tmp_path_factory.mktemp("value-solvers") / "out"
    args = ["--lang", "en", "grade", *map(str, [*SOURCES, *SOLVERS]), "--out", str(out), "--jobs", "2",
            "--no-progress", "--timeout", "8", "--notebook-timeout", "40"]
    code = main([*args, *(["--no-sandbox"] if SANDBOX == "none" else [])])
    doc = json.loads((out / "results.json").read_text(encoding="utf-8"))
    rows = list(csv.DictReader(io.StringIO((out / "grades.csv").read_text(encoding="utf-8"))))
    return {"code": code, "subs": {Path(s["file"]).name: s for s in doc["submissions"]},
            "rows": {Path(r["file"]).name: r for r in rows},
            "pages": {p.name: p.read_text(encoding="utf-8") for p in (out / "feedback").glob("*.html")}}


def test_model_solutions_keep_full_marks_in_the_same_batch(batch: dict[str, Any]) -> None:
    assert batch["code"] == 0
    for path in SOURCES:
        row = batch["rows"][path.name]
        assert row["status"] == "ok" and row["score"] == row["max_score"], row


def test_there_are_solver_fixtures() -> None:
    assert {p.stem for p in SOLVERS} >= {"keys-letter-06", "play-on-hands-04", "getattr-05", "importlib-06",
                                         "helper-module-04", "engine-03", "from-import-02", "output-cache-03"}


@pytest.mark.parametrize("solver", SOLVERS, ids=lambda p: p.stem)
def test_a_solver_cell_on_an_untouched_copy_earns_nothing(batch: dict[str, Any], solver: Path) -> None:
    s = batch["subs"][solver.name]
    assert s["status"] == "ok" and s["score"] == 0, s["score"]
    ex = exercise_of(ROOT / "exercises" / "source" / f"{s['exercise']}.ipynb")
    appended = "\n".join(c["source"] for c in load(solver)["cells"] if c["id"].startswith("fixture-"))
    values = [q for q in ex.questions if q.kind != "function"]
    targeted = [q for q in values if f"{q.answer} =" in appended or f"{q.answer}, " in appended]
    assert targeted, "the solver sets answers"
    for q in targeted:  # the reason names what the code used, on the learner's feedback too
        result = s["questions"][q.id]
        assert result["score"] == 0
        assert "your own code" in result["message"]["en"], (q.id, result["message"]["en"])
    assert any("your own code" in page for page in batch["pages"].values())


def test_a_copy_released_before_allowed_calls_keeps_its_data_calls() -> None:
    meta = dict(load(ROOT / "exercises" / "source" / "04-whole-coups.ipynb")["metadata"]["baccarat_kit"])
    del meta["allowed_calls"]
    ex = Exercise.from_metadata(meta, "old copy")
    assert "bk.grading.hands_for" in ex.all_allowed_calls and "bk.play" not in ex.all_allowed_calls
    cells = [*SETUP, *HANDS, "player_totals = [len(h.split()) for h in hands]"]
    assert analyse_values(cells, ["player_totals"], ex.all_allowed_calls) == {"player_totals": (True, "")}


# ------------------------------------------------- what the learner reads when no cell assigns it
def _one_language(text: str, lang: str) -> None:
    assert "(no assignment)" not in text and "(no def" not in text and "uses :" not in text
    cjk = any("\u4e00" <= ch <= "\u9fff" for ch in text)
    assert cjk == (lang == "zh"), text


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_value_no_cell_assigns_is_one_sentence_in_one_language(lang: str) -> None:
    from baccarat_kit.grading.judge.checks import grade_question
    from baccarat_kit.grading.judge.ownwork import analyse_values as reading

    ex = exercise_of(ROOT / "exercises" / "source" / "03-banker-rule.ipynb")
    q = next(q for q in ex.questions if q.id == "q1")
    static = reading([*SETUP, "%time case_a = False"], ["case_a"])["case_a"]
    assert static == (False, "(no assignment)")
    result = grade_question(q, {"status": "ok", "type": "bool", "value": False}, "s1", static_ownwork=static)
    assert result.score == 0
    text = result.checks[0].message(lang)
    _one_language(text, lang)
    assert "`case_a`" in text and "%time" in text


@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize("detail", ["", "(no def in the cells run)"])  # the grader's, check()'s
def test_a_function_no_def_makes_is_one_sentence_in_one_language(lang: str, detail: str) -> None:
    from baccarat_kit.grading.judge.checks import grade_question

    ex = exercise_of(ROOT / "exercises" / "source" / "03-banker-rule.ipynb")
    q = next(q for q in ex.questions if q.kind == "function")
    answer = {"status": "ok", "type": "function", "kit_function": False, "tripped": 0, "results": []}
    result = grade_question(q, answer, "s1", static_ownwork=(False, detail))
    own = [c for c in result.checks if c.check == "own-work"]
    assert own and not own[0].passed
    text = own[0].message(lang)
    _one_language(text, lang)
    assert "`banker_draws`" in text and "def banker_draws" in text
