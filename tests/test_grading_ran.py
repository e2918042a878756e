"""Issue 35: judge what ran, not what was typed.

The red team's fixtures (``tests/fixtures/submissions/make_ran_fixtures.py``, made here from the
installed kit: no copy of its source is committed) bring the kit's code into a grading run as
data: a base64 zip unpacked into /tmp and imported, zlib-compressed source through ``exec``,
``marshal`` bytes, code objects rebuilt with ``types.CodeType``, ``rules.py`` saved as
``helpers.py``, and the rule pasted with every name renamed and its layout redone. Graded in one
batch with every honest notebook and the model solutions: each red-team file is flagged with where
its kit code came from and keeps what its answers earn; nothing honest is flagged or loses a point.

Then the hook itself, in this process (no sandbox): each route reported as it happens, a report
that lost, reordered or forged a line is incomplete, and the events that can reach the hook's
state are traces.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "tests" / "fixtures" / "submissions"
sys.path.insert(0, str(FIXTURES))
import make_absent_fixtures as fx  # noqa: E402
import make_ran_fixtures as rx  # noqa: E402

from baccarat_kit.cli import main  # noqa: E402
from baccarat_kit.grading.judge import ran as judge_ran  # noqa: E402
from baccarat_kit.grading.sandbox import ran as sandbox_ran  # noqa: E402

SOURCE = ROOT / "exercises" / "source"
HONEST = sorted(p.stem for p in (FIXTURES / "honest").glob("*.ipynb"))
MODELS = sorted(p.stem for p in SOURCE.glob("*.ipynb"))
RAN_FLAG = "executed the kit's own code"


def _ran_warnings(row: dict[str, Any]) -> list[str]:
    return [w["en"] for w in row.get("warnings") or [] if "what ran" in w["en"] or RAN_FLAG in w["en"]]


# ---------------------------------------------------------------- one batch, in the sandbox
@pytest.fixture(scope="module")
def batch(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    tmp = tmp_path_factory.mktemp("ran")
    made = rx.all_fixtures(fx.public_bases(tmp / "release"))
    (tmp / "subs").mkdir()
    paths = [*(SOURCE / f"{m}.ipynb" for m in MODELS), *(FIXTURES / "honest" / f"{n}.ipynb" for n in HONEST)]
    for name, nb in made.items():
        path = tmp / "subs" / f"{name}.ipynb"
        path.write_text(fx.dumps(nb), encoding="utf-8")
        paths.append(path)
    out = tmp / "out"
    code = main(["--lang", "en", "grade", *map(str, paths), "--out", str(out), "--jobs", "2", "--no-progress",
                 "--timeout", "20", "--notebook-timeout", "90"])
    doc = json.loads((out / "results.json").read_text(encoding="utf-8"))
    subs: dict[str, dict[str, Any]] = {}
    for s in doc["submissions"]:
        stem = Path(s["file"]).stem
        subs[f"model-{stem}" if Path(s["file"]).parent == SOURCE else stem] = s
    return {"code": code, "subs": subs, "made": made, "doc": doc, "out": out}


pytestmark = [pytest.mark.sandbox, pytest.mark.slow]


@pytest.mark.parametrize("name", sorted(rx.WHERE))
def test_kit_code_brought_as_data_is_flagged_with_where_it_came_from(batch: dict[str, Any], name: str) -> None:
    row = batch["subs"][name]
    assert row["status"] == "ok", f"{name}: {row['status']}: {row['reason']['en']}"
    flags = [w for w in _ran_warnings(row) if RAN_FLAG in w]
    assert flags, f"{name}.ipynb: no flag of the kit's code that ran: {row['warnings']}"
    text = " ".join(flags)
    wanted = rx.KIT_NAMES[name]
    module, function = wanted.rsplit(".", 1)
    assert f"{module}: " in text and function in text, f"{name}: the flag does not name {wanted}: {text}"
    for where in rx.WHERE[name]:
        assert where in text, f"{name}: the flag does not say where it came from ({where!r}): {text}"


def test_the_flag_reaches_the_class_report_never_her_page(batch: dict[str, Any]) -> None:
    """The instructor's report lists each flag (as it lists a pasted copy's); her page never shows
    it (issue 43: instructor-only words)."""
    from baccarat_kit.grading.report.classreport import build_report

    report = build_report(batch["doc"])
    flagged = {Path(a.file).stem for a in report.attention if a.category == "warning" and RAN_FLAG in str(a.detail.get("en"))}
    assert flagged >= set(rx.WHERE), set(rx.WHERE) - flagged
    page = batch["out"] / batch["subs"]["ran-zip-import-03"]["feedback"]
    text = page.read_text(encoding="utf-8")
    assert "kitcopy" not in text and "For the instructor" not in text and "給教師" not in text


@pytest.mark.parametrize("name", sorted(rx.WHERE))
def test_a_flag_is_not_a_zero(batch: dict[str, Any], name: str) -> None:
    """The kit's code ran in her notebook: her answers earn what they earn (the flag is the
    instructor's to judge). Every route but the pasted one carries the whole kit: full marks."""
    row = batch["subs"][name]
    if name == "ran-pasted-renamed-03":  # the rule only: its own arithmetic elsewhere
        assert row["score"] >= row["max_score"] - row["pending_points"] - 2, row["questions"]
    else:  # (full marks: every point not left to be scored by hand)
        assert row["score"] == row["max_score"] - row["pending_points"], {
            q: r["message"]["en"][:120] for q, r in row["questions"].items() if r["score"] != r["points"]
            and not r.get("pending")}


