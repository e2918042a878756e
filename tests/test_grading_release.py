"""The learners' copies are generated from the sources and must not drift (make test fails)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from baccarat_kit.grading.judge.checks import Exercise
from baccarat_kit.grading.term.authoring import read_source
from baccarat_kit.grading.term.release import (
    ReleaseError,
    dumps_notebook,
    release,
    release_notebook,
    release_source,
)

ROOT = Path(__file__).resolve().parents[1]
SOURCES = sorted((ROOT / "exercises" / "source").glob("*.ipynb"))


def test_at_least_six_exercises() -> None:
    names = [p.stem for p in SOURCES]
    assert len(names) >= 6
    for prefix in ("01-", "02-", "03-", "04-", "05-", "06-"):
        assert any(n.startswith(prefix) for n in names), prefix


@pytest.mark.parametrize("source", SOURCES, ids=lambda p: p.stem)
def test_learner_copy_is_up_to_date(source: Path) -> None:
    """Fails when a source changed and `baccarat-kit release exercises/source --out exercises
    --self-study` was not run (or a learner copy was edited by hand)."""
    committed = ROOT / "exercises" / source.name
    assert committed.exists(), f"no learner copy {committed}: run baccarat-kit release"
    fresh = release_notebook(read_source(source), str(source), "self-study")
    assert json.loads(committed.read_text(encoding="utf-8")) == fresh, (
        f"{committed.name} is out of date: run `baccarat-kit release exercises/source --out exercises --self-study`")
    assert committed.read_text(encoding="utf-8") == dumps_notebook(fresh)


@pytest.mark.parametrize("source", SOURCES, ids=lambda p: p.stem)
def test_learner_copy_has_no_solutions_and_says_which_kind_it_is(source: Path) -> None:
    """The course's own copies are self-study ones: the hidden checks stay (check() runs them);
    a class release removes them. Neither holds a solution or an output."""
    src = read_source(source)
    copies = {"self-study": json.loads((ROOT / "exercises" / source.name).read_text(encoding="utf-8")),
              "class": release_notebook(src, str(source), "class")}
    for kind, copy in copies.items():
        text = json.dumps(copy, ensure_ascii=False)
        for marker in ("SOLUTION", "demo-learner"):
            assert marker not in text
        meta = copy["metadata"]["baccarat_kit"]
        assert meta["edition"] == kind and meta["released"] is True
        kept = [q.get("hidden", []) for q in meta["questions"]]
        wanted = [q.get("hidden", []) for q in src["metadata"]["baccarat_kit"]["questions"]]
        assert kept == (wanted if kind == "self-study" else [[] for _ in wanted])
        for cell in copy["cells"]:
            if cell["cell_type"] == "code":
                assert cell["outputs"] == [] and cell["execution_count"] is None
        assert copy["cells"][1]["id"] == "edition-note"
        code = "".join(c["source"] for c in copy["cells"] if c["cell_type"] == "code")
        assert ('LEARNER_ID = "self-study"' in code) == (kind == "self-study")
    assert any(q.get("hidden") for q in src["metadata"]["baccarat_kit"]["questions"]) or \
        source.stem.startswith("06-")  # choice questions are checked in public


@pytest.mark.parametrize("source", SOURCES, ids=lambda p: p.stem)
def test_source_metadata_is_a_valid_exercise(source: Path) -> None:
    nb = read_source(source)
    ex = Exercise.from_metadata(nb["metadata"]["baccarat_kit"], str(source))
    assert ex.id == source.stem and ex.max_score > 0
    code = "\n".join(c["source"] for c in nb["cells"] if c["cell_type"] == "code")
    for q in ex.questions:
        assert f"check(\"{q.id}\")" in code
        assert q.answer in code


def test_solution_markers() -> None:
    assert release_source('LEARNER_ID = "x"  # SOLUTION: ""', "nb", 1) == 'LEARNER_ID = ""'
    assert release_source("a = 1\nb = bk.play('2 3')  # SOLUTION", "nb", 1) == "a = 1\nb = ..."
    block = "if x:\n    # BEGIN SOLUTION\n    y = 2\n    z = 3\n    # END SOLUTION\nw = 1"
    out = release_source(block, "nb", 1).split("\n")
    assert out[0] == "if x:" and out[1].startswith("    # ") and out[2] == "    ..." and out[3] == "w = 1"
    assert "y = 2" not in release_source(block, "nb", 1)


@pytest.mark.parametrize("bad", ["# BEGIN SOLUTION\nx = 1", "x = 1\n# END SOLUTION", "print(1)  # SOLUTION"])
def test_bad_markers_say_where(bad: str) -> None:
    with pytest.raises(ReleaseError) as err:
        release_source(bad, "exercises/source/09-x.ipynb", 4)
    assert "09-x.ipynb" in err.value.message("en") and "cell 4" in err.value.message("en")


def test_instructor_cells_are_dropped_and_release_writes_files(tmp_path: Path) -> None:
    nb = read_source(SOURCES[0])
    nb["cells"].append({"cell_type": "markdown", "id": "secret", "metadata": {"tags": ["instructor"]},
                        "source": "grading notes"})
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / SOURCES[0].name).write_text(json.dumps(nb), encoding="utf-8")
    written = release(tmp_path / "src", tmp_path / "out")
    assert [p.name for p in written] == [SOURCES[0].name]
    assert "grading notes" not in written[0].read_text(encoding="utf-8")
    assert list((tmp_path / "out").iterdir()) == written  # no temporary files left


# ---------------------------------------------------------------- release proves its keys (issue 20, attack 13)
def _source_copy(tmp_path: Path) -> Path:
    folder = tmp_path / "source"
    folder.mkdir()
    for s in SOURCES:
        (folder / s.name).write_bytes(s.read_bytes())
    return folder


def _edit_key(folder: Path, name: str, qid: str, args: list[object]) -> None:
    path = folder / name
    nb = read_source(path)
    for q in nb["metadata"]["baccarat_kit"]["questions"]:
        if q["id"] == qid:
            q["key"]["args"] = args
    path.write_text(json.dumps(nb, ensure_ascii=False), encoding="utf-8")


@pytest.mark.parametrize("source", SOURCES, ids=lambda p: p.stem)
def test_every_model_solution_earns_full_marks_on_its_keys(source: Path) -> None:
    from baccarat_kit.grading.judge import selfcheck

    nb = read_source(source)
    for learner in selfcheck.PROOF_LEARNERS:
        assert selfcheck.disagreements(nb, learner, str(source)) == []


def test_release_refuses_a_wrong_but_valid_key(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """03 q1's args [3, 8] -> [3, 9]: a valid key the model solution disagrees with."""
    from baccarat_kit.cli import main

    folder = _source_copy(tmp_path)
    _edit_key(folder, "03-banker-rule.ipynb", "q1", [3, 9])
    out = tmp_path / "out"
    assert main(["--lang", "en", "release", str(folder), "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert "03-banker-rule" in err and "question q1" in err and "0/1" in err
    assert "{'zh'" not in err and "{'en'" not in err and "答案" not in err  # one language
    assert not list(out.glob("*.ipynb")) if out.exists() else True
    assert main(["--lang", "zh", "release", str(folder), "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert "q1" in err and "the model solution" not in err


def test_grade_source_refuses_a_wrong_but_valid_key(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from baccarat_kit.cli import main

    folder = _source_copy(tmp_path)
    _edit_key(folder, "04-whole-coups.ipynb", "q3", ["04-whole-coups", "banker_total"])
    code = main(["--lang", "en", "grade", "--source", str(folder), str(ROOT / "exercises" / "01-card-values.ipynb"),
                 "--out", str(tmp_path / "graded")])
    assert code == 2
    err = capsys.readouterr().err
    assert "04-whole-coups" in err and "question q3" in err
    assert not (tmp_path / "graded" / "results.json").exists()


def test_a_misspelt_key_field_is_one_sentence_in_one_language(tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    from baccarat_kit.cli import main

    folder = _source_copy(tmp_path)
    _edit_key(folder, "06-misconceptions.ipynb", "q4", ["4 4 4 5", "winer"])
    for lang in ("en", "zh"):
        assert main(["--lang", lang, "release", str(folder), "--out", str(tmp_path / "out")]) == 2
        err = capsys.readouterr().err
        assert "winer" in err and "{'zh'" not in err and "'en':" not in err


def test_class_copies_choice_options_carry_no_tag_that_marks_the_right_one(tmp_path: Path) -> None:
    """Attack 10: in 06 every wrong option had its misconception, so the right one was the option
    without. A class copy carries none (the self-study copies in exercises/ keep them: their own
    check() names the misconception a learner alone chose, issue 22)."""
    from baccarat_kit.cli import main

    for lang in ("zh", "en"):
        out = tmp_path / lang
        assert main(["--lang", lang, "release", str(ROOT / "exercises" / "source"), "--out", str(out),
                     "--edition", lang]) == 0
        copy = json.loads((out / "06-misconceptions.ipynb").read_text(encoding="utf-8"))
        assert copy["metadata"]["baccarat_kit"]["edition"] == "class"
        folder = out
        for q in copy["metadata"]["baccarat_kit"]["questions"]:
            for option in q.get("options", {}).values():
                assert "misconception" not in option, (folder, q["id"])
