# %% [markdown] lang=zh
# # 第 4 課　莊家補牌規則（Banker third-card rule）
#
# 沒有例牌（Natural），閒家（Player）也已經照表（0～5 補、6～7 停）補完或停牌之後，輪到莊家（Banker）。莊家同樣不做決定：補不補由補牌表決定。
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
#
# > 本課的莊家補牌表是標準百家樂的。000：「先確認畫面是否標示標準百家樂或特殊變體，因為變體可能改變牌數、傭金或和局處理方式。」001 也說：「免傭百家樂、Super 6或其他附加玩法通常著重派彩及投注項目的差異，不應直接拿來改寫標準第三張牌表。」但特定桌台另列特殊規則時，以該桌的規則說明為優先。

# %% [markdown] lang=en
# # Lesson 4 — The banker's third-card rule
#
# With no natural, and once the table has dealt the Player's hand its third card or left it standing (draw on 0–5, stand on 6–7), it is the Banker's turn. The banker decides nothing either: the drawing table does.
# The banker's rule is where baccarat is most often misread, because it has **two branches**:
#
# 1. **The player stood**: the player has no third card, and the banker looks only at its own total;
# 2. **The player drew a third card**: the banker looks at its own total **and** the value of the player's third card, in the banker matrix.
#
# The source pages of this lesson:
#
# | Page | What this lesson uses | Rules it cites |
# |---|---|---|
# | 000 「百家樂補牌規則」 (translation: "Baccarat drawing rules") | the full table for the banker's third card, examples 2–4, a worked reading, BCR-002 | Singapore GRA Commission Baccarat (RWS) Game Rules v4; Pennsylvania Code §631a.11 |
# | 001 DG, baccarat's third card | 10, J, Q, K count 0; a way to remember banker 3–6; card examples 1–4 | Singapore GRA Baccarat Game Rules |
# | 002 HKCash, the third-card matrix | situation A / situation B, the full matrix, "the drawing range of banker 3, 4, 5, 6 narrows step by step" | Massachusetts Gaming Commission, Baccarat 4.11.2024 |
# | 003 Taiwan Baccarat rule book | "here the player stands on 7 and the banker draws one card on 5" | standard Punto Banco |
#
# Every "draw" or "stand" in this lesson is answered by the rules engine (`bk.banker_draws`, `bk.banker_rule`, `bk.banker_matrix()`);
# no notebook keeps its own copy of the drawing table.
#
# > This lesson is rules education, not betting advice: drawing is decided by fixed rules; it cannot predict the next coup and changes no bet's house edge.
#
# > This lesson's banker table is standard baccarat's. 000: 「先確認畫面是否標示標準百家樂或特殊變體，因為變體可能改變牌數、傭金或和局處理方式。」 (translation: "first check whether the screen says standard baccarat or a special variant, because a variant may change the number of cards, the commission or how ties are handled.")
# 001 adds: 「免傭百家樂、Super 6或其他附加玩法通常著重派彩及投注項目的差異，不應直接拿來改寫標準第三張牌表。」 (translation: "no-commission baccarat, Super 6 and other additional wagers usually differ in payouts and bet options, and should not be taken to rewrite the standard third-card table"), but where a particular table lists special rules of its own, that table's rules come first.

# %%
import baccarat_kit as bk
from baccarat_kit.i18n import message

LANG = bk.set_language(EDITION_LANG)

# %% [markdown] lang=zh
# ## 1. 先問：閒家有沒有第三張牌？
#
# 002 的提醒：
#
# > 莊家補牌最容易看錯， 就是因為存在兩種不同情況： 閒家停牌 與 閒家已取得第三張牌。
#
# 所以引擎的 `bk.banker_draws(total, player_third)` 也要兩個參數：莊家首兩張點數 `total`（0～7），
# 以及閒家第三張牌的**牌值** `player_third`（0～9）；閒家停牌時沒有第三張，就傳 `None`。

# %% [markdown] lang=en
# ## 1. First ask: does the player have a third card?
#
# 002's reminder:
#
# > 莊家補牌最容易看錯， 就是因為存在兩種不同情況： 閒家停牌 與 閒家已取得第三張牌。
# >
# > *Translation:* "The banker's drawing is the easiest to misread precisely because there are two different situations: the player stood, and the player has drawn a third card."
#
# So the engine's `bk.banker_draws(total, player_third)` takes two arguments too: the banker's first-two-card total `total` (0–7),
# and the **value** of the player's third card `player_third` (0–9); when the player stood there is no third card, and it is `None`.

