"""The case catalogue: content quoted from the sources, every claim checked by the engine,
mutated and malformed copies rejected with messages that say where and why."""

from __future__ import annotations

import re
import textwrap
from html import escape
from pathlib import Path

import pytest

import baccarat_kit as bk
from baccarat_kit.cases import CaseFileError, Problem, check, load, read
from baccarat_kit.sources import Pages

CATALOGUE = load()
ALL_IDS = CATALOGUE.ids()
BCR_TOML = (Path(bk.cases.__file__).parent / "bcr.toml").read_text(encoding="utf-8")


@pytest.mark.parametrize("case_id", ALL_IDS)
def test_every_shipped_case_and_variant_holds(case_id: str) -> None:
    case = CATALOGUE[case_id]
    assert case.check() == ()
    assert bk.cases.count_claims(case) >= 1
    assert case.explain("en") and case.explain("zh")


# The BCR hands in deal order, transcribed here from source 000 independently of the data
# files (閒2、莊3、閒3、莊4 → "2 3 3 4", then the player's and the banker's third cards).
BCR_CARDS = {
    "BCR-001": "2 3 3 4 4", "BCR-001-variant": "2 3 3 5 4",
    "BCR-002": "2 A 3 2 8 4", "BCR-002-variant": "2 A 3 2 9 4",
    "BCR-003": "2 A 3 3 A", "BCR-003-variant": "2 A 3 3 2 5",
    "BCR-004": "A 2 2 3 3", "BCR-004-variant": "A 2 2 3 4 3",
    "BCR-005": "A 2 2 4 5", "BCR-005-variant": "A 2 2 4 6 3",
    "BCR-006": "2 2 4 3 2", "BCR-006-variant": "2 2 4 4 2",
    "BCR-007": "A 10 3 2 8 5", "BCR-007-variant": "A 10 3 3 8 5",
    "BCR-008": "4 4 4 5", "BCR-008-variant": "4 4 4 4",
}
# (winner, player final, banker final) as the source states them.
BCR_RESULTS = {
    "BCR-001": ("player", 9, 7), "BCR-001-variant": ("banker", 5, 8),
    "BCR-002": ("tie", 3, 3), "BCR-002-variant": ("banker", 4, 7),
    "BCR-003": ("player", 6, 4), "BCR-003-variant": ("banker", 7, 9),
    "BCR-004": ("player", 6, 5), "BCR-004-variant": ("banker", 7, 8),
    "BCR-005": ("player", 8, 6), "BCR-005-variant": ("tie", 9, 9),
    "BCR-006": ("banker", 6, 7), "BCR-006-variant": ("tie", 6, 6),
    "BCR-007": ("banker", 2, 7), "BCR-007-variant": ("banker", 2, 3),
    "BCR-008": ("banker", 8, 9), "BCR-008-variant": ("tie", 8, 8),
}


@pytest.mark.parametrize("case_id", sorted(BCR_CARDS))
def test_bcr_cards_in_deal_order_and_results(case_id: str) -> None:
    case = CATALOGUE[case_id]
    assert case.kind == "full"
    assert bk.format_cards(case.cards) == BCR_CARDS[case_id]
    coup = case.coup()
    assert (coup.winner, coup.player_total, coup.banker_total) == BCR_RESULTS[case_id]
    assert case.claims["winner"] == BCR_RESULTS[case_id][0]


def test_bcr_unused_cards_are_the_ones_the_source_names() -> None:
    # "不能補4" (001 variant), "停牌分支不消耗這張4" (002), "原本要補的2不發" (006 variant)
    assert bk.format_cards(CATALOGUE["BCR-001-variant"].coup().unused) == "4"
    assert bk.format_cards(CATALOGUE["BCR-002"].coup().unused) == "4"
    assert bk.format_cards(CATALOGUE["BCR-006-variant"].coup().unused) == "2"
    assert CATALOGUE["BCR-008"].coup().unused == ()


def test_bcr_001_settlement_as_the_source_gives_it() -> None:
    (bet,) = CATALOGUE["BCR-001"].bets
    assert (bet.area, bet.stake, bet.returned, bet.net) == ("player", 100, 200, 100)
    (vbet,) = CATALOGUE["BCR-001-variant"].bets
    assert (vbet.returned, vbet.net) == (0, -100)


