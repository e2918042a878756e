# %% [markdown]
# # 第 5 課　BCR-001～BCR-008：完整牌局與「只改一個條件」（Worked hands and one-change variants）
#
# 來源 000「百家樂補牌規則」的〈從發牌到勝負：完整補牌判定庫〉列了八手完整牌局 **BCR-001～BCR-008**，
# 每一手都附一個「只改一個條件」（change one condition）的變化題。來源寫明：
#
# > 以下都是教學牌局，不是真實投注紀錄。適用標準百家樂補牌：先檢查首兩張自然8／9，再處理閒家，
# > 最後用「莊家首兩張點數＋閒家第三張牌值」查原表。第三張後的8／9不是天牌。依據：Pennsylvania Code §631a.11。
#
# 本課把每一手交給規則引擎（rules engine）一步一步打出來（`coup.explain()`），旁邊放它的變化題，
# 看**改了什麼**、**什麼翻轉了**（what flipped）。牌的順序就是發牌順序（deal order）：
# 閒1、莊1、閒2、莊2，再閒家第三張、莊家第三張。例如 BCR-001「發牌依序閒2、莊3、閒3、莊4」，閒補 4，寫成 `2 3 3 4 4`。
#
# > 本課是規則教育，不是下注建議：補牌表是固定的，看懂它不會改變任何一局的結果，也不會改變賭場優勢（house edge）。

# %%
import baccarat_kit as bk

bk.set_language("zh")
from baccarat_kit.i18n import message

catalogue = bk.cases.load()
bcr = [case for case in catalogue.by_source("000") if case.id.startswith("BCR-")]
[(case.id, case.title()) for case in bcr]

# %% [markdown]
# 每個案例都是資料（`baccarat_kit/cases/bcr.toml`），而且**每一項宣稱都由引擎查核**（`baccarat-kit cases check`）。
#
# ## 案例檢視器：一步一步走完八手牌
#
# 下面的案例檢視器（CaseViewer）只放 BCR-001～BCR-008。選一手牌，按「下一步」一步一步看引擎怎麼打；
# 左邊是來源的原文，右邊是引擎的每一步。按「只改一個條件」切到變化題，再一步一步看什麼翻轉了。
# 鍵盤也可以：Tab 移到選單，↑／↓ 換案例。

# %%
viewer = bk.widgets.CaseViewer("BCR-001", cases=[case.id for case in bcr])
viewer

# %% [markdown]
# 接下來每一節是一手牌的整張對照表：左欄是 000 的原文（變化題是它「只改一個條件」的那一句），
# 右欄是引擎依發牌順序一步一步打出來的結果，最後一行是引擎比較兩局後「翻轉了什麼」。

# %% [markdown]
# ## BCR-001｜閒5補到9、莊7停牌
#
# 閒 2+3=5 補牌（player 0–5 draws），補到 4 成 9；莊首兩張 7 停牌。變化題只把莊第二張 4 改成 5：
# 莊 3+5=8 是例牌（Natural，來源稱天牌），雙方都不再補牌——那張 4 根本沒有發出去。

# %%
bk.widgets.case_card("BCR-001")

# %% [markdown]
# ### BCR-001 的結算（settlement）
#
# 來源：「閒注100，假設閒勝1:1……返還100本金+100淨利=200」；變化題「閒注返還0、淨損100」。
# 結算交給 `bk.settle`（金額一律是 `Decimal`）：

# %%
rows = []
for case in (catalogue["BCR-001"], catalogue["BCR-001-variant"]):
    settled = bk.settle(case.coup(), {"player": 100})
    (bet,) = case.bets
    rows.append([case.id, message(f"who.{case.coup().winner}"), settled.returned, settled.net,
                 bet.returned, bet.net])
bk.display.table(["案例", "結果", "引擎：返還", "引擎：淨額", "來源：返還", "來源：淨額"], rows)

# %% [markdown]
# ## BCR-002｜莊3：閒第三張8與9的翻轉
#
# 查表用的是**閒家第三張牌的牌值**（8），不是閒家最後點數（3）。變化題把 8 改成 9，莊 3 就要補，
# 補到 4 成 7。來源特別說「停牌分支不消耗這張4」：原題裡引擎也把這張 4 列為「未發出的牌」（unused）。

# %%
bk.widgets.case_card("BCR-002")

# %% [markdown]
# ## BCR-003｜莊4：第三張1不補，2才補
#
# 「莊家不是0～5一律補」：莊 4 遇閒第三張 A（牌值 1）停牌；變化題改成 2，莊 4 就補。

