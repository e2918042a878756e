"""Answer keys: every expected answer is computed here, by the engine, on demand.

Nothing in this module restates the rule table: a key calls :func:`baccarat_kit.play`,
:func:`~baccarat_kit.banker_draws`, :func:`~baccarat_kit.settle` and friends. Exercise
notebooks name a key in their question metadata (``{"fn": "banker_draws", "args": [3, 8]}``);
the grader evaluates it in its own process, never in the learner's kernel.

Per-learner hands come from a seed derived from the exercise and the learner id
(:func:`learner_seed`), dealt from a :class:`baccarat_kit.Shoe`; the grader regenerates them.
In a class released from a term secret the "learner id" every key receives is her term token
(``"term:" + HMAC-SHA256(secret, "exercise:learner")``, :mod:`..term.secret`), which no code
can compute without the secret; a copy released without one is keyed by the public id.

>>> expected({"fn": "banker_draws", "args": [3, 8]}, "x") == __import__("baccarat_kit").banker_draws(3, 8)
True
>>> learner_seed("04-whole-coups", "s123") == learner_seed("04-whole-coups", "s123")
True
>>> len(domain("banker")), len(domain("player")), len(domain("values"))
(88, 8, 1100)
"""

from __future__ import annotations

import contextvars
import functools
import hashlib
import itertools
import random
import threading
from collections.abc import Callable
from decimal import Decimal
from typing import Any

from ...errors import BaccaratError

HANDS_PER_LEARNER = 5
LEDGER_ROUNDS = 6
EXAMPLE_SEED = 2024
"""Seed of the shoe from which fixed (not per-learner) example coups are taken."""


_MISTAKE: contextvars.ContextVar[Any] = contextvars.ContextVar("baccarat_kit_mistake", default=None)
"""The mistaken rule (:class:`baccarat_kit.misconceptions.MistakenRule`) a key is evaluated
under, if any (per thread: grading threads do not see each other's)."""


def _play(cards: str) -> Any:
    import baccarat_kit as bk

    mistake = _MISTAKE.get()
    return bk.play(cards, rules=mistake.rules if mistake is not None else None)


def _table(table: str) -> Any:
    mistake = _MISTAKE.get()
    return mistake.pay_table(table) if mistake is not None else table


def _hand_total(cards: Any) -> int:
    import baccarat_kit as bk

    mistake = _MISTAKE.get()
    if mistake is not None and mistake.rules is not None:
        return int(mistake.rules.hand_total(cards))
    return bk.hand_total(cards)


def _card_value(label: str) -> int:
    import baccarat_kit as bk

    mistake = _MISTAKE.get()
    card = bk.parse_card(label)
    return int(mistake.rules.value(card)) if mistake is not None and mistake.rules is not None else card.value


class AuthoringError(BaccaratError):
    """A question names a key or a domain the grader does not know (an authoring mistake)."""


def learner_seed(exercise: str, learner_id: str) -> int:
    """A 64-bit seed from the exercise id and the learner id (sha256; stable across runs)."""
    digest = hashlib.sha256(f"baccarat-kit:{exercise}:{learner_id.strip()}".encode()).hexdigest()
    return int(digest[:16], 16)


def _values_to_cards(values: list[int]) -> list[str]:
    # A value 0–9 as a card the engine parses: 0 is a 10, 1 an ace.
    return ["10" if v == 0 else "A" if v == 1 else str(v) for v in values]


# ---------------------------------------------------------------- domains of function questions
def domain(name: str) -> list[list[Any]]:
    """Every input (an argument list) a function question is graded on."""
    if name == "player":
        return [[t] for t in range(8)]
    if name == "banker":
        return [[t, v] for t in range(8) for v in (None, *range(10))]
    if name == "values":
        return [[list(c)] for n in (2, 3) for c in itertools.product(range(10), repeat=n)]
    raise AuthoringError("grading.unknown_domain", value=name, choices="player, banker, values")


# ---------------------------------------------------------------- per-learner hands
def variant_hands(exercise: str, learner_id: str, n: int = HANDS_PER_LEARNER) -> list[str]:
    """``n`` hands for this learner: each the next six cards of a seeded shoe, in deal order.

    The rules decide how many of the six are dealt; the next hand starts after the cards
    actually used.
    """
    return list(_variant_hands(exercise, learner_id.strip(), n))


