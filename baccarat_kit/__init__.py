"""baccarat-kit: the fixed drawing rules and settlement of Punto Banco baccarat, explained.

>>> import baccarat_kit as bk
>>> coup = bk.play("2 3 3 4 4")
>>> coup.winner, coup.player_total, coup.banker_total
('player', 9, 7)
>>> bk.settle(coup, {"player": 100}).returned
Decimal('200')

The engine (cards, rules, coups, shoe, settlement, ledger) imports nothing beyond the
standard library. Heavier parts (odds with numpy, widgets with ipywidgets, the case
catalogue, the grader) load on first use.
"""

from __future__ import annotations

import importlib
from typing import Any

from .cards import Card, Rank, Suit, format_cards, parse_card, parse_cards
from .coup import Coup, Step, play
from .errors import (
    BaccaratError,
    BetError,
    CardError,
    LanguageError,
    LedgerError,
    NotEnoughCards,
    PayTableError,
    RuleError,
    ShoeError,
    ShoeExhausted,
)
from .i18n import get_language, set_language
from .ledger import Discrepancy, Ledger, LedgerLine
from .rules import (
    BANKER_DRAWS_ON,
    banker_draws,
    banker_matrix,
    banker_rule,
    hand_total,
    is_natural,
    player_draws,
    player_rule,
)
from .settlement import (
    AREAS,
    PAY_TABLES,
    Bet,
    PayTable,
    Rounding,
    Settlement,
    SettlementLine,
    pay_table,
    settle,
)
from .shoe import Round, Shoe

__version__ = "0.2.0"

# name -> "module" (a submodule) or "module:attribute", loaded on first use so that
# `import baccarat_kit` stays light (no numpy, matplotlib or ipywidgets).
_LAZY: dict[str, str] = {
    "rules": "baccarat_kit.rules",
    "misconceptions": "baccarat_kit.misconceptions",
    "display": "baccarat_kit.display",
    "cases": "baccarat_kit.cases",
    "sources": "baccarat_kit.sources",
    "widgets": "baccarat_kit.widgets",
    "odds": "baccarat_kit.odds",
    "exact_odds": "baccarat_kit.odds:exact_odds",
    "exact_odds_batch": "baccarat_kit.odds:exact_odds_batch",
    "simulate": "baccarat_kit.simulation:simulate",
    "simulation": "baccarat_kit.simulation",
    "counting_analysis": "baccarat_kit.counting:counting_analysis",
    "counting": "baccarat_kit.counting",
    "roads": "baccarat_kit.roads",
    "plotting": "baccarat_kit.plotting",
    "grading": "baccarat_kit.grading",
    "progress": "baccarat_kit.progress",
    "drill": "baccarat_kit.drill",
    "today": "baccarat_kit.today",
}


def __getattr__(name: str) -> Any:
    target = _LAZY.get(name)
    if target is None:
        raise AttributeError(f"module 'baccarat_kit' has no attribute {name!r}")
    module_name, _, attr = target.partition(":")
    module = importlib.import_module(module_name)
    value = getattr(module, attr) if attr else module
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))


__all__ = [
    "AREAS",
    "BANKER_DRAWS_ON",
    "PAY_TABLES",
    "BaccaratError",
    "Bet",
    "BetError",
    "Card",
    "CardError",
    "Coup",
    "Discrepancy",
    "LanguageError",
    "Ledger",
    "LedgerError",
    "LedgerLine",
    "NotEnoughCards",
    "PayTable",
    "PayTableError",
    "Rank",
    "Round",
    "Rounding",
    "RuleError",
    "Settlement",
    "SettlementLine",
    "Shoe",
    "ShoeError",
    "ShoeExhausted",
    "Step",
    "Suit",
    "banker_draws",
    "banker_matrix",
    "banker_rule",
    "format_cards",
    "get_language",
    "hand_total",
    "is_natural",
    "parse_card",
    "parse_cards",
    "pay_table",
    "play",
    "player_draws",
    "player_rule",
    "set_language",
    "settle",
]
