"""``baccarat-kit hand-out HANDOUT --to ROOT``: each learner's own copies into her own folder.

``release --class-list … --secret-file …`` writes ``HANDOUT/<learner>/exercises/NN.ipynb`` into
the instructor's folder; this puts each file at ``ROOT/<learner>/exercises/NN.ipynb`` (with
``--hub-prefix jupyter-``: ``ROOT/jupyter-<learner>/…``, a home the Unix user of that name owns),
the layout ``collect --glob "exercises/*.ipynb"`` reads back. Her folder is hostile ground, so it is
written the way ``return`` writes (:mod:`.hand_back`): through directory descriptors opened
``O_NOFOLLOW``, a sub-folder that must be hers (or is made now and given to her), a file created
exclusively under an unpredictable name, given to her with ``fchown``, then *linked* to its name,
which fails if the name exists: **a file already there is never replaced** (her work, or a link
she placed: both are left alone and listed as kept). A learner whose folder is refused is listed
with the reason; everyone else still gets her copies.

>>> import tempfile
>>> d = Path(tempfile.mkdtemp())
>>> _ = (d / "handout" / "ann" / "exercises").mkdir(parents=True)
>>> _ = (d / "handout" / "ann" / "exercises" / "04-whole-coups.ipynb").write_text("{}")
>>> _ = (d / "home" / "ann").mkdir(parents=True)
>>> done = hand_out(d / "handout", d / "home")
>>> [str(p.relative_to(d)) for p in done.written], done.kept
(['home/ann/exercises/04-whole-coups.ipynb'], [])
>>> [str(p.relative_to(d)) for p in hand_out(d / "handout", d / "home").kept]
['home/ann/exercises/04-whole-coups.ipynb']
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from .collect import CollectError, safe_part
from .hand_back import (
    NotReturned,
    _hook,
    _own_dir,
    _unlink_quietly,
    open_learner_folder,
    read_own_file,
    write_temporary,
)

MAX_COPY_BYTES = 20 * 1024 * 1024
"""A released copy is a few tens of KB; a larger file in HANDOUT is not handed out."""
NOTEBOOK_SUFFIX = ".ipynb"


@dataclass
class HandedOut:
    """What :func:`hand_out` did: files written, files kept (a name already there) and problems
    (``file`` and ``reason``, a :mod:`.hand_back` reason code)."""

    written: list[Path] = field(default_factory=list)
    kept: list[Path] = field(default_factory=list)
    problems: list[dict[str, str]] = field(default_factory=list)


def _term_learner(data: bytes) -> str | None:
    """The learner a term copy was released for (its ``metadata.baccarat_kit.term.learner``), or
    None for any other file (the instructor's own folder: read as JSON, nothing run)."""
    import json

    try:
        mark = json.loads(data)["metadata"]["baccarat_kit"]["term"]["learner"]
    except (ValueError, KeyError, TypeError):
        return None
    return mark if isinstance(mark, str) else None


def _exists(name: str, dir_fd: int) -> bool:
    try:
        os.stat(name, dir_fd=dir_fd, follow_symlinks=False)
    except FileNotFoundError:
        return False
    return True


def _place(data: bytes, name: str, dir_fd: int, uid: int, gid: int) -> bool:
    """Write ``data`` as ``name`` in ``dir_fd`` unless that name exists; True when written."""
    if _exists(name, dir_fd):
        return False
    tmp = write_temporary(data, name, dir_fd, uid, gid)
    try:
        _hook("link", name, dir_fd)
        os.link(tmp, name, src_dir_fd=dir_fd, dst_dir_fd=dir_fd, follow_symlinks=False)
        return True
    except FileExistsError:
        return False  # placed there meanwhile (by her): hers stays
    finally:
        _unlink_quietly(tmp, dir_fd)


def hand_out_one(files: dict[str, dict[str, bytes]], learner: str, root_fd: int,
                 hub_prefix: str | None = None) -> tuple[list[str], list[str]]:
    """``files`` (sub-folder → name → bytes) into ``<root>/<prefix><learner>/``; returns the
    relative paths written and kept. Raises :class:`.hand_back.NotReturned` for her folder."""
    folder_fd, owner = open_learner_folder(learner, root_fd, hub_prefix, not_hers="not_hers")
    written: list[str] = []
    kept: list[str] = []
    try:
        for sub, names in sorted(files.items()):
            sub_fd = _own_dir(folder_fd, sub)
            try:
                for name, data in sorted(names.items()):
                    try:
                        done = _place(data, name, sub_fd, owner.st_uid, owner.st_gid)
                    except OSError:
                        done = False  # e.g. a folder of that name: left alone
                    (written if done else kept).append(f"{sub}/{name}")
            finally:
                os.close(sub_fd)
    finally:
        os.close(folder_fd)
    return written, kept


def hand_out(handout: str | Path, to: str | Path, hub_prefix: str | None = None) -> HandedOut:
    """Put every ``handout/<learner>/<folder>/*.ipynb`` into ``to/<learner>/<folder>/`` (see the
    module docstring). Only notebooks one folder deep are handed out, as ``release`` writes them."""
    src = Path(handout)
    if not src.is_dir():
        raise CollectError("grading.collect.no_root", path=handout)
    dest_root = Path(to)
    if not dest_root.is_dir():
        raise CollectError("grading.collect.no_root", path=to)
    learners = sorted(p for p in src.iterdir() if p.is_dir() and not p.is_symlink())
    if not any(sub.is_dir() and not sub.is_symlink() and any(sub.glob(f"*{NOTEBOOK_SUFFIX}"))
               for d in learners for sub in d.iterdir()):  # e.g. the folder above the hand-out
        raise CollectError("grading.handout.empty", path=handout)
    result = HandedOut()
    root_fd = os.open(dest_root, os.O_RDONLY | os.O_DIRECTORY)
    try:
        for learner_dir in learners:
            files: dict[str, dict[str, bytes]] = {}
            for sub in sorted(p for p in learner_dir.iterdir() if p.is_dir() and not p.is_symlink()):
                for nb in sorted(sub.glob(f"*{NOTEBOOK_SUFFIX}")):
                    data = read_own_file(nb, MAX_COPY_BYTES)
                    if data is None or safe_part(sub.name) != sub.name or safe_part(nb.name) != nb.name:
                        result.problems.append({"file": str(nb), "reason": "bad_copy"})
                        continue
                    released_for = _term_learner(data)
                    if released_for is not None and released_for != learner_dir.name:
                        result.problems.append({"file": str(nb), "reason": "other_learner", "learner": released_for,
                                                "folder": learner_dir.name})
                        continue  # her copy in another learner's folder: his would be keyed for her
                    files.setdefault(sub.name, {})[nb.name] = data
            if not files:
                continue
            folder = dest_root / ((hub_prefix or "") + learner_dir.name)
            try:
                written, kept = hand_out_one(files, learner_dir.name, root_fd, hub_prefix)
            except NotReturned as why:
                result.problems.append({"file": str(folder), "reason": why.reason})
                continue
            result.written += [folder / rel for rel in written]
            result.kept += [folder / rel for rel in kept]
    finally:
        os.close(root_fd)
    return result
