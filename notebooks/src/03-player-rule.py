# %% [markdown]
# # 第 3 課　閒家補牌規則（Player third-card rule）
#
# 沒有例牌（Natural）時，閒家（Player）先決定要不要補第三張牌（third card）。這是每一局的第二步。
#
# 本課依據的來源頁：
#
# | 頁 | 內容 | 規則依據（rules basis） |
# |---|---|---|
# | 000「百家樂補牌規則」 | 閒家補牌表、範例1、BCR-001、BCR-006 | Pennsylvania Code §631a.11；Singapore GRA Commission Baccarat (RWS) Game Rules v4 |
# | 001 DG 百家樂第三張牌 | 三步順序（例牌 → 閒家 → 莊家）、牌例五 | Singapore GRA Baccarat Game Rules |
# | 002 HKCash 第三張牌矩陣 | Natural → 閒家 → 莊家，次序不能倒轉 | Massachusetts Gaming Commission, Baccarat 4.11.2024 |
# | 003 Taiwan Baccarat 規則書 | 「閒家 5 點 → 補第三張」、閒 7 莊 5 | 標準 Punto Banco |
#
# > 本課是規則教育，不是下注建議：補牌由規則自動決定，不由下注者選擇。

# %%
import baccarat_kit as bk

bk.set_language("zh")

# %% [markdown]
# ## 1. 三步順序：例牌 → 閒家 → 莊家（natural → player → banker）
#
# 001 把整套判斷整理成固定順序：
#
# > - 先看例牌：任何一方起手兩張牌合計8或9點，雙方都不再補牌。
# > - 再看閒家：沒有例牌時，閒家0～5點補牌，6～7點停牌。
# > - 最後看莊家：如果閒家停牌，莊家只看自己的點數；如果閒家已補第三張，莊家還要把閒家第三張牌納入判斷。
# >
# > 這個順序不能顛倒。
#
# 002 也說：「Natural → 閒家 → 莊家，次序不能倒轉」。
#
# 引擎跑一局時就是照這個順序記錄每一步（`bk.play(...).steps`）。以 000 的 **BCR-001｜閒5補到9、莊7停牌** 為例
# （「發牌依序閒2、莊3、閒3、莊4」，閒家第三張 4）：

# %%
bcr001 = bk.play("2 3 3 4 4")
print(bcr001.explain())

# %% [markdown]
# 第 1 行先查例牌（沒有），第 2 行才輪到閒家，第 3 行最後才是莊家。每一步都有規則編號（rule id）：

# %%
[(step.who, step.action, step.rule) for step in bcr001.steps]

# %% [markdown]
# ## 2. 閒家規則：0～5 補牌、6～7 停牌
#
# 000 的閒家補牌表：
#
# | 閒家首兩張點數 | 處理 |
# |---|---|
# | 0～5 | 補一張 |
# | 6～7 | 停牌 |
# | 8～9 | 自然牌，雙方通常停止補牌 |
#
# 同一張表，由引擎逐點回答（`bk.player_draws(total)` 與 `bk.player_rule(total)`；8、9 用 `bk.is_natural`）：

# %%
def player_row(total):
    if bk.is_natural(total):
        return [total, "例牌（Natural）：雙方都不補", "—"]
    return [total, bk.display.decision(bk.player_draws(total)), bk.player_rule(total)]


bk.display.table(["閒家首兩張點數 (player total)", "閒家處理 (decision)", "規則編號 (rule)"], [player_row(t) for t in range(10)])

# %% [markdown]
# 002：「閒家的判斷比莊家簡單，不需要查看莊家點數才決定自己是否補牌。」
# 所以 `bk.player_draws` 只需要閒家自己的點數。

# %% [markdown]
# ## 3. 範例1：閒家5點
#
# 000 的**範例1**：
#
# > 首兩張5點 → 閒家依規則補第三張牌 → 待第三張牌揭示後，再依莊家原點數對照莊家補牌表。
#
# 來源只給了閒家的點數 5，沒有給牌，所以這裡只問引擎閒家那一步：

# %%
bk.player_draws(5), bk.player_rule(5)

# %% [markdown]
# 002 強調：「如果閒家首兩張是 5 點，不是問下注者『想不想再要一張』；規則直接要求閒家取得第三張牌。」

# %% [markdown]
# ## 4. 「閒家 5 點 → 補第三張」
#
# 003 的例子：
#
# > 起手 2 + 3 = 5,補到 7 後,最後點數是 (2 + 3 + 7) 的個位數 = 2 點。
#
# 003 只給了閒家的三張牌，沒有給莊家的牌，所以用 `bk.hand_total` 與 `bk.player_draws` 一步一步算：

# %%
start = bk.hand_total("2 3")
start, bk.player_draws(start), bk.hand_total("2 3 7")

# %% [markdown]
# 補到 7 之後閒家反而只剩 2 點：補第三張牌不代表一定變好（000：「補第三張牌不代表一定提高勝率。」）。

