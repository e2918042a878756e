"""Issue 43: the check of what ran fails closed, and no honest learner is accused.

First the hook in this process (no sandbox): each class of the red team's that used to end with a
clean report now ends with the kit's code found, or with a report that cannot be believed
("could not verify what ran"). Then one batch in the sandbox: the red team's notebooks beside 30+
honest ones written in every style a learner may use (doctest, a profiler, a debugger left in,
an alarm guard, threads, processes, numpy, ...): every honest file keeps full marks with no
warning of what ran, and nothing meant for the instructor reaches any learner's page.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from test_grading_ran import _probe, _rules, _stub

KIT = "bk.rules.banker_draws"


def _kit(found) -> set[str]:  # type: ignore[no-untyped-def]
    return {m["kit"] for m in found.matches}


# ---------------------------------------------------------------- the hook, in this process
_RECURSION = '''
src = open({rules!r}).read()
sys.setrecursionlimit(100)
def at(d):
    if d > 0:
        return at(d - 1)
    exec(compile(src, 'x.py', 'exec'), ns)
    return 'ok'
for d in range(100, 0, -1):
    try:
        at(d)
        break
    except RecursionError:
        continue
sys.setrecursionlimit(1000)
'''
_NOPS = '''
def padded(code):
    consts = tuple(padded(c) if isinstance(c, types.CodeType) else c for c in code.co_consts)
    return code.replace(co_code=code.co_code + bytes([9, 0]) * 6 + bytes([100, 0, 83, 0]), co_consts=consts)
exec(padded(compile(open({rules!r}).read(), 'x.py', 'exec')), ns)
'''
_AST = '''
import ast
tree = ast.parse(open({rules!r}).read())
for node in ast.walk(tree):
    if isinstance(node, (ast.FunctionDef, ast.If, ast.For, ast.While)):
        node.body.insert(0, ast.Pass())
exec(compile(ast.fix_missing_locations(tree), 'y.py', 'exec'), ns)
'''
_THREAD = '''
import threading
t = threading.Thread(target=exec, args=(compile(open({rules!r}).read(), 'x.py', 'exec'), ns))
t.start(); t.join()
'''
_SUB = '''
import _xxsubinterpreters as interpreters
one = interpreters.create()
interpreters.run_string(one, "x = 1")
interpreters.destroy(one)
'''


@pytest.mark.parametrize(("route", "body"), [("tight-recursion-limit", _RECURSION), ("dead-no-ops-appended", _NOPS),
                                             ("ast-no-op-transform", _AST), ("thread-on-exec", _THREAD),
                                             ("sub-interpreter", _SUB)])
def test_each_class_is_found_or_could_not_be_verified(tmp_path: Path, route: str, body: str) -> None:
    found = _probe(tmp_path, _stub() + "x = 0\n" + body.replace("{rules!r}", repr(_rules())) + "\nns = None\n")
    assert KIT in _kit(found) or not found.verified, f"{route}: a clean report: {found.to_json()}"


@pytest.mark.parametrize("route", ["dead-no-ops-appended", "ast-no-op-transform"])
def test_normalised_bytecode_still_names_the_kit(tmp_path: Path, route: str) -> None:
    body = {"dead-no-ops-appended": _NOPS, "ast-no-op-transform": _AST}[route]
    found = _probe(tmp_path, _stub() + body.replace("{rules!r}", repr(_rules())))
    assert KIT in _kit(found) and found.verified, found.to_json()


def test_a_check_that_failed_is_never_silent(tmp_path: Path) -> None:
    found = _probe(tmp_path, _stub() + _RECURSION.replace("{rules!r}", repr(_rules())))
    assert not found.complete and any("failed" in p for p in found.problems), found.to_json()
