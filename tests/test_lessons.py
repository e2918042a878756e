"""The lesson notebooks agree with their sources (notebooks/src/*.py) and are committed executed.

nbval (``make test``) then runs every notebook and compares the stored outputs.
"""

from __future__ import annotations

import importlib.util
import json
import re
import tomllib
from html import unescape
from pathlib import Path

import pytest

from baccarat_kit.sources import attributed_quotes

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
_spec = importlib.util.spec_from_file_location("lesson_build", NOTEBOOKS / "build.py")
assert _spec and _spec.loader
build = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(build)

LESSONS = sorted(p.stem for p in (NOTEBOOKS / "src").glob("*.py"))


EDITIONS = list(build.EDITIONS)
BOTH = [(name, lang) for name in LESSONS for lang in EDITIONS]


def test_parse_source_cells_and_tags() -> None:
    text = ('# %% [markdown] lang=zh\n# # 標題\n#\n# 文字\n\n# %% [markdown] lang=en\n# # Title\n\n'
            '# %%\nLANG = bk.set_language(EDITION_LANG)\n\n# %% tags=["nbval-ignore-output"]\nx\n')
    cells = build.parse_source(text)
    assert [(c["cell_type"], c["source"], c["tags"], c["lang"]) for c in cells] == [
        ("markdown", "# 標題\n\n文字", [], "zh"),
        ("markdown", "# Title", [], "en"),
        ("code", "LANG = bk.set_language(EDITION_LANG)", [], None),
        ("code", "x", ["nbval-ignore-output"], None),
    ]
    zh, en = (build.edition_cells(cells, lang) for lang in ("zh", "en"))
    assert [c["source"] for c in zh] == ["# 標題\n\n文字", 'LANG = bk.set_language("zh")', "x"]
    assert [c["source"] for c in en] == ["# Title", 'LANG = bk.set_language("en")', "x"]


@pytest.mark.parametrize("text", [
    "# %% [markdown] lang=zh\n# 只有中文\n\n# %%\nx = 1\n",               # no English cell after it
    "# %% [markdown] lang=en\n# English first\n",                          # English without its zh cell
    "# %% [markdown]\n# no language\n",                                    # prose must say its language
    "# %% lang=en\nx = 1\n",                                               # code is shared
])
def test_a_source_must_pair_its_prose(text: str) -> None:
    with pytest.raises(build.SourceError):
        build.edition_cells(build.parse_source(text), "en")


@pytest.mark.parametrize(("name", "lang"), BOTH)
def test_notebook_matches_its_source(name: str, lang: str) -> None:
    assert build.check(name, lang) == []


@pytest.mark.parametrize(("name", "lang"), BOTH)
def test_the_build_sets_the_language_of_each_edition(name: str, lang: str) -> None:
    """Every code cell that names a language names the edition's: the build sets it, no cell
    hard-codes one (a demonstration of ``explain("en")``/``message("en")`` is allowed)."""
    cells = build.parse_source((NOTEBOOKS / "src" / f"{name}.py").read_text(encoding="utf-8"))
    text = "\n".join(str(c["source"]) for c in cells if c["cell_type"] == "code")
    assert "LANG = bk.set_language(EDITION_LANG)" in text
    assert 'set_language("' not in text and 'lang="' not in text
    nb = json.loads(build.notebook_path(name, lang).read_text(encoding="utf-8"))
    assert nb["metadata"]["baccarat_kit_edition"]["lang"] == lang
    code = "\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code")
    assert f'LANG = bk.set_language("{lang}")' in code and "EDITION_LANG" not in code
    for call in re.findall(r"bk\.widgets\.(?:HandBuilder|RuleChecker|CaseViewer|ShoeTracker|case_card|Quiz)\b[^\n]*", code):
        if call.rstrip().endswith(("(", "([", "[")):
            continue  # a call over several lines: checked below on its closing line
        assert "lang=LANG" in call, f"{name}: {call} does not follow the edition's language"


@pytest.mark.parametrize(("name", "lang"), BOTH)
def test_notebook_is_committed_executed(name: str, lang: str) -> None:
    nb = json.loads(build.notebook_path(name, lang).read_text(encoding="utf-8"))
    code = [c for c in nb["cells"] if c["cell_type"] == "code"]
    assert code, f"{name} has no code cells"
    counts = [c["execution_count"] for c in code]
    assert counts == list(range(1, len(code) + 1)), f"{name}: run it top to bottom (build.py)"
    assert not [o for c in code for o in c["outputs"] if o["output_type"] == "error"]


