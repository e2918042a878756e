"""Where the course's own files are, for the modules that read them (:mod:`.course` copies
them, :mod:`.progress` reads the exercises' metadata beside them), and how the kit writes a file
whole (:func:`write_atomic`). Imports nothing of the kit, so all can use it without importing
each other."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

PACKAGED = Path(__file__).resolve().parent / "_course"  # filled by setup.py in a wheel


def repository_root() -> Path | None:
    """The repository this package was imported from (an editable install), if any."""
    root = Path(__file__).resolve().parent.parent
    if (root / "pyproject.toml").is_file() and (root / "notebooks").is_dir():
        return root
    return None


def write_atomic(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` whole or not at all: a temporary file beside it (made by
    :func:`tempfile.mkstemp`, so only its owner can read it), then a rename; makes the folder."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


__all__ = ["PACKAGED", "repository_root", "write_atomic"]
