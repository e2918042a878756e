"""Static check that an answer is the learner's own work (read in the grader's reader process).

Value and choice answers: :func:`analyse_values` (the kit only on the exercise's
``allowed_calls``, see its docstring). Function answers: the grader reads the submission's
code cells itself (not what the kernel reports) and follows the answer function and every notebook-level name it uses. The answer earns nothing if that
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


def latest_cells(cells: Iterable[str], name: str = "") -> list[str]:
    """A kernel's history (``In``, in the order run) as the notebook it now is: a cell is kept
    only when it binds a name no later cell binds again (a learner who tried ``f = bk.f`` and
    then wrote her own ``def f`` is read on her ``def``).

    >>> latest_cells(["f = bk.f", "x = 1", "def f(t):\\n    return t"])
    ['x = 1', 'def f(t):\\n    return t']
    """
    kept: list[str] = []
    later: set[str] = set()
    for source in reversed([c for c in cells if isinstance(c, str)]):
        module = _parse(source)
        if module is None:
            continue
        names = {n for stmt in module.body for n in _bound_names(stmt)}
        if names - later:
            kept.append(source)
        later |= names
    return kept[::-1]


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


# ---------------------------------------------------------------- value and choice answers (issue 20, attack 10)
BASE_CALLS = ("bk.set_language", "bk.grading.Checker", "check", "check.options", "check.letter")
"""The kit calls every exercise allows (its ``metadata.baccarat_kit.allowed_calls`` adds the
data it hands out: ``bk.grading.hands_for`` …). ``check`` stands for the notebook name bound to
``bk.grading.Checker(…)``, whatever the learner called it."""

CHECKER_PATH = "bk.grading.Checker"

SOLVER_NAMES = frozenset({
    "keys", "judge", "expected", "KEYS", "checks", "selfcheck", "_extract", "correct_option", "grade_question",
    "mistaken_answers", "public_metadata", "Exercise", "Question", "from_metadata",
})
"""Names (variables or attributes) of the grader's own key and judging code: an answer that
reaches them earns nothing."""

NAMESPACE_WRITERS = frozenset({
    "globals", "locals", "vars", "exec", "eval", "compile", "get_ipython", "__import__", "importlib",
    "setattr", "__dict__", "user_ns", "user_global_ns", "run_cell", "run_line_magic", "run_cell_magic",
    "push", "f_globals", "f_locals", "__main__", "builtins", "__builtins__", "sys", "inspect", "gc", "modules",
})
"""Names through which code can set a notebook variable without an assignment the grader can read
(``globals()[name] = …``, ``exec(f"{name} = …")``, ``get_ipython().user_ns``, ``__main__``)."""

WRITER_MODULES = frozenset({
    "sys", "builtins", "importlib", "runpy", "code", "codeop", "inspect", "gc", "ctypes", "pdb", "bdb",
    "pickle", "_pickle", "shelve", "copyreg", "marshal", "types", "__main__", "site", "pkgutil", "zipimport",
    "IPython", "ipykernel", "traitlets", "threading", "_thread", "multiprocessing", "concurrent", "operator",
})
"""Standard modules through which imported or notebook code can reach a notebook's variables."""

HARMLESS_MAGICS = frozenset({"time", "timeit", "matplotlib", "who", "whos", "pwd", "precision", "pprint",
                             "capture", "ls", "cd", "history", "lsmagic", "magic", "xmode"})
"""IPython magics that set no notebook variable (``%run``, ``%load_ext``, ``%store`` … can)."""

METADATA_WORDS = ("ipynb", "metadata", "questions", "baccarat_kit")
"""String constants that mean an answer reads the exercise's own metadata (its keys' arguments)."""

READERS = frozenset({"open", "json", "nbformat", "Path", "os", "io", "pathlib", "read_text", "loads", "load"})
"""What reads the notebook file (and with it the public metadata of its questions)."""

SHELL_CACHES = frozenset({"In", "Out", "_oh", "_ih", "_dh", "_ii", "_iii", "_i", "_", "__", "___"})
"""IPython's input and output caches: ``case_a = _`` takes what an earlier cell's kit call showed."""


def _stdlib() -> frozenset[str]:
    import sys

    return frozenset(getattr(sys, "stdlib_module_names", ())) | ALLOWED_MODULES


def _module_names(stmt: ast.Import | ast.ImportFrom) -> list[str]:
    if isinstance(stmt, ast.ImportFrom):
        return ["." if stmt.level else stmt.module or ""]
    return [a.name for a in stmt.names]


