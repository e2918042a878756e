"""Settlement: pay tables as data, one settle function, exact money.

Every amount is a :class:`~decimal.Decimal`; a float stake is refused (write
``"12.5"`` or ``Decimal("12.5")``). The pay tables are presets of one
:class:`PayTable`: ``"commission"`` (banker 1:1 less 5 % commission),
``"commission-tie-9"`` (the same with tie 9:1), and ``"no-commission"`` (banker 1:1
except a banker win on 6, which pays 1:2: Super 6).

>>> from baccarat_kit import play
>>> s = settle(play("2 3 3 4 4"), {"player": 100})      # BCR-001
>>> s.returned, s.net
(Decimal('200'), Decimal('100'))
>>> s = settle(play("2 A 3 2 8"), {"player": 100, "banker": 100, "tie": 10})  # BCR-002: a tie
>>> [(line.area, line.result, line.returned) for line in s.lines]
[('player', 'push', Decimal('100')), ('banker', 'push', Decimal('100')), ('tie', 'win', Decimal('90'))]
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from decimal import ROUND_DOWN, ROUND_HALF_EVEN, ROUND_HALF_UP, ROUND_UP, Decimal, InvalidOperation
from typing import TYPE_CHECKING, Literal

from .errors import BetError, PayTableError

if TYPE_CHECKING:
    from .coup import Coup

Result = Literal["win", "lose", "push", "void"]
AREAS = ("player", "banker", "tie", "player-pair", "banker-pair")
"""The bet areas, in table order."""

_AREA_ALIASES = {
    "player": "player", "p": "player", "punto": "player", "閒": "player", "閒家": "player",
    "banker": "banker", "b": "banker", "banco": "banker", "莊": "banker", "莊家": "banker",
    "tie": "tie", "t": "tie", "和": "tie", "和局": "tie",
    "player-pair": "player-pair", "player_pair": "player-pair", "playerpair": "player-pair",
    "pp": "player-pair", "閒對": "player-pair",
    "banker-pair": "banker-pair", "banker_pair": "banker-pair", "bankerpair": "banker-pair",
    "bp": "banker-pair", "莊對": "banker-pair",
}

_ROUNDING_MODES = {
    "half-up": ROUND_HALF_UP,
    "half-even": ROUND_HALF_EVEN,
    "down": ROUND_DOWN,
    "up": ROUND_UP,
}


@dataclass(frozen=True, slots=True)
class Rounding:
    """How commission is rounded: to a minimum unit (最小計價單位), with a rounding mode.

    The default is 0.01 rounded half-up (四捨五入). ``Rounding("1", "down")`` rounds a
    commission down to whole units, in the bettor's favour.
    """

    unit: Decimal = Decimal("0.01")
    mode: str = "half-up"

    def __init__(self, unit: Decimal | str | int = Decimal("0.01"), mode: str = "half-up") -> None:
        if mode not in _ROUNDING_MODES:
            raise PayTableError("pay.rounding_mode", value=mode, choices=", ".join(_ROUNDING_MODES))
        u = _decimal(unit, "pay.rounding_unit")
        if u <= 0:
            raise PayTableError("pay.rounding_unit", value=unit)
        object.__setattr__(self, "unit", u)
        object.__setattr__(self, "mode", mode)

    def apply(self, amount: Decimal) -> Decimal:
        return (amount / self.unit).quantize(Decimal(1), rounding=_ROUNDING_MODES[self.mode]) * self.unit


@dataclass(frozen=True, slots=True)
class PayTable:
    """What each bet area pays, as ``x`` in "x to 1"; variants are presets of this one class."""

    name: str
    player: Decimal = Decimal(1)
    banker: Decimal = Decimal(1)
    commission: Decimal = Decimal("0.05")
    """Share of a winning banker bet's winnings taken as commission (傭金)."""
    banker_six: Decimal | None = None
    """If set, a banker win with a final 6 pays this instead (no-commission "Super 6": 0.5)."""
    tie: Decimal = Decimal(8)
    pair: Decimal = Decimal(11)
    push_on_tie: bool = True
    """Player and banker stakes are returned when the coup is a tie."""

    def odds(self, area: str) -> Decimal:
        """The "to 1" odds of an area before commission."""
        area = bet_area(area)
        return {"player": self.player, "banker": self.banker, "tie": self.tie,
                "player-pair": self.pair, "banker-pair": self.pair}[area]

    def label(self, lang: str | None = None) -> str:
        """The table's name for readers: a preset's localized name, else ``name``.

        >>> PAY_TABLES["no-commission"].label("zh"), PayTable("house").label("en")
        ('免傭桌（Super 6）', 'house')
        """
        from .i18n import catalogue, message

        key = f"paytable.{self.name}"
        return message(key, lang) if key in catalogue() else self.name


