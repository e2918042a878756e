# %% [markdown] lang=zh
# # 第 1 課　牌值與點數（Card values and totals）
#
# 標準百家樂（Punto Banco）每一局都比較兩手牌的**點數**（total）：閒家（Player）與莊家（Banker），接近 9 點的一方勝出。
# 所有補牌判斷都從點數開始，所以第一課只學一件事：**一手牌怎麼算點數**。
#
# 本課依據的來源頁（課程引用五個公開的規則網頁，代號 000～004，見[第 0 課的來源表](00-how-to-use.ipynb)）：
#
# | 頁 | 內容 | 規則依據（rules basis） |
# |---|---|---|
# | 000「百家樂補牌規則」 | 點數怎麼算、7＋8＝15 | Singapore GRA Commission Baccarat (RWS) Game Rules v4；Pennsylvania Code Chapter 631a（計點） |
# | 001 DG 百家樂第三張牌 | 點數表、7＋8、K＋6 | Singapore GRA Baccarat Game Rules |
# | 003 Taiwan Baccarat 規則書 | 1＋6、8＋7、0＋9、6＋8＋7＝21 | 標準 Punto Banco |
# | 004 新手規則總覽 | K＋9、7＋8、9＋6、4＋5、花色 | （未列規則依據） |
#
# > 本課是規則教育，不是下注建議：點數怎麼算，不會改變任何一注的期望值。

# %% [markdown] lang=en
# # Lesson 1 — Card values and totals
#
# Every coup of standard baccarat (Punto Banco) compares the **totals** of two hands, the Player's and the Banker's; the hand closer to 9 wins.
# Every drawing decision starts from a total, so the first lesson teaches one thing only: **how to work out the total of a hand**.
#
# The source pages this lesson relies on (the course quotes five public rules pages, ids 000–004; see [the table of sources in lesson 0](00-how-to-use.ipynb)):
#
# | Page | What it gives | Rules it cites |
# |---|---|---|
# | 000 「百家樂補牌規則」 (translation: "Baccarat drawing rules") | how totals are counted, 7 + 8 = 15 | Singapore GRA Commission Baccarat (RWS) Game Rules v4; Pennsylvania Code Chapter 631a (totals) |
# | 001 DG, baccarat's third card | the table of values, 7 + 8, K + 6 | Singapore GRA Baccarat Game Rules |
# | 003 Taiwan Baccarat rule book | 1 + 6, 8 + 7, 0 + 9, 6 + 8 + 7 = 21 | standard Punto Banco |
# | 004 beginner's overview | K + 9, 7 + 8, 9 + 6, 4 + 5, suits | (cites no rules) |
#
# > This lesson is rules education, not betting advice: how a total is counted changes no bet's expectation.

# %% [markdown] lang=zh
# ## 0. 載入工具包（the kit）
#
# 每一課都匯入已安裝的 `baccarat_kit`。所有規則判斷都由它的規則引擎（rules engine）計算，筆記本裡不另寫規則。
# 說明文字預設為繁體中文；把 `"zh"` 改成 `"en"` 可改看英文。

# %% [markdown] lang=en
# ## 0. Loading the kit
#
# Every lesson imports the installed `baccarat_kit`. Every rule decision is made by its rules engine; no notebook writes a rule of its own.
# This edition sets the kit's language to English (`bk.set_language("en")`), so everything it prints is in English.

# %%
import baccarat_kit as bk
from baccarat_kit.i18n import message

LANG = bk.set_language(EDITION_LANG)

# %% [markdown] lang=zh
# ## 1. 每張牌值幾點（card value）
#
# 來源 000 的說法：
#
# > 「A 算 1 點，2～9 按牌面點數，10、J、Q、K 都算 0 點；合計只取個位數。」
#
# 下表不是手寫的，而是逐一問引擎「這張牌值幾點」（`bk.Card(rank).value`）得到的：

# %% [markdown] lang=en
# ## 1. What each card is worth (card value)
#
# Source 000 says (quoted in Chinese; the English is our translation):
#
# > 「A 算 1 點，2～9 按牌面點數，10、J、Q、K 都算 0 點；合計只取個位數。」
# >
# > *Translation:* "A counts 1, 2 to 9 count their face value, 10, J, Q and K all count 0; of the sum only the last digit is kept."
#
# The table below is not typed by hand: it asks the engine, card by card, "what is this card worth?" (`bk.Card(rank).value`):

# %%
bk.display.values_table()

# %% [markdown] lang=zh
# 單獨問一張牌也可以：`bk.Card("K").value`。注意 10、J、Q、K 都是 0 點，不是 10 點。

