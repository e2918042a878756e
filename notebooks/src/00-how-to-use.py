# %% [markdown] lang=zh
# # 第 0 課　怎麼使用這門課（How to use this course）
#
# > **先讀這裡。** 這是一本 Jupyter 筆記本（notebook）。灰色的格子是程式格（code cell），要**執行**才會動：
# > 選單 **Run → Run All Cells** 會從上到下執行每一格。還沒執行時，小工具（widgets）只會顯示成一個虛線框的
# > 「靜態預覽」；執行之後才能點選、切換。
#
# > **英文版（English edition）：**[用英文看這一課](en/00-how-to-use.ipynb)；每一課與每一份練習都有英文版（見課程地圖）。
#
# 這是一門講**百家樂（Punto Banco / Baccarat）的固定補牌規則與結算**（drawing rules, third-card rules; settlement）的課。
# 每一課都是一本筆記本：文字說明、可以執行的程式格，以及可以動手操作的小工具。
#
# 本課介紹：
#
# 1. 怎麼執行筆記本（run a cell, Run All, restart）；
# 2. 課程地圖（course map）：每一課、每一份練習與訓練器的連結；
# 3. 課程的立場（the course's stance）；
# 4. 五個來源頁與各自的規則依據（sources and rules bases）；
# 5. 規則引擎 `baccarat_kit` 的用法；
# 6. 語言切換（中文／English）；
# 7. 五個小工具：手牌組合器、莊家補牌檢查器、案例檢視器、牌靴追蹤器、自我檢測；
# 8. 第一個自我檢測（self-check）。

# %% [markdown] lang=en
# # Lesson 0 — How to use this course
#
# > **Read this first.** This is a Jupyter notebook. The grey boxes are code cells; they do something only when you **run** them:
# > the menu **Run → Run All Cells** runs every cell from top to bottom. Until then, the widgets show only as a dashed-border
# > "static preview"; once run, you can click and change them.
#
# > **Traditional Chinese edition:** [open this lesson in Chinese](../00-how-to-use.ipynb). The course is written in
# > Traditional Chinese first; this English edition is built from the same lesson sources, with the same code and the same cases.
#
# This is a course on the **fixed drawing rules (third-card rules) and the settlement of baccarat (Punto Banco)**.
# Every lesson is a notebook: explanations, code cells you can run, and widgets you can use.
#
# This lesson covers:
#
# 1. how to run a notebook (run a cell, Run All, restart);
# 2. the course map: a link to every lesson, every exercise and the trainer;
# 3. the course's stance;
# 4. the five source pages and the rules each one cites;
# 5. how to use the rules engine `baccarat_kit`;
# 6. languages (Traditional Chinese / English);
# 7. five widgets: the hand builder, the banker rule checker, the case viewer, the shoe tracker and the self-check;
# 8. a first self-check.

# %% [markdown] lang=zh
# ## 1. 怎麼執行筆記本（running a notebook）
#
# | 想做的事 | 怎麼做 |
# |---|---|
# | 執行一格 | 點一下那一格，按 **Shift+Enter**（或工具列的 ▶）。格子左邊的 `[ ]` 變成 `[1]`、`[2]`… 表示執行過、第幾個執行。 |
# | 從頭執行整本 | 選單 **Run → Run All Cells**。 |
# | 全部重來 | 選單 **Kernel → Restart Kernel and Run All Cells…**：清掉所有變數，從第一格重新執行。跳著執行、改了前面的格子、結果看起來不對時，就這樣做。 |
# | 只清掉結果 | **Kernel → Restart Kernel…**，之後要再執行一次才會有結果。 |
# | 存檔 | **Ctrl+S**（File → Save Notebook）。 |
#
# 筆記本是**從上往下**執行的：後面的格子會用到前面格子建立的東西（例如 `bk`），所以第一次打開時請先 Run All Cells。
# 程式格可以修改：改一個數字、再按 Shift+Enter，就能看到引擎怎麼回答。改壞了就用「全部重來」。
#
# 小工具（widgets）要在執行之後才能操作。沒有執行時看到的虛線框是靜態預覽，只顯示它的樣子。
# 操作小工具：**Tab** 移到下一個控制項，下拉選單用 **↑／↓** 換值，按鈕用 **Space** 或 **Enter**。

