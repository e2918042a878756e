"""Exact odds: an independent enumeration, the published figures, every input form."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction
from math import perm

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import baccarat_kit as bk
from baccarat_kit.odds import OddsError, composition, resolve


def naive(counts: list[int]) -> dict[str, Fraction]:
    """Walk every coup card by card, asking the engine's functions at every decision.

    Each path is weighted by the number of ordered ways to draw it, brought to the common
    denominator n (n-1) … (n-5); integers throughout, so the result is exact.
    """
    n = list(counts)
    total = sum(n)
    acc = dict.fromkeys(("player", "banker", "banker_six", "tie", "natural", "player_natural",
                         "banker_natural", "five_cards", "six_cards"), 0)

    def finish(ways: int, pt: int, bt: int, cards: int) -> None:
        if pt > bt:
            acc["player"] += ways
        elif bt > pt:
            acc["banker"] += ways
            if bt == 6:
                acc["banker_six"] += ways
        else:
            acc["tie"] += ways
        if cards == 5:
            acc["five_cards"] += ways
        if cards == 6:
            acc["six_cards"] += ways

    for a, b, c, d in itertools.product(range(10), repeat=4):
        ways = 1
        for v in (a, b, c, d):
            ways *= n[v]
            n[v] -= 1
        if ways > 0:
            pt, bt = (a + c) % 10, (b + d) % 10
            if bk.is_natural(pt) or bk.is_natural(bt):
                w = ways * (total - 4) * (total - 5)
                acc["natural"] += w
                acc["player_natural"] += w * bk.is_natural(pt)
                acc["banker_natural"] += w * bk.is_natural(bt)
                finish(w, pt, bt, 4)
            elif bk.player_draws(pt):
                for e in range(10):
                    if n[e] <= 0:
                        continue
                    w5 = ways * n[e]
                    n[e] -= 1
                    if bk.banker_draws(bt, e):
                        for f in range(10):
                            if n[f] > 0:
                                finish(w5 * n[f], (pt + e) % 10, (bt + f) % 10, 6)
                    else:
                        finish(w5 * (total - 5), (pt + e) % 10, bt, 5)
                    n[e] += 1
            elif bk.banker_draws(bt, None):
                for f in range(10):
                    if n[f] > 0:
                        finish(ways * n[f] * (total - 5), pt, (bt + f) % 10, 5)
            else:
                finish(ways * (total - 4) * (total - 5), pt, bt, 4)
        for v in (a, b, c, d):
            n[v] += 1
    den = perm(total, 6)
    return {k: Fraction(v, den) for k, v in acc.items()}


def depleted_shoe() -> bk.Shoe:
    shoe = bk.Shoe(decks=8, seed=2024)
    for _ in range(45):
        shoe.deal()
    return shoe


@pytest.mark.parametrize("shoe", [1, 6, 8, "depleted", "tiny"])
def test_exact_equals_independent_enumeration(shoe: object) -> None:
    if shoe == "depleted":
        shoe = depleted_shoe()
    elif shoe == "tiny":
        shoe = {0: 5, 3: 2, 7: 1, 9: 4}
    fast = bk.exact_odds(shoe)
    slow = naive(list(fast.composition.values))
    for key, value in slow.items():
        assert getattr(fast, key) == value, key
    assert fast.player + fast.banker + fast.tie == 1


PUBLISHED = {
    8: (0.458597, 0.446247, 0.095156),
    6: (0.458653, 0.446279, 0.095069),
}


@pytest.mark.parametrize("decks", [8, 6])
def test_published_probabilities(decks: int) -> None:
    odds = bk.exact_odds(decks)
    got = tuple(round(float(x), 6) for x in (odds.banker, odds.player, odds.tie))
    assert got == PUBLISHED[decks]


@pytest.mark.parametrize(("decks", "bet", "table", "edge"), [
    (8, "banker", "commission", "1.0579"),
    (8, "player", "commission", "1.2351"),
    (8, "tie", "commission", "14.3596"),
    (8, "tie", "commission-tie-9", "4.8440"),
    (8, "banker", "no-commission", "1.4581"),
    (8, "player-pair", "commission", "10.3614"),
    (8, "banker-pair", "commission", "10.3614"),
    (6, "banker", "commission", "1.0558"),
    (6, "player", "commission", "1.2374"),
    (6, "tie", "commission", "14.4382"),
    (6, "tie", "commission-tie-9", "4.9313"),
])
def test_published_house_edges(decks: int, bet: str, table: str, edge: str) -> None:
    assert f"{float(bk.exact_odds(decks).house_edge(bet, table)) * 100:.4f}" == edge


def test_every_bet_of_every_table_loses() -> None:
    odds = bk.exact_odds(8)
    for table in bk.PAY_TABLES:
        for area in bk.AREAS:
            assert odds.house_edge(area, table) > 0
            assert odds.expected_value(area, table) == -odds.house_edge(area, table)


def test_pair_probability_counts_ranks_not_values() -> None:
    shoe = depleted_shoe()
    cards = shoe.cards_left
    same = sum(1 for i, x in enumerate(cards) for j, y in enumerate(cards) if i != j and x.rank == y.rank)
    odds = bk.exact_odds(shoe)
    assert odds.player_pair == odds.banker_pair == Fraction(same, len(cards) * (len(cards) - 1))
    assert odds.pair_basis == "ranks"
    # 8 full decks: 13 ranks of 32 cards
    assert bk.exact_odds(8).player_pair == Fraction(13 * 32 * 31, 416 * 415)


def test_value_counts_state_the_pair_assumption() -> None:
    by_value = bk.exact_odds(list(composition(8).values))
    assert by_value.pair_basis == "value-0 split evenly"
    assert by_value.player_pair == bk.exact_odds(8).player_pair    # exact for a full shoe
    assert by_value.banker == bk.exact_odds(8).banker


def test_input_forms_agree() -> None:
    shoe = depleted_shoe()
    a = bk.exact_odds(shoe)
    b = bk.exact_odds(shoe.remaining)                          # the engine's counts by value
    c = bk.exact_odds([shoe.remaining[v] for v in range(10)])
    ranks = {r: 0 for r in bk.Rank}
    for card in shoe.cards_left:
        ranks[card.rank] += 1
    d = bk.exact_odds({r.value: n for r, n in ranks.items()})  # mapping by rank text
    e = bk.exact_odds(list(ranks.values()))                    # 13 counts
    for o in (b, c, d, e):
        assert (o.banker, o.player, o.tie, o.banker_six) == (a.banker, a.player, a.tie, a.banker_six)
    assert d.player_pair == e.player_pair == a.player_pair
    assert bk.exact_odds(np.int64(8)).banker == bk.exact_odds(8).banker


@pytest.mark.parametrize("bad", [0, True, -1, [1, 2, 3], {"X": 3}, {0: -2, 1: 10}, "eight", 3.5,
                                 {0: 2, 1: 2}])
def test_bad_shoes_are_refused_with_a_sentence(bad: object) -> None:
    with pytest.raises(OddsError) as err:
        bk.exact_odds(bad)
    assert isinstance(err.value, bk.BaccaratError)
    assert err.value.message("en") and err.value.message("zh")
    assert err.value.key != "odds.bad_length" or isinstance(bad, list)


def test_decision_table_matches_play() -> None:
    """resolve() (what the fast code uses) finishes every coup as bk.play does."""
    card = {0: "K", **{v: str(v) if v > 1 else "A" for v in range(1, 10)}}
    p2, b2, c5, c6 = (a.ravel() for a in np.indices((10, 10, 10, 10)))
    out = resolve(p2, b2, c5, c6)
    for i in range(p2.size):
        coup = bk.play([card[int(p2[i])], card[int(b2[i])], "K", "K", card[int(c5[i])], card[int(c6[i])]])
        assert (coup.player_total, coup.banker_total, len(coup.cards)) == (
            out["player"][i], out["banker"][i], out["cards"][i])


def test_batch_matches_exact() -> None:
    shoe = depleted_shoe()
    ranks = [0] * 13
    for c in shoe.cards_left:
        ranks[list(bk.Rank).index(c.rank)] += 1
    rows = np.array([[32] * 13, [24] * 13, ranks])
    batch = bk.exact_odds_batch(rows)
    for i, row in enumerate(rows):
        exact = bk.exact_odds(list(row))
        for key in ("banker", "player", "tie", "banker_six", "natural", "player_pair"):
            assert getattr(batch, key)[i] == pytest.approx(float(getattr(exact, key)), abs=1e-12)
        for table in bk.PAY_TABLES:
            assert batch.house_edge("banker", table)[i] == pytest.approx(
                float(exact.house_edge("banker", table)), abs=1e-12)
    by_value = bk.exact_odds_batch(np.array([list(composition(8).values)]))
    assert by_value.banker[0] == pytest.approx(0.458597422632763, abs=1e-12)
    # sparse shoes too (values missing, a few cards of one), whatever the chunk: to 1e-14
    rng = np.random.default_rng(7)
    sparse = rng.integers(0, 5, size=(40, 10)) * (rng.random((40, 10)) < 0.6)
    sparse[:, 3] += 6
    for chunk in (1, 7, 64):
        got = bk.exact_odds_batch(sparse, chunk=chunk)
        for i in range(0, 40, 5):
            exact = bk.exact_odds(list(sparse[i]))
            for key in ("banker", "player", "tie", "banker_six", "five_cards", "six_cards"):
                assert getattr(got, key)[i] == pytest.approx(float(getattr(exact, key)), abs=1e-14), (chunk, i, key)
    with pytest.raises(OddsError):
        bk.exact_odds_batch(np.array([[1, 2, 3]]))


def test_large_shoe_uses_exact_integers() -> None:
    assert perm(52 * 30, 6) >= 2**63
    big = bk.exact_odds(30)
    assert big.banker + big.player + big.tie == 1
    assert float(big.banker) == pytest.approx(bk.exact_odds_batch(np.array([[120] * 13])).banker[0], abs=1e-12)


def test_report_in_both_languages() -> None:
    odds = bk.exact_odds(8)
    zh, en = odds.report("zh"), odds.report("en")
    assert "1.0579%" in zh and "莊" in zh and "免傭" in zh
    assert "14.3596%" in en and "4.8440%" in en and "1.4581%" in en


def test_import_stays_light() -> None:
    import subprocess
    import sys

    code = "import sys, baccarat_kit; print('numpy' in sys.modules, 'matplotlib' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False"]


def test_cli_odds(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    from baccarat_kit import i18n
    from baccarat_kit.cli import main

    monkeypatch.setattr(i18n, "_current", None)   # main() sets the language; restored afterwards

    assert main(["odds", "--decks", "8", "--lang", "en"]) == 0
    out = capsys.readouterr().out
    assert "1.0579%" in out and "4.8440%" in out and "1.4581%" in out and "10.3614%" in out
    assert main(["odds", "--decks", "6", "--shoes", "20", "--seed", "1", "--lang", "zh"]) == 0
    assert "模擬 20 靴" in capsys.readouterr().out
    assert main(["odds", "--decks", "0"]) == 2
    assert "0" in capsys.readouterr().err


@settings(max_examples=12, derandomize=True)
@given(st.lists(st.integers(0, 6), min_size=13, max_size=13).filter(lambda r: sum(r) >= 6))
def test_any_small_composition_matches_the_independent_enumeration(ranks: list[int]) -> None:
    fast = bk.exact_odds(ranks)
    slow = naive(list(fast.composition.values))
    for key, value in slow.items():
        assert getattr(fast, key) == value, key
    assert fast.player + fast.banker + fast.tie == 1
    batch = bk.exact_odds_batch(np.array([ranks]))
    assert batch.banker[0] == pytest.approx(float(fast.banker), abs=1e-12)
    assert batch.player_pair[0] == pytest.approx(float(fast.player_pair), abs=1e-12)


def test_misconception_figures_are_the_engines() -> None:
    """The numbers quoted in misconceptions.toml (roads, betting patterns) are computed ones."""
    import re

    from baccarat_kit import roads

    odds = bk.exact_odds(8)
    edges = bk.misconceptions.get("bet-beats-edge").correction("zh")
    quoted = [float(x) for x in re.findall(r"(\d+\.\d\d)%", edges)]
    assert quoted == [round(float(odds.house_edge(bet, table)) * 100, 2) for bet, table in
                      (("banker", "commission"), ("player", "commission"), ("tie", "commission"))]
    road = bk.misconceptions.get("roads-change-rules").correction("zh")
    share, low, high = (float(x) for x in re.findall(r"(\d+\.\d+)%", road))
    assert share == round(float(odds.banker / (odds.banker + odds.player)) * 100, 2)
    # lesson 08's simulation: 5000 shoes, seed 2026; after 1–6 wins in a row
    rows = roads.after_streak(bk.simulate(shoes=5000, decks=8, seed=2026), max_run=6)
    nexts = [r["banker_next"] * 100 for r in rows]
    assert (round(min(nexts), 1), round(max(nexts), 1)) == (low, high)
    assert max(abs(r["z"]) for r in rows) < 2


def coups_by_multiset() -> dict[tuple[int, ...], dict[str, int]]:
    """Every coup as a value sequence, walked card by card asking the engine, grouped by the
    multiset of values it uses (an independent count of what ``coup_table`` holds)."""
    out: dict[tuple[int, ...], dict[str, int]] = {}

    def add(cards: tuple[int, ...], pt: int, bt: int, pn: bool = False, bn: bool = False) -> None:
        counts = [0] * 10
        for v in cards:
            counts[v] += 1
        row = out.setdefault(tuple(counts), dict.fromkeys(bk.odds.CLASSES, 0))
        for name, happened in (("player", pt > bt), ("banker", bt > pt), ("tie", pt == bt),
                               ("banker_six", bt > pt and bt == 6), ("player_natural", pn),
                               ("banker_natural", bn), ("natural", pn or bn),
                               ("five_cards", len(cards) == 5), ("six_cards", len(cards) == 6)):
            row[name] += happened

    for a, b, c, d in itertools.product(range(10), repeat=4):
        pt, bt = (a + c) % 10, (b + d) % 10
        if bk.is_natural(pt) or bk.is_natural(bt):
            add((a, b, c, d), pt, bt, bk.is_natural(pt), bk.is_natural(bt))
        elif bk.player_draws(pt):
            for e in range(10):
                if bk.banker_draws(bt, e):
                    for f in range(10):
                        add((a, b, c, d, e, f), (pt + e) % 10, (bt + f) % 10)
                else:
                    add((a, b, c, d, e), (pt + e) % 10, bt)
        elif bk.banker_draws(bt, None):
            for f in range(10):
                add((a, b, c, d, f), pt, (bt + f) % 10)
        else:
            add((a, b, c, d), pt, bt)
    return out


def test_coup_table_holds_every_coup_once() -> None:
    want = coups_by_multiset()
    table = bk.odds.coup_table()
    got = {counts: dict(zip(bk.odds.CLASSES, events, strict=True)) for counts, events in table.multisets()}
    assert len(table) == len(got) == len(want) == 6958
    assert got == want
    sizes = [sum(counts) for counts in got]
    assert (sizes.count(4), sizes.count(5), sizes.count(6)) == (497, 1722, 4739)
    assert sum(e["player"] + e["banker"] + e["tie"] for e in got.values()) == 339_400
    # of all multisets of 4 to 6 values, the others are the cards of no coup
    assert sum(math.comb(k + 9, 9) for k in (4, 5, 6)) - len(got) == 7722 - 6958


@pytest.mark.parametrize("shoe", [8, 1, "depleted", "tiny", [0, 0, 0, 0, 0, 0, 0, 0, 3, 3]])
def test_every_evaluation_path_gives_the_same_fractions(shoe: object) -> None:
    from baccarat_kit.odds import _numerators_numpy, _numerators_python, _weights

    comp = composition(depleted_shoe() if shoe == "depleted" else
                       {0: 5, 3: 2, 7: 1, 9: 4} if shoe == "tiny" else shoe)
    cells = _weights(comp)
    den = perm(comp.cards, 6)
    assert _numerators_python(cells, den) == _numerators_numpy(cells)


def test_shoes_of_millions_of_cards_widen_the_packed_counts() -> None:
    """Beyond 2**128 ways to deal six cards the packed sums are repacked wider; a plain sum
    over the multisets (no packing) agrees."""
    from baccarat_kit.odds import _numerators_python, _weights

    comp = composition([10**7 + v for v in range(10)])
    den = perm(comp.cards, 6)
    assert den.bit_length() > 128
    cells = _weights(comp)
    plain = [0] * len(bk.odds.CLASSES)
    for counts, events in bk.odds.coup_table().multisets():
        ways = math.prod(perm(n, m) for n, m in zip(comp.values, counts, strict=True))
        ways *= perm(comp.cards - sum(counts), 6 - sum(counts))
        plain = [x + ways * e for x, e in zip(plain, events, strict=True)]
    assert _numerators_python(cells, den) == plain
    odds = bk.exact_odds(comp)
    assert odds.banker + odds.player + odds.tie == 1
    assert odds.banker == Fraction(plain[1], den)


def test_a_fresh_process_needs_no_numpy_for_its_first_odds() -> None:
    """One composition in a fresh process: pure Python, no numpy import, well under 100 MB;
    after PURE_PYTHON_CALLS calls numpy takes over, with the same fractions."""
    import subprocess
    import sys
    from pathlib import Path

    if not Path("/proc/self/status").exists():
        pytest.skip("needs /proc/self/status (Linux) for the peak memory")
    code = (
        "import sys, baccarat_kit as bk\n"
        "first = bk.exact_odds(8)\n"
        "print('numpy' in sys.modules, round(float(first.banker), 6))\n"
        "more = [bk.exact_odds(8) for _ in range(bk.odds.PURE_PYTHON_CALLS)]\n"
        "print('numpy' in sys.modules, all(o == first for o in more))\n"
        "status = open('/proc/self/status').read()  # VmHWM: this process's peak, not its parent's\n"
        "print(next(line.split()[1] for line in status.splitlines() if line.startswith('VmHWM')))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    cold, warm, peak_kib = out.stdout.splitlines()
    assert cold.split() == ["False", "0.458597"]
    assert warm.split() == ["True", "True"]
    assert int(peak_kib) < 100 * 1024


def test_exact_odds_run_without_numpy() -> None:
    """With numpy blocked, every call stays in pure Python and gives the same fractions."""
    import subprocess
    import sys

    code = ("import sys\nsys.modules['numpy'] = None\nimport baccarat_kit as bk\n"
            "odds = [bk.exact_odds(8) for _ in range(bk.odds.PURE_PYTHON_CALLS + 3)]\n"
            "print(odds[0].banker == odds[-1].banker, odds[-1].banker)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    same, banker = out.stdout.split()
    assert same == "True" and Fraction(banker) == bk.exact_odds(8).banker


def test_a_nearly_empty_shoe_walked_coup_by_coup_gives_the_tables_fractions() -> None:
    """While the table of multisets is not built, exact_odds walks the coups of a shoe of at most
    DIRECT_CARDS cards itself (less work for a fresh process than building the table): the same
    numerators as the table's, for every event, on shoes of 6 to 30 cards."""
    import math
    import random

    from baccarat_kit import odds

    rng = random.Random(20261202)
    for _ in range(120):
        counts = [0] * 10
        for _ in range(rng.randint(6, 30)):
            counts[rng.choice([0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9])] += 1
        comp = odds.composition(counts)
        assert odds._numerators_direct(comp.values) == odds._numerators_python(
            odds._weights(comp), math.perm(comp.cards, odds.MAX_COUP_CARDS)), counts
