"""Auto-graded exercises and a batch grader that a notebook cannot fool.

* ``baccarat-kit release exercises/source --out exercises`` makes the learners' copies
  (:mod:`.release`): solutions and hidden checks removed.
* In a notebook, ``check = bk.grading.Checker("03-banker-rule")`` then ``check("q5")`` gives
  instant feedback from the public checks (:mod:`.notebook`).
* ``baccarat-kit grade SUBMISSIONS… --out DIR`` grades a batch (:mod:`.grade`): every
  submission runs in a fresh, limited kernel that only hands back plain JSON values
  (:mod:`.sandbox._extract`); expected answers come from the engine in the grader's own process
  (:mod:`.keys`) and are compared there (:mod:`.checks`).

Light at import: nothing here imports nbformat or jupyter_client until a command needs it.
"""

from __future__ import annotations

from ..errors import BaccaratError
from .judge.keys import example_hand, learner_seed, settlement_variant, variant_hands
from .notebook import Checker, CheckReport, ChoiceError


class LearnerIdMissing(BaccaratError):
    """``LEARNER_ID`` is not set in an exercise that draws hands for each learner."""


def hands_for(exercise: str, learner_id: object) -> list[str]:
    """The hands drawn for this learner in ``exercise`` (cards in deal order, as text), from her
    public id: for self-study copies and copies released without a term secret. A term copy has
    her hands written in (``release --class-list --secret-file``) and never calls this."""
    return variant_hands(exercise, _learner(learner_id))


def settlement_for(learner_id: object) -> dict[str, object]:
    """The hands, stakes and ledger of the settlement exercise for this learner."""
    return settlement_variant(_learner(learner_id))


def _learner(learner_id: object) -> str:
    if type(learner_id) is not str or not learner_id.strip():
        raise LearnerIdMissing("grading.learner_id", value=repr(learner_id))
    return learner_id.strip()


__all__ = [
    "CheckReport",
    "Checker",
    "ChoiceError",
    "LearnerIdMissing",
    "example_hand",
    "hands_for",
    "learner_seed",
    "settlement_for",
    "settlement_variant",
    "variant_hands",
]
