# %% [markdown] lang=zh
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
# 每一組都**先問你**（先猜，再看）：002 的四個案例問莊家補不補，003 的四個牌例問誰贏；選了之後，
# 才出現來源的原文與引擎的逐步說明，再下面是來源與引擎的整張對照。
#
# > 本課是規則教育，不是下注建議。

# %% [markdown] lang=en
# # Lesson 6 — Cases A–D, twice, and common mistakes
#
# Two source pages each have a set of cases called "A–D", but **they are different cases**; this lesson keeps them apart with different ids:
#
# | Set | Source page | Rules it cites | What the source gives | Ids |
# |---|---|---|---|---|
# | the four third-card cases most often misjudged | 002 HKCash, the third-card matrix | Massachusetts Gaming Commission, Baccarat 4.11.2024 | the player's total, the player's third card, the banker's total → **does the banker draw or stand** | `HK-A`…`HK-D` |
# | real card examples A–D | 003 Taiwan Baccarat rule book | standard Punto Banco | starting totals, the cards drawn → **final totals and the winner** | `TW-A`…`TW-D` |
#
# Both sets are **partial cases**: the sources give only totals and third-card values, not every card,
# and this lesson makes up no card for them. The rules engine checks every claim the sources' data allows it to check.
#
# The last section lists the common mistakes the sources name, each paired with a case in which the engine shows what is right.
#
# Each set **asks you first** (predict, then see): for 002's four cases, does the banker draw; for 003's four card examples, who wins. Only once you choose
# do the source's words and the engine's steps appear, and below them the full comparison of source and engine.
#
# > This lesson is rules education, not betting advice.

# %%
import baccarat_kit as bk
from baccarat_kit.i18n import message

LANG = bk.set_language(EDITION_LANG)
catalogue = bk.cases.load()
hk = [catalogue[f"HK-{x}"] for x in "ABCD"]
tw = [catalogue[f"TW-{x}"] for x in "ABCD"]
[(c.id, c.source) for c in hk + tw]

# %% [markdown] lang=zh
# ## 1. 002 的案例 A–D：只問莊家補不補
#
# 002：「最容易犯的錯誤是先看到『莊家 5 點』就直接決定補或停。正確做法應先問：閒家有沒有第三張？
# 如果有，第三張的百家樂點值是多少？」
#
# 先猜：四個案例都只給閒家點數、閒家第三張與莊家點數，莊家補牌還是停牌？

# %% [markdown] lang=en
# ## 1. 002's cases A–D: only whether the banker draws
#
# 002: 「最容易犯的錯誤是先看到『莊家 5 點』就直接決定補或停。正確做法應先問：閒家有沒有第三張？如果有，第三張的百家樂點值是多少？」
# *Translation:* "The most common mistake is to see 'banker 5' and decide at once to draw or stand. The right way is to ask first: does the player have a third card? If so, what is its baccarat value?"
#
# Predict first: each of the four cases gives only the player's total, the player's third card and the banker's total. Does the banker draw or stand?

# %%
bk.widgets.Predict("HK-A", lang=LANG, record="06")

# %%
bk.widgets.Predict("HK-B", lang=LANG, record="06")

# %%
bk.widgets.Predict("HK-C", lang=LANG, record="06")

# %%
bk.widgets.Predict("HK-D", lang=LANG, record="06")

# %% [markdown] lang=zh
# 四個都猜過之後，看整組：下面的對照表左邊是來源的已知條件與判定，右邊是引擎的判定、理由與規則編號。

# %% [markdown] lang=en
# Once you have predicted all four, look at the whole set: in the cards below, the left side is the source's givens and verdict (its words in Chinese, with the kit's English translation beneath), the right side the engine's decision, reason and rule id.

# %%
viewer = bk.widgets.CaseViewer("HK-A", cases=[c.id for c in hk + tw], lang=LANG)
viewer

# %% [markdown] lang=zh
# 上面的案例檢視器（CaseViewer）放了兩組案例 A–D：選一個案例，按「下一步」一步一步看；左邊是來源的原文，右邊是引擎推出的每一步。
# 下面每一張對照表是同樣的內容，一次看完：

# %% [markdown] lang=en
# The case viewer (CaseViewer) above holds both sets of cases A–D: pick a case and press "next step" to go through it; the source's words are on the left, the engine's steps on the right.
# Each comparison card below shows the same, all at once:

# %%
bk.widgets.case_card("HK-A", lang=LANG)

# %%
bk.widgets.case_card("HK-B", lang=LANG)

# %%
bk.widgets.case_card("HK-C", lang=LANG)

# %%
bk.widgets.case_card("HK-D", lang=LANG)

