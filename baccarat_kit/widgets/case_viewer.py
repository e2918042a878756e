"""CaseViewer: pick a case of the catalogue, step through it, toggle its variant.

Works on the case catalogue's contract (``docs/architecture.md``): a catalogue iterates
cases and gives ``catalogue[id]``; a case has ``id``, ``title(lang)``, ``source``,
``basis``, ``assumptions(lang)``, ``kind``, ``cards``, ``variants``, ``parent``,
``change(lang)`` and ``coup()``. The steps and the result are the engine's
(``Step.explain``), never the widget's.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any, Protocol

import ipywidgets as w

from ..cards import Card
from ..coup import Coup
from ..i18n import message
from ._common import (
    LangMixin,
    WidgetError,
    announce,
    button_widget,
    cards_html,
    esc,
    gap,
    html_widget,
    live_region,
    opening_line,
    plain_text,
    result_line,
    row,
    title_html,
)

_NUMBERED = re.compile(r"^\d+\.\s+(.*)$")


def _basis(case: Any, lang: str) -> str:
    """The rules basis in the reader's language when the catalogue offers it."""
    text = getattr(case, "basis_text", None)
    return str(text(lang)) if callable(text) else str(case.basis)


def _source(case: Any, lang: str) -> str:
    """The source for readers: its page id, or the label of a case of the instructor's own."""
    text = getattr(case, "source_text", None)
    return str(text(lang)) if callable(text) else str(case.source)


def _own(case: Any) -> bool:
    """A case the instructor made up (``source = "instructor"``): no source's words to show."""
    return getattr(case, "source", None) == "instructor" and getattr(case, "parent", None) is None


class CaseLike(Protocol):
    """What the viewer needs of a case (the catalogue contract)."""

    id: str
    source: str
    basis: str
    kind: str
    cards: tuple[Card, ...] | None
    variants: tuple[Any, ...]
    parent: Any

    def title(self, lang: str | None = None) -> str: ...
    def assumptions(self, lang: str | None = None) -> str: ...
    def change(self, lang: str | None = None) -> str: ...
    def coup(self) -> Coup: ...


def _default_catalogue() -> Any:
    from .. import cases

    return cases.load()


