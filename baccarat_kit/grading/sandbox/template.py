"""A pre-imported runner: Python and IPython started once per grading process, forked into each
submission's own sandbox (issue 32: starting Python and importing IPython in each sandbox was
more than half of what a submission cost, 0.1 of 0.2 CPU-s).

The sandbox itself is made as before, by bubblewrap, per submission (:mod:`.bwrap`: its own
user, PID, IPC, network, UTS, cgroup and mount namespaces, its own host uid when the grader is
root, its own cgroup, the kit absent); only its command is a placeholder (``/bin/sh`` waiting
on a pipe) instead of ``python -I -c BOOT``. Then the **template**, a ``python -I -S`` started by
the grader beside it (this file's text), with IPython imported and nothing of the kit's or of any
submission's, forks; the fork

1. puts itself into the submission's cgroup (still the grader's uid, outside any namespace),
   drops its supplementary groups (as root), then joins the placeholder's namespaces with
   ``setns`` (each one checked against what the grader read of the placeholder; a template that
   is not root first joins the user namespace that owns them), and forks again: the second fork
   is a process of the sandbox's PID namespace. The first says the second's host pid on the
   grader's pipe (``forked PID``: the grader's clock follows that process tree too) and ends;
   the template, a child subreaper, adopts and reaps the runner at once (the kernel gives an
   orphan to a reaper of its parent's PID namespace, and the sandbox's init waits for it);
2. the second becomes what bwrap's own process is (:func:`_become_the_sandbox`): uid and gid
   1000, no capability in any set (bounding and ambient included), ``no_new_privs``, a session
   of its own, dumpable; it checks all of it in its ``/proc/self`` and refuses to go on otherwise
   (``enter-failed …`` on the grader's pipe: the grader then starts the submission the old way
   and gives the template up);
3. runs ``site.main()`` (the sandbox's own ``.pth`` files, as a ``python -I`` started there would),
   puts the grading run's folder first on ``sys.path`` and runs :func:`.runner.main`, which
   sets the limits, confines itself with Landlock and forks the supervisor and the learner process
   exactly as before.

So every submission still has fresh namespaces, its own cgroup and (as root) its own uid;
nothing outlives it (it is a process of the sandbox's PID namespace, which ends with bwrap);
limits, Landlock and the rest come after the fork. What differs from a Python started inside
(docs/threat-model.md): ``sys.flags.no_site`` is 1, ``sys.orig_argv`` names this template, IPython's
modules were imported before the cells' folder existed (from the same files the sandbox binds:
the template refuses to serve if a module it holds comes from elsewhere), and the pages they
fill are shared with the template (copy on write), so they count in the grader's cgroup, not in
the sandbox's memory limit.

It also forks the grader's readers (:mod:`.reader`, a fresh memory-limited process per file as
before, without starting Python: ``{"kind": "read"}``).

Standard library only; run as ``python -I -S -c TEXT FD FOLDERS`` (FOLDERS: what the sandbox
binds, :func:`.bwrap.python_folders`, as JSON), where FD is a Unix socket: each
message there is one JSON request with two descriptors (the job's read end, the report's write
end); the template ends at the socket's end.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any

UID = 1000
"""The uid and gid learner code has inside its namespaces (:data:`.bwrap.SANDBOX_UID`)."""
NAMESPACES = ("ipc", "uts", "net", "pid", "cgroup", "mnt", "user")
"""The namespaces joined, in this order (the user namespace last: its capabilities there are all
it keeps, and then drops); a template that is not root first joins the user namespace that owns the
others (``NS_GET_USERNS``: bwrap's outer one, the placeholder's being inside it)."""
PRELOAD = ("IPython.core.interactiveshell", "traitlets.config", "IPython.core.completer",
           "IPython.core.completerlib", "IPython.core.magics", "IPython.core.oinspect",
           "IPython.core.application", "IPython.core.crashhandler", "IPython.core.history",
           "IPython.utils.generics", "json", "ctypes", "ast", "resource", "shutil", "tempfile")
"""What the template imports: what :mod:`.runner` and IPython's ``InteractiveShell.instance()``
import anyway in every submission (nothing else: a cell sees the modules a started run has)."""
PR_SET_DUMPABLE, PR_CAPBSET_DROP, PR_SET_CHILD_SUBREAPER, PR_SET_NO_NEW_PRIVS, PR_CAP_AMBIENT = 4, 24, 36, 38, 47
PR_CAP_AMBIENT_CLEAR_ALL = 4
NS_GET_USERNS = 0xB701
"""``ioctl`` on a namespace: the user namespace that owns it (a new descriptor)."""
CAPABILITY_VERSION_3 = 0x20080522


class EnterFailed(Exception):
    """The fork could not become a process of the sandbox as bwrap's own is."""


