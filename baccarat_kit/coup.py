"""Play one coup from cards in deal order, with every decision and its reason.

Deal order is the sources' order: player 1, banker 1, player 2, banker 2, then the
player's third card (if the rules draw one), then the banker's.

>>> coup = play("2 3 3 4 4")          # BCR-001: 閒2、莊3、閒3、莊4, then 4
>>> coup.player_total, coup.banker_total, coup.winner
(9, 7, 'player')
>>> [s.rule for s in coup.steps]
['player-0-5', 'banker-7-vs-4']
>>> print(coup.explain("en"))
1. First two cards: player 2 + 3 = 5, banker 3 + 4 = 7; no natural.
2. Player 5 (0–5 draws): draws 4 (value 4), player total 9.
3. Banker 7 with the player's third card worth 4: stands (a banker 7 always stands).
Result: player 9, banker 7: player wins.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Literal

from .cards import Card, format_cards, parse_cards
from .errors import NotEnoughCards
from .i18n import message
from .rules import (
    BANKER_DRAWS_ON,
    NATURALS,
    banker_draws,
    banker_rule,
    format_values,
    player_draws,
    player_rule,
)


def banker_why(total: int, lang: str | None = None) -> str:
    """Why a banker on ``total`` draws or stands after a player third card, in words read from
    the engine's table ``BANKER_DRAWS_ON`` (the one sentence the trace, the widgets, the case
    checks and the cheat-sheet all use).

    >>> banker_why(3, "en") == message("why.banker-except", "en", total=3, value=8)
    True
    >>> banker_why(7, "en") == message("why.banker-never", "en", total=7)
    True
    """
    values = BANKER_DRAWS_ON[total]
    if len(values) == 10:
        return message("why.banker-always", lang, total=total)
    if not values:
        return message("why.banker-never", lang, total=total)
    if len(values) == 9:
        (missing,) = set(range(10)) - values
        return message("why.banker-except", lang, total=total, value=missing)
    return message("why.banker-some", lang, total=total, values=format_values(values))


Who = Literal["player", "banker", "both"]
Action = Literal["draw", "stand"]
Winner = Literal["player", "banker", "tie"]


@dataclass(frozen=True, slots=True)
class Step:
    """One decision of a coup, with the rule that made it and the totals around it.

    ``rule`` is a stable id: ``natural-player``, ``natural-banker``, ``natural-both``,
    ``player-0-5``, ``player-6-7``, ``banker-{t}-player-stood`` or ``banker-{t}-vs-{v}``.
    """

    who: Who
    action: Action
    rule: str
    player_total_before: int
    banker_total_before: int
    player_total_after: int
    banker_total_after: int
    card: Card | None = None
    player_third: int | None = None

    def explain(self, lang: str | None = None) -> str:
        """This decision and its reason as one sentence."""
        if self.rule.startswith("natural-"):
            return message(
                f"step.{self.rule}", lang,
                player=self.player_total_before, banker=self.banker_total_before,
            )
        if self.who == "player":
            key = "step.player-draw" if self.action == "draw" else "step.player-stand"
            return message(
                key, lang, total=self.player_total_before, after=self.player_total_after,
                card=self.card.label if self.card else "", value=self.card.value if self.card else "",
            )
        total = self.banker_total_before
        drew = self.action == "draw"
        if self.player_third is None:
            key = "step.banker-stood-draw" if drew else "step.banker-stood-stand"
            why = ""
        else:
            why = banker_why(total, lang)
            key = "step.banker-draw" if drew else "step.banker-stand"
        return message(
            key, lang, total=total, third=self.player_third, why=why,
            after=self.banker_total_after,
            card=self.card.label if self.card else "", value=self.card.value if self.card else "",
        )


@dataclass(frozen=True, slots=True)
class Coup:
    """A finished coup: both hands, totals, winner, the decisions, and the cards not used."""

    player_cards: tuple[Card, ...]
    banker_cards: tuple[Card, ...]
    player_total: int
    banker_total: int
    winner: Winner
    natural: bool
    steps: tuple[Step, ...]
    unused: tuple[Card, ...] = field(default=())

    @property
    def cards(self) -> tuple[Card, ...]:
        """The cards dealt, in deal order."""
        p, b = self.player_cards, self.banker_cards
        out = [p[0], b[0], p[1], b[1]]
        out += p[2:] + b[2:]
        return tuple(out)

    @property
    def player_third(self) -> Card | None:
        return self.player_cards[2] if len(self.player_cards) == 3 else None

    @property
    def banker_third(self) -> Card | None:
        return self.banker_cards[2] if len(self.banker_cards) == 3 else None

    @property
    def player_pair(self) -> bool:
        """The player's first two cards have the same rank (the 閒對 side bet)."""
        return self.player_cards[0].rank == self.player_cards[1].rank

    @property
    def banker_pair(self) -> bool:
        """The banker's first two cards have the same rank (the 莊對 side bet)."""
        return self.banker_cards[0].rank == self.banker_cards[1].rank

    def explain(self, lang: str | None = None) -> str:
        """The whole coup, decision by decision, in Traditional Chinese (default) or English."""
        lines = []
        p, b = self.player_cards, self.banker_cards
        p2 = sum(c.value for c in p[:2]) % 10
        b2 = sum(c.value for c in b[:2]) % 10
        key = "coup.opening-natural" if self.natural else "coup.opening"
        lines.append(message(
            key, lang, p1=p[0].label, p2=p[1].label, pt=p2, b1=b[0].label, b2=b[1].label, bt=b2,
        ))
        lines.extend(s.explain(lang) for s in self.steps)
        numbered = [f"{i}. {line}" for i, line in enumerate(lines, 1)]
        numbered.append(message(
            f"coup.result-{self.winner}", lang, player=self.player_total, banker=self.banker_total,
        ))
        if self.unused:
            numbered.append(message("coup.unused", lang, cards=format_cards(self.unused)))
        return "\n".join(numbered)

    def __str__(self) -> str:
        return self.explain()


