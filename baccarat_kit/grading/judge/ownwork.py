"""Static check that a function answer is the learner's own work (read in the grader's process).

The grader reads the submission's code cells itself (not what the kernel reports) and follows
the answer function and every notebook-level name it uses. The answer earns nothing if that
code reaches the kit (``bk``, ``baccarat_kit``, an attribute named like one of the kit's rule
functions or tables) or something that can reach anything indirectly (``getattr``, ``exec``,
``__import__``, ``globals``, ``importlib``, ``sys``, private and dunder attributes, also in
``match`` class patterns …). This is a deny-list, so a best effort: the barrier is that the
function then runs alone in a process that cannot import or read the kit (see ``grade.py``). A second, dynamic
layer runs in the kernel (:mod:`baccarat_kit.grading.sandbox._extract`: the kit's rule functions are
replaced by tripwires while the function is called).

>>> cells = ["import baccarat_kit as bk", "def f(t, v):\\n    return bk.banker_draws(t, v)"]
>>> own_work(cells, "f")
(False, '.banker_draws')
>>> own_work(["def f(t, v):\\n    return t < 3"], "f")
(True, '')
>>> own_work(["f = lambda t, v: True"], "f")
(False, 'f = …')
"""

from __future__ import annotations

import ast
from collections.abc import Iterable

KIT_NAMES = frozenset({
    "bk", "baccarat_kit", "rules", "coup", "hand_total", "is_natural", "player_draws",
    "banker_draws", "player_rule", "banker_rule", "draw_values", "banker_matrix", "play",
    "Shoe", "BANKER_DRAWS_ON", "BANKER_DRAWS_WHEN_PLAYER_STOOD", "PLAYER_DRAWS_ON", "NATURALS",
    "grading", "keys", "settle",
})
"""Attribute names (and imported modules) that reach the kit's rules."""

INDIRECT_NAMES = frozenset({
    "exec", "eval", "compile", "__import__", "importlib", "getattr", "setattr", "globals",
    "locals", "vars", "open", "sys", "gc", "inspect", "builtins", "__builtins__", "get_ipython",
    "__loader__", "__spec__", "breakpoint", "types", "attrgetter", "methodcaller",
    "exit", "quit", "SystemExit", "BaseException", "KeyboardInterrupt", "GeneratorExit",
})
"""Names through which any object could be reached without naming it."""


def _parse(source: str) -> ast.Module | None:
    # IPython magics and shell escapes are not Python: blank them (they bind nothing we follow).
    lines = [("" if line.lstrip().startswith(("%", "!")) else line) for line in source.splitlines()]
    try:
        return ast.parse("\n".join(lines))
    except (SyntaxError, ValueError):
        return None


def _bindings(modules: Iterable[ast.Module]) -> dict[str, list[ast.AST]]:
    """Every top-level statement that binds each name, in notebook order."""
    out: dict[str, list[ast.AST]] = {}
    for module in modules:
        for stmt in module.body:
            for name in _bound_names(stmt):
                out.setdefault(name, []).append(stmt)
    return out


def _bound_names(stmt: ast.stmt) -> list[str]:
    if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        return [stmt.name]
    if isinstance(stmt, ast.Import | ast.ImportFrom):
        return [(a.asname or a.name).split(".")[0] for a in stmt.names]
    names = []
    for node in ast.walk(stmt):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.append(node.id)
        elif isinstance(node, ast.Global | ast.Nonlocal):
            names.extend(node.names)
    return names


def _describe(stmt: ast.AST) -> str:
    if isinstance(stmt, ast.Import | ast.ImportFrom):
        return ast.unparse(stmt)[:60]
    if isinstance(stmt, ast.FunctionDef):
        return f"def {stmt.name}"
    names = _bound_names(stmt) if isinstance(stmt, ast.stmt) else []
    return f"{names[0]} = …" if names else ast.unparse(stmt)[:40]


ALLOWED_MODULES = frozenset({
    "math", "itertools", "functools", "collections", "fractions", "decimal",
    "statistics", "string", "enum", "dataclasses",
})
"""The only modules a function answer (and what it uses) may import."""

REACH_ATTRIBUTES = INDIRECT_NAMES | {
    "modules", "import_module", "reload", "load_module", "exec_module", "resolve_name", "locate",
    "f_globals", "f_locals", "f_back", "f_builtins", "gi_frame", "cr_frame", "ag_frame", "tb_frame",
    "gi_code", "f_code", "format", "format_map", "vformat",
    # getattr in disguise: string.Formatter().get_field("0.name", …), functools' copying of
    # named attributes; builtins under another name (enum.bltns)
    "Formatter", "get_field", "get_value", "update_wrapper", "wraps", "bltns", "attrgetter",
}
"""Attribute names that lead to modules, frames or globals."""

SELF_MATCHING = frozenset({"bool", "bytearray", "bytes", "dict", "float", "frozenset", "int", "list", "set", "str",
                           "tuple"})
"""Classes whose positional pattern ``case int(x)`` matches the value itself (no attribute read)."""


