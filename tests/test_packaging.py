"""The kit as a package index would see it (issue 14): metadata, wheel, sdist, README, and a
learner's set-up from the built wheel in a fresh venv outside the repository.

Building the wheel and sdist takes about 15 s; the two fresh venvs take about 5 s (bare wheel)
and 10–30 s (``[lab]``: uv links JupyterLab from its cache; pip, where no uv is found, is
slower and needs the network). The whole module runs in ``make test``.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tarfile
import time
import tomllib
import urllib.request
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

import baccarat_kit as bk
from baccarat_kit import course

REPO = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))


def _find_uv() -> str | None:
    """uv: on PATH, else the one the ``test`` extra installs next to this Python (``make test``
    does not put ``.venv/bin`` on PATH; missing it, the ``[lab]`` venv took 291 s through pip)."""
    found = shutil.which("uv") or shutil.which("uv", path=os.path.dirname(sys.executable))
    if found:
        return found
    try:
        import uv

        return uv.find_uv_bin()
    except (ImportError, FileNotFoundError):
        return None


UV = _find_uv()


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The sdist, and the wheel built FROM that sdist (``python -m build`` does both)."""
    out = tmp_path_factory.mktemp("dist")
    run = subprocess.run(
        [sys.executable, "-m", "build", "--no-isolation", "--outdir", str(out), str(REPO)],
        capture_output=True, text=True, cwd=out)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    (wheel,) = out.glob("*.whl")
    (sdist,) = out.glob("*.tar.gz")
    return {"wheel": wheel, "sdist": sdist}


def wheel_names(wheel: Path) -> list[str]:
    with zipfile.ZipFile(wheel) as zf:
        return zf.namelist()


def metadata(wheel: Path) -> str:
    with zipfile.ZipFile(wheel) as zf:
        (name,) = [n for n in zf.namelist() if n.endswith(".dist-info/METADATA")]
        return zf.read(name).decode("utf-8")


# ---------------------------------------------------------------------------- metadata


def test_one_source_for_the_version(dist: dict[str, Path]) -> None:
    assert "version" not in PYPROJECT["project"]
    assert "version" in PYPROJECT["project"]["dynamic"]
    assert f"\nVersion: {bk.__version__}\n" in metadata(dist["wheel"])
    assert dist["wheel"].name.startswith(f"baccarat_kit-{bk.__version__}-")


def test_license_classifiers_and_urls(dist: dict[str, Path]) -> None:
    meta = metadata(dist["wheel"])
    assert "\nLicense-Expression: MIT\n" in meta
    assert "\nLicense-File: LICENSE\n" in meta
    assert "MIT License" in (REPO / "LICENSE").read_text(encoding="utf-8")
    assert any(n.endswith("licenses/LICENSE") for n in wheel_names(dist["wheel"]))
    classifiers = re.findall(r"^Classifier: (.+)$", meta, re.M)
    assert "Intended Audience :: Education" in classifiers
    assert not [c for c in classifiers if c.startswith("License ::")]  # SPDX instead
    urls = dict(re.findall(r"^Project-URL: ([^,]+), (\S+)$", meta, re.M))
    assert {"Homepage", "Source", "Issues"} <= set(urls)
    assert all(u.startswith("https://") for u in urls.values())


def test_wheel_holds_the_learners_course_and_no_instructor_source(dist: dict[str, Path]) -> None:
    names = wheel_names(dist["wheel"])
    prefix = "baccarat_kit/_course/"
    shipped = sorted(n[len(prefix):] for n in names if n.startswith(prefix))
    assert shipped == sorted(course.discover())
    assert not [n for n in names if "exercises/source" in n or n.startswith("tests/")]
    with zipfile.ZipFile(dist["wheel"]) as zf:
        for name in names:
            if name.endswith(".ipynb"):
                assert not course.solution_lines(zf.read(name)), name


