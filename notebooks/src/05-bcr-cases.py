# %% [markdown] lang=zh
# # 第 5 課　BCR-001～BCR-008：完整牌局與「只改一個條件」（Worked coups and one-change variants）
#
# 來源 000「百家樂補牌規則」的〈從發牌到勝負：完整補牌判定庫〉列了八局完整牌局 **BCR-001～BCR-008**，
# 每一局都附一個「只改一個條件」（change one condition）的變化題。來源寫明：
#
# > 以下都是教學牌局，不是真實投注紀錄。適用標準百家樂補牌：先檢查首兩張自然8／9，再處理閒家，
# > 最後用「莊家首兩張點數＋閒家第三張牌值」查原表。第三張後的8／9不是天牌。依據：Pennsylvania Code §631a.11。
#
# 本課每一局都**先問你**（先猜，再看）：誰贏、莊家補不補、這一注返還多少；你選了之後，
# 才出現來源的原文和規則引擎（rules engine）一步一步打出來的結果（`coup.explain()`）。接著放它的變化題，
# 看**改了什麼**、**什麼翻轉了**（what flipped）。牌的順序就是發牌順序（deal order）：
# 閒1、莊1、閒2、莊2，再閒家第三張、莊家第三張。例如 BCR-001「發牌依序閒2、莊3、閒3、莊4」，閒補 4，寫成 `2 3 3 4 4`。
# 只有 BCR-001 由來源寫出發牌順序；其他七局來源只寫各家的牌（例如 BCR-002「閒2+3=5，莊A+2=3」），本課照同樣的閒、莊、閒、莊順序排出，這是本套件的慣例。
#
# > 本課是規則教育，不是下注建議：補牌表是固定的，看懂它不會改變任何一局的結果，也不會改變賭場優勢（house edge）。

# %% [markdown] lang=en
# # Lesson 5 — BCR-001 to BCR-008: worked coups and one-change variants
#
# Source 000, 「百家樂補牌規則」 (translation: "Baccarat drawing rules"), lists in its section 「從發牌到勝負：完整補牌判定庫」 (translation: "from the deal to the result: a complete library of drawing decisions") eight full coups, **BCR-001 to BCR-008**,
# each with a "change one condition" variant. The source states (quoted in Chinese; the English is our translation):
#
# > 以下都是教學牌局，不是真實投注紀錄。適用標準百家樂補牌：先檢查首兩張自然8／9，再處理閒家，
# > 最後用「莊家首兩張點數＋閒家第三張牌值」查原表。第三張後的8／9不是天牌。依據：Pennsylvania Code §631a.11。
# >
# > *Translation:* "These are all teaching coups, not records of real bets. Standard baccarat drawing applies: first check the first two cards for a natural 8/9, then deal with the player, and last look up the original table with 'the banker's first-two-card total + the value of the player's third card'. An 8/9 after a third card is not a natural. Basis: Pennsylvania Code §631a.11."
#
# Every coup in this lesson **asks you first** (predict, then see): who wins, does the banker draw, what does the bet return; only once you choose
# do the source's words and the rules engine's step-by-step play (`coup.explain()`) appear. Then comes its variant,
# to see **what was changed** and **what flipped**. The cards are in deal order:
# player 1, banker 1, player 2, banker 2, then the player's third card and the banker's third card. For example BCR-001, 「發牌依序閒2、莊3、閒3、莊4」 (translation: "dealt in order player 2, banker 3, player 3, banker 4"), with the player drawing a 4, is written `2 3 3 4 4`.
# Only BCR-001's deal order is written out by the source; for the other seven the source gives each side's cards (for example BCR-002, 「閒2+3=5，莊A+2=3」, translation: "player 2+3 = 5, banker A+2 = 3"), and this lesson lays them out in the same player, banker, player, banker order: that is the kit's convention.
#
# > This lesson is rules education, not betting advice: the drawing table is fixed; understanding it changes neither the result of any coup nor the house edge.

# %%
import baccarat_kit as bk

LANG = bk.set_language(EDITION_LANG)
from baccarat_kit.i18n import message

