"""``hand-out``: each learner's term copies into her own folder, which is hostile ground.

The copies are a real term release (``secret new`` → ``release --class-list --secret-file``); the
learner folders belong to another uid where the test runs as root, as on a class machine. Every
attack is a link, a file or a folder she placed, or one swapped in at the moment between check and
use (:data:`hand_back.before_step`); the instructor's files must not change and nothing of hers is
replaced.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from baccarat_kit.cli import main
from baccarat_kit.grading.term import hand_back
from baccarat_kit.grading.term.hand_out import hand_out

ROOT = Path(__file__).resolve().parents[1]
SOURCE = ROOT / "exercises" / "source"
LEARNERS = ("alice", "bob", "carol")
NOBODY = 65534


@pytest.fixture(scope="module")
def handout(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("term")
    key = d / "term.key"
    assert main(["--lang", "en", "secret", "new", str(key)]) == 0
    roster = d / "class.csv"
    roster.write_text("learner,deadline\n" + "".join(f"{n},\n" for n in LEARNERS), encoding="utf-8")
    out = d / "handout"
    assert main(["--lang", "en", "release", str(SOURCE), "--out", str(out), "--class-list", str(roster),
                 "--secret-file", str(key)]) == 0
    return out


def _homes(tmp_path: Path, learners: tuple[str, ...] = LEARNERS) -> Path:
    home = tmp_path / "home"
    home.mkdir()
    for learner in learners:
        (home / learner).mkdir(mode=0o700)
        if os.geteuid() == 0:
            os.chown(home / learner, NOBODY, NOBODY)
    return home


def _instructor_file(tmp_path: Path) -> Path:
    secret = tmp_path / "instructor" / "answers.txt"
    secret.parent.mkdir()
    secret.write_text("the instructor's own file\n", encoding="utf-8")
    return secret


def test_each_learner_gets_her_own_copies_as_her_files(handout: Path, tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    home = _homes(tmp_path)
    assert main(["--lang", "en", "hand-out", str(handout), "--to", str(home)]) == 0
    assert "Handed out 18 notebook(s)" in capsys.readouterr().out
    for learner in LEARNERS:
        mine = sorted(p.name for p in (home / learner / "exercises").iterdir())
        assert mine == sorted(p.name for p in (handout / learner / "exercises").iterdir())
        for p in (home / learner / "exercises").iterdir():
            assert p.read_bytes() == (handout / learner / "exercises" / p.name).read_bytes()
            if os.geteuid() == 0:
                assert (p.stat().st_uid, (home / learner / "exercises").stat().st_uid) == (NOBODY, NOBODY)
        assert not [p for p in (home / learner / "exercises").iterdir() if p.name.endswith(".tmp")]
    # alice's 04 differs from bob's: each has her own hands
    assert ((home / "alice" / "exercises" / "04-whole-coups.ipynb").read_bytes()
            != (home / "bob" / "exercises" / "04-whole-coups.ipynb").read_bytes())


def test_a_file_already_there_is_never_replaced(handout: Path, tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    home = _homes(tmp_path)
    assert main(["--lang", "en", "hand-out", str(handout), "--to", str(home)]) == 0
    work = home / "alice" / "exercises" / "04-whole-coups.ipynb"
    work.write_text("her answers so far", encoding="utf-8")
    capsys.readouterr()
    assert main(["--lang", "en", "hand-out", str(handout), "--to", str(home)]) == 0
    out, err = capsys.readouterr()
    assert work.read_text(encoding="utf-8") == "her answers so far"
    assert "Handed out 0 notebook(s)" in out and "18 already there" in out
    assert "never replaced" in err and "04-whole-coups.ipynb" in err


def test_her_links_lead_nowhere(handout: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    theirs = _instructor_file(tmp_path)
    before = theirs.read_bytes()
    home = _homes(tmp_path)
    # alice: exercises/ is a link to the instructor's folder
    (home / "alice" / "exercises").symlink_to(theirs.parent)
    # bob: each notebook name is a link (one to the instructor's file, one dangling into the venv)
    (home / "bob" / "exercises").mkdir()
    if os.geteuid() == 0:
        os.chown(home / "bob" / "exercises", NOBODY, NOBODY)
    (home / "bob" / "exercises" / "04-whole-coups.ipynb").symlink_to(theirs)
    dangling = tmp_path / "instructor" / "zz.pth"
    (home / "bob" / "exercises" / "05-settlement.ipynb").symlink_to(dangling)
    # carol: her whole folder is a link to the instructor's folder
    os.rmdir(home / "carol")
    (home / "carol").symlink_to(theirs.parent)
    done = hand_out(handout, home)
    assert theirs.read_bytes() == before and not dangling.exists()
    assert sorted(os.listdir(theirs.parent)) == ["answers.txt"]
    reasons = {Path(p["file"]).name: p["reason"] for p in done.problems}
    assert reasons == {"alice": "symlink", "carol": "symlink"}
    assert {p.name for p in done.kept} == {"04-whole-coups.ipynb", "05-settlement.ipynb"}
    assert (home / "bob" / "exercises" / "06-misconceptions.ipynb").is_file()


def test_a_folder_not_hers_is_refused(handout: Path, tmp_path: Path) -> None:
    if os.geteuid() != 0:
        pytest.skip("needs root: a folder of another owner inside hers")
    home = _homes(tmp_path, ("alice",))
    (home / "alice" / "exercises").mkdir()  # root's, inside her folder: not hers
    done = hand_out(handout, home)
    assert [p["reason"] for p in done.problems if Path(p["file"]).name == "alice"] == ["not_hers"]
    assert list((home / "alice" / "exercises").iterdir()) == []


def test_a_link_swapped_in_between_check_and_use_is_not_followed(handout: Path, tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    theirs = _instructor_file(tmp_path)
    before = theirs.read_bytes()
    home = _homes(tmp_path, ("alice", "bob"))
    swapped: list[str] = []

    def swap(stage: str, name: str, fd: int) -> None:
        # alice: right after exercises/ was made, it becomes a link; bob: the notebook's name
        # becomes a link just before the copy is linked to it
        if stage == "dir" and name == "exercises" and "alice" in os.readlink(f"/proc/self/fd/{fd}"):
            os.rename(home / "alice" / "exercises", home / "alice" / "moved")
            (home / "alice" / "exercises").symlink_to(theirs.parent)
            swapped.append("alice")
        if stage == "link" and name == "04-whole-coups.ipynb" and "bob" in os.readlink(f"/proc/self/fd/{fd}"):
            (home / "bob" / "exercises" / name).symlink_to(theirs)
            swapped.append("bob")

    monkeypatch.setattr(hand_back, "before_step", swap)
    done = hand_out(handout, home)
    assert sorted(swapped) == ["alice", "bob"]
    assert theirs.read_bytes() == before and sorted(os.listdir(theirs.parent)) == ["answers.txt"]
    assert {Path(p["file"]).name: p["reason"] for p in done.problems} == {"alice": "symlink", "carol": "no_folder"}
    assert [p.name for p in done.kept] == ["04-whole-coups.ipynb"]
    assert (home / "bob" / "exercises" / "04-whole-coups.ipynb").is_symlink()


def test_a_missing_learner_folder_leaves_the_others_served(handout: Path, tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    home = _homes(tmp_path, ("alice", "carol"))
    assert main(["--lang", "en", "hand-out", str(handout), "--to", str(home)]) == 0
    out, err = capsys.readouterr()
    assert "Handed out 12 notebook(s)" in out
    assert "Not handed out:" in err and "bob" in err and "no learner folder" in err
    assert "from collection" not in err and "make her home (the hub user) first" in err  # return's words were wrong here
    assert main(["--lang", "zh", "hand-out", str(handout), "--to", str(home)]) == 0
    assert "先建立她的家目錄" in capsys.readouterr().err


def test_a_root_without_any_learner_folder_is_a_usage_mistake(handout: Path, tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    """--to a folder holding none of the learners' homes (a typo, the hub's prefix forgotten, homes
    not made yet) said "Handed out 0 notebook(s)" with exit 0: now exit 2, naming the folder, the
    learners looked for and what to give instead; one learner's folder missing stays exit 0."""
    home = tmp_path / "empty-home"
    home.mkdir()
    for lang, words in (("en", "None of the 3 learner(s) of the hand-out has a folder in"),
                        ("zh", "發放資料夾裡的 3 位學員")):
        assert main(["--lang", lang, "hand-out", str(handout), "--to", str(home)]) == 2
        err = capsys.readouterr().err
        assert words in err and str(home) in err and "alice, bob, carol" in err and "--hub-prefix jupyter-" in err
    assert not any(home.iterdir())
    (home / "jupyter-alice").mkdir()  # a hub's homes given without --hub-prefix
    assert main(["--lang", "en", "hand-out", str(handout), "--to", str(home)]) == 2
    assert main(["--lang", "en", "hand-out", str(handout), "--to", str(_homes(tmp_path, ("alice",)))]) == 0


