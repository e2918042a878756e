# %% [markdown]
# # 第 8 課　數字說話：精確機率、模擬、算牌與路單
# ### Lesson 8 — The numbers: exact odds, simulation, card counting and roads
#
# 來源頁面答應過要「用數字算給你看」（004：「完整的莊閒期望值比較，我們在賠率與機率那篇會用數字算給你看」）。
# 這一課把數字算出來：每一注的精確機率與賭場優勢、傭金桌與免傭桌的差別、模擬牌靴如何收斂到精確值、
# 路單與連莊連閒，以及 Thorp 與 Walden（1966）式的算牌分析。所有的補牌決定都來自課程的規則引擎
# （`bk.player_draws`、`bk.banker_draws`），這裡沒有另外寫一份補牌表。
#
# *The source pages promise to show the numbers. This lesson computes them: the exact probability and house edge of
# every bet, commission versus no-commission, simulated shoes converging to the exact values, roads and streaks, and a
# card-counting analysis in the manner of Thorp and Walden (1966). Every drawing decision comes from the kit's rules
# engine; no second copy of the table is written here.*
#
# 本課依據的來源頁與文獻 / Sources:
#
# | 頁 | 本課用到的內容 |
# |---|---|
# | 004 新手規則總覽 | 押莊抽 5% 的理由、免傭（004 稱「免水」）與 Super 6（超級 6）、6 副與 8 副、「三種押法長期的期望值都是負的」 |
# | 000「百家樂補牌規則」 | 燒牌、切牌、路單「只是歷史結果紀錄」 |
# | 003 台灣百家樂規則頁 | 「不代表任何投注策略能改變遊戲的數學期望」 |
# | 公開的精確值 | Wizard of Odds 百家樂附錄；E. O. Thorp & W. E. Walden (1966), *A Favorable Side Bet in Nevada Baccarat* |
#
# 本課只談規則與數學，不提供任何投注建議。 *Rules and mathematics only; no betting advice.*

# %%
from fractions import Fraction

import matplotlib.pyplot as plt

import baccarat_kit as bk
from baccarat_kit import roads
from baccarat_kit.i18n import message

LANG = "zh"   # 改成 "en" 看英文 / set to "en" for English

# %% [markdown]
# ## 1. 精確機率：把每一種發牌順序都算一遍 / Exact odds by complete enumeration
#
# 一局最多用 6 張牌。`bk.exact_odds(8)` 把 8 副牌（416 張）能發出的每一種點數順序都列舉一遍，
# 依不放回抽牌計算每種順序的機率，再用引擎的補牌規則決定每一局的結果。答案是分數（`Fraction`），不是近似值。
#
# *A coup uses at most six cards. `bk.exact_odds(8)` walks every sequence of card values an 8-deck shoe can deal,
# weights each by drawing without replacement, and lets the engine's rules finish each coup. The answers are exact
# fractions.*

# %%
odds8 = bk.exact_odds(8)
print(odds8.report(LANG))

# %%
print(odds8.report("en"))

# %% [markdown]
# 這些數字與公開文獻一致（Wizard of Odds 附錄；Thorp & Walden 1966）：8 副牌莊 0.458597、閒 0.446247、和 0.095156；
# 賭場優勢：押莊（5% 傭金）1.0579%、押閒 1.2351%、押和 8:1 為 14.3596%、9:1 為 4.8440%，對子 11:1 為 10.3614%。
# 精確分數加起來正好是 1：
#
# *These match the published figures. The exact fractions add up to exactly 1:*

# %%
print(odds8.banker + odds8.player + odds8.tie)
print(odds8.banker)
print(f"{float(odds8.banker):.15f}")

# %% [markdown]
# ### 6 副牌與 8 副牌 / Six decks and eight
#
# 004：「副數多寡不影響上面講的任何一條規則……它對勝率機率只有極其細微的影響」。精確值如下。
#
# *The number of decks changes no rule and moves the odds only very slightly:*

