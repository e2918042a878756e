"""The browser tests say what to install (issue 37): run alone without ``make axe-deps``, the
accessibility tests are skipped, before any server or browser starts, with that command named;
with ``REQUIRE_BROWSER=1`` (CI) the skip is a failure naming it."""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
AXE_TEST = "tests/browser/test_lab_mastery.py::test_trainer_has_no_wcag_violations_and_fits_390_px"


def _browser_conftest():
    spec = importlib.util.spec_from_file_location("_browser_conftest", REPO / "tests/browser/conftest.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _run(tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    environ = {k: v for k, v in os.environ.items() if k != "REQUIRE_BROWSER"}
    environ |= {"BACCARAT_KIT_AXE": str(tmp_path / "no-axe" / "axe.min.js"), **env}
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:xdist", "-rs", "-q", AXE_TEST,
         f"--basetemp={tmp_path / 'inner'}"],
        cwd=REPO, env=environ, capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize("require", ["", "1"])
def test_without_axe_the_accessibility_tests_name_make_axe_deps(tmp_path: Path, require: str) -> None:
    conftest = _browser_conftest()
    other = conftest.missing_browser_parts()
    if other is not None:
        pytest.skip(f"the browser tests skip here for another reason first: {other}")
    run = _run(tmp_path, **({"REQUIRE_BROWSER": require} if require else {}))
    out = run.stdout + run.stderr
    assert "make axe-deps" in out, out
    if require:
        assert run.returncode == 1 and re.search(r"\b1 (failed|error)\b", out), out
    else:
        assert run.returncode == 0 and "1 skipped" in out, out
    # Skipped at collection: no Voilà was started for it.
    assert not (tmp_path / "inner").exists() or not list((tmp_path / "inner").glob("voila-home*")), out