catalogue = bk.cases.load()
bcr = [case for case in catalogue.by_source("000") if case.id.startswith("BCR-")]
[(case.id, case.title()) for case in bcr]

# %% [markdown] lang=zh
# 每個案例都是資料（`baccarat_kit/cases/bcr.toml`），而且**每一項宣稱都由引擎查核**（`baccarat-kit cases check`）。
#
# 接下來每一節先問一題：只看得到那個判斷之前已經發出的牌（問莊家補不補時，看不到莊家的第三張）。
# 選了之後才出現 000 的原文與引擎的逐步說明；再下面是這一局的整張對照表：左欄是 000 的原文（變化題是它「只改一個條件」的那一句），
# 右欄是引擎依發牌順序一步一步打出來的結果，最後一行是引擎比較兩局後「翻轉了什麼」。

# %% [markdown] lang=en
# Each case is data (`baccarat_kit/cases/bcr.toml`), and **every claim in it is checked by the engine** (`baccarat-kit cases check`).
#
# Each section below asks one question first, showing only the cards dealt before that decision (when it asks whether the banker draws, the banker's third card is hidden).
# Once you choose, 000's words and the engine's steps appear; below that is the coup's full comparison: the left column is 000's words, in Chinese (for a variant, its "change one condition" sentence), with the kit's English translation under them,
# the right column the engine's result step by step in deal order, and the last line what the engine found flipped between the two coups.
# Each section's first paragraph gives the coup in English, and each card gives the kit's English translation under 000's Chinese words.

# %% [markdown] lang=zh
# ## BCR-001｜閒 5 對莊 7
#
# 先猜，再看：

# %% [markdown] lang=en
# ## BCR-001: player 5 against banker 7
#
# Predict, then see:

# %%
bk.widgets.Predict("BCR-001", asks="winner", lang=LANG, record="05")

# %% [markdown] lang=zh
# 來源的標題：「閒5補到9、莊7停牌」。
#
# 閒 2+3=5 補牌（player 0–5 draws），補到 4 成 9；莊首兩張 7 停牌。變化題只把莊第二張 4 改成 5：
# 莊 3+5=8 是例牌（Natural，來源稱天牌），雙方都不再補牌——那張 4 根本沒有發出去。

# %% [markdown] lang=en
# The source's title: 「閒5補到9、莊7停牌」 (translation: "player 5 draws to 9, banker 7 stands").
#
# Player 2+3 = 5 draws (a player on 0–5 draws) a 4 and makes 9; the banker's first two cards make 7 and it stands. The variant changes only the banker's second card, 4 to 5:
# banker 3+5 = 8 is a natural (the source says 「天牌」, translation: "heaven hand"), and neither hand draws: the 4 is never dealt.

# %%
bk.widgets.case_card("BCR-001", lang=LANG)

# %% [markdown] lang=zh
# ### BCR-001 的結算（settlement）
#
# 先猜：BCR-001 的閒注 100 一共返還多少？

# %% [markdown] lang=en
# ### Settling BCR-001
#
# Predict first: what does BCR-001's player bet of 100 return in all?

# %%
bk.widgets.Predict("BCR-001", asks="returned", lang=LANG, record="05")

# %% [markdown] lang=zh
# 000：「閒注100，假設閒勝1:1……返還100本金+100淨利=200」；變化題「閒注返還0、淨損100」。
# 結算交給 `bk.settle`（金額一律是 `Decimal`）：

# %% [markdown] lang=en
# 000: 「閒注100，假設閒勝1:1……返還100本金+100淨利=200」 (translation: "a player bet of 100, supposing a player win pays 1:1 … returns the stake of 100 plus a net win of 100 = 200"); for the variant 「閒注返還0、淨損100」 (translation: "the player bet returns 0, a net loss of 100").
# The settling is done by `bk.settle` (amounts are always `Decimal`):

# %%
rows = []
for case in (catalogue["BCR-001"], catalogue["BCR-001-variant"]):
    settled = bk.settle(case.coup(), {"player": 100})
    (bet,) = case.bets
    rows.append([case.id, message(f"who.{case.coup().winner}"), settled.returned, settled.net,
                 bet.returned, bet.net])