@pytest.mark.parametrize("name", [*HONEST, *(f"model-{m}" for m in MODELS)])
def test_honest_work_is_not_flagged_and_keeps_full_marks(batch: dict[str, Any], name: str) -> None:
    row = batch["subs"][name]
    assert row["status"] == "ok" and row["score"] == row["max_score"] - row["pending_points"], (
        name, row["status"], row["score"])
    assert not _ran_warnings(row), f"{name}.ipynb is honest work and was flagged: {_ran_warnings(row)}"


def test_no_copy_of_the_kits_source_is_committed_in_these_fixtures() -> None:
    """The payloads are made when the test runs (this file's fixtures are not in the repository)."""
    assert not list(FIXTURES.rglob("ran-*.ipynb"))
    rules = (rx.kit_folder() / "rules.py").read_text(encoding="utf-8")
    line = next(ln for ln in rules.splitlines() if ln.startswith("def banker_draws"))
    assert line not in (FIXTURES / "make_ran_fixtures.py").read_text(encoding="utf-8")


# ---------------------------------------------------------------- the hook, in this process
HOOK_RUN = r'''
import base64, marshal, os, sys, types, zlib
sys.path.insert(0, {api!r})
from baccarat_kit_ran_probe import install, WALK
key = bytes.fromhex({key!r})
install({kit!r}, key, 1, [sys.base_prefix], ["/tmp"])
{body}
sys.audit(WALK, dict(globals()))
'''


def _probe(tmp_path: Path, body: str) -> judge_ran.Findings:
    """Run ``body`` in a fresh Python after the hook is installed (its report on stdout); the findings."""
    import subprocess

    folder = tmp_path / "probe"
    folder.mkdir()
    (folder / "baccarat_kit_ran_probe.py").write_text(Path(sandbox_ran.__file__).read_text(encoding="utf-8"),
                                                      encoding="utf-8")
    key = os.urandom(32)
    text = HOOK_RUN.format(api=str(folder), key=key.hex(), kit=judge_ran.kit_hashes(), body=body)
    done = subprocess.run([sys.executable, "-I", "-c", text], capture_output=True, text=True, timeout=120,
                          cwd=tmp_path)
    lines = [ln[len(sandbox_ran.PREFIX):] for ln in done.stdout.splitlines() if ln.startswith(sandbox_ran.PREFIX)]
    assert done.returncode == 0, done.stderr[-2000:]
    return judge_ran.read_report(lines, key, after=0)


