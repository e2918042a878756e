"""A hostile learner against everything around the sandbox: collect, grade's outputs and return.

The learner owns her folder: links (also swapped in between any check and use, injected here
deterministically through the steps' hooks), FIFOs, sparse files, hard links, forged times,
terminal escapes and newlines in names and in LEARNER_ID, a notebook claiming another learner.
Controls sit in the same batch: they keep full marks, attacks earn nothing, no instructor file
changes, collect and return never hang (each guarded by a timeout), and no learner file grows past
20 MB on the instructor's disk.
"""

from __future__ import annotations

import csv
import io
import json
import os
import re
import signal
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from baccarat_kit.cli import main
from baccarat_kit.grading.records import Submission, visible
from baccarat_kit.grading.term import collect as collect_module
from baccarat_kit.grading.term import gradebook as gb
from baccarat_kit.grading.term import hand_back
from baccarat_kit.grading.term.authoring import read_source
from baccarat_kit.grading.term.collect import MAX_FILE_BYTES, collect, manifest_entry, read_regular
from baccarat_kit.grading.term.hand_back import return_feedback

ROOT = Path(__file__).resolve().parents[1]
SOURCE = ROOT / "exercises" / "source"
GIB = 1 << 30
PAGE = "<!-- baccarat-kit feedback -->\n<p>your page</p>\n"
ESCAPES = "\x1b]52;c;aGk=\x07\x1b[8m"


@contextmanager
def deadline(seconds: int) -> Iterator[None]:
    """Fail (never hang) if the block takes longer than ``seconds``."""
    def boom(*_: object) -> None:
        raise TimeoutError(f"took more than {seconds} s: it hung")

    old = signal.signal(signal.SIGALRM, boom)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def notebook(learner: str, exercise: str = "01-card-values") -> str:
    nb = read_source(SOURCE / f"{exercise}.ipynb")
    for cell in nb["cells"]:
        if cell["cell_type"] == "code":
            src = cell["source"] if isinstance(cell["source"], str) else "".join(cell["source"])
            cell["source"] = re.sub(r"^LEARNER_ID = .*$", f"LEARNER_ID = {learner!r}", src, flags=re.M)
    return json.dumps(nb, ensure_ascii=False)


@pytest.fixture
def instructor(tmp_path: Path) -> dict[str, Path]:
    """Files of the instructor's that no learner may reach: a model solution, a venv's .pth."""
    secret = tmp_path / "instructor" / "model-solution.ipynb"
    secret.parent.mkdir()
    secret.write_text(notebook("TEACHER"), encoding="utf-8")
    pth = tmp_path / "instructor" / "site-packages" / "zz.pth"
    pth.parent.mkdir()
    return {"secret": secret, "pth": pth, "dir": secret.parent}


def snapshot(folder: Path) -> dict[str, tuple[int, bytes]]:
    return {str(p): (p.lstat().st_mode, p.read_bytes() if p.is_file() and not p.is_symlink() else b"")
            for p in sorted(folder.rglob("*"))}


def sizes_ok(folder: Path) -> None:
    for p in folder.rglob("*"):
        if p.is_file() and not p.is_symlink():
            assert p.stat().st_blocks * 512 <= MAX_FILE_BYTES + 65536, p
            assert p.stat().st_size <= MAX_FILE_BYTES, p


# ---------------------------------------------------------------- collect
def hostile_home(root: Path, instructor: dict[str, Path]) -> Path:
    home = root / "home"
    for who in ("alice", "mallory", "hub1", "hub2"):
        (home / who / "exercises").mkdir(parents=True)
    (home / "alice" / "exercises" / "01-card-values.ipynb").write_text(notebook("alice"), encoding="utf-8")
    ex = home / "mallory" / "exercises"
    (ex / "01-card-values.ipynb").write_text(notebook("mallory"), encoding="utf-8")
    (ex / "02-link.ipynb").symlink_to(instructor["secret"])                       # a link
    os.mkfifo(ex / "03-banker-rule.ipynb")                                         # a FIFO
    with (ex / "04-sparse.ipynb").open("wb") as fh:                                # 1 GiB, 4 KB of disk
        fh.truncate(GIB)
    os.link(ex / "01-card-values.ipynb", ex / "05-hardlink.ipynb")                 # one file, two names
    (home / "mallory" / "more").symlink_to(instructor["dir"], target_is_directory=True)
    (home / "eve").symlink_to(instructor["dir"], target_is_directory=True)         # a learner folder link
    (home / "hub1" / "exercises" / "01-card-values.ipynb").write_text(notebook(""), encoding="utf-8")
    (home / "hub2" / "exercises" / "01-card-values.ipynb").write_text(notebook("") + "\n", encoding="utf-8")
    return home


