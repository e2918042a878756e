"""Shared pieces of the widgets: the language toggle, cards drawn as cards, HTML helpers.

Nothing here decides a rule; it only renders what the engine returns.

>>> from baccarat_kit import Card
>>> "9♥" in card_html(Card("9♥"), "en") and "bk-red" in card_html(Card("9♥"), "en")
True
>>> "bk-black" in card_html(Card("K♠"), "zh")
True
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any

import ipywidgets as w

from ..cards import Card, Rank, Suit
from ..coup import Coup, banker_why
from ..errors import BaccaratError
from ..i18n import LANGUAGES, message, normalize_language
from ..rules import (
    BANKER_DRAWS_WHEN_PLAYER_STOOD,
    banker_draws,
    format_values,
    hand_total,
)

_SUIT_KEY = {
    Suit.SPADES: "widgets.suit-spades",
    Suit.HEARTS: "widgets.suit-hearts",
    Suit.DIAMONDS: "widgets.suit-diamonds",
    Suit.CLUBS: "widgets.suit-clubs",
}


def esc(text: object) -> str:
    """``text`` escaped for HTML element content (quotes kept as typed)."""
    return html.escape(str(text), quote=False)


def attr(text: object) -> str:
    """``text`` escaped for an HTML attribute value."""
    return html.escape(str(text), quote=True)


def card_aria(card: Card, lang: str) -> str:
    """A card in words: rank, suit, colour and value, so colour is never the only signal."""
    if card.suit is None:
        return message("widgets.card-aria-nosuit", lang, rank=card.rank.value, value=card.value)
    else:
        suit = message(_SUIT_KEY[card.suit], lang)
        colour = message("widgets.colour-red" if card.suit.is_red else "widgets.colour-black", lang)
    return message("widgets.card-aria", lang, rank=card.rank.value, suit=suit, colour=colour,
                   value=card.value)


def card_html(card: Card, lang: str) -> str:
    """One card drawn as a card: rank and suit symbol, red or black, its value written below."""
    if card.suit is None:
        tone, colour = "bk-nosuit", "#333"
    elif card.suit.is_red:
        tone, colour = "bk-red", "#b00020"
    else:
        tone, colour = "bk-black", "#111"
    style = (
        "display:inline-block;min-width:2.6em;padding:0.25em 0.35em;margin:0 0.2em;"
        "border:1px solid #555;border-radius:0.35em;background:#fff;text-align:center;"
        f"color:{colour};font-weight:bold;line-height:1.2;vertical-align:top"
    )
    value = esc(message("widgets.card-value", lang, value=card.value))
    return (
        f'<span class="bk-card {tone}" role="img" aria-label="{attr(card_aria(card, lang))}" '
        f'title="{attr(card_aria(card, lang))}" style="{style}">{esc(card.label)} '
        f'<span style="display:block;font-size:smaller;color:#333;font-weight:normal">{value}'
        "</span></span> "
    )


def cards_html(cards: Iterable[Card], lang: str) -> str:
    return "".join(card_html(c, lang) for c in cards)


def card_options(lang: str, *, blank: bool) -> list[tuple[str, str]]:
    """Dropdown options for one card: each rank without a suit, then with each suit.

    The value is the card's label (``"9"``, ``"9♥"``), ``""`` for "no card".
    """
    opts: list[tuple[str, str]] = []
    if blank:
        opts.append((message("widgets.no-card", lang), ""))
    for rank in Rank:
        opts.append((rank.value, rank.value))
        for suit in Suit:
            label = rank.value + suit.value
            opts.append((f"{label} {message(_SUIT_KEY[suit], lang)}", label))
    return opts


def lang_toggle(lang: str) -> w.ToggleButtons:
    """The language switch every widget carries (CSS class ``bk-lang``)."""
    toggle = w.ToggleButtons(
        options=[(message("widgets.lang-zh", "zh"), "zh"), (message("widgets.lang-en", "en"), "en")],
        value=lang,
        description=message("widgets.lang", lang),
        tooltips=[message("widgets.lang-tip", "zh"), message("widgets.lang-tip", "en")],
        style={"button_width": "6em", "description_width": "initial"},
        layout=w.Layout(width="auto", flex="0 0 auto", margin="0 0 0 1em"),
    )
    toggle.add_class("bk-lang")
    return toggle


# JupyterLab binds ↑/↓ (and J/K, Space …) in a notebook's command mode to moving between
# cells; a focused <select> or radio button is not "editable" to it, so without this the
# arrow keys move the cell selection instead of the value. The snippet runs in the browser once
# per widget root (an image that cannot load calls ``onerror``; while the title is not yet inside
# its widget's root, as ipywidgets may draw a child before it attaches it, it tries again every
# 0.1 s for up to 10 s) and, inside that widget only:
#
# * marks a value picker that gets focus ``data-lm-suppress-shortcuts`` (Lumino skips its
#   shortcuts for such a target) and stops the keys a picker handles itself (arrows, Home, End,
#   Page Up/Down, Space) from bubbling up to JupyterLab, whose keydown listener is on the
#   document: ↓ in a quiz changes the answer, never the cell;
# * gives the radio buttons of each ipywidgets RadioButtons one ``name`` (ipywidgets leaves it
#   unset, so every option was a Tab stop of its own): a group is one Tab stop and the arrows
#   move within it, as a native radio group does. A MutationObserver names the radios a new
#   question brings;
# * makes each live region (:func:`live_region`) a persistent ``role="status"`` element: the
#   region's own content element, which ipywidgets keeps while its text changes (the value is
#   that element's inner HTML). A ``role="status"`` inside the value was a new element on every
#   change, and screen readers announce a region inserted with its text unreliably.
#
# Outside JupyterLab (Voilà, a saved page) the attribute is ignored; the rest works the same.
_KEYS_JS = (
    "var img=this,tries=0,init=function(){var r=img.closest('.bk-widget');"
    "if(!r){if(tries++<100){setTimeout(init,100);}return;}if(r.dataset.bkKeys){return;}r.dataset.bkKeys='1';"
    "var pick=function(t){return !!t&&(t.tagName==='SELECT'||(t.tagName==='INPUT'&&t.type==='radio'));};"
    "var keys=['ArrowUp','ArrowDown','ArrowLeft','ArrowRight','Home','End','PageUp','PageDown',' '];"
    "r.addEventListener('focusin',function(e){if(pick(e.target)){"
    "e.target.setAttribute('data-lm-suppress-shortcuts','true');}});"
    "r.addEventListener('keydown',function(e){if(pick(e.target)&&keys.indexOf(e.key)>=0){"
    "e.stopPropagation();}});"
    "var group=function(){r.querySelectorAll('.widget-radio-box').forEach(function(b){"
    "if(!b.dataset.bkGroup){b.dataset.bkGroup='bk-radio-'+Math.random().toString(36).slice(2);}"
    "b.querySelectorAll('input[type=radio]').forEach(function(i){"
    "if(i.name!==b.dataset.bkGroup){i.name=b.dataset.bkGroup;}});});};"
    "var live=function(){r.querySelectorAll('.bk-live > .widget-html-content').forEach(function(c){"
    "if(c.getAttribute('role')!=='status'){c.setAttribute('role','status');"
    "c.setAttribute('aria-live','polite');c.setAttribute('aria-atomic','true');}});};"
    "var mark=function(){group();live();};"
    "mark();new MutationObserver(mark).observe(r,{childList:true,subtree:true});};init();"
)
KEYBOARD_HTML = (
    f'<img class="bk-keys" src="data:," alt="" aria-hidden="true" '
    f'style="display:none" onerror="{_KEYS_JS}">'
)
"""Markup every widget carries in its title (see ``_KEYS_JS``): ↑/↓ change a picker's value
in JupyterLab instead of moving between cells."""


def title_html(text: str) -> str:
    """A widget's bold title, with the keyboard markup (:data:`KEYBOARD_HTML`)."""
    return f"<b>{esc(text)}</b>{KEYBOARD_HTML}"