def test_variants_hang_off_their_case() -> None:
    case = CATALOGUE["BCR-004"]
    (variant,) = case.variants
    assert variant.id == "BCR-004-variant" and variant.parent is case
    assert variant.is_variant and not case.is_variant
    assert variant.change("zh").startswith("只把閒第三張3改4")
    assert case.change("zh") is None
    assert variant.source == "000" and variant.basis == case.basis
    assert variant.title("en").startswith(case.title("en"))
    assert variant.assumptions("zh") == case.assumptions("zh") == "標準補牌"


def test_catalogue_contract() -> None:
    assert len(list(CATALOGUE)) == len(CATALOGUE)
    assert all(not c.is_variant for c in CATALOGUE)
    assert "BCR-004-variant" in CATALOGUE and "NOPE" not in CATALOGUE
    with pytest.raises(bk.BaccaratError, match="BCR-004"):
        CATALOGUE["BCR-04"]
    assert len(set(ALL_IDS)) == len(ALL_IDS)


EXPECTED_IDS = {
    "000": ["BCR-001", "BCR-002", "BCR-003", "BCR-004", "BCR-005", "BCR-006", "BCR-007",
            "BCR-008", "000-EX-1", "000-EX-2", "000-EX-3", "000-EX-4", "000-EX-5", "000-DEMO",
            "000-SELF-1", "000-SELF-2", "000-VAL-1", "000-VAL-2"],
    "001": ["001-EX-1", "001-EX-2", "001-EX-3", "001-EX-4", "001-EX-5", "001-VAL-1",
            "001-VAL-2"],
    "002": ["HK-A", "HK-B", "HK-C", "HK-D"],
    "003": ["TW-A", "TW-B", "TW-C", "TW-D", "003-VAL-1", "003-VAL-2", "003-VAL-3", "003-VAL-4",
            "003-NATURAL"],
    "004": ["004-VAL-1", "004-VAL-2", "004-VAL-3", "004-VAL-4"],
}


@pytest.mark.parametrize("source", sorted(EXPECTED_IDS))
def test_every_case_of_each_source_is_in_the_catalogue(source: str) -> None:
    ids = {c.id for c in CATALOGUE.by_source(source)}
    assert set(EXPECTED_IDS[source]) <= ids


def test_two_sets_of_cases_a_to_d_are_kept_apart() -> None:
    hk = [CATALOGUE[f"HK-{x}"] for x in "ABCD"]
    tw = [CATALOGUE[f"TW-{x}"] for x in "ABCD"]
    assert {c.source for c in hk} == {"002"} and {c.source for c in tw} == {"003"}
    # 002's cases give only the banker's decision; 003's give the final result.
    assert all("winner" not in c.claims for c in hk)
    assert all("winner" in c.claims for c in tw)
    assert [c.claims["banker_decision"] for c in hk] == ["stand", "draw", "stand", "draw"]
    assert [c.claims["winner"] for c in tw] == ["player", "banker", "banker", "player"]


def test_partial_cases_invent_no_card() -> None:
    # 001's 牌例 stop at the banker's decision: no banker third card, no final totals.
    for n in range(1, 6):
        case = CATALOGUE[f"001-EX-{n}"]
        assert case.kind == "partial" and case.cards is None and case.coup() is None
        assert not {"banker_third", "banker_total", "winner"} & set(case.claims)
    # 003 牌例 A gives only the banker's 2 + 3 and the 8 drawn.
    tw_a = CATALOGUE["TW-A"]
    assert bk.format_cards(tw_a.givens["banker_cards"]) == "2 3"
    assert "player_cards" not in tw_a.givens and tw_a.claims["banker_third"] == 8


