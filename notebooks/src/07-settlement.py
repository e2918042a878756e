# %% [markdown] lang=zh
# # 第 7 課　結算（Settlement）：傭金、和局、免傭、對子與帳務軌跡
#
# 補牌規則決定**誰贏**；結算（settlement）決定**每一注拿回多少錢**。000 提醒：「補牌規則與莊注傭金必須分開理解。」
#
# 本課依據的來源頁：
#
# | 頁 | 內容 | 規則依據（rules basis） |
# |---|---|---|
# | 004 新手規則總覽 | 押莊 100 拿回 195、押閒 1:1、和局時莊閒注「通常」原注退還、免傭（004 稱「免水」）與 Super 6（超級 6）、旁注（004 稱「副注」）分開結算 | （未列規則依據） |
# | 000「百家樂補牌規則」 | BCR-001 的注碼與返還、下注區表、傭金的最小計價單位與四捨五入、作廢局、帳務軌跡（下注明細、派彩、傭金、餘額） | Pennsylvania Code Chapter 631a（§631a.6、.8、.9、.12 下注定義）；Singapore GRA Commission Baccarat (RWS) Game Rules v4 |
#
# > 本課是規則教育，不是下注建議。004：「三種押法長期的期望值都是負的」；結算方式不會改變這件事。
#
# 工具包裡的**金額一律是 `Decimal`**（不用浮點數 float）：注碼可以寫整數、字串（如 `"12.50"`）或 `Decimal`。

# %% [markdown] lang=en
# # Lesson 7 — Settlement: commission, ties, no-commission, pairs and the bookkeeping trail
#
# The drawing rules decide **who wins**; settlement decides **how much each bet gets back**. 000 reminds us: 「補牌規則與莊注傭金必須分開理解。」 (translation: "the drawing rules and the commission on banker bets must be understood separately.")
#
# The source pages of this lesson:
#
# | Page | What it gives | Rules it cites |
# |---|---|---|
# | 004 beginner's overview | a banker bet of 100 gets back 195, player pays 1:1, on a tie the banker and player bets are "usually" returned in full, no-commission (004 says 「免水」, translation: "commission-free"; 「抽水」, literally "drawing water", is 004's word for the commission) and Super 6 (「超級 6」, translation: "super 6"), side bets (004 says 「副注」, translation: "side bets") settled separately | (cites no rules) |
# | 000 「百家樂補牌規則」 (translation: "Baccarat drawing rules") | BCR-001's stake and return, the table of bet areas, the minimum unit and rounding of commission, void rounds, the bookkeeping trail (bet details, winnings, commission, balance) | Pennsylvania Code Chapter 631a (§631a.6, .8, .9, .12, bet definitions); Singapore GRA Commission Baccarat (RWS) Game Rules v4 |
#
# > This lesson is rules education, not betting advice. 004: 「三種押法長期的期望值都是負的」 (translation: "all three bets have a negative expectation in the long run"); the way bets are settled does not change that.
#
# In the kit **every amount is a `Decimal`** (never a floating-point float): a stake can be written as an integer, a string (such as `"12.50"`) or a `Decimal`.

# %%
from decimal import Decimal

import baccarat_kit as bk
from baccarat_kit.i18n import message

LANG = bk.set_language(EDITION_LANG)

# %% [markdown] lang=zh
# ## 1. 派彩表（pay tables）
#
# 工具包的結算只有一個函式 `bk.settle(coup, bets, table)`；不同的桌台版本是同一張派彩表的不同設定（presets）：
#
# * `commission`：標準傭金桌（commission），莊注贏了扣 5% 傭金；
# * `commission-tie-9`：同上，但和注 9:1；
# * `no-commission`：免傭（no-commission）的一種版本：004 描述的 Super 6，莊家以 6 點勝時只賠一半。
#   000 說免傭桌「可能取消一般傭金，但在莊家以特定點數獲勝時降低派彩，或採其他補償規則」：Super 6 只是其中一種，不是所有免傭桌的規則；實際以該桌的派彩表為準。
#
# 和注與對子的賠率來源沒有寫（000 說旁注，原文稱「附加注」，「每桌定義與派彩可能不同」），下表是工具包的預設值：

# %% [markdown] lang=en
# ## 1. Pay tables
#
# The kit settles with one function, `bk.settle(coup, bets, table)`; the different table versions are presets of one pay table:
#
# * `commission`: the standard commission table, a winning banker bet pays 5% commission;
# * `commission-tie-9`: the same, but a tie bet pays 9:1;
# * `no-commission`: one version of no-commission: the Super 6 that 004 describes, where a banker win on 6 pays only half.
#   000 says a no-commission table 「可能取消一般傭金，但在莊家以特定點數獲勝時降低派彩，或採其他補償規則」 (translation: "may drop the usual commission but pay less when the banker wins with a particular total, or use some other compensating rule"): Super 6 is only one of them, not the rule of every no-commission table; the table's own pay table decides.
#
# The sources do not give the odds of the tie and pair bets (000 says side bets, in its words 「附加注」, translation: "additional bets", 「每桌定義與派彩可能不同」, translation: "may be defined and paid differently at each table"); the table below shows the kit's defaults:

# %%
bk.display.pay_tables_table()

# %% [markdown] lang=zh
# ## 2. 押閒 1:1（player pays even money）：BCR-001
#
# 先猜：BCR-001 發牌依序閒2、莊3、閒3、莊4，閒家補 4；閒注 100 一共返還多少？（第 5 課猜過的話，這裡會顯示你當時的答案。）

# %% [markdown] lang=en
# ## 2. Player pays even money: BCR-001
#
# Predict first: BCR-001 is dealt player 2, banker 3, player 3, banker 4, and the player draws a 4; what does a player bet of 100 return in all? (If you answered it in lesson 5, your answer is shown here.)

# %%
bk.widgets.Predict("BCR-001", asks="returned", lang=LANG, record="07")

# %% [markdown] lang=zh
# 000 的 **BCR-001｜閒5補到9、莊7停牌**（依據：Pennsylvania Code §631a.11、Chapter 631a）
#
# > 已知條件：發牌依序閒2、莊3、閒3、莊4；閒注100，假設閒勝1:1。
# > - 比較閒9＞莊7，閒勝；返還100本金+100淨利=200。
# >
# > 結果與理由：閒注淨利100；輸贏由最後點數決定。

# %% [markdown] lang=en
# 000's **BCR-001 「閒5補到9、莊7停牌」** (translation: "player 5 draws to 9, banker 7 stands"; basis: Pennsylvania Code §631a.11, Chapter 631a)
#
# > 已知條件：發牌依序閒2、莊3、閒3、莊4；閒注100，假設閒勝1:1。
# > - 比較閒9＞莊7，閒勝；返還100本金+100淨利=200。
# >
# > 結果與理由：閒注淨利100；輸贏由最後點數決定。
# >
# > *Translation:* "Given: dealt in order player 2, banker 3, player 3, banker 4; a player bet of 100, supposing a player win pays 1:1. Compare player 9 > banker 7: the player wins; 100 stake + 100 net win = 200 returned. Result and reason: the player bet nets 100; win or loss is decided by the final totals."

# %%
bcr001 = bk.play("2 3 3 4 4")
bk.display.settlement_table(bk.settle(bcr001, {"player": 100}))

# %% [markdown] lang=zh
# **只改一個條件**：「只把莊第二張4改成5：莊3+5=8為天牌；閒停在5，不能補4，莊勝，閒注返還0、淨損100。」

# %% [markdown] lang=en
# **Change one condition**: 「只把莊第二張4改成5：莊3+5=8為天牌；閒停在5，不能補4，莊勝，閒注返還0、淨損100。」
# (translation: "only the banker's second card changes from 4 to 5: banker 3+5 = 8 is a natural; the player stays on 5 and cannot draw the 4; banker wins, the player bet returns 0, a net loss of 100.")

# %%
bcr001_variant = bk.play("2 3 3 5 4")
bk.display.settlement_table(bk.settle(bcr001_variant, {"player": 100}))

# %% [markdown] lang=zh
# ## 3. 押莊要扣傭金（commission）：100 → 195
#
# 004：「你押莊 100 元，這局莊家贏，賠率是 0.95，你拿回的是 95 元獎金，連同本金一共 195 元，而不是 200 元。那 5 元就是抽水。」
#
# 004 沒有給那一局的牌。來源裡莊家贏的完整牌局之一是 000 的 **BCR-008**（閒4+4=8；莊4+5=9，莊勝），用它來結算一注 100 的莊注：

# %% [markdown] lang=en
# ## 3. A banker bet pays commission: 100 → 195
#
# 004: 「你押莊 100 元，這局莊家贏，賠率是 0.95，你拿回的是 95 元獎金，連同本金一共 195 元，而不是 200 元。那 5 元就是抽水。」
# *Translation:* "You bet 100 on banker and the banker wins this coup; the payout is 0.95, so you get 95 in winnings, 195 together with your stake, not 200. Those 5 are the house's cut."
#
# 004 does not give that coup's cards. One complete coup in the sources that the banker wins is 000's **BCR-008** (player 4+4 = 8; banker 4+5 = 9, banker wins); it settles a banker bet of 100:

# %%
bcr008 = bk.play("4 4 4 5")
banker_100 = bk.settle(bcr008, {"banker": 100})
bk.display.settlement_table(banker_100)

# %% [markdown] lang=zh
# 000 建議「比較毛派彩、傭金和實際入帳」：毛派彩（gross）100、傭金 5、實際入帳（返還）195。每個數字都是 `Decimal`：

