"""baccarat_kit.hub without a running hub: the class list, the sign-in, the cgroup files, the
reach checks, the config as JupyterHub loads it (HTTPS with a certificate made here, the idle
culler), and collect/return with ``--hub-prefix``. The hub itself: tests/browser/test_hub.py."""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import os
import pwd
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from baccarat_kit.cli import main
from baccarat_kit.hub import accounts, classlist, env, limits

REPO = Path(__file__).resolve().parents[1]
CONFIG = REPO / "deploy" / "jupyterhub" / "jupyterhub_config.py"
ROOT = hasattr(os, "geteuid") and os.geteuid() == 0


# ---------------------------------------------------------------- the class list
def test_passwd_generates_one_password_per_learner_and_stores_only_hashes(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "classlist.csv"
    assert main(["hub", "passwd", str(path), "alice", "Bruno"]) == 0
    given = dict(line.split("\t") for line in capsys.readouterr().out.splitlines())
    assert set(given) == {"alice", "bruno"} and given["alice"] != given["bruno"]
    text = path.read_text()
    assert given["alice"] not in text and given["bruno"] not in text
    assert oct(path.stat().st_mode & 0o777) == "0o600"
    stored = classlist.load(path)
    assert classlist.verify(given["alice"], stored["alice"])
    assert not classlist.verify(given["alice"], stored["bruno"])  # A's password is not B's


def test_passwd_resets_one_learner_and_keeps_the_others(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "classlist.csv"
    classlist.set_passwords(path, {"alice": "old-a", "bruno": "old-b"})
    import io

    monkeypatch.setattr(sys, "stdin", io.StringIO("new-a\n"))
    assert main(["hub", "passwd", str(path), "alice", "--password-stdin"]) == 0
    stored = classlist.load(path)
    assert classlist.verify("new-a", stored["alice"]) and not classlist.verify("old-a", stored["alice"])
    assert classlist.verify("old-b", stored["bruno"])


@pytest.mark.parametrize("bad", ["", "Bad Name", "1abc", "a" * 21, "../x", "alice;rm", "é"])
def test_learner_names_that_cannot_be_unix_names_are_refused(bad: str) -> None:
    with pytest.raises(classlist.HubError) as err:
        classlist.valid_name(bad)
    assert repr(bad)[1:-1] in err.value.message("en") and "alice" in err.value.message("en")


def _authenticator(path: Path) -> Any:
    """The hub's authenticator on a hub database of its own (sqlite, as the hub's), as the hub makes it."""
    pytest.importorskip("nativeauthenticator")
    from jupyterhub import orm

    from baccarat_kit.hub.jupyter import ClassListAuthenticator

    db = orm.new_session_factory(f"sqlite:///{path.parent / 'jupyterhub.sqlite'}")()
    return ClassListAuthenticator(class_list=str(path), _deprecated_db_session=db)


def _login(auth: Any, name: str, password: str) -> str | None:
    # in a thread of its own: a browser test run before this one in the same pytest worker
    # leaves Playwright's event loop running in this thread (asyncio.run would refuse)
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, auth.authenticate(None, {"username": name, "password": password})).result()


def test_the_authenticator_signs_in_only_the_right_password_for_the_right_learner(tmp_path: Path) -> None:
    path = tmp_path / "classlist.csv"
    classlist.set_passwords(path, {"alice": "pw-alice", "bruno": "pw-bruno"})
    auth = _authenticator(path)
    assert _login(auth, "alice", "pw-alice") == "alice" and _login(auth, " Alice ", "pw-alice") == "alice"
    assert _login(auth, "bruno", "pw-alice") is None  # B with A's password
    assert _login(auth, "mallory", "pw-alice") is None and _login(auth, "alice", "") is None
    assert auth.check_allowed("alice") and not auth.check_allowed("mallory")
    classlist.remove(path, ["alice"])  # taken off the list: no sign-in, no restart needed
    assert _login(auth, "alice", "pw-alice") is None and not auth.check_allowed("alice")
    assert [h[0] for h in auth.get_handlers(None)] == ["/login", "/change-password", "/change-password/([^/]+)"]


def test_a_learner_changes_her_own_password_and_a_reset_still_works(tmp_path: Path) -> None:
    """The handed-out password becomes hers at her first sign-in (the hub keeps it; the list says
    "chosen"); she changes it (NativeAuthenticator's page calls change_password): only the new one
    works. The instructor's reset (hub passwd) works, and the one she chose stops working."""
    path = tmp_path / "classlist.csv"
    classlist.set_passwords(path, {"alice": "handed-out-1"})
    auth = _authenticator(path)
    assert _login(auth, "alice", "handed-out-1") == "alice"
    assert classlist.load(path)["alice"] == classlist.CHOSEN
    assert _login(auth, "alice", "handed-out-1") == "alice"  # kept as hers until she changes it
    assert not auth.change_password("alice", "short")  # at least 8 characters
    assert not auth.change_password("alice", "password")  # a common one is refused
    assert not auth.change_password("alice", "x" * 73)  # more than bcrypt takes
    assert auth.change_password("alice", "her own horse 7")
    assert _login(auth, "alice", "her own horse 7") == "alice"
    assert _login(auth, "alice", "handed-out-1") is None  # the paper slip no longer opens it
    assert _login(auth, "alice", "y" * 100) is None  # (no error for a long one)
    classlist.set_passwords(path, {"alice": "reset-by-teacher"})  # she forgot it
    assert _login(auth, "alice", "her own horse 7") is None
    assert _login(auth, "alice", "reset-by-teacher") == "alice"
    assert classlist.load(path)["alice"] == classlist.CHOSEN
    # an admin's reset on /hub/change-password/alice goes through the same method
    classlist.set_passwords(path, {"alice": "reset-again-2"})
    assert auth.change_password("alice", "admin set this 9")
    assert classlist.load(path)["alice"] == classlist.CHOSEN
    assert _login(auth, "alice", "admin set this 9") == "alice" and _login(auth, "alice", "reset-again-2") is None


# ---------------------------------------------------------------- accounts and cgroups
def test_unix_names_carry_the_prefix() -> None:
    assert accounts.unix_name("alice") == "jupyter-alice"
    with pytest.raises(classlist.HubError):
        accounts.unix_name("a" * 20, prefix="a-very-long-prefix-")


def test_an_existing_user_the_kit_did_not_make_is_never_used_or_removed() -> None:
    root = pwd.getpwuid(0)
    assert not accounts.is_learner(root)
    assert accounts.remove(root.pw_name) is False
    if ROOT:
        with pytest.raises(classlist.HubError) as err:
            accounts.ensure(root.pw_name, "/nonexistent")
        assert "did not make" in err.value.message("en")


def _fake_cgroups(tmp_path: Path, version: int) -> Path:
    root = tmp_path / f"cg{version}"
    if version == 2:
        root.mkdir()
        (root / "cgroup.controllers").write_text("cpu memory pids\n")
        (root / "cgroup.procs").write_text("")
    else:
        for controller in ("memory", "pids", "cpu", "cpuacct"):
            (root / controller).mkdir(parents=True)
            (root / controller / "cgroup.procs").write_text("")
    return root


@pytest.mark.parametrize("version", [1, 2])
def test_a_cgroup_per_learner_with_its_limits(tmp_path: Path, version: int) -> None:
    root = _fake_cgroups(tmp_path, version)
    if version == 2:  # the kernel makes these files; a plain folder does not
        (root / "baccarat-hub" / "jupyter-alice").mkdir(parents=True)
        (root / "baccarat-hub" / "cgroup.controllers").write_text("cpu memory pids\n")
        for name in ("pids.max", "cpu.max"):
            (root / "baccarat-hub" / "jupyter-alice" / name).write_text("max")
    group = limits.make("jupyter-alice", 600 * 2**20, 256, root=root, cpu=0.25)
    assert group is not None and group.version == version
    if version == 2:
        [folder] = {Path(f) for f in group.folders.values()}
        assert (root / "baccarat-hub" / "cgroup.subtree_control").read_text() == "+memory +pids +cpu"
        assert (folder / "memory.max").read_text() == str(600 * 2**20)
        assert (folder / "pids.max").read_text() == "256"
        assert (folder / "cpu.max").read_text() == "25000 100000"
    else:
        memory, pids, cpu = (Path(group.folders[c]) for c in ("memory", "pids", "cpu"))
        assert memory == root / "memory" / "baccarat-hub" / "jupyter-alice"
        assert (memory / "memory.limit_in_bytes").read_text() == str(600 * 2**20)
        assert (pids / "pids.max").read_text() == "256"
        assert (cpu / "cpu.cfs_quota_us").read_text() == "25000"
        assert (cpu / "cpu.cfs_period_us").read_text() == "100000"
        assert Path(group.folders["cpuacct"]).is_dir()  # her CPU time is read there
    assert group.memory_limit() == 600 * 2**20
    assert group.cpu_quota() == 0.25
    group.enter(12345)
    assert all(Path(f).read_text() == "12345" for f in group.procs_files)


def test_no_cgroup_hierarchy_means_no_limit_not_an_error(tmp_path: Path) -> None:
    assert limits.version(tmp_path) is None
    assert limits.make("jupyter-alice", 2**30, root=tmp_path) is None


# ---------------------------------------------------------------- the learners' environment
def test_reachable_by_others_follows_every_folder_above(tmp_path: Path) -> None:
    inner = tmp_path / "open" / "file.txt"
    inner.parent.mkdir()
    inner.write_text("x")
    tmp_path.chmod(0o755)
    inner.parent.chmod(0o755)
    inner.chmod(0o644)
    parents_open = all(os.stat(p).st_mode & 0o001 for p in tmp_path.parents)
    assert env.reachable_by_others(inner) is parents_open
    inner.parent.chmod(0o700)
    assert env.reachable_by_others(inner) is False
    inner.parent.chmod(0o755)


def test_the_learners_python_is_one_every_user_can_run() -> None:
    try:
        python = env.learner_python()
    except classlist.HubError as err:
        assert "--python" in err.message("en")
        return
    assert env.reachable_by_others(python, execute=True)


def test_close_clone_takes_others_off_the_top_folder(tmp_path: Path) -> None:
    clone = tmp_path / "clone"
    clone.mkdir(mode=0o755)
    clone.chmod(0o755)
    assert env.close_clone(clone) is True and oct(clone.stat().st_mode & 0o777) == "0o750"
    assert env.close_clone(clone) is False


# ---------------------------------------------------------------- the config as the hub loads it
def _load_config(tmp_path: Path, **extra: str) -> object:
    pytest.importorskip("jupyterhub")
    from traitlets.config.loader import PyFileConfigLoader

    top = tmp_path / "top"
    (top / "venv" / "bin").mkdir(parents=True)
    (top / "venv" / "bin" / "baccarat-kit").write_text("")
    saved = dict(os.environ)
    os.environ.update(BACCARAT_HUB_PREFIX=str(top), BACCARAT_HUB_HOMES=str(tmp_path / "homes"),
                      **extra)
    try:
        return PyFileConfigLoader(CONFIG.name, path=str(CONFIG.parent)).load_config()
    finally:
        os.environ.clear()
        os.environ.update(saved)


@pytest.mark.skipif(not ROOT, reason="the config refuses to run without root (useradd, setuid)")
def test_the_config_serves_https_with_a_local_certificate_and_culls_idle_servers(tmp_path: Path) -> None:
    if not shutil.which("openssl"):
        pytest.skip("openssl not installed")
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                    "-subj", "/CN=127.0.0.1", "-keyout", str(key), "-out", str(cert)],
                   check=True, capture_output=True)
    c = _load_config(tmp_path, BACCARAT_HUB_SSL_CERT=str(cert), BACCARAT_HUB_SSL_KEY=str(key),
                     BACCARAT_HUB_IDLE_TIMEOUT="900", BACCARAT_HUB_USER_PREFIX="jupyter-",
                     BACCARAT_HUB_ADMINS="teacher, TA")
    hub = c.JupyterHub  # type: ignore[attr-defined]
    assert hub.bind_url.startswith("https://127.0.0.1:")
    assert (hub.ssl_cert, hub.ssl_key) == (str(cert), str(key))
    assert hub.authenticator_class.endswith("ClassListAuthenticator")
    assert hub.spawner_class.endswith("LearnerSpawner")
    [culler] = hub.services
    assert culler["command"][1:] == ["-m", "jupyterhub_idle_culler", "--timeout=900"]
    assert {"delete:servers", "read:users:activity"} <= set(hub.load_roles[0]["scopes"])
    spawner = c.Spawner  # type: ignore[attr-defined]
    assert "--allow-root" not in spawner.args and spawner.mem_limit == "1G" and spawner.cpu_limit == 0.5
    # as the learner: her course copy and JupyterLab as `baccarat-kit lab` opens it (hub singleuser)
    assert spawner.cmd == [str(tmp_path / "top" / "venv" / "bin" / "baccarat-kit"), "hub", "singleuser"]
    # idle kernels shut down, open notebooks' too (the whole course in one sitting filled 1 GiB)
    assert {"--MappingKernelManager.cull_idle_timeout=900", "--MappingKernelManager.cull_connected=True",
            "--MappingKernelManager.cull_interval=60"} <= set(spawner.args)
    assert "PATH" not in spawner.env_keep
    assert c.Authenticator.admin_users == {"teacher", "ta"}  # type: ignore[attr-defined]
    state = tmp_path / "top" / "state"
    assert oct(state.stat().st_mode & 0o777) == "0o700"
    assert hub.cookie_secret_file.startswith(str(state))
    # A running hub's TLS: the certificate and key load into a server context.
    import ssl

    ssl.create_default_context(ssl.Purpose.CLIENT_AUTH).load_cert_chain(str(cert), str(key))
    # The clone it runs from is closed to learners (others have no access to its top folder).
    assert not REPO.stat().st_mode & 0o007


