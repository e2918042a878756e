"""The learner's own copy of the course: ``baccarat-kit course DIR`` and ``baccarat-kit lab``.

A learner never works in the course's source. :func:`install` copies the lessons, the
learners' copies of the exercises and the trainer (the globs in ``data/course.toml``; never
``exercises/source/``) into a folder of their own, and records the hash of every file it
wrote in a manifest (``.baccarat-kit-course.json``) inside that folder. From then on:

* running it again writes only what is missing (a deleted lesson comes back) and never
  touches a file that is already there;
* ``update=True`` (``--update``) brings every file the learner has not changed up to the
  course's current version, and lists the files it kept because the learner changed them.

The same code serves ``make lab`` (folder ``workspace/``), ``pip install baccarat-kit[lab]``
(the course travels inside the wheel), the JupyterLite site and a JupyterHub class (a copy
per learner at first login).

>>> import tempfile, pathlib
>>> with tempfile.TemporaryDirectory() as tmp:
...     first = install(tmp)
...     again = install(tmp)
...     print(first.first_lesson in first.written, again.written)
True ()
"""

from __future__ import annotations

import argparse
import fnmatch
import hashlib
import json
import os
import re
import sys
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

from .errors import BaccaratError
from .i18n import message
from .locations import PACKAGED, repository_root, write_atomic

MANIFEST = ".baccarat-kit-course.json"
MANIFEST_SCHEMA = 1
SPEC = Path(__file__).resolve().parent / "data" / "course.toml"
# A learner's file must never carry a model solution (the markers of exercises/source/).
SOLUTION_MARKER = re.compile(r"#\s*(?:BEGIN |END )?SOLUTION\b")


class CourseError(BaccaratError):
    """The course cannot be found, read or written where asked."""


@dataclass(frozen=True)
class Spec:
    """Which files make up the learner's course (``data/course.toml``)."""

    include: tuple[str, ...]
    exclude: tuple[str, ...]
    first: str

    @classmethod
    def load(cls, path: Path = SPEC) -> Spec:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        return cls(tuple(data["include"]), tuple(data["exclude"]), str(data["first"]))

    def excluded(self, rel: str) -> bool:
        parts = PurePosixPath(rel).parts
        if any(part in {".ipynb_checkpoints", "__pycache__"} for part in parts):
            return True
        return any(fnmatch.fnmatchcase(rel, pattern) for pattern in self.exclude)


def course_root() -> Path:
    """Where the course's files are: inside the installed wheel, else the repository."""
    if PACKAGED.is_dir():
        return PACKAGED
    root = repository_root()
    if root is None:
        raise CourseError("course.not_found", path=PACKAGED)
    return root


def discover(root: Path | None = None, spec: Spec | None = None) -> dict[str, Path]:
    """The course's files under ``root`` as ``{relative posix path: file}``, sorted.

    The include globs are evaluated afresh each time, so a lesson added to ``notebooks/``
    is part of the course without any list to edit.
    """
    root = course_root() if root is None else Path(root)
    spec = Spec.load() if spec is None else spec
    found: dict[str, Path] = {}
    for pattern in spec.include:
        for path in root.glob(pattern):
            rel = path.relative_to(root).as_posix()
            if path.is_file() and not spec.excluded(rel):
                found[rel] = path
    if spec.first not in found:
        raise CourseError("course.not_found", path=root / spec.first)
    return dict(sorted(found.items()))


def solution_lines(data: bytes) -> list[str]:
    """Lines of a notebook's code cells that carry a model-solution marker (should be none)."""
    try:
        nb = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError):
        return []
    bad: list[str] = []
    for cell in nb.get("cells", []):
        if cell.get("cell_type") != "code":
            continue
        src = cell.get("source", "")
        src = src if isinstance(src, str) else "".join(src)
        bad.extend(line.strip() for line in marker_lines(src))
    return bad