RULES = "open({rules!r}, encoding='utf-8').read()"


def _rules() -> str:
    return str(rx.kit_folder() / "rules.py")


def _stub() -> str:
    """A package ``kitz`` with the two names rules.py imports (typed by her)."""
    return ("_pkg = types.ModuleType('kitz'); _pkg.__path__ = []; sys.modules['kitz'] = _pkg\n"
            "for _n, _v in (('errors', 'RuleError'), ('i18n', 'Term')):\n"
            "    _m = types.ModuleType('kitz.' + _n); setattr(_m, _v, type(_v, (Exception,), {})); "
            "sys.modules['kitz.' + _n] = _m\n"
            "ns = {'__name__': 'kitz.rules', '__package__': 'kitz'}\n")


@pytest.mark.parametrize("route, body, how", [
    ("exec-zlib", "blob = zlib.compress(" + RULES + ".encode())\nexec(zlib.decompress(blob).decode(), ns)", "exec"),
    ("marshal", "data = marshal.dumps(compile(" + RULES + ", 'x.py', 'exec'))\ncode = marshal.loads(data)\n"
     "f = types.FunctionType([c for c in code.co_consts if getattr(c, 'co_name', '') == 'banker_draws'][0], ns)",
     "marshal.loads"),
    ("marshal-memoryview", "data = marshal.dumps(compile(" + RULES + ", 'x.py', 'exec'))\n"
     "code = marshal.loads(memoryview(data))", "marshal.loads"),
    ("compiled-never-executed", "code = compile(" + RULES + ", 'x.py', 'exec')\n"
     "mine = [c for c in code.co_consts if getattr(c, 'co_name', '') == 'banker_draws'][0]\n"
     "del code", "walk"),
    ("compiled-made-a-function", "code = compile(" + RULES + ", 'x.py', 'exec')\n"
     "mine = types.FunctionType([c for c in code.co_consts if getattr(c, 'co_name', '') == 'banker_draws'][0], ns)\n"
     "del code", "function.__new__"),
    ("function-code-set", "code = compile(" + RULES + ", 'x.py', 'exec')\ndef mine(total, third):\n    return 0\n"
     "mine.__code__ = [c for c in code.co_consts if getattr(c, 'co_name', '') == 'banker_draws'][0]",
     "__code__ set"),
])
def test_the_hook_reports_each_route_as_it_runs(tmp_path: Path, route: str, body: str, how: str) -> None:
    found = _probe(tmp_path, _stub() + body.replace("{rules!r}", repr(_rules())))
    assert found.complete, found.problems
    hows = {m["how"] for m in found.matches if m["kit"] == "bk.rules.banker_draws"}
    assert how in hows, f"{route}: bk.rules.banker_draws not reported by {how}: {found.matches}"


def test_honest_code_in_the_hook_reports_nothing(tmp_path: Path) -> None:
    found = _probe(tmp_path, "import decimal, json, fractions, statistics\n"
                             "def banker_draws(total, third):\n"
                             "    if third is None:\n        return total <= 5\n"
                             "    return total <= 2 or (total == 3 and third != 8)\n"
                             "exec('x = [banker_draws(t, None) for t in range(8)]')")
    assert found.complete and not found.matches and not found.traces, found.to_json()


@pytest.mark.parametrize("event", ["import gc\ngc.get_objects()", "import gc\ngc.get_referrers(sys)",
                                   "sys.addaudithook(lambda *a: None)", "import ctypes\nctypes.pythonapi.Py_IsInitialized",
                                   "sys._current_frames()", "import ctypes\nctypes.string_at(id(sys), 8)",
                                   "try:\n    import _interpreters as i\nexcept ImportError:\n"
                                   "    import _xxsubinterpreters as i\ni.destroy(i.create())",
                                   "import _testcapi\n_testcapi.run_in_subinterp('x = 1')"])
