"""The gradebook folder: ``grades.csv``, the LMS exports, ``results.json`` (and its index for the
class report, :mod:`.index`) and ``feedback/`` (its pages' names here, :func:`name_feedback`; the
pages themselves rendered by whoever writes the gradebook, :func:`write_outputs`' ``page``).

Written to a temporary folder beside the target, then moved into place; only files a previous
run listed in :data:`MARKER` are ever replaced or removed, so an instructor's own files survive.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from ..judge.checks import Exercise
from ..records import SCHEMA_VERSION, GradeUsageError, Submission
from ..sandbox.session import Limits, limits_scope, sandbox_description, time_limits
from . import export, manual
from .collect import private, safe_part
from .deadlines import kept_lms
from .index import INDEX_NAME, index_bytes


def _questions_of(exercises: dict[str, Exercise]) -> dict[str, list[str]]:
    return {ex_id: [q.id for q in ex.questions] for ex_id, ex in exercises.items()}


def grades_csv(subs: Sequence[Submission] | Sequence[dict[str, Any]], exercises: dict[str, Exercise]) -> str:
    """The wide gradebook of these rows (see :func:`.export.grades_csv`)."""
    return export.grades_csv(_rows(subs), _questions_of(exercises))


def _rows(subs: Sequence[Submission] | Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    return [s.to_json() if isinstance(s, Submission) else s for s in subs]



MARKER = ".baccarat-kit-grades"
"""The file that marks a folder as the grader's output; it lists the files the grader wrote."""
OUTPUT_FILES = ("grades.csv", "grades-long.csv", "canvas.csv", "moodle.csv", "results.json", INDEX_NAME)


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


def check_out_folder(out: str | Path, update: bool = False, resuming: bool = False) -> None:
    """Refuse an output folder the grader did not make, and a gradebook without ``--update``
    (before any grading starts): grading a few files must never drop the others' rows.
    ``resuming``: the folder holds this batch's journal (:mod:`.journal`), and its gradebook is
    that batch's partial one."""
    target = Path(out)
    if target.exists() and not target.is_dir():
        raise GradeUsageError("grading.cli.out_is_input", path=out)
    if target.is_dir() and _owned_files(target) is None and any(target.iterdir()):
        raise GradeUsageError("grading.cli.out_not_ours", path=out, marker=MARKER)
    has_results = (target / "results.json").is_file()
    if update and not has_results:
        raise GradeUsageError("grading.cli.nothing_to_update", path=out)
    if not update and has_results and not resuming:
        raise GradeUsageError("grading.cli.gradebook_exists", path=out)