PAY_TABLES: Mapping[str, PayTable] = {
    "commission": PayTable("commission"),
    "commission-tie-9": PayTable("commission-tie-9", tie=Decimal(9)),
    "no-commission": PayTable("no-commission", commission=Decimal(0), banker_six=Decimal("0.5")),
}
"""The presets by name."""


def pay_table(table: str | PayTable) -> PayTable:
    """A preset by name, or the table itself."""
    if isinstance(table, PayTable):
        return table
    key = str(table).strip().lower()
    if key in PAY_TABLES:
        return PAY_TABLES[key]
    raise PayTableError("pay.unknown_table", value=table, choices=", ".join(PAY_TABLES))


def bet_area(area: str) -> str:
    """The canonical name of a bet area (accepts 閒／莊／和／閒對／莊對 and short forms).

    >>> bet_area("閒"), bet_area("Banker"), bet_area("pp")
    ('player', 'banker', 'player-pair')
    """
    key = str(area).strip().lower()
    if key in _AREA_ALIASES:
        return _AREA_ALIASES[key]
    raise BetError("bet.unknown_area", value=area, choices=", ".join(AREAS))


def _decimal(value: object, key: str) -> Decimal:
    if isinstance(value, bool) or isinstance(value, float):
        raise BetError(key, value=repr(value))
    if isinstance(value, Decimal):
        d = value
    elif isinstance(value, int):
        d = Decimal(value)
    elif isinstance(value, str):
        try:
            d = Decimal(value.strip().replace(",", "").replace("_", ""))
        except InvalidOperation:
            raise BetError(key, value=repr(value)) from None
    else:
        raise BetError(key, value=repr(value))
    if not d.is_finite():
        raise BetError(key, value=repr(value))
    return d


def stake_amount(value: Decimal | int | str) -> Decimal:
    """A stake as a positive :class:`Decimal`; floats, NaN, zero and negatives are refused.

    >>> stake_amount("12.50"), stake_amount(100)
    (Decimal('12.50'), Decimal('100'))
    """
    if isinstance(value, float):
        raise BetError("bet.float_stake", value=repr(value))
    d = _decimal(value, "bet.bad_stake")
    if d <= 0:
        raise BetError("bet.non_positive_stake", value=value)
    return d


@dataclass(frozen=True, slots=True)
class Bet:
    """A stake on one bet area."""

    area: str
    stake: Decimal

    @classmethod
    def of(cls, area: str, stake: Decimal | int | str) -> Bet:
        return cls(bet_area(area), stake_amount(stake))


def parse_bets(
    bets: Mapping[str, Decimal | int | str] | Iterable[Bet | tuple[str, Decimal | int | str]],
) -> tuple[Bet, ...]:
    """Bets from ``{"player": 100}``, ``[("banker", "50")]`` or :class:`Bet` objects."""
    items: Iterable[object] = bets.items() if isinstance(bets, Mapping) else bets
    out: list[Bet] = []
    for item in items:
        if isinstance(item, Bet):
            out.append(Bet.of(item.area, item.stake))
        elif isinstance(item, tuple) and len(item) == 2:
            out.append(Bet.of(item[0], item[1]))
        else:
            raise BetError("bet.bad_item", value=repr(item))
    return tuple(out)


@dataclass(frozen=True, slots=True)
class SettlementLine:
    """One bet settled: ``winnings`` is the profit paid (after commission), ``returned`` is
    everything handed back (stake included)."""

    area: str
    stake: Decimal
    result: Result
    winnings: Decimal
    commission: Decimal
    returned: Decimal

    @property
    def net(self) -> Decimal:
        return self.returned - self.stake


