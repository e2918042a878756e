"""Lesson 08 shows only the engine calls a learner could type, and its long cells a progress line
that is the same text on every machine (issue 22)."""

from __future__ import annotations

import io
import json
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "notebooks"))
import build  # noqa: E402  (notebooks/build.py)

LESSON = "08-odds-and-roads"


def _code_cells() -> list[str]:
    return [str(c["source"]) for c in build.parse_source((ROOT / "notebooks" / "src" / f"{LESSON}.py")
                                                         .read_text(encoding="utf-8")) if c["cell_type"] == "code"]


def test_lesson_08_code_cells_hold_no_plumbing() -> None:
    cells = _code_cells()
    assert cells and all("message(" not in c and "i18n" not in c for c in cells)
    loops = [c for c in cells if re.search(r"^\s*(for|while) ", c, re.MULTILINE)]
    assert loops == []
    calls = "\n".join(cells)
    for engine_call in ("bk.exact_odds(8)", "bk.simulate(", "bk.counting_analysis(", "roads.run_lengths("):
        assert engine_call in calls


def test_the_long_cells_show_a_progress_line() -> None:
    cells = _code_cells()
    for call in ("bk.simulate(shoes=5000", "bk.counting_analysis("):
        (cell,) = [c for c in cells if call in c]
        assert 'progress="text"' in cell


def test_the_progress_line_counts_and_nothing_else() -> None:
    pytest.importorskip("numpy")
    import baccarat_kit as bk
    from baccarat_kit.simulation import TextProgress, progress_bar

    assert isinstance(progress_bar(10, "text"), TextProgress)
    out = io.StringIO()
    bar = TextProgress(5, stream=out, lang="zh")
    for n in (2, 2, 1):
        bar.update(n)
    bar.close()
    assert out.getvalue() == "".join(f"\r模擬中：{d} / 5 靴" for d in (2, 4, 5)) + "\n"
    err = io.StringIO()
    real, sys.stderr = sys.stderr, err
    try:
        sim = bk.simulate(shoes=7, decks=1, seed=3, chunk=3, progress="text")
    finally:
        sys.stderr = real
    assert sim.shoes == 7
    assert err.getvalue() == "".join(f"\r{bk.i18n.message('odds.progress-shoes', done=d, total=7)}"
                                     for d in (3, 6, 7)) + "\n"


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_stored_progress_lines_are_final_counts(lang: str) -> None:
    """Issue 31: the progress is a status widget (``bk-progress``), never a stderr output
    (JupyterLab draws stderr as a pink error box); its stored state is the final count."""
    nb = json.loads(build.notebook_path(LESSON, lang).read_text(encoding="utf-8"))
    outputs = [o for c in nb["cells"] for o in c.get("outputs", [])]
    assert not [o for o in outputs if o.get("name") == "stderr"]
    shown = [o for o in outputs if "ProgressLine(" in "".join(o.get("data", {}).get("text/plain", ""))]
    assert len(shown) == 3, shown  # the simulation; the counting run's dealing and its edges
    state = nb["metadata"]["widgets"]["application/vnd.jupyter.widget-state+json"]["state"]
    lines = [m["state"]["value"] for m in state.values() if "bk-progress" in m["state"].get("_dom_classes", [])]
    assert len(lines) == 3, lines
    assert all(re.search(r"(\d+) / \1", line) and "✔" in line for line in lines), lines
    assert not any(re.search(r"\d:\d\d|it/s|/s\b", line) for line in lines)  # no times, no rates
