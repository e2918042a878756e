from __future__ import annotations

import io
from decimal import Decimal

import pytest

import baccarat_kit as bk
from baccarat_kit.ledger import CSV_FIELDS

D = Decimal


def trail() -> bk.Ledger:
    led = bk.Ledger(opening_balance=1000)
    led.record("R001", {"player": 100}, bk.play("2 3 3 4 4"))          # BCR-001: +100
    led.record("R002", {"banker": 100}, bk.play("2 4 4 5"))            # banker natural 9: +95
    led.record("R003", {"player": 50, "tie": 10}, bk.play("2 A 3 2 8"))  # BCR-002 tie: push + 80
    led.record("R004", {"banker": 20}, None, void=True)                # 作廢局: stake back
    led.record("R005", {"player": 100}, bk.play("2 3 3 5 4"))          # BCR-001 variant: -100
    return led


def test_balances_follow() -> None:
    led = trail()
    assert [line.balance_after for line in led] == [D(1100), D("1195.00"), D("1275.00"), D("1275.00"), D("1175.00")]
    assert led[1].commission == D("5.00") and led[1].winnings == D("95.00")
    assert led[3].result == "void" and led[3].cards == ""
    assert led.balance == D("1175.00")
    assert led.reconcile() is None


def test_reconcile_finds_first_wrong_line() -> None:
    led = trail().with_line(2, balance_after=D("1285.00"))
    d = led.reconcile()
    assert d is not None and (d.line, d.round_id, d.field) == (3, "R003", "balance_after")
    assert (d.expected, d.found) == (D("1275.00"), D("1285.00"))
    assert "R003" in d.explain("en") and "R003" in d.explain("zh")
    led = trail().with_line(3, balance_before=D(0))
    assert led.reconcile().field == "balance_before"      # type: ignore[union-attr]


def test_csv_round_trip() -> None:
    led = trail()
    text = led.to_csv()
    assert text.splitlines()[0] == ",".join(CSV_FIELDS)
    back = bk.Ledger.from_csv(text)
    assert [(x.round_id, x.balance_after, x.bets) for x in back] == [(x.round_id, x.balance_after, x.bets) for x in led]
    assert back.reconcile() is None
    buf = io.StringIO()
    led.to_csv(buf)
    assert buf.getvalue() == text


def test_csv_file(tmp_path) -> None:
    path = tmp_path / "trail.csv"
    trail().to_csv(path)
    assert bk.Ledger.from_csv(path).balance == D("1175.00")


def test_csv_errors() -> None:
    with pytest.raises(bk.LedgerError) as info:
        bk.Ledger.from_csv("round_id,bets\nR1,player=1\n")
    assert "balance_after" in info.value.message("en")
    good = trail().to_csv().splitlines()
    bad = "\n".join([good[0], good[1].replace("player=100", "player=abc")]) + "\n"
    with pytest.raises(bk.LedgerError) as info:
        bk.Ledger.from_csv(bad)
    assert "player=abc" in info.value.message("en")
    with pytest.raises(bk.LedgerError) as info:
        bk.Ledger(opening_balance=1.5)
    assert "1.5" in info.value.message("zh")