# %% [markdown] lang=zh
# 用**莊家補牌檢查器**（RuleChecker）自己重現：選莊家點數與閒家第三張，它從引擎讀出補或停，
# 並在矩陣（matrix）上標出那一格。它從案例 A（莊 3、閒第三張 8）開始。

# %% [markdown] lang=en
# Reproduce them yourself with the **banker rule checker** (RuleChecker): pick the banker's total and the player's third card; it reads draw or stand from the engine
# and marks that square in the matrix. It starts on case A (banker 3, player's third card 8).

# %%
checker = bk.widgets.RuleChecker(banker_total=3, player_third=8, lang=LANG)
checker

# %% [markdown] lang=zh
# 下一格用**另一個**檢查器（不顯示，上面那個仍停在案例 A）逐一重現四個案例，並和來源的判定並排：

# %% [markdown] lang=en
# The next cell uses **another** checker (hidden; the one above stays on case A) to reproduce the four cases one by one, beside the source's verdicts:

# %%
demo_checker = bk.widgets.RuleChecker(lang=LANG)
rows = []
for case in hk:
    demo_checker.check(case.claims["banker_first_total"], case.claims["player_third"])
    rows.append([case.id, bk.widgets.plain_text(demo_checker.decision), demo_checker.rule,
                 bk.display.decision(case.claims["banker_decision"] == "draw")])
bk.display.table([message(f"nb.col.{col}") for col in ("case", "checker", "rule", "source-verdict")], rows)

# %% [markdown] lang=zh
# ## 2. 003 的牌例 A–D：一直算到勝負
#
# 003 的牌例給出最後點數與勝負。牌例 A 只給了莊家的 2＋3 與補到的 8（「最後莊家 (2 + 3 + 8) = 3 點」），
# 閒家的兩張牌沒有給，所以引擎查核的是：莊家首兩張合計、閒家 7 點停牌、莊家 5 點補牌、兩邊最後點數與勝負。
#
# 先猜：每個牌例給了起手點數與補到的牌，這一局誰贏？

# %% [markdown] lang=en
# ## 2. 003's card examples A–D: all the way to the winner
#
# 003's card examples give final totals and the winner. Card example A gives only the banker's 2 + 3 and the 8 it draws (「最後莊家 (2 + 3 + 8) = 3 點」, translation: "the banker ends on (2 + 3 + 8) = 3"),
# not the player's two cards, so the engine checks: the banker's first-two-card total, the player standing on 7, the banker drawing on 5, both final totals and the winner.
#
# Predict first: each card example gives the starting totals and the cards drawn. Who wins?

# %%
bk.widgets.Predict("TW-A", asks="winner", lang=LANG, record="06")

# %%
bk.widgets.Predict("TW-B", asks="winner", lang=LANG, record="06")

# %%
bk.widgets.Predict("TW-C", asks="winner", lang=LANG, record="06")

# %%
bk.widgets.Predict("TW-D", asks="winner", lang=LANG, record="06")

# %% [markdown] lang=zh
# 四個都猜過之後，來源與引擎的整張對照：

# %% [markdown] lang=en
# Once you have predicted all four, the full comparison of source and engine:

# %%
bk.widgets.case_card("TW-A", lang=LANG)

# %%
bk.widgets.case_card("TW-B", lang=LANG)

# %%
bk.widgets.case_card("TW-C", lang=LANG)

# %%
bk.widgets.case_card("TW-D", lang=LANG)

# %% [markdown] lang=zh
# ### 同一個問題，兩組都有
#
# 002 的案例 A（莊 3 遇閒第三張 8）和 003 的牌例 C（閒 4 補 8、莊 3 停）用的是**同一格規則**。
# `cases coverage` 從引擎的規則編號算出每一格有哪些案例：

# %% [markdown] lang=en
# ### The same question in both sets
#
# 002's case A (banker 3 facing a player third card 8) and 003's card example C (the player draws an 8 on 4, banker 3 stands) use **the same square of the rules**.
# `cases coverage` works out from the engine's rule ids which cases use each square:

# %%
coverage = catalogue.coverage()
coverage.cases["banker-3-vs-8"]

# %% [markdown] lang=zh
# 兩組合起來，仍有許多格子沒有任何來源的案例（例如莊家 0、1 點的整列）。下表每一格是用到那一格規則的案例數，「·」是沒有案例：

# %% [markdown] lang=en
# Together the two sets still leave many squares without any case from the sources (for example the whole rows for banker 0 and 1). Each square below is the number of cases using that rule; "·" means none:

# %%
grid = coverage.table().splitlines()
print("\n".join(grid[2:11]))
from baccarat_kit.cases.coverage import banker_cells

cells = len(banker_cells())
print(message("nb.coverage-line", cells=cells, covered=coverage.covered_banker))