def marker_lines(source: str) -> list[str]:
    r"""The lines of a code cell whose comment is a model-solution marker (``# SOLUTION``,
    ``# BEGIN SOLUTION`` …). A marker inside a string is text, not a marker: lesson 09 writes an
    exercise source as data. Code that does not tokenize is read line by line, every mark counted.

    >>> marker_lines('x = 1  # SOLUTION\ntext = "y = 2  # SOLUTION"')
    ['x = 1  # SOLUTION']
    """
    import io
    import tokenize

    lines = source.splitlines()
    try:
        rows = {t.start[0] for t in tokenize.generate_tokens(io.StringIO(source + "\n").readline)
                if t.type == tokenize.COMMENT and SOLUTION_MARKER.search(t.string)}
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return [line for line in lines if SOLUTION_MARKER.search(line)]
    return [lines[row - 1] for row in sorted(rows)]


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


@dataclass(frozen=True)
class Report:
    """What :func:`install` did, file by file (relative paths)."""

    dest: Path
    first_lesson: str
    written: tuple[str, ...]  # new in the folder (first install, a new lesson, a deleted file)
    updated: tuple[str, ...]  # untouched by the learner, brought to the current version
    kept: tuple[str, ...]  # changed by the learner (or theirs): left exactly as it was
    outdated: tuple[str, ...]  # untouched and older than the course; `--update` refreshes them
    retired: tuple[str, ...]  # written by an earlier version, no longer part of the course

    def explain(self, lang: str | None = None) -> str:
        lines = [message("course.report.dest", lang, path=self.dest)]
        for key, files in (("written", self.written), ("updated", self.updated),
                           ("kept", self.kept), ("outdated", self.outdated),
                           ("retired", self.retired)):
            if files:
                lines.append(message(f"course.report.{key}", lang, count=len(files)))
                lines.extend(f"  {name}" for name in files)
        if not (self.written or self.updated or self.kept or self.outdated):
            lines.append(message("course.report.nothing", lang))
        if self.outdated:
            lines.append(message("course.report.hint_update", lang, path=self.dest))
        return "\n".join(lines)


def _read_manifest(dest: Path) -> dict[str, str]:
    path = dest / MANIFEST
    if not path.is_file():
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        files = data["files"]
        if not isinstance(files, dict):
            raise TypeError
        return {str(k): str(v) for k, v in files.items()}
    except (ValueError, KeyError, TypeError) as err:
        raise CourseError("course.bad_manifest", path=path, error=err) from None


def install(dest: str | os.PathLike[str], *, update: bool = False,
            root: Path | None = None) -> Report:
    """Copy the learner's course into ``dest`` without overwriting a file the learner changed.

    ``update=False``: write only files that are missing. ``update=True``: also replace every
    file whose content is still exactly what an earlier run wrote (its hash is in the
    manifest) with the current version. A file whose content differs from what was written
    (the learner's work) is never touched; it is listed in :attr:`Report.kept`.
    """
    from . import __version__

    spec = Spec.load()
    files = discover(root, spec)
    dest = Path(dest).expanduser().resolve()
    source_root = (course_root() if root is None else Path(root)).resolve()
    if dest == source_root:
        raise CourseError("course.dest_is_source", path=dest)
    if dest.exists() and not dest.is_dir():
        raise CourseError("course.dest_not_folder", path=dest)
    old = _read_manifest(dest)
    manifest = dict(old)
    written: list[str] = []
    updated: list[str] = []
    kept: list[str] = []
    outdated: list[str] = []
    for rel, path in files.items():
        data = path.read_bytes()
        bad = solution_lines(data)
        if bad:
            raise CourseError("course.has_solution", path=path, line=bad[0])
        new_hash = sha256(data)
        target = dest / rel
        if not target.exists():
            write_atomic(target, data)
            manifest[rel] = new_hash
            written.append(rel)
            continue
        current = sha256(target.read_bytes()) if target.is_file() else None
        if current == new_hash:
            manifest[rel] = new_hash  # already the current version
        elif current is not None and old.get(rel) == current:
            if update:
                write_atomic(target, data)
                manifest[rel] = new_hash
                updated.append(rel)
            else:
                outdated.append(rel)
        else:
            kept.append(rel)
    _trust([dest / rel for rel in (*written, *updated) if rel.endswith(".ipynb")])
    retired = sorted(rel for rel in old if rel not in files)
    if update:
        for rel in retired:
            manifest.pop(rel, None)
    if manifest != old or not (dest / MANIFEST).exists():
        payload = {"schema": MANIFEST_SCHEMA, "kit_version": __version__,
                   "files": dict(sorted(manifest.items()))}
        write_atomic(dest / MANIFEST,
                      (json.dumps(payload, indent=1, ensure_ascii=False) + "\n").encode())
    return Report(dest, spec.first, tuple(written), tuple(updated), tuple(kept),
                  tuple(outdated), tuple(retired))


