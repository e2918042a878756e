# %% [markdown]
# # 第 6 課　兩組「案例 A–D」與常見錯誤（Cases A–D, twice, and common mistakes）
#
# 兩個來源頁都有一組叫「A–D」的案例，但**內容不同**，本課用不同的 id 分開：
#
# | 這組 | 來源頁 | 規則依據（rules basis） | 來源給了什麼 | id |
# |---|---|---|---|---|
# | 四個最容易判錯的第三張牌案例 | 002 HKCash 第三張牌矩陣頁 | Massachusetts Gaming Commission, Baccarat 4.11.2024 | 閒家點數、閒家第三張、莊家點數 → **莊家補或停** | `HK-A`…`HK-D` |
# | 真實牌例 A–D | 003 Taiwan Baccarat 規則頁 | 標準 Punto Banco | 起手點數、補到的牌 → **最後點數與勝負** | `TW-A`…`TW-D` |
#
# 兩組都是**部分案例**（partial cases）：來源只給點數與第三張牌值，沒有給全部的牌，
# 本課也不替它們補造任何一張牌。引擎（rules engine）只查核來源給得出的每一項宣稱。
#
# 最後一節是來源列出的常見錯誤（common mistakes），每一條都配一個案例，讓引擎示範正確的做法。
#
# > 本課是規則教育，不是下注建議。

# %%
import baccarat_kit as bk

bk.set_language("zh")
catalogue = bk.cases.load()
hk = [catalogue[f"HK-{x}"] for x in "ABCD"]
tw = [catalogue[f"TW-{x}"] for x in "ABCD"]
[(c.id, c.source) for c in hk + tw]

# %% [markdown]
# ## 1. 002 的案例 A–D：只問莊家補不補
#
# 002：「最容易犯的錯誤是先看到『莊家 5 點』就直接決定補或停。正確做法應先問：閒家有沒有第三張？
# 如果有，第三張的百家樂點值是多少？」
#
# 下表左邊是來源的已知條件與判定，右邊是引擎的判定、理由與規則編號。

# %%
viewer = bk.widgets.CaseViewer("HK-A", cases=[c.id for c in hk + tw])
viewer

# %% [markdown]
# 上面的案例檢視器（CaseViewer）放了兩組案例 A–D：選一個案例，按「下一步」一步一步看；左邊是來源的原文，右邊是引擎推出的每一步。
# 下面每一張對照表是同樣的內容，一次看完：

# %%
bk.widgets.case_card("HK-A")

# %%
bk.widgets.case_card("HK-B")

# %%
bk.widgets.case_card("HK-C")

# %%
bk.widgets.case_card("HK-D")

# %% [markdown]
# 用**莊家補牌檢查器**（RuleChecker）自己重現：選莊家點數與閒家第三張，它從引擎讀出補或停，
# 並在矩陣（matrix）上標出那一格。它從案例 A（莊 3、閒第三張 8）開始。

# %%
checker = bk.widgets.RuleChecker(banker_total=3, player_third=8)
checker

# %% [markdown]
# 下一格用**另一個**檢查器（不顯示，上面那個仍停在案例 A）逐一重現四個案例，並和來源的判定並排：

# %%
demo_checker = bk.widgets.RuleChecker()
rows = []
for case in hk:
    demo_checker.check(case.claims["banker_first_total"], case.claims["player_third"])
    rows.append([case.id, bk.widgets.plain_text(demo_checker.decision), demo_checker.rule,
                 bk.display.decision(case.claims["banker_decision"] == "draw")])
bk.display.table(["案例", "檢查器", "規則編號", "來源的判定"], rows)

# %% [markdown]
# ## 2. 003 的牌例 A–D：一直算到勝負
#
# 003 的牌例給出最後點數與勝負。牌例 A 只給了莊家的 2＋3 與補到的 8（「最後莊家 (2 + 3 + 8) = 3 點」），
# 閒家的兩張牌沒有給，所以引擎查核的是：莊家首兩張合計、閒家 7 點停牌、莊家 5 點補牌、兩邊最後點數與勝負。

# %%
bk.widgets.case_card("TW-A")

