"""Issue 31's learner interface, without a browser: Predict per lesson and language with a
retry, the previews that say they need the kernel, quiz hints, the course map's mastery tick,
the final-test page's links and the ``baccarat-kit`` lab/trainer command lines."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

pytest.importorskip("ipywidgets")

import baccarat_kit as bk
from baccarat_kit.i18n import message
from baccarat_kit.widgets import Predict, plain_text


# ---------------------------------------------------------------- Predict
def test_predict_is_recorded_per_lesson_and_language() -> None:
    p = Predict("BCR-008", asks="winner", lang="zh", record="02")
    p.respond(p.answer)
    answers = bk.progress.load()["quizzes"]["predict"]["answers"]
    assert set(answers) == {"02/zh/BCR-008:winner"}
    assert Predict("BCR-008", asks="winner", lang="zh", record="02").chosen == p.answer  # after a restart
    # the same case in another lesson, or in the English edition, starts unanswered
    for other in (Predict("BCR-008", asks="winner", lang="zh", record="05"),
                  Predict("BCR-008", asks="winner", lang="en", record="02")):
        assert other.chosen is None and other.feedback.value == "" and other.reveal.value == ""
    # switching the language toggle does not move the answer to another key
    live = Predict("BCR-008", asks="winner", lang="zh", record="02")
    live.lang = "en"
    assert live.key == "02/zh/BCR-008:winner" and live.chosen == p.answer


def test_predict_retry_hides_the_answer_and_keeps_the_first_one_scored() -> None:
    p = Predict("HK-A", lang="en", record="06")
    wrong = next(v for v in p.choices if v != p.answer)
    assert p.retry_button.disabled  # nothing to retry yet
    p.respond(wrong)
    assert not p.retry_button.disabled and p.reveal.value
    p.retry_button.click()
    assert p.chosen is None and p.feedback.value == "" and p.reveal.value == "" and p.retry_button.disabled
    assert p.respond(p.answer) is True
    assert "bk-not-counted" in p.feedback.value and p._said(wrong) in plain_text(p.feedback)
    entry = bk.progress.load()["quizzes"]["predict"]["answers"][p.key]
    assert entry["answer"] == p.answer and entry["first_answer"] == wrong and entry["first"] is False
    assert message("widgets.predict.retry", "en") in p.retry_button.description


def test_predict_reads_a_record_written_before_keys_named_lesson_and_language() -> None:
    old = {"answer": "stand", "lesson": "04", "t": time.time(), "first": True, "first_answer": "stand"}
    bk.progress.update(lambda r: r["quizzes"].setdefault("predict", {"answers": {}})["answers"].update(
        {"000-EX-2:banker_decision": old}))
    assert Predict("000-EX-2", lang="zh", record="04").chosen == "stand"  # its lesson, Chinese edition
    assert Predict("000-EX-2", lang="en", record="04").chosen is None
    assert Predict("000-EX-2", lang="zh", record="07").chosen is None  # another lesson's


# ---------------------------------------------------------------- needs the kernel
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_widgets_static_preview_says_it_needs_run_all_in_its_editions_language(lang: str) -> None:
    preview = bk.widgets.RuleChecker(lang=lang)._repr_mimebundle_()["text/html"]
    other = "en" if lang == "zh" else "zh"
    assert bk.widgets._common.esc(message("widgets.static-note", lang)) in preview
    assert bk.widgets._common.esc(message("widgets.static-note", other)) not in preview  # an edition's own language
    for code in ("zh", "en"):  # both say that nothing responds before the cell runs, and how to run it
        assert "Run → Run All Cells" in message("widgets.static-note", code)
    assert "不會有反應" in message("widgets.static-note", "zh")
    assert "nothing here responds" in message("widgets.static-note", "en")


def test_the_stored_widget_state_of_a_lesson_says_it_does_not_respond_yet() -> None:
    import importlib.util

    import nbformat

    spec = importlib.util.spec_from_file_location("nb_build", Path(bk.__file__).parent.parent / "notebooks" / "build.py")
    build = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(build)  # type: ignore[union-attr]
    title = {"model_name": "HTMLModel", "state": {"_dom_classes": ["bk-title"], "value": "<b>T</b>"}}
    other = {"model_name": "HTMLModel", "state": {"_dom_classes": ["bk-decision"], "value": "x"}}
    nb = nbformat.v4.new_notebook(metadata={"widgets": {build._STATE: {"state": {"a": title, "b": other}}}})
    build.note_stored_views(nb, "en")
    build.note_stored_views(nb, "en")  # a rebuild adds it once
    value = nb.metadata["widgets"][build._STATE]["state"]["a"]["state"]["value"]
    assert value.count("bk-needs-run\"") == 1 and value.startswith("<b>T</b>")
    assert bk.widgets._common.esc(message("widgets.needs-run", "en")) in value
    assert bk.widgets._common.esc(message("widgets.needs-run", "zh")) not in value  # the English edition
    assert nb.metadata["widgets"][build._STATE]["state"]["b"]["state"]["value"] == "x"
    # a live widget's own title has no such note
    assert "bk-needs-run" not in bk.widgets.RuleChecker().title.value


# ---------------------------------------------------------------- baccarat-kit lab / trainer
@pytest.fixture
def launched(monkeypatch: pytest.MonkeyPatch) -> list[tuple[list[str], Path | None]]:
    """The server command a ``lab``/``trainer`` run would exec, instead of exec'ing it."""
    from baccarat_kit import course

    calls: list[tuple[list[str], Path | None]] = []
    monkeypatch.setattr(course, "_exec", lambda cmd, cwd=None, env=None: calls.append((cmd, cwd)) or 0)
    return calls