@functools.lru_cache(maxsize=256)
def _variant_hands(exercise: str, learner_id: str, n: int) -> tuple[str, ...]:
    # Cached: each question of the exercise asks for the same hands (a field of each).
    import baccarat_kit as bk

    shoe = bk.Shoe(decks=8, seed=learner_seed(exercise, learner_id), cut_card=None)
    hands = []
    for _ in range(n):
        window = shoe.cards_left[:6]
        hands.append(bk.format_cards(window))
        shoe.deal()
    return tuple(hands)


COUP_CONDITIONS: dict[str, Callable[[Any], bool]] = {
    "banker-win": lambda c: c.winner == "banker",
    "banker-six": lambda c: c.winner == "banker" and c.banker_total == 6,
    "tie": lambda c: c.winner == "tie",
    "player-win": lambda c: c.winner == "player",
}
"""The conditions :func:`example_hand` and the settlement exercise look for a coup by."""


class _DealtShoe:
    """The coups of one seeded 8-deck shoe, dealt once, as far as any condition has asked: the
    conditions of one learner look through the same shoe (grading threads share it, one at a
    time)."""

    def __init__(self, seed: int) -> None:
        import baccarat_kit as bk

        self._rounds = bk.Shoe(decks=8, seed=seed, cut_card=None).rounds()
        self._coups: list[Any] = []
        self._lock = threading.Lock()

    def first(self, test: Callable[[Any], bool]) -> Any:
        """The first coup of the shoe that passes ``test`` (None: the whole shoe has none)."""
        i = 0
        while True:
            with self._lock:
                if i == len(self._coups):
                    nxt = next(self._rounds, None)
                    if nxt is None:
                        return None
                    self._coups.append(nxt.coup)
                coup = self._coups[i]
            if test(coup):
                return coup
            i += 1


@functools.lru_cache(maxsize=64)
def _dealt_shoe(seed: int) -> _DealtShoe:
    return _DealtShoe(seed)


def _find_coup(rng_seed: int, condition: str) -> Any:
    test = COUP_CONDITIONS.get(condition)
    if test is None:
        raise AuthoringError("grading.unknown_key", value=condition, choices=", ".join(COUP_CONDITIONS))
    for attempt in range(SHOE_ATTEMPTS):
        coup = _dealt_shoe(_retry_seed(rng_seed, attempt)).first(test)
        if coup is not None:
            return coup
    raise AssertionError(f"{SHOE_ATTEMPTS} full 8-deck shoes without a {condition} coup")  # pragma: no cover


SHOE_ATTEMPTS = 64
"""Shoes tried, one after another, for a coup that meets a condition (issue 20, attack 15: about
1 % of seeds deal a whole 8-deck shoe without a banker win on 6). A shoe holds ~80 coups, so
64 shoes without one is, for any condition here, less likely than a hardware fault."""


def _retry_seed(seed: int, attempt: int) -> int:
    """The shoe seed of ``attempt``: the seed itself first (so every learner whose first shoe had
    the coup keeps her questions), then a fixed sha256 chain: deterministic, the same for the
    learner's kernel and the grader."""
    if attempt == 0:
        return seed
    return int(hashlib.sha256(f"baccarat-kit:retry:{seed}:{attempt}".encode()).hexdigest()[:16], 16)


def example_hand(condition: str, seed: int = EXAMPLE_SEED) -> str:
    """The cards of the first coup of a seeded shoe that meets ``condition``.

    ``condition``: ``banker-win``, ``banker-six``, ``tie`` or ``player-win``. Used for
    questions that need "a hand where the banker wins on 6" without inventing cards.
    """
    import baccarat_kit as bk

    return bk.format_cards(_find_coup(seed, condition).cards)


def _stake(rng: random.Random) -> int:
    return rng.randrange(2, 60) * 10 + rng.choice((0, 0, 5))


def settlement_variant(learner_id: str, exercise: str = "05-settlement") -> dict[str, Any]:
    """The hands, stakes and ledger of the settlement exercise for one learner.

    Returns plain data (cards as text, stakes as int, the ledger as a
    :class:`baccarat_kit.Ledger` with one wrongly paid line).
    """
    return dict(_settlement_variant(learner_id.strip(), exercise))


