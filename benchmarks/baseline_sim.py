"""Baselines for ``bench_sim.py``: the best plain simulations of whole shoes we could write.

``baseline_simulate`` — the competent numpy technique (issue 19): in batches of 1 024 shoes
that stay in cache, each shoe is shuffled by **one sort** of 32-bit random keys that carry
the card's rank in their low 4 bits; the outcome of a coup starting at **every position**
of every shoe is computed at once by one look-up in a table of 10 000 entries (player
total, banker total, 5th card, 6th card) built from the engine's decisions; then **one
walk** follows the coups of all shoes of the batch side by side. It counts only what the
comparison needs (the winner of every coup), skips the re-draw of rows whose keys tie
(about one shoe in 800, a tiny bias the kit does not allow itself) and keeps nothing else:
each shortcut makes the baseline faster, not slower.

``numba_simulate`` — a plain compiled loop, where numba installs: per shoe, a Fisher–Yates
shuffle driven by 32-bit words of the same bit generator, then the coups dealt one by one
with the same decisions.

Both deal shoes as ``bk.simulate`` does (burn the first card's value, cut card 14 cards from
the end, one more coup after it) and return the counts of banker, player and tie wins.
"""

from __future__ import annotations

from typing import Any

import numpy as np

import baccarat_kit as bk

RANK_VALUE = np.array([r.value_points for r in bk.Rank], dtype=np.uint8)


def tables() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    natural = np.array([bk.is_natural(t) for t in range(10)])
    pdraw = np.array([not natural[t] and bk.player_draws(t) for t in range(10)])
    bstood = np.array([not natural[t] and bk.banker_draws(t, None) for t in range(10)])
    bdraw = np.array([[not natural[t] and bk.banker_draws(t, v) for v in range(10)]
                      for t in range(10)])
    return natural, pdraw, bstood, bdraw


def outcome_table() -> np.ndarray:
    """uint8 per (player two-card sum 0–18, banker two-card sum 0–18, 5th value, 6th value),
    index ``(sp * 19 + sb) * 100 + v5 * 10 + v6`` (no modulo needed at every position):
    winner (0 banker, 1 player, 2 tie) in bits 0–1, cards used − 4 in bits 2–3."""
    natural, pdraw, bstood, bdraw = tables()
    sp, sb, c5, c6 = (a.ravel() for a in np.indices((19, 19, 10, 10)))
    p2, b2 = sp % 10, sb % 10
    nat = natural[p2] | natural[b2]
    pd = ~nat & pdraw[p2]
    bd = ~nat & np.where(pd, bdraw[b2, c5], bstood[b2])
    pt = np.where(pd, (p2 + c5) % 10, p2)
    bt = np.where(bd, (b2 + np.where(pd, c6, c5)) % 10, b2)
    winner = np.where(bt > pt, 0, np.where(pt > bt, 1, 2))
    return (winner | ((pd.astype(int) + bd) << 2)).astype(np.uint8)


def baseline_simulate(shoes: int, decks: int = 8, seed: int = 0, cut_card: int = 14,
                      chunk: int = 1024, values: np.ndarray | None = None) -> dict[str, Any]:
    """Deal ``shoes`` shuffled shoes, or the given card ``values`` (shape (shoes, 52 * decks));
    with ``values`` given, also returns ``winner``, every coup's winner in order."""
    table = outcome_table()
    rng = np.random.default_rng(seed)
    size = 52 * decks
    deck = np.repeat(RANK_VALUE.astype(np.uint32), 4 * decks)
    cut_pos = size - cut_card
    counts = np.zeros(3, dtype=np.int64)
    winners = []
    u16 = np.uint16
    for start in range(0, shoes, chunk):
        n = min(chunk, shoes - start)
        v = np.zeros((n, size + 6), dtype=np.uint8)
        if values is None:                     # one sort per shoe: the value in the low 4 bits
            keys = rng.bit_generator.random_raw(n * size // 2).view(np.uint32).reshape(n, size)
            keys &= np.uint32(~15 & 0xFFFFFFFF)
            keys |= deck
            keys.sort(axis=1)
            np.bitwise_and(keys, 15, out=v[:, :size], casting="unsafe")
        else:
            v[:, :size] = values[start:start + n]
        # the outcome of a coup starting at every position, by one look-up
        idx = np.add(v[:, 0:size], v[:, 2:size + 2], dtype=u16)
        idx *= u16(19)
        idx += v[:, 1:size + 1]
        idx += v[:, 3:size + 3]
        idx *= u16(100)
        idx += v[:, 4:size + 4] * np.uint8(10)
        idx += v[:, 5:size + 5]
        out = np.take(table, idx).ravel()
        # one walk: every shoe of the batch from coup to coup
        first = v[:, 0].astype(np.intp)
        base = np.arange(n, dtype=np.intp) * size
        pos = 1 + np.where(first == 0, 10, first)
        active = np.ones(n, dtype=bool)
        while active.any():
            o = np.take(out, base + np.minimum(pos, size - 1))
            newpos = pos + 4 + (o >> 2)
            ok = active & (newpos <= size)
            counts += np.bincount(o[ok] & 3, minlength=3)
            if values is not None:
                winners.append(np.where(ok, o & 3, 3))
            active = ok & (pos <= cut_pos)
            pos = newpos
    result: dict[str, Any] = {"hands": int(counts.sum()), "banker": int(counts[0]),
                              "player": int(counts[1]), "tie": int(counts[2])}
    if values is not None:
        steps = np.stack(winners, axis=1)
        result["winner"] = steps[steps != 3]
    return result


def numba_simulate(shoes: int, decks: int = 8, seed: int = 0, cut_card: int = 14) -> dict[str, Any]:
    """The plain compiled loop (needs numba): Fisher–Yates, then the coups one by one."""
    kernel = _numba_kernel()
    table = outcome_table()
    rng = np.random.default_rng(seed)
    size = 52 * decks
    deck = RANK_VALUE[np.repeat(np.arange(13), 4 * decks)]
    counts = np.zeros(3, dtype=np.int64)
    for start in range(0, shoes, 1024):
        n = min(1024, shoes - start)
        words = rng.bit_generator.random_raw(n * size).astype(np.uint32)
        kernel(words, deck, table, size - cut_card, counts)
    return {"hands": int(counts.sum()), "banker": int(counts[0]), "player": int(counts[1]),
            "tie": int(counts[2])}


_KERNEL: list[Any] = []


def _numba_kernel() -> Any:
    if _KERNEL:
        return _KERNEL[0]
    import numba

    @numba.njit(cache=False, nogil=True)
    def kernel(words, deck, table, cut_pos, counts):  # pragma: no cover - compiled
        size = deck.size
        n = words.size // size
        v = np.zeros(size + 6, dtype=np.uint8)
        for s in range(n):
            v[:size] = deck
            for i in range(size - 1, 0, -1):                 # Fisher–Yates
                j = (np.uint64(words[s * size + i]) * np.uint64(i + 1)) >> np.uint64(32)
                t = v[i]
                v[i] = v[j]
                v[j] = t
            pos = 1 + (10 if v[0] == 0 else v[0])
            while True:
                o = table[((v[pos] + v[pos + 2]) * 19 + v[pos + 1] + v[pos + 3]) * 100
                          + v[pos + 4] * 10 + v[pos + 5]]
                new = pos + 4 + (o >> 2)
                if new > size:
                    break
                counts[o & 3] += 1
                if pos > cut_pos:
                    break
                pos = new

    _KERNEL.append(kernel)
    return kernel
