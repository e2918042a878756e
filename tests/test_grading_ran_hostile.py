"""Red team against "judge what ran" (issue 35): the kit's code made callable with no ``exec``.

``compile`` a kit module's source (data: a string) and hand a code object to
``types.FunctionType``: nothing is executed through ``exec``, so before the fix only the walk
after the cells could see it, and the walk looks one level into containers and never into a
closure, a default argument or an object's attribute, nor at a function used and deleted. A
module's own code called as a function even runs the whole module (its tables, its functions)
without any ``exec``. Each route below was missed before the hook took ``function.__new__``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from test_grading_ran import RULES, _probe, _rules, _stub

_BUILT = ("code = compile(" + RULES + ", 'x.py', 'exec')\n"
          "f = types.FunctionType([c for c in code.co_consts if getattr(c, 'co_name', '') == 'banker_draws'][0], ns)\n"
          "del code\n")


@pytest.mark.parametrize(("route", "body"), [
    ("kept-in-a-closure", _BUILT + "def make(g):\n    return lambda *a: g(*a)\nmine = make(f)\ndel f\n"),
    ("kept-as-a-default", _BUILT + "def mine(t, third, _g=f):\n    return _g(t, third)\ndel f\n"),
    ("kept-on-an-object", _BUILT + "class H:\n    pass\nh = H()\nh.f = f\ndel f\n"),
    ("module-code-called-used-and-deleted",
     "mod = {'__name__': 'kitz.rules', '__package__': 'kitz'}\n"
     "types.FunctionType(compile(" + RULES + ", 'kitz/rules.py', 'exec'), mod)()\n"
     "x = [mod['banker_draws'](t, None) for t in range(8)]\ndel mod\n"),
])
def test_kit_code_made_callable_without_exec_is_reported(tmp_path: Path, route: str, body: str) -> None:
    found = _probe(tmp_path, _stub() + body.replace("{rules!r}", repr(_rules())))
    assert found.complete, found.problems
    hows = {m["how"] for m in found.matches if m["kit"] == "bk.rules.banker_draws"}
    assert "function.__new__" in hows, f"{route}: not reported: {found.to_json()}"


def test_an_honest_function_made_with_function_type_is_not_reported(tmp_path: Path) -> None:
    found = _probe(tmp_path, "import functools\n"
                             "def total(cards):\n    return sum(cards) % 10\n"
                             "again = types.FunctionType(total.__code__, globals(), 'again')\n"
                             "shown = functools.wraps(total)(lambda *a: total(*a))\n"
                             "x = [again([c, 5]) for c in range(10)]\n")
    assert found.complete and not found.matches and not found.traces, found.to_json()


# ---------------------------------------------------------------- her code run from inside the hook
_LOAD = ("m = {'__name__': 'kitz.rules', '__package__': 'kitz'}\n"
         "exec(compile(" + RULES + ", 'kitz/rules.py', 'exec'), m)\n"
         "box.append(m['banker_draws'])\n")
_USED = "import atexit\natexit.register(lambda: loaded and open('loaded', 'w').close())  # (the kit was loaded)\n"


def _at(code: str, spaces: int) -> str:
    return "".join(" " * spaces + line + "\n" for line in code.splitlines())


@pytest.mark.parametrize(("route", "body"), [
    # the walk asked isinstance(obj, type): that reads her object's __class__, a property of hers
    ("class-property-into-a-closure",
     "loaded = []\ndef make():\n    box = []\n    def answer(t, third):\n        return box[0](t, third)\n"
     "    class Sneaky:\n        @property\n        def __class__(self):\n            if not box:\n"
     + _at(_LOAD + "loaded.append(1)", 16) + "            return Sneaky\n"
     "    return answer, Sneaky()\nanswer, s = make()\n"),
    # the walk compared a dict key's type with ``in (str, int)``: her metaclass's __eq__
    ("metaclass-eq-of-a-dict-key",
     "loaded = box = []\nclass M(type):\n    def __eq__(cls, other):\n        if not box:\n" + _at(_LOAD, 12)
     + "        return False\n    __hash__ = type.__hash__\nclass K(metaclass=M):\n    pass\nd = {K(): 1}\n"),
])
def test_the_walk_runs_none_of_her_code_and_what_it_loads_is_seen(tmp_path: Path, route: str,
                                                                     body: str) -> None:
    found = _probe(tmp_path, _stub() + _USED + body.replace("{rules!r}", repr(_rules())))
    hows = {m["how"] for m in found.matches if m["kit"] == "bk.rules.banker_draws"}
    loaded = (tmp_path / "loaded").exists()  # her code ran from inside the hook's walk
    assert hows or not loaded, f"{route}: the kit was loaded from inside the hook, unseen: {found.to_json()}"
    assert found.complete, found.problems


# ---------------------------------------------------------------- the report's room, flooded
def _signed(seq: int, fields: list[str], key: bytes) -> str:
    import hmac
    import json

    payload = "\t".join(json.dumps(f) for f in fields)
    return f"ran {seq} {payload} " + hmac.new(key, f"{seq} {payload}".encode(), "sha256").hexdigest()[:32]


class _Given:
    """Lines as :class:`_Lines` gives them (no pipe)."""

    def __init__(self, lines: list[str]) -> None:
        self.lines = lines

    def next(self, until: object) -> str | None:
        return self.lines.pop(0) if self.lines else ""


def test_a_flood_of_lines_cannot_push_a_match_out_of_the_report() -> None:
    """Her cell writes 800 lines of her own into her pipe to the supervisor (or raises the walk's
    event 800 times: 800 signed end lines) before it loads the kit: the match the hook signs after
    them is still read, beside the report being incomplete."""
    from baccarat_kit.grading.judge import ran as judge_ran
    from baccarat_kit.grading.sandbox.session import _RanLines

    key = b"k" * 32
    tables = judge_ran.KitTables({"h1": "bk.rules.banker_draws"}, {"f1": "bk.rules.banker_draws"})
    for noise in (["ran 1 junk junk"] * 800, [_signed(n, ["end", "0", "0"], key) for n in range(800)]):
        seq = 800 if noise[0].startswith("ran 0 ") else 0
        given = [*noise, _signed(seq, ["match", "h1", "f1", "exec", "<string>", "mine"], key), "start 1", "done 1 ok",
                 _signed(seq + 1, ["end", "5", "0"], key)]
        lines = _RanLines(_Given(given), key, 1)  # type: ignore[arg-type]
        while lines.next(None) not in ("", None):  # type: ignore[arg-type]
            pass
        found = judge_ran.read_report(lines.found, key, tables, after=lines.after)
        assert [m["kit"] for m in found.matches] == ["bk.rules.banker_draws"], found.to_json()
        assert not found.complete
