"""Tests of baccarat_kit.display: the lesson tables show what the engine computes.

Expected figures are quoted from the source pages (../shared/seeds), not recomputed.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

import baccarat_kit as bk
from baccarat_kit import display


def test_table_text_and_html_escape() -> None:
    t = display.table(["<b>", "x|y"], [["&", 1]], caption="c", footer=["f", 2])
    assert repr(t) == "c\n| <b> | x\\|y |\n|---|---|\n| & | 1 |\n| f | 2 |"
    html = t._repr_html_()
    assert "&lt;b&gt;" in html and ">&amp;</td>" in html
    assert ">c</caption>" in html and "<tfoot>" in html


def test_values_table_matches_source_000() -> None:
    # 000: 「A 算 1 點，2～9 按牌面點數，10、J、Q、K 都算 0 點」
    quoted = {"A": "1", **{str(n): str(n) for n in range(2, 10)},
              "10": "0", "J": "0", "Q": "0", "K": "0"}
    assert dict(display.values_table("zh").rows) == quoted


def test_totals_table_quotes_003() -> None:
    # 003: 「6 + 8 + 7 = 21,最後就是 1 點」
    t = display.totals_table([("6 8 7", "003")], lang="en")
    assert t.rows == (("6 8 7", "6 + 8 + 7", "21", "1", "003"),)
    assert t.header[-1] == "Source"
    assert len(display.totals_table(["K 6"]).header) == 4  # no source column when none given


def test_trace_table_bcr001() -> None:
    # 000 BCR-001: 閒5補4成9，莊7停牌，閒勝
    t = display.trace_table(bk.play("2 3 3 4 4"), lang="en")
    assert [r[3] for r in t.rows] == ["—", "player-0-5", "banker-7-vs-4", "—"]
    assert [r[2] for r in t.rows[1:3]] == ["draws", "stands"]
    assert t.rows[-1][4] == "Result: player 9, banker 7: player wins."


def test_trace_table_lists_unused_cards() -> None:
    # 000 BCR-001 variant: 莊3+5=8為天牌；閒停在5，不能補4
    t = display.trace_table(bk.play("2 3 3 5 4"), lang="zh")
    assert t.rows[1][1] == "雙方" and t.rows[1][3] == "natural-banker"
    assert "4" in t.rows[-1][4] and t.rows[-1][0] == "—"


def test_coups_table_bcr008_and_variant() -> None:
    # 000 BCR-008: 莊9＞閒8；variant: 雙方自然8，結果和局
    t = display.coups_table([("a", bk.play("4 4 4 5")), ("b", bk.play("4 4 4 4"))], "en")
    assert [(r[2], r[4], r[5], r[6]) for r in t.rows] == [
        ("8", "9", "yes", "banker"), ("8", "8", "yes", "tie")]


def test_settlement_table_sources() -> None:
    # 000 BCR-001: 閒注100 返還200；004: 押莊100 拿回195
    player = display.settlement_table(bk.settle(bk.play("2 3 3 4 4"), {"player": 100}), "en")
    assert player.footer[5] == "200" and player.rows[0][2] == "win"
    banker = display.settlement_table(bk.settle(bk.play("4 4 4 5"), {"banker": 100}), "zh")
    assert banker.rows[0][3:6] == ("95.00", "5.00", "195.00")
    assert banker.caption == "派彩表：傭金桌"
    assert display.settlement_table(bk.settle(bk.play("4 4 4 5"), {"banker": 100}, "no-commission"),
                                    "en").caption == "Pay table: no-commission table (Super 6)"


def test_decision_words() -> None:
    assert display.decision(bk.player_draws(5)) == "補牌"
    assert display.decision(bk.player_draws(6), "en") == "stands"


def test_pay_tables_table_lists_every_preset() -> None:
    t = display.pay_tables_table("en")
    assert [r[0] for r in t.rows] == list(bk.PAY_TABLES)
    assert dict((r[0], r[4]) for r in t.rows)["no-commission"] == "0.5"


def test_ledger_table_rows_and_void() -> None:
    led = bk.Ledger(1000)
    led.record("R001", {"player": 100}, bk.play("2 3 3 4 4"))
    led.record("R002", {"banker": 100}, None, void=True)
    t = display.ledger_table(led, "en")
    assert t.caption == "Opening balance: 1000"
    assert [r[0] for r in t.rows] == ["R001", "R002"]
    assert t.rows[0][3] == "player" and t.rows[1][3] == "void" and t.rows[1][2] == "—"
    assert [r[-1] for r in t.rows] == ["1100", "1100"]


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_every_table_renders_in_both_languages(lang: str) -> None:
    coup = bk.play("2 A 3 2 8")
    led = bk.Ledger(0)
    led.record("R1", {"tie": 10}, coup)
    tables = [display.values_table(lang), display.totals_table(["7 8"], lang),
              display.trace_table(coup, lang), display.coups_table([("x", coup)], lang),
              display.settlement_table(bk.settle(coup, {"player": 1, "tie": 1}), lang),
              display.pay_tables_table(lang), display.ledger_table(led, lang)]
    for t in tables:
        assert t.header and all(len(r) == len(t.header) for r in t.rows)


def test_display_import_stays_light() -> None:
    code = ("import sys, baccarat_kit as bk; bk.display; "
            "print(sorted(m for m in ('ipywidgets', 'numpy', 'matplotlib', 'nbformat') "
            "if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_question_marks_the_engine_answer() -> None:
    # 001: 「K加6等於6」
    q = display.question("k6", "lessons.q01.total", [(16, "16"), (6, "6"), (0, "0")],
                         bk.hand_total("K 6"), "lessons.q01.total-why", cards="K＋6", source="001")
    assert q["answer"] == 1
    assert q["prompt"] == {"zh": "（001）K＋6 是幾點？",
                           "en": "(001) What is the baccarat total of K＋6?"}
    assert q["options"][0] == {"zh": "16", "en": "16"} and "explain" in q


def test_question_labels_from_keys_and_misconceptions() -> None:
    # 000 BCR-008: 莊9＞閒8，自然牌不是自動和局
    q = display.question("b8", "lessons.q02.bcr008",
                         [("tie", "who.tie", "naturals-tie"), ("banker", "who.banker")],
                         bk.play("4 4 4 5").winner)
    assert q["answer"] == 1
    assert q["options"][0] == {"zh": "和局", "en": "tie", "misconception": "naturals-tie"}
    assert "explain" not in q


def test_question_refuses_an_answer_that_is_not_an_option() -> None:
    with pytest.raises(display.LessonError) as err:
        display.question("x", "lessons.q01.total", [(1, "1"), (2, "2")], 5, cards="K", source="-")
    assert "5" in err.value.message("en") and "1, 2" in err.value.message("en")
    assert isinstance(err.value, bk.BaccaratError)


def test_quiz_widget_accepts_lesson_questions() -> None:
    pytest.importorskip("ipywidgets")
    q = display.question("b8", "lessons.q02.bcr008",
                         [("tie", "who.tie", "naturals-tie"), ("banker", "who.banker")],
                         bk.play("4 4 4 5").winner)
    quiz = bk.widgets.Quiz([q])
    quiz.options.value = 0
    quiz.check()
    assert quiz.correct is False and bk.misconceptions.get("naturals-tie").claim("zh") in quiz.feedback.value
    assert "naturals-tie" not in quiz.feedback.value  # the misconception in learner words, not its id
