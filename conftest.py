"""Every test run (the library tests and the nbval runs of the notebooks) keeps the learner's
progress record in a folder of its own, so no test reads or writes a learner's real record and
the notebooks' stored outputs show the empty state (issue 22)."""

from __future__ import annotations

import os
import shutil
import tempfile

_made: str | None = None
"""The folder this process made (pytest-xdist's workers inherit the controller's and keep it)."""


def pytest_configure(config: object) -> None:
    global _made
    if not os.environ.get("BACCARAT_KIT_PROGRESS"):
        os.environ["BACCARAT_KIT_PROGRESS"] = _made = tempfile.mkdtemp(prefix="bk-progress-")


def pytest_unconfigure(config: object) -> None:
    global _made
    if _made is not None:  # the folder goes with the run that made it
        shutil.rmtree(_made, ignore_errors=True)
        os.environ.pop("BACCARAT_KIT_PROGRESS", None)
        _made = None


# The optional compiled kernels of bk.simulate and bk.exact_odds import numba at their tops (the
# [fast] extra); where numba is not installed, pytest --doctest-modules must not import them (their
# tests skip then).
# The two conftest.py files of tests/ share a basename: --doctest-modules must not import them as
# test modules (pytest loads them as conftests all the same).
# baccarat_kit/hub/jupyter.py holds no doctest and imports JupyterHub (2 CPU-s in each pytest
# worker): tests/test_hub_accounts.py and the hub's browser test import it.
collect_ignore = ["tests/conftest.py", "tests/browser/conftest.py", "baccarat_kit/hub/jupyter.py"]
try:
    import numba  # noqa: F401
except ImportError:
    collect_ignore += ["baccarat_kit/_sim_kernel.py", "baccarat_kit/_exact_kernel.py"]
