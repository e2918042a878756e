# %% [markdown] lang=zh
# # 第 3 課　閒家補牌規則（Player third-card rule）
#
# 沒有例牌（Natural）時，先看閒家（Player）要不要補第三張牌（third card）：由固定的補牌表決定，不是閒家、下注者或荷官決定。這是每一局的第二步。
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
#
# > 本課教的是標準百家樂。000：「先確認畫面是否標示標準百家樂或特殊變體，因為變體可能改變牌數、傭金或和局處理方式。」（見第 2 課〈先確認：標準百家樂還是變體〉）

# %% [markdown] lang=en
# # Lesson 3 — The player's third-card rule
#
# When there is no natural, the player's hand comes first: the fixed drawing table says whether it takes a third card. Nobody decides: not the player, the bettor or the dealer. This is the second step of every coup.
#
# The source pages of this lesson:
#
# | Page | What it gives | Rules it cites |
# |---|---|---|
# | 000 「百家樂補牌規則」 (translation: "Baccarat drawing rules") | the player's drawing table, example 1, BCR-001, BCR-006 | Pennsylvania Code §631a.11; Singapore GRA Commission Baccarat (RWS) Game Rules v4 |
# | 001 DG, baccarat's third card | the three steps in order (natural → player → banker), card example 5 | Singapore GRA Baccarat Game Rules |
# | 002 HKCash, the third-card matrix | natural → player → banker, an order that cannot be reversed | Massachusetts Gaming Commission, Baccarat 4.11.2024 |
# | 003 Taiwan Baccarat rule book | "player 5 → draws a third card", player 7 and banker 5 | standard Punto Banco |
#
# > This lesson is rules education, not betting advice: drawing is decided by the rules, not chosen by the bettor.
#
# > This lesson teaches standard baccarat. 000: 「先確認畫面是否標示標準百家樂或特殊變體，因為變體可能改變牌數、傭金或和局處理方式。」 (translation: "first check whether the screen says standard baccarat or a special variant, because a variant may change the number of cards, the commission or how ties are handled"; see lesson 2, "First check: standard baccarat or a variant").

# %%
import baccarat_kit as bk
from baccarat_kit.i18n import message

LANG = bk.set_language(EDITION_LANG)

# %% [markdown] lang=zh
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

# %% [markdown] lang=en
# ## 1. Three steps in order: natural → player → banker
#
# 001 puts the whole decision in a fixed order:
#
# > - 先看例牌：任何一方起手兩張牌合計8或9點，雙方都不再補牌。
# > - 再看閒家：沒有例牌時，閒家0～5點補牌，6～7點停牌。
# > - 最後看莊家：如果閒家停牌，莊家只看自己的點數；如果閒家已補第三張，莊家還要把閒家第三張牌納入判斷。
# >
# > 這個順序不能顛倒。
# >
# > *Translation:* "First the natural: if either hand's first two cards total 8 or 9, neither hand draws again. Then the player: without a natural, the player draws on 0–5 and stands on 6–7. Last the banker: if the player stood, the banker looks only at its own total; if the player drew a third card, the banker must also take that card into account. This order cannot be reversed."
#
# 002 also says: 「Natural → 閒家 → 莊家，次序不能倒轉」 (translation: "natural → player → banker; the order cannot be reversed").
#
# When the engine plays a coup it records every step in this order (`bk.play(...).steps`). Take 000's **BCR-001 「閒5補到9、莊7停牌」** (translation: "player 5 draws to 9, banker 7 stands";
# 「發牌依序閒2、莊3、閒3、莊4」, translation: "dealt in order player 2, banker 3, player 3, banker 4"; the player's third card is 4):

# %%
bcr001 = bk.play("2 3 3 4 4")
print(bcr001.explain())

# %% [markdown] lang=zh
# 第 1 行先查例牌（沒有），第 2 行才輪到閒家，第 3 行最後才是莊家。每一步都有規則編號（rule id）：