@functools.lru_cache(maxsize=256)
def _settlement_variant(learner_id: str, exercise: str) -> dict[str, Any]:
    # Cached: each of exercise 05's five keys asks for it (the caller gets a copy of the dict;
    # the ledger is immutable).
    import baccarat_kit as bk

    seed = learner_seed(exercise, learner_id)
    rng = random.Random(seed)
    data: dict[str, Any] = {
        "commission_hand": bk.format_cards(_find_coup(seed, "banker-win").cards),
        "commission_stake": _stake(rng),
        "super6_hand": bk.format_cards(_find_coup(seed, "banker-six").cards),
        "super6_stake": _stake(rng),
        "tie_hand": bk.format_cards(_find_coup(seed, "tie").cards),
        "tie_player_stake": _stake(rng),
        "tie_tie_stake": rng.randrange(1, 11) * 10,
    }
    data["ledger"] = _ledger_with_one_wrong_line(seed, rng)
    return data


def _ledger_with_one_wrong_line(seed: int, rng: random.Random) -> Any:
    """A ledger of :data:`LEDGER_ROUNDS` rounds; one banker win is paid without commission.

    Every balance still follows (``reconcile()`` finds nothing): only settling each line
    again with the engine shows the wrong one.
    """
    from dataclasses import replace

    import baccarat_kit as bk

    wrong = rng.randrange(LEDGER_ROUNDS)
    shoe = bk.Shoe(decks=8, seed=seed ^ 0x5EED, cut_card=None)
    ledger = bk.Ledger(opening_balance=rng.randrange(10, 50) * 100)
    for i in range(LEDGER_ROUNDS):
        coup = shoe.deal().coup
        if i == wrong:
            while coup.winner != "banker":
                coup = shoe.deal().coup
            bets: dict[str, int] = {"banker": _stake(rng)}
        else:
            area = rng.choice(("player", "banker", "tie", "player", "banker"))
            bets = {area: _stake(rng)}
            if rng.random() < 0.3:
                other = "banker" if area == "player" else "player"
                bets[other] = _stake(rng)
        ledger.record(f"R{i + 1:03d}", bets, coup)
    # Pay the wrong line's banker win at 1:1 without commission, and carry the difference.
    line = ledger.lines[wrong]
    extra = line.commission
    lines = list(ledger.lines)
    lines[wrong] = replace(line, winnings=line.winnings + extra, commission=Decimal(0),
                           returned=line.returned + extra, balance_after=line.balance_after + extra)
    for j in range(wrong + 1, len(lines)):
        lines[j] = replace(lines[j], balance_before=lines[j].balance_before + extra,
                           balance_after=lines[j].balance_after + extra)
    return bk.Ledger(ledger.opening_balance, lines)


def first_wrong_line(ledger: Any) -> int:
    """The 1-based number of the first ledger line whose payout the engine does not confirm."""
    import baccarat_kit as bk
    from baccarat_kit.settlement import parse_bets

    for n, line in enumerate(ledger, 1):
        settled = bk.settle(bk.play(line.cards), parse_bets(line.bets))
        if (settled.returned, settled.commission) != (line.returned, line.commission):
            return n
    return 0


# ---------------------------------------------------------------- keys
COUP_FIELDS = ("player_total", "banker_total", "winner", "natural", "player_cards", "banker_cards",
               "cards_used", "player_drew", "banker_drew")
SETTLE_FIELDS = ("returned", "winnings", "commission", "net")
SETTLEMENT_NAMES = ("commission_winnings", "commission_commission", "super6_returned", "tie_returned",
                    "wrong_line")


def _coup_field(cards: str, field: str) -> Any:
    coup = _play(cards)
    if field == "player_cards":
        return len(coup.player_cards)
    if field == "banker_cards":
        return len(coup.banker_cards)
    if field == "cards_used":
        return len(coup.cards)
    if field == "player_drew":
        return coup.player_third is not None
    if field == "banker_drew":
        return coup.banker_third is not None
    if field in ("player_total", "banker_total", "winner", "natural"):
        return getattr(coup, field)
    raise AuthoringError("grading.unknown_key", value=field,
                    choices="player_total, banker_total, winner, natural, player_cards, "
                            "banker_cards, cards_used, player_drew, banker_drew")


