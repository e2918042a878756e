"""Checking a case's claims against the engine, and explaining a case.

For a full hand the engine plays the cards (:func:`baccarat_kit.play`); for a partial case
it answers each decision the givens allow (:func:`~baccarat_kit.rules.player_draws`,
:func:`~baccarat_kit.rules.banker_draws`, :func:`~baccarat_kit.rules.hand_total`). Either
way the result is an :class:`Outcome` with one :class:`Decision` per hand, and every claim
of the case is compared with it. A disagreement names the claim, both values and the
engine's reason::

    bcr.toml: BCR-004 variant: expected banker total 8, the engine gives 5
    (banker 5 stands on player third card 3)

A claim the givens cannot settle (a final total when the drawn card is not given) is a
schema problem: every claim in the catalogue must be checked.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from ..cards import Card, format_cards, parse_cards
from ..i18n import message, normalize_language
from ..rules import (
    BANKER_DRAWS_WHEN_PLAYER_STOOD,
    PLAYER_DRAWS_ON,
    banker_draws,
    banker_rule,
    format_values,
    hand_total,
    is_natural,
    player_draws,
    player_rule,
)
from .problems import CLAIM_KEYS, Problem

if TYPE_CHECKING:
    from .catalogue import Case


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision the engine made, with what it needs to give its reason."""

    who: Literal["player", "banker", "both"]
    action: Literal["draw", "stand"]
    rule: str
    total: int | None = None
    third: int | None = None
    player: int | None = None
    banker: int | None = None

    def reason(self, lang: str | None = None) -> str:
        """The short reason used in claim messages: ``banker 5 stands on player third card 3``."""
        if self.rule.startswith("natural-"):
            return message(f"cases.reason.{self.rule}", lang, player=self.player,
                           banker=self.banker)
        if self.who == "player":
            return message(f"cases.reason.player-{self.action}", lang, total=self.total)
        if self.third is None:
            return message(f"cases.reason.banker-stood-{self.action}", lang, total=self.total)
        return message(f"cases.reason.banker-{self.action}", lang, total=self.total,
                       third=self.third)

    def why(self, lang: str | None = None) -> str:
        """The rule behind the decision, in words taken from the engine's table."""
        if self.rule.startswith("natural-"):
            return message("cases.why.natural", lang)
        if self.who == "player":
            return message("cases.why.player", lang, values=format_values(PLAYER_DRAWS_ON))
        if self.third is None:
            return message("cases.why.banker-stood", lang,
                           values=format_values(BANKER_DRAWS_WHEN_PLAYER_STOOD))
        assert self.total is not None
        from ..coup import banker_why

        return banker_why(self.total, lang)


@dataclass(slots=True)
class Outcome:
    """What the engine makes of a case: each claimable value (None: cannot be known)."""

    values: dict[str, Any] = field(default_factory=dict)
    decisions: dict[str, Decision] = field(default_factory=dict)
    rules: list[str] = field(default_factory=list)
    first_cards: dict[str, tuple[Card, ...]] = field(default_factory=dict)
    card_count: int | None = None
    used: int | None = None
    checks: list[tuple[str, Any, Any, Any]] = field(default_factory=list)
    """Extra (claim, expected, engine value, reason) checks made while building the outcome."""

    def get(self, key: str) -> Any:
        return self.values.get(key)


def _value_card(v: int) -> Card:
    """A card worth ``v`` for enumerated checks (0 → 10, 1 → A); never stored in a case."""
    return parse_cards("10" if v == 0 else "A" if v == 1 else str(v))[0]


def outcome(case: Case) -> Outcome:
    """The engine's answer for every value a case can claim."""
    if case.kind == "full":
        return _full_outcome(case)
    if case.is_value_example:
        return _value_outcome(case)
    if "natural_totals" in case.givens:
        return _naturals_outcome(case)
    return _partial_outcome(case)


