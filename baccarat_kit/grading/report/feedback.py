"""A learner's feedback page (rendered from the gradebook's row; its name: :func:`..term.gradebook.name_feedback`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ...i18n import message
from ..judge.checks import Exercise
from ..records import Submission
from ..term.collect import FEEDBACK_MARK

WRONG_OPEN = 16
"""A question's table of wrong cells is shown open up to this many rows (folded above it)."""


INSTRUCTOR_ONLY = "For the instructor"
"""How an instructor's warning begins: never on her page (``"about": "instructor"``; a gradebook
graded before that mark was kept has them as ``"about": "notebook"``)."""

def rule_words(rule: str, lang: str = "zh") -> str:
    """The engine's step a rule id names, in words (the wording of the case checker's reasons);
    "" for an id the engine does not make. Found by asking the engine which decision gives the id,
    never by reading the id's text.

    >>> rule_words("banker-3-vs-8", "en"), rule_words("player-6-7", "en")
    ('banker 3 stands on player third card 8', 'player 6–7 stands')
    >>> rule_words("banker-6-player-stood", "zh"), rule_words("nonsense", "zh")
    ('閒家停牌，莊家 6 點停牌', '')
    """
    from ... import rules

    for total in range(8):
        for third in (None, *range(10)):
            if rules.banker_rule(total, third) == rule:
                action = "draw" if rules.banker_draws(total, third) else "stand"
                if third is None:
                    return message(f"cases.reason.banker-stood-{action}", lang, total=total)
                return message(f"cases.reason.banker-{action}", lang, total=total, third=third)
    totals = [t for t in range(8) if rules.player_rule(t) == rule]
    if not totals:
        return ""
    span = str(totals[0]) if len(totals) == 1 else f"{totals[0]}–{totals[-1]}"
    return message(f"cases.reason.player-{'draw' if rules.player_draws(totals[0]) else 'stand'}", lang, total=span)


def _claim(mid: str, lang: str) -> str:
    """A misconception's claim in ``lang`` ("" for an id the catalogue does not have)."""
    from ...misconceptions import UnknownMisconception, get

    try:
        return str(get(mid).claims.get(lang, ""))
    except UnknownMisconception:  # an id from an older gradebook, no longer in the catalogue
        return ""


def _wrong_rows(name: str, wrong: Any, lang: str = "zh") -> list[dict[str, str]]:
    """A function answer's wrong cells (results.json's ``wrong``) as table rows; [] for none. The
    rule and the misconception are shown in words (the learner cannot read ``banker-3-vs-8``),
    their ids beside them for the instructor."""
    from ..records import WrongCell

    rows: list[dict[str, Any]] = []
    for w in wrong if isinstance(wrong, list) else []:
        if not isinstance(w, dict) or not isinstance(w.get("input"), list):
            continue
        cell = WrongCell(tuple(w["input"]), str(w.get("got", "")), str(w.get("want", "")))
        rule, mid = str(w.get("rule") or ""), str(w.get("misconception") or "")
        rows.append({"call": cell.call(name), "got": cell.got, "want": cell.want, "rule": rule,
                     "rule_words": rule_words(rule, lang) if rule else "", "misconception": mid,
                     "claim": _claim(mid, lang) if mid else ""})
    return rows