# %%
for decks in (1, 6, 8):
    o = bk.exact_odds(decks)
    print(f"{decks} 副 / decks: 莊 banker {float(o.banker):.6f}  閒 player {float(o.player):.6f}  "
          f"和 tie {float(o.tie):.6f}  |  edge banker {float(o.house_edge('banker')):.4%}  "
          f"player {float(o.house_edge('player')):.4%}  tie {float(o.house_edge('tie')):.4%}")

# %% [markdown]
# ## 2. 傭金桌與免傭桌 / Commission versus no-commission
#
# 004：押莊贏要抽 5%，因為「莊家這一方因為補牌規則的關係，長期勝率比閒家略高一點點」；免傭桌不抽傭金，但
# 「當莊家以剛好 6 點獲勝時，這注只賠一半」，「長期算下來兩種版本的結果其實很接近」。
# 這是 004 描述的免傭版本（Super 6），也是本課 `no-commission` 派彩表的設定；000 提醒免傭桌「可能取消一般傭金，
# 但在莊家以特定點數獲勝時降低派彩，或採其他補償規則」，所以別家免傭桌的數字可能不同。
#
# 兩種做法讓押莊的人各付出多少？傭金桌：每次莊贏付 0.05，平均每注付 0.05 × P(莊贏)。
# 免傭桌：莊以 6 點贏時少拿 0.5，平均每注付 0.5 × P(莊以 6 點贏)。
#
# *Commission costs the banker bettor 0.05 × P(banker wins) per bet; no-commission costs 0.5 × P(banker wins on 6).*

# %%
commission_cost = Fraction(5, 100) * odds8.banker
super6_cost = Fraction(1, 2) * odds8.banker_six
print(f"P(莊贏 banker wins)          = {float(odds8.banker):.6f}")
print(f"P(莊以 6 點贏 banker wins on 6) = {float(odds8.banker_six):.6f}")
print(f"傭金桌的代價 commission cost   = {float(commission_cost):.6f} per unit")
print(f"免傭桌的代價 Super 6 cost      = {float(super6_cost):.6f} per unit")
for table in ("commission", "no-commission"):
    print(f"{bk.odds.bet_label('banker', table, LANG)}: 賭場優勢 house edge {float(odds8.house_edge('banker', table)):.4%}")

# %% [markdown]
# 兩者相差約 0.4 個百分點：很接近，但免傭桌對押莊的人略差；兩種版本的押莊都是負期望值。
#
# *About 0.4 percentage points apart: close, slightly worse without commission, and negative either way.*
#
# ## 3. 模擬真實牌靴 / Simulating real shoes
#
# `bk.simulate` 用 numpy 一次發很多靴牌，流程與引擎的 `bk.Shoe` 相同：洗牌、翻第一張並依點數燒牌、
# 切牌卡放在離底 14 張處（本套件的選擇，來源沒有規定位置；第 7 課第 8 節），切牌卡出現後再發一局就結束。
# 模擬出的頻率應在精確值附近，差距以標準誤衡量。
#
# *`bk.simulate` deals many shoes at once with numpy, exactly as the engine's `Shoe` does: shuffle, burn, cut card
# 14 cards from the end, one more coup after it. The frequencies should sit within a few standard errors of the exact
# values.*

# %%
sim = bk.simulate(shoes=5000, decks=8, seed=2026)
print(sim.summary(LANG))
for event in ("banker", "player", "tie", "banker_six", "player_pair"):
    p = float(getattr(odds8, event))
    f = sim.frequency(event)
    print(f"{event:12s} 模擬 simulated {f:.6f}   精確 exact {p:.6f}   差 difference {(f - p) / sim.standard_error(p):+.2f} SE")

# %%
sim.plot_convergence(odds8, lang=LANG)
plt.show()

# %% [markdown]
# 上圖：頻率隨局數增加而貼近精確值（虛線）。下圖：頻率與精確值的差，落在 ±2 標準誤的「漏斗」裡；
# 漏斗隨局數的平方根變窄。圖上的字在沒有中文字型的機器上會改用英文。
#
# *Top: the frequencies close in on the exact values (dashed). Bottom: frequency minus exact, inside the ±2
# standard-error funnel, which narrows with the square root of the number of coups. Plot labels fall back to English
# on machines without a CJK font.*

