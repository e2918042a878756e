"""Written answers: free text a learner writes in a marked Markdown cell, scored by hand.

A source declares one as a question of kind ``written`` with a rubric (criteria with points)::

    {"id": "q9", "kind": "written", "answer": "q9", "points": 3,
     "rubric": [{"id": "a", "points": 1, "zh": "…", "en": "…"}, …]}

and marks the learner's answer cell, a Markdown cell, with ``metadata.baccarat_kit.written:
"q9"`` (the question's ``answer``). In the source that cell holds the model answer; ``release``
replaces it with a placeholder and removes the rubric from the copy's metadata, as it removes
solutions and hidden checks. ``grade`` reads the cell's text (never runs or renders it) and leaves
the question **pending**: 0 points until the instructor scores it (:mod:`..term.manual`).

>>> q = Question.from_dict({"id": "q9", "kind": "written", "points": 2, "rubric": [
...     {"id": "a", "points": 1, "zh": "甲", "en": "A"}, {"id": "b", "points": 1, "zh": "乙", "en": "B"}]})
>>> q.kind, q.answer, q.points, [c["id"] for c in q.rubric]
('written', 'q9', 2, ['a', 'b'])
>>> r = written_result(q, "Because the player stood.")
>>> r.pending, r.score, r.answer, r.message("en")[:22]
(True, 0, 'Because the player stood.', 'Written answer: scored')
"""

from __future__ import annotations

import hashlib
from typing import Any

from ...i18n import message
from ..records import CheckResult, QuestionResult
from .checks import Question

MAX_WRITTEN_CHARS = 20_000
"""A written answer is kept up to this many characters (the rest is cut, and the page says so)."""
MARK = "written"
"""The key of ``metadata.baccarat_kit`` that marks a Markdown cell as a written answer's cell."""


def placeholders() -> set[str]:
    """The placeholder ``release`` puts in an answer cell, in every language (not an answer)."""
    return {message("manual.placeholder", lang).strip() for lang in ("zh", "en")}


def answer_digest(text: str) -> str:
    """The SHA-256 of an answer's text (to tell, after a regrade, whether it changed)."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def written_result(question: Question, text: Any) -> QuestionResult:
    """A written question's result: 0 points, **pending**, her text kept (at most
    :data:`MAX_WRITTEN_CHARS`) as text, never markup; no text (no marked cell, or the placeholder
    left as it was) is an empty answer, pending too: the instructor scores it."""
    from ..records import without_surrogates

    body = without_surrogates(text) if isinstance(text, str) else ""  # (no lone surrogate: UTF-8 files)
    if body.strip() in placeholders():
        body = ""
    body = body.strip()[:MAX_WRITTEN_CHARS]
    check = CheckResult("written", False, "manual.result.pending" if body else "manual.result.pending_empty",
                        {"points": question.points}, False)
    short = " ".join(body.split())
    shown = (short if len(short) <= 200 else short[:199] + "…") or None
    return QuestionResult(question.id, question.points, 0, (check,), question.text, shown,
                          written={"text": body, "sha256": answer_digest(body)})


def answer_cells(nb: Any) -> dict[str, str]:
    """The written answers of a notebook (a source, a copy): each marked Markdown cell's text by
    its mark (the first cell of a mark wins). Used on the instructor's side; the grader gets the
    same from its bounded reader (:func:`..sandbox.reader.written_answers`)."""
    out: dict[str, str] = {}
    for cell in nb.get("cells", []) if isinstance(nb, dict) else []:
        if not isinstance(cell, dict) or cell.get("cell_type") != "markdown":
            continue
        meta = cell.get("metadata")
        kit = meta.get("baccarat_kit") if isinstance(meta, dict) else None
        mark = kit.get(MARK) if isinstance(kit, dict) else None
        if isinstance(mark, str) and mark not in out:
            src = cell.get("source", "")
            out[mark] = "".join(src) if isinstance(src, list) else str(src)
    return out


def check_text(question: Question, saved: str | None, lang: str, self_study: bool) -> str:
    """What ``check("q9")`` says of a written answer: that it is scored by hand, how much of it
    the saved notebook holds; a self-study copy (no instructor) lists the rubric to score it by."""
    body = (saved or "").strip()
    if body in placeholders():
        body = ""
    lines = [message("manual.check.written" if body else "manual.check.empty", lang, qid=question.id,
                     chars=len(body), points=question.points)]
    if self_study and question.rubric:
        lines.append(message("manual.check.rubric", lang))
        lines.extend(f"  ({c['id']}) {c['points']}: {c.get(lang) or c.get('en', '')}" for c in question.rubric)
    return "\n".join(lines)