def _total(cards: Iterable[Card]) -> int:
    return sum(c.value for c in cards) % 10


def _standard_banker(total: int, player_third: int | None, player_total: int) -> bool:
    return banker_draws(total, player_third)


@dataclass(frozen=True)
class Rules:
    """The decisions :func:`play` asks, standard by default.

    :mod:`baccarat_kit.misconceptions` plays a *mistaken* rule through the same machinery by
    replacing one of them (the banker reading the player's final total, a three-card 8 taken
    for a natural, a K counted as 10 …): the grader then knows what answer that mistake gives.
    ``play(cards)`` without ``rules`` never looks at this class.

    >>> never = Rules("banker-never-draws", banker_draws=lambda t, v, p: False)
    >>> play("2 3 3 4 4", rules=never).banker_total, play("2 3 3 4 4").banker_total
    (7, 7)
    >>> play("3 2 2 2 5 9", rules=never).banker_total, play("3 2 2 2 5 9").banker_total
    (4, 3)
    """

    name: str = "standard"
    value: Callable[[Card], int] = lambda card: card.value
    """A card's value (standard: :attr:`Card.value`, 10/J/Q/K count 0)."""
    total: Callable[[list[int]], int] = lambda values: sum(values) % 10
    """A hand's total from its card values (standard: the ones digit)."""
    naturals_stop: bool = True
    """A natural on the first two cards ends the drawing."""
    player_draws: Callable[[int], bool] = player_draws
    banker_draws: Callable[[int, int | None, int], bool] = _standard_banker
    """``(banker total, player's third-card value or None, player's total after drawing)``."""
    two_naturals_tie: bool = False
    """Two naturals make a tie whatever their totals (a mistake only)."""

    def hand_total(self, cards: str | Iterable[Card | str | int]) -> int:
        return self.total([self.value(c) for c in parse_cards(cards)])


STANDARD = Rules()