# ---------------------------------------------------------------- results.json and its schemas
def upgrade(doc: dict[str, Any]) -> dict[str, Any]:
    """A results document in the current schema (:data:`.records.SCHEMA_VERSION`).

    Schema 4 questions get ``misconceptions`` (their one ``misconception``, if any) and ``wrong:
    null`` (a function answer's cells were not kept). Schema 3 rows (before the term secret) get ``keys: "public-id"``: their answer keys came
    from the public learner id. Schema 2 (and 1) named a row's learner by the notebook's ``LEARNER_ID``: it becomes the row's
    ``claimed_id`` and the owner, when there is one, becomes its ``learner``; whether the claim
    names another learner is worked out as the grader does now (:func:`mark_mismatches`).

    >>> old = {"schema_version": 2, "submissions": [
    ...     {"file": "a", "learner": "alice", "owner": "mallory", "exercise": "03"},
    ...     {"file": "b", "learner": "s001", "owner": "alice", "exercise": "03"},
    ...     {"file": "c", "learner": "dan", "owner": None, "exercise": "03"}]}
    >>> [(r["learner"], r["claimed_id"], r["identity_mismatch"]) for r in upgrade(old)["submissions"]]
    [('mallory', 'alice', True), ('alice', 's001', False), ('dan', 'dan', False)]
    >>> [r["keys"] for r in upgrade({"schema_version": 3, "submissions": [{"file": "a"}]})["submissions"]]
    ['public-id']
    >>> q = {"q5": {"score": 3.5, "misconception": "banker-3-always"}}
    >>> upgrade({"schema_version": 4, "submissions": [{"file": "a", "questions": q}]})["submissions"][0]["questions"]
    {'q5': {'score': 3.5, 'misconception': 'banker-3-always', 'misconceptions': ['banker-3-always'], 'wrong': None}}
    """
    version = doc.get("schema_version", 1)
    if not isinstance(version, int) or version > SCHEMA_VERSION:
        raise GradeUsageError("grading.cli.newer_results", version=version, supported=SCHEMA_VERSION)
    if version >= SCHEMA_VERSION:
        return doc
    rows = [row for row in doc.get("submissions", []) if isinstance(row, dict)]
    if version < 3:
        rows = _owner_rows(rows)
    # Schema 4 (the term secret): every row says what its keys were computed from; every row
    # before it was keyed by the public learner id.
    rows = [{**row, "keys": row.get("keys") or "public-id", "keyed_for": row.get("keyed_for")} for row in rows]
    # Schema 5 (issue 31): every question lists its misconceptions (before, at most the one) and
    # a function answer's wrong cells; a row graded before did not keep them (``wrong``: null).
    rows = [{**row, "questions": _questions_5(row.get("questions"))} if version < 5 else row for row in rows]
    # Schema 6 (issue 35): written answers scored by hand; a row graded before had none pending.
    rows = [{**row, "pending_points": row.get("pending_points", 0)} for row in rows]
    return {**doc, "schema_version": SCHEMA_VERSION, "upgraded_from": version, "submissions": rows}


def _questions_5(questions: Any) -> Any:
    """Schema 4 questions in schema 5: ``misconceptions`` from ``misconception``, ``wrong`` null."""
    if not isinstance(questions, dict):
        return questions
    out = {}
    for qid, q in questions.items():
        if isinstance(q, dict):
            mid = q.get("misconception")
            q = {**q, "misconceptions": q.get("misconceptions", [mid] if isinstance(mid, str) else []),
                 "wrong": q.get("wrong")}
        out[qid] = q
    return out


