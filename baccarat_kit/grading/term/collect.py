"""Collect a class's submissions into a dated folder, and return feedback to each learner.

``baccarat-kit collect ROOT --out DIR`` copies the notebooks of every learner folder of
``ROOT`` (``ROOT/<learner>/…``: a folder of per-learner folders, or a JupyterHub's ``/home``
with ``--glob 'exercises/*.ipynb'``) into ``DIR/<UTC date and time>/<learner>/…``, keeping
each file's modification time (its hand-in time). ``--deadline`` marks later files as late.
A manifest (:data:`MANIFEST`) records, per collected file, its learner folder, where it came
from and when it was handed in; ``grade`` reads it. Nothing in ``ROOT`` is changed; hidden
files, symbolic links and unreadable files are not copied and each is reported.

``baccarat-kit return GRADED --to ROOT`` writes each learner's feedback pages into
``ROOT/<learner>/feedback/`` (the learner folder the file was collected from), never over a
file the grader did not write.
"""

from __future__ import annotations

import json
import os
import shutil
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ...errors import BaccaratError
from ...i18n import both

MANIFEST = ".baccarat-kit-collected.json"
FEEDBACK_MARK = "<!-- baccarat-kit feedback -->"
"""The first line of every feedback page: ``return`` replaces only files that start with it."""


class CollectError(BaccaratError):
    """A collect or return that cannot be done as asked (no such folder, a bad deadline …)."""


def utc_now() -> str:
    """The current time as ISO 8601 UTC, to the second (``2026-11-30T13:05:00Z``)."""
    return iso(datetime.now(UTC))


def iso(moment: datetime) -> str:
    return moment.astimezone(UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z")


def parse_deadline(text: str) -> datetime:
    """An ISO 8601 date-time; without a zone it is read as UTC.

    >>> iso(parse_deadline("2026-12-01T23:59")), iso(parse_deadline("2026-12-01T23:59+08:00"))
    ('2026-12-01T23:59:00Z', '2026-12-01T15:59:00Z')
    """
    try:
        moment = datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
    except ValueError:
        raise CollectError("grading.collect.bad_deadline", value=text) from None
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def is_late(submitted_at: str | None, deadline: str | None) -> bool | None:
    """Whether a hand-in time is after the deadline (None when either is unknown)."""
    if not submitted_at or not deadline:
        return None
    return parse_deadline(submitted_at) > parse_deadline(deadline)


@dataclass
class Collected:
    folder: Path
    files: list[Path] = field(default_factory=list)
    skipped: list[dict[str, str]] = field(default_factory=list)


def _skip(skipped: list[dict[str, str]], path: Path, root: Path, reason: str) -> None:
    skipped.append({"file": str(path.relative_to(root)), **both(f"grading.skipped.{reason}")})


def collect(root: str | Path, out: str | Path, *, pattern: str = "**/*.ipynb", deadline: str | None = None,
            now: datetime | None = None, name: str | None = None) -> Collected:
    """Copy every learner's notebooks (see the module docstring) into ``out/<date-time>`` (or
    ``out/<name>``); returns that folder, the files and what was skipped."""
    src = Path(root)
    if not src.is_dir():
        raise CollectError("grading.collect.no_root", path=root)
    if deadline is not None:
        deadline = iso(parse_deadline(deadline))
    moment = now or datetime.now(UTC)
    target = Path(out) / (safe_part(name) if name else moment.astimezone(UTC).strftime("%Y-%m-%dT%H%M%SZ"))
    if target.exists():
        raise CollectError("grading.collect.exists", path=target)
    result = Collected(target)
    manifest: dict[str, Any] = {"collected_at": iso(moment), "root": str(src), "deadline": deadline, "files": {}}
    staging = Path(out) / f".{target.name}.partial"
    staging.mkdir(parents=True)
    try:
        for learner_dir in sorted(p for p in src.iterdir()):
            if learner_dir.name.startswith("."):
                continue
            if learner_dir.is_symlink():
                _skip(result.skipped, learner_dir, src, "symlink")
                continue
            if not learner_dir.is_dir():
                continue
            try:
                found = sorted(learner_dir.glob(pattern))
            except OSError:
                _skip(result.skipped, learner_dir, src, "unreadable")
                continue
            for path in found:
                rel = path.relative_to(learner_dir)
                if any(part.startswith(".") for part in rel.parts):
                    if not any(part == ".ipynb_checkpoints" for part in rel.parts):
                        _skip(result.skipped, path, src, "hidden")
                    continue
                if path.is_symlink() or any(part.is_symlink() for part in list(path.parents)[
                        :len(rel.parts) - 1]):
                    _skip(result.skipped, path, src, "symlink")  # may lead to another learner's file
                    continue
                if not path.is_file():
                    continue
                dest = staging / learner_dir.name / rel
                dest.parent.mkdir(parents=True, exist_ok=True)
                try:
                    shutil.copy2(path, dest)
                except OSError:
                    _skip(result.skipped, path, src, "unreadable")
                    continue
                submitted = iso(datetime.fromtimestamp(path.stat().st_mtime, UTC))
                key = str(Path(learner_dir.name) / rel)
                manifest["files"][key] = {
                    "owner": learner_dir.name, "source": str(path), "submitted_at": submitted,
                    "late": is_late(submitted, deadline),
                }
                result.files.append(target / key)
        manifest["skipped"] = result.skipped
        (staging / MANIFEST).write_text(json.dumps(manifest, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        os.rename(staging, target)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return result


def manifest_entry(path: Path) -> dict[str, Any] | None:
    """What ``collect`` recorded about a collected file (searching the folders above it)."""
    path = path.resolve()
    for folder in path.parents:
        manifest = folder / MANIFEST
        if manifest.is_file():
            try:
                data = json.loads(manifest.read_text(encoding="utf-8"))
                entry = data.get("files", {}).get(str(path.relative_to(folder)))
            except (OSError, ValueError, AttributeError):
                return None
            if isinstance(entry, dict):
                return {**entry, "deadline": data.get("deadline")}
            return None
    return None


def safe_part(text: str, fallback: str = "x") -> str:
    """A file-name part from any text (letters, digits, ``-_.``; nothing hidden, never empty).

    >>> safe_part(" =HYPERLINK(..)/x"), safe_part(".."), safe_part("陳大文")
    ('HYPERLINK_..__x', 'x', '陳大文')
    """
    cleaned = "".join(ch if ch.isalnum() or ch in "-_." else "_" for ch in text.strip())[:80].strip("._")
    return cleaned if cleaned.strip("_") else fallback
