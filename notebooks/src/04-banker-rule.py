# %% [markdown]
# # 第 4 課　莊家補牌規則（Banker third-card rule）
#
# 沒有例牌（Natural），閒家（Player）也已經按 0～5 補、6～7 停做完決定之後，輪到莊家（Banker）。
# 莊家的規則是百家樂最容易看錯的地方，因為它有**兩個分支（two branches）**：
#
# 1. **閒家停牌（player stood）**：閒家沒有第三張牌，莊家只看自己的點數；
# 2. **閒家已補第三張（player drew）**：莊家要看自己的點數**和**閒家第三張牌的牌值（third-card value），查莊家矩陣（banker matrix）。
#
# 本課依據的來源頁：
#
# | 頁 | 本課用到的內容 | 規則依據（rules basis） |
# |---|---|---|
# | 000「百家樂補牌規則」 | 莊家第三張牌完整判斷表、範例2～4、補牌判讀示意、BCR-002 | Singapore GRA Commission Baccarat (RWS) Game Rules v4；Pennsylvania Code §631a.11 |
# | 001 DG 百家樂第三張牌 | 10、J、Q、K 算 0 點；莊家 3～6 點的記法；牌例一～四 | Singapore GRA Baccarat Game Rules |
# | 002 HKCash 第三張牌矩陣 | 情況 A／情況 B、完整矩陣、「莊 3、4、5、6 的補牌範圍會逐步收窄」 | Massachusetts Gaming Commission, Baccarat 4.11.2024 |
# | 003 Taiwan Baccarat 規則書 | 「此例閒家 7 點停牌,莊家 5 點補一張」 | 標準 Punto Banco |
#
# 本課所有的「補／停」都由規則引擎回答（`bk.banker_draws`、`bk.banker_rule`、`bk.banker_matrix()`），
# 筆記本裡沒有另抄一份補牌表。
#
# > 本課是規則教育，不是下注建議：補牌由固定規則自動決定，不能預測下一局，也不改變任何一注的賭場優勢（house edge）。

# %%
import baccarat_kit as bk

bk.set_language("zh")

# %% [markdown]
# ## 1. 先問：閒家有沒有第三張牌？
#
# 002 的提醒：
#
# > 莊家補牌最容易看錯， 就是因為存在兩種不同情況： 閒家停牌 與 閒家已取得第三張牌。
#
# 所以引擎的 `bk.banker_draws(total, player_third)` 也要兩個參數：莊家首兩張點數 `total`（0～7），
# 以及閒家第三張牌的**牌值** `player_third`（0～9）；閒家停牌時沒有第三張，就傳 `None`。

# %% [markdown]
# ## 2. 分支 A：閒家停牌（player stood）
#
# 002「情況 A：閒家沒有第三張牌」：
#
# > | 莊家首兩張點數 | 處理 |
# > |---|---|
# > | 0–5 | 補牌 |
# > | 6–7 | 停牌 |
# >
# > 閒家 6 點沒有第三張牌， 莊家此時不需要查 「閒第三張是甚麼」， 因為根本沒有第三張。
#
# 同一個分支，由引擎逐點回答：

# %%
for total in range(8):
    action = "補牌 draws" if bk.banker_draws(total, None) else "停牌 stands"
    print(f"莊家 {total} 點，閒家停牌 → {action}　（{bk.banker_rule(total, None)}）")

# %% [markdown]
# 003 的一局流程就是這個分支：「此例閒家 7 點停牌,莊家 5 點補一張。」

# %%
bk.player_draws(7), bk.banker_draws(5, None)

# %% [markdown]
# ## 3. 分支 B：閒家已補第三張（player drew）→ 莊家矩陣
#
# 002「情況 B：閒家已取得第三張牌」給了完整矩陣；000 的「莊家第三張牌完整判斷表」是同一張表的另一種寫法。
# 下面引用 000 的表時**省略了它的最後一列**「8～9｜不適用｜自然牌，通常停止補牌」：那一列講的是例牌（第 2 課），不屬於閒家已補牌的分支。
#
# > | 莊家首兩張點數 | 閒家第三張牌 | 莊家處理 |
# > |---|---|---|
# > | 0～2 | 任意牌 | 補牌 |
# > | 3 | 不是 8 | 補牌 |
# > | 3 | 8 | 停牌 |
# > | 4 | 2～7 | 補牌；其他停牌 |
# > | 5 | 4～7 | 補牌；其他停牌 |
# > | 6 | 6～7 | 補牌；其他停牌 |
# > | 7 | 任意牌 | 停牌 |
#
# 引擎把這張表存成資料 `bk.rules.BANKER_DRAWS_ON`（莊家點數 → 會補牌的第三張牌值）。
# 逐列讀出來，用來源的寫法（`format_values` 把連續的值寫成「2–7」）：

# %%
for total in range(8):
    values = bk.rules.draw_values(total)
    if values:
        shown = bk.rules.format_values(values).replace(", ", "、")
        print(f"莊家 {total} 點：閒家第三張為 {shown} 時補牌（{len(values)} 個值）")
    else:
        print(f"莊家 {total} 點：不論閒家第三張是什麼都停牌（0 個值）")

