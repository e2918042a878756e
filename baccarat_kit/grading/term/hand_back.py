"""``baccarat-kit return GRADED --to ROOT``: each learner's feedback page into her own folder.

The page of the row that counts for a learner and exercise (the row the exports use:
:func:`.export.per_learner`) goes to ``ROOT/<owner>/feedback/<exercise>.html``, the owner being the
learner folder ``collect`` took the file from. Her folder is hostile ground, so every step is made
through directory descriptors, never through a path twice and never through a link:

1. her folder and its ``feedback/`` are opened with ``O_NOFOLLOW | O_DIRECTORY`` relative to the
   descriptor of the one above; ``feedback/`` must be a real directory owned by the owner of her
   folder (or made now by ``return``, then given to her);
2. an existing page is replaced only when it is a regular file whose first bytes are
   :data:`.collect.FEEDBACK_MARK`: it is opened ``O_NOFOLLOW | O_NONBLOCK`` and at most the mark's
   length is read, so a FIFO cannot hang ``return`` and a huge sparse file cannot grow its memory;
3. the page is written to a temporary file of an unpredictable name, created exclusively
   (``O_CREAT | O_EXCL | O_NOFOLLOW``) in that directory descriptor, given to her with ``fchown``
   on the descriptor, then renamed over the page inside the same directory descriptor (a rename
   replaces a name: it never writes through a link).

A learner whose folder is refused is reported with the reason; everyone else still gets her page.
"""

from __future__ import annotations

import errno
import os
import secrets
import stat
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .collect import DIR_FLAGS, FEEDBACK_MARK, FILE_FLAGS, CollectError, safe_part
from .export import per_learner

MAX_PAGE_BYTES = 5 * 1024 * 1024
"""A feedback page the grader wrote is far smaller; a larger file in GRADED is not returned."""
WRITE_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0)

#: Test hook: called with (stage, name, dir_fd) just before each step in a learner's folder.
before_step: Callable[[str, str, int], None] | None = None


class NotReturned(Exception):
    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def _hook(stage: str, name: str, fd: int) -> None:
    if before_step is not None:
        before_step(stage, name, fd)


def _open_dir(name: str, dir_fd: int) -> int:
    _hook("dir", name, dir_fd)
    try:
        return os.open(name, DIR_FLAGS, dir_fd=dir_fd)
    except OSError as err:
        raise NotReturned("symlink" if err.errno in (errno.ELOOP, errno.ENOTDIR) else "unreadable") from None


def _is_ours(name: str, dir_fd: int) -> bool | None:
    """Whether ``name`` in ``dir_fd`` is a page the grader wrote (None: there is none)."""
    _hook("check", name, dir_fd)
    try:
        fd = os.open(name, FILE_FLAGS, dir_fd=dir_fd)
    except FileNotFoundError:
        return None
    except OSError:
        return False  # a link (ELOOP), a folder we cannot read …: not ours
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return False
        mark = FEEDBACK_MARK.encode()
        try:
            head = os.read(fd, len(mark))
        except OSError:
            return False
        return head == mark
    finally:
        os.close(fd)


def _feedback_dir(folder_fd: int) -> int:
    """The descriptor of the learner's ``feedback/``: made if missing, a real directory owned by
    the owner of her folder, else refused."""
    return _own_dir(folder_fd, "feedback", 0o700)  # (her grades: not for the other accounts)


def _own_dir(folder_fd: int, sub: str, mode: int = 0o755) -> int:
    """The descriptor of ``sub`` in the learner's folder (``feedback``, ``exercises``): made if
    missing (``mode``) and given to her, a real directory owned by the owner of her folder, else refused."""
    owner = os.fstat(folder_fd)
    _hook("mkdir", sub, folder_fd)
    made = False
    try:
        os.mkdir(sub, mode, dir_fd=folder_fd)
        made = True
    except FileExistsError:
        pass
    except OSError:
        raise NotReturned("unreadable") from None
    fd = _open_dir(sub, folder_fd)
    st = os.fstat(fd)
    if made and st.st_uid != owner.st_uid and os.geteuid() == 0:
        os.fchown(fd, owner.st_uid, owner.st_gid)
        st = os.fstat(fd)
    if not stat.S_ISDIR(st.st_mode) or st.st_uid != owner.st_uid:
        os.close(fd)
        raise NotReturned("not_hers")
    return fd


def write_temporary(data: bytes, name: str, dir_fd: int, uid: int, gid: int) -> str:
    """``data`` in a new file of an unpredictable name beside ``name`` in ``dir_fd``, created
    exclusively (never through a link), given to ``uid``/``gid`` and made 0644; returns its name.
    The caller moves it into place (``rename``: replace; ``link``: only if the name is free)."""
    tmp = f".{name}.{secrets.token_hex(8)}.tmp"
    _hook("create", tmp, dir_fd)
    fd = os.open(tmp, WRITE_FLAGS, 0o644, dir_fd=dir_fd)
    try:
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
            if os.geteuid() == 0:
                os.fchown(fd, uid, gid)
            os.fchmod(fd, 0o644)
        finally:
            os.close(fd)
    except BaseException:
        _unlink_quietly(tmp, dir_fd)
        raise
    return tmp


def _unlink_quietly(name: str, dir_fd: int) -> None:
    try:
        os.unlink(name, dir_fd=dir_fd)
    except OSError:
        pass


