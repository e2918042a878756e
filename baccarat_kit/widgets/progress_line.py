"""A progress line for a long cell, shown as a widget instead of stderr.

``progress="text"`` (:func:`baccarat_kit.simulate`, :func:`baccarat_kit.counting_analysis`)
wrote ``\\r`` lines to stderr, which JupyterLab draws in pink boxes like errors (issue 31). In a
Jupyter kernel with ipywidgets, :func:`text_progress` gives a :class:`ProgressLine` instead: an
``HTML`` widget (``bk-progress``, ``role="status"``) whose count the kernel updates while the cell
runs. Its display bundle is fixed when it is shown (``text/plain`` and ``text/html`` name the
work, never a count), so a stored lesson and a new run agree under nbval; the stored widget state
keeps the final count.

>>> line = ProgressLine(3, "odds.progress-shoes", lang="en")
>>> line.update(2); line.update(1); line.close()
>>> plain_text(line)
'simulating: 3 / 3 shoes ✔'
>>> repr(line)
'ProgressLine(total=3)'
"""

from __future__ import annotations

from typing import Any

import ipywidgets as w

from ..i18n import message
from ._common import esc, plain_text

__all__ = ["ProgressLine", "plain_text", "text_progress"]


class ProgressLine(w.HTML):
    """A count of work done (``done`` of ``total``), drawn as a status line."""

    def __init__(self, total: int, key: str = "odds.progress-shoes", *, lang: str | None = None) -> None:
        super().__init__()
        self.add_class("bk-progress")
        self.total, self.key, self.lang, self.done = total, key, lang, 0
        self._render()

    def _render(self, finished: bool = False) -> None:
        text = message(self.key, self.lang, done=self.done, total=self.total) + (" ✔" if finished else "")
        self.value = f'<span role="status" style="font-family:monospace">{esc(text)}</span>'

    def update(self, n: int) -> None:
        self.done += n
        self._render()

    def close(self) -> None:  # ends the count; the widget stays shown
        self._render(finished=True)

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any]:
        data: dict[str, Any] = super()._repr_mimebundle_(**kwargs)
        work = message(self.key, self.lang, done="…", total=self.total)
        data["text/plain"] = repr(self)
        data["text/html"] = (f'<div class="bk-static"><span class="bk-progress" '
                             f'style="font-family:monospace">{esc(work)}</span></div>')
        return data

    def __repr__(self) -> str:
        return f"ProgressLine(total={self.total})"


def in_kernel() -> bool:
    """Whether this runs in a Jupyter kernel (where a widget can be shown)."""
    try:
        from IPython import get_ipython
    except ImportError:  # pragma: no cover - IPython comes with ipywidgets
        return False
    shell = get_ipython()
    return shell is not None and hasattr(shell, "kernel")


def text_progress(total: int, key: str) -> Any:
    """A shown :class:`ProgressLine` in a Jupyter kernel, else ``None`` (the caller writes a
    text line to stderr)."""
    if not in_kernel():
        return None
    from IPython.display import display

    line = ProgressLine(total, key)
    display(line)
    return line
