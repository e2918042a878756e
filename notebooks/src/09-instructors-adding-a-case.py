# %% [markdown] lang=zh
# # 第 9 課（講師）　新增一個案例與一道評分題（For instructors: adding a case and a graded question）
#
# 課程裡的每個案例——BCR-001～008、範例1–5、牌例一～五、兩組 A–D、牌值範例——都是
# `baccarat_kit/cases/*.toml` 裡的**資料**，而且**每一項宣稱都由規則引擎（rules engine）查核**。
# 講師新增案例只有三步：
#
# 1. **寫**一個 TOML 案例檔（case file）；
# 2. **查核**：`baccarat-kit cases check 資料夾`（或在 Python 裡 `bk.cases.check(...)`）；
# 3. **在課程中看到**：`bk.cases.load(資料夾, shipped=True)`、CaseViewer，或設定環境變數 `BACCARAT_KIT_CASES`。
#
# 最後（第 7 節）再用同一種方式新增一道**評分題**：題目、答案鍵、配分、提示與英文都寫在練習原稿的格子裡，
# 由 `baccarat-kit release` 產生學員版，不必編輯筆記本的 JSON。
#
# 完整欄位說明見 `docs/instructors.md`。本課在一個暫存資料夾裡完成整個流程，最後刪掉它。

# %% [markdown] lang=en
# # Lesson 9 (instructors) — Adding a case and a graded question
#
# Every case in the course (BCR-001 to 008, examples 1–5, card examples 1–5, the two sets A–D, the card-value examples) is **data**
# in `baccarat_kit/cases/*.toml`, and **every claim in it is checked by the rules engine**.
# Adding a case takes an instructor three steps:
#
# 1. **write** a TOML case file;
# 2. **check** it: `baccarat-kit cases check FOLDER` (or `bk.cases.check(...)` in Python);
# 3. **see it in the course**: `bk.cases.load(FOLDER, shipped=True)`, the CaseViewer, or the environment variable `BACCARAT_KIT_CASES`.
#
# Last (section 7), a **graded question** is added the same way: its text, answer key, points, hint and English are written in the cells of an exercise source,
# and `baccarat-kit release` makes the learners' copies; no one edits notebook JSON.
#
# Every field is described in `docs/instructors.md`. This lesson goes through the whole process in a temporary folder and deletes it at the end.

# %%
import os
import shutil
import tempfile
from pathlib import Path

import baccarat_kit as bk
from baccarat_kit.cli import main as baccarat_kit_cli

LANG = bk.set_language(EDITION_LANG)
lesson_folder = os.getcwd()
workdir = tempfile.mkdtemp(prefix="bk-cases-")
os.chdir(workdir)  # relative paths keep the messages below the same on every machine
folder = Path("my-cases")
folder.mkdir()

# %% [markdown] lang=zh
# ## 1. 寫一個完整牌局（full coup）
#
# `cards` 依**發牌順序**（deal order）：閒1、莊1、閒2、莊2，再閒家第三張、莊家第三張。
# 這是講師自編的教學牌局（source 寫 `instructor`），用來補上目錄還沒有的「莊 4 遇閒第三張 8」；
# 它的變化題只改閒家第三張。要查核的宣稱：`winner`、`player_total`、`banker_total`（必填），
# 以及任何想強調的步驟（`banker_decision` …）。每一段文字都寫兩種語言（`title.zh`、`title.en`…），案例在兩個版本的課程裡才讀得通。

# %% [markdown] lang=en
# ## 1. Writing a full coup
#
# `cards` are in **deal order**: player 1, banker 1, player 2, banker 2, then the player's third card and the banker's third card.
# This is a teaching coup the instructor made up (its source is `instructor`), adding "banker 4 facing a player third card 8", which the catalogue did not have yet;
# its variant changes only the player's third card. The claims to check: `winner`, `player_total`, `banker_total` (required),
# and any step worth stressing (`banker_decision` …). Each text is given in both languages (`title.zh`, `title.en`…), so the case reads right in both editions of the course.