# %% [markdown] lang=zh
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

# %% [markdown] lang=en
# ## 2. Branch A: the player stood
#
# 002, 「情況 A：閒家沒有第三張牌」 (translation: "situation A: the player has no third card"):
#
# > | 莊家首兩張點數 | 處理 |
# > |---|---|
# > | 0–5 | 補牌 |
# > | 6–7 | 停牌 |
# >
# > 閒家 6 點沒有第三張牌， 莊家此時不需要查 「閒第三張是甚麼」， 因為根本沒有第三張。
# >
# > *Translation:* "Banker's first-two-card total 0–5: draws; 6–7: stands. A player on 6 has no third card; the banker then need not look up 'what the player's third card is', because there is no third card at all."
#
# The same branch, answered total by total by the engine:

# %%
for total in range(8):
    action = bk.display.decision(bk.banker_draws(total, None))
    print(message("nb.banker-stood-line", total=total, action=action, rule=bk.banker_rule(total, None)))

# %% [markdown] lang=zh
# 003 的一局流程就是這個分支：「此例閒家 7 點停牌,莊家 5 點補一張。」

# %% [markdown] lang=en
# 003's walk-through of a coup is this branch: 「此例閒家 7 點停牌,莊家 5 點補一張。」 (translation: "here the player stands on 7 and the banker draws one card on 5.")

# %%
bk.player_draws(7), bk.banker_draws(5, None)

# %% [markdown] lang=zh
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

# %% [markdown] lang=en
# ## 3. Branch B: the player drew a third card → the banker matrix
#
# 002's 「情況 B：閒家已取得第三張牌」 (translation: "situation B: the player has drawn a third card") gives the full matrix; 000's 「莊家第三張牌完整判斷表」 (translation: "full table for the banker's third card") is the same table written another way.
# The quote of 000's table below **leaves out its last row**, 「8～9｜不適用｜自然牌，通常停止補牌」 (translation: "8–9 | not applicable | a natural, usually drawing stops"): that row is about naturals (lesson 2), not the branch where the player drew.
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
# >
# > *Translation* (banker's first-two-card total, player's third card, banker's action): "0–2, any card, draws; 3, not 8, draws; 3, 8, stands; 4, 2–7, draws, otherwise stands; 5, 4–7, draws, otherwise stands; 6, 6–7, draws, otherwise stands; 7, any card, stands."
#
# The engine keeps this table as data, `bk.rules.BANKER_DRAWS_ON` (banker total → the third-card values on which it draws).
# Read it out row by row, written as the source writes it (`format_values` writes a run of values as "2–7"):

# %%
for total in range(8):
    values = bk.rules.draw_values(total)
    if values:
        shown = bk.rules.format_values(values).replace(", ", message("nb.value-sep"))
        print(message("nb.banker-draws-on", total=total, values=shown, count=len(values)))
    else:
        print(message("nb.banker-never-draws", total=total))

# %% [markdown] lang=zh
# ### 10、J、Q、K 算 0
#
# 矩陣的欄是第三張牌的**百家樂點值**，不是牌面。001：
#
# > 莊家補牌表所說的「閒家第三張為0點」，不只代表10，也包括J、Q及K。補牌判斷看的是點數，不是花色或牌面高低。

# %% [markdown] lang=en
# ### 10, J, Q, K count 0
#
# The matrix's columns are the **baccarat value** of the third card, not its face. 001:
#
# > 莊家補牌表所說的「閒家第三張為0點」，不只代表10，也包括J、Q及K。補牌判斷看的是點數，不是花色或牌面高低。
# >
# > *Translation:* "When the banker's drawing table says 'the player's third card is 0', it means not only a 10 but also a J, Q or K. The decision looks at the value, not at the suit or how high the face is."

# %%
[(card.label, card.value) for card in bk.parse_cards("10 J Q K")]

