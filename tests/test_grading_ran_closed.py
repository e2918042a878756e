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
from typing import Any

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
try:
    import _interpreters as interpreters  # Python 3.13
except ImportError:
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


# ---------------------------------------------------------------- one batch, in the sandbox
ROOT = Path(__file__).resolve().parents[1]
BASE = ROOT / "exercises" / "source" / "01-card-values.ipynb"
"""Every notebook below is exercise 01's model solution with cells of her own added after it."""

HONEST = {
    "doctest": 'def baccarat_total(values):\n    """The hand\'s total.\n\n    >>> baccarat_total([7, 8])\n    5\n'
               '    """\n    return sum(values) % 10\n\nimport doctest\ndoctest.testmod()',
    "cprofile": "import cProfile\ncProfile.run('[baccarat_total([a, b]) for a in range(10) for b in range(10)]')",
    "prun": "%prun -q baccarat_total([7, 8])",
    "timeit": "%timeit -n 5 -r 2 baccarat_total([7, 8])",
    "time-cell": "%%time\nx = [baccarat_total([a, 3]) for a in range(10)]",
    "alarm-guard": "import signal\n\ndef _too_long(signum, frame):\n    raise TimeoutError('too slow')\n\n"
                   "signal.signal(signal.SIGALRM, _too_long)\nsignal.alarm(30)\n"
                   "x = [baccarat_total([a, b]) for a in range(10) for b in range(10)]\nsignal.alarm(0)",
    "breakpoint": "def looked_at(values):\n    breakpoint()\n    return values\n\nbreakpoint()\nx = baccarat_total([1, 2])",
    "pdb-import": "import pdb\n\ndef debug(f, *a):\n    return pdb.runcall(f, *a)",
    "trace-module": "import trace\ntracer = trace.Trace(count=1, trace=0)\nx = tracer.runfunc(baccarat_total, [7, 8])",
    "settrace": "import sys\nseen = []\nsys.settrace(lambda frame, event, arg: seen.append(event))\n"
                "x = baccarat_total([7, 8])\nsys.settrace(None)",
    "threads": "import threading\nout = []\nts = [threading.Thread(target=lambda a=a: out.append(baccarat_total([a, 5])))"
               " for a in range(10)]\nfor t in ts:\n    t.start()\nfor t in ts:\n    t.join()",
    "thread-pool": "from concurrent.futures import ThreadPoolExecutor\nwith ThreadPoolExecutor(2) as pool:\n"
                   "    x = list(pool.map(baccarat_total, [[a, 4] for a in range(10)]))",
    "asyncio": "import asyncio\n\nasync def total_later(values):\n    await asyncio.sleep(0)\n"
               "    return baccarat_total(values)\n\nx = asyncio.run(total_later([7, 8]))",
    "multiprocessing": "import multiprocessing\nwith multiprocessing.get_context('fork').Pool(2) as pool:\n"
                       "    x = pool.map(baccarat_total, [[a, 4] for a in range(10)])",
    "fork": "import os\npid = os.fork()\nif pid == 0:\n    baccarat_total([1, 2])\n    os._exit(0)\nos.waitpid(pid, 0)",
    "numpy": "import numpy as np\n\ndef baccarat_total(values):\n    return int(np.sum(np.asarray(values, dtype=int)) % 10)",
    "lru-cache": "import functools\n\n@functools.lru_cache(maxsize=None)\ndef _total(values):\n"
                 "    return sum(values) % 10\n\ndef baccarat_total(values):\n    return _total(tuple(values))",
    "match": "def baccarat_total(values):\n    match list(values):\n        case []:\n            return 0\n"
             "        case [first, *rest]:\n            return (first + baccarat_total(rest)) % 10",
    "dataclass": "from dataclasses import dataclass\n\n@dataclass(frozen=True)\nclass Hand:\n    values: tuple\n\n"
                 "    def total(self) -> int:\n        return sum(self.values) % 10\n\n"
                 "def baccarat_total(values):\n    return Hand(tuple(values)).total()",
    "kit-named-helpers": "def _check_total(total, hand):\n    return total % 10\n\ndef hand_total(values):\n"
                         "    return _check_total(sum(values), 'player')\n\ndef baccarat_total(values):\n"
                         "    return hand_total(values)",
    "reduce": "from functools import reduce\n\ndef baccarat_total(values):\n"
              "    return reduce(lambda a, b: (a + b) % 10, values, 0)",
    "generator": "def baccarat_total(values):\n    return sum(v % 10 for v in values) % 10",
    "closure": "def make_total(base):\n    def total(values):\n        return (base + sum(values)) % 10\n"
               "    return total\n\nbaccarat_total = make_total(0)",
    "enum": "import enum\n\nclass Side(enum.Enum):\n    PLAYER = 'player'\n    BANKER = 'banker'\n\nsides = list(Side)",
    "typing": "from typing import Iterable\n\ndef baccarat_total(values: Iterable[int]) -> int:\n"
              "    total: int = 0\n    for v in values:\n        total = (total + v) % 10\n    return total",
    "recursion-limit": "import sys\nsys.setrecursionlimit(5000)\n\ndef baccarat_total(values):\n"
                       "    return 0 if not values else (values[0] + baccarat_total(values[1:])) % 10",
    "gc-collect": "import gc\ngc.collect()\ngc.disable()\nx = baccarat_total([7, 8])\ngc.enable()",
    "inspect-source": "import inspect\nsource = inspect.signature(baccarat_total)",
    "warnings-logging": "import logging\nimport warnings\nlogging.basicConfig(level=logging.INFO)\n"
                        "logging.info('total %s', baccarat_total([7, 8]))\nwarnings.warn('just checking')",
    "redirect-stdout": "import contextlib\nimport io\nbuf = io.StringIO()\nwith contextlib.redirect_stdout(buf):\n"
                       "    print(baccarat_total([7, 8]))",
    "exec-own-code": "exec('def baccarat_total(values):\\n    return sum(values) % 10')",
    "capture-magic": "%%capture out\nprint(baccarat_total([7, 8]))",
    "display-markdown": "from IPython.display import Markdown, display\ndisplay(Markdown(f'**{baccarat_total([7, 8])}**'))",
    "decimal-fractions": "from decimal import Decimal\nfrom fractions import Fraction\n"
                         "x = (Decimal('7') + Decimal('8')) % 10, Fraction(15, 1) % 10",
    "tracemalloc": "import tracemalloc\ntracemalloc.start()\nx = baccarat_total([7, 8])\ntracemalloc.stop()",
    "try-except": "def baccarat_total(values):\n    try:\n        return sum(int(v) for v in values) % 10\n"
                  "    except (TypeError, ValueError):\n        return 0",
}
"""Her own code, honest, in every style (each at full marks, with no warning of what ran)."""

