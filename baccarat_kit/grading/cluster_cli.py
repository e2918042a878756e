"""``baccarat-kit dask-cluster``: start a grading cluster in one command (a thin layer over
``dask scheduler`` and ``dask worker``).

``grade --scheduler`` refuses a cluster that does not keep the roles apart (:mod:`.dask_roles`)
or runs without TLS; starting one by hand took two long ``dask`` command lines with the
certificates and three ``--preload`` options. Here each role is one command with the folder
``baccarat-kit dask-certs`` made:

* ``dask-cluster scheduler --certs DIR [--host NAME] [--port 8786]``: a TLS scheduler with the
  role gate, its dashboard on 127.0.0.1 only; prints the address, the command each worker machine
  runs and the ``grade`` command;
* ``dask-cluster worker tls://NAME:8786 --certs DIR [--nworkers N] [--nthreads T]``: workers with
  the role gate in each worker and nanny (``--preload``, ``--preload-nanny``), no memory limit of
  Dask's (each sandbox has its own), Dask's statistical profiler off;
* ``dask-cluster local --certs DIR [--workers N]``: both on this machine (127.0.0.1).

Each ``dask`` process is a child of this command in a process group of its own, and ends when
this command ends (``SIGTERM`` or Ctrl-C: the workers' groups first, then the scheduler's, each
``SIGKILL``-ed after :data:`GRACE` seconds; and ``PR_SET_PDEATHSIG``: a child gets ``SIGTERM`` if
this command is killed outright). When one of them ends on its own, the others are stopped too
and the command exits with its code.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import stat
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ..i18n import message, os_reason
from .records import GradeUsageError

ROLES_PRELOAD = "baccarat_kit.grading.dask_roles"
"""The role gate every scheduler, worker and nanny of a grading cluster loads (:mod:`.dask_roles`)."""
DEFAULT_PORT = 8786
GRACE = 20.0
"""Seconds a ``dask`` process told to stop (SIGTERM) has before its group is killed."""
START_WAIT = 120.0
"""Seconds the scheduler has to write its address (its scheduler file) before the command gives up."""
CHILD_ENV = {"DASK_DISTRIBUTED__WORKER__PROFILE__ENABLED": "False",
             "DASK_DISTRIBUTED__SCHEDULER__HTTP__ROUTES": "[]", "DASK_DISTRIBUTED__WORKER__HTTP__ROUTES": "[]"}
"""Dask settings of every process started here: the workers' statistical profiler (every 10 ms)
roughly doubles an idle worker's CPU (docs/grading.md, the Dask section's *Cost*); no HTTP page
(Dask always opens an HTTP port, on 127.0.0.1 here, and by default serves ``/info``, ``/json``,
``/metrics`` and ``/health`` there without a password; with ``--dashboard-port`` the scheduler
keeps Dask's own pages)."""
PR_SET_PDEATHSIG = 1


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "dask-cluster",
        help="start a TLS grading cluster with the role gate / 啟動評分用的 Dask 叢集（TLS、角色管制）",
        description=(
            "Start `dask scheduler` and `dask worker` with the certificates of `baccarat-kit dask-certs DIR` "
            "and the kit's role gate (--preload baccarat_kit.grading.dask_roles), as `grade --scheduler` "
            "requires. scheduler: on the scheduler machine; worker ADDRESS: on each worker machine; local: "
            "a scheduler and workers on this machine (127.0.0.1). Stops every process it started on Ctrl-C "
            "or SIGTERM."
        ),
    )
    roles = p.add_subparsers(dest="role", metavar="ROLE", required=True)
    s = roles.add_parser("scheduler", help="a TLS scheduler with the role gate",
                         description="A TLS scheduler (DIR/scheduler.pem, scheduler.key, ca.pem) with the role gate.")
    _common(s)
    s.add_argument("--host", default="127.0.0.1", metavar="NAME",
                   help="the address it listens on and workers reach it at (default 127.0.0.1: this machine only; "
                        "for other machines e.g. grader-1.example.org, as given to dask-certs --host)")
    s.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"its port (default {DEFAULT_PORT}; 0: any free one)")
    s.add_argument("--dashboard-port", type=int, default=None, metavar="PORT",
                   help="Dask's dashboard pages on 127.0.0.1:PORT (default: none; they have no password; "
                        "Dask's HTTP server is on a free port of 127.0.0.1 either way)")
    s.set_defaults(func=_cmd_scheduler)
    w = roles.add_parser("worker", help="workers of a TLS scheduler, with the role gate",
                         description="Workers (DIR/worker.pem, worker.key, ca.pem) of the scheduler at ADDRESS, "
                                     "each grading in its own bubblewrap sandboxes.")
    w.add_argument("address", metavar="ADDRESS", help="the scheduler, e.g. tls://grader-1.example.org:8786")
    _common(w)
    _local_directory(w)
    _worker_options(w)
    w.add_argument("--host", default=None, metavar="NAME",
                   help="the address this machine's workers listen on (default: Dask's choice)")
    w.set_defaults(func=_cmd_worker)
    loc = roles.add_parser("local", help="a scheduler and workers on this machine (127.0.0.1)",
                           description="A scheduler and workers on 127.0.0.1, for one machine (or to try the "
                                       "cluster before the workers' machines join with `dask-cluster worker`).")
    _common(loc)
    _local_directory(loc)
    loc.add_argument("--port", type=int, default=0, help="the scheduler's port (default 0: any free one)")
    loc.add_argument("--workers", type=int, default=2, metavar="N", help="worker processes (default 2)")
    loc.add_argument("--nthreads", type=int, default=1, metavar="T",
                     help="submissions each worker grades at once (default 1)")
    loc.set_defaults(func=_cmd_local)


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--certs", required=True, metavar="DIR", help="the folder made by `baccarat-kit dask-certs DIR`")
    p.add_argument("--scheduler-file", default=None, metavar="FILE",
                   help="where the scheduler's address is written (default: a file in a private temporary folder)")


