"""Tables for the lessons, rendered from engine results (HTML in Jupyter, text elsewhere).

Nothing here decides a rule or a payout: every cell is computed by the engine
(:func:`~baccarat_kit.rules.hand_total`, :func:`~baccarat_kit.coup.play`,
:func:`~baccarat_kit.settlement.settle`, :class:`~baccarat_kit.ledger.Ledger`) and
only laid out here. A :class:`Table` shows as an HTML table in a notebook and as a
Markdown-style text table in ``repr`` (what nbval compares, so it is deterministic).

>>> import baccarat_kit as bk
>>> from baccarat_kit import display
>>> print(display.totals_table([("7 8", "000")], lang="en"))
| Cards | Values | Sum | Baccarat total | Source |
|---|---|---|---|---|
| 7 8 | 7 + 8 | 15 | 5 | 000 |
>>> print(display.trace_table(bk.play("4 4 4 5"), lang="en"))
| # | Who | Decision | Rule id | Explanation |
|---|---|---|---|---|
| 1 | — | — | — | First two cards: player 4 + 4 = 8, banker 4 + 5 = 9. |
| 2 | both | stands | natural-both | Player 8 and banker 9 are both naturals: neither hand draws. |
| — | — | — | — | Result: player 8, banker 9: banker wins. |
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .cards import Card, Rank, format_cards, parse_cards
from .coup import Coup
from .errors import BaccaratError
from .i18n import LANGUAGES, both, catalogue, message
from .ledger import Ledger
from .rules import hand_total
from .settlement import PAY_TABLES, Settlement

DASH = "—"


@dataclass(frozen=True, slots=True)
class Table:
    """A small table: a header row, body rows of text, an optional caption and footer row."""

    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    caption: str = ""
    footer: tuple[str, ...] = ()

    def _repr_html_(self) -> str:
        esc = html.escape
        # JupyterLab right-aligns table cells; sentences read better left-aligned.
        th, td = '<th style="text-align:left">', '<td style="text-align:left">'
        out = ['<table class="bk-table">']
        if self.caption:
            out.append(f'<caption style="text-align:left">{esc(self.caption)}</caption>')
        out.append("<thead><tr>" + "".join(f"{th}{esc(h)}</th>" for h in self.header)
                   + "</tr></thead>")
        out.append("<tbody>")
        for row in self.rows:
            out.append("<tr>" + "".join(f"{td}{esc(c)}</td>" for c in row) + "</tr>")
        out.append("</tbody>")
        if self.footer:
            out.append("<tfoot><tr>" + "".join(f"{th}{esc(c)}</th>" for c in self.footer)
                       + "</tr></tfoot>")
        out.append("</table>")
        return "".join(out)

    def to_markdown(self) -> str:
        """The table as Markdown (also its ``repr``)."""

        def line(cells: Sequence[str]) -> str:
            return "| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |"

        lines = [self.caption] if self.caption else []
        lines.append(line(self.header))
        lines.append("|" + "---|" * len(self.header))
        lines.extend(line(r) for r in self.rows)
        if self.footer:
            lines.append(line(self.footer))
        return "\n".join(lines)

    def __repr__(self) -> str:
        return self.to_markdown()

    __str__ = __repr__


def table(header: Iterable[object], rows: Iterable[Iterable[object]], caption: str = "",
          footer: Iterable[object] = ()) -> Table:
    """A :class:`Table` from any values (each shown with ``str``).

    >>> table(["a", "b"], [[1, 2]])
    | a | b |
    |---|---|
    | 1 | 2 |
    """
    return Table(tuple(str(h) for h in header), tuple(tuple(str(c) for c in r) for r in rows),
                 caption, tuple(str(c) for c in footer))


def _col(name: str, lang: str | None) -> str:
    return message(f"display.col.{name}", lang)


def values_table(lang: str | None = None) -> Table:
    """Every rank and its baccarat value, as the engine counts it (``Card.value``).

    >>> values_table("en").rows[0], values_table("en").rows[-1]
    (('A', '1'), ('K', '0'))
    """
    return table([_col("card", lang), _col("value", lang)],
                 [[r.value, Card(r).value] for r in Rank])


def totals_table(examples: Iterable[str | tuple[str, str]], lang: str | None = None) -> Table:
    """Card totals step by step: the cards, their values, the sum, the last digit.

    ``examples`` are card texts (``"7 8"``) or pairs ``(cards, source)``.
    """
    rows = []
    has_source = False
    for item in examples:
        text, source = (item, "") if isinstance(item, str) else item
        has_source = has_source or bool(source)
        cards = parse_cards(text)
        values = [c.value for c in cards]
        rows.append([format_cards(cards), " + ".join(map(str, values)), sum(values),
                     hand_total(cards), source])
    header = [_col(n, lang) for n in ("cards", "values", "sum", "total", "source")]
    if not has_source:
        header = header[:-1]
        rows = [r[:-1] for r in rows]
    return table(header, rows)


def decision(draws: bool, lang: str | None = None) -> str:
    """The word for an engine decision: ``decision(bk.player_draws(5))`` → ``'補牌'``.

    >>> decision(True, "en"), decision(False, "zh")
    ('draws', '停牌')
    """
    return message("action.draw" if draws else "action.stand", lang)


def _who(who: str, lang: str | None) -> str:
    return message("display.both", lang) if who == "both" else message(f"who.{who}", lang)


def trace_table(coup: Coup, lang: str | None = None) -> Table:
    """A coup decision by decision: who, draw or stand, the rule id, the engine's sentence.

    The first row is the opening deal, the last the result; the middle rows are the
    coup's :class:`~baccarat_kit.coup.Step` records.
    """
    lines = coup.explain(lang).split("\n")
    opening = lines[0].split(". ", 1)[1]
    rows: list[list[object]] = [[1, DASH, DASH, DASH, opening]]
    for i, step in enumerate(coup.steps, 2):
        rows.append([i, _who(step.who, lang), message(f"action.{step.action}", lang), step.rule,
                     step.explain(lang)])
    for extra in lines[len(coup.steps) + 1:]:
        rows.append([DASH, DASH, DASH, DASH, extra])
    header = [_col(n, lang) for n in ("step", "who", "action", "rule", "explanation")]
    return table(header, rows)


def coups_table(coups: Iterable[tuple[str, Coup]], lang: str | None = None) -> Table:
    """Several coups side by side: label, each hand's cards and total, natural, winner, unused."""
    yes, no = message("display.yes", lang), message("display.no", lang)
    rows = []
    for label, coup in coups:
        rows.append([
            label,
            format_cards(coup.player_cards), coup.player_total,
            format_cards(coup.banker_cards), coup.banker_total,
            yes if coup.natural else no,
            message(f"who.{coup.winner}", lang),
            format_cards(coup.unused) or DASH,
        ])
    header = [_col(n, lang) for n in ("case", "player_cards", "player_total", "banker_cards",
                                      "banker_total", "natural", "winner", "unused")]
    return table(header, rows)