@pytest.mark.parametrize("name", LESSONS)
def test_notebook_imports_the_installed_kit(name: str) -> None:
    text = (NOTEBOOKS / "src" / f"{name}.py").read_text(encoding="utf-8")
    assert "import baccarat_kit as bk" in text
    assert "sys.path" not in text  # the installed package, never a copy


# The full hands the lessons deal (quoted from source 000), by case-catalogue id.
LESSON_HANDS = {
    "BCR-001": "2 3 3 4 4",
    "BCR-001-variant": "2 3 3 5 4",
    "000-SELF-2": "2 3 3 5 4",
    "BCR-002": "2 A 3 2 8",
    "BCR-004-variant": "A 2 2 3 4 3",
    "BCR-005": "A 2 2 4 5",
    "BCR-006": "2 2 4 3 2",
    "BCR-006-variant": "2 2 4 4 2",
    "BCR-008": "4 4 4 5",
    "BCR-008-variant": "4 4 4 4",
}


@pytest.mark.parametrize("case_id", sorted(LESSON_HANDS))
def test_lesson_hands_are_the_catalogue_hands(case_id: str) -> None:
    import baccarat_kit as bk

    text = LESSON_HANDS[case_id]
    sources = "".join(p.read_text(encoding="utf-8") for p in (NOTEBOOKS / "src").glob("*.py"))
    assert f'"{text}"' in sources, f"no lesson deals {case_id} ({text})"
    try:
        catalogue = bk.cases.load()
    except ImportError:  # pragma: no cover - the catalogue comes with issue 3
        pytest.skip("baccarat_kit.cases is not installed")
    assert bk.play(text).cards == catalogue[case_id].coup().cards


# --------------------------------------------------------------------------- the course as a learner reads it

REPO = NOTEBOOKS.parent
GLOSSARY = REPO / "docs" / "glossary.md"
_QUOTED = re.compile(r"「[^」]*」|“[^”]*”|\"[^\"\n]*\"")


def glossary_avoided() -> dict[str, str]:
    """Each word the glossary's last column rules out → the term to use instead."""
    avoided: dict[str, str] = {}
    for line in GLOSSARY.read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 4 or cells[0] in ("concept", "---") or set(cells[0]) <= {"-"}:
            continue
        for word in filter(None, (w.strip() for w in cells[3].split(","))):
            avoided[word] = cells[1]
    return avoided


def learner_text() -> dict[str, str]:
    """Learner-facing text by file: lessons, trainer, widget and lesson messages, quizzes.
    Block quotes (lines starting with ``> ``) are left out: they are the sources' words."""
    texts = {p.name: p.read_text(encoding="utf-8") for p in sorted((NOTEBOOKS / "src").glob("*.py"))}
    trainer = json.loads((REPO / "trainer" / "trainer.ipynb").read_text(encoding="utf-8"))
    texts["trainer.ipynb"] = "\n".join("".join(c["source"]) for c in trainer["cells"])
    for rel in ("baccarat_kit/locale/widgets.toml", "baccarat_kit/locale/lessons.toml",
                "baccarat_kit/data/quizzes.toml"):
        texts[rel] = (REPO / rel).read_text(encoding="utf-8")
    out = {name: "\n".join(ln for ln in text.splitlines()
                           if not ln.lstrip("# ").startswith(">"))
           for name, text in texts.items()}
    # TOML text, value by value (a whole TOML value sits inside "…", which the line check above
    # strips as a quotation): the kit's own words only, never a source's `quote`
    for rel in ("baccarat_kit/locale/widgets.toml", "baccarat_kit/locale/lessons.toml",
                "baccarat_kit/data/quizzes.toml", "baccarat_kit/data/misconceptions.toml",
                *(f"baccarat_kit/cases/{p.name}" for p in sorted((REPO / "baccarat_kit" / "cases").glob("*.toml")))):
        data = tomllib.loads((REPO / rel).read_text(encoding="utf-8"))
        out[f"{rel} (values)"] = "\n".join(_kit_strings(data))
    return out


def _kit_strings(value: object, key: str = "") -> list[str]:
    """The strings of a TOML value, leaving out the sources' own words (``quote``)."""
    if isinstance(value, str):
        return [] if key == "quote" else value.splitlines()
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in _kit_strings(v, k)]
    if isinstance(value, list):
        return [s for v in value for s in _kit_strings(v, key)]
    return []


def test_glossary_terms_in_learner_text() -> None:
    avoided = glossary_avoided()
    assert "自我檢查" in avoided and "規則 id" in avoided  # the table was read
    problems = []
    for name, text in learner_text().items():
        for n, line in enumerate(text.splitlines(), 1):
            bare = _QUOTED.sub("", line)
            for word, term in avoided.items():
                if word in bare:
                    problems.append(f"{name}:{n}: {word!r} (the glossary's term is {term!r})")
    assert problems == []


