"""``baccarat-kit dask-cluster`` (grading/cluster_cli.py): the command an instructor copies starts a
TLS cluster that ``grade --scheduler`` accepts (the role gate in the scheduler, each worker and
each nanny), grades through it, and stops every process it started. Every process listens on
127.0.0.1. Skipped without the ``[dask]`` extra."""

from __future__ import annotations

import importlib.util
import json
import os
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

if importlib.util.find_spec("distributed") is None:
    pytest.skip("the [dask] extra is not installed: pip install 'baccarat-kit[dask]'", allow_module_level=True)

from baccarat_kit.cli import main
from baccarat_kit.grading import cluster_cli, dask_roles
from baccarat_kit.grading.records import GradeUsageError
from baccarat_kit.grading.sandbox import bwrap

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_grading_wall_limit import waiting_notebook

ROOT = Path(__file__).resolve().parents[1]

try:
    bwrap.check()
    SANDBOX: list[str] = []
except bwrap.SandboxMissing:
    SANDBOX = ["--no-sandbox"]
COMMAND = [str(Path(sys.executable).parent / "baccarat-kit")]
if not Path(COMMAND[0]).is_file():  # (the console script of this venv; else the same entry point)
    COMMAND = [sys.executable, "-c", "import sys; from baccarat_kit.cli import main; sys.exit(main())"]