# %% [markdown]
# ### 10、J、Q、K 算 0
#
# 矩陣的欄是第三張牌的**百家樂點值**，不是牌面。001：
#
# > 莊家補牌表所說的「閒家第三張為0點」，不只代表10，也包括J、Q及K。補牌判斷看的是點數，不是花色或牌面高低。

# %%
[(card.label, card.value) for card in bk.parse_cards("10 J Q K")]

# %% [markdown]
# ## 4. 整張矩陣的熱度圖（heatmap）
#
# 下圖的每一格都是 `bk.banker_matrix()` 算出來的：列（row）是莊家首兩張點數 0～7，
# 欄（column）是閒家第三張牌值 0～9；D（draw）＝補牌、S（stand）＝停牌。
# 格子同時寫著 D／S，顏色不是唯一的線索。圖上的字用英文，因為不是每台電腦都有中文字型。

# %%
import matplotlib.pyplot as plt
from matplotlib.colors import ListedColormap

matrix = bk.banker_matrix()
fig, ax = plt.subplots(figsize=(7, 4.2))
ax.imshow([[int(draws) for draws in row] for row in matrix],
          cmap=ListedColormap(["#fdb863", "#5e3c99"]), vmin=0, vmax=1)
for total, row in enumerate(matrix):
    for value, draws in enumerate(row):
        ax.text(value, total, "D" if draws else "S", ha="center", va="center",
                color="white" if draws else "black", fontweight="bold")
ax.set_xticks(range(10))
ax.set_yticks(range(8))
ax.set_xlabel("value of the player's third card (10, J, Q, K = 0)")
ax.set_ylabel("banker total (first two cards)")
ax.set_title("Banker after a player third card: D = draws, S = stands")
plt.show()

# %% [markdown]
# 數一數：80 格裡有幾格補牌？（0～2 點的三列全補、7 點那一列全停。）

# %%
sum(draws for row in matrix for draws in row), [sum(row) for row in matrix]

# %% [markdown]
# ## 5. 「莊 3、4、5、6 的補牌範圍會逐步收窄」
#
# 002 的記法：
#
# > 莊 3、4、5、6 的補牌範圍會逐步收窄
# >
# > | 莊家點數 | 補牌範圍 | 記憶重點 |
# > |---|---|---|
# > | 3 | 除 8 外全部 | 最特別的是「8 停」。 |
# > | 4 | 2–7 | 六個連續值。 |
# > | 5 | 4–7 | 範圍再縮短。 |
# > | 6 | 6–7 | 最後只剩兩個值。 |
#
# 001 也說：「從莊家4點開始，補牌區間依序縮小為『2～7、4～7、6～7』。」
#
# 用引擎驗證「逐步收窄」：每一列的補牌值都是上一列的**真子集**（proper subset），而且個數越來越少。

# %%
for total in (3, 4, 5, 6):
    values = bk.rules.draw_values(total)
    print(f"莊 {total}：{bk.rules.format_values(values).replace(', ', '、')}（{len(values)} 個值）")

[bk.rules.draw_values(total + 1) < bk.rules.draw_values(total) for total in (3, 4, 5)]

# %% [markdown]
# 002 接著提醒：「即使已經背熟 『3 除 8、4 是 2–7、5 是 4–7、6 是 6–7』， 實戰閱讀時仍然要先確認： 有沒有 Natural，以及閒家到底有沒有第三張牌。」

# %% [markdown]
# ## 6. 來源的範例
#
# 000 的「百家樂補牌實際判斷範例」只給了點數與第三張牌（沒有給整副牌），所以這裡直接問引擎莊家那一步。
#
# **範例2：閒家第三張為8、莊家3點**
#
# > 閒家先依0～5點規則補牌 → 第三張為8 → 莊家首兩張3點遇閒家第三張8 → 莊家停牌。

# %%
bk.banker_draws(3, 8), bk.banker_rule(3, 8)

# %% [markdown]
# **範例3：閒家第三張為6、莊家6點**
#
# > 閒家先取得第三張6 → 莊家首兩張6點 → 對照表中第三張為6～7 → 莊家補牌。

# %%
bk.banker_draws(6, 6), bk.banker_rule(6, 6)

# %% [markdown]
# **範例4：閒家6點、莊家5點**
#
# > 閒家首兩張6點 → 閒家停牌且沒有第三張 → 莊家首兩張5點 → 莊家補牌。
#
# 閒家停牌，所以第三張是 `None`，走分支 A：

# %%
bk.player_draws(6), bk.banker_draws(5, None), bk.banker_rule(5, None)

# %% [markdown]
# **補牌判讀示意**（000）：
#
# > 閒家前兩張合計五點，因此補第三張；若第三張是七，莊家前兩張為五點，依標準補牌表需補牌。

# %%
bk.player_draws(5), bk.banker_draws(5, 7)

