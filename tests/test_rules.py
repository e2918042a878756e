"""The rule table checked against the sources, on every input.

The banker matrix below is transcribed independently from source 002 (HKCash,
Massachusetts Gaming Commission Baccarat 4.11.2024), "情況 B：閒家已取得第三張牌",
exactly as printed (補 = draw, 停 = stand). This is the one place a second copy of the
table exists, on purpose: it is the check, not a restatement.
"""

from __future__ import annotations

import itertools

import pytest

import baccarat_kit as bk
from baccarat_kit import rules

SOURCE_002_MATRIX = """
0–2 | 補 | 補 | 補 | 補 | 補 | 補 | 補 | 補 | 補 | 補
3   | 補 | 補 | 補 | 補 | 補 | 補 | 補 | 補 | 停 | 補
4   | 停 | 停 | 補 | 補 | 補 | 補 | 補 | 補 | 停 | 停
5   | 停 | 停 | 停 | 停 | 補 | 補 | 補 | 補 | 停 | 停
6   | 停 | 停 | 停 | 停 | 停 | 停 | 補 | 補 | 停 | 停
7   | 停 | 停 | 停 | 停 | 停 | 停 | 停 | 停 | 停 | 停
"""


def _source_matrix() -> dict[tuple[int, int], bool]:
    out: dict[tuple[int, int], bool] = {}
    for row in SOURCE_002_MATRIX.strip().splitlines():
        head, *cells = [c.strip() for c in row.split("|")]
        totals = range(0, 3) if head == "0–2" else [int(head)]
        assert len(cells) == 10
        for t in totals:
            for v, cell in enumerate(cells):
                out[(t, v)] = cell == "補"
    return out


SOURCE = _source_matrix()
# Source 002 "情況 A：閒家沒有第三張牌": 0–5 補, 6–7 停. Source 000/001/003 player table: 0–5 補.
SOURCE_STOOD = {t: t <= 5 for t in range(8)}
SOURCE_PLAYER = {t: t <= 5 for t in range(8)}


def test_transcription_is_complete() -> None:
    assert len(SOURCE) == 80


@pytest.mark.parametrize(("total", "third"), sorted(SOURCE))
def test_banker_matrix_matches_source(total: int, third: int) -> None:
    assert bk.banker_draws(total, third) is SOURCE[(total, third)]


@pytest.mark.parametrize("total", range(8))
def test_banker_when_player_stood(total: int) -> None:
    assert bk.banker_draws(total, None) is SOURCE_STOOD[total]
    assert bk.banker_rule(total, None) == f"banker-{total}-player-stood"


@pytest.mark.parametrize("total", range(8))
def test_player_rule(total: int) -> None:
    assert bk.player_draws(total) is SOURCE_PLAYER[total]
    assert bk.player_rule(total) == ("player-0-5" if total <= 5 else "player-6-7")


def test_banker_matrix_function_matches() -> None:
    m = bk.banker_matrix()
    assert all(m[t][v] is SOURCE[(t, v)] for t, v in SOURCE)


# One card of each rank, so face cards (value 0) are mixed in with 10.
RANKS = [r.value for r in bk.Rank]


def _first_two(total: int) -> list[tuple[str, str]]:
    return [(a, b) for a in RANKS for b in RANKS
            if (bk.Card(a).value + bk.Card(b).value) % 10 == total]


def _expected(p1: str, b1: str, p2: str, b2: str, p3: str, b3: str):
    """The coup computed from the source tables above, independently of the engine."""
    v = lambda c: bk.Card(c).value  # noqa: E731
    pt, bt = (v(p1) + v(p2)) % 10, (v(b1) + v(b2)) % 10
    if pt >= 8 or bt >= 8:
        return pt, bt, 2, 2
    if SOURCE_PLAYER[pt]:
        third = v(p3)
        pt = (pt + third) % 10
        bdraw = SOURCE[(bt, third)]
        pcards = 3
    else:
        bdraw = SOURCE_STOOD[bt]
        pcards = 2
    nxt = b3 if pcards == 3 else p3
    if bdraw:
        bt = (bt + v(nxt)) % 10
    return pt, bt, pcards, 3 if bdraw else 2


def test_every_start_and_third_card() -> None:
    """Every four-card start (by totals, with 10/J/Q/K mixed in) × every third-card rank."""
    checked = 0
    for pt in range(10):
        for bt in range(10):
            # a few representative first-two-card pairs per total, including face cards
            for (p1, p2), (b1, b2) in itertools.islice(
                itertools.product(_first_two(pt)[::5], _first_two(bt)[::7]), 6
            ):
                for p3 in RANKS:
                    b3 = "K" if p3 != "K" else "7"
                    cards = [p1, b1, p2, b2, p3, b3]
                    coup = bk.play(" ".join(cards))
                    ept, ebt, np_, nb = _expected(*cards)
                    assert (coup.player_total, coup.banker_total) == (ept, ebt), cards
                    assert (len(coup.player_cards), len(coup.banker_cards)) == (np_, nb), cards
                    checked += 1
    assert checked > 4000


def test_format_values_and_draw_values() -> None:
    assert rules.format_values(rules.draw_values(3)) == "0–7, 9"
    assert rules.format_values(rules.draw_values(6)) == "6–7"


@pytest.mark.parametrize(
    ("call", "shown"),
    [
        (lambda: bk.player_draws(8), "8"),
        (lambda: bk.player_draws(9), "9"),
        (lambda: bk.player_draws(10), "10"),
        (lambda: bk.player_draws(-1), "-1"),
        (lambda: bk.player_draws("5"), "'5'"),
        (lambda: bk.banker_draws(8, None), "8"),
        (lambda: bk.banker_draws(3, 10), "10"),
        (lambda: bk.banker_draws(3, "8"), "'8'"),
        (lambda: bk.banker_draws(3.0, 8), "3.0"),
        (lambda: bk.banker_rule(12, 1), "12"),
        (lambda: bk.is_natural(11), "11"),
        (lambda: bk.hand_total(""), "2–10"),
    ],
)
def test_bad_rule_input_names_the_value(call, shown: str) -> None:
    with pytest.raises(bk.RuleError) as info:
        call()
    assert isinstance(info.value, ValueError)
    for lang in ("zh", "en"):
        assert shown in info.value.message(lang)


def test_natural_total_error_says_natural() -> None:
    with pytest.raises(bk.RuleError) as info:
        bk.banker_draws(9, 3)
    assert "natural" in info.value.message("en")
    assert "例牌" in info.value.message("zh")


def test_hand_total_examples_from_sources() -> None:
    assert bk.hand_total("7 8") == 5          # 000, 001
    assert bk.hand_total("K 6") == 6          # 001
    assert bk.hand_total("6 8 7") == 1        # 003
    assert bk.hand_total("K 9") == 9          # 004
    assert bk.hand_total("9 6") == 5          # 004
    assert bk.hand_total("4 5") == 9          # 004
    assert bk.is_natural(8) and bk.is_natural(9) and not bk.is_natural(7)
