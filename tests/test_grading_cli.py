"""The release and grade commands: usage mistakes are one line and exit 2; outputs are atomic."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from baccarat_kit.cli import main
from baccarat_kit.grading import grade as g
from baccarat_kit.grading.report import feedback as fb
from baccarat_kit.grading.sandbox import bwrap
from baccarat_kit.grading.term import gradebook as gb
from baccarat_kit.grading.term.authoring import read_source
from baccarat_kit.i18n import both

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("make, words", [
    (lambda tmp: tmp / "nope.ipynb", "does not exist"),
    (lambda tmp: (tmp / "grades.csv").write_text("x") and tmp / "grades.csv", "is not a notebook"),
    (lambda tmp: (tmp / "empty").mkdir() or tmp / "empty", "holds no notebooks"),
])
def test_usage_mistakes_are_one_line_and_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                 make: object, words: str) -> None:
    target = make(tmp_path)  # type: ignore[operator]
    code = main(["--lang", "en", "grade", str(target), "--out", str(tmp_path / "out")])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and words in err and str(target.name) in err
    assert not (tmp_path / "out").exists()


def test_help_states_the_default_limits(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["grade", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert f"(default {g.DEFAULT_CELL_TIMEOUT:g})" in out
    assert f"(default {g.DEFAULT_NOTEBOOK_TIMEOUT:g})" in out
    assert f"(default {g.DEFAULT_MEMORY_MB})" in out


def test_release_command_reproduces_the_committed_copies(tmp_path: Path) -> None:
    assert main(["release", str(ROOT / "exercises" / "source"), "--out", str(tmp_path), "--self-study"]) == 0
    for made in tmp_path.glob("*.ipynb"):
        assert made.read_text(encoding="utf-8") == (ROOT / "exercises" / made.name).read_text(encoding="utf-8")


def _subs() -> list[g.Submission]:
    s = g.Submission("a/x.ipynb", "0" * 64, None, "", "not_json", both("grading.reason.not_json", detail="-"))
    s.feedback_name = "x"
    return [s]


def test_outputs_replace_the_folder_at_once(tmp_path: Path) -> None:
    exercises = g.load_exercises(ROOT / "exercises" / "source")
    out = tmp_path / "out"
    gb.write_outputs(out, _subs(), exercises, g.Limits(), page=fb.feedback_html)
    first = (out / "results.json").read_text(encoding="utf-8")
    assert json.loads(first)["submissions"][0]["status"] == "not_json"
    assert (out / "feedback" / "x.html").exists()

    def boom(*args: object, **kwargs: object) -> str:
        raise RuntimeError("disk full")

    with pytest.raises(RuntimeError):
        gb.write_outputs(out, _subs(), exercises, g.Limits(), page=boom, update=True)
    assert (out / "results.json").read_text(encoding="utf-8") == first  # the old gradebook is intact
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]     # and no partial one is left


def test_grading_into_a_gradebook_without_update_is_refused(tmp_path: Path) -> None:
    exercises = g.load_exercises(ROOT / "exercises" / "source")
    out = tmp_path / "out"
    gb.write_outputs(out, _subs(), exercises, g.Limits(), page=fb.feedback_html)
    first = (out / "results.json").read_bytes()
    with pytest.raises(g.GradeUsageError) as err:
        gb.write_outputs(out, _subs(), exercises, g.Limits(), page=fb.feedback_html)
    assert "--update" in err.value.args[0] or "--update" in str(err.value)
    assert (out / "results.json").read_bytes() == first


def test_collect_paths_searches_folders(tmp_path: Path) -> None:
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "2.ipynb").write_text("{}")
    (tmp_path / "1.ipynb").write_text("{}")
    (tmp_path / ".ipynb_checkpoints").mkdir()
    (tmp_path / ".ipynb_checkpoints" / "1-checkpoint.ipynb").write_text("{}")
    assert [p.name for p in g.collect_paths([tmp_path])] == ["1.ipynb", "2.ipynb"]


SOURCE = ROOT / "exercises" / "source"


try:
    bwrap.check()
    NO_SANDBOX: list[str] = []
except bwrap.SandboxMissing:  # tests that fake grade_file need no sandbox; tests/test_grading_sandbox.py says why
    NO_SANDBOX = ["--no-sandbox"]


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    code = main(["--lang", "en", *argv])
    return code, capsys.readouterr().err


def test_an_output_folder_the_grader_did_not_make_is_refused(tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "mine"
    (out / "sub").mkdir(parents=True)
    (out / "notes.txt").write_text("mine", encoding="utf-8")
    (out / "sub" / "data.txt").write_text("mine", encoding="utf-8")
    code, err = _run(capsys, "grade", str(SOURCE / "01-card-values.ipynb"), "--out", str(out))
    assert code == 2 and "not made by the grader" in err and str(out) in err
    assert sorted(p.relative_to(out).as_posix() for p in out.rglob("*")) == ["notes.txt", "sub", "sub/data.txt"]
    code, err = _run(capsys, "grade", str(SOURCE / "01-card-values.ipynb"), "--out", str(tmp_path / "new"),
                     "--update")
    assert code == 2 and "--update needs" in err


def test_learner_copies_are_refused_as_sources(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, err = _run(capsys, "grade", str(SOURCE / "03-banker-rule.ipynb"), "--source", str(ROOT / "exercises"),
                     "--out", str(tmp_path / "out"))
    assert code == 2 and "learner copy" in err and "01-card-values.ipynb" in err
    code, err = _run(capsys, "release", str(ROOT / "exercises"), "--out", str(tmp_path / "again"))
    assert code == 2 and "learner copy" in err
    assert not (tmp_path / "out").exists()
    old = tmp_path / "old-copies"  # released before copies were marked: the placeholder tells
    old.mkdir()
    for path in (ROOT / "exercises").glob("*.ipynb"):
        nb = json.loads(path.read_text(encoding="utf-8"))
        del nb["metadata"]["baccarat_kit"]["released"]
        (old / path.name).write_text(json.dumps(nb, ensure_ascii=False), encoding="utf-8")
    code, err = _run(capsys, "grade", str(SOURCE / "03-banker-rule.ipynb"), "--source", str(old),
                     "--out", str(tmp_path / "out"))
    assert code == 2 and "learner copy" in err


def _sources_with(tmp_path: Path, name: str, edit: object) -> Path:
    folder = tmp_path / "src"
    folder.mkdir()
    for path in SOURCE.glob("*.ipynb"):
        nb = read_source(path)
        if path.stem == name:
            edit(nb)  # type: ignore[operator]
        (folder / path.name).write_text(json.dumps(nb, ensure_ascii=False), encoding="utf-8")
    return folder


def test_a_key_naming_an_unknown_field_stops_release_and_grade(tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    def typo(nb: dict[str, object]) -> None:
        q = next(q for q in nb["metadata"]["baccarat_kit"]["questions"] if q["id"] == "q8")  # type: ignore[index]
        q["key"]["args"][1] = "winer"

    src = _sources_with(tmp_path, "02-naturals-player", typo)
    code, err = _run(capsys, "release", str(src), "--out", str(tmp_path / "copies"))
    assert code == 2 and "02-naturals-player.ipynb, q8, key" in err and "'winer'" in err
    code, err = _run(capsys, "grade", str(SOURCE / "03-banker-rule.ipynb"), "--source", str(src),
                     "--out", str(tmp_path / "out"))
    assert code == 2 and "q8, key" in err and not (tmp_path / "out").exists()


def test_an_answer_cell_without_its_marker_stops_release(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    def unmarked(nb: dict[str, object]) -> None:
        for cell in nb["cells"]:  # type: ignore[attr-defined]
            src = cell["source"] if isinstance(cell["source"], str) else "".join(cell["source"])
            cell["source"] = src.replace("case_c = False  # SOLUTION", "case_c = False")

    src = _sources_with(tmp_path, "03-banker-rule", unmarked)
    code, err = _run(capsys, "release", str(src), "--out", str(tmp_path / "copies"))
    assert code == 2 and "03-banker-rule" in err and "question q3" in err and "`case_c`" in err
    assert not (tmp_path / "copies" / "03-banker-rule.ipynb").exists()


def test_a_missing_extra_names_the_pip_install(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(g, "missing_extra", lambda: ["jupyter_client", "ipykernel"])
    code, err = _run(capsys, "grade", str(SOURCE / "01-card-values.ipynb"), "--out", str(tmp_path / "out"))
    assert code == 2 and 'pip install "baccarat-kit[grade]"' in err and "ipykernel" in err
    assert not (tmp_path / "out").exists()


def _fake_grade(status: str, learner: str = "s1") -> object:
    def grade_file(path: Path, exercises: object, limits: object = None, display: object = None) -> g.Submission:
        return g.Submission(str(path), "ab" * 32, "01-card-values", learner if status == "ok" else "", status,
                            both(f"grading.reason.{status}", detail="exit 1"), max_score=7)
    return grade_file


def test_a_batch_that_fails_for_one_set_up_reason_exits_non_zero(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(g, "grade_file", _fake_grade("worker_failed"))
    code, err = _run(capsys, "grade", str(SOURCE), "--out", str(tmp_path / "out"), "--no-progress", *NO_SANDBOX)
    assert code == 1 and "Every submission failed for the same reason" in err
    assert (tmp_path / "out" / "results.json").exists()


def test_hidden_files_are_reported_not_silently_skipped(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(g, "grade_file", _fake_grade("ok"))
    folder = tmp_path / "subs"
    folder.mkdir()
    (folder / "01-card-values.ipynb").write_text("{}", encoding="utf-8")
    (folder / ".01-card-values.ipynb").write_text("{}", encoding="utf-8")
    code, err = _run(capsys, "grade", str(folder), "--out", str(tmp_path / "out"), "--no-progress", *NO_SANDBOX)
    assert code == 0 and ".01-card-values.ipynb" in err and "hidden" in err
    doc = json.loads((tmp_path / "out" / "results.json").read_text(encoding="utf-8"))
    assert [s["file"] for s in doc["skipped"]] == [str(folder / ".01-card-values.ipynb")]


def test_update_keeps_every_other_row_and_page(tmp_path: Path) -> None:
    exercises = g.load_exercises(SOURCE)
    out = tmp_path / "out"

    def sub(name: str, learner: str, score_status: str = "not_json") -> g.Submission:
        s = g.Submission(f"c/{name}.ipynb", name.encode().hex().ljust(64, "0"), "03-banker-rule", learner,
                         score_status, both("grading.reason.not_json", detail="-"), max_score=11)
        s.graded_at = "2026-12-01T00:00:00Z"
        return s

    subs = [sub("a", "ann"), sub("b", "ben"), sub("c", "cai")]
    gb.name_feedback(subs)
    gb.write_outputs(out, subs, exercises, g.Limits(), "en", page=fb.feedback_html)
    (out / "notes.txt").write_text("mine", encoding="utf-8")
    pages = {p.name: p.read_bytes() for p in (out / "feedback").iterdir()}
    assert sorted(pages) == ["ann--03-banker-rule.html", "ben--03-banker-rule.html", "cai--03-banker-rule.html"]
    again = sub("b", "ben")
    again.graded_at = "2026-12-02T00:00:00Z"
    gb.write_outputs(out, [again], exercises, g.Limits(), "en", page=fb.feedback_html, update=True)
    doc = json.loads((out / "results.json").read_text(encoding="utf-8"))
    assert sorted((s["learner"], s["graded_at"][:10]) for s in doc["submissions"]) == [
        ("ann", "2026-12-01"), ("ben", "2026-12-02"), ("cai", "2026-12-01")]
    for name in ("ann--03-banker-rule.html", "cai--03-banker-rule.html"):
        assert (out / "feedback" / name).read_bytes() == pages[name]
    assert (out / "notes.txt").read_text(encoding="utf-8") == "mine"
    marker = json.loads((out / gb.MARKER).read_text(encoding="utf-8"))["files"]
    assert "feedback/ann--03-banker-rule.html" in marker and "notes.txt" not in marker
