# %% [markdown] lang=zh
# # 第 8 課　數字說話：精確機率、模擬、算牌與路單
#
# 004 說它的另一篇（講賠率與機率）會「用數字算給你看」：「完整的莊閒期望值比較，我們在賠率與機率那篇會用數字算給你看」。
# 那一篇不在本課程的來源裡，所以這一課自己把數字算出來：每一注的精確機率與賭場優勢、傭金桌與免傭桌的差別、模擬牌靴如何收斂到精確值、
# 路單與連莊連閒，以及 Thorp 與 Walden（1966）式的算牌分析。所有的補牌決定都來自課程的規則引擎
# （`bk.player_draws`、`bk.banker_draws`），這裡沒有另外寫一份補牌表。
#
# 本課依據的來源頁與文獻：
#
# | 頁 | 本課用到的內容 |
# |---|---|
# | 004 新手規則總覽 | 押莊抽 5% 的理由、免傭（004 稱「免水」）與 Super 6（超級 6）、6 副與 8 副、「三種押法長期的期望值都是負的」 |
# | 000「百家樂補牌規則」 | 燒牌、切牌、路單「只是歷史結果紀錄」 |
# | 003 台灣百家樂規則頁 | 「不代表任何投注策略能改變遊戲的數學期望」 |
# | 公開的精確值 | Wizard of Odds 百家樂附錄；E. O. Thorp & W. E. Walden (1966), *A Favorable Side Bet in Nevada Baccarat* |
#
# > 本課只談規則與數學，不提供任何投注建議。

# %% [markdown] lang=en
# # Lesson 8 — The numbers: exact odds, simulation, card counting and roads
#
# 004 says its own other article, on odds and probabilities, will show the numbers: 「完整的莊閒期望值比較，我們在賠率與機率那篇會用數字算給你看」 (translation: "a full comparison of the
# banker and player expectations: we will show it with numbers in the article on odds and probabilities").
# That article is not among this course's sources, so this lesson computes the numbers itself: the exact probability and house edge of every bet, commission versus no-commission, simulated shoes converging
# to the exact values, roads and streaks, and a card-counting analysis in the manner of Thorp and Walden (1966). Every drawing decision
# comes from the course's rules engine (`bk.player_draws`, `bk.banker_draws`); no second copy of the table is written here.
#
# The source pages and literature of this lesson:
#
# | Page | What this lesson uses |
# |---|---|
# | 004 beginner's overview | why banker bets pay 5% commission, no-commission (004 says 「免水」, translation: "commission-free"; 「抽水」, literally "drawing water", is 004's word for the commission) and Super 6, 6 and 8 decks, 「三種押法長期的期望值都是負的」 (translation: "all three bets have a negative expectation in the long run") |
# | 000 「百家樂補牌規則」 (translation: "Baccarat drawing rules") | burn, cut card, a road is 「只是歷史結果紀錄」 (translation: "only a record of past results") |
# | 003 Taiwan Baccarat rule book | 「不代表任何投注策略能改變遊戲的數學期望」 (translation: "does not mean any betting strategy can change the game's mathematical expectation") |
# | published exact values | the Wizard of Odds baccarat appendix; E. O. Thorp & W. E. Walden (1966), *A Favorable Side Bet in Nevada Baccarat* |
#
# > Rules and mathematics only; no betting advice.

# %%
import baccarat_kit as bk
from baccarat_kit import roads

LANG = bk.set_language(EDITION_LANG)

# %% [markdown] lang=zh
# ## 1. 精確機率：把每一種發牌順序都算一遍
#
# 一局最多用 6 張牌。`bk.exact_odds(8)` 把 8 副牌（416 張）能發出的每一種點數順序都列舉一遍，
# 依不放回抽牌計算每種順序的機率，再用引擎的補牌規則決定每一局的結果。答案是分數（`Fraction`），不是近似值。

# %% [markdown] lang=en
# ## 1. Exact odds by complete enumeration
#
# A coup uses at most six cards. `bk.exact_odds(8)` walks every sequence of card values an 8-deck shoe (416 cards) can deal,
# weights each by drawing without replacement, and lets the engine's drawing rules finish each coup. The answers are exact
# fractions (`Fraction`), not approximations.

