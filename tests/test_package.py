"""Import cost, lazy heavy parts, no global side effects, and the message catalogue."""

from __future__ import annotations

import json
import re
import string
import subprocess
import sys

import baccarat_kit as bk
from baccarat_kit import i18n

PROBE = r"""
import json, sys, time, locale
before = set(sys.modules)
loc = locale.setlocale(locale.LC_ALL)
t0 = time.process_time()
import baccarat_kit
dt = time.process_time() - t0
heavy = sorted(m for m in ("numpy", "matplotlib", "ipywidgets", "nbformat", "IPython")
               if m in sys.modules)
print(json.dumps({"seconds": dt, "heavy": heavy, "locale_same": loc == locale.setlocale(locale.LC_ALL)}))
"""


def test_import_is_light_and_changes_nothing() -> None:
    out = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, check=True)
    data = json.loads(out.stdout)
    assert data["heavy"] == []
    assert data["locale_same"]
    # The budget is 150 ms; measured ~20 ms (see benchmarks/engine.py). The CPU time it cost
    # (wall time on a loaded machine stretches many times over, CPU time does not), with a
    # generous bound: what this guards is a heavy import creeping in, not the machine's speed.
    assert data["seconds"] < 1.0


def test_every_message_has_both_languages_with_the_same_placeholders() -> None:
    fmt = string.Formatter()
    for key, texts in i18n.catalogue().items():
        assert set(texts) == {"zh", "en"}, key
        fields = [{f for _, f, _, _ in fmt.parse(texts[lang]) if f} for lang in ("zh", "en")]
        assert fields[0] == fields[1], key
        assert texts["zh"].strip() and texts["en"].strip(), key


def test_chinese_messages_are_traditional() -> None:
    # A few simplified-only characters that would betray a simplified translation.
    simplified = set("补闲庄发张这说规则个为么时")
    for key, texts in i18n.catalogue().items():
        bad = simplified & set(texts["zh"])
        assert not bad, (key, bad)


def test_language_switch() -> None:
    old = bk.get_language()
    try:
        assert bk.set_language("en") == "en"
        assert "player wins" in bk.play("2 3 3 4 4").explain()
        bk.set_language("zh-Hant")
        assert "閒家勝" in bk.play("2 3 3 4 4").explain()
    finally:
        bk.set_language(old)


def test_bad_language() -> None:
    import pytest

    with pytest.raises(bk.LanguageError) as info:
        bk.set_language("klingon")
    assert "klingon" in info.value.message("en")


def test_all_names_exist() -> None:
    for name in bk.__all__:
        assert hasattr(bk, name), name
    assert re.match(r"\d+\.\d+\.\d+", bk.__version__)


def test_errors_are_one_family() -> None:
    for name in dir(bk):
        obj = getattr(bk, name)
        if isinstance(obj, type) and issubclass(obj, Exception):
            assert issubclass(obj, bk.BaccaratError) and issubclass(obj, ValueError), name


def test_misconceptions() -> None:
    ids = [m.id for m in bk.misconceptions.all_misconceptions()]
    assert len(ids) == len(set(ids)) >= 15
    import pytest

    with pytest.raises(bk.BaccaratError) as info:
        bk.misconceptions.get("nope")
    assert "nope" in info.value.message("en")