# %% [markdown] lang=zh
# ## 4. 整張矩陣的熱度圖（heatmap）
#
# 下圖的每一格都是 `bk.banker_matrix()` 算出來的：列（row）是莊家首兩張點數 0～7，
# 欄（column）是閒家第三張牌值 0～9；D（draw）＝補牌、S（stand）＝停牌。
# 格子同時寫著 D／S，顏色不是唯一的線索。圖上的字用英文，因為不是每台電腦都有中文字型。

# %% [markdown] lang=en
# ## 4. The whole matrix as a heatmap
#
# Every square of the chart below comes from `bk.banker_matrix()`: the rows are the banker's first-two-card total 0–7,
# the columns the value of the player's third card 0–9; D = draws, S = stands.
# Each square is also labelled D or S, so colour is never the only cue. The chart's text is in English in both editions, because not every computer has a Chinese font.

# %% tags=["nbval-ignore-output"]
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
bk.plotting.show(fig, figure="heatmap", lang=LANG)

# %% [markdown] lang=zh
# 數一數：80 格裡有幾格補牌？（0～2 點的三列全補、7 點那一列全停。）

# %% [markdown] lang=en
# Count them: how many of the 80 squares draw? (The three rows for 0–2 all draw; the row for 7 all stands.)

# %%
sum(draws for row in matrix for draws in row), [sum(row) for row in matrix]

# %% [markdown] lang=zh
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

# %% [markdown] lang=en
# ## 5. "The drawing range of banker 3, 4, 5, 6 narrows step by step"
#
# 002's way to remember it:
#
# > 莊 3、4、5、6 的補牌範圍會逐步收窄
# >
# > | 莊家點數 | 補牌範圍 | 記憶重點 |
# > |---|---|---|
# > | 3 | 除 8 外全部 | 最特別的是「8 停」。 |
# > | 4 | 2–7 | 六個連續值。 |
# > | 5 | 4–7 | 範圍再縮短。 |
# > | 6 | 6–7 | 最後只剩兩個值。 |
# >
# > *Translation:* "The drawing range of banker 3, 4, 5, 6 narrows step by step. Banker total, drawing range, what to remember: 3, all but 8, the special one is 'stands on 8'; 4, 2–7, six values in a row; 5, 4–7, the range shrinks again; 6, 6–7, only two values are left."
#
# 001 also says: 「從莊家4點開始，補牌區間依序縮小為『2～7、4～7、6～7』。」 (translation: "from banker 4 on, the drawing range narrows in turn to '2–7, 4–7, 6–7'.")
#
# Check "narrows step by step" with the engine: each row's drawing values are a **proper subset** of the row before, and there are fewer of them each time.

# %%
for total in (3, 4, 5, 6):
    values = bk.rules.draw_values(total)
    shown = bk.rules.format_values(values).replace(", ", message("nb.value-sep"))
    print(message("nb.banker-range", total=total, values=shown, count=len(values)))

[bk.rules.draw_values(total + 1) < bk.rules.draw_values(total) for total in (3, 4, 5)]

# %% [markdown] lang=zh
# 002 接著提醒：「即使已經背熟 『3 除 8、4 是 2–7、5 是 4–7、6 是 6–7』， 實戰閱讀時仍然要先確認： 有沒有 Natural，以及閒家到底有沒有第三張牌。」

# %% [markdown] lang=en
# 002 goes on: 「即使已經背熟 『3 除 8、4 是 2–7、5 是 4–7、6 是 6–7』， 實戰閱讀時仍然要先確認： 有沒有 Natural，以及閒家到底有沒有第三張牌。」
# (translation: "even once you know '3 all but 8, 4 is 2–7, 5 is 4–7, 6 is 6–7' by heart, when reading a real coup you must still check first whether there is a natural, and whether the player really has a third card.")

# %% [markdown] lang=zh
# ### 補牌表要背起來才能玩嗎？
#
# 004 的常見問題正好問這件事：「第三張牌規則需要背起來才能玩嗎？」它的回答是：
#
# > 完全不用。發牌與補牌都由系統自動處理，你不背也照樣能玩。懂這套規則的好處只是讓你看得懂桌上的牌為什麼這樣翻，下注時心裡更有底，並不會改變任何結果。
#
# 001 也說：「只要沿著這三步走，就不用在直播牌局中硬背一張沒有前後關係的複雜表格。」上面的記法是為了**看懂**牌局，不是玩的條件；
# 本課程的每一個「補／停」也都是問引擎（`bk.banker_draws`），不是背出來的。