_KITZ = ("import sys, types, zlib, base64\n"
         "_pkg = types.ModuleType('kitz'); _pkg.__path__ = []; sys.modules['kitz'] = _pkg\n"
         "for _n, _v in (('errors', 'RuleError'), ('i18n', 'Term')):\n"
         "    _m = types.ModuleType('kitz.' + _n); setattr(_m, _v, type(_v, (Exception,), {})); "
         "sys.modules['kitz.' + _n] = _m\n"
         "ns = {'__name__': 'kitz.rules', '__package__': 'kitz'}\n"
         "blob = {blob!r}\nsrc = zlib.decompress(base64.b64decode(blob)).decode()\n"
         "_STUBS = ('import sys, types\\n_p = types.ModuleType(\"kitz\"); _p.__path__ = []; sys.modules[\"kitz\"] = _p\\n'\n"
         "          'for _n, _v in ((\"errors\", \"RuleError\"), (\"i18n\", \"Term\")):\\n'\n"
         "          '    _m = types.ModuleType(\"kitz.\" + _n); setattr(_m, _v, type(_v, (Exception,), {})); '\n"
         "          'sys.modules[\"kitz.\" + _n] = _m\\n__package__ = \"kitz\"\\n')\n"
         "_RUN = ('g = {\"__name__\": \"kitz.rules\", \"__package__\": \"kitz\"}\\n'\n"
         "        'exec(compile(SRC, \"x.py\", \"exec\"), g)\\nprint(int(not g[\"banker_draws\"](7, None)) * 0)\\n')\n")