def row(children: Iterable[w.Widget], css: str | None = None) -> w.HBox:
    """A row of controls that wraps onto the next line where the screen is too narrow for it
    (a 390 px phone), instead of squeezing each button down to "…" or pushing one off screen.

    >>> r = row([w.Button(description="a"), w.Button(description="b")], "bk-x")
    >>> r.layout.flex_flow, r.layout.max_width, r._dom_classes
    ('row wrap', '100%', ('bk-x',))
    """
    box = w.HBox(list(children), layout=w.Layout(flex_flow="row wrap", max_width="100%"))
    if css:
        box.add_class(css)
    return box


def button_widget(css: str, on_click: Callable[[], object] | None = None, **kwargs: Any) -> w.Button:
    """A button of class ``css``, as wide as its label (unless ``layout`` says otherwise), that
    calls ``on_click()`` when pressed; ``kwargs`` go to :class:`ipywidgets.Button`.

    >>> pressed = []; b = button_widget("bk-x", lambda: pressed.append(1), icon="refresh"); b.click()
    >>> b._dom_classes, b.layout.width, b.icon, pressed
    (('bk-x',), 'auto', 'refresh', [1])
    """
    out = w.Button(**{"layout": w.Layout(width="auto"), **kwargs})
    out.add_class(css)
    if on_click is not None:
        out.on_click(lambda _b: on_click())
    return out


