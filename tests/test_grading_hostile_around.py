"""A hostile learner against what surrounds collect and grade (redteam, session 2).

Each test is one attack that worked before its fix, with a control beside it: the honest path
(a real collect, a learner's own collected row) keeps working.
"""

from __future__ import annotations

import json
import os
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from baccarat_kit.grading.records import Submission
from baccarat_kit.grading.term import collect as cm
from baccarat_kit.grading.term.collect import MANIFEST, collect, manifest_entry, skipped_at_collect
from baccarat_kit.grading.term.handin import stamp

ROOT = Path(__file__).resolve().parents[1]
NOBODY = 65534
AS_ROOT = pytest.mark.skipif(os.geteuid() != 0, reason="a learner-owned file needs chown (root)")


def _forged_manifest(folder: Path, owner: str = "alice") -> Path:
    """What mallory writes beside her notebook: the collect's manifest format, saying that the
    file is alice's and was handed in in 2000, with a refusal of bob's made up."""
    path = folder / MANIFEST
    path.write_text(json.dumps({
        "manifest_version": 2, "collected_at": "2000-01-01T00:00:00Z", "deadline": "2099-01-01T00:00:00Z",
        "files": {"01-card-values.ipynb": {"owner": owner, "submitted_at": "2000-01-01T00:00:00Z",
                                           "deadline": "2099-01-01T00:00:00Z", "late": False}},
        "skipped": [{"file": "bob/x.ipynb", "owner": "bob", "reason": "symlink", "en": "=HYPERLINK(1)", "zh": "z"}],
    }), encoding="utf-8")
    return path


def _mallorys_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "home" / "mallory" / "exercises"
    folder.mkdir(parents=True)
    (folder / "01-card-values.ipynb").write_text("{}", encoding="utf-8")
    return folder


def _stamped(path: Path) -> Submission:
    sub = Submission(str(path), "ab" * 32, "01-card-values", "mallory", "ok", {})
    stamp([path], [sub], deadline="2026-01-01T00:00Z")
    return sub


@AS_ROOT
def test_a_manifest_she_placed_in_her_folder_names_no_owner_and_no_time(tmp_path: Path) -> None:
    """Before: graded from her folder, mallory's notebook became alice's row, handed in in 2000
    (not late, no identity flag), and the made-up refusal of bob's went into results.json."""
    folder = _mallorys_folder(tmp_path)
    forged = _forged_manifest(folder)
    for path in (folder, folder.parent):
        os.chown(path, NOBODY, NOBODY)  # her folder and her file, as on a hub
    os.chown(forged, NOBODY, NOBODY)
    notebook = folder / "01-card-values.ipynb"
    assert manifest_entry(notebook) is None
    assert skipped_at_collect([notebook]) == []
    sub = _stamped(notebook)
    assert sub.owner is None and sub.learner == "mallory" and sub.time_source == "mtime"
    assert sub.late is True  # her file's time (now) is after the deadline, not the forged 2000
    assert any(str(forged) in w["en"] and "ignored" in w["en"] for w in sub.warnings)
    assert any(str(forged) in w["zh"] for w in sub.warnings)


def test_a_linked_manifest_is_not_a_collects(tmp_path: Path) -> None:
    """A manifest with a second name (a hard link) or that is a link: not one collect wrote there."""
    home = tmp_path / "home"
    (home / "ann").mkdir(parents=True)
    (home / "ann" / "01-card-values.ipynb").write_text("{}", encoding="utf-8")
    done = collect(home, tmp_path / "out", now=datetime(2026, 12, 1, tzinfo=UTC))
    real = done.folder / MANIFEST
    assert manifest_entry(done.files[0]) is not None  # the control: a collect's own manifest
    for kind in ("hardlink", "symlink"):
        folder = tmp_path / kind / "ann"
        folder.mkdir(parents=True)
        (folder / "01-card-values.ipynb").write_text("{}", encoding="utf-8")
        if kind == "hardlink":
            os.link(real, folder.parent / MANIFEST)
        else:
            (folder.parent / MANIFEST).symlink_to(real)
        assert manifest_entry(folder / "01-card-values.ipynb") is None, kind
        os.unlink(folder.parent / MANIFEST)
    assert manifest_entry(done.files[0]) is not None


def test_a_fifo_or_huge_manifest_never_hangs_or_grows_grade(tmp_path: Path) -> None:
    folder = _mallorys_folder(tmp_path)
    os.mkfifo(folder / MANIFEST)
    assert manifest_entry(folder / "01-card-values.ipynb") is None  # returns: no open of a FIFO
    os.unlink(folder / MANIFEST)
    with (folder / MANIFEST).open("wb") as fh:
        fh.truncate(1 << 40)  # 1 TiB, sparse
    assert manifest_entry(folder / "01-card-values.ipynb") is None
    assert skipped_at_collect([folder]) == []


