"""Prove an exercise's keys: its model solution, graded against them, must earn full marks.

``release`` and ``grade --source`` call :func:`prove` on every source notebook before anything
else (issue 20, attack 13: a key whose args were changed from ``[3, 8]`` to ``[3, 9]`` was
valid, so nothing noticed, and the model solution scored 10/11). The model solution runs here,
in the instructor's own process (it is the instructor's code, not a learner's): every code cell
of the source, in order, with ``LEARNER_ID`` set to the learner asked about; its answers are
collected exactly as in a learner's kernel (:func:`..sandbox._extract.collect`) and graded with
every check, hidden ones included (:func:`.checks.grade_question`). Its ``import baccarat_kit``
gives the exercise API, configured as a grading run configures it (:mod:`..sandbox.api_tree`):
a model solution that asks the engine (``case_a = bk.banker_draws(3, 8)``) fails here as it
would in grading. Anything short of full marks is a :class:`KeyDisagreement` naming the
exercise, the question and what the check said, in one language.

The same function drives the sampled test in ``make test`` and ``benchmarks/check_ids.py``
(every exercise for 100,000 learner ids).
"""

from __future__ import annotations

import builtins
import contextlib
import importlib
import io
import re
import threading
from collections.abc import Iterable, Mapping
from typing import Any

from ...errors import BaccaratError
from ..records import WRITTEN, QuestionResult
from .checks import Exercise, api_payload, grade_question, public_metadata

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
    from ..sandbox import _extract

    exercise = exercise or Exercise.from_metadata(nb.get("metadata", {}).get("baccarat_kit"), where)
    shown = public if public is not None else public_metadata(nb["metadata"]["baccarat_kit"])
    keyed = key_id if key_id is not None else learner_id
    cells = [_LEARNER_LINE.sub(f"LEARNER_ID = {learner_id!r}", c) for c in _code_cells(nb)]
    api = importlib.import_module("baccarat_kit.grading.sandbox.exercise_api")
    ns: dict[str, Any] = {"__name__": "__main__", "__builtins__": _api_builtins(api)}
    with _API_LOCK, contextlib.redirect_stdout(io.StringIO()):
        api._state.configure(api_payload(exercise, shown, keyed, learner_id))
        for index, code in enumerate(cells, 1):
            try:
                exec(compile(code, f"<{exercise.id} cell {index}>", "exec"), ns)
            except Exception as err:
                raise KeyDisagreement("grading.selfcheck.cell_failed", exercise=exercise.id, cell=index,
                                      learner=learner_id, error=f"{type(err).__name__}: {err}"[:300]) from err
        auto = [q for q in exercise.questions if q.kind != WRITTEN]  # written answers are scored by hand
        collected = _extract.collect(ns, [q.extraction() for q in auto])
        api._state.configure({})
    return [grade_question(q, collected["answers"].get(q.id, {"status": "missing"}), keyed, hidden=True)
            for q in auto]


_API_LOCK = threading.Lock()
"""The exercise API keeps one run's data at a time (as in a grading run: one per process)."""


def _api_builtins(api: Any) -> dict[str, Any]:
    """Builtins whose ``import baccarat_kit`` gives the exercise API ``api`` (and nothing else of
    the kit): the model solution runs as in a grading run."""
    real = builtins.__import__

    def _import(name: str, globals: Any = None, locals: Any = None, fromlist: Any = (), level: int = 0) -> Any:
        if level == 0 and (name == "baccarat_kit" or name.startswith("baccarat_kit.")):
            if name == "baccarat_kit":
                return api
            if name == "baccarat_kit.grading":
                return api if not fromlist else api.grading
            raise api._state.absent_error(name.replace("baccarat_kit", "bk", 1))
        return real(name, globals, locals, fromlist, level)

    out = dict(vars(builtins))
    out["__import__"] = _import
    return out


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
            raise KeyDisagreement("grading.selfcheck.disagrees" if len(found) > 1 else "grading.selfcheck.disagrees_one",
                                  exercise=exercise.id, where=where, question=qid, learner=learner, detail=said,
                                  more=len(found) - 1)
