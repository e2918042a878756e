"""Issue 31's learner interface in a real browser (JupyterLab and the Voilà trainer).

* at 390 px wide (a phone) the rule checker's matrix and the hand builder are usable: every
  column can be reached by scrolling within the widget, every card picker is on screen;
* ↓ on lesson 06's quiz changes the answer, not JupyterLab's cell selection;
* a quiz hint, a Predict retry and the final test driven from the keyboard, at 390 px;
* the trainer (Voilà): its quiz is one Tab stop, its hint and the drill from the keyboard.

Every check waits with Playwright's ``expect`` for what it asserts; expected texts come from the
engine and the kit's messages.
"""

from __future__ import annotations

import json
import re
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

pytest.importorskip("playwright")
from playwright.sync_api import expect

import baccarat_kit as bk
from baccarat_kit.i18n import message
from conftest import KERNEL_START_MS

pytestmark = pytest.mark.browser

REPO = Path(__file__).resolve().parents[2]
NOTEBOOK = ".jp-NotebookPanel:not(.lm-mod-hidden)"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 1000}


@pytest.fixture(params=["phone", "desktop"])
def screen(request: pytest.FixtureRequest, lab_page: Any) -> Any:
    """The shared JupyterLab page at 390 px (side bars closed), then at its desktop size."""
    if request.param == "desktop":
        return lab_page
    return request.getfixturevalue("phone")


@pytest.fixture
def phone(lab_page: Any) -> Any:
    """The shared JupyterLab page at 390 px wide, its side bars closed as a learner on a phone
    has them (back to its size and its file browser afterwards)."""
    lab_page.set_viewport_size(PHONE)
    lab_page.evaluate("() => { window.jupyterapp.shell.collapseLeft(); window.jupyterapp.shell.collapseRight(); }")
    try:
        yield lab_page
    finally:
        lab_page.set_viewport_size(DESKTOP)
        lab_page.evaluate("() => window.jupyterapp.shell.expandLeft()")


def _within(locator: Any, width: int = PHONE["width"]) -> None:
    """``locator`` is wholly on screen, inside the notebook's visible area (nothing of it clipped)."""
    box = locator.bounding_box()
    area = locator.page.locator(f"{NOTEBOOK} .jp-OutputArea-output").first.bounding_box()
    right = min(width, area["x"] + area["width"]) if area else width
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= right + 0.5, (box, right)


def test_rule_checker_and_hand_builder_are_usable_at_390_px(open_lab: Any, make_notebook: Any, phone: Any) -> None:
    page = open_lab(make_notebook(
        "import baccarat_kit as bk",
        'bk.widgets.RuleChecker(lang="en")',
        'bk.widgets.HandBuilder("2 3 3 4 4", lang="en")',
    ))
    table = page.locator(f"{NOTEBOOK} .bk-rule-checker .bk-matrix-table")
    expect(table).to_have_count(1)
    heads = table.locator("tr").first.locator("th")
    expect(heads).to_have_count(12)  # the corner, "player stood", then the values 0-9
    for i in range(12):  # each column scrolled into view inside the widget, then on screen
        heads.nth(i).scroll_into_view_if_needed()
        _within(heads.nth(i))
    scroller = page.locator(f"{NOTEBOOK} .bk-rule-checker .bk-matrix")
    assert scroller.evaluate("e => e.scrollLeft") > 0  # the matrix scrolled, inside the widget
    caption = page.locator(f"{NOTEBOOK} .bk-rule-checker .bk-matrix-caption")
    _within(caption)  # wrapped to the widget's width and still in place: readable
    assert caption.bounding_box()["x"] >= scroller.bounding_box()["x"] - 0.5
    for css in ("bk-banker-total", "bk-player-third"):
        _within(page.locator(f"{NOTEBOOK} .bk-rule-checker .{css} select"))
    # in Chinese, the corner "莊點＼閒第三張" is two lines (rows, then columns), not a column
    # of one character a line: no taller than two of the matrix's rows
    page.locator(f"{NOTEBOOK} .bk-rule-checker .bk-lang button", has_text="中文").click()
    expect(heads.first).to_have_text(re.compile(r"^\s*莊點＼\s*閒第三張\s*$"))
    row = table.locator("tr").nth(1).locator("th").first.bounding_box()
    corner = heads.first.bounding_box()
    assert row is not None and corner is not None and corner["height"] <= 2 * row["height"] + 1, (corner, row)
    hb = page.locator(f"{NOTEBOOK} .bk-hand-builder")
    for slot in ("p1", "b1", "p2", "b2", "next1", "next2"):
        picker = hb.locator(f".bk-card-{slot} select")
        picker.scroll_into_view_if_needed()
        _within(picker)
    hb.locator(".bk-card-b2 select").select_option("5")  # BCR-001's variant: banker 8, a natural
    coup = bk.play("2 3 3 5")
    expect(hb.locator(".bk-winner")).to_contain_text(message(f"coup.result-{coup.winner}", "en",
                                                             player=coup.player_total, banker=coup.banker_total))
    _within(hb.locator(".bk-winner"))
    _within(hb.locator(".bk-sequence input"))


