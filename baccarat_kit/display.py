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
from .i18n import LANGUAGES, catalogue, message
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
        return {lang: message(text, lang, **params) for lang in LANGUAGES}
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
