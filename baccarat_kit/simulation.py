"""Deal many real shoes fast: shuffle, burn, cut card, the coup after it; numpy throughout.

>>> import baccarat_kit as bk
>>> sim = bk.simulate(shoes=200, decks=8, seed=1)
>>> sim.hands == sim.banker + sim.player + sim.tie
True
>>> len(sim.outcomes(0)) == int(sim.rounds_per_shoe[0])
True

Every shoe is dealt the way :class:`baccarat_kit.Shoe` deals one: the shoe is shuffled,
the first card is turned and as many cards as its value burned (10/J/Q/K burn 10), the
cut card stands ``cut_card`` cards from the end, and when a coup reaches it one more
coup is dealt. numpy shuffles the shoes of a batch (one sort of random keys per shoe);
then the outcome of a coup starting at every position is found with one look-up in a
table that :func:`baccarat_kit.odds.resolve` builds from the engine's drawing decisions,
and one walk follows every shoe from coup to coup. An optional numba kernel
(``kernel="numba"``, :mod:`baccarat_kit._sim_kernel`) deals the same shuffled shoes coup by
coup, several times faster, with the very same coups: the kernel is not part of the seed. ``simulate(..., keep_cards=True)`` keeps
the shuffled cards, so any simulated shoe can be replayed through
:class:`baccarat_kit.Shoe` (see :meth:`Simulation.engine_shoe`).
"""

from __future__ import annotations

import math
import sys
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING, Any

from .cards import Card, Rank
from .i18n import message
from .odds import OddsError, resolve
from .shoe import DEFAULT_CUT_CARD

if TYPE_CHECKING:
    import numpy as np

    from .shoe import Shoe

__all__ = ["WINNERS", "Simulation", "card_codes", "simulate"]

WINNERS = ("banker", "player", "tie")
"""Winner codes used in :attr:`Simulation.winner`: 0 banker, 1 player, 2 tie."""

DEFAULT_CHUNK = 4096
"""Shoes shuffled from one draw of the random stream (see :func:`simulate`)."""

BLOCK = 512
"""Shoes sorted, then dealt, side by side: few enough that their arrays stay in cache. The
block size changes no result."""

_NONE = 0xFFFF
_TIE_RANKS = (Rank.TEN, Rank.JACK, Rank.QUEEN, Rank.KING)


def _code(rank: Rank) -> int:
    """A card as one byte: value × 4 + which of 10/J/Q/K (0 for A–9). Same code, same rank."""
    v = rank.value_points
    return 4 * v + (_TIE_RANKS.index(rank) if v == 0 else 0)


@cache
def card_codes() -> dict[int, Rank]:
    """Byte code → rank, for the codes the simulation uses (value = code // 4)."""
    return {_code(r): r for r in Rank}


@cache
def _outcome_table() -> np.ndarray:
    """Packed coup outcome for every (player 2-card sum, banker 2-card sum, 5th, 6th value).

    Index ``(sp * 19 + sb) * 100 + v5 * 10 + v6`` with sums 0–18; bits: player total (0–3),
    banker total (4–7), cards used − 4 (8–9), natural (10), winner code (11–12).
    """
    import numpy as np

    sp, sb, v5, v6 = (a.ravel() for a in np.indices((19, 19, 10, 10)))
    out = resolve(sp % 10, sb % 10, v5, v6)
    pt, bt = out["player"], out["banker"]
    winner = np.where(bt > pt, 0, np.where(pt > bt, 1, 2))
    natural = out["player_natural"] | out["banker_natural"]
    packed = pt | (bt << 4) | ((out["cards"] - 4) << 8) | (natural.astype(np.int64) << 10) | (winner << 11)
    table: np.ndarray = packed.astype(np.uint16)
    table.setflags(write=False)
    return table


@cache
def _small_table() -> np.ndarray:
    """The outcome table of the totals (``detail=False``) in one byte, same index as
    :func:`_outcome_table`: cards used − 4 (bits 0–1), winner code (2–3), natural (4), banker
    wins with 6 (5); :func:`_key_tables` adds the pairs (6 player, 7 banker). Everything
    :attr:`Simulation.counts` needs and nothing else."""
    import numpy as np

    t = _outcome_table().astype(np.int64)
    winner, banker = (t >> 11) & 3, (t >> 4) & 15
    six = (winner == 0) & (banker == 6)
    small: np.ndarray = (((t >> 8) & 3) | (winner << 2) | (((t >> 10) & 1) << 4)
                         | (six.astype(np.int64) << 5)).astype(np.uint8)
    small.setflags(write=False)
    return small


def _coup_array(name: str, doc: str) -> Any:
    """A per-coup array of :class:`Simulation`, dealt again on first use where it was not kept."""
    return property(lambda self: self._coups_kept()[name], doc=doc)