def test_lab_options_are_options_not_the_course_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                       launched: list) -> None:
    from baccarat_kit.cli import main

    monkeypatch.chdir(tmp_path)
    assert main(["--lang", "en", "lab", "--no-browser", "--port", "8894"]) == 0
    assert not (tmp_path / "8894").exists()  # issue 31: the course went into a folder "8894"
    assert (tmp_path / "baccarat-course" / "notebooks" / "00-how-to-use.ipynb").is_file()
    cmd, _cwd = launched[-1]
    assert f"--ServerApp.root_dir={tmp_path / 'baccarat-course'}" in cmd
    assert "--ServerApp.port=8894" in cmd and "--ServerApp.open_browser=False" in cmd
    assert "--LabApp.default_url=/lab/tree/notebooks/en/00-how-to-use.ipynb" in cmd
    # a folder, options in any order, and an option passed through as --name=value
    assert main(["lab", "--port=8895", "mine", "--ServerApp.token=abc", "--no-browser"]) == 0
    cmd, _cwd = launched[-1]
    assert f"--ServerApp.root_dir={tmp_path / 'mine'}" in cmd and "--ServerApp.token=abc" in cmd
    assert "--ServerApp.port=8895" in cmd


def test_lab_opens_with_the_courses_own_workspace_the_side_bars_closed_once(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, launched: list) -> None:
    """Issue 37: a new learner's JupyterLab opens the lesson with the side bars closed (on a
    390 px phone the file browser left the lesson 62 px); the layout lives in the course
    folder's own workspaces, and a layout the learner left later is never overwritten."""
    import json

    from baccarat_kit import course
    from baccarat_kit.cli import main

    pytest.importorskip("jupyterlab_server")
    monkeypatch.chdir(tmp_path)
    assert main(["lab", "mine", "--no-browser"]) == 0
    folder = tmp_path / "mine" / course.LAB_WORKSPACES
    cmd, _cwd = launched[-1]
    assert f"--LabApp.workspaces_dir={folder}" in cmd
    (written,) = folder.glob("*.jupyterlab-workspace")
    workspace = json.loads(written.read_text(encoding="utf-8"))
    assert workspace["metadata"]["id"] == "default"
    layout = workspace["data"]["layout-restorer:data"]
    assert layout["left"] == {"collapsed": True, "visible": True}  # no "current": it would open it
    assert layout["right"]["collapsed"] is True and layout["right"]["visible"] is False
    # the learner opened the file browser; JupyterLab saved that: the next start keeps it
    layout["left"] = {"collapsed": False, "visible": True, "current": "filebrowser"}
    written.write_text(json.dumps(workspace), encoding="utf-8")
    assert main(["lab", "mine", "--no-browser"]) == 0
    assert json.loads(written.read_text(encoding="utf-8"))["data"]["layout-restorer:data"]["left"]["current"] == "filebrowser"
    assert course.first_layout(tmp_path / "mine") is None


