"""Prove an exercise's keys: its model solution, graded against them, must earn full marks.

``release`` and ``grade --source`` call :func:`prove` on every source notebook before anything
else (issue 20, attack 13: a key whose args were changed from ``[3, 8]`` to ``[3, 9]`` was
valid, so nothing noticed, and the model solution scored 10/11). The model solution runs here,
in the instructor's own process (it is the instructor's code, not a learner's): every code cell
of the source, in order, with ``LEARNER_ID`` set to the learner asked about; its answers are
collected exactly as in a learner's kernel (:func:`..sandbox._extract.collect`) and graded with
every check, hidden ones included (:func:`.checks.grade_question`), with the static own-work
check too (function answers, and value and choice answers with the exercise's ``allowed_calls``:
a model solution that asks the engine, ``case_a = bk.banker_draws(3, 8)``, is refused). Anything short of full marks is a :class:`KeyDisagreement` naming the
exercise, the question and what the check said, in one language.

The same function drives the sampled test in ``make test`` and ``benchmarks/check_ids.py``
(every exercise for 100,000 learner ids).
"""

from __future__ import annotations

import contextlib
import io
import re
from collections.abc import Iterable, Mapping
from typing import Any

from ...errors import BaccaratError
from . import ownwork
from .checks import Exercise, QuestionResult, grade_question, public_metadata

PROOF_LEARNERS = ("demo-learner", "s0005", "s0043")
"""The learner ids :func:`prove` grades each model solution for (s0005 and s0043 once had no
exercise 05: see :func:`.keys._find_coup`)."""

_LEARNER_LINE = re.compile(r"^LEARNER_ID\s*=.*$", re.MULTILINE)


class KeyDisagreement(BaccaratError):
    """A model solution that does not earn full marks against its own keys."""


def _code_cells(nb: dict[str, Any]) -> list[str]:
    out = []
    for cell in nb.get("cells", []):
        if cell.get("cell_type") == "code":
            src = cell.get("source", "")
            out.append(src if isinstance(src, str) else "".join(src))
    return out


def model_results(nb: dict[str, Any], learner_id: str, where: str = "?",
                  exercise: Exercise | None = None, key_id: str | None = None,
                  public: dict[str, Any] | None = None) -> list[QuestionResult]:
    """Every question of source notebook ``nb`` graded (hidden checks included) on the answers
    its model solution gives for ``learner_id``. ``key_id``: what the keys are computed from, when
    it is not the learner id (a term copy: her token, :mod:`..term.secret`); ``public``: the
    metadata ``check`` reads beside the copy (a term copy's own, its options in her order)."""
    from ..notebook import Checker
    from ..sandbox import _extract

    exercise = exercise or Exercise.from_metadata(nb.get("metadata", {}).get("baccarat_kit"), where)
    public_exercise = Exercise.from_metadata(public if public is not None
                                             else public_metadata(nb["metadata"]["baccarat_kit"]), where)
    cells = [_LEARNER_LINE.sub(f"LEARNER_ID = {learner_id!r}", c) for c in _code_cells(nb)]
    ns: dict[str, Any] = {"__name__": "__main__"}
    with contextlib.redirect_stdout(io.StringIO()):
        for index, code in enumerate(cells, 1):
            try:
                exec(compile(code, f"<{exercise.id} cell {index}>", "exec"), ns)
            except Exception as err:
                raise KeyDisagreement("grading.selfcheck.cell_failed", exercise=exercise.id, cell=index,
                                      learner=learner_id, error=f"{type(err).__name__}: {err}"[:300]) from err
            check = ns.get("check")
            if isinstance(check, Checker) and check._exercise is None:
                check._exercise = public_exercise  # the public metadata, as beside a learner's copy
        collected = _extract.collect(ns, [q.extraction() for q in exercise.questions])  # type: ignore[no-untyped-call]
    names = [q.answer for q in exercise.questions if q.kind == "function"]
    static = {k: (bool(v[0]), str(v[1])) for k, v in ownwork.analyse(cells, names).items()} if names else {}
    # value and choice answers: the model solution, too, works them out with only the allowed kit calls
    static.update(ownwork.analyse_values(cells, [q.answer for q in exercise.questions if q.kind != "function"],
                                         exercise.all_allowed_calls))
    keyed = key_id if key_id is not None else learner_id
    return [grade_question(q, collected["answers"].get(q.id, {"status": "missing"}), keyed, hidden=True,
                           static_ownwork=static.get(q.answer))
            for q in exercise.questions]


def disagreements(nb: dict[str, Any], learner_id: str, where: str = "?",
                  exercise: Exercise | None = None, key_id: str | None = None,
                  public: dict[str, Any] | None = None) -> list[tuple[str, dict[str, str]]]:
    """``(question id, what its checks said in each language)`` for every question the model
    solution does not get full marks on, for ``learner_id``; empty when keys and solution agree."""
    from ...i18n import LANGUAGES

    out = []
    for result in model_results(nb, learner_id, where, exercise, key_id, public):
        if result.score != result.points:
            said = {lang: f"{result.score}/{result.points}: "
                          + ("; ".join(c.message(lang) for c in result.checks if not c.passed) or "?")
                    for lang in LANGUAGES}
            out.append((result.id, said))
    return out


def prove(nb: dict[str, Any], where: str = "?", learners: Iterable[str] = PROOF_LEARNERS,
          key_ids: Mapping[str, str] | None = None, public: dict[str, Any] | None = None) -> None:
    """Refuse (:class:`KeyDisagreement`) a source whose model solution, for any of ``learners``,
    does not earn full marks against its own keys (``key_ids``: a learner's term token, see
    :func:`model_results`)."""
    exercise = Exercise.from_metadata(nb.get("metadata", {}).get("baccarat_kit"), where)
    for learner in learners:
        found = disagreements(nb, learner, where, exercise, (key_ids or {}).get(learner), public)
        if found:
            qid, said = found[0]
            raise KeyDisagreement("grading.selfcheck.disagrees", exercise=exercise.id, where=where, question=qid,
                                  learner=learner, detail=said, more=len(found) - 1)