# %% [markdown] lang=en
# 000 advises 「比較毛派彩、傭金和實際入帳」 (translation: "compare the gross payout, the commission and what is actually credited"): gross 100, commission 5, credited (returned) 195. Every number is a `Decimal`:

# %%
line = banker_100.lines[0]
line.winnings + line.commission, line.commission, line.returned

# %% [markdown] lang=zh
# ## 4. 和局（tie）：莊、閒主注通常退回
#
# 004：「莊閒點數相同就是和局，這時押莊、押閒的注原額退回，不算輸也不算贏，只有押『和』的人才賠。」
# 這是「標準規則下」的說法；兩個來源都留了餘地。000：「標準桌通常退回未命中的莊、閒主注，但附加注與特殊桌可能另有規定。」
# 004 也說押莊、押閒的注「通常會原注退還」。本課的標準傭金桌（`bk.settle` 的預設）照標準桌通常的做法退回主注；實際的桌台要看它的派彩表與結算規則。
#
# 000 的 **BCR-002**（閒2+3=5，莊A+2=3；閒取8，最後3；莊3遇閒第三張8停牌；「3=3為和」）。
# 假設押閒 100、押莊 100、押和 10（金額是教學假設）：

# %% [markdown] lang=en
# ## 4. Ties: the banker and player bets usually come back
#
# 004: 「莊閒點數相同就是和局，這時押莊、押閒的注原額退回，不算輸也不算贏，只有押『和』的人才賠。」
# *Translation:* "When banker and player have the same total it is a tie: banker and player bets are returned in full, neither lost nor won; only those who bet on 'tie' are paid."
# That is what happens "under standard rules", and both sources leave room. 000: 「標準桌通常退回未命中的莊、閒主注，但附加注與特殊桌可能另有規定。」
# (translation: "a standard table usually returns the banker and player main bets that did not win, but side bets and special tables may have rules of their own.")
# 004 too says banker and player bets 「通常會原注退還」 (translation: "are usually returned in full"). This lesson's standard commission table (`bk.settle`'s default) returns the main bets, as a standard table usually does; at a real table, read its pay table and settlement rules.
#
# 000's **BCR-002** (player 2+3 = 5, banker A+2 = 3; the player draws an 8 and ends on 3; banker 3 facing a player third card 8 stands; 「3=3為和」, translation: "3 = 3 is a tie").
# Suppose 100 on player, 100 on banker and 10 on tie (teaching amounts):

# %%
bcr002 = bk.play("2 A 3 2 8")
bets = {"player": 100, "banker": 100, "tie": 10}
bk.display.settlement_table(bk.settle(bcr002, bets))

# %% [markdown] lang=zh
# 同一局換成和注 9:1 的派彩表：莊、閒注照樣退回，只有和注的派彩不同。

# %% [markdown] lang=en
# The same coup on a table where tie pays 9:1: the banker and player bets still come back; only the tie bet's payout differs.

# %%
bk.display.settlement_table(bk.settle(bcr002, bets, "commission-tie-9"))

# %% [markdown] lang=zh
# ## 5. 免傭與 Super 6（no-commission）
#
# 000：「免傭桌則可能取消一般傭金，但在莊家以特定點數獲勝時降低派彩，或採其他補償規則。」本課用的是 004 描述的那一種：
#
# 004：「押莊贏不抽那 5%……但它有個交換條件：當莊家以剛好 6 點獲勝時，這注只賠一半，這個規則常被叫做『超級 6』。」
# 000 也提醒：「看到免傭兩字不能直接推定所有莊注都按一比一結算」，以及「若是莊6勝，先查免傭版本差異，不能直接沿用標準5%傭金」。
#
# 同一局 BCR-008（莊家 9 點勝）在兩種桌台上：

# %% [markdown] lang=en
# ## 5. No-commission and Super 6
#
# 000: 「免傭桌則可能取消一般傭金，但在莊家以特定點數獲勝時降低派彩，或採其他補償規則。」 (translation: "a no-commission table may drop the usual commission but pay less when the banker wins with a particular total, or use some other compensating rule.") This lesson uses the one 004 describes:
#
# 004: 「押莊贏不抽那 5%……但它有個交換條件：當莊家以剛好 6 點獲勝時，這注只賠一半，這個規則常被叫做『超級 6』。」
# *Translation:* "A winning banker bet pays no 5% … but there is a trade-off: when the banker wins with exactly 6, the bet pays only half; this rule is often called 'Super 6'."
# 000 also warns: 「看到免傭兩字不能直接推定所有莊注都按一比一結算」 (translation: "seeing the words 'no commission' does not mean every banker bet is settled at one to one"), and 「若是莊6勝，先查免傭版本差異，不能直接沿用標準5%傭金」 (translation: "if the banker wins on 6, first check how the no-commission version differs; the standard 5% commission cannot simply be carried over").
#
# The same coup BCR-008 (the banker wins on 9) on the two tables:

