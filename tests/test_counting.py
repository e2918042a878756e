"""Card counting: each coup's edge is the exact edge of the cards the engine has left."""

from __future__ import annotations

import pytest

import baccarat_kit as bk
from baccarat_kit.odds import OddsError


@pytest.fixture(scope="module")
def analysis() -> bk.counting.CountingAnalysis:
    return bk.counting_analysis(shoes=12, decks=8, seed=77)


def test_edges_are_the_exact_edges_of_the_engine_shoe(analysis) -> None:
    sim = analysis.simulation
    row = 0
    for i in range(3):
        shoe = sim.engine_shoe(i)
        row = int(sim.offsets[i])
        for coup in range(0, int(sim.rounds_per_shoe[i]), 9):
            while shoe.round_number < coup:
                shoe.deal()
            exact = bk.exact_odds(shoe)            # what the engine's shoe has left
            assert analysis.cards_left[row + coup] == len(shoe)
            for j, (bet, table) in enumerate(analysis.bets):
                assert analysis.edges[row + coup, j] == pytest.approx(
                    float(exact.house_edge(bet, table)), abs=1e-12)


def test_summaries(analysis) -> None:
    import numpy as np

    assert analysis.coups == analysis.simulation.hands
    assert analysis.full_shoe[0] == pytest.approx(0.010579, abs=1e-6)
    share = analysis.positive_share("tie", "commission-tie-9")
    assert share == pytest.approx(float((analysis.edges[:, 4] < 0).mean()), rel=1e-15)
    gain = analysis.gain_per_coup("player-pair")
    assert gain == pytest.approx(float(np.clip(-analysis.edges[:, 5], 0, None).mean()))
    depth = analysis.by_depth(bins=10)
    assert len(depth["cards_left"]) == len(depth["banker/commission"]["median"])
    text = analysis.report("zh")
    assert "莊（抽 5% 傭金）" in text and "1.0579%" in text
    assert "banker (5% commission)" in analysis.report("en")
    with pytest.raises(OddsError):
        analysis.positive_share("banker-pair")     # not among the analysed bets


def test_signs_near_zero_are_exact() -> None:
    """Edges at the boundary are decided in fractions: exact zeros are not favourable."""
    import numpy as np

    from baccarat_kit.counting import EXACT_BELOW

    ca = bk.counting_analysis(shoes=150, decks=8, seed=1966)
    near = np.abs(ca.edges) < EXACT_BELOW
    assert near.any(), "this seed has coups whose edge is exactly zero"
    assert (ca.edges[near] == 0.0).all()   # recomputed exactly: no float noise is left
    for j, (bet, table) in enumerate(ca.bets):
        assert ca.favourable(bet, table) == int((ca.edges[:, j] < 0).sum())
        assert ca.positive_share(bet, table) == ca.favourable(bet, table) / ca.coups


def test_statistics_do_not_depend_on_chunking_or_order() -> None:
    """The same shoes in other chunks (another order of the float operations) give the same
    counts and the same printed report, and the gain does not depend on the order of coups."""
    import math


    a = bk.counting_analysis(shoes=150, decks=8, seed=1966)
    b = bk.counting_analysis(shoes=150, decks=8, seed=1966, chunk=7)
    for bet, table in a.bets:
        assert a.favourable(bet, table) == b.favourable(bet, table)
        assert a.gain_per_coup(bet, table) == pytest.approx(b.gain_per_coup(bet, table), rel=1e-12)
    assert a.report("en") == b.report("en")
    assert a.report("zh") == b.report("zh")
    col = a.edges[:, 5]
    backwards = math.fsum((-col[col < 0])[::-1].tolist()) / a.coups
    assert backwards == a.gain_per_coup("player-pair")


def test_plot(analysis) -> None:
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    ax = analysis.plot(lang="en", bets=(("banker", "commission"), ("tie", "commission")))
    assert [t.get_text() for t in ax.get_legend().get_texts()][:2] == ["banker (5% commission)", "tie (pays 8:1)"]
    assert ax.xaxis_inverted()
    plt.close("all")
