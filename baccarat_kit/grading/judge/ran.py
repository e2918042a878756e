"""What ran, judged on the grader's side (issue 35): the kit's bytecode fingerprints, sent into a
grading run as hashes, and the run's report of matches read back.

The sandbox side is :mod:`..sandbox.ran` (an audit hook installed before learner code runs, see
there). Here:

* :func:`kit_tables` compiles the installed kit's rule modules (:data:`KIT_FILES`, read from the
  kit's own files outside any sandbox) with this Python and fingerprints every code object in
  them (:func:`..sandbox.ran.code_fingerprints`), less every fingerprint the grading run holds
  by right (the exercise API and the runner: code that runs in every run). Only the hashes go
  into a run (:func:`kit_hashes`), never the kit's code.
* :func:`read_report` checks the run's ``ran …`` lines (each numbered and signed with this run's
  key; the sandbox hands them back as they came, :func:`..sandbox.session.run_notebook`) and
  turns them into findings: each match named by the kit function it is (from the tables
  here: a name the run sends is never trusted), where it came from and what the learner called it;
  each trace (an event that can defeat the check); and whether the report is complete.

A finding is a warning for the instructor (:func:`.grade.ran_warnings`), never a score change.
"""

from __future__ import annotations

import functools
import hmac
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..sandbox import ran as _ran
from ..sandbox.api_tree import RUNNER_FILES
from ..sandbox.session import KEPT_MATCHES, MAX_RAN_LINES, report_fields

KIT_FILES = ("rules.py", "coup.py", "settlement.py", "cards.py", "shoe.py", "ledger.py", "misconceptions.py",
             "errors.py", "i18n.py", "grading/judge/keys.py")
"""The kit's files whose code a run is compared with (the rule modules, their errors and messages,
and the grader's key code)."""
GENERIC = frozenset({"<genexpr>", "<lambda>", "<listcomp>", "<dictcomp>", "<setcomp>"})
"""Code too generic to name the kit (``(str(c) for c in cards)`` is in 62 files of the standard
library and site-packages here): left out of the tables."""


@dataclass(frozen=True)
class KitTables:
    """The kit's fingerprints: bytecode hash and full hash -> ``bk.module.qualname``."""

    code: dict[str, str]
    full: dict[str, str]


def _fingerprints(path: Path, label: str, out: dict[str, dict[str, str]]) -> None:
    try:
        text = path.read_text(encoding="utf-8")
        code = compile(text, str(path), "exec", dont_inherit=True)
    except (OSError, SyntaxError, ValueError):
        return
    for qualname, h, f in _ran.code_fingerprints(code):
        if qualname.rpartition(".")[2] in GENERIC:
            continue
        out["code"].setdefault(h, f"{label}.{qualname}")
        out["full"].setdefault(f, f"{label}.{qualname}")


@functools.cache
def kit_tables() -> KitTables:
    """The tables of the installed kit, computed once per process (see the module docstring)."""
    root = Path(__file__).resolve().parents[2]
    kit: dict[str, dict[str, str]] = {"code": {}, "full": {}}
    for rel in KIT_FILES:
        _fingerprints(root / rel, "bk." + rel[:-3].replace("/", "."), kit)
    own: dict[str, dict[str, str]] = {"code": {}, "full": {}}
    sandbox = root / "grading" / "sandbox"
    for path in [*sorted((sandbox / "exercise_api").glob("*.py")), *(sandbox / name for name in RUNNER_FILES)]:
        _fingerprints(path, "run", own)
    return KitTables({h: n for h, n in kit["code"].items() if h not in own["code"]},
                     {h: n for h, n in kit["full"].items() if h not in own["full"]})


def kit_hashes() -> dict[str, list[str]]:
    """What a run's audit hook is sent to look for (``{"code": [...], "full": [...]}``: hashes
    only; the sandbox adds the run's key, :func:`..sandbox.session.run_notebook`)."""
    tables = kit_tables()
    return {"code": sorted(tables.code), "full": sorted(tables.full)}


