"""Browser tests: JupyterLab and Voilà in Debian's headless Chromium, driven by Playwright.

Every test here carries the ``browser`` marker. Where no Chromium is found (:func:`find_chromium`:
``$BACCARAT_KIT_CHROMIUM``, else ``chromium`` and the like on PATH, else ``/usr/bin/chromium``),
or the Playwright package, JupyterLab or Voilà is missing, they are skipped with the reason shown
in pytest's summary; with ``REQUIRE_BROWSER=1`` (set by ``.ci/run``) such a skip is a failure.

One JupyterLab server serves the whole session, on loopback, with a random free port, a
random token and every Jupyter/IPython/matplotlib folder in a temporary directory. It runs in
its own process group and is stopped by that group. Each test opens its own copy of a notebook
and shuts its kernel down afterwards. The JupyterLab tests share one page with JupyterLab
running (:func:`lab_page`) and open their notebooks from inside it; after a test that fails, or
one whose documents or dialogs cannot be closed, the next one starts in a new page. On failure a
full-page screenshot is saved to ``test-artifacts/``.

``BK_SCREENSHOTS=DIR`` makes the tests also save the screenshots a learner sees (the widget
after the interaction) into DIR; ``tests/browser/take_screenshots.py`` uses it for
``docs/screenshots/``.
"""

from __future__ import annotations

import contextlib
import importlib.util
import json
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ENV_CHROMIUM = "BACCARAT_KIT_CHROMIUM"
CHROMIUM_NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
DEFAULT_CHROMIUM = "/usr/bin/chromium"


def find_chromium() -> str | None:
    """The Chromium to drive: ``$BACCARAT_KIT_CHROMIUM`` (a path or a name on PATH; when set, it
    alone is tried), else the first of :data:`CHROMIUM_NAMES` on PATH, else Debian's
    ``/usr/bin/chromium``; None when there is none."""
    named = os.environ.get(ENV_CHROMIUM, "").strip()
    candidates = [named] if named else [*CHROMIUM_NAMES, DEFAULT_CHROMIUM]
    for candidate in candidates:
        found = shutil.which(candidate)
        if found:
            return os.path.abspath(found)
    return None


def chromium_missing_reason() -> str:
    named = os.environ.get(ENV_CHROMIUM, "").strip()
    if named:
        return f"${ENV_CHROMIUM}={named!r} is not a program"
    return (f"no Chromium: none of {', '.join(CHROMIUM_NAMES)} on PATH nor {DEFAULT_CHROMIUM}; install it "
            f"(Debian: apt-get install -y chromium) or name it in ${ENV_CHROMIUM}")


_FOUND_CHROMIUM = find_chromium()
CHROMIUM = _FOUND_CHROMIUM or DEFAULT_CHROMIUM
"""The browser's path (when none is found, the default path, which then does not exist)."""
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
ARTIFACTS = REPO / "test-artifacts"
# How long a browser test waits for what it asserts. Each wait ends as soon as its condition
# holds, so these cost nothing in a passing run; they are set for a loaded machine (make test
# beside 4 CPU-bound processes on 2 cores gives each process a tenth of a core or less, when
# JupyterLab's page takes Chromium a few CPU-seconds to load), not for an idle one.
TIMEOUT_MS = 90_000
"""One step: a click, a key or a page's change, and the kernel's answer to it."""
KERNEL_START_MS = 300_000
"""A page (JupyterLab, Voila) and its kernel coming up, the notebook's first widgets drawn."""
RUN_ALL_MS = 300_000
SERVER_START_S = 300.0


def require_browser() -> bool:
    """Whether a skipped browser test must count as a failure (``REQUIRE_BROWSER=1``)."""
    return os.environ.get("REQUIRE_BROWSER", "").strip().lower() in {"1", "true", "yes", "on"}


ENV_AXE = "BACCARAT_KIT_AXE"
DEFAULT_AXE = REPO / ".cache" / "npm" / "axe" / "node_modules" / "axe-core" / "axe.min.js"


def axe_path() -> Path:
    """axe-core's script (``make axe-deps`` puts it in ``.cache/npm/axe``; ``$BACCARAT_KIT_AXE``
    names another)."""
    named = os.environ.get(ENV_AXE, "").strip()
    return Path(named) if named else DEFAULT_AXE


