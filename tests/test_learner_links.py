"""Every link of every lesson, exercise and the trainer resolves in the learner's copy of the
course (``baccarat-kit course DIR``: what make lab, pip and JupyterLite give), issue 22."""

from __future__ import annotations

import json
import re
from pathlib import Path
from urllib.parse import unquote

from baccarat_kit import course

LINK = re.compile(r"\]\(([^)\s]+)\)|href=\"([^\"]+)\"")


def test_every_relative_link_in_the_learners_copy_resolves(tmp_path: Path) -> None:
    report = course.install(tmp_path / "course")
    root = tmp_path / "course"
    assert (root / "docs" / "glossary.md").exists() and (root / "docs" / "cheat-sheet.html").exists()
    broken, seen = [], 0
    for nb_path in sorted(root.rglob("*.ipynb")):
        nb = json.loads(nb_path.read_text(encoding="utf-8"))
        for cell in nb["cells"]:
            if cell["cell_type"] != "markdown":
                continue
            text = cell["source"] if isinstance(cell["source"], str) else "".join(cell["source"])
            for m in LINK.finditer(text):
                target = unquote((m.group(1) or m.group(2)).split("#")[0])
                if not target or re.match(r"^[a-z]+:", target):
                    continue
                seen += 1
                if not (nb_path.parent / target).exists():
                    broken.append(f"{nb_path.relative_to(root)}: {target}")
    assert seen > 100 and broken == [], broken
    assert report.first_lesson


def test_the_cheat_sheet_is_up_to_date_and_drawn_from_the_engine() -> None:
    import baccarat_kit as bk
    from baccarat_kit.cheatsheet import html_page

    committed = (Path(__file__).resolve().parents[1] / "docs" / "cheat-sheet.html").read_text(encoding="utf-8")
    assert committed == html_page(), "run `baccarat-kit cheatsheet` (docs/cheat-sheet.html is out of date)"
    cells = re.findall(r'<td class="bk-(draw|stand)">', committed)
    assert cells == ["draw" if bk.banker_draws(t, v) else "stand" for t in range(8) for v in range(10)]
    assert "速查表" in committed and "one page" in committed
