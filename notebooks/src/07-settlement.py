# %% [markdown]
# # 第 7 課　結算（Settlement）：傭金、和局、免傭、對子與帳務軌跡
#
# 補牌規則決定**誰贏**；結算（settlement）決定**每一注拿回多少錢**。000 提醒：「補牌規則與莊注傭金必須分開理解。」
#
# 本課依據的來源頁：
#
# | 頁 | 內容 | 規則依據（rules basis） |
# |---|---|---|
# | 004 新手規則總覽 | 押莊 100 拿回 195、押閒 1:1、和局退注、免傭（004 稱「免水」）與 Super 6（超級 6）、副注分開結算 | （未列規則依據） |
# | 000「百家樂補牌規則」 | BCR-001 的注碼與返還、下注區表、傭金的最小計價單位與四捨五入、作廢局、帳務軌跡（下注明細、派彩、傭金、餘額） | Pennsylvania Code Chapter 631a（§631a.6、.8、.9、.12 下注定義）；Singapore GRA Commission Baccarat (RWS) Game Rules v4 |
#
# > 本課是規則教育，不是下注建議。004：「三種押法長期的期望值都是負的」；結算方式不會改變這件事。
#
# 工具包裡的**金額一律是 `Decimal`**（不用浮點數 float）：注碼可以寫整數、字串（如 `"12.50"`）或 `Decimal`。

# %%
from decimal import Decimal

import baccarat_kit as bk

bk.set_language("zh")

# %% [markdown]
# ## 1. 派彩表（pay tables）
#
# 工具包的結算只有一個函式 `bk.settle(coup, bets, table)`；不同的桌台版本是同一張派彩表的不同設定（presets）：
#
# * `commission`：標準傭金桌（commission），莊注贏了扣 5% 傭金；
# * `commission-tie-9`：同上，但和注 9:1；
# * `no-commission`：免傭（no-commission），莊家以 6 點勝時只賠一半（Super 6）。
#
# 和注與對子的賠率來源沒有寫（000：附加注「每桌定義與派彩可能不同」），下表是工具包的預設值：

# %%
bk.display.pay_tables_table()

# %% [markdown]
# ## 2. 押閒 1:1（player pays even money）：BCR-001
#
# 000 的 **BCR-001｜閒5補到9、莊7停牌**（依據：Pennsylvania Code §631a.11、Chapter 631a）
#
# > 已知條件：發牌依序閒2、莊3、閒3、莊4；閒注100，假設閒勝1:1。
# > - 比較閒9＞莊7，閒勝；返還100本金+100淨利=200。
# >
# > 結果與理由：閒注淨利100；輸贏由最後點數決定。

# %%
bcr001 = bk.play("2 3 3 4 4")
bk.display.settlement_table(bk.settle(bcr001, {"player": 100}))

# %% [markdown]
# **只改一個條件**：「只把莊第二張4改成5：莊3+5=8為天牌；閒停在5，不能補4，莊勝，閒注返還0、淨損100。」

# %%
bcr001_variant = bk.play("2 3 3 5 4")
bk.display.settlement_table(bk.settle(bcr001_variant, {"player": 100}))

# %% [markdown]
# ## 3. 押莊要扣傭金（commission）：100 → 195
#
# 004：「你押莊 100 元，這局莊家贏，賠率是 0.95，你拿回的是 95 元獎金，連同本金一共 195 元，而不是 200 元。那 5 元就是抽水。」
#
# 004 沒有給那一局的牌。來源裡莊家贏的完整牌局之一是 000 的 **BCR-008**（閒4+4=8；莊4+5=9，莊勝），用它來結算一注 100 的莊注：

# %%
bcr008 = bk.play("4 4 4 5")
banker_100 = bk.settle(bcr008, {"banker": 100})
bk.display.settlement_table(banker_100)

# %% [markdown]
# 000 建議「比較毛派彩、傭金和實際入帳」：毛派彩（gross）100、傭金 5、實際入帳（返還）195。每個數字都是 `Decimal`：