# What of a widget is cut off: a button, label, picker or text box whose text is clipped (the
# browser draws "…": ipywidgets' buttons and labels hide what does not fit), or any element
# whose right edge is past the screen or the widget's output area without a box that scrolls
# it into view. Empty when a learner can read and reach everything.
CUT_OFF_JS = """roots => {
    const vw = document.documentElement.clientWidth, out = [];
    for (const root of roots) {
        const kind = [...root.classList].filter(c => c.startsWith('bk-') && c !== 'bk-widget').join(' ');
        const edge = Math.min(vw, (root.closest('.jp-OutputArea-output') || root).getBoundingClientRect().right);
        for (const el of root.querySelectorAll('*')) {
            const r = el.getBoundingClientRect();
            if (!r.width || !r.height || el.closest('.bk-sr')) continue;
            const control = el.matches('button, label, select, .widget-label, .widget-html-content');
            const clipped = control && el.scrollWidth > el.clientWidth + 1;
            let scrolled = false;
            for (let p = el.parentElement; p && p !== root.parentElement; p = p.parentElement) {
                const o = getComputedStyle(p).overflowX;
                if ((o === 'auto' || o === 'scroll') && p.getBoundingClientRect().right <= edge + 1) { scrolled = true; break; }
            }
            const past = r.right > edge + 1 && !scrolled;
            if (clipped || past) {
                out.push(`${kind}: <${el.tagName.toLowerCase()} class="${el.className}"> ` +
                         `"${(el.tagName === 'SELECT' ? (el.selectedOptions[0] || {}).text || ''
                              : el.innerText || el.title || '').trim().slice(0, 50)}" ` +
                         (clipped ? `text clipped (${el.scrollWidth} > ${el.clientWidth} px)`
                                  : `right edge ${Math.round(r.right)} > ${Math.round(edge)}`));
            }
        }
    }
    return out;
}"""


def every_widget(lang: str) -> list[str]:
    """A cell for each widget a learner meets, in ``lang``."""
    return [
        f'bk.widgets.HandBuilder("2 3 3 4 4", lang="{lang}", bets={{"player": 100}})',
        f'bk.widgets.RuleChecker(lang="{lang}")',
        f'bk.widgets.CaseViewer("BCR-001", lang="{lang}")',
        f'bk.widgets.ShoeTracker(lang="{lang}", decks=1)',
        f'bk.widgets.Quiz.lesson("04", lang="{lang}")',
        f'bk.widgets.Predict("BCR-001", asks="winner", lang="{lang}")',
        f'bk.widgets.Drill(lang="{lang}", seed=1, record=False)',
        f'bk.widgets.FinalTest(lang="{lang}", seed=1, n=3, attempt=1)',
        f'bk.widgets.CourseMap(lang="{lang}")',
    ]


def test_no_widget_cuts_off_a_label_or_runs_off_the_screen(
        open_lab: Any, make_notebook: Any, screen: Any, tmp_path: Path) -> None:
    """Every widget, in both languages, at 390 px (a phone) and on a desktop: no button shows
    "…" for its label (the quiz's were "✓ …", "? …"; Predict's choices "Play…", "Bank…"), no
    control is pushed off the screen (the case viewer's variant toggle), no sentence runs past
    the edge (the shoe tracker's caption was as wide as its table)."""
    record = tmp_path / "kernel-progress"
    record.mkdir()
    page = open_lab(make_notebook(
        f"import os; os.environ['BACCARAT_KIT_PROGRESS'] = {str(record)!r}",
        "import baccarat_kit as bk",
        *every_widget("zh"), *every_widget("en"),
    ))
    roots = page.locator(f"{NOTEBOOK} .jp-OutputArea-output > .bk-widget")
    expect(roots).to_have_count(18)
    expect(page.locator(f"{NOTEBOOK} .bk-course-map-rows")).to_have_count(2)
    expect(page.locator(f"{NOTEBOOK} .bk-shoe-odds-table")).to_have_count(2)
    problems = roots.evaluate_all(CUT_OFF_JS)
    assert problems == [], "\n".join(problems)


