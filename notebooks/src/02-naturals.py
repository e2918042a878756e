# %% [markdown]
# # 第 2 課　例牌／天牌（Natural 8、Natural 9）
#
# 上一課學會了算點數。這一課學每一局的**第一個判斷**：首兩張有沒有例牌（Natural，也叫天牌、自然牌）。
#
# 本課依據的來源頁：
#
# | 頁 | 內容 | 規則依據（rules basis） |
# |---|---|---|
# | 000「百家樂補牌規則」 | 自然牌定義、範例5、BCR-008、BCR-004／BCR-005、自己判斷 | Pennsylvania Code §631a.11；Singapore GRA Commission Baccarat (RWS) Game Rules v4 |
# | 001 DG 百家樂第三張牌 | 例牌（Natural，部分玩家也稱天牌）、閒 4 和 4 的例子 | Singapore GRA Baccarat Game Rules |
# | 002 HKCash 第三張牌矩陣 | Natural → 閒家 → 莊家 | Massachusetts Gaming Commission, Baccarat 4.11.2024 |
# | 003 Taiwan Baccarat 規則書 | 自然牌只看起手兩張、牌例 D | 標準 Punto Banco |
# | 004 新手規則總覽 | 天牌（Natural 8 或 9）、天王 | （未列規則依據） |
#
# > 本課是規則教育，不是下注建議。

# %%
import baccarat_kit as bk

bk.set_language("zh")

# %% [markdown]
# ## 1. 什麼是例牌（Natural）
#
# 000：「莊或閒首兩張合計為 8 或 9 時稱為自然牌，通常兩方都停止補牌並直接比較結果。」
#
# 001：「如果閒家或莊家的起手兩張牌合計8或9點，這種情況稱為例牌（Natural，部分玩家也稱天牌）。例牌成立後，雙方都停止補牌，直接比較點數。」
#
# 004：「其中 9 點是最高的天牌，俗稱『天王』；8 點次之。」
#
# 哪些首兩張點數是例牌？問引擎（`bk.is_natural`），不用自己記：

# %%
bk.display.table(
    ["首兩張點數 (first-two-card total)", "例牌？(natural?)"],
    [[t, "是（例牌）" if bk.is_natural(t) else "否"] for t in range(10)],
)

# %% [markdown]
# 001 特別提醒：「6或7點並不是例牌。」表中 6、7 也顯示「否」。

# %% [markdown]
# ## 2. 例牌一出現，雙方都不補牌（both hands stop）
#
# 001 的例子：「例如閒家拿到4和4，合計8點；即使莊家只有2點，莊家也不會再拿第三張牌。這項規則的優先順序最高……」
#
# 來源只給了閒家的牌（4、4）和莊家的點數（2），沒有給莊家的牌，所以這裡只算閒家：

# %%
bk.hand_total("4 4"), bk.is_natural(bk.hand_total("4 4"))

# %% [markdown]
# 002 的順序表說：「任一方首兩張是不是 8 或 9？是 → Natural，雙方不再補牌。」
# 而且「如果首兩張已形成 Natural 8 或 9，就不應再拿莊家 3、4、5、6 點矩陣繼續判斷第三張牌。」
#
# 引擎也是這樣：拿例牌點數去問補牌表，它會拒絕並說明原因（`bk.RuleError`；這裡印出英文訊息 `err.message("en")`）：

# %%
for ask in (lambda: bk.player_draws(8), lambda: bk.banker_draws(9, None)):
    try:
        ask()
    except bk.RuleError as err:
        print(type(err).__name__, "—", err.message("en"))

# %% [markdown]
# 000 的**範例5：自然8或自然9**
#
# > 「任一方首兩張為自然8或自然9 → 通常雙方停止補牌 → 直接依當桌規則比較與結算。」
#
# 一局完整的牌用 `bk.play(...)` 來跑。引擎按**發牌順序**讀牌：閒 1、莊 1、閒 2、莊 2，再來才是第三張牌
# （000 的 BCR-001 寫明「發牌依序閒2、莊3、閒3、莊4」）。
#
# 000 **BCR-001 的「只改一個條件」**：「只把莊第二張4改成5：莊3+5=8為天牌；閒停在5，不能補4，莊勝」。
# 牌依序是 閒2、莊3、閒3、莊5，牌靴下一張是 4：

# %%
coup = bk.play("2 3 3 5 4")
bk.display.trace_table(coup)

# %% [markdown]
# 閒家只有 5 點，本來 0～5 點要補牌，但莊家首兩張已是例牌 8，所以那張 4 **沒有發出**（`coup.unused`）：

# %%
coup.natural, coup.unused

# %% [markdown]
# ## 3. BCR-008：兩邊都是例牌，也不是自動和局
#
# 000 的 **BCR-008｜兩邊自然牌不再發第三張**（依據：Pennsylvania Code §631a.11）
#
# > 已知條件：閒4+4=8；莊4+5=9。
# > - 首兩張已有自然8與9，立即停止補牌。
# > - 比較莊9＞閒8；自然牌不是自動和局。
# >
# > 結果與理由：莊勝；不需要也不可以把牌靴下一張算進去。
#
# 發牌順序是 閒4、莊4、閒4、莊5：