def test_a_passed_through_option_never_swallows_its_value_as_the_folder(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, launched: list,
        capsys: pytest.CaptureFixture[str]) -> None:
    from baccarat_kit.cli import main

    monkeypatch.chdir(tmp_path)
    assert main(["--lang", "en", "lab", "--ServerApp.port_retries", "0"]) == 2
    err = capsys.readouterr().err
    assert "--ServerApp.port_retries=0" in err and "course folder" in err
    assert not (tmp_path / "0").exists() and launched == []


def test_trainer_serves_the_course_copys_trainer_with_the_lessons_progress_record(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, launched: list) -> None:
    from baccarat_kit import progress
    from baccarat_kit.cli import main

    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv(progress.PROGRESS_ENV)  # a learner's shell names no record
    assert main(["trainer", "course", "--port", "9001", "--no-browser"]) == 0
    cmd, cwd = launched[-1]
    dest = tmp_path / "course"
    assert cmd[1:4] == ["-m", "voila", str(dest / "trainer" / "trainer.ipynb")]
    assert "--port=9001" in cmd and "--no-browser" in cmd and "--Voila.ip=127.0.0.1" in cmd
    assert cwd == dest and (dest / "trainer" / "trainer.ipynb").is_file()
    # Voilà's root is the course folder (the trainer's ../docs/cheat-sheet.html is inside it),
    # and it serves only images and that sheet of it
    assert f"--Voila.root_dir={dest}" in cmd
    allowed = [a.split("=", 1)[1] for a in cmd if a.startswith("--VoilaConfiguration.file_allowlist=")]
    import re

    assert any(re.fullmatch(p, "docs/cheat-sheet.html") for p in allowed)
    for private in (".baccarat-progress.json", "notebooks/00-how-to-use.ipynb", "exercises/01-card-values.ipynb"):
        assert not any(re.fullmatch(p, private) for p in allowed), private
    # the server (and its kernels) get the course folder's record: the lessons'
    import os

    assert os.environ[progress.PROGRESS_ENV] == str(dest / progress.FILENAME)
    # and Voilà's kernel in trainer/ would find it anyway (the folder with the course manifest)
    monkeypatch.delenv(progress.PROGRESS_ENV)
    assert progress.location(dest / "trainer") == progress.location(dest / "notebooks") == dest / progress.FILENAME
    assert progress.location(dest / "notebooks" / "en") == dest / progress.FILENAME
    assert main(["trainer"]) == 0 and "--port=8866" in launched[-1][0]
    assert (tmp_path / "baccarat-course" / "trainer" / "trainer.ipynb").is_file()


# ---------------------------------------------------------------- quiz hints
def test_quiz_hint_button_is_enabled_with_a_hint_and_reveals_it() -> None:
    from baccarat_kit.widgets import Quiz

    quiz = Quiz.lesson("00", lang="en")  # run-all carries a hint in quizzes.toml
    assert quiz.question.id == "run-all" and quiz.question.hint
    assert not quiz.hint_button.disabled and quiz.hint.value == ""
    quiz.hint_button.click()
    assert quiz.question.hint["en"] in plain_text(quiz.hint) and quiz.feedback.value == ""
    quiz.go(1)
    assert quiz.hint.value == ""  # another question: its own hint, shown only when asked
    # engine-made questions (banker and player rules) carry the engine's nudge, never the answer
    matrix = Quiz.lesson("04", lang="zh")
    q = matrix.question
    assert q.hint and not matrix.hint_button.disabled
    for lang in ("zh", "en"):
        for option in q.options:
            assert option.text[lang] not in q.hint[lang]
    trainer = Quiz.lesson("trainer", lang="en")
    assert all(question.hint for question in trainer.questions)


def test_a_question_without_a_hint_keeps_the_button_disabled() -> None:
    from baccarat_kit.widgets import Quiz

    quiz = Quiz([{"id": "q", "prompt": {"zh": "?", "en": "?"}, "answer": 0,
                  "options": [{"zh": "a", "en": "a"}, {"zh": "b", "en": "b"}]}])
    assert quiz.hint_button.disabled