def _full_outcome(case: Case) -> Outcome:
    coup = case.coup()
    assert coup is not None
    out = Outcome()
    p, b = coup.player_cards, coup.banker_cards
    out.first_cards = {"player": p[:2], "banker": b[:2]}
    v = out.values
    v["player_first_total"] = hand_total(p[:2])
    v["banker_first_total"] = hand_total(b[:2])
    v["natural"] = coup.natural
    for step in coup.steps:
        out.rules.append(step.rule)
        if step.who == "both":
            d = Decision("both", "stand", step.rule, player=step.player_total_before,
                         banker=step.banker_total_before)
            out.decisions["natural"] = d
            out.decisions["player"] = d
            out.decisions["banker"] = d
            v["player_decision"] = v["banker_decision"] = "stand"
        elif step.who == "player":
            out.decisions["player"] = Decision("player", step.action, step.rule,
                                               total=step.player_total_before)
            v["player_decision"] = step.action
        else:
            out.decisions["banker"] = Decision("banker", step.action, step.rule,
                                               total=step.banker_total_before,
                                               third=step.player_third)
            v["banker_decision"] = step.action
    v["player_third"] = coup.player_third.value if coup.player_third else None
    v["banker_third"] = coup.banker_third.value if coup.banker_third else None
    v["player_total"] = coup.player_total
    v["banker_total"] = coup.banker_total
    v["winner"] = coup.winner
    v["unused"] = coup.unused
    out.card_count = len(case.cards or ())
    out.used = out.card_count - len(coup.unused)
    return out


def _value_outcome(case: Case) -> Outcome:
    out = Outcome()
    if "hand" in case.givens:
        cards: tuple[Card, ...] = case.givens["hand"]
        values = [c.value for c in cards]
        out.values["total"] = hand_total(cards)
    else:
        values = list(case.givens["values"])
        out.values["total"] = hand_total([_value_card(x) for x in values])
    out.values["sum"] = sum(values)
    out.values["_values"] = values
    return out


def _naturals_outcome(case: Case) -> Outcome:
    """範例5-style claims: with either hand on one of ``natural_totals``, neither draws.

    The engine plays every such opening (the other hand on any total 0–9), with cards
    built only for this check (a card worth ``v``; 10s after them).
    """
    from ..coup import play

    out = Outcome()
    claimed = sorted(set(case.givens["natural_totals"]))
    engine = [t for t in range(10) if is_natural(t)]
    out.checks.append(("natural_totals", claimed, engine,
                       lambda lang: message("cases.reason.naturals", lang)))
    actions: dict[str, set[str]] = {"player": set(), "banker": set()}
    spare = parse_cards("10 10 10 10")
    for t in claimed:
        for other in range(10):
            for p_total, b_total in ((t, other), (other, t)):
                coup = play((_value_card(p_total), _value_card(b_total), *spare))
                for step in coup.steps:
                    if step.rule not in out.rules:
                        out.rules.append(step.rule)
                    d = _decision_from_step(step)
                    for who in ("player", "banker"):
                        if step.who in (who, "both"):
                            # keep a drawing decision as the reason, if there is one
                            if who not in out.decisions or d.action == "draw":
                                out.decisions[who] = d
                actions["player"].add("draw" if len(coup.player_cards) == 3 else "stand")
                actions["banker"].add("draw" if len(coup.banker_cards) == 3 else "stand")
    for who in ("player", "banker"):
        out.values[f"{who}_decision"] = "stand" if actions[who] == {"stand"} else "draw"
    out.rules.sort()
    return out


def _decision_from_step(step: Any) -> Decision:
    if step.who == "both":
        return Decision("both", "stand", step.rule, player=step.player_total_before,
                        banker=step.banker_total_before)
    if step.who == "player":
        return Decision("player", step.action, step.rule, total=step.player_total_before)
    return Decision("banker", step.action, step.rule, total=step.banker_total_before,
                    third=step.player_third)


