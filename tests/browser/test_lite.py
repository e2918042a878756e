"""The zero-install edition (issue 14): the JupyterLite site of ``make lite``, offline.

The site (``lite/_output``, built by ``make lite``; ``make test`` builds it first) is served on
loopback by a plain static server. Headless Chromium may reach nothing else: every request
to another host is aborted and recorded. The test opens lesson 00, waits for the Pyodide
kernel (its runtime and every wheel come from the site), runs all cells and uses the
HandBuilder. Measured: about 2–3 min on a loaded 2-core machine (the Pyodide kernel alone takes 60–100 s
to start: it loads ~25 wheels and compiles the interpreter).
"""

from __future__ import annotations

import contextlib
import functools
import http.server
import json
import re
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar

import pytest

import baccarat_kit as bk
from baccarat_kit.i18n import message
from conftest import ARTIFACTS, CHROMIUM, free_port, require_browser

REPO = Path(__file__).resolve().parents[2]
SITE = REPO / "lite" / "_output"
# Pyodide runs in Chromium's page: loading it and running a lesson costs the page many
# CPU-seconds, a step (a click, a key) more than in JupyterLab. Generous for a loaded machine
# (each wait ends as soon as its condition holds; see conftest.py's TIMEOUT_MS).
KERNEL_MS = 600_000
RUN_ALL_MS = 600_000
STEP_MS = 180_000


class _Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map: ClassVar[dict[str, str]] = {
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".mjs": "text/javascript", ".js": "text/javascript", ".wasm": "application/wasm",
        ".json": "application/json", ".whl": "application/octet-stream",
    }

    def log_message(self, *args: Any) -> None:  # quiet
        pass


@contextlib.contextmanager
def serve(folder: Path) -> Iterator[str]:
    port = free_port()
    handler = functools.partial(_Handler, directory=str(folder))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", port), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="module")
def site() -> Path:
    if not (SITE / "baccarat-kit-lite.json").is_file():
        reason = f"{SITE} not built: run `make lite` (make test does)"
        if require_browser():
            pytest.fail(reason)
        pytest.skip(reason)
    return SITE


def test_site_serves_pyodide_and_every_wheel_itself(site: Path) -> None:
    config = json.loads((site / "jupyter-lite.json").read_text(encoding="utf-8"))
    kernel = config["jupyter-config-data"]["litePluginSettings"][
        "@jupyterlite/pyodide-kernel-extension:kernel"]
    assert kernel["pyodideUrl"] == "./static/pyodide/pyodide.mjs"
    assert kernel["disablePyPIFallback"] is True
    lock = json.loads((site / "static/pyodide/pyodide-lock.json").read_text(encoding="utf-8"))
    for name in kernel["loadPyodideOptions"]["packages"]:
        entry = lock["packages"][name]
        assert (site / "static/pyodide" / entry["file_name"]).is_file(), name
        for dep in entry["depends"]:
            assert (site / "static/pyodide" / lock["packages"][dep]["file_name"]).is_file(), dep
    # The course, never the instructor sources; numpy lessons say so.
    meta = json.loads((site / "baccarat-kit-lite.json").read_text(encoding="utf-8"))
    files = [p.relative_to(site / "files").as_posix() for p in (site / "files").rglob("*.ipynb")]
    assert meta["first"] in files and not [f for f in files if "source" in f.split("/")]
    for rel, count in meta["needs_full_edition"].items():
        nb = json.loads((site / "files" / rel).read_text(encoding="utf-8"))
        shown = [c for c in nb["cells"] if "full-edition-only" in c["metadata"].get("tags", [])]
        assert len(shown) == count + 1, rel  # each such cell, and the note at the top
        assert all(c["cell_type"] == "markdown" and "numpy" in c["source"] for c in shown), rel


def _need_chromium() -> None:
    if not Path(CHROMIUM).exists():
        reason = f"{CHROMIUM} not found"
        if require_browser():
            pytest.fail(reason)
        pytest.skip(reason)


