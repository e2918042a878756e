"""CourseMap: lesson 00's map of what the learner has done, read from the progress record.

A thin view over :func:`baccarat_kit.progress.course_map` (the same rows ``baccarat-kit
progress`` prints): per lesson its self-check, the drill's mastery, per exercise the
self-study score, and the final test. At its top, ``today`` (:class:`~.today.TodayView`): the
cells due, the daily goal, the study days in a row and the mistakes of past days; the map's language switch
and ``refresh`` drive it too. ``refresh`` reads the record again; ``export_button``
writes a copy to download (JupyterLite: do it before clearing the browser's storage).

>>> import tempfile, os
>>> tmp = tempfile.TemporaryDirectory(); os.environ["BACCARAT_KIT_PROGRESS"] = tmp.name
>>> "○" in plain_text(CourseMap(lang="en").table)
True
>>> del os.environ["BACCARAT_KIT_PROGRESS"]; tmp.cleanup()
"""

from __future__ import annotations

from pathlib import Path

import ipywidgets as w

from .. import progress
from ._common import (
    LangMixin,
    announce,
    button_widget,
    esc,
    html_widget,
    live_region,
    plain_text,
    row,
    title_html,
)
from .today import TodayView

__all__ = ["CourseMap", "plain_text"]


class CourseMap(LangMixin, w.VBox):
    """The course map with the learner's progress: ``today`` (the today view, at the top),
    ``table`` (HTML), ``refresh_button``, ``export_button`` and ``status``."""

    def __init__(self, *, lang: str = "zh") -> None:
        super().__init__()
        self._init_lang(lang)
        self.add_class("bk-course-map")
        self.title = html_widget("bk-title")
        self.legend = html_widget("bk-course-map-legend")
        self.table = html_widget("bk-course-map-table")
        self.refresh_button = button_widget("bk-course-map-refresh", lambda: self.refresh(), icon="refresh")
        self.export_button = button_widget("bk-course-map-export", lambda: self.export(), icon="download")
        self.status = html_widget("bk-course-map-status")
        self.live = live_region("bk-course-map-live")
        self.today = TodayView(lang=self._lang, toggle=False)
        self.children = [row([self.title, self.lang_toggle]), self.today, self.legend, self.table,
                         row([self.refresh_button, self.export_button]), self.status, self.live]
        self._relabel()

    def refresh(self) -> None:
        """Read the record again and redraw the map (and the today view above it)."""
        self.today.refresh()
        rows = progress.course_map()
        items = "".join(
            f'<li class="bk-map-{"done" if r["done"] else "started" if r["answered"] else "new"}">'
            f"{esc(progress.describe(r, self._lang))}</li>" for r in rows)
        self.table.value = f'<ul class="bk-course-map-rows" style="list-style:none;padding-left:0">{items}</ul>'

    def export(self, folder: Path | None = None) -> Path:
        """Write a copy of the record beside this notebook (or into ``folder``)."""
        path = progress.export(folder)
        self.status.value = esc(self._t("progress.exported", path=path.name))
        announce(self.live, self._t("progress.exported", path=path.name))
        return path

    def _relabel(self) -> None:
        self.today.lang = self._lang
        self.title.value = title_html(self._t("progress.map-title"))
        self.legend.value = esc(self._t("progress.map-legend") + " " + self._t("progress.map-legend-drill"))
        self.refresh_button.description = self._t("progress.map-refresh")
        self.export_button.description = self._t("progress.map-export")
        self.refresh()

    def __repr__(self) -> str:
        return f"CourseMap(lang={self._lang!r})"
