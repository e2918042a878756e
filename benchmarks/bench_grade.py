"""How much faster ``baccarat-kit grade`` (every submission in its own bubblewrap sandbox) is than
plain ``jupyter nbconvert --to notebook --execute`` on the same notebooks, at the same parallelism,
and what the bytecode caches of the grader's environment are worth.

Run by hand (not a timed test):

    .venv/bin/python benchmarks/bench_grade.py [--copies 4] [--jobs 2] [--runs 3]

The grader runs from two fresh venvs made here with uv (``.[grade]`` installed non-editable, as
``hub setup`` and a wheel install do, versions from requirements/test.lock): one installed with
``--compile-bytecode`` ("caches"), one as uv installs by default ("no caches"). A sandbox reads
its venv read-only with ``PYTHONDONTWRITEBYTECODE=1``, so without caches every submission
compiles IPython and the kit again. ``--no-venvs`` grades from this venv alone (as it is).
``--against PYTHON`` also grades with another checkout's venv (before a change) in the same runs,
in turn with the others, and prints the CPU ratio of the two.

The batch is class-sized: for each of the six exercises its model solution, the learner's blank
copy and ``--copies`` wrong copies (the solution with some answers replaced by wrong values or a
wrong function, a different subset each), so 36 files by default. Each run times both, in
alternating order (the grader first in even runs, nbconvert first in odd ones), each as a fresh
subprocess; nbconvert executes every notebook once, with ``--allow-errors`` (a blank copy stops
at its first ``...`` otherwise), no sandbox and no grading at all: the least that nbgrader and
otter do per notebook. Prints each run, the medians, their ratio and the grader's peak memory
(largest resident size of the grader process and of the children it reaped itself). Wall time
depends on the machine's load (both sides slow down, nbconvert's start-up, which imports
jsonschema's grammars, the most): report the load average with the figures.
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent


def wrong_copy(nb: dict, variant: int, copies: int) -> dict:
    """The solution with every ``copies``-th question (from ``variant``) answered wrongly."""
    out = copy.deepcopy(nb)
    questions = nb["metadata"]["baccarat_kit"]["questions"]
    lines = []
    for i, q in enumerate(questions):
        if i % copies != variant:
            continue
        if q["kind"] == "function":
            lines.append(f"def {q['answer']}(*args):\n    return 0")
        else:
            lines.append(f"{q['answer']} = None")
    out["cells"].append({"cell_type": "code", "execution_count": None, "id": f"wrong-{variant}", "metadata": {},
                         "outputs": [], "source": "\n".join(lines) or "pass"})
    return out


def make_batch(folder: Path, copies: int) -> list[Path]:
    paths = []
    for source in sorted((ROOT / "exercises" / "source").glob("*.ipynb")):
        from baccarat_kit.grading.term.authoring import read_source

        nb = read_source(source)  # the source as grading reads it (its questions written in cells)
        stem = source.stem
        (folder / f"{stem}-solution.ipynb").write_text(json.dumps(nb, ensure_ascii=False), encoding="utf-8")
        shutil.copy(ROOT / "exercises" / source.name, folder / f"{stem}-blank.ipynb")
        paths += [folder / f"{stem}-solution.ipynb", folder / f"{stem}-blank.ipynb"]
        for k in range(copies):
            path = folder / f"{stem}-wrong{k}.ipynb"
            path.write_text(json.dumps(wrong_copy(nb, k, copies), ensure_ascii=False), encoding="utf-8")
            paths.append(path)
    return paths


class CpuMeter:
    """CPU time (user + system, every descendant included, also those reaped inside a sandbox's PID
    namespace) of the commands run through :meth:`wrap`: a cgroup v1 ``cpuacct`` group of the
    benchmark's own (root), or v2 ``cpu.stat``; None where neither can be made."""

    def __init__(self, name: str) -> None:
        from baccarat_kit.grading.sandbox.cgroup import ROOT, _own

        self.folder: str | None = None
        v1 = os.path.join(ROOT, "cpuacct")
        parent = os.path.join(v1, (_own("cpuacct") or "/").lstrip("/")) if os.path.isdir(v1) else \
            os.path.join(ROOT, (_own("") or "/").lstrip("/"))
        folder = os.path.join(parent, f"bk-bench-{name}-{os.getpid()}")
        try:
            os.mkdir(folder)
            self.folder = folder
        except OSError:
            pass
        self.v1 = os.path.isdir(v1)

    def wrap(self, argv: list[str]) -> list[str]:
        from baccarat_kit.grading.sandbox.cgroup import JOIN_SCRIPT

        if self.folder is None:
            return argv
        return ["/bin/sh", "-c", JOIN_SCRIPT, "sh", os.path.join(self.folder, "cgroup.procs"), "--", *argv]

    def seconds(self) -> float | None:
        if self.folder is None:
            return None
        if self.v1:
            return int(Path(self.folder, "cpuacct.usage").read_text()) / 1e9
        stat = dict(line.split() for line in Path(self.folder, "cpu.stat").read_text().splitlines())
        return int(stat["usage_usec"]) / 1e6

    def remove(self) -> None:
        if self.folder is not None:
            try:
                os.rmdir(self.folder)
            except OSError:
                pass


