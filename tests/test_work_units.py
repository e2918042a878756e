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


def test_the_browser_tests_on_the_sessions_lab_are_one_unit_and_every_other_file_its_own() -> None:
    unit = _conftest().work_unit
    assert unit("tests/browser/test_lab_mastery.py::test_two_learners") == "browser"
    assert unit("tests/browser/test_class_report.py::test_x") == "browser"
    assert unit("tests/browser/test_hub.py::test_two_learners") == unit("tests/browser/test_lite.py::t") == "browser"
    assert unit("tests/test_rules.py::test_x[a::b]") == "tests/test_rules.py"
    assert unit("tests/test_hub_accounts.py::test_y") == "tests/test_hub_accounts.py"


def test_the_longest_units_run_first_each_whole_and_in_its_own_order() -> None:
    order = _conftest().longest_first
    ids = ["tests/test_a.py::t1", "tests/browser/test_lab_course.py::b1", "tests/test_grading_grade.py::g1",
           "tests/test_a.py::t2", "tests/browser/test_hub.py::h", "tests/browser/test_lab_widgets.py::b2",
           "tests/test_grading_grade.py::g2", "tests/test_many.py::m[1]", "tests/test_many.py::m[2]",
           "tests/test_many.py::m[3]"]
    assert [ids[i] for i in order(ids)] == [
        "tests/browser/test_lab_course.py::b1", "tests/browser/test_hub.py::h",  # browser
        "tests/browser/test_lab_widgets.py::b2",
        "tests/test_grading_grade.py::g1", "tests/test_grading_grade.py::g2",
        "tests/test_many.py::m[1]", "tests/test_many.py::m[2]", "tests/test_many.py::m[3]",  # 3 x 0.05 s
        "tests/test_a.py::t1", "tests/test_a.py::t2"]
    assert sorted(order(ids)) == list(range(len(ids)))