# %%
case_file = folder / "my-cases.toml"
case_file.write_text('''\
schema_version = 1

[[case]]
id = "MY-001"
source = "instructor"
basis = "Pennsylvania Code §631a.11"
title.zh = "莊4：閒第三張8停牌、7補牌"
title.en = "Banker 4: stands on a player third card 8, draws on 7"
assumptions.zh = "標準補牌；講師自編的教學牌局"
assumptions.en = "Standard drawing rules; a teaching coup made up by the instructor."
cards = "A 2 3 2 8"
player_first_total = 4
banker_first_total = 4
player_third = 8
banker_decision = "stand"
player_total = 2
banker_total = 4
winner = "banker"

[[case.variant]]
change.zh = "只把閒第三張8改成7：莊4遇7補牌，補到5成9。"
change.en = "Only the player's third card changes from 8 to 7: banker 4 draws on a 7 and makes 9 with a 5."
cards = "A 2 3 2 7 5"
player_third = 7
banker_decision = "draw"
player_total = 1
banker_total = 9
winner = "banker"
''', encoding="utf-8")
print(case_file.read_text(encoding="utf-8").count("[[case"), "tables written")

# %% [markdown] lang=zh
# ## 2. 查核（check）
#
# 在終端機執行 `baccarat-kit cases check my-cases`；在筆記本裡可以直接呼叫同一個命令。
# 結束碼（exit code）：**0** 全部成立、**1** 有宣稱與引擎不符、**2** 檔案格式問題。

# %% [markdown] lang=en
# ## 2. Checking
#
# In a terminal, run `baccarat-kit cases check my-cases`; in a notebook the same command can be called directly.
# Exit codes: **0** every claim holds, **1** a claim disagrees with the engine, **2** a problem with a file's format.

# %%
code_ok = baccarat_kit_cli(["cases", "check", "my-cases"])
code_ok

# %% [markdown] lang=zh
# 在 Python 裡：`bk.cases.check(路徑)` 傳回目錄與所有問題（空的就是全部成立）。

# %% [markdown] lang=en
# In Python: `bk.cases.check(path)` returns the catalogue and every problem (none: everything holds).

# %%
mine, problems = bk.cases.check(folder)
mine.ids(), problems

# %% [markdown] lang=zh
# ## 3. 在課程中看到
#
# `shipped=True` 把內建目錄一起讀進來（也會找出與內建案例重複的 id）。
# 啟動 JupyterLab 前設定 `BACCARAT_KIT_CASES=~/my-cases`，`bk.cases.load()` 與各課的 CaseViewer 就會列出你的案例。

# %% [markdown] lang=en
# ## 3. Seeing it in the course
#
# `shipped=True` reads the shipped catalogue too (and finds ids that repeat a shipped case's id).
# Set `BACCARAT_KIT_CASES=~/my-cases` before starting JupyterLab, and `bk.cases.load()` and every lesson's CaseViewer list your cases.

# %%
catalogue = bk.cases.load(folder, shipped=True)
print(catalogue["MY-001-variant"].explain())

# %%
viewer = bk.widgets.CaseViewer("MY-001", catalogue=catalogue, lang=LANG)
viewer

# %%
viewer.select("MY-001-variant")
viewer.show_all()
viewer.case_id, viewer.coup.winner, viewer.finished

# %% [markdown] lang=zh
# 新案例補上了莊家矩陣（banker matrix）的哪些格子？`cases coverage` 從引擎的規則編號計算：

# %% [markdown] lang=en
# Which squares of the banker matrix does the new case cover? `cases coverage` works it out from the engine's rule ids:

# %%
before = bk.cases.load().coverage()
after = catalogue.coverage()
[(rule, before.count(rule), after.count(rule)) for rule in ("banker-4-vs-8", "banker-4-vs-7")]

# %% [markdown] lang=zh
# ## 4. 一個故意寫錯的宣稱（a deliberately wrong claim）
#
# 把 BCR-004 的變化題抄錯：閒家第三張寫成 3（原題的牌），卻仍宣稱莊家補到 8 而勝。
# 引擎會指出檔案、案例、哪一項宣稱、它算出的值，以及理由（從引擎的規則編號產生）。

# %% [markdown] lang=en
# ## 4. A deliberately wrong claim
#
# Miscopy BCR-004's variant: write the player's third card as 3 (the original hand's card) but still claim that the banker draws to 8 and wins.
# The engine names the file, the case, the claim, the value it works out, and the reason (made from the engine's rule ids).

