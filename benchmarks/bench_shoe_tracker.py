"""How long one ShoeTracker update takes (issue 13's target: under 10 ms).

An update is what a click on "deal a coup" does in the kernel: deal the coup, recompute the
exact odds of the next coup from every card left (``bk.exact_odds(shoe)``) and re-render the
status, the coup and the odds table. The script deals whole seeded 8-deck shoes and reports
the median, the 95th percentile and the worst update, in milliseconds.

    .venv/bin/python benchmarks/bench_shoe_tracker.py [--shoes 5]
"""

from __future__ import annotations

import argparse
import statistics
import time

import baccarat_kit as bk


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--shoes", type=int, default=5)
    args = parser.parse_args()
    tracker = bk.widgets.ShoeTracker(decks=8, seed=0)
    times: list[float] = []
    for seed in range(args.shoes):
        tracker.new_shoe(seed)
        while not tracker.shoe.finished:
            start = time.perf_counter()
            tracker.deal()
            times.append((time.perf_counter() - start) * 1000)
    times.sort()
    p95 = times[int(0.95 * (len(times) - 1))]
    print(f"{len(times)} updates over {args.shoes} shoes of 8 decks: median "
          f"{statistics.median(times):.2f} ms, 95th percentile {p95:.2f} ms, worst {times[-1]:.2f} ms")


if __name__ == "__main__":
    main()