# Card-value examples of 000, 001, 003, 004: (cards or values, sum, total) from the sources.
VALUE_EXAMPLES = {
    "000-VAL-1": ("7 8", 15, 5), "000-VAL-2": ("7 8", 15, 5),
    "001-VAL-1": ("7 8", 15, 5), "001-VAL-2": ("K 6", 6, 6),
    "003-VAL-1": ([1, 6], 7, 7), "003-VAL-2": ("8 7", 15, 5), "003-VAL-3": ([0, 9], 9, 9),
    "003-VAL-4": ("6 8 7", 21, 1), "004-VAL-1": ("K 9", 9, 9), "004-VAL-2": ("7 8", 15, 5),
    "004-VAL-3": ("9 6", 15, 5), "004-VAL-4": ("4 5", 9, 9),
}


@pytest.mark.parametrize("case_id", sorted(VALUE_EXAMPLES))
def test_card_value_examples(case_id: str) -> None:
    case = CATALOGUE[case_id]
    given, total_sum, total = VALUE_EXAMPLES[case_id]
    if isinstance(given, str):
        assert bk.format_cards(case.givens["hand"]) == given
        assert bk.hand_total(given) == total
    else:
        assert list(case.givens["values"]) == given
    assert (case.claims["sum"], case.claims["total"]) == (total_sum, total)


# ---------------------------------------------------------------- mutated copies


def _bcr_with(tmp_path: Path, old: str, new: str, count: int = 1) -> Path:
    assert BCR_TOML.count(old) >= count, old
    path = tmp_path / "bcr.toml"
    path.write_text(BCR_TOML.replace(old, new, count), encoding="utf-8")
    return path


def claims_check(path: Path) -> tuple[object, tuple[Problem, ...]]:
    """What a case file claims, checked by the engine (schema and claims; its quotes and the
    shipped ids are :func:`check`'s, tested below)."""
    catalogue, problems = read(path)
    return catalogue, (*problems, *catalogue.check())


def _messages(problems: tuple[Problem, ...], lang: str = "en") -> list[str]:
    return [p.message(lang) for p in problems]


def test_issue_example_message(tmp_path: Path) -> None:
    # BCR-004's variant with the original third card 3: the banker stands on 5.
    path = _bcr_with(tmp_path, 'cards = "A 2 2 3 4 3"', 'cards = "A 2 2 3 3 3"')
    _, problems = claims_check(path)
    msgs = _messages(problems)
    assert ("bcr.toml: BCR-004 variant: expected banker total 8, the engine gives 5 "
            "(banker 5 stands on player third card 3)") in [m.replace(str(tmp_path) + "/", "")
                                                            for m in msgs]
    zh = " ".join(_messages(problems, "zh"))
    assert "BCR-004 變化題：預期莊家點數為 8，引擎算出 5（莊家 5 點遇閒家第三張 3 停牌）" in zh
    assert all(p.case == "BCR-004-variant" and p.kind == "claim" for p in problems)


def test_wrong_winner_rejected(tmp_path: Path) -> None:
    # BCR-002 is a tie (3 = 3); claim a player win.
    path = _bcr_with(tmp_path, 'banker_total = 3\nwinner = "tie"', 'banker_total = 3\nwinner = "player"')
    _, problems = claims_check(path)
    assert [(p.case, p.field) for p in problems] == [("BCR-002", "winner")]
    assert "expected winner player, the engine gives tie (player 3, banker 3 at the end)" in \
        problems[0].message("en")


def test_wrong_total_rejected(tmp_path: Path) -> None:
    # BCR-001: player 2 + 3 + 4 = 9; claim 8.
    path = _bcr_with(tmp_path, "player_total = 9\nbanker_total = 7", "player_total = 8\nbanker_total = 7")
    _, problems = claims_check(path)
    assert [(p.case, p.field) for p in problems] == [("BCR-001", "player_total")]
    assert "expected player total 8, the engine gives 9 (player 5 draws)" in problems[0].message("en")


def test_wrong_decision_rejected(tmp_path: Path) -> None:
    # BCR-007: banker 2 draws even on an 8; claim it stands.
    start = BCR_TOML.index('id = "BCR-007"')
    head, tail = BCR_TOML[:start], BCR_TOML[start:]
    text = head + tail.replace('banker_decision = "draw"', 'banker_decision = "stand"', 1)
    (tmp_path / "bcr.toml").write_text(text, encoding="utf-8")
    _, problems = claims_check(tmp_path / "bcr.toml")
    assert [(p.case, p.field) for p in problems] == [("BCR-007", "banker_decision")]
    assert ("expected banker decision stand, the engine gives draw "
            "(banker 2 draws on player third card 8)") in problems[0].message("en")