# %%
(folder / "wrong.toml").write_text('''\
schema_version = 1

[[case]]
id = "MY-002"
source = "instructor"
basis = "Pennsylvania Code §631a.11"
title.zh = "抄錯的 BCR-004 變化題"
title.en = "A miscopied BCR-004 variant"
cards = "A 2 2 3 3 3"
banker_decision = "draw"
player_total = 7
banker_total = 8
winner = "banker"
''', encoding="utf-8")
code_wrong = baccarat_kit_cli(["cases", "check", "my-cases"])
code_wrong

# %% [markdown] lang=zh
# 同一件事也有英文（`--lang en`）；問題也可以在 Python 裡逐筆取得（檔案、案例、欄位）：

# %% [markdown] lang=en
# The report can be asked for in a chosen language (`--lang en` or `--lang zh` in a terminal, `p.message("en")` in Python); in Python the problems come one by one (file, case, field):

# %%
_, problems = bk.cases.check(folder)
[(p.file, p.case, p.field) for p in problems]

# %%
print(problems[3].message("en"))

# %% [markdown] lang=zh
# ## 5. 格式問題（schema problems）：一次全部列出
#
# 無效的 TOML 會指出檔案與行號；不認得的欄位、不是牌的牌、與內建目錄重複的 id（不必加任何選項：
# 你的 id 一定會與內建目錄比對）、牌不夠打完一局，都會指出檔案、案例與欄位。一次執行列出**所有**問題，不只第一個；結束碼是 2。

# %% [markdown] lang=en
# ## 5. Format problems: all listed at once
#
# Invalid TOML is reported with its file and line number; an unknown field, a card that is not a card, an id that repeats the shipped catalogue (no option needed: your ids are always compared with it), too few cards to finish a coup:
# each is reported with its file, case and field. One run lists **every** problem, not just the first; the exit code is 2.

# %%
(folder / "wrong.toml").unlink()
(folder / "broken.toml").write_text('schema_version = 1\n[[case]]\nid = "MY-003"\ntitle.zh = \n',
                                    encoding="utf-8")
(folder / "typos.toml").write_text('''\
schema_version = 1

[[case]]
id = "BCR-001"
source = "instructor"
basis = "Pennsylvania Code §631a.11"
title.zh = "重複的 id"
title.en = "a duplicate id"
hand = "7 8"
total = 5

[[case]]
id = "MY-004"
source = "instructor"
basis = "Pennsylvania Code §631a.11"
title.zh = "打錯字"
title.en = "typos"
cards = "2 3 3 11"
winer = "player"
player_total = 9
banker_total = 7

[[case]]
id = "MY-005"
source = "instructor"
basis = "Pennsylvania Code §631a.11"
title.zh = "少一張牌"
title.en = "a card short"
cards = "2 3 3 4"
winner = "player"
player_total = 9
banker_total = 7
''', encoding="utf-8")
code_schema = baccarat_kit_cli(["cases", "check", "my-cases"])
code_schema

# %% [markdown] lang=zh
# ## 6. 部分案例（partial case）與來源原文（quote）
#
# 來源只給點數與第三張牌值時（例如 002 的常見問題：「莊家 3 點是不是一定補牌？不是。如果閒家已補第三張牌，
# 而第三張的百家樂點值是 8，莊家 3 點停牌」），就只寫來源給的，**不要補造牌**。
# 給了 `player_third` 就等於宣稱閒家有補牌，引擎也會查。來源沒給、引擎也推不出的宣稱（例如莊家最後點數）
# 會被回報為「無法查核」。
#
# 案例檔的 `quote` 是來源的原文，一字不改；`cases check` 會拿它和來源頁比對。套件在它的資料夾旁邊
# （`shared/seeds`）或環境變數 `BACCARAT_KIT_SOURCES` 指的資料夾裡找來源頁（`000_*.txt` …，也可以用
# `--sources 資料夾`）；找不到時會明說哪些引文無法查核、找過哪裡。為了讓這一頁在每台電腦上結果相同，
# 下面用一個只放了 002 常見問題兩行的資料夾代替來源頁。