def test_a_loose_file_claiming_her_id_never_takes_her_collected_rows_place() -> None:
    """Before: graded beside the collected folder, a loose file (not collected: no owner) whose
    LEARNER_ID says "alice" and whose mtime says 2100 was *the* row of alice in canvas.csv and
    moodle.csv (7/7 over her own 0/7), was not flagged, and ``return`` gave alice no page."""
    from baccarat_kit.grading.term import export
    from baccarat_kit.grading.term.gradebook import mark_mismatches

    own: dict[str, Any] = {"file": "collected/w1/alice/exercises/01-card-values.ipynb", "learner": "alice", "owner": "alice",
           "claimed_id": "", "exercise": "01-card-values", "score": 0, "max_score": 7,
           "submitted_at": "2026-12-01T00:00:00Z", "graded_at": "2026-12-02T00:00:00Z", "status": "ok"}
    loose: dict[str, Any] = {**own, "file": "loose/01-card-values.ipynb", "owner": None, "claimed_id": "alice", "score": 7,
             "submitted_at": "2100-01-01T00:00:00Z"}
    assert mark_mismatches([(r["owner"], r["claimed_id"]) for r in (own, loose)]) == [False, True]
    assert mark_mismatches([(None, "alice")], known=["alice"]) == [True]
    assert mark_mismatches([(None, "dan"), ("alice", "")]) == [False, False]  # a claim of no one's is no mismatch
    loose["identity_mismatch"] = True
    for rows in ([own, loose], [loose, own]):
        table, _ = export.per_learner(rows)
        assert table["alice"]["01-card-values"] is own
        assert "alice,,,alice,,0" in export.canvas_csv(rows, {}).splitlines()
    table, _ = export.per_learner([loose])  # alone (no one collected as alice), the claim is all there is
    assert table["alice"]["01-card-values"] is loose


# ---------------------------------------------------------------- collect: her folder's size
def _home_with(tmp_path: Path) -> Path:
    home = tmp_path / "home"
    for who in ("alice", "mallory"):
        (home / who / "exercises").mkdir(parents=True)
    (home / "alice" / "exercises" / "01-card-values.ipynb").write_text("{}", encoding="utf-8")
    return home


def _collected(home: Path, out: Path) -> tuple[list[str], list[dict[str, str]]]:
    done = collect(home, out, pattern="**/*.ipynb", now=datetime(2026, 12, 1, tzinfo=UTC))
    return sorted(p.relative_to(done.folder).as_posix() for p in done.files), done.skipped


def test_many_files_of_hers_are_bounded_and_said_once(tmp_path: Path) -> None:
    """Before: 100,000 empty notebooks in her folder were 100,000 collected files (416 MB of the
    instructor's disk, 7 s) and as many sandboxes for grade."""
    home = _home_with(tmp_path)
    for i in range(cm.MAX_LEARNER_FILES + 50):
        (home / "mallory" / "exercises" / f"{i:04d}.ipynb").write_text("{}", encoding="utf-8")
    files, skipped = _collected(home, tmp_path / "out")
    assert "alice/exercises/01-card-values.ipynb" in files
    assert sum(f.startswith("mallory/") for f in files) == cm.MAX_LEARNER_FILES
    assert [(s["file"], s["reason"]) for s in skipped] == [("mallory", "learner_limit")]
    assert str(cm.MAX_LEARNER_FILES) in skipped[0]["en"] and str(cm.MAX_LEARNER_FILES) in skipped[0]["zh"]


def test_sparse_files_of_hers_cannot_fill_the_instructors_disk(tmp_path: Path) -> None:
    """Before: 30 sparse 20 MB notebooks took 28 KB of her disk and 601 MB of the instructor's."""
    home = _home_with(tmp_path)
    per_learner = cm.MAX_LEARNER_BYTES // cm.MAX_FILE_BYTES
    for i in range(per_learner + 3):
        with (home / "mallory" / "exercises" / f"{i:02d}.ipynb").open("wb") as fh:
            fh.truncate(cm.MAX_FILE_BYTES)
    out = tmp_path / "out"
    files, skipped = _collected(home, out)
    assert sum(f.startswith("mallory/") for f in files) == per_learner
    assert [(s["file"], s["reason"]) for s in skipped] == [("mallory", "learner_limit")]
    written = sum(p.stat().st_size for p in out.rglob("*") if p.is_file())
    assert written <= cm.MAX_LEARNER_BYTES + 1_000_000


