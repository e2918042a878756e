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


NBVAL_OUTPUT_WAIT_S = 120.0
"""How long nbval waits for each of a cell's output messages after the kernel's reply (nbval's
own 5 s, which it offers no option for, fails the cell where a loaded machine delays the
kernel's output thread; a wait ends as soon as the message comes)."""


def pytest_collection_modifyitems(config: object, items: list[object]) -> None:
    for item in items:
        if hasattr(item, "output_timeout") and type(item).__module__.startswith("nbval"):
            item.output_timeout = NBVAL_OUTPUT_WAIT_S