def test_sdist_carries_instructor_sources_and_no_tests_it_cannot_run(
        dist: dict[str, Path]) -> None:
    with tarfile.open(dist["sdist"]) as tf:
        names = [n.split("/", 1)[1] for n in tf.getnames() if "/" in n]
    assert {"LICENSE", "README.md", "setup.py", "pyproject.toml"} <= set(names)
    sources = {p.relative_to(REPO).as_posix() for p in (REPO / "exercises/source").glob("*.ipynb")}
    assert sources and sources <= set(names)
    assert "notebooks/build.py" in names
    # The tests read fixtures, browsers and servers: they stay in the repository.
    assert not [n for n in names if n.startswith("tests/")]


def test_readme_reads_right_on_an_index_page() -> None:
    text = (REPO / "README.md").read_text(encoding="utf-8")
    images = re.findall(r"!\[[^\]]*\]\(([^)\s]+)", text) + re.findall(r'<img[^>]+src="([^"]+)"', text)
    assert images
    assert all(src.startswith("https://") for src in images), images
    links = re.findall(r"(?<!!)\[[^\]]*\]\(([^)\s]+)", text)
    relative = [u for u in links if not u.startswith(("https://", "http://", "#"))]
    assert not relative, relative
    assert 'pip install "baccarat-kit[lab]"' in text and "baccarat-kit lab" in text
    # Commands work from an install (a clone's .venv path is mentioned once, as a note).
    assert len(re.findall(r"^\$? ?\.venv/bin/", text, re.M)) == 0


# ---------------------------------------------------------------------------- fresh venvs