# %% [markdown] lang=en
# ### Must you learn the table by heart to play?
#
# 004's FAQ asks exactly this: 「第三張牌規則需要背起來才能玩嗎？」 (translation: "do you need to memorise the third-card rules to play?") Its answer:
#
# > 完全不用。發牌與補牌都由系統自動處理，你不背也照樣能玩。懂這套規則的好處只是讓你看得懂桌上的牌為什麼這樣翻，下注時心裡更有底，並不會改變任何結果。
# >
# > *Translation:* "Not at all. Dealing and drawing are handled automatically by the system; you can play without memorising anything. The only benefit of knowing the rules is that you understand why the cards on the table are turned as they are and bet with a clearer head; it changes no result."
#
# 001 also says: 「只要沿著這三步走，就不用在直播牌局中硬背一張沒有前後關係的複雜表格。」 (translation: "follow these three steps and you need not cram, during a live coup, a complicated table with no order to it.")
# The ways to remember above are for **reading** a coup, not a condition for playing; and every "draws / stands" in this course is asked of the engine (`bk.banker_draws`), not recited.

# %% [markdown] lang=zh
# ### 004 的一句話不完整：莊 4 不只遇 8、9 停牌
#
# 004 在莊家表之後說：
#
# > 它的價值在於，下次你看到莊家拿著 4 點卻沒補牌，就知道那是因為閒家的第三張剛好是 8 或 9，規則叫它停，而不是荷官手滑或運氣作祟。
#
# **這句話少了兩個值**：004 自己的表寫的是「閒家第三張為 2 ～ 7 時補牌；為 0、1、8、9 時停牌」，000、001、002 的表也一樣。
# 閒家已補牌時，莊 4 遇第三張 0、1、8、9 都停牌（10、J、Q、K 算 0）；閒家停牌時，莊 4 補牌。下一格問引擎：

# %% [markdown] lang=en
# ### One sentence of 004 is incomplete: banker 4 stands on more than 8 and 9
#
# After its banker table, 004 says:
#
# > 它的價值在於，下次你看到莊家拿著 4 點卻沒補牌，就知道那是因為閒家的第三張剛好是 8 或 9，規則叫它停，而不是荷官手滑或運氣作祟。
# >
# > *Translation:* "Its value is that next time you see the banker holding 4 and not drawing, you know it is because the player's third card happened to be an 8 or a 9 and the rule tells it to stand, not a slip of the dealer's hand or luck."
#
# **That sentence leaves out two values**: 004's own table says 「閒家第三張為 2 ～ 7 時補牌；為 0、1、8、9 時停牌」 (translation: "draws when the player's third card is 2–7; stands when it is 0, 1, 8, 9"), and so do the tables of 000, 001 and 002.
# When the player has drawn, banker 4 stands on a third card of 0, 1, 8 or 9 (10, J, Q, K count 0); when the player stood, banker 4 draws. The next cell asks the engine:

# %%
banker_4_stands_on = [v for v in range(10) if not bk.banker_draws(4, v)]
banker_4_stands_on, bk.banker_draws(4, None)

# %% [markdown] lang=zh
# ## 6. 來源的範例：先猜，再看
#
# 000 的「百家樂補牌實際判斷範例」只給了點數與第三張牌（沒有給出這一局的每一張牌），所以這裡直接問莊家那一步。
# 每一個範例都**先讓你回答**：莊家補牌還是停牌？選了之後，才會出現來源的原文、引擎的一行呼叫（你也可以自己打）和逐步說明。

# %% [markdown] lang=en
# ## 6. The sources' examples: predict, then see
#
# 000's 「百家樂補牌實際判斷範例」 (translation: "worked examples of drawing decisions") give only totals and the third card (not every card of the coup), so the banker's step is asked directly.
# Each example **asks you first**: does the banker draw or stand? Once you choose, the source's words, the one-line engine call (you can type it yourself) and the steps appear.

# %%
bk.widgets.Predict("000-EX-2", lang=LANG, record="04")

# %%
bk.widgets.Predict("000-EX-3", lang=LANG, record="04")

