"""Build the zero-install edition: a JupyterLite site whose Python kernel starts with no CDN.

``make lite`` runs this; the site lands in ``lite/_output/`` (serve it with any static web
server, e.g. ``python -m http.server -d lite/_output``). Everything a learner's browser loads
comes from the site itself:

1. **Pyodide** — the npm package ``pyodide`` at the version the installed
   ``jupyterlite-pyodide-kernel`` was built for (``npm pack``, cached in ``.cache/npm/``).
   The npm package is the Pyodide *core*: interpreter, standard library and a lock file that
   names ~350 packages but ships none of their wheels.
2. **Wheels** — every package the kernel loads at start (micropip, IPython and its
   dependencies, jedi, comm) and what the course needs (ipywidgets, the kit itself) as
   pure-Python wheels: from PyPI (``pip download``, cached in ``.cache/pypi/``), from the kernel
   extension (its ``pyodide_kernel``/``piplite``/``ipykernel`` shims) and the kit's own wheel
   (built here). They sit beside Pyodide and are entered in the site's copy of
   ``pyodide-lock.json`` with their own file names and hashes, and preloaded
   (``loadPyodideOptions.packages`` in ``jupyter-lite.json``), so the kernel never asks PyPI or a
   CDN for anything; ``disablePyPIFallback`` is on.
3. **The course** — the same files and code as ``baccarat-kit course`` (lessons, learner copies
   of the exercises, the trainer; never ``exercises/source/``). numpy and matplotlib have no
   pure-Python wheel, so they cannot be served this way: each notebook is run once here
   (CPython, numpy and matplotlib blocked) and every cell that then fails becomes a markdown
   cell showing its code and the result the full edition stored (Run All runs all the rest:
   the Pyodide kernel would drop every cell queued after an error); the lesson opens with a
   note saying which parts need the full edition.

Run: ``python lite/build.py [--output lite/_output]``.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.metadata
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
CACHE = REPO / ".cache"
sys.path.insert(0, str(REPO))

from baccarat_kit import course  # noqa: E402

# What the kernel imports at start (see the pyodide-kernel worker: micropip, piplite, then
# ipykernel comm pyodide-kernel jedi ipython) and what the course imports: one list, the
# preload list of jupyter-lite.json (loadPyodideOptions.packages), so the site ships exactly
# what the kernel loads. (It listed fsrs here but not there: the wheel was served, never
# loaded, and the drill's first answer raised ModuleNotFoundError in the kernel.)
# tests/test_lite_preload.py checks it covers every package the widgets import.
PRELOAD: list[str] = json.loads((HERE / "jupyter-lite.json").read_text(encoding="utf-8"))[
    "jupyter-config-data"]["litePluginSettings"]["@jupyterlite/pyodide-kernel-extension:kernel"][
    "loadPyodideOptions"]["packages"]
# Installed here, served as the same versions to the browser (widget front end = kernel side).
FROM_ENVIRONMENT = ["ipywidgets", "jupyterlab_widgets", "comm", "fsrs"]  # fsrs: the drill's scheduler
LITE_KERNEL = {"name": "python", "display_name": "Python (Pyodide)", "language": "python"}

NOTE_TOP = {
    "zh": "**瀏覽器版（JupyterLite）說明**：這一課有 {n} 個儲存格需要 numpy 或 matplotlib"
          "（或用到它們的結果），瀏覽器版沒有這兩個套件。這些儲存格改成顯示程式碼和完整版"
          "算出的結果，不會執行；其他儲存格照常執行。要親手執行全部內容，請安裝完整版："
          "`pip install \"baccarat-kit[lab]\"` 然後 `baccarat-kit lab`。",
    "en": "**Browser edition (JupyterLite)**: {n} cells of this lesson need numpy or matplotlib "
          "(or a result of such a cell), which the browser edition does not have. They are "
          "shown here with their code and the result the full edition computed, not run; "
          "every other cell runs as usual. To run everything yourself, install the full "
          "edition: `pip install \"baccarat-kit[lab]\"` then `baccarat-kit lab`.",
}
NOTE_CELL = ("**完整版才能執行**（需要 numpy／matplotlib）· **Full edition only** (needs "
             "numpy/matplotlib): 以下是程式碼與完整版的結果 · the code and the full "
             "edition's result:")


def canon(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def run(cmd: list[str], **kw: object) -> None:
    print("+", " ".join(cmd), flush=True)
    subprocess.run(cmd, check=True, **kw)  # type: ignore[call-overload]


# --------------------------------------------------------------------------- Pyodide (npm)


def pyodide_core() -> Path:
    """The npm ``pyodide`` package (cached), unpacked; its version matches the kernel's."""
    from jupyterlite_pyodide_kernel.constants import PYODIDE_VERSION

    npm_cache = CACHE / "npm"
    npm_cache.mkdir(parents=True, exist_ok=True)
    tgz = npm_cache / f"pyodide-{PYODIDE_VERSION}.tgz"
    if not tgz.exists():
        run(["npm", "pack", f"pyodide@{PYODIDE_VERSION}", "--silent",
             "--pack-destination", str(npm_cache)])
    unpacked = CACHE / "lite" / f"pyodide-{PYODIDE_VERSION}"
    if not (unpacked / "pyodide.mjs").exists():
        shutil.rmtree(unpacked, ignore_errors=True)
        unpacked.mkdir(parents=True)
        with tarfile.open(tgz) as tf:
            for member in tf.getmembers():
                if member.isfile() and member.name.startswith("package/"):
                    member.name = member.name[len("package/"):]
                    tf.extract(member, unpacked, filter="data")
    return unpacked