# %% [markdown] lang=en
# Line 1 checks for a natural first (there is none), line 2 is the player's turn, and only line 3 the banker's. Every step has a rule id:

# %%
[(step.who, step.action, step.rule) for step in bcr001.steps]

# %% [markdown] lang=zh
# ### 畫面的先後不是誰先決定
#
# 看直播或電子桌時，畫面出現的順序可能不是這個順序。001：「觀看真人牌局時，牌面掃描、翻牌動畫或畫面資訊出現的先後，可能讓人誤以為莊家先做了決定。」
# 它的判斷方式是：「我判斷時不會只看動畫順序，而是確認每張牌屬於閒家還是莊家，並依固定流程判斷。」
# 「標準流程仍是：先處理兩邊起手牌、檢查例牌，再決定閒家第三張牌，最後決定莊家第三張牌。」
#
# 所以畫面先亮出莊家的牌，不代表莊家先「決定」了什麼：沒有人在決定，是補牌表決定；引擎記下的步驟永遠是上面這個順序。
# 同一局 BCR-001，不論畫面怎麼呈現，步驟的先後都一樣（`who` 欄）：

# %% [markdown] lang=en
# ### The order on screen is not who decided first
#
# On a live or electronic table the screen may not show things in this order. 001: 「觀看真人牌局時，牌面掃描、翻牌動畫或畫面資訊出現的先後，可能讓人誤以為莊家先做了決定。」
# (translation: "when watching a live coup, the order in which card scans, flip animations or on-screen information appear can make it look as if the banker decided first.")
# Its way of reading a coup: 「我判斷時不會只看動畫順序，而是確認每張牌屬於閒家還是莊家，並依固定流程判斷。」 (translation: "I do not go by the order of the animation; I check whether each card belongs to the player or the banker and follow the fixed order.")
# 「標準流程仍是：先處理兩邊起手牌、檢查例牌，再決定閒家第三張牌，最後決定莊家第三張牌。」 (translation: "the standard order is still: first both hands' starting cards and the natural check, then the player's third card, and last the banker's third card.")
#
# So a screen that shows the banker's cards first does not mean the banker "decided" anything: nobody decides, the drawing table does, and the steps the engine records always come in the order above.
# The same coup BCR-001 has its steps in the same order however a screen shows it (the `who` column):

# %%
[step.who for step in bcr001.steps]

# %% [markdown] lang=zh
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

# %% [markdown] lang=en
# ## 2. The player rule: draw on 0–5, stand on 6–7
#
# 000's drawing table for the player (translated):
#
# | Player's first-two-card total | Action |
# |---|---|
# | 0–5 | draws one card |
# | 6–7 | stands |
# | 8–9 | a natural; usually both hands stop drawing |
#
# The same table, answered total by total by the engine (`bk.player_draws(total)` and `bk.player_rule(total)`; 8 and 9 with `bk.is_natural`):

# %%
def player_row(total):
    if bk.is_natural(total):
        return [total, message("nb.natural-both-stand"), "—"]
    return [total, bk.display.decision(bk.player_draws(total)), bk.player_rule(total)]


bk.display.table([message(f"nb.col.{col}") for col in ("player-total", "player-decision", "rule")],
                 [player_row(t) for t in range(10)])

# %% [markdown] lang=zh
# 002：「閒家的判斷比莊家簡單，不需要查看莊家點數才決定自己是否補牌。」
# 所以 `bk.player_draws` 只需要閒家自己的點數。

# %% [markdown] lang=en
# 002: 「閒家的判斷比莊家簡單，不需要查看莊家點數才決定自己是否補牌。」 (translation: "judging the player's hand is simpler than the banker's: you need not look at the banker's total to know whether the player draws.")
# So `bk.player_draws` needs only the player's own total.

# %% [markdown] lang=zh
# ## 3. 範例1：閒家5點
#
# 先猜：閒家首兩張 5 點，補牌還是停牌？

