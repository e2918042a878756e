"""Binder and JupyterHub configuration files (issue 14): they parse and name the right entry
points. The hub itself runs in tests/browser/test_hub.py; the Lite site in test_lite.py."""

from __future__ import annotations

import ast
import importlib.util
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from baccarat_kit import course

REPO = Path(__file__).resolve().parents[1]
FIRST = course.Spec.load().first


def test_binder_installs_the_lab_extra_and_the_badge_opens_lesson_00() -> None:
    post = REPO / "binder" / "postBuild"
    assert post.stat().st_mode & 0o111, "postBuild must be executable"
    if shutil.which("bash"):
        subprocess.run(["bash", "-n", str(post)], check=True)
    text = post.read_text(encoding="utf-8")
    assert re.search(r"pip install [^\n]*\"\.\[lab\]\"", text)
    assert "rm -rf exercises/source" in text  # a Binder session is a learner's
    assert re.fullmatch(r"python-3\.1[1-9]\n", (REPO / "binder" / "runtime.txt").read_text())
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    badge = re.search(r"\(https://mybinder\.org/v2/gh/[^)]*urlpath=lab/tree/([^)\s]+)\)", readme)
    assert badge and badge.group(1) == FIRST and (REPO / FIRST).is_file()
    assert "https://mybinder.org/badge_logo.svg" in readme


def test_hub_config_parses_and_names_the_class_classes() -> None:
    """The config as JupyterHub loads it is tested in tests/test_hub_accounts.py (root only); this
    checks, anywhere, that it names the hub's entry points and no shared-password sign-in."""
    source = (REPO / "deploy" / "jupyterhub" / "jupyterhub_config.py").read_text(encoding="utf-8")
    tree = ast.parse(source)
    assigned = {ast.unparse(t.targets[0]) for t in ast.walk(tree) if isinstance(t, ast.Assign)}
    for key in ("c.JupyterHub.authenticator_class", "c.JupyterHub.spawner_class",
                "c.Spawner.args", "c.Spawner.cmd", "c.JupyterHub.services",
                "c.ConfigurableHTTPProxy.command"):
        assert key in assigned, key
    assert "ClassListAuthenticator" in source and "LearnerSpawner" in source
    assert '"dummy"' not in source and "SimpleLocalProcessSpawner" not in source
    assert "--allow-root" not in source


def test_z2jh_values_parse_and_copy_the_course() -> None:
    yaml = pytest.importorskip("yaml")
    values = yaml.safe_load((REPO / "deploy" / "jupyterhub" / "values.yaml").read_text())
    single = values["singleuser"]
    assert single["defaultUrl"].endswith(FIRST)
    start = " ".join(single["lifecycleHooks"]["postStart"]["exec"]["command"])
    assert "baccarat-kit course /home/jovyan/course" in start
    assert values["hub"]["config"]["JupyterHub"]["authenticator_class"]


def test_collect_gathers_each_learners_exercises_from_the_hub_layout(tmp_path: Path) -> None:
    """The hub hands each learner her class copies in homes/<learner>/exercises (`hub hand-out`);
    the class workflow's collect command, as deploy/jupyterhub/README.md shows it, gathers them and
    not the self-study copies of her course folder."""
    from baccarat_kit.cli import main

    for learner in ("ann", "ben"):
        home = tmp_path / "hub" / "homes" / learner
        (home / "exercises").mkdir(parents=True)
        (home / "exercises" / "01-x.ipynb").write_text(learner)
        (home / "course" / "exercises").mkdir(parents=True)
        (home / "course" / "exercises" / "01-x.ipynb").write_text("self-study")
    assert main(["collect", str(tmp_path / "hub" / "homes"), "--glob", "exercises/01-*.ipynb",
                 "--out", str(tmp_path / "out"), "--name", "term"]) == 0
    assert (tmp_path / "out" / "term" / "ben" / "exercises" / "01-x.ipynb").read_text() == "ben"
    assert (tmp_path / "out" / "term" / "ann" / "exercises" / "01-x.ipynb").read_text() == "ann"
    assert not list((tmp_path / "out" / "term").glob("*/course"))
    readme = (REPO / "deploy" / "jupyterhub" / "README.md").read_text(encoding="utf-8")
    assert 'baccarat-kit collect /home --hub-prefix jupyter- --glob "exercises/01-*.ipynb"' in readme


def _lite_build() -> Any:
    spec = importlib.util.spec_from_file_location("lite_build", REPO / "lite" / "build.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_lite_build_finds_the_cells_needing_numpy_without_a_kernel(tmp_path: Path) -> None:
    """``make lite`` failed once on ``ZMQError: Address already in use`` → ``Kernel didn't respond``:
    the run that finds the cells the browser edition cannot run now starts no kernel (no ports
    to lose). A cell importing numpy fails, so does one using its result, and the others run,
    from the notebook's own folder; a notebook that cannot run at all is an error naming it."""
    import nbformat

    build = _lite_build()
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_markdown_cell("# x"),
                nbformat.v4.new_code_cell("import baccarat_kit as bk\nvalue = bk.hand_total(bk.parse_cards('K 7'))"),
                nbformat.v4.new_code_cell("import numpy as np"),
                nbformat.v4.new_code_cell("print(np.arange(3))"),
                nbformat.v4.new_code_cell("import os\nassert os.path.exists('beside.txt'), os.getcwd()\n%time value + 1"),
                nbformat.v4.new_code_cell("import matplotlib.pyplot as plt")]
    (tmp_path / "beside.txt").write_text("here")
    path = tmp_path / "lesson.ipynb"
    nbformat.write(nb, path)
    assert build.blocked_cells(path) == [2, 3, 5]
    path.write_text("{not json")
    with pytest.raises(RuntimeError, match=r"lesson\.ipynb"):
        build.blocked_cells(path)


def test_the_browser_edition_runs_every_lesson_cell_that_needs_no_numpy() -> None:
    """Lesson 08's first cell imported matplotlib beside the kit: in the browser edition it
    failed, so every later cell (using ``bk``) was shown, not run: 17 of 17, the exact odds, the
    shoe tracker and the lesson's self-check among them, and Run All ran nothing. No lesson's
    setup cell needs numpy or matplotlib now; lesson 08's cells that need only the kit run."""
    import json

    for path in sorted([*(REPO / "notebooks").glob("[0-9]*.ipynb"), *(REPO / "notebooks" / "en").glob("[0-9]*.ipynb")]):
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        first = next(c for c in cells if c["cell_type"] == "code")
        source = first["source"] if isinstance(first["source"], str) else "".join(first["source"])
        assert not re.search(r"^\s*(import|from)\s+(numpy|matplotlib)\b", source, re.M), path.name
    build = _lite_build()
    lesson = REPO / "notebooks" / "08-odds-and-roads.ipynb"
    cells = json.loads(lesson.read_text(encoding="utf-8"))["cells"]
    blocked = set(build.blocked_cells(lesson))
    runs = [i for i, c in enumerate(cells) if c["cell_type"] == "code" and i not in blocked]
    ran = "\n".join("".join(cells[i]["source"]) for i in runs)
    for call in ("bk.exact_odds(8)", "bk.widgets.ShoeTracker(", 'bk.widgets.Quiz.lesson("08"'):
        assert call in ran, call
    assert blocked, "the simulation and the charts need numpy: shown, not run"