def _local_directory(p: argparse.ArgumentParser) -> None:
    p.add_argument("--local-directory", default=None, metavar="DIR",
                   help="where the workers' private working folder is made, fresh for each start (default: "
                        "$TMPDIR); DIR must be yours and writable by no one else")


def _worker_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--nworkers", type=int, default=1, metavar="N", help="worker processes on this machine (default 1)")
    p.add_argument("--nthreads", type=int, default=os.cpu_count() or 1, metavar="T",
                   help="submissions each worker grades at once (default: this machine's processors)")


# ---------------------------------------------------------------- the command lines
def scheduler_argv(certs: Path, host: str, port: int, scheduler_file: Path,
                   dashboard_port: int | None = None) -> list[str]:
    """``python -m distributed.cli.dask_scheduler …``: TLS with the scheduler's certificate and the role gate.

    >>> argv = scheduler_argv(Path("c"), "127.0.0.1", 8786, Path("s.json"))
    >>> argv[argv.index("--protocol") + 1], argv[argv.index("--preload") + 1], argv[argv.index("--tls-key") + 1]
    ('tls', 'baccarat_kit.grading.dask_roles', 'c/scheduler.key')
    """
    dashboard = (["--dashboard", "--dashboard-address", f"127.0.0.1:{dashboard_port}"] if dashboard_port is not None
                 else ["--no-dashboard", "--dashboard-address", "127.0.0.1:0"])
    return [sys.executable, "-m", "distributed.cli.dask_scheduler", "--host", host, "--port", str(port),
            "--protocol", "tls", *_tls(certs, "scheduler"), "--scheduler-file", str(scheduler_file), *dashboard,
            "--preload", ROLES_PRELOAD]


def worker_argv(address: str, certs: Path, nworkers: int = 1, nthreads: int = 1, host: str | None = None,
                name: str | None = None, local_directory: str | None = None) -> list[str]:
    """``python -m distributed.cli.dask_worker ADDRESS …``: TLS with the worker's certificate, a
    nanny, the role gate in both, no memory limit of Dask's (each sandbox has its own, ``--memory-mb``).

    >>> argv = worker_argv("tls://127.0.0.1:8786", Path("c"), 2)
    >>> argv[argv.index("--preload-nanny") + 1], argv[argv.index("--nworkers") + 1], argv[argv.index("--tls-cert") + 1]
    ('baccarat_kit.grading.dask_roles', '2', 'c/worker.pem')
    """
    return [sys.executable, "-m", "distributed.cli.dask_worker", address, "--nworkers", str(nworkers),
            "--nthreads", str(nthreads), "--memory-limit", "0", "--nanny", "--no-dashboard",
            "--dashboard-address", "127.0.0.1:0", *_tls(certs, "worker"),
            *(["--host", host] if host else []), *(["--name", name] if name else []),
            *(["--local-directory", local_directory] if local_directory else []),
            "--preload", ROLES_PRELOAD, "--preload-nanny", ROLES_PRELOAD]


