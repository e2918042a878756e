r"""Exercises authored in the source notebook's cells: the questions, their English, their rubric.

An instructor writes an exercise as cells, never as notebook JSON (in the spirit of otter-grader's
``# BEGIN QUESTION`` cells; docs/instructors.md says why cells, and how):

* a **raw cell** whose first line is ``# EXERCISE`` holds the exercise's settings as TOML::

      # EXERCISE
      exercise = "03-banker-rule"
      title.zh = "練習 3：莊家補牌規則"
      title.en = "Exercise 3: the banker rule"
      allowed_calls = ["bk.set_language", "bk.grading.Checker", "check", "check.options", "check.letter"]

* each question is the cells between a raw cell ``# BEGIN QUESTION`` (its settings, TOML) and a
  raw cell ``# END QUESTION``; the first Markdown cell between them is the question's text::

      # BEGIN QUESTION
      id = "q1"
      kind = "value"                 # value, function, choice or written
      answer = "case_a"              # the name her answer cell sets (a function's name)
      type = "bool"
      points = 1
      key = "banker_draws(3, 8)"     # the engine computes the right answer
      public = ["type", "equals"]    # what check() runs in her copy
      hidden = []                    # what only the grader runs
      hint.zh = "…"                  # optional: shown by check() while her answer is not right
      hint.en = "…"

  (a written question has ``[[rubric]]`` tables, ``id``, ``points``, ``zh``, ``en``, instead of a
  key, and its model answer in a Markdown cell whose first line is ``<!-- SOLUTION -->``; a
  choice question ``[options.a]`` … tables with ``zh``, ``en``, ``means`` and, for a wrong one,
  ``misconception``);
* the **English** of a cell is the cell right after it whose first line is ``<!-- en -->``
  (Markdown) or ``# en`` (code: the same code, other comments), as a lesson source pairs its
  ``lang=zh`` and ``lang=en`` cells.

:func:`compile_source` turns these cells into the form the rest of grading reads:
``metadata.baccarat_kit`` (``questions`` with each question's ``text``), each cell's English in
``metadata.translations.en``, the written answer's cell marked; the raw cells and English cells
are gone. A notebook without these cells is taken as it is (a source written in that form
directly). :func:`misquotes` finds a 「…」 attributed to a source page that is not its words.

>>> nb = {"metadata": {}, "cells": [
...     {"cell_type": "raw", "metadata": {}, "source": '# EXERCISE\nexercise = "x"\ntitle.zh = "甲"\ntitle.en = "A"'},
...     {"cell_type": "raw", "metadata": {}, "source": '# BEGIN QUESTION\nid = "q1"\nkind = "value"\nanswer = "t"\n'
...      'type = "int"\nkey = "hand_total(\'7 8\')"\npublic = ["type", "equals"]'},
...     {"cell_type": "markdown", "metadata": {}, "source": "### q1\n7＋8 是幾點？"},
...     {"cell_type": "markdown", "metadata": {}, "source": "<!-- en -->\n### q1\nWhat is 7 + 8?"},
...     {"cell_type": "code", "metadata": {}, "source": "t = 5  # SOLUTION"},
...     {"cell_type": "raw", "metadata": {}, "source": "# END QUESTION"}]}
>>> out = compile_source(nb, "x.ipynb")
>>> [c["cell_type"] for c in out["cells"]], out["cells"][0]["metadata"]["translations"]["en"]
(['markdown', 'code'], '### q1\nWhat is 7 + 8?')
>>> q = out["metadata"]["baccarat_kit"]["questions"][0]
>>> q["key"], q["text"]
({'fn': 'hand_total', 'args': ['7 8']}, {'zh': '7＋8 是幾點？', 'en': 'What is 7 + 8?'})
"""

from __future__ import annotations

import ast
import copy
import io
import json
import re
import tokenize
import tomllib
from pathlib import Path
from typing import Any

from ...i18n import both
from ..judge.checks import BASE_CALLS, SCHEMA_VERSION, Exercise, SpecError
from ..judge.written import MARK as WRITTEN_MARK
from ..records import WRITTEN

