from __future__ import annotations

import subprocess
import sys

import pytest

from baccarat_kit.cli import main


def run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_play_with_bet(capsys) -> None:
    code, out, err = run(capsys, "play", "2 3 3 4 4", "--bet", "player=100", "--table", "commission", "--lang", "en")
    assert code == 0 and err == ""
    assert "Player 5 (0–5 draws): draws 4" in out
    assert "player wins" in out
    assert "200 returned" in out and "net 100" in out


def test_play_default_language_is_zh(capsys, monkeypatch) -> None:
    monkeypatch.delenv("BACCARAT_KIT_LANG", raising=False)
    import baccarat_kit.i18n as i18n
    monkeypatch.setattr(i18n, "_current", None)
    code, out, _ = run(capsys, "play", "4 4 4 5")
    assert code == 0 and "例牌" in out and "莊家勝" in out


@pytest.mark.parametrize(("args", "shown"), [
    (["play", "2 3 3 11"], "'11'"),
    (["play", "2 3 3"], "3 given"),
    (["play", "2 3 3 4 4", "--bet", "bank=100"], "'bank'"),
    (["play", "2 3 3 4 4", "--bet", "player"], "'player'"),
    (["play", "2 3 3 4 4", "--bet", "player=-1"], "-1"),
    (["play", "2 3 3 4 4", "--bet", "player=1", "--table", "vip"], "'vip'"),
    (["--lang", "fr", "play", "2 3 3 4 4"], "'fr'"),
])
def test_bad_input_is_one_line_and_exit_2(capsys, args, shown) -> None:
    code, _out, err = run(capsys, *args, *([] if "--lang" in args else ["--lang", "en"]))
    assert code == 2
    assert err.count("\n") == 1 and shown in err and "Traceback" not in err


def test_console_script_runs() -> None:
    proc = subprocess.run([sys.executable, "-m", "baccarat_kit.cli", "play", "2 3 3 11", "--lang", "en"],
                          capture_output=True, text=True)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr and "'11'" in proc.stderr


def test_no_command_prints_help(capsys) -> None:
    code, out, _ = run(capsys)
    assert code == 2 and "play" in out
