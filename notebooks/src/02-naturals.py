# %% [markdown] lang=zh
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

# %% [markdown] lang=en
# # Lesson 2 — Naturals (natural 8, natural 9)
#
# The last lesson taught how to count a total. This one teaches the **first decision** of every coup: do the first two cards make a natural?
# (The sources also call it 「天牌」 or 「自然牌」; translation: "heaven hand", "natural hand".)
#
# The source pages of this lesson:
#
# | Page | What it gives | Rules it cites |
# |---|---|---|
# | 000 「百家樂補牌規則」 (translation: "Baccarat drawing rules") | the definition of a natural, example 5, BCR-008, BCR-004/BCR-005, the self-check | Pennsylvania Code §631a.11; Singapore GRA Commission Baccarat (RWS) Game Rules v4 |
# | 001 DG, baccarat's third card | the natural (some players say 「天牌」, translation: "heaven hand"), the player's 4 and 4 | Singapore GRA Baccarat Game Rules |
# | 002 HKCash, the third-card matrix | natural → player → banker | Massachusetts Gaming Commission, Baccarat 4.11.2024 |
# | 003 Taiwan Baccarat rule book | a natural counts the first two cards only; card example D | standard Punto Banco |
# | 004 beginner's overview | a natural 8 or 9, and 9 nicknamed 「天王」 (translation: "heaven king") | (cites no rules) |
#
# > This lesson is rules education, not betting advice.

# %%
import baccarat_kit as bk
from baccarat_kit.i18n import message

LANG = bk.set_language(EDITION_LANG)

# %% [markdown] lang=zh
# ## 1. 什麼是例牌（Natural）
#
# 000：「莊或閒首兩張合計為 8 或 9 時稱為自然牌，通常兩方都停止補牌並直接比較結果。」
#
# 001：「如果閒家或莊家的起手兩張牌合計8或9點，這種情況稱為例牌（Natural，部分玩家也稱天牌）。例牌成立後，雙方都停止補牌，直接比較點數。」
#
# 004：「其中 9 點是最高的天牌，俗稱『天王』；8 點次之。」
#
# 哪些首兩張點數是例牌？問引擎（`bk.is_natural`），不用自己記：

# %% [markdown] lang=en
# ## 1. What a natural is
#
# 000: 「莊或閒首兩張合計為 8 或 9 時稱為自然牌，通常兩方都停止補牌並直接比較結果。」
# *Translation:* "When the banker's or the player's first two cards total 8 or 9, it is called a natural; usually both hands stop drawing and the result is compared directly."
#
# 001: 「如果閒家或莊家的起手兩張牌合計8或9點，這種情況稱為例牌（Natural，部分玩家也稱天牌）。例牌成立後，雙方都停止補牌，直接比較點數。」
# *Translation:* "If the player's or the banker's first two cards total 8 or 9, it is called a natural (some players also say 'heaven hand'). Once there is a natural, both hands stop drawing and the totals are compared directly."
#
# 004: 「其中 9 點是最高的天牌，俗稱『天王』；8 點次之。」
# *Translation:* "Of these, 9 is the highest natural, commonly called 'heaven king'; 8 comes next."
#
# Which two-card totals are naturals? Ask the engine (`bk.is_natural`) instead of remembering:

# %%
bk.display.table(
    [message("nb.col.first-two-total"), message("nb.col.natural")],
    [[t, message("nb.yes-natural") if bk.is_natural(t) else message("nb.no")] for t in range(10)],
)

# %% [markdown] lang=zh
# 001 特別提醒：「6或7點並不是例牌。」表中 6、7 也顯示「否」。

# %% [markdown] lang=en
# 001 stresses: 「6或7點並不是例牌。」 (translation: "a 6 or a 7 is not a natural.") The table shows "no" for 6 and 7 too.