def test_collect_refuses_links_fifos_sparse_files_and_hard_links_and_collects_the_rest(
        tmp_path: Path, instructor: dict[str, Path]) -> None:
    home = hostile_home(tmp_path, instructor)
    before = snapshot(instructor["dir"])
    with deadline(60):
        done = collect(home, tmp_path / "out", pattern="**/*.ipynb", now=datetime(2026, 12, 1, tzinfo=UTC))
    got = sorted(p.relative_to(done.folder).as_posix() for p in done.files)
    assert got == ["alice/exercises/01-card-values.ipynb", "hub1/exercises/01-card-values.ipynb",
                   "hub2/exercises/01-card-values.ipynb"]
    reasons = {s["file"]: s["reason"] for s in done.skipped}
    assert reasons["mallory/exercises/02-link.ipynb"] == "symlink"
    assert reasons["mallory/exercises/03-banker-rule.ipynb"] == "special"
    assert reasons["mallory/exercises/04-sparse.ipynb"] == "too_large"
    assert reasons["mallory/exercises/05-hardlink.ipynb"] == "hardlink"
    assert reasons["mallory/more"] == "symlink" and reasons["eve"] == "symlink"
    assert reasons["mallory/exercises/01-card-values.ipynb"] == "hardlink"  # the same file: both names refused
    assert "TEACHER" not in "".join(p.read_text(encoding="utf-8") for p in done.files)
    assert snapshot(instructor["dir"]) == before
    sizes_ok(done.folder)


@pytest.mark.parametrize("stage", ["file", "dir"])
def test_a_link_swapped_in_between_scan_and_open_is_never_followed(
        tmp_path: Path, instructor: dict[str, Path], monkeypatch: pytest.MonkeyPatch, stage: str) -> None:
    """renameat2-style swap, made deterministic: the hook replaces the entry by a link to the
    instructor's model solution (or folder) at the very moment before collect opens it."""
    home = tmp_path / "home"
    (home / "mallory" / "exercises").mkdir(parents=True)
    (home / "mallory" / "exercises" / "01-card-values.ipynb").write_text(notebook("mallory"), encoding="utf-8")
    (home / "alice" / "exercises").mkdir(parents=True)
    (home / "alice" / "exercises" / "01-card-values.ipynb").write_text(notebook("alice"), encoding="utf-8")
    swapped: list[str] = []

    def swap(kind: str, name: str, dir_fd: int) -> None:
        if kind != stage or swapped:
            return
        if kind == "file" or name == "exercises":
            target = instructor["secret"] if kind == "file" else instructor["dir"]
            tmp = f".swap-{name}"
            if kind == "dir":
                os.rename(name, ".moved", src_dir_fd=dir_fd, dst_dir_fd=dir_fd)
            os.symlink(target, tmp, dir_fd=dir_fd)
            os.rename(tmp, name, src_dir_fd=dir_fd, dst_dir_fd=dir_fd)  # atomic: the name is now a link
            swapped.append(name)

    monkeypatch.setattr(collect_module, "before_open", swap)
    with deadline(60):
        done = collect(home, tmp_path / "out", pattern="exercises/*.ipynb")
    assert swapped
    assert [s["reason"] for s in done.skipped] == ["symlink"]
    assert len(done.files) == 1  # the other learner is still collected
    assert all("TEACHER" not in p.read_text(encoding="utf-8") for p in done.files)


def test_a_file_is_measured_by_what_is_read_not_only_by_its_size(tmp_path: Path) -> None:
    """/proc files say size 0 and hold more: the read limit refuses them as a growing file would be."""
    fd = os.open("/proc/self", os.O_RDONLY | os.O_DIRECTORY)
    try:
        assert os.stat("status", dir_fd=fd).st_size == 0
        got: list[bytes] = []
        with pytest.raises(collect_module.Refused) as why:
            read_regular("status", fd, got.append, limit=64)
        assert why.value.reason == "too_large" and sum(map(len, got)) <= 64
    finally:
        os.close(fd)