def test_z2jh_values_name_a_real_authenticator_and_the_culler() -> None:
    yaml = pytest.importorskip("yaml")
    values = yaml.safe_load((REPO / "deploy" / "jupyterhub" / "values.yaml").read_text())
    assert values["hub"]["config"]["JupyterHub"]["authenticator_class"] != "dummy"
    assert values["cull"]["enabled"] is True


# ---------------------------------------------------------------- collect and return on a hub
def _nobody() -> pwd.struct_passwd | None:
    try:
        return pwd.getpwnam("nobody")
    except KeyError:
        return None


@pytest.mark.skipif(not ROOT or _nobody() is None, reason="needs root and the user nobody")
def test_collect_with_hub_prefix_takes_each_file_as_its_owners(tmp_path: Path) -> None:
    """``nobody`` stands for a learner ``jupyter-NAME`` (prefix ``no``, learner ``body``):
    only its own files are taken, under the learner id without the prefix; ``return`` puts the
    feedback back into that home as its own file."""
    who = _nobody()
    assert who is not None
    homes = tmp_path / "homes"
    mine = homes / "nobody" / "course" / "exercises"
    mine.mkdir(parents=True)
    (mine / "01-x.ipynb").write_text("{}")
    (mine / "02-planted.ipynb").write_text("{}")  # root's, not the learner's: not taken
    for path in (homes / "nobody", mine.parent, mine, mine / "01-x.ipynb"):
        os.chown(path, who.pw_uid, who.pw_gid)
    (homes / "notalearner").mkdir()  # prefix matches, no such user
    (homes / "other").mkdir()  # no prefix
    from baccarat_kit.grading.term.collect import MANIFEST, collect
    from baccarat_kit.grading.term.hand_back import return_feedback

    done = collect(homes, tmp_path / "out", pattern="course/exercises/*.ipynb", name="t",
                   hub_prefix="no")
    assert [p.relative_to(done.folder).as_posix() for p in done.files] == ["body/course/exercises/01-x.ipynb"]
    assert [s["file"] for s in done.skipped] == ["nobody/course/exercises/02-planted.ipynb"]
    entry = json.loads((done.folder / MANIFEST).read_text())["files"]["body/course/exercises/01-x.ipynb"]
    assert entry["owner"] == "body"
    graded = tmp_path / "graded"
    (graded / "feedback").mkdir(parents=True)
    (graded / "feedback" / "body--01-x.html").write_text("<!-- baccarat-kit feedback -->\nok")
    (graded / "results.json").write_text(json.dumps({"submissions": [
        {"file": str(done.files[0]), "owner": "body", "exercise": "01-x",
         "feedback": "feedback/body--01-x.html"}]}))
    written, problems = return_feedback(graded, homes, hub_prefix="no")
    assert problems == [] and written == [homes / "nobody" / "feedback" / "01-x.html"]
    assert written[0].stat().st_uid == who.pw_uid



