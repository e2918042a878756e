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
# 每個案例都是資料（`baccarat_kit/cases/bcr.toml`），而且**每一項宣稱都由引擎查核**
# （`baccarat-kit cases check`）。下面這個小工具把一個案例和它的變化題並排印出，
# 最後列出引擎算出的差別：結果、點數、誰補牌、用到的規則 id（rule id）。

# %%
def drew(coup, who):
    """Whether a hand drew a third card (read from the engine's coup)."""
    return len(getattr(coup, f"{who}_cards")) == 3


def shown(name, value):
    """A coup's value in words: 閒家／莊家／和局, 是／否, 補牌／停牌, or the number."""
    if name == "winner":
        return message(f"who.{value}")
    if isinstance(value, bool):
        return ("補牌" if value else "停牌") if name.endswith("draws") else ("是" if value else "否")
    return value


def flipped(before, after):
    """What the engine gives differently for two coups."""
    labels = {"winner": "結果", "player_total": "閒家點數", "banker_total": "莊家點數", "natural": "例牌"}
    out = [f"{label}：{shown(name, getattr(before, name))} → {shown(name, getattr(after, name))}"
           for name, label in labels.items() if getattr(before, name) != getattr(after, name)]
    for who, label in (("player", "閒家"), ("banker", "莊家")):
        if drew(before, who) != drew(after, who):
            out.append(f"{label}：{shown('draws', drew(before, who))} → {shown('draws', drew(after, who))}")
    return out


def side_by_side(case_id):
    case = catalogue[case_id]
    (variant,) = case.variants
    print(f"【{case.id}】{case.title()}")
    print("發牌順序：", bk.format_cards(case.cards))
    print(case.coup().explain())
    print()
    print(f"【{variant.id}】只改一個條件：")
    print(variant.change())
    print("發牌順序：", bk.format_cards(variant.cards))
    print(variant.coup().explain())
    print()
    print("翻轉了什麼：")
    for line in flipped(case.coup(), variant.coup()):
        print("  •", line)
    rules = [s.rule for s in case.coup().steps], [s.rule for s in variant.coup().steps]
    print("規則 id：", " / ".join(rules[0]), "→", " / ".join(rules[1]))
    problems = case.check() + variant.check()
    print("引擎查核：", "來源的每一項宣稱都成立 ✔" if not problems else problems)

# %% [markdown]
# ## BCR-001｜閒5補到9、莊7停牌
#
# 閒 2+3=5 補牌（player 0–5 draws），補到 4 成 9；莊首兩張 7 停牌。變化題只把莊第二張 4 改成 5：
# 莊 3+5=8 是例牌（Natural，來源稱天牌），雙方都不再補牌——那張 4 根本沒有發出去。

# %%
side_by_side("BCR-001")

# %% [markdown]
# ### BCR-001 的結算（settlement）
#
# 來源：「閒注100，假設閒勝1:1……返還100本金+100淨利=200」；變化題「閒注返還0、淨損100」。
# 結算交給 `bk.settle`（金額一律是 `Decimal`）：

# %%
for case in (catalogue["BCR-001"], catalogue["BCR-001-variant"]):
    settled = bk.settle(case.coup(), {"player": 100})
    print(f"【{case.id}】")
    print(settled.explain())
    (bet,) = case.bets
    print(f"來源寫的：返還 {bet.returned}，淨額 {bet.net}")
    print()

# %% [markdown]
# ## BCR-002｜莊3：閒第三張8與9的翻轉
#
# 查表用的是**閒家第三張牌的牌值**（8），不是閒家最後點數（3）。變化題把 8 改成 9，莊 3 就要補，
# 補到 4 成 7。來源特別說「停牌分支不消耗這張4」：原題裡引擎也把這張 4 列為「未發出的牌」（unused）。

# %%
side_by_side("BCR-002")

# %% [markdown]
# ## BCR-003｜莊4：第三張1不補，2才補
#
# 「莊家不是0～5一律補」：莊 4 遇閒第三張 A（牌值 1）停牌；變化題改成 2，莊 4 就補。

# %%
side_by_side("BCR-003")

# %% [markdown]
# ## BCR-004｜莊5：第三張3與4的邊界
#
# 要分清楚「莊首兩張 5」和「閒第三張 3」。變化題裡莊補到 8——「這個8是補牌後結果，不是天牌」。

# %%
side_by_side("BCR-004")

# %% [markdown]
# ## BCR-005｜莊6：第三張5與6的邊界
#
# 閒補成 8 不是例牌，莊家照樣查表；變化題閒第三張 6，莊 6 補牌，9:9 和局（tie）。

# %%
side_by_side("BCR-005")

# %% [markdown]
# ## BCR-006｜閒不補：改走莊0～5分支
#
# 閒 6 停牌，**沒有閒家第三張**，莊家改用「閒家停牌」那一支（player stood）。變化題莊 6 也停，
# 「原本要補的2不發」。

