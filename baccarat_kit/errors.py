"""One error family for every mistake a learner or instructor can make.

Every error is a :class:`BaccaratError` (a :class:`ValueError`). Its text is a
sentence from the message catalogue that shows the bad value and the valid
choices, in the current language; :meth:`BaccaratError.message` gives either.

>>> import baccarat_kit as bk
>>> try:
...     bk.parse_cards("11")
... except bk.BaccaratError as err:
...     print(err.message("en"))
'11' is not a card: use A, 2–10, J, Q, K (also T for 10; suit optional: ♠♥♦♣ or S H D C).
"""

from __future__ import annotations

from typing import Any

from .i18n import BaccaratError, LanguageError

__all__ = [
    "BaccaratError",
    "BetError",
    "CardError",
    "LanguageError",
    "LedgerError",
    "NotEnoughCards",
    "PayTableError",
    "RuleError",
    "ShoeError",
    "ShoeExhausted",
]


class CardError(BaccaratError):
    """Text or a value that is not a card, or a card list that is not usable."""


class RuleError(BaccaratError):
    """A question the drawing rules do not ask (a total out of range, a natural, …)."""


class NotEnoughCards(BaccaratError):
    """The cards given ran out before the rules finished the coup."""

    def __init__(self, key: str, /, **params: Any) -> None:
        super().__init__(key, **params)
        self.needed: int = int(params.get("needed", 1))


class ShoeError(BaccaratError):
    """A shoe that cannot be built or dealt as asked."""


class ShoeExhausted(ShoeError):
    """The shoe is finished (cut card reached) or has too few cards for another coup."""


class BetError(BaccaratError):
    """An unknown bet area, or a stake that is not a positive amount."""


class PayTableError(BaccaratError):
    """An unknown pay table or rounding rule."""


class LedgerError(BaccaratError):
    """A ledger line or file that cannot be read or recorded."""
