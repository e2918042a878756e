"""``bk.Ledger.from_csv``: the rows of a ledger as data (no settling, no reconciling).

The settlement exercise hands a learner a ledger with one wrongly paid line; she works out which
by herself. Here a ledger is its rows: ``round_id``, ``bets`` (area and stake), ``cards``,
``result`` and the money columns, as :class:`~decimal.Decimal`.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any

from ._state import absent_error

CSV_FIELDS = ("round_id", "bets", "cards", "result", "staked", "winnings", "commission",
              "returned", "balance_before", "balance_after")


@dataclass(frozen=True, slots=True)
class Bet:
    """A stake on one bet area, as the ledger's row wrote it."""

    area: str
    stake: Decimal


@dataclass(frozen=True, slots=True)
class LedgerLine:
    """One row of the ledger."""

    round_id: str
    bets: tuple[Bet, ...]
    cards: str
    result: str
    staked: Decimal
    winnings: Decimal
    commission: Decimal
    returned: Decimal
    balance_before: Decimal
    balance_after: Decimal

    @property
    def bets_text(self) -> str:
        return " ".join(f"{b.area}={b.stake}" for b in self.bets)


def _money(value: str, field: str, line: int) -> Decimal:
    try:
        amount = Decimal(value)
    except InvalidOperation:
        raise ValueError(f"line {line}: {field} {value!r} is not an amount") from None
    if not amount.is_finite():
        raise ValueError(f"line {line}: {field} {value!r} is not an amount")
    return amount


class Ledger:
    """The rows of a ledger (iterate it, index it, ``len`` it)."""

    def __init__(self, opening_balance: Any = 0, lines: Any = ()) -> None:
        self.opening_balance = Decimal(str(opening_balance))
        self.lines: list[LedgerLine] = list(lines)

    def __iter__(self) -> Iterator[LedgerLine]:
        return iter(self.lines)

    def __len__(self) -> int:
        return len(self.lines)

    def __getitem__(self, i: int) -> LedgerLine:
        return self.lines[i]

    def __repr__(self) -> str:
        return f"Ledger(opening_balance={self.opening_balance}, {len(self.lines)} lines)"

    @property
    def balance(self) -> Decimal:
        return self.lines[-1].balance_after if self.lines else self.opening_balance

    def to_csv(self) -> str:
        buf = io.StringIO()
        writer = csv.writer(buf, lineterminator="\n")
        writer.writerow(CSV_FIELDS)
        for line in self.lines:
            writer.writerow([line.round_id, line.bets_text, line.cards, line.result, line.staked, line.winnings,
                             line.commission, line.returned, line.balance_before, line.balance_after])
        return buf.getvalue()

    @classmethod
    def from_csv(cls, source: str, opening_balance: Any = None) -> Ledger:
        """The rows of CSV text written by the kit's ``Ledger.to_csv`` (the text itself: no file
        is read in a grading run)."""
        if not isinstance(source, str) or "\n" not in source:
            raise ValueError("Ledger.from_csv takes the CSV text itself here")
        lines = []
        for n, row in enumerate(csv.DictReader(io.StringIO(source)), 2):
            missing = [f for f in CSV_FIELDS if f not in row or row[f] is None]
            if missing:
                raise ValueError(f"line {n}: missing {', '.join(missing)}")
            bets = []
            for item in row["bets"].split():
                area, _, stake = item.partition("=")
                bets.append(Bet(area, _money(stake, "bets", n)))
            lines.append(LedgerLine(row["round_id"], tuple(bets), row["cards"], row["result"],
                                    *(_money(row[f], f, n) for f in CSV_FIELDS[4:])))
        opening = (lines[0].balance_before if lines else Decimal(0)) if opening_balance is None else Decimal(
            str(opening_balance))
        return cls(opening, lines)

    def __getattr__(self, name: str) -> Any:  # record, reconcile, settle …: not in a grading run
        if name.startswith("__"):
            raise AttributeError(name)
        raise absent_error(f"bk.Ledger.{name}", attribute=True)
