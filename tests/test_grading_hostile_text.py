"""Red team (issue 35): text a learner controls that cannot be written as UTF-8.

JSON lets her notebook hold a lone surrogate (``"\\ud800"``) in a written answer's Markdown, and
Python lets a cell say ``LEARNER_ID = "ann\\ud800"``, and her file's name may be bytes that are
not UTF-8. Before the fix any one of them made ``grade``
stop with ``UnicodeEncodeError`` while writing grades-long.csv: no gradebook for the whole class.
Now her text keeps every character but the lone surrogate (shown as U+FFFD), the batch is written,
and the other submission of the batch is graded as ever. The fixtures are the model solution with
one change each, made here."""

from __future__ import annotations

import csv
import io
import json
import os
from pathlib import Path
from typing import Any

import pytest

from baccarat_kit.cli import main
from baccarat_kit.grading.judge.written import written_result
from baccarat_kit.grading.records import without_surrogates
from baccarat_kit.grading.term.authoring import read_source

ROOT = Path(__file__).resolve().parents[1]
MODEL = ROOT / "exercises" / "source" / "03-banker-rule.ipynb"


def _fixture(change: str) -> dict[str, Any]:
    nb = read_source(MODEL)
    if change == "written":
        for cell in nb["cells"]:
            kit = cell.get("metadata", {}).get("baccarat_kit")
            if cell["cell_type"] == "markdown" and isinstance(kit, dict) and "written" in kit:
                cell["source"] = ["Because \ud800 the player stood."]
    else:
        nb["cells"].append({"cell_type": "code", "metadata": {}, "execution_count": None, "outputs": [],
                            "source": ['LEARNER_ID = "ann\\ud800"\n']})
    return nb


def test_without_surrogates_keeps_every_other_character() -> None:
    assert without_surrogates({"a\ud800": ["x\udfffy", 3, None, "😀 中"]}) == {"a\ufffd": ["x\ufffdy", 3, None, "😀 中"]}
    q = __import__("baccarat_kit.grading.judge.checks", fromlist=["Question"]).Question.from_dict(
        {"id": "q9", "kind": "written", "points": 1, "rubric": [{"id": "a", "points": 1, "zh": "甲", "en": "A"}]})
    assert written_result(q, "a\ud800b").written == {"text": "a\ufffdb",
                                                       "sha256": written_result(q, "a\ufffdb").written["sha256"]}


@pytest.mark.sandbox
def test_a_lone_surrogate_in_her_text_does_not_stop_the_batch(tmp_path: Path) -> None:
    subs = tmp_path / "subs"
    subs.mkdir()
    for name in ("written", "learner"):  # json.dumps escapes it: the file is valid UTF-8 JSON
        (subs / f"lone-surrogate-{name}-03.ipynb").write_text(json.dumps(_fixture(name)), encoding="utf-8")
    (subs / os.fsdecode(b"name-not-utf8-\xff-03.ipynb")).write_text(  # her file's name
        json.dumps(read_source(MODEL), ensure_ascii=False), encoding="utf-8")
    out = tmp_path / "out"
    main(["--lang", "en", "grade", *(str(p) for p in sorted(subs.iterdir())), str(MODEL), "--out", str(out),
          "--jobs", "2", "--no-progress", "--timeout", "20", "--notebook-timeout", "90"])
    doc = json.loads((out / "results.json").read_text(encoding="utf-8"))
    rows = {Path(r["file"]).stem: r for r in doc["submissions"]}
    assert {r["status"] for r in rows.values()} == {"ok"}, {k: r["status"] for k, r in rows.items()}
    assert rows["lone-surrogate-written-03"]["questions"]["q9"]["written"] == "Because \ufffd the player stood."
    assert rows["lone-surrogate-learner-03"]["learner"] == "ann\ufffd"
    assert "name-not-utf8-\\xff-03" in rows  # the byte shown as text
    for row in rows.values():  # every answer she could earn, and her written one pending
        assert row["score"] == row["max_score"] - row["pending_points"], row["questions"]
    long = list(csv.DictReader(io.StringIO((out / "grades-long.csv").read_text(encoding="utf-8"))))
    assert any(r["learner"] == "ann\ufffd" for r in long)