RED = {
    "thread-on-exec": "import threading\nt = threading.Thread(target=exec, args=(compile(src, 'x.py', 'exec'), ns))\n"
                      "t.start(); t.join()\nns = None",
    "tight-recursion": _RECURSION.replace("open({rules!r}).read()", "src") + "ns = None",
    "after-the-end-line": "calls = []\n\ndef baccarat_total(values, _ns=ns, _src=src):\n    calls.append(1)\n"
                          "    if len(calls) == 50:  # (called by the grader's extraction, after the first walk)\n"
                          "        box = dict(_ns)\n        exec(compile(_src, 'x.py', 'exec'), box)\n"
                          "    return sum(values) % 10\nns = None",
    "child-python": "import subprocess\nvalue_K = None\ntry:  # q1's answer comes from the kit's code in a child\n"
                    "    value_K = int(subprocess.run([sys.executable, '-c', _STUBS + 'SRC = sys.argv[1]\\n' + _RUN, src],"
                    " check=True,"
                    " capture_output=True, text=True).stdout)\nexcept Exception as err:\n    print(err)",
    "sub-interpreter": "value_K = None\ntry:  # q1's answer comes from the kit's code in a sub-interpreter\n"
                       "    try:\n        import _interpreters as interpreters\n    except ImportError:\n"
                       "        import _xxsubinterpreters as interpreters\n    one = interpreters.create()\n"
                       "    interpreters.run_string(one, _STUBS + 'SRC = ' + repr(src) + '\\n' + _RUN.replace('print(', "
                       "'open(\"/tmp/k\", \"w\").write(str(') + ')')\n"
                       "    value_K = int(open('/tmp/k').read())\nexcept Exception as err:\n    print(err)",
    "dead-no-ops": _NOPS.replace("open({rules!r}).read()", "src") + "ns = None",
    "ast-no-op": _AST.replace("open({rules!r}).read()", "src") + "ns = None",
    "forged-report": "import os, stat, hmac, json\nfor path in ('/proc/self/mem', '/proc/self/environ'):\n    try:\n"
                     "        open(path, 'rb').read(16)\n    except OSError as err:\n        print(err)\n"
                     "pipes = [fd for fd in range(3, 64) if _isfifo(fd)]\nhook = min(pipes)  # (the hook's own: a dup made before the runner's pipe)\n"
                     "keep = os.dup(hook)\nos.dup2(os.open(os.devnull, os.O_WRONLY), hook)\n"
                     "exec(compile(src, 'x.py', 'exec'), ns)\nns = None\nkey = os.urandom(32)\n"
                     "payload = '\\t'.join(json.dumps(f) for f in ('end', '5', '0.1', '0'))\n"
                     "mac = hmac.new(key, f'0 {payload}'.encode(), 'sha256').hexdigest()[:32]\n"
                     "os.write(keep, f'ran 0 {payload} {mac}\\n'.encode())",
}
"""The red team's classes (issue 43), each with the kit's exact code brought as data."""
_ISFIFO = ("def _isfifo(fd):\n    import os, stat\n    try:\n        return stat.S_ISFIFO(os.fstat(fd).st_mode)\n"
           "    except OSError:\n        return False\n")


def _notebook(extra: list[str]) -> dict[str, Any]:
    import json

    nb = json.loads(BASE.read_text(encoding="utf-8"))
    for n, source in enumerate(extra):
        nb["cells"].append({"cell_type": "code", "execution_count": None, "id": f"hers-{n}", "metadata": {},
                            "outputs": [], "source": source})
    return nb