def settlement_table(settlement: Settlement, lang: str | None = None) -> Table:
    """One row per bet (area, stake, result, winnings, commission, returned) and a total row."""
    rows = [[message(f"area.{line.area}", lang), line.stake,
             message(f"display.result.{line.result}", lang), line.winnings, line.commission,
             line.returned, line.net] for line in settlement.lines]
    footer = [message("display.total", lang), settlement.staked, "", settlement.winnings,
              settlement.commission, settlement.returned, settlement.net]
    header = [_col(n, lang) for n in ("area", "stake", "result", "winnings", "commission",
                                      "returned", "net")]
    caption = message("display.pay-table", lang, table=settlement.table.label(lang))
    return table(header, rows, caption, footer)


def pay_tables_table(lang: str | None = None) -> Table:
    """The pay-table presets (``bk.PAY_TABLES``) side by side, odds as "x to 1".

    >>> pay_tables_table("en").rows[0]
    ('commission', '1', '1', '0.05', '—', '8', '11', 'yes')
    """
    yes, no = message("display.yes", lang), message("display.no", lang)
    rows = [[name, t.player, t.banker, t.commission, DASH if t.banker_six is None else t.banker_six,
             t.tie, t.pair, yes if t.push_on_tie else no] for name, t in PAY_TABLES.items()]
    header = [_col(n, lang) for n in ("table", "odds_player", "odds_banker", "commission_rate",
                                      "banker_six", "odds_tie", "odds_pair", "push_on_tie")]
    return table(header, rows)