def _trust(notebooks: Sequence[Path]) -> None:
    """Mark the course's own notebooks, as the kit wrote them, trusted (``jupyter trust``).

    JupyterLab draws the widget state stored in a lesson only in a trusted notebook, so a
    lesson opened before it is run shows its widgets instead of a text preview. Only files the
    kit has just written are signed, never a learner's changed file (a change drops the
    signature anyway). Without nbformat, or where the signature store cannot be written, the
    lessons stay untrusted and show their static previews: nothing else changes."""
    if not notebooks:
        return
    try:
        import nbformat
        from nbformat.sign import NotebookNotary
    except ImportError:
        return
    try:
        notary = NotebookNotary()
        for path in notebooks:
            nb = nbformat.read(path, as_version=4)
            notary.sign(nb)
    except Exception:  # trust is a convenience; the course works untrusted
        return


# --------------------------------------------------------------------------- JupyterLab


LAB_WORKSPACES = ".jupyterlab-workspaces"
"""The course's own JupyterLab workspaces (``--LabApp.workspaces_dir``), in the course folder:
the layout a learner leaves (open lessons, side bars) is this course's, not every JupyterLab's
in their home, and :func:`first_layout` can give a new learner's first one."""

FIRST_LAYOUT: dict[str, Any] = {
    "left": {"collapsed": True, "visible": True},
    "right": {"collapsed": True, "visible": False},
}
"""The layout a learner's first JupyterLab opens with (the workspace's ``layout-restorer:data``):
the left side bar closed, its activity bar (the file browser's icon, one click away) shown; the
right one (the property inspector and the debugger, which the course never uses) closed and its
activity bar hidden (View → Appearance brings it back). JupyterLab opens the file browser
beside the lesson unless the workspace says otherwise, and on a 390 px phone that left the
lesson 62 px (its text 22 px); with this layout the lesson takes 89 % of the width."""


def first_layout(dest: Path) -> Path | None:
    """Write :data:`FIRST_LAYOUT` as the course's default JupyterLab workspace (in
    :data:`LAB_WORKSPACES`), with JupyterLab's own workspace manager (what ``jupyter lab
    workspaces import`` uses), unless there is one: a layout the learner left is theirs.
    The workspace file written, or None."""
    from jupyterlab_server.workspaces_handler import WorkspacesManager

    manager = WorkspacesManager(str(Path(dest) / LAB_WORKSPACES))
    if manager.load("default").get("data"):
        return None
    workspace = {"data": {"layout-restorer:data": FIRST_LAYOUT}, "metadata": {"id": "default"}}
    return manager.save("default", json.dumps(workspace))


LAB_CONFIG = Path(__file__).resolve().parent / "data" / "jupyter"
"""The course's own Jupyter configuration folder, put first on ``JUPYTER_CONFIG_PATH`` of every
JupyterLab the kit starts on a learner's course (``baccarat-kit lab`` and each learner's server
on the hub, :func:`lab_environment`): its ``labconfig/page_config.json`` turns off JupyterLab's
news plugin, whose pop-up ("Would you like to get notified about official Jupyter news?") greeted
every new learner over her first lesson. The Lite site turns off the same plugin
(``lite/jupyter-lite.json``). Read-only, inside the package: nothing is written into the
learner's home or her Jupyter settings, and her other JupyterLabs are not touched."""


