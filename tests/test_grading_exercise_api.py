"""Issue 30, "absent, not forbidden": the grading run holds the exercise API and no kit code.

* The API itself (``baccarat_kit/grading/sandbox/exercise_api``, imported here under its own
  name): what it offers, what an absent name says, that it holds no rule code.
* Inside real grading runs (``sandbox``): learner cells that go looking for the kit's rule code
  (``import baccarat_kit.rules``, ``importlib``, the kit's files by path, a walk of every folder
  they can list, ``sys.modules``, the pip and uv caches, ``/proc/self/…``) find nothing; each
  such cell fails, its answer earns 0, and the honest answers after it still count.
* A pasted copy of the kit's source is flagged for the instructor, never zeroed.
* ``check()`` in the learner's own kernel gives the grader's verdict (its cells run again with
  the exercise API only) and, without history to run, says it is not the grader's.
"""

from __future__ import annotations

import importlib
import inspect
import json
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

import baccarat_kit as bk
from baccarat_kit.grading.grade import Limits, grade_file, load_exercises
from baccarat_kit.grading.judge import keys, pasted
from baccarat_kit.grading.judge.checks import api_payload
from baccarat_kit.grading.sandbox import api_tree

ROOT = Path(__file__).resolve().parents[1]
API_DIR = ROOT / "baccarat_kit" / "grading" / "sandbox" / "exercise_api"


@pytest.fixture(scope="module")
def exercises() -> dict[str, Any]:
    return load_exercises(ROOT / "exercises" / "source")


@pytest.fixture()
def api(exercises: dict[str, Any]) -> Any:
    module = importlib.import_module("baccarat_kit.grading.sandbox.exercise_api")
    yield module
    module._state.configure({})


def test_an_absent_name_says_so_in_both_languages(api: Any, exercises: dict[str, Any]) -> None:
    ex = exercises["03-banker-rule"]
    api._state.configure(api_payload(ex, ex.public, "s1", "s1"))
    with pytest.raises(AttributeError) as err:
        api.banker_draws  # noqa: B018
    text = str(err.value)
    assert "bk.banker_draws" in text and "規則程式" in text and "the kit's rule code is not in the grading run" in text
    with pytest.raises(AttributeError):
        api.grading.Checker("03-banker-rule").explain  # noqa: B018
    assert api.set_language("en") == "en" and api.get_language() == "en"


def test_the_api_and_the_runner_hold_no_rule_code() -> None:
    """Nothing of rules, coup, settlement, shoe, keys: no import of the kit, no copy of its code."""
    files = [*sorted(API_DIR.glob("*.py")), *(ROOT / "baccarat_kit" / "grading" / "sandbox" / f
                                              for f in api_tree.RUNNER_FILES)]
    # (bk.ledger's row plumbing, bets_text and balance, is the same in both: data, not rule code)
    kit = {h: name for h, name in pasted.kit_fingerprints().items() if not name.startswith("bk.ledger.")}
    import ast

    for path in files:
        text = path.read_text(encoding="utf-8")
        tree = ast.parse(text)
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                assert not any(a.name.split(".")[0] == "baccarat_kit" for a in node.names), (path, node.lineno)
            elif isinstance(node, ast.ImportFrom):  # relative imports stay inside the copied folder
                assert node.level <= 1 and not (node.module or "").startswith("baccarat_kit"), (path, node.lineno)
            elif isinstance(node, (ast.Name, ast.Attribute, ast.FunctionDef)):
                name = getattr(node, "id", None) or getattr(node, "attr", None) or getattr(node, "name", None)
                assert name not in ("BANKER_DRAWS_ON", "PLAYER_DRAWS_ON", "play", "settle", "variant_hands",
                                    "banker_draws", "player_draws", "hand_total"), (path, name)
        assert pasted.pasted(pasted.fingerprints([text]), kit) == [], path