# %% [markdown] lang=zh
# ### 先確認：標準百家樂還是變體（standard or variant）
#
# 本課到第 4 課教的是**標準百家樂**（standard Punto Banco）的補牌規則。到了一張桌台，它是不是標準版？五個來源各說了不同的話：
#
# 000 要你先確認：「先確認畫面是否標示標準百家樂或特殊變體，因為變體可能改變牌數、傭金或和局處理方式。」
# 000 也說：「不同桌可能採傭金、免傭或不同和局賠付，不能只憑遊戲名稱推定規則。」
#
# 001 整理的是標準流程，並提醒進入遊戲後看當桌規則：「不同桌台可能另有派彩、附加注或介面差異，因此進入遊戲後仍應查看當桌規則，而不能只憑遊戲名稱推定全部條款相同。」
#
# 002 只說它處理的是標準判定，傭金、派彩等要另外讀當桌公布的規則與派彩表：「本頁處理的是標準第三張牌判定。 實際 Online 或 Live Baccarat 的佣金、免佣、附加投注與派彩 仍應另外查看當前遊戲公布的 Rules／Paytable。」
#
# 003 的常見問題：「這些規則適用所有百家樂變體嗎?」答：「本篇以常見的標準 Punto Banco 規則為準。其他變體與特殊玩法可能不同,應以實際規則說明為準。」
#
# 004 沒有提到要確認或查看桌台規則，只說「免水、極速、迷你這些百家樂的桌台變體還有不少差異」。
#
# 引擎的 `bk.play` 用的就是標準規則；到了真實的桌台，先讀那一桌的規則說明。

# %% [markdown] lang=en
# ### First check: standard baccarat or a variant
#
# This lesson and the next two teach the drawing rules of **standard baccarat** (standard Punto Banco). At a table, is it the standard game? The five sources say different things:
#
# 000 says to check first: 「先確認畫面是否標示標準百家樂或特殊變體，因為變體可能改變牌數、傭金或和局處理方式。」
# (translation: "first check whether the screen says standard baccarat or a special variant, because a variant may change the number of cards, the commission or how ties are handled.")
# 000 also says: 「不同桌可能採傭金、免傭或不同和局賠付，不能只憑遊戲名稱推定規則。」 (translation: "tables may use commission, no commission or different tie payouts; the rules cannot be inferred from the game's name alone.")
#
# 001 sets out the standard procedure and says to read the table's own rules once in the game: 「不同桌台可能另有派彩、附加注或介面差異，因此進入遊戲後仍應查看當桌規則，而不能只憑遊戲名稱推定全部條款相同。」
# (translation: "tables may differ in payouts, side bets or interface, so once in the game check the table's own rules, rather than assume from the game's name that all its terms are the same.")
#
# 002 says only that it deals with the standard decision, and that commission, payouts and the like are to be read separately in the rules and paytable the game publishes: 「本頁處理的是標準第三張牌判定。 實際 Online 或 Live Baccarat 的佣金、免佣、附加投注與派彩 仍應另外查看當前遊戲公布的 Rules／Paytable。」
# (translation: "this page deals with the standard third-card decision; the commission, no-commission, additional bets and payouts of an actual online or live baccarat game should still be checked separately in the Rules/Paytable the game publishes.")
#
# 003's FAQ asks 「這些規則適用所有百家樂變體嗎?」 (translation: "do these rules apply to every baccarat variant?") and answers 「本篇以常見的標準 Punto Banco 規則為準。其他變體與特殊玩法可能不同,應以實際規則說明為準。」
# (translation: "this page follows the common standard Punto Banco rules; other variants and special games may differ, and the actual rules as stated prevail.")
#
# 004 says nothing about checking the table or reading its rules; it only notes 「免水、極速、迷你這些百家樂的桌台變體還有不少差異」 (translation: "no-commission, speed and mini tables, these baccarat table variants, still differ in quite a few ways").
#
# The engine's `bk.play` uses the standard rules; at a real table, read that table's own rules first.

# %% [markdown] lang=zh
# ## 2. 例牌一出現，雙方都不補牌（both hands stop）
#
# 001 的例子：「例如閒家拿到4和4，合計8點；即使莊家只有2點，莊家也不會再拿第三張牌。這項規則的優先順序最高……」
#
# 來源只給了閒家的牌（4、4）和莊家的點數（2），沒有給莊家的牌，所以這裡只算閒家：

