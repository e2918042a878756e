from __future__ import annotations

import pytest

import baccarat_kit as bk


def test_reproducible_shuffle() -> None:
    a, b, c = bk.Shoe(8, seed=1), bk.Shoe(8, seed=1), bk.Shoe(8, seed=2)
    assert a.cards_left == b.cards_left
    assert a.cards_left != c.cards_left


def test_composition_and_burn() -> None:
    for seed in range(30):
        shoe = bk.Shoe(decks=8, seed=seed)
        first = shoe.burned[0]
        assert len(shoe.burned) == 1 + (first.value or 10)       # 10/J/Q/K burn 10
        total = {v: n for v, n in shoe.remaining.items()}
        for c in shoe.burned:
            total[c.value] += 1
        assert total == {0: 128, **{v: 32 for v in range(1, 10)}}
        assert sum(total.values()) == 416


def test_no_burn() -> None:
    shoe = bk.Shoe(decks=1, seed=3, burn=False)
    assert shoe.burned == () and len(shoe) == 52
    assert shoe.remaining == {0: 16, **{v: 4 for v in range(1, 10)}}


def test_deal_rounds_until_cut_card_plus_one() -> None:
    shoe = bk.Shoe(decks=8, seed=11, cut_card=14)
    rounds = list(shoe.rounds())
    assert [r.number for r in rounds] == list(range(1, len(rounds) + 1))
    assert rounds[-1].last and not any(r.last for r in rounds[:-1])
    assert shoe.finished
    # The cut card (14 from the end) came out in the second-to-last coup, which left 8–13
    # cards; one more coup (4–6 cards) was dealt after it.
    assert 2 <= len(shoe) <= 9
    with pytest.raises(bk.ShoeExhausted) as info:
        shoe.deal()
    assert str(len(rounds)) in info.value.message("en")


def test_from_cards_teaching_sequence() -> None:
    shoe = bk.Shoe.from_cards("2 3 3 4 4  2 A 3 2 8 4")       # BCR-001 then BCR-002
    r1, r2 = shoe.deal(), shoe.deal()
    assert (r1.coup.winner, r2.coup.winner) == ("player", "tie")
    assert r2.round_id == "R002"
    assert len(shoe) == 1                                     # the 4 the stood branch leaves
    with pytest.raises(bk.ShoeExhausted) as info:
        shoe.deal()
    assert "1" in info.value.message("en")


def test_deal_replays_through_play() -> None:
    shoe = bk.Shoe(decks=6, seed=5)
    cards = list(shoe.cards_left)
    pos = 0
    for r in shoe.rounds():
        coup = bk.play(cards[pos:pos + 6])
        assert coup.cards == r.coup.cards
        pos += len(coup.cards)


@pytest.mark.parametrize("decks", [0, 17, "8", 2.0, True])
def test_bad_decks(decks) -> None:
    with pytest.raises(bk.ShoeError) as info:
        bk.Shoe(decks=decks)
    assert str(decks) in info.value.message("en")


@pytest.mark.parametrize("cut", [-1, 52, "x"])
def test_bad_cut_card(cut) -> None:
    with pytest.raises(bk.ShoeError) as info:
        bk.Shoe(decks=1, cut_card=cut)
    assert str(cut) in info.value.message("en")


def test_repr() -> None:
    assert "seed=4" in repr(bk.Shoe(1, seed=4))
