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


def timed(func, repeat: int) -> tuple[float, int]:
    times, hands = [], 0
    for _ in range(repeat):
        t = time.perf_counter()
        hands = func()
        times.append(time.perf_counter() - t)
    return statistics.median(times), hands


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shoes", type=int, default=20000)
    parser.add_argument("--decks", type=int, default=8)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    checked = check_same_coups(args.decks)
    print(f"same shoes dealt both ways: {checked} coups agree")
    t_base, h_base = timed(lambda: baseline_simulate(args.shoes, args.decks, seed=1)["hands"], args.repeat)
    t_fast, h_fast = timed(lambda: bk.simulate(shoes=args.shoes, decks=args.decks, seed=1).hands,
                           args.repeat)
    t_tot, h_tot = timed(lambda: bk.simulate(shoes=args.shoes, decks=args.decks, seed=1,
                                             detail=False).hands, args.repeat)
    print(f"{args.shoes} shoes of {args.decks} decks, median of {args.repeat} runs")
    print(f"  straightforward numpy (benchmarks/baseline_sim.py): {t_base:6.3f} s  "
          f"{h_base / t_base / 1e6:5.1f} M hands/s")
    print(f"  bk.simulate (every coup kept):                      {t_fast:6.3f} s  "
          f"{h_fast / t_fast / 1e6:5.1f} M hands/s")
    print(f"  bk.simulate(detail=False) (totals only):            {t_tot:6.3f} s  "
          f"{h_tot / t_tot / 1e6:5.1f} M hands/s")
    print(f"  ratio (hands/s, every coup kept): {(h_fast / t_fast) / (h_base / t_base):.1f}x (target: 1.5x)")


if __name__ == "__main__":
    main()
