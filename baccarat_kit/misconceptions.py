"""The misconceptions the sources name, as data (``data/misconceptions.toml``).

>>> m = get("banker-3-always")
>>> m.claim("en")
'A banker with 3 always draws.'
>>> len(all_misconceptions()) >= 15
True
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from .errors import BaccaratError
from .i18n import normalize_language

_FILE = Path(__file__).resolve().parent / "data" / "misconceptions.toml"


@dataclass(frozen=True, slots=True)
class Misconception:
    id: str
    source: str
    claims: dict[str, str]
    corrections: dict[str, str]

    def claim(self, lang: str | None = None) -> str:
        return self.claims[normalize_language(lang)]

    def correction(self, lang: str | None = None) -> str:
        return self.corrections[normalize_language(lang)]


class UnknownMisconception(BaccaratError):
    """An id that is not in the misconceptions list."""


@cache
def all_misconceptions() -> tuple[Misconception, ...]:
    data = tomllib.loads(_FILE.read_text(encoding="utf-8"))
    return tuple(
        Misconception(m["id"], m["source"], dict(m["claim"]), dict(m["correction"]))
        for m in data["misconception"]
    )


def get(mid: str) -> Misconception:
    for m in all_misconceptions():
        if m.id == mid:
            return m
    raise UnknownMisconception(
        "misconception.unknown", value=mid, choices=", ".join(m.id for m in all_misconceptions())
    )
