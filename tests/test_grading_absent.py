"""Issue 30: the grading run has no kit code, so no route carries the kit's answers into hers.

The fixtures (``tests/fixtures/submissions/absent/`` and ``honest/``, made by
``make_absent_fixtures.py``) start from the released class copies of exercises 03-06:

* every **attack** carries the kit's answers into her answers by one route (dict mutation,
  attribute stores, ``__globals__`` and frames, class bodies, allowed calls whose module global
  was swapped, closure / guard unwrapping, re-executing the kit's files, a cell that tries
  everything); she worked out nothing herself, so each question earns 0;
* every **honest** notebook has every answer right, worked out by her, and one construct that
  earlier graders took for the kit's; each earns full marks, with the model solutions at full
  marks in the same batch.

Each kind is graded twice: as public-id copies (the files in the repository) and on a class
released from a term secret (the same fixtures built on her term copy here, graded with
``--secret-file``). Then every fixture runs in a real kernel with the real kit installed
(nbclient), as a learner runs it: there the attacks do get the kit's answers (so none is empty),
and what ``check("qN")`` says must agree with the grader's row.
"""

from __future__ import annotations

import copy
import csv
import io
import json
import re
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "tests" / "fixtures" / "submissions"
sys.path.insert(0, str(FIXTURES))
import make_absent_fixtures as fx  # noqa: E402

from baccarat_kit.cli import main  # noqa: E402
from baccarat_kit.grading.judge.checks import Exercise  # noqa: E402
from baccarat_kit.grading.term.authoring import read_source  # noqa: E402

pytestmark = [pytest.mark.sandbox, pytest.mark.slow]

SOURCE = ROOT / "exercises" / "source"
ATTACKS = sorted(p.stem for p in (FIXTURES / "absent").glob("*.ipynb"))
HONEST = sorted(p.stem for p in (FIXTURES / "honest").glob("*.ipynb"))
MODELS = [f"{e}" for e in fx.EXERCISES]
LEARNERS = (fx.ATTACKER, fx.HONEST_ID)


def _exercise(exercise: str) -> Exercise:
    nb = read_source(SOURCE / f"{exercise}.ipynb")
    return Exercise.from_metadata(nb["metadata"]["baccarat_kit"], exercise)


EXERCISE = {e: _exercise(e) for e in fx.EXERCISES}


def _grade(paths: list[Path], out: Path, *extra: str) -> dict[str, Any]:
    code = main(["--lang", "en", "grade", *map(str, paths), "--out", str(out), "--jobs", "2", "--no-progress",
                 "--timeout", "10", "--notebook-timeout", "60", *extra])
    doc = json.loads((out / "results.json").read_text(encoding="utf-8"))
    rows = list(csv.DictReader(io.StringIO((out / "grades.csv").read_text(encoding="utf-8"))))
    return {"code": code, "subs": {Path(s["file"]).stem: s for s in doc["submissions"]},
            "rows": {Path(r["file"]).stem: r for r in rows}}


