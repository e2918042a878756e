"""FinalTest: lesson 10's test over the whole course, fresh for each learner and each attempt.

The questions come from a bank of fresh items (:mod:`~baccarat_kit.widgets.final_bank`: the
banker table's boundary cells, whole coups and settlements the kit deals, each labelled as the
kit's own) and from the lesson questions the learner has not answered yet; cells the learner
has met in the drill or a self-check come last, no rule cell is asked twice, and the previous
attempt's items are not asked again. The seed is the learner's record seed and the attempt
number, so two learners (and two attempts) get different questions. It is a
:class:`~baccarat_kit.widgets.quiz.Quiz` without hints (a banker cell's hint names its row and
column: the whole answer): a wrong answer shows its misconception and why, the engine's trace
once; when every question is answered the summary gives the score, whether it reaches the pass
mark (:data:`~baccarat_kit.progress.FINAL_PASS_MARK`, 10 of 12) and, for each miss named in
learner words, a link back to the lesson that teaches it. ``save_button`` writes that result page
as an HTML file beside the notebook; the score goes into the progress record's list of attempts
(lesson 00's map shows the best and the latest).

>>> import tempfile, os
>>> tmp = tempfile.TemporaryDirectory(); os.environ["BACCARAT_KIT_PROGRESS"] = tmp.name
>>> test = FinalTest(lang="en", seed=1)
>>> len(test.questions), len({q.id for q in test.questions}) == len(test.questions)
(12, True)
>>> del os.environ["BACCARAT_KIT_PROGRESS"]; tmp.cleanup()
"""

from __future__ import annotations

import dataclasses
import html
import os
import tomllib
from pathlib import Path
from typing import Any
from urllib.parse import quote

import ipywidgets as w

from .. import progress
from ..misconceptions import get as get_misconception
from . import final_bank
from ._common import esc, html_widget, plain_text, row, title_html
from .questions import Question
from .quiz import Quiz

RESULT_PAGE = "baccarat-final-test.html"
_MISCONCEPTIONS = Path(__file__).resolve().parent.parent / "data" / "misconceptions.toml"


def _course_root() -> Path | None:
    """The course whose lessons the links go to: the one beside this notebook, else the kit's."""
    from ..locations import PACKAGED, repository_root

    for root in (progress.course_folder(), repository_root(), PACKAGED):
        if root is not None and (root / "notebooks").is_dir():
            return root
    return None


def _lesson_files() -> dict[str, str]:
    """Lesson number → its notebook's file name (from the course beside this one, or the kit's)."""
    root = _course_root()
    if root is None:
        return {}
    return {p.name[:2]: p.name for p in sorted((root / "notebooks").glob("[0-9][0-9]-*.ipynb"))}


def _misconception_lessons(lang: str = "zh") -> dict[str, str]:
    """Misconception id → the lesson heading that teaches its correction, in ``lang``'s edition
    (``lesson`` is the Chinese edition's heading id, ``lesson_en`` the English one's)."""
    data = tomllib.loads(_MISCONCEPTIONS.read_text(encoding="utf-8"))
    items = data.get("misconception", data)
    key = "lesson" if lang == "zh" else f"lesson_{lang}"
    out: dict[str, str] = {}
    for item in items if isinstance(items, list) else []:
        if isinstance(item, dict) and item.get(key):
            out[str(item["id"])] = str(item[key])
    return out


def draw_questions(seed: Any, attempt: int, n: int = 12,
                   record: dict[str, Any] | None = None) -> list[tuple[str, Question]]:
    """``n`` questions (lesson, question) for this learner's ``record`` (default: none yet),
    drawn by :func:`baccarat_kit.widgets.final_bank.draw`: fresh bank items (boundary cells,
    whole coups and settlements the kit deals) first, lesson questions not yet answered, never
    one rule cell twice; all of them seeded by ``seed`` and ``attempt``."""
    return [(item.lesson, item.question) for item in final_bank.draw(record or {}, seed=seed, attempt=attempt, n=n)]


