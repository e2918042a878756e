"""``baccarat-kit collect ROOT --out DIR``: a class's hand-ins into a dated folder, at a time the grader keeps.

Every learner folder of ``ROOT`` (``ROOT/<learner>/…``: a folder of per-learner folders, or a
JupyterHub's ``/home`` with ``--glob 'exercises/*.ipynb'``) is hostile ground: the learner controls
its links, special files, sizes and times. So the walk is made the way CPython's ``shutil.rmtree``
walks, with directory descriptors, and never trusts a path twice:

1. :func:`open_dir` opens each folder relative to the descriptor of its parent with
   ``O_NOFOLLOW | O_DIRECTORY``: a link (swapped in at any moment) is refused by the kernel;
2. :func:`read_regular` opens each notebook the same way with ``O_NOFOLLOW | O_NONBLOCK`` (a FIFO
   cannot block), checks the *open* file (``fstat``: a regular file, one link, at most
   :data:`MAX_FILE_BYTES`) and copies from that descriptor, reading at most the limit + 1 byte, so a
   sparse file cannot grow the instructor's disk and a file that grows meanwhile is refused too;
3. a learner whose folder cannot be read, or whose file is refused, is reported with the reason
   and the rest of the class is still collected (nothing is rolled back for one learner).

The hand-in time of every file is the time of the collect (:func:`collect`'s ``now``): run it at the
deadline (``cron``/``at``, docs/instructors.md). The file's modification time, which the learner can
set, is kept in the manifest as ``file_mtime`` for information only. A manifest (:data:`MANIFEST`)
records, per collected file, its owner (the learner folder), where it came from, when it was
collected and whether that is after the learner's deadline (``--deadline``, or her own in a class
list: :mod:`.deadlines`). Nothing in ``ROOT`` is changed.
"""

from __future__ import annotations

import errno
import fnmatch
import json
import os
import re
import shutil
import stat
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ...errors import BaccaratError
from ...i18n import both

MANIFEST = ".baccarat-kit-collected.json"
MANIFEST_VERSION = 2
"""2: ``submitted_at`` is the collect's own time, ``file_mtime`` the file's (information)."""
FEEDBACK_MARK = "<!-- baccarat-kit feedback -->"
"""The first line of every feedback page: ``return`` replaces only files that start with it."""
MAX_FILE_BYTES = 20 * 1024 * 1024
"""The largest notebook collected (the grader's own limit, :data:`.sandbox.session.MAX_FILE_BYTES`)."""
MAX_ENTRIES = 20_000
"""Entries looked at per directory of a learner folder: a folder of a million files cannot stall collect."""
MAX_DEPTH = 16
MAX_LEARNER_FILES = 200
"""Notebooks collected from one learner folder (a whole course copy is 35): 100,000 empty files
of hers were 100,000 files and a 100,000-entry manifest on the instructor's side, and as many
sandboxes for ``grade`` (redteam)."""
MAX_LEARNER_BYTES = 100 * 1024 * 1024
"""Bytes collected from one learner folder: 30 sparse 20 MB files took 28 KB of her disk and
601 MB of the instructor's (redteam); the limit holds five notebooks at :data:`MAX_FILE_BYTES`."""
MAX_LEARNER_REFUSALS = 100
"""Refused entries reported for one learner folder; at the next her part ends, said in one line."""
MAX_LEARNER_ENTRIES = 200_000
"""Entries looked at in one learner folder, all folders together (a tree of many folders of
:data:`MAX_ENTRIES` each cannot stall collect either)."""
CHUNK = 1 << 20
DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)
FILE_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NOCTTY", 0)

#: Test hook: called with (stage, name, dir_fd) just before each ``open`` of a learner's entry, so a
#: test can swap a link (or a FIFO) in at exactly that moment. ``None`` in real use.
before_open: Callable[[str, str, int], None] | None = None


class CollectError(BaccaratError):
    """A collect or return that cannot be done as asked (no such folder, a bad deadline …)."""


class Refused(Exception):
    """One entry of a learner folder that is not collected; ``reason`` is a ``grading.skipped.*`` key."""

    def __init__(self, reason: str, **params: Any) -> None:
        super().__init__(reason)
        self.reason = reason
        self.params = params


class Stop(Refused):
    """Ends the walk of one learner folder at one of her limits (:class:`Budget`): said once, for
    her folder; what was collected before stays."""


