"""Run one submission's code in a fresh, limited kernel; hand back only what was printed for us.

The grader starts ``python -m baccarat_kit.grading.worker`` once per submission and writes a
job (JSON) to its stdin: the code cells (read by the grader from the submission), the
extraction code, the limits and a nonce. The worker

1. starts a kernel through a temporary kernelspec (:mod:`.kernel`: memory, CPU and file
   limits), in the submission's temporary folder, with a minimal environment, stdout and
   stderr of the kernel sent to /dev/null;
2. runs the learner's cells one by one (errors do not stop it; a cell over the per-cell limit,
   the whole-notebook limit or a dead kernel ends the run);
3. resets IPython's hooks (``user_expressions``, which no input transformer sees), then runs
   the extraction code and keeps only that execution's stdout;
4. prints one line, ``nonce + JSON``, on its own stdout and shuts the kernel down;
5. ends every process the kernel left behind: the worker is a child subreaper, so a learner's
   daemon (``os.fork`` + ``os.setsid``, double fork) is re-parented to it, not to init, and is
   killed before the worker exits (also when the grader ends the worker with SIGTERM).

Nothing here reads answers or grades: the grader parses the extraction output itself.
"""

from __future__ import annotations

import json
import os
import queue
import shutil
import signal
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from jupyter_client.blocking.client import BlockingKernelClient

from .reaper import _terminate, become_subreaper, end_descendants

MAX_MESSAGE = 32 * 1024 * 1024
"""Largest iopub message accepted (bytes); a bigger one is dropped by zmq."""
MAX_CAPTURE = 4 * 1024 * 1024
"""Largest extraction output kept (characters)."""
KERNEL_NAME = "bk-grader"
RESET_EXPRESSION = "__import__('baccarat_kit.grading._extract', fromlist=['_']).reset_shell()"


class LimitedClient(BlockingKernelClient):
    """A kernel client whose iopub socket refuses messages over :data:`MAX_MESSAGE` bytes."""

    def connect_iopub(self, identity: bytes | None = None) -> Any:
        import zmq

        sock = self.context.socket(zmq.SUB)
        sock.linger = 1000
        sock.setsockopt(zmq.MAXMSGSIZE, MAX_MESSAGE)
        sock.connect(self._make_url("iopub"))
        sock.setsockopt(zmq.SUBSCRIBE, b"")
        return sock


def kernel_env(home: Path) -> dict[str, str]:
    """A minimal environment for the learner's kernel: no inherited secrets or startup files."""
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "LANG": "C.UTF-8",
        "LC_ALL": "C.UTF-8",
        "HOME": str(home),
        "IPYTHONDIR": str(home / ".ipython"),
        "JUPYTER_CONFIG_DIR": str(home / ".jupyter"),
        "JUPYTER_DATA_DIR": str(home / ".jupyter-data"),
        "JUPYTER_RUNTIME_DIR": str(home / ".jupyter-runtime"),
        "MPLCONFIGDIR": str(home / ".mpl"),
        "PYTHONNOUSERSITE": "1",
        "PYTHONDONTWRITEBYTECODE": "1",
        "PYTHONHASHSEED": "0",
        "BACCARAT_KIT_GRADING": "1",
        "TMPDIR": str(home / "tmp"),
    }
    (home / "tmp").mkdir(parents=True, exist_ok=True)
    return env


def _write_kernelspec(folder: Path, memory_mb: int, cpu_seconds: int) -> None:
    spec = folder / "kernels" / KERNEL_NAME
    spec.mkdir(parents=True)
    (spec / "kernel.json").write_text(json.dumps({
        "argv": [sys.executable, "-m", "baccarat_kit.grading.kernel", "--memory-mb", str(memory_mb),
                 "--cpu-seconds", str(cpu_seconds), "-f", "{connection_file}"],
        "display_name": "baccarat-kit grader (limited)",
        "language": "python",
        "interrupt_mode": "signal",
    }), encoding="utf-8")