def test_card_removed_rejected_as_running_out(tmp_path: Path) -> None:
    # BCR-003 without the player's third card: the cards run out (schema, not a claim).
    path = _bcr_with(tmp_path, 'cards = "2 A 3 3 A"', 'cards = "2 A 3 3"')
    catalogue, problems = read(path)
    assert "BCR-003" not in catalogue and "BCR-004" in catalogue
    (p,) = problems
    assert (p.case, p.field, p.kind) == ("BCR-003", "cards", "schema")
    assert "the cards in 'cards' run out before the coup is finished" in p.message("en")
    assert "rules give the player a third card" in p.message("en")


def test_card_removed_changes_every_claim_that_depends_on_it(tmp_path: Path) -> None:
    # BCR-001 without the player's third card 4: the banker's 4 now is the third card.
    path = _bcr_with(tmp_path, 'cards = "2 3 3 4 4"', 'cards = "2 3 3 4"')
    _, problems = read(path)
    assert [(p.case, p.field) for p in problems] == [("BCR-001", "cards")]


def test_partial_case_claims_checked(tmp_path: Path) -> None:
    text = textwrap.dedent("""\
        schema_version = 1
        [[case]]
        id = "T-1"
        source = "002"
        basis = "test"
        title.zh = "案例"
        title.en = "case"
        player_first_total = 5
        player_third = 8
        banker_first_total = 3
        banker_decision = "draw"
        [[case]]
        id = "T-2"
        source = "003"
        basis = "test"
        title.zh = "案例"
        title.en = "case"
        player_first_total = 7
        banker_cards = "2 3"
        banker_first_total = 4
        banker_third = 8
        banker_total = 3
        player_total = 7
        winner = "player"
        [[case]]
        id = "T-3"
        source = "003"
        basis = "test"
        title.zh = "案例"
        title.en = "case"
        player_first_total = 6
        player_third = 2
        """)
    (tmp_path / "p.toml").write_text(text, encoding="utf-8")
    _, problems = claims_check(tmp_path / "p.toml")
    msgs = [(p.case, p.field, p.message("en")) for p in problems]
    assert msgs[0][:2] == ("T-1", "banker_decision")
    assert "banker 3 stands on player third card 8" in msgs[0][2]
    assert msgs[1][:2] == ("T-2", "banker_first_total")
    assert "the banker's first two cards 2 + 3 make 5" in msgs[1][2]
    # a player 6 does not draw, so a third card given for it is wrong
    assert msgs[-1][:2] == ("T-3", "player_decision")
    assert "expected player decision draw, the engine gives stand (player 6 stands)" in msgs[-1][2]


def test_uncheckable_claim_is_reported(tmp_path: Path) -> None:
    text = textwrap.dedent("""\
        schema_version = 1
        [[case]]
        id = "U-1"
        source = "001"
        basis = "test"
        title.zh = "案例"
        title.en = "case"
        player_first_total = 5
        player_third = 3
        banker_first_total = 4
        banker_total = 6
        """)
    (tmp_path / "u.toml").write_text(text, encoding="utf-8")
    _, problems = claims_check(tmp_path / "u.toml")
    (p,) = problems
    assert (p.case, p.field, p.kind) == ("U-1", "banker_total", "schema")
    assert "cannot be checked" in p.message("en") and "banker_third" in p.message("en")


def test_wrong_bet_amount(tmp_path: Path) -> None:
    path = _bcr_with(tmp_path, "returned = 200", "returned = 195")
    _, problems = claims_check(path)
    (p,) = problems
    assert (p.case, p.field) == ("BCR-001", "bet.returned")
    assert "expected player bet returned 195, the engine gives 200" in p.message("en")


# ---------------------------------------------------------------- malformed files

HEAD = 'schema_version = 1\n[[case]]\nsource = "000"\nbasis = "b"\ntitle.zh = "甲"\ntitle.en = "a"\n'


