"""The JupyterLite edition preloads every package the widgets import (issue 37).

The Pyodide kernel of the site loads only the packages named in ``lite/jupyter-lite.json``
(``loadPyodideOptions.packages``, with the dependencies their lock entries name) and may not ask
PyPI (``disablePyPIFallback``). A package the widgets import that is missing there fails only in
the browser, at the first click: ``fsrs`` was left out, so the drill never answered.

The needed packages are derived, not listed: the ``widgets`` extra and the runtime dependencies
of ``pyproject.toml``, and every third-party module imported (at any depth, lazily too) by the
modules of ``baccarat_kit.widgets`` and the kit modules they import, mapped to its distribution.
"""

from __future__ import annotations

import ast
import importlib.metadata
import json
import re
import sys
import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PACKAGE = REPO / "baccarat_kit"
# Provided by Pyodide itself (not a wheel), or absent from the browser edition on purpose: the
# lite build shows the cells needing numpy/matplotlib instead of running them.
NOT_PRELOADED = {"pyodide", "js", "numpy", "matplotlib", "numba", "tqdm"}


def canon(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def preload() -> list[str]:
    config = json.loads((REPO / "lite" / "jupyter-lite.json").read_text(encoding="utf-8"))
    kernel = config["jupyter-config-data"]["litePluginSettings"][
        "@jupyterlite/pyodide-kernel-extension:kernel"]
    assert kernel["disablePyPIFallback"] is True
    return [canon(n) for n in kernel["loadPyodideOptions"]["packages"]]


def requirement_name(spec: str) -> str:
    return canon(re.split(r"[\s<>=!~;\[(]", spec.strip(), maxsplit=1)[0])


def preload_closure() -> set[str]:
    """The preload list and what its packages require (installed metadata; extras left out)."""
    seen: set[str] = set()
    todo = list(preload())
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        try:
            requires = importlib.metadata.requires(name) or []
        except importlib.metadata.PackageNotFoundError:
            continue
        todo += [requirement_name(r) for r in requires if "extra ==" not in r]
    return seen


def module_file(module: str) -> Path | None:
    parts = module.split(".")
    base = REPO.joinpath(*parts)
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def widget_imports() -> dict[str, str]:
    """``{top-level third-party module: the kit module importing it}`` for the widgets and every
    kit module they import, transitively."""
    start = sorted(f"baccarat_kit.widgets.{p.stem}" if p.stem != "__init__" else "baccarat_kit.widgets"
                   for p in (PACKAGE / "widgets").glob("*.py"))
    todo, seen, found = list(start), set(), {}
    while todo:
        module = todo.pop()
        if module in seen:
            continue
        seen.add(module)
        path = module_file(module)
        if path is None:
            continue
        package = module if path.name == "__init__.py" else module.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.split(".")
                    base = base[: len(base) - node.level + 1]
                    target = ".".join([*base, node.module] if node.module else base)
                    names = [target] + [f"{target}.{a.name}" for a in node.names]
                else:
                    names = [node.module or ""] + [f"{node.module}.{a.name}" for a in node.names]
            for name in names:
                top = name.split(".")[0]
                if top == "baccarat_kit":
                    todo.append(name)
                elif top and top not in sys.stdlib_module_names and top != "__future__":
                    found.setdefault(top, module)
    return found


def test_the_preload_list_holds_the_widgets_extra_and_the_runtime_dependencies() -> None:
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    needed = {requirement_name(s) for s in
              [*project["dependencies"], *project["optional-dependencies"]["widgets"]]}
    assert "fsrs" in needed  # what the drill schedules with
    listed = preload()
    assert "baccarat-kit" in listed
    assert not needed - set(listed), f"add to lite/jupyter-lite.json: {sorted(needed - set(listed))}"


def test_every_module_the_widgets_import_is_preloaded() -> None:
    imports = widget_imports()
    assert {"ipywidgets", "fsrs"} <= set(imports)  # the scan sees lazy imports (drill: fsrs)
    distributions = importlib.metadata.packages_distributions()
    covered = preload_closure()
    missing = {}
    for module, where in imports.items():
        if module in NOT_PRELOADED:
            continue
        dists = {canon(d) for d in distributions.get(module, [module])}
        if not dists & covered:
            missing[module] = where
    assert not missing, f"imported by the widgets but not preloaded in lite/jupyter-lite.json: {missing}"


def test_the_build_vendors_what_it_preloads() -> None:
    source = (REPO / "lite" / "build.py").read_text(encoding="utf-8")
    # One list: the build reads the preload list from jupyter-lite.json (no copy to drift).
    assert re.search(r'^PRELOAD\b.*=\s*json\.loads\(\(HERE / "jupyter-lite\.json"\)', source, re.M)