def _partial_outcome(case: Case) -> Outcome:
    out = Outcome()
    g, c, v = case.givens, case.claims, out.values
    # First-two-card totals: from the cards when the source gives them (the claimed total is
    # then checked), else the total the source gives.
    for who in ("player", "banker"):
        key = f"{who}_first_total"
        if f"{who}_cards" in g:
            out.first_cards[who] = g[f"{who}_cards"]
            v[key] = hand_total(g[f"{who}_cards"])
        else:
            v[key] = c.get(key)
    p, b = v["player_first_total"], v["banker_first_total"]
    p_nat = None if p is None else is_natural(p)
    b_nat = None if b is None else is_natural(b)
    if p_nat or b_nat:
        natural: bool | None = True
    elif p_nat is False and b_nat is False:
        natural = False
    else:
        natural = None
    v["natural"] = natural
    if natural:
        if p is not None and b is not None:
            rule = ("natural-both" if p_nat and b_nat
                    else "natural-player" if p_nat else "natural-banker")
            out.rules.append(rule)
        else:
            rule = "natural-player" if p_nat else "natural-banker"
        d = Decision("both", "stand", rule, player=p, banker=b)
        out.decisions.update(natural=d, player=d, banker=d)
        v["player_decision"] = v["banker_decision"] = "stand"
        v["player_total"], v["banker_total"] = p, b
        v["player_third"] = v["banker_third"] = None
    else:
        # The player's decision: from the engine when the total is known; a third card the
        # source gives means the player drew (checked against the engine when it can be).
        player_action: Literal["draw", "stand"] | None = None
        if p is not None and not natural:
            player_action = "draw" if player_draws(p) else "stand"
            out.decisions["player"] = Decision("player", player_action, player_rule(p), total=p)
            out.rules.append(player_rule(p))
        third = c.get("player_third")
        if third is not None and player_action is None:
            player_action = "draw"
        v["player_decision"] = player_action
        v["player_third"] = third if player_action == "draw" else None
        if player_action == "stand":
            v["player_total"] = p
        elif player_action == "draw" and p is not None and third is not None:
            v["player_total"] = (p + third) % 10
        else:
            v["player_total"] = None
        # The banker's decision needs the banker's total and the player's branch.
        banker_action: Literal["draw", "stand"] | None = None
        if b is not None and not b_nat and player_action is not None and (
                player_action == "stand" or third is not None):
            vs = None if player_action == "stand" else third
            banker_action = "draw" if banker_draws(b, vs) else "stand"
            out.decisions["banker"] = Decision("banker", banker_action, banker_rule(b, vs),
                                               total=b, third=vs)
            out.rules.append(banker_rule(b, vs))
        v["banker_decision"] = banker_action
        b_third = c.get("banker_third")
        v["banker_third"] = b_third if banker_action == "draw" else None
        if banker_action == "stand":
            v["banker_total"] = b
        elif banker_action == "draw" and b is not None and b_third is not None:
            v["banker_total"] = (b + b_third) % 10
        else:
            v["banker_total"] = None
    pt, bt = v.get("player_total"), v.get("banker_total")
    v["winner"] = None if pt is None or bt is None else (
        "player" if pt > bt else "banker" if bt > pt else "tie")
    return out


# ---------------------------------------------------------------- checking

_NEEDS = {
    "player_first_total": ("player_cards",),
    "banker_first_total": ("banker_cards",),
    "natural": ("player_first_total", "banker_first_total"),
    "player_decision": ("player_first_total",),
    "player_third": ("player_first_total",),
    "banker_decision": ("banker_first_total", "player_third / player_decision"),
    "banker_third": ("banker_first_total", "player_third / player_decision"),
    "player_total": ("player_first_total", "player_third"),
    "banker_total": ("banker_first_total", "banker_third"),
    "winner": ("player_total", "banker_total"),
}


def check_case(case: Case) -> tuple[Problem, ...]:
    """Every claim of ``case`` the engine does not confirm, and every claim it cannot check."""
    out = outcome(case)
    problems: list[Problem] = []

    def claim_problem(key: str, expected: Any, actual: Any, reason: Any) -> None:
        problems.append(Problem(case.file, case.id, key, "cases.err.claim", {
            "what": _what(key), "expected": _shown(key, expected),
            "actual": _shown(key, actual), "reason": reason,
        }, "claim"))

    for key, expected, actual, reason in out.checks:
        if expected != actual:
            claim_problem(key, expected, actual, reason)
    implied: dict[str, Any] = {}
    if case.kind == "partial" and not case.is_value_example:
        # A card the source gives is a claim that the hand drew it.
        if "player_third" in case.claims and "player_decision" not in case.claims:
            implied["player_decision"] = "draw"
        if "banker_third" in case.claims and "banker_decision" not in case.claims:
            implied["banker_decision"] = "draw"
    claims = {**implied, **case.claims}
    for key in CLAIM_KEYS:
        if key not in claims:
            continue
        expected = claims[key]
        if case.kind == "partial" and key in ("player_third", "banker_third"):
            continue  # a given, checked through the decision it implies
        if case.kind == "partial" and key in ("player_first_total", "banker_first_total") \
                and f"{key.split('_')[0]}_cards" not in case.givens:
            continue  # a given, not a claim
        actual = out.get(key)
        if actual is None and not (key in ("player_third", "banker_third") and case.kind == "full"):
            problems.append(Problem(case.file, case.id, key, "cases.err.uncheckable", {
                "field": key, "needs": ", ".join(_NEEDS.get(key, ())),
            }, "schema"))
            continue
        if expected != actual:
            claim_problem(key, expected, actual, _reason(case, out, key))
    for bet in case.bets:
        problems.extend(_check_bet(case, bet))
    return tuple(problems)