def _ours(marker: str) -> list[str]:
    """Command lines of the live processes that name ``marker`` (the test's own folder)."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                line = Path(f"/proc/{entry}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            except OSError:
                continue
            if marker in line and Path(f"/proc/{entry}/stat").read_text().split(")")[-1].split()[0] != "Z":
                found.append(f"{entry}: {line[:200]}")
    return found


def _wait_for(log: Path, text: str, proc: subprocess.Popen[bytes], seconds: float = 180) -> str:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        got = log.read_text(encoding="utf-8", errors="replace")
        if text in got:
            return got
        assert proc.poll() is None, got[-3000:]
        time.sleep(0.3)
    raise AssertionError(f"{text!r} not seen within {seconds} s: {log.read_text(errors='replace')[-3000:]}")


@pytest.mark.slow
def test_dask_cluster_local_starts_a_cluster_that_grades_and_stops_cleanly(tmp_path: Path) -> None:
    assert main(["--lang", "en", "dask-certs", str(tmp_path / "certs")]) == 0
    klass = tmp_path / "class"
    for n, source in enumerate(sorted((ROOT / "exercises" / "source").glob("*.ipynb"))[:3]):
        (klass / f"learner-{n}").mkdir(parents=True)
        (klass / f"learner-{n}" / source.name).write_bytes(source.read_bytes())
    waiting_notebook(klass / "learner-9", "time.sleep")  # the limits reach the workers: --wall-limit stops it
    (tmp_path / "dask-config").mkdir()
    env = {**os.environ, "DASK_CONFIG": str(tmp_path / "dask-config"), "DASK_TEMPORARY_DIRECTORY": str(tmp_path),
           "TMPDIR": str(tmp_path), "PYTHONWARNINGS": "ignore"}
    log = tmp_path / "cluster.log"
    with log.open("wb") as out:
        proc = subprocess.Popen([*COMMAND, "--lang", "en", "dask-cluster", "local", "--certs", str(tmp_path / "certs"),
                                 "--workers", "2", "--scheduler-file", str(tmp_path / "scheduler.json"),
                                 "--local-directory", str(tmp_path / "dask")],
                                stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, env=env,
                                start_new_session=True)
    try:
        said = _wait_for(log, "Running; Ctrl-C (or SIGTERM) stops every process started here.", proc)
        address = json.loads((tmp_path / "scheduler.json").read_text(encoding="utf-8"))["address"]
        assert address.startswith("tls://127.0.0.1:"), address
        assert f"baccarat-kit dask-cluster worker {address} --certs" in said, said  # what other machines run
        assert f"--scheduler {address} --certs" in said, said
        graded = tmp_path / "graded"
        assert main(["--lang", "en", "grade", str(klass), "--out", str(graded), "--no-progress", "--scheduler",
                     address, "--certs", str(tmp_path / "certs"), "--timeout", "8", "--notebook-timeout", "40",
                     "--wall-limit", "12", *SANDBOX]) == 0
        doc = json.loads((graded / "results.json").read_text(encoding="utf-8"))
        assert f"on Dask workers at {address}" in doc["limits"]["sandbox"], doc["limits"]
        assert doc["limits"]["wall_limit"] == 12, doc["limits"]
        rows = {Path(r["file"]).parent.name: r for r in doc["submissions"]}
        for n in range(3):
            assert rows[f"learner-{n}"]["status"] == "ok", rows[f"learner-{n}"]
            row = rows[f"learner-{n}"]
            assert row["score"] == row["max_score"] - row["pending_points"], row  # 03's q9: scored by hand
        assert rows["learner-9"]["status"] == "wall_limit", rows["learner-9"]
        listening = log.read_text(encoding="utf-8", errors="replace")
        assert "Start Nanny at: 'tls://127.0.0.1:" in listening and "Start worker at:" in listening, listening[-3000:]
        assert all("tls://127.0.0.1:" in line for line in listening.splitlines()
                   if "Start Nanny at:" in line or "Start worker at:" in line or "Scheduler at:" in line)
    finally:
        if proc.poll() is None:
            os.kill(proc.pid, signal.SIGTERM)  # the command itself: it stops what it started
        try:
            proc.wait(90)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
            for line in _ours(str(tmp_path)):  # (never leave them: ours, by our folder)
                os.kill(int(line.split(":")[0]), signal.SIGKILL)
            raise
    assert proc.returncode == 0, log.read_text(errors="replace")[-3000:]
    assert "Stopped the 2 process group(s) started here." in log.read_text(errors="replace")
    assert _ours(str(tmp_path)) == [], "a process of the cluster outlived the command"


@pytest.mark.slow
def test_dask_cluster_scheduler_and_worker_as_on_two_machines(tmp_path: Path) -> None:
    """The commands the quick start gives the scheduler's machine and each worker's, each its own
    process (here both on 127.0.0.1): the worker joins by the address the scheduler printed."""
    assert main(["--lang", "en", "dask-certs", str(tmp_path / "certs")]) == 0
    source = ROOT / "exercises" / "source" / "05-settlement.ipynb"
    (tmp_path / "class" / "ana").mkdir(parents=True)
    (tmp_path / "class" / "ana" / source.name).write_bytes(source.read_bytes())
    (tmp_path / "dask-config").mkdir()
    env = {**os.environ, "DASK_CONFIG": str(tmp_path / "dask-config"), "DASK_TEMPORARY_DIRECTORY": str(tmp_path),
           "TMPDIR": str(tmp_path), "PYTHONWARNINGS": "ignore"}
    certs = str(tmp_path / "certs")
    started: list[subprocess.Popen[bytes]] = []

    def start(name: str, *argv: str) -> tuple[subprocess.Popen[bytes], Path]:
        log = tmp_path / f"{name}.log"
        with log.open("wb") as out:
            started.append(subprocess.Popen([*COMMAND, "--lang", "en", "dask-cluster", *argv, "--certs", certs],
                                            stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                            env=env, start_new_session=True))
        return started[-1], log

    try:
        sched, sched_log = start("scheduler", "scheduler", "--host", "127.0.0.1", "--port", "0")
        said = _wait_for(sched_log, "Running;", sched)
        command = next(line for line in said.splitlines() if "baccarat-kit dask-cluster worker tls://" in line)
        address = command.split("dask-cluster worker ")[1].split()[0]
        assert address.startswith("tls://127.0.0.1:"), command
        worker, worker_log = start("worker", "worker", address, "--nthreads", "1", "--host", "127.0.0.1",
                                   "--local-directory", str(tmp_path / "dask"))
        _wait_for(worker_log, "Running;", worker)
        graded = tmp_path / "graded"
        assert main(["--lang", "en", "grade", str(tmp_path / "class"), "--out", str(graded), "--no-progress",
                     "--scheduler", address, "--certs", certs, *SANDBOX]) == 0
        row = json.loads((graded / "results.json").read_text(encoding="utf-8"))["submissions"][0]
        assert row["status"] == "ok" and row["score"] == row["max_score"], row
    finally:
        for proc in reversed(started):
            if proc.poll() is None:
                os.kill(proc.pid, signal.SIGTERM)
            try:
                proc.wait(90)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
    assert [p.returncode for p in started] == [0, 0]
    assert _ours(str(tmp_path)) == [], "a process of the cluster outlived its command"


def test_missing_certificates_are_named_before_anything_starts(tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--lang", "en", "dask-cluster", "local", "--certs", str(tmp_path / "none")]) == 2
    err = capsys.readouterr().err
    assert "scheduler.pem" in err and "ca.pem" in err, err


def test_a_worker_of_a_plain_tcp_scheduler_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--lang", "en", "dask-certs", str(tmp_path / "certs")]) == 0
    capsys.readouterr()
    assert main(["--lang", "en", "dask-cluster", "worker", "tcp://127.0.0.1:8786", "--certs",
                 str(tmp_path / "certs")]) == 2
    assert "tcp://127.0.0.1:8786" in capsys.readouterr().err


def test_every_process_loads_the_role_gate_with_tls() -> None:
    certs = Path("/c")
    sched = cluster_cli.scheduler_argv(certs, "127.0.0.1", 0, Path("/s.json"))
    worker = cluster_cli.worker_argv("tls://127.0.0.1:1", certs, 2, 1, "127.0.0.1")
    for argv, role in ((sched, "scheduler"), (worker, "worker")):
        assert argv[argv.index("--preload") + 1] == cluster_cli.ROLES_PRELOAD
        assert argv[argv.index("--tls-cert") + 1] == f"/c/{role}.pem"
        assert argv[argv.index("--tls-ca-file") + 1] == "/c/ca.pem"
    assert sched[sched.index("--protocol") + 1] == "tls"
    assert worker[worker.index("--preload-nanny") + 1] == cluster_cli.ROLES_PRELOAD and "--nanny" in worker
    assert worker[worker.index("--memory-limit") + 1] == "0"  # (each sandbox has its own)


# ---------------------------------------------------------------- issue 43: scratch, HTTP pages, stale folders
def _dead_pid() -> int:
    """The id of a process that has ended (and been reaped)."""
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


def test_a_worker_clears_only_the_stale_grading_folders_it_made(tmp_path: Path) -> None:
    """In a private scratch, a ``bk-grade-PID-…`` folder of a process that is gone goes (with the
    notebook in it); the folder of a live process, a link of that name (never followed), a file,
    another user's folder and anything else named otherwise stay."""
    scratch = tmp_path / "scratch"
    scratch.mkdir(mode=0o700)
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "keep.txt").write_text("the instructor's", encoding="utf-8")
    dead = _dead_pid()
    stale = scratch / f"bk-grade-{dead}-ab12_x"
    stale.mkdir(mode=0o700)
    (stale / "03-banker-rule.ipynb").write_text("{}", encoding="utf-8")
    (stale / "into-outside").symlink_to(outside)  # removed as a link, its target untouched
    live = scratch / f"bk-grade-{os.getpid()}-cd34"
    live.mkdir()
    link = scratch / f"bk-grade-{dead}-link"
    link.symlink_to(outside)
    (scratch / f"bk-grade-{dead}-file").write_text("x", encoding="utf-8")
    other = scratch / f"bk-grade-{dead}-theirs"
    other.mkdir()
    if os.geteuid() == 0:
        os.chown(other, 65534, 65534)
    kept = [live, link, scratch / f"bk-grade-{dead}-file", scratch / "worker-1", scratch / f"bk-grade-{dead}"]
    kept[3].mkdir()
    kept[4].mkdir()
    assert dask_roles.clear_stale(scratch) == sorted(
        [stale.name] + ([] if os.geteuid() == 0 else [other.name]))
    assert not stale.exists()
    assert all(p.exists() or p.is_symlink() for p in kept), kept
    assert link.is_symlink() and (outside / "keep.txt").read_text(encoding="utf-8") == "the instructor's"
    assert other.exists() == (os.geteuid() == 0)


