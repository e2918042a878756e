"""Exact odds of every bet, for any shoe: complete enumeration, fast.

``exact_odds(8)`` gives the probabilities of banker, player and tie for a full
8-deck shoe as :class:`fractions.Fraction`, with naturals, pairs and the house edge
of every bet of every pay table in :data:`baccarat_kit.PAY_TABLES`.

>>> import baccarat_kit as bk
>>> odds = bk.exact_odds(8)
>>> round(float(odds.banker), 6), round(float(odds.player), 6), round(float(odds.tie), 6)
(0.458597, 0.446247, 0.095156)
>>> f"{float(odds.house_edge('banker')):.4%}", f"{float(odds.house_edge('tie', 'commission-tie-9')):.4%}"
('1.0579%', '4.8440%')
>>> odds.banker + odds.player + odds.tie
Fraction(1, 1)

How it is fast. A coup uses the first 4, 5 or 6 cards of the shoe; the probability of a
given sequence of card values depends only on the *multiset* of those values (how many
of each value it takes from the shoe). :func:`coup_table` lists, once per process and in
pure Python, the 6 958 multisets of card values that are the cards of some coup, with
how many of their orderings end in each event, resolving each coup with the engine's
decisions (:func:`baccarat_kit.player_draws`, :func:`baccarat_kit.banker_draws`,
:func:`baccarat_kit.is_natural`; the rules are never restated here). For a given shoe
the exact answer is then one product of falling factorials per multiset and a sum, in
integers: about 30 ms for the first call of a fresh process (less than a plain loop over
every coup costs), a fraction of a millisecond for the next ones.

Pairs need ranks, not only values: 10, J, Q and K are four ranks of value 0. A deck
count or a :class:`~baccarat_kit.Shoe` gives the ranks; 13 counts (A, 2 … 10, J, Q, K)
or a mapping by rank give them too. With only 10 counts by value, the value-0 cards are
**assumed** to be spread evenly over 10, J, Q and K (as in a full shoe);
:attr:`ExactOdds.pair_basis` says which case applies.
"""

from __future__ import annotations

import importlib.util
import math
import operator
import sys
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from functools import cache, lru_cache
from numbers import Integral
from typing import TYPE_CHECKING, Any

from .cards import Rank
from .errors import BaccaratError
from .rules import banker_draws, is_natural, player_draws
from .settlement import AREAS, PAY_TABLES, PayTable, bet_area, pay_table

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt


__all__ = [
    "CLASSES",
    "ExactOdds",
    "OddsBatch",
    "OddsError",
    "bet_label",
    "composition",
    "decision_tables",
    "exact_odds",
    "exact_odds_batch",
    "resolve",
]

RANKS: tuple[Rank, ...] = tuple(Rank)
"""The thirteen ranks in the order of rank counts: A, 2 … 10, J, Q, K."""
RANK_VALUES: tuple[int, ...] = tuple(r.value_points for r in RANKS)
MAX_COUP_CARDS = 6

CLASSES: tuple[str, ...] = (
    "player",          # player wins
    "banker",          # banker wins (any total)
    "banker_six",      # banker wins with a final total of 6
    "tie",
    "player_natural",  # player's first two cards are a natural
    "banker_natural",
    "natural",         # either hand has a natural
    "five_cards",      # the coup used exactly 5 cards
    "six_cards",       # the coup used 6 cards
)
"""The events whose exact probabilities every enumeration returns, in this order."""


class OddsError(BaccaratError):
    """A shoe composition or a bet the odds cannot be computed for."""


# ---------------------------------------------------------------------------
# Decision tables from the engine
# ---------------------------------------------------------------------------

@cache
def decision_tables() -> dict[str, Any]:
    """The engine's drawing decisions as numpy tables (built once, by asking the engine).

    ``natural[t]`` — a two-card total ``t`` (0–9) is a natural;
    ``player[t]`` — the player with two-card total ``t`` draws (False for naturals);
    ``banker_stood[t]`` — the banker with ``t`` draws when the player stood;
    ``banker[t, v]`` — the banker with ``t`` draws when the player's third card is worth ``v``.
    """
    import numpy as np

    natural = np.array([is_natural(t) for t in range(10)])
    player = np.array([not is_natural(t) and player_draws(t) for t in range(10)])
    banker_stood = np.array([not is_natural(t) and banker_draws(t, None) for t in range(10)])
    banker = np.array(
        [[not is_natural(t) and banker_draws(t, v) for v in range(10)] for t in range(10)]
    )
    return {"natural": natural, "player": player, "banker_stood": banker_stood, "banker": banker}


def resolve(
    p2: npt.ArrayLike, b2: npt.ArrayLike, c5: npt.ArrayLike, c6: npt.ArrayLike
) -> dict[str, np.ndarray]:
    """Finish coups given the two-card totals and the values of the next two cards, vectorized.

    Returns arrays ``cards`` (4, 5 or 6 used), ``player`` and ``banker`` (final totals),
    ``player_natural``, ``banker_natural``. The decisions come from :func:`decision_tables`.

    >>> out = resolve([5], [7], [4], [0])          # BCR-001: 閒 2+3, 莊 3+4, then a 4
    >>> int(out["cards"][0]), int(out["player"][0]), int(out["banker"][0])
    (5, 9, 7)
    """
    import numpy as np

    t = decision_tables()
    p2 = np.asarray(p2)
    b2 = np.asarray(b2)
    c5 = np.asarray(c5)
    c6 = np.asarray(c6)
    pn = t["natural"][p2]
    bn = t["natural"][b2]
    nat = pn | bn
    pdraw = ~nat & t["player"][p2]
    bdraw = ~nat & np.where(pdraw, t["banker"][b2, c5], t["banker_stood"][b2])
    pt = np.where(pdraw, (p2 + c5) % 10, p2)
    bcard = np.where(pdraw, c6, c5)
    bt = np.where(bdraw, (b2 + bcard) % 10, b2)
    cards = 4 + pdraw.astype(np.int64) + bdraw.astype(np.int64)
    return {"cards": cards, "player": pt, "banker": bt, "player_natural": pn, "banker_natural": bn}


