"""``baccarat-kit grade --scheduler`` on a Dask cluster of separate processes on 127.0.0.1 (TLS).

One scheduler and two workers (module-scoped, :mod:`dask_local`) grade a class of 60 files; the
gradebook must be the local run's, also when a worker is killed mid-batch; no one without the
instructor's certificates gets in. Skipped without the ``[dask]`` extra (``make test`` has it).
"""

from __future__ import annotations

import contextlib
import csv
import importlib.util
import io
import json
import os
import ssl
import stat
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import pytest

if importlib.util.find_spec("distributed") is None:  # (looked for, not imported: collection stays quick)
    pytest.skip("the [dask] extra is not installed: pip install 'baccarat-kit[dask]'", allow_module_level=True)

from baccarat_kit.cli import main
from baccarat_kit.grading import cluster
from baccarat_kit.grading.grade import Limits, grade_paths, load_exercises
from baccarat_kit.grading.records import GradeUsageError
from baccarat_kit.grading.sandbox import bwrap as _bwrap
from baccarat_kit.grading.sandbox import session as _session

sys.path.insert(0, str(Path(__file__).resolve().parent))
from dask_local import ROOT, ProcessCluster, make_class

LIMITS = ["--timeout", "8", "--notebook-timeout", "40"]  # (room for a loaded machine)
try:
    _bwrap.check()
    SANDBOX: list[str] = []
except _bwrap.SandboxMissing:  # the workers then refuse bwrap too; tests/test_grading_sandbox.py says why
    SANDBOX = ["--no-sandbox"]
EXERCISES = load_exercises(ROOT / "exercises" / "source")
Book = tuple[list[dict[str, str]], list[dict[str, Any]]]
"""grades.csv's rows and results.json's rows, timings aside (:func:`gradebook`)."""