def _kit_aliases(stmt: ast.Import | ast.ImportFrom) -> dict[str, str]:
    """What an import binds to the kit, as ``bk.…`` paths (``from baccarat_kit import play`` → ``bk.play``)."""
    out: dict[str, str] = {}
    if isinstance(stmt, ast.Import):
        for a in stmt.names:
            if a.name.split(".")[0] == "baccarat_kit":
                out[a.asname or "baccarat_kit"] = "bk" + (a.name[len("baccarat_kit"):] if a.asname else "")
    elif not stmt.level and (stmt.module or "").split(".")[0] == "baccarat_kit":
        base = "bk" + (stmt.module or "")[len("baccarat_kit"):]
        for a in stmt.names:
            out[a.asname or a.name] = f"{base}.{a.name}"
    return out


def _chain(node: ast.AST) -> tuple[str, list[str]] | None:
    """``bk.grading.hands_for`` → ``("bk", ["grading", "hands_for"])``; None unless rooted at a name."""
    attrs: list[str] = []
    while isinstance(node, ast.Attribute):
        attrs.append(node.attr)
        node = node.value
    return (node.id, attrs[::-1]) if isinstance(node, ast.Name) else None


def _magic_writer(source: str) -> str | None:
    for line in source.splitlines():
        text = line.strip()
        if text.startswith("%"):
            name = text.lstrip("%").split(None, 1)[0] if text.lstrip("%") else ""
            if name not in HARMLESS_MAGICS:
                return f"%{name}"[:40]
    return None


def _writer(sources: list[str], modules: list[ast.Module]) -> str | None:
    """The first thing in the notebook that can set a variable without a readable assignment."""
    for source in sources:
        found = _magic_writer(source)
        if found:
            return found
    stdlib = _stdlib()
    for module in modules:
        for stmt in module.body:
            for sub in ast.walk(stmt):
                if isinstance(sub, ast.Name) and sub.id in NAMESPACE_WRITERS:
                    return sub.id
                if isinstance(sub, ast.Attribute) and sub.attr in NAMESPACE_WRITERS:
                    return f".{sub.attr}"
                if isinstance(sub, ast.Import | ast.ImportFrom):
                    for m in _module_names(sub):
                        root = m.split(".")[0]
                        # a module of her own (written to disk, then imported) runs code the
                        # grader does not read: it could set any answer
                        if root != "baccarat_kit" and (root not in stdlib or root in WRITER_MODULES
                                                       or set(m.split(".")) & NAMESPACE_WRITERS):
                            return ast.unparse(sub)[:60]
    return None


def _value_reaches(node: ast.AST, local: set[str], aliases: dict[str, str], allowed: frozenset[str],
                   bound: dict[str, list[ast.AST]]) -> str | None:
    """What in ``node`` (an answer's code) reaches the kit beyond ``allowed``, the grader's keys or
    the exercise's metadata; None when nothing does."""
    inner = {id(sub.value) for sub in ast.walk(node) if isinstance(sub, ast.Attribute)}
    for sub in ast.walk(node):
        if isinstance(sub, ast.Import | ast.ImportFrom):
            for m in _module_names(sub):
                if m.split(".")[0] != "baccarat_kit" and m.split(".")[0] not in ALLOWED_MODULES:
                    return ast.unparse(sub)[:60]
            continue
        if isinstance(sub, ast.Attribute):
            if sub.attr in SOLVER_NAMES or sub.attr in NAMESPACE_WRITERS or sub.attr in READERS or (
                    sub.attr in REACH_ATTRIBUTES or sub.attr.startswith("_")):
                return f".{sub.attr}"
        elif isinstance(sub, ast.Constant) and isinstance(sub.value, str) and any(
                w in sub.value for w in METADATA_WORDS):
            return repr(sub.value)[:40]
        if id(sub) in inner or not isinstance(sub, ast.Attribute | ast.Name):
            continue
        chain = _chain(sub)
        if chain is None:
            continue
        root, attrs = chain
        if root in local:
            continue
        if root in aliases:
            path = ".".join([aliases[root], *attrs])
            if path not in allowed:
                return path
            continue
        if root in SOLVER_NAMES or root in NAMESPACE_WRITERS or root in READERS or root in INDIRECT_NAMES:
            return root
        if root not in bound and (root in SHELL_CACHES or root.startswith("_")):
            return root
    return None


