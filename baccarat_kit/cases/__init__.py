"""The worked-case catalogue: every case of the five source pages, as data the engine checks.

Cases live in TOML files shipped here (``bcr.toml``, ``examples-000.toml`` …); instructors
add their own files or folders. :func:`load` reads them; each :class:`Case` can play its
cards (:meth:`Case.coup`), explain itself and check every claim against the engine.

>>> import baccarat_kit as bk
>>> cat = bk.cases.load()
>>> case = cat["BCR-001"]
>>> case.kind, case.source, case.coup().winner
('full', '000', 'player')
>>> cat["BCR-001-variant"].coup().winner, cat["BCR-001-variant"].parent.id
('banker', 'BCR-001')
>>> cat["HK-A"].kind, cat["HK-A"].cards is None
('partial', True)
>>> cat.check()          # every claim in the shipped catalogue holds
()
"""

from __future__ import annotations

from .catalogue import (
    SCHEMA_VERSION,
    BetClaim,
    Case,
    CaseFileError,
    Catalogue,
    UnknownCase,
    check,
    load,
    read,
    shipped_files,
)
from .coverage import Coverage, coverage
from .problems import CLAIM_KEYS, Problem, case_label
from .quotes import INSTRUCTOR, check_quotes
from .verify import Decision, Outcome, check_case, count_claims, outcome

__all__ = [
    "CLAIM_KEYS",
    "INSTRUCTOR",
    "SCHEMA_VERSION",
    "BetClaim",
    "Case",
    "CaseFileError",
    "Catalogue",
    "Coverage",
    "Decision",
    "Outcome",
    "Problem",
    "UnknownCase",
    "case_label",
    "check",
    "check_case",
    "check_quotes",
    "count_claims",
    "coverage",
    "load",
    "outcome",
    "read",
    "shipped_files",
]
