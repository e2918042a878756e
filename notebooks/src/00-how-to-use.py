# %% [markdown]
# # 第 0 課　怎麼使用這門課（How to use this course）
#
# 這是一門講**百家樂（Punto Banco / Baccarat）固定補牌規則（drawing rules, third-card rules）與結算（settlement）**的課。
# 每一課都是一本 Jupyter 筆記本（notebook）：文字說明、可以執行的程式格（code cell），以及可以動手操作的小工具（widgets）。
#
# 本課介紹：
#
# 1. 課程的立場（the course's stance）；
# 2. 課程地圖（course map）；
# 3. 五個來源頁與各自的規則依據（sources and rules bases）；
# 4. 規則引擎 `baccarat_kit` 的用法；
# 5. 語言切換（中文／English）；
# 6. 四個小工具：手牌組合器、莊家補牌檢查器、案例檢視器、自我檢測；
# 7. 最後一個自我檢測（self-check quiz）。

# %% [markdown]
# ## 1. 課程的立場：規則教育，不是下注系統
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
# 第 8 課（賠率與路單，odds and roads）會用精確的數字說明：不論押哪一注、跟不跟路單或連莊，賭場優勢（house edge）都不會改變。
# 例如 8 副牌的精確值：押莊（抽 5% 傭金）的賭場優勢是 1.06%、押閒 1.24%、押和（8:1）14.36%，也就是每押 100 長期平均輸掉 1.06、1.24、14.36；
# 連開幾局莊之後，下一局開莊的機率（不計和局）仍是約 50.7%。本課最後的自我檢測會請引擎把這些數字算出來。

# %% [markdown]
# ## 2. 課程地圖
#
# | 課 | 主題 | 英文 |
# |---|---|---|
# | 00 | 怎麼使用這門課（本課） | How to use the course |
# | 01 | 牌值與點數 | Card values and totals |
# | 02 | 例牌（天牌） | Naturals |
# | 03 | 閒家補牌規則 | The player rule |
# | 04 | 莊家補牌規則（兩個分支、矩陣、檢查器） | The banker rule |
# | 05 | BCR-001～BCR-008：逐步打完每一局，旁邊是「只改一個條件」的變化題 | The BCR cases and their variants |
# | 06 | 案例 A～D（兩組）與常見錯誤 | Cases A–D and common mistakes |
# | 07 | 結算：傭金、免傭（Super 6）、和局退注、對子、帳務軌跡 | Settlement |
# | 08 | 賠率與路單 | Odds and roads |
# | 09 | 給講師：把案例加進案例目錄 | For instructors: adding a case |
#
# 建議依序讀 01 → 04，再用 05、06 的案例練習；07 講錢怎麼算。每一課最後都有一個小小的自我檢測。

# %% [markdown]
# ## 3. 五個來源頁與規則依據（sources and rules bases）
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
# | 004 | 新手規則總覽 | — | 牌值例子、派彩（莊 0.95、閒 1:1、和局退注）、免傭 Super 6、旁注另計 |
#
# 注意有兩組不同的「案例 A～D」：002 的（只判斷莊家補不補）和 003 的（有最後結果），課程用不同的編號區分（`HK-A`、`TW-A`）。

# %% [markdown]
# ## 4. 規則引擎：`import baccarat_kit as bk`
#
# 每一課都從同一行開始。整門課只有**一個**規則引擎，筆記本、小工具和案例都去問它，不另外抄一份補牌表。

# %%
import baccarat_kit as bk

bk.set_language("zh")

# %% [markdown]
# `bk.play(...)` 依發牌順序（閒 1、莊 1、閒 2、莊 2，再補牌）打一局，並記下每一步的理由。
# 下面是 000 的 **BCR-001**：「發牌依序閒2、莊3、閒3、莊4」，閒家第三張 4。

# %%
coup = bk.play("2 3 3 4 4")
print(coup.explain())

# %% [markdown]
# 每一步都有固定的規則編號（rule id），案例、檢測和講師的評分工具都用它：

# %%
[(step.who, step.action, step.rule) for step in coup.steps]