# %% [markdown] lang=en
# ## 2. Once there is a natural, neither hand draws
#
# 001's example: 「例如閒家拿到4和4，合計8點；即使莊家只有2點，莊家也不會再拿第三張牌。這項規則的優先順序最高……」
# *Translation:* "For example, the player gets 4 and 4, a total of 8; even if the banker has only 2, the banker takes no third card. This rule comes first of all…"
#
# The source gives only the player's cards (4, 4) and the banker's total (2), not the banker's cards, so only the player's hand is worked out here:

# %%
bk.hand_total("4 4"), bk.is_natural(bk.hand_total("4 4"))

# %% [markdown] lang=zh
# 002 的順序表（第 01 列，問題｜結果）：「任一方首兩張是不是 8 或 9？｜是 → Natural，雙方不再補牌。」
# 而且「如果首兩張已形成 Natural 8 或 9，就不應再拿莊家 3、4、5、6 點矩陣繼續判斷第三張牌。」
#
# 引擎也是這樣：拿例牌點數去問補牌表，它會拒絕並說明原因（`bk.RuleError`；這裡印出英文訊息 `err.message("en")`）：

# %% [markdown] lang=en
# 002's table of the order (row 01, question | result): 「任一方首兩張是不是 8 或 9？｜是 → Natural，雙方不再補牌。」 (translation: "Do either hand's first two cards make 8 or 9? Yes → natural, neither hand draws again.")
# And: 「如果首兩張已形成 Natural 8 或 9，就不應再拿莊家 3、4、5、6 點矩陣繼續判斷第三張牌。」 (translation: "If the first two cards already make a natural 8 or 9, the banker 3, 4, 5, 6 matrix must not be used to decide a third card.")
#
# The engine agrees: asked the drawing table about a natural total, it refuses and says why (`bk.RuleError`; the cell prints its message in English, `err.message("en")`):

# %%
for ask in (lambda: bk.player_draws(8), lambda: bk.banker_draws(9, None)):
    try:
        ask()
    except bk.RuleError as err:
        print(type(err).__name__, "—", err.message("en"))

# %% [markdown] lang=zh
# 000 的**範例5：自然8或自然9**
#
# > 「任一方首兩張為自然8或自然9 → 通常雙方停止補牌 → 直接依當桌規則比較與結算。」
#
# 一局完整的牌用 `bk.play(...)` 來跑。引擎按**發牌順序**讀牌：閒 1、莊 1、閒 2、莊 2，再來才是第三張牌
# （000 的 BCR-001 寫明「發牌依序閒2、莊3、閒3、莊4」）。
#
# 000 **BCR-001 的「只改一個條件」**：「只把莊第二張4改成5：莊3+5=8為天牌；閒停在5，不能補4，莊勝」。
# 牌依序是 閒2、莊3、閒3、莊5，牌靴下一張是 4：

# %% [markdown] lang=en
# 000's **example 5: a natural 8 or natural 9**
#
# > 「任一方首兩張為自然8或自然9 → 通常雙方停止補牌 → 直接依當桌規則比較與結算。」
# >
# > *Translation:* "Either hand's first two cards are a natural 8 or natural 9 → usually both hands stop drawing → compare and settle directly by the table's rules."
#
# A whole coup is played with `bk.play(...)`. The engine reads cards in **deal order**: player 1, banker 1, player 2, banker 2, and only then the third cards
# (000's BCR-001 says so: 「發牌依序閒2、莊3、閒3、莊4」, translation: "dealt in order player 2, banker 3, player 3, banker 4").
#
# 000 **BCR-001, "change one condition"**: 「只把莊第二張4改成5：莊3+5=8為天牌；閒停在5，不能補4，莊勝」
# (translation: "only the banker's second card changes from 4 to 5: banker 3+5 = 8 is a natural; the player stays on 5 and cannot draw the 4; banker wins").
# The cards in order are player 2, banker 3, player 3, banker 5, and the next card in the shoe is 4:

# %%
coup = bk.play("2 3 3 5 4")
bk.display.trace_table(coup)

