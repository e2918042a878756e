"""Run one submission's code cells in IPython, in a plain process (no Jupyter kernel, no ZMQ).

The grader starts this module inside the submission's sandbox (:mod:`.bwrap`) from the grading
run's own folder (:mod:`.api_tree`: a copy of this file as ``bk_sandbox.runner``, beside the
exercise API as the only ``baccarat_kit``; the kit itself is not there). That process forks at
once, before anything else, into two:

* the **supervisor** (the parent) holds the only channel to the grader (its stdout) and the
  nonce. It reads the grader's one line of JSON (the code cells, the limits, what Landlock should
  allow, the questions to extract, the nonce) and then has nothing more to read: the grader
  closes the pipe. It makes itself non-dumpable (no ``ptrace``, no ``/proc/PID/fd`` or ``mem`` for
  code of the same uid), passes the job *without the nonce* to the learner process on a private
  pipe, forwards that process's status lines and its answers (each marked line becomes the
  nonce's line), then exits. It never runs learner code.
* the **learner process** (the child) points its stdin, stdout and stderr at ``/dev/null`` and
  closes the grader's pipes before it reads its job; so no learner code, in any thread, can read
  what the grader sent or write to the grader. It sets its resource limits, confines itself with
  Landlock where Linux has it, says ``ready``, runs each cell with IPython's own
  :class:`~IPython.core.interactiveshell.InteractiveShell` (``run_cell``: magics, ``display``,
  the displayhook, tracebacks: what a Jupyter kernel does, minus the messaging) and reports
  ``start N`` and ``done N ok|error``; the grader keeps the clock (per cell and for the whole
  notebook) and ends the sandbox when a limit is over. After ``cells`` it resets IPython's hooks,
  runs the extraction code (sent with the job, before any learner code ran; it holds no secret)
  and reports what it printed as ``answers "JSON string"``: once for the value and choice
  answers, then once per function answer (each called on every input here, with a time budget,
  so one that hangs costs only itself and those after it). A cell that fails fails alone: the
  next one runs. The kit's rule code is *absent* (issue 30): the only ``baccarat_kit`` is the
  exercise API, configured with the data the grader computed for this file before any learner
  code runs.

What learner code can still do is write lines into its own pipe to the supervisor: claims about
its own statuses (out of order they are refused: ``kernel_broken``) or values, which are its own
claims anyway (see docs/threat-model.md). The grader's channel, the nonce and everything the grader
sent stay out of its reach (issue 20, attack 12: threads reading the runner's stdin stole the
extraction code and its nonce).
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any

MAX_CAPTURE = 4 * 1024 * 1024
"""Largest extraction output reported (characters)."""
SYSTEM_READABLE = ("/usr", "/lib", "/lib64", "/lib32", "/bin", "/sbin", "/etc/ld.so.cache", "/etc/localtime",
                   "/dev", "/proc/cpuinfo", "/proc/meminfo", "/proc/stat", "/proc/filesystems")
"""System paths Landlock lets the runner read, besides Python, the kit and its own folders."""


class _Capture:
    """A bounded stand-in for ``sys.stdout`` while the extraction code runs."""

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.size = 0

    def write(self, text: str) -> int:
        text = str(text)
        if self.size < MAX_CAPTURE:
            keep = text[: MAX_CAPTURE - self.size]
            self.parts.append(keep)
            self.size += len(keep)
        return len(text)

    def flush(self) -> None:
        pass


PREFIX_PARTS = ("bin", "lib", "lib64", "lib32", "pyvenv.cfg")
"""What Python needs of each prefix (as :data:`.bwrap.PREFIX_PARTS`): not the rest of it."""


def readable_paths(extra: list[str]) -> list[str]:
    """Python (installation, environment, ``sys.path``: the exercise API's folder is its first
    entry), system paths, the runner's own ``/proc`` entry and ``extra``: what Landlock lets it
    read. Never the kit's package: it is not in a grading run (issue 30)."""
    prefixes = {sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix}
    wanted = [*(os.path.join(p, part) for p in prefixes for part in PREFIX_PARTS),
              *[p for p in sys.path if p and os.path.isabs(p)], *SYSTEM_READABLE, f"/proc/{os.getpid()}", *extra]
    out: list[str] = []
    for path in wanted:
        if os.path.exists(path) and path not in out:
            out.append(path)
    return out


MARKER = "baccarat_kit_answers_"
"""What the learner process's extraction prints before its answers (public: the supervisor turns
the one marked line into the nonce's line; two marked lines are no answers)."""
PR_SET_DUMPABLE = 4