@pytest.mark.skipif(not ROOT or not shutil.which("useradd"), reason="needs root and useradd")
def test_remove_term_removes_the_accounts_and_homes_of_the_list_only(tmp_path: Path) -> None:
    import secrets

    tag = f"bk{secrets.token_hex(4)}-"
    path = tmp_path / "classlist.csv"
    classlist.set_passwords(path, {"ann": "pw-ann", "ben": "pw-ben"})
    made = [accounts.unix_name(n, tag) for n in ("ann", "ben", "cat")]
    try:
        for unix in made:
            entry = accounts.ensure(unix, tmp_path / "homes")
            assert oct(Path(entry.pw_dir).stat().st_mode & 0o777) == "0o700"
            assert Path(entry.pw_dir).stat().st_uid == entry.pw_uid != 0
        assert main(["hub", "remove-term", str(path), "--prefix", tag]) == 0
        assert accounts.lookup(made[0]) is None and accounts.lookup(made[1]) is None
        assert not (tmp_path / "homes" / made[0]).exists()
        assert accounts.lookup(made[2]) is not None  # not on the list: kept
        assert classlist.load(path) == {}
    finally:
        for unix in made:
            accounts.remove(unix)
    assert all(accounts.lookup(u) is None for u in made)


def test_two_learners_starting_at_once_never_share_a_port(monkeypatch: pytest.MonkeyPatch) -> None:
    """random_port() may hand the same just-released port to two starts (CI: bruno was routed to
    alice's server); each start claims a port no other running learner holds, and gives it back."""
    from types import SimpleNamespace

    from baccarat_kit.hub import jupyter

    monkeypatch.setattr(jupyter.LearnerSpawner, "_ports", {})
    offered = iter([40001, 40001, 40001, 40002, 40001])
    monkeypatch.setattr(jupyter, "random_port", lambda: next(offered))

    def spawner(name: str) -> jupyter.LearnerSpawner:
        return jupyter.LearnerSpawner(user=SimpleNamespace(name=name, url="/"), unix_prefix="bk-")

    alice, bruno = spawner("alice"), spawner("bruno")
    assert alice._claim_port() == 40001
    assert bruno._claim_port() == 40002  # 40001 twice refused: alice holds it
    assert jupyter.LearnerSpawner._ports == {40001: "bk-alice", 40002: "bk-bruno"}
    assert alice._claim_port() == 40001  # a restart keeps its own port
    alice._release_port()
    assert jupyter.LearnerSpawner._ports == {40002: "bk-bruno"}
    carol = spawner("carol")
    assert carol._claim_port() == 40001  # released, so free again