def test_reaching_for_the_hooks_state_leaves_a_trace(tmp_path: Path, event: str) -> None:
    if "_testcapi" in event:
        pytest.importorskip("_testcapi", reason="this Python has no _testcapi (Debian's leaves it out)")
    found = _probe(tmp_path, event)
    assert found.traces and not found.verified, f"{event!r}: no trace"


@pytest.mark.parametrize("event", ["import doctest\ndoctest.testmod()", "import cProfile\ncProfile.run('sum(range(9))')",
                                   "import signal\nsignal.signal(signal.SIGALRM, lambda signum, frame: None)\n"
                                   "signal.alarm(30)\nsignal.alarm(0)", "sys.settrace(lambda *a: None)\nsys.settrace(None)"])
def test_a_debugger_profiler_doctest_or_alarm_is_no_trace(tmp_path: Path, event: str) -> None:
    """Audit hooks run with tracing off: a tracer never sees the hook's frames. A signal handler
    left set is a note (information), never a reason to doubt the report."""
    found = _probe(tmp_path, event)
    assert found.verified and not found.traces, found.to_json()


def test_a_channel_taken_over_leaves_an_incomplete_report(tmp_path: Path) -> None:
    """She points the hook's descriptor elsewhere before kit code runs: what it then writes is lost,
    and the report has a gap or no end (the grader flags it as incomplete)."""
    body = ("import os\nfor fd in range(3, 64):\n    try:\n        os.fstat(fd)\n    except OSError:\n        continue\n"
            "    if fd != 1:\n        os.dup2(os.open(os.devnull, os.O_WRONLY), fd)\n"
            + _stub() + "exec(" + RULES.replace("{rules!r}", repr(_rules())) + ", ns)")
    found = _probe(tmp_path, body)
    assert not found.complete and not found.matches, found.to_json()


def test_a_forged_or_dropped_line_is_seen(tmp_path: Path) -> None:
    key = os.urandom(32)
    good = judge_ran.read_report([], key, after=0)
    assert not good.complete and "no end line after the cells" in good.problems
    import hmac

    def line(seq: int, *fields: str, sign: bytes = key) -> str:
        payload = "\t".join(json.dumps(f) for f in fields)
        return f"{seq} {payload} {hmac.new(sign, f'{seq} {payload}'.encode(), 'sha256').hexdigest()[:32]}"

    name = next(iter(judge_ran.kit_tables().full.items()))
    match = line(0, "match", "x", name[0], "exec", "<string>", "f")
    end = line(1, "end", "5", "0.1")
    assert judge_ran.read_report([match, end], key, after=0).complete
    assert judge_ran.read_report([match, end], key, after=0).matches[0]["kit"] == name[1]
    assert not judge_ran.read_report([end], key, after=0).complete  # line 0 dropped
    forged = judge_ran.read_report([line(0, "trace", "", "x", "", ""), end], os.urandom(32), after=0)
    assert not forged.complete and not forged.traces  # signed with another key: not the hook's
    early = judge_ran.read_report([match, end], key, after=2)  # an end before the cells were done
    assert not early.complete


def test_the_kit_tables_hold_no_code_the_run_holds_by_right() -> None:
    """What the exercise API and the runner run in every grading run is not a match."""
    tables = judge_ran.kit_tables()
    assert "bk.rules.banker_draws" in tables.full.values() and "bk.coup.play" in tables.full.values()
    own: dict[str, dict[str, str]] = {"code": {}, "full": {}}
    api = Path(sandbox_ran.__file__).parent / "exercise_api"
    for path in api.glob("*.py"):
        judge_ran._fingerprints(path, "api", own)
    assert not set(own["full"]) & set(tables.full)
