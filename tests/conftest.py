"""Each test keeps the learner's progress record in its own folder (see ../conftest.py)."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def _own_progress_record(monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("progress")
    monkeypatch.setenv("BACCARAT_KIT_PROGRESS", str(folder))
    return folder