# %%
odds8 = bk.exact_odds(8)
print(odds8.report(LANG))

# %% [markdown] lang=zh
# 這些數字與公開文獻一致（Wizard of Odds 附錄；Thorp & Walden 1966）：8 副牌莊 0.458597、閒 0.446247、和 0.095156；
# 賭場優勢：押莊（5% 傭金）1.0579%、押閒 1.2351%、押和 8:1 為 14.3596%、9:1 為 4.8440%，對子 11:1 為 10.3614%。
# 精確分數加起來正好是 1：

# %% [markdown] lang=en
# These match the published figures (the Wizard of Odds appendix; Thorp & Walden 1966): with 8 decks banker 0.458597, player 0.446247, tie 0.095156;
# house edge: banker (5% commission) 1.0579%, player 1.2351%, tie at 8:1 14.3596%, at 9:1 4.8440%, pair at 11:1 10.3614%.
# The exact fractions add up to exactly 1:

# %%
print(odds8.banker + odds8.player + odds8.tie)
print(odds8.banker)
print(f"{float(odds8.banker):.15f}")

# %% [markdown] lang=zh
# ### 6 副牌與 8 副牌
#
# 004：「副數多寡不影響上面講的任何一條規則……它對勝率機率只有極其細微的影響」。精確值如下。

# %% [markdown] lang=en
# ### Six decks and eight
#
# 004: 「副數多寡不影響上面講的任何一條規則……它對勝率機率只有極其細微的影響」 (translation: "the number of decks affects none of the rules above … it has only an extremely slight effect on the odds"). The exact values:

# %%
bk.display.odds_lines({decks: bk.exact_odds(decks) for decks in (1, 6, 8)})

# %% [markdown] lang=zh
# ## 2. 傭金桌與免傭桌
#
# 004：押莊贏要抽 5%，因為「莊家這一方因為補牌規則的關係，長期勝率比閒家略高一點點」；免傭桌不抽傭金，但
# 「當莊家以剛好 6 點獲勝時，這注只賠一半」，「長期算下來兩種版本的結果其實很接近」。
# 這是 004 描述的免傭版本（Super 6），也是本課 `no-commission` 派彩表的設定；000 提醒免傭桌「可能取消一般傭金，
# 但在莊家以特定點數獲勝時降低派彩，或採其他補償規則」，所以別家免傭桌的數字可能不同。
#
# 兩種做法讓押莊的人各付出多少？傭金桌：每次莊贏付 0.05，平均每注付 0.05 × P(莊贏)。
# 免傭桌：莊以 6 點贏時少拿 0.5，平均每注付 0.5 × P(莊以 6 點贏)。

# %% [markdown] lang=en
# ## 2. Commission versus no-commission
#
# 004: a winning banker bet pays 5% because 「莊家這一方因為補牌規則的關係，長期勝率比閒家略高一點點」 (translation: "because of the drawing rules, the banker side wins slightly more often than the player in the long run");
# a no-commission table takes no commission, but 「當莊家以剛好 6 點獲勝時，這注只賠一半」 (translation: "when the banker wins with exactly 6, the bet pays only half"), and
# 「長期算下來兩種版本的結果其實很接近」 (translation: "in the long run the two versions come out very close").
# This is the no-commission version 004 describes (Super 6), and the setting of this course's `no-commission` pay table; 000 warns that a no-commission table
# 「可能取消一般傭金，但在莊家以特定點數獲勝時降低派彩，或採其他補償規則」 (translation: "may drop the usual commission but pay less when the banker wins with a particular total, or use some other compensating rule"), so another no-commission table's figures may differ.
#
# What does each cost the banker bettor? Commission: 0.05 on every banker win, on average 0.05 × P(banker wins) per bet.
# No-commission: 0.5 less on a banker win on 6, on average 0.5 × P(banker wins on 6) per bet.

# %%
bk.display.commission_lines(odds8)

