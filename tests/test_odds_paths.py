"""Exact odds of nearly empty shoes: every evaluation path gives the same exact integers.

``bk.exact_odds`` has several ways to the same numerators: the table of multisets in Python
integers (the reference here, itself checked against an independent walk in test_odds.py) or in
numpy, the pure-Python walk of a nearly empty shoe, and that walk compiled by numba (used where
numba is already imported). These tests compare them on many small shoes, and the quick forms of
the composition and of the pair probability with the general ones.
"""

from __future__ import annotations

import math
import sys
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import baccarat_kit as bk
from baccarat_kit import odds

# Counts by value of a shoe of 6 to DIRECT_CARDS cards; value 0 is four ranks, so more likely.
small_shoes = st.lists(st.sampled_from([0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9]),
                       min_size=odds.MAX_COUP_CARDS, max_size=odds.DIRECT_CARDS).map(
    lambda cards: [cards.count(v) for v in range(10)])


def reference(counts: list[int]) -> list[int]:
    comp = odds.composition(counts)
    return odds._numerators_python(odds._weights(comp), math.perm(comp.cards, odds.MAX_COUP_CARDS))


@settings(max_examples=150, derandomize=True, deadline=None)
@given(small_shoes)
def test_the_compiled_walk_gives_the_tables_numerators(counts: list[int]) -> None:
    pytest.importorskip("numba")
    assert odds._numerators_kernel(counts) == reference(counts)


def test_the_compiled_walk_on_the_extremes() -> None:
    """One value only, every value once, the most cards walked, and the benchmark's shoes."""
    pytest.importorskip("numba")
    for counts in ([6] + [0] * 9, [0] * 9 + [14], [1] * 10, [5] + [1] * 9, [2] * 7 + [0] * 3,
                   [2, 1, 1, 1, 1, 1, 0, 0, 0, 0], [3, 1, 1, 1, 1, 1, 1, 1, 1, 1]):
        assert odds._numerators_kernel(counts) == odds._numerators_direct(counts) == reference(counts)


@settings(max_examples=40, derandomize=True, deadline=None)
@given(small_shoes)
def test_exact_odds_is_the_same_whichever_path_it_takes(counts: list[int]) -> None:
    """With numba imported a nearly empty shoe of few values goes to the compiled walk; without,
    to the table (numpy here): the same ExactOdds, fraction for fraction."""
    pytest.importorskip("numba")
    import numba  # noqa: F401  (imported: exact_odds may use it)

    comp = odds.composition(counts)
    odds._nearly_empty.cache_clear()                     # (else the second call is the first's odds)
    fast = bk.exact_odds(counts)
    odds._nearly_empty.cache_clear()
    with pytest.MonkeyPatch.context() as mp:
        mp.setitem(sys.modules, "numba", None)           # numba blocked: not the compiled walk
        assert not odds._use_kernel(comp)
        slow = bk.exact_odds(counts)
    assert fast == slow
    assert fast.banker + fast.player + fast.tie == 1


def test_no_compiled_walk_for_larger_shoes_or_without_numba() -> None:
    pytest.importorskip("numba")
    import numba  # noqa: F401

    assert odds._use_kernel(odds.composition([2, 1, 1, 1, 1, 1, 0, 0, 0, 0]))
    assert not odds._use_kernel(odds.composition([3, 1, 1, 1, 1, 1, 1, 1, 1, 1]))   # 10 values, 12 cards
    assert not odds._use_kernel(odds.composition([odds.DIRECT_CARDS + 1] + [0] * 9))
    assert not odds._use_kernel(odds.composition(8))


@settings(max_examples=200, derandomize=True)
@given(st.lists(st.integers(0, 40), min_size=10, max_size=10).filter(lambda c: sum(c) >= 6),
       st.sampled_from([list, tuple]))
def test_counts_by_value_give_the_general_paths_composition(counts: list[int], kind: type) -> None:
    """A plain list or tuple of 10 counts takes a quick way; a generator or a mapping the general
    one: the same composition."""
    quick = odds.composition(kind(counts))
    assert quick == odds.composition(n for n in counts) == odds.composition(dict(enumerate(counts)))
    assert type(quick.values) is tuple and quick.ranks is None


