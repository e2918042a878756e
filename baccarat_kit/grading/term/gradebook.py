"""The gradebook folder: ``grades.csv``, the LMS exports, ``results.json`` and ``feedback/``.

Written to a temporary folder beside the target, then moved into place; only files a previous
run listed in :data:`MARKER` are ever replaced or removed, so an instructor's own files survive.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..judge.checks import Exercise
from ..records import GradeUsageError, Submission
from ..report.feedback import _name_feedback, feedback_html
from ..sandbox.session import Limits, sandbox_description
from . import export


def _questions_of(exercises: dict[str, Exercise]) -> dict[str, list[str]]:
    return {ex_id: [q.id for q in ex.questions] for ex_id, ex in exercises.items()}


def grades_csv(subs: Sequence[Submission] | Sequence[dict[str, Any]], exercises: dict[str, Exercise]) -> str:
    """The wide gradebook of these rows (see :func:`.export.grades_csv`)."""
    return export.grades_csv(_rows(subs), _questions_of(exercises))


def _rows(subs: Sequence[Submission] | Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    return [s.to_json() if isinstance(s, Submission) else s for s in subs]



MARKER = ".baccarat-kit-grades"
"""The file that marks a folder as the grader's output; it lists the files the grader wrote."""
OUTPUT_FILES = ("grades.csv", "grades-long.csv", "canvas.csv", "moodle.csv", "results.json")


def _owned_files(target: Path) -> set[str] | None:
    """The files a previous run wrote into ``target`` (None: not the grader's folder)."""
    marker = target / MARKER
    if not marker.is_file():
        return None
    try:
        data = json.loads(marker.read_text(encoding="utf-8"))
        return {str(f) for f in data.get("files", [])}
    except (OSError, ValueError, AttributeError):
        return None


def check_out_folder(out: str | Path, update: bool = False) -> None:
    """Refuse an output folder the grader did not make (before any grading starts)."""
    target = Path(out)
    if target.exists() and not target.is_dir():
        raise GradeUsageError("grading.cli.out_is_input", path=out)
    if target.is_dir() and _owned_files(target) is None and any(target.iterdir()):
        raise GradeUsageError("grading.cli.out_not_ours", path=out, marker=MARKER)
    if update and not (target / "results.json").is_file():
        raise GradeUsageError("grading.cli.nothing_to_update", path=out)


def _merge(old: list[dict[str, Any]], new: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Old rows, each replaced by a new row of the same file or the same learner and exercise."""
    def keys(row: dict[str, Any]) -> set[tuple[str, ...]]:
        out: set[tuple[str, ...]] = {("file", str(row.get("file")))}
        if row.get("learner") and row.get("exercise"):
            out.add(("learner", str(row["exercise"]), str(row["learner"]).strip().casefold()))
        return out

    replaced = set().union(*(keys(r) for r in new)) if new else set()
    kept = [r for r in old if not (keys(r) & replaced)]
    return kept + new


def write_outputs(out: str | Path, subs: Sequence[Submission], exercises: dict[str, Exercise],
                  limits: Limits, lang: str = "zh", *, update: bool = False,
                  skipped: Sequence[dict[str, str]] = ()) -> Path:
    """Write grades.csv, grades-long.csv, canvas.csv, moodle.csv, results.json and feedback/.

    Everything is first written to a temporary folder beside ``out``; then each file is moved
    into ``out``. ``out`` must be new, empty, or marked by an earlier run (:data:`MARKER`):
    only files listed in the marker are ever replaced or removed, so an instructor's own files
    in the folder survive. ``update``: the rows of ``subs`` replace the same files' (or the same
    learner's and exercise's) rows of the existing ``results.json``; every other row and its
    feedback page stay.
    """
    target = Path(out)
    check_out_folder(target, update)
    owned = _owned_files(target) if target.is_dir() else set()
    owned = owned or set()
    old_rows: list[dict[str, Any]] = []
    old_skipped: list[dict[str, str]] = []
    if update:
        old_doc = json.loads((target / "results.json").read_text(encoding="utf-8"))
        old_rows = list(old_doc.get("submissions", []))
        old_skipped = list(old_doc.get("skipped", []))
        kept = _merge(old_rows, [s.to_json() for s in subs])[:-len(subs) or None]
        _name_feedback(list(subs), used={Path(str(r.get("feedback", ""))).stem for r in kept})
    new_rows = [s.to_json() for s in subs]
    rows = _merge(old_rows, new_rows) if update else new_rows
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{target.name}.tmp-", dir=target.parent))
    try:
        questions = _questions_of(exercises)
        titles = {ex_id: ex.title.get(lang) or ex_id for ex_id, ex in exercises.items()}
        (tmp / "grades.csv").write_text(export.grades_csv(rows, questions), encoding="utf-8")
        (tmp / "grades-long.csv").write_text(export.long_csv(rows), encoding="utf-8")
        (tmp / "canvas.csv").write_text(export.canvas_csv(rows, titles), encoding="utf-8")
        (tmp / "moodle.csv").write_text(export.moodle_csv(rows, titles), encoding="utf-8")
        doc = {
            "schema_version": 2,
            "graded_at": max((str(r.get("graded_at") or "") for r in rows), default=""),
            "limits": {"cell_timeout": limits.cell_timeout, "notebook_timeout": limits.notebook_timeout,
                       "memory_mb": limits.memory_mb, "sandbox": sandbox_description()},
            "submissions": rows,
            "skipped": [*old_skipped, *skipped] if update else list(skipped),
        }
        (tmp / "results.json").write_text(json.dumps(doc, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        (tmp / "feedback").mkdir()
        written = [f for f in OUTPUT_FILES]
        for s in subs:
            name = f"feedback/{s.feedback_name}.html"
            (tmp / name).write_text(feedback_html(s, exercises, lang), encoding="utf-8")
            written.append(name)
        keep = {str(r.get("feedback")) for r in rows}
        files = sorted(set(written) | ({f for f in owned if f in keep} if update else set()))
        (tmp / MARKER).write_text(json.dumps({"files": files}, indent=1) + "\n", encoding="utf-8")
        _install(tmp, target, written, owned, files)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return target


def _install(tmp: Path, target: Path, written: list[str], owned: set[str], files: list[str]) -> None:
    """Move the new files into ``target``: feedback pages first, results.json and the marker
    last; then remove files an earlier run wrote that are no longer listed. A file the grader
    did not write is never touched."""
    if not target.exists():
        os.rename(tmp, target)
        tmp.mkdir()  # for the caller's clean-up
        return
    (target / "feedback").mkdir(exist_ok=True)
    ordered = sorted(written, key=lambda f: (f == "results.json", not f.startswith("feedback/"), f))
    for name in ordered:  # check all before moving any
        dest = target / name
        if (dest.exists() or dest.is_symlink()) and (name not in owned or dest.is_symlink() or not dest.is_file()):
            raise GradeUsageError("grading.cli.would_overwrite", path=dest)
    for name in ordered:
        os.replace(tmp / name, target / name)
    os.replace(tmp / MARKER, target / MARKER)
    for stale in owned - set(files):
        path = target / stale
        if path.is_file() and not path.is_symlink():
            path.unlink()
