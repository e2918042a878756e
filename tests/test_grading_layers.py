"""grading/ is a one-way pipeline (issue 41; docs/architecture.md): records.py at the bottom, then
sandbox/ < judge/ < term/ < report/, the drivers on top. A module imports only from its own room or
the rooms before it, and no import circle joins grading's modules. Every import counts: at the top,
inside a function, under ``if TYPE_CHECKING:``."""

from __future__ import annotations

import ast
from pathlib import Path

import baccarat_kit.grading as grading

PACKAGE = "baccarat_kit.grading"
ROOMS = ("records", "sandbox", "judge", "term", "report")
"""In the order data flows; every other module of grading/ is a driver (after all of them)."""


def _modules() -> dict[str, Path]:
    root = Path(grading.__file__).resolve().parent
    out = {}
    for path in sorted(root.rglob("*.py")):
        parts = path.relative_to(root.parent.parent).with_suffix("").parts
        out[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return out


def _imports(module: str, path: Path, mods: dict[str, Path]) -> list[tuple[int, str]]:
    """``(line, module)`` of each import of a grading module in ``module``'s file."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = ".".join(package.split(".")[: len(package.split(".")) - node.level + 1]) if node.level else ""
            target = ".".join(p for p in (base, node.module or "") if p)
            names = [f"{target}.{a.name}" if f"{target}.{a.name}" in mods else target for a in node.names]
        else:
            continue
        out += [(node.lineno, n) for n in dict.fromkeys(names) if n in mods and n != module]
    return out


def _room(module: str) -> int:
    first = module.removeprefix(PACKAGE + ".").split(".")[0] if module != PACKAGE else ""
    return ROOMS.index(first) if first in ROOMS else len(ROOMS)


def _name(room: int) -> str:
    return ROOMS[room] if room < len(ROOMS) else "the drivers"


def test_no_import_runs_back_up_the_pipeline() -> None:
    mods = _modules()
    top = Path(grading.__file__).resolve().parents[2]
    wrong = [f"{path.relative_to(top)}:{line} "
             f"({_name(_room(module))}) imports {target} ({_name(_room(target))})"
             for module, path in mods.items() if module.startswith(PACKAGE)
             for line, target in _imports(module, path, mods)
             if target.startswith(PACKAGE) and _room(target) > _room(module)]
    assert not wrong, "imports against the pipeline:\n" + "\n".join(wrong)


def test_no_import_circle_in_grading() -> None:
    mods = _modules()
    graph = {m: {t for _, t in _imports(m, p, mods) if t.startswith(PACKAGE)} for m, p in mods.items()
             if m.startswith(PACKAGE)}
    state: dict[str, int] = {}
    stack: list[str] = []
    circles: list[str] = []

    def visit(node: str) -> None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                circles.append(" -> ".join([*stack[stack.index(nxt):], nxt]))
            elif nxt not in state:
                visit(nxt)
        stack.pop()
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            visit(node)
    assert not circles, "import circles:\n" + "\n".join(circles)


def test_the_walk_sees_every_kind_of_import() -> None:
    """The walk itself: a relative, a lazy and a type-only import each found, with its room."""
    mods = _modules()
    found = {t for m, p in mods.items() for _, t in _imports(m, p, mods)}
    assert {f"{PACKAGE}.records", f"{PACKAGE}.sandbox.session", f"{PACKAGE}.judge.checks"} <= found
    assert [_room(f"{PACKAGE}.{m}") for m in ("records", "sandbox.bwrap", "judge.keys", "term.collect",
                                              "report.items", "grade")] == [0, 1, 2, 3, 4, 5]
