"""Drill: every cell of the rule, asked again and again until it is mastered.

A thin view over :mod:`baccarat_kit.drill` (the items, the seeded scheduler, the card-by-card
coup and the timed round, all pure) and :mod:`baccarat_kit.progress` (the record, so the drill
goes on after a restart)::

    bk.widgets.Drill()                 # lesson 04, the trainer, JupyterLite

Keyboard: type into the ``key_box`` — D draw, S stand, Y yes, N no (in a whole coup: N a
natural), P player, B banker, T tie; or Tab to the buttons and press Enter or Space. The timed
mode (``timed``) counts an answer later than ``seconds`` (adjustable, 1–60 s; WCAG 2.2.1) as a
miss; the same seconds are every cell's speed target in a timed round. They never move the
mastery time: that is the course's (``mastery_seconds``, kept with the record; mastery, mastered
now and the teaching that escalates with each miss: :mod:`baccarat_kit.drill`).

**Teaching** (by the cell's lapse count): the rule row; the nearest cells with the other answer
asked next; a worked coup the kit makes up, card by card (``_teach``, asked next); the lesson's
section (``lessons``: where the lesson notebooks are) and a quiz on the row (keys 1, 2, 3); the
cell suspended, ``unsuspend_button`` resumes it. ``live`` is the widget's one persistent live
region (:func:`~._common.live_region`): after each answer it says the feedback and the next
question, as text (:func:`~._common.announce`).

**A whole coup** (every :data:`~baccarat_kit.drill.COUP_EVERY`-th question) is dealt card by
card (:class:`~baccarat_kit.drill.CardByCard`): the first four cards (the kit's own, from a
seeded shoe), then "player: draw, stand or a natural?", the player's third card, "banker: draw
or stand?", the banker's third card, "who wins?". Each answer is judged by the engine and its
feedback gives the engine's reason; a wrong decision is also a miss of its mastery cell
(:func:`~baccarat_kit.drill.coup_miss`: rated *Again*, so the cell comes back soon; a right one
is not a review of the cell). Coup answers are never timed.

**A timed round** (``round_button``, :meth:`Drill.start_round`): the next
:data:`~baccarat_kit.drill.ROUND_SIZE` questions against the clock (no whole coups), each
answer an ordinary answer of its cell too; at the end a summary (right and wrong, each cell's
time against its target, the cells over target in words) and the best round, kept in the record.

**The clock** (``clock``, a fake one in the tests) starts when the prompt is on the learner's
screen, not when the kernel made it: each new prompt carries a number that the browser copies
back once it has applied it (``jsdlink`` from ``shown_token`` to ``seen_token``, a link the
widget front end runs itself, in JupyterLab, Voilà and JupyterLite alike), and the answer is
timed from the moment that echo arrives. The echo and the answer travel the same way, so the
kernel's and the network's delays cancel out and render delay is not charged. Without a front
end (tests, a prompt answered before its echo) the clock starts when the kernel has sent the
prompt. The first answer after the drill appears is not timed: the learner may have been
reading or scrolling to it. The scheduler's time (``now``, seconds since the epoch) is
separate: FSRS's intervals run on the wall clock, across sessions.

>>> import tempfile, os
>>> tmp = tempfile.TemporaryDirectory(); os.environ["BACCARAT_KIT_PROGRESS"] = tmp.name
>>> d = Drill(seed=1, lang="en", clock=iter(range(0, 1000, 1)).__next__)
>>> want = d.item.answer
>>> d.respond(want)
True
>>> d.cells[d.asked[-1]]["right"]
1
>>> del os.environ["BACCARAT_KIT_PROGRESS"]; tmp.cleanup()
"""

from __future__ import annotations

import time
from collections.abc import Callable
from functools import partial
from typing import Any

import ipywidgets as w

from .. import drill as scheduler
from .. import progress
from ..coup import banker_why
from ..i18n import message
from ..rules import (
    BANKER_DRAWS_WHEN_PLAYER_STOOD,
    PLAYER_DRAWS_ON,
    VALUES,
    banker_rule,
    draw_values,
    format_values,
    is_natural,
)
from ..today import cell_words
from ._common import (
    LangMixin,
    announce,
    attr,
    banker_reason,
    button_widget,
    esc,
    html_widget,
    live_region,
    plain_text,
    row,
    title_html,
)

KEYS = {"draw": "d", "stand": "s", "yes": "y", "no": "n", "natural": "n", "player": "p", "banker": "b",
        "tie": "t", "a": "1", "b": "2", "c": "3"}
"""The key of each answer (N is "no" to a natural question, "a natural" in a whole coup)."""
CHOICES = {
    "draw": (("draw", "d"), ("stand", "s")),
    "natural": (("yes", "y"), ("no", "n")),
    "coup": (("player", "p"), ("banker", "b"), ("tie", "t")),
    **{f"coup-{stage}": tuple((v, KEYS[v]) for v in values)
       for stage, values in scheduler.COUP_CHOICES.items() if stage != "winner"},
    "row": (("a", "1"), ("b", "2"), ("c", "3")),
    "none": (),
}
"""Per kind of question: the answers (in button order) and the key of each (``coup``: who wins;
``coup-player`` / ``coup-banker``: a decision of a whole coup dealt card by card; ``row``: a quiz
on a row of the rule, :func:`~baccarat_kit.drill.row_quiz`; ``none``: every cell left is
suspended)."""
LESSONS = {"natural": "natural", "player": "player", "stood": "stood", "banker": "banker"}
"""The lesson section of each table of the rule: ``widgets.drill.lesson-{kind}`` (its name) and
``widgets.drill.lesson-{kind}-href`` (the notebook and heading, in each edition)."""
DEFAULT_SEED = 2026