def _libc() -> Any:
    import ctypes

    return ctypes.CDLL(None, use_errno=True)


def _check(result: int, what: str) -> None:
    if result != 0:
        import ctypes

        raise EnterFailed(f"{what}: {os.strerror(ctypes.get_errno())}")


def _status() -> dict[str, str]:
    with open("/proc/self/status", "rb") as fh:  # (bytes: no codec a started run would not load)
        return {k: v.strip() for k, _, v in (line.decode().partition(":") for line in fh)}


def _join(request: dict[str, Any]) -> None:
    """In the first fork: the cgroup, then the placeholder's namespaces (see the module docstring)."""
    for procs in request["procs"]:
        with open(procs, "wb") as fh:
            fh.write(str(os.getpid()).encode())
    root = os.geteuid() == 0
    if root:
        os.setgroups([])
    wanted: dict[str, int] = request["ns"]
    target = int(request["target"])
    with open(f"/proc/{target}/status", "rb") as fh:
        theirs = [line for line in fh if line.startswith(b"Groups:")]
    with open("/proc/self/status", "rb") as fh:
        if [line for line in fh if line.startswith(b"Groups:")] != theirs:
            raise EnterFailed("the supplementary groups are not the sandbox's")
    opened = []
    for name in NAMESPACES:
        path = f"/proc/{target}/ns/{name}"
        fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
        opened.append((fd, name, path))
        if os.fstat(fd).st_ino != wanted[name]:
            raise EnterFailed(f"{path} is not the sandbox's {name} namespace")
    if not root:  # first the user namespace that owns the others (bwrap's outer one: the
        import fcntl  # placeholder's, made for --disable-userns, is inside it), for the right to join them

        owners = set()
        for fd, name, _ in opened:
            if name != "user":
                one = fcntl.ioctl(fd, NS_GET_USERNS)
                owners.add(os.fstat(one).st_ino)
                os.close(one)
        if len(owners) != 1:
            raise EnterFailed("the sandbox's namespaces have more than one owner")
        owner = fcntl.ioctl(opened[0][0], NS_GET_USERNS)
        opened.insert(0, (owner, "user", "the owner of the sandbox's namespaces"))
    libc = _libc()
    user = os.stat("/proc/self/ns/user").st_ino  # (after the mount namespace, /proc is the sandbox's)
    for fd, name, path in opened:
        ino = os.fstat(fd).st_ino
        if name != "user" or ino != user:
            _check(libc.setns(fd, 0), f"setns {path}")
            user = ino if name == "user" else user
        os.close(fd)


def _drop_capabilities(libc: Any) -> None:
    import ctypes

    with open("/proc/sys/kernel/cap_last_cap", "rb") as fh:
        last = int(fh.read())
    for cap in range(last + 1):
        _check(libc.prctl(PR_CAPBSET_DROP, cap, 0, 0, 0), f"PR_CAPBSET_DROP {cap}")
    _check(libc.prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0), "PR_CAP_AMBIENT_CLEAR_ALL")

    class Header(ctypes.Structure):
        _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]

    class Data(ctypes.Structure):
        _fields_ = [("effective", ctypes.c_uint32), ("permitted", ctypes.c_uint32),
                    ("inheritable", ctypes.c_uint32)]

    header, data = Header(CAPABILITY_VERSION_3, 0), (Data * 2)()
    _check(libc.capset(ctypes.byref(header), ctypes.byref(data)), "capset")