def html_widget(css: str, value: str = "") -> w.HTML:
    out = w.HTML(value=value)
    out.add_class(css)
    return out


LIVE = "bk-live"
"""The class of a widget's live region (:func:`live_region`)."""


def live_region(css: str) -> w.HTML:
    """A widget's one live region: an HTML widget, visually hidden (1 px, class ``bk-sr``), whose
    content element the page makes ``role="status"`` once (:data:`KEYBOARD_HTML`, so it needs the
    widget's :func:`title_html`) and keeps: :func:`announce` changes only its text, which a
    screen reader then reads. One per widget, for what the learner's last action changed.

    >>> region = live_region("bk-quiz-live")
    >>> sorted(region._dom_classes), region.value
    (['bk-live', 'bk-quiz-live', 'bk-sr'], '')
    """
    region = html_widget(LIVE)
    region.add_class("bk-sr")
    region.add_class(css)
    # hidden the way a screen-reader-only text is (display:none would hide it from them too)
    region.layout = w.Layout(width="1px", height="1px", overflow="hidden", margin="-1px 0 0 0",
                             padding="0", border="0")
    return region


def announce(region: w.HTML, text: str) -> None:
    """Say ``text`` in ``region`` (a :func:`live_region`). The same text said again is still
    read: it then ends in a zero-width space, so the region's text changes.

    >>> region = live_region("bk-x")
    >>> announce(region, "Right: A. stands"); region.value
    'Right: A. stands'
    >>> announce(region, "Right: A. stands"); region.value
    'Right: A. stands\u200b'
    """
    value = esc(" ".join(text.split()))
    region.value = value + "\u200b" if region.value == value else value


def check_lang(lang: str | None) -> str:
    """``"zh"`` or ``"en"``; a :class:`~baccarat_kit.errors.LanguageError` otherwise."""
    normalized = normalize_language(lang)
    assert normalized in LANGUAGES
    return normalized


class LangMixin:
    """A ``lang`` property shared by the widgets: setting it relabels and re-renders."""

    _lang: str
    lang_toggle: w.ToggleButtons
    _busy = False
    """True while the widget sets its own controls (:meth:`_quietly`): their observers do nothing."""

    @contextmanager
    def _quietly(self) -> Iterator[None]:
        """Set the widget's own controls without their observers reacting (see ``_busy``)."""
        was, self._busy = self._busy, True
        try:
            yield
        finally:
            self._busy = was

    def _init_lang(self, lang: str | None) -> None:
        self._lang = check_lang(lang)
        self.add_class("bk-widget")  # type: ignore[attr-defined]
        self.lang_toggle = lang_toggle(self._lang)
        self.lang_toggle.observe(self._on_lang, names="value")

    @property
    def lang(self) -> str:
        """The widget's language, ``"zh"`` or ``"en"``; set it (or click ``bk-lang``) to switch."""
        return self._lang

    @lang.setter
    def lang(self, value: str) -> None:
        new = check_lang(value)
        if self.lang_toggle.value != new:
            self.lang_toggle.value = new  # calls _on_lang
        elif new != self._lang:
            self._lang = new
            self._relabel()

    def _on_lang(self, change: dict[str, Any]) -> None:
        self._lang = check_lang(change["new"])
        self.lang_toggle.description = message("widgets.lang", self._lang)
        self._relabel()

    def _relabel(self) -> None:
        """Re-render every label and output in the current language.

        The base has nothing beyond the language toggle (relabelled in ``_on_lang``);
        each widget overrides this for its own controls."""

    def _t(self, key: str, /, **params: Any) -> str:
        return message(key, self._lang, **params)

    def _label(self, control: w.DOMWidget, key: str) -> None:
        """Label ``control`` with the message ``key``, its tooltip with the message ``key-tip``."""
        control.description, control.tooltip = self._t(key), self._t(f"{key}-tip")

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any]:
        """The widget view, plus a static ``text/html`` preview of what the widget shows.

        JupyterLab draws a stored widget only in a trusted notebook (or once its cell has
        run); a lesson fresh from the repository is not trusted, so it falls back to the
        richest safe type: this preview, instead of the bare ``text/plain`` repr."""
        data: dict[str, Any] = super()._repr_mimebundle_(**kwargs)  # type: ignore[misc]
        data["text/html"] = static_html(self, self._lang)
        return data


def gap(lang: str) -> str:
    """The space between a label and its value: a full-width space in Chinese, an ordinary
    one in English.

    >>> gap("zh"), gap("en")
    ('\u3000', ' ')
    """
    return "\u3000" if lang == "zh" else " "