# %% [markdown] lang=zh
# 兩者相差約 0.4 個百分點：很接近，但免傭桌對押莊的人略差；兩種版本的押莊都是負期望值。
#
# ## 3. 模擬真實牌靴
#
# `bk.simulate` 用 numpy 一次發很多靴牌，流程與引擎的 `bk.Shoe` 相同：洗牌、翻第一張並依點數燒牌、
# 切牌卡放在離底 14 張處（本套件的選擇，來源沒有規定位置；第 7 課第 8 節），切牌卡出現後再發一局就結束。
# 模擬出的頻率應在精確值附近，差距以標準誤衡量。
#
# `progress="text"` 在執行時顯示一行進度（已經發了幾靴），跑得久的格子才不會只看到 `[*]`。
# 本課的表格排版放在 `bk.display`（例如 `bk.display.simulated_vs_exact`），每一格看得到的只有引擎的呼叫，你可以照著打。

# %% [markdown] lang=en
# About 0.4 percentage points apart: close, slightly worse for the banker bettor without commission, and a negative expectation in both versions.
#
# ## 3. Simulating real shoes
#
# `bk.simulate` deals many shoes at once with numpy, exactly as the engine's `bk.Shoe` does: shuffle, turn the first card and burn by its value,
# the cut card 14 cards from the end (this kit's choice; the sources set no position: lesson 7, section 8), one more coup after it comes out.
# The simulated frequencies should sit near the exact values; the difference is measured in standard errors.
#
# `progress="text"` shows a progress line while it runs (how many shoes are dealt), so a long cell shows more than `[*]`.
# This lesson's table layout lives in `bk.display` (for example `bk.display.simulated_vs_exact`): each cell shows only the engine calls, which you can type yourself.

# %%
sim = bk.simulate(shoes=5000, decks=8, seed=2026, progress="text")
print(sim.summary(LANG))
bk.display.simulated_vs_exact(sim, odds8)

# %%
import matplotlib.pyplot as plt

sim.plot_convergence(odds8, lang=LANG)
bk.plotting.show(plt.gcf(), figure="convergence", lang=LANG)

# %% [markdown] lang=zh
# 上圖：頻率隨局數增加而貼近精確值（虛線）。下圖：頻率與精確值的差，落在 ±2 標準誤的「漏斗」裡；
# 漏斗隨局數的平方根變窄。圖上的字在沒有中文字型的機器上會改用英文。

# %% [markdown] lang=en
# Top: the frequencies close in on the exact values (dashed). Bottom: frequency minus exact value, inside the ±2
# standard-error funnel, which narrows with the square root of the number of coups.

# %% [markdown] lang=zh
# ### 模擬的每一局都與引擎相同
#
# 把模擬的牌序原封不動放進引擎的 `bk.Shoe`，逐局比對勝方、點數、張數、例牌與對子。

# %% [markdown] lang=en
# ### Every simulated coup is the engine's coup
#
# Replay simulated shoes card for card through the engine's `bk.Shoe` and compare every coup: winner, totals, number of cards, naturals and pairs.

# %%
check = bk.simulate(shoes=40, decks=8, seed=7, keep_cards=True)
bk.display.replay_check(check)

# %% [markdown] lang=zh
# ## 4. 路單
#
# 路單只記錄已經發生的結果。000：「路單只是歷史結果紀錄，不會改變固定補牌規則或下一局結果。」
# 下面是一靴模擬牌的珠盤路（每局一格，含和局）與大路（換邊就換一行，連莊連閒往下排；和局畫成斜線）。
# 第一行是這一靴的結果（B＝莊、P＝閒、T＝和）。

# %% [markdown] lang=en
# ## 4. Roads
#
# A road only records what has happened. 000: 「路單只是歷史結果紀錄，不會改變固定補牌規則或下一局結果。」 (translation: "a road is only a record of past results; it changes neither the fixed drawing rules nor the result of the next coup.")
# Below, one simulated shoe as a bead plate (one square per coup, ties included) and a big road (a new column at each change of winner, runs going down; ties as a slash).
# The first line is the shoe's results (B = banker, P = player, T = tie).

# %%
shoe0 = sim.outcomes(0)
print(shoe0)
fig, (ax1, ax2) = plt.subplots(2, 1, figsize=(11, 6.5))
roads.plot_bead_plate(shoe0, ax=ax1, lang=LANG)
roads.plot_big_road(shoe0, ax=ax2, lang=LANG)
bk.plotting.show(fig, figure="roads", lang=LANG)

