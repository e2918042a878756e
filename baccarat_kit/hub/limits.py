"""Memory, process and CPU limits per learner: one cgroup each, v1 or v2.

Without systemd there is no ``MemoryMax=`` / ``CPUQuota=`` slice per user (TLJH's way), so the
hub, as root, makes ``baccarat-hub/jupyter-NAME`` itself and moves the learner's server into it
before it drops to the learner's uid; every kernel and terminal the server starts stays inside (a
child cannot leave a cgroup it has no write access to), so each limit holds for all of a
learner's processes together, unlike an rlimit (per process):

* **memory** (``c.Spawner.mem_limit``): swap included, so the limit is not dodged by swapping;
* **processes** (``pids_limit``): a fork bomb stops at it;
* **CPU** (``c.Spawner.cpu_limit``, in cores; JupyterHub's local spawner only passes it on): a
  CFS bandwidth quota of ``cores × period`` of CPU time per period for the whole cgroup, so one
  endless loop (or ten) of hers gets that share of one core and the others keep theirs.

The two layouts:

* **cgroup v1** (these machines): one folder per controller, ``memory/…``
  (``memory.limit_in_bytes``, ``memory.memsw.limit_in_bytes`` where swap is accounted),
  ``pids/…`` (``pids.max``), ``cpu/…`` (``cpu.cfs_quota_us`` of ``cpu.cfs_period_us``; the
  throttling counts in ``cpu.stat``) and, for the CPU time used, ``cpuacct/…``;
* **cgroup v2** (most current distributions): one folder; ``memory.max``, ``memory.swap.max`` 0,
  ``pids.max``, ``cpu.max`` (``"quota period"``), once the parent's ``cgroup.subtree_control``
  enables ``memory``, ``pids`` and ``cpu``; ``cpu.stat`` holds both the time used and the
  throttling counts.

The reading side (the OOM kills, the CPU time, the processes in it, removing it) is the grader's
:class:`baccarat_kit.grading.sandbox.cgroup.Cgroup`, which its sandboxes use: one reader of
cgroups in the kit. Where no cgroup can be written (an unprivileged container, a read-only
``/sys/fs/cgroup``), :func:`make` returns None and the hub logs that learners run without limits.
"""

from __future__ import annotations

import contextlib
import os
from dataclasses import dataclass
from pathlib import Path

from ..grading.sandbox import cgroup as _cgroup

ROOT = Path("/sys/fs/cgroup")
PARENT = "baccarat-hub"
V1_CONTROLLERS = ("memory", "pids", "cpu", "cpuacct")
V2_CONTROLLERS = ("memory", "pids", "cpu")
CFS_PERIOD_US = 100_000
"""The period of the CPU quota (the kernel's default, 100 ms): ``cpu_limit`` × this of CPU time
per period, for all of her processes together."""


@dataclass
class Cgroup(_cgroup.Cgroup):
    """A learner's cgroup (the grader's reader, plus what the hub writes and reads of it)."""

    def enter(self, pid: int) -> None:
        """Move ``pid`` in (the hub calls it in the new process before it becomes the learner)."""
        for procs in self.procs_files:
            with open(procs, "w", encoding="ascii") as out:
                out.write(str(pid))

    def memory_limit(self) -> int | None:
        folder = Path(self.folders["memory"])
        for name in ("memory.limit_in_bytes", "memory.max"):
            with contextlib.suppress(OSError, ValueError):
                return int((folder / name).read_text().strip())
        return None

    def cpu_quota(self) -> float | None:
        """The CPU limit set, in cores (quota / period); None if there is none."""
        folder = self.folders.get("cpu")
        if folder is None:
            return None
        with contextlib.suppress(OSError, ValueError, ZeroDivisionError):
            if self.version == 2:
                quota, period = (Path(folder) / "cpu.max").read_text().split()
                return None if quota == "max" else int(quota) / int(period)
            quota_us = int((Path(folder) / "cpu.cfs_quota_us").read_text())
            return None if quota_us < 0 else quota_us / int((Path(folder) / "cpu.cfs_period_us").read_text())
        return None


