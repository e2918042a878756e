# %% [markdown]
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
# > 本課是規則教育，不是下注建議。

# %%
import baccarat_kit as bk

bk.set_language("zh")
catalogue = bk.cases.load()
hk = [catalogue[f"HK-{x}"] for x in "ABCD"]
tw = [catalogue[f"TW-{x}"] for x in "ABCD"]
[(c.id, c.source) for c in hk + tw]

# %% [markdown]
# ## 1. 002 的案例 A–D：只問莊家補不補
#
# 002：「最容易犯的錯誤是先看到『莊家 5 點』就直接決定補或停。正確做法應先問：閒家有沒有第三張？
# 如果有，第三張的百家樂點值是多少？」
#
# 下表左邊是來源的已知條件與判定，右邊是引擎的判定、理由與規則 id。

# %%
def engine_decision(case, who="banker"):
    """The engine's decision for a case, with its reason and rule id."""
    decision = case.outcome().decisions[who]
    return decision.action, f"{decision.reason()}（{decision.why()}）", decision.rule


for case in hk:
    action, reason, rule = engine_decision(case)
    c = case.claims
    source_says = bk.display.decision(c["banker_decision"] == "draw")
    print(f"{case.id}：閒 {c['player_first_total']} → 第三張 {c['player_third']}；莊 {c['banker_first_total']}")
    print(f"    來源：{source_says}　｜　引擎：{bk.display.decision(action == 'draw')}　{rule}")
    print(f"    {reason}")
    print(f"    查核：{'✔' if not case.check() else case.check()}")

# %% [markdown]
# 用 **RuleChecker**（莊家補牌判斷工具）逐一重現：選莊家點數與閒家第三張，它從引擎讀出補或停，
# 並在矩陣（matrix）上標出那一格。

# %%
checker = bk.widgets.RuleChecker(banker_total=3, player_third=8)
checker

# %%
for case in hk:
    checker.banker_total.value = case.claims["banker_first_total"]
    checker.player_third.value = case.claims["player_third"]
    source_says = bk.display.decision(case.claims["banker_decision"] == "draw")
    print(f"{case.id}：檢查器 {bk.widgets.plain_text(checker.decision)}（{checker.rule}）；來源：{source_says}")

# %% [markdown]
# ## 2. 003 的牌例 A–D：一直算到勝負
#
# 003 的牌例給出最後點數與勝負。牌例 A 只給了莊家的 2＋3 與補到的 8（「最後莊家 (2 + 3 + 8) = 3 點」），
# 閒家的兩張牌沒有給，所以引擎查核的是：莊家首兩張合計、閒家 7 點停牌、莊家 5 點補牌、兩邊最後點數與勝負。

# %%
for case in tw:
    print(case.explain().split("\n\n", 1)[1])
    print()

# %% [markdown]
# ### 同一個問題，兩組都有
#
# 002 的案例 A（莊 3 遇閒第三張 8）和 003 的牌例 C（閒 4 補 8、莊 3 停）用的是**同一格規則**。
# `cases coverage` 從引擎的規則 id 算出每一格有哪些案例：

# %%
coverage = catalogue.coverage()
coverage.cases["banker-3-vs-8"]

# %% [markdown]
# 兩組合起來，仍有許多格子沒有任何來源的案例（例如莊家 0、1 點的整列）。下表每一格是用到那一格規則的案例數，「·」是沒有案例：

# %%
grid = coverage.table().splitlines()
print("\n".join(grid[2:11]))
from baccarat_kit.cases.coverage import banker_cells

cells = len(banker_cells())
print(f"莊家的 {cells} 格（8 格閒家停牌 ＋ 80 格矩陣）裡，有案例的 {coverage.covered_banker} 格。")

# %% [markdown]
# ### CaseViewer
#
# 部分案例沒有完整的牌，所以 CaseViewer 不發牌：它一步一步列出來源給的條件，以及引擎由這些條件推出的每一個判斷，
# 不補造任何一張牌。完整牌局（例如 BCR-006）則是真的一張一張發牌。

# %%
viewer = bk.widgets.CaseViewer("TW-B")
viewer

# %% [markdown]
# 下一格把 003 的牌例 B 一次看到最後一步：

# %%
viewer.show_all()
print(bk.widgets.plain_text(viewer.case_steps))
print(bk.widgets.plain_text(viewer.case_result))

# %% [markdown]
# ## 3. 常見錯誤（common mistakes）
#
# 002 的表說得很直接：「補牌表通常不是記錯數字，而是用錯前提」。下面是 `bk.misconceptions`
# 收錄、出自來源的常見錯誤，每一條配一個目錄裡的案例，由引擎示範正確的做法。

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
for mid, case_id in examples.items():
    m = bk.misconceptions.get(mid)
    case = catalogue[case_id]
    print(f"✘ {m.claim()}（{m.claim('en')}）")
    print(f"✔ {m.correction()}")
    if case.is_value_example:
        evidence = case.explain().split("\n")[-3]
    elif "banker" in case.outcome().decisions:
        decision = case.outcome().decisions["banker"]
        evidence = f"{decision.reason()}（{decision.why()}）"
    else:
        evidence = case.coup().explain().split("\n")[-1]
    print(f"   例 example {case_id}（來源 {case.source}）：{evidence}")
    print()

# %% [markdown]
# 其他由來源列出、與補牌判斷無關的誤解（牌值、下注區名稱、路單、傭金、和局）：

# %%
for m in bk.misconceptions.all_misconceptions():
    if m.id not in examples:
        print(f"• {m.claim()} → {m.correction()}（{m.source}）")

# %% [markdown]
# ## 自我檢查（self-check quiz）
#
# 前四題從 002 的案例 A–D 產生，答案由引擎決定（`Quiz.banker_rule`）；答錯時會說出是哪一種常見誤解。

# %%
situations = [(c.claims["banker_first_total"], c.claims["player_third"]) for c in hk]
questions = [
    *bk.widgets.Quiz.banker_rule([*situations, (5, None)]).questions,
    {
        "id": "k-third-card",
        "prompt": {"zh": "閒家第三張是 K，莊家 4 點。查表時閒家第三張算幾點？",
                   "en": "The player's third card is a K; banker 4. What value do you look up?"},
        "options": [
            {"zh": "0 點（10、J、Q、K 都算 0）", "en": "0 (10, J, Q, K all count 0)"},
            {"zh": "表內沒有 K，不能查", "en": "K is not in the table",
             "misconception": "face-card-not-in-table"},
        ],
        "answer": 0 if bk.parse_card("K").value == 0 else 1,
    },
    {
        "id": "tw-d-natural",
        "prompt": {"zh": "牌例 D：閒家自然 9 點、莊家 7 點。還要查莊家矩陣嗎？",
                   "en": "Hand D: player natural 9, banker 7. Do you still read the banker matrix?"},
        "options": [
            {"zh": "要，莊家 7 點要查表", "en": "yes, a banker 7 reads the table",
             "misconception": "matrix-after-natural"},
            {"zh": "不用，例牌成立後雙方都不補", "en": "no: after a natural neither hand draws"},
        ],
        "answer": 1 if catalogue["TW-D"].outcome().values["natural"] else 0,
    },
]
quiz = bk.widgets.Quiz(questions)
quiz

# %% [markdown]
# 選錯時，回饋會指出是哪一個常見誤解。下面另建一份同樣的測驗示範（不會動到上面的測驗）：在牌例 D 選「要，莊家 7 點要查表」——

# %%
print(quiz.preview(-1, 0))
