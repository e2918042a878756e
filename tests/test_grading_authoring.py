"""Exercises authored in cells (``baccarat_kit/grading/term/authoring.py``), and issue 44's "done when":
a case and a graded question added as lesson 09 says, each mistake of the issue made on purpose
and named by ``baccarat-kit cases check`` or ``baccarat-kit release``.

The lesson's own cells write the case file and the exercise source (read from
``notebooks/src/09-instructors-adding-a-case.py``), so this test follows the lesson. Quotes are
checked against a folder holding two lines of source 002 (``tests/fixtures/sources``), so
nothing here needs the real source pages.
"""

from __future__ import annotations

import copy
import importlib.util
import json
from pathlib import Path
from typing import Any

import pytest

from baccarat_kit.cli import main
from baccarat_kit.grading.judge.checks import SpecError
from baccarat_kit.grading.term.authoring import compile_source, parse_key, read_source
from baccarat_kit.grading.term.release import ReleaseError, release_notebook
from baccarat_kit.sources import attributed_quotes

ROOT = Path(__file__).resolve().parents[1]
PAGES = ROOT / "tests" / "fixtures" / "sources"
_spec = importlib.util.spec_from_file_location("lesson_build", ROOT / "notebooks" / "build.py")
assert _spec and _spec.loader
build = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(build)


def lesson_cell(marker: str) -> str:
    """The code cell of lesson 09 that contains ``marker``."""
    cells = build.parse_source((ROOT / "notebooks" / "src" / "09-instructors-adding-a-case.py").read_text(encoding="utf-8"))
    (code,) = [str(c["source"]) for c in cells if c["cell_type"] == "code" and marker in str(c["source"])]
    return code


@pytest.fixture
def workdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("BACCARAT_KIT_SOURCES", str(PAGES))
    return tmp_path


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    from baccarat_kit import i18n

    i18n._current = None
    code = main(["--lang", "en", *argv])
    out, err = capsys.readouterr()
    return code, out + err


def as_lesson_09(workdir: Path) -> tuple[Path, Path]:
    """Lesson 09's case file (section 1) and exercise source (section 7), written by its own cells."""
    folder = workdir / "my-cases"
    folder.mkdir()
    exec(lesson_cell('case_file = folder / "my-cases.toml"'), {"folder": folder, "print": lambda *a: None})
    exec(lesson_cell('exercise = "07-banker-3"'), {"Path": Path, "json": json})
    return folder / "my-cases.toml", workdir / "my-exercises" / "07-banker-3.ipynb"


# ---------------------------------------------------------------- issue 44: done when