def version(root: Path = ROOT) -> int | None:
    """2 for a unified hierarchy, 1 for v1 controllers, None if neither is there."""
    if (root / "cgroup.controllers").is_file():
        return 2
    if (root / "memory" / "cgroup.procs").is_file():
        return 1
    return None


def folders(unix: str, root: Path = ROOT, parent: str = PARENT) -> tuple[int | None, dict[str, Path]]:
    """The learner's cgroup folder of each controller (v2: the same one for all)."""
    v = version(root)
    if v == 2:
        return v, dict.fromkeys(V2_CONTROLLERS, root / parent / unix)
    if v == 1:
        return v, {c: root / c / parent / unix for c in V1_CONTROLLERS if (root / c / "cgroup.procs").is_file()}
    return None, {}


def _write(path: Path, value: object) -> None:
    with open(path, "w", encoding="ascii") as out:
        out.write(str(value))


def _as_group(v: int, paths: dict[str, Path], memory: int | None = None, pids: int | None = None) -> Cgroup:
    return Cgroup(v, {c: str(p) for c, p in paths.items()}, memory or 0, pids or 0)


def make(unix: str, memory: int | None, pids: int | None = None, root: Path = ROOT,
         parent: str = PARENT, cpu: float | None = None) -> Cgroup | None:
    """The learner's cgroup with its limits set (None where cgroups cannot be written here).
    ``cpu``: cores (0.5: half of one core's time), for all of her processes together."""
    v, paths = folders(unix, root, parent)
    if v is None or not paths:
        return None
    try:
        if v == 2:
            top, folder = root / parent, paths["memory"]
            top.mkdir(exist_ok=True)
            wanted = [c for c in V2_CONTROLLERS if c in (top / "cgroup.controllers").read_text().split()]
            if wanted:
                _write(top / "cgroup.subtree_control", " ".join(f"+{c}" for c in wanted))
            folder.mkdir(exist_ok=True)
            if memory:
                _write(folder / "memory.max", memory)
                if (folder / "memory.swap.max").exists():
                    _write(folder / "memory.swap.max", 0)
            if pids and (folder / "pids.max").exists():
                _write(folder / "pids.max", pids)
            if cpu and (folder / "cpu.max").exists():
                _write(folder / "cpu.max", f"{max(1000, round(cpu * CFS_PERIOD_US))} {CFS_PERIOD_US}")
        else:
            for controller, folder in paths.items():
                folder.mkdir(parents=True, exist_ok=True)
                if controller == "memory" and memory:
                    _write(folder / "memory.limit_in_bytes", memory)
                    if (folder / "memory.memsw.limit_in_bytes").exists():
                        _write(folder / "memory.memsw.limit_in_bytes", memory)
                if controller == "pids" and pids:
                    _write(folder / "pids.max", pids)
                if controller == "cpu" and cpu:
                    _write(folder / "cpu.cfs_period_us", CFS_PERIOD_US)
                    _write(folder / "cpu.cfs_quota_us", max(1000, round(cpu * CFS_PERIOD_US)))
    except OSError:
        return None
    return _as_group(v, paths, memory, pids)


def find(unix: str, root: Path = ROOT, parent: str = PARENT) -> Cgroup | None:
    """The learner's cgroup as it is now (its folders that exist), or None."""
    v, paths = folders(unix, root, parent)
    present = {c: p for c, p in paths.items() if p.is_dir()}
    return _as_group(v, present) if v is not None and present else None


def remove(unix: str, root: Path = ROOT, parent: str = PARENT) -> None:
    """End what is left in the learner's cgroup and remove it (after their server stopped)."""
    group = find(unix, root, parent)
    if group is not None:
        group.remove(timeout=2.0)


def own_memory_group() -> _cgroup.Cgroup | None:
    """The memory cgroup this process is in (``/proc/self/cgroup``, read as the grader reads its
    own), for reading its counters (:mod:`.notice`); None at the root or where there is none."""
    v = _cgroup.layout()
    path = _cgroup._own("memory" if v == 1 else "") if v else None
    if v is None or not path or path == "/":
        return None
    folder = os.path.join(_cgroup.ROOT, "memory" if v == 1 else "", path.lstrip("/"))
    return _cgroup.Cgroup(v, {"memory": folder}, 0, 0) if os.path.isdir(folder) else None
