"""The learner's progress record: quiz answers, drill results and exercise checks that last.

One small JSON file in the learner's own folder (never in the tracked repository, never in
``notebooks/``), shared by both language editions:

* ``BACCARAT_KIT_PROGRESS`` — a file, or a folder to hold :data:`FILENAME` (the tests and the
  nbval runs point it at a folder of their own, so stored outputs show the empty state);
* otherwise the course folder found from the notebook's folder upwards — the folder with the
  course manifest (``baccarat-kit course`` / ``make lab``) or with both ``notebooks/`` and
  ``exercises/`` (the JupyterLite site, whose files live in the browser's storage, so the record
  does too) — unless that folder is a git checkout (the repository itself): then the home folder.

The record is plain data; every entry carries ``t`` (seconds since the epoch) so that
:func:`merge` (an import) keeps the newer of two entries. :func:`export` writes a visible copy a
learner can download (JupyterLite: before clearing the browser), :func:`import_file` merges one
back.

>>> import tempfile, os
>>> with tempfile.TemporaryDirectory() as tmp:
...     os.environ[PROGRESS_ENV] = tmp
...     record_check("03-banker-rule", "q5", 3.5, 4, 11, ["q1", "q5"])
...     record_quiz("04", "banker-5-vs-8", "1", True, 1)
...     load()["exercises"]["03-banker-rule"]["questions"]["q5"]["score"]
3.5
>>> del os.environ[PROGRESS_ENV]
"""

from __future__ import annotations

import json
import os
import secrets
import tempfile
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from .i18n import message, normalize_language

PROGRESS_ENV = "BACCARAT_KIT_PROGRESS"
FILENAME = ".baccarat-progress.json"
EXPORT_NAME = "baccarat-progress-export.json"
SCHEMA = 1
COURSE_MANIFEST = ".baccarat-kit-course.json"
SECTIONS = ("quizzes", "drill", "exercises", "final")

Record = dict[str, Any]


def empty() -> Record:
    """A record with nothing in it."""
    return {"schema": SCHEMA, "quizzes": {}, "drill": {"cells": {}, "step": 0}, "exercises": {}, "final": {}}


def course_folder(start: Path | None = None) -> Path | None:
    """The learner's course folder above ``start`` (default: the current folder), if any."""
    here = (start or Path.cwd()).resolve()
    for folder in [here, *here.parents][:4]:
        if (folder / COURSE_MANIFEST).is_file() or ((folder / "notebooks").is_dir() and (folder / "exercises").is_dir()):
            return folder
    return None


def location(start: Path | None = None) -> Path:
    """Where the record is kept (see the module docstring)."""
    env = os.environ.get(PROGRESS_ENV, "").strip()
    if env:
        path = Path(env).expanduser()
        return path / FILENAME if path.is_dir() or not path.suffix else path
    folder = course_folder(start)
    if folder is None or (folder / ".git").exists():
        return Path.home() / FILENAME
    return folder / FILENAME


def load(path: Path | None = None) -> Record:
    """The record (an empty one when there is none yet or the file is not a record)."""
    path = path or location()
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return empty()
    if not isinstance(data, dict) or data.get("schema") != SCHEMA:
        return empty()
    record = empty()
    if isinstance(data.get("seed"), int):
        record["seed"] = data["seed"]
    for section in SECTIONS:
        if isinstance(data.get(section), dict):
            record[section] = data[section]
    record["drill"].setdefault("cells", {})
    record["drill"].setdefault("step", 0)
    return record


def save(record: Record, path: Path | None = None) -> Path:
    """Write the record atomically (a temporary file beside it, then a rename)."""
    path = path or location()
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".baccarat-progress.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump(record, fh, ensure_ascii=False, indent=1, sort_keys=True)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path


def update(change: Callable[[Record], None], path: Path | None = None) -> Record:
    """Load, apply ``change`` and save: the one way the kit writes the record. The first write
    gives the record its ``seed`` (this learner's order of quiz options and drill cells)."""
    path = path or location()
    record = load(path)
    record.setdefault("seed", secrets.randbelow(2**31))
    change(record)
    save(record, path)
    return record


# ---------------------------------------------------------------- what is recorded
def record_check(exercise: str, qid: str, score: float, points: int, max_score: int,
                 questions: Iterable[str]) -> None:
    """An exercise question checked in a self-study copy (the grader's score)."""
    def change(r: Record) -> None:
        entry = r["exercises"].setdefault(exercise, {"questions": {}})
        entry["max"] = max_score
        entry["ids"] = list(questions)
        entry["questions"][qid] = {"score": score, "points": points, "t": time.time()}
    update(change)


