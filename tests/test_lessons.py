"""The lesson notebooks agree with their sources (notebooks/src/*.py) and are committed executed.

nbval (``make test``) then runs every notebook and compares the stored outputs.
"""

from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path

import pytest

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
_spec = importlib.util.spec_from_file_location("lesson_build", NOTEBOOKS / "build.py")
assert _spec and _spec.loader
build = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(build)

LESSONS = sorted(p.stem for p in (NOTEBOOKS / "src").glob("*.py"))


def test_parse_source_cells_and_tags() -> None:
    text = ('# %% [markdown]\n# # Title\n#\n# text\n\n# %%\nx = 1\n\n'
            '# %% tags=["nbval-ignore-output"]\nx\n')
    cells = build.parse_source(text)
    assert [(c["cell_type"], c["source"], c["tags"]) for c in cells] == [
        ("markdown", "# Title\n\ntext", []),
        ("code", "x = 1", []),
        ("code", "x", ["nbval-ignore-output"]),
    ]


@pytest.mark.parametrize("name", LESSONS)
def test_notebook_matches_its_source(name: str) -> None:
    assert build.check(name) == []


@pytest.mark.parametrize("name", LESSONS)
def test_notebook_is_committed_executed(name: str) -> None:
    nb = json.loads((NOTEBOOKS / f"{name}.ipynb").read_text(encoding="utf-8"))
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
    return {name: "\n".join(ln for ln in text.splitlines()
                            if not ln.lstrip("# ").startswith(">"))
            for name, text in texts.items()}


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


def _links(name: str) -> list[str]:
    return _LINK.findall((NOTEBOOKS / "src" / f"{name}.py").read_text(encoding="utf-8"))


def test_course_map_links_every_lesson_exercise_and_the_trainer() -> None:
    links = set(_links("00-how-to-use"))
    for lesson in LESSONS:
        assert f"{lesson}.ipynb" in links, f"the course map does not link {lesson}"
    for exercise in sorted((REPO / "exercises").glob("*.ipynb")):
        assert f"../exercises/{exercise.name}" in links, f"the course map does not link {exercise.name}"
    assert "../trainer/trainer.ipynb" in links


@pytest.mark.parametrize("name", LESSONS)
def test_every_link_of_a_lesson_opens_a_file(name: str) -> None:
    for target in _links(name):
        if target.startswith(("http://", "https://")):
            continue
        assert (NOTEBOOKS / target).resolve().exists(), f"{name} links {target}, which is missing"


@pytest.mark.parametrize("name", [n for n in LESSONS if n != LESSONS[-1]])
def test_every_lesson_ends_with_the_next_lesson(name: str) -> None:
    cells = build.parse_source((NOTEBOOKS / "src" / f"{name}.py").read_text(encoding="utf-8"))
    last = cells[-1]
    assert last["cell_type"] == "markdown" and "下一步" in last["source"], f"{name} ends without next steps"
    following = LESSONS[LESSONS.index(name) + 1]
    targets = _LINK.findall(last["source"])
    if name == "08-odds-and-roads":  # lesson 09 is for instructors: learners go on to 10
        assert "10-summary.ipynb" in targets and "09-instructors-adding-a-case.ipynb" in targets
    else:
        assert f"{following}.ipynb" in targets, f"{name} does not link {following}"


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


@pytest.mark.parametrize("name", LESSONS)
def test_stored_widget_state_draws_every_displayed_widget(name: str) -> None:
    """The stored widget state (what a trusted notebook draws before it runs) holds every
    displayed widget and every model it refers to, under ids derived from the lesson."""
    nb = json.loads((NOTEBOOKS / f"{name}.ipynb").read_text(encoding="utf-8"))
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

    assert views[0] == uuid.uuid5(uuid.NAMESPACE_URL, f"baccarat-kit/{name}/0").hex
    for out in (o for c in nb["cells"] if c["cell_type"] == "code" for o in c["outputs"]):
        if "application/vnd.jupyter.widget-view+json" in out.get("data", {}):
            assert "bk-static" in "".join(out["data"].get("text/html", "")), f"{name}: no preview"