# Each lesson ends with where to go next; lesson 00 links every lesson, exercise and the trainer.
_LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")
EXERCISES = {"zh": "../exercises/", "en": "../../exercises/en/"}


def edition_markdown(name: str, lang: str) -> list[str]:
    cells = build.edition_cells(build.parse_source((NOTEBOOKS / "src" / f"{name}.py").read_text(encoding="utf-8")),
                                lang)
    return [str(c["source"]) for c in cells if c["cell_type"] == "markdown"]


def _links(name: str, lang: str = "zh") -> list[str]:
    return _LINK.findall("\n".join(edition_markdown(name, lang)))


@pytest.mark.parametrize("lang", EDITIONS)
def test_course_map_links_every_lesson_exercise_and_the_trainer(lang: str) -> None:
    links = set(_links("00-how-to-use", lang))
    for lesson in LESSONS:
        assert f"{lesson}.ipynb" in links, f"the course map does not link {lesson}"
    for exercise in sorted((REPO / "exercises").glob("*.ipynb")):
        assert f"{EXERCISES[lang]}{exercise.name}" in links, f"the course map does not link {exercise.name}"
    assert ("../trainer/trainer.ipynb" if lang == "zh" else "../../trainer/trainer.ipynb") in links


def test_course_map_offers_the_other_edition() -> None:
    zh, en = set(_links("00-how-to-use", "zh")), set(_links("00-how-to-use", "en"))
    for lesson in LESSONS:
        assert f"en/{lesson}.ipynb" in zh and f"../{lesson}.ipynb" in en
    for exercise in sorted((REPO / "exercises").glob("*.ipynb")):
        assert (REPO / "exercises" / "en" / exercise.name).exists(), f"no English copy of {exercise.name}"


@pytest.mark.parametrize(("name", "lang"), BOTH)
def test_every_link_of_a_lesson_opens_a_file(name: str, lang: str) -> None:
    folder = build.notebook_path(name, lang).parent
    for target in _links(name, lang):
        if target.startswith(("http://", "https://")):
            continue
        assert (folder / target).resolve().exists(), f"{lang}/{name} links {target}, which is missing"
        if lang == "en" and "exercises/" in target:
            assert "exercises/en/" in target, f"en/{name} links the Chinese exercise {target}"


@pytest.mark.parametrize("lang", EDITIONS)
@pytest.mark.parametrize("name", [n for n in LESSONS if n != LESSONS[-1]])
def test_every_lesson_ends_with_the_next_lesson(name: str, lang: str) -> None:
    last = edition_markdown(name, lang)[-1]
    assert ("下一步" if lang == "zh" else "What next") in last, f"{lang}/{name} ends without next steps"
    following = LESSONS[LESSONS.index(name) + 1]
    targets = _LINK.findall(last)
    if name == "08-odds-and-roads":  # lesson 09 is for instructors: learners go on to 10
        assert "10-summary.ipynb" in targets and "09-instructors-adding-a-case.ipynb" in targets
    else:
        assert f"{following}.ipynb" in targets, f"{name} does not link {following}"


# --------------------------------------------------------------------------- one language per edition

_HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_CORNER_QUOTE = re.compile(r"「[^」]*」")
_BK_QUOTE = re.compile(r'<blockquote class="bk-quote".*?</blockquote>', re.S)
# The names of the two languages, as a language switch shows them.
LANGUAGE_NAMES = ("中文", "繁體中文")


def _without_language_names(text: str) -> str:
    for name in LANGUAGE_NAMES:
        text = text.replace(name, "")
    return text


def english_prose_problems(markdown: str) -> list[str]:
    """Chinese in English prose: allowed only in a source quote, a block quote (``> ``) or a
    「…」 quotation, each with an English rendering marked as a translation."""
    problems = []
    for block in re.split(r"\n\s*\n", markdown):
        lines = block.splitlines()
        quoted = [ln for ln in lines if ln.lstrip().startswith(">")]
        if any(_HAN.search(ln) for ln in quoted) and "translation" not in block.lower():
            problems.append(f"a quoted block without its translation: {quoted[0][:60]!r}")
        for line in lines:
            if line.lstrip().startswith(">"):
                continue
            if _CORNER_QUOTE.search(line) and "translat" not in line.lower() and not any(
                    "translat" in other.lower() for other in lines):
                problems.append(f"a quote without its translation: {line[:60]!r}")
            bare = _without_language_names(_CORNER_QUOTE.sub("", line))
            if _HAN.search(bare):
                problems.append(f"Chinese outside a quote: {line[:80]!r}")
    return problems