def make_venv(folder: Path, compiled: bool) -> Path:
    """A fresh venv with the kit's [grade] extra installed non-editable; its python."""
    uv = shutil.which("uv") or str(BIN / "uv")
    subprocess.run([uv, "venv", "--quiet", "--python", sys.executable, str(folder)], check=True)
    py = folder / "bin" / "python"
    cmd = [uv, "pip", "install", "--quiet", "--python", str(py), "-c", str(ROOT / "requirements" / "test.lock"),
           "--override", str(ROOT / "baccarat_kit" / "data" / "uv-overrides.txt"), f"{ROOT}[grade]"]
    if compiled:
        cmd.insert(4, "--compile-bytecode")
    env = {k: v for k, v in os.environ.items() if k != "UV_COMPILE_BYTECODE"}
    if subprocess.run([*cmd, "--offline"], env=env, check=False, stderr=subprocess.DEVNULL).returncode:
        subprocess.run(cmd, env=env, check=True)
    return py


def grade(paths: list[Path], out: Path, jobs: int, meter: CpuMeter | None = None,
          python: str = sys.executable) -> tuple[float, int]:
    script = ("import json, resource, sys\nfrom baccarat_kit.cli import main\ncode = main(sys.argv[1:])\n"
              "sys.stderr.write('PEAK ' + json.dumps([resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,"
              " resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss]) + '\\n')\nraise SystemExit(code)\n")
    start = time.perf_counter()
    argv = [python, "-c", script, "grade", *map(str, paths), "--out", str(out), "--jobs", str(jobs),
            "--no-progress"]
    proc = subprocess.run(meter.wrap(argv) if meter else argv, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - start
    if proc.returncode:
        raise SystemExit(f"grade failed: {proc.stderr[-2000:]}")
    peak = json.loads(proc.stderr.rsplit("PEAK ", 1)[1])
    grade.peaks.append(peak)  # type: ignore[attr-defined]
    return wall, proc.returncode


grade.peaks = []  # type: ignore[attr-defined]


def nbconvert(paths: list[Path], out: Path, jobs: int, env: dict[str, str],
              meter: CpuMeter | None = None) -> tuple[float, int]:
    out.mkdir(parents=True, exist_ok=True)

    def one(path: Path) -> int:
        argv = [str(BIN / "jupyter"), "nbconvert", "--to", "notebook", "--execute", "--allow-errors",
                "--ExecutePreprocessor.timeout=60", "--ExecutePreprocessor.kernel_name=python3",
                "--output-dir", str(out), str(path)]
        return subprocess.run(meter.wrap(argv) if meter else argv,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, check=False).returncode

    start = time.perf_counter()
    with ThreadPoolExecutor(jobs) as pool:
        codes = list(pool.map(one, paths))
    wall = time.perf_counter() - start
    if any(codes):
        raise SystemExit(f"nbconvert failed on {sum(1 for c in codes if c)} notebook(s)")
    return wall, 0


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--copies", type=int, default=4, help="wrong copies per exercise (default 4: 36 files)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--no-venvs", action="store_true", help="grade from this venv only (no caches comparison)")
    parser.add_argument("--against", metavar="PYTHON", help="also grade with this Python (another checkout's venv, "
                        "e.g. before a change) in the same runs, and compare its CPU with this one's")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="bk-bench-grade-"))
    try:
        batch = work / "batch"
        batch.mkdir()
        paths = make_batch(batch, args.copies)
        home = work / "home"
        home.mkdir()
        env = {**os.environ, "HOME": str(home), "JUPYTER_CONFIG_DIR": str(home / ".jupyter"),
               "JUPYTER_DATA_DIR": str(home / ".local"), "IPYTHONDIR": str(home / ".ipython"),
               "MPLCONFIGDIR": str(home / ".mpl"), "MPLBACKEND": "Agg"}
        if args.no_venvs:
            graders = {"grade": sys.executable}
        else:
            graders = {"grade": str(make_venv(work / "venv-caches", True)),
                       "grade-no-caches": str(make_venv(work / "venv-no-caches", False))}
        if args.against:
            graders["grade-against"] = args.against
        jobs = [*graders, "nbconvert"]
        print(f"{len(paths)} notebooks, --jobs {args.jobs}, {args.runs} runs; load average "
              f"{', '.join(f'{x:.1f}' for x in os.getloadavg())} (1, 5, 15 min; 2 cores, shared)")
        wall: dict[str, list[float]] = {j: [] for j in jobs}
        cpu: dict[str, list[float]] = {j: [] for j in jobs}
        for run in range(args.runs):
            order = jobs[run % len(jobs):] + jobs[:run % len(jobs)]  # each job first in turn
            for which in order:
                meter = CpuMeter(f"{which}-{run}")
                try:
                    if which == "nbconvert":
                        took, _ = nbconvert(paths, work / f"nbconvert-{run}", args.jobs, env, meter)
                    else:
                        took, _ = grade(paths, work / f"out-{which}-{run}", args.jobs, meter, graders[which])
                    used = meter.seconds()
                finally:
                    meter.remove()
                wall[which].append(took)
                if used is not None:
                    cpu[which].append(used)
                shown = f", CPU {used:6.1f} s ({used / len(paths):.2f} s per file)" if used is not None else ""
                print(f"run {run + 1}: {which:15s} {took:6.1f} s wall{shown}; load {os.getloadavg()[0]:.1f}", flush=True)
        print(f"load average after: {', '.join(f'{x:.1f}' for x in os.getloadavg())}")
        a, b = statistics.median(wall["grade"]), statistics.median(wall["nbconvert"])
        ratios = [t / o for o, t in zip(wall["grade"], wall["nbconvert"], strict=True)]
        print(f"wall, median: baccarat-kit grade {a:.1f} s, nbconvert --execute {b:.1f} s: {b / a:.1f}x "
              f"(per-run ratios {', '.join(f'{r:.1f}' for r in ratios)})")
        self_kb = max(p[0] for p in grade.peaks)  # type: ignore[attr-defined]
        child_kb = max(p[1] for p in grade.peaks)  # type: ignore[attr-defined]
        print(f"grader peak memory: {self_kb / 1024:.0f} MB (its own process), {child_kb / 1024:.0f} MB (largest "
              "child it reaped: the template the readers and runners fork from, or the readers it started; "
              "a sandbox's processes are reaped by the template or inside their PID namespace and not counted here)")
        if all(cpu.values()):
            n = len(paths)
            per = {j: statistics.median(v) / n for j, v in cpu.items()}
            print("CPU per file, median: " + ", ".join(f"{j} {v:.2f} s" for j, v in per.items()))
            for j in graders:
                rs = [t / o for o, t in zip(cpu[j], cpu["nbconvert"], strict=True)]
                print(f"  nbconvert --execute / {j}: {statistics.median(rs):.1f}x less CPU "
                      f"(per run {', '.join(f'{r:.1f}' for r in rs)})")
            if "grade-against" in cpu:
                rs = [t / o for o, t in zip(cpu["grade-against"], cpu["grade"], strict=True)]
                print(f"  grade / grade-against ({args.against}): {statistics.median(rs):.3f}x the CPU "
                      f"(per run {', '.join(f'{r:.3f}' for r in rs)})")
            if "grade-no-caches" in cpu:
                rs = [t / o for o, t in zip(cpu["grade"], cpu["grade-no-caches"], strict=True)]
                print(f"  no caches / caches: {statistics.median(rs):.2f}x the CPU "
                      f"(per run {', '.join(f'{r:.2f}' for r in rs)})")
        results = json.loads((work / "out-grade-0" / "results.json").read_text(encoding="utf-8"))
        full = sum(1 for s in results["submissions"]  # written answers are pending (scored by hand)
                   if s["score"] == s["max_score"] - s.get("pending_points", 0))
        print(f"check: {full} of {len(paths)} at full marks (the {len(paths) // (args.copies + 2)} solutions); "
              f"sandbox: {results['limits']['sandbox']}; limits: {results['limits'].get('scope', '?')}")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
