"""How much faster ``bk.exact_odds`` is than a plain pure-Python enumeration.

Run by hand (not a timed test):  .venv/bin/python benchmarks/bench_exact.py [--repeat 7]

Prints the median time of each over several runs, and the ratio. Both give exact
fractions; the script checks that they agree before timing anything.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import numpy as np
from baseline_exact import naive_exact_odds

import baccarat_kit as bk


def per_call(func, number: int) -> tuple[float, float]:
    """Wall and CPU seconds per call, over ``number`` calls."""
    w, c = time.perf_counter(), time.process_time()
    for _ in range(number):
        func()
    return (time.perf_counter() - w) / number, (time.process_time() - c) / number


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--decks", type=int, default=8)
    args = parser.parse_args()
    counts = list(bk.odds.composition(args.decks).values)
    fast = bk.exact_odds(args.decks)          # warm up: builds the enumeration tables once
    slow = naive_exact_odds(counts)
    for key, value in slow.items():
        assert getattr(fast, key) == value, key
    slow_runs, fast_runs = [], []
    for _ in range(args.repeat):              # interleaved, so a busy moment hits both alike
        slow_runs.append(per_call(lambda: naive_exact_odds(counts), 3))
        fast_runs.append(per_call(lambda: bk.exact_odds(args.decks), 100))
    med = statistics.median
    print(f"{args.decks} decks, medians of {args.repeat} interleaved runs (wall / cpu)")
    print(f"  plain pure-Python enumeration (benchmarks/baseline_exact.py): "
          f"{med(r[0] for r in slow_runs) * 1e3:8.3f} ms / {med(r[1] for r in slow_runs) * 1e3:8.3f} ms")
    print(f"  bk.exact_odds:                                                "
          f"{med(r[0] for r in fast_runs) * 1e3:8.3f} ms / {med(r[1] for r in fast_runs) * 1e3:8.3f} ms")
    wall = med(s[0] / f[0] for s, f in zip(slow_runs, fast_runs, strict=True))
    cpu = med(s[1] / f[1] for s, f in zip(slow_runs, fast_runs, strict=True))
    print(f"  ratio: {wall:.1f}x wall, {cpu:.1f}x cpu (target: 20x)")

    rng = np.random.default_rng(1)
    full = np.array([4 * args.decks] * 13)
    batch = np.array([full - rng.multivariate_hypergeometric(full, int(k))
                      for k in rng.integers(0, 52 * args.decks - 20, 2000)])
    t_batch = med(per_call(lambda: bk.exact_odds_batch(batch), 1)[0] for _ in range(3))
    t_slow = med(r[0] for r in slow_runs)
    print(f"  bk.exact_odds_batch, {len(batch)} depleted shoes: {t_batch * 1e3:.0f} ms wall "
          f"({t_batch / len(batch) * 1e6:.0f} us a shoe; {t_slow * len(batch) / t_batch:.0f}x the plain loop)")


if __name__ == "__main__":
    main()