def _import_graph() -> dict[str, set[str]]:
    """Every import between the kit's own modules, at the top or inside a function, except the
    ones under ``if TYPE_CHECKING:`` (they never run)."""
    import ast
    from pathlib import Path

    root = Path(bk.__file__).resolve().parent
    mods: dict[str, Path] = {}
    for path in root.rglob("*.py"):
        parts = path.relative_to(root.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        mods[name] = path

    def targets(module: str, node: ast.Import | ast.ImportFrom) -> list[str]:
        if isinstance(node, ast.Import):
            return [a.name for a in node.names if a.name in mods]
        package = module if mods[module].name == "__init__.py" else module.rpartition(".")[0]
        base = package.split(".")[: len(package.split(".")) - max(node.level - 1, 0)] if node.level else []
        target = ".".join([*base, *([node.module] if node.module else [])])
        return [f"{target}.{a.name}" if f"{target}.{a.name}" in mods else target
                for a in node.names if target in mods or f"{target}.{a.name}" in mods]

    def walk(module: str, body: list[ast.stmt], graph: set[str]) -> None:
        for node in body:
            if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
                walk(module, node.orelse, graph)
                continue
            for sub in ast.walk(node):
                if isinstance(sub, ast.If) and "TYPE_CHECKING" in ast.unparse(sub.test):
                    sub.body = []
            for sub in ast.walk(node):
                if isinstance(sub, ast.Import | ast.ImportFrom):
                    graph.update(t for t in targets(module, sub) if t != module)

    graph: dict[str, set[str]] = {}
    for module, path in mods.items():
        graph[module] = set()
        walk(module, ast.parse(path.read_text(encoding="utf-8")).body, graph[module])
    return graph


def test_imports_point_one_way() -> None:
    """No two of the kit's modules import each other, directly or round a circle (the package
    ``__init__`` files, which only re-export, are left out)."""
    graph = {m: {t for t in ts if not t.endswith(("baccarat_kit", ".cases", ".grading", ".widgets"))}
             for m, ts in _import_graph().items()}
    state: dict[str, int] = {}
    stack: list[str] = []
    cycles: list[list[str]] = []

    def visit(node: str) -> None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                cycles.append([*stack[stack.index(nxt):], nxt])
            elif nxt not in state:
                visit(nxt)
        stack.pop()
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            visit(node)
    assert not cycles, "import circles: " + "; ".join(" -> ".join(c) for c in cycles)
    assert "baccarat_kit.i18n" in graph["baccarat_kit.errors"]
    assert "baccarat_kit.errors" not in graph["baccarat_kit.i18n"]
    assert "baccarat_kit.plotting" in graph["baccarat_kit.simulation"]
    assert "baccarat_kit.roads" not in graph["baccarat_kit.simulation"]


def test_the_environment_leaves_out_the_lark_iri_parsers() -> None:
    """``make lab``/``make test`` (and ``baccarat-kit hub setup``) install with uv's
    ``--override baccarat_kit/data/uv-overrides.txt``: jsonschema then imports without
    rfc3987-syntax, whose import builds Lark parsers (about 2.8 s of CPU in each JupyterLab,
    Voila, nbformat or pytest process). Where make installs with plain pip (``NO_UV=1``), it
    uninstalls rfc3987-syntax afterwards."""
    import importlib.util
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    overrides = root / "baccarat_kit" / "data" / "uv-overrides.txt"
    assert 'rfc3987-syntax ; python_version < "3"' in overrides.read_text(encoding="utf-8")
    assert "--override baccarat_kit/data/uv-overrides.txt" in (root / "Makefile").read_text(encoding="utf-8")
    assert '"uv-overrides.txt"' in (root / "baccarat_kit" / "hub" / "env.py").read_text(encoding="utf-8")
    assert "pip uninstall --quiet --yes rfc3987-syntax" in (root / "Makefile").read_text(encoding="utf-8")
    assert importlib.util.find_spec("rfc3987_syntax") is None, "installed without the override"
    out = subprocess.run([sys.executable, "-c", "import sys, jsonschema, nbformat; print('lark' in sys.modules)"],
                         capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_the_environment_is_installed_with_its_bytecode_compiled() -> None:
    """``make venv`` and ``baccarat-kit hub setup`` compile the bytecode at install (uv leaves it
    out by default): the grader's sandboxes read the env read-only and write no caches, so
    without it every submission compiles IPython again."""
    import importlib.util
    import os
    from pathlib import Path

    import IPython.core.interactiveshell as shell

    root = Path(__file__).resolve().parents[1]
    makefile = (root / "Makefile").read_text(encoding="utf-8")
    assert "--compile-bytecode" in makefile and "compileall" in makefile
    env = (root / "baccarat_kit" / "hub" / "env.py").read_text(encoding="utf-8")
    assert '"--compile-bytecode"' in env and "compileall.compile_dir" in env
    cached = importlib.util.cache_from_source(shell.__file__)
    assert os.path.isfile(cached), f"{shell.__file__} was installed without its bytecode"


def test_the_version_has_one_source_and_the_changelog_names_it() -> None:
    """``baccarat_kit.__version__`` is the version: pyproject.toml reads it (``dynamic``), the
    installed metadata says it (make venv installs again when pyproject changes; after a bump
    without a reinstall this fails until ``make venv``), and CHANGELOG.md's newest release is it."""
    import re
    import tomllib
    from importlib.metadata import version
    from pathlib import Path

    import baccarat_kit

    root = Path(__file__).resolve().parents[1]
    project = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))
    assert "version" not in project["project"] and "version" in project["project"]["dynamic"]
    assert project["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "baccarat_kit.__version__"}
    assert version("baccarat-kit") == baccarat_kit.__version__
    changelog = (root / "CHANGELOG.md").read_text(encoding="utf-8")
    releases = re.findall(r"^## \[(\d+\.\d+\.\d+)\] - \d{4}-\d{2}-\d{2}$", changelog, re.M)
    assert "## [Unreleased]" in changelog
    assert releases and releases[0] == baccarat_kit.__version__, releases[:2]
    assert releases == sorted(releases, key=lambda v: tuple(map(int, v.split("."))), reverse=True)