# %% [markdown] lang=en
# ## 6. Partial cases, and the source's own words
#
# When a source gives only totals and a third-card value (for example 002's FAQ: 「莊家 3 點是不是一定補牌？不是。如果閒家已補第三張牌，而第三張的百家樂點值是 8，莊家 3 點停牌」,
# translation: "does a banker 3 always draw? No. If the player has drawn a third card and its baccarat value is 8, a banker 3 stands"), write only what the source gives and **do not make up cards**.
# Giving `player_third` claims that the player drew, and the engine checks that too. A claim the source does not give and the engine cannot work out (such as the banker's final total)
# is reported as "cannot be checked".
#
# A case file's `quote` is the source's own words, in Chinese, exactly; `cases check` compares it with the source page. The kit finds the pages beside its folder (`shared/seeds`)
# or in the folder the environment variable `BACCARAT_KIT_SOURCES` names (`000_*.txt` …; or `--sources FOLDER`); where it finds none, it says which quotes it could not verify and where it looked.
# So that this page gives the same results on every machine, a folder holding only those two lines of 002's FAQ stands in for the pages below.

# %%
for name in ("broken.toml", "typos.toml"):
    (folder / name).unlink()
pages = Path("pages")
pages.mkdir()
(pages / "002_faq.txt").write_text(
    "莊家 3 點是不是一定補牌？\n"
    "不是。 如果閒家已補第三張牌， 而第三張的百家樂點值是 8， 莊家 3 點停牌； 其他第三張牌值則補牌。\n",
    encoding="utf-8")
os.environ["BACCARAT_KIT_SOURCES"] = str(pages)
(folder / "faq.toml").write_text('''\
schema_version = 1

[[case]]
id = "MY-FAQ-1"
source = "002"
basis = "Massachusetts Gaming Commission, Baccarat 4.11.2024"
title.zh = "莊家 3 點不一定補牌"
title.en = "A banker 3 does not always draw"
quote = "不是。 如果閒家已補第三張牌， 而第三張的百家樂點值是 8， 莊家 3 點停牌； 其他第三張牌值則補牌。"
player_third = 8
banker_first_total = 3
banker_decision = "stand"
banker_total = 3

[[case]]
id = "MY-FAQ-2"
source = "002"
basis = "Massachusetts Gaming Commission, Baccarat 4.11.2024"
title.zh = "莊家 3 點遇其他第三張補牌"
title.en = "A banker 3 draws on any other third card"
player_third = 9
banker_first_total = 3
banker_decision = "draw"
banker_total = 3
''', encoding="utf-8")
_, problems = bk.cases.check(folder / "faq.toml")
for p in problems:
    print(p.message())

# %% [markdown] lang=zh
# 兩個問題：第一個案例有原文卻沒有英譯 `quote_en`（英文版的案例卡就會只顯示中文）；第二個案例莊家補牌，
# 但來源沒有給補到的牌，所以 `banker_total` 無法查核（第一個案例的查得到：莊家停牌，點數不變）。
# 補上英譯、刪掉那項宣稱，案例就通過了：

# %% [markdown] lang=en
# Two problems: the first case has the source's words but no English translation `quote_en` (the English case card would show only the Chinese); in the second the banker draws,
# but the source gives no card drawn, so `banker_total` cannot be checked (the first case's can: the banker stands, the total stays). Add the translation, delete that claim, and the cases pass:

# %%
text = (folder / "faq.toml").read_text(encoding="utf-8")
head, tail = text.split('id = "MY-FAQ-2"')
head = head.replace("player_third = 8\n", '''quote_en = "No. If the player has drawn a third card and its baccarat value is 8, a banker 3 stands; on any other third-card value it draws."
player_third = 8
''')
(folder / "faq.toml").write_text(head + 'id = "MY-FAQ-2"' + tail.replace("banker_total = 3\n", ""),
                                 encoding="utf-8")
bk.cases.check(folder)[1]

# %% [markdown] lang=zh
# 引文抄錯一個字（把「停牌」抄成「補牌」），`cases check` 指出引文從哪裡開始與來源頁不同（▶），結束碼是 1（和宣稱錯誤一樣）：

# %% [markdown] lang=en
# Miscopy one word of the quote (「停牌」, translation: "stands", as 「補牌」, translation: "draws"): `cases check` shows where the quote leaves the source page (▶), with exit code 1 (as for a wrong claim):