# %% [markdown] lang=zh
# ### 連莊、連閒：與「各局獨立」比一比
#
# 000 提醒：「注意：莊與閒只是下注區名稱，不能用名稱推斷哪邊一定較容易連續勝出。」
# 「莊」不是賭場的一方，名稱也不帶來連勝；下面用模擬來檢查。
#
# 如果路單有預測力，連莊之後開莊的頻率就會和平常不同。以 5000 靴模擬（不計和局）：
# 連續 k 局莊（或閒）之後，下一局開莊的頻率，與「各局獨立」時應有的 P(莊 | 非和局) 比較。

# %% [markdown] lang=en
# ### Streaks against independence
#
# 000 warns: 「注意：莊與閒只是下注區名稱，不能用名稱推斷哪邊一定較容易連續勝出。」 (translation: "note: banker and player are only the names of bet areas;
# the names do not tell which side is bound to win more easily in a row.") The banker is not the casino's side, and a name brings no streaks; the simulation checks it.
#
# If roads predicted anything, banker would come up more (or less) often after a banker streak. Over 5000 simulated
# shoes (ties left out): how often the next coup is a banker win after k banker (or player) wins in a row, beside
# what independence predicts, P(banker | not a tie).

# %%
print(roads.streak_stats(sim).report(LANG))
print()
print(roads.after_streak_report(roads.after_streak(sim, max_run=6), LANG))

# %%
bk.display.run_length_lines(roads.run_lengths(sim, max_len=10))

# %% [markdown] lang=zh
# 差距都在幾個標準誤之內：連莊、連閒的長度與頻率就是獨立事件會產生的樣子，前面的勝負紀錄不會改變下一局。
# 說得精確一點（**這是本課程的說明，不是來源的話**）：同一靴裡，各局並不完全獨立，**已經發掉的牌會稍微改變下一局的機率**（下一節算給你看）；
# 但那點改變很小，連莊、連閒或路單也幾乎透露不出剩下哪些牌，沒有任何一注、連莊或路單能把賭場優勢改變到足以贏過它。
#
# ## 5. 算牌：Thorp 與 Walden 的問題
#
# Thorp 與 Walden 在 1966 年的論文（*Journal of the American Statistical Association* 61(314), 313–328）
# 問的是：牌靴發到後段時，剩下的牌能不能讓某一注變成對押注者有利？他們發現莊、閒主注實際上不可能，
# 只有當時內華達的「例牌 8／例牌 9」旁注偶爾可以。那種旁注不在來源頁的注項裡；這裡用同樣的方法檢查課程裡的每一注。
#
# 牌靴越發越少，剩下的牌的組成會改變，各注的精確優勢也隨之改變。`bk.counting_analysis` 在 1000 靴模擬牌的每一局之前，
# 用剩下的牌算出每一注的精確賭場優勢。這裡假設算牌者完全知道剩下的每一張牌（連燒掉、沒翻開的牌都知道），
# 比真實世界有利得多。這一格是本課最久的一格（約半分鐘），進度行會顯示已經算到第幾靴。

# %% [markdown] lang=en
# Every difference is within a few standard errors: the lengths and frequencies of streaks are exactly what independent coups produce; the record of past results does not change the next coup.
# To be exact (**this is the course's own statement, not a source's**): within a shoe coups are not strictly independent, because **the cards already dealt change the next coup's odds slightly** (the next section computes it);
# but the change is small, a streak or a road says almost nothing about which cards are left, and no bet, streak or road changes the house edge enough to beat it.
#
# ## 5. Card counting, after Thorp and Walden
#
# Thorp and Walden's 1966 paper (*Journal of the American Statistical Association* 61(314), 313–328)
# asked whether the cards left late in a shoe can ever make a bet favourable to the bettor. They found it practically impossible for
# banker and player; only the Nevada side bets of the time on a natural 8 or a natural 9 sometimes were. Those side bets are not
# among the sources' bets; here the same method is applied to every bet in the course.
#
# As a shoe is dealt, the make-up of the cards left changes, and so does every bet's exact edge. Before every coup of 1000 simulated
# shoes, `bk.counting_analysis` computes each bet's exact house edge from the cards left. It assumes a counter who knows every card
# left (even the burned and unseen ones), far better placed than anyone at a real table. This is the lesson's longest cell (about half a minute); the progress line shows how many shoes are done.

