"""ShoeTracker: deal a seeded shoe coup by coup and watch the exact odds of the next coup move.

A thin view over :class:`baccarat_kit.Shoe` (shuffle, burn, cut card) and
:func:`baccarat_kit.exact_odds`: before every coup, the exact probability of each result and
each bet's expectation are computed from *every* card left in the shoe, including the burned
cards nobody saw. That is more than a real counter can know; even so, the main bets stay
negative, and the side bets turn positive only now and then, late in a shoe.

>>> st = ShoeTracker(decks=8, seed=2026, lang="en")
>>> st.rounds, len(st.shoe) + len(st.shoe.burned) == 416
(0, True)
>>> st.deal()
>>> st.rounds, st.last.coup.winner in ("player", "banker", "tie")
(1, True)
>>> st.expectation("banker") < 0
True
"""

from __future__ import annotations

from collections.abc import Callable
from decimal import ROUND_HALF_EVEN, Decimal, localcontext
from fractions import Fraction

import ipywidgets as w

from ..odds import bet_label, exact_odds
from ..shoe import DEFAULT_CUT_CARD, Round, Shoe
from ._common import (
    LangMixin,
    announce,
    attr,
    button_widget,
    cards_html,
    esc,
    html_widget,
    live_region,
    opening_line,
    plain_text,
    result_line,
    row,
    title_html,
)

BETS: tuple[tuple[str, str], ...] = (
    ("banker", "commission"),
    ("banker", "no-commission"),
    ("player", "commission"),
    ("tie", "commission"),
    ("player-pair", "commission"),
    ("banker-pair", "commission"),
)
"""(bet, pay table) pairs the tracker follows."""

_PROBABILITY = {"banker": "banker", "player": "player", "tie": "tie",
                "player-pair": "player_pair", "banker-pair": "banker_pair"}


def percent(value: Fraction, digits: int = 3) -> str:
    """An exact fraction as a percentage rounded half-even at ``digits`` places, with a sign.

    Exact, so a value on a rounding boundary prints the same on every machine.

    >>> percent(Fraction(-1, 3)), percent(Fraction(1, 8), 1), percent(Fraction(0))
    ('-33.333%', '+12.5%', '+0.000%')
    """
    with localcontext() as ctx:
        ctx.prec = 50
        d = Decimal(value.numerator) * 100 / Decimal(value.denominator)
        q = d.quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_EVEN)
    return f"{q:+f}%"


