"""Progress records and the final test's saved page are files the learner controls: every place
that presents them says they are self-assessment, not evidence (issue 30)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from baccarat_kit.i18n import message

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize(("doc", "needles"), [
    ("README.md", ["*self-assessment* for the learner, not evidence", "自我評量，不是證據"]),
    ("docs/instructors.md", ["Progress and the final test are self-assessment, not evidence",
                             "進度與期末測驗只是自我評量"]),
    ("docs/widgets.md", ["self-assessment, not\n  evidence"]),
])
def test_the_docs_say_progress_and_the_final_page_are_no_evidence(doc: str, needles: list[str]) -> None:
    text = (ROOT / doc).read_text(encoding="utf-8")
    for needle in needles:
        assert needle in text, (doc, needle)


def test_the_saved_final_page_message_says_so_in_both_languages() -> None:
    assert re.search(r"self-assessment.*no evidence for a grade", message("widgets.final.saved", "en", path="x"))
    assert "自我評量" in message("widgets.final.saved", "zh", path="x")