# %%
bk.display.table(
    [message(f"nb.col.{col}") for col in ("pay-table", "banker-100-returned", "commission")],
    [[name, s.returned, s.commission]
     for name in ("commission", "no-commission")
     for s in [bk.settle(bcr008, {"banker": 100}, name)]],
)

# %% [markdown] lang=zh
# 莊家以 9 點勝，免傭桌賠足 1:1。莊家以 **6** 點勝時，免傭桌只賠一半（派彩表的 `banker_six` 是 0.5，即 0.5:1）：

# %% [markdown] lang=en
# The banker won on 9, so the no-commission table pays in full, 1:1. When the banker wins on **6**, the no-commission table pays only half (the pay table's `banker_six` is 0.5, that is 0.5:1):

# %%
bk.pay_table("no-commission").banker_six

# %% [markdown] lang=zh
# 來源沒有給「莊家 6 點勝」的完整牌局，所以本課不編一局。要看 Super 6 的結算，請在第 10 節的免傭手牌組合器（HandBuilder）自己組一局試試。
#
# 免傭桌通常沿用標準補牌表，但可能不同的不只是派彩（000：「補牌表通常沿用標準規則，但特定莊注派彩、旁注或桌台版本可能不同，必須查看當桌規則。」；001：「免傭百家樂、Super 6或其他附加玩法通常著重派彩及投注項目的差異，不應直接拿來改寫標準第三張牌表。」）。
# 同一副牌在兩種派彩表下，引擎跑出的是同一局。

# %% [markdown] lang=en
# The sources give no complete coup with a banker win on 6, so this lesson makes none up. To see a Super 6 settlement, build one yourself in the no-commission hand builder of section 10.
#
# A no-commission table usually keeps the standard drawing table, but more than its payouts may differ (000: 「補牌表通常沿用標準規則，但特定莊注派彩、旁注或桌台版本可能不同，必須查看當桌規則。」,
# translation: "the drawing table usually follows the standard rules, but particular banker payouts, side bets or table versions may differ; the table's own rules must be checked"; 001: 「免傭百家樂、Super 6或其他附加玩法通常著重派彩及投注項目的差異，不應直接拿來改寫標準第三張牌表。」,
# translation: "no-commission baccarat, Super 6 and other additional wagers usually differ in payouts and bet options, and should not be taken to rewrite the standard third-card table"; 「附加玩法」, literally "add-on ways to play", means side bets and extra bet options, not variants of the game).
# With the same cards under the two pay tables, the engine plays the same coup.

# %% [markdown] lang=zh
# ## 6. 對子（pair）是旁注（side bet），分開結算
#
# 004：「桌上除了莊、閒、和，常常還有對子、龍寶這類額外的下注選項，統稱副注（Side Bet）。它們和主注是分開結算的……」
#
# 「對子」怎麼算、賠多少，來源都沒有寫：000 的下注區表只說「附加注」在「指定牌型或對子成立」時成立，核對重點是「每桌定義與派彩可能不同」。
# 首兩張牌面相同算一對，是**本套件的定義**；照這個定義，BCR-008 的閒家首兩張 4 和 4 是一對（`coup.player_pair`），莊家 4、5 不是：

# %% [markdown] lang=en
# ## 6. A pair is a side bet, settled separately
#
# 004: 「桌上除了莊、閒、和，常常還有對子、龍寶這類額外的下注選項，統稱副注（Side Bet）。它們和主注是分開結算的……」
# *Translation:* "Besides banker, player and tie, tables often offer extra bets such as pairs or dragon bonus, together called side bets. They are settled separately from the main bets…"
#
# What counts as a pair, and what it pays, no source says: 000's table of bet areas only says that 「附加注」 (translation: "side bets") are won when 「指定牌型或對子成立」 (translation: "a specified pattern or a pair comes up"), and that the point to check is 「每桌定義與派彩可能不同」 (translation: "may be defined and paid differently at each table").
# A pair of first two cards of the same rank is **this kit's definition**; by it, BCR-008's player 4 and 4 is a pair (`coup.player_pair`) and the banker's 4 and 5 is not:

# %%
bcr008.player_pair, bcr008.banker_pair

# %% [markdown] lang=zh
# 在同一局押莊 100、閒對 10、莊對 10：主注照主注的規則結算（扣傭金），對子各自照對子的賠率結算：

# %% [markdown] lang=en
# In the same coup, bet 100 on banker, 10 on player pair and 10 on banker pair: the main bet settles by the main-bet rules (with commission), each pair by the pair odds:

# %%
bk.display.settlement_table(bk.settle(bcr008, {"banker": 100, "player-pair": 10, "banker-pair": 10}))

# %% [markdown] lang=zh
# BCR-008 的「只改一個條件」（莊第二張5改4，閒 4+4、莊 4+4，「雙方自然8，結果和局」）：主注退回，兩邊的對子都中：

