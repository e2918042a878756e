"""A class on one machine (issue 21): deploy/jupyterhub/jupyterhub_config.py as shipped, as root.

The hub runs over HTTPS (a certificate made here with openssl) on 127.0.0.1, with a Unix user
per learner. Two learners sign in in headless Chromium with their own passwords; from a kernel
of A's server (through the hub, with a token A made in the browser) the test measures what A's
code can reach: not root; B's home not listable, readable or writable; the instructor's sources,
the clone, the learners' environment and the hub's state out of reach; a memory limit that holds.
Signing in as B with A's password fails. Then collect -> grade -> return round-trips both
learners' work, each under their own name, and A reads their feedback as their own file.

Test-made users are named ``bk<random>-alice`` (a fresh prefix per run, so two runs never share
or remove each other's users) and are removed, with their homes, cgroups and processes, by the
fixture's finalizer. Skipped (failed under REQUIRE_BROWSER=1) without root, useradd, node, the
proxy or Chromium.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import secrets
import shutil
import ssl
import subprocess
import sys
import tempfile
import time
import urllib.request
import uuid
from pathlib import Path
from typing import Any

import pytest

from baccarat_kit import course
from conftest import ARTIFACTS, CHROMIUM, Server, free_port, require_browser

REPO = Path(__file__).resolve().parents[2]
CONFIG = REPO / "deploy" / "jupyterhub" / "jupyterhub_config.py"
CHP = REPO / ".cache" / "npm" / "chp" / "node_modules" / ".bin" / "configurable-http-proxy"
LEARNERS = ("alice", "bruno")
MEM_LIMIT_MB = 600
MARK = "BKHUB-RESULT:"


def _need(reason: str | None) -> None:
    if reason:
        if require_browser():
            pytest.fail(reason)
        pytest.skip(reason)


def _certificate(folder: Path) -> tuple[Path, Path]:
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                    "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
                    "-keyout", str(key), "-out", str(cert)], check=True, capture_output=True)
    key.chmod(0o600)
    return cert, key


@pytest.fixture(scope="module")
def hub(tmp_path_factory: pytest.TempPathFactory) -> Any:
    _need(None if hasattr(os, "geteuid") and os.geteuid() == 0 else
          "a hub with a Unix user per learner needs root (useradd, setuid)")
    for tool in ("useradd", "userdel", "openssl", "node", "setpriv"):
        _need(None if shutil.which(tool) else f"{tool} not installed")
    _need(None if CHP.exists() else f"{CHP} missing: run `make hub-deps` (make test does)")
    from baccarat_kit.hub import accounts, classlist, env

    # Everything learners must reach (their environment, their homes) in a folder others can
    # search; the hub's state (database, cookie secret, class list) in pytest's 0700 tmp.
    top = Path(tempfile.mkdtemp(prefix="baccarat-hub-test-"))
    top.chmod(0o755)
    tag = f"bk{secrets.token_hex(4)}-"
    made = [accounts.unix_name(name, tag) for name in LEARNERS]
    server = None
    try:
        _need(None if env.reachable_by_others(top) else f"{top} cannot be reached by other users")
        started = time.monotonic()
        env.build(top)
        built = time.monotonic() - started
        state = tmp_path_factory.mktemp("hub-state")
        passwords = {name: classlist.generate_password() for name in LEARNERS}
        class_list = state / "classlist.csv"
        classlist.set_passwords(class_list, passwords)
        cert, key = _certificate(state)
        port = free_port()
        environ = {k: v for k, v in os.environ.items() if not k.startswith(("JUPYTER", "BACCARAT_HUB"))}
        environ.update(
            BACCARAT_HUB_PREFIX=str(top), BACCARAT_HUB_DIR=str(state),
            BACCARAT_HUB_HOMES=str(top / "homes"), BACCARAT_HUB_USER_PREFIX=tag,
            BACCARAT_HUB_MEM_LIMIT=f"{MEM_LIMIT_MB}M", BACCARAT_HUB_PORT=str(port),
            BACCARAT_HUB_API_PORT=str(free_port()), BACCARAT_HUB_PROXY_API_PORT=str(free_port()),
            BACCARAT_HUB_PROXY=str(CHP), BACCARAT_HUB_SSL_CERT=str(cert),
            BACCARAT_HUB_SSL_KEY=str(key), PYTHONUNBUFFERED="1",
        )
        cmd = [sys.executable, "-m", "jupyterhub", "-f", str(CONFIG)]
        server = Server("JupyterHub", cmd, environ, state, state / "hub.log")
        context = ssl.create_default_context(cafile=str(cert))
        base = f"https://127.0.0.1:{port}"
        _wait_https(server, f"{base}/hub/api/", context)
        up = time.monotonic() - started - built
        yield {"hub_up_s": up, "base": base, "state": state, "top": top, "homes": top / "homes", "tag": tag,
               "passwords": passwords, "ssl": context, "server": server, "env_build_s": built}
    finally:
        if server is not None:
            server.stop()
        for unix in made:  # only the users this run made (its own random prefix)
            accounts.remove(unix)
        shutil.rmtree(top, ignore_errors=True)


def _wait_https(server: Server, url: str, context: ssl.SSLContext, timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.proc.poll() is not None:
            raise RuntimeError(f"JupyterHub exited with {server.proc.returncode}:\n{server.log_tail()}")
        with contextlib.suppress(OSError):
            with urllib.request.urlopen(url, timeout=2, context=context) as response:
                if response.status == 200:
                    return
        time.sleep(0.2)
    raise RuntimeError(f"JupyterHub did not answer {url}:\n{server.log_tail()}")


def _new_context(browser: Any) -> Any:
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="zh-TW",
                                  ignore_https_errors=True)
    context.route("**/*", lambda route: route.continue_()
                  if route.request.url.startswith(("https://127.0.0.1", "wss://127.0.0.1",
                                                   "data:", "blob:"))
                  else route.abort())
    return context


def sign_in(browser: Any, base: str, name: str, password: str) -> tuple[Any, Any]:
    context = _new_context(browser)
    page = context.new_page()
    page.set_default_timeout(60_000)
    page.goto(f"{base}/hub/login")
    page.locator("#username_input").fill(name)
    page.locator("#password_input").fill(password)
    page.locator("#login_submit").click()
    return context, page


def make_token(page: Any, base: str, name: str) -> str:
    """A's own API token, requested from the hub's API in A's signed-in browser."""
    page.goto(f"{base}/hub/home")
    reply = page.evaluate(
        """async (name) => {
            const xsrf = (document.cookie.match(/(?:^|; )_xsrf=([^;]+)/) || [])[1] || '';
            const r = await fetch(`/hub/api/users/${name}/tokens`, {method: 'POST',
                credentials: 'same-origin', headers: {'Content-Type': 'application/json',
                'X-XSRFToken': decodeURIComponent(xsrf)}, body: JSON.stringify({note: 'test'})});
            return {status: r.status, body: await r.text()};
        }""", name)
    assert reply["status"] == 201, reply
    return str(json.loads(reply["body"])["token"])


