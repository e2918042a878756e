"""Issue 42: a failed final test stays failed. Lesson 10 in Voilà, as a learner takes it: 4 of 12
right ("not passed"), then "New test" draws new items as attempt 2 while attempt 1's 4 / 12 stays,
both on the page and in the saved record; running the lesson again in the middle of attempt 2
brings attempt 2 back with its answer; attempt 2 passed, the record keeps both attempts and
``baccarat-kit progress`` ticks the test.

Before, "Start again" (重新開始) let the same 12 questions be answered from the feedback: 12 / 12,
passed, one attempt in the record, the 4 / 12 gone.

The questions are the kit's: this process builds the same :class:`FinalTest` from the same
record the Voilà kernel reads (see tests/browser/test_final_test_keyboard.py), so it knows which
option is right and which items attempt 2 must show.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("playwright")
from playwright.sync_api import expect

from baccarat_kit import course, progress
from baccarat_kit.i18n import message
from conftest import KERNEL_START_MS

pytestmark = pytest.mark.browser

FINAL = ".bk-final-test"
LESSON_10 = "notebooks/10-summary.ipynb"
LANG = "zh"


@pytest.fixture
def course_site(voila: Any, tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """A learner's course copy of its own, served by Voilà: (base URL, course folder)."""
    dest = tmp_path / "course"
    course.install(dest)
    with voila(dest) as url:
        yield url, dest


def saved_final(path: Path, until: Any, timeout: float = 60.0) -> dict[str, Any]:
    """The record's final-test part once ``until(final)`` holds (the kernel writes the record as
    it handles an answer, after it sends the feedback)."""
    deadline = time.monotonic() + timeout
    while True:
        final = json.loads(path.read_text(encoding="utf-8")).get("final", {}) if path.exists() else {}
        if until(final):
            return final
        assert time.monotonic() < deadline, final
        time.sleep(0.2)


def kept(final: dict[str, Any]) -> list[tuple[int, int]]:
    return [(a["attempt"], a["right"]) for a in progress.final_attempts(final)]


def answer(final: Any, test: Any, i: int, right: bool) -> None:
    """Answer question ``i`` of ``test`` (shown in ``final``) by clicking: the right option or
    the one after it; wait for the verdict."""
    q = test.questions[i]
    labels = [f"{chr(ord('A') + pos)}. {q.options[k].text[LANG]}" for pos, k in enumerate(test.orders[i])]
    expect(final.locator(".bk-quiz-prompt")).to_have_text(q.prompt[LANG])
    expect(final.locator(".bk-quiz-options .widget-radio-box label")).to_have_text(labels)
    radios = final.locator(".bk-quiz-options input[type=radio]")
    expect(radios.first).to_be_enabled()
    position = test.orders[i].index(q.answer)
    radios.nth(position if right else (position + 1) % len(labels)).check()
    final.locator(".bk-quiz-submit").click()
    expect(final.locator(f".bk-quiz-feedback {'.bk-right' if right else '.bk-wrong'}")).to_have_count(1)
    expect(radios.first).to_be_disabled()  # answered: locked


def test_a_failed_final_test_is_kept_and_a_retake_draws_new_items(
        course_site: tuple[str, Path], page: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    base, dest = course_site
    record_path = dest / progress.FILENAME
    monkeypatch.setenv(progress.PROGRESS_ENV, str(record_path))
    from baccarat_kit.widgets import FinalTest

    first = FinalTest(lang=LANG)  # what the kernel draws from this (empty) record
    assert first.attempt == 1
    page.goto(f"{base}voila/render/{LESSON_10}", wait_until="domcontentloaded")
    final = page.locator(FINAL)
    expect(final.locator(".bk-quiz-options input[type=radio]").first).to_be_visible(timeout=KERNEL_START_MS)
    expect(final.locator(".bk-quiz-reset, .bk-quiz-redo, .bk-quiz-hint-button")).to_have_count(0)
    new_test = final.locator(".bk-final-new")
    expect(new_test).to_be_disabled()

    # ---- attempt 1: 4 of 12 right, not passed; each feedback shows the right letter
    for i in range(12):
        answer(final, first, i, right=i >= 8)
        if i < 11:
            final.locator(".bk-quiz-next").click()
    summary = final.locator(".bk-final-summary")
    expect(summary).to_contain_text(message("widgets.final.score", LANG, right=4, total=12, attempt=1))
    expect(summary).to_contain_text(message("widgets.final.not-passed", LANG, pass_mark=10, total=12))
    saved = saved_final(record_path, lambda f: progress.final_attempts(f))
    assert kept(saved) == [(1, 4)] and "open" not in saved

    # back to a missed question: its answer is locked, the first one stands
    final.locator(".bk-quiz-prev").click()
    expect(final.locator(".bk-quiz-options input[type=radio]").first).to_be_disabled()

    # ---- "New test": new items, attempt 2; attempt 1 kept on the page and in the record
    second = FinalTest(lang=LANG)  # the same record the kernel reads now
    assert second.attempt == 2
    assert not {i.id for i in first.items} & {i.id for i in second.items}
    expect(new_test).to_be_enabled()
    new_test.click()
    expect(final.locator(".bk-quiz-prompt")).to_have_text(second.questions[0].prompt[LANG])
    expect(final.locator(".bk-quiz-progress")).to_have_text(
        message("widgets.quiz.progress", LANG, number=1, total=12))
    expect(summary).to_have_text("")
    expect(final.locator(".bk-final-attempts")).to_contain_text(
        message("widgets.final.attempt-not-passed", LANG, attempt=1, right=4, total=12))
    answer(final, second, 0, right=True)
    saved = saved_final(record_path, lambda f: "open" in f)
    assert kept(saved) == [(1, 4)] and saved["open"]["attempt"] == 2 and len(saved["open"]["answers"]) == 1

    # ---- the lesson run again in the middle of attempt 2: the same attempt, its answer kept
    page.goto(f"{base}voila/render/{LESSON_10}", wait_until="domcontentloaded")
    final = page.locator(FINAL)
    expect(final.locator(".bk-quiz-prompt")).to_have_text(second.questions[1].prompt[LANG], timeout=KERNEL_START_MS)
    expect(final.locator(".bk-final-attempts")).to_contain_text(
        message("widgets.final.resumed", LANG, attempt=2, answered=1))
    for i in range(1, 12):
        answer(final, second, i, right=True)
        if i < 11:
            final.locator(".bk-quiz-next").click()
    summary = final.locator(".bk-final-summary")
    expect(summary).to_contain_text(message("widgets.final.score", LANG, right=12, total=12, attempt=2))
    expect(final.locator(".bk-final-attempts")).to_contain_text(
        message("widgets.final.attempt-passed", LANG, attempt=2, right=12, total=12))
    saved = saved_final(record_path, lambda f: len(progress.final_attempts(f)) == 2)
    assert kept(saved) == [(1, 4), (2, 12)]

    # the course map as `baccarat-kit progress` prints it: ticked, both attempts counted
    shown = subprocess.run([sys.executable, "-m", "baccarat_kit.cli", "--lang", "en", "progress"],
                           capture_output=True, text=True, check=True, timeout=120,
                           env={**os.environ, progress.PROGRESS_ENV: str(record_path)}).stdout
    assert "✔ Final test: best 12 / 12, latest 12 / 12 (2 attempt(s)" in shown, shown