# --------------------------------------------------------------------------- keyboard helpers
def focused(page: Any, script: str) -> Any:
    return page.evaluate(f"() => {{ const el = document.activeElement; return {script}; }}")


def tab_to(page: Any, condition: str, limit: int = 40, key: str = "Tab") -> int:
    """Press Tab (or ``key``) until ``condition`` (JS, ``el`` the focused element) holds; how many."""
    for count in range(limit):
        if focused(page, f"!!({condition})"):
            return count
        page.keyboard.press(key)
    raise AssertionError(f"{key} never reached an element where {condition}")


def active_cell_index(page: Any) -> int:
    return int(page.evaluate(
        """sel => [...document.querySelectorAll(sel + ' .jp-Notebook .jp-Cell')]
                 .findIndex(c => c.classList.contains('jp-mod-active'))""", NOTEBOOK))


def choose(page: Any, root: str, position: int) -> None:
    """With focus on the first radio of ``root``'s quiz (none checked), check option
    ``position`` from the keyboard: Space for the first, else ↓ (a radio group's arrows move and
    check)."""
    radios = page.locator(f"{root} .bk-quiz-options input[type=radio]")
    if position == 0:
        page.keyboard.press("Space")
    for _ in range(position):
        page.keyboard.press("ArrowDown")
    expect(radios.nth(position)).to_be_checked()
    expect(radios.nth(position)).to_be_focused()


# --------------------------------------------------------------------------- JupyterLab
def test_arrow_keys_in_lesson_06s_quiz_change_the_answer_not_the_cell_and_its_hint(open_lab: Any) -> None:
    page = open_lab(REPO / "notebooks" / "06-cases-a-d-and-mistakes.ipynb")
    quiz = f"{NOTEBOOK} .bk-quiz"
    question = bk.widgets.Quiz.lesson("06").questions[0]
    expect(page.locator(f"{quiz} .bk-quiz-prompt")).to_have_text(question.prompt["zh"])
    radios = page.locator(f"{quiz} .bk-quiz-options input[type=radio]")
    expect(radios).to_have_count(len(question.options))
    # one radio group: every option shares one name (one Tab stop; arrows move within it)
    expect(radios.first).to_have_attribute("name", re.compile(r"^bk-radio-"))
    names = radios.evaluate_all("rs => new Set(rs.map(r => r.name)).size")
    assert names == 1
    radios.first.focus()  # the learner reaches the quiz; from here only keys are pressed
    cell = active_cell_index(page)
    choose(page, quiz, 1)  # ↓: the second option, and JupyterLab's cell selection stays
    assert active_cell_index(page) == cell
    page.keyboard.press("ArrowUp")
    expect(radios.nth(0)).to_be_checked()
    assert active_cell_index(page) == cell
    # the radio group is one Tab stop: the next is the submit button, then the hint
    page.keyboard.press("Tab")
    assert focused(page, "!!el.closest('.bk-quiz-submit')")
    page.keyboard.press("Tab")
    assert focused(page, "!!el.closest('.bk-quiz-hint-button')")
    page.keyboard.press("Enter")
    expect(page.locator(f"{quiz} .bk-quiz-hint")).to_contain_text(question.hint["zh"])
    expect(page.locator(f"{quiz} .bk-quiz-feedback")).to_have_text("")  # a hint, not the answer
    assert active_cell_index(page) == cell