def _check_bet(case: Case, bet: Any) -> list[Problem]:
    from ..settlement import settle

    line = settle(case.coup(), [(bet.area, bet.stake)], bet.table).lines[0]
    found = []
    for key, expected, actual in (("returned", bet.returned, line.returned),
                                  ("net", bet.net, line.net)):
        if expected is not None and expected != actual:
            found.append(Problem(case.file, case.id, f"bet.{key}", "cases.err.claim", {
                "what": lambda lang, k=key, a=bet.area: message(f"cases.what.bet-{k}", lang,
                                                                area=message(f"area.{a}", lang)),
                "expected": str(expected), "actual": str(actual),
                "reason": lambda lang, ln=line: _settle_line(ln, lang),
            }, "claim"))
    return found


def _settle_line(line: Any, lang: str) -> str:
    return message(f"settle.line-{line.result}", lang, area=message(f"area.{line.area}", lang),
                   stake=line.stake, winnings=line.winnings, commission=line.commission,
                   returned=line.returned).rstrip("。.")


def _reason(case: Case, out: Outcome, key: str) -> Any:
    v = out.values
    if key in ("winner",):
        return lambda lang: message("cases.reason.final", lang, player=v["player_total"],
                                    banker=v["banker_total"])
    if key == "natural":
        return lambda lang: message("cases.reason.opening", lang, player=v["player_first_total"],
                                    banker=v["banker_first_total"])
    if key in ("player_first_total", "banker_first_total"):
        who = key.split("_")[0]
        cards = out.first_cards.get(who, ())
        return lambda lang: message("cases.reason.first-two", lang,
                                    who=message(f"who.{who}", lang),
                                    cards=" + ".join(c.label for c in cards),
                                    total=v[key])
    if key == "unused":
        return lambda lang: message("cases.reason.used", lang, used=out.used,
                                    count=out.card_count)
    if key in ("sum", "total"):
        return lambda lang: message("cases.reason.values", lang,
                                    values=" + ".join(str(x) for x in v["_values"]),
                                    sum=v["sum"], total=v["total"])
    who = "player" if key.startswith("player") else "banker"
    decision = out.decisions.get(who)
    if decision is None:  # the decision comes from a third card the case gives
        return lambda lang: message("cases.reason.given-third", lang,
                                    who=message(f"who.{who}", lang))
    return decision.reason


def _what(key: str) -> Any:
    return lambda lang: message(f"cases.what.{key}", lang)


def _shown(key: str, value: Any) -> Any:
    if isinstance(value, bool):
        return lambda lang: message(f"cases.value.{'yes' if value else 'no'}", lang)
    if key in ("player_decision", "banker_decision", "winner") and isinstance(value, str):
        return lambda lang: message(f"cases.value.{value}", lang)
    if key == "unused":
        return lambda lang: format_cards(value) if value else message("cases.value.none", lang)
    if isinstance(value, list):
        return ", ".join(str(x) for x in value)
    if value is None:
        return lambda lang: message("cases.value.none", lang)
    return str(value)


def count_claims(case: Case) -> int:
    """How many claims of the case the engine checks (claims plus stated bet amounts)."""
    n = len(case.claims) + len(outcome(case).checks)
    if case.kind == "partial" and not case.is_value_example:
        n -= sum(1 for k in ("player_first_total", "banker_first_total")
                 if k in case.claims and f"{k.split('_')[0]}_cards" not in case.givens)
    for bet in case.bets:
        n += (bet.returned is not None) + (bet.net is not None)
    return n


