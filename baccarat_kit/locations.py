"""Where the course's own files are, for the modules that read them (:mod:`.course` copies
them, :mod:`.progress` reads the exercises' metadata beside them). Imports nothing of the kit,
so both can use it without importing each other."""

from __future__ import annotations

from pathlib import Path

PACKAGED = Path(__file__).resolve().parent / "_course"  # filled by setup.py in a wheel


def repository_root() -> Path | None:
    """The repository this package was imported from (an editable install), if any."""
    root = Path(__file__).resolve().parent.parent
    if (root / "pyproject.toml").is_file() and (root / "notebooks").is_dir():
        return root
    return None


__all__ = ["PACKAGED", "repository_root"]
