"""The learners' environment: readable by every learner, writable by none.

A learner's server runs as their own uid, so it needs an interpreter, the kit and JupyterLab it
can read. The instructor's own ones often cannot serve: a pyenv Python lives under root's 0700
home (and links its ``libpython`` from there), and a clone may sit in a 0700 folder. So
``baccarat-kit hub setup PREFIX`` builds ``PREFIX/venv`` (root's, mode 0755, files 0644):

1. an interpreter every user can run: the current one if its executable and standard library
   are reachable by others, else the system's ``/usr/bin/python3`` (Debian's; 3.11 or later);
2. a virtual environment of it with ``baccarat-kit[hub]`` installed *non-editable* (a wheel:
   the lessons and learner copies of the exercises inside, never ``exercises/source``), from
   this clone when the kit runs from one, else from the package index;
3. its kernels' IPython configuration (``venv/etc/ipython/ipython_kernel_config.json``): every
   kernel loads :mod:`.notice`, which tells a learner once that her last kernel was stopped for
   memory, and why;
4. a check: the environment's Python imports the kit and JupyterLab as an unprivileged uid
   (``setpriv``, when run as root).

Run again after a ``git pull`` (``make hub-setup``): it upgrades the environment in place. The
hub itself never runs it (``make hub`` only starts the hub), so a pull never changes the kit
under learners' running servers until the instructor says so.

:func:`close_clone` then takes every permission of "others" off the clone's top folder, so no
learner reaches the instructor sources, the answer keys in ``.git`` or the instructor's venv.
"""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

from .classlist import HubError
from .notice import KERNEL_CONFIG

DEFAULT_PREFIX = Path("/opt/baccarat-hub")
NOBODY = 65534
MIN_VERSION = (3, 11)


def reachable_by_others(path: str | Path, *, execute: bool = False) -> bool:
    """Whether a user who is neither owner nor in the group can read (or run) ``path``:
    every folder above it searchable by others, the file readable (and executable)."""
    target = Path(os.path.realpath(path))
    try:
        for folder in [*reversed(target.parents)]:
            if not os.stat(folder).st_mode & stat.S_IXOTH:
                return False
        mode = os.stat(target).st_mode
    except OSError:
        return False
    need = stat.S_IROTH | (stat.S_IXOTH if execute or stat.S_ISDIR(mode) else 0)
    return mode & need == need


def _stdlib_of(python: str) -> str | None:
    try:
        out = subprocess.run([python, "-I", "-c", "import os, sys; print(os.__file__); "
                              f"print(sys.version_info >= {MIN_VERSION!r})"],
                             capture_output=True, text=True, check=True, timeout=60).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    lines = out.split()
    return lines[0] if len(lines) == 2 and lines[1] == "True" else None


def learner_python(explicit: str | None = None) -> str:
    """The interpreter the learners' environment is built on (see the module docstring)."""
    base = getattr(sys, "_base_executable", sys.executable)
    candidates = [explicit] if explicit else [base, "/usr/bin/python3"]
    for python in candidates:
        if not python or not reachable_by_others(python, execute=True):
            continue
        lib = _stdlib_of(python)
        if lib and reachable_by_others(lib):
            return os.path.realpath(python)
    raise HubError("hub.no_python", tried=", ".join(c for c in candidates if c))


def _uv() -> str | None:
    found = shutil.which("uv")
    beside = Path(sys.executable).parent / "uv"
    return found or (str(beside) if beside.is_file() else None)


def requirement(extra: str = "hub") -> str:
    """What to install: this clone (non-editable) when the kit runs from one, else the index's."""
    from .. import __version__
    from ..locations import repository_root

    root = repository_root()
    return f"{root}[{extra}]" if root is not None else f"baccarat-kit[{extra}]=={__version__}"


def build(prefix: str | Path = DEFAULT_PREFIX, *, python: str | None = None,
          spec: str | None = None) -> Path:
    """Make (or bring up to date) ``PREFIX/venv``; returns its ``bin`` folder."""
    prefix = Path(prefix).absolute()
    interpreter = learner_python(python)
    spec = spec or requirement()
    venv = prefix / "venv"
    old = os.umask(0o022)
    try:
        prefix.mkdir(parents=True, exist_ok=True)
        os.chmod(prefix, 0o755)
        py = venv / "bin" / "python"
        uv = _uv()
        if uv:
            if not py.exists():
                subprocess.run([uv, "venv", "--quiet", "--python", interpreter, str(venv)], check=True)
            overrides = Path(__file__).resolve().parents[1] / "data" / "uv-overrides.txt"
            subprocess.run([uv, "pip", "install", "--quiet", "--compile-bytecode", "--python", str(py),
                            "--override", str(overrides), spec], check=True)
        else:
            if not py.exists():
                subprocess.run([interpreter, "-m", "venv", str(venv)], check=True)
            subprocess.run([str(py), "-m", "pip", "install", "--quiet", spec], check=True)  # pip compiles
        # The learners' env is read-only to them (and to the grader's sandboxes): its bytecode is
        # compiled now, or every kernel and submission compiles IPython again. uv compiles only
        # what this run installed, so the rest of an older env is compiled here (a second run
        # only checks).
        subprocess.run([str(py), "-c", "import compileall, sysconfig\nfor p in {sysconfig.get_path('purelib'), "
                        "sysconfig.get_path('platlib')}: compileall.compile_dir(p, quiet=1, workers=0)"],
                       check=True)
        kernels = venv / "etc" / "ipython"
        kernels.mkdir(parents=True, exist_ok=True)
        (kernels / "ipython_kernel_config.json").write_text(json.dumps(KERNEL_CONFIG, indent=1) + "\n",
                                                          encoding="utf-8")
    finally:
        os.umask(old)
    if not reachable_by_others(py, execute=True):
        raise HubError("hub.env_unreadable", path=venv)
    if os.geteuid() == 0 and shutil.which("setpriv"):
        check = subprocess.run(
            ["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups", str(py), "-c",
             "import baccarat_kit, jupyterlab, jupyterhub"], capture_output=True, text=True,
            cwd="/", check=False)
        if check.returncode != 0:
            raise HubError("hub.env_unreadable", path=f"{venv}: {check.stderr.strip()[-300:]}")
    return venv / "bin"


def close_clone(repo: str | Path) -> bool:
    """Take "others" off the clone's top folder (0750 at most); True if it was open."""
    mode = os.stat(repo).st_mode
    if mode & 0o007:
        os.chmod(repo, stat.S_IMODE(mode) & ~0o007)
        return True
    return False
