"""Predict: the learner answers a source's case first; then the source's words and the trace.

``bk.widgets.Predict("000-EX-2", lang=LANG)`` shows what the case gives, asks the decision the
source states (the banker's draw or stand, else the player's, else who wins) and hides everything
else. ``asks=`` picks the question: ``"banker_decision"``, ``"player_decision"``, ``"winner"`` or
``"returned"`` (what a bet the source names pays back). Only what is known before the answer is
shown: for a decision, the cards dealt before it (a banker's third card is never shown before
"does the banker draw?"); for who wins or what is paid, every card dealt. After an answer it shows
whether the engine agrees, the one-line engine call a learner could type, the source's own words
and the engine's step-by-step trace (for a variant, the one condition it changed). Nothing here
decides a rule or a payout: the case's outcome comes from the engine
(:meth:`baccarat_kit.cases.Case.outcome`, :func:`baccarat_kit.settle`).

``record="05"`` keeps the answer in the learner's progress record (``quizzes["predict"]``,
:func:`baccarat_kit.progress.record_predict`) under the lesson, its edition's language and the
question (:attr:`Predict.key`, ``05/en/BCR-001:winner``): after a kernel restart the widget shows
it again, and the same case asked in another lesson or the other edition starts unanswered.
``retry_button`` (:meth:`Predict.retry`) hides the answer and its reveal so the learner can
predict again; the first answer stays the one that counts. A record written before keys carried
the lesson and language (``BCR-001:winner`` with ``lesson = "05"``) is read as that lesson's
Chinese edition, the course's first.

>>> p = Predict("000-EX-2", lang="en")
>>> p.asks, p.answer, p.reveal.value
('banker_decision', 'stand', '')
>>> p.respond("draw")
False
>>> "banker_draws(3, 8)" in plain_text(p.reveal) and "閒家先依" in plain_text(p.reveal)
True
>>> paid = Predict("BCR-001", asks="returned", lang="en")
>>> sorted(paid.buttons), paid.answer
(['0', '100', '200'], '200')
"""

from __future__ import annotations

from decimal import Decimal
from functools import partial
from typing import Any

import ipywidgets as w

from .. import progress
from ..i18n import message
from ._common import (
    LangMixin,
    WidgetError,
    announce,
    button_widget,
    esc,
    html_widget,
    live_region,
    plain_text,
    row,
    title_html,
)

__all__ = ["Predict", "plain_text"]

_ASKS = ("banker_decision", "player_decision", "winner", "returned")
_CHOICES = {"banker_decision": ("draw", "stand"), "player_decision": ("draw", "stand"),
            "winner": ("player", "banker", "tie")}


def _amount(value: Decimal) -> str:
    """A Decimal amount as a learner writes it (``200``, ``195``, ``97.5``)."""
    return format(value.normalize(), "f")