@pytest.mark.parametrize("hint", [{"zh": "看第三張", "en": "  "}, {"zh": "看第三張"}, "look", {"zh": "", "en": "x"}])
def test_the_loader_refuses_a_hint_missing_a_language_or_empty(hint: object) -> None:
    from baccarat_kit.widgets import Quiz
    from baccarat_kit.widgets._common import WidgetError
    from baccarat_kit.widgets.question_sets import build_question

    question = {"id": "q-bad", "prompt": {"zh": "?", "en": "?"}, "answer": 0, "hint": hint,
                "options": [{"zh": "a", "en": "a"}, {"zh": "b", "en": "b"}]}
    with pytest.raises(WidgetError, match="q-bad"):
        Quiz([question])
    with pytest.raises(WidgetError, match="q-bad"):
        build_question({"id": "q-bad", "kind": "banker", "total": 3, "third": 8, "hint": hint})


def test_the_final_test_offers_no_hints_and_says_so() -> None:
    """Issue 37: a banker cell's hint named its exact row and column, a free answer in a test;
    the final test offers no hints (the lessons' self-checks keep theirs)."""
    from baccarat_kit.widgets import FinalTest

    test = FinalTest(lang="en", seed=5)
    assert [i for i in test.items if i.question.hint]  # the bank's cells have hints …
    assert not [q for q in test.questions if q.hint]  # … the test does not offer them
    test.hint_button.click()
    assert "offers no hints" in plain_text(test.hint)


# ---------------------------------------------------------------- the course map's tick
def _answer(quiz, wrong: set[int]) -> None:
    for i, q in enumerate(quiz.questions):
        quiz.go(i)
        quiz.options.value = (q.answer + 1) % len(q.options) if i in wrong else q.answer
        quiz.check()


def _row(name: str) -> dict:
    return {r["id"]: r for r in bk.progress.course_map()}[name]


def test_the_course_map_ticks_a_lesson_on_mastery_not_on_answering() -> None:
    from baccarat_kit.widgets import CourseMap, Quiz

    quiz = Quiz.lesson("00", lang="en")
    assert len(quiz.questions) == 5
    _answer(quiz, wrong={0, 1, 2})  # every question answered, 2 of 5 right: issue 31's tick
    assert _row("00")["answered"] == 5 and not _row("00")["done"]
    quiz.redo()
    _answer(Quiz.lesson("00", lang="en"), wrong=set())  # redone right, but the first answers stay 2/5
    assert not _row("00")["done"]

    again = Quiz.lesson("01", lang="en")
    _answer(again, wrong={3})  # 4 of 5 right the first time, the miss still wrong
    assert _row("01")["right"] == 4 and not _row("01")["done"]
    again.redo()
    q = again.question
    again.options.value = q.answer
    again.check()  # the miss redone right: mastered
    assert _row("01")["done"]
    table = CourseMap(lang="en")
    assert "bk-map-done" in table.table.value and "80 %" in plain_text(table.legend)
    assert "80%" in plain_text(CourseMap(lang="zh").legend)


# ---------------------------------------------------------------- the saved final-test page
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_every_link_of_the_saved_final_test_page_reaches_its_lesson_heading(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, lang: str) -> None:
    import html
    import re
    from urllib.parse import unquote

    from baccarat_kit import course
    from baccarat_kit.grading.report.classreport import notebook_headings
    from baccarat_kit.widgets import FinalTest

    course.install(tmp_path / "course")  # a learner's course copy; lesson 10 runs in notebooks/
    monkeypatch.chdir(tmp_path / "course" / "notebooks" / ("en" if lang == "en" else ""))
    test = FinalTest(lang=lang, seed=7)
    for i, q in enumerate(test.questions):  # every answer wrong: a link per question
        test.go(i)
        test.options.value = (q.answer + 1) % len(q.options)
        test.check()
    for folder in (tmp_path / "course", tmp_path / "elsewhere" / "deep"):
        folder.mkdir(parents=True, exist_ok=True)
        page = test.save(folder)
        links = [html.unescape(x) for x in re.findall(r'<a href="([^"]+)"', page.read_text(encoding="utf-8"))]
        assert len(links) == len(test.questions)
        for link in links:
            file, _sep, anchor = link.partition("#")
            target = (page.parent / unquote(file)).resolve()
            assert target.is_file(), (folder, link)
            assert target.parent.name == ("en" if lang == "en" else "notebooks"), link  # its own edition
            assert not anchor or unquote(anchor) in notebook_headings(target), link
    # in the widget (lesson 10, beside the other lessons) a link is the lesson's own file name
    widget_links = re.findall(r'<a href="([^"]+)"', test.summary.value)
    here = Path.cwd()
    assert widget_links and all((here / unquote(link.partition("#")[0])).is_file() for link in widget_links)