# %% [markdown]
# ### 模擬的每一局都與引擎相同 / Every simulated coup is the engine's coup
#
# 把模擬的牌序原封不動放進引擎的 `bk.Shoe`，逐局比對勝方、點數、張數、例牌與對子。
#
# *Replay simulated shoes card for card through the engine's `bk.Shoe` and compare every coup.*

# %%
check = bk.simulate(shoes=40, decks=8, seed=7, keep_cards=True)
same = 0
for i in range(check.shoes):
    rounds = list(check.engine_shoe(i).rounds())
    engine = "".join(r.coup.winner[0].upper() for r in rounds)
    a, b = check.offsets[i], check.offsets[i + 1]
    same += engine == check.outcomes(i) and [r.coup.banker_total for r in rounds] == check.banker_total[a:b].tolist()
print(f"{same} / {check.shoes} 靴與引擎逐局相同 (shoes identical to the engine, coup by coup); {check.hands} coups")

# %% [markdown]
# ## 4. 路單 / Roads
#
# 路單只記錄已經發生的結果。000：「路單只是歷史結果紀錄，不會改變固定補牌規則或下一局結果。」
# 下面是一靴模擬牌的珠盤路（每局一格，含和局）與大路（換邊就換一行，連莊連閒往下排；和局畫成斜線）。
#
# *A road only records what has happened. Below, one simulated shoe as a bead plate (every coup, ties included) and
# a big road (a new column at each change of winner; ties as a slash).*

# %%
shoe0 = sim.outcomes(0)
print(shoe0)
fig, (ax1, ax2) = plt.subplots(2, 1, figsize=(11, 6.5))
roads.plot_bead_plate(shoe0, ax=ax1, lang=LANG)
roads.plot_big_road(shoe0, ax=ax2, lang=LANG)
plt.show()

# %% [markdown]
# ### 連莊、連閒：與「各局獨立」比一比 / Streaks against independence
#
# 如果路單有預測力，連莊之後開莊的頻率就會和平常不同。以 5000 靴模擬（不計和局）：
# 連續 k 局莊（或閒）之後，下一局開莊的頻率，與「各局獨立」時應有的 P(莊 | 非和局) 比較。
#
# *If roads predicted anything, banker would come up more (or less) often after a banker streak. Over 5000 simulated
# shoes (ties left out): how often the next coup is a banker win after k banker (or player) wins in a row, beside
# what independence predicts.*

# %%
print(roads.streak_stats(sim).report(LANG))
print()
print(roads.after_streak_report(roads.after_streak(sim, max_run=6), LANG))

# %%
rl = roads.run_lengths(sim, max_len=10)
print(f"{message('road.length-col', LANG)}  {message('road.length-observed', LANG)}  {message('road.length-expected', LANG)}")
for length, obs, exp in zip(rl["length"], rl["observed"], rl["expected"], strict=True):
    label = f"{length}+" if length == rl["length"][-1] else str(length)
    print(f"{label:>4s}  {obs:9.0f}  {exp:12.1f}")