# %%
bk.widgets.case_card("TW-B")

# %%
bk.widgets.case_card("TW-C")

# %%
bk.widgets.case_card("TW-D")

# %% [markdown]
# ### 同一個問題，兩組都有
#
# 002 的案例 A（莊 3 遇閒第三張 8）和 003 的牌例 C（閒 4 補 8、莊 3 停）用的是**同一格規則**。
# `cases coverage` 從引擎的規則編號 算出每一格有哪些案例：

# %%
coverage = catalogue.coverage()
coverage.cases["banker-3-vs-8"]

# %% [markdown]
# 兩組合起來，仍有許多格子沒有任何來源的案例（例如莊家 0、1 點的整列）。下表每一格是用到那一格規則的案例數，「·」是沒有案例：

# %%
grid = coverage.table().splitlines()
print("\n".join(grid[2:11]))
from baccarat_kit.cases.coverage import banker_cells

cells = len(banker_cells())
print(f"莊家的 {cells} 格（8 格閒家停牌 ＋ 80 格矩陣）裡，有案例的 {coverage.covered_banker} 格。")

# %% [markdown]
# ## 3. 常見錯誤（common mistakes）
#
# 002 的表說得很直接：「補牌表通常不是記錯數字，而是用錯前提」。下面是 `bk.misconceptions`
# 收錄、出自來源的常見錯誤，每一條配一個目錄裡的案例，由引擎示範正確的做法。

# %%
examples = {
    "matrix-after-natural": "TW-D",
    "banker-copies-player": "HK-STOOD",
    "banker-3-always": "HK-A",
    "face-card-not-in-table": "002-VAL-1",
    "banker-6-always-stands": "TW-B",
    "banker-0-5-always": "HK-C",
    "final-total-as-third": "000-SELF-1",
    "three-card-natural": "BCR-004-variant",
    "eight-stops-low-banker": "BCR-007",
    "naturals-tie": "BCR-008",
}
rows = []
for mid, case_id in examples.items():
    m = bk.misconceptions.get(mid)
    case = catalogue[case_id]
    if case.is_value_example:
        evidence = case.explain().split("\n")[-3]
    elif "banker" in case.outcome().decisions:
        decision = case.outcome().decisions["banker"]
        evidence = f"{decision.reason()}（{decision.why()}）"
    else:
        evidence = case.coup().explain().split("\n")[-1]
    rows.append([f"✘ {m.claim()}", f"✔ {m.correction()}", f"{case_id}（來源 {case.source}）：{evidence}"])
bk.display.table(["常見錯誤", "正確的說法", "引擎示範的案例"], rows)

# %% [markdown]
# 其他由來源列出、與補牌判斷無關的誤解（牌值、下注區名稱、路單、傭金、和局）：

# %%
bk.display.table(
    ["常見錯誤", "正確的說法", "來源"],
    [[m.claim(), m.correction(), m.source]
     for m in bk.misconceptions.all_misconceptions() if m.id not in examples],
)

# %% [markdown]
# ## 自我檢測（self-check）
#
# 題目換了來源案例沒有的格子與牌（例如閒家第三張是 Q、閒家補牌後最後 9 點），每一題都對應上面的一種常見錯誤。
# 題目是課程資料裡的一組題（`Quiz.lesson("06")`），每一題的正確答案都在建立測驗時由規則引擎算出，這一格看不到答案。
# 每題以**第一次提交**的答案計分；答錯時會看到正確答案與它對應的常見誤解，之後再交不再計分。做完會有總結，按「重新開始」可以再做一次。

# %%
quiz = bk.widgets.Quiz.lesson("06")
quiz

# %% [markdown]
# ## 下一步（what next）
#
# * 下一課：[第 7 課　結算](07-settlement.ipynb)
# * 本課的練習：[練習 06　常見錯誤](../exercises/06-misconceptions.ipynb)（在自己的副本裡作答，`check("q1")` 立刻回饋）
# * 不寫程式的練習：[補牌訓練器（trainer）](../trainer/trainer.ipynb)
# * 回到[課程地圖](00-how-to-use.ipynb)
