"""Every quotation in the course's text is a source page's own words, in the page's order.

**What is read.** Every text the kit gives a learner or an instructor: the lesson sources (both
editions' Markdown and the code cells' comments), the exercise sources (cells, their English
translations, every string of their metadata: titles, rubrics), every ``baccarat_kit/locale/*.toml``
file, the data files (misconceptions, quizzes, hedges and notes, the course map), the case
catalogue (``baccarat_kit/cases/*.toml``), the trainer, and the final test's bank as it is drawn
(its prompts, options, explanations and the lessons' questions it reuses). TOML files are read
value by value.

**What a quotation is.** Every 「…」 (nested quotes inside it are part of it). It is *attributed*
when a source id (``000`` … ``004``) stands before it in the same sentence (no 。, 」 or new line
between): 「000：「…」」, 「來源 001：「…」」, 「002 的常見問題：「…」」, ``003's FAQ … 「…」``. An
attributed quotation must be on that page; one with no id near it must be on some page, unless it
is the kit's own words: a name with a ``{placeholder}`` or without a Chinese character (code,
ids), a label the kit shows (the words of a ``locale`` message, outside its own quotes), or one of
:data:`KIT_WORDS` (each the kit's own term, label or claim, never a source's).

**How it is compared.** By the kit's one rule, :func:`baccarat_kit.sources.on_page` (which
``baccarat-kit cases check`` and ``baccarat-kit release`` apply too): character for character,
with allowances that change no word of the page: whitespace is ignored (002's page has spaces after
its full-width punctuation), a quote nested inside another may be written 『…』, table cells may be
joined with ｜ (the page's ``|``). "…" or "……" marks words left out, and then the pieces must be
found **in the quotation's order, each within** ``WINDOW`` **characters of the page's text after
the previous one** (whitespace not counted; about two sentences), and **each "…" must stand for
words** (a letter, digit or ideograph of the page): an ellipsis that replaces only punctuation
fuses two clauses into one the page does not have. That is how 「莊家3點停牌……第三張不是8時」
fails: on 000 the two pieces are neighbours, 「閒家取得的第三張牌是8時，莊家3點停牌；第三張不是8時通常補牌」,
and the "……" hides only the 「；」 between the rule's two halves, reversing it.

**Where the pages are.** As the kit finds them (:func:`baccarat_kit.sources.find`):
``$BACCARAT_KIT_SOURCES`` (a folder holding ``000_*.txt`` … ``004_*.txt``) when it is set (a folder
that is missing or holds no pages fails the tests that need them, never skips them); else
``../shared/seeds`` beside the checkout or beside its parent (a worktree). A clone elsewhere without
either skips the comparisons with that reason (``tests/conftest.py``: the ``source_pages`` fixture,
the run's header says where it looked); the checks on the text itself still run.
"""

from __future__ import annotations

import importlib.util
import json
import re
import tomllib
from collections.abc import Iterator, Mapping
from pathlib import Path

import pytest

from baccarat_kit import sources
from baccarat_kit.grading.term.authoring import read_source
from baccarat_kit.sources import WINDOW, Pages, attributed_quotes, on_page, plain, quotations

ROOT = Path(__file__).resolve().parents[1]

KIT_WORDS = frozenset({
    # the kit's conventions and terms (docs/glossary.md), quoted as names
    "發牌依序閒、莊、閒、莊", "部分案例（partial case）", "案例 A～D", "案例 A–D", "精熟",
    "莊家（Banker）", "例牌 8／例牌 9", "0–5 補、6–7 停", "漏斗", "莊家 6 點勝",
    "本課不編一局", "這張牌值幾點", "莊 4 遇閒第三張 8",
    # labels of the kit's widgets, tables and commands, and a heading's anchor
    "全部重來", "翻轉了什麼", "莊 3 點、閒家停牌", "看到的最佳期望值", "執行了什麼", "名稱 = 值",
    "學員,密碼雜湊", "閒家-5-點-→-補第三張",
    # claims in the kit's own words: a misconception written by the kit, and wordings the
    # hedges' notes name as replaced
    "閒家 5 點可以停牌", "莊家叫『莊』，所以莊家那一邊一定比較容易連贏。", "只改派彩",
    "常見誤解都來自來源", "免傭桌只是其中一種",
})
"""Quoted words that are the kit's own and on no source page. A new one is listed here only after
checking that it is not a source's words (a source's words carry the source's id instead)."""

_HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")


# ---------------------------------------------------------------- the texts
def _strings(value: object, path: str = "") -> Iterator[tuple[str, str]]:
    if isinstance(value, str):
        yield path, value
    elif isinstance(value, Mapping):
        for k, v in value.items():
            yield from _strings(v, f"{path}.{k}" if path else str(k))
    elif isinstance(value, list):
        for n, v in enumerate(value):
            yield from _strings(v, f"{path}[{n}]")