# %% [markdown] lang=en
# ## 3. Example 1: the player has 5
#
# Predict first: the player's first two cards make 5. Does the player draw or stand?

# %%
bk.widgets.Predict("000-EX-1", lang=LANG, record="03")

# %% [markdown] lang=zh
# 000 的**範例1**：
#
# > 首兩張5點 → 閒家依規則補第三張牌 → 待第三張牌揭示後，再依莊家原點數對照莊家補牌表。
#
# 來源只給了閒家的點數 5，沒有給牌，所以這裡只問引擎閒家那一步：

# %% [markdown] lang=en
# 000's **example 1**:
#
# > 首兩張5點 → 閒家依規則補第三張牌 → 待第三張牌揭示後，再依莊家原點數對照莊家補牌表。
# >
# > *Translation:* "First two cards total 5 → the player draws a third card by the rule → once the third card is shown, the banker's original total is looked up in the banker's drawing table."
#
# The source gives only the player's total, 5, and no cards, so only the player's step is asked of the engine:

# %%
bk.player_draws(5), bk.player_rule(5)

# %% [markdown] lang=zh
# 002 強調：「如果閒家首兩張是 5 點，不是問下注者『想不想再要一張』；規則直接要求閒家取得第三張牌。」

# %% [markdown] lang=en
# 002 stresses: 「如果閒家首兩張是 5 點，不是問下注者『想不想再要一張』；規則直接要求閒家取得第三張牌。」 (translation: "if the player's first two cards make 5, nobody asks the bettor whether they want another card; the rule simply requires the player to take a third card.")

# %% [markdown] lang=zh
# ## 4. 「閒家 5 點 → 補第三張」
#
# 003 的例子：
#
# > 起手 2 + 3 = 5,補到 7 後,最後點數是 (2 + 3 + 7) 的個位數 = 2 點。
#
# 003 只給了閒家的三張牌，沒有給莊家的牌，所以用 `bk.hand_total` 與 `bk.player_draws` 一步一步算：

# %% [markdown] lang=en
# ## 4. "Player 5 → draws a third card"
#
# 003's example:
#
# > 起手 2 + 3 = 5,補到 7 後,最後點數是 (2 + 3 + 7) 的個位數 = 2 點。
# >
# > *Translation:* "Starting with 2 + 3 = 5 and drawing a 7, the final total is the last digit of (2 + 3 + 7) = 2."
#
# 003 gives only the player's three cards, not the banker's, so `bk.hand_total` and `bk.player_draws` work it out step by step:

# %%
start = bk.hand_total("2 3")
start, bk.player_draws(start), bk.hand_total("2 3 7")

# %% [markdown] lang=zh
# 補到 7 之後閒家反而只剩 2 點：補第三張牌不代表一定變好（000：「補第三張牌不代表一定提高勝率。」）。

# %% [markdown] lang=en
# With the 7 the player ends on only 2: drawing a third card does not mean the hand gets better (000: 「補第三張牌不代表一定提高勝率。」, translation: "drawing a third card does not necessarily raise the chance of winning").

# %% [markdown] lang=zh
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

# %% [markdown] lang=en
# ## 5. Card example 5: the player stands on 7, the banker has 5
#
# 001's **card example 5**:
#
# > - 閒家起手：3＋4＝7點，因此閒家停牌。
# > - 閒家第三張：不存在。
# > - 莊家起手：A＋4＝5點。
# > - 莊家判斷：閒家沒有補牌時，莊家0～5點補、6～7點停。
# >
# > 結果：莊家補第三張牌。
# >
# > *Translation:* "Player starts: 3 + 4 = 7, so the player stands. Player's third card: none. Banker starts: A + 4 = 5. Banker's decision: when the player has not drawn, the banker draws on 0–5 and stands on 6–7. Result: the banker draws a third card."
#
# Ask the engine step by step. The player stood, so when the banker looks up the table, the "player's third card" is `None` (there is none):

