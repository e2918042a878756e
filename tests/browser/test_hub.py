"""A class on one machine (issues 21, 44): deploy/jupyterhub/jupyterhub_config.py as shipped, as root.

The hub runs over HTTPS (a certificate made here with openssl) on 127.0.0.1, with a Unix user
per learner. The instructor releases each learner's own class copies from a term secret and
hands them out (``release --class-list`` → ``hub hand-out``) before anyone has signed in. Two
learners sign in in headless Chromium with their own passwords, A on a 390 px phone, B at
1280 px: each lands in lesson 00 with the course's layout (side bars closed: A's lesson at least
300 px wide) and no news pop-up. From a kernel of A's server (through the hub, with a token A
made in the browser) the test measures what A's code can reach: not root; B's home not
listable, readable or writable; the instructor's sources, the clone, the learners' environment
and the hub's state out of reach; a memory limit that holds, and the next kernel says why the
process was killed, once; a CPU limit that holds A's busy loops to her share, read from the
kernel's own accounting. Signing in as B with A's password fails; the admin page is A's (the
instructor's, here) alone; B changes his own password. Each learner answers one
exercise of her class copies; collect → grade gives one row per learner and copy, the untouched
copies "not attempted" and no row flagged; return puts each page into its owner's feedback/. B's
lesson kernel, left idle in his open tab, is shut down by the server's culling.

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
from conftest import (
    ARTIFACTS,
    CHROMIUM,
    KERNEL_START_MS,
    SERVER_START_S,
    Server,
    free_port,
    require_browser,
)

REPO = Path(__file__).resolve().parents[2]
CONFIG = REPO / "deploy" / "jupyterhub" / "jupyterhub_config.py"
CHP = REPO / ".cache" / "npm" / "chp" / "node_modules" / ".bin" / "configurable-http-proxy"
LEARNERS = ("alice", "bruno")
MEM_LIMIT_MB = 600
CPU_LIMIT = 0.5  # the shipped default, cores per learner
KERNEL_IDLE_S = 30
MARK = "BKHUB-RESULT:"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
NEWS_PLUGIN = "@jupyterlab/apputils-extension:announcements"


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
            BACCARAT_HUB_KERNEL_IDLE_TIMEOUT=str(KERNEL_IDLE_S), BACCARAT_HUB_ADMINS=LEARNERS[0],
        )
        cmd = [sys.executable, "-m", "jupyterhub", "-f", str(CONFIG)]
        server = Server("JupyterHub", cmd, environ, state, state / "hub.log")
        context = ssl.create_default_context(cafile=str(cert))
        base = f"https://127.0.0.1:{port}"
        _wait_https(server, f"{base}/hub/api/", context)
        up = time.monotonic() - started - built
        yield {"hub_up_s": up, "base": base, "state": state, "top": top, "homes": top / "homes", "tag": tag,
               "passwords": passwords, "ssl": context, "server": server, "env_build_s": built,
               "class_list": class_list}
    finally:
        if server is not None:
            server.stop()
        for unix in made:  # only the users this run made (its own random prefix)
            accounts.remove(unix)
        shutil.rmtree(top, ignore_errors=True)


def _wait_https(server: Server, url: str, context: ssl.SSLContext, timeout: float = SERVER_START_S) -> None:
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


def _new_context(browser: Any, viewport: dict[str, int] = DESKTOP) -> Any:
    context = browser.new_context(viewport=viewport, locale="zh-TW", ignore_https_errors=True)
    context.route("**/*", lambda route: route.continue_()
                  if route.request.url.startswith(("https://127.0.0.1", "wss://127.0.0.1",
                                                   "data:", "blob:"))
                  else route.abort())
    return context


def sign_in(browser: Any, base: str, name: str, password: str,
            viewport: dict[str, int] = DESKTOP) -> tuple[Any, Any]:
    context = _new_context(browser, viewport)
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

    def run(self, code: str, timeout: float = KERNEL_START_MS / 1000) -> str:
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
                    elif kind in ("display_data", "execute_result"):
                        out.append(msg["content"]["data"].get("text/plain", "") + "\n")
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


CPU_PROBE = r"""
import json, os, signal, subprocess, sys, time
usage_file, stat_file = {usage!r}, {stat!r}

def usage():  # her whole cgroup's CPU time so far, in seconds (cgroup v1 cpuacct.usage, v2 usage_usec)
    text = open(usage_file).read()
    if usage_file.endswith("cpu.stat"):
        return int(dict(l.split() for l in text.splitlines())["usage_usec"]) / 1e6
    return int(text) / 1e9