# %% [markdown]
# ## 5. 牌例五：閒家7點停牌，莊家5點
#
# 001 的**牌例五**：
#
# > - 閒家起手：3＋4＝7點，因此閒家停牌。
# > - 閒家第三張：不存在。
# > - 莊家起手：A＋4＝5點。
# > - 莊家判斷：閒家沒有補牌時，莊家0～5點補、6～7點停。
# >
# > 結果：莊家補第三張牌。
#
# 逐步問引擎。閒家停牌，所以莊家查表時「閒家第三張」是 `None`（沒有第三張）：

# %%
player = bk.hand_total("3 4")
banker = bk.hand_total("A 4")
bk.display.table(
    ["誰 (who)", "點數 (total)", "決定 (decision)", "規則編號 (rule)"],
    [
        ["閒家", player, bk.display.decision(bk.player_draws(player)), bk.player_rule(player)],
        ["莊家", banker, bk.display.decision(bk.banker_draws(banker, None)),
         bk.banker_rule(banker, None)],
    ],
)

# %% [markdown]
# 001 沒有說莊家補到哪一張，所以不能把這一局跑完。拿來源給的四張牌（閒3、莊A、閒4、莊4）去跑，
# 引擎會說還缺一張莊家的第三張牌，而不是自己編一張：

# %%
try:
    bk.play("3 A 4 4")
except bk.NotEnoughCards as err:
    print(err)

# %% [markdown]
# 003 的流程示意也是同一種情況：「此例閒家 7 點停牌,莊家 5 點補一張。」
# 它的**牌例 A**（閒家停，莊家補）給了莊家的牌：「莊家 5 點補到 8,最後莊家 (2 + 3 + 8) = 3 點。閒家 7 點獲勝。」

# %%
bk.hand_total("2 3"), bk.hand_total("2 3 8")

# %% [markdown]
# ## 6. BCR-006：閒家停牌，沒有「閒第三張」
#
# 000 的 **BCR-006｜閒不補：改走莊0～5分支**（依據：Pennsylvania Code §631a.11）
#
# > 已知條件：閒2+4=6；莊2+3=5。
# > - 無自然牌；閒6停牌，因此沒有「閒第三張」。
# > - 莊5要補；取得2後7；莊7＞閒6。
# >
# > 結果與理由：莊勝；不可拿閒最後6當第三張牌值。
#
# 發牌順序：閒2、莊2、閒4、莊3，莊家第三張 2：

# %%
bcr006 = bk.play("2 2 4 3 2")
bk.display.trace_table(bcr006)

# %% [markdown]
# **只改一個條件**：「只把莊第二張3改4：莊6，雙方均停牌，6:6和局；原本要補的2不發。」

# %%
bcr006_variant = bk.play("2 2 4 4 2")
bk.display.coups_table([("BCR-006", bcr006), ("BCR-006 只改一個條件", bcr006_variant)])

# %% [markdown]
# 閒家兩局都是 6 點停牌：閒家的決定只看閒家自己的點數。變的是莊家那一步（下一課的主題）。

# %%
[step.rule for step in bcr006.steps], [step.rule for step in bcr006_variant.steps]

# %% [markdown]
# ## 7. 動手試試：手牌組合器（HandBuilder）
#
# 預設是 BCR-006（閒2、莊2、閒4、莊3，莊家第三張 2）。換掉閒家的牌，看閒家 0～5 點與 6～7 點時，步驟說明怎麼變；
# 每一步都寫出規則編號 和理由。

# %%
from IPython.display import HTML

hand = bk.widgets.HandBuilder("2 2 4 3 2")
hand

# %% [markdown]
# 下面這格用**另一個**組合器（不顯示，上面那個仍停在 BCR-006）做 BCR-006 的「只改一個條件」：莊第二張 3 改成 4。閒家照樣 6 點停牌，變的是莊家：

# %%
demo = bk.widgets.HandBuilder("2 2 4 3 2")
demo.card_b2.value = "4"
HTML(demo.steps.value + demo.changes.value)

# %% [markdown]
# ## 8. 自我檢測（self-check）
#
# 題目是課程資料裡的一組題（`Quiz.lesson("03")`），每一題的正確答案都在建立測驗時由規則引擎算出，這一格看不到答案。
# 每題以**第一次提交**的答案計分；答錯時會看到正確答案與它對應的常見誤解，之後再交不再計分。做完會有總結，按「重新開始」可以再做一次。

# %%
quiz = bk.widgets.Quiz.lesson("03")
quiz

# %% [markdown]
# ## 下一步（what next）
#
# * 下一課：[第 4 課　莊家補牌規則](04-banker-rule.ipynb)
# * 本課的練習：[練習 02　例牌與閒家規則](../exercises/02-naturals-player.ipynb)（在自己的副本裡作答，`check("q1")` 立刻回饋）
# * 不寫程式的練習：[補牌訓練器（trainer）](../trainer/trainer.ipynb)
# * 回到[課程地圖](00-how-to-use.ipynb)