# %% [markdown] lang=en
# ## 1. Running a notebook
#
# | To | Do |
# |---|---|
# | run one cell | click the cell and press **Shift+Enter** (or ▶ in the toolbar). The `[ ]` left of the cell becomes `[1]`, `[2]`…: it has run, and in which order. |
# | run the whole notebook | menu **Run → Run All Cells**. |
# | start over | menu **Kernel → Restart Kernel and Run All Cells…**: clears every variable and runs again from the first cell. Do this when you ran cells out of order, changed an earlier cell, or a result looks wrong. |
# | clear results only | **Kernel → Restart Kernel…**; run again to get results back. |
# | save | **Ctrl+S** (File → Save Notebook). |
#
# A notebook runs **from top to bottom**: later cells use what earlier cells made (such as `bk`), so the first time you open one, Run All Cells.
# You may edit code cells: change a number, press Shift+Enter again, and see what the engine answers. If you break something, start over.
#
# Widgets work only after they have run; the dashed box you see before is a static preview of what they look like.
# Using a widget: **Tab** moves to the next control, **↑/↓** change the value of a drop-down, **Space** or **Enter** press a button.

# %% [markdown] lang=zh
# 試一試：點一下下面這一格，按 Shift+Enter。它會算出 7＋8 的百家樂點數（第 1 課會解釋為什麼是 5）。

# %% [markdown] lang=en
# Try it: click the cell below and press Shift+Enter. It works out the baccarat total of 7 + 8 (lesson 1 explains why it is 5).
# The cell also sets the kit's language for this edition (`bk.set_language`): everything the kit prints below is in English.

# %%
import baccarat_kit as bk

LANG = bk.set_language(EDITION_LANG)
bk.hand_total("7 8")

# %% [markdown] lang=zh
# ## 2. 課程地圖（course map）
#
# 建議依序讀 01 → 04，再用 05、06 的案例練習；07 講錢怎麼算，08 用數字說明沒有押法能改變賭場優勢，10 是總結。
# 每一課最後都有自我檢測，以及下一課和對應練習的連結。
#
# | 課 | 主題 | 英文版 | 對應的練習 |
# |---|---|---|---|
# | [00](00-how-to-use.ipynb) | 怎麼使用這門課（本課） | [English](en/00-how-to-use.ipynb) | — |
# | [01](01-card-values.ipynb) | 牌值與點數 | [English](en/01-card-values.ipynb) | [練習 01　牌值與點數](../exercises/01-card-values.ipynb) |
# | [02](02-naturals.ipynb) | 例牌（Natural） | [English](en/02-naturals.ipynb) | [練習 02　例牌與閒家規則](../exercises/02-naturals-player.ipynb) |
# | [03](03-player-rule.ipynb) | 閒家補牌規則 | [English](en/03-player-rule.ipynb) | [練習 02　例牌與閒家規則](../exercises/02-naturals-player.ipynb) |
# | [04](04-banker-rule.ipynb) | 莊家補牌規則（兩個分支、矩陣、檢查器） | [English](en/04-banker-rule.ipynb) | [練習 03　莊家補牌規則](../exercises/03-banker-rule.ipynb) |
# | [05](05-bcr-cases.ipynb) | BCR-001～BCR-008：逐步打完每一局與「只改一個條件」的變化題 | [English](en/05-bcr-cases.ipynb) | [練習 04　整局判斷](../exercises/04-whole-coups.ipynb) |
# | [06](06-cases-a-d-and-mistakes.ipynb) | 兩組案例 A～D 與常見錯誤 | [English](en/06-cases-a-d-and-mistakes.ipynb) | [練習 06　常見錯誤](../exercises/06-misconceptions.ipynb) |
# | [07](07-settlement.ipynb) | 結算：傭金、免傭、和局、對子、燒牌與切牌、作廢局、帳務軌跡 | [English](en/07-settlement.ipynb) | [練習 05　結算](../exercises/05-settlement.ipynb) |
# | [08](08-odds-and-roads.ipynb) | 賠率、模擬、算牌、牌靴追蹤器與路單 | [English](en/08-odds-and-roads.ipynb) | — |
# | [09](09-instructors-adding-a-case.ipynb) | 給講師：把案例加進案例目錄 | [English](en/09-instructors-adding-a-case.ipynb) | — |
# | [10](10-summary.ipynb) | 總結：規則與數字 | [English](en/10-summary.ipynb) | — |
#
# **練習**（exercises）在 `exercises/` 資料夾：每一份都是要你自己寫答案的筆記本，寫完一題執行 `check("q1")` 立刻知道對不對。
# **補牌訓練器**（[trainer](../trainer/trainer.ipynb)）是不用寫程式的練習頁：手牌組合器、檢查器和一組題目；
# 也可以在終端機執行 `make trainer`，用瀏覽器當成網頁打開。


