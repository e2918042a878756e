"""Quiz: multiple choice with immediate feedback that names the misconception.

A question is data (:class:`Question`, or a dict / TOML table of the same shape)::

    {"id": "banker-3",
     "prompt": {"zh": "…", "en": "…"},
     "options": [{"zh": "…", "en": "…"},                                  # the right one
                 {"zh": "…", "en": "…", "misconception": "banker-3-always"}],
     "answer": 0,                                   # index of the correct option
     "explain": {"zh": "…", "en": "…"}}            # optional

A wrong option may name a misconception id from :mod:`baccarat_kit.misconceptions`;
its feedback then shows that misconception's claim and correction. Any option may say
``why`` (the rule step that disagrees; for the right one, why it is right): after an answer
the chosen option's why and the right option's why are shown. A question may carry a
``hint`` (shown by the hint button, before the answer). Questions of three or more options
are shown in an order drawn for this learner (``seed``; the progress record's seed once the
learner has answered anything). ``redo`` asks again only the questions first answered wrong.
A quiz with ``record="04"`` (every ``Quiz.lesson``) keeps its answers in the learner's
progress record (:mod:`baccarat_kit.progress`): they are back after a kernel restart. Questions about
the drawing rules can be generated from the engine (:meth:`Quiz.banker_rule`,
:meth:`Quiz.player_rule`), so no question restates the table.

>>> quiz = Quiz.banker_rule([(3, 8)], lang="en")
>>> quiz.question.options[quiz.question.answer].text["en"]
'stands'
>>> quiz.options.value = 1 - quiz.question.answer
>>> quiz.submit.click()
>>> quiz.correct, "A banker with 3 always draws." in quiz.feedback.value
(False, True)
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterable, Mapping
from typing import Any

import ipywidgets as w

from .. import progress
from ..misconceptions import get as get_misconception
from ._common import (
    LangMixin,
    WidgetError,
    announce,
    button_widget,
    esc,
    html_widget,
    live_region,
    plain_text,
    row,
    title_html,
)
from .questions import (
    Option,
    Question,
    banker_misconception,
    banker_questions,
    load_questions,
    player_questions,
)

__all__ = ["Option", "Question", "Quiz", "banker_misconception", "load_questions"]


class Quiz(LangMixin, w.VBox):
    """Questions one at a time: pick an option (``options``), press ``submit``, read ``feedback``.

    ``index`` is the current question, ``answers`` maps question index → chosen option,
    ``correct`` says whether the last submitted answer was right, ``right`` counts right answers.
    """

    def __init__(self, questions: Iterable[Question | Mapping[str, Any]], *, lang: str = "zh",
                 record: str | None = None, seed: int | None = None) -> None:
        super().__init__()
        self._init_lang(lang)
        self.add_class("bk-quiz")
        self.questions: tuple[Question, ...] = tuple(
            q if isinstance(q, Question) else Question.from_dict(q) for q in questions
        )
        if not self.questions:
            raise WidgetError("widgets.quiz.empty")
        self.index = 0
        self.answers: dict[int, int] = {}
        """Question index → the option chosen last (what the feedback shows)."""
        self.first: dict[int, int] = {}
        """Question index → the option submitted first: the one that is scored."""
        self.correct: bool | None = None
        self.record = record
        saved = progress.load() if record else None
        self.seed = seed if seed is not None else (saved or {}).get("seed")
        self.orders = [self._draw_order(i) for i in range(len(self.questions))]
        """Per question: the source indices of its options in the order shown (A, B, …)."""
        if saved is not None:
            stored = saved["quizzes"].get(record, {}).get("answers", {})
            for i, q in enumerate(self.questions):
                entry = stored.get(q.id)
                if entry and str(entry.get("answer", "")).isdigit() and int(entry["answer"]) < len(q.options):
                    self.answers[i] = int(entry["answer"])
                    self.first[i] = int(entry.get("first_answer", entry["answer"]))
        self.hints_shown: set[int] = set()
        self.title = html_widget("bk-title")
        self.progress = html_widget("bk-quiz-progress")
        self.prompt = html_widget("bk-quiz-prompt")
        self.options = w.RadioButtons(options=[], layout=w.Layout(width="auto"),
                                      style={"description_width": "initial"})
        self.options.add_class("bk-quiz-options")
        self.submit = button_widget("bk-quiz-submit", lambda: self.check(), layout=w.Layout(), icon="check",
                             button_style="primary")
        self._asked_at: float | None = None
        """When the submit button came with no option chosen (monotonic), else None."""
        self.options.observe(self._late_choice, names="value")
        self.prev_button = button_widget("bk-quiz-prev", lambda: self.go(self.index - 1))
        self.next_button = button_widget("bk-quiz-next", lambda: self.go(self.index + 1))
        self.reset_button = button_widget("bk-quiz-reset", lambda: self.reset(), icon="refresh")
        self.hint_button = button_widget("bk-quiz-hint-button", lambda: self.show_hint(), icon="question")
        self.hint = html_widget("bk-quiz-hint")
        self.redo_button = button_widget("bk-quiz-redo", lambda: self.redo(), icon="repeat")
        self.feedback = html_widget("bk-quiz-feedback")
        self.score = html_widget("bk-quiz-score")
        self.summary = html_widget("bk-quiz-summary")
        self.live = live_region("bk-quiz-live")
        """The quiz's one live region: what an answer, a hint or "choose first" says (:func:`announce`)."""
        nav = [self.prev_button, self.next_button] if len(self.questions) > 1 else []
        self.children = [
            row([self.title, self.lang_toggle]),
            self.progress,
            self.prompt,
            self.options,
            row([self.submit, self.hint_button, *nav, self.reset_button, self.redo_button]),
            self.hint,
            self.feedback,
            self.score,
            self.summary,
            self.live,
        ]
        self._relabel()

    # ---- generated questions --------------------------------------------------
    @classmethod
    def banker_rule(cls, cells: Iterable[tuple[int, int | None]], *, lang: str = "zh") -> Quiz:
        """A quiz asking, for each (banker total, player third value or None), draw or stand.

        The answer, its reason and the misconception a wrong answer shows all come from the
        engine (:func:`~baccarat_kit.widgets.questions.banker_questions`).
        """
        return cls(banker_questions(cells), lang=lang)

    @classmethod
    def player_rule(cls, totals: Iterable[int], *, lang: str = "zh") -> Quiz:
        """A quiz asking, for each player two-card total (0–7, no natural), draw or stand."""
        return cls(player_questions(totals), lang=lang)

    # ---- state ----------------------------------------------------------------
    @property
    def question(self) -> Question:
        """The question shown."""
        return self.questions[self.index]

    @property
    def right(self) -> int:
        """How many questions were answered correctly at the first submission (the score)."""
        return sum(1 for i, a in self.first.items() if self.questions[i].answer == a)

    @property
    def finished(self) -> bool:
        """Every question has been answered once."""
        return len(self.first) == len(self.questions)

    def reset(self) -> None:
        """Start again: clear the answers shown and go back to question 1. The first answers
        stay, and so does the score (:attr:`right`): answered again after their feedback, the
        questions are practice, not a better score (the record keeps the first answers too)."""
        self.answers.clear()
        self.options.value = None
        self.go(0)

    @classmethod
    def lesson(cls, name: str, *, lang: str = "zh") -> Quiz:
        """The named question set of a lesson (``baccarat_kit/data/quizzes.toml``), every
        answer computed by the engine when the quiz is built.

        >>> Quiz.lesson("04", lang="en").question.id
        'banker-5-vs-8'
        """
        from .question_sets import lesson_questions

        return cls(lesson_questions(name), lang=lang, record=name)

    def _draw_order(self, index: int) -> list[int]:
        q = self.questions[index]
        order = list(range(len(q.options)))
        if self.seed is not None and len(order) >= 3:
            random.Random(f"{self.seed}:{q.id}").shuffle(order)
        return order

    def letter(self, index: int, option: int) -> str:
        """The letter (A, B, …) option ``option`` of question ``index`` is shown under."""
        return chr(ord("A") + self.orders[index].index(option))

    def missed(self) -> list[int]:
        """The questions whose first answer was wrong."""
        return [i for i, a in sorted(self.first.items()) if a != self.questions[i].answer]

    def redo(self) -> list[int]:
        """Ask again the questions first answered wrong: their answers are cleared (the record
        keeps the first answers, so the score does not change) and the first of them is shown."""
        again = self.missed()
        for i in again:
            self.answers.pop(i, None)
        self.go(again[0] if again else self.index)
        return again

    def show_hint(self) -> str:
        """Show the question's hint (or say it has none); returns its text."""
        q = self.question
        self.hints_shown.add(self.index)
        text = q.hint[self._lang] if q.hint else self._t("widgets.quiz.no-hint")
        self.hint.value = f'<div>{esc(self._t("widgets.quiz.hint", text=text))}</div>'
        announce(self.live, plain_text(self.hint))
        return text

    def go(self, index: int) -> None:
        """Show question ``index`` (clamped to the quiz), with its answer if it has one."""
        self.index = max(0, min(index, len(self.questions) - 1))
        self.correct = None
        self._asked_at = None
        self._relabel(chosen=self.answers.get(self.index))

    def preview(self, index: int, option: int) -> str:
        """The feedback a learner choosing ``option`` on question ``index`` would see, as plain
        text, from a separate copy: this quiz's own answers and display stay untouched."""
        copy = type(self)([self.questions[index]], lang=self._lang)
        copy.options.value = option
        copy.check()
        return plain_text(copy.feedback)

    LATE_CHOICE_SECONDS = 2.0
    """How late an option chosen before the submit button may still arrive (see :meth:`_late_choice`)."""

    def check(self) -> bool | None:
        """Check the selected option (what the submit button does); returns whether it is right."""
        chosen = self.options.value
        if chosen is None:
            self.correct = None
            self._asked_at = time.monotonic()
            self.feedback.value = f'<span>{esc(self._t("widgets.quiz.choose-first"))}</span>'
            announce(self.live, plain_text(self.feedback))
            return None
        self._asked_at = None
        self.answers[self.index] = int(chosen)
        self.first.setdefault(self.index, int(chosen))
        self.correct = int(chosen) == self.question.answer
        record = self.record
        if record:
            q = self.question
            first = self.first[self.index]
            right = bool(self.correct)
            progress.kept(lambda: progress.record_quiz(record, q.id, str(chosen), first == q.answer,
                                                       len(self.questions), first_answer=str(first), right=right))
        self._render_feedback()
        self._announce_answer()
        return self.correct

    def _announce_answer(self) -> None:
        """Say the feedback shown (and, once every question is answered, the score)."""
        said = plain_text(self.feedback)
        if self.finished:
            said += " " + plain_text(self.summary).split("\n")[0]
        announce(self.live, said)

    def _late_choice(self, change: dict[str, Any]) -> None:
        """An option that reaches the kernel just after the submit button that followed it.

        The page sends a radio button's new value only once the kernel has acknowledged the
        previous change of that widget, but a button's click at once: an arrow key then Tab and
        Enter, on a busy machine, can bring the click first, with no option chosen yet. When the
        choice arrives within :data:`LATE_CHOICE_SECONDS` of such a click, it is checked as the
        click asked; later, the learner presses the button again."""
        asked, self._asked_at = self._asked_at, None
        if change.get("new") is not None and asked is not None \
                and time.monotonic() - asked <= self.LATE_CHOICE_SECONDS:
            self.check()

    # ---- view -----------------------------------------------------------------
    def _relabel(self, chosen: int | str | None = "keep") -> None:
        q = self.question
        lang = self._lang
        if chosen == "keep":
            chosen = self.options.value
        self.title.value = title_html(self._t("widgets.quiz.title"))
        self.progress.value = esc(self._t("widgets.quiz.progress", number=self.index + 1,
                                          total=len(self.questions)))
        self.prompt.value = f"<b>{esc(q.prompt[lang])}</b>"
        self.options.options = [(f"{chr(ord('A') + pos)}. {q.options[i].text[lang]}", i)
                                for pos, i in enumerate(self.orders[self.index])]
        self.options.value = chosen
        self.options.description = self._t("widgets.quiz.answer")
        self._label(self.submit, "widgets.quiz.submit")
        self._label(self.prev_button, "widgets.quiz.prev")
        self.prev_button.disabled = self.index == 0
        self._label(self.next_button, "widgets.quiz.next")
        self.next_button.disabled = self.index == len(self.questions) - 1
        self.hint_button.description = self._t("widgets.quiz.hint-button")
        self.hint_button.tooltip = self._t("widgets.quiz.hint-tip")
        self.hint_button.disabled = q.hint is None
        self.hint.value = ""
        self._label(self.redo_button, "widgets.quiz.redo")
        self.redo_button.disabled = not self.missed()
        self._label(self.reset_button, "widgets.quiz.reset")
        if self.index in self.answers:
            self._render_feedback()
        else:
            self.feedback.value = ""
            self._render_score()

    def _render_feedback(self) -> None:
        q, lang = self.question, self._lang
        chosen = self.answers[self.index]
        opt = q.options[chosen]
        label = f"{self.letter(self.index, chosen)}. {opt.text[lang]}"
        parts: list[str] = []
        if chosen == q.answer:
            parts.append(f'<b class="bk-right">{esc(self._t("widgets.quiz.right", answer=label))}</b>')
        else:
            parts.append(f'<b class="bk-wrong">{esc(self._t("widgets.quiz.wrong", answer=label))}</b>')
            if opt.misconception:
                m = get_misconception(opt.misconception)
                parts.append(esc(self._t("widgets.quiz.misconception",
                                         claim=m.claim(lang), correction=m.correction(lang))))
            if opt.why:
                parts.append(esc(self._t("widgets.quiz.why-wrong", text=opt.why[lang])))
            good = q.options[q.answer]
            parts.append(esc(self._t("widgets.quiz.correct-is",
                                     answer=f"{self.letter(self.index, q.answer)}. {good.text[lang]}")))
        right_why = q.options[q.answer].why
        if right_why:
            parts.append(esc(self._t("widgets.quiz.why-right", text=right_why[lang])))
        if q.explain:
            parts.append(esc(self._t("widgets.quiz.why", text=q.explain[lang])))
        if self.first.get(self.index, chosen) != chosen:
            parts.append(f'<i class="bk-not-counted">{esc(self._t("widgets.quiz.not-counted"))}</i>')
        self.feedback.value = "<div>" + "<br>".join(parts) + "</div>"
        self._render_score()

    def _render_score(self) -> None:
        self.redo_button.disabled = not self.missed()
        self.score.value = esc(self._t("widgets.quiz.score", right=self.right,
                                       total=len(self.questions)))
        self.summary.value = self._summary_html() if self.finished else ""

    def _summary_html(self) -> str:
        lang = self._lang
        lines = [f"<b>{esc(self._t('widgets.quiz.summary', right=self.right, total=len(self.questions)))}</b>"]
        review = []
        for i, q in enumerate(self.questions):
            chosen = self.first[i]
            if chosen == q.answer:
                continue
            mid = q.options[chosen].misconception
            what = get_misconception(mid).correction(lang) if mid else q.prompt[lang]
            review.append(f"<li>{esc(self._t('widgets.quiz.summary-review', number=i + 1, what=what))}</li>")
        lines.append(f"<ul>{''.join(review)}</ul>" if review
                     else esc(self._t("widgets.quiz.summary-all")))
        lines.append(esc(self._t("widgets.quiz.summary-reset")))
        return "<div>" + "<br>".join(lines) + "</div>"

    def __repr__(self) -> str:
        return f"Quiz({len(self.questions)} questions, lang={self._lang!r})"