def lab_environment(environ: Mapping[str, str] | None = None) -> dict[str, str]:
    """``environ`` (default: this process's) with :data:`LAB_CONFIG` first on ``JUPYTER_CONFIG_PATH``.

    >>> env = lab_environment({"JUPYTER_CONFIG_PATH": "/etc/mine"})
    >>> env["JUPYTER_CONFIG_PATH"].split(os.pathsep) == [str(LAB_CONFIG), "/etc/mine"]
    True
    """
    env = dict(os.environ if environ is None else environ)
    theirs = [p for p in env.get("JUPYTER_CONFIG_PATH", "").split(os.pathsep) if p and p != str(LAB_CONFIG)]
    env["JUPYTER_CONFIG_PATH"] = os.pathsep.join([str(LAB_CONFIG), *theirs])
    return env


def lab_options(dest: Path, first: str, root: Path | None = None,
                default_url: str = "LabApp") -> list[str]:
    """The server options of a JupyterLab on the course copy ``dest``: it shows ``root`` (default
    ``dest``; a hub shows the learner's home, ``dest`` inside it), opens the first lesson (``first``,
    relative to ``dest``) and keeps the course's own workspaces (:data:`LAB_WORKSPACES`).
    ``default_url``: the application that takes it (``ServerApp`` under ``jupyterhub-singleuser``)."""
    root = Path(dest) if root is None else Path(root)
    url = (Path(dest) / first).relative_to(root).as_posix()
    return [f"--ServerApp.root_dir={root}", f"--{default_url}.default_url=/lab/tree/{url}",
            f"--LabApp.workspaces_dir={Path(dest) / LAB_WORKSPACES}"]


def prepare_lab(dest: str | os.PathLike[str], lang: str | None = None) -> tuple[Report, str]:
    """What every JupyterLab on a learner's course needs first (``baccarat-kit lab`` and a
    learner's server on the hub, ``baccarat-kit hub singleuser``): the course installed or
    completed in ``dest`` (:func:`install`), its first layout (:func:`first_layout`); returns the
    report and the first lesson in her language (relative to ``dest``)."""
    report = install(dest)
    first_layout(report.dest)
    return report, first_lesson(report.dest, report.first_lesson, lang)


def lab_command(dest: Path, first: str, extra: Sequence[str] = ()) -> list[str]:
    """The JupyterLab command that shows only ``dest`` and opens the first lesson, with the
    course's own workspaces (:data:`LAB_WORKSPACES`)."""
    cmd = [sys.executable, "-m", "jupyterlab", *lab_options(Path(dest), first)]
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        cmd.append("--allow-root")  # containers and class machines often run as root
    return cmd + list(extra)


def first_lesson(dest: Path, first: str, lang: str | None = None) -> str:
    """The first lesson in the learner's language: for English, the same lesson in the
    English edition (``notebooks/en/…``) when the course has it.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     (Path(tmp) / "notebooks" / "en").mkdir(parents=True)
    ...     _ = (Path(tmp) / "notebooks" / "en" / "00.ipynb").write_text("{}")
    ...     first_lesson(Path(tmp), "notebooks/00.ipynb", "en"), first_lesson(Path(tmp), "notebooks/00.ipynb", "zh")
    ('notebooks/en/00.ipynb', 'notebooks/00.ipynb')
    """
    from .i18n import normalize_language

    if normalize_language(lang) != "en":
        return first
    english = PurePosixPath(first).parent / "en" / PurePosixPath(first).name
    return english.as_posix() if (Path(dest) / english).is_file() else first


def server_options(port: int | None = None, ip: str | None = None, no_browser: bool = False) -> list[str]:
    """The ``lab`` / ``trainer`` options as a Jupyter server takes them (``--ServerApp.port=8894``
    for JupyterLab; :func:`trainer_command` rewrites them for Voilà)."""
    out = []
    if port is not None:
        out.append(f"--ServerApp.port={port}")
    if ip is not None:
        out.append(f"--ServerApp.ip={ip}")
    if no_browser:
        out.append("--ServerApp.open_browser=False")
    return out


