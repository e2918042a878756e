"""Answer keys come from the engine; per-learner hands are reproducible and differ by learner."""

from __future__ import annotations

from decimal import Decimal

import baccarat_kit as bk
from baccarat_kit.grading.judge import keys


def test_seed_depends_on_exercise_and_learner() -> None:
    a = keys.learner_seed("04-whole-coups", "s001")
    assert a == keys.learner_seed("04-whole-coups", " s001 ")
    assert a != keys.learner_seed("04-whole-coups", "s002")
    assert a != keys.learner_seed("05-settlement", "s001")


def test_hands_are_reproducible_and_playable() -> None:
    hands = keys.variant_hands("04-whole-coups", "s001")
    assert hands == keys.variant_hands("04-whole-coups", "s001")
    assert hands != keys.variant_hands("04-whole-coups", "s002")
    assert len(hands) == keys.HANDS_PER_LEARNER
    for h in hands:
        assert len(bk.parse_cards(h)) == 6
        bk.play(h)  # every hand has enough cards


def test_variant_key_matches_the_engine() -> None:
    got = keys.expected({"fn": "variant_coups", "args": ["04-whole-coups", "winner"]}, "s001")
    assert got == [bk.play(h).winner for h in keys.variant_hands("04-whole-coups", "s001")]


def test_example_hands_meet_their_condition() -> None:
    six = bk.play(keys.example_hand("banker-six"))
    assert six.winner == "banker" and six.banker_total == 6
    assert bk.play(keys.example_hand("tie")).winner == "tie"


def test_settlement_variant_has_one_hidden_wrong_line() -> None:
    for learner in ("s001", "s002", "alice"):
        v = keys.settlement_variant(learner)
        ledger = v["ledger"]
        assert ledger.reconcile() is None  # the balances follow: only re-settling finds it
        n = keys.first_wrong_line(ledger)
        assert 1 <= n <= keys.LEDGER_ROUNDS
        line = ledger[n - 1]
        again = bk.settle(bk.play(line.cards), line.bets)
        assert line.returned - again.returned == again.commission > 0
        assert bk.play(v["super6_hand"]).banker_total == 6
        assert bk.play(v["tie_hand"]).winner == "tie"


def test_settlement_keys() -> None:
    v = keys.settlement_variant("s001")
    s = bk.settle(bk.play(v["commission_hand"]), {"banker": v["commission_stake"]})
    assert keys.expected({"fn": "settlement", "args": ["commission_winnings"]}, "s001") == s.winnings
    s6 = bk.settle(bk.play(v["super6_hand"]), {"banker": v["super6_stake"]}, "no-commission")
    assert keys.expected({"fn": "settlement", "args": ["super6_returned"]}, "s001") == s6.returned
    assert s6.returned == v["super6_stake"] + Decimal(v["super6_stake"]) / 2  # source 004: pays half


def test_domains() -> None:
    banker = keys.domain("banker")
    assert len(banker) == 88 and [3, None] in banker and [7, 9] in banker
    assert keys.domain("player") == [[t] for t in range(8)]
    assert keys.expected({"fn": "values_total"}, "", [[6, 8, 7]]) == bk.hand_total("6 8 7")