# ---------------------------------------------------------------------------
# Every coup, grouped by the multiset of card values it uses (pure Python)
# ---------------------------------------------------------------------------

PACKED = CLASSES[:7]
"""The events :func:`coup_table` counts; ``five_cards`` and ``six_cards`` follow from the
size of a multiset (every coup of 5 cards uses exactly 5)."""
_DIGIT = 3
"""Bits per value in a multiset key: a coup takes at most 6 cards of one value (< 8)."""
_SIZE_SHIFT = 10 * _DIGIT
"""The number of cards of a multiset, above its ten counts."""
_HALF = 5 * _DIGIT
"""A key's low half holds the counts of values 0–4; above it, those of 5–9 and the size."""
_LOW_MASK = (1 << _HALF) - 1
_SLOT = 128
"""Bits per event in a packed vector of counts (see :func:`coup_table`)."""
_ONE_CELL = 10 * (MAX_COUP_CARDS + 1) + MAX_COUP_CARDS + 1
"""The cell of :func:`_weights` that holds 1 (padding for numpy)."""


def _card(v: int) -> int:
    """The key of one card of value ``v``; a multiset's key is the sum of its cards' keys."""
    return (1 << (_DIGIT * v)) + (1 << _SIZE_SHIFT)


def _packed(pt: int, bt: int, pn: bool, bn: bool) -> int:
    """The events of :data:`PACKED` a coup ending ``pt`` to ``bt`` is in, one bit per slot."""
    flags = (pt > bt, bt > pt, bt > pt and bt == 6, pt == bt, pn, bn, pn or bn)
    return sum(1 << (_SLOT * j) for j, flag in enumerate(flags) if flag)


def _add(into: dict[int, int], a: dict[int, int], b: dict[int, int]) -> None:
    """``into += a × b`` for polynomials over multisets (keys add, coefficients multiply)."""
    items = list(b.items())
    get = into.get
    for ka, ca in a.items():
        if ca == 1:
            for kb, cb in items:
                k = ka + kb
                into[k] = get(k, 0) + cb
        else:
            for kb, cb in items:
                k = ka + kb
                into[k] = get(k, 0) + ca * cb


def _cells(key: int, first: int) -> tuple[int, ...]:
    """The cells of :func:`_weights` a half key multiplies: ``7 v + m`` for each of the five
    values ``v`` from ``first`` it takes ``m`` > 0 times, and for a high half ``70 + size``."""
    cells = [7 * v + m for v in range(first, first + 5) if (m := (key >> (_DIGIT * v)) & 7)]
    if first:
        cells.append(7 * 10 + (key >> _SIZE_SHIFT))
    return tuple(cells)