def _settle_field(cards: str, bets: dict[str, Any], table: str, field: str) -> Decimal:
    import baccarat_kit as bk

    s = bk.settle(_play(cards), bets, _table(table))
    if field not in ("returned", "winnings", "commission", "net"):
        raise AuthoringError("grading.unknown_key", value=field, choices="returned, winnings, commission, net")
    return Decimal(getattr(s, field))


def _settlement_key(learner: str, name: str) -> Any:
    v = settlement_variant(learner)
    if name == "commission_winnings":
        return _settle_field(v["commission_hand"], {"banker": v["commission_stake"]}, "commission", "winnings")
    if name == "commission_commission":
        return _settle_field(v["commission_hand"], {"banker": v["commission_stake"]}, "commission", "commission")
    if name == "super6_returned":
        return _settle_field(v["super6_hand"], {"banker": v["super6_stake"]}, "no-commission", "returned")
    if name == "tie_returned":
        return _settle_field(v["tie_hand"], {"player": v["tie_player_stake"], "tie": v["tie_tie_stake"]},
                             "commission", "returned")
    if name == "wrong_line":
        return first_wrong_line(v["ledger"])
    raise AuthoringError("grading.unknown_key", value=name,
                    choices="commission_winnings, commission_commission, super6_returned, tie_returned, wrong_line")


def _bk() -> Any:
    import baccarat_kit

    return baccarat_kit


KEYS: dict[str, Callable[..., Any]] = {
    # fixed inputs (quoted from a source in the notebook)
    "card_value": lambda learner, label: _card_value(label),
    "hand_total": lambda learner, cards: _hand_total(cards),
    "values_total": lambda learner, values: _hand_total(_values_to_cards(values)),
    "is_natural": lambda learner, cards: _bk().is_natural(_hand_total(cards)),
    "player_draws": lambda learner, total: _bk().player_draws(total),
    "banker_draws": lambda learner, total, third: _bk().banker_draws(total, third),
    "coup": lambda learner, cards, field: _coup_field(cards, field),
    "settle": lambda learner, cards, bets, table, field: _settle_field(cards, bets, table, field),
    "example_settle": lambda learner, condition, bets, table, field: _settle_field(
        example_hand(condition), bets, table, field),
    "fixed": lambda learner, value: value,
    # per learner
    "variant_coups": lambda learner, exercise, field: [
        _coup_field(h, field) for h in variant_hands(exercise, learner)],
    "settlement": _settlement_key,
}
"""Key name → function ``(learner_id, *args)`` giving the expected answer."""


def answer_length(key: dict[str, Any]) -> int | None:
    """How many items a per-learner key's answer has (a list), without evaluating it; None for a
    single value.

    >>> answer_length({"fn": "variant_coups", "args": ["04-whole-coups", "winner"]}), answer_length({"fn": "settlement"})
    (5, None)
    """
    return HANDS_PER_LEARNER if key.get("fn") == "variant_coups" else None


def expected(key: dict[str, Any], learner_id: str, extra_args: list[Any] | None = None,
             mistake: Any = None) -> Any:
    """Evaluate a key spec ``{"fn": name, "args": [...]}`` (plus a function input's arguments).

    ``mistake`` (a :class:`baccarat_kit.misconceptions.MistakenRule`): the answer that mistaken
    rule gives, played through the same engine calls.
    """
    if key.get("fn") == "sealed":  # a released copy's: only the grader, from the sources, has it
        raise AuthoringError("grading.sealed_key")
    fn = KEYS.get(str(key.get("fn")))
    if fn is None:
        raise AuthoringError("grading.unknown_key", value=key.get("fn"), choices=", ".join(KEYS))
    args = list(key.get("args", [])) + list(extra_args or [])
    token = _MISTAKE.set(mistake)
    try:
        return fn(learner_id, *args)
    finally:
        _MISTAKE.reset(token)


DECISIONS_NEED_HAND = ("final-total-as-third", "three-card-natural")
"""Mistaken banker rules that need the player's whole hand, which a bare decision lacks."""