# %% [markdown] lang=en
# ## 2. The course map
#
# Read 01 → 04 in order, then practise on the cases of 05 and 06; 07 is about money, 08 shows with numbers that no way of betting changes the house edge, and 10 sums up.
# Every lesson ends with a self-check and links to the next lesson and to its exercise.
#
# | Lesson | Topic | Chinese edition | Exercise |
# |---|---|---|---|
# | [00](00-how-to-use.ipynb) | How to use the course (this lesson) | [中文](../00-how-to-use.ipynb) | — |
# | [01](01-card-values.ipynb) | Card values and totals | [中文](../01-card-values.ipynb) | [Exercise 01 Card values and totals](../../exercises/en/01-card-values.ipynb) |
# | [02](02-naturals.ipynb) | Naturals | [中文](../02-naturals.ipynb) | [Exercise 02 Naturals and the player rule](../../exercises/en/02-naturals-player.ipynb) |
# | [03](03-player-rule.ipynb) | The player's third-card rule | [中文](../03-player-rule.ipynb) | [Exercise 02 Naturals and the player rule](../../exercises/en/02-naturals-player.ipynb) |
# | [04](04-banker-rule.ipynb) | The banker's third-card rule (two branches, the matrix, the checker) | [中文](../04-banker-rule.ipynb) | [Exercise 03 The banker rule](../../exercises/en/03-banker-rule.ipynb) |
# | [05](05-bcr-cases.ipynb) | BCR-001 to BCR-008: every coup played out, with its "change one condition" variant | [中文](../05-bcr-cases.ipynb) | [Exercise 04 Whole coups](../../exercises/en/04-whole-coups.ipynb) |
# | [06](06-cases-a-d-and-mistakes.ipynb) | The two sets of cases A–D and common mistakes | [中文](../06-cases-a-d-and-mistakes.ipynb) | [Exercise 06 Common mistakes](../../exercises/en/06-misconceptions.ipynb) |
# | [07](07-settlement.ipynb) | Settlement: commission, no-commission, ties, pairs, burn and cut card, void rounds, the bookkeeping trail | [中文](../07-settlement.ipynb) | [Exercise 05 Settlement](../../exercises/en/05-settlement.ipynb) |
# | [08](08-odds-and-roads.ipynb) | Odds, simulation, card counting, the shoe tracker and roads | [中文](../08-odds-and-roads.ipynb) | — |
# | [09](09-instructors-adding-a-case.ipynb) | For instructors: adding a case to the catalogue | [中文](../09-instructors-adding-a-case.ipynb) | — |
# | [10](10-summary.ipynb) | Summing up: the rules and the numbers | [中文](../10-summary.ipynb) | — |
#
# The **exercises** are in the `exercises/en/` folder (the Chinese copies are in `exercises/`; both are graded the same way): each is a notebook where you write your own answers; after each question run `check("q1")` to know at once whether it is right.
# The **drawing trainer** ([trainer](../../trainer/trainer.ipynb)) is practice without code: the hand builder, the checker and a set of questions, each with a 中文／English switch;
# you can also run `make trainer` in a terminal and open it in a browser as a web page.

# %% [markdown] lang=zh
# ### 你做到哪裡（your progress）
#
# 下面的地圖讀你的**進度檔**：每一課的自我檢測答了幾題、規則練習目前熟練幾格、哪些格子熟練過但該溫習了、每份練習（自學版）的得分、期末測驗。
# 記錄存在你自己的課程資料夾（`.baccarat-progress.json`），重新啟動核心、關掉再打開都還在；中文版和英文版共用同一份。
# 地圖最上面是**今天**：現在到期的規則練習格子、你自己訂的每日目標（每天答幾題規則練習，預設 20 題；在欄位裡輸入數字後按 Enter）、連續學習天數（每天都達到目標的天數，以 UTC 日期計），以及前幾天在各課、練習、規則練習和期末測驗答錯的題目；按「複習」就在這裡只練到期的格子。
# 做完別課後回來按「重新整理」；在終端機執行 `baccarat-kit progress` 也會印出同樣的內容。
# 在 JupyterLite（瀏覽器版）裡，記錄存在瀏覽器的儲存空間：清除瀏覽器資料前，先按「匯出進度檔」並下載那個檔案。