def axe_missing_reason() -> str | None:
    """Why the accessibility tests (those using the ``axe`` fixture) cannot run, or ``None``."""
    path = axe_path()
    if path.is_file():
        return None
    return (f"axe-core is not installed ({path} missing): run `make axe-deps` "
            "(npm install axe-core@4 into .cache/npm/axe)")


def missing_browser_parts() -> str | None:
    """Why the browser tests cannot run here, or ``None`` when everything is present."""
    if _FOUND_CHROMIUM is None:
        return chromium_missing_reason()
    for module, extra in (("playwright", "test"), ("jupyterlab", "lab"), ("voila", "lab")):
        if importlib.util.find_spec(module) is None:
            return f"Python package {module!r} not installed (pip install -e '.[{extra}]')"
    return None


# --------------------------------------------------------------------------- pytest hooks


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    reason = missing_browser_parts()
    for item in items:
        if HERE not in Path(str(item.path)).resolve().parents:
            continue
        item.add_marker(pytest.mark.browser)
        why = reason
        if why is None and "axe" in getattr(item, "fixturenames", ()):
            why = axe_missing_reason()  # skipped now, before a server or a browser starts
        if why is not None:
            item.add_marker(pytest.mark.skip(reason=f"browser tests skipped: {why}"))


_REPORTS = pytest.StashKey[dict[str, pytest.TestReport]]()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Iterator[None] | pytest.TestReport:
    report: pytest.TestReport = yield
    item.stash.setdefault(_REPORTS, {})[report.when] = report
    if report.failed and report.when == "call" and "lab_page" in getattr(item, "funcargs", {}):
        # now, before the teardowns close its notebooks (open_lab's first)
        screenshot(item.funcargs["lab_page"], item.nodeid)
    if report.skipped and require_browser() and item.get_closest_marker("browser"):
        longrepr = report.longrepr
        why = longrepr[2] if isinstance(longrepr, tuple) else str(longrepr)
        report.outcome = "failed"
        report.longrepr = f"REQUIRE_BROWSER=1, so a skipped browser test fails: {why}"
    return report


def screenshot(page: Any, nodeid: str) -> None:
    """A full-page screenshot of a failed test's page, in ``test-artifacts/``."""
    ARTIFACTS.mkdir(exist_ok=True)
    safe = re.sub(r"[^A-Za-z0-9_.-]+", "_", nodeid)
    with contextlib.suppress(Exception):
        page.screenshot(path=str(ARTIFACTS / f"{safe}.png"), full_page=True)


def _failed(item: pytest.Item) -> bool:
    reports = item.stash.get(_REPORTS, {})
    return any(r.failed for r in reports.values())


# --------------------------------------------------------------------------- servers


