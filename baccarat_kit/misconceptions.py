"""The misconceptions the sources name, as data (``data/misconceptions.toml``), and last a few
wrong patterns a learner's own function shows, named by the kit with a source's correction
(:attr:`Misconception.kit_claim`).

>>> m = get("banker-3-always")
>>> m.claim("en")
'A banker with 3 always draws.'
>>> len(all_misconceptions()) >= 15
True
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from decimal import Decimal
from functools import cache
from pathlib import Path
from typing import Any

from .errors import BaccaratError
from .i18n import normalize_language

_FILE = Path(__file__).resolve().parent / "data" / "misconceptions.toml"


@dataclass(frozen=True, slots=True)
class Misconception:
    id: str
    source: str
    claims: dict[str, str]
    corrections: dict[str, str]
    kit_claim: bool = False
    """The claim is a wrong pattern in the kit's own words (a learner's function shows it), not a
    belief a source names; its correction is still the source's (``kit_claim = true`` in the data)."""

    def claim(self, lang: str | None = None) -> str:
        return self.claims[normalize_language(lang)]

    def correction(self, lang: str | None = None) -> str:
        return self.corrections[normalize_language(lang)]


class UnknownMisconception(BaccaratError):
    """An id that is not in the misconceptions list."""


@cache
def all_misconceptions() -> tuple[Misconception, ...]:
    """Every misconception of the data, in its order (those a source names and, last, the wrong
    patterns the kit names: :attr:`Misconception.kit_claim`)."""
    data = tomllib.loads(_FILE.read_text(encoding="utf-8"))
    return tuple(
        Misconception(m["id"], m["source"], dict(m["claim"]), dict(m["correction"]), bool(m.get("kit_claim", False)))
        for m in data["misconception"]
    )


def get(mid: str) -> Misconception:
    for m in all_misconceptions():
        if m.id == mid:
            return m
    raise UnknownMisconception(
        "misconception.unknown", value=mid, choices=", ".join(m.id for m in all_misconceptions())
    )


# ---------------------------------------------------------------- mistaken rules, played by the engine
@dataclass(frozen=True)
class MistakenRule:
    """A misconception as a rule the engine can play: other drawing decisions or card values
    (:class:`baccarat_kit.coup.Rules`, given to :func:`baccarat_kit.play`) and/or a changed
    pay table (fields of :class:`baccarat_kit.settlement.PayTable`)."""

    id: str
    rules: Any = None
    table_changes: tuple[tuple[str, Any], ...] = ()
    keys: tuple[str, ...] = ()
    """The answer keys this mistake is played on (empty: every key). Card-value mistakes are
    asked of card values and totals only: a coup played with totals over 9 means nothing."""

    def pay_table(self, table: Any) -> Any:
        from .settlement import pay_table, with_changes

        return with_changes(table, **dict(self.table_changes)) if self.table_changes else pay_table(table)


def _third_or_total(total: int, third: int | None, player_total: int) -> bool:
    from .rules import banker_draws

    return banker_draws(total, player_total)  # the player's final total read as the third card


def _three_card_natural(total: int, third: int | None, player_total: int) -> bool:
    from .rules import NATURALS, banker_draws

    return False if third is not None and player_total in NATURALS else banker_draws(total, third)


def _eight_stops_low(total: int, third: int | None, player_total: int) -> bool:
    from .rules import banker_draws

    return False if third == 8 and total <= 3 else banker_draws(total, third)


def _banker_0_5(total: int, third: int | None, player_total: int) -> bool:
    from .rules import BANKER_DRAWS_WHEN_PLAYER_STOOD

    return total in BANKER_DRAWS_WHEN_PLAYER_STOOD


def _copies_player(total: int, third: int | None, player_total: int) -> bool:
    from .rules import banker_draws

    return False if third is None else banker_draws(total, third)


def _banker_3_always(total: int, third: int | None, player_total: int) -> bool:
    from .rules import banker_draws

    return True if total == 3 else banker_draws(total, third)


def _banker_6_stands(total: int, third: int | None, player_total: int) -> bool:
    from .rules import banker_draws

    return False if total == 6 else banker_draws(total, third)


def _face_not_in_table(total: int, third: int | None, player_total: int) -> bool:
    from .rules import banker_draws

    return False if third == 0 else banker_draws(total, third)


def _player_5_stands(total: int) -> bool:
    from .rules import player_draws

    return False if total == 5 else player_draws(total)