def _locals(node: ast.AST) -> set[str]:
    """Parameters and local names of a function (and of functions inside it)."""
    if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
        return set()
    names: set[str] = set()
    for sub in ast.walk(node):
        if isinstance(sub, ast.arg):
            names.add(sub.arg)
        elif isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Store):
            names.add(sub.id)
    return names


def own_work(cells: Iterable[str], name: str) -> tuple[bool, str]:
    """``(True, "")`` if function ``name`` is the learner's own ``def`` that does not reach the
    kit; ``(False, what it reaches)`` if not; ``(False, "")`` if there is no such name at all."""
    ok, detail, _ = _walk(_modules(cells), name)
    return ok, detail


def analyse(cells: Iterable[str], names: Iterable[str]) -> dict[str, tuple[bool, str, str | None]]:
    """For each function name: :func:`own_work`'s verdict and :func:`function_code`'s code, with
    every cell parsed once.

    >>> analyse(["def f(t):\\n    return t < 3", "g = print"], ["f", "g"])
    {'f': (True, '', 'def f(t):\\n    return t < 3'), 'g': (False, 'g = …', None)}
    """
    modules = _modules(cells)
    out: dict[str, tuple[bool, str, str | None]] = {}
    for name in names:
        ok, detail, stmts = _walk(modules, name)
        out[name] = (ok, detail, "\n".join(ast.unparse(s) for s in stmts) if ok else None)
    return out


def _modules(cells: Iterable[str]) -> list[ast.Module]:
    return [m for m in (_parse(c) for c in cells) if m is not None]


def function_code(cells: Iterable[str], name: str) -> str | None:
    """The code the function ``name`` needs: its ``def`` and every notebook-level statement it
    reaches, in notebook order, as plain Python (no magics). None if it is not own work.

    The grader runs only this code, in a fresh kernel, to grade a function: nothing else the
    notebook does (hooks, patches, transformers) is there.

    >>> print(function_code(["LIMIT = 5", "print('hi')", "def f(t):\\n    return t <= LIMIT"], "f"))
    LIMIT = 5
    def f(t):
        return t <= LIMIT
    """
    ok, _, stmts = _walk(_modules(cells), name)
    return "\n".join(ast.unparse(s) for s in stmts) if ok else None


def _walk(modules: list[ast.Module], name: str) -> tuple[bool, str, list[ast.stmt]]:
    order = {id(stmt): i for i, stmt in enumerate(s for m in modules for s in m.body)}
    bound = _bindings(modules)
    defs = bound.get(name, [])
    if not defs:
        return False, "", []
    for stmt in defs:
        if not isinstance(stmt, ast.FunctionDef):
            return False, _describe(stmt), []
    seen: dict[int, ast.AST] = {}
    todo: list[ast.AST] = [defs[-1]]
    while todo:
        node = todo.pop()
        if id(node) in seen:
            continue
        seen[id(node)] = node
        local = _locals(node)
        for sub in ast.walk(node):
            if isinstance(sub, ast.Import | ast.ImportFrom):
                modules_named = [sub.module or "."] if isinstance(sub, ast.ImportFrom) else [
                    a.name for a in sub.names]
                if any(m.split(".")[0] not in ALLOWED_MODULES for m in modules_named if m):
                    return False, ast.unparse(sub)[:60], []
            if isinstance(sub, ast.Name):
                if sub.id in local and sub.id not in INDIRECT_NAMES:
                    continue  # the function's own variable, whatever its name
                if sub.id in KIT_NAMES or sub.id in INDIRECT_NAMES or sub.id.startswith("__"):
                    return False, sub.id, []
                todo.extend(b for b in bound.get(sub.id, []) if b is not node)
            elif isinstance(sub, ast.ClassDef) and sub.keywords:
                # ``class C(metaclass=M)``: a metaclass whose ``__instancecheck__`` always says yes
                # turns ``case C(x)`` into an attribute read of anything
                return False, f"class {sub.name}(metaclass=…)", []
            elif isinstance(sub, ast.FunctionDef | ast.AsyncFunctionDef) and sub.name.startswith("__"):
                return False, f"def {sub.name}", []
            elif isinstance(sub, ast.MatchClass) and sub.patterns and not (
                    isinstance(sub.cls, ast.Name) and sub.cls.id in SELF_MATCHING):
                # positional class patterns read the attributes named by ``__match_args__``
                return False, f"case {ast.unparse(sub.cls)[:30]}(…)", []
            if isinstance(sub, ast.Attribute | ast.MatchClass):
                # ``case object(__globals__=g)`` reads attributes too, named in kwd_attrs
                attrs = [sub.attr] if isinstance(sub, ast.Attribute) else sub.kwd_attrs
                for attr in attrs:
                    if attr in KIT_NAMES or attr in REACH_ATTRIBUTES or attr.startswith("_"):
                        return False, f".{attr}", []
            elif isinstance(sub, ast.Constant) and isinstance(sub.value, str) and (
                    "baccarat" in sub.value or "__" in sub.value):
                return False, repr(sub.value)[:40], []
    stmts = sorted((n for n in seen.values() if isinstance(n, ast.stmt)), key=lambda n: order[id(n)])
    return True, "", stmts
