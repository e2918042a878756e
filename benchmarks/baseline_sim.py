"""Baseline for ``bench_sim.py``: a straightforward numpy simulation of whole shoes.

The way one first writes it: shuffle every shoe (ranks 0–12) with ``Generator.permuted``,
burn, then deal all shoes side by side one coup at a time, reading card values with a
look-up, taking the six next cards with ``take_along_axis``, and deciding each draw with
boolean masks over tables read from the engine (``bk.player_draws``, ``bk.banker_draws``,
``bk.is_natural``). Same shoe procedure as ``bk.simulate`` (burn, cut card 14 cards from the
end, one more coup after it); returns the counts of banker, player and tie wins and the
winner of every coup.
"""

from __future__ import annotations

import numpy as np

import baccarat_kit as bk

RANK_VALUE = np.array([r.value_points for r in bk.Rank])


def tables() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    natural = np.array([bk.is_natural(t) for t in range(10)])
    pdraw = np.array([not natural[t] and bk.player_draws(t) for t in range(10)])
    bstood = np.array([not natural[t] and bk.banker_draws(t, None) for t in range(10)])
    bdraw = np.array([[not natural[t] and bk.banker_draws(t, v) for v in range(10)]
                      for t in range(10)])
    return natural, pdraw, bstood, bdraw


def baseline_simulate(shoes: int, decks: int = 8, seed: int = 0, cut_card: int = 14,
                      ranks: np.ndarray | None = None):
    """Deal ``shoes`` shuffled shoes (or the given ``ranks``, shape (shoes, 52 * decks))."""
    natural, pdraw, bstood, bdraw = tables()
    rng = np.random.default_rng(seed)
    size = 52 * decks
    if ranks is None:
        deck = np.repeat(np.arange(13), 4 * decks)
        ranks = rng.permuted(np.tile(deck, (shoes, 1)), axis=1)
    values = np.concatenate([RANK_VALUE[ranks], np.zeros((shoes, 6), dtype=np.int64)], axis=1)
    first = values[:, 0]
    pos = 1 + np.where(first == 0, 10, first)
    cut_pos = size - cut_card
    active = np.ones(shoes, dtype=bool)
    cut_seen = np.zeros(shoes, dtype=bool)
    winners = []
    while active.any():
        c = np.take_along_axis(values, pos[:, None] + np.arange(6)[None, :], axis=1)
        p2 = (c[:, 0] + c[:, 2]) % 10
        b2 = (c[:, 1] + c[:, 3]) % 10
        nat = natural[p2] | natural[b2]
        pd = ~nat & pdraw[p2]
        bd = ~nat & np.where(pd, bdraw[b2, c[:, 4]], bstood[b2])
        pt = np.where(pd, (p2 + c[:, 4]) % 10, p2)
        bt = np.where(bd, (b2 + np.where(pd, c[:, 5], c[:, 4])) % 10, b2)
        newpos = pos + 4 + pd + bd
        ok = active & (newpos <= size)
        winner = np.where(bt > pt, 0, np.where(pt > bt, 1, 2))
        winners.append(np.where(ok, winner, -1))
        pos = np.where(ok, newpos, pos)
        last = cut_seen.copy()
        cut_seen |= ok & (pos > cut_pos)
        active = ok & ~last
    per_coup = np.stack(winners, axis=1)
    per_coup = per_coup[per_coup >= 0]
    counts = np.bincount(per_coup, minlength=3)
    return {"hands": int(per_coup.size), "banker": int(counts[0]), "player": int(counts[1]),
            "tie": int(counts[2]), "winner": per_coup}