def _control_text(widget: w.Widget, lang: str = "zh") -> str | None:
    """A value picker's description and its current choice, as text."""
    if isinstance(widget, w.ToggleButtons):
        return None  # the language switch
    if isinstance(widget, w.RadioButtons):
        items = "".join(f"<li>{esc(label)}</li>" for label in widget._options_labels)
        return f"<ul>{items}</ul>"
    if isinstance(widget, w.Dropdown | w.Select):
        label = widget.label if widget.label is not None else ""
        return f"{esc(widget.description)}{gap(lang)}<b>{esc(label)}</b>"
    if isinstance(widget, w.Text | w.IntText | w.BoundedIntText):
        return f"{esc(widget.description)}{gap(lang)}<b>{esc(widget.value)}</b>"
    return None


def static_html(widget: w.Widget, lang: str) -> str:
    """What a widget shows, as static HTML (for notebooks that are not trusted yet):
    a note saying how to make it live, then every output and the current choice of every
    picker, in order. Buttons and the language switch are left out."""
    parts: list[str] = []

    def walk(node: w.Widget) -> None:
        if LIVE in node._dom_classes:
            return  # a hidden live region repeats what the widget shows
        if isinstance(node, w.HTML):
            if node.value:
                parts.append(f"<div>{node.value.replace(KEYBOARD_HTML, '')}</div>")
            return
        if isinstance(node, w.Box):
            for child in node.children:
                walk(child)
            return
        text = _control_text(node, lang)
        if text:
            parts.append(f"<div>{text}</div>")

    walk(widget)
    return (f'<div class="bk-static" style="border:1px dashed #888;padding:0.4em 0.6em">'
            f'{note_html("widgets.static-note", lang, "bk-static-note")}{"".join(parts)}</div>')


def note_html(key: str, lang: str, css: str) -> str:
    """The message ``key`` as a note in ``lang`` (the widget's language, its lesson's edition:
    an English lesson shows no Chinese but the sources' quoted words, and a Chinese one the same
    sentence in Chinese), about what a preview or a stored view needs to respond."""
    return (f'<p class="{css}" lang="{"zh-Hant" if lang == "zh" else lang}" role="note">'
            f"<i>{esc(message(key, lang))}</i></p>")


class WidgetError(BaccaratError):
    """A widget asked for something that does not exist (an unknown case, a bad question)."""


def opening_line(coup: Coup, lang: str) -> str:
    """The first-two-cards sentence of a coup, with the engine's own message."""
    p, b = coup.player_cards, coup.banker_cards
    key = "coup.opening-natural" if coup.natural else "coup.opening"
    return message(
        key, lang, p1=p[0].label, p2=p[1].label, pt=hand_total(p[:2]),
        b1=b[0].label, b2=b[1].label, bt=hand_total(b[:2]),
    )


def result_line(coup: Coup, lang: str) -> str:
    """The result sentence of a coup (who won, with the totals)."""
    return message(f"coup.result-{coup.winner}", lang, player=coup.player_total,
                   banker=coup.banker_total)


def banker_reason(total: int, third: int | None, lang: str) -> str:
    """The banker's decision and its reason, every fact asked of the rules engine."""
    drew = banker_draws(total, third)
    action = message("action.draw" if drew else "action.stand", lang)
    if third is None:
        draws = BANKER_DRAWS_WHEN_PLAYER_STOOD
        stands = set(range(8)) - draws
        return message("widgets.rc.reason-stood", lang, draws=format_values(draws),
                       stands=format_values(stands), total=total, action=action)
    return message("widgets.rc.reason-third", lang, value=third, why=banker_why(total, lang),
                   total=total, action=action)


_BREAKS = re.compile(r"<br\s*/?>|</?(?:li|ol|ul|div|tr|p|table|caption|figcaption)(?:\s[^>]*)?>", re.IGNORECASE)
_CELLS = re.compile(r"</?(?:td|th)(?:\s[^>]*)?>", re.IGNORECASE)
_TAGS = re.compile(r"<[^>]+>")


def plain_text(widget_or_html: w.Widget | str) -> str:
    """What an HTML output says, as plain text: one line per line break, list item or row.

    >>> plain_text("<b>結果</b><br>閒 9<ol><li>a</li><li>b &amp; c</li></ol>")
    '結果\\n閒 9\\na\\nb & c'
    """
    value = widget_or_html if isinstance(widget_or_html, str) else widget_or_html.value
    text = _TAGS.sub("", _CELLS.sub(" ", _BREAKS.sub("\n", value)))
    lines = [" ".join(line.split()) for line in html.unescape(text).splitlines()]
    return "\n".join(line for line in lines if line)