# %%
(folder / "faq.toml").write_text(
    (folder / "faq.toml").read_text(encoding="utf-8").replace("莊家 3 點停牌", "莊家 3 點補牌"), encoding="utf-8")
code_misquote = baccarat_kit_cli(["cases", "check", "my-cases"])
code_misquote

# %% [markdown] lang=zh
# ## 7. 新增一道評分題（a graded question）
#
# 練習原稿（`exercises/source/*.ipynb`）就是一本普通的筆記本，題目的設定寫在 **raw 格**裡（JupyterLab 的格子類型選單選「Raw」），
# 格式是 TOML，和案例檔一樣：
#
# * 第一行 `# EXERCISE` 的格子：練習代號與中英文標題；
# * 第一行 `# BEGIN QUESTION` 的格子開始一題：代號、題型（`value`、`function`、`choice`、`written`）、學員作答的名稱、
#   型別、配分、答案鍵（寫成引擎的呼叫，例如 `"banker_draws(3, 8)"`，由引擎算出正確答案）、學員版裡 `check()` 做的公開檢查、
#   只有評分程式做的隱藏檢查，以及選填的提示 `hint`；到第一行 `# END QUESTION` 的格子為止；
# * 兩者之間：題目的 Markdown 格、作答格（`# SOLUTION` 標出範例答案）與 `check("q1")`；
# * 每一個中文格的**英文**，是緊接在它後面、第一行寫 `<!-- en -->` 的格子（程式格寫 `# en`）。
#
# 下面把這樣一本原稿寫進 `my-exercises/`：一道問莊家 3 點遇閒家第三張 8 的是非題（即上面的 MY-FAQ-1）。

# %% [markdown] lang=en
# ## 7. Adding a graded question
#
# An exercise source (`exercises/source/*.ipynb`) is an ordinary notebook; a question's settings are written in **raw cells** (in JupyterLab, "Raw" in the cell-type menu),
# as TOML, like a case file:
#
# * a cell whose first line is `# EXERCISE`: the exercise's id and its titles in both languages;
# * a cell whose first line is `# BEGIN QUESTION` starts a question: its id, kind (`value`, `function`, `choice`, `written`), the name the learner's answer sets,
#   its type, points, answer key (written as the engine's call, e.g. `"banker_draws(3, 8)"`: the engine works out the right answer), the public checks `check()` runs in a learner's copy,
#   the hidden ones only the grader runs, and an optional `hint`; it runs to a cell whose first line is `# END QUESTION`;
# * between them: the question's Markdown cell, the answer cell (`# SOLUTION` marks the model answer) and `check("q1")`;
# * the **English** of each Chinese cell is the cell right after it whose first line is `<!-- en -->` (a code cell: `# en`).
#
# Below, such a source is written into `my-exercises/`: a true/false question on a banker 3 facing a player third card 8 (MY-FAQ-1 above).

# %%
import json


def cell(kind, text, n):
    """One cell of the source, as JupyterLab would save it."""
    out = {"cell_type": kind, "id": f"my-{n:02d}", "metadata": {}, "source": text}
    return {**out, "execution_count": None, "outputs": []} if kind == "code" else out


cells = [
    ("raw", '''# EXERCISE
exercise = "07-banker-3"
title.zh = "練習 7：莊家 3 點"
title.en = "Exercise 7: a banker 3"'''),
    ("markdown", "# 練習 7：莊家 3 點"),
    ("markdown", "<!-- en -->\n# Exercise 7: a banker 3"),
    ("code", '''import baccarat_kit as bk

bk.set_language('zh')
LEARNER_ID = "demo-learner"  # SOLUTION: ""
check = bk.grading.Checker("07-banker-3")'''),
    ("raw", '''# BEGIN QUESTION
id = "q1"
kind = "value"
answer = "banker_3_vs_8"
type = "bool"
points = 1
key = "banker_draws(3, 8)"
public = ["type", "equals"]
hint.zh = "查莊家 3 點那一列：閒家第三張是哪一個牌值時停牌？"
hint.en = "Read the banker-3 row: on which player third-card value does the banker stand?"'''),
    ("markdown", "### q1\n來源 002 的常見問題：「莊家 3 點是不是一定補牌？」莊家 3 點，閒家第三張牌值是 8：莊家補牌嗎？（`True` 補／`False` 停）"),
    ("markdown", '''<!-- en -->
### q1
Source 002's FAQ: 「莊家 3 點是不是一定補牌？」 (translation: "does a banker 3 always draw?"). Banker 3, and the player's third card is worth 8: does the banker draw? (`True` draws / `False` stands)'''),
    ("code", "banker_3_vs_8 = False  # SOLUTION"),
    ("code", 'check("q1")'),
    ("raw", "# END QUESTION"),
]
source = {"cells": [cell(kind, text, n) for n, (kind, text) in enumerate(cells, 1)],
          "metadata": {"kernelspec": {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}},
          "nbformat": 4, "nbformat_minor": 5}