def record_quiz(quiz: str, qid: str, answer: str, first_right: bool, total: int,
                first_answer: str | None = None) -> None:
    """A quiz question answered: the latest ``answer`` and the first one (which is scored)."""
    def change(r: Record) -> None:
        entry = r["quizzes"].setdefault(quiz, {"answers": {}})
        entry["total"] = total
        old = entry["answers"].get(qid) or {}
        entry["answers"][qid] = {"answer": answer, "t": time.time(),
                                 "first": old.get("first", first_right),
                                 "first_answer": old.get("first_answer", first_answer or answer)}
    update(change)


def record_predict(lesson: str, key: str, answer: str, first_right: bool, first_answer: str) -> None:
    """A predict-first question answered (``bk.widgets.Predict``): kept under
    ``quizzes["predict"]``, ``key`` being ``case id:question``, with the lesson it was asked in."""
    def change(r: Record) -> None:
        entry = r["quizzes"].setdefault("predict", {"answers": {}})
        old = entry["answers"].get(key) or {}
        entry["answers"][key] = {"answer": answer, "lesson": lesson, "t": time.time(),
                                 "first": old.get("first", first_right),
                                 "first_answer": old.get("first_answer", first_answer)}
    update(change)


def record_final(result: Record) -> None:
    """The last final test's result (its score and the misconceptions shown)."""
    def change(r: Record) -> None:
        r["final"] = {**result, "t": time.time()}
    update(change)


# ---------------------------------------------------------------- export and import
def merge(mine: Record, other: Record) -> Record:
    """``mine`` with every entry of ``other`` that is newer (``t``) or missing."""
    def deep(a: Any, b: Any) -> Any:
        if isinstance(a, dict) and isinstance(b, dict):
            if "t" in a or "t" in b:
                return b if float(b.get("t", 0)) > float(a.get("t", 0)) else a
            out = dict(a)
            for key, value in b.items():
                out[key] = deep(a[key], value) if key in a else value
            return out
        return max(a, b) if isinstance(a, int | float) and isinstance(b, int | float) else a
    out = empty()
    if "seed" in mine or "seed" in other:
        out["seed"] = mine.get("seed", other.get("seed"))
    for section in SECTIONS:
        out[section] = deep(mine.get(section, {}), other.get(section, {}))
    return out


def export(folder: Path | None = None) -> Path:
    """A visible copy of the record (:data:`EXPORT_NAME`) to download and keep."""
    target = (folder or Path.cwd()) / EXPORT_NAME
    return save(load(), target)


def import_file(path: str | Path) -> Record:
    """Merge an exported record into this one (nothing already here is lost)."""
    other = load(Path(path))
    return update(lambda r: r.update(merge(r, other)))


# ---------------------------------------------------------------- the course map
def _lessons() -> list[tuple[str, int]]:
    from .widgets.question_sets import lesson_names, lesson_questions

    return [(name, len(lesson_questions(name))) for name in lesson_names()]


def _exercises() -> list[tuple[str, int, list[str]]]:
    """The course's exercises (id, points, question ids), from the learner copies' metadata
    beside the course (or in the kit)."""
    from . import course

    for root in (course_folder(), course.repository_root(), course.PACKAGED):
        if root is None or not (root / "exercises").is_dir():
            continue
        out = []
        for path in sorted((root / "exercises").glob("*.ipynb")):
            try:
                meta = json.loads(path.read_text(encoding="utf-8"))["metadata"]["baccarat_kit"]
                qs = meta["questions"]
                out.append((str(meta["exercise"]), sum(int(q.get("points", 1)) for q in qs),
                            [str(q["id"]) for q in qs]))
            except (OSError, ValueError, KeyError, TypeError):
                continue
        return out
    return []


MASTERY_SHARE = 0.8
"""A lesson's self-check is mastered (ticked ✔ on the course map) when every question has an
answer, at least this share of them was right the first time (4 of 5, 8 of 9), and every
question's latest answer is right (a miss was asked again, with "redo the ones I missed", and
answered right). The first answers measure what the learner knew before any feedback; 80 %
allows one slip in five; the latest answers make sure no rule step is left wrong."""


def lesson_mastered(answers: dict[str, Any], total: int, key: dict[str, int] | None = None) -> bool:
    """Whether a lesson's self-check is mastered (:data:`MASTERY_SHARE`). ``key``: question id →
    the right option (``None``: only the first answers are known).

    >>> a = {f"q{i}": {"answer": "1", "first": i != 0} for i in range(5)}
    >>> lesson_mastered(a, 5), lesson_mastered(a, 5, {f"q{i}": 1 for i in range(5)})
    (True, True)
    >>> lesson_mastered(a, 5, {**{f"q{i}": 1 for i in range(5)}, "q0": 0})   # q0 still wrong
    False
    >>> lesson_mastered({k: {**v, "first": k > "q2"} for k, v in a.items()}, 5)  # 2 of 5 first
    False
    """
    import math

    if key is not None:
        answers = {qid: a for qid, a in answers.items() if qid in key}
    if total <= 0 or len(answers) < total:
        return False
    if sum(1 for a in answers.values() if isinstance(a, dict) and a.get("first")) < math.ceil(MASTERY_SHARE * total):
        return False
    return key is None or all(str(a.get("answer")) == str(key[qid]) for qid, a in answers.items())


