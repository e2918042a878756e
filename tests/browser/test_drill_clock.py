"""Issue 31 in a real browser: the drill's clock starts when its prompt is on screen.

The drill is answered from the keyboard alone in JupyterLab; the record it writes shows that
the first answer was untimed and that later ones were timed from the browser's echo of the
prompt (the front end's ``jsdlink``), i.e. the widget front end really sends that echo back.
The queue line (FSRS due counts) and the kit-dealt label are what the learner reads.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

pytest.importorskip("playwright")
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def test_drill_answers_are_timed_from_the_screen(lab: Any, lab_page: Any) -> None:
    page = lab_page
    folder = lab.add_course()
    source = 'import baccarat_kit as bk\nbk.widgets.Drill(lang="en", coups=False)'
    nb = {"cells": [{"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [],
                     "source": source}],
          "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3 (ipykernel)",
                                      "language": "python"}}, "nbformat": 4, "nbformat_minor": 5}
    name = f"{folder}/notebooks/drill-clock.ipynb"
    (lab.root / name).write_text(json.dumps(nb), encoding="utf-8")
    answers = 5
    try:
        lab.open(page, name)
        lab.run_all(page, name)
        expect(page.locator(".bk-drill-queue")).to_contain_text("Schedule (FSRS)")
        expect(page.locator(".bk-drill-queue")).to_contain_text("not yet asked 106")
        box = page.locator(".bk-drill-keys input")
        box.focus()
        for n in range(answers):
            label = page.locator(".bk-drill-answers button").first.inner_text()
            key = re.search(r"\(([A-Z])\)", label)
            assert key, label
            prompt = page.locator(".bk-drill-prompt").inner_text()
            page.keyboard.press(key.group(1).lower())
            expect(page.locator(".bk-drill-prompt")).not_to_have_text(prompt)
            expect(page.locator(".bk-drill-queue")).to_contain_text(f"{n + 1} answers")
    finally:
        lab.shutdown(name)
    record = json.loads((lab.root / folder / ".baccarat-progress.json").read_text(encoding="utf-8"))
    cells = sorted(record["drill"]["cells"].values(), key=lambda e: e["step"])
    assert record["schema"] == 2 and record["drill"]["step"] == answers
    assert cells[0]["clock"] == "untimed" and "ms" not in cells[0]
    later = [e["clock"] for e in cells[1:]]
    assert later and set(later) <= {"screen", "kernel"} and "screen" in later, later
    assert all("ms" in e and "fsrs" in e for e in cells[1:])