def _owner_rows(old: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Schema 2 rows in schema 3: the owner is the learner, the claim ``claimed_id``."""
    rows = []
    for row in old:
        claimed = str(row.get("learner") or "")
        owner = row.get("owner") or None
        rows.append({**row, "claimed_id": claimed, "learner": str(owner or claimed),
                     "raw_score": row.get("score"), "file_mtime": row.get("file_mtime"),
                     "time_source": row.get("time_source") or ("collect-v1" if owner else None)})
    flags = mark_mismatches([(r.get("owner"), r["claimed_id"]) for r in rows])
    for row, flag in zip(rows, flags, strict=True):
        row["identity_mismatch"] = flag
        row["warnings"] = [w for w in row.get("warnings") or [] if not _old_noise(w, row)]
    return rows


_OLD_NOISE = ("The notebook's LEARNER_ID is '", "The notebook has no valid LEARNER_ID")


def _old_noise(warning: Any, row: dict[str, Any]) -> bool:
    """A warning of the schema-2 grader that is no problem now: an id that is not the folder's
    name without naming anyone else, or no id where the owner is known."""
    text = str(warning.get("en", "")) if isinstance(warning, dict) else ""
    if text.startswith(_OLD_NOISE[0]):
        return not row.get("identity_mismatch")
    return text.startswith(_OLD_NOISE[1]) and bool(row.get("owner"))


def mark_mismatches(claims: Sequence[tuple[str | None, str]], known: Sequence[str] = ()) -> list[bool]:
    """For each (owner, claimed LEARNER_ID): whether the claim is a real mismatch, one the
    instructor must see: it names another owner (of these rows or ``known``, e.g. the class list
    or the gradebook) or one id is claimed from two owners; a file without owner (not collected)
    whose claim names an owner is one too (redteam: a loose file saying "alice" beside alice's
    collected one). An id that is simply not the folder's name (a roster number ``s001`` in folder
    ``ann``) is no mismatch.

    >>> mark_mismatches([("ann", "s001"), ("ben", "ann"), ("cai", ""), ("dan", "x"), ("eve", "x"), (None, "ann")])
    [False, True, False, True, True, True]
    """
    owners = {str(o).strip().casefold() for o, _ in claims if o} | {k.strip().casefold() for k in known}
    claimants: dict[str, set[str]] = {}
    for owner, claimed in claims:
        if owner and claimed.strip():
            claimants.setdefault(claimed.strip().casefold(), set()).add(str(owner).strip().casefold())
    out = []
    for owner, claimed in claims:
        c, o = claimed.strip().casefold(), str(owner or "").strip().casefold()
        out.append(bool(c and c != o and (c in owners or (o and len(claimants.get(c, ())) > 1))))
    return out


def read_results(path: str | Path) -> dict[str, Any]:
    """``results.json`` (any schema this kit wrote), upgraded to the current one."""
    doc = json.loads(Path(path).read_text(encoding="utf-8"))
    if not isinstance(doc, dict):
        raise GradeUsageError("grading.cli.newer_results", version="?", supported=SCHEMA_VERSION)
    return upgrade(doc)


ROW_LISTS = ("submissions", "skipped")
"""The lists of ``results.json`` written one item a line (:func:`results_bytes`)."""


def results_bytes(doc: dict[str, Any]) -> tuple[bytes, bytes]:
    """``results.json`` of ``doc`` (UTF-8: one key a line, each row of :data:`ROW_LISTS` on a line
    of its own) and its index for the class report (:data:`~.index.INDEX_NAME`, what the report
    reads of it). Not indented all through: Python's indenting encoder is its pure-Python one,
    and took half of a regrade into a gradebook of 57,600 rows (issue 43); a row a line is
    written by the C encoder, and still read, searched and compared line by line.

    >>> print(results_bytes({"schema_version": 6, "submissions": [{"file": "a", "score": 1}, {"file": "b"}],
    ...                      "skipped": []})[0].decode())
    {
     "schema_version": 6,
     "submissions": [
      {"file": "a", "score": 1},
      {"file": "b"}
     ],
     "skipped": []
    }
    <BLANKLINE>
    """
    def value(key: str, item: Any) -> str:
        if key in ROW_LISTS and isinstance(item, list) and item:
            return "[\n  " + ",\n  ".join(json.dumps(row, ensure_ascii=False) for row in item) + "\n ]"
        return json.dumps(item, ensure_ascii=False)

    text = "{\n" + ",\n".join(f" {json.dumps(k, ensure_ascii=False)}: {value(k, v)}" for k, v in doc.items()) + "\n}\n"
    results = text.encode("utf-8")
    return results, index_bytes(doc, results)


def merge_keys(row: Mapping[str, Any]) -> set[tuple[str, ...]]:
    """What a gradebook row is one of (:func:`_merge`): its file, and its learner's exercise (by the
    folder it was collected from, else by the id it claims; case ignored)."""
    out: set[tuple[str, ...]] = {("file", str(row.get("file")))}
    who = export.identity(row).casefold()
    if who and row.get("exercise"):
        out.add(("owner" if row.get("owner") else "claim", str(row["exercise"]), who))
    return out


def _merge(old: list[dict[str, Any]], new: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Old rows, each replaced (in its place) by a new row of the same file, or of the same owner
    and exercise; new rows that replace none come last.

    Who a row is comes from where it was collected (:func:`.export.identity`): a new row replaces
    only rows of its own owner (a row without owner only rows without owner of the same claimed
    id), so a file claiming another learner's id never removes that learner's row.

    The rows are found through an index of their keys: a regrade of a few files into a gradebook
    of 57,600 rows costs the index once, not a pass over the gradebook per new row (issue 43).

    >>> old = [{"file": "a", "owner": "ann", "exercise": "03"}, {"file": "b", "owner": "bob", "exercise": "03"}]
    >>> new = [{"file": "a2", "owner": "ann", "exercise": "03", "v": 2}, {"file": "c", "learner": "ann", "exercise": "03"}]
    >>> [(r["file"], r.get("v")) for r in _merge(old, new)]
    [('a2', 2), ('b', None), ('c', None)]
    """
    out: list[dict[str, Any] | None] = list(old)
    where: dict[tuple[str, ...], set[int]] = {}

    def place(i: int, row: dict[str, Any] | None) -> None:
        if out[i] is not None:
            for k in merge_keys(out[i]):  # type: ignore[arg-type]
                where[k].discard(i)
        out[i] = row
        for k in merge_keys(row) if row is not None else ():
            where.setdefault(k, set()).add(i)

    for i, row in enumerate(old):
        for k in merge_keys(row):
            where.setdefault(k, set()).add(i)
    for row in new:  # in the place of the first row it replaces (the gradebook keeps its order)
        hits = sorted({i for k in merge_keys(row) for i in where.get(k, ())})
        for i in hits[1:]:
            place(i, None)
        if hits:
            place(hits[0], row)
        else:
            out.append(None)
            place(len(out) - 1, row)
    return [r for r in out if r is not None]


