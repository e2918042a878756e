"""The trainer notebook (``make trainer``) runs without error, without a browser.

The browser test (``tests/browser/test_trainer_voila.py``) drives it in Voilà; this one proves,
even where Chromium is missing, that every cell runs in this environment and that it displays
the today view (near the top), the hand builder, the rule checker, the quiz and the drill.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")
pytest.importorskip("ipywidgets")

TRAINER = Path(__file__).resolve().parents[1] / "trainer" / "trainer.ipynb"
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


def test_trainer_runs_and_shows_its_widgets(tmp_path, monkeypatch):
    # A python3 kernelspec for this interpreter, ahead of any other on the machine.
    kernel = tmp_path / "kernels" / "python3"
    kernel.mkdir(parents=True)
    (kernel / "kernel.json").write_text(json.dumps({
        "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": "Python 3 (ipykernel)", "language": "python",
    }))
    monkeypatch.setenv("JUPYTER_PATH", str(tmp_path))
    monkeypatch.setenv("MPLCONFIGDIR", str(tmp_path / "mpl"))
    monkeypatch.setenv("IPYTHONDIR", str(tmp_path / "ipython"))
    nb = nbformat.read(TRAINER, as_version=4)
    # (nbclient's waits for a cell, the kernel's start and, after each cell, its output: 120, 60 and 4 s
    # unless told, which a loaded machine can pass; each ends as soon as what it waits for comes)
    nbclient.NotebookClient(nb, timeout=600, kernel_name="python3", startup_timeout=600, iopub_timeout=120,
                            resources={"metadata": {"path": str(TRAINER.parent)}}).execute()
    shown = [cell for cell in nb.cells if cell.cell_type == "code"
             and any(WIDGET_VIEW in out.get("data", {}) for out in cell.outputs)]
    assert len(shown) == 5
    reprs = [out["data"]["text/plain"] for cell in shown for out in cell.outputs
             if "data" in out]
    assert [r.split("(")[0] for r in reprs] == ["TodayView", "HandBuilder", "RuleChecker", "Quiz", "Drill"]
    errors = [out for cell in nb.cells if cell.cell_type == "code" for out in cell.outputs
              if out.output_type == "error"]
    assert errors == []