def _tls(certs: Path, role: str) -> list[str]:
    return ["--tls-ca-file", str(certs / "ca.pem"), "--tls-cert", str(certs / f"{role}.pem"),
            "--tls-key", str(certs / f"{role}.key")]


def check_certs(certs: str, *roles: str) -> Path:
    """The certificates folder, once each role's files are there, private and that role's
    (:func:`.cluster.security` checks them; a cluster started with wrong ones only drops comms)."""
    from .cluster import _distributed, security

    _distributed()  # (the [dask] extra: said before anything starts)
    for role in roles:
        security(certs, role)
    return Path(certs).resolve()


# ---------------------------------------------------------------- the processes
@dataclass
class Processes:
    """The ``dask`` processes this command started, each the leader of its own process group."""

    procs: list[tuple[str, subprocess.Popen[bytes]]] = field(default_factory=list)

    def start(self, name: str, argv: Sequence[str], env: dict[str, str]) -> subprocess.Popen[bytes]:
        proc = subprocess.Popen(list(argv), stdin=subprocess.DEVNULL, start_new_session=True,
                                env={**os.environ, **env}, preexec_fn=_die_with_parent)
        self.procs.append((name, proc))
        return proc

    def ended(self) -> tuple[str, int] | None:
        """The first process that has ended on its own, with its exit code."""
        for name, proc in self.procs:
            code = proc.poll()
            if code is not None:
                return name, code
        return None

    def stop(self) -> None:
        """SIGTERM each group, the last started first (the workers before their scheduler), then
        SIGKILL what is left of it after :data:`GRACE` seconds; every one reaped."""
        for _name, proc in reversed(self.procs):
            _signal_group(proc, signal.SIGTERM)
            try:
                proc.wait(GRACE)
            except subprocess.TimeoutExpired:
                pass
            _signal_group(proc, signal.SIGKILL)  # (what the leader left in its group: a nanny's worker)
            proc.wait()


def _signal_group(proc: subprocess.Popen[bytes], sig: int) -> None:
    try:
        os.killpg(proc.pid, sig)
    except (ProcessLookupError, PermissionError):
        pass


def _die_with_parent() -> None:
    """In a child, before ``dask`` starts: SIGTERM when this command ends, however it ends."""
    import ctypes

    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)


class _Stop(Exception):
    pass


def _on_signal(signum: int, _frame: object) -> None:
    raise _Stop(signum)


def _wait_for_address(procs: Processes, path: Path) -> str:
    """The scheduler's address, once its scheduler file is written (or :class:`GradeUsageError`)."""
    deadline = time.monotonic() + START_WAIT
    while time.monotonic() < deadline:
        ended = procs.ended()
        if ended is not None:
            raise GradeUsageError("grading.dask.cluster_ended", name=ended[0], code=ended[1])
        try:
            return str(json.loads(path.read_text(encoding="utf-8"))["address"])
        except (OSError, ValueError, KeyError, TypeError):
            time.sleep(0.2)
    raise GradeUsageError("grading.dask.cluster_no_address", seconds=START_WAIT, path=path)


def private_scratch(parent: str) -> Path:
    """A new folder (0700, :func:`tempfile.mkdtemp`) in ``parent`` (``--local-directory``), which
    must be a folder of this user's that no one else can write (else :class:`GradeUsageError`;
    it is made, 0700, when missing)."""
    import tempfile

    where = Path(parent)
    if not where.exists() and not where.is_symlink():
        where.mkdir(mode=0o700, parents=True)
    try:
        fd = os.open(where, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)
    except OSError as err:
        raise GradeUsageError("grading.dask.scratch_unsafe", path=where, detail=os_reason(err)) from err
    try:
        info = os.fstat(fd)
    finally:
        os.close(fd)
    if info.st_uid != os.geteuid() or info.st_mode & 0o022:
        raise GradeUsageError("grading.dask.scratch_unsafe", path=where,
                              detail=f"uid {info.st_uid}, mode {stat.S_IMODE(info.st_mode):04o}")
    return Path(tempfile.mkdtemp(prefix="bk-dask-", dir=where))


