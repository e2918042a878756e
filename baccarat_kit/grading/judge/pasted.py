"""A pasted copy of the kit's source, told apart for the instructor (a warning, never a score).

In a grading run the kit's rule code is absent (issue 30), so a learner who wants it there must
paste it into her notebook. That is flagged, not zeroed: where her notebook is parsed, the reader's
:func:`..sandbox.reader.fingerprints` turns each function body (and each large table assigned at
a cell's top level) into a normalized syntax tree (docstrings dropped, every local and global name
renamed by order of first use, type annotations dropped) and hashes it; the grader compares the learner's hashes with those of the
kit's rule, coup, settlement and key code (:func:`kit_fingerprints`, computed on the grader's
side). Renaming variables or reformatting does not hide a paste; rewriting the logic does, and
then it is her own code.

>>> a = fingerprints(["def f(total, third):\\n    '''doc'''\\n    t = check(total, 'banker')\\n"
...                   "    return t in TABLE[third] if third is not None else t in STOOD\\n"])
>>> b = fingerprints(["def g(x, y):\\n    z = check(x, 'banker')\\n"
...                   "    return z in T[y] if y is not None else z in S\\n"])
>>> [h for _, h in a] == [h for _, h in b]
True
"""

from __future__ import annotations

from collections.abc import Iterable

from ..sandbox.reader import fingerprints

KIT_FILES = ("rules.py", "coup.py", "settlement.py", "cards.py", "shoe.py", "ledger.py", "misconceptions.py",
             "grading/judge/keys.py")
"""The kit's files whose functions and tables a paste is compared with."""


_KIT: dict[str, str] = {}
"""The kit's fingerprints, computed once per process."""


def kit_fingerprints() -> dict[str, str]:
    """``{hash: "module.name"}`` of the kit's own code (:data:`KIT_FILES`), read on the grader's side."""
    if not _KIT:
        from pathlib import Path

        root = Path(__file__).resolve().parents[2]
        found: dict[str, str] = {}
        for rel in KIT_FILES:
            try:
                text = (root / rel).read_text(encoding="utf-8")
            except OSError:
                continue
            module = rel[:-3].replace("/", ".")
            for name, digest in fingerprints([text]):
                found.setdefault(digest, f"bk.{module}.{name}")
        _KIT.update(found)
    return dict(_KIT)


def pasted(found: Iterable[tuple[str, object]],
           kit: dict[str, str] | None = None) -> list[tuple[str, str]]:
    """The learner's pieces (``found``: :func:`fingerprints` of her cells) that are the kit's own
    code: ``[(her name, the kit's name)]``."""
    kit = kit_fingerprints() if kit is None else kit
    out = []
    for name, digest in found:
        if isinstance(digest, str) and digest in kit and (name, kit[digest]) not in out:
            out.append((name, kit[digest]))
    return out
