"""Gather every learner's exercise notebooks from a one-machine hub, by path.

    python deploy/jupyterhub/gather.py HUB_DIR OUT

copies ``HUB_DIR/homes/<learner>/course/exercises/*.ipynb`` to ``OUT/<learner>/`` (read only
from the homes; nothing there is changed) and prints one line per learner. The class
workflow's own ``baccarat-kit collect`` (being built separately) is the command to use once it
is released; this script only knows the folder layout of jupyterhub_config.py.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path


def gather(hub_dir: Path, out: Path) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for home in sorted((hub_dir / "homes").iterdir()):
        exercises = home / "course" / "exercises"
        if not exercises.is_dir():
            continue
        target = out / home.name
        target.mkdir(parents=True, exist_ok=True)
        for nb in sorted(exercises.glob("*.ipynb")):
            shutil.copy2(nb, target / nb.name)
            found.setdefault(home.name, []).append(nb.name)
    return found


if __name__ == "__main__":
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    for learner, names in gather(Path(sys.argv[1]), Path(sys.argv[2])).items():
        print(f"{learner}: {len(names)} notebooks")
