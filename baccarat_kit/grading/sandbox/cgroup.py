"""A cgroup per sandbox: memory and process count for the whole sandbox, not per process.

``RLIMIT_AS`` is per process: a submission that forks 8 children of 400 MB each held 3.4 GB under
``--memory-mb 1031`` (issue 20, attack 11). So the grader, where it can (root, a writable cgroup
hierarchy), makes one cgroup for each sandbox, with

* ``memory``: ``--memory-mb`` for everything in it (swap included where the kernel accounts it),
* ``pids``: :data:`~.session.PROCESSES` processes and threads at once,
* ``cpuacct`` (v1, where it is mounted) or v2's own ``cpu.stat``: the CPU time of everything in
  the sandbox, which the grader's time limits count (:meth:`Cgroup.cpu_seconds`),

and starts the sandbox through :data:`JOIN_SCRIPT`: a ``/bin/sh`` (still the grader's, root)
that writes its own pid into each ``cgroup.procs`` and only then ``exec``\\ s the sandbox, so
nothing of the submission ever runs outside the cgroup (children inherit it; no race with the
grader writing a pid after the fact). If joining fails the script exits 125 and no learner code
runs. Afterwards :meth:`Cgroup.remove` kills whatever is still in it and removes it.

Both layouts:

* **cgroup v1** (these machines: ``/sys/fs/cgroup/memory``, ``/sys/fs/cgroup/pids``):
  ``memory.limit_in_bytes`` (and ``memory.memsw.limit_in_bytes``), ``pids.max``; the count of
  OOM kills from ``memory.oom_control``;
* **cgroup v2** (most current distributions: one hierarchy at ``/sys/fs/cgroup``): ``memory.max``,
  ``memory.swap.max`` 0, ``pids.max``; OOM kills from ``memory.events``. The parent must have
  ``memory`` and ``pids`` in its ``cgroup.subtree_control`` (root's cgroup, or a delegated one:
  ``systemd-run --scope -p Delegate=yes baccarat-kit grade …``).

Each cgroup is made *below the grader's own* (read from ``/proc/self/cgroup``), so the grader
never escapes limits it is under itself, with a unique name ``baccarat-kit-<pid>-<n>-<random>``;
the grader only ever removes the folders it made. Where no cgroup can be made (not root, no
controller), :func:`create` returns None with the reason; the grader then warns on stderr once
and writes ``"limits": "per-process only"`` into results.json (docs/grading.md).

A grader (or Dask worker) killed with SIGKILL never removes its cgroups; the next grader's first
:func:`create` runs :func:`sweep_stale` in the same parents, which removes the ones left behind:
only names of :data:`NAME` (the kit's own), only empty ones (no process, no child cgroup: the
kernel refuses ``rmdir`` of any other, and the sweep does not try), only at least
:data:`STALE_AFTER_S` old, and only when the grader whose pid the name carries is gone (no such
process, or one that started after the cgroup was made).
"""

from __future__ import annotations

import itertools
import os
import re
import secrets
import signal
import threading
import time
from dataclasses import dataclass, field

ROOT = "/sys/fs/cgroup"
JOIN_SCRIPT = ('for f; do [ "$f" = -- ] && break; echo $$ > "$f" || exit 125; done; '
               'while [ "$1" != -- ]; do shift; done; shift; exec "$@"')
"""``sh -c JOIN_SCRIPT sh PROCS… -- COMMAND…``: join every cgroup, then become COMMAND."""

NAME = re.compile(r"baccarat-kit-(?P<pid>[1-9][0-9]{0,9})-[0-9]{1,12}-[0-9a-f]{8}")
"""The name of every cgroup :func:`create` makes (:func:`_name`); the sweep touches no other."""
STALE_AFTER_S = 60.0
"""A cgroup is swept only once it is this old (a grader in another PID namespace, whose pid this
one cannot see, joins its new cgroup within moments)."""
SWEEP_AT_MOST = 256
"""Entries one sweep looks at in a parent (the next grader takes more)."""

_counter = itertools.count()
_lock = threading.Lock()
_swept: set[str] = set()
"""Parents this process has swept already (once each)."""