def test_the_ledger_is_its_rows_only(api: Any) -> None:
    real = keys.settlement_variant("s1")["ledger"]
    rows = api.Ledger.from_csv(real.to_csv())
    assert len(rows) == len(real) and rows.opening_balance == real.opening_balance
    for mine, theirs in zip(rows, real, strict=True):
        assert (mine.round_id, mine.cards, mine.result, mine.returned, mine.balance_after) == (
            theirs.round_id, theirs.cards, theirs.result, theirs.returned, theirs.balance_after)
        assert [(b.area, b.stake) for b in mine.bets] == [(b.area, b.stake) for b in theirs.bets]
        assert type(mine.returned) is Decimal
    for absent in ("reconcile", "record", "settle"):
        with pytest.raises(AttributeError, match="rule code"):
            getattr(rows, absent)


def test_the_data_is_the_graders_for_the_learner_the_file_is_keyed_for(api: Any, exercises: dict[str, Any]) -> None:
    ex = exercises["04-whole-coups"]
    api._state.configure(api_payload(ex, ex.public, "s1", "s1"))
    assert api.grading.hands_for("04-whole-coups", " s1 ") == keys.variant_hands("04-whole-coups", "s1")
    with pytest.raises(ValueError, match="s1") as err:
        api.grading.hands_for("04-whole-coups", "s2")  # not the id this file is keyed for
    assert "s2" in str(err.value)
    five = exercises["05-settlement"]
    api._state.configure(api_payload(five, five.public, "s1", "s1"))
    data = api.grading.settlement_for("s1")
    real = keys.settlement_variant("s1")
    assert {k: v for k, v in data.items() if k != "ledger"} == {k: v for k, v in real.items() if k != "ledger"}
    six = exercises["06-misconceptions"]
    api._state.configure(api_payload(six, six.public, "s1", "s1"))
    check = api.grading.Checker("06-misconceptions")
    from baccarat_kit.grading.judge.checks import _means

    q1 = six.question("q1")
    letter = check.letter("q1", bk.banker_draws(3, 8), namespace={"LEARNER_ID": "s1"})
    assert _means(q1.options[q1.shown_options("s1")[letter]], bk.banker_draws(3, 8))
    assert f'"{letter}":' in repr(check.options("q1", namespace={"LEARNER_ID": "s1"}))
    with pytest.raises(ValueError):
        check.letter("q1", True, namespace={"LEARNER_ID": "s2"})  # another learner's order is not here


# ---------------------------------------------------------------- in real grading runs
SETUP = 'import baccarat_kit as bk\nbk.set_language("en")\nLEARNER_ID = "s1"\ncheck = bk.grading.Checker("03-banker-rule")'
FOUND = """
def found(text):
    # what a cell would use if it found the kit's rule code
    if "BANKER_DRAWS_ON" not in text:
        raise LookupError("no rule code")
    ns = {}
    exec(compile(text.replace("from .", "from baccarat_kit."), "kit", "exec"), ns)
    return ns
"""
ATTACKS = {
    "case_a": "import baccarat_kit.rules as R\ncase_a = R.banker_draws(3, 8)",
    "case_b": "import importlib\ncase_b = importlib.import_module('baccarat_kit.coup').play('2 3 4 5').banker_drew",
    "case_c": "case_c = found(open(KIT + '/rules.py').read())['banker_draws'](5, 7)",
    "case_d": (
        "import os\nhits = []\n"
        "for top in ['/', '/work', '/root', '/home', '/opt', '/srv', '/tmp', '/bk-api', *__import__('sys').path]:\n"
        "    for root, dirs, files in os.walk(top):\n"
        "        hits += [os.path.join(root, f) for f in files if f in ('rules.py', 'coup.py')]\n"
        "texts = [open(h).read() for h in hits]\n"
        "case_d = found(next(t for t in texts if 'BANKER_DRAWS_ON' in t))['banker_draws'](4, 1)"),
    "bcr006_variant_banker_total": (
        "import sys\n"
        "mods = [m for m in list(sys.modules.values()) if hasattr(m, 'banker_draws') or hasattr(m, 'BANKER_DRAWS_ON')]\n"
        "bcr006_variant_banker_total = mods[0].play('2 2 4 4 2').banker_total"),
    "bcr007_banker_total": (
        "import glob, os, zipfile\n"
        "wheels = [p for c in ('~/.cache/pip', '~/.cache/uv', '/root/.cache', '/tmp', '/var/cache')\n"
        "          for p in glob.glob(os.path.expanduser(c) + '/**/*baccarat*', recursive=True)]\n"
        "bcr007_banker_total = found(zipfile.ZipFile(wheels[0]).read('baccarat_kit/rules.py').decode())"),
    "banker_3_vs_k": None,  # answered honestly, after the attacks: it must still count
}
PROC = (
    "import re\nseen = ''\n"
    "for name in ('environ', 'cmdline', 'maps', 'mountinfo', 'mounts'):\n"
    "    try:\n        seen += open('/proc/self/' + name, 'rb').read().decode('latin1')\n"
    "    except OSError:\n        pass\n"
    "paths = set(re.findall(r'/[\\w./-]*baccarat_kit', seen)) | {'/proc/self/root' + KIT, '/proc/1/root' + KIT}\n"
    "texts = []\n"
    "for p in paths:\n"
    "    try:\n        texts.append(open(p + '/rules.py').read())\n"
    "    except OSError:\n        pass\n"
    "def banker_draws(total, player_third):\n"
    "    return found(texts[0])['banker_draws'](total, player_third)\n")