def _quoted_lines(html: str) -> set[str]:
    """The lines of a case card's source quotes (its ``bk-quote`` blocks), as plain text."""
    lines: set[str] = set()
    for block in _BK_QUOTE.findall(html):
        body = unescape(re.sub(r"<[^>]+>", "", block.replace("<br>", "\n")))
        lines.update(line.strip() for line in body.splitlines() if line.strip())
    return lines


def english_output_problems(nb: dict) -> list[str]:
    """Chinese in what an English lesson's code prints: only a source's quoted words (the case
    cards' ``bk-quote`` blocks, also in their plain-text form; a 「…」 that a message attributes
    to a source, as ``cases check`` shows a misquote: :func:`baccarat_kit.sources.attributed_quotes`)
    and the language switch's own name may be Chinese."""
    problems = []
    for cell in nb["cells"]:
        for out in cell.get("outputs", []):
            data = out.get("data", {})
            html = data.get("text/html", "")
            quoted = _quoted_lines("".join(html) if isinstance(html, list) else html)
            texts = [out.get("text", "")]
            # An output with HTML is checked in its HTML (its text/plain is the fallback of the same).
            kinds = ("text/html", "text/markdown") if html else ("text/plain", "text/markdown")
            texts += [data.get(kind, "") for kind in kinds]
            for text in texts:
                text = "".join(text) if isinstance(text, list) else text
                text = "\n".join(line for line in text.splitlines() if line.strip() not in quoted)
                for _sid, words in attributed_quotes(text):
                    text = text.replace(f"「{words}」", "")
                bare = _without_language_names(_BK_QUOTE.sub("", text))
                for m in _HAN.finditer(bare):
                    problems.append(f"cell {cell['id']}: {bare[max(0, m.start() - 30):m.end() + 30]!r}")
                    break
    return problems


@pytest.mark.parametrize("name", LESSONS)
def test_english_edition_has_chinese_only_in_quoted_sources(name: str) -> None:
    problems = [p for md in edition_markdown(name, "en") for p in english_prose_problems(md)]
    nb = json.loads(build.notebook_path(name, "en").read_text(encoding="utf-8"))
    problems += english_output_problems(nb)
    assert problems == []


# English words a Chinese lesson may keep: proper names, the sources' rules bases and the
# kit's own names (code, widget classes, commands).
PROPER_NAMES = re.compile(
    r"Punto Banco|Singapore GRA[\w ()]*Game Rules(?: v4)?|Pennsylvania Code[\w §.]*|Massachusetts Gaming Commission|"
    r"Baccarat \d[\d.]*|Wizard of Odds|Journal of the American Statistical Association|"
    r"A Favorable Side Bet in Nevada Baccarat|E\. O\. Thorp|W\. E\. Walden|Thorp|Walden|JupyterLab|Jupyter|"
    r"JupyterLite|JupyterHub|Voilà|Run → Run All Cells|Kernel → Restart Kernel and Run All Cells…|"
    r"Kernel → Restart Kernel…|File → Save Notebook|Shift\+Enter|Ctrl\+S|Space|Enter|Tab|Super 6|"
    r"English edition|English|DG|HKCash|Taiwan Baccarat|Natural|BCR-\d+|HK-\w|TW-\w")


def chinese_prose_problems(markdown: str) -> list[str]:
    """English-only prose in a Chinese lesson: a run of four or more English words outside
    code, links, parentheses (the English term beside a Chinese one), proper names and quotes."""
    problems = []
    for line in markdown.splitlines():
        bare = re.sub(r"`[^`]*`", " ", line)
        bare = re.sub(r"\]\([^)]*\)", "]", bare)
        bare = re.sub(r"（[^（）]*）|\([^()]*\)|\*[^*]+\*", " ", bare)
        bare = PROPER_NAMES.sub(" ", bare)
        for segment in re.split(r"[|\u3000-\u303f\uff00-\uffef]|" + _HAN.pattern, bare):
            words = re.findall(r"[A-Za-z][A-Za-z'’-]*", segment)
            if len(words) >= 4:
                problems.append(f"English prose: {line[:80]!r}")
                break
    return problems


@pytest.mark.parametrize("name", LESSONS)
def test_chinese_edition_has_no_english_only_prose(name: str) -> None:
    problems = [p for md in edition_markdown(name, "zh") for p in chinese_prose_problems(md)]
    assert problems == []


