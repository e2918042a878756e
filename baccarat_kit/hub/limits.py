"""A memory (and process-count) limit per learner: one cgroup each, v1 or v2.

Without systemd there is no ``MemoryMax=`` slice per user (TLJH's way), so the hub, as root,
makes ``baccarat-hub/jupyter-NAME`` itself and moves the learner's server into it before it
drops to the learner's uid; every kernel and terminal the server starts stays inside (a child
cannot leave a cgroup it has no write access to), so the limit holds for all of a learner's
processes together, unlike an rlimit (per process).

* **cgroup v1** (these machines: ``/sys/fs/cgroup/memory``, ``/sys/fs/cgroup/pids``): one folder
  per controller; ``memory.limit_in_bytes`` (and ``memory.memsw.limit_in_bytes`` where swap is
  accounted), ``pids.max``.
* **cgroup v2** (most current distributions): one folder; ``memory.max``, ``memory.swap.max``
  (0: the limit is not dodged by swapping), ``pids.max``, once the parent's
  ``cgroup.subtree_control`` enables ``memory`` and ``pids``.

Where neither can be written (an unprivileged container, a read-only ``/sys/fs/cgroup``),
:func:`make` returns None and the hub logs that learners run without a limit.
"""

from __future__ import annotations

import contextlib
import os
import signal
from dataclasses import dataclass
from pathlib import Path

ROOT = Path("/sys/fs/cgroup")
PARENT = "baccarat-hub"


@dataclass(frozen=True)
class Cgroup:
    """A learner's cgroup: its folder(s) (one per v1 controller, one in v2)."""

    version: int
    folders: tuple[Path, ...]

    def enter(self, pid: int) -> None:
        """Move ``pid`` in (the hub calls it in the new process before it becomes the learner)."""
        for folder in self.folders:
            with open(folder / "cgroup.procs", "w") as out:
                out.write(str(pid))

    def pids(self) -> set[int]:
        found: set[int] = set()
        for folder in self.folders:
            with contextlib.suppress(OSError):
                found.update(int(x) for x in (folder / "cgroup.procs").read_text().split())
        return found

    def memory_limit(self) -> int | None:
        for folder in self.folders:
            for name in ("memory.limit_in_bytes", "memory.max"):
                with contextlib.suppress(OSError, ValueError):
                    return int((folder / name).read_text().strip())
        return None


def version(root: Path = ROOT) -> int | None:
    """2 for a unified hierarchy, 1 for v1 controllers, None if neither is there."""
    if (root / "cgroup.controllers").is_file():
        return 2
    if (root / "memory" / "cgroup.procs").is_file():
        return 1
    return None


def folders(unix: str, root: Path = ROOT, parent: str = PARENT) -> tuple[int | None, tuple[Path, ...]]:
    v = version(root)
    if v == 2:
        return v, (root / parent / unix,)
    if v == 1:
        return v, tuple(root / c / parent / unix for c in ("memory", "pids")
                        if (root / c / "cgroup.procs").is_file())
    return None, ()


def _write(path: Path, value: object) -> None:
    with open(path, "w") as out:
        out.write(str(value))


def make(unix: str, memory: int | None, pids: int | None = None, root: Path = ROOT,
         parent: str = PARENT) -> Cgroup | None:
    """The learner's cgroup with its limits set (None where cgroups cannot be written here)."""
    v, paths = folders(unix, root, parent)
    if v is None or not paths:
        return None
    try:
        if v == 2:
            top = root / parent
            top.mkdir(exist_ok=True)
            wanted = [c for c in ("memory", "pids")
                      if c in (top / "cgroup.controllers").read_text().split()]
            if wanted:
                _write(top / "cgroup.subtree_control", " ".join(f"+{c}" for c in wanted))
            paths[0].mkdir(exist_ok=True)
            if memory:
                _write(paths[0] / "memory.max", memory)
                if (paths[0] / "memory.swap.max").exists():
                    _write(paths[0] / "memory.swap.max", 0)
            if pids and (paths[0] / "pids.max").exists():
                _write(paths[0] / "pids.max", pids)
        else:
            for folder in paths:
                folder.mkdir(parents=True, exist_ok=True)
                if folder.parts[-3] == "memory" and memory:
                    _write(folder / "memory.limit_in_bytes", memory)
                    if (folder / "memory.memsw.limit_in_bytes").exists():
                        _write(folder / "memory.memsw.limit_in_bytes", memory)
                if folder.parts[-3] == "pids" and pids:
                    _write(folder / "pids.max", pids)
    except OSError:
        return None
    return Cgroup(v, paths)


def remove(unix: str, root: Path = ROOT, parent: str = PARENT) -> None:
    """End what is left in the learner's cgroup and remove it (after their server stopped)."""
    v, paths = folders(unix, root, parent)
    if v is None:
        return
    group = Cgroup(v, tuple(p for p in paths if p.is_dir()))
    for _ in range(20):
        left = group.pids()
        if not left:
            break
        for pid in left:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
        import time

        time.sleep(0.05)
    for folder in group.folders:
        with contextlib.suppress(OSError):
            folder.rmdir()
