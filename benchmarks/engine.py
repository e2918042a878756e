"""Engine benchmarks (run by hand; not a timed test).

    .venv/bin/python benchmarks/engine.py

Prints the median cold import time of `import baccarat_kit` (fresh interpreter each
time, budget 150 ms) and the throughput of `bk.play` on shoe-dealt card sequences.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time


def import_time(runs: int = 15) -> float:
    code = "import time; t=time.perf_counter(); import baccarat_kit; print(time.perf_counter()-t)"
    samples = [float(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                                    check=True).stdout) for _ in range(runs)]
    return statistics.median(samples)


def play_throughput(seconds: float = 2.0) -> float:
    import baccarat_kit as bk

    shoe = bk.Shoe(decks=8, seed=1, cut_card=None, burn=False)
    cards = shoe.cards_left
    windows = [cards[i:i + 6] for i in range(0, len(cards) - 6, 5)]
    n = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        for w in windows:
            bk.play(w)
        n += len(windows)
    return n / (time.perf_counter() - t0)


def shoe_throughput(shoes: int = 50) -> float:
    import baccarat_kit as bk

    t0 = time.perf_counter()
    hands = 0
    for seed in range(shoes):
        hands += sum(1 for _ in bk.Shoe(decks=8, seed=seed).rounds())
    return hands / (time.perf_counter() - t0)


if __name__ == "__main__":
    print(f"import baccarat_kit: {import_time() * 1000:.1f} ms (median of 15 cold starts)")
    print(f"bk.play on Card tuples: {play_throughput():,.0f} coups/s")
    print(f"bk.Shoe(decks=8).rounds(): {shoe_throughput():,.0f} coups/s (dealing whole shoes)")
