"""Build step that puts the learner's course inside the wheel (everything else: pyproject.toml).

The wheel carries the lessons, the learners' copies of the exercises and the trainer under
``baccarat_kit/_course/`` so that ``pip install "baccarat-kit[lab]"`` then ``baccarat-kit lab``
is a whole learner set-up. The files are found with the globs of
``baccarat_kit/data/course.toml`` (the same ones ``baccarat-kit course`` uses in a clone), so a
new lesson needs no edit here. The instructor sources (``exercises/source/``) never go in: they
travel in the sdist and the repository only. A notebook with a model-solution marker stops the
build.
"""

from __future__ import annotations

import fnmatch
import io
import json
import re
import shutil
import tokenize
import tomllib
from pathlib import Path, PurePosixPath

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
MARKER = re.compile(r"#\s*(?:BEGIN |END )?SOLUTION\b")


def course_files() -> dict[str, Path]:
    spec = tomllib.loads((HERE / "baccarat_kit" / "data" / "course.toml").read_text("utf-8"))
    found: dict[str, Path] = {}
    for pattern in spec["include"]:
        for path in HERE.glob(pattern):
            rel = path.relative_to(HERE).as_posix()
            parts = PurePosixPath(rel).parts
            if not path.is_file() or any(p in {".ipynb_checkpoints", "__pycache__"} for p in parts):
                continue
            if any(fnmatch.fnmatchcase(rel, x) for x in spec["exclude"]):
                continue
            found[rel] = path
    if spec["first"] not in found:
        raise SystemExit(f"the course's first lesson {spec['first']} is missing")
    return found


def _marked(src: str) -> bool:
    """A model-solution marker in a comment of the code (one inside a string is text:
    baccarat_kit.course.marker_lines, which this copies; setup.py imports nothing of the kit)."""
    try:
        return any(t.type == tokenize.COMMENT and MARKER.search(t.string)
                   for t in tokenize.generate_tokens(io.StringIO(src + "\n").readline))
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return bool(MARKER.search(src))


def check_no_solution(path: Path) -> None:
    if path.suffix != ".ipynb":
        return
    for cell in json.loads(path.read_text("utf-8")).get("cells", []):
        src = cell.get("source", "")
        src = src if isinstance(src, str) else "".join(src)
        if cell.get("cell_type") == "code" and _marked(src):
            raise SystemExit(f"{path} holds a model solution: it must not go to learners")


class BuildWithCourse(build_py):
    def run(self) -> None:
        super().run()
        target = Path(self.build_lib) / "baccarat_kit" / "_course"
        if target.exists():
            shutil.rmtree(target)
        for rel, path in course_files().items():
            check_no_solution(path)
            (target / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(path, target / rel)


setup(cmdclass={"build_py": BuildWithCourse})