# %% [markdown] lang=zh
# 閒家只有 5 點，本來 0～5 點要補牌，但莊家首兩張已是例牌 8，所以那張 4 **沒有發出**（`coup.unused`）：

# %% [markdown] lang=en
# The player has only 5, and 0–5 would draw, but the banker's first two cards already make a natural 8, so that 4 is **never dealt** (`coup.unused`):

# %%
coup.natural, coup.unused

# %% [markdown] lang=zh
# ## 3. BCR-008：兩邊都是例牌，也不是自動和局
#
# 先猜：發牌依序閒4、莊4、閒4、莊5，這一局誰贏？

# %% [markdown] lang=en
# ## 3. BCR-008: two naturals are not automatically a tie
#
# Predict first: dealt player 4, banker 4, player 4, banker 5. Who wins this coup?

# %%
bk.widgets.Predict("BCR-008", asks="winner", lang=LANG, record="02")

# %% [markdown] lang=zh
# 000 的 **BCR-008｜兩邊自然牌不再發第三張**（依據：Pennsylvania Code §631a.11）
#
# > 已知條件：閒4+4=8；莊4+5=9。
# > - 首兩張已有自然8與9，立即停止補牌。
# > - 比較莊9＞閒8；自然牌不是自動和局。
# >
# > 結果與理由：莊勝；不需要也不可以把牌靴下一張算進去。
#
# 發牌順序是 閒4、莊4、閒4、莊5：

# %% [markdown] lang=en
# 000's **BCR-008 「兩邊自然牌不再發第三張」** (translation: "two naturals: no third card is dealt"; basis: Pennsylvania Code §631a.11)
#
# > 已知條件：閒4+4=8；莊4+5=9。
# > - 首兩張已有自然8與9，立即停止補牌。
# > - 比較莊9＞閒8；自然牌不是自動和局。
# >
# > 結果與理由：莊勝；不需要也不可以把牌靴下一張算進去。
# >
# > *Translation:* "Given: player 4+4 = 8; banker 4+5 = 9. The first two cards already make a natural 8 and 9: drawing stops at once. Compare banker 9 > player 8; naturals are not automatically a tie. Result and reason: banker wins; the next card in the shoe need not and must not be counted."
#
# The deal order is player 4, banker 4, player 4, banker 5:

# %%
bcr008 = bk.play("4 4 4 5")
bk.display.trace_table(bcr008)

# %% [markdown] lang=zh
# **只改一個條件**：「只把莊第二張5改4：雙方自然8，結果和局；停止補牌規則不變。」
#
# 把兩局並排，看清楚：兩邊都停牌的規則一樣，輸贏仍然**比點數**。

# %% [markdown] lang=en
# **Change one condition**: 「只把莊第二張5改4：雙方自然8，結果和局；停止補牌規則不變。」 (translation: "only the banker's second card changes from 5 to 4: both have a natural 8, a tie; the rule that drawing stops does not change.")
#
# The two coups side by side: the rule that both hands stand is the same; who wins is still decided **by comparing totals**.

# %%
bcr008_variant = bk.play("4 4 4 4")
bk.display.coups_table([("BCR-008", bcr008), (message("nb.variant-label", case="BCR-008"), bcr008_variant)])

# %% [markdown] lang=zh
# 003 的**牌例 D|自然牌直接結束**也是同一件事：「因閒家起手自然 9 點,雙方不補牌,直接判定閒家獲勝。」
# （003 只給點數——閒家自然 9 點、莊家 7 點——沒有給牌，所以這裡不發牌。）

# %% [markdown] lang=en
# 003's **card example D 「自然牌直接結束」** (translation: "a natural ends the coup at once") says the same: 「因閒家起手自然 9 點,雙方不補牌,直接判定閒家獲勝。」 (translation: "Because the player starts with a natural 9, neither hand draws, and the player wins at once.")
# (003 gives only totals, a player natural 9 and a banker 7, not the cards, so no cards are dealt here.)

# %% [markdown] lang=zh
# ## 4. 補牌後的 8、9 不是例牌
#
# 先猜：這一局兩邊都補了第三張，誰贏？