def free_port() -> int:
    """A TCP port on loopback that is free right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def isolated_env(home: Path) -> dict[str, str]:
    """The environment for a Jupyter server whose folders all live under ``home``.

    It also holds a ``python3`` kernelspec pointing at this interpreter, so the kernel is the
    test's own environment even where the machine has another ``python3`` kernelspec.
    """
    folders = {
        "JUPYTER_CONFIG_DIR": "config",
        "JUPYTER_DATA_DIR": "data",
        "JUPYTER_RUNTIME_DIR": "runtime",
        "JUPYTERLAB_SETTINGS_DIR": "lab-settings",
        "JUPYTERLAB_WORKSPACES_DIR": "lab-workspaces",
        "IPYTHONDIR": "ipython",
        "MPLCONFIGDIR": "matplotlib",
    }
    env = dict(os.environ)
    for var, name in folders.items():
        path = home / name
        path.mkdir(parents=True, exist_ok=True)
        env[var] = str(path)
    env["JUPYTER_PLATFORM_DIRS"] = "1"
    # Kernels keep the learner's progress record as a learner's would: in the course folder
    # (baccarat_kit/progress.py), else in this server's own home, never the real one.
    env.pop("BACCARAT_KIT_PROGRESS", None)
    env["HOME"] = str(home)
    env["PYTHONUNBUFFERED"] = "1"
    env.pop("JUPYTER_PATH", None)
    # The news / announcements pop-up would cover the notebook.
    labconfig = home / "config" / "labconfig"
    labconfig.mkdir(parents=True, exist_ok=True)
    (labconfig / "page_config.json").write_text(
        json.dumps({"disabledExtensions": {"@jupyterlab/apputils-extension:announcements": True}}),
        encoding="utf-8",
    )
    kernel = home / "data" / "kernels" / "python3"
    kernel.mkdir(parents=True, exist_ok=True)
    (kernel / "kernel.json").write_text(
        json.dumps({
            "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
            "display_name": "Python 3 (ipykernel)",
            "language": "python",
            "metadata": {"debugger": False},
        }),
        encoding="utf-8",
    )
    return env


class Server:
    """A Jupyter server (JupyterLab or Voilà) in its own process group."""

    def __init__(self, name: str, cmd: list[str], env: dict[str, str], cwd: Path, log: Path):
        self.name = name
        self.log = log
        self._log_file = log.open("wb")
        self.proc = subprocess.Popen(
            cmd, env=env, cwd=cwd, stdout=self._log_file, stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL, start_new_session=True,
        )

    def log_tail(self, lines: int = 40) -> str:
        text = self.log.read_text(encoding="utf-8", errors="replace")
        return "\n".join(text.splitlines()[-lines:])

    def wait_http(self, url: str, timeout: float = SERVER_START_S) -> None:
        """Wait until ``url`` answers 200; fail with the server's log if it dies or times out."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(
                    f"{self.name} exited with {self.proc.returncode}:\n{self.log_tail()}"
                )
            with contextlib.suppress(OSError):
                with urllib.request.urlopen(url, timeout=2) as response:
                    if response.status == 200:
                        return
            time.sleep(0.2)
        self.stop()
        raise RuntimeError(f"{self.name} did not answer {url} in {timeout:.0f} s:\n{self.log_tail()}")

    def stop(self) -> None:
        """Stop the whole process group (server and kernels): TERM, then KILL; then every
        process the server started in a session of its own (JupyterHub's proxy and services),
        found as its descendants before the TERM."""
        started = _descendants(self.proc.pid)
        if self.proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(timeout=10)
        # Kernels started by the server share its process group; make sure none is left.
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.proc.pid, signal.SIGKILL)
        for pid, since in started:  # the same process (its start time), not a reused pid
            if _start_time(pid) == since:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(pid, signal.SIGKILL)
        self._log_file.close()


def _start_time(pid: int) -> str | None:
    """Field 22 of /proc/PID/stat (when the process started), or None once it is gone."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return stat.rpartition(")")[2].split()[19]


def _descendants(root: int) -> list[tuple[int, str]]:
    """The processes below ``root`` (children, theirs, …), each with its start time."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError, IndexError, ValueError):
                ppid = int((entry / "stat").read_text().rpartition(")")[2].split()[1])
                children.setdefault(ppid, []).append(int(entry.name))
    found, todo = [], [root]
    while todo:
        for child in children.get(todo.pop(), []):
            since = _start_time(child)
            if since is not None:
                found.append((child, since))
                todo.append(child)
    return found