def _attack_notebook(folder: Path, honest: dict[str, Any]) -> Path:
    cells = [SETUP, f"KIT = {str(ROOT / 'baccarat_kit')!r}\n" + FOUND]
    for name, code in ATTACKS.items():
        cells.append(code if code is not None else f"{name} = {honest[name]!r}")
    cells.append(PROC)
    nb = {"cells": [{"cell_type": "code", "source": c, "metadata": {}, "outputs": [], "execution_count": None}
                    for c in cells],
          "metadata": {"baccarat_kit": {"exercise": "03-banker-rule"}}, "nbformat": 4, "nbformat_minor": 5}
    path = folder / "03-banker-rule.ipynb"
    path.write_text(json.dumps(nb), encoding="utf-8")
    return path


@pytest.mark.sandbox
def test_cells_that_look_for_the_kits_rule_code_find_none_and_fail_alone(tmp_path: Path,
                                                                          exercises: dict[str, Any]) -> None:
    ex = exercises["03-banker-rule"]
    honest = {q.answer: keys.expected(q.key, "s1") for q in ex.questions if q.kind not in ("function", "written")}
    path = _attack_notebook(tmp_path, honest)
    row = grade_file(path, exercises, Limits(cell_timeout=20, notebook_timeout=90)).to_json()
    assert row["status"] == "ok", row["reason"]
    by_answer = {q.answer: row["questions"][q.id] for q in ex.questions}
    for name in ATTACKS:
        if ATTACKS[name] is None:
            assert by_answer[name]["passed"] and by_answer[name]["score"] == by_answer[name]["points"], by_answer[name]
        else:
            assert by_answer[name]["score"] == 0 and "the cell that sets it" in by_answer[name]["message"]["en"], (
                name, by_answer[name])
    fn = by_answer["banker_draws"]  # through /proc/self/… and /proc/1/root: nothing to read
    assert fn["score"] == 0 and "wrong result" in fn["message"]["en"], fn
    warned = " ".join(w["en"] for w in row["warnings"])
    assert "6 code cell(s) failed" in warned and "rule code is not in the grading run" in warned, warned
    assert row["score"] == by_answer["banker_3_vs_k"]["points"]


@pytest.mark.sandbox
def test_a_function_answer_is_called_where_the_kit_is_absent_too(tmp_path: Path, exercises: dict[str, Any]) -> None:
    """The function runner is the notebook's own run: the same API-only world."""
    from baccarat_kit.grading.sandbox import session

    q = next(q for q in exercises["02-naturals-player"].questions if q.kind == "function")
    code = (f"import importlib\ndef {q.answer}(total):\n"
            "    return importlib.import_module('baccarat_kit.rules').player_draws(total)\n")
    report, parsed = session.run_notebook([code], [q.extraction()], Limits(cell_timeout=20))
    assert report["status"] == "ok" and parsed is not None
    assert set(json.dumps(r) for r in parsed["answers"][q.id]["results"]) == {'{"$error": "AbsentModule"}'}