# %%
line = banker_100.lines[0]
line.winnings + line.commission, line.commission, line.returned

# %% [markdown]
# ## 4. 和局（tie）：莊、閒主注退回
#
# 004：「莊閒點數相同就是和局，這時押莊、押閒的注原額退回，不算輸也不算贏，只有押『和』的人才賠。」
#
# 000 的 **BCR-002**（閒2+3=5，莊A+2=3；閒取8，最後3；莊3遇閒第三張8停牌；「3=3為和」）。
# 假設押閒 100、押莊 100、押和 10（金額是教學假設）：

# %%
bcr002 = bk.play("2 A 3 2 8")
bets = {"player": 100, "banker": 100, "tie": 10}
bk.display.settlement_table(bk.settle(bcr002, bets))

# %% [markdown]
# 同一局換成和注 9:1 的派彩表：莊、閒注照樣退回，只有和注的派彩不同。

# %%
bk.display.settlement_table(bk.settle(bcr002, bets, "commission-tie-9"))

# %% [markdown]
# ## 5. 免傭與 Super 6（no-commission）
#
# 004：「押莊贏不抽那 5%……但它有個交換條件：當莊家以剛好 6 點獲勝時，這注只賠一半，這個規則常被叫做『超級 6』。」
# 000 也提醒：「看到免傭兩字不能直接推定所有莊注都按一比一結算」，以及「若是莊6勝，先查免傭版本差異，不能直接沿用標準5%傭金」。
#
# 同一局 BCR-008（莊家 9 點勝）在兩種桌台上：

# %%
bk.display.table(
    ["派彩表 (pay table)", "莊注 100 返還 (returned)", "傭金 (commission)"],
    [[name, s.returned, s.commission]
     for name in ("commission", "no-commission")
     for s in [bk.settle(bcr008, {"banker": 100}, name)]],
)

# %% [markdown]
# 莊家以 9 點勝，免傭桌賠足 1:1。莊家以 **6** 點勝時，免傭桌只賠一半（派彩表的 `banker_six` 是 0.5，即 0.5:1）：

# %%
bk.pay_table("no-commission").banker_six

# %% [markdown]
# 來源沒有給「莊家 6 點勝」的完整牌局，所以本課不編一局。要看 Super 6 的結算，請在第 10 節的免傭手牌練習器（HandBuilder）自己組一局試試。
#
# 免傭只改派彩，不改補牌規則（001：「免傭百家樂、Super 6或其他附加玩法通常著重派彩及投注項目的差異，不應直接拿來改寫標準第三張牌表。」）。
# 同一副牌在兩種派彩表下，引擎跑出的是同一局。

# %% [markdown]
# ## 6. 對子（pair）是副注，分開結算
#
# 004：「桌上除了莊、閒、和，常常還有對子、龍寶這類額外的下注選項，統稱副注（Side Bet）。它們和主注是分開結算的……」
#
# BCR-008 的閒家首兩張是 4 和 4，是一對（`coup.player_pair`）；莊家 4、5 不是：

# %%
bcr008.player_pair, bcr008.banker_pair

# %% [markdown]
# 在同一局押莊 100、閒對 10、莊對 10：主注照主注的規則結算（扣傭金），對子各自照對子的賠率結算：

# %%
bk.display.settlement_table(bk.settle(bcr008, {"banker": 100, "player-pair": 10, "banker-pair": 10}))

# %% [markdown]
# BCR-008 的「只改一個條件」（莊第二張5改4，閒 4+4、莊 4+4，「雙方自然8，結果和局」）：主注退回，兩邊的對子都中：

# %%
bcr008_variant = bk.play("4 4 4 4")
bk.display.settlement_table(
    bk.settle(bcr008_variant, {"banker": 100, "player-pair": 10, "banker-pair": 10})
)