bk.display.table([message(f"nb.col.{col}") for col in ("case", "result", "engine-returned", "engine-net",
                                                       "source-returned", "source-net")], rows)

# %% [markdown] lang=zh
# ## BCR-002｜莊3：閒第三張8與9的翻轉
#
# 先猜，再看：

# %% [markdown] lang=en
# ## BCR-002: banker 3, the flip between a player third card 8 and 9
#
# Predict, then see:

# %%
bk.widgets.Predict("BCR-002", lang=LANG, record="05")

# %% [markdown] lang=zh
# 查表用的是**閒家第三張牌的牌值**（8），不是閒家最後點數（3）。變化題把 8 改成 9，莊 3 就要補，
# 補到 4 成 7。來源特別說「停牌分支不消耗這張4」：原題裡引擎也把這張 4 列為「未發出的牌」（unused）。

# %% [markdown] lang=en
# The table is read with the **value of the player's third card** (8), not the player's final total (3). The variant changes the 8 to a 9: banker 3 must then draw,
# and with a 4 makes 7. The source stresses 「停牌分支不消耗這張4」 (translation: "the standing branch does not use up this 4"): in the original coup the engine lists that 4 as an unused card too.

# %%
bk.widgets.case_card("BCR-002", lang=LANG)

# %% [markdown] lang=zh
# ## BCR-003｜莊 4 遇閒第三張 A
#
# 先猜，再看：

# %% [markdown] lang=en
# ## BCR-003: banker 4 facing a player third card A
#
# Predict, then see:

# %%
bk.widgets.Predict("BCR-003", lang=LANG, record="05")

# %% [markdown] lang=zh
# 來源的標題：「莊4：第三張1不補，2才補」。
#
# 「莊家不是0～5一律補」：莊 4 遇閒第三張 A（牌值 1）停牌；變化題改成 2，莊 4 就補。

# %% [markdown] lang=en
# The source's title: 「莊4：第三張1不補，2才補」 (translation: "banker 4: no draw on a third card 1, a draw on 2").
#
# "A banker 0–5 does not always draw": banker 4 facing a player third card A (value 1) stands; the variant makes it a 2, and banker 4 draws.

# %%
bk.widgets.case_card("BCR-003", lang=LANG)

# %% [markdown] lang=zh
# ## BCR-004｜莊5：第三張3與4的邊界
#
# 先猜，再看：

# %% [markdown] lang=en
# ## BCR-004: banker 5, the border between a third card 3 and 4
#
# Predict, then see:

# %%
bk.widgets.Predict("BCR-004", lang=LANG, record="05")

# %% [markdown] lang=zh
# 要分清楚「莊首兩張 5」和「閒第三張 3」。變化題裡莊補到 8——「這個8是補牌後結果，不是天牌」。

# %% [markdown] lang=en
# Tell "banker's first two cards 5" from "player's third card 3". In the variant the banker draws to 8; the source: 「這個8是補牌後結果，不是天牌」 (translation: "this 8 is the result of a third card, not a natural").

# %%
bk.widgets.case_card("BCR-004", lang=LANG)

# %% [markdown] lang=zh
# ## BCR-005｜莊6：第三張5與6的邊界
#
# 先猜，再看：

# %% [markdown] lang=en
# ## BCR-005: banker 6, the border between a third card 5 and 6
#
# Predict, then see:

# %%
bk.widgets.Predict("BCR-005", lang=LANG, record="05")

# %% [markdown] lang=zh
# 閒補成 8 不是例牌，莊家照樣查表；變化題閒第三張 6，莊 6 補牌，9:9 和局（tie）。

# %% [markdown] lang=en
# A player who draws to 8 does not have a natural, and the banker still reads the table; in the variant the player's third card is 6, banker 6 draws, and it is a 9:9 tie.

# %%
bk.widgets.case_card("BCR-005", lang=LANG)

# %% [markdown] lang=zh
# ## BCR-006｜閒 6 之後的莊 5
#
# 先猜，再看：

# %% [markdown] lang=en
# ## BCR-006: banker 5 after a player 6
#
# Predict, then see:

