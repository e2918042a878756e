"""The class report's charts as small SVG documents, built in pure Python (no matplotlib).

Deterministic: the same numbers give the same bytes. Labels are escaped; the ids are unique per
chart (``salt``), so several charts can sit in one page.

>>> svg = bar_chart([0, 1, 2], [3, 0, 5], "scores", "learners", "dist", "c1")
>>> svg.startswith('<svg class="plot"') and svg.count("<rect class=\\"bar\\"") == 3
True
>>> svg == bar_chart([0, 1, 2], [3, 0, 5], "scores", "learners", "dist", "c1")
True
"""

from __future__ import annotations

import html
import math
from collections.abc import Sequence

BAR = "#3b6ea5"
BAR_MISCONCEPTION = "#a5563b"


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


def nice_ticks(top: int, most: int = 5) -> list[int]:
    """Whole-number ticks from 0 to at least ``top``, at most ``most`` + 1 of them.

    >>> nice_ticks(0), nice_ticks(3), nice_ticks(7), nice_ticks(42)
    ([0, 1], [0, 1, 2, 3], [0, 2, 4, 6, 8], [0, 10, 20, 30, 40, 50])
    """
    top = max(1, top)
    step = 1
    for candidate in (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000, 10_000):
        step = candidate
        if math.ceil(top / candidate) <= most:
            break
    return list(range(0, step * math.ceil(top / step) + 1, step))


def bar_chart(labels: Sequence[object], values: Sequence[int], x_label: str, y_label: str, title: str,
              salt: str, width: int = 600, height: int = 210, color: str = BAR) -> str:
    """Vertical bars, one per label (a score histogram)."""
    left, right, top_pad, bottom = 56, 12, 12, 48
    plot_w, plot_h = width - left - right, height - top_pad - bottom
    ticks = nice_ticks(max(values, default=0))
    y_max = ticks[-1]
    n = max(1, len(labels))
    slot = plot_w / n
    parts = [f'<svg class="plot" role="img" aria-label="{_e(title)}" id="{_e(salt)}" xmlns="http://www.w3.org/2000/svg" '
             f'viewBox="0 0 {width} {height}" width="{width}" height="{height}" font-size="11" font-family="sans-serif">',
             f"<title>{_e(title)}</title>",
             f'<rect class="area" x="{left}" y="{top_pad}" width="{plot_w}" height="{plot_h}" fill="#fafafa"/>']
    for t in ticks:
        y = top_pad + plot_h - plot_h * t / y_max
        parts.append(f'<path class="grid" d="M{left} {y:.1f}H{left + plot_w}" stroke="#e3e3e3"/>'
                     f'<text x="{left - 6}" y="{y + 4:.1f}" text-anchor="end">{t}</text>')
    every = 1 if n <= 12 else math.ceil(n / 10)
    for i, (label, value) in enumerate(zip(labels, values, strict=True)):
        h = plot_h * value / y_max
        x = left + i * slot + slot * 0.1
        parts.append(f'<rect class="bar" x="{x:.1f}" y="{top_pad + plot_h - h:.1f}" width="{slot * 0.8:.1f}" '
                     f'height="{h:.1f}" fill="{color}" data-label="{_e(label)}" data-value="{value}">'
                     f"<title>{_e(label)}: {value}</title></rect>")
        if i % every == 0:
            parts.append(f'<text x="{left + i * slot + slot / 2:.1f}" y="{top_pad + plot_h + 15}" '
                         f'text-anchor="middle">{_e(label)}</text>')
    parts.append(f'<path class="axis" d="M{left} {top_pad}V{top_pad + plot_h}H{left + plot_w}" fill="none" stroke="#333"/>'
                 f'<text x="{left + plot_w / 2:.1f}" y="{height - 8}" text-anchor="middle">{_e(x_label)}</text>'
                 f'<text transform="translate(14 {top_pad + plot_h / 2:.1f}) rotate(-90)" text-anchor="middle">{_e(y_label)}</text>'
                 "</svg>")
    return "".join(parts)


def hbar_chart(labels: Sequence[str], values: Sequence[int], x_label: str, title: str, salt: str,
               width: int = 800, color: str = BAR_MISCONCEPTION) -> str:
    """Horizontal bars, one row per label, the first on top (misconceptions by learners)."""
    left, right, top_pad, bottom, row = 230, 16, 10, 40, 24
    height = top_pad + bottom + row * max(1, len(labels))
    plot_w, plot_h = width - left - right, row * max(1, len(labels))
    ticks = nice_ticks(max(values, default=0))
    x_max = ticks[-1]
    parts = [f'<svg class="plot" role="img" aria-label="{_e(title)}" id="{_e(salt)}" xmlns="http://www.w3.org/2000/svg" '
             f'viewBox="0 0 {width} {height}" width="{width}" height="{height}" font-size="11" font-family="sans-serif">',
             f"<title>{_e(title)}</title>",
             f'<rect class="area" x="{left}" y="{top_pad}" width="{plot_w}" height="{plot_h}" fill="#fafafa"/>']
    for t in ticks:
        x = left + plot_w * t / x_max
        parts.append(f'<path class="grid" d="M{x:.1f} {top_pad}V{top_pad + plot_h}" stroke="#e3e3e3"/>'
                     f'<text x="{x:.1f}" y="{top_pad + plot_h + 15}" text-anchor="middle">{t}</text>')
    for i, (label, value) in enumerate(zip(labels, values, strict=True)):
        y = top_pad + i * row
        w = plot_w * value / x_max
        parts.append(f'<text x="{left - 6}" y="{y + row / 2 + 4:.1f}" text-anchor="end">{_e(label)}</text>'
                     f'<rect class="bar" x="{left}" y="{y + 4}" width="{w:.1f}" height="{row - 8}" fill="{color}" '
                     f'data-label="{_e(label)}" data-value="{value}"><title>{_e(label)}: {value}</title></rect>')
    parts.append(f'<path class="axis" d="M{left} {top_pad}V{top_pad + plot_h}" stroke="#333"/>'
                 f'<path class="axis" d="M{left} {top_pad + plot_h}H{left + plot_w}" stroke="#333"/>'
                 f'<text x="{left + plot_w / 2:.1f}" y="{height - 6}" text-anchor="middle">{_e(x_label)}</text></svg>')
    return "".join(parts)
