"""The learner's own copy of the course (baccarat_kit/course.py, `make lab`, issue 10 and 14)."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from baccarat_kit import course
from baccarat_kit.cli import main

REPO = Path(__file__).resolve().parents[1]
SOURCES = sorted((REPO / "exercises" / "source").glob("*.ipynb"))

BEGIN = re.compile(r"^\s*#\s*BEGIN SOLUTION\s*$")
END = re.compile(r"^\s*#\s*END SOLUTION\s*$")
SOLUTION_LINE = re.compile(r"^\s*([A-Za-z_][\w.\[\]'\"]*\s*=\s*.+?)\s*#\s*SOLUTION(?::.*)?$")


def model_solutions() -> set[str]:
    """Every line of a model solution in exercises/source/ (long enough to be telling)."""
    found: set[str] = set()
    for path in SOURCES:
        for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
            if cell["cell_type"] != "code":
                continue
            inside = False
            for line in "".join(cell["source"]).split("\n"):
                if BEGIN.match(line):
                    inside = True
                elif END.match(line):
                    inside = False
                elif inside and len(line.strip()) >= 10:
                    found.add(line.strip())
                elif m := SOLUTION_LINE.match(line):
                    found.add(m.group(1).strip())
    return found


def code_lines(path: Path) -> set[str]:
    nb = json.loads(path.read_text(encoding="utf-8"))
    return {line.strip() for cell in nb["cells"] if cell["cell_type"] == "code"
            for line in "".join(cell["source"]).split("\n")}


# ---------------------------------------------------------------------------- the file set


def test_course_is_discovered_not_listed() -> None:
    files = course.discover()
    assert set(files) >= {
        *(p.relative_to(REPO).as_posix() for p in (REPO / "notebooks").glob("*.ipynb")),
        *(p.relative_to(REPO).as_posix() for p in (REPO / "exercises").glob("*.ipynb")),
        "trainer/trainer.ipynb",
    }
    assert not any(rel.startswith("exercises/source/") for rel in files)
    assert course.Spec.load().first in files


def test_a_new_lesson_joins_without_editing_a_list(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    for rel in ("notebooks/00-how-to-use.ipynb", "exercises/source/01-x.ipynb"):
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text('{"cells": []}', encoding="utf-8")
    (root / "notebooks" / "42-new-lesson.ipynb").write_text('{"cells": []}', encoding="utf-8")
    (root / "notebooks" / ".ipynb_checkpoints").mkdir()
    (root / "notebooks" / ".ipynb_checkpoints" / "00-how-to-use-checkpoint.ipynb").write_text("{}")
    (root / "notebooks" / "data").mkdir()
    (root / "notebooks" / "data" / "shoe.csv").write_text("1,2\n")
    assert list(course.discover(root)) == [
        "notebooks/00-how-to-use.ipynb", "notebooks/42-new-lesson.ipynb", "notebooks/data/shoe.csv",
    ]


TEACHES_THE_MARKERS = "09-instructors-adding-a-case.ipynb"


def test_no_model_solution_anywhere_in_a_workspace(tmp_path: Path) -> None:
    solutions = model_solutions()
    assert len(solutions) > 20  # the sources really hold solutions to look for
    report = course.install(tmp_path / "ws")
    notebooks = [p for p in (tmp_path / "ws").rglob("*.ipynb")]
    assert len(notebooks) == len([w for w in report.written if w.endswith(".ipynb")])
    for path in notebooks:
        leaked = solutions & code_lines(path)
        assert not leaked, (path, leaked)
        assert not course.solution_lines(path.read_bytes()), path  # no marker as a comment of code
        if path.name != TEACHES_THE_MARKERS:  # (lesson 09 writes an exercise of its own, markers and all)
            assert "SOLUTION" not in path.read_text(encoding="utf-8"), path
    assert not (tmp_path / "ws" / "exercises" / "source").exists()


def test_a_source_with_a_solution_is_refused(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    (root / "notebooks").mkdir(parents=True)
    (root / "notebooks" / "00-how-to-use.ipynb").write_text(json.dumps(
        {"cells": [{"cell_type": "code", "source": "x = 1  # SOLUTION", "metadata": {},
                    "outputs": []}]}), encoding="utf-8")
    with pytest.raises(course.CourseError) as info:
        course.install(tmp_path / "ws", root=root)
    assert "00-how-to-use.ipynb" in info.value.message("en")
    assert not (tmp_path / "ws" / "notebooks").exists()


def test_the_source_itself_is_refused_as_a_workspace() -> None:
    with pytest.raises(course.CourseError) as info:
        course.install(REPO, root=REPO)
    assert info.value.key == "course.dest_is_source"


# ---------------------------------------------------------------------------- keeping work


def fake_course(root: Path, lessons: dict[str, str]) -> Path:
    for rel, text in lessons.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    return root


def test_install_once_then_never_overwrite(tmp_path: Path) -> None:
    root = fake_course(tmp_path / "v1", {
        "notebooks/00-how-to-use.ipynb": "v1 lesson 0", "exercises/01-a.ipynb": "v1 ex 1"})
    ws = tmp_path / "ws"
    first = course.install(ws, root=root)
    assert first.written == ("exercises/01-a.ipynb", "notebooks/00-how-to-use.ipynb")
    manifest = json.loads((ws / course.MANIFEST).read_text())
    assert manifest["files"]["exercises/01-a.ipynb"] == course.sha256(b"v1 ex 1")

    (ws / "exercises" / "01-a.ipynb").write_text("my answers", encoding="utf-8")
    (ws / "notebooks" / "00-how-to-use.ipynb").unlink()  # a learner deletes a lesson…
    again = course.install(ws, root=root)
    assert again.written == ("notebooks/00-how-to-use.ipynb",)  # …and gets it back
    assert again.kept == ("exercises/01-a.ipynb",)
    assert (ws / "exercises" / "01-a.ipynb").read_text() == "my answers"


def test_update_refreshes_untouched_files_and_lists_kept_ones(tmp_path: Path) -> None:
    v1 = fake_course(tmp_path / "v1", {
        "notebooks/00-how-to-use.ipynb": "v1 lesson 0", "notebooks/01-b.ipynb": "v1 lesson 1",
        "exercises/01-a.ipynb": "v1 ex 1", "notebooks/02-old.ipynb": "retired lesson"})
    ws = tmp_path / "ws"
    course.install(ws, root=v1)
    (ws / "exercises" / "01-a.ipynb").write_text("my answers", encoding="utf-8")
    (ws / "notes.ipynb").write_text("the learner's own notebook", encoding="utf-8")

    v2 = fake_course(tmp_path / "v2", {
        "notebooks/00-how-to-use.ipynb": "v2 lesson 0", "notebooks/01-b.ipynb": "v1 lesson 1",
        "exercises/01-a.ipynb": "v2 ex 1", "notebooks/03-new.ipynb": "a new lesson"})
    plain = course.install(ws, root=v2)
    assert plain.outdated == ("notebooks/00-how-to-use.ipynb",)
    assert plain.written == ("notebooks/03-new.ipynb",)
    assert (ws / "notebooks" / "00-how-to-use.ipynb").read_text() == "v1 lesson 0"
    assert "--update" in plain.explain("en")

    report = course.install(ws, root=v2, update=True)
    assert report.updated == ("notebooks/00-how-to-use.ipynb",)
    assert report.kept == ("exercises/01-a.ipynb",)
    assert report.retired == ("notebooks/02-old.ipynb",)
    assert (ws / "notebooks" / "00-how-to-use.ipynb").read_text() == "v2 lesson 0"
    assert (ws / "exercises" / "01-a.ipynb").read_text() == "my answers"
    assert (ws / "notebooks" / "02-old.ipynb").read_text() == "retired lesson"
    assert (ws / "notes.ipynb").read_text() == "the learner's own notebook"
    text = report.explain("en")
    assert "exercises/01-a.ipynb" in text and "kept" in text

    # A learner who changed a file keeps it through every later update too.
    assert course.install(ws, root=v2, update=True).kept == ("exercises/01-a.ipynb",)


def test_a_broken_manifest_touches_nothing(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / course.MANIFEST).write_text("{not json", encoding="utf-8")
    with pytest.raises(course.CourseError) as info:
        course.install(ws)
    assert course.MANIFEST in info.value.message("en")
    assert sorted(p.name for p in ws.iterdir()) == [course.MANIFEST]


def test_cli_course_and_update(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["course", str(tmp_path / "ws"), "--lang", "en"]) == 0
    assert "notebooks/00-how-to-use.ipynb" in capsys.readouterr().out
    assert main(["course", str(tmp_path / "ws"), "--update", "--lang", "en"]) == 0
    assert "up to date" in capsys.readouterr().out
    assert main(["course", "--list"]) == 0
    assert "trainer/trainer.ipynb" in capsys.readouterr().out.split()


def test_lab_command_shows_only_the_workspace(tmp_path: Path) -> None:
    cmd = course.lab_command(tmp_path, "notebooks/00-how-to-use.ipynb", ["--no-browser"])
    assert f"--ServerApp.root_dir={tmp_path}" in cmd
    assert "--LabApp.default_url=/lab/tree/notebooks/00-how-to-use.ipynb" in cmd
    assert cmd[-1] == "--no-browser"


# ---------------------------------------------------------------------------- the repository


def git(repo: Path, *args: str) -> str:
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.org",
           "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.org"}
    return subprocess.run(["git", *args], cwd=repo, env=env, capture_output=True, text=True,
                          check=True).stdout


@pytest.mark.slow
def test_a_learners_saved_answer_leaves_the_repository_clean(tmp_path: Path) -> None:
    """Issue 10: answer an exercise in workspace/, save it; git status stays empty and the
    repository's own tests (learner copies up to date, nbval's notebook list) are unaffected."""
    if shutil.which("git") is None:
        pytest.skip("git not installed")
    clone = tmp_path / "clone"
    files = git(REPO, "ls-files", "-z", "--cached", "--others", "--exclude-standard").split("\0")
    for rel in filter(None, files):
        src = REPO / rel
        if src.is_file():
            (clone / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, clone / rel)
    git(clone, "init", "-q")
    git(clone, "add", "-A")
    git(clone, "commit", "-q", "-m", "course")

    report = course.install(clone / "workspace", root=clone)  # what `make lab` does
    first = next(w for w in report.written if w.startswith("exercises/") and w.endswith(".ipynb"))
    exercise = clone / "workspace" / first
    nb = json.loads(exercise.read_text(encoding="utf-8"))
    answered = 0
    for cell in nb["cells"]:
        if cell["cell_type"] == "code" and "..." in "".join(cell["source"]):
            cell["source"] = "".join(cell["source"]).replace("...", "0")
            answered += 1
    assert answered, "the learner copy has a blank to fill"
    exercise.write_text(json.dumps(nb, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")

    assert git(clone, "status", "--porcelain", "--untracked-files=all") == ""
    # The repository's tests read the tracked course, never workspace/: the check that the
    # learner copies match their sources still passes, and no test or notebook is collected
    # from the workspace.
    # (what tests/test_grading_release.py checks, run in this process on the clone: a second
    # pytest here cost ~30 s of start-up for the same comparison)
    assert main(["release", str(clone / "exercises" / "source"), "--out", str(tmp_path / "released"),
                 "--self-study"]) == 0
    released = sorted(tmp_path.joinpath("released").glob("*.ipynb"))
    assert released and [p.name for p in released] == sorted(p.name for p in (clone / "exercises").glob("*.ipynb"))
    for made in released:
        assert made.read_text(encoding="utf-8") == (clone / "exercises" / made.name).read_text(encoding="utf-8")
    # Collected from the top of the clone, with nbval on (every notebook pytest meets is an item):
    # the course's notebooks are, the workspace's copies and a test file of the learner's are
    # not. (Only the folders beside tests/: importing the whole suite to list it took ~100 s.)
    (clone / "workspace" / "test_mine.py").write_text("def test_mine():\n    pass\n", encoding="utf-8")
    collected = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", "-p", "no:xdist",
         "--nbval", "--nbval-current-env", f"--basetemp={tmp_path / 'bt2'}", "--ignore=tests",
         "--ignore=baccarat_kit", "."],
        cwd=clone, capture_output=True, text=True)
    assert collected.returncode == 0, collected.stdout[-2000:] + collected.stderr[-2000:]
    items = [line for line in collected.stdout.splitlines() if "::" in line]
    assert any(i.startswith("notebooks/") for i in items), items[:5]
    assert not [i for i in items if i.startswith("workspace")], items[:5]
    make = subprocess.run(["make", "-n", "test"], cwd=clone, capture_output=True, text=True)
    assert make.returncode == 0 and "workspace" not in make.stdout, make.stdout


def test_the_course_notebooks_it_writes_are_trusted_a_learners_change_is_not(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """JupyterLab draws a lesson's stored widgets only when the notebook is trusted: the copies
    the kit writes are signed; a learner's own edit is never signed by the kit."""
    import nbformat
    from nbformat.sign import NotebookNotary

    monkeypatch.setenv("JUPYTER_DATA_DIR", str(tmp_path / "jupyter-data"))
    dest = tmp_path / "ws"
    course.install(dest)
    notary = NotebookNotary()
    lesson = dest / "notebooks" / "04-banker-rule.ipynb"
    assert notary.check_signature(nbformat.read(lesson, as_version=4))
    nb = nbformat.read(lesson, as_version=4)
    nb.cells[0].source += "\n<!-- my note -->"
    nbformat.write(nb, lesson)
    course.install(dest, update=True)                # kept: the learner changed it
    assert not notary.check_signature(nbformat.read(lesson, as_version=4))