# %% [markdown]
# 差距都在幾個標準誤之內：連莊、連閒的長度與頻率就是獨立事件會產生的樣子，前面的結果不會改變下一局。
#
# *Every difference is within a few standard errors: streaks look exactly as independent coups make them.*
#
# ## 5. 算牌：Thorp 與 Walden 的問題 / Card counting, after Thorp and Walden
#
# Thorp 與 Walden 在 1966 年的論文（*Journal of the American Statistical Association* 61(314), 313–328）
# 問的是：牌靴發到後段時，剩下的牌能不能讓某一注變成對押注者有利？他們發現莊、閒主注實際上不可能，
# 只有當時內華達的「例牌 8／例牌 9」旁注偶爾可以。那種旁注不在來源頁的注項裡；這裡用同樣的方法檢查課程裡的每一注。
#
# *Thorp and Walden (1966) asked whether the cards left late in a shoe can ever make a bet favourable: practically
# never for banker and player; only the Nevada side bets on a natural 8 or 9 sometimes were. Those side bets are not
# among the sources' bets; here the same question is asked of every bet in the course.*
#
# 牌靴越發越少，剩下的牌的組成會改變，各注的精確優勢也隨之改變。`bk.counting_analysis` 在 1000 靴模擬牌的每一局之前，
# 用剩下的牌算出每一注的精確賭場優勢。這裡假設算牌者完全知道剩下的每一張牌（連燒掉、沒翻開的牌都知道），
# 比真實世界有利得多。
#
# *As a shoe is dealt, the cards left change and so does every bet's exact edge. Before every coup of 1000 simulated
# shoes, `bk.counting_analysis` computes each bet's exact house edge from the cards left, for an ideal counter who
# knows every card left, even the burned ones.*

# %%
import math

ca = bk.counting_analysis(shoes=1000, decks=8, seed=1966)
rows = []
for j, (bet, table) in enumerate(ca.bets):
    edges = ca.edges[:, j]
    average = -math.fsum(edges) / len(edges)  # betting every coup: the average expectation
    rows.append([bk.odds.bet_label(bet, table, LANG), f"{-ca.full_shoe[j]:+.4%}",
                 f"{ca.positive_share(bet, table):.2%}", f"{average:+.4%}", f"{-edges.min():+.3%}"])
bk.display.table(
    ["注 bet", "整靴開始時的期望值 full shoe", "期望值為正的局 share of coups > 0（完美記牌）",
     "每局都押的平均期望值 average", "看到過的最大正期望 best seen"],
    rows,
)

# %%
fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(13, 4.8))
ca.plot(ax=ax1, lang=LANG, bets=(("banker", "commission"), ("banker", "no-commission"), ("player", "commission")))
ca.plot(ax=ax2, lang=LANG, bets=(("tie", "commission"), ("tie", "commission-tie-9"), ("player-pair", "commission")))
plt.show()

# %% [markdown]
# 這張表說的事（*what the table says*）：
#
# * 莊、閒幾乎從不轉為押注者占優（表中「期望值為正的局」不到 1%，而且幅度極小）。
# * 和局與對子這些旁注，偶爾在**牌靴末段**出現期望值為正的時刻；但這些時刻很少，而且只有**完美知道剩下每一張牌**
#   （連燒掉、沒有人看過的牌也知道）的人才看得到。真實的算牌者做不到。
# * 每一注「每局都押」的平均期望值都是負的（第四欄）；一靴開始時也都是負的（第二欄）。
# * 所以**沒有可行的下注系統**由此而來：那些罕見的正期望時刻不能讓一般人長期贏錢。本課最後的自我檢測問的也是同一件事。
#
# *Banker and player almost never favour the bettor. Tie and pair side bets do now and then, late in a shoe, rarely,
# and only for someone who knows every card left, even the burned ones nobody saw. Every bet's average expectation is
# negative; no practical system follows. The quiz at the end asks exactly this.*
#
# ## 6. 牌靴追蹤器：一局一局看期望值怎麼動 / The shoe tracker
#
# 下面的牌靴追蹤器（ShoeTracker）用固定的種子洗一靴 8 副牌，照 `bk.Shoe` 的程序燒牌、放切牌卡（離牌靴底 14 張，本套件的選擇），
# 每按一次「發下一局」就發一局，再用**剩下的每一張牌**重算下一局的精確機率與每一注的期望值（每次更新不到 10 毫秒，
# 見 `benchmarks/bench_shoe_tracker.py`）。期望值為正的那一列會標出來。
#
# *Deal a seeded shoe coup by coup; after every coup the exact odds of the next coup and each bet's expectation are
# recomputed from every card left.*

# %%
tracker = bk.widgets.ShoeTracker(decks=8, seed=2026, lang=LANG)
tracker