def test_a_folder_with_no_copies_is_a_usage_mistake(handout: Path, tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    """The folder above the hand-out (or a collect's folder) handed out nothing and said only
    "Handed out 0 notebook(s)", exit 0: now exit 2, naming the folder and what it should hold."""
    home = _homes(tmp_path)
    for wrong in (handout.parent, tmp_path / "home"):
        for lang, words in (("en", "holds no learner's copies"), ("zh", "裡沒有任何學員的練習")):
            assert main(["--lang", lang, "hand-out", str(wrong), "--to", str(home)]) == 2
            err = capsys.readouterr().err
            assert words in err and str(wrong) in err
    assert not any(home.rglob("*.ipynb"))


def test_a_copy_released_for_another_learner_is_not_handed_out(handout: Path, tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    """alice's copy moved into bob's hand-out folder would reach bob keyed for alice (0 when he
    hands it in): it is listed, in one language, and bob's home does not get it."""
    import shutil

    mixed = tmp_path / "handout"
    shutil.copytree(handout, mixed)
    (mixed / "bob" / "exercises" / "04-whole-coups.ipynb").write_bytes(
        (handout / "alice" / "exercises" / "04-whole-coups.ipynb").read_bytes())
    home = _homes(tmp_path)
    assert main(["--lang", "en", "hand-out", str(mixed), "--to", str(home)]) == 0
    err = capsys.readouterr().err
    assert "released for 'alice' but lies in the hand-out folder of 'bob'" in err
    assert not (home / "bob" / "exercises" / "04-whole-coups.ipynb").exists()
    assert (home / "bob" / "exercises" / "03-banker-rule.ipynb").exists()  # the rest of his copies
    assert (home / "alice" / "exercises" / "04-whole-coups.ipynb").exists()
    home2 = tmp_path / "again"
    home2.mkdir()
    assert main(["--lang", "zh", "hand-out", str(mixed), "--to", str(_homes(home2))]) == 0
    assert "這一份是發給「alice」的，卻放在「bob」的發放資料夾裡" in capsys.readouterr().err
