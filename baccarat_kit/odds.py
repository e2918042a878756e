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
of each value it takes from the shoe). At import the module enumerates every value
sequence once, resolving each coup with a decision table built from the engine
(:func:`baccarat_kit.player_draws`, :func:`baccarat_kit.banker_draws`,
:func:`baccarat_kit.is_natural`; the rules are never restated here), and counts how many
sequences of each multiset end in each outcome. For a given shoe the exact answer is
then one product per multiset (7 722 of them) and one integer matrix product.

Pairs need ranks, not only values: 10, J, Q and K are four ranks of value 0. A deck
count or a :class:`~baccarat_kit.Shoe` gives the ranks; 13 counts (A, 2 … 10, J, Q, K)
or a mapping by rank give them too. With only 10 counts by value, the value-0 cards are
**assumed** to be spread evenly over 10, J, Q and K (as in a full shoe);
:attr:`ExactOdds.pair_basis` says which case applies.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from functools import cache
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


@cache
def _enumeration() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every coup as a value sequence, grouped by multiset.

    Returns ``(M, K, C)``: ``M[i]`` the multiplicity of each value 0–9 in multiset ``i``,
    ``K[i]`` its size (4, 5 or 6 cards), ``C[i, j]`` how many value sequences of that
    multiset are coups ending in event ``CLASSES[j]``.
    """
    import numpy as np

    seq = np.indices((10,) * MAX_COUP_CARDS, dtype=np.int64).reshape(MAX_COUP_CARDS, -1)
    v1, v2, v3, v4, v5, v6 = seq
    out = resolve((v1 + v3) % 10, (v2 + v4) % 10, v5, v6)
    k = out["cards"]
    # one representative per coup: the cards after the last one used are set to value 0
    rep = (k == 6) | ((k == 5) & (v6 == 0)) | ((k == 4) & (v5 == 0) & (v6 == 0))
    seq = seq[:, rep]
    k = k[rep]
    pt = out["player"][rep]
    bt = out["banker"][rep]
    used = np.arange(MAX_COUP_CARDS)[:, None] < k[None, :]
    mult = np.zeros((seq.shape[1], 10), dtype=np.int64)
    rows = np.arange(seq.shape[1])
    for i in range(MAX_COUP_CARDS):
        mult[rows, seq[i]] += used[i]
    key = mult @ (7 ** np.arange(10, dtype=np.int64))
    keys, inverse = np.unique(key, return_inverse=True)
    events = {
        "player": pt > bt,
        "banker": bt > pt,
        "banker_six": (bt > pt) & (bt == 6),
        "tie": pt == bt,
        "player_natural": out["player_natural"][rep],
        "banker_natural": out["banker_natural"][rep],
        "natural": out["player_natural"][rep] | out["banker_natural"][rep],
        "five_cards": k == 5,
        "six_cards": k == 6,
    }
    counts = np.zeros((keys.size, len(CLASSES)), dtype=np.int64)
    for j, name in enumerate(CLASSES):
        counts[:, j] = np.bincount(inverse, weights=events[name], minlength=keys.size).astype(np.int64)
    first = np.zeros(keys.size, dtype=np.int64)
    first[inverse[::-1]] = np.arange(inverse.size)[::-1]
    M = mult[first]
    K = M.sum(axis=1)
    for arr in (M, K, counts):
        arr.setflags(write=False)
    return M, K, counts


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
    n = int(x)  # type: ignore[call-overload]
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
        from .cards import Card, CardError

        try:
            return Card(key).rank
        except CardError:
            return None
    return None


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
        decks = int(shoe)  # type: ignore[call-overload]
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
        return _expected_value(self, area, pay_table(table), p, _frac)

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
    zero = Fraction(comp.values[0], 4)
    same = 4 * zero * (zero - 1) + sum(v * (v - 1) for v in comp.values[1:])
    return same / (n * (n - 1)), "value-0 split evenly"


def exact_odds(shoe: object = 8) -> ExactOdds:
    """Exact odds of the next coup dealt from ``shoe`` (see :func:`composition` for the forms).

    >>> bk_shoe_left = {0: 2, 1: 1, 2: 1, 3: 1, 4: 1, 5: 1}   # a nearly empty shoe
    >>> o = exact_odds(bk_shoe_left)
    >>> o.banker + o.player + o.tie == 1, o.pair_basis
    (True, 'value-0 split evenly')
    """
    import numpy as np

    comp = composition(shoe)
    M, K, C = _enumeration()
    n = comp.cards
    big = math.perm(n, MAX_COUP_CARDS) >= 2**63
    dtype: Any = object if big else np.int64
    # falling[v, m] = n_v (n_v - 1) … (n_v - m + 1): ways to take m cards of value v in order
    falling = np.ones((10, MAX_COUP_CARDS + 1), dtype=dtype)
    for v, count in enumerate(comp.values):
        for m in range(1, MAX_COUP_CARDS + 1):
            falling[v, m] = falling[v, m - 1] * (count - m + 1)
    weights = falling[np.arange(10), M].prod(axis=1)
    # bring 4- and 5-card coups to the common denominator n (n-1) … (n-5)
    scale = np.array([math.perm(n - k, MAX_COUP_CARDS - k) for k in range(MAX_COUP_CARDS + 1)],
                     dtype=dtype)
    weights = weights * scale[K]
    numerators = weights @ C.astype(dtype) if big else weights @ C
    denominator = math.perm(n, MAX_COUP_CARDS)
    probs = {name: Fraction(int(numerators[j]), denominator) for j, name in enumerate(CLASSES)}
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
        return _expected_value(self, area, pay_table(table), p, float)

    def house_edge(self, bet: str, table: str | PayTable = "commission") -> np.ndarray:
        """The house edge of ``bet`` per composition (negative: the bettor has the edge)."""
        return -self.expected_value(bet, table)


@cache
def _log_design() -> tuple[np.ndarray, np.ndarray]:
    """One-hot design for the log-weights: columns (value v, m cards of it) and (coup size k)."""
    import numpy as np

    M, K, C = _enumeration()
    design = np.zeros((10 * MAX_COUP_CARDS + 3, M.shape[0]))
    for v in range(10):
        for m in range(1, MAX_COUP_CARDS + 1):
            design[v * MAX_COUP_CARDS + m - 1] = M[:, v] == m
    for k in (4, 5, 6):
        design[10 * MAX_COUP_CARDS + k - 4] = K == k
    return design, C.astype(np.float64)


def exact_odds_batch(counts: npt.ArrayLike, *, chunk: int = 1024) -> OddsBatch:
    """The odds of many compositions at once, in double precision.

    ``counts`` is an array of shape ``(n, 10)`` (counts by value 0–9; value-0 cards
    assumed spread evenly over 10/J/Q/K for pairs) or ``(n, 13)`` (counts by rank A … K).
    Each composition needs at least 6 cards. Agrees with :func:`exact_odds` to about 1e-12.

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
    design, C = _log_design()
    out = np.empty((n.size, len(CLASSES)))
    tiny = -1e4  # log of zero ways: exp() of it is 0
    for start in range(0, n.size, chunk):
        vals = values[start:start + chunk]
        tot = n[start:start + chunk]
        feats = np.empty((vals.shape[0], design.shape[0]))
        for m in range(1, MAX_COUP_CARDS + 1):
            fall = np.ones_like(vals)
            for j in range(m):
                fall = fall * np.clip(vals - j, 0, None)
            with np.errstate(divide="ignore"):
                logs = np.where(fall > 0, np.log(np.where(fall > 0, fall, 1)), tiny)
            feats[:, m - 1:10 * MAX_COUP_CARDS:MAX_COUP_CARDS] = logs
        for k in (4, 5, 6):
            feats[:, 10 * MAX_COUP_CARDS + k - 4] = -sum(np.log(tot - j) for j in range(k))
        out[start:start + chunk] = np.exp(feats @ design) @ C
    probs = {name: out[:, j] for j, name in enumerate(CLASSES)}
    pair = same / (n * (n - 1))
    return OddsBatch(cards=n.astype(np.int64), player_pair=pair, banker_pair=pair, **probs)
