from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import baccarat_kit as bk


@pytest.mark.parametrize(
    ("text", "labels"),
    [
        ("2 3 3 4 4", ["2", "3", "3", "4", "4"]),
        ("A,K,10", ["A", "K", "10"]),
        ("a k q j t", ["A", "K", "Q", "J", "10"]),
        ("Q♥ 9S 10d ac", ["Q♥", "9♠", "10♦", "A♣"]),
        ("2、3，3；4", ["2", "3", "3", "4"]),
        ("  7\t8\n", ["7", "8"]),
        ("", []),
    ],
)
def test_parse_cards_accepts_what_learners_type(text: str, labels: list[str]) -> None:
    assert [c.label for c in bk.parse_cards(text)] == labels


def test_values() -> None:
    values = {c.label: c.value for c in bk.parse_cards("A 2 3 4 5 6 7 8 9 10 J Q K")}
    assert values == {"A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9,
                      "10": 0, "J": 0, "Q": 0, "K": 0}


def test_card_is_immutable_and_hashable() -> None:
    c = bk.Card("K")
    with pytest.raises(AttributeError):
        c.rank = bk.Rank.ACE  # type: ignore[misc]
    assert len({bk.Card("K"), bk.Card("k"), bk.Card("K", "H")}) == 2


def test_card_constructors() -> None:
    assert bk.Card(bk.Rank.NINE, bk.Suit.HEARTS) == bk.Card("9♥") == bk.Card("9", "h")
    assert bk.Card("T") == bk.Card("10")
    assert bk.parse_card(7) == bk.Card("7")
    assert bk.parse_cards([bk.Card("A"), "K", 9]) == bk.parse_cards("A K 9")
    assert bk.Suit.HEARTS.is_red and not bk.Suit.CLUBS.is_red


@given(st.lists(st.sampled_from(list(bk.Rank)), max_size=8),
       st.lists(st.sampled_from([None, *bk.Suit]), min_size=8, max_size=8))
def test_repr_and_format_round_trip(ranks, suits) -> None:
    cards = tuple(bk.Card(r, s) for r, s in zip(ranks, suits, strict=False))
    assert bk.parse_cards(bk.format_cards(cards)) == cards
    for c in cards:
        assert eval(repr(c), {"Card": bk.Card}) == c


@pytest.mark.parametrize("bad", ["11", "1", "0", "Z", "10X", "♥", "AA", "2 3 11"])
def test_bad_card_text_names_the_value(bad: str) -> None:
    with pytest.raises(bk.CardError) as info:
        bk.parse_cards(bad)
    shown = bad.split()[-1]
    for lang in ("zh", "en"):
        msg = info.value.message(lang)
        assert shown in msg
        assert "J" in msg and "K" in msg
    assert str(info.value) == info.value.message("zh")


@pytest.mark.parametrize("bad", [1, 11, 0, True, 3.5, None, object()])
def test_bad_card_values(bad) -> None:
    with pytest.raises(bk.CardError):
        bk.parse_card(bad)


def test_bad_suit() -> None:
    with pytest.raises(bk.CardError) as info:
        bk.Card("K", "X")
    assert "'X'" in info.value.message("en")


def test_parse_cards_not_iterable() -> None:
    with pytest.raises(bk.CardError):
        bk.parse_cards(12)  # type: ignore[arg-type]
