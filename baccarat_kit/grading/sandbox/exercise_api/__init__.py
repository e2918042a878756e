"""The exercise API: the only ``baccarat_kit`` a grading run holds (issue 30, "absent, not forbidden").

Inside the grading sandbox (and in the fresh process ``check()`` asks for the grader's verdict)
this package is bound as the one importable ``baccarat_kit``. It holds exactly what a learner's
copy of an exercise legitimately calls:

* ``set_language`` / ``get_language``;
* ``grading.Checker`` (``check(...)``, ``check.options``, ``check.letter``: the options in the
  learner's order, handed in as data by the grader);
* ``grading.hands_for`` / ``grading.settlement_for``: literals the grader computed on its own
  side for the learner the file is keyed for;
* ``Ledger.from_csv``: the rows of a ledger, nothing else (no settling, no reconciling).

No rule, coup, settlement, shoe, key or rule-table code or data is here: what is not there cannot
be called, unwrapped or re-executed. Any other name (``bk.play``, ``bk.banker_draws``,
``import baccarat_kit.rules``) fails with a sentence saying that the kit's rule code is not in the
grading run.

Standard library only, relative imports only, and never the real kit: these files are copied,
unchanged, into a folder of their own for every grading run (:mod:`..api_tree`).
"""

from __future__ import annotations

from typing import Any

from . import _state
from ._state import AbsentError, absent_error
from .ledger import Bet, Ledger, LedgerLine

__all__ = ["AbsentError", "Bet", "Ledger", "LedgerLine", "get_language", "grading", "set_language"]

EXERCISE_API = True
"""Marks this package as the exercise API (the real kit has no such name)."""


def set_language(lang: str) -> str:
    """Choose the language of the messages shown here ("zh" or "en"); returns it."""
    return _state.set_language(lang)


def get_language() -> str:
    """The language chosen by :func:`set_language` (default "zh")."""
    return _state.language()


def __getattr__(name: str) -> Any:
    if name.startswith("__"):
        raise AttributeError(name)
    raise absent_error(f"bk.{name}", attribute=True)


def __dir__() -> list[str]:
    return sorted(__all__)


_state.install_finder(__name__, ("grading", "ledger", "_state"))
from . import grading  # noqa: E402  (bk.grading without an import, as in the real kit)
