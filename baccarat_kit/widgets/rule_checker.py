"""RuleChecker: banker total and the player's third card → draw or stand, with the reason.

Beside the answer, the banker matrix (rendered from the engine's own table) with the
chosen cell highlighted (class ``bk-selected``). Draw and stand cells say 補／停 (D/S)
in text, so colour is never the only signal.

>>> rc = RuleChecker(lang="en")
>>> rc.banker_total.value = 3
>>> rc.player_third.value = 8
>>> rc.draws, rc.rule
(False, 'banker-3-vs-8')
>>> rc.player_third.value = RuleChecker.STOOD
>>> rc.draws, rc.rule
(True, 'banker-3-player-stood')
"""

from __future__ import annotations

from typing import Any

import ipywidgets as w

from ..rules import VALUES, banker_draws, banker_rule
from ._common import (
    LangMixin,
    announce,
    attr,
    banker_reason,
    esc,
    html_widget,
    live_region,
    plain_text,
    title_html,
)

STOOD = "stood"
"""The value of ``bk-player-third`` meaning "the player stood (no third card)"."""

BANKER_TOTALS = tuple(range(8))
"""The banker totals the drawing table uses (8 and 9 are naturals)."""


def _third(value: int | str) -> int | None:
    return None if value == STOOD else int(value)


