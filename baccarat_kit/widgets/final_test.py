"""FinalTest: lesson 10's test over the whole course, fresh for each learner and each attempt.

The questions come from a bank of fresh items (:mod:`~baccarat_kit.widgets.final_bank`: at
least one for each lesson 01–08, the banker table's boundary cells, whole coups and settlements
the kit deals, each labelled as the kit's own) and from the lesson questions the learner has
not answered yet; cells the learner has met in the drill or a self-check come last, no rule cell
is asked twice, and the previous attempt's items are not asked again. The seed is the learner's
record seed and the attempt number, so two learners (and two attempts) get different questions.

It is a :class:`~baccarat_kit.widgets.quiz.Quiz` with nothing that makes a scored answer
free: no hints (a banker cell's hint names its row and column: the whole answer), no "start
again", no "redo the ones I missed", no preview; an answered question's options are locked. Each
first answer is kept in the progress record as it is given (:func:`~baccarat_kit.progress.record_final_answer`),
so running the cell again, or a restart, shows the same attempt with its answers. A wrong answer
shows its misconception and why, the engine's trace once; when every question is answered the
attempt is complete: the summary gives the score, whether it reaches the pass mark
(:data:`~baccarat_kit.progress.FINAL_PASS_MARK`, 10 of 12) and, for each miss named in learner
words, a link back to the lesson that teaches it, and the score is kept in the record's list of
attempts (:func:`~baccarat_kit.progress.record_final`; lesson 00's map shows the best and the
latest, and ticks the test once a completed attempt passes). ``new_button`` (only then) draws a
new attempt: a new number, new items. ``attempts_view`` lists every completed attempt kept.
``save_button`` writes the result page as an HTML file beside the notebook.

>>> import tempfile, os
>>> tmp = tempfile.TemporaryDirectory(); os.environ["BACCARAT_KIT_PROGRESS"] = tmp.name
>>> test = FinalTest(lang="en", seed=1)
>>> len(test.questions), len({q.id for q in test.questions}) == len(test.questions)
(12, True)
>>> del os.environ["BACCARAT_KIT_PROGRESS"]; tmp.cleanup()
"""

from __future__ import annotations

import dataclasses
import os
import tomllib
from pathlib import Path
from typing import Any
from urllib.parse import quote

import ipywidgets as w

from .. import progress
from ..misconceptions import get as get_misconception
from . import final_bank
from ._common import (
    WidgetError,
    announce,
    attr,
    button_widget,
    esc,
    html_widget,
    plain_text,
    row,
    title_html,
)
from .questions import Question
from .quiz import Quiz

RESULT_PAGE = "baccarat-final-test.html"
_MISCONCEPTIONS = Path(__file__).resolve().parent.parent / "data" / "misconceptions.toml"


def _course_root() -> Path | None:
    """The course whose lessons the links go to: the one beside this notebook, else the kit's."""
    return next(progress.course_roots("notebooks"), None)


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