def _answer_key(name: str) -> dict[str, int] | None:
    """A lesson's question ids → the right option (the engine's), or None for an unknown set."""
    from .widgets.question_sets import lesson_names, lesson_questions

    try:
        if name not in lesson_names():
            return None
        return {q.id: q.answer for q in lesson_questions(name)}
    except Exception:  # without ipywidgets the map still reads the record
        return None


def course_map(record: Record | None = None, lessons: list[tuple[str, int]] | None = None) -> list[dict[str, Any]]:
    """One row per lesson quiz, the drill, each exercise and the final test: what is done."""
    record = record if record is not None else load()
    rows: list[dict[str, Any]] = []
    for name, total in lessons if lessons is not None else _lessons():
        answers = record["quizzes"].get(name, {}).get("answers", {})
        right = sum(1 for a in answers.values() if a.get("first"))
        rows.append({"kind": "lesson", "id": name, "done": lesson_mastered(answers, total, _answer_key(name)),
                     "answered": len(answers), "total": total, "right": right})
    from .drill import MASTERY_CELLS, mastered

    cells = record["drill"].get("cells", {})
    practised = sum(1 for c in MASTERY_CELLS if c in cells)
    rows.append({"kind": "drill", "id": "drill", "done": mastered(cells) >= len(MASTERY_CELLS),
                 "answered": practised, "total": len(MASTERY_CELLS), "right": mastered(cells)})
    for ex, points, ids in _exercises():
        entry = record["exercises"].get(ex, {})
        qs = {k: v for k, v in entry.get("questions", {}).items() if k in ids}
        score = sum(float(q.get("score", 0)) for q in qs.values())
        rows.append({"kind": "exercise", "id": ex, "done": bool(ids) and all(
            i in qs and qs[i]["score"] == qs[i]["points"] for i in ids),
            "answered": len(qs), "total": len(ids), "right": score, "max": points})
    final = record.get("final", {})
    rows.append({"kind": "final", "id": "final", "done": bool(final), "answered": final.get("right", 0),
                 "total": final.get("total", 0), "right": final.get("right", 0)})
    return rows


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


def describe(row: dict[str, Any], lang: str) -> str:
    """One row of the course map as a sentence."""
    mark = "✔" if row["done"] else "·" if row["answered"] else "○"
    if row["kind"] == "lesson":
        text = message("progress.lesson" if row["id"].isdigit() else "progress.quiz", lang, id=row["id"], answered=row["answered"], total=row["total"],
                       right=row["right"])
    elif row["kind"] == "drill":
        text = message("progress.drill", lang, mastered=row["right"], total=row["total"], seen=row["answered"])
    elif row["kind"] == "exercise":
        text = message("progress.exercise", lang, id=row["id"], answered=row["answered"], total=row["total"],
                       score=_number(row["right"]), max=row["max"] or "?")
    else:
        text = (message("progress.final", lang, right=row["right"], total=row["total"]) if row["done"]
                else message("progress.final-none", lang))
    return f"{mark} {text}"


def report(lang: str | None = None, record: Record | None = None) -> str:
    """The course map as text (what ``baccarat-kit progress`` prints)."""
    lang = normalize_language(lang)
    lines = [message("progress.title", lang, path=location())]
    lines += [describe(row, lang) for row in course_map(record)]
    return "\n".join(lines)


def register(sub: Any) -> None:
    """``baccarat-kit progress [--export DIR] [--import FILE]``: the course map as text."""
    p = sub.add_parser(
        "progress",
        help="show your progress: lessons, drill, exercises, final test / 顯示你的學習進度",
        description="Print the course map from the progress record (BACCARAT_KIT_PROGRESS or the "
                    "course folder's .baccarat-progress.json).",
    )
    p.add_argument("--export", metavar="DIR", default=None, help="write a copy of the record into DIR")
    p.add_argument("--import", dest="import_", metavar="FILE", default=None,
                   help="merge an exported record into yours (nothing of yours is lost)")
    p.set_defaults(func=_cmd_progress)


def _cmd_progress(args: Any) -> int:
    if args.import_:
        import_file(args.import_)
    if args.export:
        print(message("progress.exported", args.lang, path=export(Path(args.export))))
        return 0
    print(report(args.lang))
    return 0
