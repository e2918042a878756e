# %% [markdown] lang=zh
# # 第 10 課　總結：規則與數字（Summing up: the rules and the numbers）
#
# 這一課把整門課收在一頁：先是固定的補牌規則與結算，再是每一注的精確數字。表裡的每一格都是這一頁執行時問規則引擎
# （`baccarat_kit`）得到的，不是抄寫的。
#
# > 本課是規則教育，不是下注建議。

# %% [markdown] lang=en
# # Lesson 10 — Summing up: the rules and the numbers
#
# This lesson puts the whole course on one page: first the fixed drawing rules and settlement, then the exact numbers of every bet. Every cell of the tables is what the rules engine
# (`baccarat_kit`) answers when this page runs; nothing is copied by hand.
#
# > This lesson is rules education, not betting advice.

# %%
import baccarat_kit as bk
from baccarat_kit.i18n import message
from baccarat_kit.widgets.shoe_tracker import percent

LANG = bk.set_language(EDITION_LANG)

# %% [markdown] lang=zh
# ## 1. 規則，一步一步（the rules, in order）
#
# 一局依序：**先看例牌 → 再看閒家 → 最後看莊家**（001 的三步順序）。每一手最多補一張（002）。
#
# 下表是**標準 Punto Banco** 的補牌規則；實際的桌台以當桌的規則說明為準（003：「本篇以常見的標準 Punto Banco 規則為準。其他變體與特殊玩法可能不同,應以實際規則說明為準。」）。

# %% [markdown] lang=en
# ## 1. The rules, in order
#
# A coup goes in order: **first the natural → then the player → last the banker** (001's three steps). Each hand draws at most one card (002).
#
# The table below is the drawing rules of **standard Punto Banco**; the table's own rules decide at a real table (003: 「本篇以常見的標準 Punto Banco 規則為準。其他變體與特殊玩法可能不同,應以實際規則說明為準。」, translation: "this page follows the common standard Punto Banco rules; other variants and special games may differ, and the actual rules as stated prevail").

# %%
stood = bk.rules.BANKER_DRAWS_WHEN_PLAYER_STOOD
naturals = [t for t in range(10) if bk.is_natural(t)]
rows = [
    [message("nb.sum.values"), message("nb.sum.values-rule", k=bk.Card("K").value), f"7 + 8 → {bk.hand_total('7 8')}"],
    [message("nb.sum.natural"), message("nb.sum.natural-rule", totals=bk.rules.format_values(naturals)),
     f"BCR-008: {message('who.' + bk.play('4 4 4 5').winner)}"],
    [message("nb.sum.player"), message("nb.sum.player-rule", totals=bk.rules.format_values(bk.rules.PLAYER_DRAWS_ON)),
     message("nb.sum.player-example", decision=bk.display.decision(bk.player_draws(5)))],
    [message("nb.sum.banker-stood"), message("nb.sum.player-rule", totals=bk.rules.format_values(stood)),
     message("nb.sum.banker-stood-example", decision=bk.display.decision(bk.banker_draws(5, None)))],
]
for total in range(8):
    values = bk.rules.draw_values(total)
    rule = (message("nb.sum.banker-drew-rule", values=bk.rules.format_values(values)) if values
            else message("nb.sum.banker-drew-never"))
    rows.append([message("nb.sum.banker-drew", total=total), rule,
                 message("nb.sum.vs-8", decision=bk.display.decision(bk.banker_draws(total, 8)))])
bk.display.table([message(f"nb.col.{col}") for col in ("step", "rule-table", "example-col")], rows)

# %% [markdown] lang=zh
# ## 2. 結算（settlement）
#
# 押 100 在各種結果下拿回多少（`bk.settle`；「本課的免傭表」是 004 描述的 Super 6 版本，其他免傭桌可能降低別的派彩，或採其他補償規則）。
# 和局的兩列照本課程的標準桌退回主注；000 說標準桌「通常」退回，特殊桌可能另有規定。
# 和注賠 8:1 是本課程傭金桌的設定，來源沒有給和注的賠率（000：「不同桌可能採傭金、免傭或不同和局賠付」）。
#
# 前四列是來源的牌局：BCR-001、BCR-008，和局的兩列是 BCR-002（閒2+3=5，莊A+2=3，閒補 8，3=3 為和；發牌順序 `2 A 3 2 8` 是本套件的寫法）。
# **只有莊 6 點勝那一列是本套件自編的教學牌局**（`2 3 3 3 K`）：來源沒有給莊家以 6 點獲勝的完整牌局（第 7 課也說「本課不編一局」），所以表中標明「本套件自編」。

