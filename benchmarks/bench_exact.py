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


def median_time(func, repeat: int, number: int) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        for _ in range(number):
            func()
        times.append((time.perf_counter() - t) / number)
    return statistics.median(times)


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
    t_slow = median_time(lambda: naive_exact_odds(counts), args.repeat, 3)
    t_fast = median_time(lambda: bk.exact_odds(args.decks), args.repeat, 200)
    print(f"{args.decks} decks, median of {args.repeat} runs")
    print(f"  plain pure-Python enumeration (benchmarks/baseline_exact.py): {t_slow * 1e3:8.3f} ms")
    print(f"  bk.exact_odds:                                                {t_fast * 1e3:8.3f} ms")
    print(f"  ratio: {t_slow / t_fast:.1f}x faster (target: 20x)")

    rng = np.random.default_rng(1)
    full = np.array([4 * args.decks] * 13)
    batch = np.array([full - rng.multivariate_hypergeometric(full, int(k))
                      for k in rng.integers(0, 52 * args.decks - 20, 2000)])
    t_batch = median_time(lambda: bk.exact_odds_batch(batch), max(3, args.repeat // 2), 1)
    print(f"  bk.exact_odds_batch, {len(batch)} depleted shoes: {t_batch * 1e3:.0f} ms "
          f"({t_batch / len(batch) * 1e6:.0f} us a shoe; {t_slow * len(batch) / t_batch:.0f}x the plain loop)")


if __name__ == "__main__":
    main()
