# %% [markdown]
# # 第 10 課　總結：規則與數字（Summing up: the rules and the numbers）
#
# 這一課把整門課收在一頁：先是固定的補牌規則與結算，再是每一注的精確數字。表裡的每一格都是這一頁執行時問規則引擎
# （`baccarat_kit`）得到的，不是抄寫的。
#
# > 本課是規則教育，不是下注建議。

# %%
import baccarat_kit as bk
from baccarat_kit.i18n import message
from baccarat_kit.widgets.shoe_tracker import percent

bk.set_language("zh")

# %% [markdown]
# ## 1. 規則，一步一步（the rules, in order）
#
# 一局依序：**先看例牌 → 再看閒家 → 最後看莊家**（001 的三步順序）。每一手最多補一張（002）。

# %%
stood = bk.rules.BANKER_DRAWS_WHEN_PLAYER_STOOD
rows = [
    ["牌值（card values）", "A＝1，2～9＝牌面，10、J、Q、K＝" + str(bk.Card("K").value) + "；合計只取個位數",
     f"7＋8 → {bk.hand_total('7 8')}"],
    ["例牌（natural）", "首兩張合計 " + "、".join(str(t) for t in range(10) if bk.is_natural(t)) + " 點：雙方都不再補牌",
     f"BCR-008：{message('who.' + bk.play('4 4 4 5').winner)}"],
    ["閒家（player）", f"{bk.rules.format_values(bk.rules.PLAYER_DRAWS_ON)} 點補牌，其餘停牌", "閒 5 → 補牌"],
    ["莊家，閒家停牌時", f"{bk.rules.format_values(stood)} 點補牌，其餘停牌",
     f"莊 5、閒停 → {bk.display.decision(bk.banker_draws(5, None))}"],
]
for total in range(8):
    values = bk.rules.draw_values(total)
    rule = (f"閒家第三張牌值為 {bk.rules.format_values(values)} 時補牌" if values
            else "不論閒家第三張是什麼都停牌")
    rows.append([f"莊家 {total} 點，閒家已補牌", rule,
                 f"遇 8 → {bk.display.decision(bk.banker_draws(total, 8))}"])
bk.display.table(["步驟 step", "規則（引擎的表）rule", "例子 example"], rows)

# %% [markdown]
# ## 2. 結算（settlement）
#
# 押 100 在各種結果下拿回多少（`bk.settle`；「本課的免傭表」是 004 描述的 Super 6 版本，其他免傭桌可能另有補償規則）：

# %%
examples = [
    ("閒勝，押閒 100", "2 3 3 4 4", {"player": 100}, "commission"),
    ("莊勝，押莊 100", "4 4 4 5", {"banker": 100}, "commission"),
    ("和局，押閒 100", "4 4 3 3", {"player": 100}, "commission"),
    ("和局，押和 100", "4 4 3 3", {"tie": 100}, "commission"),
    ("莊 6 點勝，押莊 100（本課的免傭表）", "2 3 3 3 K", {"banker": 100}, "no-commission"),
]
rows = []
for label, cards, bets, table in examples:
    s = bk.settle(bk.play(cards), bets, table)
    rows.append([label, cards, s.returned, s.commission, s.net])
bk.display.table(["情況", "發牌順序", "返還 returned", "傭金 commission", "淨額 net"], rows)

# %% [markdown]
# ## 3. 數字（the numbers）：8 副牌的精確值
#
# 每一注押 1 元的平均淨輸贏（期望值），由 `bk.exact_odds(8)` 列舉每一種發牌順序算出的精確分數：

# %%
odds8 = bk.exact_odds(8)
rows = []
for table in bk.PAY_TABLES:
    for area in bk.AREAS:
        rows.append([bk.odds.bet_label(area, table), message(f"odds.table-{table}"),
                     percent(odds8.expected_value(area, table), 4)])
bk.display.table(["注 bet", "派彩表 pay table", "期望值 expectation"], rows)

# %% [markdown]
# 全部是負的：

# %%
all(odds8.expected_value(area, table) < 0 for table in bk.PAY_TABLES for area in bk.AREAS)

# %% [markdown]
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

# %% [markdown]
# ## 下一步（what next）
#
# * 回到[課程地圖](00-how-to-use.ipynb)，挑一課再看一次。
# * 練習：[01 牌值與點數](../exercises/01-card-values.ipynb)、[02 例牌與閒家規則](../exercises/02-naturals-player.ipynb)、
#   [03 莊家補牌規則](../exercises/03-banker-rule.ipynb)、[04 整局判斷](../exercises/04-whole-coups.ipynb)、
#   [05 結算](../exercises/05-settlement.ipynb)、[06 常見錯誤](../exercises/06-misconceptions.ipynb)。
# * 不寫程式的練習：[補牌訓練器（trainer）](../trainer/trainer.ipynb)。
# * 名詞對照（中文／English）：[docs/glossary.md](../docs/glossary.md)。