EXERCISE = "# EXERCISE"
BEGIN = "# BEGIN QUESTION"
END = "# END QUESTION"
ENGLISH = {"markdown": "<!-- en -->", "code": "# en"}
"""The first line of a cell that is the English of the cell before it."""
SOURCE_CELLS = "source_cells"
"""``metadata.baccarat_kit`` of a compiled source: each cell's number in the notebook as authored,
so that a later mistake (a missing ``# SOLUTION``) names the cell the instructor sees; never in a
learner's copy (:func:`cell_number`)."""
SOLUTION = "<!-- SOLUTION -->"
"""The first line of a written question's model answer (a Markdown cell inside its block)."""
EXERCISE_FIELDS = ("exercise", "title", "allowed_calls")
QUESTION_FIELDS = ("id", "kind", "answer", "type", "points", "key", "public", "hidden", "domain",
                   "options", "misconceptions", "per_item", "steps", "precision", "shuffle", "rubric",
                   "hint")
CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
"""Chinese text: a Markdown cell with it needs its English for an English edition."""
SET_LANGUAGE = re.compile(r"""(bk\.set_language\()(["'])[A-Za-z_-]+\2(\))""")
"""``bk.set_language("…")`` in a code cell: an edition sets its own language there."""

__all__ = ["BEGIN", "END", "ENGLISH", "EXERCISE", "SOLUTION", "SOURCE_CELLS", "cell_number", "compile_source", "is_authored",
           "misquotes", "parse_key", "read_source"]


def _at(where: str, number: int) -> dict[str, str]:
    """Where a cell is, in each language: ``x.ipynb, cell 5`` (counted from 1, as JupyterLab shows them)."""
    return both("grading.author.at", where=where, n=number)


def _text(cell: dict[str, Any]) -> str:
    src = cell.get("source", "")
    return "".join(src) if isinstance(src, list) else str(src)


def _first(cell: dict[str, Any]) -> tuple[str, str]:
    """A cell's first line (stripped) and the rest of its text."""
    head, _, rest = _text(cell).partition("\n")
    return head.strip(), rest


def _marker(cell: dict[str, Any]) -> str | None:
    """The authoring mark a cell carries (:data:`EXERCISE`, :data:`BEGIN`, :data:`END`, an English
    cell's or a written answer's first line), or None."""
    head, _ = _first(cell)
    kind = cell.get("cell_type")
    if head in (EXERCISE, BEGIN, END):  # (in a cell that is not raw: refused by compile_source)
        return head
    if ENGLISH.get(str(kind)) == head:
        return "en"
    if kind == "markdown" and head == SOLUTION:
        return SOLUTION
    return None


def is_authored(nb: Any) -> bool:
    """Whether a notebook is written in the cell convention (any of its marks)."""
    cells = nb.get("cells", []) if isinstance(nb, dict) else []
    return any(isinstance(c, dict) and _marker(c) is not None for c in cells)


def code_tokens(source: str) -> list[str]:
    """A code cell's tokens without its comments (``bk.set_language``'s argument blanked): a
    translation of a code cell may change only these."""
    text = SET_LANGUAGE.sub(r"\1''\3", source)
    try:
        return [t.string for t in tokenize.generate_tokens(io.StringIO(text + "\n").readline)
                if t.type not in (tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.ENDMARKER)]
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return [text]


def parse_key(text: Any, where: str) -> dict[str, Any]:
    """A question's ``key``, written as the engine call it is: ``"banker_draws(3, 8)"`` →
    ``{"fn": "banker_draws", "args": [3, 8]}``; a function question's ``"banker_draws"`` →
    ``{"fn": "banker_draws"}``. Arguments are literals (numbers, text, ``None``, lists, dicts).

    >>> parse_key("banker_draws(5, None)", "q2")
    {'fn': 'banker_draws', 'args': [5, None]}
    >>> parse_key("settle('2 A 3 2 8', {'banker': 100}, 'commission', 'returned')", "q5")["args"][1]
    {'banker': 100}
    """
    def bad() -> SpecError:
        return SpecError("grading.author.bad_key", where=where, value=text)

    if not isinstance(text, str):
        raise bad()
    try:
        node = ast.parse(text.strip(), mode="eval").body
    except SyntaxError:
        raise bad() from None
    if isinstance(node, ast.Name):
        return {"fn": node.id}
    if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name) or node.keywords:
        raise bad()
    try:
        args = [_plain_json(ast.literal_eval(a)) for a in node.args]
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        raise bad() from None
    return {"fn": node.func.id, "args": args}


