"""Retake the README's screenshots of the widgets and the class report (``docs/screenshots/*.png``).

Runs the browser tests with ``BK_SCREENSHOTS=docs/screenshots``: each test saves the widget
it drove, after the interaction, exactly as Chromium rendered it for the learner, and the
report test saves the report of the generated test class (``report.png``, ``report-grid.png``),
the drill-map test lesson 04's map of a replayed learner's leech and slow row
(``drill-map-leech-slow.png``).
Chinese text needs a CJK font (Debian: ``fonts-noto-cjk``).

    .venv/bin/python tests/browser/take_screenshots.py      # or: make screenshots
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
FOLDER = REPO / "docs" / "screenshots"


def main() -> int:
    env = dict(os.environ, BK_SCREENSHOTS=str(FOLDER), REQUIRE_BROWSER="1")
    basetemp = REPO / ".pytest-tmp" / "screenshots"
    basetemp.parent.mkdir(parents=True, exist_ok=True)
    tests = REPO / "tests" / "browser"
    cmd = [
        sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", f"--basetemp={basetemp}",
        str(tests / "test_lab_widgets.py"), str(tests / "test_trainer_voila.py"),
        str(tests / "test_class_report.py"), str(tests / "test_drill_map.py"),
    ]
    code = subprocess.call(cmd, cwd=REPO, env=env)
    if code == 0:
        print(f"screenshots in {FOLDER.relative_to(REPO)}/:")
        for png in sorted(FOLDER.glob("*.png")):
            print(f"  {png.name}")
    return code


if __name__ == "__main__":
    raise SystemExit(main())
