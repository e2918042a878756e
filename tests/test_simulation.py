"""Simulation: real shoes as the engine deals them, converging to the exact odds."""

from __future__ import annotations

import numpy as np
import pytest

import baccarat_kit as bk
from baccarat_kit.odds import OddsError
from baccarat_kit.simulation import Simulation, _shuffled, card_codes


def engine_replay(sim: bk.simulation.Simulation, i: int) -> None:
    """Deal shoe ``i``'s cards through the engine's Shoe and compare every coup."""
    shoe = sim.engine_shoe(i)
    rounds = list(shoe.rounds())
    a, b = int(sim.offsets[i]), int(sim.offsets[i + 1])
    assert len(shoe.burned) == int(sim.burned[i])
    assert "".join(r.coup.winner[0].upper() for r in rounds) == sim.outcomes(i)
    assert [r.coup.player_total for r in rounds] == sim.player_total[a:b].tolist()
    assert [r.coup.banker_total for r in rounds] == sim.banker_total[a:b].tolist()
    assert [len(r.coup.cards) for r in rounds] == sim.cards_used[a:b].tolist()
    assert [r.coup.natural for r in rounds] == sim.natural[a:b].tolist()
    assert [r.coup.player_pair for r in rounds] == sim.player_pair[a:b].tolist()
    assert [r.coup.banker_pair for r in rounds] == sim.banker_pair[a:b].tolist()
    if sim.cut_card is None:
        assert not rounds[-1].last
    else:                             # the coup after the cut, unless the cards ran out first
        assert rounds[-1].last or len(shoe) < 6


def test_simulated_shoes_replay_through_the_engine() -> None:
    sim = bk.simulate(shoes=25, decks=8, seed=11, keep_cards=True)
    for i in range(sim.shoes):
        engine_replay(sim, i)


@pytest.mark.parametrize(("decks", "cut_card", "burn"), [(6, 14, True), (1, None, True), (2, 20, False)])
def test_other_shoe_procedures_replay_too(decks: int, cut_card: int | None, burn: bool) -> None:
    sim = bk.simulate(shoes=10, decks=decks, seed=5, cut_card=cut_card, burn=burn, keep_cards=True)
    for i in range(sim.shoes):
        engine_replay(sim, i)


def test_seeded_simulation_is_within_four_standard_errors() -> None:
    sim = bk.simulate(shoes=3000, decks=8, seed=20261130)
    exact = bk.exact_odds(8)
    assert sim.hands == sim.banker + sim.player + sim.tie > 200_000
    for event in ("banker", "player", "tie", "banker_six", "natural", "player_pair", "banker_pair"):
        p = float(getattr(exact, event))
        assert abs(sim.frequency(event) - p) < 4 * sim.standard_error(p), event


def test_same_seed_same_shoes_and_totals_only_mode() -> None:
    a = bk.simulate(shoes=50, seed=3)
    b = bk.simulate(shoes=50, seed=3)
    c = bk.simulate(shoes=50, seed=4)
    d = bk.simulate(shoes=50, seed=3, detail=True)
    assert np.array_equal(a.winner, b.winner)
    assert not np.array_equal(a.winner[:500], c.winner[:500])
    assert a.counts == d.counts
    # detail=False (the default) counted without keeping the coups; their first use deals the
    # same shoes again, once: the very coups detail=True kept as it dealt them
    e = bk.simulate(shoes=50, seed=3)
    assert not e.detail and d.detail and e._coups is None is not e._again
    assert e.outcomes(0) == d.outcomes(0) and e._again is None
    for name in ("winner", "player_total", "banker_total", "cards_used", "natural", "player_pair",
                 "banker_pair", "offsets", "burned"):
        assert np.array_equal(getattr(e, name), getattr(d, name)), name
    unseeded = bk.simulate(shoes=5)
    assert int(np.bincount(unseeded.winner, minlength=3)[0]) == unseeded.banker  # same random state
    with pytest.raises(OddsError):
        Simulation(1, 8, None, 14, True, d.counts).outcomes(0)  # nothing to deal again
    with pytest.raises(OddsError) as err:
        a.frequency("dragon")
    assert "dragon" in err.value.message("en") and "banker" in err.value.message("en")


@pytest.mark.parametrize("kwargs", [{}, {"cut_card": None}, {"cut_card": 0}, {"cut_card": 5, "decks": 6},
                                    {"burn": False, "decks": 1}, {"chunk": 7}])
