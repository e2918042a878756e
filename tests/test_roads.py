"""Roads and streaks: grids, the runs test, and what independence predicts."""

from __future__ import annotations

import math

import pytest

import baccarat_kit as bk
from baccarat_kit import roads


def test_parse_every_spelling() -> None:
    assert roads.parse_outcomes("莊閒和") == "BPT"
    assert roads.parse_outcomes("b p t") == "BPT"
    assert roads.parse_outcomes("banker, player, tie") == "BPT"
    assert roads.parse_outcomes(["Banker", "閒", 2]) == "BPT"
    coups = [bk.play("2 3 3 4 4"), bk.play("2 A 3 2 8")]          # BCR-001 player, BCR-002 tie
    assert roads.parse_outcomes(coups) == "PT"
    with pytest.raises(roads.RoadError) as err:
        roads.parse_outcomes("BPX")
    assert "X" in err.value.message("en")


def test_bead_plate_fills_columns_of_six() -> None:
    cells = roads.bead_plate("BPTBPTB")
    assert cells[5] == (0, 5, "T") and cells[6] == (1, 0, "B")


def test_big_road_streaks_ties_and_dragon_tail() -> None:
    cells = roads.big_road("TBBBBBBBBPP")
    places = [(c.col, c.row, c.winner) for c in cells]
    assert places[:6] == [(0, r, "B") for r in range(6)]
    assert places[6:8] == [(1, 5, "B"), (2, 5, "B")]            # the tail turns right
    assert places[8:] == [(1, 0, "P"), (1, 1, "P")]             # the next column after the streak start
    assert cells[0].ties == 1                                   # a leading tie marks the first win
    cells = roads.big_road("BTTP")
    assert cells[0].ties == 2 and (cells[1].col, cells[1].row) == (1, 0)


def test_runs_test_counts() -> None:
    s = roads.streak_stats("BBPTPB")          # B B P P B: 3 runs; nb = 3, np = 2
    assert (s.n, s.banker, s.player, s.runs) == (5, 3, 2, 3)
    assert s.expected_runs == pytest.approx(1 + 2 * 3 * 2 / 5)
    var = 2 * 3 * 2 * (2 * 3 * 2 - 5) / (25 * 4)
    assert s.sd_runs == pytest.approx(math.sqrt(var))
    assert s.longest == {"B": 2, "P": 2}
    assert "z =" in s.report("en")


def test_after_streak_by_hand() -> None:
    rows = roads.after_streak(["BBBP", "BBT"], max_run=3, p_banker=0.5)
    by = {(r["side"], r["run"]): r for r in rows}
    # shoe 1: after B (1st) -> B, after BB -> B, after BBB -> P; shoe 2: after B -> B (tie skipped, last B has no next)
    assert by[("B", 1)]["coups"] == 4 and by[("B", 1)]["banker_next"] == pytest.approx(3 / 4)
    assert by[("B", 2)]["coups"] == 2 and by[("B", 2)]["banker_next"] == pytest.approx(1 / 2)
    assert by[("B", 3)]["coups"] == 1 and by[("B", 3)]["banker_next"] == 0
    assert by[("P", 1)]["coups"] == 0
    assert "前面連續" in roads.after_streak_report(rows, "zh")


def test_run_length_expectation_adds_up_to_the_coups() -> None:
    seqs = ["BPPBBBPB", "PPPPPPPPPPPP", "BTPTB"]
    rl = roads.run_lengths(seqs, max_len=20, p_banker=0.3)
    n = sum(len(s.replace("T", "")) for s in seqs)
    assert sum(length * e for length, e in zip(rl["length"], rl["expected"], strict=True)) == pytest.approx(n)
    assert sum(length * o for length, o in zip(rl["length"], rl["observed"], strict=True)) == n


def test_simulated_streaks_match_independence() -> None:
    sim = bk.simulate(shoes=400, seed=99)
    assert abs(roads.streak_stats(sim).z) < 4
    for row in roads.after_streak(sim, max_run=4):
        assert abs(row["z"]) < 4


def test_plots_draw_without_touching_global_settings() -> None:
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    before = dict(matplotlib.rcParams)
    ax = roads.plot_bead_plate("BPTBBP", lang="zh")
    assert len(ax.patches) == 6
    ax2 = roads.plot_big_road("BPTBBP", lang="en")
    assert len(ax2.patches) == 5          # B, P (tie after it), B, B, P
    assert ax2.get_title() == "Big road"
    assert dict(matplotlib.rcParams) == before
    plt.close("all")