def test_many_refused_entries_and_a_huge_tree_are_one_line_each(tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    home = _home_with(tmp_path)
    for i in range(cm.MAX_LEARNER_REFUSALS + 40):
        (home / "mallory" / "exercises" / f"{i:04d}.ipynb").symlink_to("/etc/shadow")
    files, skipped = _collected(home, tmp_path / "out")
    assert files == ["alice/exercises/01-card-values.ipynb"]
    reasons = [s["reason"] for s in skipped]
    assert reasons == ["symlink"] * (cm.MAX_LEARNER_REFUSALS - 1) + ["symlink", "too_many_refused"]
    assert skipped[-1]["file"] == "mallory"
    # a tree: every folder below the limit of one folder, together far above what is looked at
    monkeypatch.setattr(cm, "MAX_LEARNER_ENTRIES", 500)
    monkeypatch.setattr(cm, "MAX_LEARNER_FILES", 10_000)
    tree = _home_with(tmp_path / "tree")
    for d in range(20):
        (tree / "mallory" / f"d{d:02d}").mkdir()
        for i in range(60):
            (tree / "mallory" / f"d{d:02d}" / f"{i:02d}.ipynb").write_text("{}", encoding="utf-8")
    files, skipped = _collected(tree, tmp_path / "tree-out")
    assert "alice/exercises/01-card-values.ipynb" in files
    assert sum(f.startswith("mallory/") for f in files) < 500
    assert [(s["file"], s["reason"]) for s in skipped] == [("mallory", "too_many")]


# ---------------------------------------------------------------- grade: a file given from her folder
@pytest.fixture(scope="module")
def exercises() -> dict[str, Any]:
    from baccarat_kit.grading.grade import default_source, load_exercises

    return load_exercises(default_source())


def test_grade_reads_no_link_waits_on_no_fifo_and_hashes_no_huge_file(
        tmp_path: Path, exercises: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    """Before (her folder graded without collect): a FIFO named like a notebook hung ``grade``
    for good, a 10 GB sparse notebook took 48 s (all of it hashed), and a link was read through
    (to /etc/shadow, or to a notebook of the instructor's, graded as hers)."""
    import signal

    from baccarat_kit.grading import grade as grade_module

    folder = tmp_path / "home" / "mallory" / "exercises"
    folder.mkdir(parents=True)
    secret = tmp_path / "instructor.ipynb"
    secret.write_text((ROOT / "exercises" / "source" / "02-naturals-player.ipynb").read_text(encoding="utf-8"))
    os.mkfifo(folder / "01-card-values.ipynb")
    (folder / "02-naturals-player.ipynb").symlink_to(secret)
    with (folder / "03-banker-rule.ipynb").open("wb") as fh:
        fh.truncate(1 << 40)  # 1 TiB of her disk's nothing
    read: list[Path] = []

    def spy(path: Path, *_: object) -> tuple[str, int, dict[str, Any]]:
        read.append(path)
        return "", 0, {"status": "not_json"}

    monkeypatch.setattr(grade_module, "read_submission", spy)

    def hung(*_: object) -> None:
        raise TimeoutError("grade hung on her folder")

    old = signal.signal(signal.SIGALRM, hung)
    signal.alarm(60)  # only so that a hang fails: nothing here is timed
    try:
        paths = grade_module.collect_paths([folder])
        subs = grade_module.grade_paths(paths, exercises, jobs=1)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
    assert read == []  # none of the three was read, hashed or parsed
    got = {Path(s.file).name: (s.status, s.reason["en"]) for s in subs}
    assert got["01-card-values.ipynb"][0] == "unreadable" and "FIFO" in got["01-card-values.ipynb"][1]
    assert got["02-naturals-player.ipynb"][0] == "unreadable" and "link" in got["02-naturals-player.ipynb"][1]
    assert got["03-banker-rule.ipynb"][0] == "too_large" and str(1 << 40) in got["03-banker-rule.ipynb"][1]
    assert all(s.score == 0 and s.reason["zh"] != s.reason["en"] for s in subs)


def test_a_claim_of_the_self_study_id_is_flagged_for_the_instructor(tmp_path: Path) -> None:
    """Without a term secret a file is keyed by the id it claims. ``self-study`` is the id of the
    course's shipped copies, whose check() runs every hidden check: a learner who sets it in a
    class copy has had the full verdict before handing in. Before: nothing said so."""
    from baccarat_kit.grading.records import SELF_STUDY_ID

    path = tmp_path / "04-whole-coups.ipynb"
    path.write_text("{}", encoding="utf-8")
    sub = Submission(str(path), "ab" * 32, "04-whole-coups", SELF_STUDY_ID, "ok", {})
    stamp([path], [sub])
    said = [w for w in sub.warnings if SELF_STUDY_ID in w["en"]]
    assert said and "check()" in said[0]["en"] and SELF_STUDY_ID in said[0]["zh"]
    honest = Submission(str(path), "ab" * 32, "04-whole-coups", "s1234", "ok", {})
    stamp([path], [honest])
    assert not [w for w in honest.warnings if SELF_STUDY_ID in w["en"]]


def test_the_flag_on_a_loose_file_says_what_it_is(tmp_path: Path) -> None:
    """Before: "… collected from the learner folder '-': the row counts for '-'" (a file that was
    not collected has no folder; the row counted for alice)."""
    path = tmp_path / "01-card-values.ipynb"
    path.write_text("{}", encoding="utf-8")
    sub = Submission(str(path), "ab" * 32, "01-card-values", "alice", "ok", {})
    stamp([path], [sub], known=["alice"])
    assert sub.identity_mismatch
    assert [w["en"] for w in sub.warnings if "'-'" in w["en"]] == []
    assert any("not collected" in w["en"] and "alice" in w["zh"] for w in sub.warnings)