def _plain_json(value: Any) -> Any:
    """A literal as JSON would hold it (tuples as lists)."""
    if isinstance(value, list | tuple):
        return [_plain_json(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _plain_json(v) for k, v in value.items()}
    return value


def _toml(text: str, where: str | dict[str, str]) -> dict[str, Any]:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise SpecError("grading.author.toml", where=where, detail=str(err)) from None


def _unknown(data: dict[str, Any], allowed: tuple[str, ...], where: str | dict[str, str]) -> None:
    for name in data:
        if name not in allowed:
            raise SpecError("grading.author.unknown_field", where=where, value=name, choices=", ".join(allowed))


def prompt_text(markdown: str) -> str:
    """A question's text as the feedback page and the class report show it: its Markdown
    without the heading line that names it and without notes in parentheses, on one line.

    >>> prompt_text("### q1\\n莊家補牌嗎？\\n\\n（選項依學號排列。）")
    '莊家補牌嗎？'
    """
    lines = markdown.strip().split("\n")
    if lines and re.match(r"^#{1,6}\s", lines[0]):
        lines = lines[1:]
    keep = [ln.strip() for ln in lines if ln.strip()]
    keep = [ln for ln in keep if not (ln.startswith("(") and ln.endswith(")")) and not ln.startswith("（")]
    return " ".join(keep)


def compile_source(nb: dict[str, Any], where: str = "?", lang: str | None = None) -> dict[str, Any]:
    """The source as grading reads it (see the module docstring); a notebook not written in the
    cell convention is returned as it is. ``lang="en"``: every Markdown cell with Chinese text
    needs its English cell (for an English release). Every mistake names the cell (counted from
    1, as the notebook shows them) or the question."""
    if not is_authored(nb):
        return nb
    kit = (nb.get("metadata") or {}).get("baccarat_kit")
    if isinstance(kit, dict) and kit.get("questions"):
        raise SpecError("grading.author.two_truths", where=where)
    settings: dict[str, Any] | None = None
    questions: list[dict[str, Any]] = []
    cells: list[dict[str, Any]] = []
    numbers: list[int] = []  # each kept cell's number in the authored notebook
    block: dict[str, Any] | None = None
    for number, cell in enumerate(nb.get("cells", []), 1):
        here = _at(where, number)
        mark = _marker(cell)
        head, rest = _first(cell)
        if mark in (EXERCISE, BEGIN, END) and cell.get("cell_type") != "raw":
            raise SpecError("grading.author.not_raw", where=here, mark=mark)
        if mark == EXERCISE:
            if settings is not None:
                raise SpecError("grading.author.twice", where=here, mark=EXERCISE)
            settings = _toml(rest, here)
            _unknown(settings, EXERCISE_FIELDS, here)
        elif mark == BEGIN:
            if block is not None:
                raise SpecError("grading.author.unclosed", where=f"{where}, {block['id']}", begin=block["cell"], at=number)
            fields = _toml(rest, here)
            qid = fields.get("id")
            _unknown(fields, QUESTION_FIELDS, f"{where}, {qid}" if isinstance(qid, str) and qid else here)
            if not isinstance(qid, str) or not qid:
                raise SpecError("grading.author.no_id", where=here)
            block = {"id": qid, "cell": number, "fields": fields, "cells": []}
        elif mark == END:
            if block is None:
                raise SpecError("grading.author.stray_end", where=here)
            questions.append(_question(block, where))
            block = None
        elif mark == "en":  # the English of the cell just before (kept, and not English itself)
            before = cells[-1] if cells and numbers[-1] == number - 1 else None
            if before is None or before.get("cell_type") != cell.get("cell_type"):
                raise SpecError("grading.author.lone_english", where=here, mark=head)
            if cell.get("cell_type") == "code" and code_tokens(rest) != code_tokens(_text(before)):
                raise SpecError("grading.author.code_differs", where=here)
            before.setdefault("metadata", {}).setdefault("translations", {})["en"] = rest
        else:
            new = copy.deepcopy(cell)
            if mark == SOLUTION:
                if block is None:
                    raise SpecError("grading.author.solution_outside", where=here)
                new["source"] = rest
                new.setdefault("metadata", {}).setdefault("baccarat_kit", {})[WRITTEN_MARK] = \
                    block["fields"].get("answer", block["id"])
                block["written"] = new
            cells.append(new)
            numbers.append(number)
            if block is not None:
                block["cells"].append(new)
    if block is not None:
        raise SpecError("grading.author.unclosed", where=f"{where}, {block['id']}", begin=block["cell"], at="-")
    if settings is None:
        raise SpecError("grading.author.no_exercise", where=where, mark=EXERCISE)
    if lang is not None and lang != "zh":
        for cell, number in zip(cells, numbers, strict=True):
            if (cell.get("cell_type") == "markdown" and CJK.search(_text(cell))
                    and lang not in (cell.get("metadata") or {}).get("translations", {})):
                raise SpecError("grading.author.no_english", where=_at(where, number), mark=ENGLISH["markdown"])
    out = copy.deepcopy({k: v for k, v in nb.items() if k != "cells"})
    out.setdefault("metadata", {})["baccarat_kit"] = {
        **(kit if isinstance(kit, dict) else {}),
        "schema_version": SCHEMA_VERSION,
        "exercise": settings.get("exercise"),
        "title": settings.get("title", {}),
        "allowed_calls": settings.get("allowed_calls", list(BASE_CALLS)),
        "questions": questions,
        SOURCE_CELLS: numbers,
    }
    out["cells"] = cells
    Exercise.from_metadata(out["metadata"]["baccarat_kit"], where)  # every question's settings, checked now
    return out


def _question(block: dict[str, Any], where: str) -> dict[str, Any]:
    """One question's metadata from its block: its settings, ``key`` read as a call, and its
    ``text`` from the block's first Markdown cell (and that cell's English)."""
    q = dict(block["fields"])
    here = f"{where}, {block['id']}"
    if "key" in q:
        q["key"] = parse_key(q["key"], f"{here}, key")
    if q.get("kind") == WRITTEN:
        q.setdefault("answer", q["id"])
        if "written" not in block:
            raise SpecError("grading.author.no_solution_cell", where=here, mark=SOLUTION)
    prompt = next((c for c in block["cells"] if c.get("cell_type") == "markdown" and c is not block.get("written")), None)
    if prompt is not None:
        english = ((prompt.get("metadata") or {}).get("translations") or {}).get("en", "")
        q["text"] = {"zh": prompt_text(_text(prompt)), "en": prompt_text(english)}
    return q


def cell_number(nb: dict[str, Any], index: int) -> int:
    """The number (from 1) the instructor sees for the compiled notebook's cell ``index`` (from 1)."""
    numbers = ((nb.get("metadata") or {}).get("baccarat_kit") or {}).get(SOURCE_CELLS)
    number = numbers[index - 1] if isinstance(numbers, list) and 0 < index <= len(numbers) else None
    return number if isinstance(number, int) else index


def read_source(path: str | Path, lang: str | None = None) -> dict[str, Any]:
    """A source notebook read from ``path`` and compiled (:func:`compile_source`)."""
    nb = json.loads(Path(path).read_text(encoding="utf-8"))
    return compile_source(nb, str(path), lang) if isinstance(nb, dict) else nb


def misquotes(nb: dict[str, Any], where: str, pages: Any) -> tuple[list[dict[str, str]], list[dict[str, str]]]:
    """Every 「…」 of the notebook attributed to a source page (:func:`baccarat_kit.sources.attributed_quotes`):
    those that are not that page's words, and those whose page the folder does not hold (not
    verified), one sentence each (``{"zh": …, "en": …}``) naming the question (or the cell) and
    the quote; ``pages`` the source pages (:func:`baccarat_kit.sources.find`). Read in every cell
    (both languages, and the settings cells: options, hints, rubrics) and in the questions'
    metadata of a source written directly in that form."""
    from ...sources import attributed_quotes, divergence

    wrong: list[dict[str, str]] = []
    unverified: list[dict[str, str]] = []
    texts: list[tuple[str | dict[str, str], str]] = []
    qid: str | None = None
    for number, cell in enumerate(nb.get("cells", []), 1):
        mark = _marker(cell)
        if mark == BEGIN:
            try:
                qid = str(tomllib.loads(_first(cell)[1]).get("id", "?"))
            except tomllib.TOMLDecodeError:
                qid = "?"
        label = f"{where}, {qid}" if qid else _at(where, number)
        texts.append((label, _text(cell)))
        texts.extend((label, str(t)) for t in ((cell.get("metadata") or {}).get("translations") or {}).values())
        if mark == END:
            qid = None
    for q in ((nb.get("metadata") or {}).get("baccarat_kit") or {}).get("questions", []) or []:
        if isinstance(q, dict):
            texts.append((f"{where}, {q.get('id', '?')}",
                          json.dumps({k: v for k, v in q.items() if k != "key"}, ensure_ascii=False)))
    for label, text in texts:
        for sid, quote in attributed_quotes(text):
            held = pages.has(sid, quote)
            if held is None:
                unverified.append(both("grading.author.no_page", where=label, source=sid, folder=str(pages.folder)))
            elif not held:
                before, after = divergence(pages.text(sid) or "", quote)
                wrong.append(both("grading.author.misquote", where=label, source=sid, quote=quote,
                                  before=before, after=after))
    return wrong, unverified