def exercise_means(subs: Sequence[Any]) -> list[tuple[str | None, float, int, int, int, float]]:
    """``(exercise, mean score, its maximum, n, points pending, mean of the points graded)`` of each
    exercise of a batch, in the order each first comes (an exercise's maximum is its own: the batch's
    exercises are not averaged together); the files whose exercise is not known (None) last, their
    maximum 0. Pending points (written answers not scored yet) are counted, never taken as 0: the
    mean is of what is graded, beside the mean of the points graded so far.

    >>> from types import SimpleNamespace
    >>> def s(ex, score, most, pending=0):
    ...     return SimpleNamespace(exercise=ex, score=score, max_score=most, pending_points=pending)
    >>> exercise_means([s("03", 8, 14, 3), s("04", 7, 8), s("03", 9, 14, 3), s(None, 0, 0)])
    [('03', 8.5, 14, 2, 6, 11.0), ('04', 7.0, 8, 1, 0, 8.0), (None, 0.0, 0, 1, 0, 0.0)]
    """
    groups: dict[str | None, list[Any]] = {}
    for sub in subs:
        groups.setdefault(sub.exercise or None, []).append(sub)
    order = [e for e in groups if e is not None] + ([None] if None in groups else [])
    out = []
    for e in order:
        mine = groups[e]
        pending = sum(getattr(s, "pending_points", 0) or 0 for s in mine)
        out.append((e, sum(s.score for s in mine) / len(mine), max(s.max_score for s in mine), len(mine), pending,
                    sum(s.max_score - (getattr(s, "pending_points", 0) or 0) for s in mine) / len(mine)))
    return out


def _unique(entries: Sequence[dict[str, str]]) -> list[dict[str, str]]:
    """Each skipped file once (a regrade reads the same collect's refusals again)."""
    seen: set[str] = set()
    out = []
    for e in entries:
        key = json.dumps(e, sort_keys=True)
        if key not in seen:
            seen.add(key)
            out.append(e)
    return out


def feedback_base(sub: Submission) -> str:
    """A feedback page's name: learner (or learner folder, else the file's name) and exercise.

    >>> feedback_base(Submission("x/03-banker-rule.ipynb", "ab" * 32, "03-banker-rule", " =HYPERLINK(1)", "ok", {}))
    'HYPERLINK_1--03-banker-rule'
    """
    who = sub.learner.strip() or sub.owner or Path(sub.file).stem
    return f"{safe_part(who, 'submission')}--{safe_part(sub.exercise or 'unknown', 'unknown')}"