@contextlib.contextmanager
def lite_notebook(site: Path, browser: Any, path: str, artifact: str) -> Iterator[Any]:
    """Open ``path`` of the site offline, wait for the Pyodide kernel, Run All Cells, check
    that no cell wrote an error; yield the page. Afterwards: nothing was asked of another
    host. On failure: a screenshot and the console in ``test-artifacts/``."""
    from playwright.sync_api import expect

    blocked: list[str] = []

    def only_loopback(route: Any) -> None:
        url = route.request.url
        if url.startswith(("http://127.0.0.1", "ws://127.0.0.1", "data:", "blob:", "about:")):
            route.continue_()
        else:
            blocked.append(url)
            route.abort()

    with serve(site) as base:
        # Two fences: a proxy that does not exist for every host but loopback (so even a
        # request of JupyterLite's service worker cannot leave the machine), and routing that
        # aborts and records every non-loopback request of the page.
        context = browser.new_context(viewport={"width": 1280, "height": 1000}, locale="zh-TW",
                                      proxy={"server": "http://127.0.0.1:9",
                                             "bypass": "127.0.0.1"})
        context.route("**/*", only_loopback)
        page = context.new_page()
        page.set_default_timeout(STEP_MS)
        console: list[str] = []
        page.on("console", lambda msg: console.append(msg.text))
        try:
            page.goto(f"{base}/lab/index.html?path={path}")
            status = page.locator(".jp-StatusBar-TextItem", has_text=re.compile(r"Pyodide"))
            expect(status.first).to_have_text(re.compile(r"\| Idle$"), timeout=KERNEL_MS)

            page.locator(".lm-MenuBar-itemLabel", has_text=re.compile(r"^Run$")).click()
            page.locator(".lm-Menu-itemLabel", has_text=re.compile(r"^Run All Cells$")).click()
            page.wait_for_function(
                """() => {
                    const p = [...document.querySelectorAll(
                        '.jp-NotebookPanel:not(.lm-mod-hidden) .jp-CodeCell .jp-InputPrompt')]
                        .map(x => x.textContent.trim());
                    return p.length > 0 && p.every(t => /^\\[\\d+\\]:$/.test(t));
                }""", timeout=RUN_ALL_MS)
            # Every cell ran without an error (those needing numpy are shown, not run).
            errors = page.locator(".jp-CodeCell .jp-OutputArea-output"
                                  "[data-mime-type='application/vnd.jupyter.stderr']")
            assert errors.count() == 0, errors.all_inner_texts()
            yield page
        except BaseException:
            ARTIFACTS.mkdir(exist_ok=True)
            with contextlib.suppress(Exception):
                page.screenshot(path=str(ARTIFACTS / f"{artifact}.png"), full_page=True)
                (ARTIFACTS / f"{artifact}-console.txt").write_text(
                    "\n".join(console) + "\n\nblocked:\n" + "\n".join(blocked))
            raise
        finally:
            context.close()
    # Nothing the kernel needs was asked of another host (a blocked font or icon would show
    # here too; none is expected).
    assert not blocked, blocked