# %% [markdown] lang=en
# ## 4. An 8 or 9 after a third card is not a natural
#
# Predict first: both hands draw a third card in this coup. Who wins?

# %%
bk.widgets.Predict("BCR-004-variant", asks="winner", lang=LANG, record="02")

# %% [markdown] lang=zh
# 003：「注意:自然牌只看『起手兩張』。如果補第三張後湊到 8 或 9 點,不叫自然牌。」
# 000：「第三張後的8／9不是天牌。」
#
# 000 的 **BCR-004｜莊5：第三張3與4的邊界**，它的「只改一個條件」：
#
# > 已知條件：閒A+2=3；莊2+3=5。……只把閒第三張3改4：閒7；莊5遇4須補，若取得3則莊8勝。**這個8是補牌後結果，不是天牌。**
#
# 發牌順序：閒A、莊2、閒2、莊3，閒家第三張 4，莊家第三張 3：

# %% [markdown] lang=en
# 003: 「注意:自然牌只看『起手兩張』。如果補第三張後湊到 8 或 9 點,不叫自然牌。」 (translation: "Note: a natural counts only the first two cards. Reaching 8 or 9 after a third card is not called a natural.")
# 000: 「第三張後的8／9不是天牌。」 (translation: "an 8 or 9 after the third card is not a natural.")
#
# 000's **BCR-004 「莊5：第三張3與4的邊界」** (translation: "banker 5: the border between a third card 3 and 4"), its "change one condition":
#
# > 已知條件：閒A+2=3；莊2+3=5。……只把閒第三張3改4：閒7；莊5遇4須補，若取得3則莊8勝。**這個8是補牌後結果，不是天牌。**
# >
# > *Translation:* "Given: player A+2 = 3; banker 2+3 = 5. … Only the player's third card changes from 3 to 4: player 7; banker 5 facing a 4 must draw, and with a 3 the banker wins on 8. **This 8 is the result of a third card, not a natural.**"
#
# Deal order: player A, banker 2, player 2, banker 3, player's third card 4, banker's third card 3:

# %%
bcr004_variant = bk.play("A 2 2 3 4 3")
bk.display.trace_table(bcr004_variant)

# %% [markdown] lang=zh
# 莊家最後 8 點，但引擎記錄這一局**沒有**例牌（`natural` 是 `False`）：8 是第三張牌補出來的。

# %% [markdown] lang=en
# The banker ends on 8, but the engine records **no** natural in this coup (`natural` is `False`): the 8 came with the third card.

# %%
bcr004_variant.banker_total, bcr004_variant.natural

# %% [markdown] lang=zh
# 反過來也一樣。000 的 **BCR-005**：閒A+2=3；莊2+4=6；「閒補5後8；莊6遇第三張5停牌。」
# 理由是「不能因閒補成8就反過來稱天牌、跳過莊家查表。」——莊家仍然照表判斷：

# %% [markdown] lang=en
# It works the other way round too. 000's **BCR-005**: player A+2 = 3; banker 2+4 = 6; 「閒補5後8；莊6遇第三張5停牌。」 (translation: "the player draws a 5 and makes 8; banker 6 facing a third card 5 stands.")
# The reason: 「不能因閒補成8就反過來稱天牌、跳過莊家查表。」 (translation: "the player's drawn 8 cannot be called a natural after the fact to skip the banker's table.") The banker still goes by the table:

# %%
bcr005 = bk.play("A 2 2 4 5")
bk.display.trace_table(bcr005)

# %% [markdown] lang=zh
# ## 5. 小結
#
# | 問題 | 答案 | 引擎 |
# |---|---|---|
# | 什麼是例牌？ | 首兩張合計 8 或 9 | `bk.is_natural(total)` |
# | 例牌出現後？ | 雙方都不補牌，直接比點數 | `bk.play(...)` 的第一步 `natural-…` |
# | 兩邊都是例牌？ | 照樣比點數，9 勝 8；同點才和局 | `coup.winner` |
# | 補牌後的 8、9？ | 不是例牌 | `coup.natural` |