# %%
bk.widgets.Predict("BCR-006", lang=LANG, record="05")

# %% [markdown] lang=zh
# 來源的標題：「閒不補：改走莊0～5分支」。
#
# 閒 6 停牌，**沒有閒家第三張**，莊家改用「閒家停牌」那一支（player stood）。變化題莊 6 也停，
# 「原本要補的2不發」。

# %% [markdown] lang=en
# The source's title: 「閒不補：改走莊0～5分支」 (translation: "the player does not draw: take the banker 0–5 branch").
#
# The player stands on 6, so there is **no player third card**, and the banker uses the "player stood" branch. In the variant banker 6 stands too;
# the source: 「原本要補的2不發」 (translation: "the 2 that would have been drawn is not dealt").

# %%
bk.widgets.case_card("BCR-006", lang=LANG)

# %% [markdown] lang=zh
# ## BCR-007｜莊0～2無條件補的適用前提
#
# 先猜，再看：

# %% [markdown] lang=en
# ## BCR-007: when banker 0–2 draws whatever the third card
#
# Predict, then see:

# %%
bk.widgets.Predict("BCR-007", lang=LANG, record="05")

# %% [markdown] lang=zh
# 「遇8停牌」是莊 3 的例外，不適用莊 2。變化題把莊第二張 2 改 3：結果一樣是莊勝，但**補牌判定改變**了。
# （只改一個條件，所以牌靴裡那張 5 還在，只是莊家不再補它。）

# %% [markdown] lang=en
# "Stands on 8" is banker 3's exception and does not apply to banker 2. The variant changes the banker's second card from 2 to 3: the banker still wins, but **the drawing decision changes**.
# (Only one condition changes, so the 5 is still in the shoe; the banker just no longer draws it.)

# %%
bk.widgets.case_card("BCR-007", lang=LANG)

# %% [markdown] lang=zh
# ## BCR-008｜兩邊自然牌不再發第三張
#
# 先猜，再看：

# %% [markdown] lang=en
# ## BCR-008: two naturals, no third card is dealt
#
# Predict, then see:

# %%
bk.widgets.Predict("BCR-008", asks="winner", lang=LANG, record="05")

# %% [markdown] lang=zh
# 例牌（Natural）不是自動和局：莊 9 勝閒 8。變化題雙方都是例牌 8，才是和局。

# %% [markdown] lang=en
# A natural is not automatically a tie: banker 9 beats player 8. In the variant both hands have a natural 8, and only then is it a tie.

# %%
bk.widgets.case_card("BCR-008", lang=LANG)

# %% [markdown] lang=zh
# ## 案例檢視器：一步一步再走一次八局牌
#
# 八局都猜過之後，下面的案例檢視器（CaseViewer）把 BCR-001～BCR-008 放在一起複習。選一局，按「下一步」一步一步看引擎怎麼打；
# 左邊是來源的原文，右邊是引擎的每一步。按「只改一個條件」切到變化題，再一步一步看什麼翻轉了。
# 鍵盤也可以：Tab 移到選單，↑／↓ 換案例。

# %% [markdown] lang=en
# ## The case viewer: all eight coups again, step by step
#
# Once you have predicted all eight, the case viewer (CaseViewer) below holds BCR-001 to BCR-008 together for review. Pick a coup and press "next step" to see how the engine plays it;
# the source's words are on the left, the engine's steps on the right. Press "change one condition" to switch to the variant and step through what flipped.
# From the keyboard: Tab moves to the drop-down, ↑/↓ change the case.

# %%
viewer = bk.widgets.CaseViewer("BCR-001", cases=[case.id for case in bcr], lang=LANG)
viewer

# %% [markdown] lang=zh
# ## 一次看八局：引擎與來源對照
#
# 每一列是一局（或它的變化題）：發牌順序、引擎算出的點數與結果、來源宣稱的結果。

# %% [markdown] lang=en
# ## All eight coups at once: the engine beside the source
#
# Each row is one coup (or its variant): the deal order, the totals and result the engine works out, and the result the source claims.