@pytest.mark.parametrize("bad", [[1, 1, 1, 1, 1, 1, 1, 1, 1, -1], [True] + [1] * 9, [1.0] + [1] * 9,
                                 (1, 0, 0, 0, 0, 0, 0, 0, 0, 2)])
def test_bad_counts_by_value_still_get_the_general_paths_errors(bad: object) -> None:
    with pytest.raises(bk.odds.OddsError) as err:
        odds.composition(bad)
    assert err.value.key in ("odds.bad_count", "odds.too_few")


@settings(max_examples=200, derandomize=True)
@given(st.lists(st.integers(0, 40), min_size=10, max_size=10).filter(lambda c: sum(c) >= 6))
def test_pair_probability_by_value_is_the_even_split_of_value_0(counts: list[int]) -> None:
    """In integers: the same fraction as 4 z (z − 1) + Σ n_v (n_v − 1), z = n_0 / 4, over n (n − 1)."""
    comp = odds.composition(counts)
    n = comp.cards
    zero = Fraction(counts[0], 4)
    alike = 4 * zero * (zero - 1) + sum(v * (v - 1) for v in counts[1:])
    assert odds._pair_probability(comp) == (alike / (n * (n - 1)), "value-0 split evenly")


def test_exact_odds_never_imports_numba_itself() -> None:
    """The compiled walk is for processes that have numba already: a fresh one that asks for the
    odds of 27 different nearly empty shoes, each twice (numpy loaded by then), does not import it."""
    import subprocess

    code = ("import sys, itertools, baccarat_kit as bk\n"
            "shoes = [[2, 1, 1, 1, 1, 1, a, b, c, 0] for a, b, c in itertools.product(range(3), repeat=3)]\n"
            "odds = [bk.exact_odds(s) for s in shoes + shoes]\n"
            "print('numpy' in sys.modules, 'numba' in sys.modules, len(set(odds)))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["True", "False", "27"]


@settings(max_examples=150, derandomize=True, deadline=None)
@given(small_shoes)
def test_the_multisets_a_shoe_can_deal_give_the_tables_numerators(counts: list[int]) -> None:
    """A nearly empty shoe sums only the multisets it can deal (numpy); the same integers as
    every multiset in Python (the reference) and in numpy."""
    comp = odds.composition(counts)
    cells = odds._weights(comp)
    assert odds._numerators_numpy(cells, counts) == odds._numerators_numpy(cells) == reference(counts)


def test_the_multisets_a_shoe_can_deal_are_those_of_no_more_cards_of_a_value_than_it_holds() -> None:
    """_fitting's bit sets pick exactly the multisets of the table that take no more cards of any
    value than the shoe holds; None when there are ROWS_FROM or more."""
    table = [c for c, _ in odds.coup_table().multisets()]
    for counts in ([6] + [0] * 9, [2, 1, 1, 1, 1, 1, 0, 0, 0, 0], [0, 0, 0, 3, 3, 3, 3, 0, 0, 0],
                   [3, 1, 1, 1, 1, 1, 1, 1, 1, 1], [2] * 7 + [0] * 3, [0] * 9 + [14], [32] * 10):
        want = [i for i, c in enumerate(table) if all(m <= n for m, n in zip(c, counts, strict=True))]
        rows = odds._fitting(counts)
        if rows is None:
            assert len(want) >= odds.ROWS_FROM, counts
        else:
            assert rows.tolist() == want, counts
    assert odds._fitting([2, 1, 1, 1, 1, 1, 0, 0, 0, 0]) is not None
    assert odds._fitting([32] * 10) is None


@settings(max_examples=60, derandomize=True, deadline=None)
@given(small_shoes)
def test_a_kept_nearly_empty_shoe_is_the_same_odds_computed_again(counts: list[int]) -> None:
    """exact_odds keeps the odds of nearly empty shoes: asked again (as counts, as a mapping),
    the very object; computed afresh, equal fraction for fraction to the reference numerators."""
    first = bk.exact_odds(counts)
    assert bk.exact_odds(list(counts)) is first
    assert bk.exact_odds(dict(enumerate(counts))) is first
    odds._nearly_empty.cache_clear()
    again = bk.exact_odds(counts)
    assert again == first and again is not first
    den = math.perm(sum(counts), odds.MAX_COUP_CARDS)
    assert [getattr(again, name) for name in odds.CLASSES] == [Fraction(n, den) for n in reference(counts)]