def fresh_venv(where: Path, *requirements: str) -> Path:
    """A new venv outside the repository with ``requirements`` installed; its bin folder."""
    venv = where / "venv"
    if UV:
        subprocess.run([UV, "venv", "--quiet", "--python", sys.executable, str(venv)],
                       check=True, cwd=where)
        cmd = [UV, "pip", "install", "--quiet", "--python", str(venv / "bin" / "python")]
    else:  # pragma: no cover - machines without uv
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, cwd=where)
        cmd = [str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet"]
    run = subprocess.run([*cmd, *requirements], capture_output=True, text=True, cwd=where)
    assert run.returncode == 0, run.stderr[-3000:]
    return venv / "bin"


def clean_env(home: Path) -> dict[str, str]:
    """No trace of this repository's environment: HOME and Jupyter folders under ``home``."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("VIRTUAL_ENV", "PYTHON", "JUPYTER", "BACCARAT_KIT"))}
    env.update(HOME=str(home), JUPYTER_CONFIG_DIR=str(home / "jcfg"),
               JUPYTER_DATA_DIR=str(home / "jdata"), JUPYTER_RUNTIME_DIR=str(home / "jrun"),
               JUPYTERLAB_SETTINGS_DIR=str(home / "lab-settings"),
               JUPYTERLAB_WORKSPACES_DIR=str(home / "lab-ws"), IPYTHONDIR=str(home / "ipy"),
               MPLCONFIGDIR=str(home / "mpl"), PYTHONNOUSERSITE="1")
    return env


def test_bare_wheel_course_version_and_one_line_for_each_missing_extra(
        dist: dict[str, Path], tmp_path: Path) -> None:
    """``pip install baccarat-kit`` alone: the engine, exact odds and the course copy work; every
    command that needs an extra (a simulation needs numpy) ends in one line naming it."""
    bin_ = fresh_venv(tmp_path, str(dist["wheel"]))
    env = clean_env(tmp_path)
    kit = str(bin_ / "baccarat-kit")

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([kit, *args], capture_output=True, text=True, cwd=tmp_path, env=env)

    version = run("--version")
    assert version.returncode == 0 and version.stdout.strip() == f"baccarat-kit {bk.__version__}"
    where = run("--lang", "en", "course", "my-course")
    assert where.returncode == 0, where.stderr
    got = sorted(p.relative_to(tmp_path / "my-course").as_posix()
                 for p in (tmp_path / "my-course").rglob("*") if p.is_file())
    assert got == sorted([*course.discover(), course.MANIFEST])
    learner_copy = tmp_path / "my-course" / "exercises" / sorted(
        p.name for p in (REPO / "exercises").glob("*.ipynb"))[0]
    sources = REPO / "exercises" / "source"  # an instructor's (from the sdist or repository)
    exact = run("--lang", "en", "odds")  # exact odds are pure Python (issue 19): no extra needed
    assert exact.returncode == 0 and "house edge" in exact.stdout, exact.stderr
    for args, extra in ((["odds", "--shoes", "10"], "odds"),
                        (["grade", str(learner_copy), "--out", "out", "--source", str(sources)], "grade"),
                        (["lab", "my-course"], "lab")):
        result = run("--lang", "en", *args)
        assert result.returncode == 2, (args, result.stdout, result.stderr)
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and f'pip install "baccarat-kit[{extra}]"' in lines[0], (
            args, result.stderr)
        assert "Traceback" not in result.stderr


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def started(cmd: list[str], env: dict[str, str], cwd: Path, log: Path) -> Iterator[subprocess.Popen[bytes]]:
    with log.open("wb") as out:
        proc = subprocess.Popen(cmd, env=env, cwd=cwd, stdout=out, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL, start_new_session=True)
        try:
            yield proc
        finally:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(timeout=10)


def get(url: str) -> tuple[int, bytes]:
    with urllib.request.urlopen(url, timeout=60) as response:
        return response.status, response.read()


def test_pip_install_lab_then_baccarat_kit_lab_serves_the_first_lesson(
        dist: dict[str, Path], tmp_path: Path) -> None:
    """The whole learner set-up from the wheel: ``pip install "baccarat-kit[lab]"`` then
    ``baccarat-kit lab`` (on loopback, no browser), in a folder outside the repository."""
    bin_ = fresh_venv(tmp_path, f"{dist['wheel']}[lab]")
    env = clean_env(tmp_path)
    port, token = free_port(), secrets.token_hex(16)
    learner = tmp_path / "learner"
    learner.mkdir()
    log = tmp_path / "lab.log"
    cmd = [str(bin_ / "baccarat-kit"), "lab", "--no-browser", "--ip=127.0.0.1",
           f"--port={port}", "--port-retries=0", f"--IdentityProvider.token={token}",
           "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate"]
    with started(cmd, env, learner, log) as proc:
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 600  # its first start, from a fresh venv, on a loaded machine too
        while True:
            assert proc.poll() is None, log.read_text(errors="replace")[-3000:]
            with contextlib.suppress(OSError):
                if get(f"{base}/api/status?token={token}")[0] == 200:
                    break
            assert time.monotonic() < deadline, log.read_text(errors="replace")[-3000:]
            time.sleep(0.3)
        first = course.Spec.load().first
        status, body = get(f"{base}/api/contents/{first}?token={token}")
        lesson = json.loads(body)
        assert status == 200 and lesson["type"] == "notebook"
        assert lesson["content"]["cells"], "the lesson has cells"
        root = json.loads(get(f"{base}/api/contents?token={token}")[1])
        assert sorted(item["name"] for item in root["content"]) == sorted(
            {rel.split("/")[0] for rel in course.discover()})
        exercises = json.loads(get(f"{base}/api/contents/exercises?token={token}")[1])
        assert "source" not in {item["name"] for item in exercises["content"]}
        status, page = get(f"{base}/lab/tree/{first}?token={token}")
        assert status == 200 and b"JupyterLab" in page
    # `baccarat-kit lab` with no folder made ./baccarat-course, the learner's own copy.
    assert (learner / course.DEFAULT_DIR / first).is_file()
    assert (learner / course.DEFAULT_DIR / course.MANIFEST).is_file()


def test_without_the_sources_release_and_grade_say_where_they_come_from(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """An instructor who installed the wheel has no exercises/source (by design): the error
    names the README's command for the source distribution, not just a path."""
    from baccarat_kit.cli import main

    readme = (REPO / "README.md").read_text(encoding="utf-8")
    found = re.search(r"`(pip download [^`]+)`", readme)
    assert found, "the README names the sdist command"
    learner_copy = next((REPO / "exercises").glob("*.ipynb"))
    for argv in (["release", str(tmp_path / "nowhere"), "--out", str(tmp_path / "out")],
                 ["grade", str(learner_copy), "--source", str(tmp_path / "nowhere"), "--out", str(tmp_path / "g"),
                  "--no-sandbox"]):
        for lang in ("en", "zh"):
            assert main(["--lang", lang, *argv]) == 2
            err = capsys.readouterr().err
            assert found.group(1) in err and "nowhere" in err, err