def _pasted_notebook(folder: Path) -> Path:
    """03 with the kit's whole rules.py pasted into a cell (its two kit imports stubbed, a
    parameter renamed); every other answer left blank."""
    from baccarat_kit import rules

    text = inspect.getsource(rules).replace("from .errors import RuleError", "class RuleError(Exception):\n    pass")
    text = text.replace("from .i18n import Term", "def Term(x):\n    return x").replace("player_third", "p3")
    nb = {"cells": [{"cell_type": "code", "source": c, "metadata": {}, "outputs": [], "execution_count": None}
                    for c in (SETUP, text)],
          "metadata": {"baccarat_kit": {"exercise": "03-banker-rule"}}, "nbformat": 4, "nbformat_minor": 5}
    path = folder / "03-banker-rule.ipynb"
    path.write_text(json.dumps(nb), encoding="utf-8")
    return path


@pytest.mark.sandbox
def test_a_pasted_copy_of_the_kits_source_is_flagged_not_zeroed(tmp_path: Path, exercises: dict[str, Any]) -> None:
    row = grade_file(_pasted_notebook(tmp_path), exercises, Limits(cell_timeout=20)).to_json()
    assert row["status"] == "ok", row["reason"]
    fn = row["questions"]["q5"]
    assert fn["score"] == fn["points"] > 0, fn  # it computes the rule: not zeroed
    warned = [w["en"] for w in row["warnings"] if "pasted" in w["en"]]
    assert warned and "bk.rules.banker_draws" in warned[0] and "banker_draws" in warned[0], row["warnings"]
    # the model solution, written by hand, is not flagged
    model = grade_file(ROOT / "exercises" / "source" / "03-banker-rule.ipynb", exercises, Limits()).to_json()
    assert not [w for w in model["warnings"] if "pasted" in w["en"]]


# ---------------------------------------------------------------- check() tells the truth
def _kernel(folder: Path, copy: str) -> Any:
    """An IPython shell (what a Jupyter kernel runs), with the exercise copy in ``folder`` (the cwd)."""
    from IPython.core.interactiveshell import InteractiveShell

    (folder / copy).write_bytes((ROOT / "exercises" / copy).read_bytes())
    shell = InteractiveShell.instance()
    shell.reset()
    return shell


@pytest.mark.sandbox
def test_check_gives_the_graders_verdict_and_only_then_says_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("BACCARAT_KIT_GRADING", raising=False)
    monkeypatch.chdir(tmp_path)
    shell = _kernel(tmp_path, "03-banker-rule.ipynb")
    right = bk.banker_draws(3, 8)
    shell.run_cell(SETUP + f"\ncase_a = {right!r}", store_history=True)
    ok = shell.run_cell('check("q1", lang="en")', store_history=True).result
    assert ok.passed and "the grader's verdict" in repr(ok), repr(ok)
    # a scratch kit call in its own cell: in her kernel the kit answers; in grading it fails alone
    shell.run_cell("print(bk.banker_draws(3, 8))", store_history=True)
    assert shell.run_cell('check("q1", lang="en")', store_history=True).result.passed
    # an answer the kit computed: her kernel has the value, the grader's run does not
    shell.run_cell("case_b = bk.banker_draws(4, 3)", store_history=True)
    bad = shell.run_cell('check("q2", lang="en")', store_history=True).result
    assert not bad.passed and "rule code is not in the grading run" in repr(bad)
    # its cell failed there: said so, with the exception, and the cell as one of those she ran
    assert "`case_b` has no value: the cell that sets it failed when run again as grading runs it (AbsentError)" in repr(bad)
    assert "of those you ran: AbsentError" in repr(bad)
    # without a history to run again (a namespace handed in): never the grader's word
    plain = shell.user_ns["check"]("q1", lang="en", namespace={"case_a": right})
    assert "not the grader's verdict" in repr(plain) and "the grader's verdict (" not in repr(plain)


