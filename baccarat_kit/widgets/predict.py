"""Predict: the learner answers a source's case first; then the source's words and the trace.

``bk.widgets.Predict("000-EX-2", lang=LANG)`` shows what the case gives (totals, the third
card, or the cards in deal order), asks the decision the source states (the banker's draw or
stand, else the player's, else who wins) and hides everything else. After an answer it shows
whether the engine agrees, the one-line engine call a learner could type, the source's own words
and the engine's step-by-step trace. Nothing here decides a rule: the case's outcome comes from
the engine (:meth:`baccarat_kit.cases.Case.outcome`).

>>> p = Predict("000-EX-2", lang="en")
>>> p.asks, p.answer, p.reveal.value
('banker_decision', 'stand', '')
>>> p.respond("draw")
False
>>> "banker_draws(3, 8)" in plain_text(p.reveal) and "閒家先依" in plain_text(p.reveal)
True
"""

from __future__ import annotations

from typing import Any

import ipywidgets as w

from ._common import LangMixin, WidgetError, esc, html_widget, plain_text, title_html

__all__ = ["Predict", "plain_text"]

_ASKS = ("banker_decision", "player_decision", "winner")
_CHOICES = {"banker_decision": ("draw", "stand"), "player_decision": ("draw", "stand"),
            "winner": ("player", "banker", "tie")}


class Predict(LangMixin, w.VBox):
    """One case, predicted before it is shown: ``buttons`` (by answer), ``feedback``, ``reveal``."""

    def __init__(self, case_id: str, *, lang: str = "zh", catalogue: Any = None) -> None:
        super().__init__()
        self._init_lang(lang)
        self.add_class("bk-predict")
        from ..cases import load

        cat = load() if catalogue is None else catalogue
        self.case = cat[case_id]
        self.outcome = self.case.outcome()
        asks = [a for a in _ASKS if a in self.case.claims and self.outcome.values.get(a) is not None]
        if not asks:
            raise WidgetError("widgets.predict.nothing", id=case_id)
        self.asks = asks[0]
        self.answer = str(self.outcome.values[self.asks])
        self.chosen: str | None = None
        self.title = html_widget("bk-title")
        self.prompt = html_widget("bk-predict-prompt")
        self.buttons = {}
        for value in _CHOICES[self.asks]:
            button = w.Button(layout=w.Layout(width="auto"))
            button.add_class(f"bk-predict-{value}")
            button.on_click(lambda _b, v=value: self.respond(v))
            self.buttons[value] = button
        self.feedback = html_widget("bk-predict-feedback")
        self.reveal = html_widget("bk-predict-reveal")
        self.children = [w.HBox([self.title, self.lang_toggle]), self.prompt,
                         w.HBox(list(self.buttons.values())), self.feedback, self.reveal]
        self._relabel()

    def respond(self, choice: str) -> bool:
        """Answer with ``choice`` (``draw``/``stand`` or ``player``/``banker``/``tie``); the
        source's words and the trace appear. Returns whether the engine agrees."""
        if choice not in _CHOICES[self.asks]:
            raise WidgetError("widgets.predict.bad-choice", value=choice, choices=", ".join(_CHOICES[self.asks]))
        self.chosen = choice
        self._render_answer()
        return choice == self.answer

    # ---- view ---------------------------------------------------------------------
    def _givens(self) -> str:
        v = self.outcome.values
        parts = []
        if self.case.cards:
            parts.append(self._t("widgets.predict.cards", cards=" ".join(c.label for c in self.case.cards)))
        else:
            if v.get("player_first_total") is not None:
                parts.append(self._t("widgets.predict.player-total", total=v["player_first_total"]))
            if v.get("player_third") is not None:
                parts.append(self._t("widgets.predict.player-third", value=v["player_third"]))
            elif v.get("player_decision") == "stand" and self.asks != "player_decision":
                parts.append(self._t("widgets.predict.player-stood"))
            if v.get("banker_first_total") is not None:
                parts.append(self._t("widgets.predict.banker-total", total=v["banker_first_total"]))
        return "；".join(parts) if self._lang == "zh" else "; ".join(parts)

    def _call(self) -> str:
        """The one-line engine call that answers the question."""
        v = self.outcome.values
        if self.case.cards:
            cards = " ".join(c.label for c in self.case.cards)
            if self.asks == "winner":
                return f'bk.play("{cards}").winner'
            hand = "banker_cards" if self.asks == "banker_decision" else "player_cards"
            return f'len(bk.play("{cards}").{hand}) == 3'
        if self.asks == "banker_decision":
            third = v.get("player_third")
            return f"bk.banker_draws({v['banker_first_total']}, {third if third is not None else None})"
        return f"bk.player_draws({v['player_first_total']})"

    def _render_answer(self) -> None:
        if self.chosen is None:
            self.feedback.value = self.reveal.value = ""
            return
        said = self._t(f"widgets.predict.{self.answer}")
        key = "widgets.predict.right" if self.chosen == self.answer else "widgets.predict.wrong"
        css = "bk-right" if self.chosen == self.answer else "bk-wrong"
        self.feedback.value = (f'<div role="status"><b class="{css}">'
                               f'{esc(self._t(key, got=self._t(f"widgets.predict.{self.chosen}"), answer=said))}'
                               "</b></div>")
        call = self._call()
        quote = self.case.quote or ""
        trace = self.case.explain(self._lang)
        self.reveal.value = (
            f'<div class="bk-predict-engine"><b>{esc(self._t("widgets.predict.engine"))}</b> <code>{esc(call)}</code>'
            f' → {esc(self._t("widgets.predict.rules", rules=", ".join(self.outcome.rules)))}</div>'
            + (f'<blockquote class="bk-quote" lang="zh-Hant">{esc(quote)}</blockquote>' if quote else "")
            + f'<pre class="bk-predict-trace" style="white-space:pre-wrap">{esc(trace)}</pre>')

    def _relabel(self) -> None:
        self.title.value = title_html(self._t("widgets.predict.title", id=self.case.id))
        question = self._t(f"widgets.predict.ask-{self.asks}")
        self.prompt.value = f"<b>{esc(self._givens())}</b><br>{esc(question)}"
        for value, button in self.buttons.items():
            button.description = self._t(f"widgets.predict.{value}")
        self._render_answer()

    def __repr__(self) -> str:
        return f"Predict({self.case.id!r}, lang={self._lang!r})"