def ledger_table(ledger: Ledger, lang: str | None = None) -> Table:
    """The bookkeeping trail (下注明細、派彩、傭金、餘額), one row per round."""
    rows = []
    for line in ledger:
        bets = " ".join(f"{message(f'area.{b.area}', lang)} {b.stake}" for b in line.bets)
        result = (message("display.result.void", lang) if line.result == "void"
                  else message(f"who.{line.result}", lang) if line.result else DASH)
        rows.append([line.round_id, bets, line.cards or DASH, result, line.staked,
                     line.winnings, line.commission, line.returned, line.balance_before,
                     line.balance_after])
    header = [_col(n, lang) for n in ("round", "bets", "cards", "result", "staked", "winnings",
                                      "commission", "returned", "before", "after")]
    caption = message("display.opening", lang, balance=ledger.opening_balance)
    return table(header, rows, caption)


class LessonError(BaccaratError):
    """A lesson's quiz question that cannot be built (its computed answer is not an option)."""


def _texts(label: object, params: Mapping[str, object]) -> dict[str, str]:
    if isinstance(label, Mapping):
        return {lang: str(label[lang]) for lang in LANGUAGES}
    text = str(label)
    if text in catalogue():
        return both(text, **params)
    return dict.fromkeys(LANGUAGES, text)


def question(qid: str, prompt: str, options: Sequence[tuple[Any, ...]], answer: object,
             explain: str | None = None, **params: object) -> dict[str, Any]:
    """A quiz question (the dict shape of ``bk.widgets.Quiz``) whose right answer is computed.

    ``options`` are ``(value, label)`` or ``(value, label, misconception id)``; a label is a
    message key, a ``{"zh", "en"}`` dict, or literal text (numbers, cards). ``answer`` is the
    value the engine gave: the option with that value is marked right, so no answer is typed
    by hand. ``prompt`` and ``explain`` are message keys formatted with ``params``.

    >>> import baccarat_kit as bk
    >>> q = question("k6", "lessons.q01.total", [(16, 16), (6, 6)], bk.hand_total("K 6"),
    ...              cards="K＋6", source="001")
    >>> q["answer"], q["options"][1]["zh"]
    (1, '6')
    """
    values = [opt[0] for opt in options]
    matches = [i for i, v in enumerate(values) if v == answer]
    if len(matches) != 1:
        raise LessonError("display.bad-answer", id=qid, value=answer,
                          choices=", ".join(map(str, values)))
    opts = []
    for opt in options:
        entry: dict[str, Any] = _texts(opt[1], {})
        if len(opt) > 2 and opt[2]:
            entry["misconception"] = opt[2]
        opts.append(entry)
    out: dict[str, Any] = {"id": qid, "prompt": _texts(prompt, params), "options": opts,
                           "answer": matches[0]}
    if explain:
        out["explain"] = _texts(explain, params)
    return out


# ---------------------------------------------------------------- lesson 08: odds, simulation, counting
# The layout of lesson 08's results, so that its code cells show only the engine calls a learner
# could type (``bk.exact_odds(8)``, ``bk.simulate(...)``, ``bk.counting_analysis(...)``). Every
# figure is the engine's; these functions only format it.