def _cell_text(cell: Mapping[str, object]) -> str:
    src = cell["source"]
    return src if isinstance(src, str) else "".join(src)  # type: ignore[arg-type]


def _lesson_cells() -> Iterator[tuple[str, str]]:
    spec = importlib.util.spec_from_file_location("lesson_build", ROOT / "notebooks" / "build.py")
    assert spec is not None and spec.loader is not None
    build = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(build)
    for path in sorted((ROOT / "notebooks" / "src").glob("*.py")):
        for n, cell in enumerate(build.parse_source(path.read_text(encoding="utf-8"))):
            yield f"notebooks/src/{path.name} cell {n} ({cell['lang'] or 'code'})", str(cell["source"])


def _bank_texts() -> Iterator[tuple[str, str]]:
    """The final test's bank as drawn for one learner: its own items and the lessons' questions."""
    from baccarat_kit.widgets import final_bank, question_sets

    asked = [(item.question, item.about) for item in final_bank.bank("faithful", 1)]
    asked += [(question_sets.build_question(raw), None) for name in question_sets.lesson_names()
              for raw in question_sets.lesson_tables(name)]
    for q, about in asked:
        for field in (q.prompt, q.explain, q.hint, about, *(o.text for o in q.options),
                      *(o.why for o in q.options)):
            for lang, text in (field or {}).items():
                yield f"final bank {q.id} ({lang})", text


def course_texts() -> list[tuple[str, str]]:
    """(where, text) for every text the module docstring lists."""
    out = list(_lesson_cells())
    for path in sorted((ROOT / "exercises" / "source").glob("*.ipynb")):
        nb = json.loads(path.read_text(encoding="utf-8"))  # as written: every cell, English and settings cells too
        for n, cell in enumerate(nb["cells"]):
            out.append((f"exercises/source/{path.name} cell {n}", _cell_text(cell)))
            out += [(f"exercises/source/{path.name} cell {n} {k}", s) for k, s in _strings(cell.get("metadata", {}))]
        compiled = read_source(path)  # the settings as read: titles, rubrics, options, hints, texts
        out += [(f"exercises/source/{path.name} metadata {k}", s) for k, s in _strings(compiled["metadata"])]
    for folder in ("locale", "data", "cases"):
        for path in sorted((ROOT / "baccarat_kit" / folder).glob("*.toml")):
            data = tomllib.loads(path.read_text(encoding="utf-8"))
            out += [(f"baccarat_kit/{folder}/{path.name} {k}", s) for k, s in _strings(data)]
    trainer = json.loads((ROOT / "trainer" / "trainer.ipynb").read_text(encoding="utf-8"))
    out += [(f"trainer/trainer.ipynb cell {n}", _cell_text(c)) for n, c in enumerate(trainer["cells"])]
    out += list(_bank_texts())
    return out


def _kit_labels() -> str:
    """The words of every locale message outside its own quotes, as compared."""
    texts = [s for path in sorted((ROOT / "baccarat_kit" / "locale").glob("*.toml"))
             for _k, s in _strings(tomllib.loads(path.read_text(encoding="utf-8")))]
    return "\n".join(plain(re.sub(r"「[^」]*」", "\n", s)) for s in texts)


def kit_words(quote: str, labels: str) -> bool:
    """Whether an unattributed quotation is the kit's own words (see the module docstring)."""
    return ("{" in quote or not _HAN.search(quote) or quote in KIT_WORDS
            or plain(quote) in labels)


TEXTS = course_texts()


# ---------------------------------------------------------------- the tests
def test_the_finder_reads_every_text_the_course_quotes_in() -> None:
    """Hundreds of quotations from all five sources, in both editions, and the texts the earlier
    finder missed: rubrics, every locale file, the cases, the bank, quotations with no id near."""
    quotes = [(where, sid, q) for where, text in TEXTS for sid, q in quotations(text)]
    attributed = [x for x in quotes if x[1] is not None]
    assert len(attributed) > 300 and len([x for x in quotes if x[1] is None]) > 300
    assert {sid for _, sid, _ in attributed} == {"000", "001", "002", "003", "004"}
    read = {where.split(" ")[0] for where, _ in TEXTS}
    assert {f"baccarat_kit/locale/{p.name}" for p in (ROOT / "baccarat_kit" / "locale").glob("*.toml")} <= read
    assert {f"baccarat_kit/cases/{p.name}" for p in (ROOT / "baccarat_kit" / "cases").glob("*.toml")} <= read
    assert any("rubric" in where and sid == "000" for where, sid, _ in attributed)
    assert any(where.startswith("final bank") for where, _, _ in quotes)
    assert any(where.startswith("notebooks/src") and "(en)" in where for where, _, _ in attributed)


