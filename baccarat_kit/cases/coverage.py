"""Which cells of the banker matrix the catalogue exercises, computed from rule ids.

The cells are the engine's rule ids: ``banker-{t}-vs-{v}`` (t 0–7, v 0–9),
``banker-{t}-player-stood`` (t 0–7), the naturals and the player's two rules. A case
exercises the rules its outcome uses (:meth:`Case.rules`).

>>> from baccarat_kit.cases import load
>>> cov = coverage(load())
>>> cov.count("banker-3-vs-8") >= 3        # BCR-002, 000-EX-2, HK-A, TW-C …
True
>>> "banker-3-vs-8" in cov.missing
False
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..i18n import message, normalize_language
from ..rules import banker_rule, player_rule

if TYPE_CHECKING:
    from .catalogue import Case

NATURAL_RULES = ("natural-player", "natural-banker", "natural-both")
BANKER_TOTALS = range(8)
THIRD_VALUES = range(10)


def banker_cells() -> tuple[str, ...]:
    """Every banker rule id: 8 stood cells and 80 matrix cells, from the engine."""
    cells = [banker_rule(t, None) for t in BANKER_TOTALS]
    cells += [banker_rule(t, v) for t in BANKER_TOTALS for v in THIRD_VALUES]
    return tuple(cells)


def player_cells() -> tuple[str, ...]:
    """The player's rule ids, from the engine (one per distinct decision on totals 0–7)."""
    return tuple(dict.fromkeys(player_rule(t) for t in range(8)))


@dataclass(frozen=True, slots=True)
class Coverage:
    """Case ids per rule id; ``missing`` lists the banker cells and naturals no case uses."""

    cases: dict[str, tuple[str, ...]]

    def count(self, rule: str) -> int:
        return len(self.cases.get(rule, ()))

    @property
    def missing(self) -> tuple[str, ...]:
        return tuple(r for r in (*banker_cells(), *NATURAL_RULES, *player_cells())
                     if not self.cases.get(r))

    @property
    def covered_banker(self) -> int:
        return sum(1 for r in banker_cells() if self.cases.get(r))

    def table(self, lang: str | None = None) -> str:
        """The banker matrix as text: a count per cell, ``·`` where no case goes."""
        lang = normalize_language(lang)
        stood = message("cases.cli.coverage-stood", lang)
        width = max(len(stood), 2)
        head = "    " + "".join(f"{v:>4}" for v in THIRD_VALUES) + f"  {stood:>{width}}"
        lines = [message("cases.cli.coverage-title", lang), "", head]
        for t in BANKER_TOTALS:
            row = [f"{self._cell(banker_rule(t, v)):>4}" for v in THIRD_VALUES]
            lines.append(f"{t:>3} " + "".join(row) + f"  {self._cell(banker_rule(t, None)):>{width}}")
        lines.append("")
        lines.append(message("cases.cli.coverage-naturals", lang, items=", ".join(
            f"{r} {self._cell(r)}" for r in NATURAL_RULES)))
        lines.append(message("cases.cli.coverage-player", lang, items=", ".join(
            f"{r} {self._cell(r)}" for r in player_cells())))
        missing_banker = [r for r in self.missing if r.startswith("banker-")]
        lines.append(message(
            "cases.cli.coverage-summary", lang, covered=self.covered_banker,
            total=len(banker_cells()), missing_count=len(missing_banker),
            missing=", ".join(missing_banker) or "—"))
        return "\n".join(lines)

    def _cell(self, rule: str) -> str:
        n = self.count(rule)
        return str(n) if n else "·"


def coverage(cases: Iterable[Case]) -> Coverage:
    """Rule id → the ids of the cases and variants that exercise it."""
    found: dict[str, list[str]] = {}
    for case in cases:
        for c in (case, *case.variants):
            for rule in c.rules():
                found.setdefault(rule, []).append(c.id)
    return Coverage({r: tuple(ids) for r, ids in found.items()})