def name_feedback(subs: list[Submission], used: set[str] | None = None) -> None:
    """Stable names: the same learner and exercise give the same page; files that would share
    a name get a part of their sha256 (never a number that shifts when files are added)."""
    taken = set(used or ())
    bases: dict[str, int] = {}
    for s in subs:
        bases[feedback_base(s)] = bases.get(feedback_base(s), 0) + 1
    for s in subs:
        base = feedback_base(s)
        name = base if bases[base] == 1 else f"{base}-{(s.sha256 or hashlib.sha256(s.file.encode()).hexdigest())[:8]}"
        while name in taken:
            name = f"{name}-{hashlib.sha256(s.file.encode()).hexdigest()[:4]}"
        taken.add(name)
        s.feedback_name = name



def feedback_language(sub: Submission, lang: str) -> str:
    """The language of a learner's feedback page: that of the edition her copy was released in
    (``sub.language``, read from the copy: only "zh" or "en" is ever taken), else ``lang`` (the
    instructor's ``grade --lang``, which the CSVs and stderr follow).

    >>> feedback_language(Submission("a.ipynb", "", None, "", "ok", {}, language="en"), "zh")
    'en'
    >>> feedback_language(Submission("a.ipynb", "", None, "", "ok", {}, language="fr"), "zh")
    'zh'
    """
    return sub.language if sub.language in ("zh", "en") else lang


Page = Callable[[Submission, dict[str, Exercise], str, "dict[str, Any] | None"], str]
"""A feedback page: the submission, the exercises, the page's language and the row as the
gradebook now holds it (the instructor's scores merged in): :func:`..report.feedback.feedback_html`."""