class Predict(LangMixin, w.VBox):
    """One case, predicted before it is shown: ``buttons`` (by answer), ``feedback``, ``reveal``."""

    def __init__(self, case_id: str, *, lang: str = "zh", asks: str | None = None,
                 record: str | None = None, catalogue: Any = None) -> None:
        super().__init__()
        self._init_lang(lang)
        self.add_class("bk-predict")
        from ..cases import load

        cat = load() if catalogue is None else catalogue
        self.case = cat[case_id]
        self.outcome = self.case.outcome()
        self.coup = self.case.coup() if self.case.cards else None
        can = [a for a in _ASKS[:3] if a in self.case.claims and self.outcome.values.get(a) is not None]
        if self.case.bets and self.coup is not None:
            can.append("returned")
        if asks is not None and asks not in _ASKS:
            raise WidgetError("widgets.predict.bad-asks", value=asks, choices=", ".join(_ASKS))
        if asks is not None and asks not in can:
            raise WidgetError("widgets.predict.cannot-ask", id=case_id, value=asks,
                              choices=", ".join(can) or "—")
        if not can:
            raise WidgetError("widgets.predict.nothing", id=case_id)
        self.asks = asks or can[0]
        self.choices = self._choices()
        self.record = record
        self.chosen: str | None = None
        self.first: str | None = None
        self.retried = False
        """Whether the learner pressed "predict again" (the answer shown is not the scored one)."""
        self.title = html_widget("bk-title")
        self.prompt = html_widget("bk-predict-prompt")
        self.buttons = {}
        for value in self.choices:
            css = f"bk-predict-{value}" if self.asks != "returned" else "bk-predict-amount"
            self.buttons[value] = button_widget(css, partial(self.respond, value))
        self.edition = self._lang
        """The language the widget was built in (its lesson's edition): part of :attr:`key`."""
        self.retry_button = button_widget("bk-predict-retry", lambda: self.retry(), icon="repeat", disabled=True)
        self.feedback = html_widget("bk-predict-feedback")
        self.reveal = html_widget("bk-predict-reveal")
        self.live = live_region("bk-predict-live")
        """The widget's one live region: whether the engine agrees, said after each answer."""
        self.children = [row([self.title, self.lang_toggle]), self.prompt,
                         row([*self.buttons.values(), self.retry_button]), self.feedback, self.reveal,
                         self.live]
        if record:
            saved = self._saved()
            if saved.get("answer") in self.choices:
                self.chosen = str(saved["answer"])
                self.first = str(saved.get("first_answer", self.chosen))
        self._relabel()

    @property
    def key(self) -> str:
        """The answer's key in the progress record: ``lesson/edition language/case id:question``
        (``05/en/BCR-001:winner``), so a case asked in two lessons or in both editions is
        predicted afresh in each."""
        return f"{self.record}/{self.edition}/{self.case.id}:{self.asks}"

    @property
    def legacy_key(self) -> str:
        """The key of records written before :attr:`key` named the lesson and language."""
        return f"{self.case.id}:{self.asks}"

    def _saved(self) -> dict[str, Any]:
        """This question's entry in the record: under :attr:`key`, else (an older record) the
        :attr:`legacy_key` entry recorded in this lesson, read as its Chinese edition."""
        answers = progress.load()["quizzes"].get("predict", {}).get("answers", {})
        entry = answers.get(self.key)
        if isinstance(entry, dict):
            return entry
        old = answers.get(self.legacy_key)
        if isinstance(old, dict) and str(old.get("lesson")) == str(self.record) and self.edition == "zh":
            return old
        return {}

    def retry(self) -> None:
        """Predict again: the answer, the feedback and the reveal are hidden; the first answer
        stays the one that counts (:attr:`first`)."""
        self.chosen = None
        self.retried = True
        self._render_answer()

    def _choices(self) -> tuple[str, ...]:
        """The answers offered and, as :attr:`answer`, the engine's."""
        if self.asks != "returned":
            self.answer = str(self.outcome.values[self.asks])
            return _CHOICES[self.asks]
        from ..settlement import settle

        assert self.coup is not None
        (bet,) = self.case.bets[:1]
        self.bet = bet
        engine = settle(self.coup, {bet.area: bet.stake}, bet.table).returned
        self.answer = _amount(engine)
        # Nothing back (lost), the stake back, the engine's answer and what the source's
        # variants pay on the same bet: the learner tells a return from a net win.
        amounts = {Decimal(0), bet.stake, engine}
        for variant in getattr(self.case, "variants", ()):
            if variant.cards:
                amounts.add(settle(variant.coup(), {bet.area: bet.stake}, bet.table).returned)
        return tuple(_amount(a) for a in sorted(amounts))

    def respond(self, choice: str) -> bool:
        """Answer with ``choice`` (``draw``/``stand`` or ``player``/``banker``/``tie``); the
        source's words and the trace appear. Returns whether the engine agrees."""
        choice = str(choice)
        if choice not in self.choices:
            raise WidgetError("widgets.predict.bad-choice", value=choice, choices=", ".join(self.choices))
        self.chosen = choice
        if self.first is None:
            self.first = choice
        record, first = self.record, self.first
        if record:
            progress.kept(lambda: progress.record_predict(record, self.key, choice, first == self.answer, first,
                                                          right=choice == self.answer))
        self._render_answer()
        announce(self.live, plain_text(self.feedback))
        return choice == self.answer

    # ---- view ---------------------------------------------------------------------
    def _givens(self) -> str:
        v = self.outcome.values
        parts = []
        if self.coup is not None:
            coup = self.coup
            if self.asks in ("winner", "returned"):
                parts.append(self._t("widgets.predict.cards", cards=" ".join(c.label for c in coup.cards)))
            else:
                first = [coup.player_cards[0], coup.banker_cards[0], coup.player_cards[1], coup.banker_cards[1]]
                parts.append(self._t("widgets.predict.first-four", cards=" ".join(c.label for c in first)))
                if self.asks == "banker_decision":
                    if coup.player_third is not None:
                        parts.append(self._t("widgets.predict.player-third-card", card=coup.player_third.label))
                    elif not coup.natural:
                        parts.append(self._t("widgets.predict.player-stood"))
            if self.asks == "returned":
                parts.append(self._t("widgets.predict.bet", area=self._t(f"widgets.predict.area-{self.bet.area}"),
                                     stake=_amount(self.bet.stake)))
        else:
            if v.get("player_first_total") is not None:
                parts.append(self._t("widgets.predict.player-total", total=v["player_first_total"]))
            if v.get("player_third") is not None:
                parts.append(self._t("widgets.predict.player-third", value=v["player_third"]))
            elif v.get("player_decision") == "stand" and self.asks != "player_decision":
                parts.append(self._t("widgets.predict.player-stood"))
            if v.get("banker_first_total") is not None:
                parts.append(self._t("widgets.predict.banker-total", total=v["banker_first_total"]))
            if self.asks == "winner" and v.get("banker_third") is not None:
                parts.append(self._t("widgets.predict.banker-third", value=v["banker_third"]))
        return "；".join(parts) if self._lang == "zh" else "; ".join(parts)

    def _call(self) -> str:
        """The one-line engine call that answers the question."""
        v = self.outcome.values
        if self.coup is not None:
            cards = " ".join(c.label for c in self.coup.cards)
            if self.asks == "returned":
                return (f'bk.settle(bk.play("{cards}"), {{"{self.bet.area}": {_amount(self.bet.stake)}}}'
                        + (f', "{self.bet.table}"' if self.bet.table != "commission" else "") + ").returned")
            if self.asks == "winner":
                return f'bk.play("{cards}").winner'
            hand = "banker_cards" if self.asks == "banker_decision" else "player_cards"
            return f'len(bk.play("{cards}").{hand}) == 3'
        if self.asks == "winner":
            third = v.get("player_third")
            return (f"bk.player_draws({v['player_first_total']}), "
                    f"bk.banker_draws({v['banker_first_total']}, {third if third is not None else None})")
        if self.asks == "banker_decision":
            third = v.get("player_third")
            return f"bk.banker_draws({v['banker_first_total']}, {third if third is not None else None})"
        return f"bk.player_draws({v['player_first_total']})"

    def _said(self, value: str) -> str:
        if self.asks == "returned":
            return self._t("widgets.predict.amount", amount=value)
        return self._t(f"widgets.predict.{value}")

    def _render_answer(self) -> None:
        self.retry_button.disabled = self.chosen is None
        if self.chosen is None:
            self.feedback.value = self.reveal.value = ""
            return
        said = self._said(self.answer)
        key = "widgets.predict.right" if self.chosen == self.answer else "widgets.predict.wrong"
        css = "bk-right" if self.chosen == self.answer else "bk-wrong"
        again = (f'<br><i class="bk-not-counted">{esc(self._t("widgets.predict.retry-note", first=self._said(self.first)))}</i>'
                 if self.retried and self.first is not None else "")
        self.feedback.value = (f'<div><b class="{css}">'
                               f'{esc(self._t(key, got=self._said(self.chosen), answer=said))}'
                               f"</b>{again}</div>")
        call = self._call()
        quote, translation = self._source_words()
        trace = self.case.explain(self._lang, quote=False)  # the words once, in the blockquote
        self.reveal.value = (
            f'<div class="bk-predict-engine"><b>{esc(self._t("widgets.predict.engine"))}</b> <code>{esc(call)}</code>'
            f' → {esc(self._t("widgets.predict.rules", rules=", ".join(self.outcome.rules)))}</div>'
            + (f'<blockquote class="bk-quote"><span lang="zh-Hant">{esc(quote)}</span>'
               + (f'<br><small>{esc(self._t("widgets.cv.translation"))}</small> <i lang="en">{esc(translation)}</i>'
                  if translation else "")
               + "</blockquote>" if quote else "")
            + f'<pre class="bk-predict-trace" style="white-space:pre-wrap">{esc(trace)}</pre>')

    def _source_words(self) -> tuple[str, str | None]:
        """The source's own words for the reveal and, in the English edition, the kit's
        translation: a case's ``quote`` (``quote_en``), or for a variant 000's 只改一個條件
        sentence (``change.en``)."""
        case = self.case
        if case.quote:
            return case.quote, case.translation(self._lang)
        if case.parent is not None and case.change("zh"):
            return (message("cases.show.change", "zh", text=case.change("zh")),
                    case.change("en") if self._lang == "en" else None)
        return "", None

    def _relabel(self) -> None:
        self.title.value = title_html(self._t("widgets.predict.title", id=self.case.id))
        question = self._t(f"widgets.predict.ask-{self.asks}")
        self.prompt.value = f"<b>{esc(self._givens())}</b><br>{esc(question)}"
        for value, button in self.buttons.items():
            button.description = self._said(value)
        self._label(self.retry_button, "widgets.predict.retry")
        self._render_answer()

    def __repr__(self) -> str:
        return f"Predict({self.case.id!r}, lang={self._lang!r})"
