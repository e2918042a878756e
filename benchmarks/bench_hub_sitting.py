"""The whole course in one sitting inside one learner's memory limit, with and without culling.

    .venv/bin/python benchmarks/bench_hub_sitting.py [--dwell 40] [--idle 60] [--limit 1G]   # as root

A learner on the hub works through lessons 00–10 and three exercises in one sitting, each
notebook opened (a kernel of its own), run from top to bottom and left open (its kernel stays
connected, as a browser tab keeps it), then lesson 08 run again: the sitting of issue 44, where 14
kernels filled 908 MB of her 1 GiB and the re-run of lesson 08 was killed. Here her JupyterLab
(`baccarat-kit lab` on a fresh course copy: the same server and kernels as on the hub) runs in a
memory cgroup with her limit, made as the hub makes hers (`baccarat_kit.hub.limits`), twice:

* without culling (as before);
* with the hub's culling (`MappingKernelManager.cull_idle_timeout` with `cull_connected`).

Time is scaled: she stays `--dwell` seconds on each notebook after running it, and kernels idle
for `--idle` seconds are culled (checked every 10 s); the hub's 15 minutes against 10 minutes a
notebook keep the same ratio as the defaults 60 s against 40 s. Prints, for each run, the
cgroup's peak memory (`memory.max_usage_in_bytes` / `memory.peak`), the kernels left at the end,
and the processes the OOM killer ended.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
import uuid
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
SITTING = [*(f"notebooks/{n}" for n in sorted(p.name for p in (REPO / "notebooks").glob("[01][0-9]-*.ipynb"))),
           *(f"exercises/{n}" for n in sorted(p.name for p in (REPO / "exercises").glob("0[1-3]-*.ipynb")))]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Lab:
    def __init__(self, port: int, token: str) -> None:
        self.base, self.token, self.open = f"127.0.0.1:{port}", token, []

    def call(self, method: str, path: str, body: Any = None) -> Any:
        request = urllib.request.Request(f"http://{self.base}/api/{path}", method=method,
                                         data=None if body is None else json.dumps(body).encode(),
                                         headers={"Authorization": f"token {self.token}",
                                                  "Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=120) as reply:
            raw = reply.read()
        return json.loads(raw) if raw else None

    def run_notebook(self, path: str) -> None:
        """Open ``path`` (a session and its kernel, as JupyterLab does), run every code cell, and
        keep its channel open (a tab left open)."""
        from websockets.sync.client import connect

        kernel = self.call("POST", "sessions", {"path": path, "type": "notebook", "name": "",
                                                "kernel": {"name": "python3"}})["kernel"]["id"]
        ws = connect(f"ws://{self.base}/api/kernels/{kernel}/channels?token={self.token}", max_size=None,
                     open_timeout=120, ping_interval=None).__enter__()  # (closed at the end of the sitting)
        self.open.append(ws)
        cells = self.call("GET", f"contents/{path}")["content"]["cells"]
        for cell in cells:
            if cell["cell_type"] != "code":
                continue
            source = "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
            msg_id = uuid.uuid4().hex
            ws.send(json.dumps({"header": {"msg_id": msg_id, "msg_type": "execute_request", "version": "5.3",
                                           "session": uuid.uuid4().hex, "username": "bench", "date": ""},
                                "parent_header": {}, "metadata": {}, "channel": "shell", "buffers": [],
                                "content": {"code": source, "silent": False, "store_history": True,
                                            "user_expressions": {}, "allow_stdin": False, "stop_on_error": False}}))
            deadline = time.monotonic() + 600
            while time.monotonic() < deadline:
                try:
                    msg = json.loads(ws.recv(timeout=max(1.0, deadline - time.monotonic())))
                except Exception:  # the kernel died (killed for memory): go on, as she would
                    return
                if (msg.get("parent_header", {}).get("msg_id") == msg_id and msg["msg_type"] == "status"
                        and msg["content"]["execution_state"] == "idle"):
                    break

    def kernels(self) -> int:
        return len(self.call("GET", "kernels"))


def sitting(culling: bool, dwell: float, idle: int, limit: int) -> dict[str, Any]:
    from baccarat_kit.hub import limits

    tmp = Path(tempfile.mkdtemp(prefix="bk-sitting-"))
    name = f"bk-sitting-{secrets.token_hex(3)}"
    group = limits.make(name, limit, 512)
    if group is None:
        sys.exit("no writable memory cgroup here (run as root)")
    env = {**os.environ, "HOME": str(tmp), "JUPYTER_CONFIG_DIR": str(tmp / "cfg"), "JUPYTER_DATA_DIR": str(tmp / "data"),
           "JUPYTER_RUNTIME_DIR": str(tmp / "run"), "IPYTHONDIR": str(tmp / "ipy"), "MPLCONFIGDIR": str(tmp / "mpl"),
           "OPENBLAS_NUM_THREADS": "1"}
    port, token = free_port(), secrets.token_hex(8)
    cmd = [str(REPO / ".venv" / "bin" / "baccarat-kit"), "lab", str(tmp / "course"), "--port", str(port),
           "--no-browser", f"--IdentityProvider.token={token}"]
    if culling:
        cmd += [f"--MappingKernelManager.cull_idle_timeout={idle}", "--MappingKernelManager.cull_interval=10",
                "--MappingKernelManager.cull_connected=True"]
    log = (tmp / "lab.log").open("wb")
    proc = subprocess.Popen(cmd, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
                            preexec_fn=lambda: group.enter(os.getpid()))
    lab = Lab(port, token)
    started = time.monotonic()
    try:
        while True:
            with contextlib.suppress(OSError):
                lab.call("GET", "status")
                break
            if proc.poll() is not None:
                sys.exit(f"the server exited: {tmp / 'lab.log'}")
            time.sleep(0.5)
        for path in [*SITTING, "notebooks/08-odds-and-roads.ipynb"]:
            lab.run_notebook(path)
            time.sleep(dwell)
            print(f"  {path}: {lab.kernels()} kernels, {group.peak_bytes() / 2**20:.0f} MiB peak so far", flush=True)
        return {"culling": culling, "peak_mib": round(group.peak_bytes() / 2**20), "kernels_left": lab.kernels(),
                "oom_kills": group.oom_kills(), "minutes": round((time.monotonic() - started) / 60, 1)}
    finally:
        for ws in lab.open:
            with contextlib.suppress(Exception):
                ws.close()
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGTERM)
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(timeout=30)
        group.remove()
        shutil.rmtree(tmp, ignore_errors=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dwell", type=float, default=40.0, help="seconds on each notebook after running it")
    parser.add_argument("--idle", type=int, default=60, help="seconds before an idle kernel is culled")
    parser.add_argument("--limit", default="1G", help="her memory limit (as BACCARAT_HUB_MEM_LIMIT)")
    args = parser.parse_args()
    if os.geteuid() != 0:
        sys.exit("run as root (a memory cgroup as the hub makes one)")
    limit = int(float(args.limit[:-1]) * {"K": 2**10, "M": 2**20, "G": 2**30}[args.limit[-1].upper()]) \
        if args.limit[-1].isalpha() else int(args.limit)
    print(f"{len(SITTING)} notebooks, then lesson 08 again; {args.dwell:g} s on each; limit {args.limit}; "
          f"load average {os.getloadavg()[0]:.1f}")
    results = []
    for culling in (False, True):
        print("with culling" if culling else "without culling", f"(idle {args.idle} s)" if culling else "")
        results.append(sitting(culling, args.dwell, args.idle, limit))
    for r in results:
        print(json.dumps(r))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
