"""The compiled dealing kernel of :func:`baccarat_kit.simulate` (optional: needs numba).

numpy shuffles the shoes (the same random stream and the same sort as without numba); this
kernel then deals each shoe coup by coup, looking up only the coups actually dealt in the
table :func:`baccarat_kit.simulation._outcome_table` builds from the engine, instead of a
coup at every position. Same shoes in, same coups out, bit for bit: ``tests/test_simulation.py``
deals the same seeds both ways.

Importing this module imports numba (``pip install 'baccarat-kit[fast]'``); the kernel is
compiled on first use and cached next to this file when that folder is writable.
"""

from __future__ import annotations

from typing import Any

import numba
import numpy as np

__all__ = ["deal"]


@numba.njit(cache=True, nogil=True, inline="always")
def _value(row: Any, i: Any, size: int) -> Any:  # pragma: no cover - compiled
    """The value of card ``i`` of a shoe, 0 past its end (as the numpy path pads it)."""
    return np.int64(row[i]) >> 2 if i < size else np.int64(0)


@numba.njit(cache=True, nogil=True)
def _deal(cards: Any, table: Any, cut_pos: int, burn: bool, detail: bool, out: Any,
          rounds: Any, burned: Any, histogram: Any) -> int:  # pragma: no cover - compiled
    n, size = cards.shape
    written = 0
    for s in range(n):
        row = cards[s]
        pos = np.int64(0)
        if burn:
            first = np.int64(row[0]) >> 2
            pos = np.int64(1) + (np.int64(10) if first == 0 else first)
        burned[s] = pos
        coups = 0
        while True:
            v0 = _value(row, pos, size)
            v1 = _value(row, pos + 1, size)
            v2 = _value(row, pos + 2, size)
            v3 = _value(row, pos + 3, size)
            v4 = _value(row, pos + 4, size)
            v5 = _value(row, pos + 5, size)
            p = np.int64(table[((v0 + v2) * 19 + v1 + v3) * 100 + v4 * 10 + v5])
            used = 4 + ((p >> 8) & 3)
            if pos + used > size:
                break
            if row[pos] == row[pos + 2]:
                p |= 1 << 13
            if row[pos + 1] == row[pos + 3]:
                p |= 1 << 14
            histogram[p >> 4] += 1
            if detail:
                out[written] = p
                written += 1
            coups += 1
            if pos > cut_pos and coups > 1:    # the coup after the one that reached the cut (a cut
                break                          # card among the burned cards: after the second)
            pos += used
        rounds[s] = coups
    return written


def deal(cards: np.ndarray, table: np.ndarray, cut_pos: int, burn: bool, detail: bool) -> dict[str, Any]:
    """Deal every shoe of ``cards``: the same record as ``simulation._deal`` (the packed coups
    only with ``detail``; ``histogram``, the coups counted by packed outcome >> 4)."""
    n, size = cards.shape
    out = np.empty(n * (size // 4 + 2) if detail else 0, dtype=np.uint16)
    rounds = np.empty(n, dtype=np.int64)
    burned = np.empty(n, dtype=np.int64)
    histogram = np.zeros(2048, dtype=np.int64)
    written = _deal(cards, table, cut_pos, burn, detail, out, rounds, burned, histogram)
    return {"packed": out[:written], "rounds": rounds, "burned": burned, "histogram": histogram}