# %% [markdown] lang=zh
# 下一題閒家停牌，所以第三張是 `None`，走分支 A。

# %% [markdown] lang=en
# In the next one the player stood, so the third card is `None`: branch A.

# %%
bk.widgets.Predict("000-EX-4", lang=LANG, record="04")

# %% [markdown] lang=zh
# 000 的**補牌判讀示意**：閒家兩張 5 點補到 7，莊家 5 點。

# %% [markdown] lang=en
# 000's **worked reading**: the player's 5 draws a 7, and the banker has 5.

# %%
bk.widgets.Predict("000-DEMO", lang=LANG, record="04")

# %% [markdown] lang=zh
# **001 的牌例一～四**（「5組實際牌例」；牌例五在第 3 課）：來源給了雙方起手兩張牌與閒家第三張，
# 但只寫到莊家補不補，沒有給莊家的第三張牌，所以它們是部分案例（partial case），這裡也不替它們補牌。
# 下表並列來源的判斷與引擎的判斷（案例資料在 `bk.cases`）：

# %% [markdown] lang=en
# **001's card examples 1–4** (from its 「5組實際牌例」, translation: "five worked card examples"; example 5 is in lesson 3): the source gives both hands' first two cards and the player's third card,
# but says only whether the banker draws, not the banker's third card, so they are partial cases, and no card is added to them here.
# The table puts the source's decision beside the engine's (the case data is in `bk.cases`):

# %%
catalogue = bk.cases.load()
rows = []
for case_id in ("001-EX-1", "001-EX-2", "001-EX-3", "001-EX-4"):
    case = catalogue[case_id]
    claims = case.claims
    engine = case.outcome().decisions["banker"]
    rows.append([case.title(), message("nb.banker-vs-third", total=claims["banker_first_total"],
                                       third=claims["player_third"]),
                 bk.display.decision(claims["banker_decision"] == "draw"),
                 bk.display.decision(engine.action == "draw"), engine.rule])
bk.display.table([message(f"nb.col.{col}") for col in
                  ("example", "condition", "source-decision", "engine-decision", "rule")], rows)

# %% [markdown] lang=zh
# ## 7. 一整局：BCR-002「莊3：閒第三張8與9的翻轉」
#
# 000 的 BCR-002 給了這一局的每一張牌：「閒2+3=5，莊A+2=3；牌靴下一張先假設8。」
# 發牌順序是閒、莊、閒、莊，所以牌序是 `2 A 3 2 8`：

# %% [markdown] lang=en
# ## 7. A whole coup: BCR-002, banker 3 and the flip between a player third card 8 and 9
#
# 000's BCR-002, 「莊3：閒第三張8與9的翻轉」 (translation: "banker 3: the flip between a player third card 8 and 9"), gives every card: 「閒2+3=5，莊A+2=3；牌靴下一張先假設8。」
# (translation: "player 2+3 = 5, banker A+2 = 3; suppose the next card in the shoe is 8.")
# Cards are dealt player, banker, player, banker, so the sequence is `2 A 3 2 8`:

# %%
print(bk.play("2 A 3 2 8").explain())

# %% [markdown] lang=zh
# 來源的結論：「和局；這裡查表用8，不是閒最後3。」查表用的是閒家第三張的**牌值** 8，
# 不是閒家最後點數 3（把 3 拿去查表，莊 3 就會錯判成補牌）。
#
# 「只改一個條件：僅把閒第三張8改9：閒最後4；莊3須補，若接著取得4，莊最後7，莊7＞閒4。」

# %% [markdown] lang=en
# The source's conclusion: 「和局；這裡查表用8，不是閒最後3。」 (translation: "a tie; the table is read with the 8, not the player's final 3.") The table is read with the **value** of the player's third card, 8,
# not the player's final total 3 (reading the table with 3 would wrongly make banker 3 draw).
#
# 「只改一個條件：僅把閒第三張8改9：閒最後4；莊3須補，若接著取得4，莊最後7，莊7＞閒4。」
# (translation: "change one condition: only the player's third card changes from 8 to 9: the player ends on 4; banker 3 must draw, and with a 4 next ends on 7; banker 7 > player 4.")

# %%
print(bk.play("2 A 3 2 9 4").explain())