def test_lesson_00_runs_offline_and_the_hand_builder_answers(site: Path, browser: Any) -> None:
    _need_chromium()
    from playwright.sync_api import expect

    first = json.loads((site / "baccarat-kit-lite.json").read_text())["first"]
    with lite_notebook(site, browser, first, "lite-lesson-00") as page:
        # The lesson's HandBuilder, live: change the banker's second card and the
        # kernel (Pyodide, in this page) answers with the engine's result.
        root = page.locator(".bk-hand-builder").first
        sequence = root.locator(".bk-sequence input")
        cards = sequence.input_value().split()
        now = bk.play(" ".join(cards))
        expect(root.locator(".bk-totals")).to_contain_text(str(now.banker_total))
        new_b2 = "4" if cards[3] == "5" else "5"
        after = bk.play(" ".join([*cards[:3], new_b2, *cards[4:]]))
        assert after.winner != now.winner  # the change is visible
        root.locator(".bk-card-b2 select").select_option(new_b2)
        winner = [message(f"coup.result-{after.winner}", lang, player=after.player_total,
                          banker=after.banker_total) for lang in ("zh", "en")]
        expect(root.locator(".bk-winner")).to_contain_text(
            re.compile("|".join(re.escape(w) for w in winner)), timeout=STEP_MS)

        # The lesson's self-check, two questions in a row with the same letter: the second
        # starts with no letter checked and that letter answers it. (The Pyodide kernel lost
        # every None a widget sent: the first answer's letter stayed checked on question 2,
        # the kernel had none, Submit said "choose an answer first", and clicking the
        # letter again sent nothing.)
        quiz = page.locator(".bk-quiz").first
        quiz.scroll_into_view_if_needed()
        radios = quiz.locator(".bk-quiz-options input[type=radio]")
        for number in (1, 2):
            expect(quiz.locator(".bk-quiz-progress")).to_contain_text(str(number))
            expect(quiz.locator(".bk-quiz-options input[type=radio]:checked")).to_have_count(0)
            radios.first.check()
            quiz.locator(".bk-quiz-submit").click()
            expect(quiz.locator(".bk-quiz-feedback .bk-right, .bk-quiz-feedback .bk-wrong")
                   ).to_have_count(1, timeout=STEP_MS)
            if number == 1:
                quiz.locator(".bk-quiz-next").click()


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_drill_answers_keys_in_jupyterlite(site: Path, browser: Any, lang: str,
                                              tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 37: lesson 04's drill, answered from the keyboard in the browser edition. (The
    preload list left out ``fsrs``, the drill's scheduler: each key emptied the key box, the
    kernel raised ModuleNotFoundError in the callback and no feedback ever came.)"""
    _need_chromium()
    from playwright.sync_api import expect

    from baccarat_kit.widgets import Drill
    from baccarat_kit.widgets.drill import CHOICES

    # The first question is the same for every new learner (a fresh browser has no record):
    # the engine here says which it is and which key answers it right.
    monkeypatch.setenv("BACCARAT_KIT_PROGRESS", str(tmp_path))
    here = Drill(lang=lang)
    right_key = dict(CHOICES[here.item.kind])[here.item.answer]
    first_prompt = re.sub(r"<[^>]+>", "", here.prompt.value)
    lesson = "notebooks/04-banker-rule.ipynb" if lang == "zh" else "notebooks/en/04-banker-rule.ipynb"
    with lite_notebook(site, browser, lesson, f"lite-drill-{lang}") as page:
        drill = page.locator(".bk-drill").first
        drill.scroll_into_view_if_needed()
        prompt = drill.locator(".bk-drill-prompt")
        expect(prompt).to_have_text(first_prompt)
        feedback = drill.locator(".bk-drill-feedback")
        expect(feedback.locator(".bk-right, .bk-wrong")).to_have_count(0)
        box = drill.locator(".bk-drill-keys input")
        box.focus()
        page.keyboard.press(right_key.upper())
        # The kernel answered: right, the next question shown, the key box emptied.
        expect(feedback.locator(".bk-right")).to_have_count(1, timeout=STEP_MS)
        expect(prompt).not_to_have_text(first_prompt)
        expect(box).to_have_value("")
        # A second answer, by the keyboard on a button (Tab to it, Enter): feedback again.
        second = prompt.inner_text()
        button = drill.locator(".bk-drill-answers button").first
        button.focus()
        page.keyboard.press("Enter")
        expect(prompt).not_to_have_text(second, timeout=STEP_MS)
        expect(feedback.locator(".bk-right, .bk-wrong")).to_have_count(1)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_lesson_10_in_jupyterlite_has_no_wcag_violations_and_its_final_test_answers_keys(
        site: Path, browser: Any, axe: Path, lang: str, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 37, the browser edition: lesson 10 after Run All has no WCAG 2 A/AA violation
    (axe-core, in the lesson's own content: its text and its outputs, as in JupyterLab), then
    its final test answered from the keyboard (focus on the first question's options, then only
    keys: the arrows, Space, Tab, Shift+Tab, Enter) reaches the summary with the score."""
    _need_chromium()
    from playwright.sync_api import expect
    from test_final_test_keyboard import FINAL, WRONG, answer_by_keyboard
    from test_lab_mastery import _axe

    from baccarat_kit.widgets import FinalTest

    # a fresh browser has no record: the kernel draws attempt 1 with seed 0, as this does
    monkeypatch.setenv("BACCARAT_KIT_PROGRESS", str(tmp_path))
    test = FinalTest(lang=lang)
    lesson = "notebooks/10-summary.ipynb" if lang == "zh" else "notebooks/en/10-summary.ipynb"
    with lite_notebook(site, browser, lesson, f"lite-final-{lang}") as page:
        panel = ".jp-NotebookPanel:not(.lm-mod-hidden)"
        final = page.locator(f"{panel} {FINAL}")
        expect(final.locator(".bk-quiz-options input[type=radio]").first).to_be_visible(timeout=STEP_MS)
        violations = _axe(page, axe, [f"{panel} .jp-MarkdownOutput", f"{panel} .jp-OutputArea"],
                          [".jp-collapseHeadingButton"])
        assert violations == [], violations
        final.scroll_into_view_if_needed()
        final.locator(".bk-quiz-options input[type=radio]").first.focus()  # the learner reaches it
        answer_by_keyboard(page, final, test, lang)
        right = len(test.questions) - len(WRONG)
        summary = final.locator(".bk-final-summary")
        expect(summary).to_contain_text(message("widgets.final.score", lang, right=right, total=12,
                                                attempt=test.attempt))
        expect(summary).to_contain_text(message("widgets.final.passed", lang, pass_mark=10, total=12))