def test_totals_only_counts_are_the_counts_of_every_coup(kwargs: dict) -> None:
    """detail=False counts from its one-byte table (only what the counts need); detail=True
    keeps every coup from the full table: the same counts, recounted here from the coups."""
    a = bk.simulate(shoes=400, seed=31, kernel="numpy", **kwargs)
    d = bk.simulate(shoes=400, seed=31, kernel="numpy", detail=True, **kwargs)
    w = d.winner
    assert a.counts == d.counts == {
        "hands": w.size, "banker": int((w == 0).sum()), "player": int((w == 1).sum()),
        "tie": int((w == 2).sum()), "banker_six": int(((w == 0) & (d.banker_total == 6)).sum()),
        "natural": int(d.natural.sum()), "player_pair": int(d.player_pair.sum()),
        "banker_pair": int(d.banker_pair.sum())}


def test_block_sizes_change_no_shoe(monkeypatch: pytest.MonkeyPatch) -> None:
    """The sort keys are drawn block after block (the same stream as one draw) and the
    outcomes looked up block by block: other blocks, the same shoes and the same coups."""
    from baccarat_kit import simulation

    a = bk.simulate(shoes=40, seed=13, keep_cards=True, kernel="numpy")
    monkeypatch.setattr(simulation, "BLOCK", 3)
    monkeypatch.setattr(simulation, "OUTCOME_BLOCK", 2)
    b = bk.simulate(shoes=40, seed=13, keep_cards=True, kernel="numpy")
    c = bk.simulate(shoes=40, seed=13, kernel="numpy")
    assert np.array_equal(a.cards, b.cards) and _fingerprint(a) == _fingerprint(b)
    assert a.counts == b.counts == c.counts


def test_chunks_change_nothing_but_the_stream() -> None:
    sim = bk.simulate(shoes=30, seed=9, chunk=7)
    assert sim.offsets[-1] == sim.hands == len(sim.winner)
    assert len(sim.rounds_per_shoe) == 30


class _TyingBits:
    """A bit generator whose first draw makes every key equal: forces _shuffled's re-draw."""

    def __init__(self) -> None:
        self.real = np.random.default_rng(0).bit_generator
        self.calls = 0

    def random_raw(self, size):
        self.calls += 1
        return np.zeros(size, dtype=np.uint64) if self.calls == 1 else self.real.random_raw(size)


class _TyingRng:
    def __init__(self) -> None:
        self.bit_generator = _TyingBits()


def test_raw_keys_are_fixed_by_the_seed() -> None:
    """The shuffle reads the bit generator's raw words (stable across NumPy versions by NEP 19),
    halves split by arithmetic: low word first, then high."""
    from baccarat_kit.simulation import _raw_keys

    raw = np.random.default_rng(7).bit_generator.random_raw(3)
    keys = _raw_keys(np.random.default_rng(7), 1, 5)
    want = [int(w) & 0xFFFFFFFF if i % 2 == 0 else int(w) >> 32 for w in raw.tolist() for i in (0, 1)]
    assert keys.tolist() == [want[:5]]


def test_shuffle_gives_permutations_even_when_keys_tie() -> None:
    deck = np.array(sorted(card_codes()) * 4, dtype=np.uint8)
    for rng in (np.random.default_rng(1), _TyingRng()):
        out = _shuffled(rng, 200, deck)
        assert (np.sort(out, axis=1) == np.sort(deck)).all()
        first = out[:, 0]
        # every code comes first sometimes: not the fixed order
        assert len(set(first.tolist())) > 5


@pytest.mark.parametrize("kwargs", [{"shoes": 0}, {"shoes": True}, {"decks": 0}, {"decks": 17},
                                    {"cut_card": 416}, {"cut_card": -1}, {"chunk": 0}])
def test_bad_arguments(kwargs: dict) -> None:
    with pytest.raises(OddsError) as err:
        bk.simulate(**{"shoes": 2, **kwargs})
    assert err.value.message("en")


def test_progress_bar_is_optional() -> None:
    pytest.importorskip("tqdm")
    sim = bk.simulate(shoes=3, seed=1, progress=True, chunk=1)
    assert sim.shoes == 3


def test_convergence_plot() -> None:
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    before = dict(matplotlib.rcParams)
    top, bottom = bk.simulate(shoes=20, seed=2).plot_convergence(lang="en")
    assert len(top.lines) == 6 and len(bottom.lines) == 3      # 3 running + 3 exact; 3 differences
    assert top.get_xscale() == "log"
    assert dict(matplotlib.rcParams) == before
    plt.close("all")


def test_repr_is_short() -> None:
    assert repr(bk.simulate(shoes=2, seed=1)).startswith("<Simulation 2 shoes x 8 decks, seed=1: ")


