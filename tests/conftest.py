"""What every test shares: the ``sandbox`` marker, and how ``make test`` spreads the tests over
two pytest-xdist workers (``-n 2 --dist loadgroup``).

- ``@pytest.mark.sandbox``: the test grades learner code for real, in bubblewrap. Without a
  working bubblewrap it is skipped with the reason (``apt-get install bubblewrap``); with
  ``REQUIRE_BWRAP=1`` (``.ci/run`` sets it) it runs, and fails.
- Workers: every test file is one ``xdist_group`` (its module-scoped fixtures, a graded batch or
  a built wheel, are made once, on one worker), and every browser test is in the one group
  ``browser`` (one JupyterLab server, one Chromium, never two browser servers at once). A test
  that sets its own ``xdist_group`` keeps it.
"""

from __future__ import annotations

import functools
import os
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
BROWSER = HERE / "browser"


def require_bwrap() -> bool:
    """Whether a test that needs bubblewrap must fail, not skip, without it (``REQUIRE_BWRAP=1``)."""
    return os.environ.get("REQUIRE_BWRAP", "").strip().lower() in {"1", "true", "yes", "on"}


@functools.cache
def bwrap_missing() -> str | None:
    """Why no sandbox can be made here (None: bubblewrap works)."""
    from baccarat_kit.grading import bwrap

    try:
        bwrap.check()
    except bwrap.SandboxMissing as err:
        return str(err)
    return None


def xdist_group(item: pytest.Item) -> str:
    path = Path(str(item.path)).resolve()
    if BROWSER == path or BROWSER in path.parents:
        return "browser"
    try:
        return path.relative_to(HERE.parent).as_posix()
    except ValueError:
        return path.as_posix()


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist reads the groups
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if item.get_closest_marker("sandbox") and not require_bwrap():
            reason = bwrap_missing()
            if reason is not None:
                item.add_marker(pytest.mark.skip(reason=f"needs bubblewrap: {reason}"))
        if item.get_closest_marker("xdist_group") is None:
            item.add_marker(pytest.mark.xdist_group(xdist_group(item)))
