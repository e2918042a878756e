"""Every link to a lesson heading resolves in its own edition (issue 22): the English edition's
links point to English headings, the Chinese edition's to Chinese ones.

A heading's anchor is the one JupyterLab gives it: the heading's text with each space turned
into ``-`` (``heading_id``, the rule the class report uses too).
"""

from __future__ import annotations

import html
import json
import re
import tomllib
from pathlib import Path
from urllib.parse import unquote

import pytest

from baccarat_kit.grading.report.classreport import heading_id, notebook_headings

ROOT = Path(__file__).resolve().parents[1]
EDITIONS = {"zh": ROOT / "notebooks", "en": ROOT / "notebooks" / "en"}
LINK = re.compile(r"\]\(([^)\s]+)\)|href=\"([^\"]+)\"")
MISCONCEPTIONS = ROOT / "baccarat_kit" / "data" / "misconceptions.toml"


def _course_notebooks() -> list[Path]:
    found = [*EDITIONS["zh"].glob("*.ipynb"), *EDITIONS["en"].glob("*.ipynb"),
             *(ROOT / "exercises").glob("*.ipynb"), *(ROOT / "exercises" / "en").glob("*.ipynb"),
             *(ROOT / "trainer").glob("*.ipynb")]
    return sorted(found)


def _anchored_links(nb_path: Path) -> list[tuple[Path, str, str]]:
    """(target notebook, anchor, link) of every Markdown link with a ``#heading`` to a notebook."""
    nb = json.loads(nb_path.read_text(encoding="utf-8"))
    out = []
    for cell in nb["cells"]:
        if cell["cell_type"] != "markdown":
            continue
        text = cell["source"] if isinstance(cell["source"], str) else "".join(cell["source"])
        for m in LINK.finditer(text):
            link = m.group(1) or m.group(2)
            if "#" not in link or re.match(r"^[a-z]+:", link):
                continue
            file, anchor = link.split("#", 1)
            target = (nb_path.parent / unquote(file)).resolve() if file else nb_path
            if target.suffix == ".ipynb":
                out.append((target, unquote(anchor), link))
    return out


def test_heading_ids_follow_jupyterlab() -> None:
    assert heading_id("## 3. Common mistakes") == "3.-Common-mistakes"
    assert heading_id("## 1. 每張牌值幾點（card value）") == "1.-每張牌值幾點（card-value）"


def test_every_anchored_link_in_a_notebook_reaches_a_heading_of_its_target() -> None:
    broken = []
    for nb_path in _course_notebooks():
        for target, anchor, link in _anchored_links(nb_path):
            if not target.is_file() or anchor not in notebook_headings(target):
                broken.append(f"{nb_path.relative_to(ROOT)}: {link}")
    assert broken == []


def test_a_broken_anchor_is_caught(tmp_path: Path) -> None:
    """The check above can fail: a link to a heading of the other edition is reported."""
    (tmp_path / "en").mkdir()
    for name, heading in (("a.ipynb", "# 1. 開始"), ("en/a.ipynb", "# 1. Start")):
        (tmp_path / name).write_text(json.dumps({"cells": [
            {"cell_type": "markdown", "source": heading + "\n\n[back](a.ipynb#1.-開始)", "metadata": {}}]}),
            encoding="utf-8")
    zh = _anchored_links(tmp_path / "a.ipynb")[0]
    en = _anchored_links(tmp_path / "en" / "a.ipynb")[0]
    assert zh[1] in notebook_headings(zh[0])
    assert en[1] not in notebook_headings(en[0]) and "1.-Start" in notebook_headings(en[0])


def _misconception_links() -> list[tuple[str, str, str]]:
    items = tomllib.loads(MISCONCEPTIONS.read_text(encoding="utf-8"))["misconception"]
    return [(item["id"], lang, item[key]) for item in items
            for lang, key in (("zh", "lesson"), ("en", "lesson_en")) if "lesson" in item]


@pytest.mark.parametrize(("mid", "lang", "link"), _misconception_links(),
                         ids=lambda v: v if isinstance(v, str) and "#" not in v else "")
def test_each_misconception_links_to_its_heading_in_both_editions(mid: str, lang: str, link: str) -> None:
    file, _, anchor = link.partition("#")
    notebook = EDITIONS[lang] / file
    assert notebook.is_file(), f"{mid}: {file} is not a lesson"
    assert anchor in notebook_headings(notebook), f"{mid}: no heading #{anchor} in {notebook.relative_to(ROOT)}"


def test_the_final_test_links_each_edition_to_its_own_headings() -> None:
    pytest.importorskip("ipywidgets")
    from baccarat_kit.widgets import FinalTest

    for lang, folder in EDITIONS.items():
        for seed in range(1, 6):
            test = FinalTest(lang=lang, seed=seed)
            for i, q in enumerate(test.questions):
                test.go(i)
                test.options.value = (q.answer + 1) % len(q.options)  # every answer wrong: every link shown
                test.check()
            hrefs = [html.unescape(h) for h in re.findall(r'<a href="([^"]+)"', test.summary.value)]
            assert hrefs, f"{lang}, seed {seed}: no link back to a lesson"
            for href in hrefs:
                file, _, anchor = href.partition("#")
                assert (folder / file).is_file(), href
                if anchor:
                    assert unquote(anchor) in notebook_headings(folder / file), f"{lang}: {href}"
