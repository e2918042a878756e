"""The batch journal: every graded row appended, as it finishes, to ``DIR/.baccarat-kit-journal.jsonl``.

A batch that stops (Ctrl-C, SIGTERM, a killed machine) keeps what it graded: the journal is written
one JSON line per row and flushed to disk (``fsync``) before the next, so at most the row being
written is lost. The same command run again (or with ``--resume``) grades only the files whose
row is missing (or whose bytes changed since); the gradebook is then written from the journal,
and the journal removed with the gradebook's complete write (:func:`.gradebook.write_outputs`
lists it only while the batch is unfinished).

A row is stored losslessly (every check, its message's values, a function answer's wrong cells):
the feedback pages are rendered from it after the batch, exactly as from the row just graded.
Only the grader's own classes are rebuilt (:data:`CLASSES`), never a class the file names.
"""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import fields, is_dataclass
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any

from ..records import CheckResult, GradeUsageError, QuestionResult, Submission, WrongCell
from .gradebook import MARKER, _owned_files

JOURNAL_NAME = ".baccarat-kit-journal.jsonl"
JOURNAL_VERSION = 1
CLASSES = {c.__name__: c for c in (Submission, QuestionResult, CheckResult, WrongCell)}
NOT_DONE = frozenset({"batch_limit", "worker_failed", "kernel_start"})
"""Rows that are not a grade (the budget ran out, the grading set-up failed): graded again on resume."""


def encode(value: Any) -> Any:
    """``value`` as plain JSON, tuples, fractions, decimals and the grader's records tagged.

    >>> encode((Fraction(1, 3), Decimal("1.5"), [1, "a"]))
    {'__tuple__': [{'__fraction__': '1/3'}, {'__decimal__': '1.5'}, [1, 'a']]}
    >>> decode(encode((Fraction(1, 3), Decimal("1.5"), [1, "a"])))
    (Fraction(1, 3), Decimal('1.5'), [1, 'a'])
    """
    if value is None or isinstance(value, (str, bool, int, float)):
        return value
    if isinstance(value, Fraction):
        return {"__fraction__": str(value)}
    if isinstance(value, Decimal):
        return {"__decimal__": str(value)}
    if isinstance(value, tuple):
        return {"__tuple__": [encode(v) for v in value]}
    if isinstance(value, list):
        return [encode(v) for v in value]
    if isinstance(value, dict) and all(isinstance(k, str) for k in value):
        return {k: encode(v) for k, v in value.items()}
    if is_dataclass(value) and type(value).__name__ in CLASSES:
        return {"__record__": type(value).__name__, **{f.name: encode(getattr(value, f.name)) for f in fields(value)}}
    return str(value)  # (no such value is known: as its message would show it, rather than a lost batch)


def decode(value: Any) -> Any:
    if isinstance(value, list):
        return [decode(v) for v in value]
    if not isinstance(value, dict):
        return value
    if "__tuple__" in value:
        return tuple(decode(v) for v in value["__tuple__"])
    if "__fraction__" in value:
        return Fraction(value["__fraction__"])
    if "__decimal__" in value:
        return Decimal(value["__decimal__"])
    if "__record__" in value:
        cls = CLASSES[value["__record__"]]
        return cls(**{f.name: decode(value[f.name]) for f in fields(cls) if f.name in value})
    return {k: decode(v) for k, v in value.items()}