@dataclass(frozen=True, slots=True)
class CoupTable:
    """Every coup grouped by the multiset of card values it uses; see :func:`coup_table`.

    A multiset is keyed by its counts of values 0–4 (the low half) and of values 5–9 with
    its size (the high half); the weight of a multiset is the product of its halves'.
    """

    low_cells: tuple[tuple[int, ...], ...]
    """Each distinct low half, as the cells ``7 v + m`` of :func:`_weights` it multiplies."""
    high_cells: tuple[tuple[int, ...], ...]
    """Each distinct high half, as its cells ``7 v + m`` and the cell ``70 + size``."""
    groups: tuple[tuple[int, int, tuple[int, ...], tuple[int, ...]], ...]
    """``(high, size, lows, packed)``: the multisets of one high half (an index in
    :attr:`high_cells`) and size; their low halves (indices in :attr:`low_cells`), and for
    each how many of its value sequences are coups ending in each event of :data:`PACKED`,
    event ``j`` in bits ``128 j`` to ``128 j + 127`` of one integer."""

    def __len__(self) -> int:
        return sum(len(lows) for _, _, lows, _ in self.groups)

    def multisets(self) -> Iterator[tuple[tuple[int, ...], tuple[int, ...]]]:
        """Each multiset's counts of values 0–9 and its counts of the events of :data:`CLASSES`."""
        mask = (1 << _SLOT) - 1
        for high, size, lows, packs in self.groups:
            for low, packed in zip(lows, packs, strict=True):
                counts = [0] * 10
                for cell in self.low_cells[low] + self.high_cells[high][:-1]:
                    counts[cell // 7] = cell % 7
                events = [(packed >> (_SLOT * j)) & mask for j in range(len(PACKED))]
                coups = events[0] + events[1] + events[3]
                yield tuple(counts), (*events, coups * (size == 5), coups * (size == 6))


@cache
def coup_table() -> CoupTable:
    """Every coup as the multiset of card values it uses, with how its orderings end.

    A coup deals the player's first card, the banker's first, the player's second, the
    banker's second, then the third cards the engine calls for; which are drawn depends only
    on the two two-card totals. So the table is a sum of products of polynomials over
    multisets of card values: ``pairs[t]`` holds the two-card hands of total ``t`` (each
    multiset with its number of orders), ``more(p, b)`` the ways a coup of player total
    ``p`` and banker total ``b`` goes on (the third cards, in order, each with the events it
    ends in, from :func:`~baccarat_kit.is_natural`, :func:`~baccarat_kit.player_draws` and
    :func:`~baccarat_kit.banker_draws`), and the table is the sum over ``p`` and ``b`` of
    ``pairs[p] × pairs[b] × more(p, b)``: every multiset with how many of its orders are
    coups ending in each event. Built once, in pure Python, in about 20 ms.

    There are 6 958 multisets: 497 of 4 cards, 1 722 of 5, 4 739 of 6. (Of all 7 722
    multisets of 4–6 values, 715 + 2 002 + 5 005, the other 764 are the cards of no coup.)

    >>> t = coup_table()
    >>> len(t), sum(e[0] + e[1] + e[3] for _, e in t.multisets())   # multisets, coups
    (6958, 339400)
    """
    natural = [is_natural(t) for t in range(10)]
    player = [not natural[t] and player_draws(t) for t in range(10)]
    stood = [not natural[t] and banker_draws(t, None) for t in range(10)]
    banker = [[not natural[t] and banker_draws(t, v) for v in range(10)] for t in range(10)]
    end = [[_packed(pt, bt, False, False) for bt in range(10)] for pt in range(10)]
    one = [_card(v) for v in range(10)]
    pairs: list[dict[int, int]] = [{} for _ in range(10)]
    for x in range(10):
        for y in range(10):
            hand = pairs[(x + y) % 10]
            hand[one[x] + one[y]] = hand.get(one[x] + one[y], 0) + 1
    table: dict[int, int] = {}
    for p in range(10):
        after: dict[int, int] = {}     # the banker's hand and the third cards, for player total p
        for b in range(10):
            if natural[p] or natural[b]:
                more = {0: _packed(p, b, natural[p], natural[b])}
            elif player[p]:
                more = {}
                for e in range(10):
                    ends = end[(p + e) % 10]
                    if banker[b][e]:
                        for f in range(10):
                            k = one[e] + one[f]
                            more[k] = more.get(k, 0) + ends[(b + f) % 10]
                    else:
                        more[one[e]] = more.get(one[e], 0) + ends[b]
            elif stood[b]:
                more = {one[f]: end[p][(b + f) % 10] for f in range(10)}
            else:
                more = {0: end[p][b]}
            _add(after, pairs[b], more)
        _add(table, pairs[p], after)
    lows: dict[int, int] = {}
    grouped: dict[int, tuple[list[int], list[int]]] = {}
    for key, packed in table.items():
        group = grouped.get(key >> _HALF)
        if group is None:
            group = grouped[key >> _HALF] = ([], [])
        group[0].append(lows.setdefault(key & _LOW_MASK, len(lows)))
        group[1].append(packed)
    return CoupTable(
        low_cells=tuple(_cells(k, 0) for k in lows),
        high_cells=tuple(_cells(h << _HALF, 5) for h in grouped),
        groups=tuple((i, h >> (_SIZE_SHIFT - _HALF), tuple(m), tuple(p))
                     for i, (h, (m, p)) in enumerate(grouped.items())),
    )


@cache
def _enumeration() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`coup_table` as numpy arrays ``(M, K, C)``: ``M[i]`` the count of each value 0–9
    in multiset ``i``, ``K[i]`` its size (4, 5 or 6 cards), ``C[i, j]`` how many value
    sequences of it are coups ending in event ``CLASSES[j]``."""
    import numpy as np

    rows = list(coup_table().multisets())
    M = np.array([counts for counts, _ in rows], dtype=np.int64)
    K = M.sum(axis=1)
    C = np.array([events for _, events in rows], dtype=np.int64)
    for arr in (M, K, C):
        arr.setflags(write=False)
    return M, K, C


# ---------------------------------------------------------------------------
# Shoe compositions
# ---------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Composition:
    """Cards left in a shoe: counts by value 0–9 and, when known, by rank (A … K)."""

    values: tuple[int, ...]
    ranks: tuple[int, ...] | None = None

    @property
    def cards(self) -> int:
        return sum(self.values)


def _count(x: object, where: str) -> int:
    if isinstance(x, bool) or not isinstance(x, int | Integral):
        raise OddsError("odds.bad_count", value=repr(x), where=where)
    n = int(x)
    if n < 0:
        raise OddsError("odds.bad_count", value=n, where=where)
    return n


def _from_ranks(ranks: Sequence[int]) -> Composition:
    values = [0] * 10
    for r, n in zip(RANK_VALUES, ranks, strict=True):
        values[r] += n
    return Composition(tuple(values), tuple(ranks))


def _rank_key(key: object) -> Rank | None:
    if isinstance(key, Rank):
        return key
    if isinstance(key, str):
        from .cards import Card
        from .errors import CardError

        try:
            return Card(key).rank
        except CardError:
            return None
    return None


_INT = {int}


def composition(shoe: object) -> Composition:
    """A shoe's composition from a deck count, counts, a mapping, or a :class:`Shoe`.

    * an int ``d`` (1–100): ``d`` full 52-card decks;
    * a :class:`~baccarat_kit.Shoe`: the cards it has left to deal (ranks known);
    * 10 counts by value 0–9 (a sequence, or a mapping ``{value: count}`` such as
      ``Shoe.remaining``), or 13 counts by rank (A, 2 … 10, J, Q, K; a sequence, or a
      mapping ``{"A": 32, "K": 32, …}``).

    >>> composition(1).values
    (16, 4, 4, 4, 4, 4, 4, 4, 4, 4)
    >>> composition({0: 10, 1: 3, 9: 2}).values
    (10, 3, 0, 0, 0, 0, 0, 0, 0, 2)
    >>> composition({"K": 4, "Q": 4, "9": 1}).ranks[-3:]
    (0, 4, 4)
    """
    if isinstance(shoe, list | tuple) and len(shoe) == 10:
        values: tuple[int, ...] = tuple(shoe)
        if set(map(type, values)) == _INT and min(values) >= 0 and sum(values) >= MAX_COUP_CARDS:
            return Composition(values)         # plain counts by value, as below (and quicker)
    from .shoe import Shoe

    if isinstance(shoe, Shoe):
        ranks = [0] * 13
        index = {r: i for i, r in enumerate(RANKS)}
        for card in shoe.cards_left:
            ranks[index[card.rank]] += 1
        comp = _from_ranks(ranks)
    elif isinstance(shoe, Composition):
        comp = shoe
    elif isinstance(shoe, bool | str | bytes):
        raise OddsError("odds.bad_shoe", value=repr(shoe))
    elif isinstance(shoe, int | Integral) and not hasattr(shoe, "__len__"):
        decks = int(shoe)
        if not 1 <= decks <= 100:
            raise OddsError("odds.bad_decks", value=decks)
        comp = _from_ranks([4 * decks] * 13)
    elif isinstance(shoe, Mapping):
        if all(isinstance(k, int) and not isinstance(k, bool) and 0 <= k <= 9 for k in shoe):
            comp = Composition(tuple(_count(shoe.get(v, 0), f"value {v}") for v in range(10)))
        else:
            ranks = [0] * 13
            for key, n in shoe.items():
                rank = _rank_key(key)
                if rank is None:
                    raise OddsError("odds.bad_key", value=repr(key))
                ranks[RANKS.index(rank)] += _count(n, f"rank {rank.value}")
            comp = _from_ranks(ranks)
    else:
        try:
            items = list(shoe)  # type: ignore[call-overload]
        except TypeError:
            raise OddsError("odds.bad_shoe", value=repr(shoe)) from None
        if len(items) == 10:
            comp = Composition(tuple(_count(n, f"value {v}") for v, n in enumerate(items)))
        elif len(items) == 13:
            comp = _from_ranks([_count(n, f"rank {r.value}") for r, n in zip(RANKS, items, strict=True)])
        else:
            raise OddsError("odds.bad_length", value=len(items))
    if comp.cards < MAX_COUP_CARDS:
        raise OddsError("odds.too_few", value=comp.cards, needed=MAX_COUP_CARDS)
    return comp


# ---------------------------------------------------------------------------
# Exact odds of one shoe
# ---------------------------------------------------------------------------

def _frac(x: Decimal | int) -> Fraction:
    return Fraction(x)


def _expected_value(odds: Any, area: str, pt: PayTable, p: Any, num: Any) -> Any:
    """Expected net result of a one-unit bet, for exact (``num=Fraction``) or batch
    (``num=float``, numpy arrays) odds alike; ``p`` is the win probability of a side bet."""
    lose_on_tie = 0 if pt.push_on_tie else 1
    if area == "player":
        return odds.player * num(pt.player) - odds.banker - lose_on_tie * odds.tie
    if area == "banker":
        keep = 1 - num(pt.commission)
        six_odds = num(pt.banker if pt.banker_six is None else pt.banker_six)
        win = (odds.banker - odds.banker_six) * num(pt.banker) + odds.banker_six * six_odds
        return win * keep - odds.player - lose_on_tie * odds.tie
    return p * num(pt.odds(area)) - (1 - p)


@dataclass(frozen=True, slots=True)
class ExactOdds:
    """Exact probabilities of one coup dealt from a given shoe composition.

    Every probability is a :class:`~fractions.Fraction`; ``float(odds.banker)`` for a number.
    """

    composition: Composition
    player: Fraction
    banker: Fraction
    banker_six: Fraction
    """The banker wins with a final total of 6 (what "Super 6" pays half on)."""
    tie: Fraction
    player_natural: Fraction
    banker_natural: Fraction
    natural: Fraction
    """Either hand has a natural (8 or 9 on its first two cards)."""
    five_cards: Fraction
    six_cards: Fraction
    player_pair: Fraction
    banker_pair: Fraction
    pair_basis: str
    """``"ranks"`` when the ranks of value-0 cards were known, else ``"value-0 split evenly"``."""

    @property
    def cards(self) -> int:
        """Cards in the shoe."""
        return self.composition.cards

    @property
    def cards_per_coup(self) -> Fraction:
        """Expected number of cards a coup uses."""
        return 4 + self.five_cards + 2 * self.six_cards

    def probability(self, area: str) -> Fraction:
        """Probability that a bet on ``area`` wins (player, banker, tie, player-pair, banker-pair)."""
        name = bet_area(area).replace("-", "_")
        return getattr(self, name)  # type: ignore[no-any-return]

    def expected_value(self, bet: str, table: str | PayTable = "commission") -> Fraction:
        """Expected net result of a one-unit bet on ``bet`` under ``table`` (negative: a loss).

        Commission is taken exactly (no rounding to a minimum unit).
        """
        area = bet_area(bet)
        p = None if area in ("player", "banker") else self.probability(area)
        value: Fraction = _expected_value(self, area, pay_table(table), p, _frac)
        return value

    def house_edge(self, bet: str, table: str | PayTable = "commission") -> Fraction:
        """The house edge of ``bet`` under ``table``: the expected loss per unit staked.

        >>> f"{float(exact_odds(8).house_edge('banker', 'no-commission')):.4%}"
        '1.4581%'
        """
        return -self.expected_value(bet, table)

    def edges(self, table: str | PayTable = "commission") -> dict[str, Fraction]:
        """The house edge of every bet area under ``table``."""
        return {area: self.house_edge(area, table) for area in AREAS}

    def report(self, lang: str | None = None) -> str:
        """A text table: each bet's chance of winning and its house edge under every pay table."""
        from .i18n import message

        names = list(PAY_TABLES)
        head = [message("odds.col-bet", lang), message("odds.col-probability", lang)]
        head += [message(f"odds.table-{n}", lang) for n in names]
        rows = [head]
        for area in AREAS:
            row = [message(f"area.{area}", lang), f"{float(self.probability(area)):.6f}"]
            row += [f"{float(self.house_edge(area, n)):.4%}" for n in names]
            rows.append(row)
        lines = text_table(rows)
        lines.append(message("odds.report-footer", lang, cards=self.cards,
                             natural=f"{float(self.natural):.6f}",
                             per_coup=f"{float(self.cards_per_coup):.4f}"))
        return "\n".join(lines)


def bet_label(bet: str, table: str | PayTable = "commission", lang: str | None = None) -> str:
    """A bet under a pay table, named by what it pays: ``莊（抽 5% 傭金）``, ``和（賠 8:1）``.

    >>> bet_label("tie", "commission-tie-9", "en"), bet_label("banker", "no-commission", "en")
    ('tie (pays 9:1)', 'banker (no commission, a win on 6 pays 1:2)')
    """
    from .i18n import message

    area = bet_area(bet)
    pt = pay_table(table)
    if area == "banker" and pt.banker_six is not None:
        six = Fraction(pt.banker_six)
        return message("odds.label-banker-six", lang, six=six.denominator // six.numerator
                       if six.numerator == 1 else f"{float(six):g}")
    if area == "banker" and pt.commission:
        return message("odds.label-banker-commission", lang, pct=f"{float(pt.commission) * 100:g}")
    return message("odds.label-odds", lang, area=message(f"area.{area}", lang),
                   odds=f"{float(pt.odds(area)):g}")


def text_table(rows: list[list[str]]) -> list[str]:
    """Rows of cells as aligned text lines: first column left, the others right-aligned,
    counting CJK characters as two columns wide."""
    widths = [max(_width(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = []
    for r in rows:
        cells = [r[0] + " " * (widths[0] - _width(r[0]))]
        cells += [" " * (w - _width(c)) + c for c, w in zip(r[1:], widths[1:], strict=True)]
        lines.append("  ".join(cells))
    return lines


def _width(text: str) -> int:
    """Display width: CJK characters take two columns."""
    import unicodedata

    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def _pair_probability(comp: Composition) -> tuple[Fraction, str]:
    n = comp.cards
    if comp.ranks is not None:
        same = sum(r * (r - 1) for r in comp.ranks)
        return Fraction(same, n * (n - 1)), "ranks"
    # 4 z (z - 1) with z = n_0 / 4 cards of each rank of value 0, plus n_v (n_v - 1) for the others
    zero = comp.values[0]
    alike = zero * (zero - 4) + 4 * sum([v * (v - 1) for v in comp.values[1:]])
    return Fraction(alike, 4 * n * (n - 1)), "value-0 split evenly"


def _weights(comp: Composition) -> list[int]:
    """The cells a multiset's weight multiplies: cell ``7 v + m`` holds ``n_v (n_v − 1) …
    (n_v − m + 1)``, the ways to take ``m`` cards of value ``v`` in order; cell ``70 + k``
    the ways to go on to 6 cards after ``k`` (bringing 4- and 5-card coups to the common
    denominator ``n (n − 1) … (n − 5)``); the last cell is 1 (padding for numpy)."""
    cells = [ways for count in comp.values for ways in _falling(count)]
    n = comp.cards
    cells += [math.perm(n - k, MAX_COUP_CARDS - k) for k in range(MAX_COUP_CARDS + 1)]
    cells.append(1)
    return cells


@lru_cache(maxsize=512)
def _falling(count: int) -> tuple[int, ...]:
    """``count (count − 1) … (count − m + 1)`` for ``m`` = 0 … 6: the ways to take ``m`` of
    ``count`` cards in order (0 once ``m`` passes ``count``)."""
    return tuple(math.perm(count, m) for m in range(MAX_COUP_CARDS + 1))


@cache
def _repacked(width: int) -> tuple[tuple[int, int, tuple[int, ...], tuple[int, ...]], ...]:
    """:attr:`CoupTable.groups` with ``width`` bits per event (for shoes of millions of cards)."""
    mask = (1 << _SLOT) - 1

    def repack(p: int) -> int:
        return sum(((p >> (_SLOT * j)) & mask) << (width * j) for j in range(len(PACKED)))

    return tuple((h, k, lows, tuple(map(repack, packs))) for h, k, lows, packs in coup_table().groups)


def _numerators_python(cells: list[int], denominator: int) -> list[int]:
    """The numerator over ``denominator`` of each event of :data:`CLASSES`: one product per
    multiset, in Python integers, the events of :data:`PACKED` at once in one packed sum."""
    t = coup_table()
    width = max(_SLOT, denominator.bit_length() + 1)    # no event's sum reaches the next slot
    groups = t.groups if width == _SLOT else _repacked(width)
    get = cells.__getitem__
    low = [math.prod(map(get, c)) for c in t.low_cells]
    high = [math.prod(map(get, c)) for c in t.high_cells]
    of_low = low.__getitem__
    by_size = [0] * (MAX_COUP_CARDS + 1)
    for h, size, lows, packs in groups:
        by_size[size] += high[h] * sum(map(operator.mul, map(of_low, lows), packs))
    mask = (1 << width) - 1

    def unpack(total: int) -> list[int]:
        return [(total >> (width * j)) & mask for j in range(len(PACKED))]

    events = unpack(sum(by_size))
    five, six = unpack(by_size[5]), unpack(by_size[6])
    return [*events, five[0] + five[1] + five[3], six[0] + six[1] + six[3]]


@cache
def _numpy_table() -> dict[str, np.ndarray]:
    """:func:`coup_table` as index arrays for :func:`_numerators_numpy`: each half's cells
    (padded with the cell that holds 1), each multiset's halves, and its events."""
    import numpy as np

    t = coup_table()

    def matrix(cells: tuple[tuple[int, ...], ...], width: int) -> np.ndarray:
        return np.array([c + (_ONE_CELL,) * (width - len(c)) for c in cells], dtype=np.intp)

    out = {"low_cells": matrix(t.low_cells, 5), "high_cells": matrix(t.high_cells, 6),
           "low": np.array([i for _, _, lows, _ in t.groups for i in lows], dtype=np.intp),
           "high": np.array([h for h, _, lows, _ in t.groups for _ in lows], dtype=np.intp),
           "events": _enumeration()[2]}
    for arr in out.values():
        arr.setflags(write=False)
    return out


def _numerators_numpy(cells: list[int], counts: Sequence[int] | None = None) -> list[int]:
    """As :func:`_numerators_python`, in numpy int64: for shoes of fewer than 1 449 cards,
    whose ways to deal six cards (and so every partial product and sum) stay below 2**63.

    With the shoe's ``counts`` by value, only the multisets the shoe can deal (none takes more
    cards of a value than it holds: :func:`_fitting`) are summed, one product each, when they
    are fewer than :data:`ROWS_FROM` (a nearly empty shoe: a few dozen to a few hundred); every
    other multiset weighs 0 there. Else every multiset, by halves."""
    import numpy as np

    c = np.array(cells, dtype=np.int64)
    rows = None if counts is None else _fitting(counts)
    if rows is not None:
        a = _row_table()
        weights = c[a["cells"][rows]].prod(axis=1)
        return (weights @ a["events"][rows]).tolist()  # type: ignore[no-any-return]
    a = _numpy_table()
    weights = c[a["low_cells"]].prod(axis=1)[a["low"]] * c[a["high_cells"]].prod(axis=1)[a["high"]]
    return (weights @ a["events"]).tolist()  # type: ignore[no-any-return]


ROWS_FROM = 1500
""":func:`_numerators_numpy` sums only the multisets a shoe can deal when there are fewer than
this many; else all 6 958 by halves, which is quicker then."""


@cache
def _row_table() -> dict[str, np.ndarray]:
    """:func:`_numpy_table` one row per multiset: the cells of both its halves, and its events."""
    import numpy as np

    a = _numpy_table()
    out = {"cells": np.concatenate((a["low_cells"][a["low"]], a["high_cells"][a["high"]]), axis=1),
           "events": a["events"]}
    for arr in out.values():
        arr.setflags(write=False)
    return out


@cache
def _too_many() -> tuple[tuple[int, ...], ...]:
    """Bit sets over the multisets of :func:`_enumeration`: bit ``i`` of ``[v][n]`` is set when
    multiset ``i`` takes more than ``n`` cards of value ``v`` (``n`` = 0 … 5)."""
    import numpy as np

    counts = _enumeration()[0]
    return tuple(tuple(int.from_bytes(np.packbits(counts[:, v] > n, bitorder="little").tobytes(), "little")
                       for n in range(MAX_COUP_CARDS)) for v in range(10))


def _fitting(counts: Sequence[int]) -> np.ndarray | None:
    """The multisets of :func:`_enumeration` a shoe of ``counts`` by value can deal (an index
    array), or None when there are :data:`ROWS_FROM` or more: bit sets, one OR per value."""
    import numpy as np

    too_many = _too_many()
    out = 0
    for v, n in enumerate(counts):
        if n < MAX_COUP_CARDS:
            out |= too_many[v][n]
    size = len(_enumeration()[0])
    fit = ((1 << size) - 1) ^ out
    if fit.bit_count() >= ROWS_FROM:
        return None
    bits = np.unpackbits(np.frombuffer(fit.to_bytes((size + 7) // 8, "little"), dtype=np.uint8),
                         bitorder="little")
    rows: np.ndarray = bits.view(bool).nonzero()[0]            # (as bools: ten times quicker)
    return rows


def _numerators_direct(counts: Sequence[int]) -> list[int]:
    """As :func:`_numerators_python`, for a nearly empty shoe: its own coups walked card by card
    (the first four cards, then the third cards the engine calls for), each weighted by its ways
    to be dealt and to go on to six cards. For a shoe of a few cards this is less work than
    building :func:`coup_table` (a fresh process pays it once, about 20 ms)."""
    natural = [is_natural(t) for t in range(10)]
    player = [not natural[t] and player_draws(t) for t in range(10)]
    stood = [not natural[t] and banker_draws(t, None) for t in range(10)]
    banker = [[not natural[t] and banker_draws(t, v) for v in range(10)] for t in range(10)]
    n = list(counts)
    total = sum(n)
    on4, on5 = math.perm(total - 4, 2), total - 5        # ways to go on to six cards
    ends = [0] * 800          # ways by (player total * 10 + banker total) * 8 + how the coup ended
    values = range(10)
    for a in values:
        if not (wa := n[a]):
            continue
        n[a] -= 1
        for b in values:
            if not (wb := n[b]):
                continue
            n[b] -= 1
            for c in values:
                if not (wc := n[c]):
                    continue
                n[c] -= 1
                for d in values:
                    if not (wd := n[d]):
                        continue
                    n[d] -= 1
                    w = wa * wb * wc * wd
                    p, q = (a + c) % 10, (b + d) % 10
                    if natural[p] or natural[q]:
                        ends[(p * 10 + q) * 8 + natural[p] + 2 * natural[q]] += w * on4
                    elif player[p]:
                        for e in values:
                            if not (we := n[e]):
                                continue
                            pe = (p + e) % 10
                            if banker[q][e]:
                                n[e] -= 1
                                for f in values:
                                    if wf := n[f]:
                                        ends[(pe * 10 + (q + f) % 10) * 8 + 6] += w * we * wf
                                n[e] += 1
                            else:
                                ends[(pe * 10 + q) * 8 + 5] += w * we * on5
                    elif stood[q]:
                        for f in values:
                            if wf := n[f]:
                                ends[(p * 10 + (q + f) % 10) * 8 + 5] += w * wf * on5
                    else:
                        ends[(p * 10 + q) * 8 + 4] += w * on4
                    n[d] += 1
                n[c] += 1
            n[b] += 1
        n[a] += 1
    out = [0] * len(CLASSES)
    for key, ways in enumerate(ends):
        if not ways:
            continue
        pt, bt, how = key // 80, key // 8 % 10, key % 8
        flags = (pt > bt, bt > pt, bt > pt and bt == 6, pt == bt, how in (1, 3), how in (2, 3), how in (1, 2, 3),
                 how == 5, how == 6)
        for j, flag in enumerate(flags):
            if flag:
                out[j] += ways
    return out


DIRECT_CARDS = 14
"""Shoes of at most this many cards are walked coup by coup (:func:`_numerators_direct`) while
:func:`coup_table` is not built yet, for the first :data:`DIRECT_CALLS` such calls of a process."""
DIRECT_CALLS = 3
_direct_calls = [0]


def _use_direct(comp: Composition) -> bool:
    if comp.cards > DIRECT_CARDS or coup_table.cache_info().currsize:
        return False
    _direct_calls[0] += 1
    return _direct_calls[0] <= DIRECT_CALLS


KERNEL_CARDS = 7
"""A shoe of at most this many cards is walked by the compiled kernel
(:mod:`baccarat_kit._exact_kernel`, when numba is installed and already imported): its walk then
takes under 15 µs, less than the multisets it can deal in numpy (about 19 µs for 7 cards). From 8
cards on the walk grows faster (about 27 µs for 8 cards, 115 µs for 12, 160 µs for 14, the last
cards of shuffled 8-deck shoes, against 23, 63 and 57 µs)."""


def _use_kernel(comp: Composition) -> bool:
    """Walk ``comp``'s coups in compiled code (see :data:`KERNEL_CARDS`)? numba is used only
    where it is already imported (importing it costs about half a second), as ``bk.simulate``'s
    ``kernel="auto"`` does."""
    if comp.cards > KERNEL_CARDS or sys.modules.get("numba") is None:
        return False
    return _numba_installed()


@cache
def _numba_installed() -> bool:
    try:
        return importlib.util.find_spec("numba") is not None and _numpy_installed()
    except (ImportError, ValueError):      # numba blocked (sys.modules["numba"] = None) or broken
        return False


def _numerators_kernel(counts: Sequence[int]) -> list[int]:
    """As :func:`_numerators_direct`, in compiled code (:mod:`baccarat_kit._exact_kernel`), with the
    engine's decisions as :func:`decision_tables` reads them. For nearly empty shoes only."""
    from . import _exact_kernel

    return _exact_kernel.numerators(counts, decision_tables())


PURE_PYTHON_CALLS = 16
"""Calls of :func:`exact_odds` computed in pure Python before it loads numpy (see there)."""
_calls = [0]


def _use_numpy(denominator: int) -> bool:
    if denominator >= 2**63:
        return False
    if sys.modules.get("numpy") is None:
        _calls[0] += 1
        if _calls[0] <= PURE_PYTHON_CALLS or not _numpy_installed():
            return False
    return True


@cache
def _numpy_installed() -> bool:
    try:
        return importlib.util.find_spec("numpy") is not None
    except (ImportError, ValueError):      # numpy blocked (sys.modules["numpy"] = None) or broken
        return False


def exact_odds(shoe: object = 8) -> ExactOdds:
    """Exact odds of the next coup dealt from ``shoe`` (see :func:`composition` for the forms).

    One product per multiset of :func:`coup_table` and a sum, in exact integers. With numpy
    already loaded the products are numpy int64 (about 0.2 ms a call); in a process that has
    not loaded numpy, the first :data:`PURE_PYTHON_CALLS` calls are computed in pure Python
    (about 2 ms each, and no 0.15 s import of numpy), then numpy is loaded. Shoes of 1 449
    cards or more, whose ways to deal six cards exceed 2**63, are always computed with Python
    integers. A nearly empty shoe (at most :data:`DIRECT_CARDS` cards) is walked coup by coup
    instead: in pure Python while the table is not built yet (:data:`DIRECT_CALLS`), and in
    compiled code where numba is installed and already imported, when its walk is short (see
    :data:`KERNEL_CARDS`); else, in numpy, only the multisets it can deal are summed
    (:func:`_fitting`). Every path gives the same fractions. The odds of the
    last :data:`NEARLY_EMPTY_KEPT` nearly empty shoes are kept: the same composition again
    (a shoe tracker redrawn, the end of many simulated shoes) is answered without a sum.

    >>> bk_shoe_left = {0: 2, 1: 1, 2: 1, 3: 1, 4: 1, 5: 1}   # a nearly empty shoe
    >>> o = exact_odds(bk_shoe_left)
    >>> o.banker + o.player + o.tie == 1, o.pair_basis
    (True, 'value-0 split evenly')
    """
    comp = composition(shoe)
    if comp.cards <= DIRECT_CARDS:
        return _nearly_empty(comp)
    return _exact_odds(comp)


NEARLY_EMPTY_KEPT = 1024
"""How many nearly empty shoes' odds :func:`exact_odds` keeps (least recently asked dropped)."""


@lru_cache(maxsize=NEARLY_EMPTY_KEPT)
def _nearly_empty(comp: Composition) -> ExactOdds:
    """:func:`_exact_odds`, kept by composition (frozen: every holder shares the same odds)."""
    return _exact_odds(comp)


def _exact_odds(comp: Composition) -> ExactOdds:
    """The odds of :func:`exact_odds`, computed by the quickest path (all give the same)."""
    denominator = math.perm(comp.cards, MAX_COUP_CARDS)
    if _use_kernel(comp):
        numerators = _numerators_kernel(comp.values)
    elif _use_direct(comp):
        numerators = _numerators_direct(comp.values)
    elif _use_numpy(denominator):
        numerators = _numerators_numpy(_weights(comp), comp.values if comp.cards <= DIRECT_CARDS else None)
    else:
        numerators = _numerators_python(_weights(comp), denominator)
    probs = {name: Fraction(numerators[j], denominator) for j, name in enumerate(CLASSES)}
    pair, basis = _pair_probability(comp)
    return ExactOdds(comp, player_pair=pair, banker_pair=pair, pair_basis=basis, **probs)


# ---------------------------------------------------------------------------
# Many compositions at once (floating point)
# ---------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class OddsBatch:
    """The odds of many shoe compositions, as float arrays (one entry per composition)."""

    cards: np.ndarray
    player: np.ndarray
    banker: np.ndarray
    banker_six: np.ndarray
    tie: np.ndarray
    player_natural: np.ndarray
    banker_natural: np.ndarray
    natural: np.ndarray
    five_cards: np.ndarray
    six_cards: np.ndarray
    player_pair: np.ndarray
    banker_pair: np.ndarray

    def __len__(self) -> int:
        return int(self.cards.size)

    def expected_value(self, bet: str, table: str | PayTable = "commission") -> np.ndarray:
        """Expected net result of a one-unit bet, per composition (see :meth:`ExactOdds.expected_value`)."""
        area = bet_area(bet)
        p = None if area in ("player", "banker") else getattr(self, area.replace("-", "_"))
        values: np.ndarray = _expected_value(self, area, pay_table(table), p, float)
        return values

    def house_edge(self, bet: str, table: str | PayTable = "commission") -> np.ndarray:
        """The house edge of ``bet`` per composition (negative: the bettor has the edge)."""
        return -self.expected_value(bet, table)


def exact_odds_batch(counts: npt.ArrayLike, *, chunk: int = 64) -> OddsBatch:
    """The odds of many compositions at once, in double precision.

    ``counts`` is an array of shape ``(n, 10)`` (counts by value 0–9; value-0 cards
    assumed spread evenly over 10/J/Q/K for pairs) or ``(n, 13)`` (counts by rank A … K).
    Each composition needs at least 6 cards. The same products as :func:`exact_odds`
    (:func:`coup_table`'s halves, then one weight per multiset), in floats: each cell is
    already divided by the ways to deal the coup's cards, so every weight is a probability;
    agrees with :func:`exact_odds` to about 1e-15. ``chunk`` compositions at a time (64: their
    weights, 64 × 6 958 floats, stay in the CPU's cache).

    >>> import numpy as np
    >>> b = exact_odds_batch(np.array([[32] * 13, [24] * 13]))
    >>> np.round(b.banker, 6).tolist()
    [0.458597, 0.458653]
    """
    import numpy as np

    arr = np.asarray(counts)
    if arr.ndim != 2 or arr.shape[1] not in (10, 13):
        raise OddsError("odds.bad_batch", value=str(arr.shape))
    if not np.issubdtype(arr.dtype, np.integer) or (arr < 0).any():
        raise OddsError("odds.bad_batch_counts")
    arr = arr.astype(np.float64)
    if arr.shape[1] == 13:
        ranks = arr
        values = np.zeros((arr.shape[0], 10))
        for i, v in enumerate(RANK_VALUES):
            values[:, v] += arr[:, i]
        same = (ranks * (ranks - 1)).sum(axis=1)
    else:
        values = arr
        zero = values[:, 0] / 4
        same = 4 * zero * (zero - 1) + (values[:, 1:] * (values[:, 1:] - 1)).sum(axis=1)
    n = values.sum(axis=1)
    if (n < MAX_COUP_CARDS).any():
        raise OddsError("odds.too_few", value=int(n.min()), needed=MAX_COUP_CARDS)
    table = _numpy_table()
    low_cells, high_cells, low, high = (table[k] for k in ("low_cells", "high_cells", "low", "high"))
    events = table["events"].astype(np.float64)
    out = np.empty((n.size, len(CLASSES)))
    for start in range(0, n.size, chunk):
        vals, tot = values[start:start + chunk], n[start:start + chunk]
        cells = np.empty((vals.shape[0], _ONE_CELL + 1))   # the cells of _weights, as floats
        ways, deals = np.ones_like(vals), np.ones_like(tot)
        cells[:, 0:70:7] = 1.0
        cells[:, 70] = 1.0
        for m in range(1, MAX_COUP_CARDS + 1):
            ways = ways * (vals - (m - 1))           # n_v (n_v − 1) … (n_v − m + 1); 0 if m > n_v
            cells[:, m:70:7] = ways
            deals = deals * (tot - (m - 1))          # n (n − 1) … (n − m + 1)
            cells[:, 70 + m] = 1.0 / deals
        cells[:, _ONE_CELL] = 1.0
        weights = cells[:, low_cells].prod(axis=2)[:, low]
        weights *= cells[:, high_cells].prod(axis=2)[:, high]
        out[start:start + chunk] = weights @ events
    probs = {name: out[:, j] for j, name in enumerate(CLASSES)}
    pair = same / (n * (n - 1))
    return OddsBatch(cards=n.astype(np.int64), player_pair=pair, banker_pair=pair, **probs)