@dataclass(frozen=True, slots=True)
class Lines:
    """Lines of text that show as themselves (no quotes) when a cell ends with them."""

    lines: tuple[str, ...]

    def __repr__(self) -> str:
        return "\n".join(self.lines)

    __str__ = __repr__


def odds_lines(odds: Mapping[int, Any], lang: str | None = None) -> Lines:
    """One line per number of decks → its :func:`~baccarat_kit.exact_odds` result: the three
    probabilities and the house edge of the three main bets.

    >>> import baccarat_kit as bk
    >>> print(odds_lines({1: bk.exact_odds(1)}, lang="en"))  # doctest: +ELLIPSIS
    1 decks: banker 0.45... player 0.44...  tie 0.09...  |  house edge: banker 1.0...%  player 1.2...%  tie 15.7...%
    """
    def f6(x: Any) -> str:
        return f"{float(x):.6f}"

    def pct(x: Any) -> str:
        return f"{float(x):.4%}"

    return Lines(tuple(
        message("nb.decks-line", lang, decks=decks, banker=f6(o.banker), player=f6(o.player), tie=f6(o.tie),
                edge_banker=pct(o.house_edge("banker")), edge_player=pct(o.house_edge("player")),
                edge_tie=pct(o.house_edge("tie")))
        for decks, o in odds.items()))


def commission_lines(odds: Any, lang: str | None = None) -> Lines:
    """What the banker bet gives away at a commission table (5% of a banker win) and at a
    no-commission table (half the stake on a banker win with 6), and the two house edges.

    >>> import baccarat_kit as bk
    >>> print(commission_lines(bk.exact_odds(1), lang="en").lines[-1])  # doctest: +ELLIPSIS
    banker (no commission, a win on 6 pays 1:2): house edge 1.38...%
    """
    from fractions import Fraction

    from .odds import bet_label

    commission_cost = Fraction(5, 100) * odds.banker
    super6_cost = Fraction(1, 2) * odds.banker_six
    out = [message("nb.p-banker", lang, p=f"{float(odds.banker):.6f}"),
           message("nb.p-banker-six", lang, p=f"{float(odds.banker_six):.6f}"),
           message("nb.commission-cost", lang, cost=f"{float(commission_cost):.6f}"),
           message("nb.super6-cost", lang, cost=f"{float(super6_cost):.6f}")]
    for table_name in ("commission", "no-commission"):
        out.append(message("nb.house-edge-of", lang, bet=bet_label("banker", table_name, lang),
                           edge=f"{float(odds.house_edge('banker', table_name)):.4%}"))
    return Lines(tuple(out))


SIM_EVENTS = ("banker", "player", "tie", "banker_six", "player_pair")


def simulated_vs_exact(sim: Any, odds: Any, events: Iterable[str] = SIM_EVENTS,
                       lang: str | None = None) -> Lines:
    """Each event's simulated frequency beside its exact probability, and the difference in
    standard errors (a simulation agrees when it is within about ±2).

    >>> import baccarat_kit as bk
    >>> sim = bk.simulate(shoes=20, decks=1, seed=1)
    >>> print(simulated_vs_exact(sim, bk.exact_odds(1), ["tie"], lang="en"))  # doctest: +ELLIPSIS
    tie: simulated 0.098684   exact 0.093615   difference +0.21 standard errors
    """
    out = []
    for event in events:
        p = float(getattr(odds, event))
        f = sim.frequency(event)
        out.append(message("nb.sim-line", lang, event=message(f"nb.event.{event}", lang), simulated=f"{f:.6f}",
                           exact=f"{p:.6f}", z=f"{(f - p) / sim.standard_error(p):+.2f}"))
    return Lines(tuple(out))