def _one(tmp_path: Path, body: str, name: str = "x.toml") -> tuple[Problem, ...]:
    (tmp_path / name).write_text(body, encoding="utf-8")
    _, problems = read(tmp_path / name)
    return problems


def test_invalid_toml_names_file_and_line(tmp_path: Path) -> None:
    (p,) = _one(tmp_path, 'schema_version = 1\n[[case]]\nid = "A"\nsource = \n')
    assert p.kind == "toml" and p.case is None
    msg = p.message("en")
    assert msg.startswith(str(tmp_path / "x.toml") + ": invalid TOML at line 4")
    assert "第 4 行" in p.message("zh")


def test_unknown_key(tmp_path: Path) -> None:
    problems = _one(tmp_path, HEAD + 'id = "K-1"\ncards = "4 4 4 5"\nwinner = "banker"\n'
                    'player_total = 8\nbanker_total = 9\nwiner = "banker"\n')
    (p,) = problems
    assert (p.case, p.field) == ("K-1", "winer")
    assert "unknown key 'winer': use id, source" in p.message("en")


def test_missing_keys(tmp_path: Path) -> None:
    problems = _one(tmp_path, 'schema_version = 1\n[[case]]\nid = "M-1"\ncards = "4 4 4 5"\n')
    fields = {p.field for p in problems}
    assert {"source", "basis", "title", "winner", "player_total", "banker_total"} <= fields
    assert all(p.case == "M-1" for p in problems)
    problems = _one(tmp_path, '[[case]]\nid = "M-2"\n', "y.toml")
    assert "schema_version" in {p.field for p in problems}


def test_bad_card(tmp_path: Path) -> None:
    (p,) = _one(tmp_path, HEAD + 'id = "C-1"\ncards = "4 4 4 11"\nwinner = "banker"\n'
                'player_total = 8\nbanker_total = 9\n')
    assert (p.case, p.field) == ("C-1", "cards")
    assert "'11' is not a card" in p.message("en")


def test_bad_types(tmp_path: Path) -> None:
    problems = _one(tmp_path, HEAD + 'id = "T-1"\nplayer_first_total = 12\n'
                    'banker_decision = "hit"\nwinner = "dealer"\n')
    assert {p.field for p in problems} == {"player_first_total", "banker_decision", "winner"}


def test_duplicate_id_within_and_across_files(tmp_path: Path) -> None:
    case = HEAD + 'id = "D-1"\nhand = "7 8"\ntotal = 5\n'
    problems = _one(tmp_path, case + case.split("\n", 1)[1])
    assert [(p.case, p.field) for p in problems] == [("D-1", "id")]
    # a case that reuses a shipped id is rejected when read beside the shipped catalogue
    (tmp_path / "x.toml").write_text(HEAD + 'id = "BCR-001"\nhand = "7 8"\ntotal = 5\n',
                                     encoding="utf-8")
    catalogue, problems = read(tmp_path / "x.toml", shipped=True)
    (p,) = problems
    assert (p.case, p.field) == ("BCR-001", "id")
    assert "duplicate id: bcr.toml already defines it" in p.message("en")
    assert catalogue["BCR-001"].file == "bcr.toml"


def test_all_problems_reported_not_only_the_first(tmp_path: Path) -> None:
    (tmp_path / "a.toml").write_text("schema_version = 1\n[[case]\n", encoding="utf-8")
    (tmp_path / "b.toml").write_text(HEAD + 'id = "B-1"\nhand = "7 X"\ntotal = 5\n',
                                     encoding="utf-8")
    (tmp_path / "c.toml").write_text(HEAD + 'id = "C-1"\nhand = "7 8"\ntotal = 4\n',
                                     encoding="utf-8")
    _, problems = claims_check(tmp_path)
    assert [(Path(p.file).name, p.kind) for p in problems] == [
        ("a.toml", "toml"), ("b.toml", "schema"), ("c.toml", "claim")]
    with pytest.raises(CaseFileError) as info:
        load(tmp_path)
    text = info.value.message("en")
    assert "2 problem(s)" in text and "a.toml" in text and "b.toml" in text


# ---------------------------------------------------------------- instructors' folders