def test_every_attributed_quotation_is_the_sources_own_words(source_pages: Pages) -> None:
    found = source_pages.texts
    wrong = [f"{where}: {sid} 「{q}」" for where, text in TEXTS for sid, q in attributed_quotes(text)
             if not on_page(q, found[sid])]
    assert not wrong, "not on the named page, or not in its order:\n" + "\n".join(wrong)


def test_every_quotation_without_an_id_is_a_sources_or_the_kits_own_words(source_pages: Pages) -> None:
    found, labels = source_pages.texts, _kit_labels()
    wrong = sorted({f"{where}: 「{q}」" for where, text in TEXTS for sid, q in quotations(text)
                    if sid is None and not kit_words(q, labels)
                    and not any(on_page(q, page) for page in found.values())})
    assert not wrong, "on no source page (a source's words carry its id; the kit's own go in KIT_WORDS):\n" + "\n".join(wrong)


def test_every_kit_word_is_on_no_page(source_pages: Pages) -> None:
    """The list holds only the kit's own words: none of them is a source's."""
    assert [w for w in KIT_WORDS if any(on_page(w, p) for p in source_pages.texts.values())] == []


def test_a_spliced_or_reordered_quotation_fails(source_pages: Pages) -> None:
    """On 000's own page: 「莊家3點停牌……第三張不是8時」 reverses the rule of the FAQ 「閒家取得的
    第三張牌是8時，莊家3點停牌；第三張不是8時通常補牌。」 and fails; so do its halves swapped and
    two pieces further apart than WINDOW; an honest cut passes."""
    page = source_pages.texts["000"]
    assert on_page("閒家取得的第三張牌是8時，莊家3點停牌；第三張不是8時通常補牌。", page)
    assert not on_page("莊家3點停牌……第三張不是8時", page)
    assert not on_page("第三張不是8時……莊家3點停牌", page)
    assert not on_page("百家樂補牌不是玩家自行決定……路單只是歷史結果紀錄", page)  # first and last line
    assert not on_page("閒家取得的第三張牌是8時……莊家3點停牌", page)  # a "……" for a comma only
    assert on_page("閒家取得的第三張牌是8時……第三張不是8時通常補牌", page)
    assert on_page("閒2+4=6；莊2+3=5 … 莊5要補；取得2後7；莊7＞閒6。", page)  # lesson 00's cut of BCR-006


def test_the_window_and_the_word_rule_on_a_made_up_page() -> None:
    """The same rules without the pages: order, the window, and a "…" that stands for words."""
    page = plain("甲乙丙。丁戊己；庚辛壬。" + "填" * WINDOW + "癸子丑。")
    assert on_page("甲乙……丁戊", page) and on_page("甲乙丙……庚辛", page)
    assert not on_page("丁戊……甲乙", page)          # reordered
    assert not on_page("丁戊己……庚辛", page)        # the "……" is only 「；」
    assert not on_page("甲乙丙……丁戊己", page)      # only 「。」
    assert not on_page("庚辛壬……癸子", page)        # further apart than WINDOW
    assert on_page("庚辛壬……" + "填" * 3 + "癸子", page)  # a later piece may sit anywhere in range
    assert not on_page("甲乙丙。丁戊己；庚辛壬？", page)  # a changed character


def test_a_changed_character_is_caught(source_pages: Pages) -> None:
    """The comparison is exact apart from the stated allowances: a full-width ？ for 003's ?
    or a stitched table row fails."""
    assert source_pages.has("003", "這些規則適用所有百家樂變體嗎?")
    assert not source_pages.has("003", "這些規則適用所有百家樂變體嗎？")
    assert source_pages.has("002", "任一方首兩張是不是 8 或 9？｜是 → Natural， 雙方不再補牌。")
    assert not source_pages.has("002", "任一方首兩張是不是 8 或 9？是 → Natural，雙方不再補牌。")


def test_the_pages_come_from_the_environment_when_it_names_them(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """``$BACCARAT_KIT_SOURCES`` names the folder; one that is missing or holds no page is not
    taken, and the kit says where it looked."""
    (tmp_path / "000_x.txt").write_text("莊家3點停牌。\n", encoding="utf-8")
    monkeypatch.setenv(sources.ENV, str(tmp_path))
    pages = sources.find()
    assert pages is not None and pages.folder == tmp_path and pages.has("000", "莊家3點停牌")
    assert pages.has("001", "x") is None
    monkeypatch.setenv(sources.ENV, str(tmp_path / "missing"))
    assert sources.find() is None and sources.where_looked() == str(tmp_path / "missing")
