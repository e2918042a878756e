"""``results.index.json``: the part of ``results.json`` the class report reads, written beside it.

``results.json`` keeps everything the grader knows (every question's texts, messages, checks and
wrong cells, a row a line): for 10,000 learners × 6 exercises it is 200 MB, and Python's ``json``
alone takes longer to read it than the report may take in all. The gradebook
(:mod:`.gradebook`) therefore writes this index with it: the same document with only the
fields the report reads (:data:`ROW_FIELDS`, :data:`QUESTION_FIELDS`; a right answer's message,
checks and answer are not read, so not kept), and each distinct question stored once (the
generated class of ``benchmarks/bench_report.py`` has 1,100 distinct ones among 356,000), 17 MB
in all.

The index is never trusted over ``results.json``: it names the SHA-256 and the size of the bytes
of the ``results.json`` it was made from, and :func:`read_index` gives the document only when they
are the file's now (hashing 200 MB takes about 0.1 s); a stale, unreadable or malformed index,
an index of another format or schema, is ignored, and the report reads ``results.json`` in full.
So a hand-edited results.json, a folder graded by an older kit, or a results.json copied without
its index still give the same page, only slower.

:func:`project` is the document :func:`read_index` gives back: what the report computes from it
is what it computes from all of ``results.json`` (``tests/test_report_index.py`` checks the fields
the report reads against these lists, and the pages from both). An index made with other lists
(:data:`FIELDS`) or of another :data:`FORMAT` is ignored. The questions of the document given
back are shared between rows (the same dict object): read them, never change them.
"""

from __future__ import annotations

import gc
import hashlib
import json
from collections.abc import Iterable
from itertools import chain
from pathlib import Path
from typing import Any

from ..records import SCHEMA_VERSION

INDEX_NAME = "results.index.json"
KIND = "baccarat-kit report index"
FORMAT = 1
"""Raised when the index's layout, or the rule of :func:`project_question`, changes."""

DOC_FIELDS = ("schema_version", "limits", "skipped")
"""What the report reads of the document besides its rows."""
ROW_FIELDS = ("file", "learner", "exercise", "status", "reason", "warnings", "max_score", "score", "late",
              "submitted_at", "graded_at", "identity_mismatch", "owner", "_collect_refused", "pending_points")
"""What the report reads of a row (``reason`` only when the status is not ``ok``), besides its questions."""
QUESTION_FIELDS = ("text", "points", "score", "passed", "misconception", "option", "pending")
WRONG_FIELDS = ("message", "checks", "answer", "wrong")
"""What the report reads of a question besides :data:`QUESTION_FIELDS`: its message, checks and
answer, read only for an answer that is not right (``passed`` not true) or names a misconception."""
FIELDS = hashlib.sha256(repr((DOC_FIELDS, ROW_FIELDS, QUESTION_FIELDS, WRONG_FIELDS)).encode()).hexdigest()[:16]
"""The lists above, as the index records them: a field more or less, and older indexes are stale."""


class Indexed(dict[str, Any]):
    """A document given back by :func:`read_index`: its questions are shared between rows."""


def index_path(results: Path) -> Path:
    """The index beside a results file (``graded/results.json`` → ``graded/results.index.json``)."""
    return results.with_name(results.stem + ".index.json")


def project_question(q: Any) -> Any:
    """What the report reads of one question (anything not a dict, as it is)."""
    if not isinstance(q, dict):
        return q
    fields: Iterable[str] = QUESTION_FIELDS
    if q.get("passed") is not True or q.get("misconception"):
        fields = QUESTION_FIELDS + WRONG_FIELDS
    return {k: q[k] for k in fields if k in q}


def project_row(row: Any) -> Any:
    """What the report reads of one row, its questions projected (anything not a dict, as it is)."""
    if not isinstance(row, dict):
        return row
    out = {k: row[k] for k in ROW_FIELDS if k in row and not (k == "reason" and row.get("status") == "ok")}
    if "questions" in row:
        qs = row["questions"]
        out["questions"] = {k: project_question(v) for k, v in qs.items()} if isinstance(qs, dict) else qs
    return out


def project(doc: dict[str, Any]) -> dict[str, Any]:
    """The document :func:`read_index` gives back for ``doc`` (without sharing its questions)."""
    out = {k: doc[k] for k in DOC_FIELDS if k in doc}
    if "submissions" in doc:
        subs = doc["submissions"]
        out["submissions"] = [project_row(r) for r in subs] if isinstance(subs, list) else subs
    return out


