"""``bk.simulate`` against the best plain simulations we could write, in hands per CPU-second.

Run by hand (not a timed test):  .venv/bin/python benchmarks/bench_sim.py [--shoes 200000] [--repeat 7]
(runs of 20 000 shoes, a tenth of a second each, gave ratios 15 % apart from one run to the next
on a shared machine; 200 000 shoes take about 35 s in all)

Baselines (``benchmarks/baseline_sim.py``): the competent numpy technique of issue 19 (one
sort per shoe with the card value in the low bits of a random key, the outcome of a coup at
every position by one table look-up, one walk, batches of 1 024 shoes; it counts winners
only and skips the tie re-draw, so it does less than the kit) and, where numba installs, a
plain compiled loop (Fisher–Yates, then the coups one by one). Against them: ``bk.simulate``
with ``kernel="numpy"`` and ``kernel="numba"`` (the same random stream, the same coups),
totals only (``detail=False``) and every coup kept, and the default call itself
(``kernel="auto"``: numba where it is installed and the run is large, else numpy; the line
names the path it took).

The script first deals the same shuffled shoes through the kit and the numpy baseline and
checks that every coup's winner agrees, then runs every job in turn, ``--repeat`` times
(interleaved, so a busy moment hits all alike), and prints medians of CPU time (not wall
time: the machine is shared), the median of the per-round ratios and the ratio of the best
(least) CPU times of each job (best-of-N), with the load average before and after. The target
(issue 36): the default call at least 1.5x the competent numpy technique, numba or not.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import numpy as np
from baseline_sim import baseline_simulate, numba_simulate

import baccarat_kit as bk


def have_numba() -> bool:
    try:
        import numba  # noqa: F401
    except ImportError:
        return False
    return True


def check_same_coups(decks: int) -> int:
    sim = bk.simulate(shoes=300, decks=decks, seed=7, keep_cards=True, kernel="numpy")
    base = baseline_simulate(300, decks, values=sim.cards >> 2)
    assert np.array_equal(base["winner"], sim.winner), "baseline and bk.simulate disagree"
    return sim.hands


def one(func) -> tuple[float, int]:
    """CPU time of this process and the hands dealt."""
    c = time.process_time()
    hands = func()
    return time.process_time() - c, hands


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shoes", type=int, default=200000)
    parser.add_argument("--decks", type=int, default=8)
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    print(f"load average at start: {load()}  (2 cores shared; CPU time throughout)")
    print(f"same shoes dealt by the kit and the numpy baseline: {check_same_coups(args.decks)} coups agree")
    n, d = args.shoes, args.decks
    numba_here = have_numba()                     # (imports numba: the default call may then use it)
    auto = bk.simulation._dealer("auto", n * 52 * d)
    path = "numba" if auto is bk.simulation._numba_deal else "numpy"
    jobs = {
        "base": ("competent numpy technique (baseline_sim.py)",
                 lambda: baseline_simulate(n, d, seed=1)["hands"]),
        "auto": (f"bk.simulate(...), the default call: {path} path",
                 lambda: bk.simulate(shoes=n, decks=d, seed=1).hands),
        "numpy": ('bk.simulate(kernel="numpy"), totals (detail=False)',
                  lambda: bk.simulate(shoes=n, decks=d, seed=1, kernel="numpy").hands),
        "numpy+": ('bk.simulate(detail=True, kernel="numpy")',
                   lambda: bk.simulate(shoes=n, decks=d, seed=1, detail=True, kernel="numpy").hands),
    }
    if numba_here:
        numba_simulate(10, d)                               # compile outside the timing
        bk.simulate(shoes=10, decks=d, seed=1, kernel="numba")
        jobs["loop"] = ("plain numba loop (baseline_sim.py)", lambda: numba_simulate(n, d, seed=1)["hands"])
        jobs["numba"] = ('bk.simulate(kernel="numba"), totals (detail=False)',
                         lambda: bk.simulate(shoes=n, decks=d, seed=1, kernel="numba").hands)
        jobs["numba+"] = ('bk.simulate(detail=True, kernel="numba")',
                          lambda: bk.simulate(shoes=n, decks=d, seed=1, detail=True, kernel="numba").hands)
    else:
        print("numba is not installed: its rows are left out (pip install 'baccarat-kit[fast]')")
    runs: dict[str, list[tuple[float, int]]] = {name: [] for name in jobs}
    for _ in range(args.repeat):
        for name, (_, job) in jobs.items():
            runs[name].append(one(job))
    print(f"\n{n} shoes of {d} decks, medians of {args.repeat} interleaved runs")
    for name, (label, _) in jobs.items():
        cpu = statistics.median(r[0] for r in runs[name])
        hands = runs[name][0][1]
        print(f"  {label:48s} cpu {cpu:6.3f} s  {hands / cpu / 1e6:6.1f} M hands per CPU-second")
    print("ratios to the competent numpy technique (hands per CPU-second): median of per-round "
          "ratios, and best-of-N")
    for name, (label, _) in jobs.items():
        if name == "base":
            continue
        ratio = statistics.median(b[0] / f[0] * f[1] / b[1]
                                  for b, f in zip(runs["base"], runs[name], strict=True))
        best = min(b[0] for b in runs["base"]) / min(f[0] for f in runs[name]) * runs[name][0][1] / runs["base"][0][1]
        target = " (target >= 1.5x)" if name in ("auto", "numpy", "numba") else ""
        print(f"  {label:48s} {ratio:5.2f}x  best {best:5.2f}x{target}")
    print(f"load average at end: {load()}")


if __name__ == "__main__":
    main()