def test_every_copy_of_the_kit_in_a_bound_python_folder_is_masked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A wheel install (a hub environment), an editable install's finder and .pth, their bytecode
    and metadata: each is found and hidden behind an empty folder or /dev/null; other packages stay."""
    import sys

    from baccarat_kit.grading.sandbox import bwrap

    site = tmp_path / "env" / "lib" / "python3.11" / "site-packages"
    (site / "baccarat_kit").mkdir(parents=True)
    (site / "baccarat_kit" / "rules.py").write_text("BANKER_DRAWS_ON = {}\n")
    (site / "baccarat_kit-0.1.0.dist-info").mkdir()
    (site / "__editable___baccarat_kit_0_1_0_finder.py").write_text("MAPPING = {}\n")
    (site / "__editable__.baccarat_kit-0.1.0.pth").write_text("import x\n")
    (site / "__pycache__").mkdir()
    (site / "__pycache__" / "__editable___baccarat_kit_0_1_0_finder.cpython-311.pyc").write_bytes(b"")
    (site / "numpy").mkdir()
    (site / "realkit").mkdir()  # a copy under another name: told by its rules.py
    (site / "realkit" / "rules.py").write_text("BANKER_DRAWS_ON = {}\n")
    nested = site / "somepkg" / "_vendor" / "kit"  # vendored at any depth (redteam 14:15)
    nested.mkdir(parents=True)
    (nested / "rules.py").write_text("BANKER_DRAWS_ON = {}\n")
    (site / "somepkg" / "rules.py").write_text("RULES = []\n")  # another package's rules.py: left alone
    (site / "elsewhere").symlink_to(site / "baccarat_kit")
    monkeypatch.setattr(sys, "path", [*sys.path, str(site)])
    found = dict(api_tree.kit_copies([str(tmp_path / "env")]))
    assert found == {str(site / "baccarat_kit"): True, str(site / "baccarat_kit-0.1.0.dist-info"): True,
                     str(site / "realkit"): True, str(nested): True,
                     str(site / "__editable___baccarat_kit_0_1_0_finder.py"): False,
                     str(site / "__editable__.baccarat_kit-0.1.0.pth"): False,
                     str(site / "__pycache__" / "__editable___baccarat_kit_0_1_0_finder.cpython-311.pyc"): False}
    argv = bwrap.bwrap_argv(["python3"], [(str(tmp_path / "env"), str(tmp_path / "env"))], {}, layout={},
                            files=(), masks=sorted(found.items()), empty="/empty")
    assert ["--ro-bind", "/empty", str(site / "baccarat_kit")] == argv[argv.index(str(site / "baccarat_kit")) - 2:
                                                                       argv.index(str(site / "baccarat_kit")) + 1]
    assert argv.index(str(site / "baccarat_kit")) > argv.index(str(tmp_path / "env"))  # after the bind it hides in
    assert ["--ro-bind", "/dev/null", str(site / "__editable__.baccarat_kit-0.1.0.pth")] == argv[
        argv.index(str(site / "__editable__.baccarat_kit-0.1.0.pth")) - 2:
        argv.index(str(site / "__editable__.baccarat_kit-0.1.0.pth")) + 1]


@pytest.mark.sandbox
def test_in_a_grading_run_the_masked_copies_hold_nothing() -> None:
    """What this machine's own Python folders hold of the kit (the editable install's finder, which
    names the checkout; a wheel's package) reads as empty (or not at all) inside a real sandbox."""
    from baccarat_kit.grading.judge.checks import Question
    from baccarat_kit.grading.sandbox import bwrap, session

    copies = api_tree.kit_copies(bwrap.python_folders())
    if not copies:
        pytest.skip("no copy of the kit in this Python's folders (nothing to mask)")
    q = Question.from_dict({"id": "q1", "kind": "value", "answer": "seen", "points": 1, "type": "str",
                            "key": {"fn": "fixed", "args": ["-"]}, "public": ["type"]}, "test")
    probe = (f"import os\ncopies = {copies!r}\nseen = []\n"
             "for path, folder in copies:\n"
             "    try:\n"
             "        seen.append(sorted(os.listdir(path)) if folder else open(path, 'rb').read().decode())\n"
             "    except OSError as err:\n"
             "        seen.append(type(err).__name__)\n"
             "seen = repr(seen)")
    report, parsed = session.run_notebook([probe], [q.extraction()], Limits(cell_timeout=20))
    assert report["status"] == "ok" and parsed is not None, report
    import ast

    seen = ast.literal_eval(parsed["answers"]["q1"]["value"])
    for (path, folder), got in zip(copies, seen, strict=True):  # an empty folder; a file empty or refused
        assert got == [] if folder else got in ("", "PermissionError"), (path, got)
    assert all(Path(path).exists() for path, _ in copies)  # (the host's copies themselves are untouched)