class Lab:
    """A running JupyterLab and the helpers a test needs to drive a notebook in it."""

    def __init__(self, server: Server, port: int, token: str, root: Path):
        self.server = server
        self.base = f"http://127.0.0.1:{port}"
        self.token = token
        self.root = root
        self.window: Any = None
        """The page the JupyterLab tests share (:func:`lab_page`), while it is open."""

    def add_notebook(self, source: Path | dict[str, Any], stem: str, *,
                     keep_outputs: bool = False) -> str:
        """Copy a notebook (a file or an nbformat dict) into the server's root under a unique
        name, without its stored outputs (so what the test sees is its own run) unless
        ``keep_outputs`` (a learner's first view of a lesson); return the name."""
        nb = json.loads(source.read_text(encoding="utf-8")) if isinstance(source, Path) else source
        nb = json.loads(json.dumps(nb))
        if not keep_outputs:
            nb.get("metadata", {}).pop("widgets", None)
            for cell in nb["cells"]:
                if cell["cell_type"] == "code":
                    cell["outputs"], cell["execution_count"] = [], None
        name = f"{re.sub(r'[^A-Za-z0-9_-]+', '-', stem)}-{uuid.uuid4().hex[:8]}.ipynb"
        (self.root / name).write_text(json.dumps(nb, ensure_ascii=False), encoding="utf-8")
        return name

    def add_course(self) -> str:
        """Copy the course as a learner has it (``notebooks/``, the learner copies in
        ``exercises/``, ``trainer/``) into a fresh folder of the server's root; return it."""
        folder = f"course-{uuid.uuid4().hex[:8]}"
        for sub, pattern in (("notebooks", "*.ipynb"), ("exercises", "*.ipynb"),
                             ("trainer", "*.ipynb")):
            (self.root / folder / sub).mkdir(parents=True)
            for path in sorted((REPO / sub).glob(pattern)):
                (self.root / folder / sub / path.name).write_bytes(path.read_bytes())
        return folder

    @staticmethod
    def _status(name: str) -> str:
        return f'.jp-StatusBar-TextItem[title="Change kernel for {name}"]'

    def open(self, page: Any, name: str) -> None:
        """Open a notebook and wait until its kernel is idle: in the running JupyterLab of the
        shared page (:func:`lab_page`, as a learner opens a file from the file browser), or by
        loading JupyterLab on it in any other page."""
        from playwright.sync_api import expect

        if page is self.window:
            page.evaluate(
                "async path => { await window.jupyterapp.commands.execute("
                "'docmanager:open', {path, factory: 'Notebook'}); }", name)
        else:
            page.goto(f"{self.base}/lab/tree/{name}?reset&token={self.token}")
        expect(page.locator(self._status(name.rsplit("/", 1)[-1]))).to_have_text(
            re.compile(r"\| Idle$"), timeout=KERNEL_START_MS)

    def load_window(self, page: Any) -> None:
        """Load JupyterLab, with no document open, in ``page``, which becomes :attr:`window`."""
        page.goto(f"{self.base}/lab?reset&token={self.token}")
        page.wait_for_function("() => !!window.jupyterapp", timeout=KERNEL_START_MS)
        page.evaluate("async () => { await window.jupyterapp.restored; }")
        self.window = page

    def close_documents(self, page: Any, name: str | None = None) -> bool:
        """Close the shared page's documents (``name``: that notebook's tabs only), changes
        discarded, and dismiss any dialog; whether no document and no dialog is left. (The
        Launcher, which JupyterLab shows in an empty main area, may stay.)"""
        return bool(page.evaluate(
            """async path => {
                const documents = () => Array.from(window.jupyterapp.shell.widgets('main'))
                    .filter(w => w.context && (path === null || w.context.path === path));
                for (const w of documents()) {
                    w.context.model.dirty = false;
                    w.dispose();
                }
                document.querySelectorAll('.jp-Dialog .jp-mod-reject').forEach(b => b.click());
                await new Promise(r => setTimeout(r, 0));
                return documents().length === 0 && !document.querySelector('.jp-Dialog');
            }""", name))

    def run_all(self, page: Any, name: str) -> None:
        """Run > Run All Cells, then wait until every code cell has an execution count.

        If the run stops early (a cell raised), fail with the error output shown.
        """
        page.locator(".lm-MenuBar-itemLabel", has_text=re.compile(r"^Run$")).click()
        page.locator(".lm-Menu-itemLabel", has_text=re.compile(r"^Run All Cells$")).click()
        state = page.wait_for_function(
            """sel => {
                const prompts = [...document.querySelectorAll(
                    '.jp-NotebookPanel:not(.lm-mod-hidden) .jp-Notebook .jp-CodeCell .jp-InputPrompt'
                )].map(p => p.textContent.trim());
                const numbered = prompts.filter(p => /^\\[\\d+\\]:$/.test(p));
                if (prompts.length > 0 && numbered.length === prompts.length) return 'done';
                const status = document.querySelector(sel);
                const idle = !!status && /\\| Idle$/.test(status.textContent.trim());
                const busy = prompts.some(p => p.includes('*'));
                return idle && !busy && numbered.length > 0 ? 'stopped' : false;
            }""",
            arg=self._status(name),
            timeout=RUN_ALL_MS,
        ).json_value()
        if state != "done":
            errors = page.locator(
                '.jp-OutputArea-output[data-mime-type="application/vnd.jupyter.stderr"]'
            ).all_inner_texts()
            raise AssertionError(f"Run All Cells stopped early in {name}:\n" + "\n".join(errors))

    def api(self, method: str, path: str) -> Any:
        request = urllib.request.Request(
            f"{self.base}{path}", method=method,
            headers={"Authorization": f"token {self.token}"},
        )
        with urllib.request.urlopen(request, timeout=TIMEOUT_MS / 1000) as response:  # (deleting a session waits for its kernel)
            body = response.read()
        return json.loads(body) if body else None

    def shutdown(self, name: str | None = None) -> None:
        """Delete the notebook's session (``None``: every session), so its kernel does not
        outlive the page, after closing its tab in the shared page (a notebook left open would
        find its kernel gone)."""
        if self.window is not None:
            with contextlib.suppress(Exception):
                self.close_documents(self.window, name)
        for session in self.api("GET", "/api/sessions"):
            if name is None or name in (session.get("path"), session.get("notebook", {}).get("path")):
                with contextlib.suppress(urllib.error.URLError):
                    self.api("DELETE", f"/api/sessions/{session['id']}")


