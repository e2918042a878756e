"""Publishing the instructor's scores of written answers into a gradebook: its files rewritten,
each atomically, from results.json's rows with :func:`..term.manual.apply`'s merge, and the feedback
pages of the rows with a written answer rendered again (:func:`..report.feedback.feedback_html`).

Apart from :mod:`..term.manual` (the marks, manual.json, the CSV round-trip), which
:mod:`..term.gradebook` uses at every ``grade --update``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from ...i18n import message
from ..judge.checks import Exercise
from ..records import WRITTEN
from ..report.feedback import feedback_html
from ..term import export
from ..term.deadlines import kept_lms
from ..term.gradebook import MARKER, _owned_files, _questions_of, read_results, results_bytes
from ..term.manual import ManualError, Mark, apply, load, summary, write_atomic


def publish(folder: str | Path, exercises: Mapping[str, Exercise], lang: str = "zh",
            marks: Mapping[str, Mark] | None = None, only: set[str] | None = None) -> dict[str, Any]:
    """Merge ``marks`` (else ``folder/manual.json``'s) into the gradebook in ``folder`` and rewrite
    its files, each atomically: results.json and its index, grades.csv, grades-long.csv,
    canvas.csv, moodle.csv, and the feedback page of each row with a written answer (``only``:
    just the rows of these files). Only files the grader's marker lists are rewritten. Gives the
    merged results document."""
    target = Path(folder)
    owned = _owned_files(target)
    if owned is None or not (target / "results.json").is_file():
        raise ManualError("manual.error.not_gradebook", path=target, marker=MARKER)
    doc = read_results(target / "results.json")
    rows = apply(doc.get("submissions", []), load(target) if marks is None else marks)
    doc = {**doc, "submissions": rows}
    questions = _questions_of(dict(exercises))
    titles = {ex_id: ex.title.get(lang) or ex_id for ex_id, ex in exercises.items()}
    lms = kept_lms(doc)
    files: dict[str, bytes] = {
        "grades.csv": export.grades_csv(rows, questions).encode("utf-8"),
        "grades-long.csv": export.long_csv(rows).encode("utf-8"),
        "canvas.csv": export.canvas_csv(rows, titles, lms).encode("utf-8"),
        "moodle.csv": export.moodle_csv(rows, titles, lms).encode("utf-8"),
    }
    for row in rows:
        has_written = any(isinstance(q, dict) and q.get("kind") == WRITTEN
                          for q in (row.get("questions") or {}).values())
        page = str(row.get("feedback") or "")
        if has_written and page in owned and (only is None or str(row.get("file")) in only):
            # her page in the language of the copy she worked in (as grade wrote it), else --lang
            shown = str(row["language"]) if row.get("language") in ("zh", "en") else lang
            files[page] = feedback_html(row, dict(exercises), shown).encode("utf-8")
    results, index = results_bytes(doc)
    files["results.index.json"] = index
    for name, data in files.items():  # results.json last: it is what the others are made from
        if name in owned:  # only what the grader wrote (the marker's list): never a file of the instructor's
            write_atomic(target / name, data)
    write_atomic(target / "results.json", results)
    return doc


def written_view(folder: str | Path, subs: Sequence[Any], lang: str | None,
                 rows: Sequence[Mapping[str, Any]] | None = None) -> list[Any]:
    """``grade``'s rows as its summary line counts them: with the scores by hand merged in (and the
    points still pending), when
    the batch has written answers (read back from the gradebook just written); and one line on
    stderr saying how many written answers are scored and how to score the rest."""
    import sys
    from types import SimpleNamespace

    if not any(getattr(s, "questions", None) and any(q.written is not None for q in s.questions) for s in subs):
        return list(subs)
    if rows is None:  # (``rows``: the gradebook's, as the caller just wrote them)
        rows = read_results(Path(folder) / "results.json").get("submissions", [])
    by_file = {str(r.get("file")): r for r in rows}
    scored, total = summary(rows)
    print(message("manual.cli.note", lang, scored=scored, total=total, folder=folder), file=sys.stderr)
    return [SimpleNamespace(exercise=s.exercise, max_score=s.max_score,
                            score=by_file.get(s.file, {}).get("score", s.score),
                            pending_points=by_file.get(s.file, {}).get("pending_points", s.pending_points))
            for s in subs]
