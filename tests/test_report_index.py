"""The class report's index of results.json (``results.index.json``, grading/report/index.py):
it holds every field the report reads, gives the very same page, is written (again) by every
grade and ``--update``, and is never trusted over results.json: stale, malformed or of another
format, it is ignored.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from baccarat_kit.grading import grade as g
from baccarat_kit.grading import report as rp
from baccarat_kit.grading.records import SCHEMA_VERSION
from baccarat_kit.grading.report import feedback as fb
from baccarat_kit.grading.term import gradebook as gb
from baccarat_kit.grading.term import index as ix
from baccarat_kit.grading.term.gradebook import upgrade
from baccarat_kit.i18n import both

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
from report_class import make_class  # noqa: E402


def _write(folder: Path, doc: dict[str, Any], index: bool = True) -> Path:
    """results.json as the gradebook writes it (and its index)."""
    folder.mkdir(parents=True, exist_ok=True)
    data, made = gb.results_bytes(doc)
    (folder / "results.json").write_bytes(data)
    if index:
        (folder / ix.INDEX_NAME).write_bytes(made)
    return folder / "results.json"


def _page(folder: Path, out: Path, lang: str = "zh") -> str:
    path, _ = rp.write_report(folder, out, lang, "notebooks/")
    return path.read_text(encoding="utf-8")


def _odd_rows() -> list[dict[str, Any]]:
    """Rows the generated class has not: a function answer's wrong cells, a claimed id of
    another learner, a message that names a misconception, a timed-out function, a right answer
    with a misconception, a row graded without its questions, an own-work refusal."""
    base = {"exercise": "03-banker-rule", "max_score": 11, "status": "ok", "reason": {"zh": "好", "en": "fine"},
            "warnings": [], "graded_at": "2026-12-02T14:07:41Z"}
    wrong = {"score": 3.95, "points": 4, "passed": False, "answer": "def …", "misconception": "banker-3-always",
             "message": {"zh": "…", "en": "…"}, "checks": [], "misconceptions": ["banker-3-always"],
             "wrong": [{"input": [3, 8], "got": "True", "want": "False", "misconception": "banker-3-always"}]}
    named = {"score": 0, "points": 1, "passed": False,
             "message": {"zh": "x", "en": "Option b is not right: misconception [banker-3-always]"}}
    slow = {"score": 0, "points": 2, "passed": False, "checks": [{"check": "equals", "passed": False}],
            "message": {"zh": "慢", "en": "did not finish on every input within 2 s (an endless loop?)."}}
    own = {"score": 0, "points": 2, "passed": False, "checks": [{"check": "own-work", "passed": False}],
           "message": {"zh": "自己", "en": "calls the kit"}}
    lucky = {"score": 0.5, "points": 1, "passed": True, "misconception": "banker-3-always", "answer": "7"}
    return [
        {**base, "file": "c/ben/03-banker-rule.ipynb", "learner": "ben", "owner": "ben", "score": 3.95,
         "questions": {"q5": wrong, "q1": named, "q2": slow, "q3": own, "q4": lucky, "q6": "not a question"}},
        {**base, "file": "c/dan/03-banker-rule.ipynb", "learner": "dan", "owner": "dan", "score": 0,
         "claimed_id": "ben", "identity_mismatch": True, "questions": None, "late": True,
         "submitted_at": "2026-12-09T10:00:00Z"},
        {**base, "file": "c/dan/03-banker-rule-v2.ipynb", "learner": "dan", "owner": "dan", "score": 1,
         "identity_mismatch": False, "questions": {"q1": {**named, "score": 1, "passed": True}},
         "submitted_at": "2026-12-09T09:00:00Z"},
    ]


def _rich() -> dict[str, Any]:
    doc = upgrade(make_class(12))
    doc["submissions"] += _odd_rows()
    doc["skipped"] = [{"file": "c/eve/.x.ipynb", "owner": "eve", "zh": "隱藏", "en": "hidden"}]
    return doc


# ---------------------------------------------------------------- the fields the report reads
class Reads(dict[str, Any]):
    """A dict that notes each key read through it."""

    def __init__(self, data: dict[str, Any]):
        super().__init__(data)
        self.read: set[str] = set()

    def get(self, key: str, default: Any = None) -> Any:
        self.read.add(key)
        return super().get(key, default)

    def __getitem__(self, key: str) -> Any:
        self.read.add(key)
        return super().__getitem__(key)

    def __contains__(self, key: object) -> bool:
        self.read.add(str(key))
        return super().__contains__(key)


def test_the_index_keeps_every_field_the_report_reads() -> None:
    """The report's numbers from a class whose every row and question notes what is read of it:
    each key read is in the projection exactly when it is in results.json, with the same value."""
    doc = _rich()
    rows: list[tuple[Reads, dict[str, Any]]] = []
    questions: list[tuple[Reads, Any]] = []
    watched = []
    for row in doc["submissions"]:
        r = Reads(row)
        rows.append((r, row))
        if isinstance(row.get("questions"), dict):
            qs = {}
            for k, q in row["questions"].items():
                qs[k] = Reads(q) if isinstance(q, dict) else q
                if isinstance(q, dict):
                    questions.append((qs[k], q))
            dict.__setitem__(r, "questions", qs)
        watched.append(r)
    top = Reads({**doc, "submissions": watched})
    rep = rp.build_report(top)
    rp.render_html(rep, "en")
    assert rep.attention and rep.misconceptions  # (every path of the report ran)

    def same(read: set[str], whole: dict[str, Any], kept: dict[str, Any], where: str) -> None:
        for key in read:
            assert (key in whole) == (key in kept), f"{where}: the report reads {key!r}, the index drops it"
            if key in whole:
                assert whole[key] == kept[key], f"{where}: {key!r}"

    same(top.read - {"submissions"}, doc, ix.project(doc), "document")
    for r, row in rows:
        same(r.read - {"questions"}, row, ix.project_row(row), f"row {row['file']}")
    for q, original in questions:
        same(q.read, original, ix.project_question(original), f"question {original}")
    assert any("message" in q.read for q, _ in questions) and any("wrong" in q.read for q, _ in questions)


def test_the_index_gives_back_the_projection_with_each_question_once(tmp_path: Path) -> None:
    doc = _rich()
    results = _write(tmp_path / "graded", doc)
    back = ix.read_index(results)
    assert back == ix.project(doc)
    qs = [q for r in back["submissions"] if isinstance(r.get("questions"), dict) for q in r["questions"].values()]
    assert len({id(q) for q in qs}) == len({json.dumps(q) for q in qs}) < len(qs) / 2  # each once, shared
    assert (tmp_path / "graded" / ix.INDEX_NAME).stat().st_size < results.stat().st_size / 3  # (a row a line there)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_page_from_the_index_is_the_page_from_results_json(tmp_path: Path, lang: str) -> None:
    doc = _rich()
    _write(tmp_path / "indexed", doc)
    _write(tmp_path / "plain", doc, index=False)
    assert ix.read_index(tmp_path / "indexed" / "results.json") is not None
    assert ix.read_index(tmp_path / "plain" / "results.json") is None
    page = _page(tmp_path / "indexed", tmp_path / "a.html", lang)
    assert page == _page(tmp_path / "plain", tmp_path / "b.html", lang)
    assert "&lt;img src=x" in page and "<img" not in page  # hostile ids stay text


def test_a_stale_index_is_never_trusted(tmp_path: Path) -> None:
    """results.json edited after grading (the same size: one score's digit): the index is not of
    it any more, and the page shows what results.json says."""
    doc = _rich()
    results = _write(tmp_path / "graded", doc)
    before = _page(tmp_path / "graded", tmp_path / "before.html")
    text = results.read_text(encoding="utf-8")
    row = next(r for r in doc["submissions"] if r["status"] == "ok" and 1 <= r["score"] < 9)
    score = f'"score": {json.dumps(row["score"])}'
    higher = score.replace(str(int(row["score"])), str(int(row["score"]) + 1), 1)
    at = text.index(json.dumps(row["file"]))
    edited = text[:at] + text[at:].replace(score, higher, 1)
    results.write_text(edited, encoding="utf-8")
    assert results.stat().st_size == len(text.encode("utf-8"))
    assert ix.read_index(results) is None
    after = _page(tmp_path / "graded", tmp_path / "after.html")
    (tmp_path / "graded" / ix.INDEX_NAME).unlink()
    assert after == _page(tmp_path / "graded", tmp_path / "plain.html") != before


def _set(path: str, value: Any) -> Any:
    def change(index: dict[str, Any]) -> None:
        *parts, last = path.split(".")
        node: Any = index
        for p in parts:
            node = node[int(p)] if isinstance(node, list) else node[p]
        if isinstance(node, list):
            node[int(last)] = value
        else:
            node[last] = value
    return change


def _first_q(index: dict[str, Any]) -> int:
    return next(i for i, r in enumerate(index["submissions"]) if "q" in r)


BROKEN = {
    "another kind": _set("kind", "something else"),
    "another format": _set("format", ix.FORMAT + 1),
    "other fields": _set("fields", "0" * 16),
    "another size": lambda i: i.update(results_size=i["results_size"] + 1),
    "another file's hash": _set("results_sha256", "0" * 64),
    "a newer schema": _set("doc.schema_version", SCHEMA_VERSION + 1),
    "no list of questions": _set("questions", {"0": {}}),
    "a shape of repeated ids": lambda i: [i["shapes"][0].append(i["shapes"][0][0]),
                                          *(r["q"].append(0) for r in i["submissions"] if r.get("q", [-1])[0] == 0)],
    "a shape that is not ids": _set("shapes.0", [1, 2]),
    "a question beyond the table": lambda i: i["submissions"][_first_q(i)]["q"].__setitem__(1, len(i["questions"])),
    "a negative question": lambda i: i["submissions"][_first_q(i)]["q"].__setitem__(1, -1),
    "true for a question": lambda i: i["submissions"][_first_q(i)]["q"].__setitem__(1, True),
    "a shape beyond the table": lambda i: i["submissions"][_first_q(i)]["q"].__setitem__(0, len(i["shapes"])),
    "a question too few": lambda i: i["submissions"][_first_q(i)]["q"].pop(),
    "questions twice": lambda i: i["submissions"][_first_q(i)].update(questions={}),
}


@pytest.mark.parametrize("what", sorted(BROKEN))
def test_a_malformed_index_is_ignored(tmp_path: Path, what: str) -> None:
    doc = _rich()
    results = _write(tmp_path / "graded", doc)
    path = tmp_path / "graded" / ix.INDEX_NAME
    index = json.loads(path.read_bytes())
    BROKEN[what](index)
    path.write_text(json.dumps(index, ensure_ascii=False), encoding="utf-8")
    assert ix.read_index(results) is None
    page = _page(tmp_path / "graded", tmp_path / "a.html", "en")
    path.unlink()
    assert page == _page(tmp_path / "graded", tmp_path / "b.html", "en")


@pytest.mark.parametrize("garbage", [b"", b"\xff\xfe", b"[1, 2]", b"{" * 100_000, b'{"kind": 1}'])
def test_an_index_that_is_not_one_is_ignored(tmp_path: Path, garbage: bytes) -> None:
    results = _write(tmp_path / "graded", upgrade(make_class(3)))
    (tmp_path / "graded" / ix.INDEX_NAME).write_bytes(garbage)
    assert ix.read_index(results) is None
    assert rp.load_results(tmp_path / "graded") == json.loads(results.read_bytes())


def test_a_broken_results_json_is_a_clear_error_even_beside_an_index(tmp_path: Path,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    from baccarat_kit.cli import main

    results = _write(tmp_path / "graded", upgrade(make_class(3)))
    results.write_bytes(results.read_bytes()[:-100])
    assert main(["--lang", "en", "report", str(tmp_path / "graded"), "--out", str(tmp_path / "r.html")]) == 2
    err = capsys.readouterr().err
    assert "is not a grading results file (JSONDecodeError)" in err and "results.json" in err


# ---------------------------------------------------------------- the gradebook writes it
def _sub(name: str, learner: str, graded_at: str) -> g.Submission:
    s = g.Submission(f"c/{name}.ipynb", name.encode().hex().ljust(64, "0"), "03-banker-rule", learner,
                     "not_json", both("grading.reason.not_json", detail="-"), max_score=11)
    s.graded_at = graded_at
    return s


def test_every_grade_and_update_writes_the_index_of_its_results(tmp_path: Path) -> None:
    exercises = g.load_exercises(ROOT / "exercises" / "source")
    out = tmp_path / "out"
    subs = [_sub("a", "ann", "2026-12-01T00:00:00Z"), _sub("b", "ben", "2026-12-01T00:00:00Z")]
    gb.name_feedback(subs)
    gb.write_outputs(out, subs, exercises, g.Limits(), "en", page=fb.feedback_html)

    def consistent() -> dict[str, Any]:
        doc: dict[str, Any] = json.loads((out / "results.json").read_bytes())
        assert ix.read_index(out / "results.json") == ix.project(doc)
        assert ix.INDEX_NAME in json.loads((out / gb.MARKER).read_text(encoding="utf-8"))["files"]
        return doc

    consistent()
    again = _sub("b", "ben", "2026-12-02T00:00:00Z")
    gb.write_outputs(out, [again], exercises, g.Limits(), "en", page=fb.feedback_html, update=True)
    doc = consistent()
    assert sorted(r["graded_at"][:10] for r in doc["submissions"]) == ["2026-12-01", "2026-12-02"]
    # a gradebook of an older kit (no index, none in its marker): --update writes one
    (out / ix.INDEX_NAME).unlink()
    marker = out / gb.MARKER
    marker.write_text(json.dumps({"files": [f for f in json.loads(marker.read_text())["files"]
                                            if f != ix.INDEX_NAME]}), encoding="utf-8")
    gb.write_outputs(out, [_sub("c", "cai", "2026-12-03T00:00:00Z")], exercises, g.Limits(), "en", page=fb.feedback_html, update=True)
    assert len(consistent()["submissions"]) == 3