def _become_the_sandbox(request: dict[str, Any]) -> None:
    """In the second fork, a process of the sandbox's PID namespace: bwrap's process's
    credentials and flags, checked (see the module docstring)."""
    libc = _libc()
    os.setsid()
    os.setresgid(UID, UID, UID)
    os.setresuid(UID, UID, UID)
    _drop_capabilities(libc)
    _check(libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), "PR_SET_NO_NEW_PRIVS")
    _check(libc.prctl(PR_SET_DUMPABLE, 1, 0, 0, 0), "PR_SET_DUMPABLE")
    status = _status()
    want = {"Uid": f"{UID}\t{UID}\t{UID}\t{UID}", "Gid": f"{UID}\t{UID}\t{UID}\t{UID}", "NoNewPrivs": "1",
            **{k: "0000000000000000" for k in ("CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb")}}
    for key, value in want.items():
        if status.get(key) != value:
            raise EnterFailed(f"{key} is {status.get(key)!r}, not {value!r}")
    for name in NAMESPACES:
        if os.stat(f"/proc/self/ns/{name}").st_ino != request["ns"][name]:
            raise EnterFailed(f"not in the sandbox's {name} namespace")
    os.chdir(request["cwd"])


def _enter(request: dict[str, Any], job: int, report: int) -> None:
    """The first fork's whole life: join, fork into the sandbox, run the runner there. Never returns."""
    null = os.open(os.devnull, os.O_RDWR)
    os.dup2(job, 0)
    os.dup2(report, 1)
    os.dup2(null, 2)
    os.closerange(3, 65536)
    try:
        _join(request)
        told_r, told_w = os.pipe()
        pid = os.fork()
        if pid:  # the runner's host pid first (the grader's clock follows it), then it may talk
            os.write(1, f"forked {pid}\n".encode())
            os._exit(0)  # (the runner is adopted by the template, a child subreaper)
        os.close(told_w)
        os.read(told_r, 1)  # until the first fork has said its line and ended
        os.close(told_r)
        _become_the_sandbox(request)
    except (OSError, EnterFailed, ValueError, KeyError) as err:
        os.write(1, f"enter-failed {type(err).__name__}: {err}\n".encode("utf-8", "replace"))
        os._exit(3)
    import site

    site.main()  # the sandbox's .pth files, as a Python started there reads them
    os.environ["PWD"] = request["cwd"]  # (as bwrap's --chdir sets it)
    sys.argv[:] = ["-c"]
    sys.path.insert(0, request["api"])
    from bk_sandbox.runner import main  # type: ignore[import-not-found]

    os._exit(int(main() or 0))


def _site_packages() -> None:
    """``sys.prefix`` and the site-packages folders on ``sys.path`` as ``site`` makes them in a
    virtual environment, without reading a single ``.pth`` file: here, on the host, they are the
    host's (the kit's editable finder among them), which the sandbox masks; its own are read
    there, by ``site.main()`` in each fork (:func:`_enter`)."""
    import site

    real = site.addsitepackages
    site.addsitepackages = lambda known_paths, prefixes=None: known_paths
    try:
        site.venv(None)
    finally:
        site.addsitepackages = real
    for path in site.getsitepackages(site.PREFIXES):
        if os.path.isdir(path) and path not in sys.path:
            sys.path.append(path)


STANDARD_IMPORTERS = ("_frozen_importlib", "_frozen_importlib_external", "zipimport")


