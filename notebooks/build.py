"""Build the lesson notebooks, in two editions, from their percent-format sources and execute them.

Each lesson's source is ``notebooks/src/NN-name.py``: cells start with ``# %%`` (code)
or ``# %% [markdown] lang=zh`` / ``# %% [markdown] lang=en`` (Markdown, every line
prefixed with ``# ``); a code cell may carry tags, ``# %% tags=["nbval-ignore-output"]``.

* Code cells are shared by both editions. The name ``EDITION_LANG`` in a code cell is
  replaced by the edition's language (``"zh"`` or ``"en"``), so the kit's language
  (``LANG = bk.set_language(EDITION_LANG)``, the widgets' ``lang=LANG``) is set by the
  build, never copied by hand.
* Prose is written once per language, side by side: every ``lang=zh`` Markdown cell is
  followed by its ``lang=en`` cell, so both editions have the same cells in the same order.

The Traditional Chinese edition is written to ``notebooks/NN-name.ipynb``, the English one
to ``notebooks/en/NN-name.ipynb``, each in a single language, with stable cell ids, and
executed top to bottom in a fresh kernel (outputs stored, as nbval needs them).

    .venv/bin/python notebooks/build.py                 # every source, both editions
    .venv/bin/python notebooks/build.py 01-card-values  # one lesson
    .venv/bin/python notebooks/build.py --lang en       # one edition
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
import os
import re
import sys
import uuid
from pathlib import Path

HERE = Path(__file__).resolve().parent
SRC = HERE / "src"
EDITIONS = {"zh": HERE, "en": HERE / "en"}
_HEADER = re.compile(r"^# %%(?P<md> \[markdown\])?(?: lang=(?P<lang>[a-z]+))?(?: tags=(?P<tags>\[.*\]))?\s*$")
_EDITION_LANG = re.compile(r"\bEDITION_LANG\b")


class SourceError(ValueError):
    """A lesson source whose cells do not make two editions of the same lesson."""


def parse_source(text: str) -> list[dict[str, object]]:
    """The cells of a percent-format source: ``{"cell_type", "source", "tags", "lang"}``
    (``lang`` is ``None`` for a code cell, ``"zh"`` or ``"en"`` for Markdown)."""
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
            current = {"cell_type": "markdown" if m.group("md") else "code", "tags": tags,
                       "lang": m.group("lang")}
            lines = []
        elif current is not None:
            lines.append(raw)
    close()
    return cells


def edition_cells(cells: list[dict[str, object]], lang: str, where: str = "source") -> list[dict[str, object]]:
    """One edition's cells: the shared code cells (``EDITION_LANG`` replaced) and the prose
    in ``lang``. Raises :class:`SourceError` unless every Markdown cell is a zh cell followed
    by its en cell, and code cells carry no language."""
    if lang not in EDITIONS:
        raise SourceError(f"{where}: no edition {lang!r} (editions: {', '.join(EDITIONS)})")
    out: list[dict[str, object]] = []
    i = 0
    while i < len(cells):
        cell = cells[i]
        if cell["cell_type"] == "code":
            if cell["lang"]:
                raise SourceError(f"{where} cell {i + 1}: code is shared by both editions (no lang=)")
            out.append({**cell, "source": _EDITION_LANG.sub(json.dumps(lang), str(cell["source"]))})
            i += 1
            continue
        pair = cells[i:i + 2]
        if [c["lang"] for c in pair] != ["zh", "en"] or pair[1]["cell_type"] != "markdown":
            raise SourceError(f"{where} cell {i + 1}: a Markdown cell lang=zh must be followed by "
                              "its lang=en cell")
        if not str(pair[1]["source"]).strip():
            raise SourceError(f"{where} cell {i + 2}: the lang=en cell is empty")
        out.append(pair[0] if lang == "zh" else pair[1])
        i += 2
    return out


def notebook_path(name: str, lang: str) -> Path:
    return EDITIONS[lang] / f"{name}.ipynb"


def make_notebook(name: str, lang: str = "zh"):  # -> nbformat.NotebookNode
    import nbformat

    cells = edition_cells(parse_source((SRC / f"{name}.py").read_text(encoding="utf-8")), lang,
                          f"src/{name}.py")
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"display_name": "Python 3 (ipykernel)", "language": "python",
                                 "name": "python3"}
    nb.metadata["language_info"] = {"name": "python"}
    nb.metadata["baccarat_kit_edition"] = {"lang": lang, "source": f"notebooks/src/{name}.py"}
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


def build(name: str, lang: str = "zh", execute: bool = True) -> Path:
    import nbformat

    nb = make_notebook(name, lang)
    out = notebook_path(name, lang)
    out.parent.mkdir(exist_ok=True)
    if execute:
        import tempfile

        # The stored outputs show the empty state: the kernel keeps its progress record in a
        # folder of its own (removed after), never the learner's (baccarat_kit/progress.py).
        before = os.environ.get("BACCARAT_KIT_PROGRESS")
        with tempfile.TemporaryDirectory(prefix="bk-build-progress-") as progress:
            os.environ["BACCARAT_KIT_PROGRESS"] = progress
            try:
                nb = _execute(nb, name, lang, out)
            finally:
                if before is None:
                    del os.environ["BACCARAT_KIT_PROGRESS"]
                else:
                    os.environ["BACCARAT_KIT_PROGRESS"] = before
        nb.metadata["language_info"] = {"name": "python"}
        final_progress_lines(nb)
    stable_widget_state(nb, name if lang == "zh" else f"{lang}/{name}")
    note_stored_views(nb, lang)
    nbformat.write(nb, out)
    return out


def _execute(nb, name: str, lang: str, out: Path):  # nb: nbformat.NotebookNode
    """Run ``nb`` in a new kernel (three tries: a kernel may lose its port to another process
    on a shared machine); returns the executed notebook."""
    from nbclient import NotebookClient

    for attempt in range(3):
        try:
            # No timings and no interpreter version in the stored notebook: the same on every machine.
            NotebookClient(nb, timeout=120, kernel_name="python3", record_timing=False,
                           resources={"metadata": {"path": str(out.parent)}}).execute()
            return nb
        except RuntimeError as err:
            if "Kernel died before replying" not in str(err) or attempt == 2:
                raise
            nb = make_notebook(name, lang)
    raise AssertionError("unreachable")


_OVERWRITTEN = re.compile(r"^.*\r(?=[^\n])", re.MULTILINE)


def final_progress_lines(nb) -> None:  # nb: nbformat.NotebookNode
    """Keep only what a progress line (``progress="text"``: ``\\r`` then a count) shows at the
    end: a cell's consecutive outputs of one stream are joined, then the text before each
    line's last carriage return is dropped, as a terminal, JupyterLab and nbval do. The
    count-only line has no times, so the stored text is the same everywhere.

    >>> import nbformat
    >>> nb = nbformat.v4.new_notebook()
    >>> nb.cells.append(nbformat.v4.new_code_cell("x"))
    >>> nb.cells[0].outputs = [nbformat.v4.new_output("stream", name="stderr", text=t)
    ...                        for t in ("\\r1 / 2", "\\r2 / 2", "\\n")]
    >>> final_progress_lines(nb); [o.text for o in nb.cells[0].outputs]
    ['2 / 2\\n']
    """
    for cell in nb.cells:
        outputs = cell.get("outputs", [])
        if not any(o.get("output_type") == "stream" and "\r" in o.get("text", "") for o in outputs):
            continue
        joined: list = []
        for out in outputs:
            last = joined[-1] if joined else None
            if (out.get("output_type") == "stream" and last is not None
                    and last.get("output_type") == "stream" and last.get("name") == out.get("name")):
                last["text"] += out["text"]
            else:
                joined.append(out)
        for out in joined:
            if out.get("output_type") == "stream":
                out["text"] = _OVERWRITTEN.sub("", out["text"])
        cell["outputs"] = joined


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


def note_stored_views(nb, lang: str) -> None:  # nb: nbformat.NotebookNode
    """Say in each stored widget's title, in the edition's language, that it does not respond yet.

    A trusted notebook draws its widgets from this stored state before anything has run: they
    look live and do nothing. Only the stored copy carries the note (``bk-needs-run``); the
    widget a run makes has its title without it."""
    from baccarat_kit.widgets._common import note_html

    meta = nb.metadata.get("widgets", {}).get(_STATE)
    note = ('<div class="bk-needs-run" style="border:1px dashed #b26b00;padding:0.2em 0.5em;'
            f'margin:0.2em 0">{note_html("widgets.needs-run", lang, "bk-needs-run-text")}</div>')
    for model in (meta or {}).get("state", {}).values():
        state = model.get("state", {})
        if "bk-title" in state.get("_dom_classes", ()) and "bk-needs-run" not in state.get("value", ""):
            state["value"] = state.get("value", "") + note


def check(name: str, lang: str = "zh") -> list[str]:
    """Differences between a source and one edition's notebook cells (empty: they agree)."""
    import nbformat

    try:
        want = edition_cells(parse_source((SRC / f"{name}.py").read_text(encoding="utf-8")), lang,
                             f"src/{name}.py")
    except SourceError as err:
        return [str(err)]
    path = notebook_path(name, lang)
    if not path.exists():
        return [f"{path.relative_to(HERE)} is missing: run notebooks/build.py {name}"]
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
    parser.add_argument("--lang", choices=sorted(EDITIONS), action="append",
                        help="only this edition (default: both)")
    args = parser.parse_args(argv)
    names = args.names or sorted(p.stem for p in SRC.glob("*.py"))
    langs = args.lang or list(EDITIONS)
    if args.check:
        problems = [p for n in names for lang in langs for p in check(n, lang)]
        print("\n".join(problems) or "sources and notebooks agree")
        return 1 if problems else 0
    for name in names:
        for lang in langs:
            print(build(name, lang).relative_to(HERE.parent))
    return 0


if __name__ == "__main__":
    sys.exit(main())