@dataclass
class Cgroup:
    """One sandbox's cgroup: ``version`` 1 or 2, ``folders`` (one per v1 controller, or the v2 one)."""

    version: int
    folders: dict[str, str]
    memory_bytes: int
    pids: int
    removed: bool = field(default=False)

    @property
    def procs_files(self) -> list[str]:
        """The ``cgroup.procs`` files :data:`JOIN_SCRIPT` writes to (each folder once)."""
        return [os.path.join(f, "cgroup.procs") for f in dict.fromkeys(self.folders.values())]

    def wrap(self, argv: list[str]) -> list[str]:
        """``argv`` started inside this cgroup (see the module docstring)."""
        return ["/bin/sh", "-c", JOIN_SCRIPT, "sh", *self.procs_files, "--", *argv]

    def oom_kills(self) -> int:
        """Processes the kernel killed in this cgroup for going over its memory limit."""
        name = "memory.oom_control" if self.version == 1 else "memory.events"
        try:
            with open(os.path.join(self.folders["memory"], name), encoding="ascii") as fh:
                for line in fh:
                    key, _, value = line.partition(" ")
                    if key == "oom_kill":
                        return int(value)
        except (OSError, ValueError):
            pass
        return 0

    def peak_bytes(self) -> int:
        """The most memory the sandbox held at once (0 if the kernel does not say)."""
        name = "memory.max_usage_in_bytes" if self.version == 1 else "memory.peak"
        try:
            with open(os.path.join(self.folders["memory"], name), encoding="ascii") as fh:
                return int(fh.read().split()[0])
        except (OSError, ValueError, IndexError):
            return 0

    @property
    def cpu_source(self) -> str | None:
        """Where :meth:`cpu_seconds` reads (for results.json), or None when it cannot."""
        if self.version == 2:
            return "cgroup v2 cpu.stat usage_usec"
        return "cgroup v1 cpuacct.usage" if "cpuacct" in self.folders else None

    def cpu_seconds(self) -> float | None:
        """CPU time (user and system, in seconds) every process of the sandbox has used so far,
        the ones that ended included; None where the kernel does not say (v1 without ``cpuacct``)."""
        try:
            if self.version == 2:
                with open(os.path.join(self.folders["memory"], "cpu.stat"), encoding="ascii") as fh:
                    for line in fh:
                        key, _, value = line.partition(" ")
                        if key == "usage_usec":
                            return int(value) / 1e6
                return None
            folder = self.folders.get("cpuacct")
            if folder is None:
                return None
            with open(os.path.join(folder, "cpuacct.usage"), encoding="ascii") as fh:
                return int(fh.read()) / 1e9
        except (OSError, ValueError):
            return None

    def pids_in(self) -> list[int]:
        out: set[int] = set()
        for procs in self.procs_files:
            try:
                with open(procs, encoding="ascii") as fh:
                    out.update(int(p) for p in fh.read().split())
            except (OSError, ValueError):
                pass
        return sorted(out)

    def remove(self, timeout: float = 10.0) -> None:
        """Kill everything still in the cgroup, then remove its folders (only ours): each step
        tried for up to ``timeout`` seconds (a loaded machine is slow to end a process)."""
        if self.removed:
            return
        deadline = time.monotonic() + timeout
        while True:
            pids = self.pids_in()
            if not pids:
                break
            if self.version == 2 and _write(os.path.join(self.folders["memory"], "cgroup.kill"), "1"):
                pass
            else:
                for pid in pids:
                    try:
                        os.kill(pid, signal.SIGKILL)
                    except (ProcessLookupError, PermissionError):
                        pass
            if time.monotonic() > deadline:
                break
            time.sleep(0.01)
        deadline = time.monotonic() + timeout
        for folder in dict.fromkeys(self.folders.values()):
            while True:  # an exiting process leaves the cgroup a moment after it died
                try:
                    os.rmdir(folder)
                    break
                except FileNotFoundError:
                    break
                except OSError:
                    if time.monotonic() > deadline:
                        break
                    time.sleep(0.01)
        self.removed = True


def _write(path: str, text: str) -> bool:
    try:
        with open(path, "w", encoding="ascii") as fh:
            fh.write(text)
        return True
    except OSError:
        return False


def _own(controller: str) -> str | None:
    """This process's cgroup path for a v1 ``controller`` (``""`` for v2's), from /proc/self/cgroup."""
    try:
        with open("/proc/self/cgroup", encoding="utf-8") as fh:
            for line in fh:
                _, names, path = line.rstrip("\n").split(":", 2)
                if controller in names.split(","):
                    return path
    except OSError:
        return None
    return None


def layout() -> int | None:
    """1 when the memory and pids controllers are mounted as v1, 2 for a v2-only hierarchy, else None."""
    if os.path.isdir(os.path.join(ROOT, "memory")) and os.path.isdir(os.path.join(ROOT, "pids")):
        return 1
    if os.path.exists(os.path.join(ROOT, "cgroup.controllers")):
        return 2
    return None