class Server_API:
    """A learner's own server, reached through the hub with the learner's token."""

    def __init__(self, base: str, name: str, token: str, context: ssl.SSLContext):
        self.base, self.name, self.token, self.ssl = base, name, token, context

    def call(self, method: str, path: str, body: Any = None) -> Any:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(
            f"{self.base}/user/{self.name}/api/{path}", data=data, method=method,
            headers={"Authorization": f"token {self.token}", "Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=60, context=self.ssl) as response:
            raw = response.read()
        return json.loads(raw) if raw else None

    def _connect(self, connect: Any, url: str, attempts: int = 3) -> Any:
        """The kernel's websocket through the hub's TLS proxy. Its opening handshake is tried
        again (nothing has been sent yet): on a loaded machine one failed with an SSL "internal
        error" while the kernel was starting."""
        from websockets.exceptions import WebSocketException

        for attempt in range(attempts):
            try:
                return connect(url, additional_headers={"Authorization": f"token {self.token}"},
                               ssl=self.ssl, open_timeout=60, max_size=None)
            except (OSError, WebSocketException):  # (the handshake failed or the link closed)
                if attempt == attempts - 1:
                    raise
                time.sleep(2)
        raise AssertionError("unreachable")

    def run(self, code: str, timeout: float = 120) -> str:
        """Run ``code`` in a new kernel of this server; its stdout (a traceback fails)."""
        from websockets.sync.client import connect

        kernel = self.call("POST", "kernels", {"name": "python3"})["id"]
        url = f"{self.base.replace('https', 'wss')}/user/{self.name}/api/kernels/{kernel}/channels"
        msg_id, out = uuid.uuid4().hex, []
        try:
            with self._connect(connect, url) as ws:
                ws.send(json.dumps({
                    "header": {"msg_id": msg_id, "msg_type": "execute_request", "version": "5.3",
                               "session": uuid.uuid4().hex, "username": self.name, "date": ""},
                    "parent_header": {}, "metadata": {}, "channel": "shell", "buffers": [],
                    "content": {"code": code, "silent": False, "store_history": False,
                                "user_expressions": {}, "allow_stdin": False,
                                "stop_on_error": True}}))
                deadline = time.monotonic() + timeout
                while True:
                    msg = json.loads(ws.recv(timeout=max(1.0, deadline - time.monotonic())))
                    if msg.get("parent_header", {}).get("msg_id") != msg_id:
                        continue
                    kind = msg["msg_type"]
                    if kind == "stream":
                        out.append(msg["content"]["text"])
                    elif kind == "error":
                        raise AssertionError("\n".join(msg["content"]["traceback"]))
                    elif kind == "status" and msg["content"]["execution_state"] == "idle":
                        return "".join(out)
        finally:
            with contextlib.suppress(OSError):
                self.call("DELETE", f"kernels/{kernel}")


PROBE = r'''
import json, os, subprocess, sys
import baccarat_kit

def attempt(action):
    try:
        action()
        return "allowed"
    except OSError as err:
        return type(err).__name__

def write(path):
    with open(path, "w") as out:
        out.write("x")

def fetch(url):
    import urllib.error, urllib.request
    try:
        with urllib.request.urlopen(url, timeout=20) as reply:
            return f"HTTP {{reply.status}} " + reply.read(200).decode(errors="replace")
    except urllib.error.HTTPError as err:
        return f"HTTP {{err.code}}"
    except OSError as err:
        return type(err).__name__

other, repo, state = {other!r}, {repo!r}, {state!r}
first = {first!r}
source = sorted(os.path.join(repo, "exercises", "source", n) for n in {sources!r})[0]
kit = os.path.dirname(baccarat_kit.__file__)
home = os.path.expanduser("~")
found = {{
    "id": subprocess.run(["id"], capture_output=True, text=True).stdout.strip(),
    "uid": os.getuid(), "euid": os.geteuid(), "gid": os.getgid(), "groups": os.getgroups(),
    "home": home, "home_mode": oct(os.stat(home).st_mode & 0o777),
    "course_is_mine": os.stat(os.path.join(home, "course", first)).st_uid == os.getuid(),
    "list_other_home": attempt(lambda: os.listdir(other)),
    "read_other_course": attempt(lambda: open(os.path.join(other, "course", first)).read()),
    "write_other_home": attempt(lambda: write(os.path.join(other, "planted.txt"))),
    "list_sources": attempt(lambda: os.listdir(os.path.join(repo, "exercises", "source"))),
    "read_source": attempt(lambda: open(source).read()),
    "read_git": attempt(lambda: os.listdir(os.path.join(repo, ".git"))),
    "write_clone_kit": attempt(lambda: write(os.path.join(repo, "baccarat_kit", "planted.py"))),
    "write_kit": attempt(lambda: write(os.path.join(kit, "planted.py"))),
    "write_venv_bin": attempt(lambda: write(os.path.join(sys.prefix, "bin", "planted"))),
    "write_site_packages": attempt(lambda: write(os.path.join(os.path.dirname(kit), "planted.pth"))),
    "read_cookie_secret": attempt(lambda: open(os.path.join(state, "jupyterhub_cookie_secret")).read()),
    "read_class_list": attempt(lambda: open(os.path.join(state, "classlist.csv")).read()),
    "read_shadow": attempt(lambda: open("/etc/shadow").read()),
    "other_server_api": fetch({other_server!r} + "api/contents"),
    "cgroup": open("/proc/self/cgroup").read(),
    "oom": subprocess.run([sys.executable, "-c", "b = b'x' * ({mb} * 2**20)"]).returncode,
    "small": subprocess.run([sys.executable, "-c", "b = b'x' * (50 * 2**20)"]).returncode,
}}
print({mark!r} + json.dumps(found))
'''


def test_learners_are_separate_users_and_their_work_round_trips(
        hub: dict[str, Any], browser: Any, tmp_path: Path) -> None:
    _need(None if Path(CHROMIUM).exists() else f"{CHROMIUM} not found")
    from playwright.sync_api import expect

    from baccarat_kit.hub import accounts

    base, tag, passwords = hub["base"], hub["tag"], hub["passwords"]
    timings: dict[str, float] = {"learners' env built": round(hub["env_build_s"], 1),
                                 "hub up": round(hub["hub_up_s"], 1)}
    clock = [time.monotonic()]

    def lap(what: str) -> None:
        now = time.monotonic()
        timings[what] = round(now - clock[0], 1)
        clock[0] = now
    first = course.Spec.load().first
    exercise = sorted(p for p in course.discover() if re.fullmatch(r"exercises/[^/]+\.ipynb", p))[0]
    opened: list[tuple[str, Any, Any]] = []
    try:
        # Each learner signs in with their own password and lands in their own lesson 00 (both
        # servers start at once, as in a class).
        for name in LEARNERS:
            context, page = sign_in(browser, base, name, passwords[name])
            opened.append((name, context, page))
        for name, _, page in opened:
            expect(page).to_have_url(re.compile(rf"/user/{name}/lab/tree/{re.escape(first)}"), timeout=240_000)
            expect(page.locator(".jp-StatusBar-TextItem[title^='Change kernel']")).to_have_text(
                re.compile(r"\| Idle$"), timeout=120_000)
        lap("two learners signed in, JupyterLab and lesson 00's kernel up")

        # Signing in as B with A's password fails (and so does a wrong name).
        alice, bruno = LEARNERS
        for name, password in ((bruno, passwords[alice]), ("mallory", passwords[alice])):
            context, page = sign_in(browser, base, name, password)
            opened.append((f"{name}-refused", context, page))
            expect(page.locator("p.login_error")
                   ).to_contain_text(re.compile("Invalid", re.I), timeout=30_000)
            assert "/hub/login" in page.url
            assert not any(c["name"].startswith("jupyterhub-session") for c in context.cookies())

        lap("refused sign-ins")
        # From a kernel of A's own server: what A's code can reach.
        servers = {name: Server_API(base, name, make_token(page, base, name), hub["ssl"])
                   for name, _, page in opened[:2]}
        b_url = servers[bruno].run("import os; print(os.environ['JUPYTERHUB_SERVICE_URL'])").strip()
        assert b_url.startswith("http://127.0.0.1:"), b_url
        other_home = hub["homes"] / accounts.unix_name(bruno, tag)
        code = PROBE.format(other=str(other_home), repo=str(REPO), state=str(hub["state"]),
                            other_server=b_url,
                            first=first, mb=MEM_LIMIT_MB + 300, mark=MARK,
                            sources=sorted(p.name for p in (REPO / "exercises" / "source").glob("*.ipynb")))
        out = servers[alice].run(code)
        [line] = [x for x in out.splitlines() if x.startswith(MARK)]
        seen = json.loads(line[len(MARK):])
        lap("probes in A's kernel (and B's server address from B's)")
        me = accounts.lookup(accounts.unix_name(alice, tag))
        assert me is not None
        assert seen["uid"] == seen["euid"] == me.pw_uid != 0, seen["id"]
        assert f"({accounts.unix_name(alice, tag)})" in seen["id"] and "root" not in seen["id"]
        assert 0 not in seen["groups"] and seen["gid"] != 0
        assert seen["home_mode"] == "0o700" and seen["course_is_mine"]
        for probe in ("list_other_home", "read_other_course", "write_other_home", "list_sources",
                      "read_source", "read_git", "write_clone_kit", "write_kit", "write_venv_bin",
                      "write_site_packages", "read_cookie_secret", "read_class_list", "read_shadow"):
            assert seen[probe] == "PermissionError", (probe, seen[probe])
        assert not (other_home / "planted.txt").exists()
        # B's server listens on loopback, where A can connect, but answers nothing without
        # B's own token or cookie.
        assert seen["other_server_api"] == "HTTP 403", seen["other_server_api"]
        # The memory limit: A's processes together live in A's cgroup; one that grows past the
        # limit is killed (SIGKILL by the cgroup's OOM killer), a small one is not.
        from baccarat_kit.hub import limits

        version, folders = limits.folders(accounts.unix_name(alice, tag))
        if version is not None and folders:
            assert f"{limits.PARENT}/{accounts.unix_name(alice, tag)}" in seen["cgroup"], seen["cgroup"]
            group = limits.Cgroup(version, folders)
            assert group.memory_limit() == MEM_LIMIT_MB * 2**20
            assert seen["oom"] == -9 and seen["small"] == 0, seen

        # Each learner answers the first exercise (as JupyterLab's save does) in their own copy.
        for name, api in servers.items():
            nb = api.call("GET", f"contents/{exercise}")["content"]
            typed = 0
            for cell in nb["cells"]:
                src = "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
                cell["source"], n = re.subn(r'LEARNER_ID = "[^"\n]*"', f'LEARNER_ID = "{name}"', src)
                typed += n
            assert typed == 1, f"{exercise}: no LEARNER_ID line to fill"  # (her copy says "self-study")
            api.call("PUT", f"contents/{exercise}", {"type": "notebook", "format": "json", "content": nb})
        lap("answers saved")
    except Exception:
        ARTIFACTS.mkdir(exist_ok=True)
        for name, _, page in opened:
            with contextlib.suppress(Exception):
                page.screenshot(path=str(ARTIFACTS / f"hub-{name}.png"), full_page=True)
        raise
    finally:
        for _, context, _ in opened:
            context.close()

    # The instructor (root): collect -> grade -> return, each file under its owner's name.
    homes = hub["homes"]
    for name in LEARNERS:
        copy = homes / accounts.unix_name(name, tag) / "course" / exercise
        assert copy.stat().st_uid == accounts.lookup(accounts.unix_name(name, tag)).pw_uid
    from baccarat_kit.cli import main

    collected, graded = tmp_path / "collected", tmp_path / "graded"
    assert main(["collect", str(homes), "--glob", f"course/{exercise}", "--out",
                 str(collected), "--name", "term", "--hub-prefix", tag]) == 0
    assert main(["grade", str(collected / "term"), "--out", str(graded), "--source",
                 str(REPO / "exercises" / "source"), "--no-progress"]) == 0
    lap("collect and grade")
    rows = json.loads((graded / "results.json").read_text(encoding="utf-8"))["submissions"]
    assert sorted(r["owner"] for r in rows) == sorted(LEARNERS), rows
    for row in rows:
        assert row["learner"] == row["owner"] and row["status"] == "ok", row
        assert Path(row["file"]).relative_to(collected / "term").parts[0] == row["owner"]
    assert main(["return", str(graded), "--to", str(homes), "--hub-prefix", tag]) == 0
    for row in rows:
        entry = accounts.lookup(accounts.unix_name(row["owner"], tag))
        assert entry is not None
        [page] = (Path(entry.pw_dir) / "feedback").glob("*.html")
        assert page.stat().st_uid == entry.pw_uid
        assert page.read_bytes() == (graded / row["feedback"]).read_bytes()
    lap("return")
    print("hub test timings (s):", json.dumps(timings))
