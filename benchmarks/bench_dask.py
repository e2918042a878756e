"""What grading costs per file through Dask (``baccarat-kit grade --scheduler``) against a local run
of the same files, and what that makes of 60,000 files on N workers.

Run by hand (not a timed test):

    .venv/bin/python benchmarks/bench_dask.py [--copies 8] [--workers 2] [--runs 1]

The batch is bench_grade.py's (every file runs in a kernel): for each of the six exercises its
model solution, the blank learner copy and ``--copies`` wrong copies, so 60 files by default.
Each run grades it twice, in alternating order: locally (``grade --jobs WORKERS``) and through a
TLS cluster of one scheduler and WORKERS one-thread workers, separate processes on 127.0.0.1
(tests/dask_local.py); the cluster is started before the timed part and its start is reported
apart. CPU is read from a cgroup of its own for each part (the local grader; the workers; the
scheduler; the client), so the sandboxes' processes, which are reaped inside their PID namespaces,
count too: cgroup v1 ``cpuacct`` or cgroup v2 ``cpu.stat``, whichever this machine has (printed);
without either, only the client's and workers' own CPU (``RUSAGE``) is shown and said to be partial.

The extrapolation: a worker thread grades one file at a time, so 60,000 files on N one-thread
workers take about 60,000 x (wall per file per worker) / N; the figure measured here (2 cores,
shared) and the CPU-bound one (each worker a core of its own: CPU per file) are both printed,
with the scheduler's and client's CPU per file, which do not shrink with N.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
sys.path.insert(0, str(ROOT / "tests"))
from bench_grade import make_batch  # noqa: E402
from dask_local import ProcessCluster  # noqa: E402

from baccarat_kit.grading.cluster import make_certs  # noqa: E402


class CpuGroup:
    """A cgroup (v1 cpuacct or v2) whose CPU time is read in seconds; ``None`` kind without one."""

    def __init__(self, name: str) -> None:
        self.path: Path | None = None
        self.kind = "none"
        for base, kind in ((Path("/sys/fs/cgroup/cpuacct"), "v1 cpuacct"), (Path("/sys/fs/cgroup/unified"), "v2"),
                           (Path("/sys/fs/cgroup"), "v2")):
            probe = base / ("cpuacct.usage" if kind.startswith("v1") else "cpu.stat")
            if not probe.is_file():
                continue
            try:
                path = base / f"bk-bench-dask-{name}-{uuid.uuid4().hex[:8]}"
                path.mkdir()
            except OSError:
                continue
            self.path, self.kind = path, kind
            break

    def join(self) -> None:
        """Move the calling process in (used as ``preexec_fn``, in the child)."""
        if self.path is not None:
            (self.path / "cgroup.procs").write_text(str(os.getpid()))

    def seconds(self) -> float:
        if self.path is None:
            return float("nan")
        if self.kind.startswith("v1"):
            return int((self.path / "cpuacct.usage").read_text()) / 1e9
        stats = dict(line.split() for line in (self.path / "cpu.stat").read_text().splitlines())
        return int(stats["usage_usec"]) / 1e6

    def remove(self) -> None:
        if self.path is not None:
            for _ in range(50):
                try:
                    self.path.rmdir()
                    return
                except OSError:
                    time.sleep(0.1)


@contextmanager
def group(name: str) -> Iterator[CpuGroup]:
    g = CpuGroup(name)
    try:
        yield g
    finally:
        g.remove()


def grade(paths: list[Path], out: Path, extra: list[str], cpu: CpuGroup) -> tuple[float, float, float]:
    """Wall, cgroup CPU and own+children rusage CPU of one ``baccarat-kit grade`` process."""
    before = cpu.seconds()
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "baccarat_kit.cli", "grade", *map(str, paths), "--out", str(out),
                           "--no-progress", *extra], capture_output=True, text=True, check=False,
                          preexec_fn=cpu.join)
    wall = time.perf_counter() - start
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode:
        raise SystemExit(f"grade failed: {proc.stderr[-2000:]}")
    return wall, cpu.seconds() - before, (r1.ru_utime + r1.ru_stime) - (r0.ru_utime + r0.ru_stime)


def rows(out: Path) -> list[dict[str, object]]:
    subs = json.loads((out / "results.json").read_text(encoding="utf-8"))["submissions"]
    for s in subs:
        s.pop("graded_at", None)
    return subs


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--copies", type=int, default=8, help="wrong copies per exercise (default 8: 60 files)")
    parser.add_argument("--workers", type=int, default=2, help="Dask workers (one thread each) and local --jobs")
    parser.add_argument("--runs", type=int, default=1)
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="bk-bench-dask-"))
    try:
        batch = work / "batch"
        batch.mkdir()
        paths = make_batch(batch, args.copies)
        n = len(paths)
        make_certs(work / "certs")
        with group("local") as g_local, group("workers") as g_workers, group("scheduler") as g_sched, \
                group("client") as g_client:
            print(f"{n} notebooks, {args.workers} workers / --jobs {args.workers}, {args.runs} run(s); "
                  f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}; CPU from cgroup {g_local.kind}")
            start = time.perf_counter()
            cluster = _start_cluster(work, args.workers, g_sched, g_workers)
            print(f"cluster up (scheduler + {args.workers} workers, TLS) in {time.perf_counter() - start:.1f} s")
            try:
                local, remote = [], []
                sched0, workers0 = g_sched.seconds(), g_workers.seconds()
                for run in range(args.runs):
                    order = ["local", "dask"] if run % 2 == 0 else ["dask", "local"]
                    for which in order:
                        out = work / f"{which}-{run}"
                        if which == "local":
                            wall, cpu, rus = grade(paths, out, ["--jobs", str(args.workers)], g_local)
                            local.append((wall, cpu, rus))
                        else:
                            w0, s0 = g_workers.seconds(), g_sched.seconds()
                            wall, cpu, rus = grade(paths, out, ["--scheduler", cluster.address, "--certs",
                                                                str(work / "certs")], g_client)
                            remote.append((wall, cpu, rus, g_workers.seconds() - w0, g_sched.seconds() - s0))
                        print(f"run {run + 1}: {which:5s} wall {wall:6.1f} s, CPU {cpu:6.1f} s"
                              + (f" (workers {remote[-1][3]:.1f} s, scheduler {remote[-1][4]:.1f} s)"
                                 if which == "dask" else ""), flush=True)
                    same = rows(work / f"local-{run}") == rows(work / f"dask-{run}")
                    print(f"run {run + 1}: results.json rows (timings aside) {'identical' if same else 'DIFFER'}")
                idle_sched = g_sched.seconds() - sched0 - sum(r[4] for r in remote)
                idle_workers = g_workers.seconds() - workers0 - sum(r[3] for r in remote)
            finally:
                cluster.stop()
        summarise(n, args.workers, local, remote, idle_sched, idle_workers)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def summarise(n: int, workers_used: int, local: list[tuple[float, float, float]],
              remote: list[tuple[float, float, float, float, float]], idle_sched: float, idle_workers: float) -> None:
    """Print the per-file figures and the extrapolation from the measured runs: ``local`` rows are
    (wall, CPU, rusage), ``remote`` rows (wall, client CPU, rusage, workers' CPU, scheduler's CPU)."""
    lw = statistics.median(r[0] for r in local)
    lc = statistics.median(r[1] for r in local)
    dw = statistics.median(r[0] for r in remote)
    dc_client = statistics.median(r[1] for r in remote)
    dc_workers = statistics.median(r[3] for r in remote)
    dc_sched = statistics.median(r[4] for r in remote)
    print(f"per file, local:  wall {lw / n:.3f} s, CPU {lc / n:.3f} s (the grader and its sandboxes)")
    print(f"per file, dask:   wall {dw / n:.3f} s, CPU {(dc_workers + dc_client + dc_sched) / n:.3f} s = "
          f"workers {dc_workers / n:.3f} + client {dc_client / n:.3f} + scheduler {dc_sched / n:.3f}")
    idle_time = sum(r[0] for r in local)  # the cluster is idle while the local runs go
    idle_rate = idle_workers / idle_time if idle_time else 0.0
    sched_rate = idle_sched / idle_time if idle_time else 0.0
    net = (dc_workers - idle_rate * dw) / n
    sched_net = max(0.0, (dc_sched - sched_rate * dw) / n)
    print(f"(CPU while the cluster was idle during the local runs: scheduler {idle_sched:.1f} s, workers "
          f"{idle_workers:.1f} s; without that Dask background, per file: workers {net:.3f} CPU-s, "
          f"scheduler {sched_net:.4f} CPU-s, i.e. one scheduler core keeps up with about "
          f"{1 / sched_net if sched_net else float('inf'):.0f} files/s)")
    per_worker_wall = dw * workers_used / n  # seconds one worker thread spends per file, as measured here
    cpu_file = dc_workers / n
    print("60,000 files on N one-thread workers (each on a core of its own for the CPU-bound figure):")
    print(f"{'N':>6} {'as measured here':>18} {'CPU-bound':>12} {'(scheduler-bound)':>18}")
    floor = 60_000 * sched_net  # the scheduler's own time for the tasks: no N goes faster
    for workers in (2, 10, 50, 100, 500):
        bound = 60_000 * cpu_file / workers
        print(f"{workers:>6} {_hours(60_000 * per_worker_wall / workers):>18} {_hours(max(bound, floor)):>12} "
              f"{'yes' if floor > bound else '':>18}")
    print(f"worker CPU for 60,000 files: {_hours(60_000 * cpu_file)} ({_hours(60_000 * net)} without Dask's "
          f"background); scheduler, grading only: {_hours(floor)}")
    print(f"client (instructor's machine) CPU for 60,000 files: {_hours(60_000 * dc_client / n)}")


def _start_cluster(work: Path, workers: int, g_sched: CpuGroup, g_workers: CpuGroup) -> ProcessCluster:
    """tests/dask_local.py's cluster, the scheduler and the workers each in their cgroup."""
    from distributed import Client

    from baccarat_kit.grading.cluster import security

    def join(name: str) -> None:
        (g_sched if name == "scheduler" else g_workers).join()

    cluster = ProcessCluster(work / "cluster", work / "certs", workers=workers, preexec=join)
    with Client(cluster.address, security=security(work / "certs"), timeout="60s", set_as_default=False) as c:
        c.wait_for_workers(workers, timeout=120)
    return cluster


def _hours(seconds: float) -> str:
    return f"{seconds / 3600:.2f} h" if seconds >= 360 else f"{seconds / 60:.1f} min"


if __name__ == "__main__":
    main()