# %% [markdown] lang=en
# BCR-008's "change one condition" (the banker's second card 5 becomes 4; player 4+4, banker 4+4, 「雙方自然8，結果和局」, translation: "both have a natural 8, a tie"): the main bet comes back, and both pairs win:

# %%
bcr008_variant = bk.play("4 4 4 4")
bk.display.settlement_table(
    bk.settle(bcr008_variant, {"banker": 100, "player-pair": 10, "banker-pair": 10})
)

# %% [markdown] lang=zh
# ## 7. 傭金的最小計價單位與四捨五入（rounding）
#
# 000：「若使用多種幣別或籌碼面額，傭金可能涉及最小計價單位與四捨五入，應比較毛派彩、傭金和實際入帳。」
#
# 假設在 BCR-008 押莊 15（教學假設的金額）：傭金是 15 × 5% = 0.75。
# 用 `bk.Rounding(unit, mode)` 指定最小計價單位（unit）與進位方式（mode），看傭金與入帳怎麼變：

# %% [markdown] lang=en
# ## 7. The minimum unit of commission and rounding
#
# 000: 「若使用多種幣別或籌碼面額，傭金可能涉及最小計價單位與四捨五入，應比較毛派彩、傭金和實際入帳。」
# *Translation:* "Where several currencies or chip values are used, commission may involve a minimum unit and rounding; compare the gross payout, the commission and what is actually credited."
#
# Suppose a banker bet of 15 on BCR-008 (a teaching amount): the commission is 15 × 5% = 0.75.
# `bk.Rounding(unit, mode)` sets the minimum unit and the rounding mode; see how the commission and the credited amount change:

# %%
roundings = [bk.Rounding(), bk.Rounding("1"), bk.Rounding("1", "down"), bk.Rounding("0.5", "up")]
bk.display.table(
    [message(f"nb.col.{col}") for col in ("unit", "mode", "commission", "winnings", "returned")],
    [[r.unit, r.mode, s.commission, s.winnings, s.returned]
     for r in roundings
     for s in [bk.settle(bcr008, {"banker": 15}, rounding=r)]],
)

# %% [markdown] lang=zh
# 不是金額的注碼會被拒絕，並說明可以怎麼寫。例如浮點數（float）：

# %% [markdown] lang=en
# A stake that is not an amount is refused, with a note on how to write it. For example a floating-point number (float):

# %%
try:
    bk.settle(bcr008, {"banker": 15.5})
except bk.BetError as err:
    print(err)

# %% [markdown] lang=zh
# ## 8. 牌靴、燒牌、切牌與作廢局（shoe, burn, cut card, void round）
#
# 000 的名詞解釋（原文）：
#
# > 牌靴：一局局依序發牌所使用的多副牌集合。
# >
# > 燒牌：依桌台程序在正式發牌前移除指定牌張，具體數量依規則而定。
# >
# > 切牌：在牌靴中放置切牌卡，用於標示接近換靴位置或完成洗牌程序。
# >
# > 作廢局：因符合桌規所列異常條件而取消結算並退回適用下注的牌局。
#
# 000 也說：「真人桌可能在新靴開始時依首張牌點數燒除若干牌，也可能使用預先洗牌牌靴或連續洗牌設備。」
#
# 工具包的 `bk.Shoe` 用其中一種做法：翻開第一張牌，再依它的點數燒掉同樣多張。**10、J、Q、K 燒 10 張是本套件的選擇**：000 只說「依首張牌點數燒除若干牌」，沒有說人頭牌算幾張（計點時它們算 0）。
# **切牌卡放在離牌靴底 14 張處，是本套件的選擇**（`cut_card=14`），來源沒有規定位置；切牌卡出現後再發一局，這靴就結束。
# 用固定的種子（seed）洗一靴 8 副牌，同一個種子每次都洗出同一副：

# %% [markdown] lang=en
# ## 8. Shoe, burn, cut card and void round
#
# 000's glossary (quoted in Chinese; the English is our translation):
#
# > 牌靴：一局局依序發牌所使用的多副牌集合。
# >
# > 燒牌：依桌台程序在正式發牌前移除指定牌張，具體數量依規則而定。
# >
# > 切牌：在牌靴中放置切牌卡，用於標示接近換靴位置或完成洗牌程序。
# >
# > 作廢局：因符合桌規所列異常條件而取消結算並退回適用下注的牌局。
# >
# > *Translation:* "Shoe: the set of several decks from which coup after coup is dealt. Burn: removing specified cards before the actual deal, following the table's procedure; the number depends on the rules. Cut: placing a cut card in the shoe, to mark that the change of shoe is near or to complete the shuffling procedure. Void round: a coup whose settlement is cancelled, with the applicable bets returned, because it meets an abnormal condition listed in the table rules."
#
# 000 also says: 「真人桌可能在新靴開始時依首張牌點數燒除若干牌，也可能使用預先洗牌牌靴或連續洗牌設備。」 (translation: "a live table may burn a number of cards at the start of a new shoe according to the value of the first card, or may use pre-shuffled shoes or a continuous shuffling machine.")
#
# The kit's `bk.Shoe` uses one of these procedures: it turns the first card and burns as many cards as its value. **That 10, J, Q, K burn 10 is this kit's choice**: 000 only says a number of cards is burned "according to the value of the first card", not what a 10 or a face card counts (in a total they count 0).
# **The cut card 14 cards from the bottom of the shoe is this kit's choice** (`cut_card=14`); the sources set no position. After the cut card comes out, one more coup is dealt and the shoe ends.
# A fixed seed shuffles an 8-deck shoe; the same seed always gives the same shoe:

# %%
shoe = bk.Shoe(decks=8, seed=2026)
first = shoe.burned[0]
print(message("nb.shoe-burn", card=first.label, pips=first.rank.pips, count=len(shoe.burned) - 1,
              cards=bk.format_cards(shoe.burned[1:])))
print(message("nb.shoe-cut", left=len(shoe), position=shoe.cut_position + 1, cut=14))

# %%
rounds = list(shoe.rounds())
for rnd in rounds[-3:]:
    mark = message("nb.shoe-last-round") if rnd.last else ""
    print(message("nb.shoe-round", round=rnd.round_id, cards=bk.format_cards(rnd.coup.cards),
                  winner=message(f"who.{rnd.coup.winner}"), mark=mark))
print(message("nb.shoe-dealt", rounds=len(rounds), left=len(shoe)))

# %% [markdown] lang=zh
# ### 作廢局怎麼結算
#
# 000 說異常的處理「可能是更正牌值、重發指定牌、整局作廢或保留原結果，並非所有異常都採同一方案」，
# 而且「若遇到發牌中斷、牌面無法辨識或系統重開局，先保留局號與時間，不把尚未結算的畫面自行當成輸贏結果。」
#
# 一局被作廢時，000 的說法是「取消結算並退回適用下注」。哪些下注「適用」要看該桌的桌規；工具包的 `void=True`
# 把**你傳入的注當作適用下注**，逐一原額退回（這是本套件的教學假設）。作廢局沒有可以結算的牌（`coup` 是 `None`）：

# %% [markdown] lang=en
# ### How a void round is settled
#
# 000 says an irregularity may be handled by 「可能是更正牌值、重發指定牌、整局作廢或保留原結果，並非所有異常都採同一方案」 (translation: "correcting a card value, redealing a specified card, voiding the whole coup or keeping the original result; not every irregularity is handled the same way"),
# and 「若遇到發牌中斷、牌面無法辨識或系統重開局，先保留局號與時間，不把尚未結算的畫面自行當成輸贏結果。」 (translation: "if the deal is interrupted, a card cannot be read or the system restarts the coup, first keep the round number and time, and do not take an unsettled screen as a win or a loss.")
#
# When a coup is voided, 000 says it 「取消結算並退回適用下注」 (translation: "cancels the settlement and returns the applicable bets"). Which bets are "applicable" depends on the table's rules; the kit's `void=True`
# **takes the bets you pass as the applicable bets** and returns each in full (this kit's teaching assumption). A void round has no cards to settle (`coup` is `None`):

# %%
bk.display.settlement_table(
    bk.settle(None, {"banker": 100, "tie": 10, "player-pair": 10}, void=True)
)

# %% [markdown] lang=zh
# ## 9. 帳務軌跡（bookkeeping trail）：下注明細、派彩、傭金、餘額
#
# 000：「逐局比對下注明細、有效投注、派彩、傭金與餘額變動」；「異常時整理局號、下注前後餘額、時間戳與截圖，讓客服能定位單一回合，避免只用總餘額反推多局結果。」
#
# `bk.Ledger` 每一局記一行：局號（round id）、下注明細、牌、結果、下注、派彩、傭金、返還、前後餘額。
# 用本課的來源牌局記五局（期初餘額 1000 與局號、注碼都是教學假設）：

# %% [markdown] lang=en
# ## 9. The bookkeeping trail: bet details, winnings, commission, balance
#
# 000: 「逐局比對下注明細、有效投注、派彩、傭金與餘額變動」 (translation: "compare coup by coup the bet details, valid stakes, winnings, commission and changes in balance"); 「異常時整理局號、下注前後餘額、時間戳與截圖，讓客服能定位單一回合，避免只用總餘額反推多局結果。」
# (translation: "when something is wrong, gather the round number, the balance before and after the bet, timestamps and screenshots, so support can find the single round, rather than working back from the total balance over many coups.")
#
# `bk.Ledger` keeps one line per coup: round id, bet details, cards, result, stake, winnings, commission, returned, balance before and after.
# Five coups from this lesson's source coups (the opening balance of 1000, the round ids and the stakes are teaching assumptions):