def _fingerprint(sim: bk.simulation.Simulation) -> str:
    import hashlib

    parts = (sim.winner, sim.player_total, sim.banker_total, sim.offsets.astype("<i8"),
             sim.player_pair, sim.banker_pair)
    return hashlib.sha256(b"".join(p.tobytes() for p in parts)).hexdigest()


@pytest.mark.parametrize("kernel", ["numpy", "numba"])
def test_the_random_stream_is_the_one_lesson_08_was_computed_with(kernel: str) -> None:
    """Seed 2026 deals the very coups it dealt before the faster kernels (fingerprint taken
    from the earlier implementation), so lesson 08's stored outputs still hold."""
    if kernel == "numba":
        pytest.importorskip("numba")
    sim = bk.simulate(shoes=500, decks=8, seed=2026, kernel=kernel)
    assert _fingerprint(sim) == "6801759952444d1204d71c2ff191abfc0fe8dda737583660e6ebe7237eb97d46"
    assert sim.counts == {"hands": 40694, "banker": 18582, "player": 18202, "tie": 3910,
                          "banker_six": 2206, "natural": 13983, "player_pair": 3048,
                          "banker_pair": 2998}


@pytest.mark.parametrize("kwargs", [{"decks": 6, "cut_card": None}, {"decks": 1, "burn": False},
                                    {"chunk": 100}, {"cut_card": 3}, {"cut_card": 0},
                                    {"decks": 1, "cut_card": 48}])
def test_numba_and_numpy_deal_the_same_coups(kwargs: dict) -> None:
    pytest.importorskip("numba")
    a = bk.simulate(shoes=300, seed=12, kernel="numpy", **kwargs)
    b = bk.simulate(shoes=300, seed=12, kernel="numba", **kwargs)
    c = bk.simulate(shoes=300, seed=12, kernel="numba", detail=False, **kwargs)
    assert _fingerprint(a) == _fingerprint(b)
    assert np.array_equal(a.burned, b.burned) and np.array_equal(a.natural, b.natural)
    assert a.counts == b.counts == c.counts


def test_kernel_choice_is_checked() -> None:
    with pytest.raises(OddsError) as err:
        bk.simulate(shoes=2, kernel="gpu")
    assert "gpu" in err.value.message("en") and "numba" in err.value.message("zh")


def test_a_simulation_pickles_with_its_coups() -> None:
    import copy
    import pickle

    sim = bk.simulate(shoes=20, seed=8)
    back = pickle.loads(pickle.dumps(sim))
    assert back.counts == sim.counts and back.outcomes(3) == sim.outcomes(3)
    assert copy.deepcopy(bk.simulate(shoes=4, seed=2)).outcomes(0) == bk.simulate(shoes=4, seed=2, detail=True).outcomes(0)


def test_kept_coups_are_decoded_when_first_read() -> None:
    """detail=True keeps every coup packed (two bytes a coup); each per-coup array is decoded on
    its first use, then kept: the same arrays as the engine's coups (see the replays above)."""
    sim = bk.simulate(shoes=20, seed=5, detail=True)
    assert set(sim._coups) == {"offsets", "burned"}
    winner = sim.winner
    assert "winner" in sim._coups and sim.winner is winner and winner.dtype == np.int8
    assert int(np.bincount(winner, minlength=3)[1]) == sim.player
    assert sim.natural.dtype == bool and int(sim.natural.sum()) == sim.counts["natural"]
    with pytest.raises(KeyError):
        sim._coups["dragon"]


@pytest.mark.parametrize(("decks", "cut_card", "burn"),
                         [(8, 14, True), (1, 30, True), (1, 40, False), (6, 11, True), (1, None, False),
                          (1, 51, True), (1, 45, True)])
def test_numpy_kernel_deals_the_engines_coups(decks: int, cut_card: int | None, burn: bool) -> None:
    """The numpy dealer, coup by coup against the engine's Shoe, with the cut card early, late,
    absent and among the burned cards (the walk skips the cut test in its first steps, where no coup can pass the cut,
    and the end-of-shoe test where every coup fits)."""
    sim = bk.simulate(shoes=12, decks=decks, seed=21, cut_card=cut_card, burn=burn, keep_cards=True,
                      kernel="numpy")
    for i in range(sim.shoes):
        engine_replay(sim, i)
    totals = bk.simulate(shoes=12, decks=decks, seed=21, cut_card=cut_card, burn=burn, kernel="numpy")
    assert totals.counts == sim.counts