# %% [markdown] lang=en
# You can ask about a single card too: `bk.Card("K").value`. Note that 10, J, Q and K are all worth 0, not 10.

# %%
[(rank, bk.Card(rank).value) for rank in ["A", "9", "10", "J", "Q", "K"]]

# %% [markdown] lang=zh
# ## 2. 加總後只取個位數（last digit only）
#
# 點數相加後，十位數直接丟掉，所以百家樂點數永遠是 0 到 9。來源 004 說：
#
# > 「7 加 8 等於 15，但百家樂只算個位的 5，所以這手是 5 點，不是 15 點。」
#
# 用 `bk.hand_total` 計算一手牌的點數：

# %% [markdown] lang=en
# ## 2. Keep only the last digit
#
# When values are added, the tens digit is dropped, so a baccarat total is always 0 to 9. Source 004 says:
#
# > 「7 加 8 等於 15，但百家樂只算個位的 5，所以這手是 5 點，不是 15 點。」
# >
# > *Translation:* "7 plus 8 is 15, but baccarat counts only the last digit, 5, so this hand is worth 5, not 15."
#
# `bk.hand_total` works out the total of a hand:

# %%
bk.hand_total("7 8")

# %% [markdown] lang=zh
# 下面把來源給的每一個例子都交給引擎算一次（「出處」欄寫來源頁的編號）。
#
# * 003 把 A 寫成它的點數「1 + 6 = 7 點」，在工具包裡 A 要打成 `A`；
# * 003 的「0 + 9 = 9 點」寫在「10、J、Q、K = 0 點」旁邊，所以 10、J、Q、K 四種都算一次。

# %% [markdown] lang=en
# Below, every example the sources give is worked out by the engine (the "Source" column gives the id of the source page).
#
# * 003 writes the A as its value, "1 + 6 = 7"; in the kit an A is typed `A`;
# * 003's "0 + 9 = 9" stands next to "10, J, Q, K = 0", so each of 10, J, Q and K is tried once.

# %%
examples = [
    ("7 8", message("nb.sources", a="000", b="001", c="004")),
    ("K 6", "001"),
    ("6 8 7", "003"),
    ("K 9", "004"),
    ("9 6", "004"),
    ("4 5", "004"),
    ("A 6", message("nb.written-as", source="003", text="1 + 6")),
    ("8 7", "003"),
    ("10 9", message("nb.written-as", source="003", text="0 + 9")),
    ("J 9", message("nb.written-as", source="003", text="0 + 9")),
    ("Q 9", message("nb.written-as", source="003", text="0 + 9")),
]
bk.display.totals_table(examples)

# %% [markdown] lang=zh
# 再和來源寫下的答案逐一對照（這些數字是**抄自來源的結果**，不是規則）：
# 000「7＋8＝15，百家樂點數為 5 點」、001「K加6等於6」、003「6 + 8 + 7 = 21,最後就是 1 點」、
# 004「一手 K 配 9，點數是 0 加 9 等於 9」「9 加 6 等於 15，一樣是 5 點」「4 加 5 等於 9」、
# 003「1 + 6 = 7 點」「8 + 7 = 15 → 5 點」「0 + 9 = 9 點」。

# %% [markdown] lang=en
# Next, each result the sources write down is compared with the engine's (these numbers are **copied from the sources' results**; they are not rules):
# 000 「7＋8＝15，百家樂點數為 5 點」 (translation: "7 + 8 = 15, a baccarat total of 5"), 001 「K加6等於6」 (translation: "K plus 6 is 6"), 003 「6 + 8 + 7 = 21,最後就是 1 點」 (translation: "6 + 8 + 7 = 21, so the total is 1"),
# 004 「一手 K 配 9，點數是 0 加 9 等於 9」 (translation: "a hand of K and 9 is 0 plus 9, which is 9"), 「9 加 6 等於 15，一樣是 5 點」 (translation: "9 plus 6 is 15, again 5"), 「4 加 5 等於 9」 (translation: "4 plus 5 is 9"),
# 003 「1 + 6 = 7 點」 (translation: "1 + 6 = 7"), 「8 + 7 = 15 → 5 點」 (translation: "8 + 7 = 15 → 5"), 「0 + 9 = 9 點」 (translation: "0 + 9 = 9"). (English renderings: our translations.)

# %%
quoted = {"7 8": 5, "K 6": 6, "6 8 7": 1, "K 9": 9, "9 6": 5, "4 5": 9,
          "A 6": 7, "8 7": 5, "10 9": 9, "J 9": 9, "Q 9": 9}