class RuleChecker(LangMixin, w.VBox):
    """Pick a banker total and the player's third card (or "player stood"); see the decision.

    ``banker_total`` and ``player_third`` are the two dropdowns (values ``0``–``7`` and
    ``"stood"`` or ``0``–``9``); ``decision``, ``reason`` and ``matrix`` are HTML outputs.
    ``draws`` and ``rule`` hold the engine's answer for the current choice.
    """

    STOOD = STOOD

    def __init__(self, *, lang: str = "zh", banker_total: int = 3,
                 player_third: int | None = None) -> None:
        banker_rule(banker_total, player_third)  # the engine's error for a cell not in the table
        super().__init__()
        self._init_lang(lang)
        self.add_class("bk-rule-checker")
        self.draws: bool = False
        self.rule: str = ""
        self.title = html_widget("bk-title")
        # width auto, never wider than the widget: at 390 px a picker is never cut off
        self.banker_total = w.Dropdown(options=[(str(t), t) for t in BANKER_TOTALS],
                                       value=banker_total, style={"description_width": "initial"},
                                       layout=w.Layout(width="auto", max_width="calc(100% - 4px)", flex_flow="row wrap"))
        self.banker_total.add_class("bk-banker-total")
        self.player_third = w.Dropdown(options=self._third_options(),
                                       value=STOOD if player_third is None else player_third,
                                       style={"description_width": "initial"},
                                       layout=w.Layout(width="auto", max_width="calc(100% - 4px)", flex_flow="row wrap"))
        self.player_third.add_class("bk-player-third")
        self.decision = html_widget("bk-decision")
        self.reason = html_widget("bk-reason")
        self.matrix = html_widget("bk-matrix")
        self.matrix.layout = w.Layout(max_width="100%", overflow="auto")  # never cut a column off
        # the matrix's caption above it, as wide as the widget: on a 390 px screen it wraps and
        # stays in place while the table scrolls sideways beneath it
        self.matrix_caption = html_widget("bk-matrix-caption")
        self.live = live_region("bk-rc-live")
        """The widget's one live region: the decision and its reason, said after each change."""
        self.banker_total.observe(self._on_change, names="value")
        self.player_third.observe(self._on_change, names="value")
        answer = w.VBox([self.banker_total, self.player_third, self.decision, self.reason],
                        layout=w.Layout(flex="1 1 22em", min_width="min(18em, 100%)", max_width="calc(100% - 4px)"))
        self.children = [
            w.HBox([self.title, self.lang_toggle], layout=w.Layout(flex_flow="row wrap")),
            # the answer beside the matrix; wraps below it on a narrow screen
            w.HBox([answer, w.VBox([self.matrix_caption, self.matrix],
                                   layout=w.Layout(flex="1 1 24em", min_width="0", max_width="100%"))],
                   layout=w.Layout(flex_flow="row wrap")),
            self.live,
        ]
        self._relabel()

    def check(self, banker_total: int, player_third: int | None) -> bool:
        """Choose a cell (``player_third=None``: the player stood); returns whether the banker draws."""
        banker_rule(banker_total, player_third)
        self.banker_total.value = banker_total
        self.player_third.value = STOOD if player_third is None else player_third
        return self.draws

    def _third_options(self) -> list[tuple[str, int | str]]:
        opts: list[tuple[str, int | str]] = [(self._t("widgets.rc.stood"), STOOD)]
        for v in VALUES:
            label = self._t(f"widgets.rc.value-{v}") if v in (0, 1) else str(v)
            opts.append((label, v))
        return opts

    def _on_change(self, change: dict[str, Any]) -> None:
        if self._busy:
            return
        self._render()
        announce(self.live, f"{plain_text(self.decision)} {plain_text(self.reason)}")

    def _relabel(self) -> None:
        self.title.value = title_html(self._t("widgets.rc.title"))
        self._label(self.banker_total, "widgets.rc.banker-total")
        value = self.player_third.value
        with self._quietly():
            self.player_third.options = self._third_options()
            self.player_third.value = value
        self._label(self.player_third, "widgets.rc.player-third")
        self._render()

    def _render(self) -> None:
        total = int(self.banker_total.value)
        third = _third(self.player_third.value)
        self.draws = banker_draws(total, third)
        self.rule = banker_rule(total, third)
        key = "widgets.rc.decision-draw" if self.draws else "widgets.rc.decision-stand"
        self.decision.value = f'<b style="font-size:1.2em">{esc(self._t(key))}</b>'
        self.reason.value = (
            f"{esc(banker_reason(total, third, self._lang))}<br>"
            f"<small>{esc(self._t('widgets.rc.rule-id', rule=self.rule))}</small>"
        )
        self.matrix.value = self.matrix_html(total, third, with_caption=False)
        self.matrix_caption.value = self._caption(total, third)

    def matrix_html(self, total: int | None = None, third: int | str | None = "none", *,
                    with_caption: bool = True) -> str:
        """The banker matrix as an HTML table; the cell (total, third) has class ``bk-selected``.
        With its caption (a ``figure``), unless ``with_caption=False`` (the widget shows the
        caption in ``matrix_caption``, above the scrolling table).

        Columns: "player stood", then the player's third-card values 0–9; every cell is
        asked of :func:`~baccarat_kit.banker_draws`.
        """
        cols: list[int | None] = [None, *VALUES]
        # Compact enough that all ten value columns and the stood column fit a 390 px phone.
        cell_css = "border:1px solid #999;padding:0.1em 0.2em;text-align:center;min-width:1.3em"
        # The corner ("莊點＼閒第三張") in two lines that do not wrap again: the rows' name, then
        # the columns'. Left to wrap by itself, on a 390 px phone it stood one character a line,
        # seven lines tall above the matrix.
        corner = self._t("widgets.rc.corner")
        cut = max(corner.find("＼"), corner.find("\\")) + 1
        head = [f'<th scope="col" style="{cell_css}">'
                f'<span style="white-space:nowrap">{esc(corner[:cut])}</span><br>'
                f'<span style="white-space:nowrap">{esc(corner[cut:].strip())}</span></th>']
        for v in cols:
            label = self._t("widgets.rc.col-stood") if v is None else str(v)
            bold = "font-weight:bold;text-decoration:underline;" if (total is not None
                                                                     and v == third) else ""
            head.append(f'<th scope="col" style="{cell_css};{bold}">{esc(label)}</th>')
        rows = [f"<tr>{''.join(head)}</tr>"]
        for t in BANKER_TOTALS:
            bold = "font-weight:bold;text-decoration:underline;" if t == total else ""
            cells = [f'<th scope="row" style="{cell_css};{bold}">{t}</th>']
            for v in cols:
                drew = banker_draws(t, v)
                kind = "draw" if drew else "stand"
                text = self._t(f"widgets.rc.cell-{kind}")
                long = self._t(f"widgets.rc.cell-{kind}-long")
                column = self._t("widgets.rc.col-stood") if v is None else self._t(
                    "widgets.rc.col-value", value=v)
                aria = f"{self._t('widgets.rc.selected', total=t, column=column)}: {long}"
                selected = t == total and v == third
                css = f"bk-cell bk-{kind}" + (" bk-selected" if selected else "")
                bg = "#d8f0d8" if drew else "#f4dcdc"
                style = f"{cell_css};background:{bg}"
                if selected:
                    style += ";outline:3px solid #000;outline-offset:-3px;font-weight:bold"
                    # full-width brackets around 補/停, ASCII ones around D/S (the English
                    # edition shows no CJK punctuation)
                    text = f"［{text}］" if self._lang == "zh" else f"[{text}]"
                # The selection is said in words (the ［…］ mark and the caption): a plain table
                # cell may carry no aria-selected (axe-core: aria-allowed-attr).
                extra = ""
                cells.append(f'<td class="{css}" data-total="{t}" '
                             f'data-third="{"stood" if v is None else v}" title="{attr(aria)}" '
                             f'style="{style}"{extra}>{esc(text)}</td>')
            rows.append(f"<tr>{''.join(cells)}</tr>")
        caption = self._caption(total, third)
        table = (f'<table class="bk-matrix-table" style="border-collapse:collapse;font-size:0.92em">'
                 f"{''.join(rows)}</table>")
        if not with_caption:
            return table
        return (f'<figure class="bk-matrix-figure" style="margin:0">'
                f'<figcaption class="bk-matrix-caption" style="text-align:left">{caption}</figcaption>'
                f"{table}</figure>")

    def _caption(self, total: int | None, third: int | str | None) -> str:
        if total is None:
            selected_text = self._t("widgets.dash")
        else:
            column = self._t("widgets.rc.col-stood") if third is None else self._t(
                "widgets.rc.col-value", value=third)
            selected_text = self._t("widgets.rc.selected", total=total, column=column)
        return esc(self._t("widgets.rc.matrix-caption", selected=selected_text))

    def __repr__(self) -> str:
        third = _third(self.player_third.value)
        return (f"RuleChecker(banker_total={self.banker_total.value}, player_third={third!r}, "
                f"lang={self._lang!r})")
