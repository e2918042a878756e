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
coup is dealt. All shoes of a batch are dealt side by side, one coup per step; each
coup is finished with one look-up in a table that :func:`baccarat_kit.odds.resolve`
builds from the engine's drawing decisions. ``simulate(..., keep_cards=True)`` keeps
the shuffled cards, so any simulated shoe can be replayed through
:class:`baccarat_kit.Shoe` (see :meth:`Simulation.engine_shoe`).
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING, Any

from .cards import Card, Rank
from .odds import OddsError, resolve
from .shoe import DEFAULT_CUT_CARD

if TYPE_CHECKING:
    import numpy as np

    from .shoe import Shoe

__all__ = ["WINNERS", "Simulation", "card_codes", "simulate"]

WINNERS = ("banker", "player", "tie")
"""Winner codes used in :attr:`Simulation.winner`: 0 banker, 1 player, 2 tie."""

DEFAULT_CHUNK = 4096
"""Shoes dealt side by side in one batch."""

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
    table = packed.astype(np.uint16)
    table.setflags(write=False)
    return table


@dataclass(repr=False)
class Simulation:
    """Shoes dealt by :func:`simulate`: counts, and (``detail=True``) every coup in order.

    Per-coup arrays (all the same length, shoe after shoe): :attr:`winner` (0 banker,
    1 player, 2 tie), :attr:`player_total`, :attr:`banker_total`, :attr:`cards_used`,
    :attr:`natural`, :attr:`player_pair`, :attr:`banker_pair`. Coups of shoe ``i`` are
    ``offsets[i]:offsets[i + 1]``.
    """

    shoes: int
    decks: int
    seed: int | None
    cut_card: int | None
    burn: bool
    counts: dict[str, int]
    detail: bool = True
    winner: np.ndarray | None = None
    player_total: np.ndarray | None = None
    banker_total: np.ndarray | None = None
    cards_used: np.ndarray | None = None
    natural: np.ndarray | None = None
    player_pair: np.ndarray | None = None
    banker_pair: np.ndarray | None = None
    offsets: np.ndarray | None = None
    burned: np.ndarray | None = None
    """How many cards each shoe burned before its first coup."""
    cards: np.ndarray | None = field(default=None, repr=False)
    """``keep_cards=True``: the shuffled shoes as byte codes (see :func:`card_codes`)."""

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
        if not self.detail or self.offsets is None:
            raise OddsError("odds.no_detail")

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
        return starts + np.repeat(self.burned.astype(np.int64), np.diff(self.offsets))

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
    versions. Splitting each 64-bit word into its low and high halves by arithmetic (not a
    memory view) also keeps the result the same on little- and big-endian machines."""
    import numpy as np

    count = rows * cols
    raw = rng.bit_generator.random_raw((count + 1) // 2)
    words = np.empty(2 * raw.size, dtype=np.uint32)
    words[0::2] = (raw & np.uint64(0xFFFFFFFF)).astype(np.uint32)
    words[1::2] = (raw >> np.uint64(32)).astype(np.uint32)
    return words[:count].reshape(rows, cols)


def _shuffled(rng: Any, n: int, deck: np.ndarray) -> np.ndarray:
    """``n`` independent uniform shuffles of ``deck`` (byte codes below 64), one per row.

    Each card gets 26 random bits above its 6-bit code and every row is sorted: the order of
    distinct random keys is a uniform permutation. A row where two keys tie (about 1 row in
    800 for 416 cards) would let the codes break the tie, so such rows get fresh keys until
    none tie; the result is exactly uniform either way. The keys are the bit generator's raw
    words (see :func:`_raw_keys`), so a seed deals the same shoes under every NumPy version.
    """
    import numpy as np

    mask = np.uint32(~63 & 0xFFFFFFFF)
    codes = deck.astype(np.uint32)
    out = np.empty((n, deck.size), dtype=np.uint8)
    todo = np.arange(n)
    while todo.size:
        keys = _raw_keys(rng, todo.size, deck.size)
        keys &= mask
        keys |= codes
        keys.sort(axis=1)
        high = keys >> 6
        ties = (high[:, 1:] == high[:, :-1]).any(axis=1)
        out[todo] = (keys & 63).astype(np.uint8)
        todo = todo[ties]
    return out


def _deal_batch(rng: Any, n: int, decks: int, cut_card: int | None, burn: bool,
                keep_cards: bool) -> dict[str, Any]:
    import numpy as np

    size = 52 * decks
    width = size + 6
    deck = np.array([_code(r) for r in Rank] * 4 * decks, dtype=np.uint8)
    cards = np.zeros((n, width), dtype=np.uint8)
    cards[:, :size] = _shuffled(rng, n, deck)
    values = cards >> 2
    # the packed outcome of a coup starting at every position of every shoe, at once
    u16 = np.uint16
    key = (values[:, 0:size] + values[:, 2:size + 2]).astype(u16)
    key *= u16(19)
    key += values[:, 1:size + 1]
    key += values[:, 3:size + 3]
    key *= u16(100)
    key += values[:, 4:size + 4].astype(u16) * u16(10)
    key += values[:, 5:size + 5]
    packed = _outcome_table()[key]
    packed |= (cards[:, 0:size] == cards[:, 2:size + 2]).astype(u16) << u16(13)
    packed |= (cards[:, 1:size + 1] == cards[:, 3:size + 3]).astype(u16) << u16(14)
    flat = packed.ravel()
    if burn:
        first = values[:, 0].astype(np.int64)
        pos = 1 + np.where(first == 0, 10, first)
    else:
        pos = np.zeros(n, dtype=np.int64)
    burned = pos.copy()
    cut_pos = size - cut_card if cut_card is not None else size + 1
    base = np.arange(n, dtype=np.int64) * size
    max_steps = size // 4 + 2
    rec = np.full((max_steps, n), _NONE, dtype=np.uint16)
    active = np.ones(n, dtype=bool)
    cut_seen = np.zeros(n, dtype=bool)
    step = 0
    while step < max_steps:
        p = flat[base + np.minimum(pos, size - 1)]
        newpos = pos + 4 + ((p >> 8) & 3)
        ok = active & (newpos <= size)
        rec[step] = np.where(ok, p, _NONE)
        pos = np.where(ok, newpos, pos)
        last = cut_seen.copy()
        cut_seen |= ok & (pos > cut_pos)
        active = ok & ~last
        step += 1
        if not active.any():
            break
    rec = rec[:step].T
    mask = rec != _NONE
    out: dict[str, Any] = {"packed": rec[mask], "rounds": mask.sum(axis=1), "burned": burned}
    if keep_cards:
        out["cards"] = cards[:, :size].copy()
    return out


def progress_bar(total: int) -> Any:
    """A tqdm progress bar over ``total`` shoes, or None when tqdm is not installed."""
    try:
        from tqdm.auto import tqdm
    except ImportError:  # pragma: no cover - tqdm is in the odds extra
        return None
    return tqdm(total=total, unit="shoe")


def simulate(
    shoes: int = 1000,
    decks: int = 8,
    seed: int | None = None,
    *,
    cut_card: int | None = DEFAULT_CUT_CARD,
    burn: bool = True,
    detail: bool = True,
    keep_cards: bool = False,
    progress: bool = False,
    chunk: int = DEFAULT_CHUNK,
) -> Simulation:
    """Deal ``shoes`` shoes of ``decks`` decks, seeded, and record every coup.

    ``cut_card``: cards from the end of the shoe (``None``: deal until a coup cannot be
    finished); ``burn``: turn the first card and burn as many as its value, as
    :class:`~baccarat_kit.Shoe` does. ``detail=False`` keeps only the totals (for very long
    runs); ``keep_cards=True`` keeps every shuffled shoe (to replay it through the engine).
    ``progress=True`` shows a progress bar (``tqdm``) over batches of ``chunk`` shoes.
    Same seed and chunk, same shoes.
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
    rng = np.random.default_rng(seed)
    sizes = [min(chunk, shoes - s) for s in range(0, shoes, chunk)]
    batches: Iterator[int] = iter(sizes)
    bar = progress_bar(shoes) if progress else None
    parts = []
    totals = dict.fromkeys(("hands", "banker", "player", "tie", "banker_six", "natural",
                            "player_pair", "banker_pair"), 0)
    for n in batches:
        part = _deal_batch(rng, n, decks, cut_card, burn, keep_cards)
        p = part["packed"]
        winner = (p >> 11) & 3
        counts = np.bincount(winner, minlength=3)
        totals["hands"] += int(p.size)
        totals["banker"] += int(counts[0])
        totals["player"] += int(counts[1])
        totals["tie"] += int(counts[2])
        totals["banker_six"] += int(np.count_nonzero((winner == 0) & (((p >> 4) & 15) == 6)))
        totals["natural"] += int(np.count_nonzero(p & (1 << 10)))
        totals["player_pair"] += int(np.count_nonzero(p & (1 << 13)))
        totals["banker_pair"] += int(np.count_nonzero(p & (1 << 14)))
        if detail:
            parts.append(part)
        if bar is not None:
            bar.update(n)
    if bar is not None:
        bar.close()
    sim = Simulation(shoes, decks, seed, cut_card, burn, totals, detail)
    if detail:
        p = np.concatenate([part["packed"] for part in parts])
        sim.winner = ((p >> 11) & 3).astype(np.int8)
        sim.player_total = (p & 15).astype(np.int8)
        sim.banker_total = ((p >> 4) & 15).astype(np.int8)
        sim.cards_used = (4 + ((p >> 8) & 3)).astype(np.int8)
        sim.natural = (p & (1 << 10)) != 0
        sim.player_pair = (p & (1 << 13)) != 0
        sim.banker_pair = (p & (1 << 14)) != 0
        rounds = np.concatenate([part["rounds"] for part in parts])
        sim.offsets = np.concatenate(([0], np.cumsum(rounds)))
        sim.burned = np.concatenate([part["burned"] for part in parts])
        if keep_cards:
            sim.cards = np.concatenate([part["cards"] for part in parts])
    return sim