# --------------------------------------------------------------------------- wheels


def pip_download(specs: list[str], python: str) -> dict[str, Path]:
    """Pure-Python wheels from PyPI (cached in .cache/pypi); ``{canonical name: wheel}``."""
    dest = CACHE / "pypi"
    dest.mkdir(parents=True, exist_ok=True)
    missing = []
    for spec in specs:
        name, _, version = spec.partition("==")
        if not list(dest.glob(f"{re.sub(r'[-.]+', '_', name)}-{version}-*.whl"),
                    ) and not list(dest.glob(f"{name}-{version}-*.whl")):
            missing.append(spec)
    if missing:
        run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps",
             "--only-binary=:all:", "--platform", "any", "--python-version", python,
             "--dest", str(dest), *missing])
    found: dict[str, Path] = {}
    for spec in specs:
        name, _, version = spec.partition("==")
        hits = [p for p in dest.glob("*.whl")
                if canon(p.name.split("-")[0]) == canon(name) and p.name.split("-")[1] == version]
        if not hits:
            raise SystemExit(f"no pure-Python wheel of {spec} on PyPI: it cannot be served offline")
        found[canon(name)] = hits[0]
    return found


def wheel_requires(wheel: Path) -> list[str]:
    """Names a wheel requires (no extras; environment markers of CPython-only parts dropped)."""
    with zipfile.ZipFile(wheel) as zf:
        meta = next(n for n in zf.namelist() if n.endswith(".dist-info/METADATA"))
        text = zf.read(meta).decode("utf-8")
    names = []
    for line in re.findall(r"^Requires-Dist: (.+)$", text, re.M):
        req, _, marker = line.partition(";")
        if "extra" in marker or "sys_platform == \"win32\"" in marker:
            continue
        names.append(canon(re.match(r"[A-Za-z0-9_.-]+", req.strip()).group(0)))  # type: ignore[union-attr]
    return names


def wheel_imports(wheel: Path) -> list[str]:
    with zipfile.ZipFile(wheel) as zf:
        tops = {n.split("/")[0] for n in zf.namelist() if "/" in n}
    return sorted(t for t in tops if not t.endswith((".dist-info", ".data")))


def kit_wheel() -> Path:
    out = CACHE / "lite" / "kit-wheel"
    shutil.rmtree(out, ignore_errors=True)
    run([sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", str(out),
         str(REPO)], stdout=subprocess.DEVNULL)
    return next(out.glob("*.whl"))


