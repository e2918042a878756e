"""A learner's kernel tells her, once, that the kernel before it was stopped for memory.

On the hub every learner's processes share one memory limit (:mod:`.limits`). When her kernels
together reach it, the kernel's OOM killer ends the largest process (most often a notebook's
kernel) and JupyterLab only says "Kernel Restarting: the kernel … appears to have died". The
cgroup counts every such kill (v1: ``oom_kill`` in ``memory.oom_control``; v2: in
``memory.events``; read by the grader's :meth:`~baccarat_kit.grading.sandbox.cgroup.Cgroup.oom_kills`).

This IPython extension is loaded into every kernel of the learners' environment (``hub setup``
writes ``etc/ipython/ipython_kernel_config.json`` there: :data:`KERNEL_CONFIG`). A kernel reads
the count when it starts; if it is higher than the count she was last told of, the first cell
she runs shows, above its output, what happened, her limit and what to do (both languages). The
count told is kept in her home (:func:`told_path`), keyed by the cgroup folder's inode (the hub
makes the cgroup anew at each server start), so the notice appears once per kill, not in every
kernel. Outside a memory cgroup of its own (her laptop, a test run) the extension does nothing.
"""

from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path
from typing import Any

from ..i18n import message
from ..locations import write_atomic

KERNEL_CONFIG = {"InteractiveShellApp": {"extensions": ["baccarat_kit.hub.notice"]}}
"""The IPython kernel configuration that loads this extension (``hub setup``)."""


def told_path() -> Path:
    """Where the count she was told of is kept (``$XDG_STATE_HOME/baccarat-kit/``)."""
    state = os.environ.get("XDG_STATE_HOME") or os.path.join(os.path.expanduser("~"), ".local", "state")
    return Path(state) / "baccarat-kit" / "memory-notice.json"


def _told(key: str) -> int:
    try:
        data = json.loads(told_path().read_text(encoding="utf-8"))
        return int(data["kills"]) if data.get("cgroup") == key else 0
    except (OSError, ValueError, KeyError, TypeError):
        return 0


def _tell(key: str, kills: int) -> None:
    with contextlib.suppress(OSError):
        write_atomic(told_path(), json.dumps({"cgroup": key, "kills": kills}).encode("utf-8"))


class MemoryNotice:
    """The kernel's view of her memory cgroup: the kills she has not been told of yet."""

    def __init__(self) -> None:
        from .limits import own_memory_group

        self.group = own_memory_group()
        self.key = ""
        if self.group is not None:
            with contextlib.suppress(OSError):
                st = os.stat(self.group.folders["memory"])
                self.key = f"{st.st_dev}:{st.st_ino}"

    def untold(self) -> int:
        """Kills in her cgroup she has not been told of (0 outside a cgroup of her own)."""
        if self.group is None or not self.key:
            return 0
        return max(0, self.group.oom_kills() - _told(self.key))

    def limit_text(self) -> str:
        """Her memory limit, e.g. ``1.0 GiB`` (``?`` when the cgroup does not say)."""
        folder = Path(self.group.folders["memory"]) if self.group is not None else None
        for name in ("memory.limit_in_bytes", "memory.max"):
            with contextlib.suppress(OSError, ValueError, TypeError):
                value = int((folder / name).read_text()) if folder else 0
                if 0 < value < 2**60:
                    return f"{value / 2**30:.1f} GiB" if value >= 2**30 else f"{value / 2**20:.0f} MiB"
        return "?"

    def text(self) -> str:
        """The notice in both languages (Traditional Chinese first)."""
        limit = self.limit_text()
        return "\n\n".join(message("hub.memory_notice", lang, limit=limit) for lang in ("zh", "en"))

    def tell_once(self) -> str | None:
        """The notice if there is an untold kill (and mark it told), else None."""
        if not self.untold():
            return None
        _tell(self.key, self.group.oom_kills() if self.group is not None else 0)
        return self.text()


def load_ipython_extension(ip: Any) -> None:
    notice = MemoryNotice()
    if not notice.untold():
        return  # nothing to tell: no callback at all

    def before_first_cell(*_: Any) -> None:
        ip.events.unregister("pre_run_cell", before_first_cell)
        text = notice.tell_once()  # (read again: another kernel of hers may have told it already)
        if text:
            from IPython.display import display

            display({"text/plain": text}, raw=True)

    ip.events.register("pre_run_cell", before_first_cell)