@dataclass(repr=False)
class Simulation:
    """Shoes dealt by :func:`simulate`: counts, and every coup in order.

    Per-coup arrays (all the same length, shoe after shoe): :attr:`winner` (0 banker,
    1 player, 2 tie), :attr:`player_total`, :attr:`banker_total`, :attr:`cards_used`,
    :attr:`natural`, :attr:`player_pair`, :attr:`banker_pair`. Coups of shoe ``i`` are
    ``offsets[i]:offsets[i + 1]``. A simulation made with ``detail=False`` (the default)
    counted its coups without keeping them: the first use of a per-coup array or method deals
    the same shoes again from the same random state, keeping every coup (the very coups that
    were counted), once.
    """

    shoes: int
    decks: int
    seed: int | None
    cut_card: int | None
    burn: bool
    counts: dict[str, int]
    detail: bool = False
    """Whether every coup was kept as it was dealt (else they are dealt again on first use)."""
    cards: np.ndarray | None = field(default=None, repr=False)
    """``keep_cards=True``: the shuffled shoes as byte codes (see :func:`card_codes`)."""
    _coups: dict[str, np.ndarray] | None = field(default=None, repr=False, compare=False)
    _again: Any = field(default=None, repr=False, compare=False)  # () -> the per-coup arrays

    winner = _coup_array("winner", "Winner of every coup: 0 banker, 1 player, 2 tie.")
    player_total = _coup_array("player_total", "The player's final total of every coup.")
    banker_total = _coup_array("banker_total", "The banker's final total of every coup.")
    cards_used = _coup_array("cards_used", "Cards each coup used (4, 5 or 6).")
    natural = _coup_array("natural", "Whether each coup was a natural.")
    player_pair = _coup_array("player_pair", "Whether the player's first two cards were a pair.")
    banker_pair = _coup_array("banker_pair", "Whether the banker's first two cards were a pair.")
    offsets = _coup_array("offsets", "Coups of shoe ``i``: ``offsets[i]:offsets[i + 1]``.")
    burned = _coup_array("burned", "How many cards each shoe burned before its first coup.")

    def __getstate__(self) -> dict[str, Any]:
        """Pickled with every coup (the closure that would deal them again does not pickle)."""
        if self._again is not None:
            self._coups_kept()
        return dict(self.__dict__)

    def _coups_kept(self) -> dict[str, np.ndarray]:
        if self._coups is None:
            if self._again is None:
                raise OddsError("odds.no_detail")
            self._coups = self._again()
            self._again = None
        return self._coups

    def __repr__(self) -> str:
        return (f"<Simulation {self.shoes} shoes x {self.decks} decks, seed={self.seed}: "
                f"{self.hands} coups>")

    # -- totals -----------------------------------------------------------
    @property
    def hands(self) -> int:
        """Coups dealt."""
        return self.counts["hands"]

    @property
    def banker(self) -> int:
        """Coups the banker won."""
        return self.counts["banker"]

    @property
    def player(self) -> int:
        return self.counts["player"]

    @property
    def tie(self) -> int:
        return self.counts["tie"]

    def frequency(self, event: str) -> float:
        """Share of coups with ``event``: banker, player, tie, banker_six, natural, player_pair, banker_pair."""
        if event not in self.counts or event == "hands":
            choices = ", ".join(k for k in self.counts if k != "hands")
            raise OddsError("odds.bad_event", value=event, choices=choices)
        return self.counts[event] / self.hands

    def standard_error(self, p: float) -> float:
        """Standard error of a frequency over :attr:`hands` coups if the true probability is ``p``.

        (Coups of one shoe are very nearly independent; the tests allow 4 standard errors.)
        """
        return math.sqrt(p * (1 - p) / self.hands)

    def summary(self, lang: str | None = None) -> str:
        from .i18n import message

        return message("odds.sim-summary", lang, shoes=self.shoes, hands=self.hands,
                       banker=f"{self.frequency('banker'):.6f}",
                       player=f"{self.frequency('player'):.6f}",
                       tie=f"{self.frequency('tie'):.6f}")

    def plot_convergence(self, exact: Any = None, lang: str | None = None, axes: Any = None) -> Any:
        """Running frequencies of banker, player and tie against the exact values (two panels).

        Top: the running frequency of each result and its exact probability (dashed). Bottom:
        frequency − exact in percentage points inside the ±2 standard-error funnel. Returns the
        two axes. ``exact`` defaults to :func:`~baccarat_kit.exact_odds` for these decks.
        """
        import numpy as np

        from .i18n import message
        from .odds import exact_odds
        from .plotting import COLORS, fonts, pyplot

        self._need_detail()
        assert self.winner is not None
        plt = pyplot()
        lang, font = fonts(lang)
        exact = exact if exact is not None else exact_odds(self.decks)
        if axes is None:
            _, axes = plt.subplots(2, 1, figsize=(9, 7), sharex=True)
        top, bottom = axes
        n = np.arange(1, self.winner.size + 1)
        for code, event, mark in ((0, "banker", "B"), (1, "player", "P"), (2, "tie", "T")):
            p = float(getattr(exact, event))
            name = message(f"area.{event}", lang)
            running = np.cumsum(self.winner == code) / n
            top.plot(n, running, color=COLORS[mark], label=name)
            top.axhline(p, color=COLORS[mark], linestyle="--", linewidth=1,
                        label=message("odds.plot-exact", lang, name=name))
            bottom.plot(n, (running - p) * 100, color=COLORS[mark], linewidth=1)
            band = 2 * np.sqrt(p * (1 - p) / n) * 100
            bottom.fill_between(n, -band, band, color=COLORS[mark], alpha=0.08,
                                label=message("odds.plot-band", lang, name=name))
        for ax in axes:
            ax.set_xscale("log")
            ax.set_xlim(10, self.winner.size)
        bottom.set_ylim(-6, 6)
        top.set_ylabel(message("odds.plot-frequency", lang), fontproperties=font)
        bottom.set_ylabel(message("odds.plot-difference", lang), fontproperties=font)
        bottom.set_xlabel(message("odds.plot-hands", lang), fontproperties=font)
        top.set_title(message("odds.plot-convergence-title", lang), fontproperties=font)
        top.legend(ncol=3, fontsize="small", prop=font, loc="upper right")
        bottom.legend(ncol=3, fontsize="small", prop=font, loc="upper right")
        return axes

    # -- per shoe ------------------------------------------------------------
    def _need_detail(self) -> None:
        self._coups_kept()

    def _shoe_index(self, i: int) -> int:
        if isinstance(i, bool) or not isinstance(i, int) or not -self.shoes <= i < self.shoes:
            raise OddsError("odds.shoe_index", value=i, last=self.shoes - 1)
        return i % self.shoes

    @property
    def rounds_per_shoe(self) -> np.ndarray:
        """Number of coups each shoe dealt."""
        import numpy as np

        self._need_detail()
        assert self.offsets is not None
        return np.diff(self.offsets)

    def outcomes(self, i: int) -> str:
        """The results of shoe ``i`` in order, as a string of ``B``, ``P`` and ``T`` (for roads).

        >>> simulate(shoes=1, seed=3).outcomes(0)[:12]
        'BBBPPBBPPPPB'
        """
        self._need_detail()
        assert self.offsets is not None and self.winner is not None
        i = self._shoe_index(i)
        codes = self.winner[self.offsets[i]:self.offsets[i + 1]]
        return "".join("BPT"[c] for c in codes.tolist())

    def coup_starts(self) -> np.ndarray:
        """Position in its shoe of the first card of every coup (after the burned cards)."""
        import numpy as np

        self._need_detail()
        assert self.offsets is not None and self.cards_used is not None and self.burned is not None
        used = self.cards_used.astype(np.int64)
        csum = np.concatenate(([0], np.cumsum(used)))
        starts = csum[:-1] - np.repeat(csum[self.offsets[:-1]], np.diff(self.offsets))
        positions: np.ndarray = starts + np.repeat(self.burned.astype(np.int64), np.diff(self.offsets))
        return positions

    def shoe_cards(self, i: int) -> list[Card]:
        """The cards of shoe ``i`` in dealing order (needs ``keep_cards=True``)."""
        if self.cards is None:
            raise OddsError("odds.no_cards_kept")
        ranks = card_codes()
        return [Card(ranks[c]) for c in self.cards[self._shoe_index(i)].tolist()]

    def engine_shoe(self, i: int) -> Shoe:
        """Shoe ``i`` as an engine :class:`~baccarat_kit.Shoe`, same cards, burn and cut card.

        Dealing it with :meth:`Shoe.rounds` gives the very coups this simulation recorded.
        """
        from .shoe import Shoe

        return Shoe.from_cards(self.shoe_cards(i), burn=self.burn, cut_card=self.cut_card)