def test_predict_retry_and_the_final_test_from_the_keyboard_at_390_px_too(
        open_lab: Any, make_notebook: Any, screen: Any, tmp_path: Path) -> None:
    # the kernel keeps its own fresh record, as this process does (tests/conftest.py): the final
    # test draws from the record, and an earlier run's answers would change what it asks
    record = tmp_path / "kernel-progress"
    record.mkdir()
    page = open_lab(make_notebook(
        f"import os; os.environ['BACCARAT_KIT_PROGRESS'] = {str(record)!r}",
        "import baccarat_kit as bk",
        'bk.widgets.Predict("BCR-001", asks="winner", lang="en", record="05")',
        'bk.widgets.FinalTest(lang="en", seed=1, n=3, attempt=1)',
    ))
    # ---- Predict: answer wrong, read the reveal, predict again, answer right
    predict = f"{NOTEBOOK} .bk-predict"
    p = bk.widgets.Predict("BCR-001", asks="winner", lang="en")
    wrong = next(v for v in p.choices if v != p.answer)
    order = list(p.choices)
    page.locator(f"{predict} .bk-predict-{order[0]}").focus()
    for _ in range(order.index(wrong)):
        page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    expect(page.locator(f"{predict} .bk-predict-feedback .bk-wrong")).to_have_count(1)
    expect(page.locator(f"{predict} .bk-predict-reveal")).to_contain_text(p.case.quote or "bk.play")
    tab_to(page, "el.closest('.bk-predict-retry')", limit=6)
    page.keyboard.press("Enter")
    expect(page.locator(f"{predict} .bk-predict-feedback")).to_have_text("")
    expect(page.locator(f"{predict} .bk-predict-reveal")).to_have_text("")
    expect(page.locator(f"{predict} .bk-predict-retry")).to_be_disabled()
    page.locator(f"{predict} .bk-predict-{order[0]}").focus()
    for _ in range(order.index(p.answer)):
        page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    expect(page.locator(f"{predict} .bk-predict-feedback .bk-right")).to_have_count(1)
    _within(page.locator(f"{predict} .bk-predict-feedback"), page.viewport_size["width"])

    # ---- the final test: every question from the keyboard; it offers no hints (issue 37)
    final = f"{NOTEBOOK} .bk-final-test"
    test = bk.widgets.FinalTest(lang="en", seed=1, n=3, attempt=1)
    for i, q in enumerate(test.questions):
        expect(page.locator(f"{final} .bk-quiz-prompt")).to_have_text(q.prompt["en"])
        # the prompt and the options are two updates: wait for this question's options (keys
        # pressed on the last question's radios are lost when the new ones arrive)
        expect(page.locator(f"{final} .bk-quiz-options .widget-radio-box label")).to_have_text(
            [f"{chr(ord('A') + pos)}. {q.options[k].text['en']}" for pos, k in enumerate(test.orders[i])])
        expect(page.locator(f"{final} .bk-quiz-options input[type=radio]:checked")).to_have_count(0)
        page.locator(f"{final} .bk-quiz-options input[type=radio]").first.focus()
        choose(page, final, test.orders[i].index(q.answer))
        page.keyboard.press("Tab")  # the radio group is one Tab stop
        assert focused(page, "!!el.closest('.bk-quiz-submit')")
        page.keyboard.press("Enter")
        expect(page.locator(f"{final} .bk-quiz-feedback .bk-right")).to_have_count(1)
        assert q.hint is None
        expect(page.locator(f"{final} .bk-quiz-hint")).to_contain_text("offers no hints")
        if i + 1 < len(test.questions):
            tab_to(page, "el.closest('.bk-quiz-next')", limit=6)
            page.keyboard.press("Enter")
    summary = page.locator(f"{final} .bk-final-summary")
    expect(summary).to_contain_text(f"{len(test.questions)} of {len(test.questions)} right")
    tab_to(page, "el.closest('.bk-final-save')", limit=12)
    page.keyboard.press("Enter")
    expect(page.locator(f"{final} .bk-final-saved")).to_contain_text(
        message("widgets.final.saved", "en", path=bk.widgets.final_test.RESULT_PAGE))
    _within(summary, page.viewport_size["width"])


