"""Each submission in its own namespaces (issue 11): the bubblewrap command line as data, and one
batch of hostile submissions (tests/fixtures/submissions/sandbox) graded beside the honest
model solutions, as root and as an unprivileged user. Every attack CLASS is checked by what
the attack itself observed (its answers), and by what is left on the host afterwards."""

from __future__ import annotations

import ctypes
import json
import os
import resource
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from baccarat_kit.cli import main
from baccarat_kit.grading import grade as g
from baccarat_kit.grading.sandbox import bwrap, session

ROOT = Path(__file__).resolve().parents[1]
SOURCES = sorted((ROOT / "exercises" / "source").glob("*.ipynb"))
HERE = ROOT / "tests" / "fixtures" / "submissions" / "sandbox"
WRITER, READER, NEIGHBOURS, SECRETS = (HERE / f"{n}.ipynb" for n in ("ipc-writer", "ipc-reader", "neighbours", "secrets"))
LIMITS = ["--timeout", "8", "--notebook-timeout", "40"]
GRADER_PEAK_MB = 120
"""The grader's own peak memory (VmHWM) while a 20 MB one-cell notebook is refused: 68 MB measured
(three runs, Python 3.11, the sandbox test alone), so 120 leaves room for another Python or NumPy
without letting the grader hold the parsed notebook (the cell's list of ten million zeros alone
is over 80 MB)."""
KEY = 0x0BACCA11

try:
    bwrap.check()
    WORKING = ""
except bwrap.SandboxMissing as err:
    WORKING = str(err)
REQUIRED = os.environ.get("REQUIRE_BWRAP", "").strip().lower() in {"1", "true", "yes", "on"}
"""``.ci/run`` sets ``REQUIRE_BWRAP=1`` (it installs bubblewrap): then these tests run and fail, never skip."""
needs_bwrap = pytest.mark.skipif(bool(WORKING) and not REQUIRED, reason=f"no working bubblewrap: {WORKING}")


def _observed(doc: dict[str, Any], path: Path) -> dict[str, str]:
    """What a fixture's attack observed: its four answers, as the feedback quotes them."""
    sub = next(s for s in doc["submissions"] if Path(s["file"]).name == path.name)
    assert sub["score"] == 0, sub
    out = {}
    for q in ("q1", "q2", "q3", "q4"):
        answer = sub["questions"][q].get("answer")  # the learner's answer as results.json shows it
        text = answer if isinstance(answer, str) else sub["questions"][q]["message"]["en"]
        if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
            text = text[1:-1]
        out[q] = text
    return out


def _sysv_keys() -> set[int]:
    keys = set()
    for kind in ("shm", "msg", "sem"):
        lines = Path(f"/proc/sysvipc/{kind}").read_text().splitlines()[1:]
        keys |= {int(line.split()[0]) for line in lines if line.split()}
    return keys