# %%
bk.widgets.case_card("BCR-003")

# %% [markdown]
# ## BCR-004｜莊5：第三張3與4的邊界
#
# 要分清楚「莊首兩張 5」和「閒第三張 3」。變化題裡莊補到 8——「這個8是補牌後結果，不是天牌」。

# %%
bk.widgets.case_card("BCR-004")

# %% [markdown]
# ## BCR-005｜莊6：第三張5與6的邊界
#
# 閒補成 8 不是例牌，莊家照樣查表；變化題閒第三張 6，莊 6 補牌，9:9 和局（tie）。

# %%
bk.widgets.case_card("BCR-005")

# %% [markdown]
# ## BCR-006｜閒不補：改走莊0～5分支
#
# 閒 6 停牌，**沒有閒家第三張**，莊家改用「閒家停牌」那一支（player stood）。變化題莊 6 也停，
# 「原本要補的2不發」。

# %%
bk.widgets.case_card("BCR-006")

# %% [markdown]
# ## BCR-007｜莊0～2無條件補的適用前提
#
# 「遇8停牌」是莊 3 的例外，不適用莊 2。變化題把莊第二張 2 改 3：結果一樣是莊勝，但**補牌判定改變**了。
# （只改一個條件，所以牌靴裡那張 5 還在，只是莊家不再補它。）

# %%
bk.widgets.case_card("BCR-007")

# %% [markdown]
# ## BCR-008｜兩邊自然牌不再發第三張
#
# 例牌（Natural）不是自動和局：莊 9 勝閒 8。變化題雙方都是例牌 8，才是和局。

# %%
bk.widgets.case_card("BCR-008")

# %% [markdown]
# ## 一次看八手：引擎與來源對照
#
# 每一列是一手牌（或它的變化題）：發牌順序、引擎算出的點數與結果、來源宣稱的結果。

# %%
bk.display.table(
    ["案例", "發牌順序", "閒", "莊", "引擎的結果", "來源的結果", "一致"],
    [[c.id, bk.format_cards(c.cards), c.coup().player_total, c.coup().banker_total,
      message(f"who.{c.coup().winner}"), message(f"who.{c.claims['winner']}"),
      "✔ 一致" if not c.check() else "✘ 不一致"]
     for case in bcr for c in (case, *case.variants)],
)

# %% [markdown]
# ## 自己打一手：手牌組合器（HandBuilder）
#
# 自己選牌（或輸入發牌順序），組合器會重新發牌、寫出每一步的理由，並標出改動後什麼翻轉了。預設是 BCR-001 與閒注 100。

# %%
builder = bk.widgets.HandBuilder(bk.format_cards(catalogue["BCR-001"].cards), bets={"player": 100})
builder

# %% [markdown]
# 下一格用**另一個**組合器（不顯示，上面那個仍停在 BCR-001）只改莊第二張（4 → 5），讀出它標出的翻轉：

# %%
demo = bk.widgets.HandBuilder(bk.format_cards(catalogue["BCR-001"].cards), bets={"player": 100})
demo.card_b2.value = "5"
print(bk.widgets.plain_text(demo.winner))
print(bk.widgets.plain_text(demo.changes))
print(bk.widgets.plain_text(demo.settlement))

# %% [markdown]
# ## 自我檢測（self-check）
#
# 這一組題目用的是來源**沒有**給的牌局：自己一步一步打，不能靠記住 BCR 的答案。
# 題目是課程資料裡的一組題（`Quiz.lesson("05")`），每一題的正確答案都在建立測驗時由規則引擎算出，這一格看不到答案。
# 每題以**第一次提交**的答案計分；答錯時會看到正確答案與它對應的常見誤解，之後再交不再計分。做完會有總結，按「重新開始」可以再做一次。

# %%
quiz = bk.widgets.Quiz.lesson("05")
quiz

# %% [markdown]
# ## 下一步（what next）
#
# * 下一課：[第 6 課　兩組案例 A～D 與常見錯誤](06-cases-a-d-and-mistakes.ipynb)
# * 本課的練習：[練習 04　整局判斷](../exercises/04-whole-coups.ipynb)（在自己的副本裡作答，`check("q1")` 立刻回饋）
# * 不寫程式的練習：[補牌訓練器（trainer）](../trainer/trainer.ipynb)
# * 回到[課程地圖](00-how-to-use.ipynb)
