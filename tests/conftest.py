"""What every test shares: its own progress record (see ../conftest.py), the ``sandbox`` marker,
the ``fast_loop`` fixture (``make test-fast``: long samplings run smaller), Hypothesis's profile
(no deadline on a loaded machine), and how ``make test``
spreads the tests over two pytest-xdist workers (``-n 2 --dist loadfile``).

- ``@pytest.mark.sandbox``: the test grades learner code for real, in bubblewrap. Without a
  working bubblewrap it is skipped with the reason (``apt-get install bubblewrap``); with
  ``REQUIRE_BWRAP=1`` (``.ci/run`` sets it) it runs, and fails.
- ``@pytest.mark.sources``: the test compares the course's quotations with the source pages,
  found as the kit finds them (:func:`baccarat_kit.sources.find`: ``$BACCARAT_KIT_SOURCES``, else
  ``shared/seeds`` beside the checkout); the fixture ``source_pages`` gives them. Where they are
  not found, the run's header says so and where it looked, and each such test is skipped with
  that reason; with ``REQUIRE_SOURCES=1``, or ``$BACCARAT_KIT_SOURCES`` naming a folder without
  them, it runs, and fails.
- Workers (``make test``: ``-n 2 --dist loadfile``): every test file is one unit of work, on one
  worker (its module-scoped fixtures, a graded batch or a built wheel, are made once), and all
  browser tests are one unit (one JupyterLab server, one Chromium; two browsers at once, the hub's
  beside the others, made both a third slower on the 2 cores): :func:`pytest_xdist_make_scheduler`.
  (Not ``xdist_group`` marks: pytest-xdist 3.8's ``loadgroup`` renames node ids in a way pytest 9
  ignores, so its groups are lost.)
- The longest units start first (:data:`UNIT_SECONDS`, :func:`pytest_collection_modifyitems`):
  a worker takes its next unit when it is almost done with its last, so a long unit started
  late (the browser tests once ran last, alone, for seven minutes) is what decides the run's time.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

# Property tests judge the engine, not the machine: no per-example deadline and no "too slow"
# health check (both fail on a loaded CI runner or beside make test's other workers). The
# examples stay random, so a run may find a new counterexample (Hypothesis prints how to
# reproduce it, and keeps it in .hypothesis/).
settings.register_profile("baccarat-kit", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "baccarat-kit"))


def require_bwrap() -> bool:
    """Whether a test that needs bubblewrap must fail, not skip, without it (``REQUIRE_BWRAP=1``)."""
    return os.environ.get("REQUIRE_BWRAP", "").strip().lower() in {"1", "true", "yes", "on"}


@pytest.fixture(scope="session")
def fast_loop() -> bool:
    """Whether this run is ``make test-fast`` (``BACCARAT_KIT_TEST_FAST=1``): its long samplings
    then run smaller; ``make test`` runs them whole."""
    return os.environ.get("BACCARAT_KIT_TEST_FAST", "").strip().lower() in {"1", "true", "yes", "on"}


def require_sources() -> bool:
    """Whether a test that needs the source pages must fail, not skip, without them (``REQUIRE_SOURCES=1``)."""
    return os.environ.get("REQUIRE_SOURCES", "").strip().lower() in {"1", "true", "yes", "on"}


def sources_missing() -> str | None:
    """Why the source pages cannot be read here (None: they are found)."""
    from baccarat_kit import sources

    if sources.find() is not None:
        return None
    return (f"the source pages (000_*.txt …) are not found (looked in {sources.where_looked()}): "
            f"set {sources.ENV}=FOLDER to check the course's quotations")


def sources_named() -> bool:
    """``$BACCARAT_KIT_SOURCES`` is set: the pages must be there (a wrong folder fails, never skips)."""
    from baccarat_kit import sources

    return bool(os.environ.get(sources.ENV, "").strip())


def pytest_report_header(config: pytest.Config) -> str:
    from baccarat_kit import sources

    pages = sources.find()
    if pages is not None:
        return f"source pages: {pages.folder} (the quotation checks run)"
    return f"source pages: NOT FOUND, the quotation checks are skipped: {sources_missing()}"


@pytest.fixture(scope="session")
def source_pages() -> object:
    """The source pages (:class:`baccarat_kit.sources.Pages`); a test that uses it is marked
    ``sources`` (skipped, with the reason, where the pages are not found)."""
    from baccarat_kit import sources

    pages = sources.find()
    if pages is None:
        pytest.fail(sources_missing() or "")  # (REQUIRE_SOURCES=1, or the variable naming a wrong folder)
    return pages


@functools.cache
def bwrap_missing() -> str | None:
    """Why no sandbox can be made here (None: bubblewrap works)."""
    from baccarat_kit.grading.sandbox import bwrap

    try:
        bwrap.check()
    except bwrap.SandboxMissing as err:
        return str(err)
    return None


def work_unit(nodeid: str) -> str:
    """The unit of work a test belongs to: ``browser`` for every browser test, else its file
    (tests/test_work_units.py; not a doctest: ``--doctest-modules`` would import this file as
    ``conftest`` beside tests/browser/conftest.py)."""
    path = nodeid.split("::", 1)[0]
    return "browser" if path.startswith("tests/browser/") else path


UNIT_SECONDS = {
    "browser": 440, "tests/test_grading_absent.py": 550, "tests/test_grading_dask.py": 80,
    "tests/test_packaging.py": 45, "tests/test_grading_grade.py": 45, "tests/test_grading_keys.py": 30,
    "tests/test_grading_term_secret.py": 30,
    "tests/test_grading_sandbox.py": 25, "tests/test_grading_attacks.py": 20,
    "tests/test_course.py": 15, "tests/test_grading_term.py": 15,
    "tests/test_odds.py": 15, "tests/test_grading_hostile.py": 14, "tests/test_hub_accounts.py": 10,
    "tests/test_report.py": 9, "tests/test_misconceptions.py": 7,
}
"""Roughly how long the longest units take in ``make test`` on these 2-core machines (seconds,
from ``--durations=0``). Only their order matters: any other unit counts 0.05 s a test, and a
unit run in part (``make test-fast`` leaves out the slow tests) only starts earlier than needed."""


def unit_cost(unit: str, tests: int) -> float:
    return UNIT_SECONDS.get(unit, 0.05 * tests)


def longest_first(nodeids: list[str]) -> list[int]:
    """The order to run tests in: whole units, the longest first (:func:`unit_cost`), each unit's
    tests in their own order (its module fixtures are made once)."""
    units: dict[str, list[int]] = {}
    for index, nodeid in enumerate(nodeids):
        units.setdefault(work_unit(nodeid), []).append(index)
    ranked = sorted(units.items(), key=lambda kv: -unit_cost(kv[0], len(kv[1])))  # (stable: ties keep their order)
    return [index for _, indices in ranked for index in indices]


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    no_pages = None if require_sources() or sources_named() else sources_missing()
    for item in items:
        if item.get_closest_marker("sandbox") and not require_bwrap():
            reason = bwrap_missing()
            if reason is not None:
                item.add_marker(pytest.mark.skip(reason=f"needs bubblewrap: {reason}"))
        if no_pages is not None and ("source_pages" in getattr(item, "fixturenames", ())
                                     or item.get_closest_marker("sources")):
            item.add_marker(pytest.mark.skip(reason=no_pages))
    items[:] = [items[i] for i in longest_first([item.nodeid for item in items])]


@pytest.hookimpl(optionalhook=True)  # (a hook of pytest-xdist: unknown with -p no:xdist)
def pytest_xdist_make_scheduler(config: pytest.Config, log: object) -> object:
    """With ``--dist loadfile``: whole units (:func:`work_unit`) to a worker, in the order of the
    collection (:func:`longest_first`)."""
    if config.getvalue("dist") != "loadfile":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class ByFileBrowserTogether(LoadScopeScheduling):  # type: ignore[misc]
        def _split_scope(self, nodeid: str) -> str:
            return work_unit(nodeid)

    config.option.loadscopereorder = False  # (xdist's own order: the units with the most tests first)
    return ByFileBrowserTogether(config, log)


@pytest.fixture(autouse=True)
def _own_progress_record(monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("progress")
    monkeypatch.setenv("BACCARAT_KIT_PROGRESS", str(folder))
    return folder


@pytest.fixture(autouse=True)
def _language_as_it_was() -> Iterator[None]:
    """Each test starts in the default language and leaves it so: a ``bk.set_language("en")`` in
    one test must not change what a later test in the same worker prints (the order of the
    tests is the longest units first, not the files' order)."""
    from baccarat_kit import i18n

    saved = i18n._current
    i18n._current = None
    yield
    i18n._current = saved