# ---------------------------------------------------------------- lesson 08's progress line
def test_a_long_cells_progress_is_a_status_widget_in_a_kernel_not_stderr(monkeypatch: pytest.MonkeyPatch,
                                                                          capsys: pytest.CaptureFixture[str]) -> None:
    from baccarat_kit.simulation import TextProgress, progress_bar
    from baccarat_kit.widgets import progress_line

    assert isinstance(progress_bar(10, "text"), TextProgress)  # a terminal: the stderr line
    shown = []
    monkeypatch.setattr(progress_line, "in_kernel", lambda: True)
    monkeypatch.setattr("IPython.display.display", lambda obj: shown.append(obj))
    bk.simulate(shoes=20, decks=8, seed=1, progress="text")
    assert capsys.readouterr().err == ""  # nothing on stderr (JupyterLab's pink box)
    (line,) = shown
    assert isinstance(line, progress_line.ProgressLine) and "bk-progress" in line._dom_classes
    assert plain_text(line).endswith("20 / 20 靴 ✔") or plain_text(line).endswith("20 / 20 shoes ✔")
    bundle = line._repr_mimebundle_()
    assert bundle["text/plain"] == "ProgressLine(total=20)" and "…" in bundle["text/html"]  # no count: nbval-stable


# ---------------------------------------------------------------- no internal id in learner text
INTERNAL_ID = r"\b(?:banker|player|natural|coup|kit-coup)-\d|\bbanker-\d-(?:vs|player)|\bBCR-\d"


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_no_learner_facing_summary_shows_an_internal_id(lang: str) -> None:
    """Issue 37: summaries spoke in ids (``(banker-5-vs-8)``, ``banker-3-vs-8: Draw``). Every
    lesson quiz's summary with every question missed, the drill's leech feedback and map, a whole
    coup's feedback and a timed round's summary: learner words only."""
    import html
    import itertools
    import re

    from baccarat_kit import drill
    from baccarat_kit.widgets import Drill, Quiz
    from baccarat_kit.widgets.drill import CHOICES
    from baccarat_kit.widgets.question_sets import lesson_names, lesson_questions

    texts: list[tuple[str, str]] = []
    for name in lesson_names():
        quiz = Quiz(lesson_questions(name), lang=lang)
        ids = [q.id for q in quiz.questions]
        for i, q in enumerate(quiz.questions):
            quiz.go(i)
            quiz.options.value = next(o for o in range(len(q.options)) if o != q.answer)
            quiz.check()
        summary = plain_text(quiz.summary)
        assert summary.count("\n") >= len(ids), name  # one review line per question missed
        texts.append((f"quiz {name}", summary))
        for qid in ids:
            assert f"({qid})" not in summary, (name, qid)
    def wrong(d: Drill) -> str:
        return next(v for v, _k in CHOICES[d.kind] if v != d.expected)

    d = Drill(lang=lang, seed=2, record=False, clock=itertools.count().__next__)
    for cell in ("banker-3-vs-8", "player-6", "natural-8", "banker-6-player-stood"):
        for _ in range(drill.LEECH_MISSES):
            d.item = drill.item(cell)
            d.respond(wrong(d))
        texts.append((f"leech {cell}", plain_text(d.feedback)))
    texts.append(("map", plain_text(d.heatmap)))
    titles = re.findall(r'title="([^"]*)"', d.heatmap_html())
    texts.append(("map titles", html.unescape(" | ".join(titles))))
    while d.item.kind != "coup":
        d.respond(d.expected)
    while d.item.kind == "coup":
        d.respond(wrong(d))
        texts.append(("coup step", plain_text(d.feedback)))
    d.start_round(size=3)
    for n in range(3):
        d.respond(d.expected if n else wrong(d))
    texts.append(("round", plain_text(d.round_status)))
    for where, text in texts:
        assert text and not re.search(INTERNAL_ID, text), (where, re.search(INTERNAL_ID, text), text[:300])
