"""Widgets for the lessons: thin views over the engine (needs the ``widgets`` extra).

``bk.widgets.HandBuilder``, ``RuleChecker``, ``CaseViewer`` and ``Quiz`` are ipywidgets
``VBox`` containers; every control and output is an attribute, and each carries the CSS
class of the contract in ``docs/architecture.md`` (see ``docs/widgets.md``).

>>> import baccarat_kit as bk
>>> hb = bk.widgets.HandBuilder("4 4 4 5 7", lang="en")     # BCR-008
>>> hb.winner.value
'<b>Result: player 8, banker 9: banker wins.</b>'
"""

from __future__ import annotations

from . import _pyodide
from ._common import plain_text
from .case_viewer import CaseCard, CaseViewer, case_card
from .course_map import CourseMap
from .drill import Drill
from .final_test import FinalTest
from .hand_builder import HandBuilder
from .predict import Predict
from .question_sets import lesson_names, lesson_questions
from .quiz import Option, Question, Quiz, banker_misconception, load_questions
from .rule_checker import RuleChecker
from .shoe_tracker import ShoeTracker
from .today import TodayView

_pyodide.install()  # JupyterLite: a widget's None reaches the page (see _pyodide)

__all__ = [
    "CaseCard",
    "CaseViewer",
    "CourseMap",
    "Drill",
    "FinalTest",
    "HandBuilder",
    "Option",
    "Predict",
    "Question",
    "Quiz",
    "RuleChecker",
    "ShoeTracker",
    "TodayView",
    "banker_misconception",
    "case_card",
    "lesson_names",
    "lesson_questions",
    "load_questions",
    "plain_text",
]