# %% [markdown] lang=en
# ### Where you are (your progress)
#
# The map below reads your **progress record**: how many questions of each lesson's self-check you answered, how many cells of the rule drill are mastered now and which were mastered but are due for a refresh, each exercise's score (self-study copies) and the final test.
# The record is kept in your own course folder (`.baccarat-progress.json`); it survives a kernel restart and closing the notebook, and the Chinese and English editions share it.
# At the top of the map is **Today**: the drill cells due now, the daily goal you set (drill answers a day, 20 until you change it: type a number and press Enter), your study days in a row at that goal (UTC days), and the mistakes of past days in the lessons, the exercises, the drill and the final test; "Review" drills the due cells only, right here.
# Come back after other lessons and press "Refresh"; `baccarat-kit progress` in a terminal prints the same.
# In JupyterLite (the browser edition) the record lives in the browser's storage: before clearing the browser's data, press "Export my progress" and download that file.

# %%
bk.widgets.CourseMap(lang=LANG)

# %% [markdown] lang=zh
# ## 3. 課程的立場：規則教育，不是下注系統
#
# 這門課只解釋**固定規則做了什麼**：誰補牌、為什麼補、最後怎麼比點數、怎麼派彩。它不提供押注方法（betting system），
# 也不預測下一局。來源頁本身也是這樣說的：
#
# > 使用提醒：本頁用於規則查核與風險教育，不構成獲利保證、下注建議或法律意見；請遵守所在地法律，未達法定年齡者請勿參與。（000）
#
# > 補牌規則只用來說明當局的發牌流程，不能預測下一局會開莊、開閒或和局。（001）
#
# > 不過要誠實說，三種押法長期的期望值都是負的，建議把它當成娛樂、設好預算，而不是當成穩定獲利的方法。（004）
#
# 第 8 課（賠率與路單，odds and roads）會用精確的數字說明：每一注都有自己的賭場優勢（house edge），長期都對押注者不利；跟不跟路單或連莊，都改變不了它。
# （這是本課程的說明，不是來源的話：同一靴裡剩下的牌會讓下一局的機率稍微移動，第 8 課也會算給你看；那很小，也不是下注方法。）
# 例如 8 副牌的精確值：押莊（抽 5% 傭金）的賭場優勢是 1.06%、押閒 1.24%、押和 14.36%（和注賠 8:1 是本課程傭金桌的設定，來源沒有給和注的賠率），也就是每押 100 長期平均輸掉 1.06、1.24、14.36；
# 連開幾局莊之後，下一局開莊的機率（不計和局）仍是約 50.7%。本課最後的自我檢測會請引擎算其中一個。

# %% [markdown] lang=en
# ## 3. The course's stance: rules education, not a betting system
#
# This course explains only **what the fixed rules do**: who draws, why, how the totals are compared and how bets are paid. It offers no betting system
# and does not predict the next coup. The source pages say so themselves (quoted in Chinese; the English under each quote is our translation):
#
# > 使用提醒：本頁用於規則查核與風險教育，不構成獲利保證、下注建議或法律意見；請遵守所在地法律，未達法定年齡者請勿參與。（000）
# >
# > *Translation:* "A reminder: this page is for checking the rules and for risk education; it is no guarantee of profit, no betting advice and no legal advice. Obey the law where you are; if you are under the legal age, do not take part." (000)
#
# > 補牌規則只用來說明當局的發牌流程，不能預測下一局會開莊、開閒或和局。（001）
# >
# > *Translation:* "The drawing rules only describe how the current coup is dealt; they cannot predict whether the next coup is a banker win, a player win or a tie." (001)
#
# > 不過要誠實說，三種押法長期的期望值都是負的，建議把它當成娛樂、設好預算，而不是當成穩定獲利的方法。（004）
# >
# > *Translation:* "But to be honest, all three bets have a negative expectation in the long run; treat it as entertainment and set a budget, not as a steady way to make money." (004)
#
# Lesson 8 (odds and roads) shows with exact numbers that each bet has its own house edge, every one against the bettor in the long run, and that following roads or streaks changes none of them.
# (The course's own statement, not a source's: within a shoe the cards left move the next coup's odds slightly, and lesson 8 computes that too; it is small, and no betting system.)
# For example, the exact figures for 8 decks: the house edge is 1.06% on banker (5% commission), 1.24% on player and 14.36% on tie (the tie paying 8:1 is this course's commission table; no source gives the tie's odds), so every 100 staked loses 1.06, 1.24 and 14.36 on average in the long run;
# after any run of banker wins, the chance that the next coup is a banker win (ties left out) is still about 50.7%. The self-check at the end of this lesson asks the engine for one of them.

