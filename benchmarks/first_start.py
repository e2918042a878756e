"""How long `make lab` takes on a fresh clone until the first lesson is open (issue 10).

    python benchmarks/first_start.py [--repo .] [--no-uv] [--no-browser]

Clones the repository's committed state into a temporary folder, runs `make lab` there (with
JupyterLab on a free loopback port, no browser of its own) and reports, in seconds from the
start of `make lab`: when the server answers with lesson 00, and (with Chromium) when the
lesson is open in a browser with its kernel idle. `--no-uv` forces the plain-pip path
(`make NO_UV=1`) for the before/after comparison. The clone is removed afterwards.
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

FIRST = "notebooks/00-how-to-use.ipynb"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repo", type=Path, default=Path(__file__).resolve().parents[1])
    parser.add_argument("--no-uv", action="store_true")
    parser.add_argument("--no-browser", action="store_true")
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="bk-first-start-"))
    clone = tmp / "clone"
    subprocess.run(["git", "clone", "--quiet", str(args.repo), str(clone)], check=True)
    port, token = free_port(), secrets.token_hex(8)
    lab_args = (f"--no-browser --ip=127.0.0.1 --port={port} --port-retries=0 "
                f"--IdentityProvider.token={token}")
    cmd = ["make", "lab", f"LAB_ARGS={lab_args}"] + (["NO_UV=1"] if args.no_uv else [])
    env = {**os.environ, "JUPYTER_CONFIG_DIR": str(tmp / "jcfg"),
           "JUPYTER_RUNTIME_DIR": str(tmp / "jrun"), "JUPYTERLAB_WORKSPACES_DIR": str(tmp / "ws")}
    env.pop("VIRTUAL_ENV", None)
    log = (tmp / "make.log").open("wb")
    start = time.monotonic()
    proc = subprocess.Popen(cmd, cwd=clone, env=env, stdout=log, stderr=subprocess.STDOUT,
                            start_new_session=True)
    served = opened = None
    try:
        url = f"http://127.0.0.1:{port}/api/contents/{FIRST}?content=0&token={token}"
        while served is None:
            if proc.poll() is not None:
                raise SystemExit((tmp / "make.log").read_text()[-3000:])
            with contextlib.suppress(OSError):
                with urllib.request.urlopen(url, timeout=2) as r:
                    if r.status == 200:
                        served = time.monotonic() - start
            time.sleep(0.2)
        print(f"lesson served by JupyterLab: {served:.1f} s", flush=True)
        if not args.no_browser and Path("/usr/bin/chromium").exists():
            from playwright.sync_api import expect, sync_playwright

            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=[
                    "--no-sandbox", "--disable-gpu", "--no-first-run"])
                page = browser.new_page()
                page.goto(f"http://127.0.0.1:{port}/?token={token}")  # → default_url: lesson 00
                page.locator(".jp-NotebookPanel .jp-Cell").first.wait_for(timeout=120_000)
                print(f"lesson rendered in Chromium: {time.monotonic() - start:.1f} s",
                      flush=True)
                status = page.locator(".jp-StatusBar-TextItem[title^='Change kernel']")
                expect(status).to_have_text(re.compile(r"\| Idle$"), timeout=120_000)
                opened = time.monotonic() - start
                browser.close()
            print(f"lesson open in Chromium, kernel idle: {opened:.1f} s")
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGTERM)
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(timeout=15)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        log.close()
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