def _exec(cmd: list[str], cwd: Path | None = None, env: Mapping[str, str] | None = None) -> int:
    sys.stderr.flush()
    if cwd is not None:
        os.chdir(cwd)
    if os.name == "posix":
        # the server takes over this process (Ctrl-C stops it)
        os.execve(cmd[0], cmd, dict(os.environ if env is None else env))
    import subprocess  # pragma: no cover - Windows

    return subprocess.call(cmd, env=env)  # pragma: no cover


def lab(dest: str | os.PathLike[str], extra: Sequence[str] = (), *,
        lang: str | None = None) -> int:
    """Install (or complete) the course in ``dest``, then run JupyterLab on it."""
    import importlib.util

    if importlib.util.find_spec("jupyterlab") is None:
        raise ModuleNotFoundError("No module named 'jupyterlab'", name="jupyterlab")
    report, first = prepare_lab(dest, lang)
    print(report.explain(lang), file=sys.stderr)
    return _exec(lab_command(report.dest, first, extra), env=lab_environment())


TRAINER = "trainer/trainer.ipynb"
DEFAULT_TRAINER_PORT = 8866
TRAINER_FILES = (r".*\.(png|jpg|gif|svg)", r"docs/cheat-sheet\.html")
"""The files of the course folder Voilà serves beside the trainer (its ``file_allowlist``, as
regular expressions on the path from the course folder): Voilà's default, images, and the
printable rules sheet the trainer links to. Without them (and the course folder as Voilà's root)
the link answered "403: Forbidden"."""


def trainer_command(dest: Path, *, port: int | None = None, ip: str | None = None,
                    no_browser: bool = False, extra: Sequence[str] = ()) -> list[str]:
    """The Voilà command that serves the course copy's trainer (``dest/trainer/…``).

    Voilà starts the trainer's kernel in ``dest/trainer``, so its progress record is the one
    the lessons keep in ``dest`` (:func:`baccarat_kit.progress.location`: the folder with the
    course manifest): one record for lessons, exercises, drill and trainer. :func:`trainer`
    also names that record in ``BACCARAT_KIT_PROGRESS`` for the server and its kernels."""
    cmd = [sys.executable, "-m", "voila", str(Path(dest) / TRAINER),
           f"--port={port if port is not None else DEFAULT_TRAINER_PORT}",
           f"--Voila.ip={ip or '127.0.0.1'}",
           # the course folder is Voilà's root (the trainer is trainer/trainer.ipynb in it), so
           # its link ../docs/cheat-sheet.html is a file Voilà serves, and only the files
           # TRAINER_FILES allows (never the progress record, the exercises or the lessons)
           f"--Voila.root_dir={Path(dest)}",
           *(f"--VoilaConfiguration.file_allowlist={pattern}" for pattern in TRAINER_FILES)]
    if no_browser:
        cmd.append("--no-browser")
    return cmd + list(extra)


def trainer(dest: str | os.PathLike[str], extra: Sequence[str] = (), *, lang: str | None = None,
            port: int | None = None, ip: str | None = None, no_browser: bool = False) -> int:
    """Install (or complete) the course in ``dest``, then serve its trainer with Voilà."""
    import importlib.util

    if importlib.util.find_spec("voila") is None:
        raise ModuleNotFoundError("No module named 'voila'", name="voila")
    report = install(dest)
    print(report.explain(lang), file=sys.stderr)
    from . import progress

    # The course folder's record, whatever folder Voilà starts the kernel in (the same as the
    # drill branch's progress.environment(dest)); a record the learner chose stays theirs.
    os.environ.setdefault(progress.PROGRESS_ENV, str(report.dest / progress.FILENAME))
    print(message("course.trainer_url", lang, ip=ip or "127.0.0.1",
                  port=port if port is not None else DEFAULT_TRAINER_PORT), file=sys.stderr)
    return _exec(trainer_command(report.dest, port=port, ip=ip, no_browser=no_browser, extra=extra),
                 cwd=report.dest)