Path("my-exercises").mkdir()
exercise_file = Path("my-exercises") / "07-banker-3.ipynb"
exercise_file.write_text(json.dumps(source, ensure_ascii=False, indent=1), encoding="utf-8")
len(cells), "cells written"

# %% [markdown] lang=zh
# `release` 讀這些格子：先確認範例答案在自己的答案鍵上得滿分、每一段引用來源的文字都在來源頁上（這裡用第 6 節的來源頁資料夾），
# 然後寫出學員版（中文版，加 `--edition en` 是英文版）。學員版裡沒有 raw 格、沒有範例答案，每一格只有一種語言：

# %% [markdown] lang=en
# `release` reads these cells: it first makes sure the model answer earns full marks on its own key and that every quotation of a source is on its page (here, section 6's folder of pages),
# then writes the learners' copies (Chinese; `--edition en` for English). A copy has no raw cells and no model answer, and each cell is in one language:

# %%
code_release = baccarat_kit_cli(["release", "my-exercises", "--out", "handout", "--edition", LANG])
copy_ = json.loads((Path("handout") / "07-banker-3.ipynb").read_text(encoding="utf-8"))
for c in copy_["cells"]:
    print(f"[{c['cell_type']}]", c["source"])

# %% [markdown] lang=zh
# `release` 由這些格子產生練習的 metadata（講師不必打開它）；學員版裡答案鍵看得到，因為公開檢查 `equals` 要用它
# （只用 `type` 公開檢查、`equals` 放在 `hidden` 的題目，答案鍵會封存，只有評分程式讀得到）：

# %% [markdown] lang=en
# `release` builds the exercise's metadata from these cells (no instructor opens it); in a learner's copy the key is there because the public check `equals` needs it
# (a question with only `type` in public and `equals` in `hidden` gets its key sealed: only the grader reads it):

# %%
(question_meta,) = copy_["metadata"]["baccarat_kit"]["questions"]
{name: question_meta[name] for name in ("id", "kind", "answer", "type", "points", "key", "public")}

# %% [markdown] lang=zh
# 評分程式讀講師原稿（`grade --source my-exercises`）：題目的文字（回饋頁與全班報告上顯示）來自題目的 Markdown 格與它的英文格。
# 學員在自己的副本裡執行 `check("q1")`：答錯時附上提示。（這裡直接給答案，不重跑格子，所以最後一行說這不是評分程式的結果。）

# %% [markdown] lang=en
# The grader reads the instructor's source (`grade --source my-exercises`): the question's text (on the feedback page and in the class report) comes from its Markdown cell and that cell's English.
# A learner runs `check("q1")` in her copy: a wrong answer comes with the hint. (Here the answer is given directly, with no cells run again, so the last line says it is not the grader's verdict.)

# %%
from baccarat_kit.grading.grade import load_exercises

question = load_exercises("my-exercises")["07-banker-3"].question("q1")
print(question.text[LANG])
checker = bk.grading.Checker("07-banker-3", lang=LANG, folder="handout")
print(checker("q1", namespace={"LEARNER_ID": "ann", "banker_3_vs_8": True}))

# %% [markdown] lang=zh
# 三個常見的錯，`release` 都會拒絕（結束碼 2），並指出練習、題目與哪裡錯，一個檔案也不寫：
# 引用來源的文字抄錯一個字、作答格忘了標 `# SOLUTION`（範例答案會跑到學員版）、答案鍵寫錯（和範例答案不一致）。

# %% [markdown] lang=en
# Three usual mistakes, each refused by `release` (exit code 2), naming the exercise, the question and what is wrong, with no file written:
# a quotation of a source with one word miscopied, an answer cell without `# SOLUTION` (the model answer would reach the learners' copy), and a wrong answer key (one the model answer disagrees with).

