"""The fixed drawing rules of Punto Banco: the one place the rule table lives.

Everything else in the kit (coups, explanations, widgets, cases, exercises, the
grader, the odds) asks the functions here. The table is data:

* :data:`NATURALS` — a first-two-card total of 8 or 9 stops both hands;
* :data:`PLAYER_DRAWS_ON` — the player's totals that draw (0–5; 6–7 stand);
* :data:`BANKER_DRAWS_WHEN_PLAYER_STOOD` — the banker's totals that draw when the player stood;
* :data:`BANKER_DRAWS_ON` — for a banker total 0–7, the values 0–9 of the player's
  third card on which the banker draws.

Sources: Pennsylvania Code §631a.11; Singapore GRA Commission Baccarat (RWS) Game
Rules v4; Massachusetts Gaming Commission Baccarat 4.11.2024 (see ``../shared/seeds``).

>>> player_draws(5), player_draws(6)
(True, False)
>>> banker_draws(3, 8), banker_draws(3, 9), banker_draws(5, None)
(False, True, True)
>>> banker_rule(4, 1)
'banker-4-vs-1'
"""

from __future__ import annotations

from collections.abc import Iterable
from types import MappingProxyType
from typing import TYPE_CHECKING

from .errors import RuleError
from .i18n import Term

if TYPE_CHECKING:
    from .cards import Card

VALUES = tuple(range(10))
NATURALS = frozenset({8, 9})
"""First-two-card totals that are naturals (例牌／天牌): no more cards for either hand."""

PLAYER_DRAWS_ON = frozenset(range(0, 6))
"""Player totals (no natural) that draw a third card; 6 and 7 stand."""

BANKER_DRAWS_WHEN_PLAYER_STOOD = frozenset(range(0, 6))
"""Banker totals that draw when the player stood (had no third card); 6 and 7 stand."""

BANKER_DRAWS_ON: MappingProxyType[int, frozenset[int]] = MappingProxyType(
    {
        0: frozenset(VALUES),
        1: frozenset(VALUES),
        2: frozenset(VALUES),
        3: frozenset(VALUES) - {8},
        4: frozenset(range(2, 8)),
        5: frozenset(range(4, 8)),
        6: frozenset({6, 7}),
        7: frozenset(),
    }
)
"""Banker total 0–7 → the player's third-card values 0–9 on which the banker draws."""

MAX_CARDS_PER_HAND = 3
"""At most one extra card per hand."""


def _check_total(total: object, hand: str) -> int:
    who = Term(f"who.{hand}")
    if isinstance(total, bool) or not isinstance(total, int):
        raise RuleError("rule.total_type", who=who, value=repr(total))
    if total in NATURALS:
        raise RuleError("rule.natural_total", who=who, value=total)
    if not 0 <= total <= 7:
        raise RuleError("rule.total_range", who=who, value=total)
    return total


def _check_third(value: object) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 9:
        raise RuleError("rule.third_value", value=repr(value))
    return value


def hand_total(cards: Iterable[Card | str | int] | str) -> int:
    """Baccarat total of some cards: the sum of values, last digit only.

    >>> hand_total("7 8"), hand_total("6 8 7"), hand_total("K 9")
    (5, 1, 9)
    """
    from .cards import parse_cards

    parsed = parse_cards(cards)
    if not parsed:
        raise RuleError("rule.no_cards")
    return sum(c.value for c in parsed) % 10


def is_natural(total: int) -> bool:
    """Whether a first-two-card total is a natural (8 or 9)."""
    if isinstance(total, bool) or not isinstance(total, int) or not 0 <= total <= 9:
        raise RuleError("rule.any_total_range", value=repr(total))
    return total in NATURALS


def player_draws(total: int) -> bool:
    """Whether the player, with ``total`` (0–7, no natural on the table), draws a third card."""
    return _check_total(total, "player") in PLAYER_DRAWS_ON


def banker_draws(total: int, player_third: int | None) -> bool:
    """Whether the banker, with ``total`` (0–7), draws.

    ``player_third`` is the value 0–9 of the player's third card, or ``None``
    when the player stood.
    """
    t = _check_total(total, "banker")
    v = _check_third(player_third)
    if v is None:
        return t in BANKER_DRAWS_WHEN_PLAYER_STOOD
    return v in BANKER_DRAWS_ON[t]


def player_rule(total: int) -> str:
    """The stable rule id of the player's decision: ``player-0-5`` or ``player-6-7``."""
    return "player-0-5" if player_draws(total) else "player-6-7"


def banker_rule(total: int, player_third: int | None) -> str:
    """The stable rule id of the banker's decision.

    ``banker-{total}-vs-{value}`` when the player drew a card of that value,
    ``banker-{total}-player-stood`` when the player stood.
    """
    t = _check_total(total, "banker")
    v = _check_third(player_third)
    return f"banker-{t}-player-stood" if v is None else f"banker-{t}-vs-{v}"


def draw_values(total: int) -> frozenset[int]:
    """The player's third-card values on which a banker with ``total`` (0–7) draws."""
    return BANKER_DRAWS_ON[_check_total(total, "banker")]


def format_values(values: Iterable[int]) -> str:
    """Values as ranges, the way the sources write them: ``'2–7'``, ``'0–7, 9'``.

    >>> format_values({0, 1, 2, 3, 4, 5, 6, 7, 9}), format_values({6, 7}), format_values(())
    ('0–7, 9', '6–7', '')
    """
    vals = sorted(set(values))
    runs: list[tuple[int, int]] = []
    for v in vals:
        if runs and v == runs[-1][1] + 1:
            runs[-1] = (runs[-1][0], v)
        else:
            runs.append((v, v))
    return ", ".join(str(a) if a == b else f"{a}–{b}" for a, b in runs)


def banker_matrix() -> tuple[tuple[bool, ...], ...]:
    """The banker matrix as 8 rows (totals 0–7) × 10 columns (third-card values 0–9)."""
    return tuple(tuple(banker_draws(t, v) for v in VALUES) for t in range(8))
