"""`play`: BCR-001 … BCR-008 of source 000 (Pennsylvania Code §631a.11) as smoke tests,
properties over all sequences, and the explanation."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import baccarat_kit as bk

# (id, cards in deal order as the source gives them, player total, banker total, winner,
#  player cards, banker cards, unused)
BCR = [
    ("BCR-001", "2 3 3 4 4", 9, 7, "player", 3, 2, ""),
    ("BCR-001 variant", "2 3 3 5 4", 5, 8, "banker", 2, 2, "4"),
    ("BCR-002", "2 A 3 2 8", 3, 3, "tie", 3, 2, ""),
    ("BCR-002 stood branch keeps the 4", "2 A 3 2 8 4", 3, 3, "tie", 3, 2, "4"),
    ("BCR-002 variant", "2 A 3 2 9 4", 4, 7, "banker", 3, 3, ""),
    ("BCR-003", "2 A 3 3 A", 6, 4, "player", 3, 2, ""),
    ("BCR-003 variant", "2 A 3 3 2 5", 7, 9, "banker", 3, 3, ""),
    ("BCR-004", "A 2 2 3 3", 6, 5, "player", 3, 2, ""),
    ("BCR-004 variant", "A 2 2 3 4 3", 7, 8, "banker", 3, 3, ""),
    ("BCR-005", "A 2 2 4 5", 8, 6, "player", 3, 2, ""),
    ("BCR-005 variant", "A 2 2 4 6 3", 9, 9, "tie", 3, 3, ""),
    ("BCR-006", "2 2 4 3 2", 6, 7, "banker", 2, 3, ""),
    ("BCR-006 variant", "2 2 4 4 2", 6, 6, "tie", 2, 2, "2"),
    ("BCR-007", "A 10 3 2 8 5", 2, 7, "banker", 3, 3, ""),
    ("BCR-007 variant", "A 10 3 3 8 5", 2, 3, "banker", 3, 2, "5"),
    ("BCR-008", "4 4 4 5", 8, 9, "banker", 2, 2, ""),
    ("BCR-008 variant", "4 4 4 4", 8, 8, "tie", 2, 2, ""),
]


@pytest.mark.parametrize(("cid", "cards", "pt", "bt", "winner", "np_", "nb", "unused"), BCR,
                         ids=[c[0] for c in BCR])
def test_bcr_cases(cid, cards, pt, bt, winner, np_, nb, unused) -> None:
    coup = bk.play(cards)
    assert (coup.player_total, coup.banker_total, coup.winner) == (pt, bt, winner)
    assert (len(coup.player_cards), len(coup.banker_cards)) == (np_, nb)
    assert bk.format_cards(coup.unused) == unused
    assert coup.steps[-1].player_total_after == pt
    assert coup.steps[-1].banker_total_after == bt


def test_bcr_001_settlement() -> None:
    """閒注100，閒勝1:1：返還100本金+100淨利=200；variant: 閒注返還0、淨損100."""
    s = bk.settle(bk.play("2 3 3 4 4"), {"player": 100})
    assert (s.returned, s.net) == (Decimal(200), Decimal(100))
    s = bk.settle(bk.play("2 3 3 5 4"), {"player": 100})
    assert (s.returned, s.net) == (Decimal(0), Decimal(-100))


def test_bcr_rule_ids() -> None:
    assert [s.rule for s in bk.play("2 3 3 4 4").steps] == ["player-0-5", "banker-7-vs-4"]
    assert [s.rule for s in bk.play("2 A 3 2 8").steps] == ["player-0-5", "banker-3-vs-8"]
    assert [s.rule for s in bk.play("2 2 4 3 2").steps] == ["player-6-7", "banker-5-player-stood"]
    assert [s.rule for s in bk.play("4 4 4 5").steps] == ["natural-both"]
    assert [s.rule for s in bk.play("2 3 3 5 4").steps] == ["natural-banker"]
    assert [s.rule for s in bk.play("4 2 5 3").steps] == ["natural-player"]


def test_step_records_are_immutable_and_complete() -> None:
    step = bk.play("A 2 2 3 3").steps[1]          # BCR-004: banker 5 vs third card 3
    assert step.who == "banker" and step.action == "stand" and step.rule == "banker-5-vs-3"
    assert (step.player_total_before, step.banker_total_before) == (6, 5)
    assert step.player_third == 3 and step.card is None
    with pytest.raises(AttributeError):
        step.action = "draw"  # type: ignore[misc]


def test_explain_zh_and_en() -> None:
    coup = bk.play("A 2 2 3 3")
    zh, en = coup.explain("zh"), coup.explain("en")
    assert "莊家 5 點遇閒家第三張牌值 3：停牌" in zh
    assert "4–7" in zh and "閒家勝" in zh
    assert "Banker 5 with the player's third card worth 3: stands" in en
    assert "player wins" in en
    assert coup.explain() == zh            # Traditional Chinese by default
    assert "natural" in bk.play("4 4 4 5").explain("en")
    assert "例牌" in bk.play("4 4 4 5").explain("zh")
    assert "except 8" in bk.play("2 A 3 2 8").explain("en")
    assert "Not dealt: 2" in bk.play("2 2 4 4 2").explain("en")


def test_explain_follows_natural_player_banker_order() -> None:
    lines = bk.play("2 2 4 3 2").explain("en").splitlines()
    assert lines[0].startswith("1. First two cards")
    assert lines[1].startswith("2. Player 6")
    assert lines[2].startswith("3. The player stood; banker 5")


@pytest.mark.parametrize(("cards", "needed", "key"), [
    ("", 4, "coup.not-enough-start"),
    ("2 3 3", 1, "coup.not-enough-start"),
    ("2 3 3 4", 1, "coup.not-enough-player"),
    ("2 A 3 2 9", 1, "coup.not-enough-banker"),
])
def test_not_enough_cards(cards: str, needed: int, key: str) -> None:
    with pytest.raises(bk.NotEnoughCards) as info:
        bk.play(cards)
    assert info.value.needed == needed and info.value.key == key
    assert str(needed) in info.value.message("en") and str(needed) in info.value.message("zh")


def test_pairs() -> None:
    coup = bk.play("K 3 K 3 5")
    assert coup.player_pair and coup.banker_pair
    assert not bk.play("K 3 10 4 5 6").player_pair        # same value, different rank


ranks = st.sampled_from([r.value for r in bk.Rank])


@settings(max_examples=400)
@given(st.lists(ranks, min_size=6, max_size=8))
def test_properties(cards: list[str]) -> None:
    coup = bk.play(" ".join(cards))
    assert 0 <= coup.player_total <= 9 and 0 <= coup.banker_total <= 9
    assert 2 <= len(coup.player_cards) <= 3 and 2 <= len(coup.banker_cards) <= 3
    assert coup.steps[-1].player_total_after == coup.player_total
    assert coup.steps[-1].banker_total_after == coup.banker_total
    assert coup.cards + coup.unused == bk.parse_cards(" ".join(cards))
    assert coup.natural == (coup.steps[0].rule.startswith("natural"))
    assert coup.winner == ("player" if coup.player_total > coup.banker_total else
                           "banker" if coup.banker_total > coup.player_total else "tie")


@settings(max_examples=300)
@given(st.lists(ranks, min_size=6, max_size=6), st.data())
def test_face_card_swap_never_changes_a_decision(cards: list[str], data) -> None:
    zeros = ["10", "J", "Q", "K"]
    swapped = [data.draw(st.sampled_from(zeros)) if c in zeros else c for c in cards]
    a, b = bk.play(" ".join(cards)), bk.play(" ".join(swapped))
    assert [(s.who, s.action, s.rule) for s in a.steps] == [(s.who, s.action, s.rule) for s in b.steps]
    assert (a.player_total, a.banker_total, a.winner) == (b.player_total, b.banker_total, b.winner)
