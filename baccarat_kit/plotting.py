"""Plotting helpers shared by the odds modules: matplotlib on use, colours, a CJK font.

The one home of what :mod:`.simulation`, :mod:`.roads` and :mod:`.counting` draw with, so none
of them imports another for its pictures. Importing this module does not import matplotlib;
:func:`pyplot` does, on first use.

>>> COLORS["B"], COLORS["P"], COLORS["T"]
('#c62828', '#1565c0', '#2e7d32')
"""

from __future__ import annotations

from functools import cache
from typing import Any

from .i18n import normalize_language

__all__ = ["COLORS", "FIGURES", "cjk_font", "fonts", "pyplot", "show"]

COLORS = {"B": "#c62828", "P": "#1565c0", "T": "#2e7d32"}
"""Banker red, player blue, tie green: the colours of the road and simulation plots."""

_CJK_FONTS = ("Noto Sans CJK TC", "Noto Sans CJK JP", "Noto Sans CJK SC", "Noto Sans TC",
              "Noto Serif CJK TC", "Source Han Sans TC", "Source Han Sans", "WenQuanYi Zen Hei",
              "WenQuanYi Micro Hei", "AR PL UMing TW", "AR PL UKai TW", "Microsoft JhengHei",
              "PingFang TC", "Heiti TC", "Droid Sans Fallback")


def pyplot() -> Any:
    """``matplotlib.pyplot``, imported on first use; without matplotlib, a
    :class:`ModuleNotFoundError` that names the extra to install (``[plots]``, in ``[lab]``).

    >>> import sys, builtins
    >>> real = builtins.__import__
    >>> def no_matplotlib(name, *args, **kwargs):
    ...     if name.partition(".")[0] == "matplotlib":
    ...         raise ModuleNotFoundError(f"No module named {name!r}", name=name)
    ...     return real(name, *args, **kwargs)
    >>> builtins.__import__ = no_matplotlib
    >>> try:
    ...     pyplot()
    ... except ModuleNotFoundError as err:
    ...     print(err.name, "|", str(err).split(" / ")[1])
    ... finally:
    ...     builtins.__import__ = real
    matplotlib | Pictures need matplotlib, the optional extra [plots] (included in [lab]): run pip install "baccarat-kit[plots]"
    """
    try:
        import matplotlib.pyplot as plt
    except ModuleNotFoundError as err:
        if (err.name or "").partition(".")[0] != "matplotlib":
            raise
        raise missing_matplotlib() from err
    return plt


FIGURES = ("convergence", "roads", "counting", "heatmap")
"""The lessons' figures whose text alternative the kit keeps, in both languages (the
catalogue's ``nb.NAME-alt``): ``show(fig, figure="roads", lang=LANG)``."""


def show(fig: Any, alt: str | None = None, *, figure: str | None = None, lang: str | None = None) -> Any:
    """Display ``fig`` as a PNG with a text alternative (WCAG 1.1.1: a screen reader reads
    ``alt``; a plain ``plt.show()`` gives an ``<img>`` without one) and close it.

    The text is ``alt``, or the kit's own description of one of the lessons' figures
    (``figure``: a name of :data:`FIGURES`, in ``lang``). Returns the ``IPython.display.HTML``
    object (displayed by a notebook when it is a cell's last value); its ``alt`` is escaped.

    >>> from baccarat_kit.i18n import BaccaratError
    >>> try:
    ...     show(None, figure="pie")
    ... except BaccaratError as err:
    ...     print(err.message("en"))
    'pie' is not a figure the kit describes: use convergence, roads, counting, heatmap (or give alt="…", the text itself).
    """
    import base64
    import html
    import io

    from IPython.display import HTML

    from .i18n import BaccaratError, message

    if figure is not None and figure not in FIGURES:
        raise BaccaratError("plots.unknown-figure", value=figure, choices=", ".join(FIGURES))
    if (alt is None) == (figure is None):
        raise BaccaratError("plots.alt-or-figure")
    text = alt if alt is not None else message(f"nb.{figure}-alt", lang)
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", bbox_inches="tight", dpi=100)
    pyplot().close(fig)
    data = base64.b64encode(buffer.getvalue()).decode("ascii")
    return HTML(f'<img src="data:image/png;base64,{data}" alt="{html.escape(text, quote=True)}">')


def missing_matplotlib() -> ModuleNotFoundError:
    """The error for a picture asked for without matplotlib: both languages, Chinese first."""
    from .i18n import both

    text = both("plots.missing")
    return ModuleNotFoundError(f"{text['zh']} / {text['en']}", name="matplotlib")


@cache
def cjk_font() -> Any:
    """A font with Traditional Chinese glyphs, if one is installed (else None)."""
    pyplot()  # (the error naming the extra, when matplotlib is missing)
    from matplotlib import font_manager

    names = {f.name: f.fname for f in font_manager.fontManager.ttflist}
    for name in _CJK_FONTS:
        if name in names:
            return font_manager.FontProperties(fname=names[name])
    return None


def fonts(lang: str | None) -> tuple[str, Any]:
    """The language to draw in and the font to use: Chinese only when a CJK font exists."""
    lang = normalize_language(lang)
    if lang == "zh":
        font = cjk_font()
        if font is None:
            return "en", None
        return "zh", font
    return "en", None