class FinalTest(Quiz):
    """The final test (a :class:`Quiz` whose questions are drawn for this learner): see the
    module docstring. ``seed`` and ``attempt`` draw another test than the record's next one
    (tests); an attempt already completed cannot be taken again."""

    def __init__(self, *, lang: str = "zh", n: int = 12, seed: Any = None, attempt: int | None = None) -> None:
        self.n = n
        self._seed_given = seed
        number, draw_seed, items, answers = self._plan(progress.load(), seed, attempt)
        self._take(number, draw_seed, items)
        # No hints in the test: a banker cell's hint names its exact row and column, which is
        # the answer's whole lookup. The lessons' self-checks keep theirs.
        super().__init__(self._questions(), lang=lang, seed=draw_seed)
        self.add_class("bk-final-test")
        for button in (self.hint_button, self.reset_button, self.redo_button):  # none of them here
            button.layout.display = "none"
        self.save_button = button_widget("bk-final-save", lambda: self.save(), icon="save")
        self.new_button = button_widget("bk-final-new", lambda: self.new_attempt(), icon="plus")
        self.saved = html_widget("bk-final-saved")
        self.attempts_view = html_widget("bk-final-attempts")
        # The summary is shown by an Output widget, as an output's text/html: JupyterLab (and
        # JupyterLite) open an output's relative links through the notebook's link handler, so
        # "07-settlement.ipynb" opens that lesson in a JupyterLab tab. An HTML widget's links
        # are plain browser links, relative to the page's address (/lab): they led to a "404"
        # page in place of JupyterLab. ``summary`` (the quiz's HTML widget) keeps the same HTML,
        # hidden, for code and tests.
        self.summary.layout.display = "none"
        self.summary_view = w.Output()
        self.summary_view.add_class("bk-final-summary")
        nav = [self.prev_button, self.next_button] if len(self.questions) > 1 else []
        # the quiz's children, without its hint, "start again" and "redo" buttons
        self.children = [self.children[0], self.progress, self.prompt, self.options, row([self.submit, *nav]),
                         self.hint, self.feedback, self.score, self.summary, self.summary_view,
                         self.attempts_view, row([self.new_button, self.save_button]), self.saved, self.live]
        self._restore(answers)

    # ---- attempts -----------------------------------------------------------------
    def _plan(self, saved: dict[str, Any], seed: Any, attempt: int | None,
              after: int | None = None) -> tuple[int, Any, list[final_bank.Item], dict[str, int]]:
        """(attempt number, the draw's seed, its items, the first answers kept) for the record
        ``saved``: the attempt in progress (``final.open``) when there is one (and ``attempt``
        names no other), else a new draw numbered after every attempt the record knows (and
        after ``after``, the attempt just finished here)."""
        final = saved["final"]
        if attempt is not None and any(a.get("attempt") == attempt for a in progress.final_attempts(final)):
            raise WidgetError("widgets.final.attempt-done", attempt=attempt, next=progress.final_next_attempt(final))
        current = final.get("open")
        if current and attempt in (None, current["attempt"]) and (seed is None or attempt is not None):
            items = final_bank.items_for(current["items"], current["seed"], current["attempt"])
            if items:
                return int(current["attempt"]), current["seed"], items, dict(current["answers"])
        number = attempt if attempt is not None else max(progress.final_next_attempt(final), (after or 0) + 1)
        draw_seed = seed if seed is not None else saved.get("seed", 0)
        return number, draw_seed, final_bank.draw(saved, seed=draw_seed, attempt=number, n=self.n), {}

    def _take(self, number: int, draw_seed: Any, items: list[final_bank.Item]) -> None:
        self.attempt = number
        self.draw_seed = draw_seed
        self.items = items
        self.lessons = [item.lesson for item in items]

    def _questions(self) -> list[Question]:
        return [dataclasses.replace(item.question, hint=None) for item in self.items]

    def _restore(self, answers: dict[str, int]) -> None:
        """The first answers kept for this attempt back in place; the first question not
        answered shown (the last one when all are)."""
        for i, item in enumerate(self.items):
            chosen = answers.get(item.key)
            if chosen is not None and 0 <= chosen < len(self.questions[i].options):
                self.answers[i] = self.first[i] = int(chosen)
        self.go(next((i for i in range(len(self.questions)) if i not in self.first), len(self.questions) - 1))
        self._show_attempts(resumed=len(self.first) if self.first and not self.finished else 0)

    def new_attempt(self) -> None:
        """A new attempt, once this one is complete: a new number and a new draw (not this
        attempt's items); this attempt stays in the record as it was completed."""
        if not self.finished:
            raise WidgetError("widgets.final.finish-first", attempt=self.attempt,
                              left=len(self.questions) - len(self.first))
        saved = progress.load()
        saved["final"] = {**saved["final"], "asked": [i.id for i in self.items]}  # even if unsaved
        number, draw_seed, items, answers = self._plan(saved, self._seed_given, None, after=self.attempt)
        self._take(number, draw_seed, items)
        self.questions = tuple(self._questions())
        self.seed = draw_seed
        self.orders = [self._draw_order(i) for i in range(len(self.questions))]
        self.answers.clear()
        self.first.clear()
        self.saved.value = ""
        self._restore(answers)
        announce(self.live, self._t("widgets.final.new-started", attempt=self.attempt, total=len(self.questions)))

    def reset(self) -> None:
        """Not in a test: its answers are never cleared (:meth:`new_attempt` draws a new one)."""
        raise WidgetError("widgets.final.no-redo")

    def redo(self) -> list[int]:
        """Not in a test: a scored answer is never asked again."""
        raise WidgetError("widgets.final.no-redo")

    def preview(self, index: int, option: int) -> str:
        """Not in a test: the feedback of an answer not given would show the right one."""
        raise WidgetError("widgets.final.no-redo")

    def _show_attempts(self, resumed: int = 0) -> None:
        """``attempts_view``: every completed attempt the record keeps (and, ``resumed``, how
        many answers of this attempt in progress were back from it)."""
        lines = []
        if resumed:
            lines.append(esc(self._t("widgets.final.resumed", attempt=self.attempt, answered=resumed)))
        kept = progress.final_checked(progress.load()["final"])
        if kept:
            words = [self._t("widgets.final.attempt-unfinished" if a.get("unfinished") else
                             "widgets.final.attempt-unverified" if not a["verified"] else
                             "widgets.final.attempt-short" if a["total"] < progress.FINAL_QUESTIONS else
                             "widgets.final.attempt-passed" if progress.final_passed(a)
                             else "widgets.final.attempt-not-passed", attempt=a.get("attempt", n),
                             right=a["right"], total=a["total"], full=progress.FINAL_QUESTIONS)
                     for n, a in enumerate(kept, 1)]
            sep = "；" if self._lang == "zh" else "; "
            lines.append(esc(self._t("widgets.final.attempts", list=sep.join(words))))
        self.attempts_view.value = "<br>".join(lines)

    # ---- answers ------------------------------------------------------------------
    def check(self) -> bool | None:
        """Check the chosen option of a question not yet answered, keep it in the record as
        this attempt's first answer and, with the last one, keep the completed attempt. An
        answered question keeps its first answer (it says so)."""
        i = self.index
        if i in self.first:
            self._relabel(chosen=self.first[i])
            note = self._t("widgets.final.answered")
            self.feedback.value += f'<div class="bk-not-counted"><i>{esc(note)}</i></div>'
            announce(self.live, note)
            return self.first[i] == self.questions[i].answer
        out = super().check()
        if out is None:
            return None
        kept: dict[str, int] = {}
        keys = [item.key for item in self.items]
        progress.kept(lambda: kept.update(progress.record_final_answer(
            self.attempt, self.draw_seed, keys, keys[i], self.first[i], bool(out))))
        if kept.get(keys[i], self.first[i]) != self.first[i]:  # answered first elsewhere (another tab)
            for j, key in enumerate(keys):
                if key in kept:
                    self.answers[j] = self.first[j] = kept[key]
            self._relabel(chosen=self.first[i])
            out = self.first[i] == self.questions[i].answer
        self.options.disabled = True
        if self.finished:
            progress.kept(lambda: progress.record_final(self.result()))
            self._show_attempts()
        self.new_button.disabled = not self.finished
        return out

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
        return f' <a href="{attr(href)}">{esc(self._t("widgets.final.back-to", lesson=name))}</a>'

    def _summary_html(self, page_folder: Path | None = None) -> str:
        lang = self._lang
        total = len(self.questions)
        mark = progress.final_pass_mark(total)
        verdict = ("widgets.final.short" if total < progress.FINAL_QUESTIONS else
                   "widgets.final.passed" if self.right >= mark else "widgets.final.not-passed")
        lines = [f"<b>{esc(self._t('widgets.final.score', right=self.right, total=total, attempt=self.attempt))}</b>"
                 f" {esc(self._t(verdict, pass_mark=mark, total=total, full=progress.FINAL_QUESTIONS))}"]
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
        return "<div>" + "<br>".join(lines) + "</div>"

    def page(self, folder: Path | None = None) -> str:
        """The result page (a whole HTML document) the learner can save in ``folder`` (its links
        lead from there to the lessons; default: the folder :meth:`save` writes to)."""
        folder = folder if folder is not None else progress.location().parent
        body = self._summary_html(Path(folder).resolve()) if self.finished else esc(self._t("widgets.final.unfinished"))
        if self.attempts_view.value:
            body += f"<p>{self.attempts_view.value}</p>"
        title = esc(self._t("widgets.final.title"))
        return (f'<!DOCTYPE html>\n<html lang="{"zh-Hant" if self._lang == "zh" else "en"}"><head>'
                f'<meta charset="utf-8"><title>{title}</title></head><body><h1>{title}</h1>{body}</body></html>\n')

    def save(self, folder: Path | None = None) -> Path:
        """Write :meth:`page` to :data:`RESULT_PAGE` in the course folder, beside the progress
        record (or in ``folder``)."""
        path = (folder or progress.location().parent) / RESULT_PAGE
        path.write_text(self.page(path.parent), encoding="utf-8")
        self.saved.value = f'<div>{esc(self._t("widgets.final.saved", path=path.name))}</div>'
        announce(self.live, plain_text(self.saved))
        return path

    def show_hint(self) -> str:
        """The test offers no hints: says so (the hint button is hidden)."""
        text = self._t("widgets.final.no-hints")
        announce(self.live, text)
        return text

    def _relabel(self, chosen: int | str | None = "keep") -> None:
        # an answered question's options are locked (set before the options change, so a new
        # question's options arrive enabled)
        self.options.disabled = self.index in self.first
        super()._relabel(chosen)
        self.hint_button.disabled = True
        self.hint.value = f'<div class="bk-final-no-hints">{esc(self._t("widgets.final.no-hints"))}</div>'
        if hasattr(self, "save_button"):
            self.title.value = title_html(self._t("widgets.final.title"))
            self._label(self.save_button, "widgets.final.save")
            self._label(self.new_button, "widgets.final.new")
            self.new_button.disabled = not self.finished
            if self.attempts_view.value:
                self._show_attempts()
