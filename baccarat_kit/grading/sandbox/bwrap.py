"""Each submission in its own namespaces, with bubblewrap (``bwrap``, the sandbox of Flatpak).

The learner's notebook (:mod:`.runner`) and, separately, each function answer run as::

    bwrap ARGS… -- python …

where ARGS come from one function, :func:`bwrap_argv`, so the whole sandbox can be read (and is
tested) as data. The process then has its own user, PID, IPC, network, UTS and cgroup
namespaces and its own mount namespace in which it sees, read-only, only ``/usr`` (and the
``/lib``, ``/bin`` … links to it), ``/etc/ld.so.cache``, Python's installation, the virtual
environment and the kit's *package* folder; a private ``/tmp`` (a size-limited tmpfs that holds
its working folder and home), a fresh ``/proc`` showing only its own processes and a minimal
``/dev``. It runs as uid/gid 1000 inside with no capabilities, cannot create user namespaces
again, has no network but loopback, and is killed with its whole PID namespace when its
``bwrap`` dies (``--die-with-parent``); ``--new-session`` stops it from reaching the
grader's terminal. System V IPC objects die with the IPC namespace, files with the tmpfs.

When the grader runs as root, ``bwrap`` itself is started as a fresh unprivileged uid (one per
sandbox, never a real account), so the learner's processes are not root outside either: no
file, process or keyring of root's is theirs, and ``RLIMIT_NPROC`` counts only their own
processes. Folders that uid cannot open (a Python under ``/root``) are first bound, in a private
mount namespace of root's (``unshare --mount``), onto world-readable empty folders that
``bwrap`` then binds where Python expects them.

The resource limits (memory, CPU time, processes, file size, open files) are set by the
sandboxed process on itself, inside the namespaces, before any learner code runs
(:func:`set_limits`); Landlock (:mod:`.landlock`) is applied on top where Linux has it. Memory
and the process count for the *whole* sandbox come from its cgroup (:mod:`.cgroup`), which the
first process of the command line joins before anything else runs.
"""

from __future__ import annotations

import functools
import itertools
import json
import os
import shutil
import subprocess
import sys
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .cgroup import Cgroup