def test_the_final_tests_review_links_open_the_lessons_inside_jupyterlab(
        lab: Any, lab_page: Any, make_notebook: Any, tmp_path: Path) -> None:
    """Lesson 10's summary links each miss to its lesson. They were an HTML widget's plain links,
    relative to the page's address (/lab): clicking one left JupyterLab for a 404 page. Now a
    click (or Enter on the focused link) opens the lesson in a JupyterLab tab, beside lesson 10."""
    record = tmp_path / "kernel-progress"
    record.mkdir()
    folder = lab.add_course()  # the lessons beside the notebook, as in a learner's course copy
    name = f"{folder}/notebooks/" + lab.add_notebook(make_notebook(
        f"import os; os.environ['BACCARAT_KIT_PROGRESS'] = {str(record)!r}",
        "import baccarat_kit as bk",
        'bk.widgets.FinalTest(lang="zh", seed=1, n=3, attempt=1)',
    ), "final-links")
    (lab.root / name).parent.mkdir(parents=True, exist_ok=True)
    (lab.root / name.rsplit("/", 1)[-1]).rename(lab.root / name)
    lab.open(lab_page, name)
    lab.run_all(lab_page, name.rsplit("/", 1)[-1])
    page, final = lab_page, f"{NOTEBOOK} .bk-final-test"
    test = bk.widgets.FinalTest(lang="zh", seed=1, n=3, attempt=1)  # the same questions
    for i, q in enumerate(test.questions):
        expect(page.locator(f"{final} .bk-quiz-prompt")).to_have_text(q.prompt["zh"])
        wrong = next(p for p, source in enumerate(test.orders[i]) if source != q.answer)
        page.locator(f"{final} .bk-quiz-options input[type=radio]").nth(wrong).check()
        page.locator(f"{final} .bk-quiz-submit").click()
        expect(page.locator(f"{final} .bk-quiz-feedback .bk-wrong")).to_have_count(1)
        if i + 1 < len(test.questions):
            page.locator(f"{final} .bk-quiz-next").click()
    links = page.locator(f"{final} .bk-final-summary a")
    expect(links).to_have_count(len(test.questions))
    first = links.first.get_attribute("href") or ""  # JupyterLab's resolver: /files/…/04-….ipynb?_xsrf=…
    lesson = urlsplit(first).path.rsplit("/", 1)[-1]
    assert re.fullmatch(r"\d\d-[\w-]+\.ipynb", lesson), first
    links.first.focus()
    page.keyboard.press("Enter")
    tab = page.locator(".lm-TabBar-tabLabel", has_text=lesson)
    expect(tab).to_have_count(1)
    expect(page.locator(".lm-TabBar-tabLabel", has_text=name.rsplit("/", 1)[-1])).to_have_count(1)
    assert "/lab" in page.url and page.evaluate("() => !!window.jupyterapp")  # still JupyterLab


# --------------------------------------------------------------------------- the Voilà trainer
def test_trainer_quiz_is_one_tab_stop_then_hint_and_drill_from_the_keyboard_at_390_px(voila: Any, page: Any) -> None:
    with voila(REPO / "trainer" / "trainer.ipynb") as url:
        page.set_viewport_size(PHONE)
        page.goto(url, wait_until="domcontentloaded")
        expect(page.locator(".bk-quiz .bk-quiz-options")).to_be_visible(timeout=KERNEL_START_MS)
        expect(page.locator(".bk-drill .bk-drill-keys input")).to_have_count(1, timeout=KERNEL_START_MS)
        question = bk.widgets.Quiz.lesson("trainer").questions[0]
        tab_to(page, "el.closest('.bk-quiz-options') && el.type === 'radio'", limit=80)
        page.keyboard.press("Tab")  # the whole radio group is one stop
        assert focused(page, "!!el.closest('.bk-quiz-submit')")
        page.keyboard.press("Tab")
        assert focused(page, "!!el.closest('.bk-quiz-hint-button')")
        page.keyboard.press("Enter")
        expect(page.locator(".bk-quiz .bk-quiz-hint")).to_contain_text(question.hint["zh"])
        # from the quiz to the drill: a few stops (it was 26 when every option was one)
        stops = tab_to(page, "el.closest('.bk-drill-keys') && el.tagName === 'INPUT'", limit=15)
        assert stops <= 8, stops
        for _ in range(3):  # the drill from the keyboard: the key its first answer button names
            label = page.locator(".bk-drill-answers button").first.inner_text()
            key = re.search(r"\(([A-Z])\)", label)
            assert key, label
            prompt = page.locator(".bk-drill-prompt").inner_text()
            page.keyboard.press(key.group(1).lower())
            expect(page.locator(".bk-drill-prompt")).not_to_have_text(prompt)
        expect(page.locator(".bk-drill-feedback")).not_to_have_text("")
        _within_page = page.locator(".bk-drill-answers button").first.bounding_box()
        assert _within_page and _within_page["x"] + _within_page["width"] <= PHONE["width"]