def _run(args: argparse.Namespace, start: Sequence[str]) -> int:
    """Start what ``start`` names (``scheduler``, ``workers``), say how to use the cluster, and
    wait until a signal or until one of the processes ends; then stop them all."""
    import shutil
    import tempfile

    procs = Processes()
    old = {sig: signal.signal(sig, _on_signal) for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)}
    private = Path(tempfile.mkdtemp(prefix="bk-dask-"))  # (0700)
    scratch: Path | None = None
    code = 0
    try:
        certs = Path(args.certs).resolve()
        address = getattr(args, "address", None)
        # This start's processes keep their temporary files (``$TMPDIR``), Dask's scratch and each
        # submission's folder in a new private folder: never in Dask's default, the shared
        # $TMPDIR/dask-scratch-space, where another user's links made root write where she pointed.
        given = getattr(args, "local_directory", None)
        scratch = private_scratch(given) if given and "workers" in start else private
        env = {**CHILD_ENV, "TMPDIR": str(scratch), "DASK_TEMPORARY_DIRECTORY": str(scratch)}
        if "scheduler" in start:
            file = Path(args.scheduler_file or private / "scheduler.json").resolve()
            file.unlink(missing_ok=True)  # (a stale one would give an old address)
            dashboard = getattr(args, "dashboard_port", None)
            routes = {"DASK_DISTRIBUTED__SCHEDULER__HTTP__ROUTES"} if dashboard is not None else set()
            procs.start("scheduler", scheduler_argv(certs, args.host, args.port, file, dashboard),
                        {k: v for k, v in env.items() if k not in routes})  # (asked for: Dask's pages)
            address = _wait_for_address(procs, file)
            print(message("grading.dask.cluster_scheduler", args.lang, address=address, certs=args.certs), flush=True)
        if "workers" in start:
            assert address is not None
            nworkers = getattr(args, "workers", None) or args.nworkers
            procs.start("workers", worker_argv(address, certs, nworkers, args.nthreads, args.host,
                                               local_directory=str(scratch)), env)
            print(message("grading.dask.cluster_workers", args.lang, count=nworkers, threads=args.nthreads,
                          address=address), flush=True)
        if "scheduler" in start:
            print(message("grading.dask.cluster_grade", args.lang, address=address, certs=args.certs), flush=True)
        print(message("grading.dask.cluster_running", args.lang), flush=True)
        while (ended := procs.ended()) is None:
            time.sleep(0.5)
        print(message("grading.dask.cluster_ended", args.lang, name=ended[0], code=ended[1]), file=sys.stderr)
        code = ended[1] or 1
    except _Stop:
        code = 0
    finally:
        for sig, handler in old.items():
            signal.signal(sig, handler)
        procs.stop()
        shutil.rmtree(private, ignore_errors=True)
        if scratch is not None and scratch != private:
            shutil.rmtree(scratch, ignore_errors=True)
    if procs.procs:
        print(message("grading.dask.cluster_stopped", args.lang, count=len(procs.procs)), file=sys.stderr)
    return code


def _cmd_scheduler(args: argparse.Namespace) -> int:
    check_certs(args.certs, "scheduler")
    return _run(args, ["scheduler"])


def _cmd_worker(args: argparse.Namespace) -> int:
    from .cluster import check_address

    check_address(args.address, args.certs)  # (tls:// only: there is no --insecure-scheduler here)
    if args.nworkers < 1 or args.nthreads < 1:
        raise GradeUsageError("grading.dask.cluster_bad_count", workers=args.nworkers, threads=args.nthreads)
    check_certs(args.certs, "worker")
    return _run(args, ["workers"])


def _cmd_local(args: argparse.Namespace) -> int:
    if args.workers < 1 or args.nthreads < 1:
        raise GradeUsageError("grading.dask.cluster_bad_count", workers=args.workers, threads=args.nthreads)
    check_certs(args.certs, "scheduler", "worker")
    args.host, args.dashboard_port = "127.0.0.1", None
    return _run(args, ["scheduler", "workers"])
