"""Read a submission in a separate, memory-limited process, and parse it once.

A notebook is untrusted data: 20 MB of JSON can become gigabytes of Python objects (a list of
millions of empty lists), and 20 MB of code gigabytes of syntax tree. So the grader does not
parse it itself: it pipes the file's bytes (read once, size checked first) into a process of
its own that runs this file's text: a fork of the grader's template (:mod:`.template`: a
``python -I -S`` started once, so a reader costs no start of Python; its address space, counted in
:data:`MEMORY_MB`, then holds the template's 26 MB where a fresh one's holds 14), or else
``python -I -S -c <this file>``; either way it

* limits its own address space (:data:`MEMORY_MB`) and CPU time before it parses anything;
* parses the JSON once, takes the code cells, the exercise the notebook claims, its term mark
  (a copy released with a term secret, :mod:`..term.secret`) and the language of its edition
  (``"zh"``, ``"en"`` or None: :func:`copy_language`);
* refuses more than :data:`MAX_CODE_BYTES` of code in all (an honest exercise has a few KB);
* parses each cell once: the ``LEARNER_ID`` the notebook claims (its last plain
  ``LEARNER_ID = "…"`` at a cell's top level: whose data the exercise API hands out in the
  grading run) and the fingerprints of its functions and tables (:func:`fingerprints`; the judge
  compares them with the kit's own, :mod:`..judge.pasted`: a pasted copy of the kit's source is
  flagged for the instructor). Nothing read here scores (issue 30);
* takes the text of each written answer's Markdown cell (:func:`written_answers`: text only);
* prints one line of JSON: ``{"status": "ok", "exercise": …, "term": …, "language": …, "cells": […],
  "written": {mark: text},
  "learner_id": …, "fingerprints": […]}``
  or ``{"status": "not_json" | "not_notebook" | "too_much_code", "detail": …}``.

If it runs out of memory or time, the grader gives the file the status ``too_complex``: the
grader's own memory holds only the file's bytes and this small answer.

Standard library only.
"""

import ast
import hashlib
import json
import resource
import sys
from collections.abc import Iterable, Iterator
from typing import Any

MEMORY_MB = 1024
CPU_SECONDS = 30
MAX_CODE_BYTES = 1024 * 1024
"""All code cells together, in bytes of UTF-8: more is refused (status ``too_much_code``)."""


def code_cells(nb: Any) -> list[str]:
    """The code cells' text, or ValueError naming what makes ``nb`` not a notebook."""
    if not isinstance(nb, dict) or not isinstance(nb.get("cells"), list):
        raise ValueError("no list of cells")
    if nb.get("nbformat") != 4:
        raise ValueError(f"nbformat {nb.get('nbformat')!r}, not 4")
    cells: list[str] = []
    for cell in nb["cells"]:
        if not isinstance(cell, dict) or "cell_type" not in cell:
            raise ValueError("a cell without a type")
        if cell["cell_type"] != "code":
            continue
        src = cell.get("source", "")
        if isinstance(src, list) and all(isinstance(s, str) for s in src):
            src = "".join(src)
        if not isinstance(src, str):
            raise ValueError("a code cell whose source is not text")
        cells.append(src)
    return cells


def claimed_exercise(nb: dict[str, Any]) -> str | None:
    meta = nb.get("metadata")
    kit = meta.get("baccarat_kit") if isinstance(meta, dict) else None
    claimed = kit.get("exercise") if isinstance(kit, dict) else None
    return claimed if isinstance(claimed, str) and len(claimed) <= 200 else None


def term_mark(nb: dict[str, Any]) -> dict[str, str] | None:
    """The copy's term mark (``metadata.baccarat_kit.term``: learner, fingerprint), if it has one;
    a mark that is there but not plain short text is kept as a mark of an unknown term."""
    meta = nb.get("metadata")
    kit = meta.get("baccarat_kit") if isinstance(meta, dict) else None
    mark = kit.get("term") if isinstance(kit, dict) else None
    if mark is None:
        return None
    fields = mark if isinstance(mark, dict) else {}
    out = {}
    for name in ("learner", "fingerprint"):
        value = fields.get(name)
        out[name] = value if isinstance(value, str) and len(value) <= 200 else "?"
    return out


LANGUAGES = ("zh", "en")


def copy_language(nb: dict[str, Any]) -> str | None:
    """The language of the edition the copy was released in (``metadata.baccarat_kit.language``):
    ``"zh"`` or ``"en"``, else None. Only ever a choice between the two: any other value of the
    learner's file (a long text, markup, another type) is None, and nothing of it is kept.

    >>> copy_language({"metadata": {"baccarat_kit": {"language": "en"}}})
    'en'
    >>> [copy_language({"metadata": {"baccarat_kit": {"language": v}}}) for v in ("fr", "<b>", ["en"], None)]
    [None, None, None, None]
    """
    meta = nb.get("metadata")
    kit = meta.get("baccarat_kit") if isinstance(meta, dict) else None
    value = kit.get("language") if isinstance(kit, dict) else None
    for lang in LANGUAGES:
        if value == lang:
            return lang
    return None


MAX_WRITTEN_CELLS = 64
MAX_WRITTEN_CHARS = 20_000


