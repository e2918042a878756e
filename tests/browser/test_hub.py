"""A JupyterHub class on loopback (issue 14): deploy/jupyterhub/jupyterhub_config.py as shipped.

JupyterHub with its proxy (configurable-http-proxy from npm, ``make hub-deps``), the
DummyAuthenticator and local-process spawner; two learners sign in in headless Chromium (no
network but loopback). Each gets their own course copy at first login, sees only it, runs
lesson 00 and saves an answer; then the instructor gathers both learners' exercise files.
The files are gathered with ``baccarat-kit collect`` (the class workflow's command). Takes about 1.5–2.5 min on a loaded machine.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest

from baccarat_kit import course
from conftest import ARTIFACTS, CHROMIUM, Server, free_port, require_browser

REPO = Path(__file__).resolve().parents[2]
CONFIG = REPO / "deploy" / "jupyterhub" / "jupyterhub_config.py"
CHP = REPO / ".cache" / "npm" / "chp" / "node_modules" / ".bin" / "configurable-http-proxy"
LEARNERS = ("alice", "bob")


def _need(reason: str | None) -> None:
    if reason:
        if require_browser():
            pytest.fail(reason)
        pytest.skip(reason)


@pytest.fixture(scope="module")
def hub(tmp_path_factory: pytest.TempPathFactory) -> Any:
    _need(None if CHP.exists() else f"{CHP} missing: run `make hub-deps` (make test does)")
    _need(None if shutil.which("node") else "node not installed (Debian: apt-get install nodejs)")
    data = tmp_path_factory.mktemp("hub")
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("JUPYTER", "BACCARAT_HUB"))}
    env.update(
        BACCARAT_HUB_DIR=str(data), BACCARAT_HUB_PORT=str(port),
        BACCARAT_HUB_API_PORT=str(free_port()), BACCARAT_HUB_PROXY_API_PORT=str(free_port()),
        BACCARAT_HUB_PROXY=str(CHP), PYTHONUNBUFFERED="1",
    )
    cmd = [sys.executable, "-m", "jupyterhub", "-f", str(CONFIG)]
    server = Server("JupyterHub", cmd, env, data, data / "hub.log")
    try:
        server.wait_http(f"http://127.0.0.1:{port}/hub/api/", timeout=120)
        yield {"base": f"http://127.0.0.1:{port}", "data": data, "server": server}
    finally:
        server.stop()


def login_and_run_lesson_00(browser: Any, base: str, name: str) -> Any:
    from playwright.sync_api import expect

    context = browser.new_context(viewport={"width": 1280, "height": 1000}, locale="zh-TW")
    context.route("**/*", lambda route: route.continue_()
                  if route.request.url.startswith(("http://127.0.0.1", "ws://127.0.0.1",
                                                   "data:", "blob:"))
                  else route.abort())
    page = context.new_page()
    page.set_default_timeout(60_000)
    page.goto(f"{base}/hub/login")
    page.locator("#username_input").fill(name)
    page.locator("#password_input").fill("class-password")
    page.locator("#login_submit").click()
    first = course.Spec.load().first
    page.wait_for_url(re.compile(rf"/user/{name}/lab/tree/{re.escape(first)}"), timeout=150_000)
    status = page.locator(".jp-StatusBar-TextItem[title^='Change kernel']")
    expect(status).to_have_text(re.compile(r"\| Idle$"), timeout=120_000)
    page.locator(".lm-MenuBar-itemLabel", has_text=re.compile(r"^Run$")).click()
    page.locator(".lm-Menu-itemLabel", has_text=re.compile(r"^Run All Cells$")).click()
    page.wait_for_function(
        """() => {
            const p = [...document.querySelectorAll(
                '.jp-NotebookPanel:not(.lm-mod-hidden) .jp-CodeCell .jp-InputPrompt')]
                .map(x => x.textContent.trim());
            return p.length > 0 && p.every(t => /^\\[\\d+\\]:$/.test(t));
        }""", timeout=180_000)
    errors = page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-OutputArea-output"
                          "[data-mime-type='application/vnd.jupyter.stderr']")
    assert errors.count() == 0, errors.all_inner_texts()
    return context, page


def api(page: Any, method: str, path: str, body: Any = None) -> Any:
    """Call the learner's own server from their page (their cookie, their XSRF token)."""
    return page.evaluate(
        """async ([method, path, body]) => {
            const xsrf = (document.cookie.match(/(?:^|; )_xsrf=([^;]+)/) || [])[1] || '';
            const r = await fetch(path, {method, credentials: 'same-origin',
                headers: {'Content-Type': 'application/json', 'X-XSRFToken': decodeURIComponent(xsrf)},
                body: body === null ? undefined : JSON.stringify(body)});
            return {status: r.status, body: await r.text()};
        }""", [method, path, body])


def test_two_learners_each_get_their_own_course_and_work_is_gathered(
        hub: dict[str, Any], browser: Any, tmp_path: Path) -> None:
    _need(None if Path(CHROMIUM).exists() else f"{CHROMIUM} not found")

    base, data = hub["base"], hub["data"]
    exercise = sorted(p for p in course.discover() if p.startswith("exercises/"))[0]
    # The session's Chromium (tests/browser/conftest.py), one context per learner.
    opened = []
    try:
        for name in LEARNERS:
            context, page = login_and_run_lesson_00(browser, base, name)
            opened.append((name, context, page))
            # Only their own copy: the course's folders, no instructor source.
            root = api(page, "GET", f"/user/{name}/api/contents")
            assert root["status"] == 200
            names = {item["name"] for item in json.loads(root["body"])["content"]}
            assert names == {rel.split("/")[0] for rel in course.discover()}, names
            listing = json.loads(api(page, "GET", f"/user/{name}/api/contents/exercises")["body"])
            assert "source" not in {item["name"] for item in listing["content"]}
            # A learner saves an answer (as JupyterLab's save does, through the API).
            nb = json.loads(api(page, "GET", f"/user/{name}/api/contents/{exercise}")["body"])
            nb["content"]["metadata"]["answered_by"] = name
            saved = api(page, "PUT", f"/user/{name}/api/contents/{exercise}",
                        {"type": "notebook", "format": "json", "content": nb["content"]})
            assert saved["status"] == 200, saved
        # Neither can reach the other's server.
        alice_page, bob = opened[0][2], LEARNERS[1]
        other = api(alice_page, "GET", f"/user/{bob}/api/contents")
        assert other["status"] in (403, 404) or '"content"' not in other["body"], other
    except Exception:
        ARTIFACTS.mkdir(exist_ok=True)
        for name, _, page in opened:
            with contextlib.suppress(Exception):
                page.screenshot(path=str(ARTIFACTS / f"hub-{name}.png"), full_page=True)
        raise
    finally:
        for _, context, _ in opened:
            context.close()

    # Each home holds its own copy, made by the course code (manifest present).
    for name in LEARNERS:
        copy = data / "homes" / name / "course"
        assert (copy / course.MANIFEST).is_file()
        assert not (copy / "exercises" / "source").exists()

    # The instructor gathers the exercise files with the class workflow's collect command.
    from baccarat_kit.grading.term.collect import collect

    done = collect(data / "homes", tmp_path / "collected", pattern="course/exercises/*.ipynb", name="hub")
    found = {f.relative_to(done.folder).parts[0] for f in map(Path, done.files)} if done.files else set()
    assert found == set(LEARNERS), done
    name = exercise.split("/")[-1]
    for learner in LEARNERS:
        [path] = (done.folder / learner).rglob(name)
        nb = json.loads(path.read_text(encoding="utf-8"))
        assert nb["metadata"]["answered_by"] == learner