class CaseViewer(LangMixin, w.VBox):
    """Choose a case (``case_select``), step with ``prev_button``/``next_button``, switch to
    its "change one condition" variant with ``variant_toggle``.

    ``case`` is the case shown (the variant when the toggle is on), ``coup`` its engine coup
    (None for a partial case), ``position`` how many lines of ``lines`` are shown.
    ``catalogue``: any object of the catalogue contract (default: ``bk.cases.load()``).
    """

    def __init__(self, case_id: str | None = None, *, lang: str = "zh",
                 catalogue: Any = None, cases: Iterable[str] | None = None) -> None:
        super().__init__()
        self._init_lang(lang)
        self.add_class("bk-case-viewer")
        self.catalogue = _default_catalogue() if catalogue is None else catalogue
        if cases is None:
            self.cases: tuple[CaseLike, ...] = tuple(
                c for c in self._iter_catalogue() if getattr(c, "parent", None) is None
            )
        else:  # only these cases, in this order (a lesson's own list)
            self.cases = tuple(self._lookup(cid) for cid in cases)
        if not self.cases:
            raise WidgetError("widgets.cv.empty")
        self.case: CaseLike = self.cases[0]
        self.coup: Coup | None = None
        self.lines: tuple[str, ...] = ()
        self.position = 0
        self.variant_index = 0
        """Which of the case's variants the toggle shows (0: the first, ``-variant``)."""

        self.title = html_widget("bk-title")
        self.case_select = w.Dropdown(options=self._case_options(),
                                      layout=w.Layout(width="36em", max_width="calc(100% - 4px)", flex_flow="column"),
                                      style={"description_width": "initial"})
        self.case_select.add_class("bk-case-select")
        self.variant_toggle = w.ToggleButton(value=False, layout=w.Layout(width="auto"))
        self.variant_toggle.add_class("bk-variant-toggle")
        self.prev_button = button_widget("bk-step-prev", lambda: self._step_and_say(-1))
        self.next_button = button_widget("bk-step-next", lambda: self._step_and_say(+1))
        self.info = html_widget("bk-case-info")
        self.progress = html_widget("bk-case-progress")
        self.case_steps = html_widget("bk-case-steps")
        self.source_words = html_widget("bk-case-source")
        self.source_words.layout = w.Layout(flex="1 1 20em", min_width="16em", margin="0 1em 0 0")
        self.case_steps.layout = w.Layout(flex="1 1 24em", min_width="18em")
        self.case_result = html_widget("bk-case-result")
        self.live = live_region("bk-cv-live")
        """The widget's one live region: the step (or the case) the learner's last action shows."""
        self.case_select.observe(self._on_select, names="value")
        self.variant_toggle.observe(self._on_select, names="value")
        self.children = [
            row([self.title, self.lang_toggle]),
            row([self.case_select, self.variant_toggle]),
            self.info,
            row([self.prev_button, self.next_button, self.progress]),
            # the source's words beside the engine's trace; wraps below on a narrow screen
            w.HBox([self.source_words, self.case_steps], layout=w.Layout(flex_flow="row wrap")),
            self.case_result,
            self.live,
        ]
        self._label_controls()
        self.select(case_id if case_id is not None else self.cases[0].id)

    # ---- catalogue ----------------------------------------------------------------
    def _iter_catalogue(self) -> Iterable[CaseLike]:
        cases: Iterable[CaseLike] = iter(self.catalogue)
        return cases

    def _case_options(self) -> list[tuple[str, str]]:
        return [(f"{c.id}{gap(self._lang)}{c.title(self._lang)}", c.id) for c in self.cases]

    def _lookup(self, case_id: str) -> CaseLike:
        try:
            return self.catalogue[case_id]  # type: ignore[no-any-return]
        except (KeyError, LookupError, ValueError):
            ids = self.catalogue.ids() if hasattr(self.catalogue, "ids") else [
                c.id for c in self.cases]
            raise WidgetError("widgets.cv.unknown", value=case_id,
                              choices=", ".join(ids)) from None

    # ---- state --------------------------------------------------------------------
    @property
    def case_id(self) -> str:
        """The id of the case shown (a variant id such as ``BCR-004-variant`` when toggled)."""
        return self.case.id

    @property
    def base_case(self) -> CaseLike:
        """The case chosen in the dropdown (not its variant)."""
        return self._lookup(self.case_select.value)

    @property
    def finished(self) -> bool:
        """Every step is shown, and the result."""
        return bool(self.lines) and self.position >= len(self.lines)

    def select(self, case_id: str, variant: bool | None = None) -> None:
        """Show a case by id; a variant id selects its case with the toggle on."""
        case = self._lookup(case_id)
        parent = getattr(case, "parent", None)
        if parent is not None:
            base, on = parent, variant is not False
            self.variant_index = max(0, [v.id for v in parent.variants].index(case.id))
        else:
            base, on = case, bool(variant)
            self.variant_index = 0
        with self._quietly():
            self.case_select.value = base.id
            self.variant_toggle.value = on and bool(base.variants)
        self._show(base)

    def step(self, delta: int) -> None:
        """Show one more step (``+1``) or one fewer (``-1``)."""
        if self.lines:
            self.position = max(1, min(len(self.lines), self.position + delta))
        self._render()

    def show_all(self) -> None:
        """Show every step and the result."""
        self.position = len(self.lines)
        self._render()

    # ---- events -------------------------------------------------------------------
    def _on_select(self, change: dict[str, Any]) -> None:
        if self._busy:
            return
        if change["owner"] is self.case_select:
            self.variant_index = 0
        self._show(self.base_case)
        self._say(case=True)

    def _step_and_say(self, delta: int) -> None:
        self.step(delta)
        self._say()

    def _say(self, *, case: bool = False) -> None:
        """Say what the learner's last action shows: the case chosen (``case``) and its first
        step, else the step now last; with the last step, the result."""
        parts = [plain_text(self.info).split("\n")[0]] if case else []
        if self.lines:
            parts.append(f"{plain_text(self.progress)}: {self.lines[self.position - 1]}")
        if not self.lines or self.finished:
            parts.append(plain_text(self.case_result) or plain_text(self.case_steps))
        announce(self.live, " ".join(p for p in parts if p))

    def _show(self, base: CaseLike) -> None:
        variants = tuple(getattr(base, "variants", ()) or ())
        if not variants and self.variant_toggle.value:
            with self._quietly():
                self.variant_toggle.value = False
        self.variant_toggle.disabled = not variants
        if self.variant_index >= len(variants):
            self.variant_index = 0
        on = bool(variants) and self.variant_toggle.value
        self.case = variants[self.variant_index] if on else base
        self.coup = self.case.coup() if self.case.kind == "full" and self.case.cards else None
        self.position = 1
        self._render()

    # ---- view ---------------------------------------------------------------------
    def _label_controls(self) -> None:
        self.title.value = title_html(self._t("widgets.cv.title"))
        self._label(self.case_select, "widgets.cv.case")
        value = self.case_select.value
        with self._quietly():
            self.case_select.options = self._case_options()
            if value is not None:
                self.case_select.value = value
        self.variant_toggle.description = self._t("widgets.cv.variant")
        self._label(self.prev_button, "widgets.cv.prev")
        self._label(self.next_button, "widgets.cv.next")

    def _relabel(self) -> None:
        self._label_controls()
        self._render()

    def _render(self) -> None:
        lang, case = self._lang, self.case
        self.variant_toggle.tooltip = self._t(
            "widgets.cv.variant-tip" if not self.variant_toggle.disabled else "widgets.cv.no-variant")
        info = [f"<b>{esc(case.id)}{gap(lang)}{esc(case.title(lang))}</b>",
                esc(self._t("widgets.cv.source", source=_source(case, lang), basis=_basis(case, lang)))]
        if getattr(case, "parent", None) is not None:
            info.append(f'<span class="bk-change">{esc(self._t("widgets.cv.change", change=case.change(lang)))}</span>')
        assumptions = case.assumptions(lang)
        if assumptions:
            info.append(esc(self._t("widgets.cv.assumptions", text=assumptions)))
        value_example = bool(getattr(case, "is_value_example", False))
        if case.cards and not value_example:
            info.append(esc(self._t("widgets.cv.cards", cards=" ".join(c.label for c in case.cards)))
                        + "<br>" + cards_html(case.cards, lang))
        hand = (getattr(case, "givens", {}) or {}).get("hand") if value_example else None
        if hand:  # a card-value example: each card and its value, not a hand
            info.append(esc(self._t("widgets.cv.values", values="、".join(
                f"{c.label}＝{c.value}" for c in hand))))
        self.info.value = "<br>".join(info)
        self.source_words.value = self._source_html()
        coup = self.coup
        if coup is not None:
            self.lines = (opening_line(coup, lang), *(s.explain(lang) for s in coup.steps))
        else:
            self.lines = self._partial_lines()
        if not self.lines:
            self.position = 0
            self.case_steps.value = esc(self._t("widgets.cv.partial"))
            self.case_result.value = ""
            self.progress.value = ""
            self.prev_button.disabled = self.next_button.disabled = True
            return
        self.position = max(1, min(self.position, len(self.lines)))
        shown = self.lines[: self.position]
        self.case_steps.value = "<ol>" + "".join(f"<li>{esc(x)}</li>" for x in shown) + "</ol>"
        self.progress.value = esc(self._t("widgets.cv.progress", shown=self.position,
                                          total=len(self.lines)))
        self.prev_button.disabled = self.position <= 1
        self.next_button.disabled = self.position >= len(self.lines)
        if not self.finished:
            self.case_result.value = esc(self._t("widgets.cv.pending"))
        elif coup is not None:
            result = f"<b>{esc(result_line(coup, lang))}</b>"
            if coup.unused:
                result += "<br>" + esc(message("coup.unused", lang,
                                               cards=" ".join(c.label for c in coup.unused)))
            self.case_result.value = result
        else:
            # a partial case: its last derived step is the result; say how it was derived
            self.case_result.value = esc(self._t("widgets.cv.partial-derived"))

    def _source_html(self) -> str:
        """The source's own words for the case shown: its quote, or for a variant the
        source's "change one condition" sentence (class ``bk-quote``)."""
        case = self.case
        quote = getattr(case, "quote", None)
        label = esc(self._t("widgets.cv.source-words", source=case.source))
        if _own(case):
            label, text = esc(self._t("widgets.cv.own-label")), esc(self._t("widgets.cv.own-words"))
        elif quote:
            text = "<br>".join(esc(line) for line in str(quote).splitlines())
            text += _translation_html(case, self._lang)
        elif getattr(case, "parent", None) is not None:
            text = _variant_words_html(case, self._lang)
        else:
            text = esc(self._t("widgets.dash"))
        return (f"<b>{label}</b>"
                f'<blockquote class="bk-quote" style="margin:0.3em 0;padding:0.3em 0.6em;'
                f'border-left:4px solid #888;background:#f6f6f6">{text}</blockquote>')

    def _partial_lines(self) -> tuple[str, ...]:
        """The numbered steps the catalogue derives for a partial case (``Case.explain``),
        or nothing when the case has no steps (a card-value example)."""
        explain = getattr(self.case, "explain", None)
        if explain is None:
            return ()
        steps = [_NUMBERED.match(line) for line in str(explain(self._lang)).splitlines()]
        return tuple(m.group(1) for m in steps if m)

    def __repr__(self) -> str:
        return f"CaseViewer(case_id={self.case_id!r}, lang={self._lang!r})"


