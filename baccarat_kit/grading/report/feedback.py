"""A learner's feedback page, and the stable names of the pages of a batch."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

from ...i18n import message
from ..judge.checks import Exercise
from ..records import Submission
from ..term.collect import FEEDBACK_MARK, safe_part


def feedback_base(sub: Submission) -> str:
    """A feedback page's name: learner (or learner folder, else the file's name) and exercise.

    >>> feedback_base(Submission("x/03-banker-rule.ipynb", "ab" * 32, "03-banker-rule", " =HYPERLINK(1)", "ok", {}))
    'HYPERLINK_1--03-banker-rule'
    """
    who = sub.learner.strip() or sub.owner or Path(sub.file).stem
    return f"{safe_part(who, 'submission')}--{safe_part(sub.exercise or 'unknown', 'unknown')}"


def _name_feedback(subs: list[Submission], used: set[str] | None = None) -> None:
    """Stable names: the same learner and exercise give the same page; files that would share
    a name get a part of their sha256 (never a number that shifts when files are added)."""
    taken = set(used or ())
    bases: dict[str, int] = {}
    for s in subs:
        bases[feedback_base(s)] = bases.get(feedback_base(s), 0) + 1
    for s in subs:
        base = feedback_base(s)
        name = base if bases[base] == 1 else f"{base}-{(s.sha256 or hashlib.sha256(s.file.encode()).hexdigest())[:8]}"
        while name in taken:
            name = f"{name}-{hashlib.sha256(s.file.encode()).hexdigest()[:4]}"
        taken.add(name)
        s.feedback_name = name



def feedback_html(sub: Submission | dict[str, Any], exercises: dict[str, Exercise], lang: str = "zh") -> str:
    """One submission's feedback page: per question its text, score, every failing public check
    and how many hidden checks failed (never their inputs). Only the file's name is shown.

    Rendered from ``templates/feedback.html.j2`` with autoescape, learner text through
    :func:`..records.visible` (no raw newline of hers), under a Content-Security-Policy that lets
    the page run and load nothing (:data:`.templates.FEEDBACK_CSP`)."""
    from .templates import FEEDBACK_CSP, render

    row = sub.to_json() if isinstance(sub, Submission) else sub
    results = {q.id: q for q in sub.questions} if isinstance(sub, Submission) else {}
    ex = exercises.get(row.get("exercise") or "")
    rows = []
    for q in ex.questions if ex else ():
        got = row.get("questions", {}).get(q.id) if row.get("status") == "ok" else None
        text = q.text.get(lang, "") if q.text else ""
        if got is None:
            rows.append({"id": q.id, "text": text, "answer": None, "score": 0, "points": q.points, "passed": False,
                         "lines": [row.get("reason", {}).get(lang, "")]})
            continue
        passed = bool(got.get("passed"))
        result = results.get(q.id)
        if result is not None:
            # Every failing public check; of the hidden ones only a named misconception (it shows
            # the learner's own answer and the correction, no input of the check) and a count.
            public = result.failed(hidden=False)
            named = [c for c in result.failed(hidden=True) if c.misconception]
            lines = [c.message(lang) for c in [*public, *named]]
            hidden_failed = len(result.failed(hidden=True)) - len(named)
        else:
            lines = [got.get("message", {}).get(lang, "")] if not passed else []
            hidden_failed = sum(1 for c in got.get("checks", []) if c.get("hidden") and not c.get("passed"))
        if hidden_failed:
            lines.append(message("grading.feedback.hidden_failed", lang, n=hidden_failed))
        if passed:
            lines = [message("grading.result.passed", lang, n=len(got.get("checks", [])))]
        rows.append({"id": q.id, "text": text, "answer": got.get("answer"), "score": got.get("score"),
                     "points": got.get("points", q.points), "passed": passed, "lines": lines})
    penalty = ""
    if row.get("late_policy") and row.get("raw_score") != row.get("score"):
        penalty = message("grading.feedback.penalty", lang, policy=row["late_policy"], raw=row.get("raw_score"),
                          score=row.get("score"))
    labels = {k: message(f"grading.feedback.{k}", lang) for k in ("total", "question", "text", "score", "result",
                                                                   "answer")}
    return render(
        "feedback.html.j2", mark=FEEDBACK_MARK, html_lang="zh-Hant" if lang == "zh" else "en", csp=FEEDBACK_CSP,
        title=message("grading.feedback.title", lang), who=str(row.get("learner") or "?"),
        exercise=str(row.get("exercise") or "?"), ex_title=ex.title.get(lang, "") if ex else "",
        name=Path(str(row.get("file", ""))).name, late=message("grading.feedback.late", lang) if row.get("late") else "",
        reason=row.get("reason", {}).get(lang, ""), score=row.get("score"), max_score=row.get("max_score"),
        penalty=penalty, labels=labels, rows=rows,
        notes=[str(w.get(lang, "")) for w in row.get("warnings") or []
               if isinstance(w, dict) and w.get("about") == "notebook"],  # cells that failed, pasted kit code
        graded=message("grading.feedback.graded_at", lang, when=row.get("graded_at", "")),
    )