@pytest.fixture(scope="session")
def lab(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Lab]:
    """One JupyterLab for the whole session (loopback, random port and token)."""
    home = tmp_path_factory.mktemp("lab-home")
    root = tmp_path_factory.mktemp("lab-root")
    port, token = free_port(), secrets.token_hex(16)
    cmd = [
        sys.executable, "-m", "jupyterlab", "--no-browser", "--ip", "127.0.0.1",
        "--port", str(port), "--port-retries=0", f"--IdentityProvider.token={token}",
        f"--ServerApp.root_dir={root}", "--allow-root",
        "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
        "--FileContentsManager.delete_to_trash=False",
        "--LabApp.expose_app_in_browser=True",  # window.jupyterapp: lab_page opens notebooks in it
    ]
    server = Server("JupyterLab", cmd, isolated_env(home), root, home / "lab.log")
    try:
        server.wait_http(f"http://127.0.0.1:{port}/api/status?token={token}")
        yield Lab(server, port, token, root)
    finally:
        server.stop()


@contextlib.contextmanager
def voila_server(notebook: Path, home: Path) -> Iterator[str]:
    """Serve one notebook with Voilà on loopback; yield its URL."""
    port = free_port()
    cmd = [
        sys.executable, "-m", "voila", str(notebook), "--no-browser",
        f"--port={port}", "--Voila.ip=127.0.0.1",
    ]
    server = Server("Voilà", cmd, isolated_env(home), notebook.parent, home / "voila.log")
    try:
        url = f"http://127.0.0.1:{port}/"
        server.wait_http(url)
        yield url
    finally:
        server.stop()


@pytest.fixture(scope="session")
def voila(tmp_path_factory: pytest.TempPathFactory):
    """A function that serves a notebook with Voilà: ``with voila(path) as url: …``."""

    def start(notebook: Path) -> contextlib.AbstractContextManager[str]:
        return voila_server(notebook, tmp_path_factory.mktemp("voila-home"))

    return start


# --------------------------------------------------------------------------- browser


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """Debian's Chromium, headless, launched by Playwright (never ``playwright install``)."""
    from playwright.sync_api import expect, sync_playwright

    # Playwright's expect() waits 5 s unless told (a page's default timeout is not its own); on a
    # loaded machine (the browser tests run beside graded batches, nbval and Dask) a JupyterLab
    # step can take longer. A passing assertion returns as soon as it holds.
    expect.set_options(timeout=TIMEOUT_MS)
    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


def _only_loopback(route: Any) -> None:
    url = route.request.url
    if url.startswith(("http://127.0.0.1", "ws://127.0.0.1", "data:", "blob:", "about:")):
        route.continue_()
    else:
        route.abort()


@pytest.fixture
def page(browser: Any, request: pytest.FixtureRequest) -> Iterator[Any]:
    """A fresh page (own context) that may only reach loopback; screenshot on failure."""
    context = browser.new_context(viewport={"width": 1280, "height": 1000}, locale="zh-TW")
    context.route("**/*", _only_loopback)
    pg = context.new_page()
    pg.set_default_timeout(TIMEOUT_MS)
    try:
        yield pg
    finally:
        if _failed(request.node):
            screenshot(pg, request.node.nodeid)
        context.close()