@dataclass
class Findings:
    """What a run's report says: ``matches`` (``{"kit", "as", "how", "where", "exact"}``), ``traces``
    (``{"event"}``: what makes the report one that could not verify what ran), ``notes`` (what the
    instructor may like to know and that defeats nothing: a signal handler set), ``complete``
    (every line numbered up to the last end line it needs, correctly signed, and the check never
    failed), ``problems`` (why not), ``checked`` (code objects the run fingerprinted)."""

    matches: list[dict[str, Any]] = field(default_factory=list)
    traces: list[dict[str, str]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    complete: bool = False
    problems: list[str] = field(default_factory=list)
    checked: int = 0

    @property
    def verified(self) -> bool:
        """The report can be believed as far as it goes: complete, and nothing could defeat it."""
        return self.complete and not self.traces

    def to_json(self) -> dict[str, Any]:
        return {"matches": self.matches, "traces": self.traces, "notes": self.notes, "complete": self.complete,
                "problems": self.problems, "checked": self.checked}


def read_run(ran: Any) -> Findings | None:
    """The findings of what a run's hook said, as the sandbox hands it back (``report["ran"]`` of
    :func:`..sandbox.session.run_notebook`); None when the run never got that far."""
    if not isinstance(ran, dict):
        return None
    return read_report(ran["lines"], bytes.fromhex(ran["key"]), after=ran["after"], answered=ran.get("answered"),
                       final=ran.get("final"), need_final=bool(ran.get("finished")))


def read_report(lines: list[str], key: bytes, tables: KitTables | None = None, after: int | None = None,
                answered: int | None = None, final: int | None = None, need_final: bool = False) -> Findings:
    """The findings of a run's ``ran`` lines (``lines``: each without its ``ran `` prefix, in the
    order they came). Two walks end the report: the first after the cells (``after``: how many
    lines had come when the last cell was done, None if it never was) and, when ``need_final``
    (the answers all came), the last after the answers (an end line that came after ``answered``
    lines and before ``final``, when the runner said it was done). Every line up to the last
    needed end must be there and signed. A match counts wherever it is; so does a trace, and a
    check that failed (a ``fail`` line, or the count in an end line)."""
    tables = kit_tables() if tables is None else tables
    found = Findings()
    seqs: set[int] = set()
    first: int | None = None
    last: int | None = None
    failed = 0
    for index, line in enumerate(lines[:MAX_RAN_LINES + KEPT_MATCHES]):
        head, _, rest = line.partition(" ")
        payload, _, mac = rest.rpartition(" ")
        if not head.isdigit() or not payload:
            found.problems.append("a line that is not the hook's")
            continue
        seq = int(head)
        want = hmac.new(key, f"{seq} {payload}".encode(), "sha256").hexdigest()[:32]
        fields = report_fields(payload)
        if not hmac.compare_digest(want, mac) or not fields:
            found.problems.append(f"line {seq}: not signed by the hook")
            continue
        seqs.add(seq)
        kind = fields[0]
        if kind == "end" and len(fields) >= 2:
            if len(fields) >= 4 and fields[3].isdigit():
                failed = max(failed, int(fields[3]))
            if first is None and after is not None and index >= after:
                first = seq
                found.checked = int(fields[1]) if fields[1].isdigit() else 0
            if need_final and final is not None and (answered or 0) <= index < final:
                last = seq
        elif kind == "match" and len(fields) >= 6:
            name = tables.full.get(fields[2]) or (tables.code.get(fields[1]) if fields[3] == "code.__new__" else None)
            if name is None:
                continue
            found.matches.append({"kit": name, "as": fields[5][:120], "how": fields[3][:40],
                                  "where": fields[4][:300], "exact": fields[2] in tables.full})
        elif kind == "trace" and len(fields) >= 4:
            if {"event": fields[3][:120]} not in found.traces:
                found.traces.append({"event": fields[3][:120]})
        elif kind == "note" and len(fields) >= 4:
            found.notes.append(fields[3][:120])
        elif kind == "fail":
            failed = max(failed, 1)
            found.problems.append(f"the check failed on {fields[1][:40] if len(fields) > 1 else '?'}")
        elif kind == "more":
            found.problems.append(f"{fields[1] if len(fields) > 1 else '?'} more lines left out")
    if failed:
        found.problems.insert(0, f"the check failed {failed} time(s)")
    if first is None:
        found.problems.append("no end line after the cells")
    if need_final and last is None:
        found.problems.append("no last walk after the answers")
    upto = last if need_final else first
    if upto is not None:
        missing = [n for n in range(upto) if n not in seqs]
        if missing:
            found.problems.append(f"{len(missing)} line(s) missing")
        found.complete = not missing and not failed and first is not None and (last is not None or not need_final)
    return found