# %% [markdown] lang=en
# ## 2. Settlement
#
# What a bet of 100 gets back in each outcome (`bk.settle`; "this course's no-commission table" is the Super 6 version 004 describes; other no-commission tables may pay less elsewhere or use some other compensating rule).
# The two tie rows return the main bets as this course's standard table does; 000 says a standard table "usually" does, and special tables may have rules of their own.
# The tie bet's 8:1 is this course's commission table; no source gives the tie's odds (000: 「不同桌可能採傭金、免傭或不同和局賠付」, translation: "tables may use commission, no commission or different tie payouts").
#
# The first four rows are the sources' coups: BCR-001, BCR-008, and for the two tie rows BCR-002 (player 2+3 = 5, banker A+2 = 3, the player draws an 8, 3 = 3 is a tie; the deal order `2 A 3 2 8` is the kit's way of writing it).
# **Only the banker-wins-on-6 row is a teaching coup made up by this kit** (`2 3 3 3 K`): the sources give no complete coup that the banker wins on 6 (lesson 7 says so and makes none up), so the table marks it "made up by this kit".

# %%
examples = [
    ("player-wins-player-bet", "2 3 3 4 4", {"player": 100}, "commission"),
    ("banker-wins-banker-bet", "4 4 4 5", {"banker": 100}, "commission"),
    ("tie-player-bet", "2 A 3 2 8", {"player": 100}, "commission"),
    ("tie-tie-bet", "2 A 3 2 8", {"tie": 100}, "commission"),
    ("banker-six", "2 3 3 3 K", {"banker": 100}, "no-commission"),
]
rows = []
for label, cards, bets, table in examples:
    s = bk.settle(bk.play(cards), bets, table)
    rows.append([message(f"nb.sum.{label}"), cards, s.returned, s.commission, s.net])
bk.display.table([message(f"nb.col.{col}") for col in ("situation", "deal-order", "returned", "commission", "net")],
                 rows)

# %% [markdown] lang=zh
# ## 3. 數字（the numbers）：8 副牌的精確值
#
# 每一注押 1 元的平均淨輸贏（期望值），由 `bk.exact_odds(8)` 列舉每一種發牌順序算出的精確分數。
# 和注 8:1、9:1 與對子 11:1 是本課程派彩表的設定，來源沒有給和注與對子的賠率（第 7 課第 1 節）：

# %% [markdown] lang=en
# ## 3. The numbers: exact values for 8 decks
#
# The average net result of a one-unit bet (its expectation), as exact fractions from `bk.exact_odds(8)`, which enumerates every deal order.
# The tie's 8:1 and 9:1 and the pairs' 11:1 are this course's pay tables; no source gives the tie's or the pairs' odds (lesson 7, section 1):

# %%
odds8 = bk.exact_odds(8)
rows = []
for table in bk.PAY_TABLES:
    for area in bk.AREAS:
        rows.append([bk.odds.bet_label(area, table), message(f"odds.table-{table}"),
                     percent(odds8.expected_value(area, table), 4)])
bk.display.table([message(f"nb.col.{col}") for col in ("bet", "pay-table", "expectation")], rows)

# %% [markdown] lang=zh
# 全部是負的：

# %% [markdown] lang=en
# All negative:

# %%
all(odds8.expected_value(area, table) < 0 for table in bk.PAY_TABLES for area in bk.AREAS)

# %% [markdown] lang=zh
# ## 4. 這些數字告訴我們的事
#
# * 補牌是固定規則，押莊、押閒、路單、連莊連閒都不改變它（003：「押注選擇不影響發牌及補牌流程。」）。
# * 每一注的期望值都是負的；傭金或免傭只是讓押莊的人用不同方式付出代價（第 8 課第 2 節）。
# * 就算完美記住牌靴裡剩下的每一張牌，莊、閒幾乎從不轉正；旁注只在罕見的牌靴末段短暫為正，平均仍是負的，
#   沒有可行的下注系統（第 8 課第 5、6 節）。
#
# > 004：「不過要誠實說，三種押法長期的期望值都是負的，建議把它當成娛樂、設好預算，而不是當成穩定獲利的方法。」
# >
# > 000：「本頁用於規則查核與風險教育，不構成獲利保證、下注建議或法律意見；請遵守所在地法律，未達法定年齡者請勿參與。」