class Drill(LangMixin, w.VBox):
    """One question at a time from the scheduler; ``respond(answer)`` or ``press(key)``.

    ``item`` is the question shown (a cell, or a whole coup whose card-by-card state is
    ``deal``), ``cells`` the learner's per-cell record, ``step`` the number of items answered
    so far (a whole coup counts once), ``asked`` the items asked in this session, ``round`` the
    timed round under way (None between rounds), ``best_round`` the best round kept.
    """

    def __init__(self, *, lang: str = "zh", seed: int | None = None, record: bool = True,
                 coups: bool = True, clock: Callable[[], float] = time.monotonic,
                 now: Callable[[], float] | None = None, lessons: str = "") -> None:
        super().__init__()
        self._init_lang(lang)
        self.add_class("bk-drill")
        self.clock = clock
        self.now = now if now is not None else scheduler.sitting_clock()
        """The scheduler's time: by default the wall clock of this sitting, never ahead of the
        time really passed since the widget was made (:func:`~baccarat_kit.drill.sitting_clock`)."""
        self.record = record
        self.coups = coups
        self.lessons = lessons
        """Where the lesson notebooks are, from this notebook (``""``: beside it, as in lesson 04;
        the trainer: ``"../notebooks/"``, and the English edition's under ``en/`` there)."""
        saved = progress.load() if record else progress.empty()
        drill = saved["drill"]
        self.mastery_seconds = float((drill.get("mastery") or {}).get("seconds", scheduler.MASTERY_SECONDS))
        """The course's mastery time, kept with the record: the seconds box does not move it."""
        self._teach: scheduler.Item | None = None
        """The teaching item a miss asked for (a worked coup, a quiz on the row), asked next."""
        self.cells: dict[str, Any] = dict(drill.get("cells", {}))
        self.step = int(drill.get("step", 0))
        known = [s for s in (seed, drill.get("seed"), saved.get("seed")) if s is not None]
        self.seed = int(known[0]) if known else DEFAULT_SEED
        self._own_seed = not known and record
        """A new learner: after the first answer the drill takes the record's own seed (the
        first write makes one), so each learner gets an order of new cells of their own; the
        first question is the same for everyone (stored notebook outputs stay identical)."""
        self.coup_stats: dict[str, int] = dict(drill.get("coups", {"seen": 0, "right": 0}))
        self.asked: list[str] = []
        self.deal: scheduler.CardByCard | None = None
        self.round: scheduler.TimedRound | None = None
        self.best_round: dict[str, Any] | None = (drill.get("rounds") or {}).get("best")
        self.last_round: dict[str, Any] | None = None
        """The summary of the round finished last in this session (None before one)."""
        self._new_best = False
        self._round_from = 0.0
        """The clock's time the round under way started from (its first question on screen)."""
        self.title = html_widget("bk-title")
        self.mastery = html_widget("bk-drill-mastery")
        self.definition = html_widget("bk-drill-definition")
        self.prompt = html_widget("bk-drill-prompt")
        self.buttons: dict[str, w.Button] = {}
        for kind in CHOICES.values():
            for value, _key in kind:
                if value not in self.buttons:
                    self.buttons[value] = button_widget(f"bk-drill-{value}", partial(self.respond, value))
        self.answer_row = row([])
        self.answer_row.add_class("bk-drill-answers")
        self.key_box = w.Text(continuous_update=True, layout=w.Layout(width="22em", max_width="calc(100% - 4px)"),
                              style={"description_width": "initial"})
        self.key_box.add_class("bk-drill-keys")
        self.key_box.observe(self._on_key, names="value")
        self.timed = w.Checkbox(value=False, indent=False,
                                layout=w.Layout(width="auto", max_width="calc(100% - 4px)"))
        self.timed.add_class("bk-drill-timed")
        self.seconds = w.BoundedFloatText(value=scheduler.MASTERY_SECONDS, min=1, max=60, step=0.5,
                                          layout=w.Layout(width="auto", max_width="calc(100% - 4px)"),
                                          style={"description_width": "initial"})
        self.seconds.add_class("bk-drill-seconds")
        self.seconds.observe(lambda _c: self._render_status(), names="value")
        self.round_button = button_widget("bk-drill-round", lambda: self.start_round(), icon="clock-o")
        self.round_status = html_widget("bk-drill-round-status")
        self.feedback = html_widget("bk-drill-feedback")
        self.live = live_region("bk-drill-live")
        self.unsuspend_button = button_widget("bk-drill-unsuspend", lambda: self.unsuspend(), icon="play")
        self.queue = html_widget("bk-drill-queue")
        self.heatmap = html_widget("bk-drill-heatmap")
        # The prompt's echo from the browser (see the module docstring): never displayed.
        self.shown_token = w.IntText(value=0)
        self.seen_token = w.IntText(value=-1)
        self._echo = w.jsdlink((self.shown_token, "value"), (self.seen_token, "value"))
        self.seen_token.observe(self._on_seen, names="value")
        self.timed_from: str | None = None
        """How the prompt shown is timed: ``"screen"`` (from the browser's echo), ``"kernel"``
        (from when the kernel sent it) or None (the first answer: untimed)."""
        self.children = [
            row([self.title, self.lang_toggle]),
            self.mastery, self.queue, self.definition,
            self.prompt, self.answer_row, self.key_box,
            row([self.timed, self.seconds]),
            self.feedback, self.unsuspend_button, self.live,
            row([self.round_button, self.round_status]),
            self.heatmap,
        ]
        self.item = self._next_item()
        self.shown_at: float | None = None
        self._relabel()

    # ---- the scheduler ------------------------------------------------------------
    def _next_item(self, avoid: str | None = None) -> scheduler.Item:
        if self._teach is not None and self.round is None:
            taught, self._teach = self._teach, None
            return taught
        if (self.coups and self.round is None
                and self.step % scheduler.COUP_EVERY == scheduler.COUP_EVERY - 1):
            return scheduler.coup_item(self.seed, self.coup_stats.get("seen", 0))
        avoid = avoid or (self.asked[-1] if self.asked else None)
        cell = scheduler.choose(self.cells, self.step, self.seed, now=float(self.now()), avoid=avoid)
        return NOTHING if cell is None else scheduler.item(cell)

    def _taught(self, cell: str) -> None:
        """After a miss of ``cell``: what its lapse count asks for next (:data:`~baccarat_kit.drill.TEACHING`):
        a worked coup (the kit's own, a different one each time) or a quiz on its row."""
        entry = self.cells.get(cell) or {}
        level = scheduler.teaching(entry)
        variant = int(entry.get("lapses", 0)) * 7919 + self.seed
        if level == "coup":
            coup = scheduler.worked_coup(cell, variant)
            self._teach = scheduler.Item(f"worked-{cell}", "coup", str(coup.winner),
                                         {"coup": coup, "made_up": True, "cell": cell})
        elif level == "lesson":
            self._teach = scheduler.row_quiz(cell, variant)

    def unsuspend(self) -> list[str]:
        """Resume every suspended cell (:func:`~baccarat_kit.drill.unsuspend`): each is asked
        again, its teaching from the rule row. Returns the cells resumed."""
        cells = scheduler.suspended(self.cells)
        for cell in cells:
            scheduler.unsuspend(self.cells, cell)
        if cells:
            self._save()
            self.feedback.value = esc(self._t("widgets.drill.resumed", n=len(cells),
                                              cells="; ".join(cell_words(c, self._lang) for c in cells)))
            if self.item.kind == "none":
                self._next()
            else:
                self._render_status()
            self._say()
        return cells

    def _deal(self) -> scheduler.CardByCard | None:
        """The card-by-card state of the whole coup shown (None for a cell's question)."""
        if self.item.kind != "coup":
            self.deal = None
        elif self.deal is None or self.deal.coup is not self.item.params["coup"]:
            self.deal = scheduler.CardByCard(self.item.params["coup"])
        return self.deal

    @property
    def kind(self) -> str:
        """The kind of question asked now: a key of :data:`CHOICES`."""
        deal = self._deal()
        if deal is None or deal.question is None:
            return self.item.kind
        return "coup" if deal.question.stage == "winner" else f"coup-{deal.question.stage}"

    @property
    def expected(self) -> str:
        """The engine's answer to what is asked now."""
        deal = self._deal()
        if deal is not None and deal.question is not None:
            return deal.question.answer
        return self.item.answer

    @property
    def asking(self) -> str | None:
        """The mastery cell what is asked now is (None for who wins)."""
        deal = self._deal()
        if deal is not None:
            return deal.question.cell if deal.question is not None else None
        return self.item.id

    def _shown(self) -> None:
        """The new prompt has been sent: time it from here until the browser echoes it."""
        self.shown_at = float(self.clock())
        self.timed_from = "kernel"
        self.shown_token.value = self.shown_token.value + 1

    def _on_seen(self, change: dict[str, Any]) -> None:
        if change["new"] == self.shown_token.value and self.timed_from == "kernel":
            self.shown_at = float(self.clock())
            self.timed_from = "screen"

    def respond(self, choice: str) -> bool:
        """Answer the question shown with ``choice`` (``draw``/``stand``, ``yes``/``no``, in a
        whole coup ``natural`` too, ``player``/``banker``/``tie``); the next question follows.
        Returns whether it was right."""
        valid = [v for v, _k in CHOICES[self.kind]]
        if choice not in valid:
            self.feedback.value = esc(self._bad_key_text())
            self._say()
            return False
        if self._deal() is not None:
            return self._respond_coup(choice)
        if self.item.kind == "row":
            return self._respond_row(choice)
        answered = float(self.clock())
        seconds = None if self.shown_at is None else max(0.0, answered - self.shown_at)
        late = bool(self.timed.value) and seconds is not None and seconds > float(self.seconds.value)
        right = choice == self.item.answer and not late
        done = self.item
        entry = scheduler.answer(self.cells, done.id, right, seconds, step=self.step, now=float(self.now()),
                                 mastery_seconds=self.mastery_seconds)
        entry["clock"] = self.timed_from or "untimed"  # what the time was measured from
        self.asked.append(done.id)
        self.step += 1
        if not right:
            self._taught(done.id)
        self._save()
        feedback = self._feedback_html(done, choice, right, late, seconds)
        if self.round is not None:
            if not self.round.answers:  # the round's clock runs from its first question on screen
                self._round_from = answered if self.shown_at is None else self.shown_at
            self.round = self.round.add(done.id, right, seconds, elapsed=answered - self._round_from)
            if self.round.finished:
                self._finish_round()
                feedback += "<br>" + esc(self._round_done_text(self.last_round or {}))
        self.feedback.value = feedback
        self._next()
        self._say()
        return right

    def _respond_row(self, choice: str) -> bool:
        """The quiz on a row (the 4th miss of a cell): judged by the engine's row; teaching, not
        an answer of the cell."""
        done = self.item
        right = choice == done.answer
        picked = done.params["options"]["abc".index(choice)]
        head = (self._t("widgets.drill.row-right") if right
                else self._t("widgets.drill.row-wrong", got=self._values_text(picked, done)))
        self.asked.append(done.id)
        self.step += 1
        self._save()
        self.feedback.value = (f'<b class="{"bk-right" if right else "bk-wrong"}">{esc(head)}</b><br>'
                               f"{esc(self._row_text(done.params['cell']))}")
        self._next()
        self._say()
        return right

    def _respond_coup(self, choice: str) -> bool:
        """One answer of the whole coup dealt card by card (see the module docstring)."""
        deal = self._deal()
        assert deal is not None
        self.deal, said = deal.answer(choice)
        scheduler.coup_miss(self.cells, said, step=self.step, now=float(self.now()))
        if said.missed is not None:
            self.cells[said.missed]["clock"] = "coup"
            self._taught(said.missed)
        self.feedback.value = self._coup_feedback_html(said)
        if self.deal.finished:
            self.coup_stats["seen"] = self.coup_stats.get("seen", 0) + 1
            self.coup_stats["right"] = self.coup_stats.get("right", 0) + int(self.deal.right)
            self.asked.append(self.item.id)
            self.step += 1
            self._save()
            self._next()
        else:
            if said.missed is not None:
                self._save()
            self._render_item()
            self._render_status()
            self._shown()
        self._say()
        return said.right

    def _next(self) -> None:
        self.item = self._next_item()
        self.deal = None
        self._render_item()
        self._render_status()
        self._shown()

    def press(self, key: str) -> bool | None:
        """A key typed by the learner: its answer, or None for a key that means nothing here."""
        for value, k in CHOICES[self.kind]:
            if key.strip().lower() == k:
                return self.respond(value)
        self.feedback.value = esc(self._bad_key_text())
        self._say()
        return None

    def _say(self) -> None:
        """The live region says what the last action changed: the feedback, then what is asked now."""
        announce(self.live, " ".join(x for x in (plain_text(self.feedback), plain_text(self.prompt)) if x))

    def _bad_key_text(self) -> str:
        if self.kind == "none":
            return self._t("widgets.drill.all-suspended")
        return self._t("widgets.drill.bad-key", choices=self._keys_text())

    def _on_key(self, change: dict[str, Any]) -> None:
        text = str(change["new"])
        if not text:
            return
        self.key_box.value = ""
        self.press(text[-1])

    def _save(self) -> None:
        if not self.record:
            return

        def change(r: progress.Record) -> None:
            if self._own_seed:
                self.seed, self._own_seed = int(r["seed"]), False
            r["drill"]["cells"].update(self.cells)
            r["drill"]["step"] = self.step
            r["drill"]["seed"] = self.seed
            r["drill"]["coups"] = dict(self.coup_stats)
            r["drill"].setdefault("mastery", {"rule": scheduler.MASTERY_RULE, "seconds": self.mastery_seconds})
            r["drill"]["t"] = time.time()
        progress.kept(lambda: progress.update(change))  # unwritable: the drill goes on, the learner told once

    # ---- timed rounds -------------------------------------------------------------
    def start_round(self, size: int = scheduler.ROUND_SIZE) -> scheduler.TimedRound:
        """Start a timed round of ``size`` questions (no whole coups; a coup under way is put
        back, dealt again later, and a teaching item is asked after the round); every cell's
        target is the seconds set (``seconds``). A round under way goes on: it is not started
        again (the button is disabled while it runs), so its clock is never reset. A cell's
        question already on screen and timed keeps its clock (pressing the button does not give
        the learner fresh seconds for it); an untimed one (the drill's first) is replaced by
        another question, timed from when it is shown."""
        if self.round is not None:
            return self.round
        self.round = scheduler.TimedRound(size=size, target=float(self.seconds.value))
        self.last_round, self._new_best = None, False
        if self.item.kind in ("coup", "row") or self.shown_at is None:
            if self.item.kind == "row" or self.item.params.get("made_up"):
                self._teach = self.item  # the teaching a miss asked for: after the round
            self.item = self._next_item(avoid=self.item.id)
            self.deal = None
            self._render_item()
            self._shown()
        self.feedback.value = ""
        self._render_status()
        return self.round

    def _finish_round(self) -> None:
        assert self.round is not None
        summary = self.round.summary()
        self.round = None
        self.last_round = summary
        self._new_best = scheduler.better_round(self.best_round, summary)
        kept: dict[str, Any] = {}
        if self.record:  # unwritable: the round still counts here, the learner told once
            progress.kept(lambda: kept.update(progress.record_round(summary)))
        if "best" in kept:
            self.best_round = kept["best"]
        elif self._new_best:
            self.best_round = {k: summary[k] for k in ("size", "right", "wrong", "seconds")}
        self.round_status.value = self.round_summary_html(summary, new_best=self._new_best)

    def round_summary_html(self, summary: dict[str, Any], *, new_best: bool = False) -> str:
        """A finished round: right and wrong, its time, each cell's time against its target, the
        cells over target and the cells missed in words, the best round."""
        done = self._t("widgets.drill.round-done", right=summary["right"], total=summary["answered"],
                       wrong=summary["wrong"], seconds=f"{float(summary['seconds']):.1f}")
        lines = [f"<b>{esc(done)}</b>"]
        items = []
        for e in summary["cells"]:
            words = cell_words(e["cell"], self._lang)
            if e["median"] is None:
                text = self._t("widgets.drill.round-cell-missed", cell=words, target=f"{e['target']:g}")
            else:
                key = "widgets.drill.round-cell-over" if e["over"] else "widgets.drill.round-cell-in"
                text = self._t(key, cell=words, seconds=f"{e['slowest']:.1f}", target=f"{e['target']:g}")
            items.append(f'<li class="{"bk-round-over" if e["over"] else "bk-round-in"}">{esc(text)}</li>')
        lines.append(esc(self._t("widgets.drill.round-cells")) + f'<ul class="bk-drill-round-cells">{"".join(items)}</ul>')
        over = [cell_words(c, self._lang) for c in summary["over"]]
        lines.append(esc(self._t("widgets.drill.round-over", cells="; ".join(over)) if over
                         else self._t("widgets.drill.round-none-over")))
        if summary["missed"]:
            lines.append(esc(self._t("widgets.drill.round-missed",
                                     cells="; ".join(cell_words(c, self._lang) for c in summary["missed"]))))
        if self.best_round is not None:
            lines.append(esc(self._best_text()) + (f" <b>{esc(self._t('widgets.drill.round-new-best'))}</b>"
                                                  if new_best else ""))
        return '<div class="bk-drill-round-summary">' + "<br>".join(lines) + "</div>"

    def _round_done_text(self, summary: dict[str, Any]) -> str:
        return self._t("widgets.drill.round-done", right=summary.get("right", 0), total=summary.get("answered", 0),
                       wrong=summary.get("wrong", 0), seconds=f"{float(summary.get('seconds', 0)):.1f}")

    def _best_text(self) -> str:
        b = self.best_round or {}
        return self._t("widgets.drill.round-best", right=b.get("right", 0), total=b.get("size", 0),
                       seconds=f"{float(b.get('seconds', 0)):.1f}")

    def _render_round(self) -> None:
        self.round_button.description = self._t("widgets.drill.round-button", size=scheduler.ROUND_SIZE)
        self.round_button.tooltip = self._t("widgets.drill.round-tip", size=scheduler.ROUND_SIZE)
        r = self.round
        self.round_button.disabled = r is not None  # a round under way is never started again
        if r is not None:
            spent = r.elapsed or 0.0
            self.round_status.value = esc(self._t("widgets.drill.round-under-way", number=len(r.answers) + 1,
                                                  size=r.size, seconds=f"{spent:.1f}", target=f"{r.target:g}"))
        elif self.last_round is not None:
            self.round_status.value = self.round_summary_html(self.last_round, new_best=self._new_best)
        else:
            text = self._t("widgets.drill.round-intro", size=scheduler.ROUND_SIZE,
                           target=f"{float(self.seconds.value):g}")
            if self.best_round is not None:
                text += " " + self._best_text()
            self.round_status.value = esc(text)

    # ---- view ---------------------------------------------------------------------
    def _keys_text(self) -> str:
        if self.item.kind == "row" and self._deal() is None:
            return ", ".join(k for _v, k in CHOICES["row"])
        return ", ".join(f"{k.upper()} {self._t(f'widgets.drill.{v}')}" for v, k in CHOICES[self.kind])

    def _prompt_text(self, item: scheduler.Item) -> str:
        p = item.params
        if item.kind == "none":
            return self._t("widgets.drill.all-suspended")
        if item.kind == "natural":
            return self._t("widgets.drill.natural-question", total=p["total"])
        if item.kind == "coup":
            return self._coup_prompt()
        if item.kind == "row":
            return self._t(f"widgets.drill.row-ask-{p['table']}", total=p["total"])
        if item.id.startswith("player-"):
            return self._t("widgets.quiz.player-question", total=p["total"])
        if p["third"] is None:
            return self._t("widgets.quiz.banker-question-stood", total=p["total"])
        return self._t("widgets.quiz.banker-question-third", total=p["total"], value=p["third"])

    def _values_text(self, values: frozenset[int], item: scheduler.Item) -> str:
        """One option of a quiz on a row: values as the sources write them (``0–7, 9``)."""
        if not values:
            return self._t("widgets.drill.row-none")
        return format_values(values)

    def _coup_prompt(self) -> str:
        deal = self._deal()
        assert deal is not None
        label = ("widgets.drill.worked-made-up" if self.item.params.get("made_up") else "widgets.drill.kit-dealt")
        cards = self._t("widgets.drill.coup-cards", player=" ".join(c.label for c in deal.player_shown),
                        banker=" ".join(c.label for c in deal.banker_shown)) + self._t(label)
        q = deal.question
        if q is None:
            return cards
        if q.stage == "player":
            ask = self._t("widgets.drill.coup-ask-player")
        elif q.stage == "banker":
            third = deal.coup.player_third
            ask = (self._t("widgets.drill.coup-ask-banker-stood") if third is None
                   else self._t("widgets.drill.coup-ask-banker-drew", card=third.label))
        else:
            ask = self._t("widgets.drill.coup-ask-winner")
        return f"{cards} {ask}"

    def _coup_feedback_html(self, said: scheduler.CoupAnswer) -> str:
        """One answer of a whole coup: right or wrong, the engine's reason (the step's own
        sentence; at who wins, the result), the cell a wrong decision is a miss of, in words, and
        what that miss teaches."""
        q = said.question
        answer = self._t(f"widgets.drill.{q.answer}")
        if said.right:
            head = self._t("widgets.drill.coup-right", answer=answer)
        elif said.missed is not None and not scheduler.is_suspended(self.cells.get(said.missed)):
            head = self._t("widgets.drill.coup-wrong-cell", got=self._t(f"widgets.drill.{said.choice}"),
                           answer=answer, cell=cell_words(said.missed, self._lang))
        else:
            head = self._t("widgets.drill.coup-wrong", got=self._t(f"widgets.drill.{said.choice}"), answer=answer)
        coup = self.item.params["coup"]
        if q.step is not None:
            why = q.step.explain(self._lang)
        else:
            why = message(f"coup.result-{coup.winner}", self._lang, player=coup.player_total,
                          banker=coup.banker_total)
        parts = [f'<b class="{"bk-right" if said.right else "bk-wrong"}">{esc(head)}</b>', esc(why)]
        if self.deal is not None and self.deal.finished:
            parts.append(esc(self._t("widgets.drill.coup-done", right=sum(r.right for r in self.deal.results()),
                                     total=len(self.deal.given))))
        teach = self._teaching_html(said.missed) if said.missed is not None else ""
        return "<br>".join(parts) + teach

    def _feedback_html(self, item: scheduler.Item, choice: str, right: bool, late: bool,
                       seconds: float | None) -> str:
        answer = self._t(f"widgets.drill.{item.answer}")
        if late and seconds is not None:
            head = self._t("widgets.drill.late", seconds=f"{seconds:.1f}", limit=f"{float(self.seconds.value):g}",
                           answer=answer)
        elif right and seconds is None:
            head = self._t("widgets.drill.right-untimed", answer=answer)
        elif right:
            head = self._t("widgets.drill.right", answer=answer, seconds=f"{seconds:.1f}")
        else:
            key = "widgets.drill.coup-wrong" if scheduler.is_suspended(self.cells.get(item.id)) else "widgets.drill.wrong"
            head = self._t(key, got=self._t(f"widgets.drill.{choice}"), answer=answer)  # suspended: no "comes back"
        why = ""
        if item.id.startswith("banker-"):
            p = item.params
            why = f"{cell_words(item.id, self._lang)}: {banker_reason(p['total'], p['third'], self._lang)}"
        css = "bk-right" if right else "bk-wrong"
        return (f'<b class="{css}">{esc(head)}</b>' + (f"<br>{esc(why)}" if why else "")
                + ("" if right else self._teaching_html(item.id)))

    def _row_text(self, cell: str) -> str:
        """The engine's row of the rule table a cell is in, in words (every kind of cell; a full
        or an empty banker row as the coup trace says it, :func:`~baccarat_kit.coup.banker_why`)."""
        p = scheduler.item(cell).params
        total = int(p["total"])
        if cell.startswith("natural-"):
            naturals = {t for t in VALUES if is_natural(t)}
            return self._t("widgets.drill.leech-row-natural", naturals=format_values(naturals),
                           others=format_values(set(VALUES) - naturals))
        if cell.startswith("player-"):
            draws = set(PLAYER_DRAWS_ON)
            return self._t("widgets.drill.leech-row-player", draws=format_values(draws),
                           stands=format_values(set(range(8)) - draws))
        if p["third"] is None:
            draws = set(BANKER_DRAWS_WHEN_PLAYER_STOOD)
            return self._t("widgets.drill.leech-row-stood", draws=format_values(draws),
                           stands=format_values(set(range(8)) - draws))
        draws = set(draw_values(total))
        if not draws or draws == set(VALUES):  # a full or an empty row: "draws whatever …", "always stands"
            return self._t("widgets.drill.leech-row-whole", why=banker_why(total, self._lang))
        return self._t("widgets.drill.leech-row", total=total, draws=format_values(draws),
                       stands=format_values(set(VALUES) - draws))

    def _lesson_link(self, cell: str) -> str:
        """A link to the lesson section that teaches ``cell``'s table, in this edition."""
        table = scheduler.row_quiz(cell).params["table"]
        href = self._t(f"widgets.drill.lesson-{LESSONS[table]}-href")
        folder = self.lessons + ("en/" if self.lessons and self._lang == "en" else "")
        name = self._t(f"widgets.drill.lesson-{LESSONS[table]}")
        return f'<a href="{attr(folder + href)}" target="_blank" rel="noopener">{esc(name)}</a>'

    def _teaching_html(self, cell: str) -> str:
        """What a miss of ``cell`` teaches, by its lapse count (:data:`~baccarat_kit.drill.TEACHING`),
        each level different from the last: the rule row; the nearest cells with the other answer,
        asked next in a row; a worked coup the kit makes up, next, card by card; the lesson's
        section and a quiz on the row, next; the cell suspended, and how to resume it."""
        entry = self.cells.get(cell) or {}
        level = scheduler.teaching(entry)
        if level is None:
            return ""
        n = int(entry.get("lapses", 0))
        if level == "row":
            parts = [esc(self._row_text(cell))]
        elif level == "contrast":
            beside = "; ".join(f"{cell_words(c, self._lang)}: {self._t(f'widgets.drill.{scheduler.item(c).answer}')}"
                               for c in scheduler.contrast(cell))
            parts = [esc(self._t("widgets.drill.teach-contrast", n=n, cells=beside))]
        elif level == "coup":
            parts = [esc(self._t("widgets.drill.teach-coup", n=n))]
        elif level == "lesson":
            parts = [esc(self._t("widgets.drill.teach-lesson", n=n)) + " " + self._lesson_link(cell)]
        else:
            parts = [esc(self._t("widgets.drill.teach-suspend", n=n, cell=cell_words(cell, self._lang))) + " "
                     + self._lesson_link(cell)]
        return f'<div class="bk-drill-teach bk-drill-teach-{level}">' + "<br>".join(parts) + "</div>"

    def _render_item(self) -> None:
        self.prompt.value = f"<b>{esc(self._prompt_text(self.item))}</b>"
        row = []
        for value, key in CHOICES[self.kind]:
            button = self.buttons[value]
            if self.kind == "row":
                label = self._values_text(self.item.params["options"]["abc".index(value)], self.item)
            else:
                label = self._t(f"widgets.drill.{value}")
            button.description = f"{label} ({key.upper()})"
            button.tooltip = self._t("widgets.drill.key-tip", key=key.upper())
            row.append(button)
        self.answer_row.children = row
        self.key_box.placeholder = (self._t("widgets.drill.keys-placeholder", keys=self._keys_text()) if row
                                    else self._t("widgets.drill.all-suspended"))

    def _render_status(self) -> None:
        now = float(self.now())
        banker = sum(1 for c in scheduler.BANKER_CELLS if scheduler.is_mastered_now(self.cells.get(c), now))
        paused = scheduler.suspended(self.cells)
        text = self._t("widgets.drill.mastery", mastered=scheduler.mastered(self.cells, now),
                       total=len(scheduler.MASTERY_CELLS), banker=banker, banker_total=len(scheduler.BANKER_CELLS),
                       refresh=len(scheduler.refreshes(self.cells, now)), coups=self.coup_stats.get("right", 0),
                       coups_seen=self.coup_stats.get("seen", 0))
        if paused:
            text += " " + self._t("widgets.drill.suspended-n", n=len(paused))
        self.mastery.value = esc(text)
        self.unsuspend_button.description = self._t("widgets.drill.unsuspend", n=len(paused))
        self.unsuspend_button.layout.display = None if paused else "none"
        self.definition.value = esc(self._t("widgets.drill.definition", seconds=f"{self.mastery_seconds:g}",
                                            hours=f"{scheduler.SPACING / 3600:g}", p=f"{scheduler.MASTERY_P:g}",
                                            retention=f"{scheduler.DESIRED_RETENTION:.0%}"))
        self.queue.value = esc(self.queue_text())
        self.heatmap.value = self.heatmap_html()
        self._render_round()

    def queue_text(self) -> str:
        """The scheduler's figures (:func:`baccarat_kit.drill.stats`) as one line."""
        st = scheduler.stats(self.cells, float(self.now()))
        if st["due"]:
            nxt = self._t("widgets.drill.due-now")
        elif st["new"]:
            nxt = self._t("widgets.drill.next-new")
        elif st["next_due"] is not None:
            nxt = self._t("widgets.drill.next-in", when=self._duration(float(st["next_due"])))
        else:
            nxt = ""
        right = round(100 * st["right"] / st["answers"]) if st["answers"] else 0
        return self._t("widgets.drill.queue", due=st["due"], learning=st["learning"], review=st["review"],
                       new=st["new"], answers=st["answers"], right=right, next=nxt).strip()

    def _duration(self, seconds: float) -> str:
        for unit, size in (("days", 86400), ("hours", 3600), ("minutes", 60)):
            if seconds >= size:
                return self._t(f"widgets.drill.{unit}", n=f"{seconds / size:.0f}")
        return self._t("widgets.drill.seconds-n", n=f"{seconds:.0f}")

    def heatmap_html(self) -> str:
        """The banker matrix (totals × player's third card, and the stood column) coloured by
        mastery, with a symbol in every cell so colour is not the only signal: mastered now ✔,
        due for a refresh ↻, slow ◷, learning ·, missed ✘, a leech ⚠, suspended ‖, not yet asked
        (an empty box, as the legend's □ says: each cell has a border, or the 88 grey cells of a
        new learner ran together into one grey block)."""
        marks = {"mastered": "✔", "refresh": "↻", "leech": "⚠", "suspended": "‖", "slow": "◷", "learning": "·",
                 "missed": "✘", "new": ""}
        colours = {"mastered": "background:#c8e6c9;color:#1b5e20", "refresh": "background:#e0f2f1;color:#004d40",
                   "learning": "background:#fff3cd;color:#5c4400", "slow": "background:#d6e4f0;color:#0b3a66",
                   "leech": "background:#f5c6cb;color:#5a0f17", "suspended": "background:#e0e0e0;color:#212121",
                   "missed": "background:#f8d7da;color:#721c24", "new": "background:#f2f2f2;color:#333"}
        hidden = "position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap"
        now = float(self.now())

        def state(cell: str) -> str:
            entry = self.cells.get(cell)
            if not entry:
                return "new"
            if scheduler.is_mastered(entry):
                return "mastered" if scheduler.is_mastered_now(entry, now) else "refresh"
            if scheduler.is_suspended(entry):
                return "suspended"
            if scheduler.is_leech(entry):
                return "leech"
            if scheduler.is_slow(entry):
                return "slow"
            return "missed" if entry.get("last") == "wrong" else "learning"

        head = "".join(f'<th scope="col">{v}</th>' for v in VALUES)
        head += f'<th scope="col">{esc(self._t("widgets.drill.stood"))}</th>'
        rows = []
        for t in range(8):
            tds = []
            for v in (*VALUES, None):
                cell = banker_rule(t, v)
                s = state(cell)
                label = self._t(f"widgets.drill.state-{s}")
                entry = self.cells.get(cell) or {}
                if s == "slow" and "ms" in entry:  # how slow: this cell's latest time
                    label += self._t("widgets.drill.cell-time", seconds=f"{int(entry['ms']) / 1000:.1f}")
                tds.append(f'<td class="bk-heat-{s}" style="{colours[s]};border:1px solid #bbb;text-align:center;min-width:1.4em" '
                           f'title="{attr(cell_words(cell, self._lang) + ": " + label)}">{marks[s]}'
                           f'<span class="bk-sr" style="{hidden}">{esc(label)}</span></td>')
            rows.append(f'<tr><th scope="row">{t}</th>{"".join(tds)}</tr>')
        legend = " ".join(f"{marks[s] or '□'} {esc(self._t(f'widgets.drill.state-{s}'))}"
                          for s in ("mastered", "refresh", "slow", "learning", "missed", "leech", "suspended", "new"))
        names = scheduler.leeches(self.cells)
        if names:
            legend += "<br>" + esc(self._t("widgets.drill.leeches",
                                          cells="; ".join(cell_words(c, self._lang) for c in names)))
        paused = scheduler.suspended(self.cells)
        if paused:
            legend += "<br>" + esc(self._t("widgets.drill.suspended-cells",
                                          cells="; ".join(cell_words(c, self._lang) for c in paused)))
        median = scheduler.median_seconds(self.cells)
        pace = (self._t("widgets.drill.median", seconds=f"{median:.1f}", limit=f"{self.mastery_seconds:g}")
                if median is not None else self._t("widgets.drill.median-none"))
        return (f'<table class="bk-heatmap" style="border-collapse:collapse;font-size:0.9em"><caption>{esc(self._t("widgets.drill.heatmap"))}<br>'
                f'<small>{legend}</small><br><small class="bk-drill-median">{esc(pace)}</small></caption>'
                f'<thead><tr><th scope="col">{esc(self._t("widgets.drill.corner"))}</th>{head}</tr></thead>'
                f'<tbody>{"".join(rows)}</tbody></table>')

    def _relabel(self) -> None:
        self.title.value = title_html(self._t("widgets.drill.title"))
        self.key_box.description = self._t("widgets.drill.keys")
        self.timed.description = self._t("widgets.drill.timed")
        self.seconds.description = self._t("widgets.drill.seconds")
        self._render_item()
        self._render_status()

    def __repr__(self) -> str:
        return f"Drill(step={self.step}, mastered={scheduler.mastered(self.cells, float(self.now()))}, lang={self._lang!r})"


NOTHING = scheduler.Item("none", "none", "", {})
"""What the drill shows when every cell left is suspended: nothing to answer, the resume button."""