class Journal:
    """One batch's journal in the output folder ``folder``; ``settings``: what the rows depend on
    (limits, the term secret's fingerprint, the sources, ``--update``): a journal made with other
    settings is not resumed (a usage mistake that says which differ)."""

    def __init__(self, folder: str | Path, settings: Mapping[str, Any]) -> None:
        self.folder = Path(folder)
        self.path = self.folder / JOURNAL_NAME
        self.settings = json.loads(json.dumps(dict(settings)))
        self.lock = threading.Lock()
        self.stopped = False

    @staticmethod
    def exists(folder: str | Path) -> bool:
        return (Path(folder) / JOURNAL_NAME).is_file()

    def check(self) -> int:
        """The number of rows of the journal there (0: none), whose settings must be these."""
        if not self.path.is_file():
            return 0
        with self.path.open("rb") as fh:
            header = _line(fh.readline()) or {}
        theirs = header.get("settings") if header.get("journal") == JOURNAL_VERSION else None
        if theirs != self.settings:
            differ = sorted(k for k in {*self.settings, *(theirs or {})}
                            if (theirs or {}).get(k) != self.settings.get(k))
            raise GradeUsageError("grading.cli.journal_other", path=self.path, differ=", ".join(differ) or "?")
        return sum(1 for _ in self._records())

    def open(self) -> int:
        """Start the journal, or continue the one there (:meth:`check`): the number of rows it
        already holds. A new one marks ``folder`` as the grader's (:data:`.gradebook.MARKER`)."""
        if self.path.is_file():
            kept = self.check()
            _cut_torn_line(self.path)
            return kept
        self.folder.mkdir(parents=True, exist_ok=True)
        owned = _owned_files(self.folder) or set()
        _write_marker(self.folder, sorted(owned | {JOURNAL_NAME}))
        self._append({"journal": JOURNAL_VERSION, "settings": self.settings})
        return 0

    def _append(self, record: Mapping[str, Any]) -> None:
        data = (json.dumps(record, separators=(",", ":")) + "\n").encode("ascii")  # (a lone surrogate too)
        fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
        try:
            os.write(fd, data)
            os.fsync(fd)
        finally:
            os.close(fd)

    def add(self, sub: Submission) -> bool:
        """Append one finished row (False once :meth:`stop` was called: a run the stop ended
        is not a grade)."""
        record = {"row": encode(sub)}
        with self.lock:
            if self.stopped:
                return False
            self._append(record)
            return True

    def stop(self) -> None:
        with self.lock:
            self.stopped = True

    def remove(self) -> None:
        """The batch is over without a gradebook of its own: nothing to resume."""
        self.path.unlink(missing_ok=True)

    def _records(self) -> Iterator[dict[str, Any]]:
        """The rows' records as written, one at a time (a last line cut short by a kill is skipped)."""
        if not self.path.is_file():
            return
        with self.path.open("rb") as fh:
            fh.readline()
            for raw in fh:
                record = _line(raw)
                if record is not None and isinstance(record.get("row"), dict):
                    yield record["row"]

    def done(self) -> dict[str, str]:
        """file → sha256 of each row that is a grade (the last row of a file counts)."""
        out: dict[str, str] = {}
        for row in self._records():
            file, sha = str(row.get("file")), str(row.get("sha256") or "")
            if row.get("status") in NOT_DONE or not sha:
                out.pop(file, None)
            else:
                out[file] = sha
        return out

    def rows(self, files: Sequence[str]) -> dict[str, Submission]:
        """The last row of each of ``files`` that the journal holds."""
        wanted = set(files)
        out: dict[str, Submission] = {}
        for row in self._records():
            if row.get("file") in wanted:
                out[str(row["file"])] = decode(row)
        return out


def _line(raw: bytes) -> dict[str, Any] | None:
    if not raw.endswith(b"\n"):
        return None
    try:
        record = json.loads(raw)
    except ValueError:
        return None
    return record if isinstance(record, dict) else None


def _cut_torn_line(path: Path) -> None:
    """Drop a last line cut short by a kill, so that the next row starts a line of its own."""
    with path.open("r+b") as fh:
        size = fh.seek(0, os.SEEK_END)
        back = 0
        while back < size:
            step = min(1 << 16, size - back)
            fh.seek(size - back - step)
            chunk = fh.read(step)
            cut = chunk.rfind(b"\n")
            if cut >= 0:
                fh.truncate(size - back - step + cut + 1)
                return
            back += step
        fh.truncate(0)


def _write_marker(folder: Path, files: Sequence[str]) -> None:
    tmp = folder / f"{MARKER}.tmp"
    tmp.write_text(json.dumps({"files": list(files)}, indent=1) + "\n", encoding="utf-8")
    os.replace(tmp, folder / MARKER)
