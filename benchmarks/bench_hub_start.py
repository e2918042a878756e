"""Nothing → the first learner working on the one-machine hub (issue 44), timed step by step.

    .venv/bin/python benchmarks/bench_hub_start.py [--keep-proxy]      # as root, after `make venv`

The instructor's steps of deploy/jupyterhub/README.md, as written, in this clone:

1. ``make hub-setup HUB_PREFIX=<new folder>``: the proxy (configurable-http-proxy from npm into
   .cache/, removed first unless ``--keep-proxy``) and the learners' environment;
2. ``baccarat-kit hub passwd LIST alice``: one learner, her password printed;
3. ``make hub``: the hub (HTTP on a free loopback port here), until its API answers;
4. in Chromium, she signs in: her account, her course copy, her JupyterLab, lesson 00 open and
   its kernel idle.

Prints each step's seconds, the total and the machine's load average before and after (the
target: at most 3 minutes). Her account (a random prefix), its home and the new folder are
removed afterwards. Packages come from uv's cache as `make venv` left it.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keep-proxy", action="store_true", help="keep .cache/npm/chp (no npm install)")
    args = parser.parse_args()
    if os.geteuid() != 0:
        sys.exit("run as root: the hub makes a Unix user per learner")
    from baccarat_kit.hub import accounts

    top = Path(tempfile.mkdtemp(prefix="bk-hub-bench-"))
    top.chmod(0o755)
    tag, port = f"bk{secrets.token_hex(3)}-", free_port()
    steps: dict[str, float] = {}
    load_before = os.getloadavg()
    hub = None
    try:
        if not args.keep_proxy:
            shutil.rmtree(REPO / ".cache" / "npm" / "chp", ignore_errors=True)
        t = time.monotonic()
        subprocess.run(["make", "-s", "hub-setup", f"HUB_PREFIX={top}"], cwd=REPO, check=True,
                       stdout=subprocess.DEVNULL)
        steps["make hub-setup (proxy and learners' environment)"] = time.monotonic() - t

        t = time.monotonic()
        class_list = top / "state" / "classlist.csv"
        out = subprocess.run([str(REPO / ".venv" / "bin" / "baccarat-kit"), "hub", "passwd", str(class_list),
                              "alice"], check=True, capture_output=True, text=True).stdout
        password = out.split()[-1]
        steps["hub passwd alice"] = time.monotonic() - t

        t = time.monotonic()
        env = {**os.environ, "BACCARAT_HUB_PORT": str(port), "BACCARAT_HUB_API_PORT": str(free_port()),
               "BACCARAT_HUB_PROXY_API_PORT": str(free_port()), "BACCARAT_HUB_HOMES": str(top / "homes"),
               "BACCARAT_HUB_USER_PREFIX": tag}
        log = (top / "hub.log").open("wb")
        hub = subprocess.Popen(["make", "-s", "hub", f"HUB_PREFIX={top}"], cwd=REPO, env=env, stdout=log,
                               stderr=subprocess.STDOUT, start_new_session=True)
        base = f"http://127.0.0.1:{port}"
        while True:
            if hub.poll() is not None:
                sys.exit(f"the hub exited: see {top / 'hub.log'}")
            with contextlib.suppress(OSError):
                with urllib.request.urlopen(f"{base}/hub/api/", timeout=2):
                    break
            time.sleep(0.2)
        steps["make hub (until its API answers)"] = time.monotonic() - t

        t = time.monotonic()
        from playwright.sync_api import expect, sync_playwright

        chromium = os.environ.get("BACCARAT_KIT_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            page.goto(f"{base}/hub/login")
            page.locator("#username_input").fill("alice")
            page.locator("#password_input").fill(password)
            page.locator("#login_submit").click()
            expect(page).to_have_url(re.compile(r"/user/alice/lab/tree/course/"), timeout=600_000)
            expect(page.locator(".jp-StatusBar-TextItem[title^='Change kernel']")).to_have_text(
                re.compile(r"\| Idle$"), timeout=600_000)
            browser.close()
        steps["she signs in: her server, JupyterLab, lesson 00's kernel idle"] = time.monotonic() - t
    finally:
        if hub is not None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(hub.pid, signal.SIGTERM)
            hub.wait(timeout=60)
        accounts.remove(accounts.unix_name("alice", tag))
        shutil.rmtree(top, ignore_errors=True)
    width = max(len(k) for k in steps)
    for what, seconds in steps.items():
        print(f"{what:<{width}}  {seconds:6.1f} s")
    print(f"{'total':<{width}}  {sum(steps.values()):6.1f} s   (target 180 s)")
    print(f"load average before {load_before[0]:.1f}, after {os.getloadavg()[0]:.1f} (2 cores here)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