def test_a_case_and_a_question_as_lesson_09_says_and_each_mistake_named(
        workdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    case_file, source = as_lesson_09(workdir)
    # the case of the instructor's own passes, with no quote and no page
    code, out = run(capsys, "cases", "check", "my-cases")
    assert code == 0 and "all hold" in out
    text = case_file.read_text(encoding="utf-8")

    # 1. an id the shipped catalogue has: named without --with-shipped
    case_file.write_text(text.replace('id = "MY-001"', 'id = "BCR-001"'), encoding="utf-8")
    code, out = run(capsys, "cases", "check", "my-cases")
    assert code == 2 and "my-cases/my-cases.toml: BCR-001: duplicate id: the shipped catalogue's bcr.toml" in out

    # 2. a quote without its English (the case now cites 002's FAQ)
    quoted = text.replace('source = "instructor"', 'source = "002"').replace(
        "cards =", 'quote = "莊家 3 點是不是一定補牌？"\ncards =', 1)
    case_file.write_text(quoted, encoding="utf-8")
    code, out = run(capsys, "cases", "check", "my-cases")
    assert code == 2 and "MY-001: 'quote' (the source's words) has no 'quote_en'" in out

    # 3. a quote that is not on its page
    misquoted = quoted.replace("一定補牌", "一定停牌").replace(
        "cards =", 'quote_en = "Does a banker 3 always stand?"\ncards =', 1)
    case_file.write_text(misquoted, encoding="utf-8")
    code, out = run(capsys, "cases", "check", "my-cases")
    assert code == 1 and "MY-001: 'quote' is not source 002's own words" in out and "一定▶停牌" in out
    case_file.write_text(text, encoding="utf-8")

    # the question: released in both editions, its text, hint and English from the cells
    assert run(capsys, "release", "my-exercises", "--out", "handout")[0] == 0
    assert run(capsys, "release", "my-exercises", "--out", "handout-en", "--edition", "en")[0] == 0
    zh = json.loads((workdir / "handout" / "07-banker-3.ipynb").read_text(encoding="utf-8"))
    en = json.loads((workdir / "handout-en" / "07-banker-3.ipynb").read_text(encoding="utf-8"))
    assert all(c["cell_type"] != "raw" for c in zh["cells"] + en["cells"])
    assert "banker_3_vs_8 = ...\n" not in json.dumps(zh) and "banker_3_vs_8 = ..." in [c["source"] for c in zh["cells"]]
    assert any("does the banker draw?" in c["source"] for c in en["cells"])
    (q,) = zh["metadata"]["baccarat_kit"]["questions"]
    assert q["hint"]["en"].startswith("Read the banker-3 row") and "text" not in q
    assert zh["metadata"]["baccarat_kit"] == {**en["metadata"]["baccarat_kit"], "language": "zh"}
    from baccarat_kit.grading import Checker

    check = Checker("07-banker-3", lang="en", folder=workdir / "handout")
    wrong, right = (str(check("q1", namespace={"LEARNER_ID": "ann", "banker_3_vs_8": v})) for v in (True, False))
    assert "Hint: Read the banker-3 row" in wrong and "Hint" not in right  # while her answer is wrong
    exercise = read_source(source)["metadata"]["baccarat_kit"]["questions"][0]
    assert exercise["text"]["en"].startswith("Source 002's FAQ") and exercise["key"] == {"fn": "banker_draws", "args": [3, 8]}

    good = source.read_text(encoding="utf-8")
    mistakes = {
        # 4. the same kind of misquote, in the exercise's question: refused, naming question and quote
        "misquote": (("一定補牌？」莊家", "一定停牌？」莊家"),
                     "my-exercises/07-banker-3.ipynb, q1: a quotation of source 002 is not its own words: 「莊家 3 點是不是一定停牌？」"),
        # and what release refused before: an answer cell without # SOLUTION, a key the model answer disagrees with
        "no marker": (("banker_3_vs_8 = False  # SOLUTION", "banker_3_vs_8 = False"),
                      "question q1, cell 8: the answer `banker_3_vs_8` has no '# SOLUTION' marker"),
        "wrong key": (("banker_draws(3, 8)", "banker_draws(3, 9)"),
                      "does not earn full marks on question q1"),
        # a typo in a setting, and a key that is not a call
        "typo": (("points = 1", "pionts = 1"), "my-exercises/07-banker-3.ipynb, q1: unknown setting 'pionts'"),
        "bad key": (("banker_draws(3, 8)", "banker_draws(3, "), "q1, key: 'banker_draws(3, ' is not how a key is written"),
    }
    for name, ((right, wrong), said) in mistakes.items():
        assert right in good, name
        source.write_text(good.replace(right, wrong, 1), encoding="utf-8")
        code, out = run(capsys, "release", "my-exercises", "--out", f"refused-{name.replace(' ', '-')}")
        assert code == 2 and said in out, (name, out)
        assert not (workdir / f"refused-{name.replace(' ', '-')}").exists(), name  # nothing written
    source.write_text(good, encoding="utf-8")


def test_release_says_when_the_quotes_could_not_be_verified(workdir: Path, capsys: pytest.CaptureFixture[str],
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    as_lesson_09(workdir)
    monkeypatch.setenv("BACCARAT_KIT_SOURCES", str(workdir / "no-pages"))
    code, out = run(capsys, "release", "my-exercises", "--out", "handout")
    assert code == 0
    assert f"the exercises' quotations were not verified: the source pages were not found (looked in {workdir / 'no-pages'})" in out


@pytest.mark.sandbox
def test_the_new_question_is_graded_in_the_sandbox(workdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Released, answered right by one learner and wrong by another, graded from the source."""
    as_lesson_09(workdir)
    assert run(capsys, "release", "my-exercises", "--out", "handout")[0] == 0
    copy_ = json.loads((workdir / "handout" / "07-banker-3.ipynb").read_text(encoding="utf-8"))
    for learner, answer in (("ann", "False"), ("bob", "True")):
        nb = copy.deepcopy(copy_)
        for cell in nb["cells"]:
            cell["source"] = cell["source"].replace('LEARNER_ID = ""', f'LEARNER_ID = "{learner}"').replace(
                "banker_3_vs_8 = ...", f"banker_3_vs_8 = {answer}")
        (workdir / "in").mkdir(exist_ok=True)
        (workdir / "in" / f"07-banker-3-{learner}.ipynb").write_text(json.dumps(nb), encoding="utf-8")
    code, _ = run(capsys, "grade", "in", "--source", "my-exercises", "--out", "graded", "--no-progress")
    assert code == 0
    rows = {s["learner"]: s for s in json.loads((workdir / "graded" / "results.json").read_text(encoding="utf-8"))["submissions"]}
    assert (rows["ann"]["score"], rows["bob"]["score"]) == (1, 0)
    assert rows["bob"]["questions"]["q1"]["text"]["en"].startswith("Source 002's FAQ")


# ---------------------------------------------------------------- the convention's mistakes, each named


def _nb(*cells: tuple[str, str]) -> dict[str, Any]:
    return {"metadata": {}, "cells": [{"cell_type": k, "metadata": {}, "source": t} for k, t in cells]}


EXERCISE = ("raw", '# EXERCISE\nexercise = "x"\ntitle.zh = "甲"\ntitle.en = "A"')
BEGIN = ("raw", '# BEGIN QUESTION\nid = "q1"\nkind = "value"\nanswer = "t"\ntype = "int"\nkey = "hand_total(\'7 8\')"\n'
                'public = ["type", "equals"]')
END = ("raw", "# END QUESTION")
ANSWER = ("code", "t = 5  # SOLUTION")


def _error(nb: dict[str, Any], lang: str | None = None) -> str:
    with pytest.raises(SpecError) as err:
        compile_source(nb, "x.ipynb", lang)
    return err.value.message("en")


def test_a_whole_exercise_compiles_to_the_metadata_grading_reads() -> None:
    nb = _nb(EXERCISE, ("markdown", "# 甲"), ("markdown", "<!-- en -->\n# A"), BEGIN, ("markdown", "### q1\n7＋8？"),
             ("markdown", "<!-- en -->\n### q1\n7 + 8?"), ANSWER, END)
    out = compile_source(nb, "x.ipynb", "en")
    assert [c["source"] for c in out["cells"]] == ["# 甲", "### q1\n7＋8？", "t = 5  # SOLUTION"]
    meta = out["metadata"]["baccarat_kit"]
    assert meta["exercise"] == "x" and meta["schema_version"] == 1 and meta["source_cells"] == [2, 5, 7]
    assert meta["questions"][0]["text"] == {"zh": "7＋8？", "en": "7 + 8?"}
    assert compile_source(out, "x.ipynb") is out  # the compiled form is read as it is
    copy_ = release_notebook(out, "x.ipynb", "class", "en")
    assert "source_cells" not in copy_["metadata"]["baccarat_kit"]


@pytest.mark.parametrize(("cells", "said"), [
    ([BEGIN, ANSWER, END], "x.ipynb: there is no '# EXERCISE' cell"),
    ([EXERCISE, BEGIN, ANSWER], "x.ipynb, q1: the '# BEGIN QUESTION' of cell 2 has no '# END QUESTION'"),
    ([EXERCISE, BEGIN, ANSWER, BEGIN, END], "x.ipynb, q1: the '# BEGIN QUESTION' of cell 2 has no '# END QUESTION' (another question begins at cell 4"),
    ([EXERCISE, ANSWER, END], "x.ipynb, cell 3: '# END QUESTION' without a '# BEGIN QUESTION'"),
    ([EXERCISE, ("markdown", "<!-- en -->\nHello"), BEGIN, ANSWER, END], "x.ipynb, cell 2: a first line '<!-- en -->' makes this the English of the cell before it"),
    ([EXERCISE, BEGIN, ANSWER, ("code", "# en\nt = 6  # SOLUTION"), END], "x.ipynb, cell 4: the English code cell changes the code"),
    ([EXERCISE, ("raw", BEGIN[1].replace("points", "pionts") + "\npionts = 1"), ANSWER, END], "x.ipynb, q1: unknown setting 'pionts'"),
    ([EXERCISE, ("raw", BEGIN[1].replace("hand_total('7 8')", "hand_total[7]")), ANSWER, END], "x.ipynb, q1, key: 'hand_total[7]' is not how a key is written"),
    ([EXERCISE, ("raw", '# BEGIN QUESTION\nid = "q9"\nkind = "written"\npoints = 1'), END], "x.ipynb, q9: a written question needs a Markdown cell whose first line is '<!-- SOLUTION -->'"),
    ([EXERCISE, ("markdown", "<!-- SOLUTION -->\n答"), BEGIN, ANSWER, END], "x.ipynb, cell 2: '<!-- SOLUTION -->' (a written question's model answer) belongs between"),
    ([EXERCISE, ("raw", "# EXERCISE\nexercise = \"y\""), BEGIN, ANSWER, END], "x.ipynb, cell 2: there can be only one '# EXERCISE' cell"),
    ([EXERCISE, ("raw", "# BEGIN QUESTION\nid = q1"), END], "x.ipynb, cell 2: the settings are not valid TOML"),
    ([EXERCISE, ("code", BEGIN[1]), ANSWER, END], "x.ipynb, cell 2: a cell whose first line is '# BEGIN QUESTION' must be a raw cell"),
])
def test_each_mistake_names_the_cell_or_the_question(cells: list[tuple[str, str]], said: str) -> None:
    assert _error(_nb(*cells)).startswith(said)


def test_an_english_release_needs_every_chinese_cells_english() -> None:
    nb = _nb(EXERCISE, ("markdown", "# 甲"), BEGIN, ANSWER, END)
    compile_source(nb, "x.ipynb", "zh")
    assert _error(nb, "en").startswith("x.ipynb, cell 2: this cell has no English")


def test_questions_in_cells_and_in_the_metadata_are_refused() -> None:
    nb = _nb(EXERCISE, BEGIN, ANSWER, END)
    nb["metadata"] = {"baccarat_kit": {"questions": [{"id": "q1"}]}}
    assert "also in the notebook's metadata" in _error(nb)


def test_keys_are_written_as_the_engine_call() -> None:
    assert parse_key("banker_draws", "q") == {"fn": "banker_draws"}
    assert parse_key("banker_draws(5, None)", "q") == {"fn": "banker_draws", "args": [5, None]}
    assert parse_key("settle('2 A 3 2 8', {'banker': 100}, 'commission', 'returned')", "q")["args"][1] == {"banker": 100}
    for bad in ("banker_draws(x)", "bk.banker_draws(3, 8)", "banker_draws(total=3)", 3):
        with pytest.raises(SpecError):
            parse_key(bad, "q")


def test_the_kits_sources_are_written_in_cells_and_release_as_they_did() -> None:
    """Every source of the kit uses the convention (no metadata questions by hand), and its
    learner copies are the committed ones (tests/test_grading_release.py compares them byte for byte)."""
    for path in sorted((ROOT / "exercises" / "source").glob("*.ipynb")):
        raw = json.loads(path.read_text(encoding="utf-8"))
        assert "baccarat_kit" not in raw["metadata"], path.name
        assert raw["cells"][0]["cell_type"] == "raw" and raw["cells"][0]["source"].startswith("# EXERCISE")
        compiled = read_source(path)
        questions = compiled["metadata"]["baccarat_kit"]["questions"]
        assert all(q["text"]["zh"] and q["text"]["en"] for q in questions), path.name


def test_release_refuses_a_misquote_in_a_kit_source(tmp_path: Path) -> None:
    """A miscopied quotation of 002 in 03's question is refused, with nothing written; quotations
    of pages the folder does not hold are not verified, and said so."""
    from baccarat_kit.grading.term.release import release

    folder = tmp_path / "src"
    folder.mkdir()
    text = (ROOT / "exercises" / "source" / "03-banker-rule.ipynb").read_text(encoding="utf-8")
    right = "來源 002 的常見問題：「閒家第三張是 10、J、Q 或 K，莊家怎樣查表？」"
    assert right in text
    (folder / "03-banker-rule.ipynb").write_text(text.replace(right, right.replace("怎樣", "怎麼"), 1), encoding="utf-8")
    (tmp_path / "pages").mkdir()  # a page 002 that holds every quotation of 002 the source makes
    quoted = [q for sid, q in attributed_quotes(text) if sid == "002"]
    (tmp_path / "pages" / "002_x.txt").write_text("\n".join(quoted), encoding="utf-8")
    with pytest.raises(ReleaseError) as err:
        release(folder, tmp_path / "out", sources=tmp_path / "pages")
    assert ("03-banker-rule.ipynb, q8: a quotation of source 002 is not its own words: 「閒家第三張是 10、J、Q 或 K，莊家怎麼查表？」"
            in err.value.message("en"))
    assert not (tmp_path / "out").exists()
    notes: list[dict[str, str]] = []  # the pages it has not (000 …): not verified, and said so
    (folder / "03-banker-rule.ipynb").write_text(text, encoding="utf-8")
    release(folder, tmp_path / "out", sources=tmp_path / "pages", notes=notes)
    assert notes and all("has no page 000" in n["en"] or "has no page 002" not in n["en"] for n in notes)
