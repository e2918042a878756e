"""The compiled walk of :func:`baccarat_kit.exact_odds` for nearly empty shoes (optional: needs numba).

For a shoe of a few cards, walking its own coups card by card is less work than the 6 958
multisets of :func:`baccarat_kit.odds.coup_table`; in compiled code it takes microseconds.
The walk is :func:`baccarat_kit.odds._numerators_direct`'s, in int64, and the drawing
decisions are the arrays :func:`baccarat_kit.odds.decision_tables` builds by asking the
engine (the rules are not restated here). Same shoe in, the same exact integer numerators
out: ``tests/test_odds.py`` compares them with the pure-Python paths on many shoes.

Importing this module imports numba (``pip install 'baccarat-kit[fast]'``); the kernel is
compiled on first use and cached next to this file when that folder is writable.
"""

from __future__ import annotations

from typing import Any

import numba
import numpy as np

__all__ = ["numerators"]


@numba.njit(cache=True, nogil=True, inline="always")
def _end(out: Any, ways: Any, pt: Any, bt: Any, pn: bool, bn: bool, cards: int) -> None:  # pragma: no cover
    """Add ``ways`` to the events of :data:`baccarat_kit.odds.CLASSES` a coup ending so is in."""
    if pt > bt:
        out[0] += ways
    elif bt > pt:
        out[1] += ways
        if bt == 6:
            out[2] += ways
    else:
        out[3] += ways
    if pn:
        out[4] += ways
    if bn:
        out[5] += ways
    if pn or bn:
        out[6] += ways
    if cards == 5:
        out[7] += ways
    elif cards == 6:
        out[8] += ways


@numba.njit(cache=True, nogil=True)
def _walk(n: Any, natural: Any, player: Any, stood: Any, banker: Any,
          out: Any) -> None:  # pragma: no cover - compiled
    total = np.int64(0)
    for v in range(10):
        total += n[v]
    on4 = (total - 4) * (total - 5)               # ways to go on to six cards
    on5 = total - 5
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
                    w = wa * wb * wc * wd
                    p = (a + c) % 10
                    q = (b + d) % 10
                    if natural[p] or natural[q]:
                        _end(out, w * on4, p, q, natural[p], natural[q], 4)
                    elif player[p]:
                        for e in range(10):
                            we = n[e]
                            if we == 0:
                                continue
                            pe = (p + e) % 10
                            if banker[q, e]:
                                n[e] -= 1
                                for f in range(10):
                                    wf = n[f]
                                    if wf != 0:
                                        _end(out, w * we * wf, pe, (q + f) % 10, False, False, 6)
                                n[e] += 1
                            else:
                                _end(out, w * we * on5, pe, q, False, False, 5)
                    elif stood[q]:
                        for f in range(10):
                            wf = n[f]
                            if wf != 0:
                                _end(out, w * wf * on5, p, (q + f) % 10, False, False, 5)
                    else:
                        _end(out, w * on4, p, q, False, False, 4)
                    n[d] += 1
                n[c] += 1
            n[b] += 1
        n[a] += 1


def numerators(counts: Any, tables: dict[str, np.ndarray]) -> list[int]:
    """The numerator over ``n (n − 1) … (n − 5)`` of each event of ``CLASSES`` for a shoe of
    counts by value 0–9, as :func:`baccarat_kit.odds._numerators_direct` gives them; ``tables``
    is :func:`baccarat_kit.odds.decision_tables`. Only for shoes whose ways to deal six cards
    stay below 2**63 (the caller's rule: a few cards)."""
    out = np.zeros(9, dtype=np.int64)
    _walk(np.array(counts, dtype=np.int64), tables["natural"], tables["player"],
          tables["banker_stood"], tables["banker"], out)
    numerators: list[int] = out.tolist()
    return numerators
