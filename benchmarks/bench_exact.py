"""``bk.exact_odds`` against a straightforward pure-Python enumeration: cold and warm.

Run by hand (not a timed test):  .venv/bin/python benchmarks/bench_exact.py [--repeat 7]
[--decks 8 | --shoe 3,1,1,1,1,1,1,1,1,1]  (``--shoe``: 10 counts by value, a nearly empty shoe:
``bk.exact_odds`` walks the coups of a shoe of at most ``odds.DIRECT_CARDS`` cards itself while
its table of multisets is not built yet)

**Cold** — what a whole fresh process costs to compute one composition (lesson 08's first
cell, ``baccarat-kit odds``, a ShoeTracker's first update): each run starts new Python
processes side by side, one that imports baccarat_kit and runs the plain loop of
``benchmarks/baseline_exact.py`` (the straightforward program: every coup walked card by
card, integer weights, the engine's decisions read into small lists), and one that imports
baccarat_kit and calls ``bk.exact_odds``; for reference, one that only starts Python and
imports baccarat_kit. Measured: each child's CPU time (user + system, from ``os.wait4``) and
its peak resident memory (``VmHWM``, the child's own high-water mark; ``ru_maxrss`` would
report the parent's after ``exec``). The children run with bytecode caching on (the first
round, not counted, compiles it), as an installed package does.

**Warm** — per-call CPU time inside one process: ``bk.exact_odds`` (numpy loaded), the same
with the pure-Python evaluation, and the plain loop. For a shoe of fewer than 1 449 cards, where
numba installs, also the plain loop compiled by numba (``baseline_exact.numba_exact_odds``) beside
``bk.exact_odds`` once numba is imported: a nearly empty shoe of few values is then walked by the
kit's own compiled kernel (``baccarat_kit/_exact_kernel.py``; the line says which path was taken),
compiled or loaded from its cache before the timing, like the peer. The machine is shared: all
figures are CPU time (not wall time), medians of interleaved runs, with the load average printed.
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import numpy as np  # noqa: E402
from baseline_exact import naive_exact_odds  # noqa: E402

import baccarat_kit as bk  # noqa: E402
from baccarat_kit.odds import (  # noqa: E402
    MAX_COUP_CARDS,
    _numerators_python,
    _weights,
    composition,
)

PEAK = ("status = open('/proc/self/status').read()\n"
        "print(next(l.split()[1] for l in status.splitlines() if l.startswith('VmHWM')))\n")
CHILDREN = {
    "import": "import baccarat_kit\nprint(0)\n",
    "loop": (f"import sys\nsys.path.insert(0, {str(HERE)!r})\nimport baccarat_kit\n"
             "from baseline_exact import naive_exact_odds\n"
             "print(naive_exact_odds(list(baccarat_kit.odds.composition({decks}).values))['banker'])\n"),
    "kit": "import baccarat_kit as bk\nprint(bk.exact_odds({decks}).banker)\n",
}
LABELS = {
    "import": "Python + import baccarat_kit (reference)",
    "loop": "plain pure-Python loop (benchmarks/baseline_exact.py)",
    "kit": "bk.exact_odds",
}


def child(code: str) -> tuple[float, int, str]:
    """CPU seconds (user + system) and peak memory (KiB) of a fresh Python running ``code``."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    proc = subprocess.Popen([sys.executable, "-c", code + PEAK], stdout=subprocess.PIPE,
                            text=True, env=env)
    assert proc.stdout is not None
    out = proc.stdout.read().split()
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    assert proc.returncode == 0, code
    return usage.ru_utime + usage.ru_stime, int(out[-1]), out[0]


def per_call(func, number: int) -> float:
    """CPU seconds per call, over ``number`` calls."""
    c = time.process_time()
    for _ in range(number):
        func()
    return (time.process_time() - c) / number


def tiny_shoes(cards: int, count: int, seed: int = 36) -> list[list[int]]:
    """``count`` different shoes of ``cards`` cards, counts by value: the last cards of shuffled
    8-deck shoes (so value 0, four ranks, is the most common), each shoe once."""
    rng = np.random.default_rng(seed)
    deck = np.repeat([0] * 4 + list(range(1, 10)), 32)
    seen: dict[tuple[int, ...], None] = {}
    while len(seen) < count:
        last = rng.permutation(deck)[:cards]
        seen.setdefault(tuple(np.bincount(last, minlength=10).tolist()), None)
    return [list(s) for s in seen]