# %%
player = bk.hand_total("3 4")
banker = bk.hand_total("A 4")
bk.display.table(
    [message(f"nb.col.{col}") for col in ("who", "total", "decision", "rule")],
    [
        [message("who.player"), player, bk.display.decision(bk.player_draws(player)), bk.player_rule(player)],
        [message("who.banker"), banker, bk.display.decision(bk.banker_draws(banker, None)),
         bk.banker_rule(banker, None)],
    ],
)

# %% [markdown] lang=zh
# 001 沒有說莊家補到哪一張，所以不能把這一局跑完。拿來源給的四張牌（閒3、莊A、閒4、莊4）去跑，
# 引擎會說還缺一張莊家的第三張牌，而不是自己編一張：

# %% [markdown] lang=en
# 001 does not say which card the banker draws, so the coup cannot be played to the end. Given the four cards the source does give (player 3, banker A, player 4, banker 4),
# the engine says a banker third card is missing, rather than making one up:

# %%
try:
    bk.play("3 A 4 4")
except bk.NotEnoughCards as err:
    print(err)

# %% [markdown] lang=zh
# 003 的流程示意也是同一種情況：「此例閒家 7 點停牌,莊家 5 點補一張。」
# 它的**牌例 A**（閒家停，莊家補）給了莊家的牌：「莊家 5 點補到 8,最後莊家 (2 + 3 + 8) = 3 點。閒家 7 點獲勝。」

# %% [markdown] lang=en
# 003's walk-through of a coup is the same situation: 「此例閒家 7 點停牌,莊家 5 點補一張。」 (translation: "here the player stands on 7 and the banker draws one card on 5.")
# Its **card example A** (the player stands, the banker draws) gives the banker's cards: 「莊家 5 點補到 8,最後莊家 (2 + 3 + 8) = 3 點。閒家 7 點獲勝。」
# (translation: "the banker draws an 8 on 5 and ends on (2 + 3 + 8) = 3. The player wins with 7.")

# %%
bk.hand_total("2 3"), bk.hand_total("2 3 8")

# %% [markdown] lang=zh
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

# %% [markdown] lang=en
# ## 6. BCR-006: the player stands, there is no "player's third card"
#
# 000's **BCR-006 「閒不補：改走莊0～5分支」** (translation: "the player does not draw: the banker takes the 0–5 branch"; basis: Pennsylvania Code §631a.11)
#
# > 已知條件：閒2+4=6；莊2+3=5。
# > - 無自然牌；閒6停牌，因此沒有「閒第三張」。
# > - 莊5要補；取得2後7；莊7＞閒6。
# >
# > 結果與理由：莊勝；不可拿閒最後6當第三張牌值。
# >
# > *Translation:* "Given: player 2+4 = 6; banker 2+3 = 5. No natural; the player stands on 6, so there is no 'player's third card'. Banker 5 must draw; with a 2 it makes 7; banker 7 > player 6. Result and reason: banker wins; the player's final 6 must not be used as a third-card value."
#
# Deal order: player 2, banker 2, player 4, banker 3, banker's third card 2:

# %%
bcr006 = bk.play("2 2 4 3 2")
bk.display.trace_table(bcr006)

# %% [markdown] lang=zh
# **只改一個條件**：「只把莊第二張3改4：莊6，雙方均停牌，6:6和局；原本要補的2不發。」

# %% [markdown] lang=en
# **Change one condition**: 「只把莊第二張3改4：莊6，雙方均停牌，6:6和局；原本要補的2不發。」 (translation: "only the banker's second card changes from 3 to 4: banker 6, both hands stand, a 6:6 tie; the 2 that would have been drawn is not dealt.")

# %%
bcr006_variant = bk.play("2 2 4 4 2")
bk.display.coups_table([("BCR-006", bcr006), (message("nb.variant-label", case="BCR-006"), bcr006_variant)])

# %% [markdown] lang=zh
# 閒家兩局都是 6 點停牌：閒家補不補，只看閒家自己的點數。變的是莊家那一步（下一課的主題）。