# %% [markdown]
# 下一格用**另一個**追蹤器（不顯示，上面那個仍在一靴的開頭）把同一靴發完，列出每一個有某注期望值為正的時刻：
#
# *A separate tracker deals the same shoe to the end and lists every moment some bet had a positive expectation:*

# %%
walk = bk.widgets.ShoeTracker(decks=8, seed=2026, lang=LANG)
moments = []
while not walk.shoe.finished:
    for bet, table in walk.positives:
        moments.append([walk.rounds + 1, len(walk.shoe), bk.odds.bet_label(bet, table, LANG),
                        bk.widgets.shoe_tracker.percent(walk.expectation(bet, table))])
    walk.deal()
print(f"這一靴發了 {walk.rounds} 局；下一局有某注期望值為正的時刻：{len({m[0] for m in moments})} 次。")
bk.display.table(["第幾局之前 before coup", "剩下的牌 cards left", "注 bet", "期望值 expectation"], moments)

# %% [markdown]
# 正期望只出現在這一靴的最後幾局、牌靴快發完的時候，多半是對子旁注；知道這些時刻的前提是知道剩下的每一張牌。
# 換一個種子（上面追蹤器的「洗牌種子」）再發一靴，看看這樣的時刻出現在哪裡、出現幾次。
#
# *Positive moments come only in the last coups of the shoe, mostly for the pair side bets, and seeing them takes
# knowing every card left. Try another seed in the tracker above.*

# %%
# 每一種注、每一種賠率表的期望值 / the expectation of every bet of every pay table
for table in bk.PAY_TABLES:
    print(message(f"odds.table-{table}", LANG) + ": " + ", ".join(
        f"{message(f'area.{area}', LANG)} {float(odds8.expected_value(area, table)):+.4%}" for area in bk.AREAS))
    for area in bk.AREAS:
        assert odds8.expected_value(area, table) < 0

# %% [markdown]
# ## 7. 自我檢測 / Self-check
#
# 題目是課程資料裡的一組題（`Quiz.lesson("08")`）；每一題的正確答案都在建立測驗時由 `bk.exact_odds` 等引擎函式算出。
#
# *The questions are the kit's question set for this lesson; every answer is computed by the engine when the quiz is built.*

# %%
quiz = bk.widgets.Quiz.lesson("08", lang=LANG)
quiz

# %% [markdown]
# ## 8. 結論：來源頁面的提醒 / What the sources say
#
# 第 5 節最後一格列出每一注在每種賠率表下的期望值（押 1 元平均的輸贏）：全部是負的。
# *The last cell of section 5 lists the expectation of every bet under every pay table (average result of a one-unit bet): all negative.*
#
# > 004：「不過要誠實說，三種押法長期的期望值都是負的，建議把它當成娛樂、設好預算，而不是當成穩定獲利的方法。」
# >
# > 003：「本篇是規則教育內容,不提供勝率保證,也不代表任何投注策略能改變遊戲的數學期望。」
# >
# > 000：「路單只是歷史結果紀錄，不會改變固定補牌規則或下一局結果。」
#
# 上面的數字說的是同一件事：每一種注、每一種賠率表，期望值都是負的；路單與連莊連閒不改變下一局；
# 就算完美算牌，主注也幾乎從不占優，旁注只有在罕見的牌靴末段、而且知道每一張牌時才短暫為正，平均仍是負的。
#
# *The numbers say what the sources say: every bet of every pay table has a negative expectation; roads and streaks
# do not change the next coup; even perfect counting almost never gives the main bets an edge, and the side bets only
# rarely, late in a shoe, for someone who knows every card, while their average stays negative.*

# %% [markdown]
# ## 下一步（what next）
#
# * 下一課：[第 10 課　總結：規則與數字](10-summary.ipynb)
# * 不寫程式的練習：[補牌訓練器（trainer）](../trainer/trainer.ipynb)
# * 回到[課程地圖](00-how-to-use.ipynb)
# * 給講師：[第 9 課　新增一個案例](09-instructors-adding-a-case.ipynb)