def test_a_trusted_lessons_stored_widgets_say_they_need_run_all_until_it_runs(lab: Any, lab_page: Any) -> None:
    """A course copy's lessons are trusted (``baccarat-kit course`` signs them), so JupyterLab
    draws their widgets from the stored state before anything runs: each says, in the lesson's
    language, that it does not respond yet; after Run All the live widgets say nothing of it."""
    import importlib.util
    import json

    import nbformat
    from nbformat.sign import NotebookNotary

    spec = importlib.util.spec_from_file_location("nb_build", REPO / "notebooks" / "build.py")
    build = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(build)  # type: ignore[union-attr]
    nb = nbformat.read(REPO / "notebooks" / "04-banker-rule.ipynb", as_version=4)
    build.note_stored_views(nb, "zh")  # what build.py stores (idempotent on a rebuilt lesson)
    name = lab.add_notebook(json.loads(nbformat.writes(nb)), "trusted-04", keep_outputs=True)
    signed = nbformat.read(lab.root / name, as_version=4)
    NotebookNotary(data_dir=str(lab.server.log.parent / "data")).sign(signed)  # the server's own store
    lab.open(lab_page, name)
    note = lab_page.locator(f"{NOTEBOOK} .bk-needs-run")
    expect(note.first).to_be_visible(timeout=KERNEL_START_MS)
    expect(note.first).to_contain_text(message("widgets.needs-run", "zh"))  # lesson 04's own language
    expect(lab_page.locator(f"{NOTEBOOK} .bk-rule-checker")).to_have_count(1)  # a drawn widget, not a preview
    lab.run_all(lab_page, name)
    expect(lab_page.locator(f"{NOTEBOOK} .bk-rule-checker .bk-title")).to_have_count(1)
    expect(note).to_have_count(0)


def cheatsheet_title() -> str:
    """The <title> of the printable rules sheet the course ships."""
    text = (REPO / "docs" / "cheat-sheet.html").read_text(encoding="utf-8")
    found = re.search(r"<title>([^<]+)</title>", text)
    assert found, "docs/cheat-sheet.html has no <title>"
    return found.group(1)


def test_baccarat_kit_trainer_serves_the_course_copy_and_keeps_the_lessons_record(
        tmp_path: Path, page: Any) -> None:
    """A pip learner's ``baccarat-kit trainer DIR``: the course is copied into DIR, Voilà serves
    its trainer, and a drill answer lands in DIR's progress record (the one the lessons and the
    course map use), not in the home folder."""
    import json
    import sys
    import time

    from conftest import Server, free_port, isolated_env

    home, dest, port = tmp_path / "home", tmp_path / "my-course", free_port()
    env = isolated_env(home)  # no BACCARAT_KIT_PROGRESS, HOME in the test's folder
    cmd = [sys.executable, "-c", "from baccarat_kit.cli import main; raise SystemExit(main())",
           "trainer", str(dest), "--port", str(port), "--no-browser"]
    server = Server("baccarat-kit trainer", cmd, env, tmp_path, tmp_path / "trainer.log")
    try:
        server.wait_http(f"http://127.0.0.1:{port}/")
        assert (dest / "trainer" / "trainer.ipynb").is_file() and (dest / "notebooks").is_dir()
        page.goto(f"http://127.0.0.1:{port}/", wait_until="domcontentloaded")
        box = page.locator(".bk-drill .bk-drill-keys input")
        expect(box).to_have_count(1, timeout=KERNEL_START_MS)
        box.focus()
        label = page.locator(".bk-drill-answers button").first.inner_text()
        key = re.search(r"\(([A-Z])\)", label)
        assert key, label
        prompt = page.locator(".bk-drill-prompt").inner_text()
        page.keyboard.press(key.group(1).lower())
        expect(page.locator(".bk-drill-prompt")).not_to_have_text(prompt)
        record_path = dest / ".baccarat-progress.json"
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and not record_path.exists():
            time.sleep(0.2)  # the kernel writes the record as it handles the answer
        record = json.loads(record_path.read_text(encoding="utf-8"))
        assert record["drill"]["step"] >= 1
        assert not (home / ".baccarat-progress.json").exists()
        # the trainer's link to the printable rules sheet opens it (it answered 403: Forbidden,
        # and Voilà's root was trainer/, above which ../docs is not); the record is not served
        page.locator("a", has_text="cheat-sheet").click()
        expect(page).to_have_title(re.compile(re.escape(cheatsheet_title())))
        expect(page.locator("h1").first).to_be_visible()
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/") as response:
            assert response.status == 200
        for private in (".baccarat-progress.json", "notebooks/00-how-to-use.ipynb"):
            with pytest.raises(urllib.error.HTTPError) as refused:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/voila/files/{private}")
            assert refused.value.code == 403, private
    finally:
        server.stop()