# %% [markdown]
# **001 的牌例一～四**（「5組實際牌例」；牌例五在第 3 課）：來源給了雙方起手兩張牌與閒家第三張，
# 但只寫到「莊家補不補」，沒有給莊家的第三張牌，所以它們是部分案例（partial case），這裡也不替它們補牌。
# 下表並列來源的判斷與引擎的判斷（案例資料在 `bk.cases`）：

# %%
catalogue = bk.cases.load()
rows = []
for case_id in ("001-EX-1", "001-EX-2", "001-EX-3", "001-EX-4"):
    case = catalogue[case_id]
    claims = case.claims
    engine = case.outcome().decisions["banker"]
    rows.append([case.title(), f"莊 {claims['banker_first_total']} 點、閒家第三張 {claims['player_third']}",
                 bk.display.decision(claims["banker_decision"] == "draw"),
                 bk.display.decision(engine.action == "draw"), engine.rule])
bk.display.table(["牌例", "條件", "來源的判斷", "引擎的判斷", "規則編號"], rows)

# %% [markdown]
# ## 7. 一整局：BCR-002「莊3：閒第三張8與9的翻轉」
#
# 000 的 BCR-002 給了整副牌：「閒2+3=5，莊A+2=3；牌靴下一張先假設8。」
# 發牌順序是閒、莊、閒、莊，所以牌序是 `2 A 3 2 8`：

# %%
print(bk.play("2 A 3 2 8").explain())

# %% [markdown]
# 來源的結論：「和局；這裡查表用8，不是閒最後3。」查表用的是閒家第三張的**牌值** 8，
# 不是閒家最後點數 3（把 3 拿去查表，莊 3 就會錯判成補牌）。
#
# 「只改一個條件：僅把閒第三張8改9：閒最後4；莊3須補，若接著取得4，莊最後7，莊7＞閒4。」

# %%
print(bk.play("2 A 3 2 9 4").explain())

# %% [markdown]
# ## 8. 自己動手：手牌組合器（HandBuilder）
#
# 下面是 BCR-002 的牌。改「下一張」（閒家第三張）或任何一張牌，組合器會重新發牌、寫出每一步的理由，
# 並在最後一行標出改變了什麼（勝方、點數、誰補牌）。也可以在「牌序」欄直接輸入，例如 `2 A 3 2 9 4`，按 Enter。

# %%
builder = bk.widgets.HandBuilder("2 A 3 2 8")
builder

# %% [markdown]
# 下一格用**另一個**組合器（不顯示，上面那個仍停在 BCR-002）把閒家第三張改成 9、再下一張設成 4（就是 BCR-002 的變化題），再讀出它顯示的結果：

# %%
demo = bk.widgets.HandBuilder("2 A 3 2 8")
demo.card_next1.value = "9"
demo.card_next2.value = "4"
print(bk.widgets.plain_text(demo.winner))
print(bk.widgets.plain_text(demo.changes))

# %% [markdown]
# ## 9. 莊家補牌檢查器（RuleChecker）
#
# 選莊家首兩張點數（0～7）和閒家第三張牌值（或「閒家停牌」），檢查器會說補還是停、為什麼，
# 並在右邊的矩陣標出你選的格子（框線加上［ ］）。

# %%
checker = bk.widgets.RuleChecker()
checker

# %% [markdown]
# 用**另一個**檢查器（不顯示，上面那個仍停在「莊 3 點、閒家停牌」）選 002 的案例 A（「閒 5 → 第三張 8； 莊 3」，來源的判定是停牌），讀出判定與理由：

# %%
demo_checker = bk.widgets.RuleChecker()
demo_checker.banker_total.value = 3
demo_checker.player_third.value = 8
print(bk.widgets.plain_text(demo_checker.decision))
print(bk.widgets.plain_text(demo_checker.reason))

# %% [markdown]
# 再選範例4（閒家停牌、莊家 5 點）：

# %%
demo_checker.check(5, None)
print(bk.widgets.plain_text(demo_checker.decision))
print(bk.widgets.plain_text(demo_checker.reason))

# %% [markdown]
# ## 10. 自我檢測（self-check）
#
# 這一組題目問的是來源的案例**沒有**用到的矩陣格子（例如莊 5 遇閒第三張 8、莊 1 遇 8、莊 3 遇 K），所以不能靠背案例作答，要會查表。
# 題目是課程資料裡的一組題（`Quiz.lesson("04")`），每一題的正確答案都在建立測驗時由規則引擎算出，這一格看不到答案。
# 每題以**第一次提交**的答案計分；答錯時會看到正確答案與它對應的常見誤解，之後再交不再計分。做完會有總結，按「重新開始」可以再做一次。

# %%
quiz = bk.widgets.Quiz.lesson("04")
quiz

# %% [markdown]
# ## 下一步（what next）
#
# * 下一課：[第 5 課　BCR-001～BCR-008](05-bcr-cases.ipynb)
# * 本課的練習：[練習 03　莊家補牌規則](../exercises/03-banker-rule.ipynb)（在自己的副本裡作答，`check("q1")` 立刻回饋）
# * 不寫程式的練習：[補牌訓練器（trainer）](../trainer/trainer.ipynb)
# * 回到[課程地圖](00-how-to-use.ipynb)