# %%
ledger = bk.Ledger(opening_balance=1000)
ledger.record("R001", {"player": 100}, bcr001)
ledger.record("R002", {"banker": 100, "player-pair": 10}, bcr008)
ledger.record("R003", {"player": 100, "tie": 10}, bcr002)
ledger.record("R004", {"banker": 100}, None, void=True)
ledger.record("R005", {"player": 100}, bcr001_variant)
bk.display.ledger_table(ledger)

# %% [markdown] lang=zh
# 每一行的餘額都要接得上：**下注後餘額 = 下注前餘額 − 下注 + 返還**，而且這一行的「下注前餘額」等於上一行的「餘額」。
# `reconcile()` 逐行檢查；全部接得上時回傳 `None`：

# %% [markdown] lang=en
# Every line's balance must follow on: **balance after = balance before − stake + returned**, and each line's "balance before" equals the previous line's "balance".
# `reconcile()` checks line by line; when everything follows on it returns `None`:

# %%
ledger.balance, ledger.reconcile()

# %% [markdown] lang=zh
# 帳務軌跡可以匯出成 CSV（`to_csv()`），給試算表或客服核對：

# %% [markdown] lang=en
# The trail can be exported as CSV (`to_csv()`) for a spreadsheet or for support to check:

# %%
csv_text = ledger.to_csv()
print(csv_text)

# %% [markdown] lang=zh
# ### 找出錯的那一行
#
# 假設有人把 R003 的餘額抄錯了（1385.00 抄成 1358.00）。從 CSV 讀回來再核對，`reconcile()` 指出第一個接不上的行、欄位、應有的數字與帳上的數字：

# %% [markdown] lang=en
# ### Finding the wrong line
#
# Suppose someone copied R003's balance wrongly (1385.00 written as 1358.00). Read back from the CSV and checked again, `reconcile()` names the first line that does not follow on, the field, the figure it should be and the figure in the books:

# %%
wrong_csv = csv_text.replace(",1305.00,1385.00", ",1305.00,1358.00")
assert wrong_csv != csv_text
wrong = bk.Ledger.from_csv(wrong_csv)
problem = wrong.reconcile()
print(problem)
print(problem.explain("en"))

# %% [markdown] lang=zh
# ## 10. 動手試試：帶注碼的手牌組合器（HandBuilder with a bet）
#
# 組合器可以帶注碼（`bets`）和派彩表（`table`），每改一張牌，就用 `bk.settle` 重新結算。
# 預設是 BCR-001 與閒注 100（000：「返還100本金+100淨利=200」）。

# %% [markdown] lang=en
# ## 10. Try it: the hand builder with a bet
#
# The builder takes stakes (`bets`) and a pay table (`table`); each change of a card settles again with `bk.settle`.
# It starts on BCR-001 with a player bet of 100 (000: 「返還100本金+100淨利=200」, translation: "returns the stake of 100 + a net win of 100 = 200").

# %%
from IPython.display import HTML

hand = bk.widgets.HandBuilder("2 3 3 4 4", bets={"player": 100}, lang=LANG)
hand

# %% [markdown] lang=zh
# 下面這格用**另一個**組合器（不顯示，上面那個仍停在 BCR-001）做 BCR-001 的「只改一個條件」：莊第二張 4 改成 5。結算跟著變成「閒注返還0、淨損100」：

# %% [markdown] lang=en
# The cell below uses **another** builder (hidden; the one above stays on BCR-001) for BCR-001's "change one condition": the banker's second card 4 becomes 5. The settlement becomes 「閒注返還0、淨損100」 (translation: "the player bet returns 0, a net loss of 100"):

# %%
demo = bk.widgets.HandBuilder("2 3 3 4 4", bets={"player": 100}, lang=LANG)
demo.card_b2.value = "5"
HTML(demo.settlement.value)

# %% [markdown] lang=zh
# ### 免傭桌與 Super 6
#
# 這個組合器用免傭派彩表（`no-commission`），押莊 100，從 BCR-008 開始（莊家 9 點勝，賠 1:1）。
# 自己換牌，組一局**莊家以 6 點勝**的牌，看派彩怎麼變成只賠一半；再組一局莊家以 7 點勝的牌比較。

# %% [markdown] lang=en
# ### No-commission and Super 6
#
# This builder uses the no-commission pay table (`no-commission`) with a banker bet of 100, starting on BCR-008 (the banker wins on 9 and is paid 1:1).
# Change the cards yourself to make a coup **the banker wins on 6** and see the payout become half; then make one the banker wins on 7 to compare.

# %%
super6 = bk.widgets.HandBuilder("4 4 4 5", bets={"banker": 100}, table="no-commission", lang=LANG)
super6

# %% [markdown] lang=zh
# 下面這格用**另一個**組合器（不顯示）把莊第二張改成 4（BCR-008 的「只改一個條件」，和局）：免傭桌的莊注一樣原額退回。