# %%
side_by_side("BCR-006")

# %% [markdown]
# ## BCR-007｜莊0～2無條件補的適用前提
#
# 「遇8停牌」是莊 3 的例外，不適用莊 2。變化題把莊第二張 2 改 3：結果一樣是莊勝，但**補牌判定改變**了。
# （只改一個條件，所以牌靴裡那張 5 還在，只是莊家不再補它。）

# %%
side_by_side("BCR-007")

# %% [markdown]
# ## BCR-008｜兩邊自然牌不再發第三張
#
# 例牌（Natural）不是自動和局：莊 9 勝閒 8。變化題雙方都是例牌 8，才是和局。

# %%
side_by_side("BCR-008")

# %% [markdown]
# ## 一次看八手：引擎與來源對照
#
# 每一列是一手牌（或它的變化題）：發牌順序、引擎算出的點數與結果、來源宣稱的結果。

# %%
for case in bcr:
    for c in (case, *case.variants):
        coup = c.coup()
        mark = "✔" if not c.check() else "✘"
        print(f"{c.id:<16} {bk.format_cards(c.cards):<13} 閒 {coup.player_total} 莊 {coup.banker_total}"
              f"  引擎：{message(f'who.{coup.winner}')}  來源：{message(f'who.' + c.claims['winner'])}  {mark}")

# %% [markdown]
# ## 自己打一手：CaseViewer 與 HandBuilder
#
# **CaseViewer**：選一個案例，按「下一步」一步一步看，按「只改一個條件」切到變化題。
# **HandBuilder**：自己選牌（或輸入發牌順序），它會標出改動後什麼翻轉了。
# （在 JupyterLab 裡才會顯示成互動元件。）

# %%
viewer = bk.widgets.CaseViewer("BCR-004")
viewer

# %%
viewer.select("BCR-004-variant")
viewer.show_all()
print(bk.widgets.plain_text(viewer.case_steps))
print(bk.widgets.plain_text(viewer.case_result))

# %% [markdown]
# 用 HandBuilder 重現 BCR-001，再只改莊第二張（4 → 5），看它標出的翻轉：

# %%
builder = bk.widgets.HandBuilder(bk.format_cards(catalogue["BCR-001"].cards), bets={"player": 100})
builder

# %%
builder.card_b2.value = "5"
print(bk.widgets.plain_text(builder.winner))
print(bk.widgets.plain_text(builder.changes))
print(bk.widgets.plain_text(builder.settlement))

# %% [markdown]
# ## 自我檢查（self-check quiz）
#
# 選一個答案，按「提交答案」；答錯時會說出是哪一種常見誤解（misconception）。
# 前兩題的答案由引擎產生（`Quiz.banker_rule`），不是抄表。

# %%
third_value = catalogue["BCR-002"].coup().player_third.value
questions = [
    *bk.widgets.Quiz.banker_rule([(3, third_value), (2, 8)]).questions,
    {
        "id": "bcr-002-lookup",
        "prompt": {"zh": "BCR-002：閒 5 補到 8，最後 3 點；莊 3。查莊家補牌表時用哪個數字？",
                   "en": "BCR-002: player 5 draws an 8 and ends on 3; banker 3. Which number do you look up?"},
        "options": [
            {"zh": "閒家第三張牌值 8", "en": "the player's third card, 8"},
            {"zh": "閒家最後點數 3", "en": "the player's final total, 3",
             "misconception": "final-total-as-third"},
        ],
        "answer": 0,
        "explain": {"zh": "來源：「這裡查表用8，不是閒最後3。」",
                    "en": "The source: look up the 8, not the player's final 3."},
    },
    {
        "id": "bcr-004-variant-natural",
        "prompt": {"zh": "BCR-004 變化題：莊 5 補到 3，最後 8 點。這是例牌（Natural，來源稱天牌）嗎？",
                   "en": "BCR-004 variant: banker 5 draws a 3 and ends on 8. Is that a natural?"},
        "options": [
            {"zh": "是，8 點就是例牌", "en": "yes, an 8 is a natural",
             "misconception": "three-card-natural"},
            {"zh": "不是，例牌只看首兩張", "en": "no, only the first two cards make a natural"},
        ],
        "answer": 0 if catalogue["BCR-004-variant"].coup().natural else 1,
        "explain": {"zh": "來源：「這個8是補牌後結果，不是天牌。」",
                    "en": "The source: this 8 comes after a draw; it is not a natural."},
    },
]
quiz = bk.widgets.Quiz(questions)
quiz

# %% [markdown]
# 選錯時，回饋會指出是哪一個常見誤解。下面另建一份同樣的測驗示範（不會動到上面的測驗）：在第 3 題選「閒家最後點數 3」——

# %%
print(quiz.preview(2, 1))