# ---------------------------------------------------------------- explaining


def explain_case(case: Case, lang: str | None = None, *, quote: bool = True) -> str:
    """The case header, the engine's explained trace, and whether every claim holds
    (``quote=False``: without the source's words, for a view that shows them itself)."""
    lang = normalize_language(lang)
    lines = [f"{case.id} — {case.title(lang)}"]
    lines.append(message("cases.show.source", lang, source=case.source_text(lang), basis=case.basis_text(lang)))
    if case.assumptions(lang):
        lines.append(message("cases.show.assumptions", lang, text=case.assumptions(lang)))
    if case.change(lang) and quote:  # a variant's source words: 000's 只改一個條件 sentence
        lines.append(message("cases.show.change", lang, text=case.change(lang)))
    words = case.quote if case.parent is None and quote else None
    if words:
        lines.append(message("cases.show.quote", lang, text=words.replace("\n", "\n    ")))
        translation = case.translation(lang)
        if translation:
            lines.append(message("cases.show.translation", lang,
                                 text=translation.replace("\n", "\n    ")))
    lines.append("")
    if case.kind == "full":
        coup = case.coup()
        lines.append(message("cases.show.cards", lang, cards=format_cards(case.cards or ())))
        lines.append(coup.explain(lang))
        if case.bets:
            from ..settlement import settle

            lines.append("")
            lines.append(settle(coup, [(b.area, b.stake) for b in case.bets],
                                case.bets[0].table).explain(lang))
    elif case.is_value_example:
        out = outcome(case)
        lines.append(message("cases.show.kind-value", lang))
        lines.append(message("cases.reason.values", lang,
                             values=" + ".join(str(x) for x in out.values["_values"]),
                             sum=out.values["sum"], total=out.values["total"]))
    else:
        lines.append(message("cases.show.kind-partial", lang))
        lines.extend(_partial_lines(case, lang))
    problems = case.check()
    lines.append("")
    if problems:
        lines.append(message("cases.show.problems", lang, count=len(problems)))
        lines.extend("  " + p.message(lang) for p in problems)
    else:
        lines.append(message("cases.show.all-hold", lang, count=count_claims(case)))
    if case.variants:
        lines.append(message("cases.show.variants", lang,
                             ids=", ".join(v.id for v in case.variants)))
    return "\n".join(lines)


def _partial_lines(case: Case, lang: str) -> list[str]:
    out = outcome(case)
    v = out.values
    lines: list[str] = []
    if "natural_totals" in case.givens:
        lines.append(message("cases.show.naturals", lang,
                             totals=", ".join(str(t) for t in case.givens["natural_totals"])))
        return _numbered(lines)
    for who in ("player", "banker"):
        total = v.get(f"{who}_first_total")
        if total is None:
            continue
        cards = out.first_cards.get(who)
        if cards:
            lines.append(message("cases.show.first-cards", lang, who=message(f"who.{who}", lang),
                                 cards=" + ".join(c.label for c in cards), total=total))
        else:
            lines.append(message("cases.show.first-total", lang, who=message(f"who.{who}", lang),
                                 total=total))
    seen: set[int] = set()
    for who in ("player", "banker"):
        d = out.decisions.get(who)
        if d is None:
            if who == "player" and v.get("player_third") is not None:
                lines.append(message("cases.show.player-third-given", lang, third=v["player_third"]))
            continue
        if id(d) in seen:
            continue
        seen.add(id(d))
        lines.append(message("cases.show.decision", lang, reason=_cap(d.reason(lang)),
                             why=d.why(lang)))
        third_key = f"{who}_third"
        if d.action == "draw" and v.get(third_key) is not None:
            lines.append(message(f"cases.show.{who}-drew", lang, third=v[third_key],
                                 total=v.get(f"{who}_total")))
    if v.get("winner"):
        result = message(f"coup.result-{v['winner']}", lang, player=v["player_total"],
                         banker=v["banker_total"])
        if "winner" not in case.claims:
            result += message("cases.show.derived", lang)
        lines.append(result)
    else:
        lines.append(message("cases.show.partial-end", lang))
    return _numbered(lines)


def _numbered(lines: list[str]) -> list[str]:
    return [f"{i}. {line}" for i, line in enumerate(lines, 1)]


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]