def _raw_keys(rng: Any, rows: int, cols: int) -> np.ndarray:
    """``rows × cols`` random 32-bit words straight from the bit generator's raw output.

    PCG64's raw stream for a seed is fixed (NumPy's compatibility policy, NEP 19, covers the
    bit generators), while ``Generator`` methods such as ``integers`` may change between NumPy
    versions. Each 64-bit word gives its low half, then its high half: on a little-endian
    machine that is the memory order of the words (a view, no copy); elsewhere the halves are
    split by arithmetic, so the keys are the same on every machine."""
    import numpy as np

    count = rows * cols
    raw = rng.bit_generator.random_raw((count + 1) // 2)
    if sys.byteorder == "little" and raw.dtype == np.dtype("<u8"):
        words = raw.view(np.uint32)
    else:  # pragma: no cover - big-endian machines
        words = np.empty(2 * raw.size, dtype=np.uint32)
        words[0::2] = (raw & np.uint64(0xFFFFFFFF)).astype(np.uint32)
        words[1::2] = (raw >> np.uint64(32)).astype(np.uint32)
    keys: np.ndarray = words[:count].reshape(rows, cols)
    return keys


def _sort_rows(rng: Any, codes: np.ndarray, out: np.ndarray) -> np.ndarray:
    """Shuffle every row of ``out`` (``rows × cols`` byte codes): give each card's 6-bit code
    the top 26 bits of a fresh random key (:func:`_raw_keys`), sort every row and write the
    codes in their sorted order to ``out``; returns which rows have two equal top parts.

    Done in blocks of :data:`BLOCK` rows, each of which stays in the processor's cache from
    its random keys to its shuffled codes. The keys are drawn block after block, which is the
    same stream as drawing them all at once: the block size changes no shoe."""
    import numpy as np

    rows, cols = out.shape
    mask = np.uint32(~63 & 0xFFFFFFFF)
    ties = np.empty(rows, dtype=bool)
    step = np.empty(min(BLOCK, rows) * cols, dtype=np.uint32)
    tiled = np.tile(codes, min(BLOCK, rows))                      # the codes of a whole block, flat
    for lo in range(0, rows, BLOCK):
        k = _raw_keys(rng, min(BLOCK, rows - lo), cols)
        flat = k.ravel()                                          # (one contiguous pass each, no
        flat &= mask                                              # broadcasting of a row of codes)
        flat |= tiled[:flat.size]
        k.sort(axis=1)
        o = out[lo:lo + BLOCK]
        np.copyto(o, k, casting="unsafe")                         # the low byte of each key
        o &= np.uint8(63)                                         # (masked as bytes: a quarter of the bits)
        d = step[:flat.size]
        np.bitwise_xor(flat[1:], flat[:-1], out=d[:-1])           # neighbours with equal top parts: below 64
        d[cols - 1::cols] = 0xFFFFFFFF                            # (the last card and the next row's first)
        if d.min() < 64:
            ties[lo:lo + BLOCK] = d.reshape(k.shape).min(axis=1) < 64
        else:
            ties[lo:lo + BLOCK] = False
    return ties


class _Work:
    """Arrays reused from one batch of shoes to the next: fewer fresh pages for the system to
    clear and map. One per :func:`simulate` call (never shared between threads)."""

    def __init__(self) -> None:
        self.arrays: dict[str, np.ndarray] = {}

    def get(self, name: str, size: int, dtype: Any) -> np.ndarray:
        """A 1-D array of ``size`` elements (contents left over from earlier batches)."""
        import numpy as np

        have = self.arrays.get(name)
        if have is None or have.size < size or have.dtype != dtype:
            have = self.arrays[name] = np.empty(size, dtype=dtype)
        return have[:size]


def _shuffled(rng: Any, n: int, deck: np.ndarray, work: _Work | None = None) -> np.ndarray:
    """``n`` independent uniform shuffles of ``deck`` (byte codes below 64), one per row.

    Each card gets 26 random bits above its 6-bit code and every row is sorted: the order of
    distinct random keys is a uniform permutation. A row where two keys tie (about 1 row in
    800 for 416 cards) would let the codes break the tie, so such rows get fresh keys until
    none tie; the result is exactly uniform either way. The keys are the bit generator's raw
    words (see :func:`_raw_keys`), so a seed deals the same shoes under every NumPy version.
    ``work``: where to put them (else a new array).
    """
    import numpy as np

    codes = deck.astype(np.uint32)
    size = n * deck.size
    buffer = np.empty(size + _PAD, dtype=np.uint8) if work is None else work.get("cards", size + _PAD, np.uint8)
    buffer[size:] = 0                                            # _PAD zero bytes after the last shoe
    out = buffer[:size].reshape(n, deck.size)
    todo = np.flatnonzero(_sort_rows(rng, codes, out))
    while todo.size:
        part = np.empty((todo.size, deck.size), dtype=np.uint8)
        ties = _sort_rows(rng, codes, part)
        out[todo] = part
        todo = todo[ties]
    return out


_PAD = 8
"""Zero bytes after the last shoe of a batch: a coup near the end of a shoe reads the next
cards of the next shoe (or these), which never changes a coup that fits in its shoe (its
drawing decisions only look at cards it deals) and a coup that does not fit is not dealt."""


@cache
def _key_tables() -> tuple[np.ndarray, np.ndarray]:
    """What the numpy dealer reads of a coup by its 16-bit key (see :func:`_keys`): the packed
    outcome of :func:`_outcome_table` with the pairs (bits 13 and 14) and the one-byte outcome of
    :func:`_small_table` with the pairs (bits 6 and 7).

    A key is two bytes, one per hand: the low byte ``10 p + v5`` plus 128 when the player's two
    cards are alike, the high byte ``10 b + v6`` plus 128 when the banker's are (``p`` and ``b``
    the player's and the banker's two-card totals, ``v5`` and ``v6`` the values of the fifth and
    sixth cards). Every entry is copied from :func:`_outcome_table` (the engine's decisions),
    nothing is decided here; the keys with a byte whose low 7 bits pass 99 are no coup and are
    never looked up."""
    import numpy as np

    key = np.arange(1 << 16)
    low, high = key & 0x7F, (key >> 8) & 0x7F
    low, high = np.where(low < 100, low, 0), np.where(high < 100, high, 0)
    p, v5, b, v6 = low // 10, low % 10, high // 10, high % 10
    same = (p * 19 + b) * 100 + v5 * 10 + v6                   # the coup's index in _outcome_table
    player_pair, banker_pair = (key >> 7) & 1, key >> 15
    packed = _outcome_table().astype(np.int64)[same]
    small = _small_table().astype(np.int64)[same]
    tables = ((packed | (player_pair << 13) | (banker_pair << 14)).astype(np.uint16),
              (small | (player_pair << 6) | (banker_pair << 7)).astype(np.uint8))
    for table in tables:
        table.setflags(write=False)
    return tables


def _keys(flat: np.ndarray, lo: int, hi: int, out: np.ndarray, work: list[np.ndarray]) -> None:
    """The key (see :func:`_key_tables`) of a coup starting at every position ``lo`` … ``hi − 1``
    of the byte codes ``flat`` (shoes one after the other) into ``out`` (16 bits), by arithmetic
    passes over bytes and no look-up (a gather costs about twenty of them). ``work``: three byte
    arrays of at least ``hi − lo + 6`` and one 16-bit array of ``hi − lo + 1``, reused.

    One byte per position ``i`` says what a hand starting there holds: its two-card total (cards
    ``i`` and ``i + 2``), the card that would be its third (``i + 4``) and whether its two cards
    are alike. The player's hand starts at ``i`` and the banker's at ``i + 1``, so a coup's key is
    the bytes at ``i`` and ``i + 1`` side by side."""
    import numpy as np

    u8, u16 = np.uint8, np.uint16
    m = hi - lo
    v, s, t, wide = work[0][:m + 6], work[1][:m + 2], work[2][:m + 2], work[3][:m + 1]
    np.right_shift(flat[lo:hi + 6], 2, out=v)                   # the card values
    np.add(v[:m + 1], v[2:m + 3], out=s[:m + 1])                # cards i and i + 2 (a hand's two cards)
    np.subtract(s[:m + 1], u8(10), out=t[:m + 1])               # modulo 10 (sums up to 18): the
    np.minimum(s[:m + 1], t[:m + 1], out=s[:m + 1])             # smaller of s and s - 10 wrapped round
    np.multiply(s[:m + 1], u8(10), out=s[:m + 1])               # 10 × the total
    np.add(s[:m + 1], v[4:m + 5], out=s[:m + 1])                # + the hand's third card
    np.equal(flat[lo:hi + 1], flat[lo + 2:hi + 3], out=t[:m + 1].view(bool))   # its two cards alike
    np.multiply(t[:m + 1], u8(128), out=t[:m + 1])
    np.bitwise_or(s[:m + 1], t[:m + 1], out=s[:m + 1])          # the hand's byte
    np.copyto(wide, s[:m + 1])                                  # widened to 16 bits:
    np.multiply(wide[1:], u16(256), out=out)                    # the banker's byte high,
    out |= wide[:m]                                             # the player's low


OUTCOME_BLOCK = 256
"""Shoes whose coup keys are computed together in :func:`_keys`: few enough that the arrays of
a block (about 40 KB each for 8 decks) stay in a core's L2 cache. Changes no result."""


def _deal(cards: np.ndarray, cut_card: int | None, burn: bool, detail: bool,
          work: _Work | None = None) -> dict[str, Any]:
    """Deal every shoe of ``cards`` (byte codes, one shoe a row): the packed outcome of every
    coup (shoe after shoe, with ``detail``), each shoe's number of coups (with ``detail``), its
    burned cards and its counts (see :func:`_totals`).

    The key of a coup starting at every position of every shoe (:func:`_keys`) is computed at
    once, block by block, by arithmetic alone; then one walk moves every shoe from coup to coup,
    reading the key where it stands and stepping over the cards its coup uses (one look-up in
    :func:`_key_tables`); which coups count (up to the first that passes the cut card, one more,
    and only whole coups) is decided afterwards from the positions, all at once, and only the
    keys the walk read are looked up for their outcomes: the one-byte outcome for the counts,
    or (with ``detail``) the packed outcome of every coup kept. ``work``: arrays to reuse."""
    import numpy as np

    work = work or _Work()

    n, size = cards.shape
    flat = cards.base if cards.base is not None and cards.base.size >= n * size + _PAD else None
    if flat is None or flat.ndim != 1 or flat.dtype != np.uint8:
        flat = np.zeros(n * size + _PAD, dtype=np.uint8)
        flat[:n * size] = cards.ravel()
    max_steps = size // 4 + 2
    tail = 6 * max_steps + 6                                      # a finished shoe walks on
    keys = work.get("keys", n * size + tail, np.uint16)
    keys[n * size:] = 0                                           # there: a coup of (0, 0, 0, 0)
    step = OUTCOME_BLOCK * size
    width = min(step, n * size) + 6
    scratch = [work.get(f"bytes{i}", width, np.uint8) for i in range(3)] + [work.get("wide", width, np.uint16)]
    for lo in range(0, n * size, step):
        hi = min(lo + step, n * size)
        _keys(flat, lo, hi, keys[lo:hi], scratch)
    table = _key_tables()[0 if detail else 1]
    base = np.arange(n, dtype=np.intp) * size
    if burn:
        first = (cards[:, 0] >> 2).astype(np.intp)
        burned = 1 + np.where(first == 0, 10, first)
    else:
        burned = np.zeros(n, dtype=np.intp)
    cut_at = base + (size - cut_card if cut_card is not None else size + 1)
    end_at = base + size
    need_end = cut_card is None or cut_card < 12                # else every coup before the cut fits
    past = work.get("past", max_steps * n, bool).reshape(max_steps, n)    # the coup began after the cut
    over = work.get("over", max_steps * n, bool).reshape(max_steps, n)    # the coup ends past the shoe
    seen = work.get(f"seen{table.dtype}", max_steps * n, table.dtype).reshape(max_steps, n)   # each outcome
    key = work.get("key", n, np.uint16)
    more = work.get(f"more{table.dtype}", n, table.dtype)       # cards used - 4
    bound = work.get("bound", n, np.intp)
    # A coup uses at most 6 cards and at most 11 are burned: no shoe's coup ``s`` can begin past
    # the cut before step ``early``, nor end past the shoe before step ``fits``.
    most = 11 if burn else 0
    early = min(max_steps, max(0, ((size - cut_card if cut_card is not None else size + 1) - most) // 6 + 1))
    fits = min(max_steps, max(0, size - most) // 6)
    past[:early] = False
    past[0] = False                     # (as the engine's Shoe: a cut card among the burned cards is
    early = max(early, 1)               # seen after the first coup, and one more coup is dealt)
    if need_end:
        over[:fits] = False
    at = base + burned                                            # where each shoe stands, less 4 × steps:
    steps = 0                                                     # the keys are read 4 × steps further on
    while steps < max_steps:
        if steps >= early:
            np.subtract(cut_at, 4 * steps, out=bound)
            np.greater(at, bound, out=past[steps])
        keys[4 * steps:].take(at, out=key, mode="clip")           # (every index is in range: "clip"
        o = seen[steps]                                           # writes straight into ``out``, where
        table.take(key, out=o, mode="clip")                       # "raise" would buffer it)
        if detail:
            np.right_shift(o, 8, out=more)
            more &= 3
        else:
            np.bitwise_and(o, 3, out=more)
        at += more
        steps += 1
        if need_end and steps > fits:
            np.subtract(end_at, 4 * steps, out=bound)
            np.greater(at, bound, out=over[steps - 1])
        if steps % 4 == 0 and steps > early:
            np.subtract(end_at, 4 * steps, out=bound)
            if (past[steps - 1] | (at > bound)).all():
                break
    seen = seen[:steps]
    ok = work.get("ok", steps * n, bool).reshape(steps, n)
    ok[0] = True
    np.logical_not(past[:steps - 1], out=ok[1:])                 # the one before began before the cut
    if need_end:
        ok &= ~over[:steps]
    if not detail:
        hands = int(np.count_nonzero(ok))
        np.multiply(seen, ok.view(np.uint8), out=seen)            # every step that is no coup: 0
        return {"packed": None, "rounds": None, "burned": burned,
                "counts": _small_counts(seen, hands, work.get("bits", steps * n, np.uint8).reshape(steps, n))}
    ok = ok.T                                                    # shoe after shoe, in order
    out = seen.T[ok]
    return {"packed": out, "rounds": ok.sum(axis=1), "burned": burned,
            "counts": _packed_bit_counts(out)}


NUMBA_FROM = 20_000_000
"""``kernel="auto"`` uses numba (when installed) for runs of at least this many cards
(about 48 000 shoes of 8 decks), or when numba is already imported."""


def _numba_deal(cards: np.ndarray, cut_card: int | None, burn: bool, detail: bool,
                work: _Work | None = None) -> dict[str, Any]:
    from . import _sim_kernel

    size = cards.shape[1]
    cut_pos = size - cut_card if cut_card is not None else size + 1
    part = _sim_kernel.deal(cards, _outcome_table(), cut_pos, burn, detail)
    part["counts"] = _packed_counts(part.pop("histogram"))
    return part


def _dealer(kernel: str, cards: int) -> Any:
    """The dealing function ``kernel`` names (see :func:`simulate`)."""
    import importlib.util

    if kernel not in ("auto", "numpy", "numba"):
        raise OddsError("odds.bad_kernel", value=repr(kernel))
    if kernel == "numpy":
        return _deal
    if "numba" in sys.modules or kernel == "numba" or cards >= NUMBA_FROM:
        try:
            found = importlib.util.find_spec("numba") is not None
        except (ImportError, ValueError):  # pragma: no cover - a broken numba install
            found = False
        if found:
            return _numba_deal
        if kernel == "numba":
            raise OddsError("odds.no_numba")
    return _deal


class TextProgress:
    """A progress line on stderr that counts and nothing else: ``\r`` then "simulating: 4096 /
    5000 shoes" after each batch, a newline at the end. No times and no rates, so a notebook
    that stores it shows the same text on every machine (nbval keeps what follows the last
    ``\r``: the final count).

    >>> import io
    >>> bar = TextProgress(3, stream=io.StringIO(), lang="en")
    >>> bar.update(2); bar.update(1); bar.close()
    >>> bar.stream.getvalue()
    '\\rsimulating: 2 / 3 shoes\\rsimulating: 3 / 3 shoes\\n'
    """

    def __init__(self, total: int, key: str = "odds.progress-shoes", *, stream: Any = None,
                 lang: str | None = None) -> None:
        self.total, self.key, self.done, self.lang = total, key, 0, lang
        self.stream = stream if stream is not None else sys.stderr

    def update(self, n: int) -> None:
        self.done += n
        self.stream.write("\r" + message(self.key, self.lang, done=self.done, total=self.total))
        self.stream.flush()

    def close(self) -> None:
        self.stream.write("\n")
        self.stream.flush()


def progress_bar(total: int, style: bool | str = True, key: str = "odds.progress-shoes") -> Any:
    """A progress bar over ``total`` shoes: ``style="text"`` a :class:`TextProgress` line (what
    the lessons use: the same text on every machine), else a tqdm bar (a widget in Jupyter),
    or None when tqdm is not installed."""
    if style == "text":
        # in a Jupyter kernel a status widget, not stderr (drawn as an error box)
        try:
            from .widgets.progress_line import text_progress
        except ImportError:  # no ipywidgets: the text line
            return TextProgress(total, key)
        return text_progress(total, key) or TextProgress(total, key)
    try:
        from tqdm.auto import tqdm
    except ImportError:  # pragma: no cover - tqdm is in the odds extra
        return None
    return tqdm(total=total, unit="shoe")


COUNTS = ("hands", "banker", "player", "tie", "banker_six", "natural", "player_pair", "banker_pair")
"""The counts of :attr:`Simulation.counts`, in the order of the count vectors below."""


def _packed_counts(histogram: np.ndarray) -> np.ndarray:
    """The counts (:data:`COUNTS`) from the number of coups of every packed outcome ``>> 4``
    (bits, high to low: banker pair, player pair, winner (2), natural, cards used − 4 (2),
    banker total (4); see :func:`_outcome_table`)."""
    import numpy as np

    h = histogram.reshape(2, 2, 4, 2, 4, 16)
    winners = h.sum(axis=(0, 1, 3, 4, 5))
    return np.array([h.sum(), winners[0], winners[1], winners[2], h[:, :, 0, :, :, 6].sum(),
                     h[:, :, :, 1].sum(), h[:, 1].sum(), h[1].sum()], dtype=np.int64)


def _packed_bit_counts(packed: np.ndarray) -> np.ndarray:
    """The counts (:data:`COUNTS`) of packed outcomes (:func:`_outcome_table`, with the pairs in
    bits 13 and 14): a few passes of bit tests, as :func:`_small_counts`."""
    import numpy as np

    u16 = np.uint16
    winner = packed & u16(3 << 11)
    b, p, t = (np.count_nonzero(winner == u16(code << 11)) for code in (0, 1, 2))
    six = np.count_nonzero((packed & u16((3 << 11) | (15 << 4))) == u16(6 << 4))
    bits = [np.count_nonzero(packed & u16(bit)) for bit in (1 << 10, 1 << 13, 1 << 14)]
    return np.array([b + p + t, b, p, t, six, *bits], dtype=np.int64)


def _small_counts(seen: np.ndarray, hands: int, scratch: np.ndarray | None = None) -> np.ndarray:
    """The counts (:data:`COUNTS`) of ``hands`` coups from their one-byte outcomes (bits, high to
    low: banker pair, player pair, banker six, natural, winner (2), cards used − 4 (2); see
    :func:`_small_table`) among zero bytes (steps that were no coup, counted by nothing but the
    banker's wins, which are the hands the others leave): a bit test each (into ``scratch``, a
    byte array shaped as ``seen``, when given)."""
    import numpy as np

    u8 = np.uint8
    work = np.empty_like(seen) if scratch is None else scratch
    p, t, six, natural, player_pair, banker_pair = (
        np.count_nonzero(np.bitwise_and(seen, u8(bit), out=work)) for bit in (4, 8, 32, 16, 64, 128))
    return np.array([hands, hands - p - t, p, t, six, natural, player_pair, banker_pair], dtype=np.int64)


def _totals(counts: np.ndarray) -> dict[str, int]:
    """:attr:`Simulation.counts` from a count vector (:data:`COUNTS`)."""
    return {name: int(c) for name, c in zip(COUNTS, counts.tolist(), strict=True)}


def simulate(
    shoes: int = 1000,
    decks: int = 8,
    seed: int | None = None,
    *,
    cut_card: int | None = DEFAULT_CUT_CARD,
    burn: bool = True,
    detail: bool = False,
    keep_cards: bool = False,
    progress: bool | str = False,
    chunk: int = DEFAULT_CHUNK,
    kernel: str = "auto",
) -> Simulation:
    """Deal ``shoes`` shoes of ``decks`` decks, seeded, and count their coups.

    ``cut_card``: cards from the end of the shoe (``None``: deal until a coup cannot be
    finished); ``burn``: turn the first card and burn as many as its value, as
    :class:`~baccarat_kit.Shoe` does. ``detail=True`` keeps every coup as it is dealt;
    ``detail=False`` (the default, faster) keeps only the totals, and the first use of a
    per-coup array (:attr:`Simulation.winner`, :meth:`Simulation.outcomes`, a road …) deals
    the same shoes again, keeping every coup: say ``detail=True`` when you will use them.
    ``keep_cards=True`` keeps every shuffled shoe (to replay it through the engine) and every coup.
    ``progress=True`` shows a progress bar (``tqdm``) over batches of ``chunk`` shoes,
    ``progress="text"`` a count-only line on stderr (:class:`TextProgress`).
    Same seed and chunk, same shoes.

    ``kernel``: who deals the shuffled shoes. ``"numpy"`` (always there), ``"numba"`` (the
    compiled kernel of :mod:`baccarat_kit._sim_kernel`, ``pip install 'baccarat-kit[fast]'``;
    several times faster at dealing), or ``"auto"``: numba when it is installed and either
    already imported or the run is large (:data:`NUMBA_FROM` cards or more; importing numba
    costs about half a second). The shuffles are numpy's either way, from one random stream:
    the same seed gives the same shoes and the same coups, bit for bit, with either kernel.
    """
    import numpy as np

    if isinstance(shoes, bool) or not isinstance(shoes, int) or shoes < 1:
        raise OddsError("odds.bad_shoes", value=shoes)
    if isinstance(decks, bool) or not isinstance(decks, int) or not 1 <= decks <= 16:
        raise OddsError("odds.bad_sim_decks", value=decks)
    size = 52 * decks
    if cut_card is not None and (isinstance(cut_card, bool) or not isinstance(cut_card, int)
                                 or not 0 <= cut_card < size):
        raise OddsError("odds.bad_cut_card", value=cut_card, size=size - 1)
    if isinstance(chunk, bool) or not isinstance(chunk, int) or chunk < 1:
        raise OddsError("odds.bad_chunk", value=chunk)
    deal = _dealer(kernel, shoes * size)
    rng = np.random.default_rng(seed)
    state = rng.bit_generator.state  # (to deal the same shoes again, keeping every coup)
    keep = detail or keep_cards
    bar = progress_bar(shoes, progress) if progress else None
    counts, parts = _run(rng, shoes, decks, chunk, deal, cut_card, burn, keep, keep_cards, bar)
    sim = Simulation(shoes, decks, seed, cut_card, burn, _totals(counts), keep)
    if keep:
        sim._coups = _coups_of(parts)
        if keep_cards:
            sim.cards = np.concatenate([part["cards"] for part in parts])
    else:
        def again() -> dict[str, np.ndarray]:
            replay = np.random.Generator(type(rng.bit_generator)())
            replay.bit_generator.state = state
            return _coups_of(_run(replay, shoes, decks, chunk, deal, cut_card, burn, True, False, None)[1])

        sim._again = again
    return sim


def _run(rng: Any, shoes: int, decks: int, chunk: int, deal: Any, cut_card: int | None, burn: bool,
         detail: bool, keep_cards: bool, bar: Any) -> tuple[np.ndarray, list[dict[str, Any]]]:
    """Shuffle and deal ``shoes`` shoes in batches of ``chunk``: their counts (:data:`COUNTS`)
    and (with ``detail``) each batch's dealt coups."""
    import numpy as np

    parts = []
    counts = np.zeros(len(COUNTS), dtype=np.int64)
    deck = np.array([_code(r) for r in Rank] * 4 * decks, dtype=np.uint8)
    work = _Work()
    for s in range(0, shoes, chunk):
        n = min(chunk, shoes - s)
        cards = _shuffled(rng, n, deck, None if keep_cards else work)
        part = deal(cards, cut_card, burn, detail, work)
        if keep_cards:
            part["cards"] = cards
        counts += part["counts"]
        if detail:
            parts.append(part)
        if bar is not None:
            bar.update(n)
    if bar is not None:
        bar.close()
    return counts, parts


def _coups_of(parts: list[dict[str, Any]]) -> dict[str, np.ndarray]:
    """The per-coup arrays of :class:`Simulation` from the dealt batches: each decoded from the
    packed outcomes when it is first read (:class:`_Coups`), none before."""
    import numpy as np

    rounds = np.concatenate([part["rounds"] for part in parts])
    return _Coups(np.concatenate([part["packed"] for part in parts]),
                  offsets=np.concatenate(([0], np.cumsum(rounds))),
                  burned=np.concatenate([part["burned"] for part in parts]))


class _Coups(dict[str, Any]):
    """The per-coup arrays of a :class:`Simulation`, each decoded from the packed outcome of
    every coup (see :func:`_outcome_table`) the first time it is read, then kept: keeping every
    coup costs two bytes a coup until an array is used."""

    def __init__(self, packed: np.ndarray, **arrays: np.ndarray) -> None:
        super().__init__(arrays)
        self.packed = packed

    def __missing__(self, name: str) -> np.ndarray:
        import numpy as np

        if name not in _FIELDS:
            raise KeyError(name)
        shift, mask, plus = _FIELDS[name]
        field = (self.packed >> shift) & mask
        value: np.ndarray = field != 0 if plus is None else (field + plus).astype(np.int8)
        self[name] = value
        return value


_FIELDS: dict[str, tuple[int, int, int | None]] = {
    "winner": (11, 3, 0), "player_total": (0, 15, 0), "banker_total": (4, 15, 0), "cards_used": (8, 3, 4),
    "natural": (10, 1, None), "player_pair": (13, 1, None), "banker_pair": (14, 1, None)}
"""Where each per-coup array sits in a packed outcome: shift, mask, and the number added (None:
a flag, read as bool)."""
