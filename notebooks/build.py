"""Build lesson notebooks from their percent-format sources and execute them.

Each lesson's source is ``notebooks/src/NN-name.py``: cells start with ``# %%`` (code)
or ``# %% [markdown]`` (Markdown, every line prefixed with ``# ``); a code cell may
carry tags, ``# %% tags=["nbval-ignore-output"]``. The notebook
``notebooks/NN-name.ipynb`` is written with stable cell ids and executed top to
bottom in a fresh kernel (outputs stored, as nbval needs them).

    .venv/bin/python notebooks/build.py                 # every source
    .venv/bin/python notebooks/build.py 01-card-values  # one lesson
    .venv/bin/python notebooks/build.py --check         # sources and notebooks agree?

``tests/test_lessons.py`` checks that every notebook's cells match its source.

The executed notebook keeps the widgets' state in its metadata (nbclient stores it), so a
trusted notebook shows its widgets before anything runs; each widget output also carries a
static ``text/html`` preview for the untrusted case (``docs/widgets.md``). Only displayed
widgets keep their state, under model ids derived from the lesson's name, so rebuilding an
unchanged lesson gives the same file.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import uuid
from pathlib import Path

HERE = Path(__file__).resolve().parent
SRC = HERE / "src"
_HEADER = re.compile(r"^# %%(?P<md> \[markdown\])?(?: tags=(?P<tags>\[.*\]))?\s*$")


def parse_source(text: str) -> list[dict[str, object]]:
    """The cells of a percent-format source: ``{"cell_type", "source", "tags"}``."""
    cells: list[dict[str, object]] = []
    current: dict[str, object] | None = None
    lines: list[str] = []

    def close() -> None:
        if current is None:
            return
        body = lines[:]
        while body and not body[-1].strip():
            body.pop()
        while body and not body[0].strip():
            body.pop(0)
        if current["cell_type"] == "markdown":
            body = [ln[2:] if ln.startswith("# ") else ln.lstrip("#") for ln in body]
        current["source"] = "\n".join(body)
        cells.append(current)

    for raw in text.splitlines():
        m = _HEADER.match(raw)
        if m:
            close()
            tags = json.loads(m.group("tags")) if m.group("tags") else []
            current = {"cell_type": "markdown" if m.group("md") else "code", "tags": tags}
            lines = []
        elif current is not None:
            lines.append(raw)
    close()
    return cells


def make_notebook(name: str):  # -> nbformat.NotebookNode
    import nbformat

    cells = parse_source((SRC / f"{name}.py").read_text(encoding="utf-8"))
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"display_name": "Python 3 (ipykernel)", "language": "python",
                                 "name": "python3"}
    nb.metadata["language_info"] = {"name": "python"}
    for i, cell in enumerate(cells, 1):
        if cell["cell_type"] == "markdown":
            new = nbformat.v4.new_markdown_cell(cell["source"])
        else:
            new = nbformat.v4.new_code_cell(cell["source"])
            if cell["tags"]:
                new.metadata["tags"] = cell["tags"]
        new["id"] = f"{name[:2]}-{i:03d}"
        nb.cells.append(new)
    return nb


def build(name: str, execute: bool = True) -> Path:
    import nbformat

    nb = make_notebook(name)
    if execute:
        from nbclient import NotebookClient

        # No timings and no interpreter version in the stored notebook: the same on every machine.
        NotebookClient(nb, timeout=120, kernel_name="python3", record_timing=False,
                       resources={"metadata": {"path": str(HERE)}}).execute()
        nb.metadata["language_info"] = {"name": "python"}
    out = HERE / f"{name}.ipynb"
    stable_widget_state(nb, name)
    nbformat.write(nb, out)
    return out


_STATE = "application/vnd.jupyter.widget-state+json"
_VIEW = "application/vnd.jupyter.widget-view+json"
_REF = re.compile(r"IPY_MODEL_([0-9a-f]{32})")


def stable_widget_state(nb, name: str) -> None:  # nb: nbformat.NotebookNode
    """Keep the state of the widgets the notebook displays (and the models they use), under
    ids derived from the lesson's name in the order they are reached from the outputs, so a
    rebuild of an unchanged lesson writes the same file. Undisplayed widgets (the lessons'
    demonstration widgets) are left out: JupyterLab never draws them."""
    meta = nb.metadata.get("widgets", {}).get(_STATE)
    if not meta:
        return
    state = meta["state"]
    views = [out["data"][_VIEW] for cell in nb.cells if cell.cell_type == "code"
             for out in cell.get("outputs", []) if _VIEW in out.get("data", {})]
    order: list[str] = []

    def visit(mid: str) -> None:
        if mid in order or mid not in state:
            return
        order.append(mid)
        for ref in _REF.findall(json.dumps(state[mid], sort_keys=True)):
            visit(ref)

    for view in views:
        visit(view["model_id"])
    new = {old: uuid.uuid5(uuid.NAMESPACE_URL, f"baccarat-kit/{name}/{i}").hex
           for i, old in enumerate(order)}

    def rename(match: re.Match[str]) -> str:
        return "IPY_MODEL_" + new.get(match.group(1), match.group(1))

    meta["state"] = {new[old]: json.loads(_REF.sub(rename, json.dumps(state[old])))
                     for old in order}
    for view in views:
        view["model_id"] = new.get(view["model_id"], view["model_id"])


def check(name: str) -> list[str]:
    """Differences between a source and its notebook's cells (empty: they agree)."""
    import nbformat

    want = parse_source((SRC / f"{name}.py").read_text(encoding="utf-8"))
    path = HERE / f"{name}.ipynb"
    if not path.exists():
        return [f"{path.name} is missing: run notebooks/build.py {name}"]
    have = nbformat.read(path, as_version=4).cells
    problems = []
    if len(have) != len(want):
        problems.append(f"{path.name}: {len(have)} cells, source has {len(want)}")
    for i, (h, w) in enumerate(zip(have, want, strict=False), 1):
        if h.cell_type != w["cell_type"] or h.source != w["source"]:
            problems.append(f"{path.name} cell {i} differs from src/{name}.py: rebuild it")
        elif h.cell_type == "code" and list(h.metadata.get("tags", [])) != w["tags"]:
            problems.append(f"{path.name} cell {i} tags differ from src/{name}.py")
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("names", nargs="*", help="lesson names (default: every source)")
    parser.add_argument("--check", action="store_true", help="only compare sources and notebooks")
    args = parser.parse_args(argv)
    names = args.names or sorted(p.stem for p in SRC.glob("*.py"))
    if args.check:
        problems = [p for n in names for p in check(n)]
        print("\n".join(problems) or "sources and notebooks agree")
        return 1 if problems else 0
    for name in names:
        print(build(name).relative_to(HERE.parent))
    return 0


if __name__ == "__main__":
    sys.exit(main())
