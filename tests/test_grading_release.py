"""The learners' copies are generated from the sources and must not drift (make test fails)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from baccarat_kit.grading.judge.checks import Exercise
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
    fresh = release_notebook(json.loads(source.read_text(encoding="utf-8")), str(source), "self-study")
    assert json.loads(committed.read_text(encoding="utf-8")) == fresh, (
        f"{committed.name} is out of date: run `baccarat-kit release exercises/source --out exercises --self-study`")
    assert committed.read_text(encoding="utf-8") == dumps_notebook(fresh)


@pytest.mark.parametrize("source", SOURCES, ids=lambda p: p.stem)
def test_learner_copy_has_no_solutions_and_says_which_kind_it_is(source: Path) -> None:
    """The course's own copies are self-study ones: the hidden checks stay (check() runs them);
    a class release removes them. Neither holds a solution or an output."""
    src = json.loads(source.read_text(encoding="utf-8"))
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
    nb = json.loads(source.read_text(encoding="utf-8"))
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
    nb = json.loads(SOURCES[0].read_text(encoding="utf-8"))
    nb["cells"].append({"cell_type": "markdown", "id": "secret", "metadata": {"tags": ["instructor"]},
                        "source": "grading notes"})
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / SOURCES[0].name).write_text(json.dumps(nb), encoding="utf-8")
    written = release(tmp_path / "src", tmp_path / "out")
    assert [p.name for p in written] == [SOURCES[0].name]
    assert "grading notes" not in written[0].read_text(encoding="utf-8")
    assert list((tmp_path / "out").iterdir()) == written  # no temporary files left