def _started(pid: int) -> float | None:
    """When process ``pid`` started (seconds since the epoch), or None if there is no such process."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            fields = fh.read().rsplit(b")", 1)[1].split()
        with open("/proc/stat", "rb") as fh:
            boot = next(int(line.split()[1]) for line in fh if line.startswith(b"btime "))
        return boot + int(fields[19]) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError, StopIteration):
        return None


def _owner_gone(pid: int, made: float) -> bool:
    """Whether the grader ``pid`` that made a cgroup at ``made`` has ended (its pid may be reused:
    a process that started after the cgroup was made is not its grader)."""
    started = _started(pid)
    return started is None or started > made + 2.0  # (btime and ticks are coarse)


def _empty(folder: str) -> bool:
    """No process and no child cgroup in ``folder``."""
    try:
        with open(os.path.join(folder, "cgroup.procs"), encoding="ascii") as fh:
            if fh.read().strip():
                return False
        with os.scandir(folder) as entries:
            return not any(e.is_dir(follow_symlinks=False) for e in entries)
    except OSError:
        return False


def sweep_stale(parent: str, min_age: float | None = None) -> list[str]:
    """Remove the cgroups in ``parent`` that graders now gone left behind (see the module
    docstring), at least ``min_age`` s old (default :data:`STALE_AFTER_S`); return their paths.
    Works the same in a v1 controller's folder and in v2's."""
    import time

    min_age = STALE_AFTER_S if min_age is None else min_age
    removed: list[str] = []
    names: list[str] = []
    try:
        with os.scandir(parent) as entries:
            for entry in entries:
                if NAME.fullmatch(entry.name) and entry.is_dir(follow_symlinks=False):
                    names.append(entry.name)
                    if len(names) >= SWEEP_AT_MOST:
                        break
    except OSError:
        return removed
    for name in names:
        match = NAME.fullmatch(name)
        assert match is not None
        folder = os.path.join(parent, name)
        try:
            made = os.lstat(folder).st_mtime
        except OSError:
            continue
        if (int(match["pid"]) == os.getpid() or time.time() - made < min_age
                or not _owner_gone(int(match["pid"]), made) or not _empty(folder)):
            continue
        try:
            os.rmdir(folder)
        except OSError:
            continue  # filled since, or gone already
        removed.append(folder)
    return removed


def _sweep_once(parent: str) -> None:
    with _lock:
        if parent in _swept:
            return
        _swept.add(parent)
    sweep_stale(parent)


def _name() -> str:
    with _lock:
        n = next(_counter)
    return f"baccarat-kit-{os.getpid()}-{n}-{secrets.token_hex(4)}"


def create(memory_mb: int, pids: int) -> tuple[Cgroup | None, str]:
    """A new cgroup for one sandbox, limited to ``memory_mb`` MB and ``pids`` tasks, and ``""``;
    or ``(None, reason)`` where the grader cannot make one."""
    version = layout()
    memory = memory_mb * 1024 * 1024
    name = _name()
    if version == 1:
        folders: dict[str, str] = {}
        for controller in ("memory", "pids"):
            parent = os.path.join(ROOT, controller, (_own(controller) or "/").lstrip("/"))
            _sweep_once(parent)
            folder = os.path.join(parent, name)
            try:
                os.mkdir(folder, 0o755)
            except OSError as err:
                Cgroup(1, folders, memory, pids).remove()
                return None, f"cannot make a cgroup in {parent}: {err.strerror}"
            folders[controller] = folder
        accounting = os.path.join(ROOT, "cpuacct")
        if os.path.isdir(accounting):  # optional: without it the grader reads the process tree
            parent = os.path.join(accounting, (_own("cpuacct") or "/").lstrip("/"))
            _sweep_once(parent)
            try:
                os.mkdir(os.path.join(parent, name), 0o755)
                folders["cpuacct"] = os.path.join(parent, name)
            except OSError:
                pass
        group = Cgroup(1, folders, memory, pids)
        mem = folders["memory"]
        ok = _write(os.path.join(mem, "memory.limit_in_bytes"), str(memory))
        if os.path.exists(os.path.join(mem, "memory.memsw.limit_in_bytes")):
            ok = _write(os.path.join(mem, "memory.memsw.limit_in_bytes"), str(memory)) and ok
        _write(os.path.join(mem, "memory.swappiness"), "0")
        ok = _write(os.path.join(folders["pids"], "pids.max"), str(pids)) and ok
        if not ok:
            group.remove()
            return None, "cannot set memory.limit_in_bytes / pids.max (cgroup v1)"
        return group, ""
    if version == 2:
        own = _own("") or "/"
        parent = os.path.join(ROOT, own.lstrip("/"))
        try:
            with open(os.path.join(parent, "cgroup.subtree_control"), encoding="ascii") as fh:
                enabled = fh.read().split()
        except OSError as err:
            return None, f"cannot read {parent}/cgroup.subtree_control: {err.strerror}"
        if not {"memory", "pids"} <= set(enabled) and not _write(
                os.path.join(parent, "cgroup.subtree_control"), "+memory +pids"):
            return None, (f"the memory and pids controllers are not delegated to {parent} (cgroup v2): run the "
                          "grader as root in the root cgroup, or under `systemd-run --scope -p Delegate=yes`")
        _sweep_once(parent)
        folder = os.path.join(parent, name)
        try:
            os.mkdir(folder, 0o755)
        except OSError as err:
            return None, f"cannot make a cgroup in {parent}: {err.strerror}"
        group = Cgroup(2, {"memory": folder, "pids": folder}, memory, pids)
        ok = _write(os.path.join(folder, "memory.max"), str(memory))
        _write(os.path.join(folder, "memory.swap.max"), "0")
        ok = _write(os.path.join(folder, "pids.max"), str(pids)) and ok
        if not ok:
            group.remove()
            return None, "cannot set memory.max / pids.max (cgroup v2)"
        return group, ""
    return None, "no cgroup hierarchy with the memory and pids controllers under /sys/fs/cgroup"