def _undumpable() -> None:
    """This process can no longer be traced, nor its ``/proc`` entries read, by code of its uid."""
    import ctypes

    try:
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_DUMPABLE, 0, 0, 0, 0)
    except (OSError, AttributeError):  # pragma: no cover - not Linux
        pass


def _lines(fd: int) -> Any:
    """The lines written to ``fd`` (bytes, without newline), up to :data:`MAX_CAPTURE` * 2 each."""
    buffer = b""
    while True:
        chunk = os.read(fd, 1 << 16)
        if not chunk:
            return
        buffer += chunk
        while b"\n" in buffer:
            line, _, buffer = buffer.partition(b"\n")
            yield line
        if len(buffer) > 2 * MAX_CAPTURE + 100:
            return


def supervise(child: int, down: int, up: int) -> int:
    """The supervisor's side (see the module docstring): the job in, statuses and answers out."""
    _undumpable()
    report = os.fdopen(os.dup(1), "wb", buffering=0)
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (1, 2):
        os.dup2(null, fd)
    line = sys.stdin.buffer.readline()
    os.dup2(null, 0)
    os.close(null)
    job = json.loads(line)
    nonce = str(job.pop("nonce"))
    del line
    with os.fdopen(down, "wb") as fh:
        try:
            fh.write(json.dumps(job).encode("utf-8") + b"\n")
        except BrokenPipeError:
            return 3
    del job
    for raw in _lines(up):
        text = raw.decode("utf-8", "replace")
        if text.startswith("answers "):
            try:
                captured = json.loads(text[len("answers "):])
            except ValueError:
                captured = ""
            marked = [ln for ln in str(captured).splitlines() if ln.startswith(MARKER)]
            record = nonce + marked[0][len(MARKER):] if len(marked) == 1 else ""
            report.write(("answers " + json.dumps(record) + "\n").encode("utf-8"))
            continue
        report.write(text.encode("utf-8") + b"\n")
    report.close()
    os._exit(0)  # the grader ends the sandbox (and the learner process with it)


MAX_RESUMES = 50
"""Statements of one cell that may fail on the absent kit before the rest of the cell is given up."""
ABSENT_ERRORS = ("AbsentError", "AbsentModule")
"""What the exercise API raises for a name of the kit the grading run does not hold."""


def _after_absent(shell: Any, code: str, result: Any) -> str | None:
    """When ``code`` stopped because a top-level statement reached a name of the kit that is not
    in the grading run (``case_a = bk.banker_draws(3, 8)``), the statements after that one, as
    code to run next (issue 30: she may have put her own value on the next line); else None."""
    import ast

    err = getattr(result, "error_in_exec", None)
    if err is None or type(err).__name__ not in ABSENT_ERRORS:
        return None
    tb, line = err.__traceback__, None
    while tb is not None:
        if tb.tb_frame.f_code.co_name == "<module>":
            line = tb.tb_lineno
            break
        tb = tb.tb_next
    try:
        tree = ast.parse(shell.transform_cell(code))
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    if line is None:
        return None
    after = [i for i, node in enumerate(tree.body) if node.lineno <= line <= (node.end_lineno or node.lineno)]
    rest = tree.body[after[0] + 1:] if after else []
    return ast.unparse(ast.Module(body=rest, type_ignores=[])) if rest else None


class _Failed:
    """A cell whose run broke IPython itself (as a ``run_cell`` result)."""

    success = False
    error_before_exec = None

    def __init__(self, err: BaseException) -> None:
        self.error_in_exec = err


def _why(result: Any) -> str:
    """One line on why a cell failed (``AttributeError: bk.play: …``), at most 300 characters."""
    try:
        err = result.error_in_exec or result.error_before_exec
        text = f"{type(err).__name__}: {err}" if err is not None else "error"
        return " ".join(str(text).split())[:500]
    except Exception:  # learner code may have made anything of it
        return "error"


def _watch_what_runs(job: dict[str, Any], fd: int, writable: list[str], programs_blocked: bool) -> Any:
    """Issue 35: before any learner code runs, the audit hook that fingerprints what runs
    (:mod:`.ran`; the kit's hashes and this run's key from ``job["ran"]``, taken out of the job);
    returns what the runner calls after the cells and after the last answer (the walk of what the
    run left, and the report's end). ``programs_blocked``: no program can be started here (Landlock)."""
    import functools

    from . import ran

    given = job.pop("ran", None)
    if not isinstance(given, dict):
        return lambda namespace: None
    key = bytes.fromhex(str(given.pop("key", "")))
    trusted = [p for p in {sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix, "/usr", sys.path[0]}
               if p and os.path.isabs(p)]
    ran.install(given, key, fd, trusted, [*writable, "/tmp", "/dev/shm"], programs_blocked)
    del given, key
    return functools.partial(sys.audit, ran.WALK)