class ShoeTracker(LangMixin, w.VBox):
    """Deal coups from a seeded shoe (``deal_button``, ``deal_ten_button``); start a new shoe
    with ``new_shoe_button`` (seed ``seed_input``). ``status`` says the round, the cards
    left, the burn and the cut card; ``coup`` shows the last coup; ``odds_table`` the exact
    odds of the next coup and each bet's expectation, beside its value for the full shoe.

    State: ``shoe`` (:class:`~baccarat_kit.Shoe`), ``last`` (the last :class:`~baccarat_kit.shoe.Round`
    or None), ``odds`` (:class:`~baccarat_kit.odds.ExactOdds` of the next coup, None once the
    shoe is finished), ``rounds``, ``positives`` (the bets whose expectation is positive now).
    """

    def __init__(self, *, decks: int = 8, seed: int = 2026, cut_card: int = DEFAULT_CUT_CARD,
                 lang: str = "zh") -> None:
        super().__init__()
        self._init_lang(lang)
        self.add_class("bk-shoe-tracker")
        self.decks = decks
        self.cut_card = cut_card
        self.title = html_widget("bk-title")
        self.seed_input = w.BoundedIntText(value=seed, min=0, max=2**31 - 1,
                                           layout=w.Layout(width="14em"),
                                           style={"description_width": "initial"})
        self.seed_input.add_class("bk-shoe-seed")
        self.new_shoe_button = button_widget(
            "bk-shoe-new", lambda: self._say(lambda: self.new_shoe(int(self.seed_input.value))), icon="refresh")
        self.deal_button = button_widget("bk-shoe-deal", lambda: self._say(self.deal), button_style="primary")
        self.deal_ten_button = button_widget("bk-shoe-deal-ten", lambda: self._say(lambda: self.deal(10)))
        self.status = html_widget("bk-shoe-status")
        self.coup = html_widget("bk-shoe-coup")
        self.odds_table = html_widget("bk-shoe-odds")
        self.odds_table.layout = w.Layout(max_width="100%")  # its table scrolls inside it
        self.live = live_region("bk-st-live")
        """The widget's one live region: the last coup and the round, said after each deal."""
        self.children = [
            row([self.title, self.lang_toggle]),
            row([self.seed_input, self.new_shoe_button, self.deal_button, self.deal_ten_button]),
            self.status,
            self.coup,
            self.odds_table,
            self.live,
        ]
        self.new_shoe(seed)

    # ---- state ----------------------------------------------------------------
    def new_shoe(self, seed: int | None = None) -> None:
        """Shuffle a new shoe (same seed, same order), burn, place the cut card."""
        if seed is not None:
            self.seed_input.value = seed
        self.shoe = Shoe(self.decks, seed=int(self.seed_input.value), cut_card=self.cut_card)
        self.last: Round | None = None
        full = exact_odds(self.decks)
        self.full_shoe: dict[tuple[str, str], Fraction] = {
            (b, t): full.expected_value(b, t) for b, t in BETS}
        self._burn_html: dict[str, str] = {}
        self._update_odds()
        self._relabel()

    def _update_odds(self) -> None:
        shoe = self.shoe
        self.odds = None if shoe.finished or len(shoe) < 6 else exact_odds(shoe)
        self.expectations: dict[tuple[str, str], Fraction] = (
            {} if self.odds is None else {(b, t): self.odds.expected_value(b, t) for b, t in BETS})

    @property
    def rounds(self) -> int:
        """Coups dealt from this shoe."""
        return self.shoe.round_number

    def deal(self, coups: int = 1) -> None:
        """Deal ``coups`` coups (fewer if the shoe ends), then recompute the odds once."""
        for _ in range(coups):
            if self.shoe.finished:
                break
            self.last = self.shoe.deal()
        self._update_odds()
        self._render()

    def expectation(self, bet: str, table: str = "commission") -> Fraction:
        """The exact expected net result of one unit on ``bet`` in the next coup."""
        if self.odds is None:
            raise ValueError("the shoe is finished: no next coup")
        return self.expectations.get((bet, table)) or self.odds.expected_value(bet, table)

    @property
    def positives(self) -> tuple[tuple[str, str], ...]:
        """The (bet, pay table) pairs whose expectation for the next coup is above zero."""
        return tuple(key for key, ev in self.expectations.items() if ev > 0)

    # ---- view -----------------------------------------------------------------
    def _say(self, action: Callable[[], None]) -> None:
        """Do what a button asks, then say what it did: the last coup (or that none is dealt
        yet), the round and the cards left."""
        action()
        announce(self.live, f"{plain_text(self.coup).split(chr(10))[0]} {plain_text(self.status).split(chr(10))[0]}")

    def _relabel(self) -> None:
        t = self._t
        self.title.value = title_html(t("widgets.st.title"))
        self._label(self.seed_input, "widgets.st.seed")
        self._label(self.new_shoe_button, "widgets.st.new")
        self._label(self.deal_button, "widgets.st.deal")
        self._label(self.deal_ten_button, "widgets.st.deal-ten")
        self._render()

    def _render(self) -> None:
        self.deal_button.disabled = self.deal_ten_button.disabled = self.shoe.finished
        self.status.value = self._status_html()
        self.coup.value = self._coup_html()
        self.odds_table.value = self._odds_html()

    def _status_html(self) -> str:
        t, shoe, lang = self._t, self.shoe, self._lang
        first = shoe.burned[0] if shoe.burned else None
        lines = [esc(t("widgets.st.round", rounds=self.rounds, left=len(shoe)))]
        if first is not None:
            if lang not in self._burn_html:
                self._burn_html[lang] = (
                    esc(t("widgets.st.burn", card=first.label, value=first.rank.pips,
                          burned=len(shoe.burned) - 1)) + "<br>" + cards_html(shoe.burned, lang))
            lines.append(self._burn_html[lang])
        lines.append(f'<span class="bk-cut-card">{esc(t("widgets.st.cut", cards=self.cut_card))}</span>')
        if shoe.finished:
            lines.append(f'<b class="bk-shoe-finished">{esc(t("widgets.st.finished", rounds=self.rounds))}</b>')
        elif shoe.cut_position is not None and 52 * self.decks - len(shoe) > shoe.cut_position:
            lines.append(f'<b class="bk-cut-out">{esc(t("widgets.st.cut-out"))}</b>')
        return "<br>".join(lines)

    def _coup_html(self) -> str:
        if self.last is None:
            return esc(self._t("widgets.st.no-coup"))
        rnd, lang = self.last, self._lang
        coup = rnd.coup
        return (f"<b>{esc(self._t('widgets.st.last', round=rnd.round_id))}</b> "
                f"{esc(result_line(coup, lang))}<br>"
                f"{esc(self._t('widgets.st.player'))} {cards_html(coup.player_cards, lang)} "
                f"{esc(self._t('widgets.st.banker'))} {cards_html(coup.banker_cards, lang)}"
                f"<br><small>{esc(opening_line(coup, lang))}</small>")

    def _odds_html(self) -> str:
        t, lang = self._t, self._lang
        if self.odds is None:
            return esc(t("widgets.st.no-odds"))
        cell = "border:1px solid #999;padding:0.15em 0.5em;text-align:right"
        head = "".join(f'<th scope="col" style="{cell}">{esc(t(k))}</th>' for k in (
            "widgets.st.col-bet", "widgets.st.col-probability", "widgets.st.col-expectation",
            "widgets.st.col-full", "widgets.st.col-sign"))
        rows = [f"<tr>{head}</tr>"]
        for bet, table in BETS:
            ev = self.expectations[(bet, table)]
            prob = getattr(self.odds, _PROBABILITY[bet])
            positive = ev > 0
            sign = t("widgets.st.positive" if positive else "widgets.st.negative")
            css = "bk-positive" if positive else "bk-negative"
            style = ";background:#fff3c4;font-weight:bold" if positive else ""
            rows.append(
                f'<tr class="{css}" data-bet="{bet}/{table}">'
                f'<th scope="row" style="{cell};text-align:left">{esc(bet_label(bet, table, lang))}</th>'
                f'<td style="{cell}">{percent(prob).lstrip("+")}</td>'
                f'<td class="bk-ev" style="{cell}{style}">{percent(ev)}</td>'
                f'<td style="{cell}">{percent(self.full_shoe[(bet, table)])}</td>'
                f'<td style="{cell};text-align:left">{esc(sign)}</td></tr>')
        caption_text = t("widgets.st.caption", left=len(self.shoe))
        caption = esc(caption_text)
        note = esc(t("widgets.st.knowledge"))
        # The caption above the table, as wide as the widget, and the table in a box of its own
        # that scrolls sideways: on a 390 px screen the sentence wraps and is read whole while
        # the table's columns scroll beneath it (a <caption> is as wide as its table, so half
        # of it was off screen). The box's own width is 0 and at least the widget's (min-width),
        # so the table's width never widens the widget. The table keeps the caption as its
        # accessible name.
        return (f'<p class="bk-shoe-odds-caption" style="margin:0.3em 0">{caption}</p>'
                f'<div class="bk-shoe-odds-scroll" style="width:0;min-width:100%;overflow-x:auto">'
                f'<table class="bk-shoe-odds-table" aria-label="{attr(caption_text)}" '
                f'style="border-collapse:collapse">' + "".join(rows) + f"</table></div><small>{note}</small>")

    def __repr__(self) -> str:
        return (f"ShoeTracker(decks={self.decks}, seed={self.seed_input.value}, "
                f"rounds={self.rounds}, lang={self._lang!r})")
