"""``cases coverage``: which banker-matrix cells the catalogue exercises, from rule ids."""

from __future__ import annotations

import baccarat_kit as bk
from baccarat_kit.cases import load
from baccarat_kit.cases.coverage import NATURAL_RULES, banker_cells, coverage

CATALOGUE = load()


def test_cells_are_the_engines_rule_ids() -> None:
    cells = banker_cells()
    assert len(cells) == 8 * 10 + 8 and len(set(cells)) == len(cells)
    assert "banker-3-vs-8" in cells and "banker-5-player-stood" in cells


def test_every_full_hand_counts_its_coups_rules() -> None:
    cov = coverage(CATALOGUE)
    for case in CATALOGUE.all():
        if case.kind == "full":
            for step in case.coup().steps:
                assert case.id in cov.cases[step.rule]


def test_partial_cases_count_the_decision_they_make() -> None:
    cov = coverage(CATALOGUE)
    # 002's case A and 003's 牌例 C are both banker 3 against a player third card 8
    assert {"HK-A", "TW-C", "000-EX-2", "BCR-002", "000-SELF-1"} <= set(cov.cases["banker-3-vs-8"])
    assert "HK-STOOD" in cov.cases["banker-5-player-stood"]
    assert "TW-D" in cov.cases["natural-player"]


def test_missing_and_counts_agree() -> None:
    cov = coverage(CATALOGUE)
    missing = set(cov.missing)
    for rule in (*banker_cells(), *NATURAL_RULES):
        assert (rule in missing) == (cov.count(rule) == 0)
    assert cov.covered_banker == len(banker_cells()) - len([r for r in missing
                                                            if r.startswith("banker-")])
    # nothing in the sources deals a banker 0 or 1 against a third card
    assert {bk.banker_rule(0, v) for v in range(10)} <= missing


def test_a_new_case_fills_a_cell(tmp_path) -> None:  # type: ignore[no-untyped-def]
    (tmp_path / "x.toml").write_text(
        'schema_version = 1\n[[case]]\nid = "N-1"\nsource = "000"\nbasis = "b"\n'
        'title.zh = "甲"\ntitle.en = "a"\ncards = "A 10 2 10 5 9"\nwinner = "tie"\n'
        'player_total = 8\nbanker_total = 9\n', encoding="utf-8")
    before = coverage(CATALOGUE)
    after = coverage(load(tmp_path, shipped=True))
    assert before.count("banker-0-vs-5") == 0 and after.count("banker-0-vs-5") == 1