# %%
ca = bk.counting_analysis(shoes=1000, decks=8, seed=1966, progress="text")
bk.display.counting_table(ca)

# %%
fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(13, 4.8))
ca.plot(ax=ax1, lang=LANG, bets=(("banker", "commission"), ("banker", "no-commission"), ("player", "commission")))
ca.plot(ax=ax2, lang=LANG, bets=(("tie", "commission"), ("tie", "commission-tie-9"), ("player-pair", "commission")))
bk.plotting.show(fig, figure="counting", lang=LANG)

# %% [markdown] lang=zh
# 這張表說的事：
#
# * 莊、閒主注很少轉為押注者占優：表中「期望值為正的局」三列主注只占 0.30%～0.51%，是**罕見**的時刻；
#   但出現時幅度並不小（「看到的最佳期望值」為 +5.7%～+6.9%）。
# * 和局與對子這些旁注，偶爾在**牌靴末段**出現期望值為正的時刻；但這些時刻很少，而且只有**完美知道剩下每一張牌**
#   （連燒掉、沒有人看過的牌也知道）的人才看得到。真實的算牌者做不到。
# * 每一注「每局都押」的平均期望值都是負的（第四欄）；一靴開始時也都是負的（第二欄）。
# * 所以**沒有可行的下注系統**由此而來：那些罕見的正期望時刻不能讓一般人長期贏錢。本課最後的自我檢測問的也是同一件事。
#
# ## 6. 牌靴追蹤器：一局一局看期望值怎麼動
#
# 下面的牌靴追蹤器（ShoeTracker）用固定的種子洗一靴 8 副牌，照 `bk.Shoe` 的程序燒牌、放切牌卡（離牌靴底 14 張，本套件的選擇），
# 每按一次「發下一局」就發一局，再用**剩下的每一張牌**重算下一局的精確機率與每一注的期望值（每次更新不到 10 毫秒，
# 見 `benchmarks/bench_shoe_tracker.py`）。期望值為正的那一列會標出來。

# %% [markdown] lang=en
# What the table says:
#
# * The banker and player bets rarely favour the bettor: in the three main-bet rows the share of coups with a positive expectation is only 0.30% to 0.51%.
#   Such coups are **rare**, but not small when they come (the best expectation seen is +5.7% to +6.9%).
# * The tie and pair side bets now and then have a positive expectation **late in a shoe**; but such moments are rare, and only someone who
#   **knows every card left** (even the burned ones nobody saw) can see them. A real counter cannot.
# * Every bet's average expectation when betting every coup is negative (fourth column), and so is its expectation at the start of a shoe (second column).
# * So **no practical betting system** follows: those rare positive moments do not let anyone win in the long run. The self-check at the end of this lesson asks exactly this.
#
# ## 6. The shoe tracker: watch the expectations move coup by coup
#
# The shoe tracker (ShoeTracker) below shuffles an 8-deck shoe with a fixed seed, burns and places the cut card as `bk.Shoe` does (14 cards from the bottom, this kit's choice),
# deals one coup each time you press "deal next coup", and recomputes from **every card left** the exact odds of the next coup and each bet's expectation (each update takes under 10 ms,
# see `benchmarks/bench_shoe_tracker.py`). A row whose expectation is positive is marked.

# %%
tracker = bk.widgets.ShoeTracker(decks=8, seed=2026, lang=LANG)
tracker

# %% [markdown] lang=zh
# 下一格用**另一個**追蹤器（不顯示，上面那個仍在一靴的開頭）把同一靴發完，列出每一個有某注期望值為正的時刻：

# %% [markdown] lang=en
# The next cell uses **another** tracker (hidden; the one above is still at the start of the shoe) to deal the same shoe to the end and list every moment some bet had a positive expectation:

# %%
walk = bk.widgets.ShoeTracker(decks=8, seed=2026, lang=LANG)
summary, moments = bk.display.positive_moments(walk)
print(summary)
moments

