"""Run learner code in a sandbox and talk to it: the grader's side of :mod:`.runner`.

* :func:`run_notebook` runs a submission's code cells in a fresh sandbox (:mod:`.bwrap`
  namespaces, or none with ``--no-sandbox``) through :mod:`.runner`, whose only ``baccarat_kit``
  is the exercise API (:mod:`.api_tree`), keeps the per-cell and whole-notebook clocks, then has
  :mod:`._extract` print the answers after a random nonce (the value answers, then each function
  answer called on every input);
* :func:`read_submission` has a submission parsed once in a memory-limited process (:mod:`.reader`).

Nothing here grades: it returns plain, strictly parsed JSON values for :mod:`..judge` to compare.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import json
import os
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...i18n import both, message
from ..records import without_surrogates
from . import _extract
from . import api_tree as _api_tree
from . import bwrap as _bwrap
from . import cgroup as _cgroup
from . import landlock as _landlock
from . import ran as _ran
from . import reader as _reader
from . import reaper as _reaper
from . import runner as _runner
from . import template as _template

DEFAULT_CELL_TIMEOUT = 10.0
DEFAULT_NOTEBOOK_TIMEOUT = 60.0
DEFAULT_MEMORY_MB = 1024
MAX_FILE_BYTES = 20 * 1024 * 1024
"""Largest submission file read (checked before reading; larger: status ``too_large``)."""
MAX_REPORT_BYTES = 32 * 1024 * 1024
"""Most bytes the grader reads from one sandboxed process (larger: status ``kernel_broken``)."""
PROCESSES = 64
"""Processes (threads included) one sandbox may run at once (``RLIMIT_NPROC`` inside it)."""
OPEN_FILES = 256
READER_MEMORY_MB = _reader.MEMORY_MB
"""Address space of the process that parses a submission (:mod:`.reader`)."""
FILE_MB = 64
"""Largest file learner code may write, in MB (``RLIMIT_FSIZE``)."""
WALL_FACTOR = 6.0
"""Every time limit counts the sandbox's CPU time (:class:`_Clock`), with a wall-clock backstop
this many times as long. CPU time is what a notebook's work costs, whatever the machine's load:
on a loaded machine (2 shared cores, the test suite's workers and ``--jobs 2``) an honest cell's
wall time stretches many times over and a wall deadline took its points; its CPU time does not
stretch. The backstop is for code that uses no CPU and does not finish (``time.sleep(1000)``,
a lock, a pipe nobody writes to): it cannot hold a worker longer than 6 times a limit (a cell 60 s
at the default 10 s, a notebook 360 s at 60 s). It is generous because an honest run reaches it
only when it is starved 6-fold *and* needs its whole CPU limit: the course's cells need well
under a second of CPU each."""
STARTUP_CPU = 30.0
"""CPU seconds a sandbox may use before it says ``ready`` (its wrappers, bwrap, Python, IPython
and the runner: 0.2 s here): past it, ``kernel_start``. No learner code runs before ``ready``."""
STARTUP_WALL = 600.0
"""The wall-clock backstop of the start (:data:`STARTUP_CPU`): generous, since before ``ready``
nothing of the learner's runs, so only a machine that is starved or whose disk stalls waits it out."""
POLL_MIN = 0.01
"""Shortest wait (s) between two readings of the sandbox's CPU time while no line comes."""
WORKER_GRACE = 10.0
"""Seconds a worker told to stop (SIGTERM) has to clean up before it is killed."""
WALL_LIMIT_FACTOR = 2.0
"""The default ``--wall-limit`` (:meth:`Limits.submission_wall`) is this many times the
notebook's CPU limit: 120 s at the default 60 s. The wall limit is for a notebook that only
waits (sleeps, locks, pipes, ``asyncio``): without it such a notebook held its slot for the
notebook's whole backstop (:data:`WALL_FACTOR` times its CPU limit, 360 s) and each function
answer's after it. Twice the CPU limit lets a notebook that needs all of its CPU finish on a core
shared two ways (so busy code is still stopped by the CPU clock, with that verdict), and is
far from what an honest notebook needs: at most 5.4 s of wall time from its first cell to its
last answer (the honest fixtures and the model solutions, 78 runs each way), measured with
``--jobs 2`` at load average 14, and beside ``stress-ng --cpu 4`` with ``--jobs 4`` on 2 cores
(load average 11-13; ``benchmarks/bench_wall.py``, docs/grading.md): the default is 22 times the largest."""


@functools.cache
def _source(module: Any) -> str:
    """A module's text, read once: what the grader sends never changes during a batch."""
    return Path(module.__file__).read_text(encoding="utf-8")


_used_sandbox: list[_bwrap.Sandbox] = []


def sandbox_description() -> str:
    """What confined learner code in the last batch (written to results.json): bubblewrap's
    namespaces and Landlock, or ``NONE: --no-sandbox …``."""
    if _used_sandbox:
        forked = "; each runner forked from a pre-imported template into its sandbox" if _forked[-1:] == [True] else ""
        return _used_sandbox[-1].describe() + forked
    abi = _landlock.abi_version()
    return f"not started yet (landlock ABI {abi})" if abi else "not started yet (no Landlock)"


def record_sandbox(box: _bwrap.Sandbox) -> None:
    """Note what confined learner code that ran elsewhere (on Dask workers, :mod:`..cluster`),
    for :func:`sandbox_description`."""
    if not _used_sandbox or _used_sandbox[-1] != box:
        _used_sandbox.append(box)


_scopes: list[str] = []
"""How the last sandboxes' memory and process limits applied: per sandbox (a cgroup) or not."""
PER_PROCESS_ONLY = "per-process only"


def limits_scope() -> str:
    """What ``--memory-mb`` and the process count limited in the last batch (results.json's
    ``limits.scope``): ``sandbox (cgroup v1)`` / ``sandbox (cgroup v2)``, or ``per-process only``."""
    return _scopes[-1] if _scopes else "not started yet"


def record_scope(scope: str) -> None:
    """Note how the limits applied where learner code ran elsewhere (on Dask workers,
    :mod:`..cluster`), for :func:`limits_scope`."""
    if not _scopes or _scopes[-1] != scope:
        _scopes.append(scope)


_cpu_sources: list[str] = []
"""Where the last sandboxes' CPU time was read (:meth:`_Clock.source`), for results.json."""
TREE_SOURCE = "process tree (/proc/PID/stat)"


def cpu_source() -> str:
    """Where the last batch read its sandboxes' CPU time, which the time limits count
    (:class:`_Clock`): ``cgroup v1 cpuacct.usage``, ``cgroup v2 cpu.stat usage_usec`` or
    ``process tree (/proc/PID/stat)``."""
    return _cpu_sources[-1] if _cpu_sources else "not started yet"


def record_cpu_source(source: str) -> None:
    """Note where the CPU time was read where learner code ran elsewhere (on Dask workers,
    :mod:`..cluster`), for :func:`cpu_source`."""
    if not _cpu_sources or _cpu_sources[-1] != source:
        _cpu_sources.append(source)


def time_limits(limits: Limits) -> dict[str, Any]:
    """What the time limits count, for results.json's ``limits`` beside ``cell_timeout`` and
    ``notebook_timeout``: ``counts`` (``"cpu"``: the CPU time of the whole sandbox, from
    ``cpu_source``) and the wall-clock backstop of each limit (:data:`WALL_FACTOR`), the start's
    included (:data:`STARTUP_CPU`, :data:`STARTUP_WALL`)."""
    return {"counts": "cpu", "cpu_source": cpu_source(), "wall_factor": WALL_FACTOR,
            "wall_backstop": {"cell_timeout": limits.cell_timeout * WALL_FACTOR,
                              "notebook_timeout": limits.notebook_timeout * WALL_FACTOR, "start": STARTUP_WALL},
            "start_cpu": STARTUP_CPU, "wall_limit": limits.submission_wall(),
            "batch_wall_limit": limits.batch_wall_limit}


def _group(limits: Limits) -> _cgroup.Cgroup | None:
    """A cgroup for one sandbox (memory ``limits.memory_mb`` in all, :data:`PROCESSES` tasks), or
    None, after a loud warning (once per batch), where the grader cannot make one."""
    group, why = _cgroup.create(limits.memory_mb, PROCESSES + 8)  # + bwrap, its init and wrappers
    scope = f"sandbox (cgroup v{group.version})" if group is not None else PER_PROCESS_ONLY
    if not _scopes or _scopes[-1] != scope:
        _scopes.append(scope)
        if group is None:
            print(f"baccarat-kit grade: WARNING: {message('grading.warning.per_process', None, reason=why)}",
                  file=sys.stderr, flush=True)
    return group


def _box(limits: Limits) -> _bwrap.Sandbox:
    """The sandbox learner code runs in: bubblewrap (checked once), or none with ``--no-sandbox``."""
    box = _bwrap.check() if limits.sandbox == "bwrap" else _bwrap.Sandbox("none")
    record_sandbox(box)
    return box



@dataclass(frozen=True)
class Limits:
    """Per-cell and whole-notebook time limits (seconds), the memory limit (MB) of the whole
    sandbox (its cgroup; each process is also held to it), and the sandbox: ``bwrap`` (namespaces) or ``none`` (``--no-sandbox``)."""

    cell_timeout: float = DEFAULT_CELL_TIMEOUT
    notebook_timeout: float = DEFAULT_NOTEBOOK_TIMEOUT
    memory_mb: int = DEFAULT_MEMORY_MB
    sandbox: str = "bwrap"
    wall_limit: float | None = None
    """Wall-clock seconds of one submission, from its first cell to its last answer (None:
    :data:`WALL_LIMIT_FACTOR` times ``notebook_timeout``): see :func:`wall_deadline`."""
    batch_wall_limit: float | None = None
    """Wall-clock seconds of the whole batch (None: no such budget); see :func:`.grade.grade_paths`."""
    batch_end: float | None = None
    """When the batch's budget ends (``time.time()``, so that a Dask worker reads it on its own
    clock; set per submission by :class:`.grade.BatchBudget`, never by hand): the submission's
    run ends by then, whatever its own limit."""
    batch_share: float | None = None
    """The seconds of the batch's budget this submission was given, when that is its fair share
    and less than what was left (set by :class:`.grade.BatchBudget`, never by hand)."""

    def submission_wall(self) -> float:
        """The wall-clock limit of one submission (``wall_limit``, or its default)."""
        return self.wall_limit if self.wall_limit is not None else WALL_LIMIT_FACTOR * self.notebook_timeout



def extraction_code(wanted: Sequence[_extract.Wanted], nonce: str, seconds: float | None = None) -> str:
    """The code run in the learner's kernel after the learner's cells (no expected answers).
    For a notebook, ``nonce`` is the public :data:`.runner.MARKER`: the runner's supervisor, out of
    the learner's reach, swaps in the real nonce. ``seconds``: each function answer's CPU time for
    all its inputs (with a wall-clock backstop :data:`WALL_FACTOR` times as long)."""
    source = _source(_extract)
    ns = f"_bk_grader_{nonce[:12]}"
    wanted = list(wanted)
    wall = seconds * WALL_FACTOR if seconds else None
    return (
        f"{ns} = {{'__name__': '_bk_grader'}}\n"
        f"exec(compile({source!r}, '<baccarat-kit grader>', 'exec'), {ns})\n"
        f"{ns}['emit'](globals(), {nonce!r}, {wanted!r}, {seconds!r}, {wall!r})\n"
    )


def _reject(*_: Any) -> Any:
    raise ValueError("not a plain JSON value")


def parse_extraction(output: str, nonce: str) -> dict[str, Any] | None:
    """The answers printed after ``nonce``, strictly parsed; None if absent, repeated or malformed."""
    lines = [line[len(nonce):] for line in output.splitlines() if line.startswith(nonce)]
    if len(lines) != 1:
        return None
    try:
        data = without_surrogates(json.loads(lines[0], parse_float=_reject, parse_constant=_reject))
    except (ValueError, RecursionError):
        return None
    if not isinstance(data, dict) or not isinstance(data.get("answers"), dict):
        return None
    learner = data.get("learner_id")
    if learner is not None and (not isinstance(learner, str) or len(learner) > 100):
        return None
    return data


def _tree_cpu(*roots: int) -> float:
    """CPU seconds of process ``root`` and its live descendants, each with the children it has
    reaped (``utime + stime + cutime + cstime`` of /proc/PID/stat), found through
    /proc/PID/task/TID/children (or, where the kernel has no such file, every process's parent).
    What it misses: a process that ended unreaped by anyone in the tree (its parent ignored
    SIGCHLD); the wall-clock backstop bounds such a run. Several ``roots``: each tree once."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0
    seen: set[int] = set()
    todo = list(roots)
    parents: dict[int, list[int]] | None = None
    while todo:
        pid = todo.pop()
        if pid in seen:
            continue
        seen.add(pid)
        try:
            with open(f"/proc/{pid}/stat", "rb") as fh:
                fields = fh.read().rsplit(b")", 1)[1].split()
            total += sum(int(f) for f in fields[11:15])  # utime stime cutime cstime (fields 14-17)
        except (OSError, ValueError, IndexError):
            continue
        if not _children_files():
            if parents is None:
                parents = _children_by_parent()
            todo.extend(parents.get(pid, []))
            continue
        try:
            tids = os.listdir(f"/proc/{pid}/task")
        except OSError:
            continue
        for tid in tids:  # (each thread's own children)
            try:
                with open(f"/proc/{pid}/task/{tid}/children", "rb") as fh:
                    todo.extend(int(c) for c in fh.read().split())
            except (OSError, ValueError):
                continue
    return total / tick


@functools.cache
def _children_files() -> bool:
    """Whether this kernel has /proc/PID/task/TID/children (``CONFIG_PROC_CHILDREN``)."""
    return os.path.exists(f"/proc/{os.getpid()}/task/{os.getpid()}/children")


def _children_by_parent() -> dict[int, list[int]]:
    out: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat", "rb") as fh:
                    ppid = int(fh.read().rsplit(b")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
            out.setdefault(ppid, []).append(int(entry))
    return out


class _Clock:
    """The sandbox's CPU time, in seconds (every process in it, the ended ones included): its
    cgroup's (:meth:`.cgroup.Cgroup.cpu_seconds`) where it has one that counts CPU, else its
    process trees' from ``roots``: the first process the grader started, and a forked runner
    (:func:`_start_forked`) (:func:`_tree_cpu`).
    Never goes back (a tree loses what a process that ended unreaped had used)."""

    def __init__(self, roots: Sequence[int], group: _cgroup.Cgroup | None = None) -> None:
        self.roots = tuple(roots)
        self.group = group if group is not None and group.cpu_source is not None else None
        self.source = self.group.cpu_source if self.group is not None else TREE_SOURCE
        self.last = 0.0
        if not _cpu_sources or _cpu_sources[-1] != self.source:
            _cpu_sources.append(str(self.source))

    def cpu(self) -> float:
        got = self.group.cpu_seconds() if self.group is not None else None
        self.last = max(self.last, got if got is not None else _tree_cpu(*self.roots))
        return self.last


@dataclass
class _Until:
    """How long the grader waits for the sandbox's next line: until it has used ``cpu`` seconds
    of CPU (on its :class:`_Clock`) or the wall clock (``time.monotonic``) reaches ``wall``;
    ``names`` says which limit each of the two is (``cell``, ``notebook``, ``start``, ``answers``).
    After a wait that ran out, ``out`` is ``(name, "cpu" | "wall")``."""

    clock: _Clock
    cpu: float
    wall: float
    names: tuple[str, str] = ("cell", "cell")
    out: tuple[str, str] | None = None

    def wait(self) -> float | None:
        """Seconds to wait before looking at the clocks again (the sandbox cannot use more CPU
        than there are processors in that time), or None (and ``out`` set) once one ran out."""
        left_cpu = self.cpu - self.clock.cpu()
        left_wall = self.wall - time.monotonic()
        if left_cpu <= 0:
            self.out = (self.names[0], "cpu")
            return None
        if left_wall <= 0:
            self.out = (self.names[1], "wall")
            return None
        return max(POLL_MIN, min(left_cpu / (os.cpu_count() or 1), left_wall))


class _Lines:
    """Lines from a sandboxed process's stdout, each waited for until a limit (:class:`_Until`),
    never more than :data:`MAX_REPORT_BYTES` in all (the grader's memory stays bounded)."""

    def __init__(self, stream: Any) -> None:
        self.fd = stream.fileno()
        os.set_blocking(self.fd, False)
        self.buffer = b""
        self.total = 0
        self.eof = False

    def next(self, until: _Until) -> str | None:
        """The next line (without its newline); ``""`` at the end of output (or past the byte
        limit); None when a limit ran out first (``until.out`` says which)."""
        import select

        while b"\n" not in self.buffer:
            if self.eof:
                return ""
            left = until.wait()
            if left is None:
                return None
            ready, _, _ = select.select([self.fd], [], [], left)
            if not ready:
                continue
            try:
                chunk = os.read(self.fd, 1 << 16)
            except BlockingIOError:
                continue
            self.total += len(chunk)
            if not chunk or self.total > MAX_REPORT_BYTES:
                self.eof = True
                self.buffer = b"" if chunk else self.buffer
                continue
            self.buffer += chunk
        line, _, self.buffer = self.buffer.partition(b"\n")
        return line.decode("utf-8", "replace")


@dataclass
class _Channel:
    """The grader's two pipes to a runner (its stdin and stdout) and the roots of its sandbox's
    process trees (for :class:`_Clock`)."""

    stdin: Any
    stdout: Any
    pids: tuple[int, ...]
    lines: _Lines | None = None
    """What has been read of ``stdout`` already (a forked runner's first line), if anything."""
    ran: _RanLines | None = None
    """The report of what ran (issue 35), as it is read (:func:`_ran_job`)."""

    def close(self) -> None:
        for stream in (self.stdin, self.stdout):
            try:
                if stream is not None:
                    stream.close()
            except OSError:
                pass


# ---------------------------------------------------------------- what ran (issue 35)
MAX_RAN_LINES = 2 * _ran.MAX_LINES + 100
"""Most ``ran`` lines kept from one run (the hook sends at most :data:`.ran.MAX_LINES` and its ends)."""
KEPT_MATCHES = _ran.MAX_LINES
"""Signed match lines kept after the report's first lines filled its room (a flood of her own
lines, or her own walks' end lines, cannot push a match out)."""
KEY_BYTES = 32


def report_fields(payload: str) -> list[str] | None:
    """The fields of a report line's payload (tab-separated JSON strings), or None."""
    try:
        out = [json.loads(part) for part in payload.split("\t")]
    except ValueError:
        return None
    return [str(x) for x in out] if all(isinstance(x, str) for x in out) else None


def signed_kind(line: str, key: bytes) -> str | None:
    """The kind of a report line (``match``, ``trace``, ``end``, ``more``) when it is signed with
    ``key``, else None (a line she wrote into her pipe)."""
    head, _, rest = line.partition(" ")
    payload, _, mac = rest.rpartition(" ")
    if not head.isdigit() or not payload:
        return None
    want = hmac.new(key, f"{int(head)} {payload}".encode(), "sha256").hexdigest()[:32]
    fields = report_fields(payload) if hmac.compare_digest(want, mac) else None
    return fields[0] if fields else None


class _RanLines:
    """The runner's lines with the report of what ran (``ran …``, :mod:`.ran`: sent at any time,
    by the audit hook) taken out into ``found``; every other line as :class:`_Lines` gives it."""

    def __init__(self, lines: _Lines, key: bytes, cells: int) -> None:
        self.lines = lines
        self.key = key
        self.found: list[str] = []
        self.kept = 0
        self.last = f"done {cells} "
        self.after: int | None = 0 if cells == 0 else None
        """How many lines had come when the last cell was done (the runner's walk comes after)."""
        self.answered: int | None = None
        """How many had come with the last answers (the runner's last walk comes after)."""
        self.final: int | None = None
        """How many had come when the runner said its last walk was done."""

    def next(self, until: _Until) -> str | None:
        while True:
            line = self.lines.next(until)
            if line is None or not line.startswith(_ran.PREFIX):
                if line and self.after is None and line.startswith(self.last):
                    self.after = len(self.found)
                elif line and line.startswith("answers "):
                    self.answered = len(self.found)
                elif line == "final" and self.final is None:
                    self.final = len(self.found)
                return line
            if len(self.found) < MAX_RAN_LINES:
                self.found.append(line[len(_ran.PREFIX):])
            elif self.kept < KEPT_MATCHES and signed_kind(line[len(_ran.PREFIX):], self.key) == "match":  # (the room filled: a match still counts)
                self.kept += 1
                self.found.append(line[len(_ran.PREFIX):])


def _ran_job(kit: Mapping[str, Sequence[str]] | None) -> tuple[dict[str, Any], bytes]:
    """What the runner's hook is sent (``kit``: the hashes of the kit's code it looks for, from
    :func:`..judge.ran.kit_hashes`; this run's key) and the key."""
    key = secrets.token_bytes(KEY_BYTES)
    return {"code": list((kit or {}).get("code", ())), "full": list((kit or {}).get("full", ())), "key": key.hex()}, key


def _with_ran(report: dict[str, Any], channel: _Channel) -> dict[str, Any]:
    """``report`` with the run's report of what ran as it came (``report["ran"]``: its lines, each
    without the prefix, the run's key, and how many had come when the last cell was done), for
    the judge to read (:func:`..judge.ran.read_report`)."""
    if channel.ran is None:
        return report
    found = channel.ran
    return {**report, "ran": {"lines": found.found, "key": found.key.hex(), "after": found.after,
                              "answered": found.answered, "final": found.final,
                              "finished": report.get("status") == "ok" and not report.get("stopped")}}


def _send(channel: _Channel, text: str) -> bool:
    try:
        assert channel.stdin is not None
        channel.stdin.write(text.encode("utf-8") + b"\n")
        channel.stdin.flush()
        return True
    except (BrokenPipeError, OSError):
        return False


def _runner_env(home: str, tmp: str) -> dict[str, str]:
    """A minimal environment for learner code: no inherited variables, secrets or startup files."""
    return {
        "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "HOME": home,
        "IPYTHONDIR": f"{home}/.ipython", "MPLCONFIGDIR": f"{home}/.mpl", "MPLBACKEND": "Agg",
        "TMPDIR": tmp, "PYTHONNOUSERSITE": "1", "PYTHONDONTWRITEBYTECODE": "1", "PYTHONHASHSEED": "0",
        "BACCARAT_KIT_GRADING": "1",
    }


def _start(box: _bwrap.Sandbox, command: list[str], env_for: Callable[[str], dict[str, str]],
           group: _cgroup.Cgroup | None = None) -> tuple[subprocess.Popen[bytes], str | None]:
    """Start ``command`` in a fresh sandbox (inside ``group`` from its first process on); without
    one, through the reaper in a temporary folder (returned, for the caller to remove)."""
    if box.isolated:
        return box.popen(command, env_for(_bwrap.INSIDE_HOME), cgroup=group), None
    workdir = tempfile.mkdtemp(prefix="bk-grade-")
    os.makedirs(os.path.join(workdir, ".home", "tmp"))
    env = env_for(os.path.join(workdir, ".home"))
    command = [sys.executable, "-I", "-S", "-c", _source(_reaper), *command]
    return box.popen(command, env, cgroup=group, cwd=workdir), workdir


def _finish(proc: subprocess.Popen[bytes], box: _bwrap.Sandbox, workdir: str | None,
            group: _cgroup.Cgroup | None = None) -> None:
    """End a sandbox and everything in it. With bubblewrap, killing ``bwrap`` ends its PID
    namespace (``--die-with-parent``), with it every process, System V IPC object and file of
    the submission. Without, the reaper gets SIGTERM (and ends what the code forked)."""
    try:
        if box.isolated:
            box.end(proc)
        else:
            try:
                proc.wait(2 if proc.poll() is None else 0)
            except subprocess.TimeoutExpired:
                _stop(proc)
            _kill_group(proc)
    finally:
        for stream in (proc.stdin, proc.stdout):
            try:
                if stream is not None:
                    stream.close()
            except OSError:
                pass
        if group is not None:
            group.remove()
        if workdir:
            shutil.rmtree(workdir, ignore_errors=True)


WALL_LIMITS = ("wall_limit", "batch_limit")
"""The statuses of a run stopped by a wall-clock limit of its own (``--wall-limit``) or by the
batch's budget (``--batch-wall-limit``), and the names of those limits in a report."""


def wall_deadline(limits: Limits, ready: float, batch_end: float | None) -> tuple[float, str, float]:
    """When a run must end by the wall clock (``time.monotonic``), which limit that is and its
    seconds: its own (:meth:`Limits.submission_wall`, counted from ``ready``: no learner code ran
    before it) or the end of the batch's budget (``batch_end``, on the same clock), if that is sooner."""
    own = (ready + limits.submission_wall(), "wall_limit", limits.submission_wall())
    if batch_end is not None and batch_end < own[0]:
        return batch_end, "batch_limit", float(limits.batch_wall_limit or 0)
    return own


def _batch_end(limits: Limits) -> float | None:
    """The end of the batch's budget (``limits.batch_end``) on ``time.monotonic``'s clock."""
    return None if limits.batch_end is None else time.monotonic() + (limits.batch_end - time.time())


def _capped(until: _Until, end: float, name: str) -> _Until:
    """``until``, its wall-clock end moved to ``end`` (named ``name``) when that is sooner."""
    if end < until.wall:
        until.wall, until.names = end, (until.names[0], name)
    return until


def _drive(channel: _Channel, cells: list[str], extractions: list[str], limits: Limits,
           writable: list[str], api: dict[str, Any] | None = None, nonce: str = "",
           group: _cgroup.Cgroup | None = None, batch_end: float | None = None,
           kit: Mapping[str, Sequence[str]] | None = None) -> dict[str, Any]:
    """Talk to :mod:`.runner` (see there) and keep its clocks: the status of the run.

    Everything is sent at once, before any learner code runs, and the pipe is closed: the
    runner's supervisor keeps the nonce, its learner process gets the rest. ``extractions``: the
    value answers' code, then one per function answer; the report's ``extractions`` holds what
    each printed, as far as they came (a function answer that hangs or dies ends the list there).

    The limits count the sandbox's CPU time (:class:`_Clock`: ``group``'s, else the process
    tree's), each with a wall-clock backstop :data:`WALL_FACTOR` times as long: a timeout's report
    says which ran out (``clock``: ``cpu`` or ``wall``) and what the cell used of each
    (``cpu_s``, ``wall_s``).

    Beyond those, the whole run from its first cell to its last answer has a wall-clock limit of
    its own (:func:`wall_deadline`: ``--wall-limit``, or the batch's end ``batch_end``, monotonic):
    past it the run ends with status ``wall_limit`` (or ``batch_limit``), or, while function
    answers are called, those not yet reported fail (``limit`` says which)."""
    started = time.monotonic()
    ran = _ran_job(kit)
    lines = channel.ran = _RanLines(channel.lines or _Lines(channel.stdout), ran[1], len(cells))
    clock = _Clock(channel.pids, group)
    job = {"cells": cells, "memory_mb": limits.memory_mb, "cpu_seconds": int(limits.notebook_timeout) + 10
           + int(limits.cell_timeout + 1) * len(extractions),
           "processes": PROCESSES if limits.sandbox == "bwrap" else 0, "file_mb": FILE_MB,
           "open_files": OPEN_FILES, "writable": writable, "api": api or {}, "extractions": extractions,
           "nonce": nonce, "ran": ran[0]}
    sent = _send(channel, json.dumps(job))
    try:
        assert channel.stdin is not None
        channel.stdin.close()
    except OSError:
        pass
    if not sent:
        return {"status": "kernel_start", "detail": "the sandbox did not start"}
    start = _Until(clock, STARTUP_CPU, time.monotonic() + STARTUP_WALL, ("start", "start"))
    if batch_end is not None:
        _capped(start, batch_end, "batch_limit")
    ready = lines.next(start)
    if ready is None and start.out is not None and start.out[0] == "batch_limit":
        return {"status": "batch_limit", "cell": 1, "clock": "wall", "limit_s": limits.batch_wall_limit,
                "cpu_s": round(clock.cpu(), 2), "wall_s": round(time.monotonic() - started, 1)}
    if ready is None and start.out is not None:
        return {"status": "kernel_start", "clock": start.out[1], "cpu_s": round(clock.cpu(), 2),
                "detail": f"not ready within {STARTUP_CPU if start.out[1] == 'cpu' else STARTUP_WALL:g} s "
                          f"({'CPU' if start.out[1] == 'cpu' else 'wall-clock'} time)"}
    if ready != "ready":
        return {"status": "kernel_start", "detail": (ready or "exited before it was ready")[:200],
                **({"enter_failed": True} if (ready or "").startswith("enter-failed") else {})}
    book_cpu0, book_wall0 = clock.cpu(), time.monotonic()
    book_cpu, book_wall = book_cpu0 + limits.notebook_timeout, book_wall0 + limits.notebook_timeout * WALL_FACTOR
    report: dict[str, Any] = {"status": "ok", "cell": None, "errors": 0, "extractions": [], "failed": {}}
    run_end, run_limit, run_seconds = wall_deadline(limits, book_wall0, batch_end)

    def capped(until: _Until) -> _Until:
        return _capped(until, run_end, run_limit)

    def out_of_time(until: _Until, cpu0: float, wall0: float, cell: int) -> dict[str, Any]:
        """A timeout's report: which limit, which clock, and what the cell (or, for the notebook's
        limit, the notebook) used of each."""
        name, which = until.out or ("cell", "cpu")
        if name == "notebook" or name in WALL_LIMITS:
            cpu0, wall0 = book_cpu0, book_wall0
        if name in WALL_LIMITS:
            return {**report, "status": name, "cell": cell, "clock": which, "limit_s": run_seconds,
                    "cpu_s": round(clock.cpu() - cpu0, 2), "wall_s": round(time.monotonic() - wall0, 1)}
        return {**report, "status": f"{name}_timeout", "cell": cell, "clock": which,
                "cpu_s": round(clock.cpu() - cpu0, 2), "wall_s": round(time.monotonic() - wall0, 1)}

    for index in range(1, len(cells) + 1):
        cpu0, wall0 = clock.cpu(), time.monotonic()
        cell_cpu, cell_wall = cpu0 + limits.cell_timeout, wall0 + limits.cell_timeout * WALL_FACTOR
        until = capped(_Until(clock, min(cell_cpu, book_cpu), min(cell_wall, book_wall),
                              ("cell" if cell_cpu < book_cpu else "notebook",
                               "cell" if cell_wall < book_wall else "notebook")))
        for expected in (f"start {index}", f"done {index} "):
            line = lines.next(until)
            if line is None:
                return out_of_time(until, cpu0, wall0, index)
            if line == "":
                return {**report, "status": "kernel_died", "cell": index}
            rest = line[len(expected):]
            if not line.startswith(expected) or (expected.startswith("done") and rest != "ok" and not (
                    rest == "error" or rest.startswith("error "))):
                return {**report, "status": "kernel_broken", "cell": index}
            if expected.startswith("done") and rest != "ok":
                report["errors"] += 1  # a failing cell fails alone: the next one runs
                report.setdefault("failed", {})[index] = rest[len("error "):][:500] or "error"
    after = len(cells) + 1

    def step(seconds: float) -> _Until:
        """The grader's own steps get a limit each (on both clocks), beyond the notebook limit."""
        return capped(_Until(clock, clock.cpu() + seconds, time.monotonic() + seconds * WALL_FACTOR,
                             ("answers", "answers")))

    until = step(limits.cell_timeout)
    line = lines.next(until)
    if line is None and until.out is not None and until.out[0] in WALL_LIMITS:
        return out_of_time(until, 0.0, 0.0, after)
    if line is None:
        return {**report, "status": "no_answers", "cell": after, "clock": until.out[1] if until.out else "cpu"}
    if line == "":
        return {**report, "status": "kernel_died", "cell": after}
    if line != "cells":
        return {**report, "status": "kernel_broken", "cell": after}
    texts: list[str] = []
    for n in range(len(extractions)):
        until = step(limits.cell_timeout + 1)
        line = lines.next(until)
        if line is None or line == "" or not line.startswith("answers "):
            if n == 0 and line is None and until.out is not None and until.out[0] in WALL_LIMITS:
                return out_of_time(until, 0.0, 0.0, after)
            if n == 0:  # not even the value answers
                status = "no_answers" if line is None else "kernel_died" if line == "" else "kernel_broken"
                return {**report, "status": status, "cell": after}
            report["stopped"] = "timeout" if line is None else "died"
            if line is None:
                report["clock"] = until.out[1] if until.out else "cpu"
                if until.out is not None and until.out[0] in WALL_LIMITS:
                    report["limit"], report["limit_s"] = until.out[0], run_seconds
            break
        try:
            text = json.loads(line[len("answers "):])
        except ValueError:
            return {**report, "status": "kernel_broken", "cell": after}
        texts.append(text if isinstance(text, str) else "")
    if "stopped" not in report:  # the runner's last walk (what the function answers ran), then "final"
        lines.next(step(limits.cell_timeout))
    return {**report, "extractions": texts, "wall_s": round(time.monotonic() - book_wall0, 2)}


def _stop(proc: subprocess.Popen[Any]) -> None:
    """SIGTERM (a reaper then ends everything the learner's code left behind), then SIGKILL to
    the whole group after :data:`WORKER_GRACE` seconds."""
    proc.terminate()
    try:
        proc.wait(WORKER_GRACE)
    except subprocess.TimeoutExpired:
        pass
    _kill_group(proc)


def _kill_group(proc: subprocess.Popen[Any]) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    proc.wait()



MAX_READER_ANSWER = 16 * 1024 * 1024
"""Most bytes read from a reader (its answer holds at most 1 MB of code, escaped)."""


def _read_forked(header: bytes, data: bytes) -> bytes | None:
    """The answer of a reader forked from the template (:func:`.template._read`): ``header`` and
    ``data`` written to its stdin while its stdout is read, within the same wall-clock time as
    a started reader's (then ``b""``: no answer; its own CPU limit ends it, or the closed pipe);
    None when the template did not take the request (the caller starts a reader)."""
    import select

    job_r, job_w = os.pipe()
    answer_r, answer_w = os.pipe()
    try:
        sent = _TEMPLATE.spawn({"kind": "read", "source": _source(_reader)}, job_r, answer_w)
    finally:
        os.close(job_r)
        os.close(answer_w)
    if not sent:
        os.close(job_w)
        os.close(answer_r)
        return None
    todo = memoryview(header + data)
    out: list[bytes] = []
    size = 0
    deadline = time.monotonic() + _reader.CPU_SECONDS + 10
    os.set_blocking(job_w, False)
    try:
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return b""
            writing = [job_w] if job_w >= 0 else []
            readable, writable, _ = select.select([answer_r], writing, [], left)
            if writable:
                try:
                    todo = todo[os.write(job_w, todo[:1 << 16]):]
                except BlockingIOError:
                    pass
                except OSError:  # the reader is gone (out of memory): no answer
                    todo = todo[:0]
                if not todo:
                    os.close(job_w)
                    job_w = -1
            if readable:
                chunk = os.read(answer_r, 1 << 16)
                if not chunk:
                    return b"".join(out)
                size += len(chunk)
                if size > MAX_READER_ANSWER:
                    return b""
                out.append(chunk)
    finally:
        if job_w >= 0:
            os.close(job_w)
        os.close(answer_r)


def read_submission(path: Path) -> tuple[str, int, dict[str, Any]]:
    """sha256, size and the reader's answer (:mod:`.reader`) for ``path``: the size is checked
    before the file is read, the file is read once, and parsed once in a memory-limited process."""
    size = path.stat().st_size
    digest = hashlib.sha256()
    if size > MAX_FILE_BYTES:
        with path.open("rb") as fh:
            for block in iter(lambda: fh.read(1 << 20), b""):
                digest.update(block)
        return digest.hexdigest(), size, {"status": "too_large"}
    with path.open("rb") as fh:
        data = fh.read(MAX_FILE_BYTES + 1)
    digest.update(data)
    if len(data) > MAX_FILE_BYTES:
        return digest.hexdigest(), len(data), {"status": "too_large"}
    header = json.dumps({"size": len(data), "memory_mb": READER_MEMORY_MB})
    forked = _read_forked(header.encode("utf-8") + b"\n", data) if _TEMPLATE.usable() else None
    if forked is not None:
        out = forked
        del data
    else:
        proc = subprocess.Popen([sys.executable, "-I", "-S", "-c", _source(_reader)], stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, start_new_session=True,
                                env={"PATH": "/usr/bin:/bin", "LC_ALL": "C.UTF-8"})
        try:
            out, _ = proc.communicate(header.encode("utf-8") + b"\n" + data, timeout=_reader.CPU_SECONDS + 10)
        except subprocess.TimeoutExpired:
            _kill_group(proc)
            return digest.hexdigest(), len(data), {"status": "too_complex"}
        finally:
            del data
    try:
        answer = json.loads(out)
    except ValueError:
        answer = None
    if not isinstance(answer, dict) or not isinstance(answer.get("status"), str):
        return digest.hexdigest(), size, {"status": "too_complex"}
    try:  # her text as the gradebook will write it (her cells go to the run as she wrote them)
        answer = {k: v if k in ("cells", "fingerprints") else without_surrogates(v) for k, v in answer.items()}
    except RecursionError:
        return digest.hexdigest(), size, {"status": "too_complex"}
    return digest.hexdigest(), size, answer



class _Live:
    """The sandboxes this process runs now, so that a batch that is told to stop (Ctrl-C,
    SIGTERM: :func:`stop_runs`) ends them at once instead of waiting for their limits; their
    threads then see the run end and clean up as always (:func:`_finish`)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.procs: set[subprocess.Popen[bytes]] = set()
        self.stopping = False

    def add(self, proc: subprocess.Popen[bytes]) -> None:
        with self.lock:
            self.procs.add(proc)
            if not self.stopping:
                return
        _signal_group(proc)

    def discard(self, proc: subprocess.Popen[bytes]) -> None:
        with self.lock:
            self.procs.discard(proc)

    def stop(self, stopping: bool = True) -> None:
        with self.lock:
            self.stopping = stopping
            procs = list(self.procs) if stopping else []
        for proc in procs:
            _signal_group(proc)


def _signal_group(proc: subprocess.Popen[bytes]) -> None:
    if proc.returncode is None:  # (each sandbox leads a session of its own)
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass


_LIVE = _Live()


def stop_runs(stopping: bool = True) -> None:
    """End every sandbox running now and any started from now on (``stopping=False``: run again)."""
    _LIVE.stop(stopping)


def _run_once(box: _bwrap.Sandbox, cells: list[str], extractions: list[str], limits: Limits,
              api: dict[str, Any] | None, nonce: str, cgroup: bool, forked: bool,
              batch_end: float | None = None, kit: Mapping[str, Sequence[str]] | None = None) -> dict[str, Any]:
    """One run of the runner in a fresh sandbox and cgroup: started there (``python -I -c
    BOOT``), or ``forked`` from the template (:mod:`.template`); the report of :func:`_drive`."""
    group = _group(limits) if cgroup else None
    env_for = functools.partial(_runner_env, tmp="/tmp") if box.isolated else (
        lambda home: _runner_env(home, f"{home}/tmp"))
    if forked:
        proc, channel = _start_forked(box, env_for, group)
        workdir = None
    else:
        folder = _api_tree.INSIDE if box.isolated else _bwrap.api_folder()
        proc, workdir = _start(box, [sys.executable, "-I", "-c", _api_tree.BOOT, folder], env_for, group)
        channel = _Channel(proc.stdin, proc.stdout, (proc.pid,))
    _LIVE.add(proc)
    try:
        if isinstance(channel, dict):  # the placeholder did not come up
            return channel
        writable = ["/tmp"] if box.isolated else []
        report = _drive(channel, cells, extractions, limits, writable, api, nonce, group, batch_end, kit)
        report = _with_ran(report, channel)
        if group is not None and group.oom_kills():  # a process of the sandbox went over its total:
            # the memory limit ends the whole run, as it always has
            report = {**report, "status": "kernel_died", "cell": report.get("cell") or len(cells) + 1}
        return report
    finally:
        if not isinstance(channel, dict):
            channel.close()
        if forked and proc.stdin is not None:
            proc.stdin.close()  # the placeholder's end: bwrap ends, and every process of the sandbox with it
        _finish(proc, box, workdir, group)
        _LIVE.discard(proc)


FORK_ENV = "BACCARAT_KIT_GRADE_FORK"
"""``0``: every sandbox starts its own Python (``python -I -c BOOT``) instead of a fork of the
template (:mod:`.template`): the way before issue 32, to compare or to rule the template out."""
PLACEHOLDER = ["/bin/sh", "-c", "echo placeholder; read x"]
"""The command of a sandbox the runner is forked into: says it is there, then waits (on the
grader's pipe, open until the end) so that bwrap and the namespaces stay."""


class _Template:
    """This grading process's template (:mod:`.template`): started at first use, once; given up
    (with a warning on stderr, once) when it cannot start or a fork of it could not enter a
    sandbox, after which every sandbox starts its own Python again."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.proc: subprocess.Popen[bytes] | None = None
        self.sock: Any = None
        self.broken: str | None = None

    def usable(self) -> bool:
        if os.environ.get(FORK_ENV, "").strip() == "0":
            return False
        with self.lock:
            if self.broken is None and self.proc is None:
                self._start()
            return self.broken is None

    def _start(self) -> None:
        import atexit
        import socket

        mine, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        try:
            folders = _bwrap.python_folders()
            self.proc = subprocess.Popen(
                [sys.executable, "-I", "-S", "-c", _source(_template), str(theirs.fileno()), json.dumps(folders)],
                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                pass_fds=[theirs.fileno()], start_new_session=True, cwd="/",
                env=dict(sorted(_runner_env(_bwrap.INSIDE_HOME, "/tmp").items())))  # (bwrap's order)
        except OSError as err:
            mine.close()
            self.broken = f"the template did not start: {err}"
            return
        finally:
            theirs.close()
        self.sock = mine
        atexit.register(self.stop)

    def spawn(self, request: dict[str, Any], job: int, report: int) -> bool:
        """Ask the template for a runner in the sandbox ``request`` names, on these two pipes."""
        import socket

        with self.lock:
            if self.sock is None or self.broken is not None:
                return False
            try:
                socket.send_fds(self.sock, [json.dumps(request).encode("utf-8")], [job, report])
            except OSError as err:
                self.broken = f"the template is gone: {err}"
                return False
            return True

    def give_up(self, why: str) -> None:
        with self.lock:
            if self.broken is None:
                self.broken = why
                print(f"baccarat-kit grade: WARNING: the pre-imported runner cannot enter a sandbox here ({why[:200]}); "
                      "each sandbox starts its own Python instead", file=sys.stderr, flush=True)

    def stop(self) -> None:
        with self.lock:
            if self.sock is not None:
                self.sock.close()
                self.sock = None
            if self.proc is not None:
                try:
                    self.proc.wait(5)
                except subprocess.TimeoutExpired:
                    self.proc.kill()
                    self.proc.wait()


_TEMPLATE = _Template()
_forked: list[bool] = []
"""Whether the last run's runner was forked from the template (for :func:`sandbox_description`)."""


def _start_forked(box: _bwrap.Sandbox, env_for: Callable[[str], dict[str, str]],
                  group: _cgroup.Cgroup | None) -> tuple[subprocess.Popen[bytes], _Channel | dict[str, Any]]:
    """A fresh sandbox (bwrap, :data:`PLACEHOLDER` as its command) and a runner forked from the
    template into it; the channel to that runner, or a ``kernel_start`` report (with
    ``enter_failed``: the caller starts the submission the old way)."""
    proc = box.popen(PLACEHOLDER, env_for(_bwrap.INSIDE_HOME), cgroup=group)
    clock = _Clock((proc.pid,), group)
    line = _Lines(proc.stdout).next(_Until(clock, STARTUP_CPU, time.monotonic() + STARTUP_WALL, ("start", "start")))
    init = box.sandbox_pid(proc) if line == "placeholder" else None
    try:
        with open(f"/proc/{init}/task/{init}/children", "rb") as fh:
            kids = fh.read().split()
        target = int(kids[0]) if len(kids) == 1 else 0
        with open(f"/proc/{target}/cmdline", "rb") as fh:
            if fh.read().split(b"\0")[:len(PLACEHOLDER)] != [a.encode() for a in PLACEHOLDER]:
                target = 0
        ns = {n: os.stat(f"/proc/{target}/ns/{n}").st_ino for n in _template.NAMESPACES}
    except (OSError, ValueError, IndexError):
        return proc, {"status": "kernel_start", "detail": "enter-failed: no placeholder", "enter_failed": True}
    request = {"target": target, "ns": ns, "procs": group.procs_files if group is not None else [],
               "cwd": _bwrap.INSIDE_WORK, "api": _api_tree.INSIDE}
    job_r, job_w = os.pipe()
    report_r, report_w = os.pipe()
    try:
        sent = _TEMPLATE.spawn(request, job_r, report_w)
    finally:
        os.close(job_r)
        os.close(report_w)
    channel = _Channel(os.fdopen(job_w, "wb"), os.fdopen(report_r, "rb"), (proc.pid,))
    if not sent:
        channel.close()
        return proc, {"status": "kernel_start", "detail": "enter-failed: the template is gone", "enter_failed": True}
    channel.lines = _Lines(channel.stdout)
    line = channel.lines.next(_Until(clock, STARTUP_CPU, time.monotonic() + STARTUP_WALL, ("start", "start")))
    runner = int(line[len("forked "):]) if line and line.startswith("forked ") and line[7:].isdigit() else 0
    if runner <= 0:
        channel.close()
        return proc, {"status": "kernel_start", "detail": f"enter-failed: {(line or 'no answer')[:200]}",
                      "enter_failed": True}
    channel.pids = (proc.pid, runner)
    return proc, channel


def run_notebook(cells: list[str], wanted: Sequence[_extract.Wanted], limits: Limits,
                 api: dict[str, Any] | None = None, cgroup: bool = True,
                 kit: Mapping[str, Sequence[str]] | None = None) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """Run ``cells`` in a fresh sandbox (:mod:`.runner`); extract the answers ``wanted`` (value,
    choice and function answers: each function is called there, on every input).

    ``api``: what the exercise API (the run's only ``baccarat_kit``, :mod:`.api_tree`) is told
    before any learner code runs: the exercise, the learner the file is keyed for, her hands,
    settlement data and option order (computed here, by the grader), the messages it shows.
    A function answer that does not finish (or dies) gets ``run-failed``; the answers already
    reported still count. ``cgroup=False``: no cgroup, no warning (``check()`` in a learner's kernel).
    ``kit``: the hashes of the kit's code the run's audit hook looks for (:func:`..judge.ran.kit_hashes`);
    the report's ``ran`` holds what the hook said, for the judge to read."""
    batch_end = _batch_end(limits)
    nonce = secrets.token_hex(16)
    box = _box(limits) if cgroup else _bwrap.Sandbox("none")
    values = [w for w in wanted if w["kind"] != "function"]
    functions = [w for w in wanted if w["kind"] == "function"]
    extractions = [extraction_code(values, _runner.MARKER)] + [
        extraction_code([w], _runner.MARKER, limits.cell_timeout) for w in functions]
    report = None
    if box.isolated and cgroup and _TEMPLATE.usable():
        report = _run_once(box, cells, extractions, limits, api, nonce, cgroup, forked=True, batch_end=batch_end, kit=kit)
        if report.get("enter_failed"):  # not the learner's: started the old way, and so from now on
            _TEMPLATE.give_up(str(report.get("detail")))
            report = None
    if cgroup:
        _forked[:] = [report is not None]
    if report is None:
        report = _run_once(box, cells, extractions, limits, api, nonce, cgroup, forked=False, batch_end=batch_end, kit=kit)
    if report.get("status") != "ok":
        return report, None
    texts = report.get("extractions", [])
    parsed = parse_extraction(str(texts[0]) if texts else "", nonce)
    if parsed is None:
        return report, None
    answers = dict(parsed["answers"])
    for w in values:  # what is not in the values' line is not an answer
        answers.setdefault(w["id"], {"status": "missing"})
    for n, w in enumerate(functions, 1):
        got = parse_extraction(str(texts[n]), nonce) if n < len(texts) else None
        one = got["answers"].get(w["id"]) if got is not None else None
        if isinstance(one, dict):
            answers[w["id"]] = one
        else:
            why = report.get("stopped")
            if why == "timeout" and report.get("limit") in WALL_LIMITS:
                reason = both(f"grading.reason.function_{report['limit']}", seconds=report.get("limit_s"))
            elif why == "timeout" and report.get("clock") == "wall":
                reason = both("grading.reason.function_timeout_wall", seconds=limits.cell_timeout * WALL_FACTOR)
            elif why == "timeout":
                reason = both("grading.reason.function_timeout", seconds=limits.cell_timeout)
            else:
                reason = both("grading.reason.function_failed",
                              detail=f"over the {limits.memory_mb} MB memory limit" if why == "memory"
                              else "the run ended")
            answers[w["id"]] = {"status": "run-failed", "reason": reason}
    parsed["answers"] = answers
    return report, parsed