def test_nothing_is_cleared_in_a_folder_others_can_write(tmp_path: Path) -> None:
    """``/tmp`` and the like: another user could have made what is there."""
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o1777)
    stale = shared / f"bk-grade-{_dead_pid()}-ab12"
    stale.mkdir()
    assert dask_roles.clear_stale(shared) == []
    assert stale.is_dir()
    (tmp_path / "via-link").symlink_to(tmp_path / "private")
    (tmp_path / "private").mkdir(mode=0o700)
    (tmp_path / "private" / stale.name).mkdir()
    assert dask_roles.clear_stale(tmp_path / "via-link") == []  # the scratch itself a link: not followed


def test_a_scratch_folder_others_can_write_or_a_link_is_refused(tmp_path: Path) -> None:
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o1777)
    (tmp_path / "link").symlink_to(tmp_path / "mine")
    (tmp_path / "mine").mkdir(mode=0o700)
    for bad, detail in ((shared, "mode 1777"), (tmp_path / "link", "")):
        with pytest.raises(GradeUsageError) as err:
            cluster_cli.private_scratch(str(bad))
        assert err.value.key == "grading.dask.scratch_unsafe" and str(bad) in err.value.message("en")
        assert detail in err.value.message("en")
    first, second = cluster_cli.private_scratch(str(tmp_path / "mine")), cluster_cli.private_scratch(str(tmp_path / "mine"))
    assert first != second and first.parent == second.parent == tmp_path / "mine"  # fresh for each start
    assert stat.S_IMODE(first.stat().st_mode) == 0o700 and first.stat().st_uid == os.geteuid()
    made = cluster_cli.private_scratch(str(tmp_path / "new" / "dir"))  # made when missing, 0700
    assert stat.S_IMODE(made.parent.stat().st_mode) == 0o700