SOLVERS = sorted((ROOT / "tests" / "fixtures" / "submissions" / "value-solvers").glob("*.ipynb"))


@pytest.mark.sandbox
def test_generic_value_solvers_earn_nothing_beside_full_marks_for_the_sources(tmp_path: Path) -> None:
    """Untouched copies with one solver cell (the engine, ``from baccarat_kit import …``,
    ``getattr``, a module of her own, ``importlib``, the grader's keys, IPython's output cache,
    ``bk.play`` on her hands): 0 on every question, the failing cell named; the sources, graded
    in the same batch, keep full marks."""
    from baccarat_kit.cli import main

    sources = sorted((ROOT / "exercises" / "source").glob("*.ipynb"))
    assert main(["grade", *map(str, [*SOLVERS, *sources]), "--out", str(tmp_path / "out"), "--jobs", "2",
                 "--no-progress"]) == 0
    doc = json.loads((tmp_path / "out" / "results.json").read_text(encoding="utf-8"))
    rows = {Path(s["file"]).name if "value-solvers" in s["file"] else "source:" + Path(s["file"]).name: s
            for s in doc["submissions"]}
    for path in SOLVERS:
        s = rows[path.name]
        assert s["status"] == "ok" and s["score"] == 0, (path.name, s["score"])
        assert any("failed" in w["en"] for w in s["warnings"]), (path.name, s["warnings"])
    assert "rule code is not in the grading run" in " ".join(w["en"] for w in rows["keys-letter-06.ipynb"]["warnings"])
    for path in sources:
        s = rows["source:" + path.name]
        assert s["score"] == s["max_score"] - s["pending_points"] > 0, path.name


@pytest.mark.sandbox
def test_of_each_python_prefix_only_what_python_needs_is_there() -> None:
    """Redteam 13:54: a copy of the kit elsewhere in a bound prefix (``<venv>/src/<name>``, conda's
    ``pkgs/`` and ``envs/``) was readable. Now each prefix shows only bin, lib(64) and pyvenv.cfg."""
    import sys

    from baccarat_kit.grading.judge.checks import Question
    from baccarat_kit.grading.sandbox import bwrap, session

    q = Question.from_dict({"id": "q1", "kind": "value", "answer": "seen", "points": 1, "type": "str",
                            "key": {"fn": "fixed", "args": ["-"]}, "public": ["type"]}, "test")
    probe = ("import os, sys\nseen = {}\n"
             "for p in sorted({sys.prefix, sys.base_prefix}):\n"
             "    try:\n        seen[p] = sorted(os.listdir(p))\n"
             "    except OSError as err:\n        seen[p] = type(err).__name__\n"
             "seen = repr(seen)")
    report, parsed = session.run_notebook([probe], [q.extraction()], Limits(cell_timeout=20))
    assert report["status"] == "ok" and parsed is not None, report
    import ast

    seen = ast.literal_eval(parsed["answers"]["q1"]["value"])
    assert set(seen) == {sys.prefix, sys.base_prefix}
    for prefix, names in seen.items():
        assert names == "PermissionError" or set(names) <= set(bwrap.PREFIX_PARTS), (prefix, names)


