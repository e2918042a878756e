"""Drill: every cell of the rule, asked again and again until it is mastered.

A thin view over :mod:`baccarat_kit.drill` (the items and the seeded scheduler) and
:mod:`baccarat_kit.progress` (the record, so the drill goes on after a restart)::

    bk.widgets.Drill()                 # lesson 04, the trainer, JupyterLite

Keyboard: type into the ``key_box`` — D draw, S stand, Y yes, N no, P player, B banker, T tie;
or Tab to the buttons and press Enter or Space. The timed mode (``timed``) counts an answer
later than ``seconds`` (adjustable, 1–60 s; WCAG 2.2.1) as a miss; the same seconds are the
mastery time.

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
from typing import Any

import ipywidgets as w

from .. import drill as scheduler
from .. import progress
from ..rules import VALUES, banker_rule, draw_values, format_values
from ._common import LangMixin, attr, banker_reason, esc, html_widget, row, title_html

CHOICES = {
    "draw": (("draw", "d"), ("stand", "s")),
    "natural": (("yes", "y"), ("no", "n")),
    "coup": (("player", "p"), ("banker", "b"), ("tie", "t")),
}
"""Per kind of item: the answers (in button order) and the key of each."""
DEFAULT_SEED = 2026


class Drill(LangMixin, w.VBox):
    """One question at a time from the scheduler; ``respond(answer)`` or ``press(key)``.

    ``item`` is the question shown, ``cells`` the learner's per-cell record, ``step`` the
    number of answers so far, ``asked`` the items asked in this session.
    """

    def __init__(self, *, lang: str = "zh", seed: int | None = None, record: bool = True,
                 coups: bool = True, clock: Callable[[], float] = time.monotonic,
                 now: Callable[[], float] = time.time) -> None:
        super().__init__()
        self._init_lang(lang)
        self.add_class("bk-drill")
        self.clock = clock
        self.now = now
        self.record = record
        self.coups = coups
        saved = progress.load() if record else progress.empty()
        drill = saved["drill"]
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
        self.title = html_widget("bk-title")
        self.mastery = html_widget("bk-drill-mastery")
        self.definition = html_widget("bk-drill-definition")
        self.prompt = html_widget("bk-drill-prompt")
        self.buttons: dict[str, w.Button] = {}
        for kind in CHOICES.values():
            for value, _key in kind:
                if value not in self.buttons:
                    button = w.Button(layout=w.Layout(width="auto"))
                    button.add_class(f"bk-drill-{value}")
                    button.on_click(lambda _b, v=value: self.respond(v))
                    self.buttons[value] = button
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
        self.feedback = html_widget("bk-drill-feedback")
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
            self.feedback, self.heatmap,
        ]
        self.item = self._next_item()
        self.shown_at: float | None = None
        self._relabel()

    # ---- the scheduler ------------------------------------------------------------
    def _next_item(self) -> scheduler.Item:
        if self.coups and self.step % scheduler.COUP_EVERY == scheduler.COUP_EVERY - 1:
            return scheduler.coup_item(self.seed, self.coup_stats.get("seen", 0))
        avoid = self.asked[-1] if self.asked else None
        return scheduler.item(scheduler.choose(self.cells, self.step, self.seed, now=float(self.now()),
                                               avoid=avoid))

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
        """Answer the question shown with ``choice`` (``draw``/``stand``, ``yes``/``no``,
        ``player``/``banker``/``tie``); the next question follows. Returns whether it was right."""
        valid = [v for v, _k in CHOICES[self.item.kind]]
        if choice not in valid:
            self.feedback.value = f'<span role="alert">{esc(self._t("widgets.drill.bad-key", choices=self._keys_text()))}</span>'
            return False
        answered = float(self.clock())
        seconds = None if self.shown_at is None else max(0.0, answered - self.shown_at)
        limit = float(self.seconds.value)
        late = bool(self.timed.value) and seconds is not None and seconds > limit
        right = choice == self.item.answer and not late
        done = self.item
        if done.kind == "coup":
            self.coup_stats["seen"] = self.coup_stats.get("seen", 0) + 1
            self.coup_stats["right"] = self.coup_stats.get("right", 0) + int(right)
        else:
            entry = scheduler.answer(self.cells, done.id, right, seconds, step=self.step, now=float(self.now()),
                                     mastery_seconds=limit)
            entry["clock"] = self.timed_from or "untimed"  # what the time was measured from
        self.asked.append(done.id)
        self.step += 1
        self._save()
        self.feedback.value = self._feedback_html(done, choice, right, late, seconds)
        self.item = self._next_item()
        self._render_item()
        self._render_status()
        self._shown()
        return right

    def press(self, key: str) -> bool | None:
        """A key typed by the learner: its answer, or None for a key that means nothing here."""
        for value, k in CHOICES[self.item.kind]:
            if key.strip().lower() == k:
                return self.respond(value)
        self.feedback.value = f'<span role="alert">{esc(self._t("widgets.drill.bad-key", choices=self._keys_text()))}</span>'
        return None

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
            r["drill"]["t"] = time.time()
        progress.kept(lambda: progress.update(change))  # unwritable: the drill goes on, the learner told once

    # ---- view ---------------------------------------------------------------------
    def _keys_text(self) -> str:
        return ", ".join(f"{k.upper()} {self._t(f'widgets.drill.{v}')}" for v, k in CHOICES[self.item.kind])

    def _prompt_text(self, item: scheduler.Item) -> str:
        p = item.params
        if item.kind == "natural":
            return self._t("widgets.drill.natural-question", total=p["total"])
        if item.kind == "coup":
            coup = p["coup"]
            return self._t("widgets.drill.coup-question",
                           player=" ".join(c.label for c in coup.player_cards),
                           banker=" ".join(c.label for c in coup.banker_cards)) + self._t("widgets.drill.kit-dealt")
        if item.id.startswith("player-"):
            return self._t("widgets.quiz.player-question", total=p["total"])
        if p["third"] is None:
            return self._t("widgets.quiz.banker-question-stood", total=p["total"])
        return self._t("widgets.quiz.banker-question-third", total=p["total"], value=p["third"])

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
            head = self._t("widgets.drill.wrong", got=self._t(f"widgets.drill.{choice}"), answer=answer)
        why = ""
        if item.id.startswith("banker-"):
            p = item.params
            why = f"{banker_rule(p['total'], p['third'])}: {banker_reason(p['total'], p['third'], self._lang)}"
        elif item.kind == "coup":
            why = item.params["coup"].explain(self._lang).replace("\n", " ")
        css = "bk-right" if right else "bk-wrong"
        return (f'<div role="status"><b class="{css}">{esc(head)}</b>'
                + (f"<br>{esc(why)}" if why else "") + self._leech_html(item) + "</div>")

    def _leech_html(self, item: scheduler.Item) -> str:
        """A leech's escalation: the engine's rule row, the contrast cells, a kit-made coup."""
        entry = self.cells.get(item.id)
        if item.kind == "coup" or not scheduler.is_leech(entry):
            return ""
        assert entry is not None
        parts = [self._t("widgets.drill.leech", lapses=int(entry.get("lapses", 0)))]
        p = item.params
        if item.id.startswith("banker-") and p["third"] is not None:
            draws = draw_values(p["total"])
            parts.append(self._t("widgets.drill.leech-row", total=p["total"], draws=format_values(draws),
                                 stands=format_values(set(VALUES) - draws)))
        beside = "; ".join(f"{c}: {self._t(f'widgets.drill.{scheduler.item(c).answer}')}"
                           for c in scheduler.contrast(item.id))
        parts.append(self._t("widgets.drill.leech-contrast", cells=beside))
        coup = scheduler.worked_coup(item.id)
        parts.append(self._t("widgets.drill.leech-coup") + " " + coup.explain(self._lang).replace("\n", " "))
        return '<div class="bk-drill-leech">' + "<br>".join(esc(x) for x in parts) + "</div>"

    def _render_item(self) -> None:
        self.prompt.value = f'<div aria-live="polite"><b>{esc(self._prompt_text(self.item))}</b></div>'
        row = []
        for value, key in CHOICES[self.item.kind]:
            button = self.buttons[value]
            button.description = f"{self._t(f'widgets.drill.{value}')} ({key.upper()})"
            button.tooltip = self._t("widgets.drill.key-tip", key=key.upper())
            row.append(button)
        self.answer_row.children = row
        self.key_box.placeholder = self._t("widgets.drill.keys-placeholder", keys=self._keys_text())

    def _render_status(self) -> None:
        banker = sum(1 for c in scheduler.BANKER_CELLS if scheduler.is_mastered(self.cells.get(c)))
        self.mastery.value = esc(self._t("widgets.drill.mastery", mastered=scheduler.mastered(self.cells),
                                         total=len(scheduler.MASTERY_CELLS), banker=banker,
                                         banker_total=len(scheduler.BANKER_CELLS),
                                         coups=self.coup_stats.get("right", 0),
                                         coups_seen=self.coup_stats.get("seen", 0)))
        self.definition.value = esc(self._t("widgets.drill.definition", days=scheduler.MASTERY_DAYS,
                                            seconds=f"{float(self.seconds.value):g}"))
        self.queue.value = esc(self.queue_text())
        self.heatmap.value = self.heatmap_html()

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
        mastery, with a symbol in every cell so colour is not the only signal. Each cell has a
        border: a cell not yet asked is an empty box, as the legend's □ says (without borders the
        88 grey cells of a new learner ran together into one grey block)."""
        marks = {"mastered": "✔", "leech": "⚠", "slow": "◷", "learning": "·", "missed": "✘", "new": ""}
        colours = {"mastered": "background:#c8e6c9;color:#1b5e20", "learning": "background:#fff3cd;color:#5c4400",
                   "slow": "background:#d6e4f0;color:#0b3a66", "leech": "background:#f5c6cb;color:#5a0f17",
                   "missed": "background:#f8d7da;color:#721c24", "new": "background:#f2f2f2;color:#333"}
        hidden = "position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap"

        def state(cell: str) -> str:
            entry = self.cells.get(cell)
            if not entry:
                return "new"
            if scheduler.is_mastered(entry):
                return "mastered"
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
                tds.append(f'<td class="bk-heat-{s}" style="{colours[s]};border:1px solid #bbb;text-align:center;min-width:1.4em" '
                           f'title="{attr(cell + ": " + label)}">{marks[s]}'
                           f'<span class="bk-sr" style="{hidden}">{esc(label)}</span></td>')
            rows.append(f'<tr><th scope="row">{t}</th>{"".join(tds)}</tr>')
        legend = " ".join(f"{marks[s] or '□'} {esc(self._t(f'widgets.drill.state-{s}'))}"
                          for s in ("mastered", "slow", "learning", "missed", "leech", "new"))
        names = scheduler.leeches(self.cells)
        if names:
            legend += "<br>" + esc(self._t("widgets.drill.leeches", cells=", ".join(names)))
        median = scheduler.median_seconds(self.cells)
        pace = (self._t("widgets.drill.median", seconds=f"{median:.1f}", limit=f"{float(self.seconds.value):g}")
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
        return f"Drill(step={self.step}, mastered={scheduler.mastered(self.cells)}, lang={self._lang!r})"