def test_collect_time_is_the_hand_in_time_a_forged_mtime_is_information(tmp_path: Path) -> None:
    home = tmp_path / "home"
    (home / "ann").mkdir(parents=True)
    nb = home / "ann" / "01-card-values.ipynb"
    nb.write_text(notebook("ann"), encoding="utf-8")
    old = datetime(2000, 1, 1, tzinfo=UTC).timestamp()
    os.utime(nb, (old, old))  # written after the deadline, dated 2000-01-01
    done = collect(home, tmp_path / "out", deadline="2026-12-01T12:00Z", now=datetime(2026, 12, 2, tzinfo=UTC))
    entry = manifest_entry(done.files[0])
    assert entry is not None and entry["late"] is True
    assert entry["submitted_at"] == "2026-12-02T00:00:00Z" and entry["file_mtime"] == "2000-01-01T00:00:00Z"


# ---------------------------------------------------------------- return
def graded_folder(tmp_path: Path, owners: list[str], exercise: str = "03-banker-rule") -> Path:
    graded = tmp_path / "graded"
    (graded / "feedback").mkdir(parents=True)
    rows = []
    for owner in owners:
        page = graded / "feedback" / f"{owner}--{exercise}.html"
        page.write_text(PAGE, encoding="utf-8")
        rows.append({"file": f"{owner}/{exercise}.ipynb", "owner": owner, "learner": owner, "claimed_id": owner,
                     "exercise": exercise, "feedback": f"feedback/{page.name}", "status": "ok"})
    (graded / "results.json").write_text(json.dumps({"schema_version": 3, "submissions": rows}), encoding="utf-8")
    return graded


def test_return_never_writes_through_a_learners_links_nor_hangs_on_her_files(
        tmp_path: Path, instructor: dict[str, Path]) -> None:
    home = tmp_path / "home"
    owners = ["ann", "tmp_link", "page_link", "dangling", "fb_link", "fifo", "sparse", "dir_page", "folder_link"]
    for o in owners[:-1]:
        (home / o / "feedback").mkdir(parents=True)
    instructor["secret"].chmod(0o644)
    secret_before = instructor["secret"].read_bytes()
    (home / "tmp_link" / "feedback" / ".03-banker-rule.html.tmp").symlink_to(instructor["secret"])
    (home / "page_link" / "feedback" / "03-banker-rule.html").symlink_to(instructor["secret"])
    (home / "dangling" / "feedback" / "03-banker-rule.html").symlink_to(instructor["pth"])
    (home / "fb_link" / "feedback").rmdir()
    (home / "fb_link" / "feedback").symlink_to(instructor["dir"], target_is_directory=True)
    os.mkfifo(home / "fifo" / "feedback" / "03-banker-rule.html")
    with (home / "sparse" / "feedback" / "03-banker-rule.html").open("wb") as fh:
        fh.write(PAGE.encode()[:10])
        fh.truncate(GIB)
    (home / "dir_page" / "feedback" / "03-banker-rule.html").mkdir()
    (home / "folder_link").symlink_to(instructor["dir"], target_is_directory=True)
    before = snapshot(instructor["dir"])
    graded = graded_folder(tmp_path, owners)
    with deadline(60):
        written, problems = return_feedback(graded, home)
    reasons = {Path(p["file"]).parts[-3]: p["reason"] for p in problems}
    assert [p.parent.parent.name for p in written] == ["ann", "tmp_link"]  # her own link stays hers
    assert reasons == {"page_link": "not_ours", "dangling": "not_ours", "fb_link": "symlink", "fifo": "not_ours",
                       "sparse": "not_ours", "dir_page": "not_ours", "folder_link": "symlink"}
    assert snapshot(instructor["dir"]) == before and instructor["secret"].read_bytes() == secret_before
    assert not instructor["pth"].exists()
    assert (home / "tmp_link" / "feedback" / ".03-banker-rule.html.tmp").is_symlink()
    page = home / "ann" / "feedback" / "03-banker-rule.html"
    assert page.read_text(encoding="utf-8") == PAGE and stat.S_IMODE(page.stat().st_mode) == 0o644
    assert not [p for p in (home / "ann" / "feedback").iterdir() if p.name.endswith(".tmp")]


