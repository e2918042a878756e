"""The drill's items and its spaced-repetition scheduler: pure functions, no widget.

Every cell of the rule is an item, and its answer comes from the engine
(:mod:`baccarat_kit.rules`), never from a table here:

* ``natural-T`` — a first-two-card total T (0–9): a natural or not (10 items);
* ``player-T`` — the player with T (0–7, no natural): draw or stand (8 items);
* ``banker-T-vs-V`` / ``banker-T-player-stood`` — the banker with T (0–7) against the player's
  third card V (0–9), or when the player stood: draw or stand (80 + 8 = 88 items);
* ``coup-N`` — a whole coup dealt from a seeded shoe: who wins (asked every
  :data:`COUP_EVERY`-th question; practice, not a cell of the mastery count).

The scheduler is a Leitner system over a step counter (one step per answer): a right answer
moves an item up a box and waits ``INTERVALS[box]`` steps; a wrong one sends it to box 0 and
back after :data:`RETRY_AFTER` steps, so a missed cell comes back sooner than a mastered one.
Due items come first (the most overdue, then the lowest box), then unseen ones in a seeded order.

**Mastery**: a cell is mastered when it was answered right :data:`MASTERY_STREAK` times in a
row, each within the mastery time (default :data:`MASTERY_SECONDS` s, adjustable).

>>> cells = {}
>>> answer(cells, "banker-3-vs-8", True, 1.2, step=0)["box"], answer(cells, "banker-3-vs-8", True, 2.0, step=1)["fast"]
(1, 2)
>>> mastered(cells), len(MASTERY_CELLS)
(1, 106)
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .rules import VALUES, banker_draws, banker_rule, is_natural, player_draws

INTERVALS = (1, 3, 7, 15, 30, 60)
"""Steps an item waits after a right answer, by its box (0–5)."""
RETRY_AFTER = 2
"""Steps a missed item waits: it comes back after one other question."""
MASTERY_STREAK = 2
MASTERY_SECONDS = 3.0
COUP_EVERY = 6


def _cells() -> tuple[str, ...]:
    naturals = [f"natural-{t}" for t in VALUES]
    player = [f"player-{t}" for t in range(8)]
    banker = [banker_rule(t, v) for t in range(8) for v in (*VALUES, None)]
    return (*naturals, *player, *banker)


MASTERY_CELLS = _cells()
"""Every cell of the rule the drill asks (106: 10 naturals, 8 player totals, 88 banker cells)."""
BANKER_CELLS = tuple(c for c in MASTERY_CELLS if c.startswith("banker-"))


@dataclass(frozen=True)
class Item:
    """One drill question: its cell id, what kind of answer it wants and the engine's answer."""

    id: str
    kind: str
    """``natural`` (yes/no), ``draw`` (draw/stand) or ``coup`` (player/banker/tie)."""
    answer: str
    params: Mapping[str, Any]


def item(cell: str) -> Item:
    """The question of a cell, answered by the engine.

    >>> item("banker-6-vs-7").answer, item("banker-7-player-stood").answer, item("natural-8").answer
    ('draw', 'stand', 'yes')
    """
    parts = cell.split("-")
    if parts[0] == "natural":
        t = int(parts[1])
        return Item(cell, "natural", "yes" if is_natural(t) else "no", {"total": t})
    if parts[0] == "player":
        t = int(parts[1])
        return Item(cell, "draw", "draw" if player_draws(t) else "stand", {"total": t})
    t = int(parts[1])
    third = None if parts[2] == "player" else int(parts[3])
    return Item(cell, "draw", "draw" if banker_draws(t, third) else "stand", {"total": t, "third": third})


def coup_item(seed: int, n: int) -> Item:
    """Whole coup number ``n`` of a seeded shoe (8 decks): who wins."""
    from .shoe import Shoe

    shoe = Shoe(decks=8, seed=seed)
    coup = None
    for _ in range(n % 60 + 1):
        coup = shoe.deal().coup
    assert coup is not None
    return Item(f"coup-{n}", "coup", str(coup.winner), {"coup": coup})


def answer(cells: dict[str, Any], cell: str, right: bool, seconds: float | None, *, step: int,
           mastery_seconds: float = MASTERY_SECONDS) -> dict[str, Any]:
    """Record one answer of ``cell`` at ``step`` in ``cells`` (the record's drill cells)."""
    entry: dict[str, Any] = dict(cells.get(cell) or {"box": 0, "due": 0, "seen": 0, "right": 0,
                                                     "streak": 0, "fast": 0})
    entry["seen"] += 1
    fast = right and seconds is not None and seconds <= mastery_seconds
    if right:
        entry["right"] += 1
        entry["streak"] += 1
        entry["fast"] = entry["fast"] + 1 if fast else 0
        entry["box"] = min(entry["box"] + 1, len(INTERVALS) - 1)
        entry["due"] = step + INTERVALS[entry["box"]]
    else:
        entry["streak"] = entry["fast"] = entry["box"] = 0
        entry["due"] = step + RETRY_AFTER
    entry["last"] = "right" if right else "wrong"
    if seconds is not None:
        entry["ms"] = round(seconds * 1000)
    cells[cell] = entry
    return entry


def is_mastered(entry: Mapping[str, Any] | None) -> bool:
    return bool(entry) and int(entry.get("fast", 0)) >= MASTERY_STREAK  # type: ignore[union-attr]


def mastered(cells: Mapping[str, Any]) -> int:
    """How many of :data:`MASTERY_CELLS` are mastered."""
    return sum(1 for c in MASTERY_CELLS if is_mastered(cells.get(c)))


def choose(cells: Mapping[str, Any], step: int, seed: int, pool: tuple[str, ...] = MASTERY_CELLS,
           avoid: str | None = None) -> str:
    """The next cell to ask at ``step``: the most overdue seen item, else an unseen one (seeded
    order), else the one due soonest. ``avoid`` (the item just asked) is not asked twice in a row
    while another is available."""
    rng = random.Random(f"{seed}:{step}")
    candidates = [c for c in pool if c != avoid] or list(pool)
    due = [c for c in candidates if c in cells and int(cells[c]["due"]) <= step]
    if due:
        return min(due, key=lambda c: (int(cells[c]["due"]), int(cells[c]["box"]), rng.random()))
    unseen = [c for c in candidates if c not in cells]
    if unseen:
        return rng.choice(unseen)
    return min(candidates, key=lambda c: (int(cells[c]["due"]), int(cells[c]["box"]), rng.random()))