def test_the_language_checks_can_fail() -> None:
    assert english_prose_problems("The banker draws 補牌.")
    assert english_prose_problems("> 莊家補牌。")
    assert not english_prose_problems("> 莊家補牌。\n>\n> *Translation:* \"the banker draws.\"")
    assert not english_prose_problems("000: 「莊家補牌」 (translation: \"the banker draws\")")
    assert chinese_prose_problems("莊家補牌。The banker draws a third card here.")
    assert not chinese_prose_problems("莊家補牌（the banker draws a third card）：`bk.banker_draws(3, 8)`")


@pytest.mark.parametrize("name", LESSONS)
def test_no_answer_in_sight(name: str) -> None:
    """A lesson's quiz is a named question set: no question data, no answer index and no
    demonstration of a wrong answer in its code cells."""
    text = (NOTEBOOKS / "src" / f"{name}.py").read_text(encoding="utf-8")
    if name.startswith("09"):  # the instructors' lesson writes a question set on purpose
        return
    assert '"answer"' not in text and ".preview(" not in text and "正確答案：" not in text
    assert "Quiz(" not in text.replace("Quiz.lesson(", "")
    if "bk.widgets.Quiz" in text:
        assert "bk.widgets.Quiz.lesson(" in text


@pytest.mark.parametrize(("name", "lang"), BOTH)
def test_stored_widget_state_draws_every_displayed_widget(name: str, lang: str) -> None:
    """The stored widget state (what a trusted notebook draws before it runs) holds every
    displayed widget and every model it refers to, under ids derived from the lesson."""
    nb = json.loads(build.notebook_path(name, lang).read_text(encoding="utf-8"))
    views = [out["data"]["application/vnd.jupyter.widget-view+json"]["model_id"]
             for cell in nb["cells"] if cell["cell_type"] == "code" for out in cell["outputs"]
             if "application/vnd.jupyter.widget-view+json" in out.get("data", {})]
    if not views:
        return
    state = nb["metadata"]["widgets"]["application/vnd.jupyter.widget-state+json"]["state"]
    assert all(v in state for v in views)
    refs = set(re.findall(r"IPY_MODEL_([0-9a-f]{32})", json.dumps(state)))
    assert refs <= set(state), f"{name}: a stored widget refers to a model that is not stored"
    import uuid

    edition = name if lang == "zh" else f"{lang}/{name}"
    assert views[0] == uuid.uuid5(uuid.NAMESPACE_URL, f"baccarat-kit/{edition}/0").hex
    for out in (o for c in nb["cells"] if c["cell_type"] == "code" for o in c["outputs"]):
        if "application/vnd.jupyter.widget-view+json" in out.get("data", {}):
            assert "bk-static" in "".join(out["data"].get("text/html", "")), f"{name}: no preview"


# --------------------------------------------------------------------------- issue 23: figures the prose states

def _counting_rows(lang: str) -> dict[str, list[str]]:
    """Lesson 08's counting table as stored in the notebook: bet label -> its cells."""
    nb = json.loads(build.notebook_path("08-odds-and-roads", lang).read_text(encoding="utf-8"))
    for cell in nb["cells"]:
        if cell["cell_type"] == "code" and "counting_analysis(" in "".join(cell["source"]):
            for out in cell.get("outputs", []):
                if "application/vnd.jupyter.widget-view+json" in out.get("data", {}):
                    continue  # the progress line (a widget) shown while it runs
                text = out.get("data", {}).get("text/markdown") or out.get("data", {}).get("text/plain")
                if text:
                    rows = [r.strip().strip("|").split("|") for r in "".join(text).splitlines()[2:]]
                    return {r[0].strip(): [c.strip() for c in r[1:]] for r in rows if len(r) > 4}
    raise AssertionError("lesson 08 has no stored counting table")


@pytest.mark.parametrize("lang", EDITIONS)
def test_lesson_08_calls_the_main_bets_positive_moments_rare_with_the_tables_own_figures(lang: str) -> None:
    rows = _counting_rows(lang)
    main = [cells for label, cells in rows.items() if not re.search(r"tie|pair|和|對", label)]
    assert len(main) == 3, rows.keys()
    shares = sorted(float(c[1].rstrip("%")) for c in main)
    best = sorted(float(c[3].rstrip("%")) for c in main)
    prose = "\n".join(edition_markdown("08-odds-and-roads", lang))
    assert f"{shares[0]:.2f}%" in prose and f"{shares[-1]:.2f}%" in prose
    assert f"+{best[0]:.1f}%" in prose and f"+{best[-1]:.1f}%" in prose
    assert ("罕見" if lang == "zh" else "rare") in prose
    assert "幅度極小" not in prose and "tiny" not in prose