def mistaken_answers(key: dict[str, Any], learner_id: str,
                     extra_args: list[Any] | None = None) -> list[tuple[str, Any]]:
    """``(misconception id, answer)`` for every mistaken rule that gives another answer than
    the engine's standard rules on this key (keys the mistake cannot play are left out).
    ``extra_args``: a function question's input (``[3, 8]`` for ``banker_draws(3, 8)``).

    >>> mistaken_answers({"fn": "banker_draws", "args": [3, 8]}, "x")
    [('banker-3-always', True), ('banker-0-5-always', True)]
    >>> mistaken_answers({"fn": "player_draws"}, "x", [5])
    [('player-5-stands', False)]
    >>> dict(mistaken_answers({"fn": "coup", "args": ["4 4 4 5", "winner"]}, "x"))
    {'naturals-tie': 'tie'}
    """
    from ...misconceptions import mistaken_rules

    fn = key.get("fn")
    args = list(key.get("args", [])) + list(extra_args or [])
    want = expected(key, learner_id, extra_args)
    out = []
    if fn in ("banker_draws", "player_draws", "fixed"):
        # Plain rule questions: the mistaken decision itself.
        if fn == "fixed":
            return []
        for mid, m in mistaken_rules().items():
            if m.rules is None or mid in DECISIONS_NEED_HAND:
                continue
            try:
                if fn == "banker_draws":
                    total, third = args[:2]
                    got = m.rules.banker_draws(total, third, third if third is not None else 0)
                else:
                    got = m.rules.player_draws(args[0])
            except (BaccaratError, TypeError, ValueError):
                continue
            if got != want:
                out.append((mid, got))
        return out
    for mid, m in mistaken_rules().items():
        if m.keys and fn not in m.keys:
            continue
        try:
            got = expected(key, learner_id, extra_args, mistake=m)
        except (BaccaratError, TypeError, ValueError, KeyError, IndexError):
            continue
        if got != want:
            out.append((mid, got))
    return out


def rule_id(key: dict[str, Any], extra_args: list[Any] | None = None) -> str | None:
    """The engine's rule id of the step a decision key asks about (:func:`baccarat_kit.rules.banker_rule`,
    :func:`~baccarat_kit.rules.player_rule`); None for a key that is not one decision.

    >>> rule_id({"fn": "banker_draws"}, [3, 8]), rule_id({"fn": "player_draws"}, [5]), rule_id({"fn": "values_total"}, [[7, 8]])
    ('banker-3-vs-8', 'player-0-5', None)
    """
    from ... import rules

    args = list(key.get("args", [])) + list(extra_args or [])
    if key.get("fn") == "banker_draws":
        return rules.banker_rule(args[0], args[1])
    if key.get("fn") == "player_draws":
        return rules.player_rule(args[0])
    return None


def validate(key: dict[str, Any]) -> None:
    """Refuse a key that names an unknown function, field or table before any grading: the key
    is evaluated once (for a made-up learner), and every error names what was wrong.

    >>> try:
    ...     validate({"fn": "coup", "args": ["4 4 4 5", "winer"]})
    ... except AuthoringError as err:
    ...     print(err.message("en")[:50])
    'winer' is not a choice of the answer key: use pla
    """
    if key.get("fn") not in KEYS:
        raise AuthoringError("grading.unknown_key", value=key.get("fn"), choices=", ".join(KEYS))
    args = list(key.get("args", []))
    fn = key["fn"]
    if fn == "coup" and len(args) >= 2 and args[1] not in COUP_FIELDS:
        raise AuthoringError("grading.unknown_key", value=args[1], choices=", ".join(COUP_FIELDS))
    if fn == "variant_coups" and len(args) >= 2 and args[1] not in COUP_FIELDS:
        raise AuthoringError("grading.unknown_key", value=args[1], choices=", ".join(COUP_FIELDS))
    if fn in ("settle", "example_settle") and args and args[-1] not in SETTLE_FIELDS:
        raise AuthoringError("grading.unknown_key", value=args[-1], choices=", ".join(SETTLE_FIELDS))
    if fn == "settlement" and (not args or args[0] not in SETTLEMENT_NAMES):
        raise AuthoringError("grading.unknown_key", value=args[0] if args else None,
                             choices=", ".join(SETTLEMENT_NAMES))
