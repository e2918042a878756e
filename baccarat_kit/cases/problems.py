"""What a case claims and what can be wrong with a case file: the bottom of ``cases``.

:mod:`.catalogue` (the data), :mod:`.verify` (the engine's check) and :mod:`.coverage` all use
these names; this module imports none of them.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from ..i18n import message, normalize_language

__all__ = ["CLAIM_KEYS", "WRONG_KINDS", "Problem", "ProblemKind", "case_label"]

CLAIM_KEYS = (
    "player_first_total",
    "banker_first_total",
    "natural",
    "player_decision",
    "player_third",
    "banker_decision",
    "banker_third",
    "player_total",
    "banker_total",
    "winner",
    "unused",
    "sum",
    "total",
)
"""The claims a case can make, in the order they are checked and reported."""

ProblemKind = Literal["toml", "schema", "claim", "quote", "unverified"]
"""``claim``: the engine disagrees; ``quote``: the source page does not say it (both "checked and
found wrong", exit 1); ``unverified``: a quote that could not be checked (no source pages); the
rest: the file cannot be read as a case file (exit 2)."""
WRONG_KINDS = ("claim", "quote")


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong in a case file: where (file, case, field) and what (a message key)."""

    file: str
    case: str | None
    field: str | None
    key: str
    params: Mapping[str, Any]
    kind: ProblemKind = "schema"

    def message(self, lang: str | None = None) -> str:
        """The problem as one line: ``FILE: CASE: what is wrong``."""
        lang = normalize_language(lang)
        params = {k: (v(lang) if callable(v) else v) for k, v in self.params.items()}
        body = message(self.key, lang, **params)
        if self.case is None:
            return message("cases.where-file", lang, file=self.file, body=body)
        return message("cases.where", lang, file=self.file, case=case_label(self.case, lang),
                       body=body)

    def __str__(self) -> str:
        return self.message()


def case_label(case_id: str, lang: str | None = None) -> str:
    """How a case or variant is named in messages: ``BCR-004 variant`` for ``BCR-004-variant``.

    >>> case_label("BCR-004-variant", "en"), case_label("BCR-004-variant-2", "en")
    ('BCR-004 variant', 'BCR-004 variant 2')
    >>> case_label("BCR-004", "zh")
    'BCR-004'
    """
    m = re.match(r"^(.*)-variant(?:-(\d+))?$", case_id)
    if not m:
        return case_id
    if m.group(2):
        return message("cases.label.variant-n", lang, parent=m.group(1), n=m.group(2))
    return message("cases.label.variant", lang, parent=m.group(1))


