"""``baccarat-kit cases check / list / show / coverage``: exit codes and output."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from baccarat_kit import i18n
from baccarat_kit.cases import load
from baccarat_kit.cli import main

BCR = Path(__file__).resolve().parents[1] / "baccarat_kit" / "cases" / "bcr.toml"


@pytest.fixture(autouse=True)
def _default_language(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("BACCARAT_KIT_LANG", raising=False)
    monkeypatch.setattr(i18n, "_current", None)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    i18n._current = None  # `--lang` sets the process-wide default; each run starts afresh
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_check_shipped_catalogue_passes(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--lang", "en", "cases", "check")
    assert code == 0
    n = len(load().all())
    assert out.strip().startswith("Checked 6 file(s), ")
    assert f"{n} cases and variants" in out and out.strip().endswith("all hold.")
    code, out, _ = run(capsys, "cases", "check")
    assert code == 0 and "全部成立" in out


def test_check_wrong_claim_exits_1_and_names_file_case_step(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bcr.toml"
    bad.write_text(BCR.read_text(encoding="utf-8").replace(
        'cards = "A 2 2 3 4 3"', 'cards = "A 2 2 3 3 3"'), encoding="utf-8")
    code, out, err = run(capsys, "cases", "check", str(bad), "--lang", "en")
    assert code == 1
    assert (f"{bad}: BCR-004 variant: expected banker total 8, the engine gives 5 "
            "(banker 5 stands on player third card 3)") in out.splitlines()
    assert "5 claim(s) disagree" in err


def test_check_schema_problem_exits_2_and_reports_everything(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "a.toml").write_text("schema_version = 1\n[[case]]\nid = \n", encoding="utf-8")
    (tmp_path / "b.toml").write_bytes(b"\xff\xfe\x00garbage")
    code, out, err = run(capsys, "--lang", "en", "cases", "check", str(tmp_path))
    assert code == 2
    assert "a.toml: invalid TOML at line 3" in out
    assert "b.toml: not a UTF-8 text file" in out
    assert "Traceback" not in out + err


def test_check_missing_path_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--lang", "en", "cases", "check", "/no/such/folder")
    assert code == 2 and "/no/such/folder: no such file or folder." in out


def test_check_with_shipped_finds_duplicates(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "dup.toml").write_text(
        'schema_version = 1\n[[case]]\nid = "HK-A"\nsource = "002"\nbasis = "b"\n'
        'title.zh = "甲"\ntitle.en = "a"\nhand = "7 8"\ntotal = 5\n', encoding="utf-8")
    assert run(capsys, "cases", "check", str(tmp_path))[0] == 0
    code, out, _ = run(capsys, "--lang", "en", "cases", "check", "--with-shipped", str(tmp_path))
    assert code == 2 and "HK-A: duplicate id: hk-002.toml already defines it" in out


def test_list(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "cases", "list", "-q")
    assert code == 0
    assert out.split() == list(load().ids())
    code, out, _ = run(capsys, "cases", "list", "--lang", "en")
    first = out.splitlines()[0].split("\t")
    assert first == ["BCR-001", "000", "full", "Player 5 draws to 9, banker 7 stands"]


def test_show(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "cases", "show", "BCR-006-variant", "--lang", "en")
    assert code == 0
    assert "What changed: Only the banker's second card changes from 3 to 4" in out
    assert "The player stood; banker 6 (6–7 stands when the player stood): stands." in out
    assert "Result: player 6, banker 6: tie." in out
    assert "Not dealt: 2" in out
    code, out, _ = run(capsys, "cases", "show", "HK-A")
    assert code == 0 and "莊家 3 點遇閒家第三張 8 停牌" in out


def test_show_unknown_id_is_one_line_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "--lang", "en", "cases", "show", "BCR-09")
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "there is no case 'BCR-09'" in err and "BCR-009" not in err


def test_coverage(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--lang", "en", "cases", "coverage")
    assert code == 0
    assert "Banker cells:" in out and "banker-0-vs-0" in out  # nothing exercises banker 0
    assert "banker-3-vs-8," not in out.split("exercises")[-1]


def test_cases_without_action_is_usage(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "cases")
    assert code == 2 and "check" in err


def test_console_script_end_to_end(tmp_path: Path) -> None:
    exe = Path(sys.executable).with_name("baccarat-kit")
    done = subprocess.run([str(exe), "--lang", "en", "cases", "check"], capture_output=True,
                          text=True, check=False)
    assert done.returncode == 0, done.stderr
    (tmp_path / "x.toml").write_text("not toml at all [", encoding="utf-8")
    done = subprocess.run([str(exe), "cases", "check", str(tmp_path / "x.toml")],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 2 and "Traceback" not in done.stderr + done.stdout
    assert "第 1 行" in done.stdout