def analyse_values(cells: Iterable[str], names: Iterable[str], allowed: Iterable[str] | None = None,
                   latest: bool = False) -> dict[str, tuple[bool, str]]:
    """For each value or choice answer ``name``: ``(True, "")`` when the notebook sets it with an
    assignment the grader can read and the code it depends on (followed through every
    notebook-level name it uses) calls the kit only on ``allowed`` paths (:data:`BASE_CALLS` and
    the exercise's ``allowed_calls``; an allowed call is not followed into) and reaches neither
    the grader's key code nor the exercise's metadata; ``(False, what)`` otherwise, ``what``
    naming the call (``bk.banker_draws``) or the construct.

    Anywhere in the notebook, a way to set a variable without an assignment (``globals()``,
    ``exec``, ``get_ipython()``, ``__main__``, ``%run``, a module of her own) makes every answer
    not own work: the grader could not tell which code gave the value. ``latest``: ``cells`` is a
    kernel's history (``In``), in the order run; only each name's last binding counts.

    >>> cells = ["import baccarat_kit as bk", "x = bk.banker_draws(3, 8)", "check = bk.grading.Checker('03')",
    ...          "y = check.letter('q1', True)", "z = x", "t = 7 + 8"]
    >>> analyse_values(cells, ["x", "y", "z", "t", "w"])
    {'x': (False, 'bk.banker_draws'), 'y': (True, ''), 'z': (False, 'bk.banker_draws'), 't': (True, ''), 'w': (False, '(no assignment)')}
    >>> analyse_values(["for n in ['x']:\\n    globals()[n] = True"], ["x"])
    {'x': (False, 'globals')}
    """
    sources = [c for c in cells if isinstance(c, str)]
    modules = _modules(sources)
    allowed_set = frozenset(BASE_CALLS) | frozenset(allowed or ())
    bound = _bindings(modules)
    for module in modules:  # ``global x`` in a function: calling it binds x
        for stmt in module.body:
            if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef):
                for sub in ast.walk(stmt):
                    if isinstance(sub, ast.Global):
                        for gname in sub.names:
                            bound.setdefault(gname, []).append(stmt)
    aliases: dict[str, str] = {}
    for module in modules:
        for stmt in module.body:
            for sub in ast.walk(stmt):
                if isinstance(sub, ast.Import | ast.ImportFrom):
                    aliases.update(_kit_aliases(sub))
    for module in modules:  # check = bk.grading.Checker(…): its calls are ``check(…)``, ``check.letter(…)``
        for stmt in module.body:
            if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name) \
                    and isinstance(stmt.value, ast.Call):
                chain = _chain(stmt.value.func)
                if chain and chain[0] in aliases and ".".join([aliases[chain[0]], *chain[1]]) == CHECKER_PATH:
                    aliases[stmt.targets[0].id] = "check"
    for alias, path in list(aliases.items()):  # a name bound to anything else as well is not a checker
        if path == "check" and any(not (isinstance(b, ast.Assign) and isinstance(b.value, ast.Call))
                                   for b in bound.get(alias, [])):
            del aliases[alias]
    writer = _writer(sources, modules)
    out: dict[str, tuple[bool, str]] = {}
    memo: dict[int, tuple[str | None, list[str]]] = {}  # each statement read once for all answers

    def read(node: ast.AST) -> tuple[str | None, list[str]]:
        if id(node) not in memo:
            local = _locals(node)
            used = [sub.id for sub in ast.walk(node) if isinstance(sub, ast.Name) and sub.id not in local
                    and sub.id not in aliases]
            memo[id(node)] = (_value_reaches(node, local, aliases, allowed_set, bound), used)
        return memo[id(node)]

    for name in names:
        if writer is not None:
            out[name] = (False, writer)
            continue
        defs = bound.get(name, [])
        if not defs:
            out[name] = (False, "(no assignment)")
            continue
        seen: set[int] = set()
        # every assignment of it (any may be the one that ran last); in a kernel's history the last
        todo: list[ast.AST] = [defs[-1]] if latest else list(defs)
        found: str | None = None
        while todo and found is None:
            node = todo.pop()
            if id(node) in seen:
                continue
            seen.add(id(node))
            found, used = read(node)
            for used_name in used:
                more = bound.get(used_name, [])
                todo.extend(b for b in (more[-1:] if latest else more) if id(b) not in seen)
        out[name] = (found is None, found or "")
    return out