INSTALL_COMMAND = "apt-get install bubblewrap"
"""How to install bubblewrap on Debian and Ubuntu (``dnf install bubblewrap`` on Fedora)."""
SANDBOX_UID = 1000
"""The uid and gid learner code has inside its namespaces."""
HOST_UID_BASE = 1_900_000_000
"""When the grader is root, each sandbox runs as a uid from here on (no account has them)."""
TMP_MB = 128
"""Size of the sandbox's private ``/tmp`` (working folder and home included), in MB."""
INSIDE_HOME = "/tmp/home"
INSIDE_WORK = "/tmp/submission"
SYSTEM_LINKS = ("/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
"""Top-level folders that are links into ``/usr`` on merged-/usr systems (bound if they are not)."""
SYSTEM_FILES = ("/etc/ld.so.cache", "/etc/localtime")
"""The only files of ``/etc`` a sandbox sees (no passwords, keys or host configuration)."""


ENV_BWRAP = "BACCARAT_KIT_BWRAP"
"""Names the bwrap program to use (one outside ``PATH``); set to a path that is not a program
(``none``), it hides bubblewrap, to see what a machine without it does."""


def find_bwrap() -> str | None:
    """The bwrap program (``$BACCARAT_KIT_BWRAP``, else on ``PATH``, else ``/usr/bin/bwrap``), or None."""
    named = os.environ.get(ENV_BWRAP, "").strip()
    if named:
        found = shutil.which(named)
        return os.path.abspath(found) if found else None
    return shutil.which("bwrap") or (("/usr/bin/bwrap") if os.access("/usr/bin/bwrap", os.X_OK) else None)


def host_layout() -> dict[str, str]:
    """How this machine's top-level system folders look: ``{path: "link:TARGET"}`` for links
    (``/lib -> usr/lib``), ``{path: "dir"}`` for real folders; absent ones are left out."""
    out: dict[str, str] = {}
    for path in SYSTEM_LINKS:
        if os.path.islink(path):
            out[path] = "link:" + os.readlink(path)
        elif os.path.isdir(path):
            out[path] = "dir"
    return out


def bwrap_argv(
    command: Sequence[str],
    binds: Sequence[tuple[int | str, str]],
    env: Mapping[str, str],
    *,
    layout: Mapping[str, str],
    files: Sequence[str] = SYSTEM_FILES,
    tmp_mb: int = TMP_MB,
    info_fd: int | None = None,
    bwrap: str = "/usr/bin/bwrap",
    masks: Sequence[tuple[str, bool]] = (),
    empty: str | None = None,
) -> list[str]:
    """The whole command line of one sandbox (every bind read-only; see the module docstring).

    ``binds``: ``(source, path)`` pairs bound read-only at ``path``; ``source`` is a folder or an
    open file descriptor (int). ``layout``: :func:`host_layout`. ``files``: host files bound
    read-only when they exist. ``info_fd``: where bwrap writes the host pid of the sandbox's
    init (``{"child-pid": N}``), whose end is the end of every process in it. ``masks``: paths
    (``(path, is_folder)``) hidden after the binds, a folder by ``empty`` (an empty folder), a file
    by ``/dev/null``: the copies of the kit a bound Python folder holds. Nothing is bound writable: the only writable places are the
    tmpfs ``/tmp`` (``tmp_mb`` MB) and ``/dev/shm`` (a part of that size).

    >>> argv = bwrap_argv(["python3", "-c", "pass"], [("/opt/py", "/opt/py")], {"HOME": "/tmp/home"},
    ...                   layout={"/lib": "link:usr/lib", "/lib64": "dir"}, files=())
    >>> argv[argv.index("--dir"):argv.index("--")]  # doctest: +NORMALIZE_WHITESPACE
    ['--dir', '/tmp/home', '--dir', '/tmp/submission', '--ro-bind', '/opt/py', '/opt/py',
     '--remount-ro', '/', '--clearenv', '--setenv', 'HOME', '/tmp/home', '--chdir', '/tmp/submission']
    >>> argv[argv.index("--"):]
    ['--', 'python3', '-c', 'pass']
    >>> [a for a in argv if a.startswith("--bind") or a == "--dev-bind"]
    []
    """
    argv = [
        bwrap,
        "--unshare-all", "--unshare-user", "--disable-userns",
        "--uid", str(SANDBOX_UID), "--gid", str(SANDBOX_UID),
        "--hostname", "sandbox",
        "--cap-drop", "ALL",
        "--die-with-parent", "--new-session",
        "--ro-bind", "/usr", "/usr",
    ]
    for path in sorted(layout):
        kind = layout[path]
        if kind.startswith("link:"):
            argv += ["--symlink", kind[len("link:"):], path]
        else:
            argv += ["--ro-bind", path, path]
    for path in files:
        if os.path.exists(path):
            argv += ["--ro-bind", path, path]
    argv += [
        "--proc", "/proc",
        "--dev", "/dev",
        "--size", str(tmp_mb * 1024 * 1024), "--perms", "1777", "--tmpfs", "/tmp",
        "--size", str(max(tmp_mb // 4, 1) * 1024 * 1024), "--perms", "1777", "--tmpfs", "/dev/shm",
        "--dir", INSIDE_HOME, "--dir", INSIDE_WORK,
    ]
    for source, path in binds:
        if isinstance(source, int):
            argv += ["--ro-bind-fd", str(source), path]
        else:
            argv += ["--ro-bind", source, path]
    for path, is_folder in masks:
        argv += ["--ro-bind", (empty or "/var/empty") if is_folder else "/dev/null", path]
    if info_fd is not None:
        argv += ["--info-fd", str(info_fd)]
    argv += ["--remount-ro", "/", "--clearenv"]
    for key in sorted(env):
        argv += ["--setenv", key, env[key]]
    argv += ["--chdir", INSIDE_WORK, "--", *command]
    return argv


PREFIX_PARTS = ("bin", "lib", "lib64", "lib32", "pyvenv.cfg")
"""What Python needs of each of its prefixes (the installation, the virtual environment): its
programs, its library folders (standard library, ``site-packages``, ``libpython``) and a virtual
environment's ``pyvenv.cfg``. Not the rest of a prefix, where copies of the kit may lie that no
name gives away: ``<venv>/src/<name>`` (``pip install -e git+…``), conda's ``pkgs/`` and
``envs/``, a wheel or an sdist left there (redteam, issue 30)."""


def python_folders() -> list[str]:
    """What Python needs (:data:`PREFIX_PARTS` of each prefix, the folder of the executable, other
    ``site-packages`` folders on ``sys.path``): folders, and ``pyvenv.cfg`` files. Never the kit's
    package (a grading run holds only the exercise API, :mod:`.api_tree`; copies of the kit
    inside these folders are masked) and no other entry of ``sys.path``: ``python -m`` and pytest
    put the current folder there, which may be the checkout with the instructor's sources."""
    prefixes = {sys.base_prefix, sys.base_exec_prefix, sys.prefix, sys.exec_prefix}
    wanted = [os.path.join(p, part) for p in prefixes for part in PREFIX_PARTS]
    wanted.append(os.path.dirname(os.path.realpath(sys.executable)))
    wanted += [p for p in sys.path if p and os.path.isabs(p) and os.path.basename(p) in ("site-packages", "dist-packages")]
    out: list[str] = []
    for path in sorted({os.path.realpath(p) for p in wanted if os.path.exists(p)}, key=len):
        if path == "/" or path == "/usr" or path.startswith("/usr/"):
            continue
        if any(path == o or path.startswith(o + "/") for o in out):
            continue
        if os.path.isdir(path) or (os.path.isfile(path) and os.path.basename(path) == "pyvenv.cfg"):
            out.append(path)
    return out


@dataclass(frozen=True)
class Sandbox:
    """How learner code is started: ``bwrap`` (namespaces) or ``none`` (``--no-sandbox``)."""

    kind: str
    bwrap: str | None = None

    @property
    def isolated(self) -> bool:
        return self.kind == "bwrap"

    def describe(self) -> str:
        from .landlock import abi_version

        abi = abi_version()
        landlock = f"landlock ABI {abi}" if abi else "no Landlock"
        if self.isolated:
            return f"bubblewrap namespaces (user, pid, ipc, net, uts, mount) + {landlock}"
        return f"NONE: --no-sandbox (learner code ran as the grader's user; {landlock})"

    def popen(self, command: Sequence[str], env: Mapping[str, str], cgroup: Cgroup | None = None,
              **kwargs: object) -> subprocess.Popen[bytes]:
        """Start ``command`` (a Python command line) in a fresh sandbox; stdin/stdout pipes,
        stderr to /dev/null, a new session. Without isolation it runs as is, in a temporary
        working folder that the caller removes (``kwargs['cwd']``). With ``cgroup``, the very
        first process joins it before anything else runs (:meth:`.cgroup.Cgroup.wrap`)."""
        def joined(argv: list[str]) -> list[str]:
            return cgroup.wrap(argv) if cgroup is not None else argv

        if not self.isolated:
            cwd = kwargs.get("cwd")
            return subprocess.Popen(joined(list(command)), env=dict(env), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                    stderr=subprocess.DEVNULL, start_new_session=True,
                                    cwd=str(cwd) if cwd is not None else None)
        assert self.bwrap is not None
        kwargs.pop("cwd", None)
        from . import api_tree

        folders = python_folders()
        api = api_folder()
        masks, empty = _kit_copies(tuple(folders)), os.path.join(os.path.dirname(api), "empty")
        info_read, info_write = os.pipe()
        try:
            if os.geteuid() != 0:
                argv = bwrap_argv(command, [*[(f, f) for f in folders], (api, api_tree.INSIDE)], env,
                                  layout=host_layout(), info_fd=info_write, bwrap=self.bwrap, masks=masks, empty=empty)
            else:
                # bwrap runs as a fresh unprivileged uid. Folders that uid cannot reach (a Python
                # under /root) are first bound, in a private mount namespace of root's, onto
                # world-readable empty folders, which bwrap then binds where Python expects them.
                uid = _host_uid()
                stage = _stage_folder()
                binds: list[tuple[int | str, str]] = []
                staged: list[str] = []
                for i, folder in enumerate(folders):
                    if _world_readable(folder):
                        binds.append((folder, folder))
                    else:
                        target = os.path.join(stage, str(i))
                        if os.path.isfile(folder):  # pyvenv.cfg: a file is bound onto a file
                            if not os.path.exists(target):
                                os.close(os.open(target, os.O_CREAT | os.O_WRONLY, 0o644))
                        else:
                            os.makedirs(target, mode=0o755, exist_ok=True)
                        staged += [folder, target]
                        binds.append((target, folder))
                binds.append((api, api_tree.INSIDE))
                inner = bwrap_argv(command, binds, env, layout=host_layout(), info_fd=info_write, bwrap=self.bwrap,
                                   masks=masks, empty=empty)
                argv = ["setpriv", f"--reuid={uid}", f"--regid={uid}", "--clear-groups", "--", *inner]
                if staged:
                    argv = ["unshare", "--mount", "--propagation", "private", "--", "/bin/sh", "-c", STAGE_SCRIPT,
                            "sh", *staged, "--", *argv]
            proc = subprocess.Popen(joined(argv), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                    start_new_session=True, env={"PATH": "/usr/sbin:/usr/bin:/sbin:/bin"}, cwd="/",
                                    pass_fds=[info_write])
        except BaseException:
            os.close(info_read)
            raise
        finally:
            os.close(info_write)
        with _info_lock:
            _info[proc.pid] = info_read
        return proc

    def end(self, proc: subprocess.Popen[bytes], grace: float = 1.0) -> None:
        """End a sandbox: wait ``grace`` seconds for it to finish by itself, else SIGKILL its
        ``bwrap`` (whose init, and with it the whole PID namespace, then dies); return only
        once its init has ended (every process of the submission ended and reaped, its IPC
        namespace and tmpfs freed)."""
        import signal
        import time

        try:
            proc.wait(grace)
        except subprocess.TimeoutExpired:
            pass
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        proc.wait()
        child = self.sandbox_pid(proc) or 0
        with _info_lock:
            _children.pop(proc.pid, None)
        deadline = time.monotonic() + 10
        while child > 0 and _alive(child) and time.monotonic() < deadline:
            time.sleep(0.01)


    def sandbox_pid(self, proc: subprocess.Popen[bytes]) -> int | None:
        """The host pid of the sandbox's init (bwrap's ``--info-fd``), once bwrap has written it
        (it does before the command runs), else None; read once."""
        with _info_lock:
            if proc.pid in _children:
                return _children[proc.pid]
            fd = _info.pop(proc.pid, None)
            if fd is None:
                return None
            try:
                os.set_blocking(fd, False)
                try:
                    info = os.read(fd, 4096)
                except BlockingIOError:
                    info = b""
            finally:
                os.close(fd)
            try:
                child = int(json.loads(info.decode("utf-8", "replace").split("\n\n")[0] or "{}").get("child-pid", 0))
            except (ValueError, AttributeError):
                child = 0
            _children[proc.pid] = child or None
            return child or None


@functools.cache
def api_folder() -> str:
    """This process's copy of the grading run's own folder (:mod:`.api_tree`: the exercise API as
    the only ``baccarat_kit``, and the runner), made once in a locked stage folder that the next
    grader sweeps if this one is killed (removed at exit), with an empty folder ``empty`` beside
    it that masks copies of the kit."""
    import atexit
    import tempfile

    from .api_tree import build

    stage = new_stage(tempfile.gettempdir())
    if os.geteuid() == 0 and not _world_readable(stage):  # $TMPDIR in a closed folder
        shutil.rmtree(stage, ignore_errors=True)
        os.close(_stage_locks.pop())
        stage = new_stage("/tmp")
    atexit.register(shutil.rmtree, stage, True)
    os.mkdir(os.path.join(stage, "empty"), 0o755)
    os.chmod(os.path.join(stage, "empty"), 0o755)
    return str(build(os.path.join(stage, "api")))


@functools.cache
def _kit_copies(folders: tuple[str, ...]) -> list[tuple[str, bool]]:
    from .api_tree import kit_copies

    return kit_copies(list(folders))


def _alive(pid: int) -> bool:
    """Whether ``pid`` still runs: a zombie has ended (a PID namespace's init becomes one only
    after every other process of its namespace has been killed and reaped)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            stat = fh.read()
    except OSError:
        return False
    return stat[stat.rindex(b")") + 2:][:1] not in (b"Z", b"X")


_info_lock = threading.Lock()
_info: dict[int, int] = {}
"""Read ends of bwrap's ``--info-fd`` pipes, by the pid of the ``bwrap`` (or its wrapper)."""
_children: dict[int, int | None] = {}
"""What :meth:`Sandbox.sandbox_pid` read, by the same pid, until :meth:`Sandbox.end`."""


STAGE_SCRIPT = 'set -e; while [ "$1" != "--" ]; do mount --bind -o ro "$1" "$2"; shift 2; done; shift; exec "$@"'
"""Binds ``SRC DST`` pairs (in root's private mount namespace), then runs the rest."""


def _world_readable(path: str) -> bool:
    """Whether a uid with no account and no groups can list ``path`` (every folder above it
    searchable by others, the folder itself readable and searchable; a file, readable)."""
    import stat

    parts = os.path.realpath(path).split("/")
    last = len(parts) if os.path.isdir(path) else len(parts) - 1
    for i in range(1, last + 1):
        here = "/".join(parts[:i]) or "/"
        try:
            mode = os.stat(here).st_mode
        except OSError:
            return False
        if not mode & stat.S_IXOTH:
            return False
    return bool(os.stat(path).st_mode & stat.S_IROTH)


STAGE_PREFIX = "bk-grader-stage-lockfile-"
"""(``bk-grader-stage-locked-…`` folders are an earlier kit's, locked through the folder itself,
which any user can open and lock too; ``bk-grader-stage-…`` only, an earlier one's still, with no
lock: one may be a live grader's, so neither is ever swept.)"""
STAGE_LOCK = ".lock"
"""The file in a stage folder its grader holds a ``flock`` on: 0600, the grader's own, so no other
user can open it, let alone lock it (a lock of hers on the folder itself means nothing)."""
STALE_AFTER_S = 60.0
"""A stage folder nobody holds is removed once it is this old (it is locked within moments of
being made, so a younger one may be a grader's that is just starting)."""
SWEEP_AT_MOST = 64
"""Stage folders one sweep looks at (a killed grader leaves one; the next sweep takes more)."""
_stage_locks: list[int] = []
"""The descriptors this process holds its stage folder's lock through (closed at exit only)."""


def new_stage(parent: str | None = None) -> str:
    """A new world-readable folder, ``STAGE_PREFIX…`` in ``parent`` (default: the temporary
    folder), whose :data:`STAGE_LOCK` this process holds locked (``flock``) for as long as it lives."""
    import fcntl
    import tempfile

    folder = tempfile.mkdtemp(prefix=STAGE_PREFIX, dir=parent)
    # The lock file is made and locked while the folder is still 0700, and stays 0600: no other
    # user can open it (to lock it first, or to hold it after this grader is gone); never waits.
    dir_fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)
    try:
        fd = os.open(STAGE_LOCK, os.O_RDWR | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600,
                     dir_fd=dir_fd)
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        _stage_locks.append(fd)
        os.fchmod(dir_fd, 0o755)
    finally:
        os.close(dir_fd)
    return folder


def _held(dir_fd: int) -> bool:
    """Whether a live grader holds the stage folder open as ``dir_fd``: its :data:`STAGE_LOCK` is
    this user's regular file and locked (no lock file: a grader killed before it made one)."""
    import fcntl
    import stat

    try:
        fd = os.open(STAGE_LOCK, os.O_RDWR | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, dir_fd=dir_fd)
    except FileNotFoundError:
        return False
    except OSError:
        return True  # a link or something else there: not ours to judge, left alone
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_uid != os.geteuid():
            return True
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            return True  # a live grader's
        return False
    finally:
        os.close(fd)


def sweep_stale_stages(parent: str, min_age: float = STALE_AFTER_S) -> list[str]:
    """Remove the stage folders in ``parent`` left by graders that are gone (one killed with
    SIGKILL never ran its ``atexit``); return their paths. A folder is a dead grader's when it
    is this user's own directory (not a link, not another user's), no process holds its
    :data:`STAGE_LOCK` (a live grader does, until it exits however it exits; no other user can
    open it) and it is at least ``min_age`` s old. A lock on the folder itself is ignored: anyone
    can take one."""
    import stat
    import time

    removed: list[str] = []
    names: list[str] = []
    try:  # streamed, and at most SWEEP_AT_MOST of them: what others name so cannot grow this
        with os.scandir(parent) as entries:
            for entry in entries:
                if entry.name.startswith(STAGE_PREFIX):
                    names.append(entry.name)
                    if len(names) >= SWEEP_AT_MOST:
                        break
    except OSError:
        return removed
    for name in names:
        path = os.path.join(parent, name)
        try:
            fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)
        except OSError:
            continue  # a link, a file, gone already
        try:
            info = os.fstat(fd)
            if (info.st_uid != os.geteuid() or not stat.S_ISDIR(info.st_mode)
                    or time.time() - info.st_mtime < min_age or _held(fd)):
                continue
            shutil.rmtree(path, ignore_errors=True)
            if not os.path.lexists(path):
                removed.append(path)
        finally:
            os.close(fd)
    return removed


@functools.cache
def _stage_folder() -> str:
    """An empty, world-readable folder of this grader's (removed at exit, and by the next grader
    if this one is killed: :func:`sweep_stale_stages`) for :data:`STAGE_SCRIPT`."""
    import atexit
    import tempfile

    parent = tempfile.gettempdir()
    sweep_stale_stages(parent)
    folder = new_stage(parent)
    if not _world_readable(folder):  # $TMPDIR in a closed folder: the sandbox's uid could not reach it
        shutil.rmtree(folder, ignore_errors=True)
        os.close(_stage_locks.pop())
        sweep_stale_stages("/tmp")
        folder = new_stage("/tmp")
    atexit.register(shutil.rmtree, folder, True)
    return folder


_uid_lock = threading.Lock()
_uid_counter = itertools.count()


def _host_uid() -> int:
    """A uid no account and no other sandbox of this grader uses (the grader is root)."""
    with _uid_lock:
        n = next(_uid_counter)
    return host_uids()[n % 1024]


def host_uids(pid: int | None = None) -> range:
    """The uids :func:`_host_uid` gives the sandboxes of the grader with process id ``pid``
    (default: this one), so a check can look at its own sandboxes only, not at those of another
    grader running on the same machine."""
    first = HOST_UID_BASE + ((os.getpid() if pid is None else pid) % 65536) * 1024
    return range(first, first + 1024)


class SandboxMissing(RuntimeError):
    """No working bubblewrap here: ``reason`` is ``missing`` (no bwrap program) or ``broken``
    (bwrap cannot make the namespaces: ``detail`` says why); the message names both."""

    def __init__(self, reason: str, message: str, detail: str = "") -> None:
        super().__init__(message)
        self.reason = reason
        self.detail = detail


@functools.cache
def check() -> Sandbox:
    """A working bubblewrap sandbox, tried once (a Python started in it must report uid 1000
    and no capabilities), or :class:`SandboxMissing` saying what is wrong."""
    bwrap = find_bwrap()
    if bwrap is None:
        raise SandboxMissing("missing", f"bubblewrap (bwrap) is not installed; install it with `{INSTALL_COMMAND}`")
    box = Sandbox("bwrap", bwrap)
    probe = "import os; print(os.getuid(), open('/proc/self/status').read().split('CapEff:')[1].split()[0])"
    try:
        proc = box.popen([sys.executable, "-I", "-S", "-c", probe], {"PATH": "/usr/bin:/bin"})
        out, _ = proc.communicate(timeout=30)
    except (OSError, subprocess.SubprocessError) as err:
        raise SandboxMissing("broken", f"bubblewrap ({bwrap}) could not be started: {err}", str(err)) from err
    if proc.returncode != 0 or out.split() != [str(SANDBOX_UID).encode(), b"0000000000000000"]:
        detail = _why_not(bwrap)
        raise SandboxMissing("broken", f"bubblewrap ({bwrap}) cannot create the sandbox here: {detail}", detail)
    return box


def _why_not(bwrap: str) -> str:
    try:
        proc = subprocess.run([bwrap, "--unshare-user", "--ro-bind", "/", "/", "true"], capture_output=True,
                              timeout=30, check=False)
        err = proc.stderr.decode(errors="replace").strip()
    except (OSError, subprocess.SubprocessError) as exc:
        err = str(exc)
    return (err or "unknown error") + (
        " (user namespaces must be allowed: sysctl user.max_user_namespaces, "
        "kernel.unprivileged_userns_clone or kernel.apparmor_restrict_unprivileged_userns)")


from .limits import set_limits  # noqa: E402,F401  (where it always was)