class CaseCard:
    """A case (and its "change one condition" variants) as HTML: for each, the source's own
    words beside the engine's trace, then what flipped. Displays as HTML in a notebook; its
    ``repr`` is the same content as plain text (deterministic, so nbval compares it).

    >>> card = case_card("BCR-004", lang="en")
    >>> "BCR-004-variant" in card.html and "bk-quote" in card.html
    True
    """

    def __init__(self, html: str) -> None:
        self.html = html

    def _repr_html_(self) -> str:
        return self.html

    def __repr__(self) -> str:
        return plain_text(self.html)


def _translation_block(text: str | None, lang: str) -> str:
    """The kit's English translation of a source's words, under them in the English edition
    (class ``bk-translation``, headed "Translation (the kit's)"); nothing in Chinese."""
    if not text or lang != "en":
        return ""
    lines = "<br>".join(esc(x) for x in str(text).splitlines())
    return (f'<div class="bk-translation" lang="en" style="margin-top:0.4em;font-style:italic">'
            f"<small>{esc(message('widgets.cv.translation', lang))}</small><br>{lines}</div>")


def _translation_html(case: Any, lang: str) -> str:
    """The kit's English translation of a case's quote (``Case.translation``), under the
    quote in the English edition (class ``bk-translation``); nothing in Chinese."""
    translate = getattr(case, "translation", None)
    text = translate(lang) if callable(translate) else None
    if text is None and lang == "en" and getattr(case, "quote", None):  # say so, never pass it off
        return (f'<div class="bk-translation bk-no-translation" lang="en" style="margin-top:0.4em">'
                f"<small>{esc(message('widgets.cv.no-translation', lang))}</small></div>")
    return _translation_block(text, lang)


