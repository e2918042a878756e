"""TodayView: what to do today, for a learner studying alone (lesson 00's course map, the trainer).

A thin view over :func:`baccarat_kit.today.today` (the figures) and the progress record:

* ``progress_line`` and ``streak_line`` — today's drill answers against the daily goal, and the
  study days in a row at the goal (UTC days; today does not break the run before it ends; not
  called a "streak", 連續, the course's word for runs of banker or player wins);
* ``goal`` — the daily goal, typed (a whole number of drill answers, 1–500; Enter saves it in the
  record); a bad value is refused with the kit's sentence naming the valid range (``status``);
* ``due_list`` — the drill's cells due now, in words; ``review_button`` starts, right here, a
  drill of those cells only (:class:`ReviewDrill`), with its key box focused: D / S (Y / N)
  answer, and it closes itself when nothing is due any more;
* ``mistakes`` — the mistakes of past days across the lessons' self-checks, the trainer's quiz,
  the predictions, the exercises' ``check()``, the drill and the final test, each with where it
  came from, what it was and its day, those not yet put right first;
* ``status`` — a goal saved or refused, a review started or done; ``live``, the view's one
  persistent live region (:func:`~._common.live_region`), says it (:func:`~._common.announce`).

The view follows the record by itself: each write in the same kernel (the trainer's drill below
it answered, a quiz, ``check()``) redraws it (:func:`baccarat_kit.progress.watch`), with no
polling; ``refresh_button`` reads the file again for what another kernel wrote.

Keyboard: Tab reaches the goal box (type, Enter), then the review button (Enter), whose drill
takes the keys at once.

>>> import tempfile, os
>>> tmp = tempfile.TemporaryDirectory(); os.environ["BACCARAT_KIT_PROGRESS"] = tmp.name
>>> view = TodayView(lang="en", now=lambda: 1_800_000_000.0)
>>> plain_text(view.progress_line), view.review_button.disabled
('Today: 0 / 20 drill answers, 20 to go.', True)
>>> view.goal.value = "abc"; plain_text(view.status)
"'abc' is not a daily goal: use a whole number of drill answers from 1 to 500 (the default is 20)."
>>> view.goal.value = "30"; plain_text(view.progress_line)
'Today: 0 / 30 drill answers, 30 to go.'
>>> del os.environ["BACCARAT_KIT_PROGRESS"]; tmp.cleanup()
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import ipywidgets as w

from .. import drill as scheduler
from .. import progress
from .. import today as days
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
from .drill import Drill

__all__ = ["ReviewDrill", "TodayView", "plain_text"]

SHOWN_DUE = 8
"""Due cells listed by name (the rest are counted)."""
SHOWN_MISTAKES = 12
"""Mistakes of past days listed (the rest, older, are counted)."""


# The review's key box takes the focus when the review appears, so the learner who pressed Enter
# on "review" answers with keys at once. ``key_box.focus()`` (ipywidgets) reaches only views that
# exist when it is sent, and the review's views are still being made then: this runs in the
# browser once the review's title is drawn, and focuses the key box as soon as it is there too.
_FOCUS_JS = (
    "var r=this.closest('.bk-today-drill');if(r&&!r.dataset.bkFocused){r.dataset.bkFocused='1';"
    "var n=0;var f=function(){var i=r.querySelector('.bk-drill-keys input');"
    "if(i){i.focus();}else if(n++<100){setTimeout(f,50);}};f();}"
)
FOCUS_KEYS_HTML = (f'<img class="bk-focus-keys" src="data:," alt="" aria-hidden="true" '
                   f'style="display:none" onerror="{_FOCUS_JS}">')


class ReviewDrill(Drill):
    """The drill over ``pool`` (the cells due when the review started) while any of them is
    due: the scheduler's own choice among them (:func:`baccarat_kit.drill.choose`), recorded as
    every drill answer is. ``remaining()`` is what is still due; ``on_answer(self)`` runs after
    each answer. A cell answered elsewhere meanwhile (the trainer's own drill) is read again
    before an answer, so the review never works from an old copy of it."""

    def __init__(self, pool: tuple[str, ...] | list[str], *, lang: str = "zh",
                 clock: Callable[[], float] = time.monotonic, now: Callable[[], float] | None = None,
                 on_answer: Callable[[ReviewDrill], None] | None = None) -> None:
        self.pool = tuple(pool)
        self.on_answer = on_answer
        self.right_count = 0
        super().__init__(lang=lang, record=True, coups=False, clock=clock, now=now)
        self.add_class("bk-today-drill")
        self.lang_toggle.layout.display = "none"  # the today view's switch relabels it
        self.heatmap.layout.display = "none"

    def remaining(self) -> list[str]:
        """The cells of the review still due now."""
        return scheduler.due_cells(self.cells, float(self.now()), self.pool)

    def _next_item(self, avoid: str | None = None) -> scheduler.Item:
        due = self.remaining() if hasattr(self, "pool") else []
        if not due:
            return super()._next_item(avoid)
        avoid = avoid or (self.asked[-1] if self.asked else None)
        cell = scheduler.choose(self.cells, self.step, self.seed, now=float(self.now()), pool=tuple(due), avoid=avoid)
        return super()._next_item(avoid) if cell is None else scheduler.item(cell)

    def respond(self, choice: str) -> bool:
        cell = self.item.id
        fresh = progress.load()["drill"]["cells"].get(cell) if self.record else None
        if isinstance(fresh, dict) and float(fresh.get("t", 0)) > float((self.cells.get(cell) or {}).get("t", 0)):
            self.cells[cell] = fresh
        asked = len(self.asked)
        right = super().respond(choice)
        if len(self.asked) > asked:
            self.right_count += int(right)
            if self.on_answer is not None:
                self.on_answer(self)
        return right

    def _relabel(self) -> None:
        super()._relabel()
        self.title.value = title_html(self._t("today.review-title")) + FOCUS_KEYS_HTML

    def __repr__(self) -> str:
        return f"ReviewDrill(cells={len(self.pool)}, lang={self._lang!r})"


class TodayView(LangMixin, w.VBox):
    """Today's figures and the review (module docstring). ``state`` is the last
    :class:`baccarat_kit.today.Today` shown; ``refresh()`` reads the record again; ``review`` is
    the running :class:`ReviewDrill` (None when none is)."""

    def __init__(self, *, lang: str = "zh", now: Callable[[], float] | None = None,
                 clock: Callable[[], float] = time.monotonic, toggle: bool = True) -> None:
        super().__init__()
        self._init_lang(lang)
        self.add_class("bk-today")
        self.now = now if now is not None else scheduler.sitting_clock()
        self.clock = clock
        self.review: ReviewDrill | None = None
        self.state = days.today(progress.empty(), float(self.now()))
        self.title = html_widget("bk-title")
        if not toggle:  # inside the course map: its switch relabels this view
            self.lang_toggle.layout.display = "none"
        self.progress_line = html_widget("bk-today-progress")
        self.streak_line = html_widget("bk-today-streak")
        self.goal = w.Text(continuous_update=False, layout=w.Layout(width="22em", max_width="calc(100% - 4px)"),
                           style={"description_width": "initial"})
        self.goal.add_class("bk-today-goal")
        self.goal.observe(self._on_goal, names="value")
        self.status = html_widget("bk-today-status")
        self.live = live_region("bk-today-live")
        self.status.observe(self._say, names="value")
        self._refused = False  # the goal box holds a refused value (kept until corrected)
        self.due_list = html_widget("bk-today-due")
        self.review_button = button_widget("bk-today-review", lambda: self.start_review(), icon="repeat")
        self.refresh_button = button_widget("bk-today-refresh", lambda: self.refresh(), icon="refresh")
        self.review_box = w.VBox()
        self.review_box.add_class("bk-today-review-box")
        self.mistakes = html_widget("bk-today-mistakes")
        self.children = [row([self.title, self.lang_toggle]), self.progress_line, self.streak_line,
                         self.goal, self.status, self.due_list,
                         row([self.review_button, self.refresh_button]), self.review_box, self.mistakes, self.live]
        self._relabel()
        self._unwatch = progress.watch(self._on_record)

    # ---- actions ------------------------------------------------------------------
    def refresh(self) -> days.Today:
        """Read the record again and redraw."""
        self.state = days.today(progress.load(), float(self.now()))
        self._render()
        return self.state

    def _on_record(self, record: progress.Record, path: Path) -> None:
        """The record was written in this kernel (the drill beside it answered, a quiz, a
        ``check()``, this view's own review): redraw from it, if it is the record this view
        shows (:func:`baccarat_kit.progress.watch`). A view closed stops following."""
        if getattr(self, "comm", None) is None:  # closed (Widget.close)
            self._unwatch()
            return
        if Path(path).resolve() != progress.location().resolve():
            return
        self.state = days.today(record, float(self.now()))
        self._render()

    def _say(self, change: dict[str, Any]) -> None:
        """The live region says each new status (a goal saved or refused, a review started or done)."""
        if change["new"]:
            announce(self.live, plain_text(self.status))

    def set_goal(self, value: Any) -> int | None:
        """Set the daily goal (what typing into ``goal`` and Enter does); None when refused."""
        try:
            new = days.check_goal(value)
        except days.GoalError as err:
            self.status.value = f'<span class="bk-wrong">{esc(err.message(self._lang))}</span>'
            self._refused = True
            return None
        self._refused = False
        if progress.kept(lambda: progress.update(lambda r: days.set_goal(r, new, float(self.now())))):
            self.status.value = esc(self._t("today.goal-saved", goal=new))
        self.refresh()
        return new

    def _on_goal(self, change: dict[str, Any]) -> None:
        if str(change["new"]).strip() != str(self.state.goal):
            self.set_goal(change["new"])

    def start_review(self) -> ReviewDrill | None:
        """Start a drill of the cells due now, below the list, its key box focused (None when
        nothing is due)."""
        self.refresh()
        if not self.state.due:
            return None
        self.review = ReviewDrill(self.state.due, lang=self._lang, clock=self.clock, now=self.now,
                                  on_answer=self._answered)
        self.review_box.children = [self.review]
        self.status.value = esc(self._t("today.review-started", n=len(self.state.due)))
        self.review.key_box.focus()
        self._render()
        return self.review

    def _answered(self, review: ReviewDrill) -> None:
        if not review.remaining():
            answers, right = len(review.asked), review.right_count
            self.review_box.children = []
            self.review = None
            self.status.value = f'{review.feedback.value}<br>{esc(self._t("today.review-done", answers=answers, right=right))}'
        self.refresh()

    # ---- view ---------------------------------------------------------------------
    def _render(self) -> None:
        s = self.state
        key = "today.progress-met" if s.met else "today.progress"
        self.progress_line.value = f"<b>{esc(self._t(key, done=s.done, goal=s.goal, left=s.left))}</b>"
        if s.met:
            streak = self._t("today.streak", days=s.streak)
        elif s.streak:
            streak = self._t("today.streak-alive", days=s.streak, left=s.left)
        else:
            streak = self._t("today.streak-none", goal=s.goal)
        self.streak_line.value = (f"{esc(streak)}<br><small>{esc(self._t('today.streak-rule'))}</small>")
        if self.goal.value != str(s.goal) and not self._refused:
            self.goal.value = str(s.goal)
        if s.due:
            items = "".join(f"<li>{esc(days.cell_words(c, self._lang))}</li>" for c in s.due[:SHOWN_DUE])
            more = (f"<li>{esc(self._t('today.due-more', n=len(s.due) - SHOWN_DUE))}</li>"
                    if len(s.due) > SHOWN_DUE else "")
            self.due_list.value = f"{esc(self._t('today.due', n=len(s.due)))}<ul>{items}{more}</ul>"
        else:
            self.due_list.value = esc(self._t("today.due-none"))
        running = self.review is not None
        self.review_button.disabled = not s.due or running
        self.review_button.description = (self._t("today.review-button", n=len(s.due)) if s.due
                                           else self._t("today.review-button-none"))
        self.mistakes.value = self.mistakes_html()

    def mistakes_html(self) -> str:
        """The mistakes of past days, as a list (:func:`baccarat_kit.today.review`)."""
        shown = self.state.review[:SHOWN_MISTAKES]
        head = f"<b>{esc(self._t('today.mistakes-title'))}</b>"
        if not shown:
            return f"{head}<br>{esc(self._t('today.mistakes-none'))}"
        items = []
        for m in shown:
            mark = self._t("today.mistake-fixed" if m.fixed else "today.mistake-open")
            times = self._t("today.mistake-times", n=m.misses) if m.misses > 1 else ""
            text = self._t("today.mistake", mark=mark, day=m.day, where=m.where[self._lang],
                           what=m.what[self._lang]) + times
            css = "bk-today-fixed" if m.fixed else "bk-today-open"
            items.append(f'<li class="bk-today-mistake {css}">{esc(text)}</li>')
        more = len(self.state.review) - len(shown)
        if more > 0:
            items.append(f"<li>{esc(self._t('today.mistakes-more', n=more))}</li>")
        return f'{head}<ul class="bk-today-mistake-list">{"".join(items)}</ul>'

    def _relabel(self) -> None:
        self.title.value = title_html(self._t("today.title"))
        self.goal.description = self._t("today.goal-label")
        self.goal.tooltip = self._t("today.goal-tip", low=days.GOAL_MIN, high=days.GOAL_MAX)
        self.goal.placeholder = str(days.GOAL_DEFAULT)
        self.review_button.tooltip = self._t("today.review-tip")
        self.refresh_button.description = self._t("today.refresh")
        self.refresh_button.tooltip = self._t("today.refresh")
        if self.review is not None:
            self.review.lang = self._lang
        self.status.value = ""
        self._refused = False
        self.refresh()

    def __repr__(self) -> str:
        return f"TodayView(lang={self._lang!r})"