def test_the_http_settings_are_dasks_own_and_empty() -> None:
    """The settings dask-cluster gives every process name Dask's real keys (read back through
    dask.config as the processes read them) and leave no page."""
    import dask.config

    read = dask.config.collect_env(cluster_cli.CHILD_ENV)
    defaults = dask.config.get("distributed")
    for role in ("scheduler", "worker"):
        assert defaults[role]["http"]["routes"], role  # Dask's default: pages
        assert read["distributed"][role]["http"]["routes"] == [], read


def _http_status(port: int, path: str) -> int:
    import urllib.error
    import urllib.request

    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=30) as resp:
            return int(resp.status)
    except urllib.error.HTTPError as err:
        return int(err.code)


@pytest.mark.slow
def test_dask_cluster_keeps_its_scratch_private_serves_no_page_and_clears_a_killed_workers_folder(
        tmp_path: Path) -> None:
    """As root beside another local user: her link planted as the shared temporary folder's
    ``dask-scratch-space`` is never followed (each start has a new 0700 folder); the scheduler's
    and workers' HTTP ports answer no ``/info``, ``/json``, ``/metrics`` or ``/health``; a worker
    SIGKILLed while grading leaves its ``bk-grade-*`` folder, which the worker the nanny starts
    next removes."""
    assert main(["--lang", "en", "dask-certs", str(tmp_path / "certs")]) == 0
    shared = tmp_path / "shared-tmp"  # stands for /tmp
    shared.mkdir()
    shared.chmod(0o1777)
    victim = tmp_path / "victim"  # where she points
    victim.mkdir()
    (shared / "dask-scratch-space").symlink_to(victim)
    (tmp_path / "dask-config").mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith("DASK_")}
    env.update({"DASK_CONFIG": str(tmp_path / "dask-config"), "TMPDIR": str(shared), "PYTHONWARNINGS": "ignore"})
    waiting_notebook(tmp_path / "class" / "ana", "time.sleep")
    source = ROOT / "exercises" / "source" / "05-settlement.ipynb"
    (tmp_path / "class" / "ben").mkdir()
    (tmp_path / "class" / "ben" / source.name).write_bytes(source.read_bytes())
    log = tmp_path / "cluster.log"
    with log.open("wb") as out:
        proc = subprocess.Popen([*COMMAND, "--lang", "en", "dask-cluster", "local", "--certs", str(tmp_path / "certs"),
                                 "--workers", "2", "--scheduler-file", str(tmp_path / "scheduler.json")],
                                stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, env=env,
                                start_new_session=True)
    grading: subprocess.Popen[bytes] | None = None
    try:
        _wait_for(log, "Running; Ctrl-C", proc)
        [scratch] = shared.glob("bk-dask-*")
        assert stat.S_IMODE(scratch.stat().st_mode) == 0o700 and not scratch.is_symlink()
        assert (scratch / "dask-scratch-space").is_dir()  # Dask's own scratch is in the private folder
        # no page on any HTTP port of the cluster
        identity = json.loads((tmp_path / "scheduler.json").read_text(encoding="utf-8"))
        from baccarat_kit.grading.cluster import connect

        client = connect(identity["address"], tmp_path / "certs")
        try:
            client.wait_for_workers(2, timeout=180)
            ports = [identity["services"]["dashboard"], *(w["services"]["dashboard"] for w in
                                                          client.scheduler_info()["workers"].values())]
        finally:
            client.close()
        assert len(ports) == 3, ports
        for port in ports:
            for path in ("/info/main/workers.html", "/json/index.html", "/metrics", "/health", "/statics/"):
                assert _http_status(port, path) == 404, (port, path)
        # a worker killed while it grades
        with (tmp_path / "grade.log").open("wb") as out:
            grading = subprocess.Popen([*COMMAND, "--lang", "en", "grade", str(tmp_path / "class"), "--out",
                                        str(tmp_path / "graded"), "--no-progress", "--scheduler", identity["address"],
                                        "--certs", str(tmp_path / "certs"), "--wall-limit", "40", *SANDBOX],
                                       stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, env=env,
                                       start_new_session=True)
        deadline = time.monotonic() + 180
        while not (busy := [p for p in scratch.glob("bk-grade-*") if any(p.glob("03-*"))]):  # ana's, which waits
            assert time.monotonic() < deadline and grading.poll() is None, (tmp_path / "grade.log").read_text()
            time.sleep(0.2)
        folder = busy[0]
        pid = int(folder.name.split("-")[2])
        os.kill(pid, signal.SIGKILL)  # (what it leaves is not looked at here: on an idle machine the
        # nanny's next worker may clear it within a second; the log line below says it was left)
        deadline = time.monotonic() + 180
        while folder.exists():  # the nanny starts a worker; as it starts, it clears the folder
            assert time.monotonic() < deadline, log.read_text(errors="replace")[-3000:]
            time.sleep(0.3)
        assert f"removed {folder.name}, left by a worker process that is gone" in log.read_text(errors="replace"), (
            log.read_text(errors="replace")[-3000:], (tmp_path / "grade.log").read_text(errors="replace"))
        assert grading.wait(240) == 0, (tmp_path / "grade.log").read_text()  # (retried on the other worker)
        rows = json.loads((tmp_path / "graded" / "results.json").read_text(encoding="utf-8"))["submissions"]
        assert sorted(r["status"] for r in rows) == ["ok", "wall_limit"], rows
        assert list(victim.iterdir()) == [] and (shared / "dask-scratch-space").is_symlink()
        assert sorted(p.name for p in shared.iterdir()) == sorted(["dask-scratch-space", scratch.name])
    finally:
        if grading is not None and grading.poll() is None:
            os.killpg(grading.pid, signal.SIGKILL)
            grading.wait()
        if proc.poll() is None:
            os.kill(proc.pid, signal.SIGTERM)
        try:
            proc.wait(90)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert proc.returncode == 0, log.read_text(errors="replace")[-3000:]
    assert list(shared.iterdir()) == [shared / "dask-scratch-space"], "the private scratch outlived the command"
    assert list(victim.iterdir()) == []