# %%
bk.display.table(
    [message(f"nb.col.{col}") for col in ("case", "deal-order", "player", "banker", "engine-result",
                                          "source-result", "agree")],
    [[c.id, bk.format_cards(c.cards), c.coup().player_total, c.coup().banker_total,
      message(f"who.{c.coup().winner}"), message(f"who.{c.claims['winner']}"),
      message("nb.agree") if not c.check() else message("nb.disagree")]
     for case in bcr for c in (case, *case.variants)],
)

# %% [markdown] lang=zh
# ## 自己打一局：手牌組合器（HandBuilder）
#
# 自己選牌（或輸入發牌順序），組合器會重新發牌、寫出每一步的理由，並標出改動後什麼翻轉了。預設是 BCR-001 與閒注 100。

# %% [markdown] lang=en
# ## Play your own coup: the hand builder (HandBuilder)
#
# Pick your own cards (or type a deal order); the builder deals again, writes the reason for each step and marks what flipped after a change. It starts on BCR-001 with a player bet of 100.

# %%
builder = bk.widgets.HandBuilder(bk.format_cards(catalogue["BCR-001"].cards), bets={"player": 100}, lang=LANG)
builder

# %% [markdown] lang=zh
# 下一格用**另一個**組合器（不顯示，上面那個仍停在 BCR-001）只改莊第二張（4 → 5），讀出它標出的翻轉：

# %% [markdown] lang=en
# The next cell uses **another** builder (hidden; the one above stays on BCR-001) to change only the banker's second card (4 → 5), and reads out the flips it marks:

# %%
demo = bk.widgets.HandBuilder(bk.format_cards(catalogue["BCR-001"].cards), bets={"player": 100}, lang=LANG)
demo.card_b2.value = "5"
print(bk.widgets.plain_text(demo.winner))
print(bk.widgets.plain_text(demo.changes))
print(bk.widgets.plain_text(demo.settlement))

# %% [markdown] lang=zh
# ## 自我檢測（self-check）
#
# 這一組題目用的是來源**沒有**給的牌局（每一題都寫明是本套件自編的）：自己一步一步打，不能靠記住 BCR 的答案。
# 題目是課程資料裡的一組題（`Quiz.lesson("05")`），每一題的正確答案都在建立測驗時由規則引擎算出，這一格看不到答案。
# 每題以**第一次提交**的答案計分；答錯時會看到正確答案和為什麼；你選的選項是某個常見誤解時，也會點出是哪一個。之後再交不再計分。做完會有總結，按「重新開始」可以再做一次。

# %% [markdown] lang=en
# ## Self-check
#
# This question set uses coups the sources do **not** give (each question says it is the kit's own): play each one yourself step by step; remembering the BCR answers will not help.
# The questions are a named question set in the course data (`Quiz.lesson("05")`); every correct answer is computed by the rules engine when the quiz is built, so this cell shows no answer.
# Each question is scored on the **first answer submitted**; a wrong answer shows the correct one and why (and names the common misconception when the option you chose is one), and answers after that no longer count. At the end there is a summary, and "start again" resets the quiz.

# %%
quiz = bk.widgets.Quiz.lesson("05", lang=LANG)
quiz

# %% [markdown] lang=zh
# ## 下一步（what next）
#
# * 下一課：[第 6 課　兩組案例 A～D 與常見錯誤](06-cases-a-d-and-mistakes.ipynb)
# * 本課的練習：[練習 04　整局判斷](../exercises/04-whole-coups.ipynb)（在自己的副本裡作答，`check("q1")` 立刻回饋）
# * 不寫程式的練習：[補牌訓練器（trainer）](../trainer/trainer.ipynb)
# * 回到[課程地圖](00-how-to-use.ipynb)

# %% [markdown] lang=en
# ## What next
#
# * Next lesson: [Lesson 6 The two sets of cases A–D and common mistakes](06-cases-a-d-and-mistakes.ipynb)
# * This lesson's exercise: [Exercise 04 Whole coups](../../exercises/en/04-whole-coups.ipynb) (answer in your own copy; `check("q1")` gives instant feedback)
# * Practice without code: [the drawing trainer](../../trainer/trainer.ipynb)
# * Back to the [course map](00-how-to-use.ipynb)