# %% [markdown] lang=zh
# ## 4. 五個來源頁與規則依據（sources and rules bases）
#
# 課程的內容、案例和牌序都來自下面五個公開的繁體中文網頁。它們引用的規則依據不同，但補牌表都是同一套標準 Punto Banco 規則。
# 課程照原文引用牌序，**來源沒有給的牌不會被補造**：只給點數的案例就保留為「部分案例（partial case）」。
#
# | 代號 | 來源頁 | 引用的規則依據 | 課程用到的內容 |
# |---|---|---|---|
# | 000 | 「百家樂補牌規則」規則查核頁 | 補牌表與範例1～5：Singapore GRA Commission Baccarat (RWS) Game Rules v4；BCR-001～008 與自己判斷：Pennsylvania Code §631a.11（計點與下注定義：Chapter 631a） | 閒家與莊家補牌表、範例1～5、BCR-001～BCR-008（完整牌局與變化題）、自己判斷、傭金與免傭、帳務軌跡、常見誤解 |
# | 001 | DG 百家樂第三張牌解說 | Singapore GRA Baccarat Game Rules | 三步順序（例牌 → 閒家 → 莊家）、10／J／Q／K 算 0、牌例一～五 |
# | 002 | HKCash 第三張牌矩陣 | Massachusetts Gaming Commission, Baccarat 4.11.2024 | 完整莊家矩陣、案例 A～D、常見錯誤表、每手最多補一張 |
# | 003 | Taiwan Baccarat 規則書 | 標準 Punto Banco | 一局流程、牌值例子、牌例 A～D（含最後結果） |
# | 004 | 新手規則總覽 | — | 牌值例子、派彩（莊 0.95、閒 1:1、和局時莊閒注「通常」原注退還）、免傭 Super 6、旁注另計 |
#
# 注意有兩組不同的「案例 A～D」：002 的（只判斷莊家補不補）和 003 的（有最後結果），課程用不同的編號區分（`HK-A`、`TW-A`）。

# %% [markdown] lang=en
# ## 4. The five source pages and the rules they cite
#
# The course's content, cases and card orders all come from the five public Traditional Chinese web pages below. They cite different rules, but their drawing tables are the same standard Punto Banco rules.
# The course quotes the cards exactly as given; **a card a source does not give is never made up**: a case given only as totals stays a "partial case".
#
# | Id | Source page (its title, translated) | Rules it cites | What the course uses |
# |---|---|---|---|
# | 000 | 「百家樂補牌規則」 (translation: "Baccarat drawing rules"), a rules-checking page | drawing tables and examples 1–5: Singapore GRA Commission Baccarat (RWS) Game Rules v4; BCR-001 to 008 and the self-check: Pennsylvania Code §631a.11 (totals and bet definitions: Chapter 631a) | player and banker drawing tables, examples 1–5, BCR-001 to BCR-008 (full coups and variants), the self-check, commission and no-commission, the bookkeeping trail, common misconceptions |
# | 001 | DG, baccarat's third card explained | Singapore GRA Baccarat Game Rules | the three steps in order (natural → player → banker), 10/J/Q/K count 0, card examples 1–5 |
# | 002 | HKCash, the third-card matrix | Massachusetts Gaming Commission, Baccarat 4.11.2024 | the full banker matrix, cases A–D, the table of common mistakes, at most one card more per hand |
# | 003 | Taiwan Baccarat rule book | standard Punto Banco | the flow of a coup, card-value examples, card examples A–D (with final results) |
# | 004 | A beginner's overview of the rules | — | card-value examples, payouts (banker 0.95, player 1:1, on a tie the banker and player bets are "usually" returned in full), no-commission Super 6, side bets settled separately |
#
# Note that there are two different sets of "cases A–D": 002's (only whether the banker draws) and 003's (with a final result); the course gives them different ids (`HK-A`, `TW-A`).

# %% [markdown] lang=zh
# ## 5. 規則引擎：`import baccarat_kit as bk`
#
# 每一課都從 `import baccarat_kit as bk` 開始（第 1 節已經執行過）。整門課只有**一個**規則引擎，
# 筆記本、小工具和案例都去問它，不另外抄一份補牌表。

# %% [markdown] lang=en
# ## 5. The rules engine: `import baccarat_kit as bk`
#
# Every lesson starts with `import baccarat_kit as bk` (section 1 already ran it). The whole course has **one** rules engine;
# the notebooks, the widgets and the cases all ask it, and no lesson keeps a second copy of the drawing table.