# %% [markdown] lang=zh
# 正期望只出現在這一靴的最後幾局、牌靴快發完的時候，多半是對子旁注；知道這些時刻的前提是知道剩下的每一張牌。
# 換一個種子（上面追蹤器的「洗牌種子」）再發一靴，看看這樣的時刻出現在哪裡、出現幾次。

# %% [markdown] lang=en
# Positive moments come only in the last coups of the shoe, when it is nearly dealt out, mostly for the pair side bets; seeing them takes
# knowing every card left. Try another seed (the tracker's "shuffle seed" above) and deal another shoe to see where such moments come and how often.

# %%
assert all(odds8.expected_value(area, table) < 0 for table in bk.PAY_TABLES for area in bk.AREAS)
bk.display.expectation_lines(odds8)

# %% [markdown] lang=zh
# ## 7. 自我檢測
#
# 題目是課程資料裡的一組題（`Quiz.lesson("08")`）；每一題的正確答案都在建立測驗時由 `bk.exact_odds` 等引擎函式算出。

# %% [markdown] lang=en
# ## 7. Self-check
#
# The questions are a named question set in the course data (`Quiz.lesson("08")`); every correct answer is computed by `bk.exact_odds` and the engine's other functions when the quiz is built.

# %%
quiz = bk.widgets.Quiz.lesson("08", lang=LANG)
quiz

# %% [markdown] lang=zh
# ## 8. 結論：來源頁面的提醒
#
# 第 6 節最後一格列出每一注在每種賠率表下的期望值（押 1 元平均的輸贏）：全部是負的。
#
# > 004：「不過要誠實說，三種押法長期的期望值都是負的，建議把它當成娛樂、設好預算，而不是當成穩定獲利的方法。」
# >
# > 003：「本篇是規則教育內容,不提供勝率保證,也不代表任何投注策略能改變遊戲的數學期望。」
# >
# > 000：「路單只是歷史結果紀錄，不會改變固定補牌規則或下一局結果。」
#
# 上面的數字說的是同一件事：每一種注、每一種賠率表，期望值都是負的；路單與連莊連閒不改變下一局；
# 就算完美算牌，主注也幾乎從不占優，旁注只有在罕見的牌靴末段、而且知道每一張牌時才短暫為正，平均仍是負的。

# %% [markdown] lang=en
# ## 8. What the sources say
#
# The last cell of section 6 lists the expectation of every bet under every pay table (the average result of a one-unit bet): all negative.
#
# > 004：「不過要誠實說，三種押法長期的期望值都是負的，建議把它當成娛樂、設好預算，而不是當成穩定獲利的方法。」
# >
# > *Translation:* "But to be honest, all three bets have a negative expectation in the long run; treat it as entertainment and set a budget, not as a steady way to make money."
# >
# > 003：「本篇是規則教育內容,不提供勝率保證,也不代表任何投注策略能改變遊戲的數學期望。」
# >
# > *Translation:* "This article is rules education; it guarantees no odds of winning and does not mean any betting strategy can change the game's mathematical expectation."
# >
# > 000：「路單只是歷史結果紀錄，不會改變固定補牌規則或下一局結果。」
# >
# > *Translation:* "A road is only a record of past results; it changes neither the fixed drawing rules nor the result of the next coup."
#
# The numbers above say the same: every bet of every pay table has a negative expectation; roads and streaks do not change the next coup;
# even perfect counting almost never gives the main bets an edge, and the side bets only rarely, late in a shoe, for someone who knows every card, while their average stays negative.

# %% [markdown] lang=zh
# ## 下一步（what next）
#
# * 下一課：[第 10 課　總結：規則與數字](10-summary.ipynb)
# * 不寫程式的練習：[補牌訓練器（trainer）](../trainer/trainer.ipynb)
# * 回到[課程地圖](00-how-to-use.ipynb)
# * 給講師：[第 9 課　新增一個案例](09-instructors-adding-a-case.ipynb)

# %% [markdown] lang=en
# ## What next
#
# * Next lesson: [Lesson 10 Summing up: the rules and the numbers](10-summary.ipynb)
# * Practice without code: [the drawing trainer](../../trainer/trainer.ipynb)
# * Back to the [course map](00-how-to-use.ipynb)
# * For instructors: [Lesson 9 Adding a case](09-instructors-adding-a-case.ipynb)