def written_answers(nb: dict[str, Any]) -> dict[str, str]:
    """The written answers (free text, scored by hand): each Markdown cell marked
    ``metadata.baccarat_kit.written: "<mark>"`` (a short plain name), its text cut to
    :data:`MAX_WRITTEN_CHARS`; the first cell of a mark wins, at most :data:`MAX_WRITTEN_CELLS`
    marks. Only ever text: nothing of it is run or rendered.

    >>> written_answers({"cells": [{"cell_type": "markdown", "metadata": {"baccarat_kit": {"written": "q9"}},
    ...                             "source": ["Because ", "<b>x</b>"]}]})
    {'q9': 'Because <b>x</b>'}
    """
    out: dict[str, str] = {}
    for cell in nb.get("cells", []):
        if len(out) >= MAX_WRITTEN_CELLS:
            break
        if not isinstance(cell, dict) or cell.get("cell_type") != "markdown":
            continue
        meta = cell.get("metadata")
        kit = meta.get("baccarat_kit") if isinstance(meta, dict) else None
        mark = kit.get("written") if isinstance(kit, dict) else None
        if not isinstance(mark, str) or not 0 < len(mark) <= 40 or mark in out:
            continue
        src = cell.get("source", "")
        if isinstance(src, list) and all(isinstance(s, str) for s in src):
            src = "".join(src)
        out[mark] = src[:MAX_WRITTEN_CHARS] if isinstance(src, str) else ""
    return out


def read(data: bytes) -> dict[str, Any]:
    """The reader's answer for the bytes ``data`` (see the module docstring)."""
    try:
        nb = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as err:
        return {"status": "not_json", "detail": type(err).__name__}
    del data
    try:
        cells = code_cells(nb)
    except ValueError as err:
        return {"status": "not_notebook", "detail": str(err)[:100]}
    claimed = claimed_exercise(nb)
    term = term_mark(nb)
    language = copy_language(nb)
    written = written_answers(nb)
    del nb
    size = sum(len(c.encode("utf-8", "surrogatepass")) for c in cells)
    if size > MAX_CODE_BYTES:
        return {"status": "too_much_code", "detail": str(size)}
    return {"status": "ok", "exercise": claimed, "term": term, "language": language, "cells": cells,
            "written": written,
            "learner_id": claimed_learner(cells), "fingerprints": [list(f) for f in fingerprints(cells)]}


# ---------------------------------------------------------------- fingerprints of her code
MIN_NODES = 20
"""Smaller bodies are too common to say anything (``return total in NATURALS``)."""


class _Normalize(ast.NodeTransformer):
    def __init__(self) -> None:
        self.names: dict[str, str] = {}

    def _name(self, name: str) -> str:
        if name not in self.names:
            self.names[name] = f"v{len(self.names)}"
        return self.names[name]

    def visit_Name(self, node: ast.Name) -> ast.Name:
        return ast.copy_location(ast.Name(id=self._name(node.id), ctx=node.ctx), node)

    def visit_arg(self, node: ast.arg) -> ast.arg:
        return ast.copy_location(ast.arg(arg=self._name(node.arg), annotation=None), node)

    def visit_FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> ast.AST:
        body = node.body
        first = body[0] if body else None
        if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
            body = body[1:]
        node = ast.FunctionDef(name="f", args=node.args, body=body or [ast.Pass()], decorator_list=[],
                               returns=None, type_comment=None)
        return self.generic_visit(node)

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_AnnAssign(self, node: ast.AnnAssign) -> ast.AST | None:
        if node.value is None:
            return None
        return self.generic_visit(ast.Assign(targets=[node.target], value=node.value))


def _digest(node: ast.AST) -> str | None:
    import copy

    tree = _Normalize().visit(copy.deepcopy(node))
    if tree is None or sum(1 for _ in ast.walk(tree)) < MIN_NODES:
        return None
    text = ast.dump(tree, annotate_fields=False, include_attributes=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:20]


def _pieces(tree: ast.AST) -> Iterator[tuple[str, ast.AST]]:
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            yield node.name, node
    for node in getattr(tree, "body", []):
        if isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
            target = node.targets[0] if isinstance(node, ast.Assign) else node.target
            name = target.id if isinstance(target, ast.Name) else "?"
            yield name, node.value


def fingerprints(sources: Iterable[str]) -> list[tuple[str, str]]:
    """``[(name, hash)]`` of every function (and top-level assigned value) of ``sources`` that is
    large enough to tell; a source that does not parse (IPython magics) is skipped."""
    out = []
    for source in sources:
        try:
            tree = ast.parse(source)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            continue
        for name, node in _pieces(tree):
            try:
                digest = _digest(node)
            except RecursionError:
                continue
            if digest is not None:
                out.append((str(name)[:80], digest))
    return out


def claimed_learner(cells: list[str]) -> str | None:
    """The last ``LEARNER_ID = "…"`` (a plain string) at a cell's top level, or None."""
    found = None
    for source in cells:
        try:
            tree = ast.parse(source)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            continue
        for node in tree.body:
            if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "LEARNER_ID"
                                                    for t in node.targets):
                value = node.value
                found = value.value if isinstance(value, ast.Constant) and isinstance(value.value, str) and len(
                    value.value) <= 100 else None
    return found


def main() -> None:
    header = json.loads(sys.stdin.buffer.readline())
    limit = int(header.get("memory_mb", MEMORY_MB)) * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    resource.setrlimit(resource.RLIMIT_CPU, (CPU_SECONDS, CPU_SECONDS))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    data = sys.stdin.buffer.read(header["size"] + 1)
    answer = read(data)
    sys.stdout.write(json.dumps(answer) + "\n")
    sys.stdout.flush()


if __name__ == "__main__":  # pragma: no cover - runs as ``python -I -S -c``
    main()