# %% [markdown]
# 牌可以用很多寫法輸入：`"2 3 3 4 4"`、`"A,K,10"`、`"Q♥ 9S"`（花色可省略，10 也可以寫 T）。寫錯時，引擎會說哪裡錯、可以用什麼：

# %%
try:
    bk.play("2 3 11 4")
except bk.BaccaratError as err:
    print(err)

# %% [markdown]
# 在終端機（terminal）也可以用同一個引擎：`baccarat-kit play 2 3 3 4 4`，或 `baccarat-kit --lang en play 2 3 3 4 4`。

# %% [markdown]
# ## 5. 語言切換（中文／English）
#
# 所有說明預設是繁體中文，也都有英文。兩種切換方式：
#
# - 整個筆記本：`bk.set_language("en")`（改回來：`bk.set_language("zh")`）；
# - 只要一次：`coup.explain("en")`。

# %%
print(coup.explain("en"))

# %% [markdown]
# 每個小工具都有自己的語言開關（右上角的「中文／English」按鈕），也可以在建立時指定：`bk.widgets.RuleChecker(lang="en")`。

# %% [markdown]
# ## 6. 四個小工具（widgets）
#
# 小工具只是規則引擎的「畫面」：每一個判斷都是引擎算的。全部可以用鍵盤操作：
# **Tab** 移到下一個控制項，下拉選單用 **↑／↓** 選、**Enter** 確認，按鈕用 **Space** 或 **Enter**。
# 顏色從來不是唯一的提示：紅色的牌同時寫著花色（♥、♦）與文字，補牌／停牌寫成「補」「停」，答對答錯寫成 ✔／✘ 與文字。
#
# 每個小工具下面都有一格程式，用程式去操作它、讀出結果；在自己的電腦上，你也可以直接用滑鼠和鍵盤操作。
#
# ### 6.1 手牌組合器（HandBuilder）
#
# 選每一張牌（閒家兩張、莊家兩張、牌靴裡接下來的兩張），或在「牌序」欄輸入整串牌再按 Enter。
# 組合器會畫出兩手牌、點數、每一步的理由和勝方；改了任何一張牌，最後一行會標出改變了什麼。
# 加上 `bets=` 還會算派彩。

# %%
builder = bk.widgets.HandBuilder("2 3 3 4 4", bets={"player": 100})
builder

# %% [markdown]
# 000 的 BCR-001 變化題：「只把莊第二張4改成5：莊3+5=8為天牌；閒停在5，不能補4，莊勝，閒注返還0、淨損100。」

# %%
builder.card_b2.value = "5"
print(bk.widgets.plain_text(builder.winner))
print(bk.widgets.plain_text(builder.changes))
print(bk.widgets.plain_text(builder.settlement))

# %% [markdown]
# ### 6.2 莊家補牌檢查器（RuleChecker）
#
# 選莊家首兩張點數和閒家第三張牌值（或「閒家停牌」），看莊家補還是停、為什麼，旁邊的矩陣會框出你選的格子。第 4 課會詳細用它。

# %%
checker = bk.widgets.RuleChecker()
checker

# %%
checker.check(6, 7)
print(bk.widgets.plain_text(checker.decision))
print(bk.widgets.plain_text(checker.reason))

# %% [markdown]
# ### 6.3 案例檢視器（CaseViewer）
#
# 從案例目錄（`bk.cases`）選一個來源中的案例，按「下一步」一步一步看，或切到「只改一個條件」的變化題。
# 只給點數的部分案例（partial case）也可以逐步看：步驟是引擎依來源給的條件推出來的，不會補造牌。

# %%
viewer = bk.widgets.CaseViewer("BCR-006")
viewer

# %% [markdown]
# 000 的 BCR-006：「閒2+4=6；莊2+3=5 … 莊5要補；取得2後7；莊7＞閒6。」看完每一步，再切到變化題
# （「只把莊第二張3改4：莊6，雙方均停牌，6:6和局；原本要補的2不發。」）：

# %%
viewer.show_all()
print(bk.widgets.plain_text(viewer.case_steps))
print(bk.widgets.plain_text(viewer.case_result))
viewer.variant_toggle.value = True
viewer.show_all()
print(bk.widgets.plain_text(viewer.case_result))

