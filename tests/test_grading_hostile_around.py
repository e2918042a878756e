"""A hostile learner against what surrounds collect and grade (redteam, session 2).

Each test is one attack that worked before its fix, with a control beside it: the honest path
(a real collect, a learner's own collected row) keeps working.
"""

from __future__ import annotations

import json
import os
from datetime import UTC, datetime
from pathlib import Path

import pytest

from baccarat_kit.grading.records import Submission
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
