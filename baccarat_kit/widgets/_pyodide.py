"""JupyterLite's Pyodide kernel: a widget's ``None`` reaches the page.

The kernel extension turns every message into JavaScript with Pyodide's ``toJs()``, which makes
Python's ``None`` JavaScript's ``undefined``; the key is then dropped on the way to the page. So
an update *to* ``None`` never arrived: a quiz's radio buttons kept the last question's letter
checked (the kernel had cleared it: Submit said "choose an answer first", and clicking that
letter again sent nothing), a hidden settlement stayed hidden (``layout.display = None``).
:func:`install` (called by ``baccarat_kit.widgets`` on import, on Pyodide only) sends each
``None`` of a widget's state update as ``pyodide.ffi.jsnull``, which ``toJs()`` makes JavaScript's
``null``, what ipywidgets sends from a desktop kernel. Nothing changes anywhere else.

>>> install()  # not Pyodide here: nothing patched
False
>>> null_safe({"index": None, "value": 3}, "NULL")
{'index': 'NULL', 'value': 3}
"""

from __future__ import annotations

import sys
from typing import Any

_MARK = "_bk_null_safe"


def null_safe(state: dict[str, Any], null: Any) -> dict[str, Any]:
    """``state`` with each top-level ``None`` replaced by ``null``."""
    return {key: null if value is None else value for key, value in state.items()}


def install() -> bool:
    """On Pyodide, make :meth:`ipywidgets.Widget._send` send ``None`` as JavaScript's ``null``
    (once); whether it is installed."""
    if sys.platform != "emscripten":
        return False
    import ipywidgets
    from pyodide.ffi import jsnull  # type: ignore[import-not-found]

    widget: Any = ipywidgets.Widget
    original = widget._send
    if getattr(original, _MARK, False):
        return True

    def _send(self: Any, msg: Any, buffers: Any = None) -> Any:
        state = msg.get("state") if isinstance(msg, dict) else None
        if isinstance(state, dict) and any(value is None for value in state.values()):
            msg = {**msg, "state": null_safe(state, jsnull)}
        return original(self, msg, buffers)

    setattr(_send, _MARK, True)
    widget._send = _send
    return True
