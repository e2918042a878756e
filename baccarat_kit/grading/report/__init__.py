"""What the instructor and the learners read: feedback pages and the class report.

* :mod:`.feedback`: one learner's page per graded submission (``feedback/NAME.html``);
* :mod:`.classreport`: ``baccarat-kit report GRADED_DIR``, one page on the whole class.
"""

from __future__ import annotations

from ..records import visible
from .classreport import (
    ClassReport,
    ReportError,
    build_report,
    default_out,
    fmt,
    heading_id,
    lesson_href,
    lesson_links,
    load_results,
    notebook_headings,
    render_html,
    write_report,
)

__all__ = [
    "ClassReport", "ReportError", "build_report", "default_out", "fmt", "heading_id", "lesson_href",
    "lesson_links", "load_results", "notebook_headings", "render_html", "visible", "write_report",
]