def stat():
    return {{k: int(v) for k, v in (l.split() for l in open(stat_file).read().splitlines())}}

loops = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(2)]
try:
    t0 = time.monotonic(); u0, s0 = usage(), stat()
    while usage() - u0 < {cpu_seconds}:  # her loops have used this much CPU time, however long it took
        time.sleep(0.1)
    u1, s1 = usage(), stat(); t1 = time.monotonic()
    found = {{"used": u1 - u0, "wall": t1 - t0, "periods": s1["nr_periods"] - s0["nr_periods"],
              "throttled": s1["nr_throttled"] - s0["nr_throttled"],
              "cgroup": open(f"/proc/{{loops[0].pid}}/cgroup").read()}}
finally:
    for p in loops:
        p.kill()
print({mark!r} + json.dumps(found))
"""


def _answer(api: Server_API, exercise: str, answers: dict[str, str]) -> None:
    """Her answers typed into her own class copy (``NAME = ...`` lines), saved as JupyterLab saves."""
    nb = api.call("GET", f"contents/{exercise}")["content"]
    typed = 0
    for cell in nb["cells"]:
        src = "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
        for name, value in answers.items():
            src, n = re.subn(rf"^{name} = \.\.\.$", f"{name} = {value}", src, flags=re.M)
            typed += n
        cell["source"] = src
    assert typed == len(answers), f"{exercise}: {typed} of {answers} typed"
    api.call("PUT", f"contents/{exercise}", {"type": "notebook", "format": "json", "content": nb})


def test_learners_are_separate_users_and_their_work_round_trips(
        hub: dict[str, Any], browser: Any, tmp_path: Path) -> None:
    _need(None if Path(CHROMIUM).exists() else f"{CHROMIUM} not found")
    from playwright.sync_api import expect

    from baccarat_kit.cli import main
    from baccarat_kit.hub import accounts, limits

    base, tag, passwords, homes = hub["base"], hub["tag"], hub["passwords"], hub["homes"]
    timings: dict[str, float] = {"learners' env built": round(hub["env_build_s"], 1),
                                 "hub up": round(hub["hub_up_s"], 1)}
    clock = [time.monotonic()]

    def lap(what: str) -> None:
        now = time.monotonic()
        timings[what] = round(now - clock[0], 1)
        clock[0] = now
    first = course.Spec.load().first
    exercises = sorted(p for p in course.discover() if re.fullmatch(r"exercises/[^/]+\.ipynb", p))
    exercise = exercises[0]

    # The instructor, before anyone signed in: each learner's own class copies, from a term secret.
    key, handout = tmp_path / "term.key", tmp_path / "handout"
    assert main(["secret", "new", str(key)]) == 0
    assert main(["release", str(REPO / "exercises" / "source"), "--class-list", str(hub["class_list"]),
                 "--secret-file", str(key), "--out", str(handout)]) == 0
    assert main(["hub", "hand-out", str(handout), "--class-list", str(hub["class_list"]),
                 "--homes", str(homes), "--prefix", tag]) == 0
    for name in LEARNERS:
        mine = homes / accounts.unix_name(name, tag) / "exercises"
        assert sorted(p.name for p in mine.iterdir()) == sorted(Path(e).name for e in exercises)
    lap("release and hand-out")

    opened: list[tuple[str, Any, Any]] = []
    try:
        # Each learner signs in with their own password and lands in their own lesson 00 (both
        # servers start at once, as in a class): A on a phone, B on a desktop.
        for name, viewport in zip(LEARNERS, (PHONE, DESKTOP), strict=True):
            context, page = sign_in(browser, base, name, passwords[name], viewport)
            opened.append((name, context, page))
        for name, _, page in opened:
            expect(page).to_have_url(re.compile(rf"/user/{name}/lab/tree/course/{re.escape(first)}"),
                                     timeout=240_000)
            expect(page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-MarkdownOutput").first
                   ).to_be_visible(timeout=KERNEL_START_MS)
        lap("two learners signed in, JupyterLab and lesson 00 open")
        # The course's first layout, as `baccarat-kit lab` opens it: side bars closed. On A's
        # phone the lesson takes the width (it was 62 px beside the file browser).
        alice, bruno = LEARNERS
        phone = opened[0][2]
        phone.wait_for_function(  # the layout settles (the side bars are restored after the page loads)
            """min => { const p = document.querySelector('.jp-NotebookPanel:not(.lm-mod-hidden)');
                        return !!p && p.getBoundingClientRect().width >= min; }""", arg=300, timeout=KERNEL_START_MS)
        for name, _, page in opened[:2]:
            assert page.locator("#jp-left-stack").evaluate("e => e.getBoundingClientRect().width") == 0, name
            assert page.locator("#jp-right-stack").evaluate("e => e.getBoundingClientRect().width") == 0, name
            # No news pop-up: the plugin that asks is off in the page's own configuration ...
            config = json.loads(page.locator("#jupyter-config-data").text_content())
            assert NEWS_PLUGIN in config["disabledExtensions"], config["disabledExtensions"]
            # ... and no notification is shown once the lesson is open (it asks right after start).
            expect(page.locator(".Toastify__toast")).to_have_count(0)
        panel = phone.locator(".jp-NotebookPanel:not(.lm-mod-hidden)")
        assert panel.bounding_box()["width"] >= 300
        assert panel.locator(".jp-MarkdownOutput").first.bounding_box()["width"] >= 250  # its text (was 22 px)
        # B's lesson kernel (his tab stays open, connected) becomes idle here.
        expect(opened[1][2].locator(".jp-StatusBar-TextItem[title^='Change kernel']")).to_have_text(
            re.compile(r"\| Idle$"), timeout=KERNEL_START_MS)
        lap("layout checked")

        # Signing in as B with A's password fails (and so does a wrong name).
        for name, password in ((bruno, passwords[alice]), ("mallory", passwords[alice])):
            context, page = sign_in(browser, base, name, password)
            opened.append((f"{name}-refused", context, page))
            expect(page.locator("p.login_error")
                   ).to_contain_text(re.compile("Invalid", re.I))
            assert "/hub/login" in page.url
            assert not any(c["name"].startswith("jupyterhub-session") for c in context.cookies())

        lap("refused sign-ins")
        # The instructor's admin page (BACCARAT_HUB_ADMINS: A here) is hers, no one else's.
        assert opened[1][2].goto(f"{base}/hub/admin").status == 403
        assert opened[0][2].goto(f"{base}/hub/admin").status == 200
        expect(opened[0][2].locator("body")).to_contain_text(bruno)
        # B changes his own password (jupyterhub-nativeauthenticator's page): the handed-out one
        # stops working, his own signs him in.
        page, mine = opened[1][2], "bruno's own horse 7"
        page.goto(f"{base}/hub/change-password")
        page.locator("#old_password_input").fill(passwords[bruno])
        page.locator("#new_password_input").fill(mine)
        page.locator("#new_password_confirmation_input").fill(mine)
        page.locator("#signup_submit").click()
        expect(page.locator(".alert-success")).to_contain_text("changed successfully")
        for password, works in ((passwords[bruno], False), (mine, True)):
            context, page = sign_in(browser, base, bruno, password)
            opened.append((f"{bruno}-again", context, page))
            if works:
                expect(page).to_have_url(re.compile(rf"/user/{bruno}/lab"), timeout=KERNEL_START_MS)
            else:
                expect(page.locator("p.login_error")).to_contain_text(re.compile("Invalid", re.I))
        lap("admin page, a learner's own password")
        # From a kernel of A's own server: what A's code can reach.
        servers = {name: Server_API(base, name, make_token(page, base, name), hub["ssl"])
                   for name, _, page in opened[:2]}
        b_url = servers[bruno].run("import os; print(os.environ['JUPYTERHUB_SERVICE_URL'])").strip()
        assert b_url.startswith("http://127.0.0.1:"), b_url
        other_home = homes / accounts.unix_name(bruno, tag)
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
        # The limits: A's processes together live in A's cgroup; one that grows past the memory
        # limit is killed (SIGKILL by the cgroup's OOM killer), a small one is not.
        group = limits.find(accounts.unix_name(alice, tag))
        if group is not None:
            assert f"{limits.PARENT}/{accounts.unix_name(alice, tag)}" in seen["cgroup"], seen["cgroup"]
            assert group.memory_limit() == MEM_LIMIT_MB * 2**20
            assert seen["oom"] == -9 and seen["small"] == 0, seen
            assert group.oom_kills() >= 1
            # The next kernel she starts tells her why, once (both languages), and what to do.
            told = servers[alice].run("print('ran')")
            assert "記憶體上限 600 MiB" in told and "memory limit of 600 MiB" in told, told
            assert "Running Terminals and Kernels" in told and told.rstrip().endswith("ran"), told
            assert servers[alice].run("print('ran')").strip() == "ran"  # once
            lap("memory limit and its notice")

            # The CPU limit: two busy loops of hers together use her share, never more. Her loops
            # run until her cgroup has used 1 CPU-s, however long that takes on a busy machine.
            assert group.cpu_quota() == CPU_LIMIT
            usage = group.folders["cpuacct"] + "/cpuacct.usage" if group.version == 1 else group.folders["cpu"] + "/cpu.stat"
            out = servers[alice].run(CPU_PROBE.format(usage=usage, stat=group.folders["cpu"] + "/cpu.stat",
                                                      cpu_seconds=1.0, mark=MARK), timeout=900)
            [line] = [x for x in out.splitlines() if x.startswith(MARK)]
            cpu = json.loads(line[len(MARK):])
            print("CPU limit:", json.dumps(cpu))
            assert f"{limits.PARENT}/{accounts.unix_name(alice, tag)}" in cpu["cgroup"]
            period = limits.CFS_PERIOD_US / 1e6
            # the kernel's accounting: at most the quota in each period she ran in (one period of slack)
            assert cpu["used"] <= (cpu["periods"] + 1) * CPU_LIMIT * period * 1.05, cpu
            # so 1 CPU-s took at least 2 s of wall time: held to half a core (two free loops: 0.5 s)
            assert cpu["used"] <= CPU_LIMIT * cpu["wall"] + 2 * period, cpu
            lap("CPU limit")

        # Each learner answers the first exercise of her own class copies (A two questions, B
        # one); the other copies stay as they came.
        _answer(servers[alice], exercise, {"value_K": "0", "total_7_8": "6"})
        _answer(servers[bruno], exercise, {"value_K": "0"})
        lap("answers saved")

        # B's lesson kernel, idle in his open tab (connected), is shut down by the server's culling.
        deadline = time.monotonic() + 300
        while servers[bruno].call("GET", "kernels") and time.monotonic() < deadline:
            time.sleep(2)
        assert servers[bruno].call("GET", "kernels") == [], "an idle kernel was not culled"
        lap("idle kernel culled")
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
    for name in LEARNERS:
        copy = homes / accounts.unix_name(name, tag) / exercise
        assert copy.stat().st_uid == accounts.lookup(accounts.unix_name(name, tag)).pw_uid
    collected, graded = tmp_path / "collected", tmp_path / "graded"
    assert main(["collect", str(homes), "--glob", "exercises/*.ipynb", "--out",
                 str(collected), "--name", "term", "--hub-prefix", tag]) == 0
    assert main(["grade", str(collected / "term"), "--out", str(graded), "--source",
                 str(REPO / "exercises" / "source"), "--secret-file", str(key), "--no-progress"]) == 0
    lap("collect and grade")
    rows = json.loads((graded / "results.json").read_text(encoding="utf-8"))["submissions"]
    # her class copies only (never the self-study ones in ~/course): one row per learner and copy
    assert sorted((r["owner"], r["exercise"]) for r in rows) == sorted(
        (n, Path(e).stem) for n in LEARNERS for e in exercises), rows
    for row in rows:
        assert row["learner"] == row["owner"] and row["keys"] == "term", row
        assert Path(row["file"]).relative_to(collected / "term").parts[0] == row["owner"]
        assert row["warnings"] == [] and not row["identity_mismatch"], row  # no row flagged
        answered = row["exercise"] == Path(exercise).stem
        assert row["status"] == ("ok" if answered else "not_attempted"), row
    scores = {r["owner"]: r["score"] for r in rows if r["status"] == "ok"}
    assert scores == {alice: 1, bruno: 1}, scores  # value_K right; A's 7 + 8 = 6 wrong
    canvas = (graded / "canvas.csv").read_text(encoding="utf-8").splitlines()
    assert all(line.split(",")[6:] == [""] * (len(exercises) - 1) for line in canvas[2:]), canvas  # not attempted: blank
    assert main(["return", str(graded), "--to", str(homes), "--hub-prefix", tag]) == 0
    for row in rows:
        entry = accounts.lookup(accounts.unix_name(row["owner"], tag))
        assert entry is not None
        page = Path(entry.pw_dir) / "feedback" / Path(row["feedback"]).name.split("--", 1)[-1]
        assert page.stat().st_uid == entry.pw_uid
        assert page.read_bytes() == (graded / row["feedback"]).read_bytes()
    lap("return")
    print("hub test timings (s):", json.dumps(timings))