bk.display.table(
    [message(f"nb.col.{col}") for col in ("cards", "quoted-total", "engine-total", "agree")],
    [[c, t, bk.hand_total(c), "✓" if bk.hand_total(c) == t else "✗"] for c, t in quoted.items()],
)

# %% [markdown] lang=zh
# 三張牌也一樣只取個位數：003 的 6 + 8 + 7 = 21，百家樂點數是 1。
# 一手牌最多三張（002：「每一手最多只可再取得一張額外牌」），所以不會有四張牌的點數。

# %% [markdown] lang=en
# Three cards also keep only the last digit: 003's 6 + 8 + 7 = 21 is a baccarat total of 1.
# A hand has at most three cards (002: 「每一手最多只可再取得一張額外牌」, translation: "each hand may receive at most one additional card"), so there is no four-card total.

# %% [markdown] lang=zh
# ## 3. 花色不影響點數（suits）
#
# 004：「花色（黑桃、紅心、方塊、梅花）完全不影響點數，只看數字。」003 也說「花色不影響點數」。
# 把 004 的 K 配 9 換上四種花色（suit）問引擎：

# %% [markdown] lang=en
# ## 3. Suits do not matter
#
# 004: 「花色（黑桃、紅心、方塊、梅花）完全不影響點數，只看數字。」 (translation: "The suit (spades, hearts, diamonds, clubs) has no effect at all on the total; only the number counts.") 003 also says 「花色不影響點數」 (translation: "suits do not affect the total").
# Give 004's K and 9 each of the four suits and ask the engine:

# %%
{f"{king} 9": bk.hand_total(f"{king} 9") for king in ["K♠", "K♥", "K♦", "K♣"]}

# %% [markdown] lang=zh
# ## 4. 怎麼輸入牌（`bk.parse_cards`）
#
# `bk.parse_cards` 把文字變成牌（`Card`）。學習者可以這樣打：
#
# * 點數：`A`、`2`～`10`、`J`、`Q`、`K`（大小寫都可以；`10` 也可以寫 `T`）；
# * 花色可省略：`♠♥♦♣` 或 `S H D C`；
# * 牌與牌之間用空白、逗號（`,` `，`）、頓號（`、`）或分號隔開。
#
# 下面每一行都是來源裡的牌，只是打法不同（`Q♥ 9S` 的花色是本課加上的打法示範，來源沒有寫花色）；引擎讀出的牌與點數都一樣：

# %% [markdown] lang=en
# ## 4. Typing cards (`bk.parse_cards`)
#
# `bk.parse_cards` turns text into cards (`Card`). A learner may type:
#
# * ranks: `A`, `2` to `10`, `J`, `Q`, `K` (upper or lower case; `10` may also be written `T`);
# * an optional suit: `♠♥♦♣` or `S H D C`;
# * cards separated by spaces, commas (`,` or the Chinese `，`), the Chinese list mark `、` or semicolons.
#
# Each line below holds cards from the sources, typed in different ways (the suits of `Q♥ 9S` are this lesson's typing example; no source gives suits); the engine reads the same cards and the same total:

# %%
typed = ["7 8", "K，6", "6、8、7", "k,9", "Q♥ 9S", "t 9"]
bk.display.table(
    [message(f"nb.col.{col}") for col in ("typed", "parsed", "total")],
    [[text, bk.format_cards(bk.parse_cards(text)), bk.hand_total(text)] for text in typed],
)

# %% [markdown] lang=zh
# 讀出來的牌可以原樣再讀回去（`repr` round-trips）：

# %% [markdown] lang=en
# A card list the kit prints can be read back as it is (`repr` round-trips):

# %%
cards = bk.parse_cards("6、8、7")
cards, bk.parse_cards(bk.format_cards(cards)) == cards

# %% [markdown] lang=zh
# ## 5. 打錯時，工具包會說清楚（clear errors）
#
# 打了不是牌的東西，工具包會拋出 `bk.CardError`（屬於 `bk.BaccaratError`），訊息會指出**錯在哪個字**以及**可以打什麼**。
# 例如照著 003 的寫法打「1 + 6」的 `1`，或把 003 的 `0` 當成一張牌：

# %% [markdown] lang=en
# ## 5. Clear errors when something is mistyped
#
# Typing something that is not a card raises `bk.CardError` (a kind of `bk.BaccaratError`), whose message points to **the word that is wrong** and **what may be typed**.
# For example, typing the `1` of 003's "1 + 6", or taking 003's `0` for a card:

# %%
for text in ["1 6", "0 9", "11", "7 + 8"]:
    try:
        bk.parse_cards(text)
    except bk.CardError as err:
        print(f"{text!r}: {err}")