# %% [markdown] lang=zh
# `bk.play(...)` 依發牌順序（閒 1、莊 1、閒 2、莊 2，再補牌）打一局，並記下每一步的理由。
# 下面是 000 的 **BCR-001**：「發牌依序閒2、莊3、閒3、莊4」，閒家第三張 4。

# %% [markdown] lang=en
# `bk.play(...)` plays a coup in deal order (player 1, banker 1, player 2, banker 2, then the third cards) and records the reason for every step.
# Below is 000's **BCR-001**: 「發牌依序閒2、莊3、閒3、莊4」 (translation: "dealt in order player 2, banker 3, player 3, banker 4"); the player's third card is 4.

# %%
coup = bk.play("2 3 3 4 4")
print(coup.explain())

# %% [markdown] lang=zh
# 每一步都有固定的規則編號（rule id），案例、檢測和講師的評分工具都用它：

# %% [markdown] lang=en
# Every step has a fixed rule id; the cases, the self-checks and the instructors' grading tools all use it:

# %%
[(step.who, step.action, step.rule) for step in coup.steps]

# %% [markdown] lang=zh
# 牌可以用很多寫法輸入：`"2 3 3 4 4"`、`"A,K,10"`、`"Q♥ 9S"`（花色可省略，10 也可以寫 T）。寫錯時，引擎會說哪裡錯、可以用什麼：

# %% [markdown] lang=en
# Cards can be typed in many ways: `"2 3 3 4 4"`, `"A,K,10"`, `"Q♥ 9S"` (the suit may be left out, and 10 may be written T). When something is mistyped, the engine says what is wrong and what it accepts:

# %%
try:
    bk.play("2 3 11 4")
except bk.BaccaratError as err:
    print(err)

# %% [markdown] lang=zh
# 在終端機（terminal）也可以用同一個引擎：`baccarat-kit play 2 3 3 4 4`，或 `baccarat-kit --lang en play 2 3 3 4 4`。

# %% [markdown] lang=en
# The same engine works in a terminal: `baccarat-kit --lang en play 2 3 3 4 4` (without `--lang en` it answers in Traditional Chinese).

# %% [markdown] lang=zh
# ## 6. 語言切換（中文／English）
#
# 所有說明預設是繁體中文；工具包的每一則訊息、小工具、測驗與評分回饋也都有英文。
# 整門課（每一課與每一份練習）另有英文版：[English edition](en/00-how-to-use.ipynb)，由同一份課程原稿產生。
#
# 在筆記本裡切換工具包的語言，兩種方式：
#
# - 整個筆記本：`bk.set_language("en")`（改回來：`bk.set_language("zh")`）；
# - 只要一次：`coup.explain("en")`。

# %% [markdown] lang=en
# ## 6. Languages (Traditional Chinese / English)
#
# The course is written in Traditional Chinese first; every message of the kit, every widget, quiz and piece of grading feedback is also in English,
# and this English edition of every lesson and exercise is built from the same lesson sources as the [Chinese edition](../00-how-to-use.ipynb).
#
# This edition sets the kit's language once, in its first code cell (`bk.set_language("en")`). To switch the kit's language yourself:
#
# - for the whole notebook: `bk.set_language("zh")` (and back: `bk.set_language("en")`);
# - just once: `coup.explain("zh")` or, as below, `coup.explain("en")`.

# %%
print(coup.explain("en"))

# %% [markdown] lang=zh
# 每個小工具都有自己的語言開關（右上角的「中文／English」按鈕），也可以在建立時指定：`bk.widgets.RuleChecker(lang="en")`。

# %% [markdown] lang=en
# Every widget has its own language switch (the 中文／English button at its top right), and a language can be given when it is made: `bk.widgets.RuleChecker(lang="en")`.

# %% [markdown] lang=zh
# ## 7. 小工具（widgets）
#
# 小工具只是規則引擎的「畫面」：每一個判斷都是引擎算的。全部可以用鍵盤操作：
# **Tab** 移到下一個控制項，下拉選單用 **↑／↓** 換值，按鈕用 **Space** 或 **Enter**。
# 顏色從來不是唯一的提示：紅色的牌同時寫著花色（♥、♦）與文字，補牌／停牌寫成「補」「停」，答對答錯寫成 ✔／✘ 與文字。
#
# 每個小工具下面都有一格程式，用**另一個不顯示的**同款小工具示範、讀出結果，所以執行完整本之後，
# 你看到的小工具仍停在文字描述的那一局；你可以直接用滑鼠和鍵盤操作它。
#
# ### 7.1 手牌組合器（HandBuilder）
#
# 選每一張牌（閒家兩張、莊家兩張、牌靴裡接下來的兩張），或在「牌序」欄輸入整串牌再按 Enter。
# 組合器會畫出兩手牌、點數、每一步的理由和勝方；改了任何一張牌，最後一行會標出改變了什麼。
# 加上 `bets=` 還會算派彩。

