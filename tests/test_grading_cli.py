"""The release and grade commands: usage mistakes are one line and exit 2; outputs are atomic."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from baccarat_kit.cli import main
from baccarat_kit.grading import grade as g
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
    assert main(["release", str(ROOT / "exercises" / "source"), "--out", str(tmp_path)]) == 0
    for made in tmp_path.glob("*.ipynb"):
        assert made.read_text(encoding="utf-8") == (ROOT / "exercises" / made.name).read_text(encoding="utf-8")


def _subs() -> list[g.Submission]:
    s = g.Submission("a/x.ipynb", "0" * 64, None, "", "not_json", both("grading.reason.not_json", detail="-"))
    s.feedback_name = "x"
    return [s]


def test_outputs_replace_the_folder_at_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    exercises = g.load_exercises(ROOT / "exercises" / "source")
    out = tmp_path / "out"
    g.write_outputs(out, _subs(), exercises, g.Limits())
    first = (out / "results.json").read_text(encoding="utf-8")
    assert json.loads(first)["submissions"][0]["status"] == "not_json"
    assert (out / "feedback" / "x.html").exists()

    def boom(*args: object, **kwargs: object) -> str:
        raise RuntimeError("disk full")

    monkeypatch.setattr(g, "feedback_html", boom)
    with pytest.raises(RuntimeError):
        g.write_outputs(out, _subs(), exercises, g.Limits())
    assert (out / "results.json").read_text(encoding="utf-8") == first  # the old gradebook is intact
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]     # and no partial one is left


def test_collect_paths_searches_folders(tmp_path: Path) -> None:
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "2.ipynb").write_text("{}")
    (tmp_path / "1.ipynb").write_text("{}")
    (tmp_path / ".ipynb_checkpoints").mkdir()
    (tmp_path / ".ipynb_checkpoints" / "1-checkpoint.ipynb").write_text("{}")
    assert [p.name for p in g.collect_paths([tmp_path])] == ["1.ipynb", "2.ipynb"]