def _variant_words_html(case: Any, lang: str) -> str:
    """A variant's source words: 000's own 「只改一個條件」 sentence, in Chinese in both editions
    (the English edition's copy is the kit's translation, shown under it as one).

    >>> from baccarat_kit.cases import load
    >>> html = _variant_words_html(load()["BCR-006-variant"], "en")
    >>> "只把莊第二張3改4" in html and "bk-translation" in html and "Only the banker's second" in html
    True
    >>> "bk-translation" in _variant_words_html(load()["BCR-006-variant"], "zh")
    False
    """
    own = esc(case.change("zh"))
    return own + _translation_block(case.change("en") if lang == "en" else None, lang)


def _trace(case: Any, lang: str) -> tuple[list[str], str]:
    """The engine's lines and result sentence for a case (a partial one: its derived steps)."""
    if case.kind == "full" and case.cards:
        coup = case.coup()
        lines = [opening_line(coup, lang), *(s.explain(lang) for s in coup.steps)]
        result = result_line(coup, lang)
        if coup.unused:
            result += " " + message("coup.unused", lang, cards=" ".join(c.label for c in coup.unused))
        return lines, result
    steps = [_NUMBERED.match(line) for line in str(case.explain(lang)).splitlines()]
    lines = [m.group(1) for m in steps if m]
    return lines, ""