# %% [markdown] lang=zh
# ## 3. 常見錯誤（common mistakes）
#
# 002 的表說得很直接：「補牌表通常不是記錯數字，而是用錯前提」。下面是 `bk.misconceptions`
# 收錄、出自來源的常見錯誤，每一條配一個目錄裡的案例，由引擎示範正確的做法。
#
# 看表之前，先猜兩個最常被誤判的情況：閒家停牌時莊家怎麼辦（002 的「情況 A」），以及補牌後的 8 算不算例牌（000 的 BCR-004 變化題）。

# %% [markdown] lang=en
# ## 3. Common mistakes
#
# 002's table says it bluntly: 「補牌表通常不是記錯數字，而是用錯前提」 (translation: "with the drawing table, the usual problem is not a misremembered number but a wrong premise"). Below are the common mistakes
# collected in `bk.misconceptions` from the sources, each paired with a case from the catalogue in which the engine shows what is right.
#
# Before the table, predict two of the situations most often misjudged: what the banker does when the player stood (002's "situation A"), and whether an 8 after a third card is a natural (000's variant of BCR-004).

# %%
bk.widgets.Predict("HK-STOOD", lang=LANG, record="06")

# %%
bk.widgets.Predict("BCR-004-variant", asks="winner", lang=LANG, record="06")

# %% [markdown] lang=zh
# 來源列出的常見錯誤與引擎的示範：

# %% [markdown] lang=en
# The common mistakes the sources list, and the engine's demonstration:

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
        evidence = message("nb.decision-why", reason=decision.reason(), why=decision.why())
    else:
        evidence = case.coup().explain().split("\n")[-1]
    rows.append([f"✘ {m.claim()}", f"✔ {m.correction()}",
                 message("nb.case-evidence", case=case_id, source=case.source, evidence=evidence)])
bk.display.table([message(f"nb.col.{col}") for col in ("mistake", "correction", "engine-case")], rows)

# %% [markdown] lang=zh
# 其他由來源列出、與補牌判斷無關的誤解（牌值、下注區名稱、路單、傭金、和局）：

# %% [markdown] lang=en
# Other misconceptions the sources list that are not about drawing (card values, bet-area names, roads, commission, ties):

# %%
bk.display.table(
    [message(f"nb.col.{col}") for col in ("mistake", "correction", "source")],
    [[m.claim(), m.correction(), m.source.replace("自己判斷", message("nb.source-self-check"))]
     for m in bk.misconceptions.all_misconceptions() if m.id not in examples and not m.kit_claim],
)

# %% [markdown] lang=zh
# ## 自我檢測（self-check）
#
# 題目換了來源案例沒有的格子與牌（例如閒家第三張是 Q、閒家補牌後最後 9 點），每一題都對應上面的一種常見錯誤。
# 題目是課程資料裡的一組題（`Quiz.lesson("06")`），每一題的正確答案都在建立測驗時由規則引擎算出，這一格看不到答案。
# 每題以**第一次提交**的答案計分；答錯時會看到正確答案和為什麼；你選的選項是某個常見誤解時，也會點出是哪一個。之後再交不再計分。做完會有總結，按「重新開始」可以再做一次。

# %% [markdown] lang=en
# ## Self-check
#
# The questions use squares and cards the sources' cases do not (for example a player third card Q, or a player who draws and ends on 9); each matches one of the common mistakes above.
# The questions are a named question set in the course data (`Quiz.lesson("06")`); every correct answer is computed by the rules engine when the quiz is built, so this cell shows no answer.
# Each question is scored on the **first answer submitted**; a wrong answer shows the correct one and why (and names the common misconception when the option you chose is one), and answers after that no longer count. At the end there is a summary, and "start again" resets the quiz.

# %%
quiz = bk.widgets.Quiz.lesson("06", lang=LANG)
quiz

# %% [markdown] lang=zh
# ## 下一步（what next）
#
# * 下一課：[第 7 課　結算](07-settlement.ipynb)
# * 本課的練習：[練習 06　常見錯誤](../exercises/06-misconceptions.ipynb)（在自己的副本裡作答，`check("q1")` 立刻回饋）
# * 不寫程式的練習：[補牌訓練器（trainer）](../trainer/trainer.ipynb)
# * 回到[課程地圖](00-how-to-use.ipynb)

# %% [markdown] lang=en
# ## What next
#
# * Next lesson: [Lesson 7 Settlement](07-settlement.ipynb)
# * This lesson's exercise: [Exercise 06 Common mistakes](../../exercises/en/06-misconceptions.ipynb) (answer in your own copy; `check("q1")` gives instant feedback)
# * Practice without code: [the drawing trainer](../../trainer/trainer.ipynb)
# * Back to the [course map](00-how-to-use.ipynb)
