"""How make test spreads tests over its xdist workers (tests/conftest.py's work_unit)."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType


def _conftest() -> ModuleType:
    # Loaded under a name of its own: tests/browser/conftest.py is the module "conftest" there.
    spec = importlib.util.spec_from_file_location("bk_tests_conftest", Path(__file__).with_name("conftest.py"))
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_browser_test_is_one_unit_and_every_other_file_its_own() -> None:
    unit = _conftest().work_unit
    assert unit("tests/browser/test_hub.py::test_two_learners") == "browser"
    assert unit("tests/browser/test_lite.py::test_x") == "browser"
    assert unit("tests/test_rules.py::test_x[a::b]") == "tests/test_rules.py"
    assert unit("tests/test_hub_accounts.py::test_y") == "tests/test_hub_accounts.py"
