"""Every link between the project's Markdown documents reaches its file, and its ``#anchor`` a
heading of that file, as GitHub names headings (issue 41: docs/grading.md split in two; a
section that moves must not leave a link behind).

Links written as ``https://github.com/baccarat-kit/baccarat-kit/blob/main/PATH#anchor`` (the
README's, which PyPI shows) are checked against the checkout's PATH the same way.
"""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import unquote

import pytest

ROOT = Path(__file__).resolve().parents[1]
REPO_URL = "https://github.com/baccarat-kit/baccarat-kit/blob/main/"
LINK = re.compile(r"(?<!!)\[(?:[^\]\[]|\[[^\]]*\])*\]\(([^)\s]+)\)")
FENCE = re.compile(r"^(```|~~~)")


def documents() -> list[Path]:
    return sorted({*ROOT.glob("*.md"), *ROOT.glob("docs/*.md"), *ROOT.glob("deploy/**/*.md")})


def _prose(text: str) -> list[str]:
    """The lines of ``text`` outside fenced code blocks."""
    lines, fenced = [], False
    for line in text.splitlines():
        if FENCE.match(line.strip()):
            fenced = not fenced
            continue
        if not fenced:
            lines.append(line)
    return lines


def slug(heading: str) -> str:
    """GitHub's anchor of a heading: its text (a link's text, code without backticks), lower case,
    every character that is not a letter, digit, ``-``, ``_`` or space dropped, spaces as ``-``.

    >>> slug("A class from a term secret / 以學期密鑰發出每位學員自己的一份")
    'a-class-from-a-term-secret--以學期密鑰發出每位學員自己的一份'
    >>> slug("results.json (schema 6)"), slug("Grading past one machine / 跨機評分（Dask）")
    ('resultsjson-schema-6', 'grading-past-one-machine--跨機評分dask')
    >>> slug("文字題人工評分 · Scoring written answers by hand")
    '文字題人工評分--scoring-written-answers-by-hand'
    """
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading).replace("`", "")
    return "".join(c for c in text.strip().lower() if c.isalnum() or c in "-_ ").replace(" ", "-")


def anchors(path: Path) -> set[str]:
    """Every heading anchor of a Markdown file (a repeated heading gets ``-1``, ``-2`` …)."""
    seen: dict[str, int] = {}
    out = set()
    for line in _prose(path.read_text(encoding="utf-8")):
        m = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
        if not m:
            continue
        base = slug(m.group(1))
        n = seen.get(base, 0)
        seen[base] = n + 1
        out.add(base if n == 0 else f"{base}-{n}")
    return out


def broken_links(path: Path, root: Path = ROOT) -> list[str]:
    """The links of ``path`` whose file or heading does not exist, as ``file: link`` (``file``
    relative to ``root``, the checkout a repository URL means)."""
    broken = []
    for line in _prose(path.read_text(encoding="utf-8")):
        for target in LINK.findall(re.sub(r"`[^`]*`", "", line)):
            if target.startswith(REPO_URL):
                target_path, _, anchor = target[len(REPO_URL):].partition("#")
                file = root / unquote(target_path)
            elif re.match(r"^[a-z]+:", target):
                continue
            else:
                target_path, _, anchor = target.partition("#")
                file = (path.parent / unquote(target_path)).resolve() if target_path else path
            if not file.exists() or (anchor and file.suffix == ".md" and unquote(anchor) not in anchors(file)):
                broken.append(f"{path.relative_to(root)}: {target}")
    return broken


@pytest.mark.parametrize("doc", documents(), ids=lambda p: str(p.relative_to(ROOT)))
def test_every_link_reaches_its_file_and_heading(doc: Path) -> None:
    assert broken_links(doc) == []


def test_the_split_grading_documents_link_each_other() -> None:
    grading = (ROOT / "docs" / "grading.md").read_text(encoding="utf-8")
    threats = (ROOT / "docs" / "threat-model.md").read_text(encoding="utf-8")
    assert "](threat-model.md" in grading and "](grading.md" in threats


def test_a_moved_heading_is_caught(tmp_path: Path) -> None:
    """The check can fail: a link to a heading that is gone, or to a file that is not there."""
    (tmp_path / "a.md").write_text("# Exports / 匯出檔\n\n```\n# not a heading\n```\n", encoding="utf-8")
    (tmp_path / "b.md").write_text("[ok](a.md#exports--匯出檔) [gone](a.md#匯出檔--exports) "
                                   "[code](a.md#not-a-heading) [no file](c.md)\n", encoding="utf-8")
    assert broken_links(tmp_path / "b.md", tmp_path) == [
        "b.md: a.md#匯出檔--exports", "b.md: a.md#not-a-heading", "b.md: c.md"]