def replay_check(sim: Any, lang: str | None = None) -> Lines:
    """Replay every shoe of a ``keep_cards=True`` simulation card for card through the engine's
    :class:`~baccarat_kit.Shoe` and count the shoes where every coup's winner and banker total
    agree.

    >>> import baccarat_kit as bk
    >>> print(replay_check(bk.simulate(shoes=3, decks=1, seed=7, keep_cards=True), lang="en"))  # doctest: +ELLIPSIS
    3 / 3 shoes identical to the engine, coup by coup; ... coups
    """
    same = 0
    for i in range(sim.shoes):
        rounds = list(sim.engine_shoe(i).rounds())
        engine = "".join(r.coup.winner[0].upper() for r in rounds)
        a, b = sim.offsets[i], sim.offsets[i + 1]
        same += engine == sim.outcomes(i) and [r.coup.banker_total for r in rounds] == sim.banker_total[a:b].tolist()
    return Lines((message("nb.same-as-engine", lang, same=same, shoes=sim.shoes, hands=sim.hands),))


def run_length_lines(lengths: Mapping[str, Any], lang: str | None = None) -> Lines:
    """:func:`baccarat_kit.roads.run_lengths` as a text table: runs of each length seen, and
    how many independent coups would give."""
    out = [f"{message('road.length-col', lang)}  {message('road.length-observed', lang)}  "
           f"{message('road.length-expected', lang)}"]
    last = lengths["length"][-1]
    for length, obs, exp in zip(lengths["length"], lengths["observed"], lengths["expected"], strict=True):
        label = f"{length}+" if length == last else str(length)
        out.append(f"{label:>4s}  {obs:9.0f}  {exp:12.1f}")
    return Lines(tuple(out))


def counting_table(analysis: Any, lang: str | None = None) -> Table:
    """:func:`baccarat_kit.counting_analysis` per bet: the expectation of a full shoe, the share
    of coups with a positive expectation for a player who knows every card, the average
    expectation betting every coup, and the best expectation seen."""
    import math

    from .odds import bet_label

    rows = []
    for j, (bet, table_name) in enumerate(analysis.bets):
        edges = analysis.edges[:, j]
        average = -math.fsum(edges) / len(edges)  # betting every coup: the average expectation
        rows.append([bet_label(bet, table_name, lang), f"{-analysis.full_shoe[j]:+.4%}",
                     f"{analysis.positive_share(bet, table_name):.2%}", f"{average:+.4%}",
                     f"{-edges.min():+.3%}"])
    return table([message(f"nb.col.{col}", lang) for col in
                  ("bet", "full-shoe", "positive-share", "average", "best-seen")], rows)


def positive_moments(tracker: Any, lang: str | None = None) -> tuple[Lines, Table]:
    """Deal a :class:`~baccarat_kit.widgets.ShoeTracker`'s shoe to the end and list every
    moment some bet of the next coup had a positive expectation (a summary line and a table)."""
    from .odds import bet_label
    from .widgets.shoe_tracker import percent

    moments = []
    while not tracker.shoe.finished:
        for bet, table_name in tracker.positives:
            moments.append([tracker.rounds + 1, len(tracker.shoe), bet_label(bet, table_name, lang),
                            percent(tracker.expectation(bet, table_name))])
        tracker.deal()
    summary = Lines((message("nb.walk-summary", lang, rounds=tracker.rounds, moments=len({m[0] for m in moments})),))
    return summary, table([message(f"nb.col.{col}", lang) for col in
                           ("before-coup", "cards-left", "bet", "expectation")], moments)


def expectation_lines(odds: Any, lang: str | None = None) -> Lines:
    """The expectation of every bet of every pay table, one line per table.

    >>> import baccarat_kit as bk
    >>> print(expectation_lines(bk.exact_odds(1), lang="en").lines[0])  # doctest: +ELLIPSIS
    commission (tie 8:1): player -1.2...%, banker -1.0...%, tie -15.7...%...
    """
    from .settlement import AREAS

    return Lines(tuple(
        message(f"odds.table-{name}", lang) + ": " + ", ".join(
            f"{message(f'area.{area}', lang)} {float(odds.expected_value(area, name)):+.4%}" for area in AREAS)
        for name in PAY_TABLES))
