"""The grading run's own folder: the exercise API as the only ``baccarat_kit``, and the runner.

Every grading sandbox (and the fresh process ``check()`` asks for the grader's verdict) imports
from one folder, made once per grading process from files that hold no rule code:

* ``baccarat_kit/``: :mod:`.exercise_api` (``set_language``, ``grading.Checker``, ``hands_for``,
  ``settlement_for``, ``Ledger.from_csv``), copied unchanged;
* ``bk_sandbox/``: :mod:`.runner`, :mod:`._extract`, :mod:`.landlock`, :mod:`.limits`, copied.

In bubblewrap this folder (:func:`.bwrap.api_folder`) is bound read-only at :data:`INSIDE`; every copy of the real kit that a
bound Python folder holds (a wheel in ``site-packages``, an editable install's finder and ``.pth``,
a hub environment) is masked by an empty folder or ``/dev/null`` (:func:`kit_copies`), and the
kit's checkout is never bound. So learner code finds no rule code to import, read or re-run.
"""

from __future__ import annotations

import glob
import os
import shutil
import sys
from pathlib import Path

from . import ran as _ran

INSIDE = "/bk-api"
"""Where the folder is bound in a sandbox."""
HERE = Path(__file__).resolve().parent
RUNNER_FILES = ("runner.py", "_extract.py", "landlock.py", "limits.py", "ran.py")
BOOT = ("import sys; sys.path.insert(0, sys.argv[1]); del sys.argv[1:]; "
        "from bk_sandbox.runner import main; raise SystemExit(main())")
"""``python -I -c BOOT FOLDER``: the runner, from the folder, with it first on ``sys.path``."""


def build(target: str | os.PathLike[str]) -> Path:
    """Write the folder's files into ``target`` (world-readable, never a file of rule code)."""
    root = Path(target)
    api = root / "baccarat_kit"
    run = root / "bk_sandbox"
    for folder in (root, api, run):
        folder.mkdir(mode=0o755, exist_ok=True)
        os.chmod(folder, 0o755)
    for source in sorted((HERE / "exercise_api").glob("*.py")):
        shutil.copyfile(source, api / source.name)
    for name in RUNNER_FILES:
        shutil.copyfile(HERE / name, run / name)
    (run / "__init__.py").write_text('"""The grading run\'s runner (copied from baccarat_kit.grading.sandbox)."""\n',
                                     encoding="utf-8")
    import compileall

    compileall.compile_dir(str(root), quiet=2)  # bytecode beside it: a sandbox cannot write any
    for path in root.rglob("*"):
        os.chmod(path, 0o755 if path.is_dir() else 0o644)
    return root


KIT_NAMES = ("baccarat_kit", "baccarat_kit-*", "baccarat_kit.*", "__editable__*baccarat_kit*",
             "__editable__.baccarat_kit*", "_baccarat_kit*", "baccarat-kit*", "*baccarat_kit*.pth",
             "*baccarat_kit*.egg-link", "__pycache__/*baccarat_kit*")
"""What a Python folder may hold of the kit: the package, its metadata, an editable install's
finder and ``.pth`` (and their bytecode), an egg link."""


def _package_folders(folders: list[str]) -> list[str]:
    out: set[str] = set()
    for entry in sys.path:
        if entry and os.path.isabs(entry) and os.path.isdir(entry):
            out.add(os.path.realpath(entry))
    for base in [*folders, "/usr", "/usr/local"]:
        for pattern in ("lib*/python3*/site-packages", "lib*/python3*/dist-packages", "lib/python3/dist-packages",
                        "python3*/site-packages", "python3*/dist-packages",
                        "local/lib/python3*/site-packages", "local/lib/python3*/dist-packages"):
            out.update(os.path.realpath(p) for p in glob.glob(os.path.join(base, pattern)))
    return sorted(out)


def kit_copies(folders: list[str]) -> list[tuple[str, bool]]:
    """Every copy of the kit (``(path, is_folder)``) inside the folders a sandbox binds or ``/usr``:
    each is masked there (a folder by an empty one, a file by ``/dev/null``)."""
    bound = [os.path.realpath(f) for f in folders] + ["/usr"]
    found: dict[str, bool] = {}
    for place in _package_folders(folders):
        if not any(place == b or place.startswith(b + "/") for b in bound):
            continue
        for pattern in KIT_NAMES:
            for path in glob.glob(os.path.join(place, pattern)):
                if os.path.islink(path):  # its target is not bound (or is masked where it is)
                    continue
                if os.path.isdir(path) or os.path.isfile(path):
                    found[path] = os.path.isdir(path)
    for path in _nested_copies(bound):
        found[path] = True
    for path in interpreter_modules():  # masked like the kit's copies (issue 43)
        if any(path.startswith(b + "/") for b in bound):
            found[path] = False
    return sorted(found.items())


SUBINTERPRETERS = _ran.SUBINTERPRETERS
"""The modules that start a sub-interpreter (:data:`.ran.SUBINTERPRETERS`): each file is masked in
a sandbox; one built into Python cannot be masked, and importing it is a trace."""


def interpreter_modules() -> list[str]:
    """The files of :data:`SUBINTERPRETERS` this Python would load."""
    import importlib.util

    out = []
    for name in SUBINTERPRETERS:
        try:
            spec = importlib.util.find_spec(name)
        except (ImportError, ValueError):
            continue
        origin = getattr(spec, "origin", None)
        if isinstance(origin, str) and os.path.isfile(origin):
            out.append(os.path.realpath(origin))
    return out


def _nested_copies(folders: list[str]) -> list[str]:
    """Every folder below ``folders`` (not ``/usr``: too large, and bound for its system files;
    its Python folders are searched by name above) that holds a ``rules.py`` with the kit's rule
    table: a copy of the kit under any name at any depth (a vendored ``_vendor/baccarat_kit``, a
    source tree in ``lib/``; redteam 14:15). One walk per grading process, never following links."""
    out: list[str] = []
    stack = [f for f in folders if f != "/usr" and not f.startswith("/usr/") and os.path.isdir(f)]
    while stack:
        here = stack.pop()
        try:
            with os.scandir(here) as entries:
                for entry in entries:
                    if entry.is_dir(follow_symlinks=False):
                        if entry.name != "__pycache__":
                            stack.append(entry.path)
                    elif entry.name == "rules.py" and _is_rules(entry.path):
                        out.append(here)
        except OSError:
            continue
    return out


def _is_rules(path: str) -> bool:
    try:
        with open(path, "rb") as fh:
            return RULE_MARK.encode() in fh.read(1 << 16)
    except OSError:
        return False


RULE_MARK = "BANKER_DRAWS_ON"
"""The rule table's name in ``rules.py``: a folder whose ``rules.py`` holds it is a copy of the kit,
whatever its name."""