# %% [markdown] lang=en
# ## 5. Summary
#
# | Question | Answer | Engine |
# |---|---|---|
# | What is a natural? | the first two cards total 8 or 9 | `bk.is_natural(total)` |
# | After a natural? | neither hand draws; the totals are compared | the first step of `bk.play(...)`, `natural-…` |
# | Two naturals? | totals compared as always: 9 beats 8; only equal totals tie | `coup.winner` |
# | An 8 or 9 after drawing? | not a natural | `coup.natural` |

# %% [markdown] lang=zh
# ## 6. 動手試試：手牌組合器（HandBuilder）
#
# 預設是 BCR-008（閒4、莊4、閒4、莊5）。改任何一張牌，組合器會重新跑一次規則，逐步說明，並標出哪些結果「變了」。
# 試試：讓閒家首兩張變成 9 點；或讓某一方在**補牌後**才到 8 點，看看引擎是否把它當成例牌。

# %% [markdown] lang=en
# ## 6. Try it: the hand builder (HandBuilder)
#
# It starts on BCR-008 (player 4, banker 4, player 4, banker 5). Change any card: the builder plays the rules again, explains each step and marks what "changed".
# Try giving the player a two-card 9, or letting one hand reach 8 only **after drawing**, and see whether the engine calls it a natural.

# %%
from IPython.display import HTML

hand = bk.widgets.HandBuilder("4 4 4 5", lang=LANG)
hand

# %% [markdown] lang=zh
# 下面這格用**另一個**組合器（不顯示，上面那個仍停在 BCR-008）做 BCR-008 的「只改一個條件」：把莊第二張 5 改成 4。組合器說明結果從莊勝變成和局：

# %% [markdown] lang=en
# The cell below uses **another** builder (hidden; the one above stays on BCR-008) for BCR-008's "change one condition": the banker's second card 5 becomes 4. The builder says the result changes from a banker win to a tie:

# %%
demo = bk.widgets.HandBuilder("4 4 4 5", lang=LANG)
demo.card_b2.value = "4"
HTML(demo.winner.value + "<br>" + demo.changes.value)

# %% [markdown] lang=zh
# ## 7. 自我檢測（self-check）
#
# 題目是課程資料裡的一組題（`Quiz.lesson("02")`），每一題的正確答案都在建立測驗時由規則引擎算出，這一格看不到答案。
# 每題以**第一次提交**的答案計分；答錯時會看到正確答案和為什麼；你選的選項是某個常見誤解時，也會點出是哪一個。之後再交不再計分。做完會有總結，按「重新開始」可以再做一次。

# %% [markdown] lang=en
# ## 7. Self-check
#
# The questions are a named question set in the course data (`Quiz.lesson("02")`); every correct answer is computed by the rules engine when the quiz is built, so this cell shows no answer.
# Each question is scored on the **first answer submitted**; a wrong answer shows the correct one and why (and names the common misconception when the option you chose is one), and answers after that no longer count. At the end there is a summary, and "start again" resets the quiz.

# %%
quiz = bk.widgets.Quiz.lesson("02", lang=LANG)
quiz

# %% [markdown] lang=zh
# ## 下一步（what next）
#
# * 下一課：[第 3 課　閒家補牌規則](03-player-rule.ipynb)
# * 本課的練習：[練習 02　例牌與閒家規則](../exercises/02-naturals-player.ipynb)（在自己的副本裡作答，`check("q1")` 立刻回饋）
# * 不寫程式的練習：[補牌訓練器（trainer）](../trainer/trainer.ipynb)
# * 回到[課程地圖](00-how-to-use.ipynb)

# %% [markdown] lang=en
# ## What next
#
# * Next lesson: [Lesson 3 The player's third-card rule](03-player-rule.ipynb)
# * This lesson's exercise: [Exercise 02 Naturals and the player rule](../../exercises/en/02-naturals-player.ipynb) (answer in your own copy; `check("q1")` gives instant feedback)
# * Practice without code: [the drawing trainer](../../trainer/trainer.ipynb)
# * Back to the [course map](00-how-to-use.ipynb)