# %% [markdown]
# ### 6.4 自我檢測（Quiz）
#
# 選一個答案，按「提交答案」。答錯時，回饋會點出這是哪一個常見誤解（misconception）、正確的說法是什麼；答對時會確認。
# 常見誤解都來自來源頁，收在 `bk.misconceptions`：

# %%
[m.id for m in bk.misconceptions.all_misconceptions()][:6]

# %% [markdown]
# ## 7. 自我檢測：這門課在講什麼？
#
# 第 3 題的說明用到的數字由引擎算出（8 副牌的精確機率，`bk.exact_odds(8)`；第 8 課會詳細說明）。

# %%
odds8 = bk.exact_odds(8)
banker_share = float(odds8.banker / (odds8.banker + odds8.player))


def edge(bet):
    return f"{float(odds8.house_edge(bet)):.2%}"


questions = [
    {
        "id": "what-is-banker",
        "prompt": {"zh": "百家樂的「莊家（Banker）」是什麼？",
                   "en": "In baccarat, what is the 'banker'?"},
        "options": [
            {"zh": "賭場或平台本身", "en": "The casino or platform itself",
             "misconception": "banker-is-house"},
            {"zh": "一個下注區（一手牌）的名稱，任何人都可以押", "en": "The name of one hand (a bet area) anyone may bet on"},
        ],
        "answer": 1,
    },
    {
        "id": "who-draws",
        "prompt": {"zh": "誰決定要不要補第三張牌？", "en": "Who decides whether a third card is drawn?"},
        "options": [
            {"zh": "下注的人", "en": "The bettor", "misconception": "choose-to-draw"},
            {"zh": "荷官", "en": "The dealer", "misconception": "choose-to-draw"},
            {"zh": "固定的補牌規則，自動決定", "en": "The fixed drawing rules, automatically"},
        ],
        "answer": 2,
    },
    {
        "id": "after-a-streak",
        "prompt": {"zh": "已經連開五局莊。下一局會怎樣？",
                   "en": "The banker has won five coups in a row. What about the next coup?"},
        "explain": {"zh": f"8 副牌的精確值：押莊的賭場優勢 {edge('banker')}、押閒 {edge('player')}、"
                          f"押和 {edge('tie')}；不計和局時開莊的機率 {banker_share:.2%}。這些數字不看路單。",
                    "en": f"Exact 8-deck figures: house edge {edge('banker')} on banker, "
                          f"{edge('player')} on player, {edge('tie')} on tie; with ties left out, the banker wins "
                          f"{banker_share:.2%} of coups. None of this depends on the road."},
        "options": [
            {"zh": "補牌規則會跟著路單改變", "en": "The drawing rules change with the road",
             "misconception": "roads-change-rules"},
            {"zh": "跟著押，長期就能贏過賭場優勢", "en": "Following the streak beats the house edge in the long run",
             "misconception": "bet-beats-edge"},
            {"zh": "補牌規則不變，每一注的賭場優勢也不變", "en": "The rules and every bet's house edge stay the same"},
        ],
        "answer": 2,
    },
    {
        "id": "no-commission-rules",
        "prompt": {"zh": "免傭桌（no-commission）和傭金桌的補牌規則一樣嗎？",
                   "en": "Do no-commission and commission tables use the same drawing rules?"},
        "options": [
            {"zh": "一樣；免傭只改莊注的派彩", "en": "Yes; no-commission changes only the banker payout"},
            {"zh": "不一樣；免傭桌有自己的補牌表", "en": "No; no-commission tables have their own drawing table",
             "misconception": "commission-vs-drawing"},
        ],
        "answer": 0,
    },
]
quiz = bk.widgets.Quiz(questions)
quiz

# %% [markdown]
# 下一格另建一份同樣的測驗（不碰上面那份，免得先看到答案），選錯第 1 題，看回饋怎麼點出誤解：

# %%
check = bk.widgets.Quiz(questions)
check.options.value = 0
check.submit.click()
print(bk.widgets.plain_text(check.feedback))
