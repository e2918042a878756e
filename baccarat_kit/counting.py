"""Card counting in the manner of Thorp and Walden (1966): the edge of each bet as a shoe depletes.

Before every coup of many simulated shoes, the exact house edge of each bet is computed
from the cards still in the shoe. The counter here is ideal: they know *every* card left,
even the burned ones that nobody sees. Even so, the main bets (banker, player) almost
never turn in the bettor's favour, and the side bets do so rarely, late, and by little.

>>> import baccarat_kit as bk
>>> ca = bk.counting_analysis(shoes=20, decks=8, seed=1)
>>> ca.coups == ca.simulation.hands
True
>>> float(ca.positive_share("banker", "commission")) < 0.01
True

Which side has the edge is decided exactly: the batch computes every edge in double precision
(good to about 1e-15), and every edge within :data:`EXACT_BELOW` of zero is computed again with
:func:`~baccarat_kit.exact_odds` in fractions. So a coup counts as favourable only when its exact
house edge is below zero (an exact zero is not favourable), whatever the machine, the chunking
or the order of the float operations; shares are counts over counts, and sums use
:func:`math.fsum`, which does not depend on the order of its terms.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .odds import OddsError, bet_label, exact_odds, exact_odds_batch
from .settlement import bet_area, pay_table
from .simulation import Simulation, card_codes, simulate

if TYPE_CHECKING:
    import numpy as np

__all__ = ["DEFAULT_BETS", "EXACT_BELOW", "CountingAnalysis", "counting_analysis"]

EXACT_BELOW = 1e-9
"""Edges whose double-precision value is within this of zero are recomputed exactly (Fractions).