def stream(cards: int, repeat: int, numba_exact_odds) -> None:
    """Warm calls on a stream of different nearly empty shoes (none asked before, so none kept):
    bk.exact_odds without numba (numba hidden from it: the table in numpy, as in JupyterLite or an
    install without numba) and with numba imported, against the numba loop and the plain loop on
    the same shoes, interleaved; the medians of the per-round ratios."""
    shoes = tiny_shoes(cards, 200)
    for s in shoes:                                   # every path agrees, shoe by shoe
        ref = naive_exact_odds(s)
        bk.odds._nearly_empty.cache_clear()
        assert all(getattr(bk.exact_odds(s), k) == v for k, v in ref.items()), s
    few = shoes[:20]

    def each(func, items) -> float:
        bk.odds._nearly_empty.cache_clear()
        c = time.process_time()
        for s in items:
            func(s)
        return (time.process_time() - c) / len(items)

    def kit_without_numba(s: list[int]) -> object:
        sys.modules["numba"] = None                   # type: ignore[assignment]
        try:
            return bk.exact_odds(s)
        finally:
            sys.modules["numba"] = numba_module

    numba_module = sys.modules["numba"]
    runs: dict[str, list[float]] = {"jit": [], "plain": [], "kit": [], "kit+numba": [], "kept": []}
    for _ in range(repeat):
        runs["jit"].append(each(numba_exact_odds, shoes))
        runs["kit"].append(each(kit_without_numba, shoes))
        runs["kit+numba"].append(each(bk.exact_odds, shoes))
        runs["plain"].append(each(naive_exact_odds, few))
        bk.exact_odds(shoes[0])
        runs["kept"].append(per_call(lambda: bk.exact_odds(shoes[0]), 200))
    med = statistics.median
    print(f"\nwarm, {len(shoes)} different shoes of {cards} cards (the last cards of shuffled 8-deck shoes), "
          f"per call, medians of {repeat} interleaved runs")
    rows = (("jit", "the plain loop compiled by numba (the peer)"), ("plain", "the plain pure-Python loop"),
            ("kit", "bk.exact_odds without numba (numpy)"), ("kit+numba", "bk.exact_odds, numba imported"),
            ("kept", "bk.exact_odds, a shoe asked before (kept)"))
    for name, label in rows:
        print(f"  {label:55s} {med(runs[name]) * 1e3:8.3f} ms CPU")
    for name, label in rows[2:]:
        ratio = med(k / j for k, j in zip(runs[name], runs["jit"], strict=True))
        print(f"  ratio {label} / numba loop: {ratio:.2f}x CPU (target <= 2)")
    ratio = med(k / p for k, p in zip(runs["kit"], runs["plain"], strict=True))
    print(f"  ratio bk.exact_odds without numba / plain loop: {ratio:.2f}x CPU")


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--decks", type=int, default=8)
    parser.add_argument("--shoe", default=None, help="10 counts by value, comma-separated (instead of --decks)")
    args = parser.parse_args()
    shoe: int | list[int] = [int(x) for x in args.shoe.split(",")] if args.shoe else args.decks
    what = f"the shoe {shoe} ({sum(shoe)} cards)" if isinstance(shoe, list) else f"{args.decks} decks"
    med = statistics.median
    print(f"load average at start: {load()}  (2 cores shared; CPU time throughout)")

    codes = {name: code.format(decks=repr(shoe)) for name, code in CHILDREN.items()}
    for code in codes.values():                   # compile the bytecode once, not counted
        child(code)
    cold: dict[str, list[tuple[float, int, str]]] = {name: [] for name in codes}
    for _ in range(args.repeat):                  # interleaved: a busy moment hits all alike
        for name, code in codes.items():
            cold[name].append(child(code))
    assert cold["kit"][0][2] == cold["loop"][0][2], "the loop and bk.exact_odds disagree"
    print(f"\ncold: one composition ({what}) in a fresh process, "
          f"medians of {args.repeat} interleaved runs")
    for name, label in LABELS.items():
        cpu = med(r[0] for r in cold[name])
        peak = med(r[1] for r in cold[name])
        print(f"  {label:55s} {cpu * 1e3:7.1f} ms CPU  {peak / 1024:6.1f} MB peak")
    base = [r[0] for r in cold["import"]]
    ratio = med(k[0] / b[0] for k, b in zip(cold["kit"], cold["loop"], strict=True))
    extra = med((k[0] - i) / (b[0] - i) for k, b, i in zip(cold["kit"], cold["loop"], base,
                                                           strict=True))
    print(f"  ratio bk.exact_odds / loop, whole process: {ratio:.2f}x CPU (target <= 1); "
          f"beyond the import: {extra:.2f}x")

    comp = composition(shoe)
    counts = list(comp.values)
    for _ in range(4):                            # past the first calls (direct walk, pure Python)
        fast = bk.exact_odds(shoe)                # numpy is loaded here: the warm path
    slow = naive_exact_odds(counts)
    for key, value in slow.items():
        assert getattr(fast, key) == value, key
    cells = _weights(comp)
    den = math.perm(comp.cards, MAX_COUP_CARDS)
    runs: dict[str, list[float]] = {"loop": [], "kit": [], "pure": []}
    for _ in range(args.repeat):
        runs["loop"].append(per_call(lambda: naive_exact_odds(counts), 3))
        runs["kit"].append(per_call(lambda: bk.exact_odds(shoe), 200))
        runs["pure"].append(per_call(lambda: _numerators_python(cells, den), 20))
    print(f"\nwarm: per call in one process, medians of {args.repeat} interleaved runs")
    print(f"  plain pure-Python loop                                  {med(runs['loop']) * 1e3:8.3f} ms CPU")
    kept = comp.cards <= bk.odds.DIRECT_CARDS           # a nearly empty shoe asked again: its odds kept
    label = "bk.exact_odds, the same shoe again (kept)" if kept else "bk.exact_odds (numpy int64)"
    print(f"  {label:55s} {med(runs['kit']) * 1e3:8.3f} ms CPU  (target <= 0.45 ms)")
    print(f"  its pure-Python evaluation (the first calls, no numpy)  {med(runs['pure']) * 1e3:8.3f} ms CPU")
    ratio = med(s / f for s, f in zip(runs["loop"], runs["kit"], strict=True))
    print(f"  ratio loop / bk.exact_odds: {ratio:.0f}x CPU")
    if comp.cards < 1449:
        try:
            from baseline_exact import numba_exact_odds

            compiled = numba_exact_odds(counts)            # compiled here, outside the timing
        except ImportError:
            print("  (numba not installed: no compiled loop to compare)")
        else:
            with_numba = bk.exact_odds(shoe)              # numba imported: the kit's kernel if it applies,
            assert with_numba == fast                     # compiled (or loaded) here, outside the timing
            for key, value in compiled.items():
                assert getattr(fast, key) == value, key
            path = ("kept" if kept else "its compiled walk, _exact_kernel.py" if bk.odds._use_kernel(comp)
                    else "the table, numpy int64")
            jit, kit = [], []
            for _ in range(args.repeat):                  # interleaved with bk.exact_odds
                jit.append(per_call(lambda: numba_exact_odds(counts), 50))
                kit.append(per_call(lambda: bk.exact_odds(shoe), 200))
            print(f"  the same loop compiled by numba (baseline_exact.py)     {med(jit) * 1e3:8.3f} ms CPU")
            label = f"bk.exact_odds, numba imported ({path})"
            print(f"  {label:55s} {med(kit) * 1e3:8.3f} ms CPU")
            print(f"  ratio bk.exact_odds / numba loop: {med(k / j for k, j in zip(kit, jit, strict=True)):.2f}x CPU "
                  "(target <= 2 on nearly empty shoes)")
            if comp.cards <= bk.odds.DIRECT_CARDS:
                stream(comp.cards, args.repeat, numba_exact_odds)

    rng = np.random.default_rng(1)
    full = np.array([4 * args.decks] * 13)
    batch = np.array([full - rng.multivariate_hypergeometric(full, int(k))
                      for k in rng.integers(0, 52 * args.decks - 20, 2000)])
    t_batch = med(per_call(lambda: bk.exact_odds_batch(batch), 1) for _ in range(3))
    print(f"  bk.exact_odds_batch, {len(batch)} depleted shoes: {t_batch * 1e3:.0f} ms CPU "
          f"({t_batch / len(batch) * 1e6:.0f} us a shoe; {med(runs['loop']) * len(batch) / t_batch:.0f}x "
          "the plain loop)")
    print(f"load average at end: {load()}")


if __name__ == "__main__":
    main()
