"""How much faster ``bk.simulate`` is than a straightforward numpy shoe simulation.

Run by hand (not a timed test):  .venv/bin/python benchmarks/bench_sim.py [--shoes 20000] [--repeat 5]

Both deal whole 8-deck shoes (shuffle, burn, cut card, one coup after it) and give the
winner of every coup. The script first deals the same shuffled shoes through both and
checks the winners agree coup by coup, then times each (median of several runs) and
prints hands per second and the ratio.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import numpy as np
from baseline_sim import baseline_simulate

import baccarat_kit as bk
from baccarat_kit.simulation import card_codes


def check_same_coups(decks: int) -> int:
    sim = bk.simulate(shoes=300, decks=decks, seed=7, keep_cards=True)
    rank_index = {r: i for i, r in enumerate(bk.Rank)}
    to_rank = np.zeros(64, dtype=np.int64)
    for code, rank in card_codes().items():
        to_rank[code] = rank_index[rank]
    base = baseline_simulate(300, decks, ranks=to_rank[sim.cards])
    assert np.array_equal(base["winner"], sim.winner), "baseline and bk.simulate disagree"
    return sim.hands


def one(func) -> tuple[float, float, int]:
    """Wall time, CPU time of this process, and the hands dealt."""
    w, c = time.perf_counter(), time.process_time()
    hands = func()
    return time.perf_counter() - w, time.process_time() - c, hands


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shoes", type=int, default=20000)
    parser.add_argument("--decks", type=int, default=8)
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    checked = check_same_coups(args.decks)
    print(f"same shoes dealt both ways: {checked} coups agree")
    runs: dict[str, list[tuple[float, float, int]]] = {"base": [], "fast": [], "totals": []}
    jobs = {
        "base": lambda: baseline_simulate(args.shoes, args.decks, seed=1)["hands"],
        "fast": lambda: bk.simulate(shoes=args.shoes, decks=args.decks, seed=1).hands,
        "totals": lambda: bk.simulate(shoes=args.shoes, decks=args.decks, seed=1, detail=False).hands,
    }
    for _ in range(args.repeat):          # interleaved, so a busy moment hits all three alike
        for name, job in jobs.items():
            runs[name].append(one(job))
    print(f"{args.shoes} shoes of {args.decks} decks, medians of {args.repeat} interleaved runs")
    labels = {"base": "straightforward numpy (benchmarks/baseline_sim.py)",
              "fast": "bk.simulate (every coup kept)",
              "totals": "bk.simulate(detail=False) (totals only)"}
    for name, label in labels.items():
        wall = statistics.median(r[0] for r in runs[name])
        cpu = statistics.median(r[1] for r in runs[name])
        hands = runs[name][0][2]
        print(f"  {label:52s} wall {wall:6.3f} s ({hands / wall / 1e6:5.1f} M hands/s)  "
              f"cpu {cpu:6.3f} s ({hands / cpu / 1e6:5.1f} M hands/s)")
    for name in ("fast", "totals"):
        wall = statistics.median(b[0] / f[0] * f[2] / b[2] for b, f in zip(runs["base"], runs[name], strict=True))
        cpu = statistics.median(b[1] / f[1] * f[2] / b[2] for b, f in zip(runs["base"], runs[name], strict=True))
        print(f"  ratio {labels[name]}: {wall:.1f}x wall, {cpu:.1f}x cpu (hands/s; target 1.5x)")


if __name__ == "__main__":
    main()
