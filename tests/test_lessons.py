"""The lesson notebooks agree with their sources (notebooks/src/*.py) and are committed executed.

nbval (``make test``) then runs every notebook and compares the stored outputs.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
_spec = importlib.util.spec_from_file_location("lesson_build", NOTEBOOKS / "build.py")
assert _spec and _spec.loader
build = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(build)

LESSONS = sorted(p.stem for p in (NOTEBOOKS / "src").glob("*.py"))


def test_parse_source_cells_and_tags() -> None:
    text = ('# %% [markdown]\n# # Title\n#\n# text\n\n# %%\nx = 1\n\n'
            '# %% tags=["nbval-ignore-output"]\nx\n')
    cells = build.parse_source(text)
    assert [(c["cell_type"], c["source"], c["tags"]) for c in cells] == [
        ("markdown", "# Title\n\ntext", []),
        ("code", "x = 1", []),
        ("code", "x", ["nbval-ignore-output"]),
    ]


@pytest.mark.parametrize("name", LESSONS)
def test_notebook_matches_its_source(name: str) -> None:
    assert build.check(name) == []


@pytest.mark.parametrize("name", LESSONS)
def test_notebook_is_committed_executed(name: str) -> None:
    nb = json.loads((NOTEBOOKS / f"{name}.ipynb").read_text(encoding="utf-8"))
    code = [c for c in nb["cells"] if c["cell_type"] == "code"]
    assert code, f"{name} has no code cells"
    counts = [c["execution_count"] for c in code]
    assert counts == list(range(1, len(code) + 1)), f"{name}: run it top to bottom (build.py)"
    assert not [o for c in code for o in c["outputs"] if o["output_type"] == "error"]


@pytest.mark.parametrize("name", LESSONS)
def test_notebook_imports_the_installed_kit(name: str) -> None:
    text = (NOTEBOOKS / "src" / f"{name}.py").read_text(encoding="utf-8")
    assert "import baccarat_kit as bk" in text
    assert "sys.path" not in text  # the installed package, never a copy


# The full hands the lessons deal (quoted from source 000), by case-catalogue id.
LESSON_HANDS = {
    "BCR-001": "2 3 3 4 4",
    "BCR-001-variant": "2 3 3 5 4",
    "000-SELF-2": "2 3 3 5 4",
    "BCR-002": "2 A 3 2 8",
    "BCR-004-variant": "A 2 2 3 4 3",
    "BCR-005": "A 2 2 4 5",
    "BCR-006": "2 2 4 3 2",
    "BCR-006-variant": "2 2 4 4 2",
    "BCR-008": "4 4 4 5",
    "BCR-008-variant": "4 4 4 4",
}


@pytest.mark.parametrize("case_id", sorted(LESSON_HANDS))
def test_lesson_hands_are_the_catalogue_hands(case_id: str) -> None:
    import baccarat_kit as bk

    text = LESSON_HANDS[case_id]
    sources = "".join(p.read_text(encoding="utf-8") for p in (NOTEBOOKS / "src").glob("*.py"))
    assert f'"{text}"' in sources, f"no lesson deals {case_id} ({text})"
    try:
        catalogue = bk.cases.load()
    except ImportError:  # pragma: no cover - the catalogue comes with issue 3
        pytest.skip("baccarat_kit.cases is not installed")
    assert bk.play(text).cards == catalogue[case_id].coup().cards