# %% [markdown]
# ## 7. 傭金的最小計價單位與四捨五入（rounding）
#
# 000：「若使用多種幣別或籌碼面額，傭金可能涉及最小計價單位與四捨五入，應比較毛派彩、傭金和實際入帳。」
#
# 假設在 BCR-008 押莊 15（教學假設的金額）：傭金是 15 × 5% = 0.75。
# 用 `bk.Rounding(unit, mode)` 指定最小計價單位（unit）與進位方式（mode），看傭金與入帳怎麼變：

# %%
roundings = [bk.Rounding(), bk.Rounding("1"), bk.Rounding("1", "down"), bk.Rounding("0.5", "up")]
bk.display.table(
    ["最小單位 (unit)", "方式 (mode)", "傭金 (commission)", "派彩 (winnings)", "返還 (returned)"],
    [[r.unit, r.mode, s.commission, s.winnings, s.returned]
     for r in roundings
     for s in [bk.settle(bcr008, {"banker": 15}, rounding=r)]],
)

# %% [markdown]
# 不是金額的注碼會被拒絕，並說明可以怎麼寫。例如浮點數（float）：

# %%
try:
    bk.settle(bcr008, {"banker": 15.5})
except bk.BetError as err:
    print(err)

# %% [markdown]
# ## 8. 作廢局（void round）：退回所有注碼
#
# 000 的名詞解釋：「作廢局：因符合桌規所列異常條件而取消結算並退回適用下注的牌局。」
# 也提醒：「若遇到發牌中斷、牌面無法辨識或系統重開局，先保留局號與時間，不把尚未結算的畫面自行當成輸贏結果。」
#
# 作廢局沒有可以結算的牌（`coup` 是 `None`），用 `void=True`：

# %%
bk.display.settlement_table(
    bk.settle(None, {"banker": 100, "tie": 10, "player-pair": 10}, void=True)
)

# %% [markdown]
# ## 9. 帳務軌跡（bookkeeping trail）：下注明細、派彩、傭金、餘額
#
# 000：「逐局比對下注明細、有效投注、派彩、傭金與餘額變動」；「異常時整理局號、下注前後餘額、時間戳與截圖，讓客服能定位單一回合，避免只用總餘額反推多局結果。」
#
# `bk.Ledger` 每一局記一行：局號（round id）、下注明細、牌、結果、下注、派彩、傭金、返還、前後餘額。
# 用本課的來源牌局記五局（期初餘額 1000 與局號、注碼都是教學假設）：

# %%
ledger = bk.Ledger(opening_balance=1000)
ledger.record("R001", {"player": 100}, bcr001)
ledger.record("R002", {"banker": 100, "player-pair": 10}, bcr008)
ledger.record("R003", {"player": 100, "tie": 10}, bcr002)
ledger.record("R004", {"banker": 100}, None, void=True)
ledger.record("R005", {"player": 100}, bcr001_variant)
bk.display.ledger_table(ledger)

# %% [markdown]
# 每一行的餘額都要接得上：**下注後餘額 = 下注前餘額 − 下注 + 返還**，而且這一行的「下注前餘額」等於上一行的「餘額」。
# `reconcile()` 逐行檢查；全部接得上時回傳 `None`：

# %%
ledger.balance, ledger.reconcile()

# %% [markdown]
# 帳務軌跡可以匯出成 CSV（`to_csv()`），給試算表或客服核對：

# %%
csv_text = ledger.to_csv()
print(csv_text)

# %% [markdown]
# ### 找出錯的那一行
#
# 假設有人把 R003 的餘額抄錯了（1385.00 抄成 1358.00）。從 CSV 讀回來再核對，`reconcile()` 指出第一個接不上的行、欄位、應有的數字與帳上的數字：

# %%
wrong_csv = csv_text.replace(",1305.00,1385.00", ",1305.00,1358.00")
assert wrong_csv != csv_text
wrong = bk.Ledger.from_csv(wrong_csv)
problem = wrong.reconcile()
print(problem)
print(problem.explain("en"))

