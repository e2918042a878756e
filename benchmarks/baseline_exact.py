"""Baseline for ``bench_exact.py``: a plain pure-Python enumeration of one coup.

Walks every sequence of card values a coup can take from the shoe (first four cards,
then the third cards the engine's rules call for), weighting each by the number of
ways to draw it without replacement. Integer arithmetic, so the answer is exact. The
drawing decisions are read from the engine once (``bk.player_draws``,
``bk.banker_draws``, ``bk.is_natural``) into small lists, as a plain program would.
"""

from __future__ import annotations

from fractions import Fraction
from math import perm

import baccarat_kit as bk


def naive_exact_odds(counts: list[int]) -> dict[str, Fraction]:
    """Probabilities of player, banker, tie and banker-wins-on-6 for counts by value 0–9."""
    n = list(counts)
    total = sum(n)
    natural = [bk.is_natural(t) for t in range(10)]
    pdraw = [not natural[t] and bk.player_draws(t) for t in range(10)]
    bstood = [not natural[t] and bk.banker_draws(t, None) for t in range(10)]
    bdraw = [[not natural[t] and bk.banker_draws(t, v) for v in range(10)] for t in range(10)]
    finals = [[0] * 10 for _ in range(10)]  # finals[player total][banker total], over perm(total, 6)
    left4 = (total - 4) * (total - 5)
    left5 = total - 5
    for a in range(10):
        wa = n[a]
        if not wa:
            continue
        n[a] -= 1
        for b in range(10):
            wb = n[b]
            if not wb:
                continue
            n[b] -= 1
            for c in range(10):
                wc = n[c]
                if not wc:
                    continue
                n[c] -= 1
                for d in range(10):
                    wd = n[d]
                    if not wd:
                        continue
                    n[d] -= 1
                    w4 = wa * wb * wc * wd
                    p = (a + c) % 10
                    q = (b + d) % 10
                    if natural[p] or natural[q]:
                        finals[p][q] += w4 * left4
                    elif pdraw[p]:
                        for e in range(10):
                            we = n[e]
                            if not we:
                                continue
                            p3 = (p + e) % 10
                            if bdraw[q][e]:
                                n[e] -= 1
                                for f in range(10):
                                    if n[f]:
                                        finals[p3][(q + f) % 10] += w4 * we * n[f]
                                n[e] += 1
                            else:
                                finals[p3][q] += w4 * we * left5
                    elif bstood[q]:
                        for f in range(10):
                            if n[f]:
                                finals[p][(q + f) % 10] += w4 * n[f] * left5
                    else:
                        finals[p][q] += w4 * left4
                    n[d] += 1
                n[c] += 1
            n[b] += 1
        n[a] += 1
    den = perm(total, 6)
    player = sum(finals[p][q] for p in range(10) for q in range(10) if p > q)
    banker = sum(finals[p][q] for p in range(10) for q in range(10) if q > p)
    tie = sum(finals[p][p] for p in range(10))
    six = sum(finals[p][6] for p in range(6))
    return {"player": Fraction(player, den), "banker": Fraction(banker, den),
            "tie": Fraction(tie, den), "banker_six": Fraction(six, den)}


_NUMBA: list[object] = []


def numba_exact_odds(counts: list[int]) -> dict[str, Fraction]:
    """The same loop compiled by numba (where it installs), in int64: the warm peer for nearly
    empty shoes (valid while the ways to deal six cards stay below 2**63: fewer than 1 449 cards)."""
    import numpy as np

    if not _NUMBA:  # compiled once, with the engine's decisions read once (as a plain program would)
        natural = [bk.is_natural(t) for t in range(10)]
        tables = (np.array(natural), np.array([not natural[t] and bk.player_draws(t) for t in range(10)]),
                  np.array([not natural[t] and bk.banker_draws(t, None) for t in range(10)]),
                  np.array([[not natural[t] and bk.banker_draws(t, v) for v in range(10)] for t in range(10)]))
        _NUMBA.append((_compile(), tables))
    kernel, tables = _NUMBA[0]  # type: ignore[misc]
    finals = kernel(np.array(counts, dtype=np.int64), *tables).tolist()
    den = perm(sum(counts), 6)
    player = sum(finals[p][q] for p in range(10) for q in range(p))
    banker = sum(finals[p][q] for p in range(10) for q in range(p + 1, 10))
    tie = sum(finals[p][p] for p in range(10))
    six = sum(finals[p][6] for p in range(6))
    return {"player": Fraction(player, den), "banker": Fraction(banker, den),
            "tie": Fraction(tie, den), "banker_six": Fraction(six, den)}


def _compile() -> object:
    import numba
    import numpy as np

    @numba.njit(cache=False)
    def kernel(n, natural, pdraw, bstood, bdraw):  # pragma: no cover - compiled
        total = n.sum()
        finals = np.zeros((10, 10), dtype=np.int64)
        left4 = (total - 4) * (total - 5)
        left5 = total - 5
        for a in range(10):
            wa = n[a]
            if wa == 0:
                continue
            n[a] -= 1
            for b in range(10):
                wb = n[b]
                if wb == 0:
                    continue
                n[b] -= 1
                for c in range(10):
                    wc = n[c]
                    if wc == 0:
                        continue
                    n[c] -= 1
                    for d in range(10):
                        wd = n[d]
                        if wd == 0:
                            continue
                        n[d] -= 1
                        w4 = wa * wb * wc * wd
                        p = (a + c) % 10
                        q = (b + d) % 10
                        if natural[p] or natural[q]:
                            finals[p, q] += w4 * left4
                        elif pdraw[p]:
                            for e in range(10):
                                we = n[e]
                                if we == 0:
                                    continue
                                p3 = (p + e) % 10
                                if bdraw[q, e]:
                                    n[e] -= 1
                                    for f in range(10):
                                        if n[f]:
                                            finals[p3, (q + f) % 10] += w4 * we * n[f]
                                    n[e] += 1
                                else:
                                    finals[p3, q] += w4 * we * left5
                        elif bstood[q]:
                            for f in range(10):
                                if n[f]:
                                    finals[p, (q + f) % 10] += w4 * n[f] * left5
                        else:
                            finals[p, q] += w4 * left4
                        n[d] += 1
                    n[c] += 1
                n[b] += 1
            n[a] += 1
        return finals

    return kernel


if __name__ == "__main__":
    import time

    t = time.perf_counter()
    odds = naive_exact_odds([128] + [32] * 9)
    print({k: round(float(v), 6) for k, v in odds.items()}, f"{time.perf_counter() - t:.3f} s")