# ---------------------------------------------------------------- the learner's server
def test_hub_singleuser_opens_her_home_as_baccarat_kit_lab_opens_a_course(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """What the hub runs as her (Spawner.cmd): her course copy in ~/course, its first layout,
    then jupyterhub-singleuser on her home with lab's options and the kit's Jupyter config
    (no news pop-up) first on JUPYTER_CONFIG_PATH. Never as root."""
    pytest.importorskip("jupyterlab_server")
    from baccarat_kit import course

    calls: list[tuple[list[str], dict[str, str]]] = []
    monkeypatch.setattr(course, "_exec", lambda cmd, cwd=None, env=None: calls.append((cmd, dict(env or {}))) or 0)
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("JUPYTER_CONFIG_PATH", "/etc/hers")
    monkeypatch.setattr(os, "geteuid", lambda: 0)
    assert main(["--lang", "en", "hub", "singleuser"]) == 2 and not calls  # "never runs as root"
    monkeypatch.setattr(os, "geteuid", lambda: 1000)
    assert main(["hub", "singleuser", "--ServerApp.port_retries=0"]) == 0
    [(cmd, env)] = calls
    assert cmd[1:3] == ["-m", "jupyterhub.singleuser"] and cmd[-1] == "--ServerApp.port_retries=0"
    assert f"--ServerApp.root_dir={tmp_path}" in cmd
    assert "--ServerApp.default_url=/lab/tree/course/notebooks/00-how-to-use.ipynb" in cmd
    assert f"--LabApp.workspaces_dir={tmp_path / 'course' / course.LAB_WORKSPACES}" in cmd
    assert (tmp_path / "course" / "notebooks" / "00-how-to-use.ipynb").is_file()
    assert list((tmp_path / "course" / course.LAB_WORKSPACES).glob("*.jupyterlab-workspace"))
    assert env["JUPYTER_CONFIG_PATH"].split(os.pathsep) == [str(course.LAB_CONFIG), "/etc/hers"]
    page = json.loads((course.LAB_CONFIG / "labconfig" / "page_config.json").read_text(encoding="utf-8"))
    assert page["disabledExtensions"] == {"@jupyterlab/apputils-extension:announcements": True}


def test_the_memory_notice_is_told_once_per_kill(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A kernel started after an OOM kill in her cgroup tells her once; a kill counted in an
    earlier cgroup (the hub makes hers anew at each start) or none at all: nothing."""
    from baccarat_kit.grading.sandbox import cgroup
    from baccarat_kit.hub import notice

    folder = tmp_path / "memory" / "baccarat-hub" / "jupyter-alice"
    folder.mkdir(parents=True)
    (folder / "memory.limit_in_bytes").write_text(str(2**30))
    oom = folder / "memory.oom_control"
    oom.write_text("oom_kill_disable 0\nunder_oom 0\noom_kill 0\n")
    monkeypatch.setattr(limits, "own_memory_group", lambda: cgroup.Cgroup(1, {"memory": str(folder)}, 0, 0))
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    assert notice.MemoryNotice().tell_once() is None
    oom.write_text("oom_kill_disable 0\nunder_oom 0\noom_kill 1\n")
    text = notice.MemoryNotice().tell_once()
    assert text is not None and "1.0 GiB" in text and "記憶體上限" in text and "Run All Cells" in text
    assert notice.MemoryNotice().tell_once() is None  # once
    oom.write_text("oom_kill_disable 0\nunder_oom 0\noom_kill 2\n")
    assert notice.MemoryNotice().tell_once() is not None  # a new kill: told again
    monkeypatch.setattr(limits, "own_memory_group", lambda: None)  # her laptop: no cgroup of her own
    assert notice.MemoryNotice().tell_once() is None


def test_hub_hand_out_to_a_name_not_on_the_class_list_is_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """Red team: `hub hand-out` printed a line for a hand-out folder not on the hub's list, then
    handed out to every folder anyway (a stale home of an earlier term's learner got the copies).
    Refused before anything is made or copied (exit 2), naming them."""
    made: list[str] = []
    monkeypatch.setattr(accounts, "ensure", lambda unix, homes: made.append(unix))
    path = tmp_path / "classlist.csv"
    assert main(["hub", "passwd", str(path), "alice"]) == 0
    for learner in ("alice", "eve", "Zed"):
        (tmp_path / "handout" / learner / "exercises").mkdir(parents=True)
        (tmp_path / "handout" / learner / "exercises" / "01-card-values.ipynb").write_text("{}", encoding="utf-8")
    (tmp_path / "homes" / "jupyter-eve").mkdir(parents=True)  # a stale home of hers
    capsys.readouterr()
    code = main(["--lang", "en", "hub", "hand-out", str(tmp_path / "handout"), "--class-list", str(path),
                 "--homes", str(tmp_path / "homes"), "--prefix", "jupyter-"])
    err = capsys.readouterr().err
    assert code == 2 and "2 learner(s)" in err and "Zed, eve" in err and "Nothing was handed out" in err
    assert made == [] and list((tmp_path / "homes").rglob("*.ipynb")) == []