@pytest.fixture(scope="session")
def _lab_window(lab: Lab, browser: Any) -> Iterator[None]:
    """Closes the shared page (:attr:`Lab.window`, made by :func:`lab_page`) at the session's end."""
    yield
    if lab.window is not None:
        lab.window.context.close()
        lab.window = None


@pytest.fixture
def lab_page(lab: Lab, browser: Any, _lab_window: None, request: pytest.FixtureRequest) -> Iterator[Any]:
    """A page with JupyterLab running and no document open, shared by the JupyterLab tests:
    :meth:`Lab.open` opens a notebook in it as a learner does, from inside JupyterLab. Loading
    JupyterLab costs Chromium a few CPU-s: once per session now, not once per test. After each
    test its documents are closed (changes discarded), its dialogs dismissed and the server's
    sessions deleted (their kernels shut down); after a failure, or when a document or a dialog
    stays, the next test gets a new page (own context, loopback only). A failed test's
    screenshot is taken when it fails (:func:`pytest_runtest_makereport`), before its notebooks
    are closed."""
    if lab.window is None:
        context = browser.new_context(viewport={"width": 1280, "height": 1000}, locale="zh-TW")
        context.route("**/*", _only_loopback)
        pg = context.new_page()
        pg.set_default_timeout(TIMEOUT_MS)
        try:
            lab.load_window(pg)
        except Exception:
            screenshot(pg, request.node.nodeid)
            context.close()
            raise
    pg = lab.window
    clean = False
    try:
        yield pg
    finally:
        with contextlib.suppress(Exception):
            clean = lab.close_documents(pg)
        lab.shutdown()
        if _failed(request.node) or not clean:
            pg.context.close()
            lab.window = None


@pytest.fixture
def axe() -> Path:
    """The path of axe-core's script, injected into the pages the accessibility tests check.
    Without it (``make axe-deps``), those tests are skipped at collection, with that command
    named (with ``REQUIRE_BROWSER=1`` the skip is a failure)."""
    reason = axe_missing_reason()
    if reason is not None:
        if require_browser():
            pytest.fail(reason)
        pytest.skip(reason)
    return axe_path()


@pytest.fixture
def shot() -> Any:
    """``shot(locator, name)`` saves what the learner sees into ``$BK_SCREENSHOTS`` (if set)."""
    folder = os.environ.get("BK_SCREENSHOTS")

    def take(locator: Any, name: str) -> None:
        if folder:
            Path(folder).mkdir(parents=True, exist_ok=True)
            locator.screenshot(path=str(Path(folder) / f"{name}.png"), animations="disabled")

    return take


def notebook(*cells: str) -> dict[str, Any]:
    """An nbformat-4 notebook (as a dict) with these code cells and the ``python3`` kernel."""
    return {
        "nbformat": 4,
        "nbformat_minor": 5,
        "metadata": {
            "kernelspec": {"name": "python3", "display_name": "Python 3 (ipykernel)",
                           "language": "python"},
            "language_info": {"name": "python"},
        },
        "cells": [
            {"cell_type": "code", "id": f"cell-{i}", "metadata": {}, "source": src,
             "outputs": [], "execution_count": None}
            for i, src in enumerate(cells)
        ],
    }


@pytest.fixture
def make_notebook() -> Any:
    """``make_notebook(*cells)``: an nbformat dict with those code cells."""
    return notebook


@pytest.fixture
def open_unrun(lab: Lab, lab_page: Any, request: pytest.FixtureRequest) -> Any:
    """``open_unrun(path)``: copy a notebook with its stored outputs and widget state (as it
    is in the repository), open it and run nothing: what a learner sees first. (:func:`lab_page`
    closes it and shuts its kernel down after the test.)"""

    def run(source: Path) -> Any:
        lab.open(lab_page, lab.add_notebook(source, request.node.name, keep_outputs=True))
        return lab_page

    return run


@pytest.fixture
def open_lab(lab: Lab, lab_page: Any, request: pytest.FixtureRequest) -> Any:
    """``open_lab(source)``: copy a notebook (a file or an nbformat dict) into the server, open
    it and run all its cells. (:func:`lab_page` closes it and shuts its kernel down after the
    test.)"""

    def run(source: Path | dict[str, Any]) -> Any:
        name = lab.add_notebook(source, request.node.name)
        lab.open(lab_page, name)
        lab.run_all(lab_page, name)
        return lab_page

    return run
