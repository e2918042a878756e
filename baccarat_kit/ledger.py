"""The bookkeeping trail of source 000: 下注明細、派彩、傭金、餘額, round by round.

>>> from baccarat_kit import play
>>> led = Ledger(opening_balance=1000)
>>> _ = led.record("R001", {"player": 100}, play("2 3 3 4 4"))
>>> _ = led.record("R002", {"banker": 100}, play("2 4 4 5"))
>>> [str(line.balance_after) for line in led]
['1100', '1195.00']
>>> led.reconcile() is None
True
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, replace
from decimal import Decimal
from pathlib import Path
from typing import IO

from .cards import format_cards
from .coup import Coup
from .errors import BaccaratError, LedgerError
from .settlement import Bet, PayTable, Rounding, parse_bets, settle

CSV_FIELDS = (
    "round_id", "bets", "cards", "result", "staked", "winnings", "commission",
    "returned", "balance_before", "balance_after",
)


@dataclass(frozen=True, slots=True)
class LedgerLine:
    """One round of the trail: what was bet, what came, what was paid, the balance around it."""

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


@dataclass(frozen=True, slots=True)
class Discrepancy:
    """The first line of a ledger whose figures do not follow."""

    line: int
    """1-based line number."""
    round_id: str
    field: str
    expected: Decimal
    found: Decimal

    def explain(self, lang: str | None = None) -> str:
        from .i18n import Term, message

        return message("ledger.discrepancy", lang, line=self.line, round_id=self.round_id,
                       field=Term(f"field.{self.field}"), expected=self.expected, found=self.found)

    def __str__(self) -> str:
        return self.explain()


class Ledger:
    """A round-by-round record of bets and balances that can be reconciled and exported."""

    def __init__(self, opening_balance: Decimal | int | str = 0,
                 lines: Iterable[LedgerLine] = ()) -> None:
        self.opening_balance = _money(opening_balance, "opening_balance")
        self.lines: list[LedgerLine] = list(lines)

    def __iter__(self) -> Iterator[LedgerLine]:
        return iter(self.lines)

    def __len__(self) -> int:
        return len(self.lines)

    def __getitem__(self, i: int) -> LedgerLine:
        return self.lines[i]

    @property
    def balance(self) -> Decimal:
        return self.lines[-1].balance_after if self.lines else self.opening_balance

    def record(
        self,
        round_id: str,
        bets: Mapping[str, Decimal | int | str] | Iterable[Bet | tuple[str, Decimal | int | str]],
        coup: Coup | None,
        table: str | PayTable = "commission",
        *,
        rounding: Rounding | None = None,
        void: bool = False,
    ) -> LedgerLine:
        """Settle ``bets`` on ``coup`` and append the line (``void=True``: a void round)."""
        s = settle(coup, bets, table, rounding=rounding, void=void)
        before = self.balance
        line = LedgerLine(
            round_id=str(round_id),
            bets=tuple(parse_bets(bets)),
            cards=format_cards(coup.cards) if coup is not None else "",
            result="void" if void else (coup.winner if coup else ""),
            staked=s.staked,
            winnings=s.winnings,
            commission=s.commission,
            returned=s.returned,
            balance_before=before,
            balance_after=before - s.staked + s.returned,
        )
        self.lines.append(line)
        return line

    def reconcile(self) -> Discrepancy | None:
        """The first line whose balance does not follow, or None if every line does.

        Checks, line by line: the balance before equals the previous balance after (or the
        opening balance), and balance after = balance before − staked + returned.
        """
        previous = self.opening_balance
        for i, line in enumerate(self.lines, 1):
            if line.balance_before != previous:
                return Discrepancy(i, line.round_id, "balance_before", previous, line.balance_before)
            expected = line.balance_before - line.staked + line.returned
            if line.balance_after != expected:
                return Discrepancy(i, line.round_id, "balance_after", expected, line.balance_after)
            previous = line.balance_after
        return None

    def with_line(self, index: int, **changes: object) -> Ledger:
        """A copy with one line changed (for exercises: find the wrong line)."""
        lines = list(self.lines)
        lines[index] = replace(lines[index], **changes)  # type: ignore[arg-type]
        return Ledger(self.opening_balance, lines)

    def to_csv(self, target: str | Path | IO[str] | None = None) -> str:
        """Write the trail as CSV (to a path or an open file) and return the text."""
        buf = io.StringIO()
        writer = csv.writer(buf, lineterminator="\n")
        writer.writerow(CSV_FIELDS)
        for line in self.lines:
            writer.writerow([
                line.round_id, line.bets_text, line.cards, line.result, line.staked,
                line.winnings, line.commission, line.returned, line.balance_before,
                line.balance_after,
            ])
        text = buf.getvalue()
        if isinstance(target, str | Path):
            Path(target).write_text(text, encoding="utf-8")
        elif target is not None:
            target.write(text)
        return text

    @classmethod
    def from_csv(cls, source: str | Path | IO[str], opening_balance: Decimal | int | str | None = None) -> Ledger:
        """Read a trail written by :meth:`to_csv` (a path, an open file, or the CSV text)."""
        if isinstance(source, Path) or (isinstance(source, str) and "\n" not in source):
            text = Path(source).read_text(encoding="utf-8")
        elif isinstance(source, str):
            text = source
        else:
            text = source.read()
        rows = list(csv.DictReader(io.StringIO(text)))
        lines = []
        for n, row in enumerate(rows, 2):
            missing = [f for f in CSV_FIELDS if f not in row]
            if missing:
                raise LedgerError("ledger.csv_missing", line=n, fields=", ".join(missing))
            try:
                bets = tuple(
                    Bet.of(*item.split("=", 1)) for item in row["bets"].split() if item
                )
                lines.append(LedgerLine(
                    row["round_id"], bets, row["cards"], row["result"],
                    *(_money(row[f], f, line=n) for f in CSV_FIELDS[4:]),
                ))
            except BaccaratError as err:
                if isinstance(err, LedgerError):
                    raise
                raise LedgerError("ledger.csv_bad_bets", line=n, value=row["bets"]) from err
        if opening_balance is None:
            opening = lines[0].balance_before if lines else Decimal(0)
        else:
            opening = _money(opening_balance, "opening_balance")
        return cls(opening, lines)


def _money(value: object, field: str, line: int | None = None) -> Decimal:
    from .settlement import _decimal

    try:
        return _decimal(value, "bet.bad_stake")
    except BaccaratError:
        raise LedgerError("ledger.bad_amount", field=field, value=repr(value),
                          line=line if line is not None else "-") from None