def how_late(row: dict[str, Any], lang: str = "zh") -> str:
    """How long after her deadline the row was handed in ("" when not late or not known), to the
    started minute: ``1 d 3 h``, ``3 h 20 min``, ``12 min``.

    >>> row = {"late": True, "submitted_at": "2026-12-02T02:59:10Z", "deadline": "2026-12-01T00:00:00Z"}
    >>> how_late(row, "en"), how_late(row, "zh"), how_late({**row, "late": False}, "en")
    ('1 d 3 h', '1 天 3 小時', '')
    >>> how_late({**row, "submitted_at": "2026-12-01T00:12:00Z"}, "en")
    '12 min'
    """
    from ..term.collect import parse_deadline

    try:
        seconds = (parse_deadline(str(row["submitted_at"])) - parse_deadline(str(row["deadline"]))).total_seconds()
    except (KeyError, ValueError, TypeError):  # (CollectError is a ValueError)
        return ""
    if not row.get("late") or seconds <= 0:
        return ""
    minutes = -(-int(seconds) // 60)
    days, hours, mins = minutes // 1440, minutes % 1440 // 60, minutes % 60
    if days:
        return message("grading.feedback.late_days", lang, days=days, hours=hours)
    if hours:
        return message("grading.feedback.late_hours", lang, hours=hours, minutes=mins)
    return message("grading.feedback.late_minutes", lang, minutes=mins)


def feedback_html(sub: Submission | dict[str, Any], exercises: dict[str, Exercise], lang: str = "zh",
                  merged: dict[str, Any] | None = None) -> str:
    """One submission's feedback page: per question its text, score, every failing public check
    and how many hidden checks failed (never their inputs), a function answer's verdict on every
    input and the table of its wrong cells (issue 31). Only the file's name is shown.

    Rendered from ``templates/feedback.html.j2`` with autoescape, learner text through
    :func:`..records.visible` (no raw newline of hers), under a Content-Security-Policy that lets
    the page run and load nothing (:data:`.templates.FEEDBACK_CSP`).

    ``merged``: the row with the instructor's scores of written answers merged in
    (:func:`..term.manual.apply`); a written answer is shown as her text (escaped, its lines kept),
    pending or with its score by hand and the comment (:func:`.written.written_row`)."""
    from .templates import FEEDBACK_CSP, render
    from .written import total_note, written_row

    row = merged if merged is not None else sub.to_json() if isinstance(sub, Submission) else sub
    results = {q.id: q for q in sub.questions} if isinstance(sub, Submission) else {}
    ex = exercises.get(row.get("exercise") or "")
    rows: list[dict[str, Any]] = []
    untouched = row.get("status") == "not_attempted"  # its page says "not scored": its total is no 0 either
    for q in ex.questions if ex else ():
        got = row.get("questions", {}).get(q.id) if row.get("status") == "ok" else None
        text = q.text.get(lang, "") if q.text else ""
        if got is None:  # (an untouched copy: not scored, so no 0 and no ✘ either)
            rows.append({"id": q.id, "text": text, "answer": None, "score": "—" if untouched else 0, "points": q.points,
                         "passed": False, "lines": [row.get("reason", {}).get(lang, "")], "wrong": [],
                         **({"untouched": True} if untouched else {})})
            continue
        if got.get("kind") == "written":
            rows.append(written_row(q.id, text, got, lang))
            continue
        passed = bool(got.get("passed"))
        result = results.get(q.id)
        if result is not None:
            # Every failing public check; of the hidden ones a named misconception (it shows the
            # learner's own answer and the correction, no input of the check) and a function's
            # check of all inputs (its inputs are the whole domain, which is public: the verdict
            # on every cell, issue 31), then a count of the others.
            shown = [c for c in result.failed(hidden=True) if c.misconception or c.check == "all-inputs"]
            public = [c for c in result.failed(hidden=False)
                      if not (c.check == "inputs" and any(h.check == "all-inputs" for h in shown))]
            lines = [c.message(lang) for c in [*public, *shown]]
            hidden_failed = len(result.failed(hidden=True)) - len(shown)
        else:
            lines = [got.get("message", {}).get(lang, "")] if not passed else []
            hidden_failed = sum(1 for c in got.get("checks", []) if c.get("hidden") and not c.get("passed"))
        if hidden_failed:
            lines.append(message("grading.feedback.hidden_failed", lang, n=hidden_failed))
        if passed:
            lines = [message("grading.result.passed", lang, n=len(got.get("checks", [])))]
        rows.append({"id": q.id, "text": text, "answer": got.get("answer"), "score": got.get("score"),
                     "points": got.get("points", q.points), "passed": passed, "lines": lines,
                     "wrong": _wrong_rows(q.answer, got.get("wrong"), lang)})
    penalty = ""
    late_by = how_late(row, lang)
    if row.get("late_policy") and row.get("raw_score") != row.get("score"):
        penalty = message("grading.feedback.penalty_by" if late_by else "grading.feedback.penalty", lang,
                          policy=row["late_policy"], raw=row.get("raw_score"), score=row.get("score"), by=late_by,
                          deadline=str(row.get("deadline") or "").replace("T", " ").replace("Z", " UTC"))
    labels = {k: message(f"grading.feedback.{k}", lang) for k in ("total", "question", "text", "score", "result",
                                                                   "answer", "cell_input", "cell_got", "cell_want",
                                                                   "cell_rule", "cell_misconception")}
    for r in rows:
        r["wrong_title"] = message("grading.feedback.wrong_cells", lang, count=len(r["wrong"]))
    return render(
        "feedback.html.j2", mark=FEEDBACK_MARK, html_lang="zh-Hant" if lang == "zh" else "en", csp=FEEDBACK_CSP,
        title=message("grading.feedback.title", lang), who=str(row.get("learner") or "?"),
        exercise=str(row.get("exercise") or "?"), ex_title=ex.title.get(lang, "") if ex else "",
        name=Path(str(row.get("file", ""))).name, late=(message("grading.feedback.late_by", lang, by=late_by) if late_by else
              message("grading.feedback.late", lang) if row.get("late") else ""),
        reason=row.get("reason", {}).get(lang, ""), score="—" if untouched else row.get("score"),
        max_score=row.get("max_score"),
        pending_note=total_note(row, lang),
        penalty=penalty, labels=labels, rows=rows, wrong_open=WRONG_OPEN,
        notes=[str(w.get(lang, "")) for w in row.get("warnings") or [] if isinstance(w, dict)
               and w.get("about") == "notebook" and not str(w.get("en", "")).startswith(INSTRUCTOR_ONLY)],
        graded=message("grading.feedback.graded_at", lang, when=row.get("graded_at", "")),
    )
