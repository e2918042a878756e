"""A Dask cluster of separate processes on 127.0.0.1 (TLS with ``baccarat-kit dask-certs``) and a
class of submissions, for tests/test_grading_dask.py and benchmarks/bench_dask.py.

:class:`ProcessCluster` starts ``dask scheduler`` and ``dask worker`` (``python -m
distributed.cli…``, as an instructor would) each in its own process group, every port on
127.0.0.1 (the scheduler's and workers' HTTP ports too), Dask's configuration and temporary files
in the given folder; :meth:`ProcessCluster.stop` ends only the groups it started.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SOURCES = sorted((ROOT / "exercises" / "source").glob("*.ipynb"))
FIXTURES = ROOT / "tests" / "fixtures" / "submissions"


def make_class(folder: Path, size: int = 60) -> list[Path]:
    """``size`` submissions (at least 20) in learner folders, like ``collect`` makes them: each
    exercise's model solution twice and its blank learner copy (these run in kernels), two
    hostile fixtures that run too, and quick ones (not JSON, not a notebook) for the rest."""
    kernels = [*(s for s in SOURCES for _ in range(2)), *(ROOT / "exercises" / s.name for s in SOURCES),
               FIXTURES / "deleted-cells.ipynb", FIXTURES / "cheat-fake-pass.ipynb"]
    quick = [FIXTURES / "not-json.ipynb", FIXTURES / "not-a-notebook.ipynb"]
    if size < len(kernels):
        raise ValueError(f"a class of {size} is too small: at least {len(kernels)}")
    chosen = kernels + [quick[i % 2] for i in range(size - len(kernels))]
    # spread the kernel-running ones through the batch, as a real class would be
    order = sorted(range(size), key=lambda i: (i * 7919) % size)
    paths = []
    for n, i in enumerate(order):
        src = chosen[i]
        target = folder / f"learner-{n:03d}" / src.name
        target.parent.mkdir(parents=True)
        shutil.copyfile(src, target)
        paths.append(target)
    return paths


class ProcessCluster:
    """A scheduler and workers, each a process of its own (see the module docstring)."""

    def __init__(self, folder: Path, certs: Path, workers: int = 2,
                 preexec: Callable[[str], None] | None = None, roles: bool = True) -> None:
        """``preexec(name)`` runs in each new process before it starts (the benchmark puts the
        scheduler and the workers into cgroups of their own); ``roles``: load the kit's role
        gate into each (``--preload baccarat_kit.grading.dask_roles``, as docs/grading.md says)."""
        self.folder, self.certs, self.preexec = folder, certs, preexec
        self.preload = ["--preload", "baccarat_kit.grading.dask_roles"] if roles else []
        (folder / "dask-config").mkdir(parents=True, exist_ok=True)
        self.env = {**os.environ, "DASK_CONFIG": str(folder / "dask-config"),
                    "DASK_TEMPORARY_DIRECTORY": str(folder), "PYTHONWARNINGS": "ignore",
                    # a worker the tests kill leaves its submission's folder in the test's folder
                    "TMPDIR": str(folder),
                    # the workers' statistical profiler (every 10 ms) roughly doubles an idle worker's CPU
                    "DASK_DISTRIBUTED__WORKER__PROFILE__ENABLED": "False"}
        self.procs: dict[str, subprocess.Popen[bytes]] = {}
        tls = ["--tls-ca-file", str(certs / "ca.pem")]
        sched_file = folder / "scheduler.json"
        self._start("scheduler", ["distributed.cli.dask_scheduler", "--host", "127.0.0.1", "--port", "0",
                                  "--protocol", "tls", *tls, "--tls-cert", str(certs / "scheduler.pem"),
                                  "--tls-key", str(certs / "scheduler.key"), "--scheduler-file", str(sched_file),
                                  "--no-dashboard", "--dashboard-address", "127.0.0.1:0", *self.preload])
        deadline = time.monotonic() + 120
        while not sched_file.is_file() or not sched_file.read_text(encoding="utf-8").strip().endswith("}"):
            if self.procs["scheduler"].poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"the scheduler did not start: {self.log('scheduler')[-2000:]}")
            time.sleep(0.2)
        self.address = str(json.loads(sched_file.read_text(encoding="utf-8"))["address"])
        self.tls = tls
        for n in range(1, workers + 1):
            self.start_worker(f"w{n}")

    def start_worker(self, name: str) -> None:
        self._start(name, ["distributed.cli.dask_worker", self.address, "--name", name, "--nthreads", "1",
                           "--no-nanny", "--memory-limit", "0", "--host", "127.0.0.1", "--no-dashboard",
                           "--dashboard-address", "127.0.0.1:0", "--local-directory", str(self.folder / name),
                           *self.tls, "--tls-cert", str(self.certs / "worker.pem"),
                           "--tls-key", str(self.certs / "worker.key"), *self.preload])

    def _start(self, name: str, argv: list[str]) -> None:
        log = (self.folder / f"{name}.log").open("wb")
        self.procs[name] = subprocess.Popen([sys.executable, "-m", *argv], stdout=log, stderr=subprocess.STDOUT,
                                            stdin=subprocess.DEVNULL, env=self.env, start_new_session=True,
                                            preexec_fn=partial(self.preexec, name) if self.preexec else None)
        log.close()

    def log(self, name: str) -> str:
        return (self.folder / f"{name}.log").read_text(encoding="utf-8", errors="replace")

    def kill(self, name: str) -> None:
        """SIGKILL the group of ``name`` (as a machine that dies), and reap it."""
        proc = self.procs[name]
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        proc.wait(timeout=30)

    def stop(self) -> None:
        for name in reversed(list(self.procs)):
            proc = self.procs[name]
            if proc.poll() is None:
                try:
                    os.killpg(proc.pid, signal.SIGTERM)
                    proc.wait(timeout=10)
                except (ProcessLookupError, subprocess.TimeoutExpired):
                    self.kill(name)