# %%
text = exercise_file.read_text(encoding="utf-8")
mistakes = [("莊家 3 點是不是一定補牌？", "莊家 3 點是不是一定停牌？"),
            ("banker_3_vs_8 = False  # SOLUTION", "banker_3_vs_8 = False"),
            ("banker_draws(3, 8)", "banker_draws(3, 9)")]
codes = []
for right, wrong in mistakes:
    exercise_file.write_text(text.replace(right, wrong, 1), encoding="utf-8")
    codes.append(baccarat_kit_cli(["release", "my-exercises", "--out", "handout-2"]))
exercise_file.write_text(text, encoding="utf-8")
codes, Path("handout-2").exists()

# %% [markdown] lang=zh
# 收拾暫存資料夾（下面的測驗只用到記憶體裡的目錄）：

# %% [markdown] lang=en
# Clean up the temporary folder (the quiz below uses only the catalogue in memory):

# %%
del os.environ["BACCARAT_KIT_SOURCES"]
os.chdir(lesson_folder)
shutil.rmtree(workdir)
Path(workdir).exists()

# %% [markdown] lang=zh
# ## 自我檢測（self-check）

# %% [markdown] lang=en
# ## Self-check

# %%
variant_ids = ["MY-001-v", "MY-001-variant", "variant-MY-001"]
quiz = bk.widgets.Quiz([
    {
        "id": "partial-case",
        "prompt": {"zh": "002 的案例 A 只寫「閒 5 → 第三張 8； 莊 3｜停牌」，沒有給任何一張牌。怎麼寫進目錄？",
                   "en": "002's case A gives only 'player 5 → third card 8; banker 3 | stands', with no cards. How do you add it?"},
        "options": [
            {"zh": "寫成部分案例：只放點數、第三張牌值與判定", "en": "as a partial case: totals, third-card value, decision"},
            {"zh": "補上幾張合理的牌，寫成完整牌局", "en": "make up plausible cards and write a full coup"},
        ],
        "answer": 0,
        "explain": {"zh": "不補造來源沒有給的牌；引擎會查核部分案例的每一項宣稱。",
                    "en": "Never invent a card; the engine checks every claim of a partial case."},
    },
    {
        "id": "exit-code",
        "prompt": {"zh": "`cases check` 找到一項與引擎不符的宣稱（檔案格式都正確），結束碼是？",
                   "en": "`cases check` finds a claim the engine disagrees with (files well-formed). Exit code?"},
        "options": [{"zh": str(n), "en": str(n)} for n in (0, 1, 2)],
        "answer": code_wrong,
    },
    {
        "id": "variant-id",
        "prompt": {"zh": "案例 MY-001 的第一個變化題，id 是？", "en": "The id of case MY-001's first variant?"},
        "options": [{"zh": v, "en": v} for v in variant_ids],
        "answer": variant_ids.index(catalogue["MY-001"].variants[0].id),
    },
], lang=LANG)
quiz

# %% [markdown] lang=zh
# （給講師：下一格在另一份同樣的測驗上用程式作答，確認測驗的邏輯；上面那份留給你自己作答。）

# %% [markdown] lang=en
# (For instructors: the next cell answers a second, identical quiz by code to check the quiz's logic; the one above is left for you to answer.)

# %%
trial = bk.widgets.Quiz(quiz.questions, lang=LANG)
for index, question in enumerate(trial.questions):
    trial.go(index)
    trial.options.value = question.answer
    trial.check()
print(bk.widgets.plain_text(trial.score))


# %% [markdown] lang=zh
# ## 下一步（what next）
#
# * 課程的最後一頁：[第 10 課　總結：規則與數字](10-summary.ipynb)
# * 回到[課程地圖](00-how-to-use.ipynb)
# * 講師文件：`docs/instructors.md`（欄位說明）與 `docs/grading.md`（評分）。

# %% [markdown] lang=en
# ## What next
#
# * The course's last page: [Lesson 10 Summing up: the rules and the numbers](10-summary.ipynb)
# * Back to the [course map](00-how-to-use.ipynb)
# * Instructors' documents: `docs/instructors.md` (the fields) and `docs/grading.md` (grading).
