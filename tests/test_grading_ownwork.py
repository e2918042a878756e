"""Static own-work check of function answers (read in the grader's process)."""

from __future__ import annotations

import pytest

from baccarat_kit.grading.judge.ownwork import function_code, own_work

SETUP = "import baccarat_kit as bk\nLEARNER_ID = 'x'\ncheck = bk.grading.Checker('03-banker-rule')"
OWN = "def banker_draws(total, player_third):\n    if player_third is None:\n        return total <= 5\n    return total < 3"


def test_own_function_passes_and_carries_its_helpers() -> None:
    cells = [SETUP, "LOW = 3", "def helper(t):\n    return t < LOW",
             "def banker_draws(t, v):\n    return helper(t)", "%time x = 1"]
    assert own_work(cells, "banker_draws") == (True, "")
    code = function_code(cells, "banker_draws")
    assert code is not None
    assert "LOW = 3" in code and "def helper" in code and "bk" not in code and "LEARNER_ID" not in code


@pytest.mark.parametrize("cells, detail", [
    ([SETUP, "def banker_draws(t, v):\n    return bk.banker_draws(t, v)"], ".banker_draws"),
    ([SETUP, "banker_draws = bk.banker_draws"], "banker_draws = …"),
    ([SETUP, "T = bk.rules.BANKER_DRAWS_ON", "def banker_draws(t, v):\n    return v in T[t]"], ".BANKER_DRAWS_ON"),
    ([SETUP, "from baccarat_kit import banker_draws as f", "def banker_draws(t, v):\n    return f(t, v)"],
     "from baccarat_kit import banker_draws as f"),
    ([SETUP, "def banker_draws(t, v):\n    return getattr(bk, 'banker_draws')(t, v)"], "getattr"),
    ([SETUP, "def banker_draws(t, v):\n    return __import__('bacc' + 'arat_kit').banker_draws(t, v)"],
     ".banker_draws"),
    ([SETUP, "import typing\ndef banker_draws(t, v):\n    return typing.sys.modules['x'].f(t, v)"], ".modules"),
    ([SETUP, "import typing\ndef banker_draws(t, v):\n    return typing.cast(bool, t)"], "import typing"),
    ([SETUP, "from . import x\ndef banker_draws(t, v):\n    return x(t)"], "from . import x"),
    ([SETUP, "def banker_draws(t, v):\n    return ().__class__"], ".__class__"),
    ([SETUP, "def banker_draws(t, v, g=globals):\n    return g()['x'](t, v)"], "globals"),
    # reaching frames (and the runner's nonce) through format strings or attrgetter, or leaving
    # the runner early so that a forged line would be the only one
    ([SETUP, "def banker_draws(t, v):\n    return '{0.gi_frame}'.format(t)"], ".format"),
    ([SETUP, "from operator import attrgetter\ndef banker_draws(t, v):\n    return attrgetter('x')(t)"],
     "attrgetter"),
    ([SETUP, "import operator\ndef banker_draws(t, v):\n    return operator.lt(t, 3)"], "import operator"),
    ([SETUP, "def banker_draws(t, v):\n    raise SystemExit"], "SystemExit"),
    ([SETUP, "def banker_draws(t, v):\n    exit()"], "exit"),
    # getattr in disguise (red-team round): class patterns, Formatter fields, functools'
    # attribute copying, builtins and sys under private or other names
    ([SETUP, "def h():\n    pass", "def banker_draws(t, v):\n    match h:\n        case object(__globals__=g):\n"
      "            return g"], ".__globals__"),
    ([SETUP, "def banker_draws(t, v):\n    match t:\n        case int(real=r, banker_draws=f):\n"
      "            return f(t, v)"], ".banker_draws"),
    ([SETUP, "import string\ndef banker_draws(t, v):\n    return string.Formatter().get_field('0.x', (t,), {})"],
     ".get_field"),
    ([SETUP, "import functools\ndef banker_draws(t, v):\n    return functools.update_wrapper(t, v)"],
     ".update_wrapper"),
    ([SETUP, "import collections\ndef banker_draws(t, v):\n    return collections._sys"], "._sys"),
    ([SETUP, "import enum\ndef banker_draws(t, v):\n    return enum.bltns"], ".bltns"),
])
def test_reaching_the_kit_is_refused(cells: list[str], detail: str) -> None:
    ok, found = own_work(cells, "banker_draws")
    assert not ok and found == detail
    assert function_code(cells, "banker_draws") is None


def test_missing_function() -> None:
    assert own_work([SETUP], "banker_draws") == (False, "")


def test_own_solution_with_allowed_import() -> None:
    assert own_work(["from functools import lru_cache", "@lru_cache\n" + OWN], "banker_draws") == (True, "")


META = ("class Yes(type):\n    def __instancecheck__(cls, obj):\n        return True\n"
        "class Any(metaclass=Yes):\n    __match_args__ = ('modules',)\n")


@pytest.mark.parametrize("cells, detail", [
    # issue 11: a metaclass whose __instancecheck__ always says yes, and a positional class
    # pattern reading the attribute __match_args__ names (``sys.modules`` through any object)
    ([META, "def banker_draws(t, v):\n    match t:\n        case Any(m):\n            return m\n    return 0"],
     "case Any(…)"),
    (["class Any:\n    __match_args__ = ('modules',)",
      "def banker_draws(t, v):\n    match t:\n        case Any(m):\n            return m\n    return 0"],
     "case Any(…)"),
    (["class P:\n    pass", "def banker_draws(t, v):\n    match v:\n        case P(x):\n            return x\n    return 0"],
     "case P(…)"),
    (["class K:\n    def __eq__(self, o):\n        return True", "def banker_draws(t, v):\n    return K() == t"],
     "def __eq__"),
])
def test_class_pattern_and_metaclass_tricks_are_refused(cells: list[str], detail: str) -> None:
    assert own_work(cells, "banker_draws") == (False, detail)


def test_self_matching_class_patterns_stay_allowed() -> None:
    code = "def banker_draws(t, v):\n    match v:\n        case int(x) if x > 7:\n            return False\n    return t < 3"
    assert own_work([code], "banker_draws") == (True, "")