@dataclass(frozen=True, slots=True)
class Settlement:
    """All bets of one coup settled under one pay table."""

    table: PayTable
    lines: tuple[SettlementLine, ...]
    void: bool = False
    rounding: Rounding = field(default_factory=Rounding)

    @property
    def staked(self) -> Decimal:
        return sum((line.stake for line in self.lines), Decimal(0))

    @property
    def returned(self) -> Decimal:
        return sum((line.returned for line in self.lines), Decimal(0))

    @property
    def winnings(self) -> Decimal:
        return sum((line.winnings for line in self.lines), Decimal(0))

    @property
    def commission(self) -> Decimal:
        return sum((line.commission for line in self.lines), Decimal(0))

    @property
    def net(self) -> Decimal:
        """Returned − staked."""
        return self.returned - self.staked

    def explain(self, lang: str | None = None) -> str:
        """One line a bet, then the totals."""
        from .i18n import message

        out = []
        for line in self.lines:
            out.append(message(
                f"settle.line-{line.result}", lang,
                area=message(f"area.{line.area}", lang), stake=line.stake,
                winnings=line.winnings, commission=line.commission, returned=line.returned,
            ))
        out.append(message("settle.total", lang, staked=self.staked, returned=self.returned,
                           net=self.net, table=self.table.label(lang)))
        return "\n".join(out)


def _wins(coup: Coup, area: str) -> bool | None:
    """True/False for win/lose, None for a push."""
    if area == "player-pair":
        return coup.player_pair
    if area == "banker-pair":
        return coup.banker_pair
    if area == "tie":
        return coup.winner == "tie"
    if coup.winner == "tie":
        return None
    return coup.winner == area


def settle(
    coup: Coup | None,
    bets: Mapping[str, Decimal | int | str] | Iterable[Bet | tuple[str, Decimal | int | str]],
    table: str | PayTable = "commission",
    *,
    rounding: Rounding | None = None,
    void: bool = False,
) -> Settlement:
    """Settle ``bets`` on ``coup`` under ``table``.

    ``void=True`` (作廢局) returns every stake whatever the cards; ``coup`` may then be None.

    >>> from baccarat_kit import play
    >>> line = settle(play("4 2 4 2 K"), {"banker": 100}).lines[0]   # player natural 8 beats 4
    >>> line.result
    'lose'
    >>> line = settle(play("2 4 4 5"), {"banker": 100}).lines[0]      # banker natural 9
    >>> line.winnings, line.commission, line.returned
    (Decimal('95.00'), Decimal('5.00'), Decimal('195.00'))
    """
    pt = pay_table(table)
    rnd = rounding or Rounding()
    parsed = parse_bets(bets)
    lines: list[SettlementLine] = []
    if void:
        for bet in parsed:
            lines.append(SettlementLine(bet.area, bet.stake, "void", Decimal(0), Decimal(0), bet.stake))
        return Settlement(pt, tuple(lines), True, rnd)
    if coup is None:
        raise BetError("bet.no_coup")
    for bet in parsed:
        outcome = _wins(coup, bet.area)
        if outcome is None:
            if pt.push_on_tie:
                lines.append(SettlementLine(bet.area, bet.stake, "push", Decimal(0), Decimal(0), bet.stake))
            else:
                lines.append(SettlementLine(bet.area, bet.stake, "lose", Decimal(0), Decimal(0), Decimal(0)))
            continue
        if not outcome:
            lines.append(SettlementLine(bet.area, bet.stake, "lose", Decimal(0), Decimal(0), Decimal(0)))
            continue
        odds = pt.odds(bet.area)
        commission = Decimal(0)
        if bet.area == "banker" and pt.banker_six is not None and coup.banker_total == 6:
            odds = pt.banker_six
        gross = bet.stake * odds
        if bet.area == "banker" and pt.commission:
            commission = rnd.apply(gross * pt.commission)
        winnings = gross - commission
        lines.append(SettlementLine(bet.area, bet.stake, "win", winnings, commission, bet.stake + winnings))
    return Settlement(pt, tuple(lines), False, rnd)


def with_changes(table: str | PayTable, **changes: object) -> PayTable:
    """A new pay table from a preset with some fields changed (e.g. ``tie=Decimal(9)``)."""
    return replace(pay_table(table), **changes)  # type: ignore[arg-type]