def write_outputs(out: str | Path, subs: Sequence[Submission], exercises: dict[str, Exercise],
                  limits: Limits, lang: str = "zh", *, page: Page, update: bool = False,
                  skipped: Sequence[dict[str, str]] = (), late_policy: str | None = None,
                  term: Mapping[str, object] | None = None, resuming: bool = False,
                  keep: Sequence[str] = (), old_doc: dict[str, Any] | None = None,
                  rows_out: list[dict[str, Any]] | None = None) -> Path:
    """Write grades.csv, grades-long.csv, canvas.csv, moodle.csv, results.json and feedback/ (each
    new row's page rendered by ``page``, in :func:`feedback_language`).

    Everything is first written to a temporary folder beside ``out``; then each file is moved
    into ``out``. ``out`` must be new, empty, or marked by an earlier run (:data:`MARKER`):
    only files listed in the marker are ever replaced or removed, so an instructor's own files
    in the folder survive. ``update``: the rows of ``subs`` replace the same files' (or the same
    learner's and exercise's) rows of the existing ``results.json``; every other row and its
    feedback page stay. ``late_policy``: the late rule of the batch (``10%/day``, or None), kept
    as ``results.json``'s ``late_policy`` for the next ``--update`` (:func:`.deadlines.gradebook_penalty`).
    ``term``: the batch's ``deadline`` and ``class_list`` (:meth:`.deadlines.TermDeadlines.record`),
    kept the same way (:func:`.deadlines.term_deadlines`); None: an update keeps the gradebook's.
    ``resuming`` and ``keep``: a batch with a journal (:mod:`.journal`): its folder may hold its
    partial gradebook; ``keep``: the files (the journal of a batch that stopped) that stay listed
    as the grader's; any other the marker listed is removed (the journal, once the batch is whole).
    ``old_doc``: with ``update``, the gradebook's ``results.json`` as the caller just read it
    (:func:`read_results`; read here when not given). ``rows_out``: given the rows written (not read back).
    """
    target = Path(out)
    check_out_folder(target, update, resuming)
    owned = _owned_files(target) if target.is_dir() else set()
    owned = owned or set()
    old_rows: list[dict[str, Any]] = []
    old_skipped: list[dict[str, str]] = []
    kept_term: dict[str, object] = {"deadline": None, "class_list": None}
    if update:
        if old_doc is None:
            old_doc = read_results(target / "results.json")
        kept_term = {k: old_doc.get(k) for k in kept_term}
        old_rows = list(old_doc.get("submissions", []))
        old_skipped = list(old_doc.get("skipped", []))
        kept = _merge(old_rows, [s.to_json() for s in subs])[:-len(subs) or None]
        name_feedback(list(subs), used={Path(str(r.get("feedback", ""))).stem for r in kept})
    new_rows = [s.to_json() for s in subs]
    rows = _merge(old_rows, new_rows) if update else new_rows
    if update:  # a new row's claim may name an owner of an old row, and the other way round
        flags = mark_mismatches([(r.get("owner"), "" if r.get("status") == "not_attempted"
                                  else str(r.get("claimed_id") or "")) for r in rows])
        rows = [{**r, "identity_mismatch": bool(r.get("identity_mismatch")) or f} for r, f in zip(rows, flags, strict=True)]
    # the instructor's scores of written answers (manual.json, never written here): kept by every update
    rows = manual.apply(rows, manual.load(target) if target.is_dir() else {})
    merged = {str(r.get("file")): r for r in rows}
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{target.name}.tmp-", dir=target.parent))
    try:
        questions = _questions_of(exercises)
        titles = {ex_id: ex.title.get(lang) or ex_id for ex_id, ex in exercises.items()}
        (tmp / "grades.csv").write_text(export.grades_csv(rows, questions), encoding="utf-8")
        (tmp / "grades-long.csv").write_text(export.long_csv(rows), encoding="utf-8")
        lms = kept_lms(dict(term) if term is not None else kept_term)  # the class list's ids of each learner
        (tmp / "canvas.csv").write_text(export.canvas_csv(rows, titles, lms), encoding="utf-8")
        (tmp / "moodle.csv").write_text(export.moodle_csv(rows, titles, lms), encoding="utf-8")
        doc = {
            "schema_version": SCHEMA_VERSION,
            "graded_at": max((str(r.get("graded_at") or "") for r in rows), default=""),
            "limits": {"cell_timeout": limits.cell_timeout, "notebook_timeout": limits.notebook_timeout,
                       **time_limits(limits), "memory_mb": limits.memory_mb, "sandbox": sandbox_description(),
                       "scope": limits_scope()},
            "late_policy": late_policy,
            **(dict(term) if term is not None else kept_term),
            "submissions": rows,
            "skipped": _unique([*old_skipped, *skipped] if update else list(skipped)),
        }
        results, index = results_bytes(doc)
        (tmp / "results.json").write_bytes(results)
        (tmp / INDEX_NAME).write_bytes(index)
        (tmp / "feedback").mkdir()
        written = [f for f in OUTPUT_FILES]
        for s in subs:
            name = f"feedback/{s.feedback_name}.html"
            # her page in the language of the edition she worked in; the instructor's --lang otherwise
            (tmp / name).write_text(page(s, exercises, feedback_language(s, lang), merged.get(s.file)), encoding="utf-8")
            written.append(name)
        pages = {str(r.get("feedback")) for r in rows}
        files = sorted(set(written) | set(keep) | ({f for f in owned if f in pages} if update else set()))
        (tmp / MARKER).write_text(json.dumps({"files": files}, indent=1) + "\n", encoding="utf-8")
        _install(tmp, target, written, owned, files)
        if rows_out is not None:
            rows_out[:] = rows
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return target


def _install(tmp: Path, target: Path, written: list[str], owned: set[str], files: list[str]) -> None:
    """Move the new files into ``target``: feedback pages first, results.json and the marker
    last; then remove files an earlier run wrote that are no longer listed. A file the grader
    did not write is never touched. Every file holds grades: the instructor's alone (0600, the
    feedback folder 0700), whatever the umask."""
    private(tmp)
    if not target.exists():
        os.rename(tmp, target)
        tmp.mkdir()  # for the caller's clean-up
        return
    (target / "feedback").mkdir(mode=0o700, exist_ok=True)
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