def test_without_a_sandbox_here_check_runs_the_cells_but_does_not_claim_the_graders_verdict(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Redteam 13:53: unconfined, a notebook that drops the exercise API can import an installed
    kit, so there the verdict is not the grader's, and check() says so."""
    from baccarat_kit.grading.sandbox import bwrap

    monkeypatch.delenv("BACCARAT_KIT_GRADING", raising=False)
    monkeypatch.setenv("BACCARAT_KIT_BWRAP", "none")
    monkeypatch.chdir(tmp_path)
    bwrap.check.cache_clear()
    try:
        shell = _kernel(tmp_path, "03-banker-rule.ipynb")
        shell.run_cell(SETUP + "\ncase_b = bk.banker_draws(4, 3)", store_history=True)
        said = repr(shell.run_cell('check("q2", lang="en")', store_history=True).result)
    finally:
        monkeypatch.delenv("BACCARAT_KIT_BWRAP")
        bwrap.check.cache_clear()
    assert "`case_b` has no value: the cell that sets it failed" in said  # run again with the exercise API only
    assert "not the grader's verdict" in said and "bubblewrap" in said and "the grader's verdict (" not in said


@pytest.mark.sandbox
@pytest.mark.parametrize("bad", ["raise SystemExit(3)", "raise KeyboardInterrupt", "import sys; sys.stdout = None",
                                 "class B(BaseException):\n    pass\nraise B()", "exit()",
                                 "import builtins; builtins.print = None"])
def test_a_cell_that_fails_in_grading_fails_alone(exercises: dict[str, Any], bad: str) -> None:
    """Whatever a cell raises or breaks (even IPython's own streams), the next cells run, and the
    answers after it, a value and a function, count."""
    from baccarat_kit.grading.sandbox import session

    ex = exercises["03-banker-rule"]
    cells = ['LEARNER_ID = "s1"', bad, "case_a = False", "def banker_draws(t, v):\n    return t < 3"]
    report, parsed = session.run_notebook(cells, [q.extraction() for q in ex.questions], Limits(cell_timeout=20))
    assert report["status"] == "ok" and parsed is not None, report
    assert parsed["answers"]["q1"] == {"status": "ok", "value": False}
    assert parsed["answers"]["q5"]["status"] == "ok"


def test_check_letter_used_wrongly_in_a_grading_run_says_what_is_wrong(api: Any, exercises: dict[str, Any]) -> None:
    """In a grading run check.letter raised LearnerIdMissing "There is no question 'banker': use ?"
    for a meaning no option has; the failed cell's warning now says what was wrong, in both languages."""
    six = exercises["06-misconceptions"]
    api._state.configure(api_payload(six, six.public, "s1", "s1"))
    check = api.grading.Checker("06-misconceptions")
    ns = {"LEARNER_ID": "s1"}
    with pytest.raises(api.grading.ChoiceError) as err:
        check.letter("q1", "banker", namespace=ns)
    text = str(err.value)
    assert "q1 沒有意思是 'banker' 的選項" in text and "no option of q1 means 'banker'" in text
    assert "True (the banker draws)" in text and "False (the banker stands)" in text
    with pytest.raises(api.grading.ChoiceError) as err:
        check.letter("q9", True, namespace=ns)
    assert "its choice questions are q1, q2, q3, q4, q5, q6, q7" in str(err.value)
    with pytest.raises(api.grading.ChoiceError) as err:
        check.letter("q1", [1], namespace=ns)
    assert "not a value of type list" in str(err.value)
    three = exercises["03-banker-rule"]
    api._state.configure(api_payload(three, three.public, "s1", "s1"))
    with pytest.raises(api.grading.ChoiceError) as err:
        api.grading.Checker("03-banker-rule").letter("q1", True, namespace=ns)
    assert "exercise 03-banker-rule has none" in str(err.value)
