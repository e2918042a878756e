"""Cards: immutable, parseable, with their baccarat value.

A learner types cards the way the sources write them: ``"2 3 3 4"``, ``"A,K,10"``,
``"Q♥ 9S"``. :func:`parse_cards` accepts all of those and gives ``Card`` objects
whose ``repr`` parses back.

>>> parse_cards("A 10 k q♥ 9s")
(Card('A'), Card('10'), Card('K'), Card('Q♥'), Card('9♠'))
>>> [c.value for c in parse_cards("7 8 J")]
[7, 8, 0]
>>> Card("T") == Card("10")
True
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum

from .errors import CardError


class Rank(Enum):
    """The thirteen ranks; ``value`` is the baccarat value (10, J, Q, K count 0)."""

    ACE = "A"
    TWO = "2"
    THREE = "3"
    FOUR = "4"
    FIVE = "5"
    SIX = "6"
    SEVEN = "7"
    EIGHT = "8"
    NINE = "9"
    TEN = "10"
    JACK = "J"
    QUEEN = "Q"
    KING = "K"

    @property
    def value_points(self) -> int:
        """Baccarat value 0–9 of this rank."""
        return _RANK_VALUE[self]

    @property
    def pips(self) -> int:
        """Face value used by the burn procedure: A=1 … 9, and 10 for 10/J/Q/K."""
        points = _RANK_VALUE[self]
        return points if points else 10


_RANK_VALUE: dict[Rank, int] = {
    Rank.ACE: 1,
    Rank.TWO: 2,
    Rank.THREE: 3,
    Rank.FOUR: 4,
    Rank.FIVE: 5,
    Rank.SIX: 6,
    Rank.SEVEN: 7,
    Rank.EIGHT: 8,
    Rank.NINE: 9,
    Rank.TEN: 0,
    Rank.JACK: 0,
    Rank.QUEEN: 0,
    Rank.KING: 0,
}


class Suit(Enum):
    """The four suits. Suits never change a value; they only decorate a card."""

    SPADES = "♠"
    HEARTS = "♥"
    DIAMONDS = "♦"
    CLUBS = "♣"

    @property
    def is_red(self) -> bool:
        return self in (Suit.HEARTS, Suit.DIAMONDS)


_RANK_ALIASES: dict[str, Rank] = {r.value: r for r in Rank}
_RANK_ALIASES["T"] = Rank.TEN
_SUIT_ALIASES: dict[str, Suit] = {s.value: s for s in Suit}
_SUIT_ALIASES.update(
    {"S": Suit.SPADES, "H": Suit.HEARTS, "D": Suit.DIAMONDS, "C": Suit.CLUBS,
     "♤": Suit.SPADES, "♡": Suit.HEARTS, "♢": Suit.DIAMONDS, "♧": Suit.CLUBS}
)
_TOKEN = re.compile(r"^(10|[2-9AJQKT])([♠♥♦♣♤♡♢♧SHDC])?$")
_SEPARATORS = re.compile(r"[\s,，、;；]+")

@dataclass(frozen=True, slots=True, init=False)
class Card:
    """One card: a :class:`Rank` and an optional :class:`Suit`.

    >>> Card("K").value, Card("K").rank
    (0, <Rank.KING: 'K'>)
    >>> Card("9", "H")
    Card('9♥')
    """

    rank: Rank
    suit: Suit | None

    def __init__(self, rank: Rank | str, suit: Suit | str | None = None) -> None:
        suit_: Suit | None
        if isinstance(rank, Rank):
            rank_, suit_ = rank, None
        elif isinstance(rank, str):
            parsed = _parse_token(rank.strip().upper())
            if parsed is None:
                raise CardError("card.invalid", value=rank)
            rank_, suit_ = parsed.rank, parsed.suit
        else:
            raise CardError("card.invalid", value=repr(rank))
        if isinstance(suit, Suit):
            suit_ = suit
        elif suit is not None:
            key = str(suit).strip().upper()
            if key not in _SUIT_ALIASES:
                raise CardError("card.invalid_suit", value=suit)
            suit_ = _SUIT_ALIASES[key]
        object.__setattr__(self, "rank", rank_)
        object.__setattr__(self, "suit", suit_)

    @property
    def value(self) -> int:
        """Baccarat value 0–9: A is 1, 2–9 their face, 10/J/Q/K are 0."""
        return _RANK_VALUE[self.rank]

    @property
    def label(self) -> str:
        """Rank and suit as printed: ``'10♥'``, ``'K'``."""
        return self.rank.value + (self.suit.value if self.suit else "")

    def __str__(self) -> str:
        return self.label

    def __repr__(self) -> str:
        return f"Card({self.label!r})"


def _parse_token(token: str) -> Card | None:
    m = _TOKEN.match(token)
    if not m:
        return None
    card = object.__new__(Card)
    object.__setattr__(card, "rank", _RANK_ALIASES[m.group(1)])
    object.__setattr__(card, "suit", _SUIT_ALIASES[m.group(2)] if m.group(2) else None)
    return card


def parse_card(item: Card | str | int) -> Card:
    """One card from a ``Card``, a string such as ``"Q♥"``/``"10s"``, or a rank number 2–9.

    >>> parse_card("q♥"), parse_card(7)
    (Card('Q♥'), Card('7'))
    """
    if isinstance(item, Card):
        return item
    if isinstance(item, bool):
        raise CardError("card.invalid", value=item)
    if isinstance(item, int):
        if 2 <= item <= 10:
            return Card(str(item))
        raise CardError("card.invalid", value=item)
    if isinstance(item, str):
        parsed = _parse_token(item.strip().upper())
        if parsed is None:
            raise CardError("card.invalid", value=item.strip() or item)
        return parsed
    raise CardError("card.invalid", value=repr(item))


def parse_cards(cards: str | Iterable[Card | str | int]) -> tuple[Card, ...]:
    """Cards from text (``"2 3 3 4"``, ``"A,K,10"``, ``"Q♥ 9S"``) or an iterable of cards.

    >>> parse_cards("2、3，3 4")
    (Card('2'), Card('3'), Card('3'), Card('4'))
    >>> parse_cards(["A", "K"])
    (Card('A'), Card('K'))
    """
    if isinstance(cards, str):
        tokens = [t for t in _SEPARATORS.split(cards.strip()) if t]
        return tuple(parse_card(t) for t in tokens)
    if isinstance(cards, Card):
        return (cards,)
    try:
        items = list(cards)
    except TypeError:
        raise CardError("card.invalid", value=repr(cards)) from None
    return tuple(parse_card(c) for c in items)


def format_cards(cards: Iterable[Card]) -> str:
    """Cards as the text :func:`parse_cards` reads back.

    >>> format_cards(parse_cards("2 3 K"))
    '2 3 K'
    """
    return " ".join(c.label for c in cards)


def full_deck() -> tuple[Card, ...]:
    """One 52-card deck in a fixed order (suits × ranks)."""
    return tuple(Card(r, s) for s in Suit for r in Rank)