# %%
bcr008 = bk.play("4 4 4 5")
bk.display.trace_table(bcr008)

# %% [markdown]
# **只改一個條件**：「只把莊第二張5改4：雙方自然8，結果和局；停止補牌規則不變。」
#
# 把兩局並排，看清楚：兩邊都停牌的規則一樣，輸贏仍然**比點數**。

# %%
bcr008_variant = bk.play("4 4 4 4")
bk.display.coups_table([("BCR-008", bcr008), ("BCR-008 只改一個條件", bcr008_variant)])

# %% [markdown]
# 003 的**牌例 D｜自然牌直接結束**也是同一件事：「因閒家起手自然 9 點,雙方不補牌,直接判定閒家獲勝。」
# （003 只給點數——閒家自然 9 點、莊家 7 點——沒有給牌，所以這裡不發牌。）

# %% [markdown]
# ## 4. 補牌後的 8、9 不是例牌
#
# 003：「注意:自然牌只看『起手兩張』。如果補第三張後湊到 8 或 9 點,不叫自然牌。」
# 000：「第三張後的8／9不是天牌。」
#
# 000 的 **BCR-004｜莊5：第三張3與4的邊界**，它的「只改一個條件」：
#
# > 已知條件：閒A+2=3；莊2+3=5。……只把閒第三張3改4：閒7；莊5遇4須補，若取得3則莊8勝。**這個8是補牌後結果，不是天牌。**
#
# 發牌順序：閒A、莊2、閒2、莊3，閒家第三張 4，莊家第三張 3：

# %%
bcr004_variant = bk.play("A 2 2 3 4 3")
bk.display.trace_table(bcr004_variant)

# %% [markdown]
# 莊家最後 8 點，但引擎記錄這一局**沒有**例牌（`natural` 是 `False`）：8 是第三張牌補出來的。

# %%
bcr004_variant.banker_total, bcr004_variant.natural

# %% [markdown]
# 反過來也一樣。000 的 **BCR-005**：閒A+2=3；莊2+4=6；「閒補5後8；莊6遇第三張5停牌。」
# 理由是「不能因閒補成8就反過來稱天牌、跳過莊家查表。」——莊家仍然照表判斷：

# %%
bcr005 = bk.play("A 2 2 4 5")
bk.display.trace_table(bcr005)

# %% [markdown]
# ## 5. 小結
#
# | 問題 | 答案 | 引擎 |
# |---|---|---|
# | 什麼是例牌？ | 首兩張合計 8 或 9 | `bk.is_natural(total)` |
# | 例牌出現後？ | 雙方都不補牌，直接比點數 | `bk.play(...)` 的第一步 `natural-…` |
# | 兩邊都是例牌？ | 照樣比點數，9 勝 8；同點才和局 | `coup.winner` |
# | 補牌後的 8、9？ | 不是例牌 | `coup.natural` |

# %% [markdown]
# ## 6. 動手試試：手牌組合器（HandBuilder）
#
# 預設是 BCR-008（閒4、莊4、閒4、莊5）。改任何一張牌，組合器會重新跑一次規則，逐步說明，並標出哪些結果「變了」。
# 試試：讓閒家首兩張變成 9 點；或讓某一方在**補牌後**才到 8 點，看看引擎是否把它當成例牌。

# %%
from IPython.display import HTML

hand = bk.widgets.HandBuilder("4 4 4 5")
hand

# %% [markdown]
# 下面這格用**另一個**組合器（不顯示，上面那個仍停在 BCR-008）做 BCR-008 的「只改一個條件」：把莊第二張 5 改成 4。組合器說明結果從莊勝變成和局：

# %%
demo = bk.widgets.HandBuilder("4 4 4 5")
demo.card_b2.value = "4"
HTML(demo.winner.value + "<br>" + demo.changes.value)

# %% [markdown]
# ## 7. 自我檢測（self-check）
#
# 題目是課程資料裡的一組題（`Quiz.lesson("02")`），每一題的正確答案都在建立測驗時由規則引擎算出，這一格看不到答案。
# 每題以**第一次提交**的答案計分；答錯時會看到正確答案與它對應的常見誤解，之後再交不再計分。做完會有總結，按「重新開始」可以再做一次。

# %%
quiz = bk.widgets.Quiz.lesson("02")
quiz

# %% [markdown]
# ## 下一步（what next）
#
# * 下一課：[第 3 課　閒家補牌規則](03-player-rule.ipynb)
# * 本課的練習：[練習 02　例牌與閒家規則](../exercises/02-naturals-player.ipynb)（在自己的副本裡作答，`check("q1")` 立刻回饋）
# * 不寫程式的練習：[補牌訓練器（trainer）](../trainer/trainer.ipynb)
# * 回到[課程地圖](00-how-to-use.ipynb)
