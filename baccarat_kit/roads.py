"""Roads (路單) and streaks: what the score cards show, and what independence predicts.

A road is only a record of results that have already happened (000: 「路單只是歷史結果紀錄，
不會改變固定補牌規則或下一局結果」). This module draws the two common ones from a
sequence of results, and measures streaks against what independent coups would give.

>>> [(c.col, c.row, c.winner, c.ties) for c in big_road("BBTPPPB")]
[(0, 0, 'B', 0), (0, 1, 'B', 1), (1, 0, 'P', 0), (1, 1, 'P', 0), (1, 2, 'P', 0), (2, 0, 'B', 0)]
>>> bead_plate("BPT")
[(0, 0, 'B'), (0, 1, 'P'), (0, 2, 'T')]
>>> s = streak_stats("BBPBPPPB", p_banker=0.5)
>>> s.runs, s.longest["P"]
(5, 3)

Plots (:func:`plot_bead_plate`, :func:`plot_big_road`) import matplotlib when called
and never change its global settings; the Chinese marks 莊／閒／和 are used when a CJK
font is installed, else the letters B／P／T.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import pairwise
from typing import TYPE_CHECKING, Any

from .errors import BaccaratError
from .plotting import COLORS, fonts, pyplot

if TYPE_CHECKING:
    from .simulation import Simulation

__all__ = [
    "BigRoadCell",
    "RoadError",
    "StreakStats",
    "after_streak",
    "after_streak_report",
    "bead_plate",
    "big_road",
    "parse_outcomes",
    "plot_bead_plate",
    "plot_big_road",
    "run_lengths",
    "streak_stats",
]

"""Banker red, player blue, tie green: the colours of a casino score card."""
_MARK_KEYS = {"B": "road.mark-banker", "P": "road.mark-player", "T": "road.mark-tie"}
_TOKENS = {
    "b": "B", "banker": "B", "莊": "B", "庄": "B", "0": "B",
    "p": "P", "player": "P", "閒": "P", "闲": "P", "1": "P",
    "t": "T", "tie": "T", "和": "T", "2": "T",
}


class RoadError(BaccaratError):
    """A result that is not banker, player or tie."""


def parse_outcomes(outcomes: str | Iterable[Any]) -> str:
    """Results as a string of ``B``, ``P``, ``T``.

    Accepts ``"BPPT"``, ``"莊閒閒和"``, ``"banker, player"``, a list of such words, winner codes
    0/1/2 (banker/player/tie, as in :attr:`Simulation.winner`), or engine coups/rounds.

    >>> parse_outcomes("莊閒和"), parse_outcomes(["banker", "tie"]), parse_outcomes([1, 0])
    ('BPT', 'BT', 'PB')
    """
    if isinstance(outcomes, str):
        tokens: list[Any] = []
        for part in re.split(r"[\s,，、;；]+", outcomes.strip()):
            if part.lower() in _TOKENS:
                tokens.append(part)
            else:
                tokens.extend(part)
    else:
        tokens = []
        for item in outcomes:
            coup = getattr(item, "coup", item)
            winner = getattr(coup, "winner", None)
            tokens.append(winner if isinstance(winner, str) else item)
    out = []
    for t in tokens:
        key = str(int(t)) if hasattr(t, "__index__") and not isinstance(t, str | bool) else str(t).strip().lower()
        if key not in _TOKENS:
            raise RoadError("road.bad_outcome", value=t)
        out.append(_TOKENS[key])
    return "".join(out)


def bead_plate(outcomes: str | Iterable[Any], rows: int = 6) -> list[tuple[int, int, str]]:
    """The bead plate (珠盤路): every coup, ties included, down each column then right.

    Returns ``(column, row, result)`` for each coup.
    """
    seq = parse_outcomes(outcomes)
    return [(i // rows, i % rows, o) for i, o in enumerate(seq)]


@dataclass
class BigRoadCell:
    """One banker or player win on the big road; ``ties`` counts the ties that followed it."""

    col: int
    row: int
    winner: str
    ties: int = 0


def big_road(outcomes: str | Iterable[Any], rows: int = 6) -> list[BigRoadCell]:
    """The big road (大路): a new column for each change of winner, a streak goes down.

    A tie is not a cell: it is marked on the win before it (ties before the first win are
    marked on the first). A streak that reaches the bottom row, or a cell already taken,
    turns right (the "dragon tail").
    """
    seq = parse_outcomes(outcomes)
    cells: list[BigRoadCell] = []
    taken: set[tuple[int, int]] = set()
    leading_ties = 0
    start_col = -1
    col = row = 0
    for o in seq:
        if o == "T":
            if cells:
                cells[-1].ties += 1
            else:
                leading_ties += 1
            continue
        if not cells or o != cells[-1].winner:
            start_col += 1
            col, row = start_col, 0
            while (col, row) in taken:
                col += 1
        elif row + 1 < rows and (col, row + 1) not in taken:
            row += 1
        else:
            col += 1
        taken.add((col, row))
        cells.append(BigRoadCell(col, row, o, leading_ties if not cells else 0))
    return cells


# ---------------------------------------------------------------------------
# Streaks
# ---------------------------------------------------------------------------

def _default_p(decks: int = 8) -> float:
    from .odds import exact_odds

    o = exact_odds(decks)
    return float(o.banker / (o.banker + o.player))


@dataclass
class StreakStats:
    """Runs of banker or player wins (ties left out) against what independence predicts.

    ``expected_runs`` and ``sd_runs`` are the Wald–Wolfowitz values given how many banker
    and player wins there were (exact if the order of the wins is random); ``z`` is the
    difference in standard deviations.
    """

    n: int
    banker: int
    player: int
    runs: int
    expected_runs: float
    sd_runs: float
    longest: dict[str, int] = field(default_factory=dict)

    @property
    def z(self) -> float:
        return (self.runs - self.expected_runs) / self.sd_runs if self.sd_runs else 0.0

    def report(self, lang: str | None = None) -> str:
        from .i18n import message

        return message("road.runs-summary", lang, runs=self.runs, expected=self.expected_runs,
                       sd=self.sd_runs, z=self.z, longest_banker=self.longest.get("B", 0),
                       longest_player=self.longest.get("P", 0))


def _sequences(shoes: Simulation | str | Iterable[Any]) -> list[str]:
    from .simulation import Simulation

    if isinstance(shoes, Simulation):
        return [shoes.outcomes(i) for i in range(shoes.shoes)]
    if isinstance(shoes, str):
        return [parse_outcomes(shoes)]
    items = list(shoes)
    if items and all(isinstance(s, str) for s in items) \
            and not all(s.strip().lower() in _TOKENS for s in items):
        return [parse_outcomes(s) for s in items]
    return [parse_outcomes(items)]


def streak_stats(shoes: Simulation | str | Iterable[Any], p_banker: float | None = None) -> StreakStats:
    """Runs test over one shoe's results or many shoes' (a :class:`Simulation`, or a list of strings).

    ``p_banker`` is unused by the runs test itself (which conditions on the counts); it is
    accepted so every streak function takes the same arguments.
    """
    del p_banker
    runs = expected = var = 0.0
    banker = player = 0
    longest = {"B": 0, "P": 0}
    for seq in _sequences(shoes):
        s = seq.replace("T", "")
        if not s:
            continue
        nb, npl = s.count("B"), s.count("P")
        n = nb + npl
        banker += nb
        player += npl
        r = 1 + sum(1 for a, b in pairwise(s) if a != b)
        runs += r
        expected += 1 + 2 * nb * npl / n
        if n > 1:
            var += 2 * nb * npl * (2 * nb * npl - n) / (n * n * (n - 1))
        for m in re.finditer(r"B+|P+", s):
            side = m.group()[0]
            longest[side] = max(longest[side], len(m.group()))
    return StreakStats(banker + player, banker, player, int(runs), expected, math.sqrt(var), longest)


def after_streak(shoes: Simulation | str | Iterable[Any], max_run: int = 8,
                 p_banker: float | None = None) -> list[dict[str, Any]]:
    """How often the next result is a banker win after ``k`` banker (or player) wins in a row.

    For ``k`` = 1 … ``max_run`` and each side: the number of such moments (the last ``k``
    non-tie results of a shoe were all that side, and another non-tie result followed in the
    same shoe), the share of banker wins next, what independence predicts (``p_banker``,
    default: the exact banker share of non-tie coups for the shoe's decks) and the
    difference in standard errors.
    """
    import numpy as np

    from .simulation import Simulation

    if p_banker is None:
        p_banker = _default_p(shoes.decks if isinstance(shoes, Simulation) else 8)
    if isinstance(shoes, Simulation) and shoes.winner is not None and shoes.offsets is not None:
        w = shoes.winner.astype(np.int64)
        shoe_of = np.repeat(np.arange(shoes.shoes), np.diff(shoes.offsets))
    else:
        seqs = _sequences(shoes)
        w = np.array([{"B": 0, "P": 1, "T": 2}[c] for s in seqs for c in s], dtype=np.int64)
        shoe_of = np.repeat(np.arange(len(seqs)), [len(s) for s in seqs])
    keep = w != 2
    w, shoe_of = w[keep], shoe_of[keep]
    if w.size < 2:
        return []
    new = np.ones(w.size, dtype=bool)
    new[1:] = (w[1:] != w[:-1]) | (shoe_of[1:] != shoe_of[:-1])
    run_start = np.maximum.accumulate(np.where(new, np.arange(w.size), 0))
    run_len = np.arange(w.size) - run_start + 1
    has_next = np.zeros(w.size, dtype=bool)
    has_next[:-1] = shoe_of[1:] == shoe_of[:-1]
    nxt_banker = np.zeros(w.size, dtype=bool)
    nxt_banker[:-1] = w[1:] == 0
    rows = []
    for side, code in (("B", 0), ("P", 1)):
        for k in range(1, max_run + 1):
            sel = has_next & (w == code) & (run_len >= k)
            count = int(sel.sum())
            share = float(nxt_banker[sel].mean()) if count else float("nan")
            se = math.sqrt(p_banker * (1 - p_banker) / count) if count else float("nan")
            rows.append({"side": side, "run": k, "coups": count, "banker_next": share,
                         "expected": p_banker, "z": (share - p_banker) / se if count else float("nan")})
    return rows


def after_streak_report(rows: Sequence[dict[str, Any]], lang: str | None = None) -> str:
    """The rows of :func:`after_streak` as a text table."""
    from .i18n import message
    from .odds import text_table

    head = [message("road.streak-col-after", lang), message("road.streak-col-coups", lang),
            message("road.streak-col-banker", lang), message("road.streak-col-expected", lang),
            message("road.streak-col-z", lang)]
    table = [head]
    for r in rows:
        who = message("area.banker" if r["side"] == "B" else "area.player", lang)
        table.append([message("road.streak-run", lang, n=r["run"], who=who), str(r["coups"]),
                      f"{r['banker_next']:.4f}", f"{r['expected']:.4f}", f"{r['z']:+.2f}"])
    return "\n".join(text_table(table))


def run_lengths(shoes: Simulation | str | Iterable[Any], max_len: int = 10,
                p_banker: float | None = None) -> dict[str, list[float]]:
    """Runs of each length 1 … ``max_len`` (banker and player together; the last entry counts
    ``max_len`` or longer), observed and expected if the non-tie results were independent
    with banker probability ``p_banker``. The expectation is exact for sequences of the
    observed lengths (shoe ends included).
    """
    from .simulation import Simulation

    if p_banker is None:
        p_banker = _default_p(shoes.decks if isinstance(shoes, Simulation) else 8)
    observed = [0.0] * max_len
    expected = [0.0] * max_len
    q_banker = 1 - p_banker
    for seq in _sequences(shoes):
        s = seq.replace("T", "")
        n = len(s)
        for m in re.finditer(r"B+|P+", s):
            observed[min(len(m.group()), max_len) - 1] += 1
        for length in range(1, n + 1):
            e = 0.0
            for p, q in ((p_banker, q_banker), (q_banker, p_banker)):
                e += p**length * ((length == n) + (length < n) * 2 * q + max(0, n - length - 1) * q * q)
            expected[min(length, max_len) - 1] += e
    return {"length": list(range(1, max_len + 1)), "observed": observed, "expected": expected}


# ---------------------------------------------------------------------------
# Drawing (matplotlib, imported on use)
# ---------------------------------------------------------------------------

def plot_bead_plate(outcomes: str | Iterable[Any], ax: Any = None, lang: str | None = None,
                    rows: int = 6) -> Any:
    """Draw the bead plate (珠盤路) of ``outcomes``; returns the matplotlib axes."""
    from .i18n import message

    plt = pyplot()  # first: without matplotlib, the error that names the extra
    from matplotlib.patches import Circle

    lang, font = fonts(lang)
    beads = bead_plate(outcomes, rows)
    cols = max((c for c, _, _ in beads), default=0) + 1
    if ax is None:
        _, ax = plt.subplots(figsize=(max(3.0, 0.42 * cols + 0.6), 0.42 * rows + 0.8))
    for c, r, o in beads:
        ax.add_patch(Circle((c + 0.5, rows - r - 0.5), 0.42, color=COLORS[o]))
        ax.text(c + 0.5, rows - r - 0.5, message(_MARK_KEYS[o], lang), color="white",
                ha="center", va="center", fontsize=9, fontproperties=font, fontweight="bold")
    _grid(ax, cols, rows)
    ax.set_title(message("road.bead-plate", lang), fontproperties=font)
    return ax


def plot_big_road(outcomes: str | Iterable[Any], ax: Any = None, lang: str | None = None,
                  rows: int = 6) -> Any:
    """Draw the big road (大路) of ``outcomes``; returns the matplotlib axes.

    Hollow red circles for banker, blue for player; a green slash across a circle for each
    tie after it (with the count when there were several).
    """
    from .i18n import message

    plt = pyplot()  # first: without matplotlib, the error that names the extra
    from matplotlib.patches import Circle

    lang, font = fonts(lang)
    cells = big_road(outcomes, rows)
    cols = max((c.col for c in cells), default=0) + 1
    if ax is None:
        _, ax = plt.subplots(figsize=(max(3.0, 0.32 * cols + 0.6), 0.32 * rows + 0.8))
    for cell in cells:
        x, y = cell.col + 0.5, rows - cell.row - 0.5
        ax.add_patch(Circle((x, y), 0.36, fill=False, linewidth=2, edgecolor=COLORS[cell.winner]))
        if cell.ties:
            ax.plot([x - 0.3, x + 0.3], [y - 0.3, y + 0.3], color=COLORS["T"], linewidth=2)
            if cell.ties > 1:
                ax.text(x + 0.38, y + 0.3, str(cell.ties), color=COLORS["T"], fontsize=7,
                        ha="center", va="center")
    _grid(ax, cols, rows)
    ax.set_title(message("road.big-road", lang), fontproperties=font)
    return ax


def _grid(ax: Any, cols: int, rows: int) -> None:
    ax.set_xlim(0, cols)
    ax.set_ylim(0, rows)
    ax.set_aspect("equal")
    ax.set_xticks(range(cols + 1))
    ax.set_yticks(range(rows + 1))
    ax.grid(True, color="#cccccc", linewidth=0.6)
    ax.tick_params(length=0, labelbottom=False, labelleft=False)
    for spine in ax.spines.values():
        spine.set_color("#999999")