The batch's error is about 1e-15, so beyond this distance the float's sign is the exact sign."""

DEFAULT_BETS: tuple[tuple[str, str], ...] = (
    ("banker", "commission"),
    ("banker", "no-commission"),
    ("player", "commission"),
    ("tie", "commission"),
    ("tie", "commission-tie-9"),
    ("player-pair", "commission"),
)
"""(bet, pay table) pairs analysed by default. (The banker pair has, shoe by shoe, exactly
the probability of the player pair, so its edge is the same.)"""


@dataclass(repr=False)
class CountingAnalysis:
    """Exact edges before every coup of simulated shoes; see :func:`counting_analysis`."""

    simulation: Simulation
    bets: tuple[tuple[str, str], ...]
    edges: np.ndarray
    """House edge of each bet (columns, in the order of :attr:`bets`) before each coup (rows)."""
    cards_left: np.ndarray
    """Cards left in the shoe before each coup."""
    full_shoe: tuple[float, ...]
    """House edge of each bet for a full shoe."""

    @property
    def coups(self) -> int:
        return int(self.cards_left.size)

    def __repr__(self) -> str:
        return f"<CountingAnalysis {self.simulation.shoes} shoes, {self.coups} coups, {len(self.bets)} bets>"

    def _column(self, bet: str, table: str) -> int:
        key = (bet_area(bet), pay_table(table).name)
        for j, (b, t) in enumerate(self.bets):
            if (bet_area(b), pay_table(t).name) == key:
                return j
        choices = ", ".join(f"{b}/{t}" for b, t in self.bets)
        raise OddsError("odds.not_analysed", value=f"{bet}/{table}", choices=choices)

    def favourable(self, bet: str, table: str = "commission") -> int:
        """How many coups ``bet`` had a house edge below zero before them (exact sign)."""
        col = self.edges[:, self._column(bet, table)]
        return int((col < 0).sum())

    def positive_share(self, bet: str, table: str = "commission") -> float:
        """Share of coups before which ``bet`` had a negative house edge (the bettor's edge).

        A count over a count: the sign of each edge is exact (see the module docstring)."""
        return self.favourable(bet, table) / self.coups

    def gain_per_coup(self, bet: str, table: str = "commission") -> float:
        """Expected gain per coup dealt of betting one unit on ``bet`` only when it is favourable.

        Summed with :func:`math.fsum` (correctly rounded, so the order of the coups does not
        matter) over the favourable coups, divided by all coups."""
        col = self.edges[:, self._column(bet, table)]
        return math.fsum((-col[col < 0]).tolist()) / self.coups

    def by_depth(self, bins: int = 20) -> dict[str, Any]:
        """Edges grouped by cards left: bin centres, and for each bet the 5 %, 50 %, 95 % points
        and the maximum bettor's edge (−house edge) in each bin."""
        import numpy as np

        edges_of_bins = np.linspace(0, self.cards_left.max() + 1, bins + 1)
        which = np.digitize(self.cards_left, edges_of_bins) - 1
        centres = (edges_of_bins[:-1] + edges_of_bins[1:]) / 2
        keep = [b for b in range(bins) if (which == b).any()]
        out: dict[str, Any] = {"cards_left": centres[keep]}
        for j, (bet, table) in enumerate(self.bets):
            col = self.edges[:, j]
            q = np.array([np.percentile(col[which == b], [5, 50, 95]) for b in keep])
            out[f"{bet}/{table}"] = {"p05": q[:, 0], "median": q[:, 1], "p95": q[:, 2],
                                     "best": np.array([-(col[which == b].min()) for b in keep])}
        return out

    def report(self, lang: str | None = None) -> str:
        """A text table: full-shoe edge, how often the bettor had the edge, and what it was worth."""
        from .i18n import message
        from .odds import text_table

        head = [message("odds.count-col-bet", lang), message("odds.count-col-full", lang),
                message("odds.count-col-positive", lang), message("odds.count-col-gain", lang)]
        rows = [head]
        for j, (bet, table) in enumerate(self.bets):
            name = bet_label(bet, table, lang)
            rows.append([name, f"{self.full_shoe[j]:.4%}", f"{self.positive_share(bet, table):.3%}",
                         f"{self.gain_per_coup(bet, table):.5%}"])
        lines = text_table(rows)
        lines.append(message("odds.count-summary", lang, shoes=self.simulation.shoes, coups=self.coups))
        return "\n".join(lines)

    def plot(self, ax: Any = None, lang: str | None = None, bets: tuple[tuple[str, str], ...] | None = None) -> Any:
        """Median and 5–95 % band of each bet's house edge against cards left (matplotlib)."""
        from .i18n import message
        from .plotting import fonts, pyplot

        plt = pyplot()
        lang, font = fonts(lang)
        if ax is None:
            _, ax = plt.subplots(figsize=(9, 5))
        depth = self.by_depth()
        x = depth["cards_left"]
        for bet, table in bets or self.bets:
            d = depth[f"{bet}/{table}"]
            label = bet_label(bet, table, lang)
            line, = ax.plot(x, d["median"] * 100, label=label)
            ax.fill_between(x, d["p05"] * 100, d["p95"] * 100, color=line.get_color(), alpha=0.15)
        ax.axhline(0, color="black", linewidth=1, linestyle="--", label=message("odds.count-zero", lang))
        ax.invert_xaxis()
        ax.set_xlabel(message("odds.count-cards-left", lang), fontproperties=font)
        ax.set_ylabel(message("odds.count-edge", lang) + " (%)", fontproperties=font)
        ax.set_title(message("odds.count-title", lang), fontproperties=font)
        ax.text(0.99, 0.02, message("odds.count-band", lang), transform=ax.transAxes,
                ha="right", va="bottom", fontsize="small", color="#555555", fontproperties=font)
        ax.legend(prop=font, fontsize="small", loc="upper right")
        return ax


def counting_analysis(
    shoes: int = 1000,
    decks: int = 8,
    seed: int | None = None,
    *,
    bets: tuple[tuple[str, str], ...] = DEFAULT_BETS,
    cut_card: int | None = 14,
    progress: bool | str = False,
    chunk: int = 256,
) -> CountingAnalysis:
    """Deal ``shoes`` shoes and compute, before every coup, each bet's exact house edge.

    The composition before a coup is everything not yet dealt or burned (ranks known, so
    pairs are exact). 1000 shoes of 8 decks (about 80 000 coups) take a few seconds.
    ``progress``: as :func:`~baccarat_kit.simulate` (``True`` a tqdm bar, ``"text"`` a count-only
    line), for the dealing and then for the edges.
    """
    import numpy as np

    for bet, table in bets:
        bet_area(bet)
        pay_table(table)
    sim = simulate(shoes, decks, seed, cut_card=cut_card, keep_cards=True, progress=progress)
    assert sim.cards is not None and sim.offsets is not None
    rank_index = {r: i for i, r in enumerate(_ranks())}
    to_rank = np.zeros(64, dtype=np.int64)
    for code, rank in card_codes().items():
        to_rank[code] = rank_index[rank]
    size = 52 * decks
    starts = sim.coup_starts()
    rounds = np.diff(sim.offsets)
    shoe_of = np.repeat(np.arange(shoes), rounds)
    full = np.full(13, 4 * decks, dtype=np.int64)
    edges = np.empty((starts.size, len(bets)))
    from .simulation import progress_bar

    bar = progress_bar(shoes, progress, "odds.progress-edges") if progress else None
    for lo in range(0, shoes, chunk):
        hi = min(shoes, lo + chunk)
        ranks = to_rank[sim.cards[lo:hi]]
        onehot = np.zeros((hi - lo, size + 1, 13), dtype=np.int16)
        np.put_along_axis(onehot[:, 1:, :], ranks[:, :, None], 1, axis=2)
        dealt = onehot.cumsum(axis=1, dtype=np.int16)
        a, b = sim.offsets[lo], sim.offsets[hi]
        remaining = full - dealt[shoe_of[a:b] - lo, starts[a:b]]
        batch = exact_odds_batch(remaining)
        for j, (bet, table) in enumerate(bets):
            edges[a:b, j] = batch.house_edge(bet, table)
        if bar is not None:
            bar.update(hi - lo)
    if bar is not None:
        bar.close()
    _exact_near_zero(edges, bets, to_rank, sim, starts, shoe_of, decks)
    exact = exact_odds(decks)
    full_edges = tuple(float(exact.house_edge(b, t)) for b, t in bets)
    return CountingAnalysis(sim, tuple(bets), edges, size - starts, full_edges)


def _exact_near_zero(edges: np.ndarray, bets: tuple[tuple[str, str], ...], to_rank: np.ndarray,
                     sim: Simulation, starts: np.ndarray, shoe_of: np.ndarray, decks: int) -> None:
    """Replace every edge within :data:`EXACT_BELOW` of zero by the float of its exact value.

    ``float()`` of a :class:`~fractions.Fraction` is correctly rounded, so an exact zero stays
    0.0 and a tiny exact edge keeps its sign."""
    import numpy as np

    assert sim.cards is not None and sim.offsets is not None
    rows = np.flatnonzero((np.abs(edges) < EXACT_BELOW).any(axis=1))
    for i in rows.tolist():
        shoe = int(shoe_of[i])
        dealt = to_rank[sim.cards[shoe, :int(starts[i])]]
        ranks = np.full(13, 4 * decks, dtype=np.int64) - np.bincount(dealt, minlength=13)
        exact = exact_odds([int(n) for n in ranks])
        for j, (bet, table) in enumerate(bets):
            if abs(edges[i, j]) < EXACT_BELOW:
                edges[i, j] = float(exact.house_edge(bet, table))


def _ranks() -> tuple[Any, ...]:
    from .cards import Rank

    return tuple(Rank)