def test_baccarat_kit_lab_opens_the_first_lesson_full_width_on_a_390_px_phone(
        tmp_path: Path, browser: Any) -> None:
    """Issue 37: ``baccarat-kit lab DIR`` as a learner runs it, opened on a 390 × 844 phone. It
    opened the lesson beside the file browser, which took the width (the notebook 62 px wide, its
    text 22 px); now the course's own JupyterLab workspace (``course.first_layout``) starts with
    the side bars closed: the lesson takes the width, the file browser one click away. No news
    pop-up greets her (issue 44): the kit turns its plugin off (``course.LAB_CONFIG``)."""
    import secrets
    import sys

    from baccarat_kit import course
    from conftest import Server, free_port, isolated_env

    home, dest, port, token = tmp_path / "home", tmp_path / "my-course", free_port(), secrets.token_hex(16)
    cmd = [sys.executable, "-c", "from baccarat_kit.cli import main; raise SystemExit(main())",
           "lab", str(dest), "--port", str(port), "--no-browser", f"--IdentityProvider.token={token}",
           "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate"]
    env = isolated_env(home)
    # Not the harness's own switch for the news pop-up (every other browser test's): the kit's.
    (home / "config" / "labconfig" / "page_config.json").unlink()
    server = Server("baccarat-kit lab", cmd, env, tmp_path, tmp_path / "lab.log")
    context = browser.new_context(viewport=PHONE, locale="zh-TW")
    try:
        server.wait_http(f"http://127.0.0.1:{port}/api/status?token={token}")
        assert list((dest / course.LAB_WORKSPACES).glob("*.jupyterlab-workspace"))
        context.route("**/*", lambda route: route.continue_() if route.request.url.startswith(
            ("http://127.0.0.1", "ws://127.0.0.1", "data:", "blob:", "about:")) else route.abort())
        page = context.new_page()
        page.goto(f"http://127.0.0.1:{port}/?token={token}")  # → the first lesson (default_url)
        panel = page.locator(NOTEBOOK)
        text = panel.locator(".jp-MarkdownOutput").first
        expect(text).to_be_visible(timeout=KERNEL_START_MS)
        expect(page.locator(".lm-TabBar-tabLabel", has_text="00-how-to-use.ipynb")).to_have_count(1)
        page.wait_for_function(  # the layout settles (the side bars are restored after the page loads)
            """min => { const p = document.querySelector('.jp-NotebookPanel:not(.lm-mod-hidden)');
                        return !!p && p.getBoundingClientRect().width >= min; }""",
            arg=0.88 * PHONE["width"])
        width = panel.bounding_box()["width"]
        assert width >= 0.88 * PHONE["width"], width  # 89 %: the left activity bar stays
        assert text.bounding_box()["width"] >= 250  # the lesson's text (it was 22 px)
        assert page.locator("#jp-left-stack").evaluate("e => e.getBoundingClientRect().width") == 0
        # no "Jupyter news" pop-up (issue 44): its plugin is off in the page's configuration
        # (course.LAB_CONFIG), and no notification shows once the lesson is open; without it, it did
        config = json.loads(page.locator("#jupyter-config-data").text_content())
        assert "@jupyterlab/apputils-extension:announcements" in config["disabledExtensions"]
        expect(page.locator(".Toastify__toast")).to_have_count(0)
        # the file browser is one click away, on the left activity bar
        page.locator(".jp-SideBar.jp-mod-left .lm-TabBar-tab[data-id='filebrowser']").click()
        expect(page.locator(".jp-FileBrowser .jp-DirListing-item", has_text="00-how-to-use.ipynb")).to_be_visible()
    finally:
        context.close()
        server.stop()