# %% [markdown] lang=zh
# ## 8. 自己動手：手牌組合器（HandBuilder）
#
# 下面是 BCR-002 的牌。改「下一張」（閒家第三張）或任何一張牌，組合器會重新發牌、寫出每一步的理由，
# 並在最後一行標出改變了什麼（勝方、點數、誰補牌）。也可以在「牌序」欄直接輸入，例如 `2 A 3 2 9 4`，按 Enter。

# %% [markdown] lang=en
# ## 8. Try it: the hand builder (HandBuilder)
#
# Below are BCR-002's cards. Change the "next" card (the player's third card) or any card: the builder deals again, writes the reason for each step,
# and its last line marks what changed (winner, totals, who drew). You can also type the sequence in the "cards" box, for example `2 A 3 2 9 4`, and press Enter.

# %%
builder = bk.widgets.HandBuilder("2 A 3 2 8", lang=LANG)
builder

# %% [markdown] lang=zh
# 下一格用**另一個**組合器（不顯示，上面那個仍停在 BCR-002）把閒家第三張改成 9、再下一張設成 4（就是 BCR-002 的變化題），再讀出它顯示的結果：

# %% [markdown] lang=en
# The next cell uses **another** builder (hidden; the one above stays on BCR-002) to change the player's third card to 9 and the card after it to 4 (BCR-002's variant), and reads out the result it shows:

# %%
demo = bk.widgets.HandBuilder("2 A 3 2 8", lang=LANG)
demo.card_next1.value = "9"
demo.card_next2.value = "4"
print(bk.widgets.plain_text(demo.winner))
print(bk.widgets.plain_text(demo.changes))

# %% [markdown] lang=zh
# ## 9. 莊家補牌檢查器（RuleChecker）
#
# 選莊家首兩張點數（0～7）和閒家第三張牌值（或「閒家停牌」），檢查器會說補還是停、為什麼，
# 並在右邊的矩陣標出你選的格子（框線加上［ ］）。

# %% [markdown] lang=en
# ## 9. The banker rule checker (RuleChecker)
#
# Pick the banker's first-two-card total (0–7) and the value of the player's third card (or "player stood"): the checker says whether the banker draws or stands and why,
# and marks the square you chose in the matrix on the right (a frame and [ ]).

# %%
checker = bk.widgets.RuleChecker(lang=LANG)
checker

# %% [markdown] lang=zh
# 用**另一個**檢查器（不顯示，上面那個仍停在「莊 3 點、閒家停牌」）選 002 的案例 A（「閒 5 → 第三張 8； 莊 3」，來源的判定是停牌），讀出判定與理由：

# %% [markdown] lang=en
# **Another** checker (hidden; the one above stays on "banker 3, player stood") picks 002's case A (「閒 5 → 第三張 8； 莊 3」, translation: "player 5 → third card 8; banker 3"; the source's verdict is that the banker stands) and reads out the decision and reason:

# %%
demo_checker = bk.widgets.RuleChecker(lang=LANG)
demo_checker.banker_total.value = 3
demo_checker.player_third.value = 8
print(bk.widgets.plain_text(demo_checker.decision))
print(bk.widgets.plain_text(demo_checker.reason))

# %% [markdown] lang=zh
# 再選範例4（閒家停牌、莊家 5 點）：

# %% [markdown] lang=en
# Then example 4 (the player stood, the banker has 5):

# %%
demo_checker.check(5, None)
print(bk.widgets.plain_text(demo_checker.decision))
print(bk.widgets.plain_text(demo_checker.reason))

# %% [markdown] lang=zh
# ## 10. 自我檢測（self-check）
#
# 這一組題目問的是來源的案例**沒有**用到的矩陣格子（例如莊 5 遇閒第三張 8、莊 1 遇 8、莊 3 遇 K），所以不能靠背案例作答，要會查表。
# 題目是課程資料裡的一組題（`Quiz.lesson("04")`），每一題的正確答案都在建立測驗時由規則引擎算出，這一格看不到答案。
# 每題以**第一次提交**的答案計分；答錯時會看到正確答案和為什麼；你選的選項是某個常見誤解時，也會點出是哪一個。之後再交不再計分。做完會有總結，按「重新開始」可以再做一次。

