"""The English learner copies of the exercises (``exercises/en/``): released from the same
instructor sources as the Chinese ones, the same exercise, questions, cells and code, so the
same grader and keys grade both into one gradebook; English text only (a source's words quoted
in Chinese with a translation beside them).

    baccarat-kit release exercises/source --out exercises/en --edition en
"""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path

import pytest

from baccarat_kit.cli import main
from baccarat_kit.grading.term.authoring import code_tokens
from baccarat_kit.grading.term.release import (
    dumps_notebook,
    edition,
    release_notebook,
)

ROOT = Path(__file__).resolve().parents[1]
SOURCES = sorted((ROOT / "exercises" / "source").glob("*.ipynb"))
_HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")


def load(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def text(cell: dict) -> str:
    return cell["source"] if isinstance(cell["source"], str) else "".join(cell["source"])


@pytest.mark.parametrize("source", SOURCES, ids=lambda p: p.stem)
def test_english_copy_is_up_to_date(source: Path) -> None:
    committed = ROOT / "exercises" / "en" / source.name
    assert committed.exists(), f"no English copy {committed}: run baccarat-kit release --edition en"
    fresh = release_notebook(edition(load(source), "en", str(source)), str(source), "self-study", "en")
    for cell in fresh["cells"]:
        if cell["cell_type"] == "code":
            cell["source"] = cell["source"].replace("# 在這裡寫你的程式碼 (your code here)", "# your code here")
    assert committed.read_text(encoding="utf-8") == dumps_notebook(fresh), (
        f"{committed.name} is out of date: run `baccarat-kit release exercises/source --out exercises/en --edition en --self-study`")


@pytest.mark.parametrize("source", SOURCES, ids=lambda p: p.stem)
def test_both_copies_are_the_same_exercise(source: Path) -> None:
    zh, en = load(ROOT / "exercises" / source.name), load(ROOT / "exercises" / "en" / source.name)
    # each copy says its language (her feedback page's language); everything else is the same
    assert (zh["metadata"]["baccarat_kit"].pop("language"), en["metadata"]["baccarat_kit"].pop("language")) == ("zh", "en")
    assert zh["metadata"]["baccarat_kit"] == en["metadata"]["baccarat_kit"]  # id, questions, keys
    assert [(c["id"], c["cell_type"]) for c in zh["cells"]] == [(c["id"], c["cell_type"]) for c in en["cells"]]
    for a, b in zip(zh["cells"], en["cells"], strict=True):
        if a["cell_type"] == "code":
            assert code_tokens(text(a)) == code_tokens(text(b)), a["id"]
    setup = [text(c) for c in en["cells"] if "Checker(" in text(c)]
    assert setup and 'bk.set_language("en")' in setup[0]
    assert 'bk.set_language("zh")' in next(text(c) for c in zh["cells"] if "Checker(" in text(c))


@pytest.mark.parametrize("source", SOURCES, ids=lambda p: p.stem)
def test_english_copy_is_in_english(source: Path) -> None:
    problems = []
    for cell in load(ROOT / "exercises" / "en" / source.name)["cells"]:
        for line in text(cell).splitlines():
            bare = re.sub(r"「[^」]*」", "", line)
            if _HAN.search(bare):
                problems.append(f"{cell['id']}: {line[:80]!r}")
            elif "「" in line and "translation" not in line:
                problems.append(f"{cell['id']}: a quote without its translation: {line[:80]!r}")
    assert problems == []


@pytest.mark.parametrize("source", SOURCES, ids=lambda p: p.stem)
def test_chinese_copy_has_no_english_prose_lines(source: Path) -> None:
    for cell in load(ROOT / "exercises" / source.name)["cells"]:
        if cell["cell_type"] == "markdown":
            for line in text(cell).splitlines():
                assert _HAN.search(line) or len(re.findall(r"[A-Za-z]{2,}", line)) < 4, (cell["id"], line)


def test_a_translation_may_change_only_comments() -> None:
    nb = {"metadata": {}, "cells": [{"cell_type": "code", "metadata": {"translations": {"en": "x = 2  # two"}},
                                     "source": "x = 1  # 一"}]}
    from baccarat_kit.grading.term.release import ReleaseError
    with pytest.raises(ReleaseError):
        edition(nb, "en")
    nb["cells"][0]["metadata"]["translations"]["en"] = "x = 1  # one"
    assert text(edition(nb, "en")["cells"][0]) == "x = 1  # one"
    nb["cells"].append({"cell_type": "markdown", "metadata": {}, "source": "中文"})
    with pytest.raises(ReleaseError):
        edition(nb, "en")


@pytest.mark.sandbox
def test_the_english_solutions_score_as_the_chinese_ones(tmp_path: Path) -> None:
    """The English edition of every source (with its solutions) gets full marks from the same
    grader and keys, under the same exercise ids, in one gradebook."""
    folder = tmp_path / "en"
    folder.mkdir()
    for source in SOURCES:
        (folder / source.name).write_text(dumps_notebook(edition(load(source), "en", str(source))), encoding="utf-8")
    out = tmp_path / "out"
    code = main(["--lang", "en", "grade", str(folder), "--out", str(out), "--jobs", "2", "--no-progress",
                 "--timeout", "8", "--notebook-timeout", "40"])
    assert code == 0
    rows = list(csv.DictReader(io.StringIO((out / "grades.csv").read_text(encoding="utf-8"))))
    assert len(rows) == len(SOURCES)
    doc = json.loads((out / "results.json").read_text(encoding="utf-8"))
    for sub in doc["submissions"]:
        assert sub["status"] == "ok" and sub["score"] == sub["max_score"] - sub["pending_points"] > 0, sub["file"]


def test_the_learner_course_ships_both_editions() -> None:
    """`baccarat-kit course` (and the wheel, which uses the same globs) carries the English
    lessons and exercises; `baccarat-kit --lang en lab` opens the English lesson 00."""
    from baccarat_kit import course

    files = course.discover(ROOT)
    for name in ("notebooks/en/00-how-to-use.ipynb", "notebooks/en/10-summary.ipynb",
                 *(f"exercises/en/{s.name}" for s in SOURCES)):
        assert name in files, name
    assert not [f for f in files if f.startswith("exercises/source/")]
    first = course.Spec.load().first
    assert course.first_lesson(ROOT, first, "en") == "notebooks/en/00-how-to-use.ipynb"
    assert course.first_lesson(ROOT, first, "zh") == first
