"""A pasted copy of the kit's source, told apart for the instructor (a warning, never a score).

In a grading run the kit's rule code is absent (issue 30), so a learner who wants it there must
paste it into her notebook. That is flagged, not zeroed: :func:`fingerprints` turns each function
body (and each large table assigned at a cell's top level) into a normalized syntax tree
(docstrings dropped, every local and global name renamed by order of first use, type
annotations dropped) and hashes it; the grader compares the learner's hashes with those of the
kit's rule, coup, settlement and key code (:func:`kit_fingerprints`, computed on the grader's
side). Renaming variables or reformatting does not hide a paste; rewriting the logic does, and
then it is her own code.

Standard library only: this text also runs in the reader process (:mod:`..sandbox.reader`).

>>> a = fingerprints(["def f(total, third):\\n    '''doc'''\\n    t = check(total, 'banker')\\n"
...                   "    return t in TABLE[third] if third is not None else t in STOOD\\n"])
>>> b = fingerprints(["def g(x, y):\\n    z = check(x, 'banker')\\n"
...                   "    return z in T[y] if y is not None else z in S\\n"])
>>> [h for _, h in a] == [h for _, h in b]
True
"""

import ast
import hashlib
from collections.abc import Iterable, Iterator

MIN_NODES = 20
"""Smaller bodies are too common to say anything (``return total in NATURALS``)."""
KIT_FILES = ("rules.py", "coup.py", "settlement.py", "cards.py", "shoe.py", "ledger.py", "misconceptions.py",
             "grading/judge/keys.py")
"""The kit's files whose functions and tables a paste is compared with."""


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


_KIT: dict[str, str] = {}
"""The kit's fingerprints, computed once per process."""


def kit_fingerprints() -> dict[str, str]:
    """``{hash: "module.name"}`` of the kit's own code (:data:`KIT_FILES`), read on the grader's side."""
    if not _KIT:
        from pathlib import Path

        root = Path(__file__).resolve().parents[2]
        found: dict[str, str] = {}
        for rel in KIT_FILES:
            try:
                text = (root / rel).read_text(encoding="utf-8")
            except OSError:
                continue
            module = rel[:-3].replace("/", ".")
            for name, digest in fingerprints([text]):
                found.setdefault(digest, f"bk.{module}.{name}")
        _KIT.update(found)
    return dict(_KIT)


def pasted(found: Iterable[tuple[str, object]],
           kit: dict[str, str] | None = None) -> list[tuple[str, str]]:
    """The learner's pieces (``found``: :func:`fingerprints` of her cells) that are the kit's own
    code: ``[(her name, the kit's name)]``."""
    kit = kit_fingerprints() if kit is None else kit
    out = []
    for name, digest in found:
        if isinstance(digest, str) and digest in kit and (name, kit[digest]) not in out:
            out.append((name, kit[digest]))
    return out