def case_card(case_id: str, *, lang: str = "zh", catalogue: Any = None) -> CaseCard:
    """The case ``case_id`` and its variants: source's words | engine's trace, as HTML."""
    from .hand_builder import HandBuilder

    cat = _default_catalogue() if catalogue is None else catalogue
    case = cat[case_id]
    cell = "border:1px solid #bbb;padding:0.3em 0.6em;vertical-align:top"
    head = (f'<tr><th style="{cell};width:40%">{esc(message("widgets.cv.col-source", lang))}</th>'
            f'<th style="{cell}">{esc(message("widgets.cv.col-engine", lang))}</th></tr>')
    rows = [head]
    for c in (case, *case.variants):
        if c.parent is None:
            label = f"{c.id}{'　' if lang == 'zh' else ' — '}{c.title(lang)}"
            quote = (esc(message("widgets.cv.own-words", lang)) if _own(c) else
                     "<br>".join(esc(x) for x in str(c.quote or "").splitlines()) + _translation_html(c, lang))
        else:
            label = f"{c.id}{'　' if lang == 'zh' else ' — '}{message('widgets.cv.variant', lang)}"
            quote = _variant_words_html(c, lang)
        lines, result = _trace(c, lang)
        cards = (esc(message("widgets.cv.cards", lang, cards=" ".join(x.label for x in c.cards)))
                 if c.cards else esc(message("widgets.cv.partial-card", lang)))
        steps = "".join(f"<li>{esc(x)}</li>" for x in lines)
        check = c.check()
        verdict = message("widgets.cv.checked" if not check else "widgets.cv.check-failed", lang,
                          problems="; ".join(map(str, check)))
        rows.append(
            f'<tr class="bk-case-row" data-case="{esc(c.id)}">'
            f'<td style="{cell}"><b>{esc(label)}</b><br><small>{esc(message("widgets.cv.source", lang, source=_source(c, lang), basis=_basis(c, lang)))}</small><br>'
            f'<blockquote class="bk-quote" style="margin:0.3em 0;padding:0.2em 0.5em;border-left:4px solid #888">{quote}</blockquote></td>'
            f'<td style="{cell}">{cards}<ol>{steps}</ol>{f"<b>{esc(result)}</b><br>" if result else ""}<small>{esc(verdict)}</small></td></tr>')
    flips = []
    for v in case.variants:
        if case.kind == "full" and case.cards and v.cards:
            hb = HandBuilder(case.cards, lang=lang)
            hb.set_cards(v.cards)
            flips.append(f"<p><b>{esc(v.id)}</b>{esc(message('widgets.label-sep', lang))}{esc(plain_text(hb.changes))}</p>")
    return CaseCard(f'<div class="bk-case-card"><table style="border-collapse:collapse;width:100%">'
                    f"{''.join(rows)}</table>{''.join(flips)}</div>")
