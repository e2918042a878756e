"""A function answer cell by cell: which inputs are wrong, the engine's rule for each, and the
misconceptions whose mistaken rules explain them (issue 31).

A function question is graded on every input of its domain; each input is a *cell*
(``banker_draws(3, 8)`` is one of the banker's 88). For the cells a check looks at,
:func:`judge_cells` gives

* every **wrong cell**, in the domain's order: the input, her answer, the engine's answer
  (:func:`.keys.expected`) and the rule id of the engine's step (:func:`.keys.rule_id`,
  ``banker-3-vs-8``);
* the **misconceptions** that explain them. Each mistaken rule of
  :func:`baccarat_kit.misconceptions.mistaken_rules` is played through the engine on the same
  cells (:func:`.keys.mistaken_answers`); it *differs* from the table on some of them, and the
  learner *follows* it on a cell where her answer is the mistake's. A mistake is named when she
  follows it on at least half of the cells where it differs: one coincidence with a broad
  mistake (banker 0–5 always draws differs from the table on 13 cells) names nothing. The best
  fit is taken first (the share of its cells she follows, then how many, then the question's own
  ``misconceptions``, then the order of the list); each wrong cell is explained by the first
  mistake that names it, and a mistake left with no cell of its own is not named. Wrong cells no
  named mistake explains are *unexplained*;
* ``exact``: her function is that mistaken rule on every cell checked (it differs from the table
  on exactly the cells where the mistake does, and gives the mistake's answer on each).

Nothing here lists answers: the right ones come from the engine, the mistaken ones from the
engine playing the mistaken rules.

>>> import baccarat_kit as bk
>>> inputs = [[t, v] for t in range(8) for v in (None, *range(10))]
>>> got = [True if t == 3 else bk.banker_draws(t, v) for t, v in inputs]  # a banker 3 always draws
>>> verdict = judge_cells({"fn": "banker_draws"}, "", inputs, got, [repr(g) for g in got])
>>> [(c.input, c.got, c.want, c.rule, c.misconception) for c in verdict.wrong]
[((3, 8), 'True', 'False', 'banker-3-vs-8', 'banker-3-always')]
>>> verdict.exact, verdict.right, verdict.total
('banker-3-always', 87, 88)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ...i18n import message, normalize_language
from ..records import WrongCell
from . import keys as _keys

CELLS_SHOWN = 16
"""Wrong cells a message lists per group (every one is in :attr:`CellVerdict.wrong`, in
results.json's ``wrong``, on the feedback page and under the self-study ``check()``)."""

BAD = object()
"""Her answer on a cell was not of the question's type (it never equals an answer)."""


@dataclass(frozen=True)
class Explained:
    """A misconception named for some wrong cells."""

    id: str
    cells: int
    """Wrong cells it explains (no earlier named mistake took them)."""
    follows: int
    """Cells where her answer is this mistake's."""
    differs: int
    """Cells (of those checked) where this mistake differs from the table."""


@dataclass(frozen=True)
class CellVerdict:
    """What a function check found on the cells it looked at."""

    total: int
    wrong: tuple[WrongCell, ...]
    explained: tuple[Explained, ...] = ()
    exact: str | None = None
    """The misconception whose mistaken rule her function is, on every cell checked."""

    @property
    def right(self) -> int:
        return self.total - len(self.wrong)

    @property
    def share(self) -> Fraction:
        return Fraction(self.right, self.total) if self.total else Fraction(0)

    @property
    def misconceptions(self) -> tuple[str, ...]:
        return tuple(e.id for e in self.explained)

    @property
    def unexplained(self) -> tuple[WrongCell, ...]:
        return tuple(c for c in self.wrong if c.misconception is None)

    def detail(self, name: str, lang: str | None = None, everything: bool = True) -> str:
        """The sentences after a check's first line: each named misconception (its claim, its
        correction, the cells it explains), then the cells none explains. ``everything``: the
        cells are the whole domain (else some inputs only: "exactly" is said of those)."""
        from ...misconceptions import get

        out = []
        for e in self.explained:
            m = get(e.id)
            cells = _cell_list([c for c in self.wrong if c.misconception == e.id], name, lang)
            key = ("grading.cells.misconception" if self.exact != e.id
                   else "grading.cells.exact" if everything else "grading.cells.exact_here")
            out.append(message(key, lang, id=m.id, claim=m.claim(lang), correction=m.correction(lang),
                               count=e.cells, follows=e.follows, differs=e.differs, cells=cells))
        rest = self.unexplained
        if rest:
            key = "grading.cells.unexplained" if self.explained else "grading.cells.none_explained"
            out.append(message(key, lang, count=len(rest), cells=_cell_list(rest, name, lang)))
        return " ".join(out)


def every_wrong_cell(wrong: Sequence[WrongCell] | None, name: str, lang: str | None = None) -> str:
    """Every wrong cell, one a line, under a heading, when a message leaves some out (a group
    longer than :data:`CELLS_SHOWN`); "" when the message lists them all.

    >>> every_wrong_cell([WrongCell((5,), "False", "True", "player-0-5")], "player_draws", "en")
    ''
    """
    groups = Counter(c.misconception for c in wrong or ())
    if not groups or max(groups.values()) <= CELLS_SHOWN:
        return ""
    lang = normalize_language(lang)
    lines = [message("grading.cells.every", lang, count=len(wrong or ()))]
    mark = "〔{}〕" if lang == "zh" else " [{}]"
    lines += [f"  {c.line(name, lang)}" + (mark.format(c.misconception) if c.misconception else "") for c in wrong or ()]
    return "\n".join(lines)


def _cell_list(cells: Sequence[WrongCell], name: str, lang: str | None) -> str:
    sep = "；" if normalize_language(lang) == "zh" else "; "
    text = sep.join(c.line(name, lang) for c in cells[:CELLS_SHOWN])
    if len(cells) > CELLS_SHOWN:
        text += message("grading.cells.more", lang, n=len(cells) - CELLS_SHOWN)
    return text


def _show(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "…"


def judge_cells(
    key: dict[str, Any],
    learner_id: str,
    inputs: Sequence[Sequence[Any]],
    got: Sequence[Any],
    shown: Sequence[str],
    same: Callable[[Any, Any], bool] | None = None,
    prefer: Sequence[str] = (),
) -> CellVerdict:
    """Her answers ``got`` (read as the question's type, or :data:`BAD`; ``shown``: as she sees
    them) on ``inputs``, against the engine's (see the module docstring).

    ``same(hers, engine's)`` compares two answers (default ``==`` of the same type); ``prefer``:
    the question's own misconceptions, tried first on a tie.
    """
    same = same or (lambda a, b: type(a) is type(b) and a == b)
    wrong_at: list[int] = []
    wants: list[Any] = []
    for i, args in enumerate(inputs):
        want = _keys.expected(key, learner_id, list(args))
        wants.append(want)
        if got[i] is BAD or not same(got[i], want):
            wrong_at.append(i)
    if not wrong_at:
        return CellVerdict(len(inputs), ())
    # Where each mistaken rule differs from the table, and its answer there.
    differs: dict[str, dict[int, Any]] = {}
    for i, args in enumerate(inputs):
        for mid, value in _keys.mistaken_answers(key, learner_id, list(args)):
            differs.setdefault(mid, {})[i] = value
    from ...misconceptions import mistaken_rules

    registry = {mid: n for n, mid in enumerate(mistaken_rules())}
    order = {mid: (mid not in prefer, registry.get(mid, len(registry))) for mid in differs}
    candidates = []
    for mid, cells in differs.items():
        follows = [i for i in wrong_at if i in cells and got[i] is not BAD and _same_any(same, got[i], cells[i])]
        if follows and 2 * len(follows) >= len(cells):
            candidates.append((Fraction(len(follows), len(cells)), len(follows), order[mid], mid, follows, len(cells)))
    candidates.sort(key=lambda c: (-c[0], -c[1], c[2]))
    taken: dict[int, str] = {}
    explained = []
    for _fit, k, _order, mid, follows, n in candidates:
        mine = [i for i in follows if i not in taken]
        if mine:
            taken.update(dict.fromkeys(mine, mid))
            explained.append(Explained(mid, len(mine), k, n))
    exact = (explained[0].id if len(explained) == 1 and explained[0].follows == explained[0].differs == len(wrong_at)
             else None)
    wrong = tuple(
        WrongCell(tuple(inputs[i]), shown[i], _show(wants[i]), _keys.rule_id(key, list(inputs[i])), taken.get(i))
        for i in wrong_at)
    return CellVerdict(len(inputs), wrong, tuple(explained), exact)


def _same_any(same: Callable[[Any, Any], bool], a: Any, b: Any) -> bool:
    try:
        return same(a, b)
    except TypeError:
        return False