def play(cards: str | Iterable[Card | str | int], *, rules: Rules | None = None) -> Coup:
    """Deal one coup from ``cards`` in deal order (P1 B1 P2 B2, then the third cards).

    Cards the rules do not use are returned in :attr:`Coup.unused`. If the cards run
    out before the rules are done, :class:`~baccarat_kit.errors.NotEnoughCards` says
    how many more were needed. ``rules`` (a :class:`Rules`) is for playing a mistaken
    rule; the standard rules are used without it.

    >>> play("4 4 4 5 7").unused          # BCR-008: both naturals, the 7 is not dealt
    (Card('7'),)
    """
    deck = parse_cards(cards)
    if rules is not None and rules != STANDARD:
        return _play_with(deck, rules)
    if len(deck) < 4:
        raise NotEnoughCards("coup.not-enough-start", needed=4 - len(deck), given=len(deck))
    player = [deck[0], deck[2]]
    banker = [deck[1], deck[3]]
    pos = 4
    pt, bt = _total(player), _total(banker)
    steps: list[Step] = []
    natural = pt in NATURALS or bt in NATURALS
    if natural:
        who = "natural-both" if (pt in NATURALS and bt in NATURALS) else (
            "natural-player" if pt in NATURALS else "natural-banker")
        steps.append(Step("both", "stand", who, pt, bt, pt, bt))
    else:
        third_value: int | None = None
        if player_draws(pt):
            if pos >= len(deck):
                raise NotEnoughCards("coup.not-enough-player", needed=1, given=len(deck))
            card = deck[pos]
            pos += 1
            player.append(card)
            third_value = card.value
            new_pt = _total(player)
            steps.append(Step("player", "draw", player_rule(pt), pt, bt, new_pt, bt, card))
        else:
            new_pt = pt
            steps.append(Step("player", "stand", player_rule(pt), pt, bt, pt, bt))
        rule = banker_rule(bt, third_value)
        if banker_draws(bt, third_value):
            if pos >= len(deck):
                raise NotEnoughCards("coup.not-enough-banker", needed=1, given=len(deck))
            card = deck[pos]
            pos += 1
            banker.append(card)
            new_bt = _total(banker)
            steps.append(Step("banker", "draw", rule, new_pt, bt, new_pt, new_bt, card, third_value))
        else:
            steps.append(Step("banker", "stand", rule, new_pt, bt, new_pt, bt, None, third_value))
        pt = new_pt
        bt = _total(banker)
    winner: Winner = "player" if pt > bt else "banker" if bt > pt else "tie"
    return Coup(tuple(player), tuple(banker), pt, bt, winner, natural, tuple(steps), deck[pos:])


def _play_with(deck: tuple[Card, ...], rules: Rules) -> Coup:
    """:func:`play` under other (mistaken) rules: same deal order, same steps, the decisions
    and values asked of ``rules``. Rule ids outside the standard table read ``mistaken``."""
    if len(deck) < 4:
        raise NotEnoughCards("coup.not-enough-start", needed=4 - len(deck), given=len(deck))
    player = [deck[0], deck[2]]
    banker = [deck[1], deck[3]]
    pos = 4

    def total(hand: list[Card]) -> int:
        return rules.total([rules.value(c) for c in hand])

    pt, bt = total(player), total(banker)
    steps: list[Step] = []
    natural = pt in NATURALS or bt in NATURALS
    both_naturals = pt in NATURALS and bt in NATURALS
    if natural and rules.naturals_stop:
        steps.append(Step("both", "stand", "mistaken", pt, bt, pt, bt))
    else:
        third_value: int | None = None
        new_pt = pt
        if pt <= 7 and rules.player_draws(pt):
            if pos >= len(deck):
                raise NotEnoughCards("coup.not-enough-player", needed=1, given=len(deck))
            card = deck[pos]
            pos += 1
            player.append(card)
            third_value = rules.value(card)
            new_pt = total(player)
            steps.append(Step("player", "draw", "mistaken", pt, bt, new_pt, bt, card))
        if bt <= 7 and rules.banker_draws(bt, third_value, new_pt):
            if pos >= len(deck):
                raise NotEnoughCards("coup.not-enough-banker", needed=1, given=len(deck))
            card = deck[pos]
            pos += 1
            banker.append(card)
            steps.append(Step("banker", "draw", "mistaken", new_pt, bt, new_pt, total(banker), card, third_value))
        pt = new_pt
        bt = total(banker)
    winner: Winner = "player" if pt > bt else "banker" if bt > pt else "tie"
    if both_naturals and rules.two_naturals_tie:
        winner = "tie"
    return Coup(tuple(player), tuple(banker), pt, bt, winner, natural, tuple(steps), deck[pos:])