# %% [markdown] lang=en
# In both coups the player stands on 6: whether the player's hand draws depends only on its own total. What changes is the banker's step (the next lesson's subject).

# %%
[step.rule for step in bcr006.steps], [step.rule for step in bcr006_variant.steps]

# %% [markdown] lang=zh
# ## 7. 動手試試：手牌組合器（HandBuilder）
#
# 預設是 BCR-006（閒2、莊2、閒4、莊3，莊家第三張 2）。換掉閒家的牌，看閒家 0～5 點與 6～7 點時，步驟說明怎麼變；
# 每一步都寫出規則編號和理由。

# %% [markdown] lang=en
# ## 7. Try it: the hand builder (HandBuilder)
#
# It starts on BCR-006 (player 2, banker 2, player 4, banker 3, banker's third card 2). Change the player's cards and see how the explanation of the steps changes for a player 0–5 and 6–7;
# every step gives its rule id and reason.

# %%
from IPython.display import HTML

hand = bk.widgets.HandBuilder("2 2 4 3 2", lang=LANG)
hand

# %% [markdown] lang=zh
# 下面這格用**另一個**組合器（不顯示，上面那個仍停在 BCR-006）做 BCR-006 的「只改一個條件」：莊第二張 3 改成 4。閒家照樣 6 點停牌，變的是莊家：

# %% [markdown] lang=en
# The cell below uses **another** builder (hidden; the one above stays on BCR-006) for BCR-006's "change one condition": the banker's second card 3 becomes 4. The player still stands on 6; what changes is the banker:

# %%
demo = bk.widgets.HandBuilder("2 2 4 3 2", lang=LANG)
demo.card_b2.value = "4"
HTML(demo.steps.value + demo.changes.value)

# %% [markdown] lang=zh
# ## 8. 自我檢測（self-check）
#
# 題目是課程資料裡的一組題（`Quiz.lesson("03")`），每一題的正確答案都在建立測驗時由規則引擎算出，這一格看不到答案。
# 每題以**第一次提交**的答案計分；答錯時會看到正確答案和為什麼；你選的選項是某個常見誤解時，也會點出是哪一個。之後再交不再計分。做完會有總結，按「重新開始」可以再做一次。

# %% [markdown] lang=en
# ## 8. Self-check
#
# The questions are a named question set in the course data (`Quiz.lesson("03")`); every correct answer is computed by the rules engine when the quiz is built, so this cell shows no answer.
# Each question is scored on the **first answer submitted**; a wrong answer shows the correct one and why (and names the common misconception when the option you chose is one), and answers after that no longer count. At the end there is a summary, and "start again" resets the quiz.

# %%
quiz = bk.widgets.Quiz.lesson("03", lang=LANG)
quiz

# %% [markdown] lang=zh
# ## 下一步（what next）
#
# * 下一課：[第 4 課　莊家補牌規則](04-banker-rule.ipynb)
# * 本課的練習：[練習 02　例牌與閒家規則](../exercises/02-naturals-player.ipynb)（在自己的副本裡作答，`check("q1")` 立刻回饋）
# * 不寫程式的練習：[補牌訓練器（trainer）](../trainer/trainer.ipynb)
# * 一頁規則速查表（可列印，中英對照）：[cheat-sheet](../docs/cheat-sheet.html)
# * 回到[課程地圖](00-how-to-use.ipynb)

# %% [markdown] lang=en
# ## What next
#
# * Next lesson: [Lesson 4 The banker's third-card rule](04-banker-rule.ipynb)
# * This lesson's exercise: [Exercise 02 Naturals and the player rule](../../exercises/en/02-naturals-player.ipynb) (answer in your own copy; `check("q1")` gives instant feedback)
# * Practice without code: [the drawing trainer](../../trainer/trainer.ipynb)
# * The one-page rules cheat-sheet (printable, both languages): [cheat-sheet](../../docs/cheat-sheet.html)
# * Back to the [course map](00-how-to-use.ipynb)