def _player_6_draws(total: int) -> bool:
    from .rules import player_draws

    return True if total == 6 else player_draws(total)


def _minus_ten_once(values: list[int]) -> int:
    total = sum(values)
    return total - 10 if total >= 10 else total


_VALUE_KEYS = ("card_value", "hand_total", "values_total")


@cache
def mistaken_rules() -> dict[str, MistakenRule]:
    """Every misconception that a value or a function answer can express, as a rule the engine plays.

    A wrong answer equal to what one of these gives is named in the grader's feedback; a
    learner's function is compared with each of them cell by cell
    (:mod:`baccarat_kit.grading.judge.cells`). The
    drawing mistakes replace one decision of :class:`baccarat_kit.coup.Rules`; the payout
    mistakes change one field of the pay table; nothing here lists answers.

    >>> import baccarat_kit as bk
    >>> r = mistaken_rules()["three-card-natural"].rules
    >>> bk.play("3 2 2 2 3 A").banker_total, bk.play("3 2 2 2 3 A", rules=r).banker_total
    (5, 4)
    """
    from .coup import Rules

    def drawing(mid: str, banker: Any) -> MistakenRule:
        return MistakenRule(mid, Rules(mid, banker_draws=banker))

    out = [
        drawing("final-total-as-third", _third_or_total),
        drawing("three-card-natural", _three_card_natural),
        drawing("eight-stops-low-banker", _eight_stops_low),
        drawing("banker-3-always", _banker_3_always),
        drawing("banker-6-always-stands", _banker_6_stands),
        drawing("face-card-not-in-table", _face_not_in_table),
        drawing("banker-copies-player", _copies_player),
        drawing("banker-0-5-always", _banker_0_5),
        MistakenRule("naturals-tie", Rules("naturals-tie", two_naturals_tie=True)),
        MistakenRule("matrix-after-natural", Rules("matrix-after-natural", naturals_stop=False)),
        MistakenRule("face-card-ten", Rules("face-card-ten", value=lambda card: card.rank.pips), keys=_VALUE_KEYS),
        MistakenRule("total-keeps-tens", Rules("total-keeps-tens", total=sum), keys=_VALUE_KEYS),
        MistakenRule("tie-loses-main-bets", table_changes=(("push_on_tie", False),)),
        MistakenRule("no-commission-all-even", table_changes=(("banker_six", None),)),
        MistakenRule("banker-pays-even", table_changes=(("commission", Decimal(0)),)),
        # issue 31: patterns a learner's own function shows (exercises 01 and 02)
        MistakenRule("player-5-stands", Rules("player-5-stands", player_draws=_player_5_stands)),
        MistakenRule("player-6-draws", Rules("player-6-draws", player_draws=_player_6_draws)),
        MistakenRule("total-minus-ten-once", Rules("total-minus-ten-once", total=_minus_ten_once), keys=_VALUE_KEYS),
    ]
    return {m.id: m for m in out}


BELIEFS = {
    "choose-to-draw": "no value: the table decides, a question can only ask whether one may choose",
    "banker-is-house": "about who the hands are, not a value",
    "roads-change-rules": "about the past and the next coup (exercise 06, lesson 08's simulation)",
    "third-card-helps": "a claim about chances, not a rule that gives a value",
    "commission-vs-drawing": "a no-commission table draws the same cards: the mistake changes no value",
    "bet-beats-edge": "about long-run results (lesson 08), not one coup's value",
    # issue 13: asked as choices in the lessons' question sets (data/quizzes.toml)
    "player-draws-before-natural": "about the order of the checks; asked as a choice in lesson 02",
    "six-seven-natural": "about what a natural is; asked as a choice in lesson 02",
    "bet-changes-drawing": "about who bets where: the mistake changes no value",
    "no-commission-standard-5pct": "about which pay table a table uses; asked as a choice in lesson 07",
    # issue 23: named by the sources, asked as choices in the lessons' question sets
    "names-predict-streaks": "about the names and streaks, not one coup's value (lesson 08)",
    "screen-order-decides": "about the order things appear on screen: no value changes (lesson 03)",
    "must-memorise-table": "about what a player must know: no value changes (lesson 04)",
    "variant-assumed-standard": "about which rules a table uses; asked as choices in lessons 02 and 07",
}
"""The misconceptions that no value question can express (asked as choices or in lessons)."""