# %% [markdown] lang=en
# ## 4. What the numbers tell us
#
# * Drawing follows fixed rules; betting on banker or player, roads and streaks do not change it (003: 「押注選擇不影響發牌及補牌流程。」, translation: "the choice of bet does not affect the deal or the drawing").
# * Every bet has a negative expectation; commission or no-commission only make the banker bettor pay in different ways (lesson 8, section 2).
# * Even with perfect memory of every card left in the shoe, banker and player almost never turn positive; side bets do only briefly, rarely, late in a shoe, and their average stays negative:
#   there is no practical betting system (lesson 8, sections 5 and 6).
#
# > 004：「不過要誠實說，三種押法長期的期望值都是負的，建議把它當成娛樂、設好預算，而不是當成穩定獲利的方法。」
# >
# > *Translation:* "But to be honest, all three bets have a negative expectation in the long run; treat it as entertainment and set a budget, not as a steady way to make money."
# >
# > 000：「本頁用於規則查核與風險教育，不構成獲利保證、下注建議或法律意見；請遵守所在地法律，未達法定年齡者請勿參與。」
# >
# > *Translation:* "This page is for checking the rules and for risk education; it is no guarantee of profit, no betting advice and no legal advice. Obey the law where you are; if you are under the legal age, do not take part."

# %% [markdown] lang=zh
# ## 5. 期末測驗（final test）
#
# 十二題，從整門課抽出：第 1～8 課每一課至少一題，再加上莊家矩陣的格子。題目依你的進度檔抽出，每個人、每一次都不一樣；
# 答錯時會看到為什麼錯（選項是某個常見誤解時，也會點出是哪一個），並在最後的結果裡附上回去複習的那一課的連結。
# 期末測驗不提供提示，也不能清除或重做已答的題目（各課的自我檢測仍可以）：每題以第一次作答計分，答了就不能改，12 題答對 10 題就及格。沒答完就重新執行這一格，會回到同一次測驗，已答的題目照原來的答案計分。答完每一題，這一次的分數就留在紀錄裡；第 00 課的地圖列出最佳與最近一次，有一次及格才打勾。答完可以按「儲存結果頁」，把結果存成一個 HTML 檔。想再考一次，按「新的一次測驗」（或重新執行這一格），會抽出一組新的題目，算下一次。

# %% [markdown] lang=en
# ## 5. The final test
#
# Twelve questions drawn from the whole course: at least one from each of lessons 1 to 8, plus cells of the banker matrix. They are drawn from your progress record, so they differ for every learner and every attempt;
# a wrong answer shows why (and which common misconception it is, when it is one), and the result at the end links back to the lesson to review.
# The final test offers no hints, and an answered question cannot be cleared or redone (the lessons' self-checks keep both): first answers count, an answer cannot be changed, and 10 of 12 right is a pass. Run this cell again before you finish and the same attempt comes back, its answers as you gave them. Once every question is answered, the attempt's score stays in your record; lesson 00's map shows the best and the latest, and ticks the test once an attempt passes. When you are done, "Save the result page" keeps the result as an HTML file. To take it again, press "New test" (or run this cell again): a new set of questions is drawn, as the next attempt.

# %%
bk.widgets.FinalTest(lang=LANG)

# %% [markdown] lang=zh
# ## 下一步（what next）
#
# * 回到[課程地圖](00-how-to-use.ipynb)，挑一課再看一次。
# * 練習：[01 牌值與點數](../exercises/01-card-values.ipynb)、[02 例牌與閒家規則](../exercises/02-naturals-player.ipynb)、
#   [03 莊家補牌規則](../exercises/03-banker-rule.ipynb)、[04 整局判斷](../exercises/04-whole-coups.ipynb)、
#   [05 結算](../exercises/05-settlement.ipynb)、[06 常見錯誤](../exercises/06-misconceptions.ipynb)。
# * 不寫程式的練習：[補牌訓練器（trainer）](../trainer/trainer.ipynb)。
# * 名詞對照（中文／English）：[docs/glossary.md](../docs/glossary.md)。

# %% [markdown] lang=en
# ## What next
#
# * Back to the [course map](00-how-to-use.ipynb) to pick a lesson to read again.
# * Exercises: [01 Card values and totals](../../exercises/en/01-card-values.ipynb), [02 Naturals and the player rule](../../exercises/en/02-naturals-player.ipynb),
#   [03 The banker rule](../../exercises/en/03-banker-rule.ipynb), [04 Whole coups](../../exercises/en/04-whole-coups.ipynb),
#   [05 Settlement](../../exercises/en/05-settlement.ipynb), [06 Common mistakes](../../exercises/en/06-misconceptions.ipynb).
# * Practice without code: [the drawing trainer](../../trainer/trainer.ipynb).
# * Glossary (Chinese / English): [docs/glossary.md](../../docs/glossary.md).