def vendor(site_pyodide: Path) -> list[str]:
    """Put every wheel the kernel and the course need beside Pyodide; patch its lock file."""
    from jupyterlite_pyodide_kernel.constants import PYODIDE_PYTHON_VERSION

    lock_path = site_pyodide / "pyodide-lock.json"
    lock = json.loads(lock_path.read_text(encoding="utf-8"))
    packages = lock["packages"]
    ext = Path(sys.prefix) / "share/jupyter/labextensions/@jupyterlite/pyodide-kernel-extension"
    local: dict[str, Path] = {canon(p.name.split("-")[0]): p
                              for p in sorted((ext / "static" / "pypi").glob("*.whl"))}
    # The kernel extension's shims (ipykernel, piplite, pyodide-kernel, widgetsnbextension 4).
    local["widgetsnbextension"] = next((ext / "static" / "pypi").glob("widgetsnbextension-4*.whl"))
    local["baccarat-kit"] = kit_wheel()
    pinned = {canon(n): importlib.metadata.version(n) for n in FROM_ENVIRONMENT}
    local.update(pip_download([f"{n}=={v}" for n, v in pinned.items()], PYODIDE_PYTHON_VERSION))

    todo, seen, from_pypi = list(PRELOAD), set(), {}
    entries: dict[str, dict[str, object]] = {}
    while todo:
        name = canon(todo.pop())
        if name in seen:
            continue
        seen.add(name)
        if name in local:
            wheel = local[name]
            depends = wheel_requires(wheel)
        elif name in packages and packages[name]["file_name"].endswith("none-any.whl"):
            entry = packages[name]
            from_pypi[name] = f"{name}=={entry['version']}"
            depends = [canon(d) for d in entry.get("depends", [])]
            wheel = None
        elif name in packages:
            raise SystemExit(f"{name} has no pure-Python wheel ({packages[name]['file_name']}): "
                             "it cannot be served without the Pyodide CDN")
        else:
            raise SystemExit(f"{name} is needed by the kernel but unknown to Pyodide and PyPI")
        entries[name] = {"wheel": wheel, "depends": depends}
        todo.extend(depends)
    for name, wheel in pip_download(sorted(from_pypi.values()), PYODIDE_PYTHON_VERSION).items():
        entries[name]["wheel"] = wheel

    for name, info in sorted(entries.items()):
        wheel = info["wheel"]
        assert isinstance(wheel, Path)
        shutil.copy2(wheel, site_pyodide / wheel.name)
        version = wheel.name.split("-")[1]
        old = packages.get(name, {})
        packages[name] = {
            **old,
            "name": name,
            "version": version,
            "file_name": wheel.name,
            "install_dir": "site",
            "sha256": sha256(wheel),
            "package_type": "package",
            "imports": old.get("imports") or wheel_imports(wheel),
            "depends": [canon(d) for d in info["depends"]],  # type: ignore[union-attr]
            "unvendored_tests": False,
        }
    lock_path.write_text(json.dumps(lock, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return sorted(entries)


# --------------------------------------------------------------------------- the course


# Run first in the kernel: numpy and matplotlib behave as if not installed (as in Pyodide core).
BLOCK = """\
import importlib.abc, sys
class _NotInThisEdition(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in ("numpy", "matplotlib"):
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None
sys.meta_path.insert(0, _NotInThisEdition())
for _name in [m for m in sys.modules if m.partition(".")[0] in ("numpy", "matplotlib")]:
    del sys.modules[_name]
"""


# Run in a plain Python process per notebook, no Jupyter kernel (so no ports to lose: a kernel's
# TCP ports once went to another process on a loaded machine, "ZMQError: Address already in
# use"): each code cell goes through IPython's own InteractiveShell.run_cell, as the grader's
# runner does. argv: the notebook; stdout's last line: the indices (in nb["cells"]) that failed.
CELL_RUNNER = """\
import json, os, sys
nb_path = sys.argv[1]
os.chdir(os.path.dirname(nb_path))
from IPython.core.interactiveshell import InteractiveShell
from traitlets.config import Config
config = Config()
config.HistoryManager.enabled = False
config.InteractiveShell.colors = "NoColor"
shell = InteractiveShell.instance(config=config)
shell.user_ns["__name__"] = "__main__"
shell.run_cell(BLOCK, store_history=False)
with open(nb_path, encoding="utf-8") as fh:
    cells = json.load(fh)["cells"]
failed, real = [], sys.stdout
with open(os.devnull, "w") as quiet:
    for index, cell in enumerate(cells):
        if cell["cell_type"] == "code":
            sys.stdout = quiet
            try:
                result = shell.run_cell("".join(cell["source"]), store_history=True)
            finally:
                sys.stdout = real
            if not result.success:
                failed.append(index)
print(json.dumps(failed))
"""
CELL_TIMEOUT = 600
"""Seconds one notebook may take in :func:`blocked_cells` (all its cells together)."""


def blocked_cells(nb_path: Path) -> list[int]:
    """Indices of the cells of ``nb_path`` that fail when numpy and matplotlib cannot be imported.

    The notebook runs from its own folder in a fresh ``python`` with IPython and no kernel."""
    import tempfile

    with tempfile.TemporaryDirectory(prefix="bk-lite-") as ipython_dir:
        done = subprocess.run([sys.executable, "-c", f"BLOCK = {BLOCK!r}\n" + CELL_RUNNER, str(nb_path)],
                              capture_output=True, text=True, timeout=CELL_TIMEOUT,
                              env={**os.environ, "IPYTHONDIR": ipython_dir, "MPLBACKEND": "agg"})
    lines = done.stdout.strip().splitlines()
    if done.returncode != 0 or not lines:
        raise RuntimeError(f"{nb_path.name}: the run to find the cells needing numpy/matplotlib "
                           f"failed (exit {done.returncode}): {done.stderr.strip()[-2000:]}")
    return [int(i) for i in json.loads(lines[-1])]


def library_hash() -> str:
    digest = hashlib.sha256()
    for path in sorted((REPO / "baccarat_kit").rglob("*")):
        if path.is_file() and path.suffix in {".py", ".toml"}:
            digest.update(path.relative_to(REPO).as_posix().encode() + path.read_bytes())
    return digest.hexdigest()


def full_edition_only(cell: dict[str, Any]) -> dict[str, Any]:
    """A cell the browser edition cannot run, as a markdown cell showing its code and the
    result the full edition stored (text, tables, pictures): the lesson still teaches it,
    and Run All runs every other cell."""
    code = cell["source"] if isinstance(cell["source"], str) else "".join(cell["source"])
    parts = [NOTE_CELL, "", "```python", code.rstrip(), "```"]
    for out in cell.get("outputs", []):
        data = out.get("data", {})
        text = out.get("text") or data.get("text/plain")
        if out.get("output_type") == "error":
            continue
        if "image/png" in data:
            png = data["image/png"]
            png = png if isinstance(png, str) else "".join(png)
            parts += ["", f"![](data:image/png;base64,{png.strip()})"]
        elif "text/html" in data:
            html = data["text/html"]
            parts += ["", html if isinstance(html, str) else "".join(html)]
        elif text and "application/vnd.jupyter.widget-view+json" not in data:
            parts += ["", "```text", (text if isinstance(text, str) else "".join(text)).rstrip(),
                      "```"]
    return {"cell_type": "markdown", "id": cell.get("id", "cell") + "-full-edition",
            "metadata": {"tags": ["full-edition-only"]}, "source": "\n".join(parts)}


def lite_edition(nb_path: Path, failed: set[int]) -> int:
    """The browser edition of one notebook: the Pyodide kernel, and every cell that needs
    numpy/matplotlib (``failed``: :func:`blocked_cells`, or a result of such a cell) shown, not
    run. Returns how many."""
    nb = json.loads(nb_path.read_text(encoding="utf-8"))
    nb["metadata"]["kernelspec"] = dict(LITE_KERNEL)
    nb["cells"] = [full_edition_only(cell) if index in failed else cell
                   for index, cell in enumerate(nb["cells"])]
    if failed:
        top = "\n\n".join(NOTE_TOP[lang].format(n=len(failed)) for lang in ("zh", "en"))
        at = 1 if nb["cells"] and nb["cells"][0]["cell_type"] == "markdown" else 0
        nb["cells"].insert(at, {"cell_type": "markdown", "id": "lite-note",
                                "metadata": {"tags": ["full-edition-only"]}, "source": top})
    nb_path.write_text(json.dumps(nb, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return len(failed)


def all_blocked_cells(notebooks: list[Path]) -> dict[Path, set[int]]:
    """:func:`blocked_cells` of each notebook, two at a time, cached in ``.cache/lite`` by the
    notebook's and the library's content (a second ``make lite`` runs nothing)."""
    from concurrent.futures import ThreadPoolExecutor

    cache_file = CACHE / "lite" / "blocked-cells.json"
    cache = json.loads(cache_file.read_text()) if cache_file.exists() else {}
    library = library_hash().encode()
    keys = {nb: hashlib.sha256(nb.read_bytes() + library).hexdigest() for nb in notebooks}
    missing = sorted({key: nb for nb, key in keys.items() if key not in cache}.items())
    with ThreadPoolExecutor(max_workers=2) as pool:
        for (key, _), failed in zip(missing, pool.map(blocked_cells, [nb for _, nb in missing]), strict=True):
            cache[key] = failed
    if missing:
        cache_file.parent.mkdir(parents=True, exist_ok=True)
        cache_file.write_text(json.dumps(cache, indent=1, sort_keys=True) + "\n")
    return {nb: set(cache[key]) for nb, key in keys.items()}


def course_contents(dest: Path) -> dict[str, int]:
    shutil.rmtree(dest, ignore_errors=True)
    report = course.install(dest, root=course.repository_root())
    (dest / course.MANIFEST).unlink()
    notebooks = {rel: dest / rel for rel in report.written if rel.endswith(".ipynb")}
    blocked = all_blocked_cells(list(notebooks.values()))
    return {rel: lite_edition(path, blocked[path]) for rel, path in notebooks.items()}


# --------------------------------------------------------------------------- the site


def build(output: Path) -> None:
    src = CACHE / "lite" / "site-src"
    shutil.rmtree(src, ignore_errors=True)
    src.mkdir(parents=True)
    for name in ("jupyter_lite_config.json", "jupyter-lite.json"):
        shutil.copy2(HERE / name, src / name)
    site_pyodide = src / "static" / "pyodide"
    shutil.copytree(pyodide_core(), site_pyodide)
    vendored = vendor(site_pyodide)
    marked = course_contents(src / "course")
    shutil.rmtree(output, ignore_errors=True)
    run([sys.executable, "-m", "jupyterlite_core", "build", "--lite-dir", str(src),
         "--contents", str(src / "course"), "--output-dir", str(output)], cwd=src)
    config = json.loads((output / "jupyter-lite.json").read_text(encoding="utf-8"))
    pyodide_settings = config["jupyter-config-data"]["litePluginSettings"][
        "@jupyterlite/pyodide-kernel-extension:kernel"]
    assert pyodide_settings["pyodideUrl"].startswith("./"), pyodide_settings
    (output / "baccarat-kit-lite.json").write_text(json.dumps({
        "vendored": vendored,
        "needs_full_edition": {k: v for k, v in marked.items() if v},
        "first": course.Spec.load().first,
    }, indent=1) + "\n", encoding="utf-8")
    print(f"JupyterLite site: {output} ({len(vendored)} wheels vendored; cells needing "
          f"numpy/matplotlib: {sum(marked.values())})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--output", type=Path, default=HERE / "_output")
    build(parser.parse_args().output.resolve())


if __name__ == "__main__":
    main()