def _execute(kc: Any, km: Any, code: str, timeout: float, *, capture: bool, store_history: bool = True,
             user_expressions: dict[str, str] | None = None) -> tuple[str, str]:
    """Run ``code``; returns (``ok``/``error``/``timeout``/``died``/``broken``, captured stdout).

    Done when the kernel is idle again (iopub) or, if iopub lost messages (an oversized one is
    dropped with its connection), shortly after the execute reply (shell).
    """
    msg_id = kc.execute(code, store_history=store_history, allow_stdin=False, stop_on_error=False,
                        user_expressions=user_expressions or {})
    deadline = time.monotonic() + max(timeout, 0.1)
    captured: list[str] = []
    size = 0
    garbage = 0
    status: str | None = None
    replied_at: float | None = None
    while True:
        now = time.monotonic()
        if now >= deadline:
            return ("broken" if garbage else "timeout"), ""
        if replied_at is not None and now - replied_at > 1.0:
            break
        if status is None:
            try:
                reply = kc.get_shell_msg(timeout=0)
            except queue.Empty:
                reply = None
            except Exception:
                garbage += 1
                reply = None
            if reply is not None and reply.get("parent_header", {}).get("msg_id") == msg_id:
                status = "ok" if reply.get("content", {}).get("status") == "ok" else "error"
                replied_at = time.monotonic()
        try:
            msg = kc.get_iopub_msg(timeout=min(0.2, max(deadline - now, 0.01)))
        except queue.Empty:
            if not km.is_alive():
                return "died", ""
            continue
        except Exception:
            garbage += 1
            continue
        if msg.get("parent_header", {}).get("msg_id") != msg_id:
            continue
        kind = msg.get("msg_type")
        content = msg.get("content", {})
        if capture and kind == "stream" and content.get("name") == "stdout" and size < MAX_CAPTURE:
            text = str(content.get("text", ""))[: MAX_CAPTURE - size]
            captured.append(text)
            size += len(text)
        if kind == "status" and content.get("execution_state") == "idle" and status is not None:
            break
        if kind == "status" and content.get("execution_state") == "idle":
            replied_at = replied_at or time.monotonic()
            # idle came first: collect the reply, then stop
            try:
                reply = kc.get_shell_msg(timeout=max(min(deadline - time.monotonic(), 5.0), 0.1))
                if reply.get("parent_header", {}).get("msg_id") == msg_id:
                    status = "ok" if reply.get("content", {}).get("status") == "ok" else "error"
            except Exception:
                status = status or "error"
            break
    return status or "error", "".join(captured)


def run_job(job: dict[str, Any]) -> dict[str, Any]:
    """Run one submission (see the module docstring); returns the worker's report."""
    from jupyter_client import KernelManager
    from jupyter_client.kernelspec import KernelSpecManager

    workdir = Path(job["workdir"])
    private = Path(tempfile.mkdtemp(prefix="bk-grader-kernel-"))
    cell_timeout = float(job["cell_timeout"])
    deadline = time.monotonic() + float(job["notebook_timeout"])
    report: dict[str, Any] = {"status": "ok", "cell": None, "errors": 0, "extraction": ""}
    km = None
    kc = None
    try:
        _write_kernelspec(private, int(job["memory_mb"]), int(job["notebook_timeout"]) + 10)
        home = workdir / ".home"
        home.mkdir(exist_ok=True)
        km = KernelManager(
            kernel_name=KERNEL_NAME,
            kernel_spec_manager=KernelSpecManager(kernel_dirs=[str(private / "kernels")]),
            client_class="baccarat_kit.grading.worker.LimitedClient",
            connection_file=str(private / "connection.json"),
        )
        try:
            km.start_kernel(cwd=str(workdir), env=kernel_env(home), stdin=-3, stdout=-3, stderr=-3)
            kc = km.client()
            kc.start_channels()
            kc.wait_for_ready(timeout=max(min(60.0, deadline - time.monotonic()), 1.0))
        except Exception as err:
            return {"status": "kernel_start", "detail": f"{type(err).__name__}: {err}"[:200]}
        for index, code in enumerate(job["cells"], 1):
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return {**report, "status": "notebook_timeout", "cell": index}
            status, _ = _execute(kc, km, code, min(cell_timeout, remaining), capture=False)
            if status == "timeout":
                return {**report, "status": ("cell_timeout" if remaining > cell_timeout else "notebook_timeout"),
                        "cell": index}
            if status == "died":
                return {**report, "status": "kernel_died", "cell": index}
            if status == "broken":
                return {**report, "status": "kernel_broken", "cell": index}
            if status == "error":
                report["errors"] += 1
        # Undo learner hooks without going through the input transformers, then extract.
        # The grader's own steps get a per-cell limit each, beyond the notebook limit.
        _execute(kc, km, "pass", cell_timeout, capture=False, store_history=False,
                 user_expressions={"reset": RESET_EXPRESSION})
        status, out = _execute(kc, km, job["extraction"], cell_timeout, capture=True, store_history=False)
        if status == "died":
            return {**report, "status": "kernel_died", "cell": len(job["cells"]) + 1}
        if status in ("timeout", "broken"):
            return {**report, "status": "no_answers", "cell": len(job["cells"]) + 1}
        report["extraction"] = out
        return report
    finally:
        if kc is not None:
            kc.stop_channels()
        if km is not None:
            try:
                km.shutdown_kernel(now=True)
            except Exception:
                pass
        end_descendants()
        shutil.rmtree(private, ignore_errors=True)


def main() -> int:
    signal.signal(signal.SIGTERM, _terminate)
    become_subreaper()
    job = json.loads(sys.stdin.read())
    nonce = job.pop("result_nonce")
    report = run_job(job)
    sys.stdout.write(nonce + json.dumps(report) + "\n")
    sys.stdout.flush()
    return 0


if __name__ == "__main__":  # pragma: no cover - runs as a subprocess of the grader
    raise SystemExit(main())