@pytest.fixture(scope="module")
def work(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("dask")


@pytest.fixture(scope="module")
def certs(work: Path) -> Path:
    assert main(["--lang", "en", "dask-certs", str(work / "certs")]) == 0
    return work / "certs"


@pytest.fixture(scope="module")
def procs(work: Path, certs: Path) -> Any:
    from distributed import Client

    running = ProcessCluster(work / "cluster", certs, workers=2)
    try:
        with Client(running.address, security=cluster.security(certs), timeout="60s", set_as_default=False) as c:
            c.wait_for_workers(2, timeout=120)
        yield running
    finally:
        running.stop()


@pytest.fixture(scope="module")
def klass(work: Path) -> Path:
    make_class(work / "class", 60)
    return work / "class"


def grade(klass: Path, out: Path, *extra: str) -> tuple[int, str]:
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        code = main(["--lang", "en", "grade", str(klass), "--out", str(out), *LIMITS, *SANDBOX, *extra])
    return code, err.getvalue()


def gradebook(out: Path) -> tuple[list[dict[str, str]], list[dict[str, Any]]]:
    """grades.csv's and results.json's rows, each without its grading time (``graded_at``)."""
    rows = json.loads((out / "results.json").read_text(encoding="utf-8"))["submissions"]
    table = list(csv.DictReader(io.StringIO((out / "grades.csv").read_text(encoding="utf-8"))))
    for row in [*rows, *table]:
        assert row.pop("graded_at")
    return table, rows


@pytest.fixture(scope="module")
def local(klass: Path, work: Path) -> Book:
    code, _ = grade(klass, work / "local", "--jobs", "2", "--no-progress")
    assert code == 0
    return gradebook(work / "local")


@pytest.fixture(scope="module")
def remote(klass: Path, work: Path, procs: ProcessCluster, certs: Path) -> tuple[int, str]:
    return grade(klass, work / "remote", "--scheduler", procs.address, "--certs", str(certs))


@pytest.mark.slow
def test_the_class_is_60_files_and_the_local_run_grades_them(local: Book) -> None:
    table, rows = local
    assert len(rows) == 60 == len(table)
    assert [r["file"] for r in rows] == [r["file"] for r in table]
    statuses = {r["status"] for r in rows}
    assert {"ok", "not_json", "not_notebook"} <= statuses
    assert sum(1 for r in rows if r["status"] == "ok" and r["score"] == r["max_score"] - r["pending_points"] > 0) >= 12


@pytest.mark.slow
def test_through_the_scheduler_the_gradebook_is_the_local_one(
        remote: tuple[int, str], local: Book, work: Path, procs: ProcessCluster) -> None:
    code, err = remote
    assert code == 0, err[-3000:]
    assert gradebook(work / "remote") == local
    limits = json.loads((work / "remote" / "results.json").read_text(encoding="utf-8"))["limits"]
    assert f"on Dask workers at {procs.address}" in limits["sandbox"] and "2 workers" in limits["sandbox"]
    if not SANDBOX:
        assert limits["sandbox"].startswith("bubblewrap namespaces")
    assert "60/60" in err  # the progress bar, as locally


@pytest.mark.slow
def test_a_worker_killed_mid_batch_loses_no_row(
        remote: tuple[int, str], local: Book, klass: Path, work: Path,
        procs: ProcessCluster, certs: Path) -> None:
    from distributed import Client

    killed: list[str] = []
    errors: list[str] = []
    stop = threading.Event()

    def kill_when_busy() -> None:
        # once the batch is past its first files, kill w2 while it is grading one (a connection
        # or a query that fails on a loaded machine is tried again, and said if nothing was killed)
        while not stop.is_set():
            try:
                with Client(procs.address, security=cluster.security(certs), timeout="60s",
                            set_as_default=False) as c:
                    while not stop.is_set():
                        w2 = next((addr for addr, info in c.scheduler_info()["workers"].items()
                                   if info["name"] == "w2"), None)
                        busy = [k for k in (c.processing(workers=[w2]).get(w2, ()) if w2 else ())
                                if str(k).startswith("baccarat-kit-grade-") and int(str(k).split("-")[3]) >= 8]
                        if busy:
                            procs.kill("w2")
                            killed.extend(map(str, busy))
                            return
                        time.sleep(0.1)
            except Exception as err:  # (the thread's own: said below, not lost with the thread)
                errors.append(repr(err))
                time.sleep(0.5)

    watcher = threading.Thread(target=kill_when_busy)
    watcher.start()
    try:
        code, err = grade(klass, work / "killed", "--scheduler", procs.address, "--certs", str(certs),
                          "--no-progress")
    finally:
        stop.set()
        watcher.join()
    assert killed, f"w2 was never seen grading: the test did not kill it mid-batch ({errors[-3:]})"
    assert procs.procs["w2"].poll() is not None
    assert code == 0, err[-3000:]
    assert gradebook(work / "killed") == local  # every row, graded again on w1


def _local_scope() -> str:
    """What a sandbox's limits are on this machine (the workers run here too)."""
    from baccarat_kit.grading.sandbox import cgroup

    group, _ = cgroup.create(64, 16)
    if group is None:
        return _session.PER_PROCESS_ONLY
    group.remove()
    return f"sandbox (cgroup v{group.version})"


@pytest.mark.slow
def test_results_json_records_what_limited_the_workers(procs: ProcessCluster, certs: Path, work: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """A fresh client (no sandbox of its own ever ran) writes the workers' scope, not "not started yet"."""
    monkeypatch.setattr(_session, "_scopes", [])
    small = work / "small"
    for src in (ROOT / "exercises" / "source" / "02-naturals-player.ipynb",
                ROOT / "tests" / "fixtures" / "submissions" / "not-json.ipynb"):
        (small / "ana").mkdir(parents=True, exist_ok=True)
        (small / "ana" / src.name).write_bytes(src.read_bytes())
    code, err = grade(small, work / "small-graded", "--scheduler", procs.address, "--certs", str(certs),
                      "--no-progress")
    assert code == 0, err[-3000:]
    limits = json.loads((work / "small-graded" / "results.json").read_text(encoding="utf-8"))["limits"]
    assert limits["scope"] == _local_scope(), limits
    assert "not started" not in json.dumps(limits)
    assert cluster.workers_scope({"a": "sandbox (cgroup v1)", "b": "per-process only"}) == (
        "per-process only on 1 of 2 workers; sandbox (cgroup v1) on 1 of 2 workers")


def no_certificate(ca_file: str) -> Any:
    """TLS that trusts the cluster's CA (ca.pem is no secret) but shows no certificate."""
    from distributed import Security

    class NoCertificate(Security):  # type: ignore[misc]
        def get_connection_args(self, role: str) -> dict[str, Any]:
            ctx = ssl.create_default_context(ssl.Purpose.SERVER_AUTH, cafile=self.tls_ca_file)
            ctx.check_hostname = False
            return {"ssl_context": ctx, "require_encryption": True, "extra_conn_args": {}}

    return NoCertificate(require_encryption=True, tls_ca_file=ca_file)


@pytest.mark.slow
def test_without_the_instructors_certificates_no_one_gets_in(procs: ProcessCluster, certs: Path, work: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    from distributed import Client, Security

    # a learner with certificates of their own (the same kit command), trusting the real CA
    cluster.make_certs(work / "learner")
    mine = work / "learner"
    marker = work / "learner-was-here"
    attempts = {
        "own certificate": Security(require_encryption=True, tls_ca_file=str(certs / "ca.pem"),
                                    tls_client_cert=str(mine / "instructor.pem"),
                                    tls_client_key=str(mine / "instructor.key")),
        "no certificate": no_certificate(str(certs / "ca.pem")),
        "plain tcp": None,
    }
    for what, sec in attempts.items():
        address = procs.address if sec else procs.address.replace("tls://", "tcp://")
        with pytest.raises((OSError, TimeoutError)):
            with Client(address, security=sec, timeout="5s", set_as_default=False) as c:
                c.submit(marker.write_text, "pwned").result()
        assert not marker.exists(), what
    # and the command refuses a plain address unless told it is private
    code = main(["--lang", "en", "grade", str(ROOT / "exercises" / "source"), "--out", str(work / "tcp"),
                 "--scheduler", procs.address.replace("tls://", "tcp://")])
    assert code == 2 and "--insecure-scheduler" in capsys.readouterr().err
    assert not (work / "tcp").exists()


def _attempts(address: str, worker: str, sec: Any, marker: Path) -> dict[str, str]:
    """What a peer with ``sec`` gets when it asks the scheduler to run a function, to broadcast one
    to the workers, and a worker to run one (each would write ``marker``): "ran" or the error."""
    import asyncio
    import functools

    from distributed.core import rpc
    from distributed.protocol import pickle

    fn = pickle.dumps(functools.partial(Path.write_text, marker, "pwned"))
    args = sec.get_connection_args("client")

    async def attempt(addr: str, op: str) -> str:
        async with rpc(addr, connection_args=args, timeout=30) as r:
            try:
                if op == "broadcast":
                    await r.broadcast(msg={"op": "run", "function": fn})
                else:
                    await getattr(r, op)(function=fn)
            except Exception as err:
                return f"{type(err).__name__}: {err}"
            return "ran"

    async def all_of_them() -> dict[str, str]:
        return {"scheduler run_function": await attempt(address, "run_function"),
                "scheduler broadcast": await attempt(address, "broadcast"),
                "worker run": await attempt(worker, "run")}

    # in a thread of its own: a browser test run before this one in the same pytest worker leaves
    # Playwright's event loop running in this thread, and asyncio.run refuses to start in it
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, all_of_them()).result()


@pytest.mark.slow
def test_a_worker_certificate_cannot_act_as_the_instructors_client(procs: ProcessCluster, certs: Path,
                                                                   work: Path) -> None:
    """The worker's key (on every worker machine) opens no client, and runs nothing through the
    scheduler or on another worker; the instructor's, sent the same requests, runs them."""
    from distributed import Client

    with Client(procs.address, security=cluster.security(certs), timeout="60s", set_as_default=False) as c:
        workers = sorted(c.scheduler_info()["workers"])
    control = work / "instructor-ran"
    ran = _attempts(procs.address, workers[0], cluster.security(certs), control)
    assert ran == {"scheduler run_function": "ran", "scheduler broadcast": "ran", "worker run": "ran"}
    assert control.read_text() == "pwned"  # the requests themselves work
    marker = work / "worker-key-ran"
    worker_key = cluster.security(certs, "worker")
    refused = _attempts(procs.address, workers[0], worker_key, marker)
    for what, answer in refused.items():
        assert answer.startswith("PermissionError") and "worker certificate may not call" in answer, (what, answer)
    with pytest.raises((OSError, TimeoutError)):
        with Client(procs.address, security=worker_key, timeout="10s", set_as_default=False) as c:
            c.submit(marker.write_text, "pwned").result()
    assert not marker.exists()
    assert "refused 'register-client' from a worker certificate" in procs.log("scheduler")


@pytest.mark.slow
def test_a_cluster_that_does_not_keep_the_roles_apart_is_refused(certs: Path, work: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """Without the preload, a worker's key runs code on the workers (what the gate stops);
    `grade --scheduler` then refuses to use the cluster (exit 2, saying what to add)."""
    bare = ProcessCluster(work / "bare", certs, workers=1, roles=False)
    try:
        from distributed import Client

        with Client(bare.address, security=cluster.security(certs), timeout="60s", set_as_default=False) as c:
            c.wait_for_workers(1, timeout=120)
            [worker] = c.scheduler_info()["workers"]
        marker = work / "bare-worker-key-ran"
        assert _attempts(bare.address, worker, cluster.security(certs, "worker"), marker)["worker run"] == "ran"
        assert marker.exists()
        capsys.readouterr()
        code = main(["--lang", "en", "grade", str(ROOT / "exercises" / "source"), "--out", str(work / "bare-out"),
                     "--scheduler", bare.address, "--certs", str(certs), "--no-progress", *SANDBOX])
        err = capsys.readouterr().err
        assert code == 2 and "--preload baccarat_kit.grading.dask_roles" in err, err
        assert not (work / "bare-out").exists()
    finally:
        bare.stop()


def test_the_role_gate_as_data() -> None:
    from baccarat_kit.grading import dask_roles

    def comm(common: str | None) -> Any:
        class Comm:
            extra_info = ({} if common is None else
                          {"peercert": {"subject": ((("commonName", common),),)}})
        return Comm()

    run = dask_roles._gated("run", lambda function: "ran", dask_roles.WORKER_OPS_OF_WORKERS, "worker")
    get = dask_roles._gated("get_data", lambda comm, keys: keys, dask_roles.WORKER_OPS_OF_WORKERS, "worker")
    assert run(comm("baccarat-kit dask instructor"), function=b"") == "ran"
    assert run(comm("baccarat-kit dask scheduler"), function=b"") == "ran"
    assert run(comm(None), function=b"") == "ran"  # plain tcp: no certificate, no roles
    for who in ("baccarat-kit dask worker", "someone else"):
        with pytest.raises(PermissionError, match="may not call 'run'"):
            run(comm(who), function=b"")
    assert get(comm("baccarat-kit dask worker"), keys=["k"]) == ["k"]
    stream = dask_roles._worker_stream_only("update-graph", lambda **kw: "queued")
    assert stream(client="c1") == "queued"
    with pytest.raises(PermissionError):
        stream(client="c1", worker="tls://w")  # a client's message in a worker's stream


def test_the_instructors_files_are_private_and_the_ca_key_is_gone(certs: Path) -> None:
    assert stat.S_IMODE(certs.stat().st_mode) == 0o700
    assert sorted(p.name for p in certs.iterdir()) == sorted(cluster.CERT_FILES)
    for role in cluster.ROLES:
        assert stat.S_IMODE((certs / f"{role}.key").stat().st_mode) == 0o600
    with pytest.raises(GradeUsageError) as err:
        cluster.make_certs(certs)
    assert err.value.key == "grading.dask.certs_exist"


def test_dask_certs_refuses_a_folder_it_does_not_own_or_a_link(tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    """An empty folder another user made (she could swap or read the files in it), a link to an
    empty folder, a dangling link: each refused with exit 2 naming the folder; nothing written."""
    if os.geteuid() != 0:
        pytest.skip("making another user's folder needs root")
    theirs = tmp_path / "hers"
    theirs.mkdir(mode=0o777)
    os.chown(theirs, 65534, 65534)
    mine = tmp_path / "mine"
    mine.mkdir()
    (tmp_path / "link").symlink_to(mine)
    (tmp_path / "dangling").symlink_to(tmp_path / "nowhere")
    for folder, says in ((theirs, "belongs to nobody (uid 65534)"), (tmp_path / "link", "is a link"),
                         (tmp_path / "dangling", "is a link")):
        assert main(["--lang", "en", "dask-certs", str(folder)]) == 2
        err = capsys.readouterr().err
        assert str(folder) in err and says in err, err
    assert list(theirs.iterdir()) == [] and list(mine.iterdir()) == [] and not (tmp_path / "nowhere").exists()
    assert theirs.stat().st_uid == 65534  # left as it was
    assert main(["--lang", "en", "dask-certs", str(mine)]) == 0  # her own empty folder is fine
    assert mine.stat().st_uid == os.geteuid() and stat.S_IMODE(mine.stat().st_mode) == 0o700
    assert sorted(p.name for p in mine.iterdir()) == sorted(cluster.CERT_FILES)


def test_a_readable_key_or_a_missing_file_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / "c"
    cluster.make_certs(folder)
    os.chmod(folder / "instructor.key", 0o644)
    with pytest.raises(GradeUsageError) as err:
        cluster.security(folder)
    assert "0644" in err.value.message("en")
    (folder / "instructor.pem").unlink()
    with pytest.raises(GradeUsageError) as err:
        cluster.security(folder)
    assert "instructor.pem" in err.value.message("en")


def test_a_worker_certificate_given_as_the_instructors_is_named_before_connecting(tmp_path: Path) -> None:
    """A worker's files copied in as instructor.* were only a timeout at the scheduler ("could not
    connect"); the client reads its own certificate's role and says what is wrong, in one language."""
    folder = tmp_path / "c"
    cluster.make_certs(folder)
    for ext in ("pem", "key"):
        (folder / f"instructor.{ext}").write_bytes((folder / f"worker.{ext}").read_bytes())
    assert cluster.cert_role(folder / "instructor.pem") == "worker"
    with pytest.raises(GradeUsageError) as err:
        cluster.security(folder)
    en, zh = err.value.message("en"), err.value.message("zh")
    assert "instructor.pem is a worker certificate, not the instructor's" in en
    assert "instructor.pem 是工作節點的憑證，不是講師的" in zh and "worker" not in zh.split("instructor.pem", 1)[1].split("：")[0]
    cluster.security(folder, "worker")  # the worker's own role is still fine


@pytest.mark.parametrize(("address", "certs", "insecure", "key"), [
    ("tcp://10.0.0.5:8786", None, False, "grading.dask.insecure"),
    ("10.0.0.5:8786", None, False, "grading.dask.insecure"),
    ("tls://10.0.0.5:8786", None, False, "grading.dask.needs_certs"),
    ("ucx://10.0.0.5:8786", "c", True, "grading.dask.bad_address"),
    ("tls://", "c", False, "grading.dask.bad_address"),
])
def test_addresses_that_are_refused(address: str, certs: str | None, insecure: bool, key: str) -> None:
    with pytest.raises(GradeUsageError) as err:
        cluster.check_address(address, certs, insecure)
    assert err.value.key == key and address in err.value.message("en")


def test_certs_without_a_scheduler_is_a_usage_mistake(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["--lang", "en", "grade", str(ROOT / "exercises" / "source"), "--out", str(tmp_path / "o"),
                 "--certs", str(tmp_path)])
    assert code == 2 and "--scheduler" in capsys.readouterr().err


def test_a_worker_grades_the_bytes_it_was_sent_in_a_folder_of_its_own(tmp_path: Path) -> None:
    data = (ROOT / "tests" / "fixtures" / "submissions" / "not-json.ipynb").read_bytes()
    before = set(Path(tempfile.gettempdir()).glob("bk-grade-*"))
    sub = cluster.grade_sent("not-json.ipynb", data, "collected/ana/not-json.ipynb", EXERCISES, Limits(),
                             cluster.kit_fingerprint())
    assert (sub.file, sub.status) == ("collected/ana/not-json.ipynb", "not_json")
    assert set(Path(tempfile.gettempdir()).glob("bk-grade-*")) == before
    with pytest.raises(cluster.KitMismatch, match="not the client's"):
        cluster.grade_sent("x.ipynb", data, "x.ipynb", EXERCISES, Limits(), "0" * 64)


@pytest.mark.slow
def test_a_file_over_the_size_limit_is_judged_on_the_client(procs: ProcessCluster, certs: Path, tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    from distributed import Client

    big = tmp_path / "01-card-values.ipynb"
    big.write_bytes(b" " * 2048)
    monkeypatch.setattr(cluster, "MAX_FILE_BYTES", 1024)
    monkeypatch.setattr(_session, "MAX_FILE_BYTES", 1024)
    sent: list[Any] = []
    with Client(procs.address, security=cluster.security(certs), timeout="60s", set_as_default=False) as c:
        submit = cluster.DaskSubmit(c, EXERCISES, Limits())
        monkeypatch.setattr(c, "submit", lambda *a, **k: sent.append(a))
        try:
            [sub] = grade_paths([big], EXERCISES, Limits(), submit=submit)
        finally:
            submit.close()
    assert sub.status == "too_large" and sent == []


def test_the_kubernetes_examples_parse_and_keep_tls_on() -> None:
    yaml = pytest.importorskip("yaml")
    folder = ROOT / "deploy" / "jupyterhub"
    cluster_doc, policy = yaml.safe_load_all((folder / "dask-kubernetes.yaml").read_text(encoding="utf-8"))
    assert (cluster_doc["kind"], policy["kind"]) == ("DaskCluster", "NetworkPolicy")
    for part in ("scheduler", "worker"):
        [container] = cluster_doc["spec"][part]["spec"]["containers"]
        args = container["args"]
        assert "--tls-ca-file" in args and "--tls-cert" in args and "--tls-key" in args, part
        assert args[args.index("--dashboard-address") + 1].startswith("127.0.0.1:"), part
        env = {e["name"]: e["value"] for e in container.get("env", ())}
        gated = ("baccarat_kit.grading.dask_roles" in args[args.index("--preload") + 1:][:1] if "--preload" in args
                 else "baccarat_kit.grading.dask_roles" in env.get("DASK_DISTRIBUTED__WORKER__PRELOAD", ""))
        assert gated, part  # the role gate on the scheduler and the workers
    assert "tls://" in " ".join(cluster_doc["spec"]["worker"]["spec"]["containers"][0]["args"])
    gateway = yaml.safe_load((folder / "dask-gateway-values.yaml").read_text(encoding="utf-8"))
    assert "instructors" in gateway["gateway"]["extraConfig"]["instructors-only"]
    compile(gateway["gateway"]["extraConfig"]["instructors-only"], "gateway extraConfig", "exec")  # valid Python
