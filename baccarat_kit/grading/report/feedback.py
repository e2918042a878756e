"""A learner's feedback page, and the stable names of the pages of a batch."""

from __future__ import annotations

import hashlib
import html
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
    and how many hidden checks failed (never their inputs). Only the file's name is shown."""
    row = sub.to_json() if isinstance(sub, Submission) else sub
    results = {q.id: q for q in sub.questions} if isinstance(sub, Submission) else {}
    e = html.escape
    title = message("grading.feedback.title", lang)
    ex = exercises.get(row.get("exercise") or "")
    ex_title = ex.title.get(lang, "") if ex else ""
    name = Path(str(row.get("file", ""))).name
    rows = []
    questions = ex.questions if ex else ()
    for q in questions:
        got = row.get("questions", {}).get(q.id) if row.get("status") == "ok" else None
        text = e(q.text.get(lang, "")) if q.text else ""
        if got is None:
            rows.append(f"<tr class=\"fail\"><td>{e(q.id)}</td><td class=\"text\">{text}</td><td>0 / {q.points}</td>"
                        f"<td>✘ {e(row.get('reason', {}).get(lang, ''))}</td></tr>")
            continue
        passed = got.get("passed")
        result = results.get(q.id)
        lines = []
        if result is not None:
            # Every failing public check; of the hidden ones only a named misconception (it shows
            # the learner's own answer and the correction, no input of the check) and a count.
            public = result.failed(hidden=False)
            named = [c for c in result.failed(hidden=True) if c.misconception]
            lines = [e(c.message(lang)) for c in [*public, *named]]
            hidden_failed = len(result.failed(hidden=True)) - len(named)
        else:
            lines = [e(got.get("message", {}).get(lang, ""))] if not passed else []
            hidden_failed = sum(1 for c in got.get("checks", []) if c.get("hidden") and not c.get("passed"))
        if hidden_failed:
            lines.append(e(message("grading.feedback.hidden_failed", lang, n=hidden_failed)))
        if passed:
            lines = [e(message("grading.result.passed", lang, n=len(got.get("checks", []))))]
        answer = got.get("answer")
        shown = f"<div class=\"answer\">{e(message('grading.feedback.answer', lang))}: <code>{e(answer)}</code></div>" \
            if answer else ""
        rows.append(f"<tr class=\"{'pass' if passed else 'fail'}\"><td>{e(q.id)}</td><td class=\"text\">{text}{shown}</td>"
                    f"<td>{got.get('score')} / {got.get('points', q.points)}</td>"
                    f"<td>{'✔' if passed else '✘'} " + "<br>".join(lines) + "</td></tr>")
    late = row.get("late")
    late_text = f" · {e(message('grading.feedback.late', lang))}" if late else ""
    return (
        FEEDBACK_MARK + "\n<!DOCTYPE html>\n<html lang=\"" + ("zh-Hant" if lang == "zh" else "en") +
        "\"><head><meta charset=\"utf-8\">"
        f"<title>{e(title)}: {e(str(row.get('learner') or name))} · {e(str(row.get('exercise') or '?'))}</title>"
        "<style>body{font-family:sans-serif;margin:2em}td,th{border:1px solid #ccc;padding:4px 8px;vertical-align:top}"
        "table{border-collapse:collapse}.pass td{background:#eefbea}.fail td{background:#fdecea}"
        ".text{max-width:40em}.answer{color:#555;margin-top:4px}</style>"
        "</head><body>\n"
        f"<h1>{e(title)}</h1>\n<p>{e(name)} · {e(str(row.get('exercise') or '?'))} {e(ex_title)} · "
        f"{e(str(row.get('learner') or '?'))}{late_text}</p>\n"
        f"<p class=\"reason\">{e(row.get('reason', {}).get(lang, ''))}</p>\n"
        f"<p class=\"total\">{e(message('grading.feedback.total', lang))}: {row.get('score')} / {row.get('max_score')}</p>\n"
        f"<table><tr><th>{e(message('grading.feedback.question', lang))}</th>"
        f"<th>{e(message('grading.feedback.text', lang))}</th>"
        f"<th>{e(message('grading.feedback.score', lang))}</th>"
        f"<th>{e(message('grading.feedback.result', lang))}</th></tr>\n" + "\n".join(rows) +
        f"\n</table>\n<p class=\"graded\">{e(message('grading.feedback.graded_at', lang, when=row.get('graded_at', '')))}</p>"
        "\n</body></html>\n"
    )