# %% [markdown] lang=zh
# 同一個錯誤也有英文版（`err.message("en")`）：

# %% [markdown] lang=en
# The same error in a chosen language (`err.message("en")`; `err.message("zh")` gives Traditional Chinese):

# %%
try:
    bk.hand_total("1 6")
except bk.BaccaratError as err:
    print(err.message("en"))

# %% [markdown] lang=zh
# 沒有牌就沒有點數：

# %% [markdown] lang=en
# No cards, no total:

# %%
try:
    bk.hand_total("")
except bk.BaccaratError as err:
    print(err)

# %% [markdown] lang=zh
# ## 6. 動手試試：手牌組合器（HandBuilder）
#
# 在下拉選單選牌，或在文字框打一串牌再按 Enter（打法同第 4 節），組合器會用引擎算出兩手的點數、每一步的理由和結果。
# 牌依發牌順序：閒 1、莊 1、閒 2、莊 2，再來是牌靴接下來的牌。
# 預設是 000 的 BCR-001（「發牌依序閒2、莊3、閒3、莊4」，閒家第三張 4）。把牌換成 10、J、Q、K，看點數怎麼變。
# 右上角的「中文／English」可以切換說明的語言（language toggle）。

# %% [markdown] lang=en
# ## 6. Try it: the hand builder (HandBuilder)
#
# Pick cards in the drop-downs, or type a sequence of cards in the text box and press Enter (typed as in section 4); the builder has the engine work out both totals, the reason for each step and the result.
# Cards go in deal order: player 1, banker 1, player 2, banker 2, then the next cards in the shoe.
# It starts on 000's BCR-001 (「發牌依序閒2、莊3、閒3、莊4」, translation: "dealt in order player 2, banker 3, player 3, banker 4"; the player's third card is 4). Change cards to 10, J, Q or K and watch the totals.
# The 中文／English switch at the top right changes the language of the explanations.

# %%
hand = bk.widgets.HandBuilder("2 3 3 4 4", lang=LANG)
hand

# %% [markdown] lang=zh
# 下面這格用**另一個**組合器（不顯示，上面那個仍停在 BCR-001）打進 000 BCR-008 的牌（閒4+4、莊4+5），再讀出它顯示的點數：

# %% [markdown] lang=en
# The cell below uses **another** builder (hidden; the one above stays on BCR-001) to enter the cards of 000's BCR-008 (player 4+4, banker 4+5) and read out the totals it shows:

# %%
from IPython.display import HTML

demo = bk.widgets.HandBuilder("2 3 3 4 4", lang=LANG)
demo.sequence.value = "4 4 4 5"
HTML(demo.totals.value)

# %% [markdown] lang=zh
# ## 7. 自我檢測（self-check）
#
# 題目是課程資料裡的一組題（`Quiz.lesson("01")`），每一題的正確答案都在建立測驗時由規則引擎算出，這一格看不到答案。
# 每題以**第一次提交**的答案計分；答錯時會看到正確答案和為什麼；你選的選項是某個常見誤解時，也會點出是哪一個。之後再交不再計分。做完會有總結，按「重新開始」可以再做一次。

# %% [markdown] lang=en
# ## 7. Self-check
#
# The questions are a named question set in the course data (`Quiz.lesson("01")`); every correct answer is computed by the rules engine when the quiz is built, so this cell shows no answer.
# Each question is scored on the **first answer submitted**; a wrong answer shows the correct one and why (and names the common misconception when the option you chose is one), and answers after that no longer count. At the end there is a summary, and "start again" resets the quiz.

# %%
quiz = bk.widgets.Quiz.lesson("01", lang=LANG)
quiz

# %% [markdown] lang=zh
# ## 下一步（what next）
#
# * 下一課：[第 2 課　例牌（Natural）](02-naturals.ipynb)
# * 本課的練習：[練習 01　牌值與點數](../exercises/01-card-values.ipynb)（在自己的副本裡作答，`check("q1")` 立刻回饋）
# * 不寫程式的練習：[補牌訓練器（trainer）](../trainer/trainer.ipynb)
# * 回到[課程地圖](00-how-to-use.ipynb)

# %% [markdown] lang=en
# ## What next
#
# * Next lesson: [Lesson 2 Naturals](02-naturals.ipynb)
# * This lesson's exercise: [Exercise 01 Card values and totals](../../exercises/en/01-card-values.ipynb) (answer in your own copy; `check("q1")` gives instant feedback)
# * Practice without code: [the drawing trainer](../../trainer/trainer.ipynb)
# * Back to the [course map](00-how-to-use.ipynb)
