"""Stored lesson outputs are what every machine reproduces: no warnings, no local paths.

(A command's own report on stderr, as in lesson 09, is fine.)
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

NOTEBOOKS = sorted((Path(__file__).resolve().parents[1] / "notebooks").glob("*.ipynb")) + sorted(
    (Path(__file__).resolve().parents[1] / "notebooks" / "en").glob("*.ipynb"))  # the English edition


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_no_stderr_or_machine_paths_in_outputs(path: Path) -> None:
    nb = json.loads(path.read_text(encoding="utf-8"))
    for i, cell in enumerate(nb["cells"]):
        for out in cell.get("outputs", []):
            if out.get("name") == "stderr":
                text = "".join(out.get("text", ""))
                assert "Warning" not in text and "Traceback" not in text, f"{path.name} cell {i}: {text!r}"
            assert out.get("output_type") != "error", f"{path.name} cell {i}: stored error"
            text = json.dumps(out.get("data", out.get("text", "")))
            assert ".venv" not in text and "/work/" not in text, f"{path.name} cell {i}: local path"