def _instructor_case(folder: Path) -> None:
    folder.mkdir(exist_ok=True)
    (folder / "mine.toml").write_text(textwrap.dedent("""\
        schema_version = 1
        [[case]]
        id = "MY-001"
        source = "instructor"
        basis = "Pennsylvania Code §631a.11"
        title.zh = "莊6遇閒第三張7補牌"
        title.en = "Banker 6 draws on a player third card 7"
        cards = "A 2 2 4 7 2"
        player_total = 0
        banker_total = 8
        winner = "banker"
        banker_decision = "draw"
        [[case.variant]]
        change.zh = "把閒第三張7改成5"
        change.en = "The player's third card 7 becomes 5"
        cards = "A 2 2 4 5 2"
        banker_decision = "stand"
        player_total = 8
        banker_total = 6
        winner = "player"
        """), encoding="utf-8")


def test_a_case_of_the_instructors_own_ships_with_its_label_and_no_quote(tmp_path: Path) -> None:
    """Issue 44: ``source = "instructor"`` (lesson 09's MY-001) passes every check with no quote
    and no source page, and its card says whose it is where a source's words would be."""
    _instructor_case(tmp_path / "mine")
    catalogue, problems = check(tmp_path / "mine", sources=tmp_path / "no-pages")
    assert problems == ()
    case = catalogue["MY-001"]
    assert case.source == bk.cases.INSTRUCTOR and case.quote is None
    assert case.source_text("en") == "the instructor's own" and case.source_text("zh") == "講師自編"
    both = load(tmp_path / "mine", shipped=True)
    en = bk.widgets.case_card("MY-001", lang="en", catalogue=both).html
    assert "Source: the instructor&#x27;s own;" in en or "Source: the instructor's own;" in en
    assert "No source&#x27;s words" in en or "No source's words" in en
    viewer = bk.widgets.CaseViewer("MY-001", catalogue=both, lang="zh")
    assert "講師自編的案例" in viewer.source_words.value and "來源：講師自編" in viewer.info.value


def test_an_english_card_says_when_a_quote_has_no_translation(tmp_path: Path) -> None:
    """A quote without ``quote_en`` (``cases check`` names it) is never shown as if no translation
    were due: the English card says the kit has none."""
    (tmp_path / "q.toml").write_text(HEAD.replace('source = "000"', 'source = "002"') + textwrap.dedent("""\
        id = "MY-Q"
        quote = "莊家 3 點停牌"
        player_third = 8
        banker_first_total = 3
        banker_decision = "stand"
        """), encoding="utf-8")
    both = load(tmp_path / "q.toml", shipped=True)
    assert "bk-no-translation" in bk.widgets.case_card("MY-Q", lang="en", catalogue=both).html
    assert "bk-no-translation" not in bk.widgets.case_card("MY-Q", lang="zh", catalogue=both).html
    problems = check(tmp_path / "q.toml", sources=tmp_path)[1]
    assert ("MY-Q", "quote_en") in [(p.case, p.field) for p in problems]


def test_instructor_folder_loads_beside_the_shipped_one(tmp_path: Path) -> None:
    _instructor_case(tmp_path / "mine")
    both = load(tmp_path / "mine", shipped=True)
    assert "MY-001" in both and "MY-001-variant" in both and "BCR-001" in both
    assert len(both.all()) == len(CATALOGUE.all()) + 2
    assert both.check() == ()
    alone = load(tmp_path / "mine")
    assert alone.ids() == ("MY-001", "MY-001-variant")
    assert "banker-6-vs-7" in alone["MY-001"].rules()


