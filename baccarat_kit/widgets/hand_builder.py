"""HandBuilder: choose or type the cards of a coup and watch the engine play it.

A thin view over :func:`baccarat_kit.play`: the widget never decides a rule. Every
part is an attribute (``card_p1`` … ``card_next2``, ``sequence``, ``hands``, ``totals``,
``steps``, ``winner``, ``settlement``, ``changes``) and the engine's results are kept
as ``coup``, ``settled``, ``error`` and ``flipped``.

>>> hb = HandBuilder("2 3 3 4 4", lang="en")       # BCR-001
>>> hb.coup.winner, hb.card_next1.value
('player', '4')
>>> hb.sequence.value = "2 3 3 4 8"              # the player's third card is now 8
>>> hb.coup.winner, hb.flipped
('banker', ('winner', 'player_total'))
>>> hb.card_p2.value = "5"                         # player 2 + 5 = 7 stands
>>> hb.coup.winner, hb.flipped
('tie', ('winner', 'player_total', 'player_drew'))
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from decimal import Decimal
from typing import Any

import ipywidgets as w

from ..cards import Card, format_cards, parse_cards
from ..coup import Coup, play
from ..errors import BaccaratError
from ..settlement import Bet, PayTable, Settlement, parse_bets, pay_table, settle
from ._common import (
    LangMixin,
    WidgetError,
    announce,
    card_options,
    cards_html,
    esc,
    html_widget,
    live_region,
    opening_line,
    plain_text,
    result_line,
    title_html,
)

SLOTS = ("p1", "b1", "p2", "b2", "next1", "next2")
"""The six card slots in deal order: player, banker, player, banker, then the next two cards."""

MAX_CARDS = len(SLOTS)

FLIPS = ("winner", "player_total", "banker_total", "player_drew", "banker_drew")
"""What :attr:`HandBuilder.flipped` can name, in this order."""

DEFAULT_CARDS = "2 3 3 4 4"
"""BCR-001 of source 000 (閒2、莊3、閒3、莊4, the player's third card 4)."""


def _flips(before: Coup, after: Coup) -> tuple[str, ...]:
    facts = {
        "winner": (before.winner, after.winner),
        "player_total": (before.player_total, after.player_total),
        "banker_total": (before.banker_total, after.banker_total),
        "player_drew": (before.player_third is not None, after.player_third is not None),
        "banker_drew": (before.banker_third is not None, after.banker_third is not None),
    }
    return tuple(name for name in FLIPS if facts[name][0] != facts[name][1])


def _wrap() -> w.Layout:
    return w.Layout(flex_flow="row wrap", max_width="100%")


class HandBuilder(LangMixin, w.VBox):
    """Build a hand card by card (or type a sequence); the engine plays it and explains it.

    ``cards``: text such as ``"2 3 3 4 4"`` or cards in deal order (at most six); default
    BCR-001. ``bets``: optional stakes such as ``{"player": 100}``, settled under ``table``
    (a pay-table name or :class:`~baccarat_kit.PayTable`).
    """

    def __init__(
        self,
        cards: str | Iterable[Card | str | int] | None = None,
        *,
        lang: str = "zh",
        bets: Mapping[str, Decimal | int | str] | Iterable[Bet | tuple[str, Any]] | None = None,
        table: str | PayTable = "commission",
    ) -> None:
        super().__init__()
        self._init_lang(lang)
        self.add_class("bk-hand-builder")
        self.bets: tuple[Bet, ...] = parse_bets(bets) if bets is not None else ()
        self.table: PayTable = pay_table(table)
        self.coup: Coup | None = None
        """The engine's coup for the cards shown (None while the cards cannot make one)."""
        self.previous: Coup | None = None
        """The coup before the last change (what :attr:`flipped` compares with)."""
        self.settled: Settlement | None = None
        self.error: str | None = None
        """The kit's error message (in :attr:`lang`) when the cards cannot be played."""
        self._error: BaccaratError | None = None
        self.flipped: tuple[str, ...] = ()
        """What changed with the last change of cards: names from :data:`FLIPS`."""

        self.title = html_widget("bk-title")
        self.dropdowns: dict[str, w.Dropdown] = {}
        for slot in SLOTS:
            dd = w.Dropdown(options=card_options(self._lang, blank=True), value="",
                            style={"description_width": "5em"},
                            layout=w.Layout(width="12em", max_width="calc(100% - 4px)"))
            dd.add_class(f"bk-card-{slot}")
            dd.observe(self._on_dropdown, names="value")
            self.dropdowns[slot] = dd
            setattr(self, f"card_{slot}", dd)
        self.sequence = w.Text(continuous_update=False, layout=w.Layout(width="24em", max_width="calc(100% - 4px)"),
                               style={"description_width": "5em"})
        self.sequence.add_class("bk-sequence")
        self.sequence.observe(self._on_sequence, names="value")
        self.hands = html_widget("bk-hands")
        self.totals = html_widget("bk-totals")
        self.steps = html_widget("bk-steps")
        self.winner = html_widget("bk-winner")
        self.settlement = html_widget("bk-settlement")
        self.changes = html_widget("bk-changes")
        self.live = live_region("bk-hb-live")
        """The widget's one live region: the result and what changed, said after each change of cards."""
        d = self.dropdowns
        self.children = [
            # each row wraps on a narrow screen (390 px): no card picker is cut off
            w.HBox([self.title, self.lang_toggle], layout=_wrap()),
            w.HBox([d["p1"], d["p2"]], layout=_wrap()),
            w.HBox([d["b1"], d["b2"]], layout=_wrap()),
            w.HBox([d["next1"], d["next2"]], layout=_wrap()),
            self.sequence,
            self.hands,
            self.totals,
            self.steps,
            self.winner,
            self.settlement,
            self.changes,
            self.live,
        ]
        self._label_controls()
        self.set_cards(DEFAULT_CARDS if cards is None else cards)

    # ---- state --------------------------------------------------------------
    @property
    def cards(self) -> tuple[Card, ...]:
        """The cards chosen, in deal order, up to the first empty slot."""
        out: list[Card] = []
        for slot in SLOTS:
            value = self.dropdowns[slot].value
            if not value:
                break
            out.append(parse_cards(value)[0])
        return tuple(out)

    def set_cards(self, cards: str | Iterable[Card | str | int]) -> None:
        """Show these cards (deal order, at most six) and play them.

        A mistake (a card that does not exist, too many cards) is shown in the widget,
        not raised, so a learner sees the kit's message.
        """
        try:
            parsed = parse_cards(cards)
            if len(parsed) > MAX_CARDS:
                raise WidgetError("widgets.hb.too-many", given=len(parsed),
                                  cards=format_cards(parsed))
        except BaccaratError as err:
            self._show_error(err)
            return
        with self._quietly():
            for i, slot in enumerate(SLOTS):
                self.dropdowns[slot].value = parsed[i].label if i < len(parsed) else ""
            self.sequence.value = format_cards(parsed)
        self._update()

    # ---- events -------------------------------------------------------------
    def _on_dropdown(self, change: dict[str, Any]) -> None:
        if self._busy:
            return
        with self._quietly():
            self.sequence.value = format_cards(self.cards)
        self._update()
        self._announce()

    def _on_sequence(self, change: dict[str, Any]) -> None:
        if self._busy:
            return
        self.set_cards(change["new"])
        self._announce()

    def _announce(self) -> None:
        """Say what the learner's change did: the kit's error, or the result and what changed."""
        said = plain_text(self.steps) if self._error is not None else \
            f"{plain_text(self.winner)} {plain_text(self.changes)}"
        announce(self.live, said)

    # ---- engine -------------------------------------------------------------
    def _update(self) -> None:
        try:
            coup = play(self.cards)
        except BaccaratError as err:
            self._show_error(err)
            return
        self._error = None
        self.error = None
        if self.coup is not None:
            self.previous = self.coup
        self.coup = coup
        self.flipped = _flips(self.previous, coup) if self.previous is not None else ()
        self.settled = settle(coup, self.bets, self.table) if self.bets else None
        self._render()

    def _show_error(self, err: BaccaratError) -> None:
        if self.coup is not None:
            self.previous = self.coup
        self.coup = None
        self.settled = None
        self.flipped = ()
        self._error = err
        self._render()

    # ---- view ---------------------------------------------------------------
    def _label_controls(self) -> None:
        self.title.value = title_html(self._t("widgets.hb.title"))
        for slot, dd in self.dropdowns.items():
            value = dd.value
            with self._quietly():
                dd.options = card_options(self._lang, blank=True)
                dd.value = value
            self._label(dd, f"widgets.hb.{slot}")
        self._label(self.sequence, "widgets.hb.sequence")
        self.sequence.placeholder = self._t("widgets.hb.sequence-placeholder")

    def _relabel(self) -> None:
        self._label_controls()
        self._render()

    def _mark(self, *names: str) -> str:
        if any(n in self.flipped for n in names):
            return f' <b class="bk-flipped">{esc(self._t("widgets.hb.flipped-mark"))}</b>'
        return ""

    def _render(self) -> None:
        lang = self._lang
        if self._error is not None:
            self.error = self._error.message(lang)
            text = esc(self._t("widgets.hb.error", message=self.error))
            self.hands.value = ""
            self.totals.value = esc(self._t("widgets.dash"))
            self.steps.value = f'<div class="bk-error">⚠ {text}</div>'
            self.winner.value = esc(self._t("widgets.dash"))
            self.settlement.value = ""
            self.settlement.layout.display = "none"
            self.changes.value = ""
            return
        coup = self.coup
        assert coup is not None
        rows = [
            (self._t("widgets.hb.player"), coup.player_cards, "player_drew"),
            (self._t("widgets.hb.banker"), coup.banker_cards, "banker_drew"),
        ]
        hands = [
            f"<div><b>{esc(name)}</b>{esc(self._t('widgets.label-sep'))}{cards_html(cards, lang)}{self._mark(flip)}</div>"
            for name, cards, flip in rows
        ]
        if coup.unused:
            hands.append(f"<div>{esc(self._t('widgets.hb.unused', cards=format_cards(coup.unused)))}"
                         "</div>")
        self.hands.value = "".join(hands)
        natural = self._t("widgets.hb.natural") if coup.natural else ""
        self.totals.value = (
            f"<b>{esc(self._t('widgets.hb.totals', player=coup.player_total, banker=coup.banker_total))}"
            f"{esc(natural)}</b>{self._mark('player_total', 'banker_total')}"
        )
        lines = [opening_line(coup, lang), *(s.explain(lang) for s in coup.steps)]
        items = "".join(f"<li>{esc(line)}</li>" for line in lines)
        self.steps.value = f"<b>{esc(self._t('widgets.hb.steps-title'))}</b><ol>{items}</ol>"
        self.winner.value = f"<b>{esc(result_line(coup, lang))}</b>{self._mark('winner')}"
        if self.settled is not None:
            title = self._t("widgets.hb.settlement-title", table=self.table.label(self.lang))
            body = "<br>".join(esc(line) for line in self.settled.explain(lang).splitlines())
            self.settlement.value = f"<b>{esc(title)}</b><br>{body}"
            self.settlement.layout.display = None
        else:
            self.settlement.value = ""
            self.settlement.layout.display = "none"
        self.changes.value = esc(self._changes_text())

    def _changes_text(self) -> str:
        before, after = self.previous, self.coup
        if before is None or after is None:
            return self._t("widgets.hb.first")
        if not self.flipped:
            return self._t("widgets.hb.no-change")

        def who(c: Coup) -> str:
            return self._t(f"who.{c.winner}")

        def drew(card: Card | None) -> str:
            return self._t("widgets.hb.drew" if card is not None else "widgets.hb.stood")

        facts = {
            "winner": (who(before), who(after)),
            "player_total": (before.player_total, after.player_total),
            "banker_total": (before.banker_total, after.banker_total),
            "player_drew": (drew(before.player_third), drew(after.player_third)),
            "banker_drew": (drew(before.banker_third), drew(after.banker_third)),
        }
        keys = {"winner": "winner", "player_total": "player-total", "banker_total": "banker-total",
                "player_drew": "player-drew", "banker_drew": "banker-drew"}
        sep = "；" if self._lang == "zh" else "; "
        parts = [self._t(f"widgets.hb.change-{keys[n]}", before=facts[n][0], after=facts[n][1])
                 for n in self.flipped]
        return self._t("widgets.hb.changed", changes=sep.join(parts))

    def __repr__(self) -> str:
        return f"HandBuilder(cards={format_cards(self.cards)!r}, lang={self._lang!r})"