@pytest.mark.parametrize("stage", ["dir", "check", "create", "rename"])
def test_return_with_a_link_swapped_in_at_any_step(tmp_path: Path, instructor: dict[str, Path],
                                                   monkeypatch: pytest.MonkeyPatch, stage: str) -> None:
    home = tmp_path / "home"
    (home / "ann" / "feedback").mkdir(parents=True)
    (home / "ann" / "feedback" / "03-banker-rule.html").write_text(PAGE, encoding="utf-8")  # an earlier page
    before = snapshot(instructor["dir"])
    seen: list[str] = []

    def swap(kind: str, name: str, fd: int) -> None:
        if kind != stage or seen or (kind == "dir" and name != "feedback"):
            return
        seen.append(name)
        target = instructor["dir"] if kind == "dir" else instructor["secret"]
        if kind == "dir":
            os.rename(name, ".old", src_dir_fd=fd, dst_dir_fd=fd)
        os.symlink(target, ".swap", dir_fd=fd)
        os.rename(".swap", name, src_dir_fd=fd, dst_dir_fd=fd)

    monkeypatch.setattr(hand_back, "before_step", swap)
    with deadline(60):
        written, problems = return_feedback(graded_folder(tmp_path, ["ann"]), home)
    assert seen
    assert snapshot(instructor["dir"]) == before  # whatever happened, nothing of the instructor's changed
    if stage == "rename":  # the rename replaces the link itself: the page is hers, the secret untouched
        assert written and (home / "ann" / "feedback" / "03-banker-rule.html").read_text(encoding="utf-8") == PAGE
        assert not (home / "ann" / "feedback" / "03-banker-rule.html").is_symlink()
    else:
        assert not written and problems


# ---------------------------------------------------------------- identity and the gradebook
def sub(file: str, owner: str | None, claimed: str, score_ok: bool = True, exercise: str = "01-card-values") -> Submission:
    s = Submission(file, file.encode().hex()[:64].ljust(64, "0"), exercise, claimed, "ok" if score_ok else "not_json",
                   {"zh": "", "en": ""}, max_score=7, owner=owner, claimed_id=claimed, graded_at="2026-12-02T00:00:00Z")
    s.learner = owner or claimed
    return s


def test_update_with_an_impersonating_file_leaves_the_owners_row(tmp_path: Path) -> None:
    from baccarat_kit.grading.grade import default_source, load_exercises
    from baccarat_kit.grading.sandbox.session import Limits

    exercises = load_exercises(default_source())
    out = tmp_path / "graded"
    from baccarat_kit.grading.report.feedback import feedback_html

    first = [sub("c/alice/01.ipynb", "alice", "alice"), sub("c/mallory/01.ipynb", "mallory", "mallory")]
    gb.name_feedback(first)
    gb.write_outputs(out, first, exercises, Limits(), page=feedback_html)
    alice_page = (out / "feedback" / "alice--01-card-values.html").read_bytes()
    fake = sub("c/mallory/01-copy.ipynb", "mallory", "alice")
    fake.identity_mismatch = True
    with pytest.raises(gb.GradeUsageError):
        gb.write_outputs(out, [fake], exercises, Limits(), page=feedback_html)  # without --update: refused
    gb.write_outputs(out, [fake], exercises, Limits(), page=feedback_html, update=True)
    rows = json.loads((out / "results.json").read_text(encoding="utf-8"))["submissions"]
    assert sorted((r["learner"], r["claimed_id"], r["file"]) for r in rows) == [
        ("alice", "alice", "c/alice/01.ipynb"), ("mallory", "alice", "c/mallory/01-copy.ipynb")]
    assert (out / "feedback" / "alice--01-card-values.html").read_bytes() == alice_page
    moodle = list(csv.reader(io.StringIO((out / "moodle.csv").read_text(encoding="utf-8"))))
    assert [r[0] for r in moodle[1:]] == ["alice", "mallory"]


def test_an_old_gradebook_is_read_and_upgraded(tmp_path: Path) -> None:
    old = {"schema_version": 2, "submissions": [
        {"file": "a", "learner": "s001", "owner": "ann", "exercise": "01", "warnings": [
            {"zh": "…", "en": "The notebook's LEARNER_ID is 's001' but it was collected from the learner folder 'ann': please check."}]},
        {"file": "b", "learner": "ann", "owner": "mal", "exercise": "01", "warnings": []}]}
    (tmp_path / "results.json").write_text(json.dumps(old), encoding="utf-8")
    doc = gb.read_results(tmp_path / "results.json")
    assert doc["schema_version"] == 6 and doc["upgraded_from"] == 2
    assert [(r["learner"], r["claimed_id"], r["identity_mismatch"]) for r in doc["submissions"]] == [
        ("ann", "s001", False), ("mal", "ann", True)]
    assert doc["submissions"][0]["warnings"] == []  # the old noise is not carried on