def test_environment_folder_joins_the_default_catalogue(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    _instructor_case(tmp_path / "mine")
    monkeypatch.setenv("BACCARAT_KIT_CASES", str(tmp_path / "mine"))
    catalogue = load()
    assert "MY-001" in catalogue and "BCR-008" in catalogue
    assert catalogue["MY-001"].file == str(tmp_path / "mine" / "mine.toml")


def test_import_stays_light() -> None:
    import subprocess
    import sys

    code = ("import sys, baccarat_kit as bk; assert 'baccarat_kit.cases' not in sys.modules; "
            "bk.cases.load(); assert 'baccarat_kit.cases' in sys.modules; "
            "assert not {'numpy', 'ipywidgets', 'nbformat'} & set(sys.modules)")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_problem_messages_have_no_placeholder_left() -> None:
    # every message key the loader can raise exists in both languages
    from baccarat_kit.i18n import catalogue

    keys = {k for k in catalogue() if k.startswith("cases.")}
    source = "".join(p.read_text(encoding="utf-8") for p in
                     (Path(bk.cases.__file__).parent).glob("*.py"))
    used = set(re.findall(r'"(cases\.[a-z.-]+)"', source))
    assert used <= keys, used - keys


# ---------------------------------------------------------------- quoted exactly


def test_quotes_are_the_sources_own_words(source_pages: Pages) -> None:
    """Every case's quote is on its page (the kit's own check, :mod:`baccarat_kit.cases.quotes`,
    which ``cases check`` runs), and BCR, 000/001 examples and 003's cases carry the page's own
    headings as titles."""
    _, problems = check(sources=source_pages.folder)
    assert problems == ()
    wrong = []
    for case in CATALOGUE.all():
        if source_pages.text(case.source) is None:
            continue

        def on_page(words: str, case: bk.cases.Case = case) -> bool:
            return bool(source_pages.has(case.source, words))

        cid = case.id
        if cid.startswith("BCR-") and case.parent is None:
            wrong += [(cid, "title")] * (not on_page(f"{cid}｜{case.title('zh')}"))
            wrong += [(cid, "assumptions")] * (not on_page(f"適用版本／假設：{case.assumptions('zh')}"))
        if cid.startswith("BCR-") and case.parent is not None:
            wrong += [(cid, "change")] * (not on_page(f"只改一個條件：{case.change('zh')}"))
        if re.match(r"^00[01]-EX-\d$", cid) or re.match(r"^TW-[A-D]$", cid) or cid in ("003-NATURAL", "003-PLAYER"):
            wrong += [(cid, "title")] * (not on_page(case.title("zh")))
        if re.match(r"^TW-[A-D]$", cid) or cid in ("003-NATURAL", "003-PLAYER"):
            wrong += [(cid, "003's own half-width |")] * ("｜" in case.title("zh"))
    assert not wrong


def test_a_given_third_card_contradicting_a_stand_claim(tmp_path: Path) -> None:
    (tmp_path / "g.toml").write_text(HEAD + 'id = "G-1"\nplayer_third = 8\n'
                                     'player_decision = "stand"\n', encoding="utf-8")
    _, problems = claims_check(tmp_path / "g.toml")
    (p,) = problems
    assert (p.case, p.field, p.kind) == ("G-1", "player_decision", "claim")
    assert p.message("en").endswith("expected player decision stand, the engine gives draw "
                                    "(the case gives the player's third card, so the player drew)")


# ---------------------------------------------------------------- issue 23: the English case cards

CARD_CASES = [f"BCR-00{n}" for n in range(1, 9)] + [f"HK-{x}" for x in "ABCD"] + [f"TW-{x}" for x in "ABCD"]


@pytest.mark.parametrize("case_id", CARD_CASES)
def test_every_case_card_of_lessons_05_and_06_has_its_english_translation(case_id: str) -> None:
    case = load()[case_id]
    assert case.quote and case.quote_en, f"{case_id}: a quote without an English translation"
    assert case.translation("en") == case.quote_en and case.translation("zh") is None
    # a faithful translation keeps the quote's lines, and its numbers in the same order
    assert len(case.quote_en.splitlines()) == len(case.quote.strip("\n").splitlines()), case_id
    digits = re.compile(r"\d+")
    assert digits.findall(case.quote_en) == digits.findall(case.quote), case_id
    # the English edition shows it beside the Chinese words; the Chinese edition does not
    en = bk.widgets.case_card(case_id, lang="en").html
    zh = bk.widgets.case_card(case_id, lang="zh").html
    first = case.quote_en.splitlines()[0]
    assert escape(first, quote=False) in en and "bk-translation" in en
    assert "bk-translation" not in zh
    assert escape(case.quote.strip("\n").splitlines()[0], quote=False) in en  # the quote stays
    for v in case.variants:  # the variant's flip line: an English colon in English
        if case.kind == "full" and v.cards:
            assert f"<b>{v.id}</b>: " in en and f"<b>{v.id}</b>：" in zh


CASE_IDS = [c.id for c in CATALOGUE if c.source != bk.cases.INSTRUCTOR]
"""The cases that quote a source (a variant's words are its `change`; a case of the instructor's
own has no source to quote)."""


@pytest.mark.parametrize("case_id", CASE_IDS)
def test_every_case_has_its_quote_and_a_faithful_english_translation(case_id: str) -> None:
    """Issue 31: every case carries the source's words (`quote`) and the kit's English
    (`quote_en`): the same lines, the same numbers in the same order, and the source's
    "usually" (通常) kept as "usually"."""
    case = CATALOGUE[case_id]
    assert case.quote and case.quote.strip(), f"{case_id}: no quote"
    assert case.quote_en and case.quote_en.strip(), f"{case_id}: a quote without an English translation"
    assert len(case.quote_en.splitlines()) == len(case.quote.strip("\n").splitlines()), case_id
    digits = re.compile(r"\d+")
    assert digits.findall(case.quote_en) == digits.findall(case.quote), case_id
    assert ("通常" in case.quote) == ("usually" in case.quote_en), case_id
    assert case.translation("en") == case.quote_en and case.translation("zh") is None
    en = case.explain("en")
    assert case.quote.strip("\n").splitlines()[0] in en and case.quote_en.splitlines()[0] in en


def test_bcr_001s_assumption_is_the_payout() -> None:
    """000 writes 「假設閒勝1:1」: what is supposed is that a player win pays 1:1, not that the
    player wins (the cards decide that)."""
    en = CATALOGUE["BCR-001"].quote_en
    assert "supposing a player win pays 1:1" in en and "supposing the player wins" not in en


def test_the_text_explain_shows_the_translation_in_english_only() -> None:
    case = load()["BCR-002"]
    en, zh = case.explain("en"), case.explain("zh")
    assert "Translation: Given: player 2+3 = 5" in en and "Translation" not in zh and "英譯" not in zh


def test_a_translation_without_its_quote_is_refused(tmp_path: Path) -> None:
    problems = _one(tmp_path, HEAD + 'id = "T-1"\ncards = "4 4 4 5"\nwinner = "banker"\n'
                    'player_total = 8\nbanker_total = 9\nquote_en = "Player 4 and 4."\n')
    (p,) = problems
    assert (p.case, p.field) == ("T-1", "quote_en")
    assert "without 'quote'" in p.message("en")


def test_the_case_viewer_shows_the_translation_in_the_english_edition_only() -> None:
    en = bk.widgets.CaseViewer("HK-A", cases=["HK-A", "TW-A"], lang="en")
    zh = bk.widgets.CaseViewer("HK-A", cases=["HK-A", "TW-A"], lang="zh")
    assert "bk-translation" in en._source_html() and "banker 3's only special standing value" in en._source_html()
    assert "bk-translation" not in zh._source_html()


@pytest.mark.parametrize("case_id", [f"BCR-00{n}" for n in range(1, 9)])
def test_a_variants_source_words_are_000s_in_both_editions(case_id: str) -> None:
    """The "source's words" of a variant are 000's own 只改一個條件 sentence, in Chinese in both
    editions; the English edition adds the kit's translation under it, marked as one (it used to
    show the kit's English alone, as if it were the source's)."""
    (variant,) = CATALOGUE[case_id].variants
    own, english = escape(variant.change("zh"), quote=False), escape(variant.change("en"), quote=False)
    for lang in ("zh", "en"):
        card = bk.widgets.case_card(case_id, lang=lang).html
        row = card[card.index(f'data-case="{variant.id}"'):]
        words = row[row.index('class="bk-quote"'):row.index("</blockquote>")]
        viewer = bk.widgets.CaseViewer(variant.id, lang=lang)
        for shown in (words, viewer._source_html()):
            assert own in shown, (lang, shown)
            assert (english in shown) == (lang == "en") and ("bk-translation" in shown) == (lang == "en")
            if lang == "en":
                assert "Translation (the kit's)" in shown
