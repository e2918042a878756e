"""Written answers on a learner's feedback page (scored by hand: :mod:`..term.manual`)."""

from __future__ import annotations

from typing import Any

from ...i18n import message
from ..records import visible

MAX_LINES = 400


def answer_lines(text: Any) -> list[str]:
    """Her answer as lines of text, each shown through :func:`..records.visible` by the template
    (no control character, no markup: the page escapes it), at most :data:`MAX_LINES`.

    >>> answer_lines("a\\n<b>b</b>\\x1b")
    ['a', '<b>b</b>\\\\u001b']
    """
    lines = str(text or "").replace("\r\n", "\n").split("\n")[:MAX_LINES]
    return [visible(line, 2000) for line in lines]


def written_row(qid: str, text: str, got: dict[str, Any], lang: str) -> dict[str, Any]:
    """One written question's row of the feedback page: her text, and pending (saying so when it
    changed after an earlier answer was scored: that score and its comment are not shown), or the
    score by hand with the comment written for her answer."""
    found = got.get("manual")
    manual = found if isinstance(found, dict) and not got.get("pending") else None
    lines: list[str] = []
    if manual is None:
        lines.append(message("manual.feedback.pending", lang))
        if got.get("earlier"):
            lines.append(message("manual.feedback.changed", lang))
    else:
        lines.append(message("manual.result.scored", lang, score=manual.get("score"), points=got.get("points")))
    comment = str(manual.get("comment") or "") if manual else ""
    return {"id": qid, "text": text, "answer": None, "score": "—" if manual is None else got.get("score"),
            "points": got.get("points"), "passed": bool(got.get("passed")), "pending": manual is None,
            "lines": lines, "wrong": [], "written": answer_lines(got.get("written")),
            "written_label": message("manual.feedback.your_answer", lang),
            "comment": answer_lines(comment) if comment else [],
            "comment_label": message("manual.feedback.comment", lang)}


def total_note(row: dict[str, Any], lang: str) -> str:
    """"n of m points graded; k pending" when written answers of the row are not scored yet."""
    pending = row.get("pending_points") or 0
    if not pending or row.get("status") != "ok":
        return ""
    most = row.get("max_score") or 0
    return message("manual.feedback.total_pending", lang, graded=most - pending, most=most, pending=pending)