def test_learner_text_is_shown_escaped() -> None:
    shown = visible(f"mallory{ESCAPES}\nimport evil", 500)
    assert "\x1b" not in shown and "\x07" not in shown and "\n" not in shown
    assert "\\u001b" in shown and "\\u000a" in shown


def test_a_feedback_page_has_the_csp_and_no_raw_newline_of_hers() -> None:
    from baccarat_kit.grading.grade import default_source, load_exercises
    from baccarat_kit.grading.report.feedback import feedback_html

    s = sub(f"c/m/01{ESCAPES}.ipynb", None, "x\nimport evil_module\n<script>alert(1)</script>")
    page = feedback_html(s, load_exercises(default_source()), "en")
    assert page.startswith("<!-- baccarat-kit feedback -->\n")
    assert '<meta http-equiv="Content-Security-Policy" content="default-src \'none\';' in page
    assert "\nimport evil_module" not in page and "<script" not in page and "\x1b" not in page


# ---------------------------------------------------------------- a real batch: controls beside attacks
@pytest.fixture(scope="module")
def batch(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    base = tmp_path_factory.mktemp("hostile-batch")
    inst = {"secret": base / "instructor" / "model-solution.ipynb", "dir": base / "instructor",
            "pth": base / "instructor" / "zz.pth"}
    inst["dir"].mkdir()
    inst["secret"].write_text(notebook("TEACHER"), encoding="utf-8")
    home = hostile_home(base, inst)
    os.unlink(home / "mallory" / "exercises" / "05-hardlink.ipynb")  # her own notebook then counts
    ex = home / "mallory" / "exercises"
    (ex / f"01-card-values-{ESCAPES}.ipynb").write_text(notebook("alice"), encoding="utf-8")  # claims alice
    (home / "ann").mkdir()
    (home / "ann" / "01-card-values.ipynb").write_text(notebook("s001"), encoding="utf-8")  # a roster id: no noise
    before = snapshot(inst["dir"])
    out: dict[str, Any] = {"base": base, "home": home, "inst": inst}
    with deadline(120):
        code = main(["--lang", "en", "collect", str(home), "--out", str(base / "collected"), "--name", "w1"])
    assert code == 0
    graded = base / "graded"
    with deadline(900):
        out["grade"] = main(["--lang", "en", "grade", str(base / "collected" / "w1"), "--out", str(graded),
                             "--no-progress", "--jobs", "2"])
    out["doc"] = json.loads((graded / "results.json").read_text(encoding="utf-8"))
    out["graded"] = graded
    out["before"] = before
    return out


def rows_by(doc: dict[str, Any]) -> dict[tuple[str, str], dict[str, Any]]:
    return {(r["owner"], Path(r["file"]).name): r for r in doc["submissions"]}


@pytest.mark.sandbox  # (the batch fixture grades for real)
def test_controls_keep_full_marks_and_the_impersonation_is_the_owners(batch: dict[str, Any],
                                                                      capfd: pytest.CaptureFixture[str]) -> None:
    assert batch["grade"] == 0
    rows = rows_by(batch["doc"])
    alice = rows[("alice", "01-card-values.ipynb")]
    assert alice["status"] == "ok" and alice["score"] == alice["max_score"] - alice["pending_points"] and not alice["identity_mismatch"]
    fake = next(r for k, r in rows.items() if k[0] == "mallory" and "\x1b" in k[1])
    assert fake["learner"] == "mallory" and fake["claimed_id"] == "alice" and fake["identity_mismatch"]
    ann = rows[("ann", "01-card-values.ipynb")]
    assert ann["learner"] == "ann" and ann["claimed_id"] == "s001" and not ann["identity_mismatch"]
    assert not ann["warnings"]
    hubs = [rows[(h, "01-card-values.ipynb")] for h in ("hub1", "hub2")]
    assert [h["learner"] for h in hubs] == ["hub1", "hub2"] and not any(h["warnings"] for h in hubs)
    moodle = list(csv.reader(io.StringIO((batch["graded"] / "moodle.csv").read_text(encoding="utf-8"))))
    by_id = {r[0]: r[1] for r in moodle[1:]}
    assert set(by_id) == {"alice", "ann", "hub1", "hub2", "mallory"}
    assert by_id["alice"] == str(alice["max_score"])
    refused = {s["file"]: s["reason"] for s in batch["doc"]["skipped"]}
    assert refused["mallory/exercises/04-sparse.ipynb"] == "too_large"
    assert snapshot(batch["inst"]["dir"]) == batch["before"]
    sizes_ok(batch["base"] / "collected")


@pytest.mark.sandbox  # (the batch fixture grades for real)
def test_update_of_the_impersonating_file_leaves_alices_row(batch: dict[str, Any],
                                                            capfd: pytest.CaptureFixture[str]) -> None:
    graded = batch["graded"]
    fake = next(p for p in (batch["base"] / "collected" / "w1" / "mallory" / "exercises").iterdir() if "\x1b" in p.name)
    alice_before = rows_by(batch["doc"])[("alice", "01-card-values.ipynb")]
    page = (graded / "feedback" / "alice--01-card-values.html").read_bytes()
    capfd.readouterr()
    with deadline(600):
        assert main(["--lang", "en", "grade", str(fake), "--out", str(graded), "--update", "--no-progress"]) == 0
    err = capfd.readouterr().err
    assert "\x1b" not in err and "\x07" not in err  # escapes shown as text, never sent to the terminal
    assert "\\u001b" in err and "1 notebook(s) claim another learner's LEARNER_ID" in err
    doc = json.loads((graded / "results.json").read_text(encoding="utf-8"))
    assert rows_by(doc)[("alice", "01-card-values.ipynb")] == alice_before
    assert (graded / "feedback" / "alice--01-card-values.html").read_bytes() == page
    # rows are replaced by (owner, exercise): mallory's two 01 files become the regraded one; every
    # other owner's row is exactly as it was
    others = {k: r for k, r in rows_by(batch["doc"]).items() if k[0] != "mallory"}
    assert {k: r for k, r in rows_by(doc).items() if k[0] != "mallory"} == others
    assert [Path(r["file"]).name for r in doc["submissions"] if r["owner"] == "mallory"] == [fake.name]


@pytest.mark.sandbox  # (the batch fixture grades for real)
def test_return_and_report_of_the_hostile_batch(batch: dict[str, Any], tmp_path: Path) -> None:
    with deadline(120):
        assert main(["--lang", "en", "return", str(batch["graded"]), "--to", str(batch["home"])]) == 0
    page = (batch["home"] / "alice" / "feedback" / "01-card-values.html").read_text(encoding="utf-8")
    assert "Content-Security-Policy" in page and "TEACHER" not in page
    assert snapshot(batch["inst"]["dir"]) == batch["before"]
    report = tmp_path / "r.html"
    assert main(["--lang", "en", "report", str(batch["graded"]), "--out", str(report)]) == 0
    text = report.read_text(encoding="utf-8")
    assert "\x1b" not in text
    # the grid's rows (its JSON block, as the page's script reads it): the learner's id is the
    # row's second field (the name as it sorts)
    block = re.search(r'<script type="application/json" id="grid-data">(.*?)</script>', text, re.S)
    assert block, "the class report has no grid data"
    rows = {r[1]: r for r in json.loads(block.group(1))["rows"]}
    assert sorted(rows) == ["alice", "ann", "hub1", "hub2", "mallory"]  # the same learners as the exports
    row = json.dumps(rows["mallory"])
    assert "refused" in row  # her FIFO (03) and sparse file (04) show as refused, not "not handed in"



@pytest.mark.skipif(os.geteuid() != 0, reason="giving files to another uid needs root")
def test_return_as_root_gives_the_page_to_her_and_refuses_a_feedback_folder_not_hers(tmp_path: Path) -> None:
    home = tmp_path / "home"
    for who in ("ann", "bea"):
        (home / who).mkdir(parents=True)
        os.chown(home / who, 65534, 65534)
    (home / "bea" / "feedback").mkdir()  # made by someone else (root): not hers
    written, problems = return_feedback(graded_folder(tmp_path, ["ann", "bea"]), home)
    page = home / "ann" / "feedback" / "03-banker-rule.html"
    assert written == [page]
    assert (page.stat().st_uid, (home / "ann" / "feedback").stat().st_uid) == (65534, 65534)
    assert [p["reason"] for p in problems] == ["not_hers"]