# %% [markdown] lang=en
# ## 7. Widgets
#
# A widget is only a view of the rules engine: every decision in it is the engine's. Every widget works from the keyboard:
# **Tab** moves to the next control, **↑/↓** change a drop-down's value, **Space** or **Enter** press a button.
# Colour is never the only cue: red cards also show their suit (♥, ♦) and a word, draw/stand is written as a word, right and wrong as ✔/✘ and a word.
#
# Under each widget, a code cell drives **another, hidden** widget of the same kind and reads out what it shows, so after Run All
# the widget you see still shows the coup the text describes; use it freely with the mouse and the keyboard.
#
# ### 7.1 The hand builder (HandBuilder)
#
# Pick every card (the player's two, the banker's two, and the next two in the shoe), or type a whole card sequence in the "cards" box and press Enter.
# The builder draws both hands, their totals, the reason for each step and the winner; when you change any card, its last line shows what changed.
# With `bets=` it also settles the bets.

# %%
builder = bk.widgets.HandBuilder("2 3 3 4 4", bets={"player": 100}, lang=LANG)
builder

# %% [markdown] lang=zh
# 000 的 BCR-001 變化題：「只把莊第二張4改成5：莊3+5=8為天牌；閒停在5，不能補4，莊勝，閒注返還0、淨損100。」

# %% [markdown] lang=en
# A variant of 000's BCR-001: 「只把莊第二張4改成5：莊3+5=8為天牌；閒停在5，不能補4，莊勝，閒注返還0、淨損100。」
# (translation: "Only the banker's second card changes from 4 to 5: banker 3+5 = 8 is a natural; the player stays on 5 and cannot draw the 4; banker wins; the player bet returns 0, a net loss of 100.")

# %%
demo = bk.widgets.HandBuilder("2 3 3 4 4", bets={"player": 100}, lang=LANG)
demo.card_b2.value = "5"
print(bk.widgets.plain_text(demo.winner))
print(bk.widgets.plain_text(demo.changes))
print(bk.widgets.plain_text(demo.settlement))

# %% [markdown] lang=zh
# ### 7.2 莊家補牌檢查器（RuleChecker）
#
# 選莊家首兩張點數和閒家第三張牌值（或「閒家停牌」），看莊家補還是停、為什麼，旁邊的矩陣會框出你選的格子。第 4 課會詳細用它。

# %% [markdown] lang=en
# ### 7.2 The banker rule checker (RuleChecker)
#
# Pick the banker's two-card total and the value of the player's third card (or "player stood") to see whether the banker draws or stands and why; the matrix beside it frames the cell you chose. Lesson 4 uses it in detail.

# %%
checker = bk.widgets.RuleChecker(lang=LANG)
checker

# %%
demo_checker = bk.widgets.RuleChecker(lang=LANG)
demo_checker.check(6, 7)
print(bk.widgets.plain_text(demo_checker.decision))
print(bk.widgets.plain_text(demo_checker.reason))

# %% [markdown] lang=zh
# ### 7.3 案例檢視器（CaseViewer）
#
# 從案例目錄（`bk.cases`）選一個來源中的案例，按「下一步」一步一步看，或切到「只改一個條件」的變化題。
# 只給點數的部分案例（partial case）也可以逐步看：步驟是引擎依來源給的條件推出來的，不會補造牌。

# %% [markdown] lang=en
# ### 7.3 The case viewer (CaseViewer)
#
# Pick a case from the sources in the case catalogue (`bk.cases`) and press "next step" to go through it step by step, or switch to its "change one condition" variant.
# A partial case, given only as totals, can be stepped through too: its steps are what the engine derives from the conditions the source gives, and no card is made up.

# %%
viewer = bk.widgets.CaseViewer("BCR-006", lang=LANG)
viewer

# %% [markdown] lang=zh
# 000 的 BCR-006：「閒2+4=6；莊2+3=5 … 莊5要補；取得2後7；莊7＞閒6。」看完每一步，再切到變化題
# （「只把莊第二張3改4：莊6，雙方均停牌，6:6和局；原本要補的2不發。」）：

