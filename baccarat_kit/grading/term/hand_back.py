"""``baccarat-kit return GRADED --to ROOT``: each learner's feedback pages into her own folder.

The pages go to ``ROOT/<learner>/feedback/`` (the learner folder the file was collected from,
as :mod:`.collect`'s manifest records it), never over a file the grader did not write.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

from .collect import FEEDBACK_MARK, CollectError, safe_part


def _give_to_owner_of(folder: Path, paths: list[Path]) -> None:
    """Run as root (a JupyterHub), make the returned pages the learner's own, like their folder."""
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        return
    st = folder.stat()
    for path in paths:
        try:
            os.chown(path, st.st_uid, st.st_gid, follow_symlinks=False)
        except OSError:
            pass


def return_feedback(graded: str | Path, to: str | Path) -> tuple[list[Path], list[str]]:
    """Copy each feedback page of ``graded`` into ``to/<learner folder>/feedback/``.

    The learner folder is the one ``collect`` took the file from (``owner``). Returns the pages
    written and the rows that could not be returned (no learner folder, or a file there that
    the grader did not write).
    """
    src = Path(graded)
    results = src / "results.json"
    if not results.is_file():
        raise CollectError("grading.collect.no_results", path=graded)
    dest_root = Path(to)
    if not dest_root.is_dir():
        raise CollectError("grading.collect.no_root", path=to)
    doc = json.loads(results.read_text(encoding="utf-8"))
    written: list[Path] = []
    problems: list[str] = []
    for row in doc.get("submissions", []):
        owner = row.get("owner")
        page = src / str(row.get("feedback", ""))
        if not owner or not page.is_file():
            problems.append(str(row.get("file")))
            continue
        folder = dest_root / safe_part(str(owner))
        if not folder.is_dir() or folder.name != owner:
            problems.append(str(row.get("file")))
            continue
        target = folder / "feedback" / f"{safe_part(str(row.get('exercise') or 'submission'))}.html"
        if target.exists() and (target.is_symlink() or not target.read_text(
                encoding="utf-8", errors="replace").startswith(FEEDBACK_MARK)):
            problems.append(str(target))
            continue
        if target.parent.is_symlink() or (target.parent.exists() and not target.parent.is_dir()):
            problems.append(str(target.parent))
            continue
        target.parent.mkdir(exist_ok=True)
        tmp = target.with_name(f".{target.name}.tmp")
        shutil.copyfile(page, tmp)
        os.replace(tmp, target)
        _give_to_owner_of(folder, [target.parent, target])
        written.append(target)
    return written, problems
