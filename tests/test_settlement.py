from __future__ import annotations

from decimal import Decimal

import pytest

import baccarat_kit as bk

D = Decimal
PLAYER_WINS = bk.play("2 3 3 4 4")      # BCR-001: player 9, banker 7
BANKER_WINS_9 = bk.play("2 4 4 5")      # banker natural 9 (player 6)
TIE = bk.play("2 A 3 2 8")              # BCR-002: 3 = 3


def banker_six_win() -> bk.Coup:
    coup = bk.play("2 2 3 4 K")          # player 5 draws K -> 5, banker 6 vs 0 stands: banker 6 wins
    assert (coup.winner, coup.banker_total) == ("banker", 6)
    return coup


def line(coup, area, stake=100, table="commission", **kw):
    return bk.settle(coup, {area: stake}, table, **kw).lines[0]


def test_source_004_banker_100_returns_195() -> None:
    ln = line(BANKER_WINS_9, "banker")
    assert (ln.result, ln.winnings, ln.commission, ln.returned) == ("win", D("95.00"), D("5.00"), D("195.00"))


def test_bcr_001_player_100_returns_200() -> None:
    ln = line(PLAYER_WINS, "player")
    assert (ln.result, ln.winnings, ln.returned, ln.net) == ("win", D(100), D(200), D(100))


def test_tie_returns_player_and_banker_stakes_and_pays_tie() -> None:
    s = bk.settle(TIE, {"player": 100, "banker": 50, "tie": 10})
    assert [(x.result, x.returned) for x in s.lines] == [("push", D(100)), ("push", D(50)), ("win", D(90))]
    assert s.returned == D(240) and s.net == D(80)
    assert line(TIE, "tie", 10, "commission-tie-9").returned == D(100)


def test_losing_bets() -> None:
    s = bk.settle(PLAYER_WINS, {"banker": 100, "tie": 5})
    assert [x.result for x in s.lines] == ["lose", "lose"]
    assert s.returned == 0 and s.net == D(-105)


def test_no_commission_super_6() -> None:
    coup = banker_six_win()
    ln = line(coup, "banker", 100, "no-commission")
    assert (ln.winnings, ln.commission, ln.returned) == (D(50), D(0), D(150))
    ln = line(BANKER_WINS_9, "banker", 100, "no-commission")
    assert (ln.winnings, ln.returned) == (D(100), D(200))
    # commission table on the same banker-6 win: 0.95
    assert line(coup, "banker", 100).returned == D("195.00")


def test_pairs_settled_apart() -> None:
    coup = bk.play("K 3 K 3 5")
    s = bk.settle(coup, {"player-pair": 10, "banker-pair": 10, "player": 10})
    assert [x.result for x in s.lines][:2] == ["win", "win"]
    assert s.lines[0].returned == D(120)
    assert line(PLAYER_WINS, "banker-pair", 10).result == "lose"


def test_void_round_returns_every_stake() -> None:
    s = bk.settle(None, {"player": 100, "tie": 5}, void=True)
    assert [x.result for x in s.lines] == ["void", "void"] and s.returned == D(105) and s.net == 0
    s = bk.settle(PLAYER_WINS, {"banker": 100}, void=True)
    assert s.returned == D(100)


def test_commission_rounding_is_configurable() -> None:
    # 33 on banker: commission 1.65 exactly at 0.01; to whole units: half-up 2, down 1
    assert line(BANKER_WINS_9, "banker", 33).commission == D("1.65")
    assert line(BANKER_WINS_9, "banker", 33, rounding=bk.Rounding("1")).commission == D(2)
    ln = line(BANKER_WINS_9, "banker", 33, rounding=bk.Rounding("1", "down"))
    assert (ln.commission, ln.returned) == (D(1), D(65))
    assert line(BANKER_WINS_9, "banker", "0.10").commission == D("0.01")   # 0.005 half-up
    assert line(BANKER_WINS_9, "banker", "0.10", rounding=bk.Rounding("0.01", "half-even")).commission == D("0.00")


def test_money_is_decimal_everywhere() -> None:
    s = bk.settle(TIE, {"player": "12.50", "banker": D("7.25"), "tie": 3})
    for x in s.lines:
        for amount in (x.stake, x.winnings, x.commission, x.returned):
            assert type(amount) is Decimal
    assert s.returned == D("12.50") + D("7.25") + D(27)


def test_area_aliases() -> None:
    s = bk.settle(PLAYER_WINS, [("閒", 1), ("莊", 1), ("和", 1), ("閒對", 1), ("莊對", 1)])
    assert [x.area for x in s.lines] == list(bk.AREAS)


def test_explain() -> None:
    text = bk.settle(BANKER_WINS_9, {"banker": 100}).explain("en")
    assert "banker 100: wins 95.00 (commission 5.00), 195.00 returned." in text
    assert "莊注 100：贏" in bk.settle(BANKER_WINS_9, {"banker": 100}).explain("zh")


@pytest.mark.parametrize(("bets", "err", "shown"), [
    ({"bank": 100}, bk.BetError, "bank"),
    ({"player": -5}, bk.BetError, "-5"),
    ({"player": 0}, bk.BetError, "0"),
    ({"player": "NaN"}, bk.BetError, "NaN"),
    ({"player": "abc"}, bk.BetError, "abc"),
    ({"player": 12.5}, bk.BetError, "12.5"),
    ({"player": None}, bk.BetError, "None"),
    ({"player": True}, bk.BetError, "True"),
    ([("player",)], bk.BetError, "player"),
])
def test_bad_bets_name_the_value(bets, err, shown) -> None:
    with pytest.raises(err) as info:
        bk.settle(PLAYER_WINS, bets)
    for lang in ("zh", "en"):
        assert shown in info.value.message(lang)


def test_bad_table_and_rounding() -> None:
    with pytest.raises(bk.PayTableError) as info:
        bk.settle(PLAYER_WINS, {"player": 1}, "super")
    assert "super" in str(info.value) and "no-commission" in info.value.message("en")
    with pytest.raises(bk.PayTableError):
        bk.Rounding("0.01", "sideways")
    with pytest.raises(bk.BaccaratError):
        bk.Rounding("-1")


def test_no_coup_without_void() -> None:
    with pytest.raises(bk.BetError):
        bk.settle(None, {"player": 1})


def test_pay_tables_are_presets_of_one_class() -> None:
    assert {t.name for t in bk.PAY_TABLES.values()} == set(bk.PAY_TABLES)
    assert all(isinstance(t, bk.PayTable) for t in bk.PAY_TABLES.values())
    assert bk.pay_table("commission-tie-9").tie == 9