# %% [markdown] lang=en
# 000's BCR-006: 「閒2+4=6；莊2+3=5 … 莊5要補；取得2後7；莊7＞閒6。」 (translation: "player 2+4 = 6; banker 2+3 = 5 … banker 5 must draw; with a 2 it makes 7; banker 7 > player 6.")
# After every step, switch to the variant
# (「只把莊第二張3改4：莊6，雙方均停牌，6:6和局；原本要補的2不發。」, translation: "only the banker's second card changes from 3 to 4: banker 6, both hands stand, a 6:6 tie; the 2 that would have been drawn is not dealt."):

# %%
demo_viewer = bk.widgets.CaseViewer("BCR-006", lang=LANG)
demo_viewer.show_all()
print(bk.widgets.plain_text(demo_viewer.case_steps))
print(bk.widgets.plain_text(demo_viewer.case_result))
demo_viewer.variant_toggle.value = True
demo_viewer.show_all()
print(bk.widgets.plain_text(demo_viewer.case_result))

# %% [markdown] lang=zh
# ### 7.4 牌靴追蹤器（ShoeTracker）
#
# 第 8 課用它一局一局發一整靴牌，看每一注的期望值怎麼變：`bk.widgets.ShoeTracker(seed=2026, lang=LANG)`。
#
# ### 7.5 自我檢測（Quiz）
#
# 選一個答案，按「提交答案」。答錯時，回饋會點出這是哪一個常見誤解（misconception），或是哪一步規則和你的答案不同，並給出正確的說法；答對時會確認，並說明為什麼對。
# 每題以**第一次提交**的答案計分：看過正確答案之後再交，不再計分。做完會有總結，按「重新開始」可以再做一次。
# 常見誤解收在 `bk.misconceptions`，都來自來源頁；其中有幾條（例如「閒家 5 點可以停牌」）是本套件用自己的話寫的錯誤規則，用來說明練習裡寫錯的函式，它們的正確說法引自來源。
#
# 每一課的題目都是課程資料裡的一組題（`bk.widgets.Quiz.lesson("00", lang=LANG)`）：程式格裡看不到答案，
# 每一題的正確答案都在建立測驗時由規則引擎算出（定義類的題目則依來源的說法）。

# %% [markdown] lang=en
# ### 7.4 The shoe tracker (ShoeTracker)
#
# Lesson 8 uses it to deal a whole shoe coup by coup and watch every bet's expectation move: `bk.widgets.ShoeTracker(seed=2026, lang="en")`.
#
# ### 7.5 The self-check (Quiz)
#
# Pick an answer and press "submit". When it is wrong, the feedback names the common misconception behind it, or the rule step that disagrees with your answer, and gives the correct statement; when it is right, it says so and why.
# Each question is scored on the **first answer submitted**: an answer given after the correct one has been shown no longer counts. At the end there is a summary, and "start again" resets the quiz.
# The misconceptions are collected in `bk.misconceptions` and come from the source pages; a few of them (such as "a player with 5 may stand") are wrong rules in the kit's own words, to name what a learner's wrong function does, and their corrections quote the sources.
#
# Each lesson's questions are a named question set in the course data (`bk.widgets.Quiz.lesson("00")`): the code cell shows no answer,
# and every correct answer is computed by the rules engine when the quiz is built (or, for a definition, taken from what the sources say).

# %% [markdown] lang=zh
# ## 8. 自我檢測：這門課在講什麼？

# %% [markdown] lang=en
# ## 8. Self-check: what is this course about?

# %%
quiz = bk.widgets.Quiz.lesson("00", lang=LANG)
quiz

# %% [markdown] lang=zh
# ## 下一步（what next）
#
# * 下一課：[第 1 課　牌值與點數](01-card-values.ipynb)
# * 本課的練習：[練習 01　牌值與點數](../exercises/01-card-values.ipynb)（在自己的副本裡作答，`check("q1")` 立刻回饋）
# * 不寫程式的練習：[補牌訓練器（trainer）](../trainer/trainer.ipynb)
# * 回到[課程地圖](00-how-to-use.ipynb)

# %% [markdown] lang=en
# ## What next
#
# * Next lesson: [Lesson 1 Card values and totals](01-card-values.ipynb)
# * This lesson's exercise: [Exercise 01 Card values and totals](../../exercises/en/01-card-values.ipynb) (answer in your own copy; `check("q1")` gives instant feedback)
# * Practice without code: [the drawing trainer](../../trainer/trainer.ipynb)
# * Back to the [course map](00-how-to-use.ipynb)