# %% [markdown]
# ## 10. 動手試試：帶注碼的手牌練習器（HandBuilder with a bet）
#
# 練習器可以帶注碼（`bets`）和派彩表（`table`），每改一張牌，就用 `bk.settle` 重新結算。
# 預設是 BCR-001 與閒注 100（000：「返還100本金+100淨利=200」）。

# %%
from IPython.display import HTML

hand = bk.widgets.HandBuilder("2 3 3 4 4", bets={"player": 100})
hand

# %% [markdown]
# 下面這格替練習器做 BCR-001 的「只改一個條件」：莊第二張 4 改成 5。結算跟著變成「閒注返還0、淨損100」：

# %%
hand.card_b2.value = "5"
HTML(hand.settlement.value)

# %% [markdown]
# ### 免傭桌與 Super 6
#
# 這個練習器用免傭派彩表（`no-commission`），押莊 100，從 BCR-008 開始（莊家 9 點勝，賠 1:1）。
# 自己換牌，組一局**莊家以 6 點勝**的牌，看派彩怎麼變成只賠一半；再組一局莊家以 7 點勝的牌比較。

# %%
super6 = bk.widgets.HandBuilder("4 4 4 5", bets={"banker": 100}, table="no-commission")
super6

# %% [markdown]
# 下面這格把莊第二張改成 4（BCR-008 的「只改一個條件」，和局）：免傭桌的莊注一樣原額退回。

# %%
super6.card_b2.value = "4"
HTML(super6.settlement.value)

# %% [markdown]
# ## 11. 小結
#
# | 注 | 結果 | 引擎怎麼結算 |
# |---|---|---|
# | 閒 100（BCR-001） | 閒勝 | 返還 200 |
# | 莊 100（BCR-008） | 莊勝 | 扣傭金 5，返還 195（004） |
# | 莊、閒（BCR-002） | 和局 | 原額退回；和注另外派彩 |
# | 莊 100（免傭桌） | 莊 6 點勝 | 只賠一半：淨贏 50，返還 150（Super 6） |
# | 閒對、莊對 | 首兩張牌面相同（如 BCR-008 的 4、4） | 與主注分開結算 |
# | 任何注 | 作廢局 | 全數退回 |
#
# 結算方式不會改變輸贏的機率，也不會讓任何一注的期望值變成正的（004：「三種押法長期的期望值都是負的」）。

# %% [markdown]
# ## 12. 自我檢查（self-check）
#
# 正確答案都由引擎算出（`bk.settle`、`bk.pay_table`），不是手寫的。

# %%
no_commission = bk.pay_table("no-commission")
questions = [
    bk.display.question(
        "banker-commission", "lessons.q07.banker-commission",
        [(200, "200"), (195, "195"), (100, "100")],
        bk.settle(bcr008, {"banker": 100}).returned, "lessons.q07.banker-commission-why",
    ),
    bk.display.question(
        "tie-push", "lessons.q07.tie-push",
        [(0, "0", "tie-loses-main-bets"), (100, "100"), (200, "200")],
        bk.settle(bcr002, {"player": 100}).returned, "lessons.q07.tie-push-why",
    ),
    bk.display.question(
        "super-6", "lessons.q07.super6",
        [(100, "100", "no-commission-all-even"), (95, "95"), (50, "50")],
        100 * no_commission.banker_six, "lessons.q07.super6-why",
    ),
    bk.display.question(
        "void", "lessons.q07.void",
        [(0, "0"), (100, "100"), (110, "110")],
        bk.settle(None, {"banker": 100, "tie": 10}, void=True).returned, "lessons.q07.void-why",
    ),
]
quiz = bk.widgets.Quiz(questions)
quiz

# %% [markdown]
# 選錯時，回饋會指出是哪一個常見誤解。下面用另一份測驗示範（不會動到上面的測驗）：和局時選「0」——

# %%
print(quiz.preview(1, 0))