def _write(folder: Path, name: str, nb: dict[str, Any]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.ipynb"
    path.write_text(fx.dumps(nb), encoding="utf-8")
    return path


# ---------------------------------------------------------------- the class from a term secret
def _term_solved(exercise: str, secret: Any, learner: str) -> dict[str, Any]:
    """The model solution on this learner's term copy (her data, her mark, her option letters),
    as tests/test_grading_term_secret.py makes it."""
    from baccarat_kit.grading.term import release as rel

    nb = read_source(SOURCE / f"{exercise}.ipynb")
    token = secret.token(exercise, learner)
    ex = rel.Exercise.from_metadata(nb["metadata"]["baccarat_kit"], exercise)
    out = rel.term_source(nb, exercise, token)
    out["metadata"]["baccarat_kit"] = rel.term_metadata(rel.public_metadata(nb["metadata"]["baccarat_kit"]), ex,
                                                        token, secret.fingerprint, learner)
    for cell in out["cells"]:
        if cell["cell_type"] == "code":
            cell["source"] = re.sub(r"^LEARNER_ID = .*$", f"LEARNER_ID = {learner!r}", fx._src(cell), flags=re.M)
    return out


@pytest.fixture(scope="module")
def term(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """A term secret, the class list (mallory attacks, ann is honest), their released copies and
    every fixture built on them: ``files`` name -> path (the model solutions as ``model-NN``)."""
    from baccarat_kit.grading.term.secret import read_secret

    tmp = tmp_path_factory.mktemp("term")
    key = tmp / "term.key"
    assert main(["--lang", "en", "secret", "new", str(key)]) == 0
    roster = tmp / "class.csv"
    roster.write_text("learner\n" + "".join(f"{n}\n" for n in LEARNERS), encoding="utf-8")
    handout = tmp / "handout"
    assert main(["--lang", "en", "release", str(SOURCE), "--out", str(handout), "--class-list", str(roster),
                 "--secret-file", str(key)]) == 0
    secret = read_secret(key)
    bases = {lr: {e: json.loads((handout / lr / "exercises" / f"{e}.ipynb").read_text(encoding="utf-8"))
                  for e in fx.EXERCISES} for lr in LEARNERS}
    attacks = fx.all_fixtures(bases[fx.ATTACKER], fx.solved_sources())
    honest = fx.all_fixtures(bases[fx.HONEST_ID], fx.solved_sources())
    files: dict[str, Path] = {}
    for name, nb in attacks.items():
        if not name.startswith("honest-"):
            files[name] = _write(tmp / "subs", name, nb)
    for name, nb in honest.items():
        if name.startswith("honest-"):
            files[name[len("honest-"):]] = _write(tmp / "subs", name[len("honest-"):], nb)
    for e in fx.EXERCISES:
        files[f"model-{e[:2]}"] = _write(tmp / "subs", f"model-{e[:2]}", _term_solved(e, secret, fx.HONEST_ID))
    return {"key": key, "secret": secret, "files": files, "tmp": tmp}


# ---------------------------------------------------------------- the graded batches (one each)
@pytest.fixture(scope="module")
def public(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    paths = [*(SOURCE / f"{e}.ipynb" for e in fx.EXERCISES), *(FIXTURES / "absent" / f"{n}.ipynb" for n in ATTACKS),
             *(FIXTURES / "honest" / f"{n}.ipynb" for n in HONEST)]
    batch = _grade(paths, tmp_path_factory.mktemp("public") / "out")
    for e in fx.EXERCISES:  # the model solutions under a name of their own
        batch["subs"][f"model-{e[:2]}"] = batch["subs"].pop(e)
    return batch


@pytest.fixture(scope="module")
def termed(term: dict[str, Any]) -> dict[str, Any]:
    return _grade(list(term["files"].values()), term["tmp"] / "out", "--secret-file", str(term["key"]))


BATCHES = ("public", "termed")


def _batch(request: pytest.FixtureRequest, which: str) -> dict[str, Any]:
    return request.getfixturevalue(which)


def _row(batch: dict[str, Any], name: str) -> dict[str, Any]:
    assert name in batch["subs"], f"{name}: no row in the gradebook"
    return batch["subs"][name]


# ---------------------------------------------------------------- the fixtures are what the script makes
def test_the_fixtures_are_what_the_script_makes(tmp_path: Path) -> None:
    made = fx.all_fixtures(fx.public_bases(tmp_path), fx.solved_sources())
    expected = {("honest", n[len("honest-"):]) if n.startswith("honest-") else ("absent", n): fx.dumps(nb)
                for n, nb in made.items()}
    found = {(folder, p.stem): p.read_text(encoding="utf-8") for folder in ("absent", "honest")
             for p in (FIXTURES / folder).glob("*.ipynb")}
    assert sorted(found) == sorted(expected), "run python tests/fixtures/submissions/make_absent_fixtures.py"
    stale = [f"{folder}/{n}" for (folder, n), text in expected.items() if found[(folder, n)] != text]
    assert not stale, f"stale fixtures (run make_absent_fixtures.py): {stale}"


def test_every_attack_class_and_exercise_is_covered() -> None:
    kinds = {a.kind for a in fx.ATTACKS}
    assert kinds >= {"mutation", "attribute", "globals", "class", "carrier", "closure", "re-exec"}
    for kind in kinds:
        assert len([a for a in fx.ATTACKS if a.kind == kind]) >= 2, kind
    for e in fx.EXERCISES:
        assert f"generic-{e[:2]}" in ATTACKS
        assert {a.kind for a in fx.ATTACKS if e in a.exercises} == kinds, e


# ---------------------------------------------------------------- grading
@pytest.mark.parametrize("which", BATCHES)
def test_the_model_solutions_keep_full_marks(request: pytest.FixtureRequest, which: str) -> None:
    batch = _batch(request, which)
    for e in fx.EXERCISES:
        row = _row(batch, f"model-{e[:2]}")
        assert row["status"] == "ok" and row["score"] == row["max_score"] - row["pending_points"], (
            f"{which}: the model solution of {e} lost points: "
            + "; ".join(f"{q}: {r['score']}/{r['points']} {r['message']['en']}"
                        for q, r in row["questions"].items() if r["score"] != r["points"]))


def _earned(row: dict[str, Any]) -> dict[str, str]:
    return {q: f"{r['score']}/{r['points']} ({r['message']['en'][:160]})"
            for q, r in row["questions"].items() if r["score"]}


@pytest.mark.parametrize("which", BATCHES)
@pytest.mark.parametrize("name", [n for n in ATTACKS if n not in fx.FLAGGED])
def test_an_attack_earns_nothing_she_did_not_work_out(request: pytest.FixtureRequest, which: str, name: str) -> None:
    row = _row(_batch(request, which), name)
    own = fx.OWN.get(name, set())
    earned = {q: s for q, s in _earned(row).items() if q not in own}
    assert not earned, f"{which} {name}.ipynb scored with the kit's answers: {earned}"


@pytest.mark.parametrize("which", BATCHES)
@pytest.mark.parametrize("name", HONEST)
def test_honest_work_keeps_full_marks(request: pytest.FixtureRequest, which: str, name: str) -> None:
    row = _row(_batch(request, which), name)
    lost = {q: f"{r['score']}/{r['points']}: {r['message']['en'][:200]}"
            for q, r in row["questions"].items() if r["score"] != r["points"] and not r.get("pending")}
    assert row["status"] == "ok" and not lost, f"{which} honest/{name}.ipynb ({row['status']}) lost points: {lost}"


@pytest.mark.parametrize("which", BATCHES)
def test_pasted_kit_source_is_flagged_not_zeroed(request: pytest.FixtureRequest, which: str) -> None:
    for name in sorted(fx.FLAGGED):
        row = _row(_batch(request, which), name)
        assert row["score"] == row["max_score"] - row["pending_points"], f"{which} {name}: her pasted code is hers to run: {_earned(row)}"
        text = " ".join(w["en"] for w in row["warnings"]).lower()
        assert "kit" in text and ("source" in text or "paste" in text or "copy" in text), (
            f"{which} {name}: no warning names the pasted kit source: {row['warnings']}")


# ---------------------------------------------------------------- a real kernel, the kit installed
HARNESS = '''
import json as _bk_json
_bk_report = {{"checks": {{}}, "answers": None, "function": None}}
for _bk_q in {ask!r}:
    try:
        _bk_r = check(_bk_q, lang="en")
        _bk_report["checks"][_bk_q] = {{"text": str(getattr(_bk_r, "text", _bk_r)),
                                        "passed": getattr(_bk_r, "passed", None) is True,
                                        "type": type(_bk_r).__name__}}
    except BaseException as _bk_e:
        _bk_report["checks"][_bk_q] = {{"text": "check raised " + type(_bk_e).__name__, "passed": False, "type": "error"}}
try:
    from baccarat_kit.grading.sandbox import _extract as _bk_x
    _bk_report["answers"] = _bk_x.collect(globals(), {wanted!r})["answers"]
except BaseException as _bk_e:
    _bk_report["answers"] = repr(_bk_e)
if {function!r}:
    try:
        _bk_report["function"] = [globals()[{function!r}](t, p) for t in range(8) for p in [None, *range(10)]]
    except BaseException as _bk_e:
        _bk_report["function"] = repr(_bk_e)
print("BK-FIXTURE-REPORT " + _bk_json.dumps(_bk_report, default=repr))
'''


CHECK_CELL = re.compile(r"""^check\(["']q\d+["']\)$""")


def _agree_sample() -> list[str]:
    """The attacks whose ``check()`` is compared with the grader (each ``check("qN")`` runs her
    cells again in a fresh Python: about a second each): every route that looks for the kit's
    files or code (re-exec, unwrapping, generic, the pasted and metadata ones), and one attack of
    every other kind on each exercise."""
    chosen: list[str] = []
    seen: set[tuple[str, str]] = set()
    for attack in fx.ATTACKS:
        for exercise in attack.exercises:
            name = f"{attack.name}-{exercise[:2]}"
            if attack.kind in ("re-exec", "closure") or (attack.kind, exercise) not in seen:
                chosen.append(name)
                seen.add((attack.kind, exercise))
    return [*chosen, *(f"generic-{e[:2]}" for e in fx.EXERCISES), *sorted(fx.FLAGGED), *sorted(fx.LEAKS)]


AGREE = [*_agree_sample(), *HONEST, *(f"model-{e[:2]}" for e in fx.EXERCISES)]


def _kernel_run(nb: dict[str, Any], exercise: str, folder: Path, ask: bool = True) -> dict[str, Any]:
    """Run ``nb`` as her notebook ``exercise.ipynb`` in ``folder`` in a fresh kernel (errors
    allowed: a learner's cell may fail), then (``ask``) ask ``check`` about every question. Her
    own ``check("qN")`` cells are left out of the run (each would run her cells again: time only;
    in grading they do nothing)."""
    import nbclient
    import nbformat

    folder.mkdir(parents=True)
    path = folder / f"{exercise}.ipynb"
    path.write_text(fx.dumps(nb), encoding="utf-8")  # the saved notebook, as beside her kernel
    ex = EXERCISE[exercise]
    function = next((q.answer for q in ex.questions if q.kind == "function"), "")
    wanted = [q.extraction() for q in ex.questions if q.kind != "function"]
    run = nbformat.reads(path.read_text(encoding="utf-8"), as_version=4)
    run.cells = [c for c in run.cells if not (c.cell_type == "code" and CHECK_CELL.match(c.source.strip()))]
    run.cells.append(nbformat.v4.new_code_cell(HARNESS.format(ask=[q.id for q in ex.questions] if ask else [],
                                                              wanted=wanted, function=function)))
    try:
        nbclient.NotebookClient(run, timeout=300, kernel_name="python3", allow_errors=True, **PATIENT,
                                resources={"metadata": {"path": str(folder)}}).execute()
    except Exception as err:
        return {"error": f"{type(err).__name__}: {str(err)[:300]}"}
    text = "".join(o.get("text", "") for o in run.cells[-1].outputs if o.get("output_type") == "stream")
    found = [line for line in text.splitlines() if line.startswith("BK-FIXTURE-REPORT ")]
    if not found:
        return {"error": text[-500:] or str(run.cells[-1].outputs)[-500:]}
    return json.loads(found[-1][len("BK-FIXTURE-REPORT "):])


PATIENT = {"startup_timeout": 600, "iopub_timeout": 120}
"""nbclient waits 60 s for a kernel to start and 4 s, after a cell's reply, for its output (then
goes on without it: the report line would be lost); a loaded machine can take longer for both.
Each wait ends as soon as what it waits for comes."""


@pytest.fixture(scope="module")
def kernels(tmp_path_factory: pytest.TempPathFactory, term: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Every fixture (public and term), the model solutions too, run in a real kernel:
    ``{"public": {name: report}, "termed": {name: report}}``."""
    pytest.importorskip("nbclient")
    tmp = tmp_path_factory.mktemp("kernels")
    kernel = tmp / "jupyter" / "kernels" / "python3"
    kernel.mkdir(parents=True)
    kernel.joinpath("kernel.json").write_text(json.dumps({
        "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": "Python 3 (ipykernel)", "language": "python"}))
    mp = pytest.MonkeyPatch()
    mp.setenv("JUPYTER_PATH", str(tmp / "jupyter"))
    mp.setenv("MPLCONFIGDIR", str(tmp / "mpl"))
    mp.setenv("IPYTHONDIR", str(tmp / "ipython"))
    mp.setenv("MPLBACKEND", "Agg")
    out: dict[str, dict[str, Any]] = {"public": {}, "termed": {}}
    try:
        public_files = {**{n: FIXTURES / "absent" / f"{n}.ipynb" for n in ATTACKS},
                        **{n: FIXTURES / "honest" / f"{n}.ipynb" for n in HONEST},
                        **{f"model-{e[:2]}": SOURCE / f"{e}.ipynb" for e in fx.EXERCISES}}
        for which, files in (("public", public_files), ("termed", term["files"])):
            for name, path in files.items():
                nb = read_source(path)  # (a source's questions are written in cells; a copy is read as it is)
                exercise = nb["metadata"]["baccarat_kit"]["exercise"]
                if name.startswith("model-") and which == "public":  # the source, as a learner copy
                    nb = copy.deepcopy(nb)
                    nb["metadata"]["baccarat_kit"].pop("released", None)
                if which == "termed" and name not in AGREE:
                    continue  # (that the attacks carry the kit's answers is shown on the public copies)
                out[which][name] = _kernel_run(nb, exercise, tmp / which / name, ask=name in AGREE)
    finally:
        mp.undo()
    return out


def _right_in_kernel(report: dict[str, Any], exercise: str, learner: str) -> dict[str, bool]:
    """Per question: whether the value her kernel holds is the right answer (public-id keys)."""
    import baccarat_kit as bk
    from baccarat_kit.grading.judge.checks import grade_question

    ex = EXERCISE[exercise]
    out: dict[str, bool] = {}
    for q in ex.questions:
        if q.kind == "function":
            want = [bk.banker_draws(t, p) for t in range(8) for p in [None, *range(10)]]
            out[q.id] = report.get("function") == want
        else:
            answer = (report.get("answers") or {}).get(q.id, {"status": "missing"}) if isinstance(
                report.get("answers"), dict) else {"status": "missing"}
            out[q.id] = grade_question(q, answer, learner, hidden=True).passed
    return out


@pytest.mark.parametrize("name", [n for n in ATTACKS if n not in fx.LEAKS])
def test_in_a_learners_kernel_the_attack_does_carry_the_kits_answers(kernels: dict[str, Any], name: str) -> None:
    """No attack is empty: with the kit installed, each carries the right answers (so scoring 0
    in grading is the grader's doing, not a broken fixture)."""
    report = kernels["public"][name]
    assert "error" not in report, f"{name}: the harness did not run: {report}"
    exercise = fx.exercise_of(name)
    right = _right_in_kernel(report, exercise, fx.ATTACKER)
    kit_answers = [q.id for q in EXERCISE[exercise].questions if q.answer in fx.KIT[exercise]]
    missing = [q for q in kit_answers if not right[q]]
    carried_by_check = name.startswith("carrier-check-call")
    assert not missing or (carried_by_check and len(missing) < len(kit_answers)), (
        f"{name}.ipynb: in a learner's kernel the attack did not carry {missing} (answers: {report.get('answers')})")


VERDICT_FULL = ("the grader's verdict", "checked: correct", "every check the grader runs passed")
"""What ``check()`` says when it claims the grader's full marks for a question (in English)."""
NOT_THE_GRADER = "not the grader's verdict"


def _claims(text: str) -> tuple[str, str | None]:
    """What ``check()`` claimed: ``("full", None)`` (the grader's full marks), ``("score", "s/p")``
    (a ✘ that gives the grader's score), ``("wrong", None)`` (another ✘), or ``("none", None)``."""
    if NOT_THE_GRADER in text:
        return "none", None
    if text.startswith("✘"):
        score = re.search(r"\(score (\d+(?:\.\d+)?)/(\d+(?:\.\d+)?)", text)
        return ("score", f"{float(score.group(1)):g}/{float(score.group(2)):g}") if score else ("wrong", None)
    if text.startswith("✔") and any(v in text for v in VERDICT_FULL) and "Hidden checks run" not in text:
        return "full", None
    return "none", None


@pytest.mark.parametrize("which", BATCHES)
@pytest.mark.parametrize("name", AGREE)
def test_check_and_the_grader_agree(request: pytest.FixtureRequest, kernels: dict[str, Any], which: str,
                                    name: str) -> None:
    """Per question: a ✔ that claims the grader's verdict has the grader's full marks; a ✘ has less."""
    if name.startswith("carrier-check-call"):
        pytest.skip("her notebook replaced check() itself: what it prints is hers")
    report = kernels[which][name]
    assert "error" not in report, f"{which} {name}: the harness did not run: {report}"
    row = _row(_batch(request, which), name)
    # (not_attempted: every answer is still as the copy came, her solver's calls having failed where
    # the kit's code is absent; check() must then claim no full marks either)
    assert row["status"] in ("ok", "not_attempted"), f"{which} {name}.ipynb was not graded: {row['status']}: {row['reason']['en']}"
    disagree = []
    for qid, shown in report["checks"].items():
        graded = row["questions"][qid]
        claim, said = _claims(shown["text"])
        full = graded["score"] == graded["points"]
        given = f"{float(graded['score']):g}/{float(graded['points']):g}"
        if (claim == "full" and not full) or (claim == "wrong" and full) or (claim == "score" and said != given):
            disagree.append(f"{qid}: check() said {shown['text'][:160]!r}; the grader gave "
                            f"{graded['score']}/{graded['points']} ({graded['message']['en'][:120]})")
    assert not disagree, f"{which} {name}.ipynb: check() and the grader disagree: " + "; ".join(disagree)


# ---------------------------------------------------------------- where a copy of the kit may lie
COPIES = ("lib/python3.11/site-packages/baccarat_kit",  # a wheel
          "lib/python3.11/site-packages/~accarat_kit",  # what pip leaves while it replaces one
          "lib/python3.11/site-packages/realkit",  # renamed
          "src/baccarat-kit/baccarat_kit",  # pip install -e git+…#egg=baccarat-kit clones here
          "pkgs/baccarat-kit-0.1.0-py_0/site-packages/baccarat_kit",  # an extracted conda package
          "envs/other/lib/python3.11/site-packages/baccarat_kit",  # another env of a bound base
          "lib/python3.11/site-packages/somepkg/_vendor/baccarat_kit",  # vendored inside a package
          "lib/baccarat-kit-src/baccarat_kit")  # a source tree left in lib/
"""Copies of the kit inside a Python prefix (reexec-package-alias scored 10/11 on 03 and 8/8 on
04 in grading with one in ``<venv>/src`` when the whole prefix was bound)."""


@pytest.mark.parametrize("where", COPIES)
def test_no_copy_of_the_kit_in_a_python_prefix_is_readable_in_a_sandbox(tmp_path: Path, where: str) -> None:
    """What a sandbox binds of a prefix (:data:`.bwrap.PREFIX_PARTS`) minus what it masks
    (:func:`.api_tree.kit_copies`) holds no copy of the kit's rules."""
    from baccarat_kit.grading.sandbox import api_tree
    from baccarat_kit.grading.sandbox import bwrap as _bw

    prefix = tmp_path / "prefix"
    copy_ = prefix / where
    copy_.mkdir(parents=True)
    (copy_ / "rules.py").write_text((ROOT / "baccarat_kit" / "rules.py").read_text(encoding="utf-8"), encoding="utf-8")
    (copy_ / "__init__.py").write_text("", encoding="utf-8")
    bound = [str(prefix / part) for part in _bw.PREFIX_PARTS if (prefix / part).exists()]
    if not any(str(copy_).startswith(b + "/") for b in bound):
        return  # not bound at all
    masked = [path for path, _folder in api_tree.kit_copies(bound)]
    assert any(str(copy_) == m or str(copy_).startswith(m + "/") for m in masked), (
        f"a copy of the kit at {where} is bound ({bound}) and not masked: {masked}")
