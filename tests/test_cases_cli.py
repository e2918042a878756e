"""``baccarat-kit cases check / list / show / coverage``: exit codes and output."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from baccarat_kit import i18n, sources
from baccarat_kit.cases import load
from baccarat_kit.cli import main
from baccarat_kit.sources import Pages

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


def test_check_shipped_catalogue_passes(capsys: pytest.CaptureFixture[str], source_pages: Pages) -> None:
    code, out, _ = run(capsys, "--lang", "en", "cases", "check")
    assert code == 0
    n = len(load().all())
    assert out.strip().startswith("Checked 6 file(s), ")
    assert f"{n} cases and variants" in out and out.strip().endswith("all hold.")
    assert f"quote(s) (against the source pages in {source_pages.folder}): all hold." in out
    code, out, _ = run(capsys, "cases", "check")
    assert code == 0 and "全部成立" in out


def test_check_wrong_claim_exits_1_and_names_file_case_step(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # BCR-004 made the instructor's own (an id of hers, no quote), its variant miscopied
    text = BCR.read_text(encoding="utf-8")
    case = text[text.index('id = "BCR-004"'):text.index('[[case]]', text.index('id = "BCR-004"'))]
    case = re.sub(r'quote(_en)? = """.*?"""\n', "", case, flags=re.S).replace('source = "000"', 'source = "instructor"')
    bad = tmp_path / "bcr.toml"
    bad.write_text("schema_version = 1\n[[case]]\n" + case.replace('cards = "A 2 2 3 4 3"', 'cards = "A 2 2 3 3 3"')
                   .replace('id = "BCR-', 'id = "MY-'), encoding="utf-8")
    code, out, err = run(capsys, "cases", "check", str(bad), "--lang", "en")
    assert code == 1
    assert (f"{bad}: MY-004 variant: expected banker total 8, the engine gives 5 "
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


def test_check_finds_an_id_of_the_shipped_catalogue(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 44: by default, not only with --with-shipped."""
    (tmp_path / "dup.toml").write_text(
        'schema_version = 1\n[[case]]\nid = "HK-A"\nsource = "instructor"\nbasis = "b"\n'
        'title.zh = "甲"\ntitle.en = "a"\nhand = "7 8"\ntotal = 5\n', encoding="utf-8")
    code, out, _ = run(capsys, "--lang", "en", "cases", "check", str(tmp_path))
    assert code == 2
    assert f"{tmp_path / 'dup.toml'}: HK-A: duplicate id: the shipped catalogue's hk-002.toml already has it" in out
    code, out, _ = run(capsys, "--lang", "en", "cases", "check", "--with-shipped", str(tmp_path))
    assert code == 2 and "HK-A: duplicate id: hk-002.toml already defines it" in out


# A source page of our own for the quote checks (the real pages need not be here): a line of 002's.
SEEDS_LIKE = Path(__file__).resolve().parent / "fixtures" / "sources"
OWN_CASE = ('schema_version = 1\n[[case]]\nid = "MY-001"\nsource = "instructor"\nbasis = "b"\n'
            'title.zh = "甲"\ntitle.en = "a"\nplayer_third = 8\nbanker_first_total = 3\n'
            'banker_decision = "stand"\n')


def test_a_case_of_the_instructors_own_needs_no_quote(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "own.toml").write_text(OWN_CASE, encoding="utf-8")
    code, out, _ = run(capsys, "--lang", "en", "cases", "check", str(tmp_path), "--sources", "/no/pages")
    assert code == 0 and "0 quote(s): all hold." in out  # nothing to verify, so no pages needed
    (tmp_path / "own.toml").write_text(OWN_CASE + 'quote = "莊家 3 點停牌"\nquote_en = "banker 3 stands"\n',
                                       encoding="utf-8")
    code, out, _ = run(capsys, "--lang", "en", "cases", "check", str(tmp_path), "--sources", str(SEEDS_LIKE))
    assert code == 2 and "own.toml: MY-001: a case of your own (source = \"instructor\") has no source page" in out


def _quoted(quote: str, quote_en: str | None = "banker 3 stands") -> str:
    return (OWN_CASE.replace('"instructor"', '"002"') + f'quote = "{quote}"\n'
            + (f'quote_en = "{quote_en}"\n' if quote_en else ""))


def test_a_quote_without_its_english_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "q.toml").write_text(_quoted("莊家 3 點停牌", None), encoding="utf-8")
    code, out, _ = run(capsys, "--lang", "en", "cases", "check", str(tmp_path), "--sources", str(SEEDS_LIKE))
    assert code == 2
    assert ("q.toml: MY-001: 'quote' (the source's words) has no 'quote_en' (its English translation): "
            "the English case card would show the Chinese words untranslated.") in out


def test_a_misquote_is_named_with_the_words_not_on_the_page(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "q.toml").write_text(_quoted("莊家 3 點停牌"), encoding="utf-8")
    assert run(capsys, "cases", "check", str(tmp_path), "--sources", str(SEEDS_LIKE))[0] == 0
    (tmp_path / "q.toml").write_text(_quoted("莊家 3 點補牌"), encoding="utf-8")
    code, out, err = run(capsys, "--lang", "en", "cases", "check", str(tmp_path), "--sources", str(SEEDS_LIKE))
    assert code == 1 and "1 quote(s) not on their source page" in err
    assert "q.toml: MY-001: 'quote' is not source 002's own words: the page has the words before ▶ but not those after it: 「莊家3點▶補牌」" in out


def test_without_the_pages_a_quote_is_not_verified_and_says_where_the_kit_looked(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "q.toml").write_text(_quoted("莊家 3 點停牌"), encoding="utf-8")
    monkeypatch.setenv("BACCARAT_KIT_SOURCES", str(tmp_path / "nothing-here"))
    code, out, err = run(capsys, "--lang", "en", "cases", "check", str(tmp_path))
    assert code == 2 and "1 not verified" in err
    assert (f"q.toml: the quotes of 1 case(s) could not be verified (MY-001): the source pages were not "
            f"found (looked in {tmp_path / 'nothing-here'})") in out
    monkeypatch.setenv("BACCARAT_KIT_SOURCES", str(SEEDS_LIKE))  # the variable is how to say where
    assert run(capsys, "cases", "check", str(tmp_path))[0] == 0


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
    # (without the source pages the quotes are not verified, and it says so: exit 2)
    assert done.returncode == (0 if sources.find() else 2), done.stderr
    (tmp_path / "x.toml").write_text("not toml at all [", encoding="utf-8")
    done = subprocess.run([str(exe), "cases", "check", str(tmp_path / "x.toml")],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 2 and "Traceback" not in done.stderr + done.stdout
    assert "第 1 行" in done.stdout