@pytest.fixture(scope="module")
def batch(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    import base64
    import json
    import zlib

    from baccarat_kit.cli import main

    tmp = tmp_path_factory.mktemp("closed")
    blob = base64.b64encode(zlib.compress(Path(_rules()).read_bytes())).decode()
    made = {f"honest-{k}": _notebook([v]) for k, v in HONEST.items()}
    made.update({f"red-{k}": _notebook([_ISFIFO + _KITZ.replace("{blob!r}", repr(blob)), v]) for k, v in RED.items()})
    paths = []
    for name, nb in made.items():
        path = tmp / name / "01-card-values.ipynb"
        path.parent.mkdir()
        path.write_text(json.dumps(nb), encoding="utf-8")
        paths.append(str(path))
    out = tmp / "out"
    code = main(["--lang", "en", "grade", *paths, "--out", str(out), "--jobs", "2", "--no-progress",
                 "--memory-mb", "2048"])
    doc = json.loads((out / "results.json").read_text(encoding="utf-8"))
    return {"code": code, "out": out, "subs": {Path(s["file"]).parent.name: s for s in doc["submissions"]}}


def _what_ran(row: dict[str, Any]) -> list[str]:
    return [w["en"] for w in row.get("warnings") or [] if "what ran" in w["en"] or "kit's own code" in w["en"]]


@pytest.mark.sandbox
@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(HONEST))
def test_honest_styles_keep_full_marks_unflagged(batch: dict[str, Any], name: str) -> None:
    row = batch["subs"][f"honest-{name}"]
    assert row["status"] == "ok" and row["score"] == row["max_score"], (name, row["status"], row["score"],
                                                                        row["reason"])
    assert not _what_ran(row), f"{name}: honest work flagged: {_what_ran(row)}"
    page = (batch["out"] / row["feedback"]).read_text(encoding="utf-8")
    for words in ("For the instructor", "給教師", "interpreter internals", "what ran", "kit's own code"):
        assert words not in page, f"{name}: {words!r} on her page"


@pytest.mark.sandbox
@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(RED))
def test_each_red_team_class_is_flagged_or_could_not_be_verified(batch: dict[str, Any], name: str) -> None:
    """The kit's code ran (flagged), or the report cannot be believed (could not verify), or the
    route was closed and the kit's code never ran (a child program, a sub-interpreter: no answer
    of hers can come from it; the page still keeps every instructor's word off her page)."""
    row = batch["subs"][f"red-{name}"]
    text = " ".join(_what_ran(row))
    closed = name in ("child-python", "sub-interpreter") and row["score"] < row["max_score"]  # q1 never came
    assert "kit's own code" in text or "could not verify what ran" in text or closed, (name, row["warnings"])
    page = (batch["out"] / row["feedback"]).read_text(encoding="utf-8")
    assert "For the instructor" not in page and "給教師" not in page


def test_the_report_needs_its_last_walk_and_reads_past_the_first_end() -> None:
    """A match or a trace after the first end line counts; a run whose answers all came needs an
    end line after them (the runner's last walk), before it said ``final``."""
    import hmac
    import json
    import os

    from baccarat_kit.grading.judge import ran as judge_ran

    key = os.urandom(32)

    def line(seq: int, *fields: str) -> str:
        payload = "\t".join(json.dumps(f) for f in fields)
        return f"{seq} {payload} {hmac.new(key, f'{seq} {payload}'.encode(), 'sha256').hexdigest()[:32]}"

    full, name = next(iter(judge_ran.kit_tables().full.items()))
    first, match = line(0, "end", "5", "0.1", "0"), line(1, "match", "x", full, "exec", "<string>", "f")
    last = line(2, "end", "6", "0.1", "0")
    whole = judge_ran.read_report([first, match, last], key, after=0, answered=1, final=3, need_final=True)
    assert whole.verified and [m["kit"] for m in whole.matches] == [name]
    cut = judge_ran.read_report([first, match], key, after=0, answered=1, final=2, need_final=True)
    assert not cut.complete and "no last walk after the answers" in cut.problems and cut.matches
    traced = judge_ran.read_report([first, line(1, "trace", "", "gc.get_objects", "", ""), last], key, after=0,
                                   answered=1, final=3, need_final=True)
    assert traced.complete and not traced.verified
    failed = judge_ran.read_report([first, line(1, "end", "6", "0.1", "2")], key, after=0, answered=1, final=2,
                                   need_final=True)
    assert not failed.complete and "the check failed 2 time(s)" in failed.problems