class FinalTest(Quiz):
    """The final test (a :class:`Quiz` whose questions are drawn for this learner)."""

    def __init__(self, *, lang: str = "zh", n: int = 12, seed: Any = None, attempt: int | None = None) -> None:
        saved = progress.load()
        self.attempt = int(attempt if attempt is not None else saved["final"].get("attempt", 0) + 1)
        learner_seed = seed if seed is not None else saved.get("seed", 0)
        self.items = final_bank.draw(saved, seed=learner_seed, attempt=self.attempt, n=n)
        self.lessons = [item.lesson for item in self.items]
        # No hints in the test: a banker cell's hint names its exact row and column, which is
        # the answer's whole lookup. The lessons' self-checks keep theirs.
        super().__init__([dataclasses.replace(item.question, hint=None) for item in self.items], lang=lang,
                         seed=learner_seed if seed is not None else saved.get("seed"))
        self.add_class("bk-final-test")
        self.hint_button.layout.display = "none"
        self.save_button = w.Button(icon="save", layout=w.Layout(width="auto"))
        self.save_button.add_class("bk-final-save")
        self.save_button.on_click(lambda _b: self.save())
        self.saved = html_widget("bk-final-saved")
        # The summary is shown by an Output widget, as an output's text/html: JupyterLab (and
        # JupyterLite) open an output's relative links through the notebook's link handler, so
        # "07-settlement.ipynb" opens that lesson in a JupyterLab tab. An HTML widget's links
        # are plain browser links, relative to the page's address (/lab): they led to a "404"
        # page in place of JupyterLab. ``summary`` (the quiz's HTML widget) keeps the same HTML,
        # hidden, for code and tests.
        self.summary.layout.display = "none"
        self.summary_view = w.Output()
        self.summary_view.add_class("bk-final-summary")
        self.children = [*self.children, self.summary_view, row([self.save_button]), self.saved]
        self._relabel()

    def _render_score(self) -> None:
        super()._render_score()
        if hasattr(self, "summary_view"):
            value = self.summary.value
            self.summary_view.outputs = ({"output_type": "display_data", "metadata": {},
                                          "data": {"text/html": value, "text/plain": plain_text(value)}},
                                         ) if value else ()

    # ---- results ------------------------------------------------------------------
    def result(self) -> dict[str, Any]:
        """The score, the misses with their misconception and lesson, as plain data."""
        missed = []
        for i in self.missed():
            q = self.questions[i]
            mid = q.options[self.first[i]].misconception
            missed.append({"id": q.id, "lesson": self.lessons[i], "misconception": mid})
        return {"right": self.right, "total": len(self.questions), "attempt": self.attempt, "missed": missed,
                "asked": [item.id for item in self.items],
                "cells": sorted({c for item in self.items for c in item.cells})}

    def check(self) -> bool | None:
        out = super().check()
        if self.finished and getattr(self, "lessons", None):
            progress.kept(lambda: progress.record_final(self.result()))
        return out

    def _link(self, i: int, page_folder: Path | None = None) -> str:
        """The link back to the lesson that teaches question ``i``'s miss. In the widget (lesson
        10, beside the other lessons of its edition) it is the lesson's file name; in the saved
        page (``page_folder``) the path from that folder to the lesson in this edition's folder
        (``notebooks/04-….ipynb``, ``notebooks/en/04-….ipynb``), so it resolves where the page is."""
        q = self.questions[i]
        mid = q.options[self.first[i]].misconception
        target = _misconception_lessons(self._lang).get(mid or "") or _lesson_files().get(self.lessons[i][:2], "")
        if not target:
            return ""
        name, _sep, anchor = target.partition("#")
        href = quote(name)
        root = _course_root()
        if page_folder is not None and root is not None:
            edition = root / "notebooks" / ("en" if self._lang == "en" else "")
            href = quote(Path(os.path.relpath(edition / name, page_folder)).as_posix())
        href += f"#{anchor}" if anchor else ""
        return f' <a href="{html.escape(href, quote=True)}">{esc(self._t("widgets.final.back-to", lesson=name))}</a>'

    def _summary_html(self, page_folder: Path | None = None) -> str:
        lang = self._lang
        total = len(self.questions)
        mark = progress.final_pass_mark(total)
        verdict = "widgets.final.passed" if self.right >= mark else "widgets.final.not-passed"
        lines = [f"<b>{esc(self._t('widgets.final.score', right=self.right, total=total, attempt=self.attempt))}</b>"
                 f" {esc(self._t(verdict, pass_mark=mark, total=total))}"]
        review = []
        for i in self.missed():
            q = self.questions[i]
            mid = q.options[self.first[i]].misconception
            what = (f"{get_misconception(mid).claim(lang)} → {get_misconception(mid).correction(lang)}"
                    if mid else q.prompt[lang])
            about = self.items[i].about
            words = about[lang] if about else self._t("widgets.final.about-lesson", lesson=self.lessons[i])
            review.append(f"<li>{esc(self._t('widgets.final.review', number=i + 1, about=words, what=what))}"
                          f"{self._link(i, page_folder)}</li>")
        lines.append(f"<ul>{''.join(review)}</ul>" if review else esc(self._t("widgets.quiz.summary-all")))
        lines.append(esc(self._t("widgets.final.again")))
        return '<div role="status">' + "<br>".join(lines) + "</div>"

    def page(self, folder: Path | None = None) -> str:
        """The result page (a whole HTML document) the learner can save in ``folder`` (its links
        lead from there to the lessons; default: the folder :meth:`save` writes to)."""
        folder = folder if folder is not None else progress.location().parent
        body = self._summary_html(Path(folder).resolve()) if self.finished else esc(self._t("widgets.final.unfinished"))
        title = esc(self._t("widgets.final.title"))
        return (f'<!DOCTYPE html>\n<html lang="{"zh-Hant" if self._lang == "zh" else "en"}"><head>'
                f'<meta charset="utf-8"><title>{title}</title></head><body><h1>{title}</h1>{body}</body></html>\n')

    def save(self, folder: Path | None = None) -> Path:
        """Write :meth:`page` to :data:`RESULT_PAGE` in the course folder, beside the progress
        record (or in ``folder``)."""
        path = (folder or progress.location().parent) / RESULT_PAGE
        path.write_text(self.page(path.parent), encoding="utf-8")
        self.saved.value = f'<div role="status">{esc(self._t("widgets.final.saved", path=path.name))}</div>'
        return path

    def show_hint(self) -> str:
        """The test offers no hints: says so (the hint button is hidden)."""
        text = self._t("widgets.final.no-hints")
        self.hint.value = f'<div role="status">{esc(text)}</div>'
        return text

    def _relabel(self, chosen: int | str | None = "keep") -> None:
        super()._relabel(chosen)
        self.hint.value = f'<div class="bk-final-no-hints">{esc(self._t("widgets.final.no-hints"))}</div>'
        if hasattr(self, "save_button"):
            self.title.value = title_html(self._t("widgets.final.title"))
            self.save_button.description = self._t("widgets.final.save")
            self.save_button.tooltip = self._t("widgets.final.save-tip")