def clock() -> datetime:
    """The time of a collect (the hand-in time); tests replace it to run a term on a chosen date."""
    return datetime.now(UTC)


def utc_now() -> str:
    """The current time as ISO 8601 UTC, to the second (``2026-11-30T13:05:00Z``)."""
    return iso(datetime.now(UTC))


def iso(moment: datetime) -> str:
    return moment.astimezone(UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z")


def parse_deadline(text: str) -> datetime:
    """An ISO 8601 date-time; without a zone it is read as UTC. A date alone is refused: Python
    reads ``2026-12-08`` as its first minute, so every hand-in of that day was late.

    >>> iso(parse_deadline("2026-12-01T23:59")), iso(parse_deadline("2026-12-01T23:59+08:00"))
    ('2026-12-01T23:59:00Z', '2026-12-01T15:59:00Z')
    >>> parse_deadline("2026-12-08")
    Traceback (most recent call last):
    ...
    baccarat_kit.grading.term.collect.CollectError: 截止時間「2026-12-08」只有日期：請寫出時間與時區，例如 2026-12-08T23:59+08:00（只寫日期會被當成那一天的 00:00）。
    """
    if re.fullmatch(r"\d{4}-?\d{2}-?\d{2}", text.strip()):  # (a date alone: YYYY-MM-DD, or its basic form)
        raise CollectError("grading.collect.date_only", value=text)
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


# ---------------------------------------------------------------- the hostile folder
def open_dir(name: str, dir_fd: int | None) -> int:
    """A descriptor of the directory ``name`` inside ``dir_fd``, never through a link."""
    if before_open is not None and dir_fd is not None:
        before_open("dir", name, dir_fd)
    try:
        fd = os.open(name, DIR_FLAGS, dir_fd=dir_fd)
    except OSError as err:
        if err.errno in (errno.ELOOP, errno.ENOTDIR):  # Linux says ENOTDIR for a link with O_DIRECTORY
            raise Refused("symlink" if _is_link(name, dir_fd) else "special") from None
        raise Refused("unreadable") from None
    if not stat.S_ISDIR(os.fstat(fd).st_mode):  # O_DIRECTORY already says so; kept as a check
        os.close(fd)
        raise Refused("special")
    return fd


def _is_link(name: str, dir_fd: int | None) -> bool:
    """For the reason shown only (the open already refused it): is ``name`` a link?"""
    try:
        return stat.S_ISLNK(os.stat(name, dir_fd=dir_fd, follow_symlinks=False).st_mode)
    except OSError:
        return False


def read_regular(name: str, dir_fd: int, write: Callable[[bytes], object], limit: int = MAX_FILE_BYTES) -> os.stat_result:
    """Copy the regular file ``name`` of ``dir_fd`` to ``write``, from its own descriptor.

    Refused (:class:`Refused`) unless the *open* file is a regular file with one link and at most
    ``limit`` bytes, both by ``st_size`` and by what is read (at most ``limit + 1`` bytes). Returns
    the ``fstat`` of the open file.
    """
    if before_open is not None:
        before_open("file", name, dir_fd)
    try:
        fd = os.open(name, FILE_FLAGS, dir_fd=dir_fd)
    except OSError as err:
        if err.errno == errno.ELOOP:
            raise Refused("symlink") from None
        raise Refused("unreadable") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise Refused("special")
        if st.st_nlink != 1:
            raise Refused("hardlink")  # the same file under another name: maybe someone else's
        if st.st_size > limit:
            raise Refused("too_large", size=st.st_size, limit=limit)
        got = 0
        while True:
            try:
                chunk = os.read(fd, min(CHUNK, limit + 1 - got))
            except BlockingIOError:  # a regular file does not block; refuse rather than wait
                raise Refused("special") from None
            except OSError:
                raise Refused("unreadable") from None
            if not chunk:
                break
            got += len(chunk)
            if got > limit:
                raise Refused("too_large", size=f"> {limit}", limit=limit)
            write(chunk)
        return st
    finally:
        os.close(fd)


@dataclass
class Budget:
    """What is left to take from one learner folder (:data:`MAX_LEARNER_FILES` …)."""

    entries: int = field(default_factory=lambda: MAX_LEARNER_ENTRIES)
    files: int = field(default_factory=lambda: MAX_LEARNER_FILES)
    bytes: int = field(default_factory=lambda: MAX_LEARNER_BYTES)
    refusals: int = field(default_factory=lambda: MAX_LEARNER_REFUSALS)


def _scan(dir_fd: int, budget: Budget | None = None) -> list[tuple[str, bool, bool]]:
    """(name, looks like a directory, looks like a link) of the entries; a hint only, since the
    opens decide. At most :data:`MAX_ENTRIES` are looked at (and what ``budget`` has left)."""
    out = []
    with os.scandir(dir_fd) as it:
        for n, entry in enumerate(it):
            if n >= MAX_ENTRIES:
                raise Refused("too_many")
            if budget is not None and budget.entries <= 0:
                raise Stop("too_many")
            if budget is not None:
                budget.entries -= 1
            try:
                out.append((entry.name, entry.is_dir(follow_symlinks=False), entry.is_symlink()))
            except OSError:
                out.append((entry.name, False, False))
    return sorted(out)


def _could_match(parts: tuple[str, ...], pattern: tuple[str, ...]) -> bool:
    """Whether a folder at ``parts`` may hold a file that ``pattern`` matches."""
    if not pattern:
        return False
    if pattern[0] == "**":
        return True
    if not parts:
        return True
    return fnmatch.fnmatchcase(parts[0], pattern[0]) and _could_match(parts[1:], pattern[1:])


def matches(parts: tuple[str, ...], pattern: tuple[str, ...]) -> bool:
    """Glob matching by path parts, ``**`` standing for any number of folders.

    >>> matches(("exercises", "03.ipynb"), ("exercises", "*.ipynb")), matches(("a", "b", "x.ipynb"), ("**", "*.ipynb"))
    (True, True)
    >>> matches(("x.ipynb",), ("exercises", "*.ipynb"))
    False
    """
    if not pattern:
        return not parts
    if pattern[0] == "**":
        return any(matches(parts[i:], pattern[1:]) for i in range(len(parts) + 1))
    return bool(parts) and fnmatch.fnmatchcase(parts[0], pattern[0]) and matches(parts[1:], pattern[1:])


def walk(dir_fd: int, pattern: tuple[str, ...], refused: Callable[[tuple[str, ...], Refused], None],
         parts: tuple[str, ...] = (), budget: Budget | None = None) -> Iterator[tuple[tuple[str, ...], int, str]]:
    """(relative parts, parent descriptor, name) of every entry below ``dir_fd`` that ``pattern``
    matches and that is not hidden; folders are opened with :func:`open_dir` (never a link).
    Hidden entries and links that the pattern could reach are passed to ``refused``; ``budget``
    bounds the entries looked at, all folders together."""
    if len(parts) >= MAX_DEPTH:
        return
    for name, is_dir, is_link in _scan(dir_fd, budget):
        here = (*parts, name)
        if name == ".ipynb_checkpoints":
            continue
        if not is_dir and matches(here, pattern):
            if name.startswith("."):
                refused(here, Refused("hidden"))
                continue
            yield here, dir_fd, name  # a link or a special file is refused when it is opened
        elif (is_dir or is_link) and _could_match(here, pattern):
            if name.startswith("."):
                refused(here, Refused("hidden"))
                continue
            try:
                fd = open_dir(name, dir_fd)
            except Refused as why:
                refused(here, why)
                continue
            try:
                yield from walk(fd, pattern, refused, here, budget)
            except Stop:
                raise
            except Refused as why:
                refused(here, why)
            finally:
                os.close(fd)


# ---------------------------------------------------------------- collect
@dataclass
class Collected:
    folder: Path
    files: list[Path] = field(default_factory=list)
    skipped: list[dict[str, str]] = field(default_factory=list)
    late: list[str] = field(default_factory=list)
    """The learner folders with a file collected after the learner's deadline (flagged late, kept)."""


def _skip(skipped: list[dict[str, str]], rel: str, why: Refused) -> None:
    owner = rel.split("/", 1)[0]
    skipped.append({"file": rel, "owner": owner, "reason": why.reason,
                    **both(f"grading.skipped.{why.reason}", **why.params)})


MAX_MANIFEST_BYTES = 256 * 1024 * 1024
"""A manifest of 100,000 files is about 40 MB; a larger "manifest" is not one collect wrote."""


def _trusted(folder: Path) -> bool | None:
    """Whether ``folder/MANIFEST`` can be a manifest ``collect`` wrote (None: there is none).

    A manifest says who handed a file in and when, so only one that no learner could have
    placed counts: a regular file with one name (never a link, a hard link or a FIFO), owned, like
    its folder, by the user who runs the grader or by root. A learner's folder graded without
    collect may hold a forged one (redteam: ``{"owner": "alice", "submitted_at": "2000-…"}``
    beside mallory's notebook made it alice's, on time); it is ignored."""
    try:
        st = os.stat(folder / MANIFEST, follow_symlinks=False)
    except OSError:
        return None
    trusted = (os.geteuid(), 0)
    try:
        folder_uid = os.stat(folder).st_uid
    except OSError:
        return False
    return (stat.S_ISREG(st.st_mode) and st.st_nlink == 1 and st.st_uid in trusted and folder_uid in trusted
            and st.st_size <= MAX_MANIFEST_BYTES)


def _read_manifest(folder: Path) -> Any:
    """The manifest of ``folder`` read from its own descriptor (no link, no FIFO, bounded), if
    :func:`_trusted`; else None."""
    if not _trusted(folder):
        return None
    chunks: list[bytes] = []
    trusted = (os.geteuid(), 0)
    try:
        fd = os.open(folder, DIR_FLAGS)
    except OSError:
        return None
    try:  # the same checks on what is open (nothing swapped in between)
        if os.fstat(fd).st_uid not in trusted:
            return None
        st = read_regular(MANIFEST, fd, chunks.append, MAX_MANIFEST_BYTES)
        return json.loads(b"".join(chunks).decode("utf-8")) if st.st_uid in trusted else None
    except (Refused, OSError, ValueError):
        return None
    finally:
        os.close(fd)


def untrusted_manifest(path: Path) -> Path | None:
    """A manifest above ``path`` that :func:`_trusted` refuses (shown to the instructor), or None."""
    for folder in Path(path).resolve().parents:
        if _trusted(folder) is False:
            return folder / MANIFEST
    return None


def skipped_at_collect(paths: list[str] | list[Path]) -> list[dict[str, str]]:
    """What the collects of these folders (or of the folders above these files) refused, each
    entry once: ``grade`` keeps them in results.json, so the report shows a refused file as
    refused, in its learner's row. Only manifests ``collect`` can have written are read."""
    out: list[dict[str, str]] = []
    seen: set[Path] = set()
    for raw in paths:
        path = Path(raw).resolve()
        for folder in [path, *path.parents]:
            if _trusted(folder):
                manifest = folder / MANIFEST
                if manifest not in seen:
                    seen.add(manifest)
                    data = _read_manifest(folder)
                    for entry in data.get("skipped", []) if isinstance(data, dict) else []:
                        if isinstance(entry, dict):
                            out.append({**{k: str(v) for k, v in entry.items()}, "collect": folder.name})
                break
    return out


def collect(root: str | Path, out: str | Path, *, pattern: str = "**/*.ipynb", deadline: str | None = None,
            now: datetime | None = None, name: str | None = None, deadlines: Mapping[str, str] | None = None,
            only: set[str] | None = None, hub_prefix: str | None = None) -> Collected:
    """Copy every learner's notebooks (see the module docstring) into ``out/<date-time>`` (or
    ``out/<name>``); returns that folder, the files and what was skipped.

    ``deadlines``: a learner's own deadline (from a class list), else ``deadline``. ``only``: the
    learner folders to collect (an extension's later collect); every other one is left alone.
    ``hub_prefix`` (``--hub-prefix jupyter-``, a hub with a Unix user per learner): only the homes
    ``ROOT/<prefix><learner>`` that the Unix user of that name owns are read, only the files that
    user owns are taken, and the learner id is the Unix name without the prefix.
    """
    src = Path(root)
    if not src.is_dir():
        raise CollectError("grading.collect.no_root", path=root)
    inside = Path(out).resolve()
    if inside == src.resolve() or src.resolve() in inside.parents:  # the next collect takes this one's copies
        first = inside.relative_to(src.resolve()).parts[:1]     # as a learner's (every learner's work, "hers")
        if not hub_prefix or not first or first[0].startswith(hub_prefix):
            raise CollectError("grading.collect.out_in_root", out=out, root=root)
    if deadline is not None:
        deadline = iso(parse_deadline(deadline))
    own = {k.casefold(): iso(parse_deadline(v)) for k, v in (deadlines or {}).items()}  # (Alice's is alice's)
    moment = now or clock()
    collected_at = iso(moment)
    target = Path(out) / (safe_part(name) if name else moment.astimezone(UTC).strftime("%Y-%m-%dT%H%M%SZ"))
    if target.exists():  # a collect never adds to or replaces an earlier one
        raise CollectError("grading.collect.name_exists" if name else "grading.collect.exists", path=target)
    result = Collected(target)
    manifest: dict[str, Any] = {"manifest_version": MANIFEST_VERSION, "collected_at": collected_at,
                                "root": str(src), "deadline": deadline, "files": {}}
    globbed = tuple(p for p in Path(pattern).parts if p not in ("", "."))
    Path(out).mkdir(parents=True, exist_ok=True)
    staging = Path(out) / f".{target.name}.partial"
    staging.mkdir()
    try:
        for learner, learner_fd, uid in learner_folders(src, only, result.skipped, hub_prefix):
            try:
                _collect_learner(learner, learner_fd, globbed, staging, target, manifest, result,
                                 collected_at, own.get(learner.casefold(), deadline), uid, (hub_prefix or "") + learner)
            finally:
                os.close(learner_fd)
        manifest["skipped"] = result.skipped
        result.late = sorted({str(e.get("owner")) for e in manifest["files"].values() if e.get("late")})
        (staging / MANIFEST).write_text(json.dumps(manifest, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        private(staging)
        os.rename(staging, target)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return result


def private(folder: Path) -> None:
    """``folder`` and everything in it the instructor's alone (folders 0700, files 0600): learners'
    work and the manifest (who handed in what, when) are not for other accounts of the machine.
    Only what this command made is changed (no link is followed)."""
    for path in (folder, *folder.rglob("*")):
        if not path.is_symlink():
            os.chmod(path, 0o700 if path.is_dir() else 0o600)


def learner_folders(root: Path, only: set[str] | None, skipped: list[dict[str, str]],
                    hub_prefix: str | None = None) -> Iterator[tuple[str, int, int | None]]:
    """(owner, open directory descriptor, the Unix uid that must own her files or None) of every
    learner folder of ``root`` (``ROOT/<learner>``, or ``ROOT/<hub_prefix><learner>`` owned by
    the Unix user of that name); the caller closes each descriptor. Hidden names are passed over; a link or an unreadable
    folder is added to ``skipped``. The one place that says where learners are: another layout
    (a Hub's users) gives its own (owner, descriptor) pairs to the same per-learner step."""
    root_fd = os.open(root, os.O_RDONLY | os.O_DIRECTORY)  # the instructor's own argument
    try:
        for folder, is_dir, _ in _scan(root_fd):
            learner, uid = folder, None
            if hub_prefix is not None:
                uid = _hub_uid(folder, hub_prefix)
                if uid is None:
                    continue
                learner = folder[len(hub_prefix):]
            if folder.startswith(".") or (only is not None and learner not in only):
                continue
            try:
                learner_fd = open_dir(folder, root_fd)
            except Refused as why:
                if why.reason == "symlink" or is_dir:
                    _skip(skipped, folder, why)
                continue
            if uid is not None and os.fstat(learner_fd).st_uid != uid:  # the open folder, not a path
                os.close(learner_fd)
                _skip(skipped, folder, Refused("not_owner"))
                continue
            yield learner, learner_fd, uid
    finally:
        os.close(root_fd)


def _hub_uid(folder: str, prefix: str) -> int | None:
    """The uid of the Unix user named ``folder`` when it has the hub's prefix (never root's)."""
    import pwd

    if not folder.startswith(prefix) or len(folder) == len(prefix):
        return None
    try:
        uid = pwd.getpwnam(folder).pw_uid
    except KeyError:
        return None
    return uid if uid != 0 else None


def _collect_learner(learner: str, learner_fd: int, pattern: tuple[str, ...], staging: Path, target: Path,
                     manifest: dict[str, Any], result: Collected, collected_at: str, deadline: str | None,
                     uid: int | None = None, folder: str | None = None) -> None:
    """One learner's files; whatever goes wrong in her folder is reported and ends only her part."""
    budget = Budget()

    def refused(parts: tuple[str, ...], why: Refused) -> None:  # her folder's real name, as on disk
        _skip(result.skipped, "/".join((folder or learner, *parts)), why)
        budget.refusals -= 1
        if budget.refusals <= 0:  # 100,000 links of hers are not 100,000 lines for the instructor
            raise Stop("too_many_refused", n=MAX_LEARNER_REFUSALS)

    try:
        for parts, parent_fd, name in walk(learner_fd, pattern, refused, budget=budget):  # parent_fd is open here
            _collect_file(learner, parts, parent_fd, name, staging, target, manifest, result, collected_at,
                          deadline, refused, uid, folder or learner, budget)
    except Refused as why:
        _skip(result.skipped, folder or learner, why)
    except OSError:
        _skip(result.skipped, folder or learner, Refused("unreadable"))


def _collect_file(learner: str, parts: tuple[str, ...], parent_fd: int, name: str, staging: Path, target: Path,
                  manifest: dict[str, Any], result: Collected, collected_at: str, deadline: str | None,
                  refused: Callable[[tuple[str, ...], Refused], None], uid: int | None = None,
                  folder: str | None = None, budget: Budget | None = None) -> None:
    rel = "/".join(parts)
    budget = budget or Budget()
    over = Stop("learner_limit", files=MAX_LEARNER_FILES, mb=round(MAX_LEARNER_BYTES / (1024 * 1024), 1))
    if budget.files <= 0:
        raise over  # ends her part, said once (see _collect_learner)
    dest = staging / learner / rel
    dest.parent.mkdir(parents=True, exist_ok=True)
    try:
        with dest.open("xb") as fh:  # a folder of the instructor's, made by this collect
            st = read_regular(name, parent_fd, fh.write)
    except Refused as why:
        dest.unlink(missing_ok=True)
        refused(parts, why)
        return
    except OSError as err:  # the instructor's disk (full?): this file, not the class
        dest.unlink(missing_ok=True)
        refused(parts, Refused("not_stored", detail=type(err).__name__))
        return
    if uid is not None and st.st_uid != uid:  # a hub learner hands in only files that are hers
        dest.unlink(missing_ok=True)
        refused(parts, Refused("not_owner"))
        return
    if dest.stat().st_size > budget.bytes:  # what was read, not what her file says
        dest.unlink(missing_ok=True)
        raise over
    budget.files -= 1
    budget.bytes -= dest.stat().st_size
    os.utime(dest, ns=(st.st_mtime_ns, st.st_mtime_ns))
    key = f"{learner}/{rel}"
    manifest["files"][key] = {
        "owner": learner, "source": "/".join((str(manifest["root"]).rstrip("/"), folder or learner, rel)),
        "submitted_at": collected_at, "file_mtime": iso(datetime.fromtimestamp(st.st_mtime, UTC)),
        "deadline": deadline, "late": is_late(collected_at, deadline), "size": st.st_size,
    }
    result.files.append(target / learner / rel)


def manifest_entry(path: Path) -> dict[str, Any] | None:
    """What ``collect`` recorded about a collected file (searching the folders above it for a
    manifest it can have written: :func:`_trusted`).

    A manifest of the first version (``submitted_at`` was the file's mtime) is read as such: its
    time becomes ``file_mtime`` and ``submitted_at`` is the collect's time.
    """
    path = path.resolve()
    for folder in path.parents:
        if _trusted(folder):  # one a learner placed is not a collect's (see _trusted)
            data = _read_manifest(folder)
            try:
                entry = data.get("files", {}).get(path.relative_to(folder).as_posix())
            except (AttributeError, ValueError):
                return None
            if not isinstance(entry, dict):
                return None
            entry = {"deadline": data.get("deadline"), **entry}
            if data.get("manifest_version", 1) < 2:
                entry["file_mtime"] = entry.get("submitted_at")
                entry["submitted_at"] = data.get("collected_at")
                entry["late"] = is_late(entry["submitted_at"], entry.get("deadline"))
            return entry
    return None


def safe_part(text: str, fallback: str = "x") -> str:
    """A file-name part from any text (letters, digits, ``-_.``; nothing hidden, never empty).

    >>> safe_part(" =HYPERLINK(..)/x"), safe_part(".."), safe_part("陳大文")
    ('HYPERLINK_..__x', 'x', '陳大文')
    """
    cleaned = "".join(ch if ch.isalnum() or ch in "-_." else "_" for ch in text.strip())[:80].strip("._")
    return cleaned if cleaned.strip("_") else fallback