# %% [markdown] lang=en
# The cell below uses **another** builder (hidden) to change the banker's second card to 4 (BCR-008's "change one condition", a tie): on the no-commission table, too, the banker bet comes back in full.

# %%
demo_super6 = bk.widgets.HandBuilder("4 4 4 5", bets={"banker": 100}, table="no-commission", lang=LANG)
demo_super6.card_b2.value = "4"
HTML(demo_super6.settlement.value)

# %% [markdown] lang=zh
# ## 11. 小結
#
# | 注 | 結果 | 引擎怎麼結算 |
# |---|---|---|
# | 閒 100（BCR-001） | 閒勝 | 返還 200 |
# | 莊 100（BCR-008） | 莊勝 | 扣傭金 5，返還 195（004） |
# | 莊、閒（BCR-002） | 和局 | 本課的標準桌：原額退回（000：標準桌「通常」退回，特殊桌可能另有規定）；和注另外派彩 |
# | 莊 100（本課的 Super 6 免傭表） | 莊 6 點勝 | 只賠一半：淨贏 50，返還 150（這只是免傭桌的一種：其他免傭桌可能降低別的派彩，或採其他補償規則） |
# | 閒對、莊對 | 首兩張牌面相同（如 BCR-008 的 4、4；本套件的定義，000：「每桌定義與派彩可能不同」） | 與主注分開結算 |
# | 適用下注（依桌規） | 作廢局 | 取消結算並退回（`void=True` 退回傳入的每一注） |
#
# 結算方式不會改變輸贏的機率，也不會讓任何一注的期望值變成正的（004：「三種押法長期的期望值都是負的」）。

# %% [markdown] lang=en
# ## 11. Summary
#
# | Bet | Result | How the engine settles it |
# |---|---|---|
# | player 100 (BCR-001) | player wins | returns 200 |
# | banker 100 (BCR-008) | banker wins | commission 5, returns 195 (004) |
# | banker, player (BCR-002) | tie | this lesson's standard table returns them in full (000: a standard table "usually" does; special tables may have rules of their own); the tie bet is paid separately |
# | banker 100 (this lesson's Super 6 no-commission table) | banker wins on 6 | pays only half: net win 50, returns 150 (only one kind of no-commission table: others may pay less elsewhere or use some other compensating rule) |
# | player pair, banker pair | the first two cards have the same rank (like BCR-008's 4, 4; this kit's definition, 000: 「每桌定義與派彩可能不同」, translation: "may be defined and paid differently at each table") | settled separately from the main bets |
# | applicable bets (by the table's rules) | void round | settlement cancelled and the bets returned (`void=True` returns every bet passed) |
#
# The way bets are settled changes neither the chance of winning nor makes any bet's expectation positive (004: 「三種押法長期的期望值都是負的」, translation: "all three bets have a negative expectation in the long run").

# %% [markdown] lang=zh
# ## 12. 自我檢測（self-check）
#
# 題目是課程資料裡的一組題（`Quiz.lesson("07")`），每一題的正確答案都在建立測驗時由規則引擎算出，這一格看不到答案。
# 每題以**第一次提交**的答案計分；答錯時會看到正確答案和為什麼；你選的選項是某個常見誤解時，也會點出是哪一個。之後再交不再計分。做完會有總結，按「重新開始」可以再做一次。

# %% [markdown] lang=en
# ## 12. Self-check
#
# The questions are a named question set in the course data (`Quiz.lesson("07")`); every correct answer is computed by the rules engine when the quiz is built, so this cell shows no answer.
# Each question is scored on the **first answer submitted**; a wrong answer shows the correct one and why (and names the common misconception when the option you chose is one), and answers after that no longer count. At the end there is a summary, and "start again" resets the quiz.

# %%
quiz = bk.widgets.Quiz.lesson("07", lang=LANG)
quiz

# %% [markdown] lang=zh
# ## 下一步（what next）
#
# * 下一課：[第 8 課　賠率、模擬、算牌與路單](08-odds-and-roads.ipynb)
# * 本課的練習：[練習 05　結算](../exercises/05-settlement.ipynb)（在自己的副本裡作答，`check("q1")` 立刻回饋）
# * 不寫程式的練習：[補牌訓練器（trainer）](../trainer/trainer.ipynb)
# * 回到[課程地圖](00-how-to-use.ipynb)

# %% [markdown] lang=en
# ## What next
#
# * Next lesson: [Lesson 8 Odds, simulation, card counting and roads](08-odds-and-roads.ipynb)
# * This lesson's exercise: [Exercise 05 Settlement](../../exercises/en/05-settlement.ipynb) (answer in your own copy; `check("q1")` gives instant feedback)
# * Practice without code: [the drawing trainer](../../trainer/trainer.ipynb)
# * Back to the [course map](00-how-to-use.ipynb)