def check_folder_argument(argv: Sequence[str], folder: str | None, extra: Sequence[str]) -> None:
    """A folder argument that is really the value of an option passed through to the server
    (``lab --foo 8894``: "8894" would become the course folder) is an error naming the fix."""
    if folder is None or not extra:
        return
    argv = list(argv)
    for i, arg in enumerate(argv[1:], 1):
        if arg == folder and argv[i - 1] in extra and argv[i - 1].startswith("-") and "=" not in argv[i - 1]:
            raise CourseError("course.option_value", option=argv[i - 1], value=folder)


# --------------------------------------------------------------------------- command line

DEFAULT_DIR = "baccarat-course"


def register(sub: Any) -> None:
    p = sub.add_parser(
        "course",
        help="copy the course into a folder of your own / 把課程複製到自己的資料夾",
        description="Copy the lessons, the exercises (learner copies) and the trainer into DIR. "
                    "A file you changed is never overwritten; --update brings the files you did "
                    "not change up to this version of the kit and lists the ones it kept.",
    )
    p.add_argument("dir", nargs="?", default=DEFAULT_DIR,
                   help=f"folder for your copy (default: ./{DEFAULT_DIR})")
    p.add_argument("--update", action="store_true",
                   help="replace files you have not changed with this version's")
    p.add_argument("--list", action="store_true", help="only list the course's files")
    p.set_defaults(func=_cmd_course)

    q = sub.add_parser(
        "lab",
        help="open JupyterLab on your copy of the course / 以 JupyterLab 開啟你的課程",
        description="Copy the course into DIR if needed (as `course DIR`), then open JupyterLab "
                    "showing only DIR, first lesson open. Other JupyterLab options go through as "
                    "--name=value (e.g. --ServerApp.token=…).",
    )
    q.add_argument("dir", nargs="?", default=None,
                   help=f"folder of your copy (default: ./{DEFAULT_DIR})")
    _server_arguments(q, "JupyterLab")
    q.set_defaults(func=_cmd_lab, passthrough=True)

    t = sub.add_parser(
        "trainer",
        help="serve the no-code trainer (Voilà) from your copy of the course / 開啟免寫程式的訓練器",
        description="Copy the course into DIR if needed (as `course DIR`), then serve its trainer "
                    "(trainer/trainer.ipynb) with Voilà: hand builder, rule checker, quiz and drill, "
                    "no code. Its progress is the lessons' record in DIR. Other Voilà options go "
                    "through as --name=value.",
    )
    t.add_argument("dir", nargs="?", default=None,
                   help=f"folder of your copy (default: ./{DEFAULT_DIR})")
    _server_arguments(t, "Voilà", default_port=DEFAULT_TRAINER_PORT)
    t.set_defaults(func=_cmd_trainer, passthrough=True)


def _server_arguments(p: argparse.ArgumentParser, server: str, default_port: int | None = None) -> None:
    shown = f" (default: {default_port})" if default_port else ""
    p.add_argument("--port", type=int, default=None, help=f"the port {server} listens on{shown}")
    p.add_argument("--ip", default=None, help=f"the address {server} listens on (default: only this machine)")
    p.add_argument("--no-browser", action="store_true", help="do not open a browser")


def _cmd_course(args: argparse.Namespace) -> int:
    if args.list:
        for rel in discover():
            print(rel)
        return 0
    print(install(args.dir, update=args.update).explain(args.lang))
    return 0


def _folder(args: argparse.Namespace) -> str:
    extra = getattr(args, "extra", [])
    check_folder_argument(getattr(args, "argv", ()), args.dir, extra)
    return args.dir or DEFAULT_DIR


def _cmd_lab(args: argparse.Namespace) -> int:
    folder = _folder(args)
    options = server_options(args.port, args.ip, args.no_browser)
    return lab(folder, [*options, *getattr(args, "extra", [])], lang=args.lang)


def _cmd_trainer(args: argparse.Namespace) -> int:
    folder = _folder(args)
    return trainer(folder, getattr(args, "extra", []), lang=args.lang, port=args.port, ip=args.ip,
                   no_browser=args.no_browser)

