"""A shoe of several decks: reproducible shuffle, burn, cut card, round numbers.

>>> shoe = Shoe(decks=8, seed=7)
>>> shoe.burned[0].rank.pips == len(shoe.burned) - 1     # the turned card, then as many as its value
True
>>> rnd = shoe.deal()
>>> rnd.number, rnd.coup.winner in ("player", "banker", "tie")
(1, True)
>>> fixed = Shoe.from_cards("2 3 3 4 4  4 4 4 5")
>>> [r.coup.winner for r in fixed.rounds()]
['player', 'banker']
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from .cards import Card, full_deck, parse_cards
from .coup import Coup, play
from .errors import NotEnoughCards, ShoeError, ShoeExhausted

MAX_COUP_CARDS = 6
DEFAULT_CUT_CARD = 14
"""Default position of the cut card, counted in cards from the end of the shoe."""


@dataclass(frozen=True, slots=True)
class Round:
    """One coup dealt from a shoe, with its round number (局號) in the shoe."""

    number: int
    coup: Coup
    last: bool = False
    """True for the coup dealt after the cut card came out: the shoe ends with it."""

    @property
    def round_id(self) -> str:
        return f"R{self.number:03d}"


class Shoe:
    """Cards dealt coup by coup.

    ``Shoe(decks=8, seed=…)`` shuffles ``decks`` full decks with :class:`random.Random`
    (same seed, same order), then burns: the first card is turned and as many cards as
    its value are burned (10, J, Q, K burn 10). The cut card stands ``cut_card`` cards
    from the end (``None``: no cut card); when a coup reaches it, one more coup is dealt
    and the shoe is finished.
    """

    def __init__(
        self,
        decks: int = 8,
        seed: int | None = None,
        *,
        cut_card: int | None = DEFAULT_CUT_CARD,
        burn: bool = True,
    ) -> None:
        if isinstance(decks, bool) or not isinstance(decks, int) or not 1 <= decks <= 16:
            raise ShoeError("shoe.decks", value=decks)
        cards = list(full_deck()) * decks
        random.Random(seed).shuffle(cards)
        self._setup(cards, cut_card, burn)
        self.decks = decks
        self.seed = seed

    @classmethod
    def from_cards(
        cls, cards: str | Iterable[Card | str | int], *, burn: bool = False, cut_card: int | None = None
    ) -> Shoe:
        """A shoe holding exactly ``cards`` in this order (for fixed teaching sequences)."""
        shoe = cls.__new__(cls)
        shoe._setup(list(parse_cards(cards)), cut_card, burn)
        shoe.decks = 0
        shoe.seed = None
        return shoe

    def _setup(self, cards: list[Card], cut_card: int | None, burn: bool) -> None:
        if cut_card is not None and (
            isinstance(cut_card, bool) or not isinstance(cut_card, int) or not 0 <= cut_card < len(cards)
        ):
            raise ShoeError("shoe.cut_card", value=cut_card, size=len(cards))
        self._cards: tuple[Card, ...] = tuple(cards)
        self._pos = 0
        self.burned: tuple[Card, ...] = ()
        if burn and cards:
            first = cards[0]
            n = min(1 + first.rank.pips, len(cards))
            self.burned = tuple(cards[:n])
            self._pos = n
        self.cut_position: int | None = None if cut_card is None else len(cards) - cut_card
        self._round = 0
        self._cut_seen = False
        self._finished = False

    def __len__(self) -> int:
        """Cards left to deal."""
        return len(self._cards) - self._pos

    @property
    def cards_left(self) -> tuple[Card, ...]:
        return self._cards[self._pos:]

    @property
    def remaining(self) -> dict[int, int]:
        """How many cards of each value 0–9 are left to deal."""
        counts = dict.fromkeys(range(10), 0)
        for c in self._cards[self._pos:]:
            counts[c.value] += 1
        return counts

    @property
    def round_number(self) -> int:
        """Number of coups dealt so far."""
        return self._round

    @property
    def finished(self) -> bool:
        return self._finished

    def deal(self) -> Round:
        """Deal the next coup; :class:`ShoeExhausted` when the shoe is finished."""
        if self._finished:
            raise ShoeExhausted("shoe.finished", rounds=self._round)
        window = self._cards[self._pos:self._pos + MAX_COUP_CARDS]
        try:
            coup = play(window)
        except NotEnoughCards:
            self._finished = True
            raise ShoeExhausted("shoe.too_few", left=len(self), rounds=self._round) from None
        used = len(window) - len(coup.unused)
        self._pos += used
        self._round += 1
        last = self._cut_seen
        if self.cut_position is not None and not self._cut_seen and self._pos > self.cut_position:
            self._cut_seen = True
        if last:
            self._finished = True
        return Round(self._round, coup, last)

    def rounds(self) -> Iterator[Round]:
        """Deal every coup until the shoe is finished."""
        while not self._finished:
            try:
                yield self.deal()
            except ShoeExhausted:
                return

    def __repr__(self) -> str:
        kind = f"decks={self.decks}, seed={self.seed}" if self.decks else "from_cards"
        return f"<Shoe {kind}: {len(self)} cards left, {self._round} rounds dealt>"