def _write_page(page: bytes, name: str, fb_fd: int, uid: int, gid: int) -> None:
    tmp = write_temporary(page, name, fb_fd, uid, gid)
    try:
        _hook("rename", name, fb_fd)
        os.rename(tmp, name, src_dir_fd=fb_fd, dst_dir_fd=fb_fd)
    except BaseException:
        _unlink_quietly(tmp, fb_fd)
        raise


def open_learner_folder(learner: str, root_fd: int, hub_prefix: str | None,
                        not_hers: str) -> tuple[int, os.stat_result]:
    """``<root>/<prefix><learner>/`` opened through no link, and its stat; with ``hub_prefix``
    it must be owned by the Unix user of that name (else :class:`NotReturned` ``not_hers``).
    The caller closes the descriptor."""
    if safe_part(learner) != learner:
        raise NotReturned("no_folder")
    folder = (hub_prefix or "") + learner
    uid = None
    if hub_prefix is not None:
        from .collect import _hub_uid

        uid = _hub_uid(folder, hub_prefix)
        if uid is None:
            raise NotReturned("no_folder")
    try:
        folder_fd = _open_dir(folder, root_fd)
    except NotReturned as why:
        raise NotReturned("no_folder" if why.reason == "unreadable" else why.reason) from None
    try:
        st = os.fstat(folder_fd)
        if uid is not None and st.st_uid != uid:
            raise NotReturned(not_hers)
    except BaseException:
        os.close(folder_fd)
        raise
    return folder_fd, st


def return_one(page: bytes, owner: str, exercise: str, root_fd: int, hub_prefix: str | None = None) -> None:
    """Put ``page`` into ``<root>/<owner>/feedback/<exercise>.html`` (see the module docstring);
    with ``hub_prefix``, into ``<root>/<prefix><owner>/…``, a home the Unix user of that name owns."""
    folder_fd, owner_st = open_learner_folder(owner, root_fd, hub_prefix, not_hers="not_ours")
    try:
        fb_fd = _feedback_dir(folder_fd)
        try:
            name = f"{safe_part(exercise, 'submission')}.html"
            if _is_ours(name, fb_fd) is False:
                raise NotReturned("not_ours")
            try:
                _write_page(page, name, fb_fd, owner_st.st_uid, owner_st.st_gid)
            except OSError:
                raise NotReturned("not_ours") from None  # e.g. a folder of that name: left alone
        finally:
            os.close(fb_fd)
    finally:
        os.close(folder_fd)


def read_own_file(path: Path, limit: int) -> bytes | None:
    """A regular file of the instructor's (a feedback page, a released copy), read whole if it
    is at most ``limit`` bytes and never through a link; None otherwise."""
    try:
        fd = os.open(path, FILE_FLAGS)
    except OSError:
        return None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        data = os.read(fd, limit + 1)
        return data if len(data) <= limit else None
    finally:
        os.close(fd)


def _read_page(path: Path) -> bytes | None:
    """A page of the graded folder: one of the feedback pages ``grade`` wrote (its mark first)."""
    data = read_own_file(path, MAX_PAGE_BYTES)
    return data if data is not None and data.startswith(FEEDBACK_MARK.encode()) else None


def return_feedback(graded: str | Path, to: str | Path,
                    hub_prefix: str | None = None) -> tuple[list[Path], list[dict[str, str]]]:
    """Copy each learner's feedback page of ``graded`` into ``to/<owner>/feedback/``
    (``to/<hub_prefix><owner>/feedback/`` for a hub collected with ``--hub-prefix``).

    Returns the pages written and what could not be returned (``file`` and ``reason``: no learner
    folder, a link, a folder not hers, a file there that the grader did not write).
    """
    from .gradebook import read_results

    src = Path(graded)
    if not (src / "results.json").is_file():
        raise CollectError("grading.collect.no_results", path=graded)
    dest_root = Path(to)
    if not dest_root.is_dir():
        raise CollectError("grading.collect.no_root", path=to)
    doc = read_results(src / "results.json")
    table, nameless = per_learner(doc.get("submissions", []))
    written: list[Path] = []
    problems: list[dict[str, str]] = [{"file": str(r.get("file")), "reason": "no_folder"} for r in nameless]
    root_fd = os.open(dest_root, os.O_RDONLY | os.O_DIRECTORY)
    try:
        for mine in table.values():
            for ex, row in sorted(mine.items()):
                _return_row(row, ex, src, dest_root, root_fd, written, problems, hub_prefix)
    finally:
        os.close(root_fd)
    return written, problems


def _return_row(row: dict[str, Any], ex: str, src: Path, dest_root: Path, root_fd: int,
                written: list[Path], problems: list[dict[str, str]], hub_prefix: str | None = None) -> None:
    owner = row.get("owner")
    folder = (hub_prefix or "") + str(owner)
    rel = str(row.get("feedback", ""))
    page = _read_page(src / "feedback" / Path(rel).name) if rel.startswith("feedback/") else None
    if not owner or page is None:
        problems.append({"file": str(row.get("file")), "reason": "no_folder" if not owner else "no_page"})
        return
    try:
        return_one(page, str(owner), ex, root_fd, hub_prefix)
    except NotReturned as why:
        problems.append({"file": str(dest_root / folder / "feedback" / f"{safe_part(ex)}.html"),
                         "reason": why.reason})
        return
    written.append(dest_root / folder / "feedback" / f"{safe_part(ex, 'submission')}.html")