def main() -> int:
    down_r, down_w = os.pipe()
    up_r, up_w = os.pipe()
    pid = os.fork()
    if pid:
        os.close(down_r)
        os.close(up_w)
        return supervise(pid, down_w, up_r)
    # The learner process: away from the grader's pipes before anything else.
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    os.close(null)
    os.close(down_w)
    os.close(up_r)
    with os.fdopen(down_r, "rb") as fh:
        line = fh.readline()
    job: dict[str, Any] = json.loads(line)
    os.set_inheritable(up_w, False)
    report = os.fdopen(up_w, "w", encoding="utf-8", buffering=1)

    def send(line: str) -> None:
        report.write(line + "\n")
        report.flush()

    from IPython.core.interactiveshell import InteractiveShell
    from traitlets.config import Config

    from . import _extract
    from .landlock import confine
    from .limits import set_limits

    reset_shell, capture_class, dumps = _extract.reset_shell, _Capture, json.dumps  # bound before learner code runs
    extractions = [str(e) for e in job.pop("extractions")]
    os.makedirs(os.environ.get("IPYTHONDIR", os.path.join(os.getcwd(), ".ipython")), exist_ok=True)
    config = Config()
    config.HistoryManager.enabled = False
    config.InteractiveShell.colors = "NoColor"
    shell = InteractiveShell.instance(config=config)
    shell.user_ns["__name__"] = "__main__"
    set_limits(int(job["memory_mb"]), int(job["cpu_seconds"]), int(job["processes"]), int(job["file_mb"]),
               int(job["open_files"]))
    writable = [os.getcwd(), *job.get("writable", [])]
    try:  # no program started from here (one would run where the check of what ran is not)
        abi = confine(writable, readable=readable_paths(writable), execute=False)
    except OSError as err:  # fail closed: no learner code rather than unconfined code
        send(f"confine-failed {err}")
        return 4
    api = sys.modules.get("baccarat_kit") or __import__("baccarat_kit")
    if getattr(api, "EXERCISE_API", False) is not True:  # fail closed: never the real kit
        send("confine-failed the exercise API is not the baccarat_kit here")
        return 4
    api._state.configure(job.get("api") or {})
    _undumpable()  # her own memory stays hers, but no other process of hers reads it (nor her /proc/self/mem)
    walk = _watch_what_runs(job, up_w, writable, abi >= 1)
    del line
    streams, modules = (sys.stdout, sys.stderr), dict(sys.modules)

    def mend() -> None:
        """What one cell broke for the next (a cell fails alone): the runner's own streams (on
        /dev/null) and every module that was there before the cells (``sys.modules.clear()``)."""
        sys.stdout, sys.stderr = streams
        for name, module in modules.items():
            sys.modules.setdefault(name, module)

    def run(code: str, history: bool) -> Any:
        try:
            return shell.run_cell(code, store_history=history)
        except BaseException as err:  # IPython itself broke on what the cell did: the cell failed
            mend()
            return _Failed(err)

    send("ready")
    for index, code in enumerate(job["cells"], 1):
        mend()
        send(f"start {index}")
        result = run(code, True)
        first = result
        for _ in range(MAX_RESUMES):  # a statement that reached the absent kit fails alone: the rest runs
            rest = _after_absent(shell, code, result)
            if rest is None:
                break
            code = rest
            result = run(rest, False)
        mend()
        send(f"done {index} ok" if first.success else f"done {index} error {_why(first)}")  # fails alone
    walk(shell.user_ns)
    send("cells")
    for extraction in extractions:  # the value answers, then each function answer on its own line
        mend()
        reset_shell()
        capture = capture_class()
        real = sys.stdout
        sys.stdout = capture  # type: ignore[assignment,unused-ignore]
        try:
            shell.run_cell(extraction, store_history=False)
        finally:
            sys.stdout = real
        send("answers " + dumps("".join(capture.parts)))
    walk(shell.user_ns)  # the last walk: what the function answers ran after the first one
    send("final")
    report.close()
    os._exit(0)  # now: a learner's thread must not keep the sandbox waiting


if __name__ == "__main__":  # pragma: no cover - runs inside the sandbox
    raise SystemExit(main())