# %% [markdown] lang=en
# ## 10. Self-check
#
# This question set asks about matrix squares the sources' cases do **not** use (for example banker 5 facing a player third card 8, banker 1 facing 8, banker 3 facing a K), so you cannot answer by remembering cases: you need to read the table.
# The questions are a named question set in the course data (`Quiz.lesson("04")`); every correct answer is computed by the rules engine when the quiz is built, so this cell shows no answer.
# Each question is scored on the **first answer submitted**; a wrong answer shows the correct one and why (and names the common misconception when the option you chose is one), and answers after that no longer count. At the end there is a summary, and "start again" resets the quiz.

# %%
quiz = bk.widgets.Quiz.lesson("04", lang=LANG)
quiz

# %% [markdown] lang=zh
# ## 11. 規則練習：每一格練到熟（Drill）
#
# 自我檢測只問幾格；規則練習問**每一格**：例牌、閒家 0～7 點、莊家 0～7 點對閒家第三張 0～9 與閒家停牌（88 格），偶爾再來一整局。
# 整局是一張一張發的（本工具自己發的牌，不是來源的牌例）：先看首四張，判斷閒家補牌、停牌或有例牌，翻開閒家第三張後判斷莊家，最後判斷誰贏；判斷錯了，會算那一格答錯一次。
# 答錯的格子很快會再出現，已經熟練的格子隔比較久才出現（間隔重複，spaced repetition）；下面的熱度圖顯示每一格練到哪裡。
# 可以只用鍵盤：在「鍵盤作答」欄裡按 **D** 補牌、**S** 停牌（例牌題按 Y／N；整局裡 N 是「有例牌」，誰贏按 P／B／T），或用 Tab 移到按鈕再按 Enter。
# 計時模式是選用的，秒數可以自己調整；「計時賽」一輪 20 題計時，最後列出每一格的時間和目標比較，並記下你最好的一輪。你的記錄存在進度檔裡，重新啟動核心後會接著練，第 00 課的課程地圖也看得到。

# %% [markdown] lang=en
# ## 11. Rule drill: every cell until it is mastered
#
# The self-check asks a few cells; this drill asks **every** cell: naturals, the player with 0–7, the banker with 0–7 against a player third card 0–9 and when the player stood (88 cells), and now and then a whole coup.
# A whole coup is dealt card by card (the kit's own cards, not a source's): the first four cards, then whether the player draws, stands or there is a natural, the player's third card, the banker's decision, and who wins; a wrong decision counts as a miss of its cell.
# A missed cell comes back soon and a mastered one waits longer (spaced repetition); the heat map below shows where each cell stands.
# It works from the keyboard alone: in the "Answer by key" box press **D** to draw and **S** to stand (Y / N for naturals; in a whole coup N for a natural and P / B / T for who wins), or Tab to a button and press Enter.
# The timed mode is optional and its time is yours to set; a "timed round" is 20 questions against the clock, ending with each cell's time against its target, and your best round is kept. Your record is kept in the progress file: after a kernel restart the drill carries on, and lesson 00's course map shows it.

# %%
bk.widgets.Drill(lang=LANG)

# %% [markdown] lang=zh
# ## 下一步（what next）
#
# * 下一課：[第 5 課　BCR-001～BCR-008](05-bcr-cases.ipynb)
# * 本課的練習：[練習 03　莊家補牌規則](../exercises/03-banker-rule.ipynb)（在自己的副本裡作答，`check("q1")` 立刻回饋）
# * 不寫程式的練習：[補牌訓練器（trainer）](../trainer/trainer.ipynb)
# * 一頁規則速查表（可列印，中英對照）：[cheat-sheet](../docs/cheat-sheet.html)
# * 回到[課程地圖](00-how-to-use.ipynb)

# %% [markdown] lang=en
# ## What next
#
# * Next lesson: [Lesson 5 BCR-001 to BCR-008](05-bcr-cases.ipynb)
# * This lesson's exercise: [Exercise 03 The banker rule](../../exercises/en/03-banker-rule.ipynb) (answer in your own copy; `check("q1")` gives instant feedback)
# * Practice without code: [the drawing trainer](../../trainer/trainer.ipynb)
# * The one-page rules cheat-sheet (printable, both languages): [cheat-sheet](../../docs/cheat-sheet.html)
# * Back to the [course map](00-how-to-use.ipynb)