def _not_a_sandboxs(folders: list[str]) -> str | None:
    """What the template holds that a Python started in the sandbox would not (None: nothing):
    a module of the kit (or named after it), a module, ``sys.path`` entry or import hook from
    outside ``folders`` (what the sandbox binds) or not the standard library's own."""
    for name, module in list(sys.modules.items()):
        where = getattr(module, "__file__", None)
        if "baccarat" in name or name.startswith("bk_sandbox") or (isinstance(where, str) and (
                "baccarat" in os.path.basename(where) or (os.path.isabs(where) and not _allowed(where, folders)))):
            return f"module {name} ({where})"
    for path in sys.path:
        if not (os.path.isabs(path) and _allowed(path, folders)):
            return f"sys.path entry {path!r}"
    for hook in [*sys.meta_path, *sys.path_hooks]:
        owner = getattr(hook, "__module__", None) or type(hook).__module__
        if owner not in STANDARD_IMPORTERS:
            return f"import hook {hook!r}"
    return None


def _read(request: dict[str, Any], data: int, answer: int) -> None:
    """A reader (:mod:`.reader`: its text is the request's ``source``) in a fork of its own, on the
    host as the grader's own reader process is, its stdin and stdout these two pipes: what
    ``python -I -S -c READER`` does, without starting Python. Never returns."""
    null = os.open(os.devnull, os.O_RDWR)
    os.dup2(data, 0)
    os.dup2(answer, 1)
    os.dup2(null, 2)
    os.closerange(3, 65536)
    code = 0
    try:
        sys.argv[:] = ["-c"]
        exec(compile(request["source"], "<reader>", "exec"), {"__name__": "__main__"})
        sys.stdout.flush()
    except BaseException:  # (out of memory or time: no answer, as from a reader that died)
        code = 1
    os._exit(code)


def _allowed(path: str, folders: list[str]) -> bool:
    real = os.path.realpath(path)
    return any(real == f or real.startswith(f.rstrip("/") + "/") for f in folders)


def serve(fd: int, folders: list[str]) -> None:
    """The template's life: import what every run imports, check that nothing of it comes from
    outside ``folders`` (what the sandbox binds) and that no module of the kit is there, then fork
    one runner per request until the socket ends."""
    import importlib
    import socket

    _check(_libc().prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0), "PR_SET_CHILD_SUBREAPER")  # (it reaps every runner)
    _site_packages()
    for name in PRELOAD:
        importlib.import_module(name)
    wrong = _not_a_sandboxs(folders)
    if wrong:
        sys.stderr.write(f"template: {wrong}: not what a sandbox holds\n")
        return
    import select
    import signal

    sock = socket.socket(fileno=fd)
    woken_r, woken_w = os.pipe2(os.O_NONBLOCK | os.O_CLOEXEC)
    signal.signal(signal.SIGCHLD, lambda *_: None)  # a runner that ended is reaped at once: its
    signal.set_wakeup_fd(woken_w)  # sandbox's init waits for that before it ends (and bwrap with it)
    while True:
        ready, _, _ = select.select([sock.fileno(), woken_r], [], [])
        if woken_r in ready:
            while True:
                try:
                    if not os.read(woken_r, 512):
                        break
                except BlockingIOError:
                    break
            _reap()
        if sock.fileno() not in ready:
            continue
        try:
            message, fds, _flags, _address = socket.recv_fds(sock, 1 << 16, 2)
        except OSError:
            return
        if not message:
            return
        if len(fds) != 2:
            for extra in fds:
                os.close(extra)
            continue
        pid = os.fork()
        if pid == 0:
            signal.set_wakeup_fd(-1)  # what the template's loop set, undone: a started Python has neither
            signal.signal(signal.SIGCHLD, signal.SIG_DFL)
            sock.close()
            try:
                request = json.loads(message)
            except ValueError:
                os._exit(3)
            if request.get("kind") == "read":
                _read(request, fds[0], fds[1])
            _enter(request, fds[0], fds[1])
        for one in fds:
            os.close(one)
        try:
            os.waitpid(pid, 0)
        except (ChildProcessError, InterruptedError):
            pass
        _reap()


def _reap() -> None:
    """Reap every child (runner) that has ended."""
    try:
        while os.waitpid(-1, os.WNOHANG)[0]:
            pass
    except ChildProcessError:
        pass


if __name__ == "__main__":  # pragma: no cover - runs as ``python -I -S -c TEXT FD FOLDERS``
    serve(int(sys.argv[1]), json.loads(sys.argv[2]))