def index_bytes(doc: dict[str, Any], results: bytes) -> bytes:
    """The index of ``doc`` (a document the gradebook writes: a list of rows), whose file is the
    bytes ``results``; UTF-8 JSON on one line.

    A row's questions (a dict) become ``"q": [shape, ref, …]``: ``shapes[shape]`` lists their ids,
    each ``ref`` is the place of one projected question in ``questions``, which holds each
    distinct one once (distinct as Python writes it, so ``1`` and ``1.0`` stay two). Python's
    cyclic garbage collector is paused meanwhile (a million objects and no cycles).
    """
    was = gc.isenabled()
    gc.disable()
    try:
        return _index_bytes(doc, results)
    finally:
        if was:
            gc.enable()


def _index_bytes(doc: dict[str, Any], results: bytes) -> bytes:
    table: dict[str, int] = {}
    questions: list[Any] = []
    shapes: dict[tuple[str, ...], int] = {}
    rows: list[Any] = []
    projected = project(doc)
    for row in projected["submissions"]:
        if isinstance(row, dict) and isinstance(row.get("questions"), dict):
            row = dict(row)
            qs = row.pop("questions")
            refs = [shapes.setdefault(tuple(qs), len(shapes))]
            for q in qs.values():
                key = repr(q)  # (of JSON values: the same text only for the same value; twice as quick)
                ref = table.get(key)
                if ref is None:
                    ref = table[key] = len(questions)
                    questions.append(q)
                refs.append(ref)
            row["q"] = refs
        rows.append(row)
    index = {"kind": KIND, "format": FORMAT, "fields": FIELDS, "results_sha256": hashlib.sha256(results).hexdigest(),
             "results_size": len(results), "doc": {k: v for k, v in projected.items() if k != "submissions"},
             "shapes": [list(s) for s in shapes], "questions": questions, "submissions": rows}
    return (json.dumps(index, ensure_ascii=False, separators=(",", ":")) + "\n").encode("utf-8")


def _sha256(path: Path) -> str:
    with path.open("rb") as fh:
        return hashlib.file_digest(fh, "sha256").hexdigest()


def read_index(results: Path) -> Indexed | None:
    """The document of ``results`` (:func:`project` of it) from its index, or None: no index, or
    one that is not of this file as it is now (its SHA-256 and size), or malformed in any way."""
    path = index_path(results)
    try:
        size = results.stat().st_size
        if not path.is_file():
            return None
        index = json.loads(path.read_bytes().decode("utf-8"))
    except (OSError, UnicodeDecodeError, ValueError, RecursionError):
        return None
    if not (isinstance(index, dict) and index.get("kind") == KIND and index.get("format") == FORMAT
            and index.get("fields") == FIELDS and index.get("results_size") == size):
        return None
    try:
        if index.get("results_sha256") != _sha256(results):
            return None
    except OSError:
        return None
    return _rebuild(index)


def _rebuild(index: dict[str, Any]) -> Indexed | None:
    doc, shapes, questions, rows = (index.get(k) for k in ("doc", "shapes", "questions", "submissions"))
    if not (isinstance(doc, dict) and doc.get("schema_version") == SCHEMA_VERSION and isinstance(shapes, list)
            and isinstance(questions, list) and isinstance(rows, list)):
        return None
    keys: list[tuple[str, ...]] = []
    for shape in shapes:
        if not isinstance(shape, list) or not all(type(k) is str for k in shape) or len(set(shape)) != len(shape):
            return None
        keys.append(tuple(shape))
    get = questions.__getitem__
    every: list[list[Any]] = []  # each row's references, checked at the end in one go
    try:
        for row in rows:
            if type(row) is not dict:
                continue  # (as results.json had it: the report says which row is not one)
            refs = row.pop("q", None)
            if refs is None:
                continue
            if type(refs) is not list or not refs or "questions" in row:
                return None
            every.append(refs)
            # (a shape or reference out of range raises IndexError, a count not the shape's ValueError)
            row["questions"] = dict(zip(keys[refs[0]], map(get, refs[1:]), strict=True))
    except (IndexError, TypeError, ValueError):
        return None
    flat = list(chain.from_iterable(every))
    if not set(map(type, flat)) <= {int} or (flat and min(flat) < 0):  # (a bool, a float or a count from the end)
        return None
    return Indexed({**doc, "submissions": rows})