def _grade(paths: list[Path], out: Path, *extra: str) -> tuple[int, dict[str, Any]]:
    code = main(["--lang", "en", "grade", *map(str, paths), "--out", str(out), "--jobs", "2", "--no-progress",
                 *LIMITS, *extra])
    return code, json.loads((out / "results.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module", params=["forked", "started"])
def batch(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The batch, its runners forked from the pre-imported template into each sandbox (the
    default), and started in each sandbox (``BACCARAT_KIT_GRADE_FORK=0``, as before issue 32)."""
    if WORKING and not REQUIRED:
        pytest.skip(f"no working bubblewrap: {WORKING}")
    before = {"keys": _sysv_keys(), "nice": os.getpriority(os.PRIO_PROCESS, 0),
              "limits": [resource.getrlimit(r) for r in (resource.RLIMIT_AS, resource.RLIMIT_NPROC)]}
    saved = os.environ.get(session.FORK_ENV)
    os.environ[session.FORK_ENV] = "1" if request.param == "forked" else "0"
    try:
        # The writer comes first; the reader is graded after it, honest solutions in between.
        code, doc = _grade([WRITER, *SOURCES, READER, NEIGHBOURS, SECRETS], tmp_path_factory.mktemp("sandbox") / "out")
    finally:
        if saved is None:
            os.environ.pop(session.FORK_ENV, None)
        else:
            os.environ[session.FORK_ENV] = saved
    assert ("forked from a pre-imported template" in doc["limits"]["sandbox"]) == (request.param == "forked")
    return {"code": code, "doc": doc, "before": before}


def test_the_bwrap_command_line_is_data() -> None:
    argv = bwrap.bwrap_argv(["python3", "-I"], [(7, "/opt/python"), ("/srv/kit", "/srv/kit")], {"HOME": "/tmp/home"},
                            layout={"/lib": "link:usr/lib", "/bin": "link:usr/bin", "/lib64": "dir"},
                            files=["/etc/ld.so.cache"])
    assert argv[0] == "/usr/bin/bwrap" and argv[-3:] == ["--", "python3", "-I"]
    options = argv[:argv.index("--")]
    for flag in ("--unshare-all", "--unshare-user", "--disable-userns", "--die-with-parent", "--new-session",
                 "--clearenv", "--remount-ro"):
        assert flag in options, flag
    assert options[options.index("--cap-drop") + 1] == "ALL"
    assert options[options.index("--uid") + 1] == options[options.index("--gid") + 1] == str(bwrap.SANDBOX_UID)
    # every bind is read-only; nothing of the host is writable
    assert not {"--bind", "--dev-bind", "--bind-try", "--bind-fd", "--share-net"} & set(options)
    binds = [tuple(options[i + 1:i + 3]) for i, a in enumerate(options) if a in ("--ro-bind", "--ro-bind-fd")]
    assert binds == [("/usr", "/usr"), ("/lib64", "/lib64"), ("/etc/ld.so.cache", "/etc/ld.so.cache"),
                     ("7", "/opt/python"), ("/srv/kit", "/srv/kit")]
    assert ("usr/lib", "/lib") in [tuple(options[i + 1:i + 3]) for i, a in enumerate(options) if a == "--symlink"]
    # a private, size-limited /tmp and /dev/shm; the working folder and home inside it
    assert options[options.index("--tmpfs") - 4:options.index("--tmpfs") + 2] == [
        "--size", str(bwrap.TMP_MB * 1024 * 1024), "--perms", "1777", "--tmpfs", "/tmp"]
    assert options[options.index("--chdir") + 1] == bwrap.INSIDE_WORK
    assert options[options.index("--setenv"):options.index("--setenv") + 3] == ["--setenv", "HOME", "/tmp/home"]


def test_python_folders_never_bind_the_checkout() -> None:
    folders = bwrap.python_folders()
    assert str(ROOT) not in folders and str(ROOT / "exercises") not in folders
    assert str(ROOT / "baccarat_kit") not in folders  # issue 30: the kit is not in a grading run


@needs_bwrap
def test_honest_neighbours_keep_full_marks(batch: dict[str, Any]) -> None:
    assert batch["code"] == 0
    assert batch["doc"]["limits"]["sandbox"].startswith("bubblewrap namespaces")
    for source in SOURCES:
        s = next(s for s in batch["doc"]["submissions"] if s["file"] == str(source))
        assert s["status"] == "ok" and s["score"] == s["max_score"] - s["pending_points"] > 0, s["reason"]


@needs_bwrap
def test_ipc_state_never_reaches_a_later_submission(batch: dict[str, Any]) -> None:
    wrote = _observed(batch["doc"], WRITER)
    assert wrote["q1"] == "shm:made:found" and wrote["q2"] == "msg:made" and wrote["q3"] == "sem:made", wrote
    assert "/tmp/bk-table" in wrote["q4"]  # its own private /tmp
    read = _observed(batch["doc"], READER)
    assert read == {"q1": "shm:ENOENT", "q2": "msg:ENOENT", "q3": "sem:ENOENT", "q4": "files:"}, read


@needs_bwrap
def test_nothing_a_submission_made_outlives_it(batch: dict[str, Any]) -> None:
    """Only what this batch made is looked at: its writer's IPC key and file names, and the
    processes of its own sandbox uids (another grading batch on the same machine, as on a shared
    teaching server or CI runner, has uids of its own and is none of this test's business)."""
    assert KEY not in _sysv_keys() - batch["before"]["keys"]  # (other programs' IPC objects: not checked)
    assert not Path("/dev/shm/bk-table").exists() and not Path("/tmp/bk-table").exists()
    if os.geteuid() == 0:  # each sandbox ran as its own uid: none of their processes is left
        mine = bwrap.host_uids()
        left = [p for p in os.listdir("/proc") if p.isdigit() and _uid(p) in mine]
        assert left == []


def _uid(pid: str) -> int:
    """The owner of a live process (-1 for one that ended: gone, or a zombie not yet reaped by
    the machine's init, which holds nothing but its pid)."""
    try:
        if not bwrap._alive(int(pid)):
            return -1
        return os.stat(f"/proc/{pid}").st_uid
    except OSError:
        return -1


@needs_bwrap
def test_no_neighbour_and_not_the_grader_can_be_signalled_limited_or_traced(batch: dict[str, Any]) -> None:
    seen = _observed(batch["doc"], NEIGHBOURS)
    assert seen["q1"] == "listed:PermissionError" or all(int(p) <= 3 for p in seen["q1"][7:].split(",")), seen
    assert seen["q2"] == "kill:none", seen
    # prlimit/setpriority reached at most the sandbox's own processes of its uid: its init (pid 1
    # inside its namespace), the placeholder a pre-imported runner is forked beside (session.PLACEHOLDER,
    # pid 2) and the supervisor (2, or 3 beside a placeholder); never the grader or a neighbour
    for part in seen["q3"].split():
        pids = part.split(":")[1]
        assert pids == "none" or all(int(p) <= 3 for p in pids.split(",")), seen
    assert seen["q4"] == "ptrace:none", seen
    assert os.getpriority(os.PRIO_PROCESS, 0) == batch["before"]["nice"]
    assert [resource.getrlimit(r) for r in (resource.RLIMIT_AS, resource.RLIMIT_NPROC)] == batch["before"]["limits"]


@needs_bwrap
def test_secrets_sources_outputs_and_other_submissions_are_not_there(batch: dict[str, Any]) -> None:
    seen = _observed(batch["doc"], SECRETS)
    assert "shadow:read" not in seen["q1"] and "passwd:read" not in seen["q1"], seen
    checkout = seen["q2"][len("checkout:"):]
    # (the folder beside bk.__file__ is the grading run's own: the exercise API and the runner, issue 30)
    assert checkout == "PermissionError" or set(checkout.split(",")) <= {"baccarat_kit", "bk_sandbox", ".venv"}, seen
    assert not seen["q3"].startswith("src:read"), seen
    # the sandbox's /tmp holds its own folders, plus the bare path down to the checkout and the
    # Python installation when those live under /tmp themselves (CI may clone there): folders bound
    # read-only at their own paths, which q2 shows hold only the package and the venv
    listed, _, rest = seen["q4"][len("tmp:"):].partition(" ")
    import sys

    below_tmp = {Path(p).resolve().relative_to("/tmp").parts[0] for p in (ROOT, sys.prefix, sys.base_prefix)
                 if Path(p).resolve().is_relative_to("/tmp")}
    assert {"home", "submission"} <= set(listed.split(",")) <= {"home", "submission", *below_tmp}, seen
    assert "root:read" not in rest, seen


@needs_bwrap
def test_a_function_answer_sees_no_ipc_object_of_the_host_or_of_its_notebook() -> None:
    """A function answer runs in its notebook's sandbox, in an IPC namespace of its own: a segment
    holding the answers, made outside (by this test, standing for an earlier submission or the
    host), is not there."""
    libc = ctypes.CDLL(None, use_errno=True)
    shmid = libc.shmget(KEY + 1, 4096, 0o1600)
    assert shmid >= 0
    try:
        exercises = g.load_exercises(ROOT / "exercises" / "source")
        question = next(q for q in exercises["02-naturals-player"].questions if q.kind == "function")
        code = ("import ctypes\n"
                f"def {question.answer}(total):\n"
                f"    return ctypes.CDLL(None).shmget({KEY + 1}, 0, 0) >= 0\n")
        report, parsed = session.run_notebook([code], [question.extraction()], g.Limits(cell_timeout=20))
        assert report["status"] == "ok" and parsed is not None, report
        answer = parsed["answers"][question.id]
        assert answer["status"] == "ok", answer
        assert answer["results"] and not any(answer["results"]), answer  # never found
    finally:
        libc.shmctl(shmid, 0, None)  # IPC_RMID


@needs_bwrap
def test_cells_keep_ipython_semantics() -> None:
    """Magics, the displayhook's ``_``, display() and an error in the middle: as in a kernel."""
    exercises = g.load_exercises(ROOT / "exercises" / "source")
    questions = [q for q in exercises["03-banker-rule"].questions if q.kind != "function"]
    cells = ["LEARNER_ID = 'ipy'\nx = 20", "%time y = x + 1", "y * 2", "doubled = _", "1 / 0",
             "from IPython.display import display\ndisplay(doubled)\ncase_a = doubled == 42",
             "case_b = get_ipython().__class__.__name__ == 'InteractiveShell'"]
    report, parsed = session.run_notebook(cells, [q.extraction() for q in questions], g.Limits())
    assert report["status"] == "ok" and report["errors"] == 1, report
    assert parsed is not None and parsed["learner_id"] == "ipy"
    assert parsed["answers"]["q1"] == {"status": "ok", "value": True}
    assert parsed["answers"]["q2"] == {"status": "ok", "value": True}


def _big_notebook(path: Path, size: int) -> None:
    nb = json.loads((ROOT / "exercises" / "03-banker-rule.ipynb").read_text(encoding="utf-8"))
    head = json.dumps(nb)[:-1]
    filler = size - len(head) - 200
    cell = {"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [],
            "source": "big = [" + "0," * (filler // 2) + "]"}
    nb["cells"] = [cell]
    path.write_text(json.dumps(nb), encoding="utf-8")


@needs_bwrap
def test_a_20_mb_one_cell_notebook_is_refused_on_its_row_with_bounded_memory(tmp_path: Path) -> None:
    big, huge = tmp_path / "03-banker-rule-big.ipynb", tmp_path / "03-banker-rule-huge.ipynb"
    _big_notebook(big, int(19.9 * 1024 * 1024))
    assert 19 * 1024 * 1024 < big.stat().st_size <= g.MAX_FILE_BYTES
    with huge.open("wb") as fh:  # sparse: over the limit, refused before it is read
        fh.truncate(25 * 1024 * 1024)
    out = tmp_path / "out"
    # The grader's own peak: VmHWM, the high-water mark of this process's memory since its exec.
    # Not ru_maxrss: subprocess starts the child with vfork, and Linux carries the parent's peak
    # over an exec into the child's ru_maxrss (fs/exec.c, setmax_mm_hiwater_rss of the old mm), so
    # ru_maxrss here is max(this pytest worker's own peak so far, the grader's) -- 397 MB once, in a
    # worker that had run memory-hungry tests before. The grader grades in threads (--jobs), so
    # VmHWM covers all of them; the reader and the sandboxes are processes of their own, bounded by
    # their own limits (RLIMIT_AS, the cgroup) and tested elsewhere.
    script = ("import json, resource, sys\n"
              "from baccarat_kit.cli import main\n"
              "code = main(sys.argv[1:])\n"
              "hwm = [int(line.split()[1]) for line in open('/proc/self/status', encoding='ascii')\n"
              "       if line.startswith('VmHWM:')]\n"
              "print(json.dumps([code, hwm[0] if hwm else None,\n"
              "                  resource.getrusage(resource.RUSAGE_SELF).ru_maxrss]))\n")
    run = subprocess.run([sys.executable, "-c", script, "--lang", "en", "grade", str(big), str(huge), str(SOURCES[2]),
                          "--out", str(out), "--jobs", "2", "--no-progress", *LIMITS],
                         capture_output=True, text=True, timeout=300, check=False)
    code, peak_kb, maxrss_kb = json.loads(run.stdout.splitlines()[-1])
    assert code == 0, run.stderr
    doc = json.loads((out / "results.json").read_text(encoding="utf-8"))
    status = {Path(s["file"]).name: s for s in doc["submissions"]}
    assert status[big.name]["status"] == "too_much_code" and status[big.name]["score"] == 0
    assert status[huge.name]["status"] == "too_large"
    third = status[SOURCES[2].name]
    assert third["score"] == third["max_score"] - third["pending_points"]  # the batch went on
    # Bounded (GRADER_PEAK_MB): the grader holds the 20 MB file's bytes, never its parsed cells.
    if peak_kb is None:  # pragma: no cover - a kernel without /proc/self/status
        peak_kb = maxrss_kb
    assert peak_kb < GRADER_PEAK_MB * 1024, f"grader peak {peak_kb / 1024:.0f} MB (ru_maxrss {maxrss_kb / 1024:.0f} MB)"


def test_a_file_the_reader_cannot_parse_within_its_limit_is_a_status(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    bomb = tmp_path / "03-banker-rule-bomb.ipynb"
    bomb.write_text('{"cells": [' + ",".join(["[]"] * 2_000_000) + "]}", encoding="utf-8")
    monkeypatch.setattr(session, "READER_MEMORY_MB", 64)
    sub = g.grade_file(bomb, g.load_exercises(ROOT / "exercises" / "source"))
    assert sub.status == "too_complex" and sub.score == 0


def test_grading_stops_before_it_starts_without_bubblewrap(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(bwrap, "find_bwrap", lambda: None)
    bwrap.check.cache_clear()
    try:
        code = main(["--lang", "en", "grade", str(SOURCES[0]), "--out", str(tmp_path / "out"), "--no-progress"])
    finally:
        bwrap.check.cache_clear()
    err = capsys.readouterr().err
    assert code == 2 and not (tmp_path / "out").exists()
    assert "bubblewrap" in err and bwrap.INSTALL_COMMAND in err and "--no-sandbox" in err


def test_no_sandbox_is_loud_and_recorded(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out"
    code = main(["--lang", "en", "grade", str(SOURCES[1]), "--out", str(out), "--no-progress", "--no-sandbox"])
    err = capsys.readouterr().err
    assert code == 0 and "WARNING: --no-sandbox" in err
    doc = json.loads((out / "results.json").read_text(encoding="utf-8"))
    assert doc["limits"]["sandbox"].startswith("NONE: --no-sandbox")
    sub = doc["submissions"][0]
    assert sub["score"] == sub["max_score"] - sub["pending_points"] > 0
    assert any("--no-sandbox" in w["en"] for w in sub["warnings"])
    assert sub["sandbox"] == "none"
    import csv

    rows = list(csv.DictReader((out / "grades.csv").open(encoding="utf-8")))
    assert [r["sandbox"] for r in rows] == ["none"]     # the gradebook says so too


# ---------------------------------------------------------------- as an unprivileged user
NOBODY = 65534


def _masks(folders: list[str]) -> list[str]:
    """The folders to cover so that uid 65534 can reach ``folders``: for each, its top-most
    ancestor (or itself) that others may not enter or list (``/root``, a ``mktemp -d`` folder of
    0700 holding the clone). Never a world-searchable folder above it (``/tmp``): covering that
    would hide everything else there, the stage and the test's own folder included."""
    import stat

    out: set[str] = set()
    for folder in folders:
        real = os.path.realpath(folder)
        parts = real.split("/")
        for i in range(2, len(parts) + 1):
            here = "/".join(parts[:i])
            mode = os.stat(here).st_mode
            if not mode & stat.S_IXOTH or (here == real and not mode & stat.S_IROTH):
                out.add(here)
                break
    return sorted(out, key=len)


def _as_nobody_command(stage: Path) -> list[str] | None:
    """A command prefix that runs as uid 65534 with no groups, and can still reach this Python,
    its venv and the kit when they live under a folder only root may enter (``/root/.pyenv``, a
    clone in a 0700 ``mktemp -d`` folder): in a private mount namespace, each such folder is
    bound read-only onto ``stage`` (an empty folder of the caller's, a stepping stone outside
    every covered folder), the closed folder above it is covered by an empty tmpfs (mode 755),
    and the stage is bound back, read-only, at the folder's own path."""
    import shlex

    if os.geteuid() != 0 or not shutil.which("setpriv") or not shutil.which("unshare"):
        return None
    # Python, its venv, and the kit itself: the grader (not the sandbox, which never sees the kit)
    kit = str(Path(bwrap.__file__).resolve().parents[2])
    hidden = [f for f in [*bwrap.python_folders(), kit] if not bwrap._world_readable(f)]
    drop = ["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups", "--"]
    if not hidden:
        return drop
    masks = _masks(hidden)
    assert not any(stage.resolve().is_relative_to(m) for m in masks), (stage, masks)
    q = shlex.quote
    script = ["set -e"]
    for i, folder in enumerate(hidden):  # folders, and files such as a venv's pyvenv.cfg
        if os.path.isdir(folder):
            (stage / str(i)).mkdir()
        else:
            (stage / str(i)).touch()
        script.append(f"mount --bind -o ro {q(folder)} {q(str(stage / str(i)))}")
    for mask in masks:
        script.append(f"mount -t tmpfs -o mode=755 tmpfs {q(mask)}")
    for i, folder in enumerate(hidden):
        make = (f"mkdir -p {q(folder)}" if os.path.isdir(folder)
                else f"mkdir -p {q(os.path.dirname(folder))} && touch {q(folder)}")
        script.append(f"{make} && mount --bind -o ro {q(str(stage / str(i)))} {q(folder)}")
    script.append('exec "$@"')
    return ["unshare", "--mount", "--propagation", "private", "--", "/bin/sh", "-c", "; ".join(script), "sh", *drop]


def test_the_nobody_helper_covers_only_closed_folders(tmp_path: Path) -> None:
    """Its own stepping stone and working folder (under ``/tmp``) stay visible: only the top-most
    closed folder is covered, never ``/tmp`` or ``/`` above it."""
    closed = tmp_path / "closed dir"
    (closed / "kit" / ".venv").mkdir(parents=True)
    os.chmod(tmp_path, 0o755)
    os.chmod(closed, 0o700)
    above = _masks([str(tmp_path)])  # pytest's folder may itself lie in a 0700 folder (a clone's)
    try:
        assert _masks([str(closed / "kit" / ".venv"), str(closed / "kit")]) == (above or [str(closed.resolve())])
        assert _masks(["/usr/lib"]) == []
    finally:
        os.chmod(closed, 0o755)


@needs_bwrap
def test_the_same_batch_as_an_unprivileged_user(tmp_path: Path) -> None:
    work = Path("/tmp") / f"bk-nobody-{os.getpid()}"
    work.mkdir(mode=0o777)
    try:
        os.chmod(work, 0o777)
        (work / "stage").mkdir()
        prefix = _as_nobody_command(work / "stage")
        if prefix is None:
            pytest.skip("needs root (to become uid 65534) with setpriv and unshare")
        subs = []
        for path in [WRITER, *SOURCES, READER, NEIGHBOURS, SECRETS]:
            shutil.copy(path, work / path.name)
            subs.append(str(work / path.name))
        # the instructor's sources in a folder of theirs (the checkout may be closed to them)
        shutil.copytree(ROOT / "exercises" / "source", work / "source")
        out = work / "out"
        env = {"PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "HOME": str(work), "LANG": "C.UTF-8"}
        run = subprocess.run([*prefix, sys.executable, "-m", "baccarat_kit.cli", "--lang", "en", "grade", *subs,
                              "--source", str(work / "source"), "--out", str(out), "--jobs", "2", "--no-progress", *LIMITS],
                             capture_output=True, text=True, timeout=600, env=env, cwd=str(work), check=False)
        if run.returncode == 2 and "cannot create namespaces" in run.stderr:
            pytest.skip(f"unprivileged user namespaces do not work here: {run.stderr.strip()}")
        assert run.returncode == 0, run.stderr
        assert os.stat(out / "results.json").st_uid == NOBODY  # it really ran as nobody
        doc = json.loads((out / "results.json").read_text(encoding="utf-8"))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    assert doc["limits"]["sandbox"].startswith("bubblewrap namespaces")
    assert "forked from a pre-imported template" in doc["limits"]["sandbox"], run.stderr  # (not root: it enters too)
    assert "pre-imported runner cannot enter" not in run.stderr, run.stderr
    for s in doc["submissions"]:
        if Path(s["file"]).name in {p.name for p in SOURCES}:
            assert s["status"] == "ok" and s["score"] == s["max_score"] - s["pending_points"] > 0, s
    assert _observed(doc, READER) == {"q1": "shm:ENOENT", "q2": "msg:ENOENT", "q3": "sem:ENOENT", "q4": "files:"}
    seen = _observed(doc, NEIGHBOURS)
    assert seen["q2"] == "kill:none" and seen["q4"] == "ptrace:none", seen
    secrets = _observed(doc, SECRETS)
    assert "shadow:read" not in secrets["q1"] and not secrets["q3"].startswith("src:read"), secrets
    assert KEY not in _sysv_keys()
