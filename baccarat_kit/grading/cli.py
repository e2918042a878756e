"""The ``release`` and ``grade`` sub-commands (a thin layer over :mod:`.release` and :mod:`.grade`)."""

from __future__ import annotations

import argparse
import contextlib
import signal
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..i18n import message, normalize_language
from .grade import (
    DEFAULT_CELL_TIMEOUT,
    DEFAULT_MEMORY_MB,
    DEFAULT_NOTEBOOK_TIMEOUT,
    WALL_FACTOR,
    WALL_LIMIT_FACTOR,
)

if TYPE_CHECKING:
    from .judge.checks import Exercise
    from .records import Submission
    from .sandbox.session import Limits
    from .term.deadlines import LatePenalty, TermDeadlines
    from .term.journal import Journal
    from .term.secret import TermSecret


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    r = sub.add_parser(
        "release",
        help="make the learners' exercise notebooks from the sources / 由原稿產生學員版練習",
        description="Copy every SOURCE/*.ipynb to --out with solutions, hidden checks and outputs removed.",
    )
    r.add_argument("source", help="folder of source notebooks, e.g. exercises/source")
    r.add_argument("--out", required=True, help="folder for the learner notebooks, e.g. exercises")
    r.add_argument("--edition", default="zh", choices=["zh", "en"],
                   help="language of the learner copies (default zh; en: e.g. --out exercises/en)")
    r.add_argument("--self-study", action="store_true",
                   help="a self-study copy (the course's own exercises/): hidden checks kept, so "
                        "check() gives the full verdict; default: a class copy, hidden checks removed")
    r.add_argument("--class-list", default=None, metavar="CSV",
                   help="a class list (column learner, as grade and collect read it): one copy per learner, "
                        "OUT/<learner>/exercises/<exercise>.ipynb, her questions written in as data (needs --secret-file)")
    r.add_argument("--secret-file", default=None, metavar="FILE",
                   help="the term secret (made by `baccarat-kit secret new FILE`) each learner's questions come from")
    r.add_argument("--sources", default=None, metavar="FOLDER",
                   help="the source pages (000_*.txt …) the exercises' quotations are checked against "
                        "(default: $BACCARAT_KIT_SOURCES, else shared/seeds beside the kit's checkout)")
    r.set_defaults(func=_cmd_release)

    k = sub.add_parser(
        "secret",
        help="make the term secret of a class / 產生學期密鑰",
        description=("`secret new FILE`: write a new term secret (32 random bytes as hex) to FILE, mode 0600; "
                     "an existing file is never overwritten. release --class-list and grade take it as "
                     "--secret-file; keep it where no learner can read it."),
    )
    k.add_argument("action", choices=["new"], help="new: write a new secret")
    k.add_argument("file", metavar="FILE", help="a path that does not exist yet, e.g. term.key")
    k.set_defaults(func=_cmd_secret)

    g = sub.add_parser(
        "grade",
        help="grade submitted exercise notebooks / 批次評分學員繳交的練習",
        description=(
            "Run every submission in a fresh, limited kernel and grade its answers against the "
            "engine. Writes DIR/grades.csv, DIR/results.json and DIR/feedback/NAME.html. "
            "Exit 0 when every submission got its row (a broken one scores 0 with the reason); "
            "1 when every submission failed for one reason that is not the learners' (the kernel "
            "cannot start); 2 for a usage mistake (no such path, not a notebook, an output folder "
            "the grader did not make, learner copies given as --source, a missing extra)."
        ),
    )
    g.add_argument("paths", nargs="+", metavar="FILES_OR_FOLDERS",
                   help="submitted .ipynb files, or folders searched for them")
    g.add_argument("--out", required=True, metavar="DIR",
                   help="output folder: new, empty, or made by an earlier grade (only its own files are replaced)")
    g.add_argument("--update", action="store_true",
                   help="regrade only the given files: every other row and feedback page in DIR stays")
    g.add_argument("--resume", action="store_true",
                   help="go on with a batch that was stopped (Ctrl-C, SIGTERM, a killed machine): the rows "
                        "it kept (DIR/.baccarat-kit-journal.jsonl) stay, only the rest is graded; the same "
                        "command run again does so too")
    g.add_argument("--deadline", default=None, metavar="ISO",
                   help="hand-in deadline (ISO 8601, UTC if no zone); files collected later are flagged late "
                        "(default: the deadline given to collect). A file not taken by collect has only its "
                        "modification time, which the learner can set: it is used and flagged as untrusted. "
                        "With --update: the gradebook's (kept in results.json) unless given")
    g.add_argument("--class-list", default=None, metavar="CSV",
                   help="a class list with columns learner,deadline: each learner's own deadline (an extension); "
                        "with --update: the gradebook's (kept in results.json) unless given")
    g.add_argument("--late-penalty", default=None, metavar="P%%/day",
                   help="late policy: a late hand-in loses P%% of its score per started day (or hour), e.g. 10%%/day; "
                        "none: no penalty. Default: late hand-ins are flagged, not penalised; with --update, the "
                        "rule the gradebook was graded with")
    g.add_argument("--secret-file", default=None, metavar="FILE",
                   help="the term secret the copies were released with: each file is graded against its "
                        "owner's questions (needed for term copies; copies released without one are keyed "
                        "by their public learner id when it is not given)")
    g.add_argument("--timeout", type=float, default=DEFAULT_CELL_TIMEOUT, metavar="S",
                   help=f"CPU time limit per cell in seconds, the whole sandbox's (default {DEFAULT_CELL_TIMEOUT:g}): "
                        f"a cell that uses no CPU is stopped by the wall clock after {WALL_FACTOR:g} times as long")
    g.add_argument("--notebook-timeout", type=float, default=DEFAULT_NOTEBOOK_TIMEOUT, metavar="S",
                   help=f"CPU time limit for a whole notebook in seconds (default {DEFAULT_NOTEBOOK_TIMEOUT:g}), "
                        f"with a wall-clock backstop {WALL_FACTOR:g} times as long")
    g.add_argument("--wall-limit", type=float, default=None, metavar="S",
                   help=f"wall-clock seconds of one submission, from its first cell to its last answer, however "
                        f"little CPU it uses (a notebook that sleeps or waits stops there, scoring 0; default "
                        f"{WALL_LIMIT_FACTOR:g} times --notebook-timeout: "
                        f"{WALL_LIMIT_FACTOR * DEFAULT_NOTEBOOK_TIMEOUT:g} s)")
    g.add_argument("--batch-wall-limit", type=float, default=None, metavar="S",
                   help="wall-clock seconds of the whole batch (default: none): a submission still running "
                        "when it ends, or not started by then, is left ungraded (status batch_limit, kept "
                        "out of the LMS exports) for a later --update; each may use at most its fair share of "
                        "what is left when it starts, so one that only waits cannot starve the others")
    g.add_argument("--memory-mb", type=int, default=DEFAULT_MEMORY_MB, metavar="MB",
                   help=f"memory of each sandbox in MB: the whole sandbox's total (a cgroup, where the grader can make "
                        f"one) and each process's address space (default {DEFAULT_MEMORY_MB})")
    g.add_argument("--jobs", type=int, default=1, metavar="N",
                   help="submissions graded at the same time (default 1)")
    g.add_argument("--source", default=None, metavar="DIR",
                   help="exercise sources with the hidden checks (default: exercises/source of the kit)")
    g.add_argument("--no-progress", action="store_true", help="no progress bar")
    g.add_argument("--no-sandbox", action="store_true",
                   help="run learner code WITHOUT bubblewrap's namespaces, as your own user: only for a "
                        "trusted, single-user run (recorded in results.json)")
    g.add_argument("--scheduler", default=None, metavar="ADDRESS",
                   help="grade on the workers of a Dask cluster (tls://HOST:PORT, with --certs; the [dask] "
                        "extra): each in its own sandbox with these limits; --jobs is then the workers' threads")
    g.add_argument("--certs", default=None, metavar="DIR",
                   help="the instructor's Dask certificates (made by `baccarat-kit dask-certs DIR`)")
    g.add_argument("--insecure-scheduler", action="store_true",
                   help="allow a plain tcp:// scheduler: whoever reaches it runs code as the workers' user, "
                        "so only on a private network that no learner account can reach")
    g.set_defaults(func=_cmd_grade)

    d = sub.add_parser(
        "dask-certs",
        help="make the TLS certificates of a grading cluster / 產生 Dask 評分叢集的憑證",
        description=(
            "Write DIR/ca.pem and a certificate and key for the scheduler, the workers and the "
            "instructor (keys 0600, DIR 0700), signed by a CA of their own whose private key is "
            "then thrown away. Give scheduler.* to the scheduler, worker.* to every worker, keep "
            "instructor.* yourself; the scheduler and workers refuse anyone without one of them. Start "
            "them with `baccarat-kit dask-cluster scheduler|worker|local --certs DIR`, which loads the role "
            "gate (--preload baccarat_kit.grading.dask_roles) so that a worker's certificate cannot act as "
            "yours (docs/threat-model.md)."
        ),
    )
    d.add_argument("folder", metavar="DIR", help="a new (or empty) folder")
    d.add_argument("--host", action="append", default=None, metavar="NAME",
                   help="a host name or address written into the certificates (repeatable; "
                        "default localhost and 127.0.0.1)")
    d.add_argument("--days", type=int, default=365, help="how long the certificates are valid (default 365)")
    d.set_defaults(func=_cmd_dask_certs)

    c = sub.add_parser(
        "collect",
        help="copy every learner's notebooks into a dated folder / 收取全班的練習",
        description=(
            "Copy ROOT/<learner>/… notebooks (a folder of learner folders, or a JupyterHub /home) into "
            "OUT/<UTC date-time>/<learner>/…; the time of this collect is every file's hand-in time (run it "
            "at the deadline). Hidden files, links, special files, files over 20 MB and unreadable files "
            "are listed with the reason, not copied; every other learner is still collected. ROOT is never changed."
        ),
    )
    c.add_argument("root", help="folder of learner folders, e.g. submissions/ or /home")
    c.add_argument("--out", required=True, metavar="DIR", help="where the dated folder is made")
    c.add_argument("--glob", default="**/*.ipynb", metavar="PATTERN",
                   help="notebooks inside each learner folder (default **/*.ipynb; JupyterHub: exercises/*.ipynb)")
    c.add_argument("--deadline", default=None, metavar="ISO",
                   help="hand-in deadline (ISO 8601, UTC if no zone): a collect after it flags its files late "
                        "(the hand-in time is the time of this collect, never the file's own time)")
    c.add_argument("--class-list", default=None, metavar="CSV",
                   help="a class list with columns learner,deadline: each learner's own deadline (an extension)")
    c.add_argument("--only", default=None, action="append", metavar="LEARNERS",
                   help="collect only these learner folders (comma-separated, or --only again): a later "
                        "collect for an extension")
    c.add_argument("--name", default=None, help="name of the new folder (default: the UTC date and time)")
    c.add_argument("--hub-prefix", default=None, metavar="PREFIX",
                   help="a hub with a Unix user per learner (e.g. jupyter-): read only the homes "
                        "ROOT/PREFIXNAME, only files that user owns; the learner id is NAME")
    c.set_defaults(func=_cmd_collect)

    t = sub.add_parser(
        "return",
        help="put each learner's feedback pages into their folder / 發回回饋",
        description="Copy GRADED/feedback pages into ROOT/<learner>/feedback/EXERCISE.html (learner folders "
                    "as collected); never over a file the grader did not write.",
    )
    t.add_argument("graded", help="the folder written by grade --out")
    t.add_argument("--to", required=True, metavar="ROOT", help="the folder of learner folders (as given to collect)")
    t.add_argument("--hub-prefix", default=None, metavar="PREFIX",
                   help="as given to collect: pages go to ROOT/PREFIXNAME/feedback/")
    t.set_defaults(func=_cmd_return)

    h = sub.add_parser(
        "hand-out",
        help="put each learner's released copies into her folder / 把每位學員自己的練習放進她的資料夾",
        description="Copy HANDOUT/<learner>/<folder>/*.ipynb (as `release --class-list` writes them) into "
                    "ROOT/<learner>/<folder>/, through no link, as the learner's files; a file already "
                    "there is never replaced (it is listed as kept).",
    )
    h.add_argument("handout", help="the folder written by release --class-list … --out")
    h.add_argument("--to", required=True, metavar="ROOT", help="the folder of learner folders (as given to collect)")
    h.add_argument("--hub-prefix", default=None, metavar="PREFIX",
                   help="a hub with a Unix user per learner: copies go to ROOT/PREFIXNAME/, a home that user owns")
    h.set_defaults(func=_cmd_hand_out)


def _cmd_release(args: argparse.Namespace) -> int:
    from .term.release import release
    from .term.secret import read_secret

    secret = read_secret(args.secret_file) if getattr(args, "secret_file", None) else None
    class_list = getattr(args, "class_list", None)
    notes: list[dict[str, str]] = []  # quotations that could not be verified: said, never passed in silence
    written = release(args.source, args.out, getattr(args, "edition", "zh"),
                      "self-study" if getattr(args, "self_study", False) else "class",
                      class_list=class_list, secret=secret, sources=getattr(args, "sources", None), notes=notes)
    for note in notes:
        print(note[normalize_language(args.lang)], file=sys.stderr)
    if secret is not None and class_list is not None:
        learners = {p.parent.parent.name for p in written}
        print(message("term.release.done", args.lang, learners=len(learners),
                      per=len(written) // max(1, len(learners)), out=args.out, fingerprint=secret.fingerprint))
    else:
        print(message("grading.release.done", args.lang, count=len(written), out=args.out))
    return 0


def _cmd_secret(args: argparse.Namespace) -> int:
    from .term.secret import new_secret, read_secret

    path = new_secret(args.file)
    print(message("term.secret.written", args.lang, path=path, fingerprint=read_secret(path).fingerprint))
    return 0


def _cmd_grade(args: argparse.Namespace) -> int:
    from .grade import (
        BatchStopped,
        GradeUsageError,
        Limits,
        collect_paths,
        default_source,
        journal_rows,
        load_exercises,
        missing_extra,
    )
    from .report.feedback import feedback_html
    from .term.collect import CollectError
    from .term.deadlines import gradebook_penalty, penalty_option, term_deadlines
    from .term.gradebook import check_out_folder, read_results, write_outputs

    if (args.timeout <= 0 or args.notebook_timeout <= 0 or args.memory_mb < 128 or args.jobs < 1
            or (args.wall_limit is not None and not args.wall_limit > 0)
            or (args.batch_wall_limit is not None and not args.batch_wall_limit > 0)):
        raise GradeUsageError("grading.cli.bad_limits", timeout=args.timeout, notebook=args.notebook_timeout,
                              wall=args.wall_limit, batch=args.batch_wall_limit, memory=args.memory_mb,
                              jobs=args.jobs)
    if args.scheduler is not None:
        from .cluster import check_address

        check_address(args.scheduler, args.certs, args.insecure_scheduler)
    elif args.certs is not None or args.insecure_scheduler:
        raise GradeUsageError("grading.dask.needs_scheduler")
    from .term.collect import skipped_at_collect

    skipped: list[dict[str, str]] = []
    paths = collect_paths(args.paths, skipped)
    skipped += skipped_at_collect(args.paths)  # refused at collect: kept, and shown as refused
    out = Path(args.out).resolve()
    for p in paths:
        if out == p.resolve() or out in p.resolve().parents:
            raise GradeUsageError("grading.cli.out_is_input", path=args.out)
    from .term.journal import JOURNAL_NAME, Journal

    resuming = Journal.exists(out)
    if args.resume and not resuming:
        raise GradeUsageError("grading.cli.nothing_to_resume", path=args.out, journal=JOURNAL_NAME)
    check_out_folder(args.out, args.update, resuming)
    old_doc = read_results(Path(args.out) / "results.json") if args.update else None
    dates = term_deadlines(args.deadline, args.class_list, old_doc)  # --update: the gradebook's, unless given
    deadline, deadlines = dates.deadline, dates.deadlines
    if old_doc is not None:
        _say_deadlines(dates, args.lang)
    penalty = penalty_option(args.late_penalty) if args.late_penalty is not None else None
    known = list(deadlines)
    book_rule = penalty  # the gradebook's own late rule, kept in results.json for the next --update
    if old_doc is not None:
        known += [str(r.get("owner")) for r in old_doc.get("submissions", []) if r.get("owner")]
        try:
            book_rule = gradebook_penalty(old_doc)
        except CollectError:
            if args.late_penalty is None:  # rows of several rules: which one is for these files?
                raise
            book_rule = None
        if args.late_penalty is None:  # a regraded late file keeps the rule the others were graded by
            penalty = book_rule
            if penalty is not None:
                print(message("grading.cli.update_penalty", args.lang, rule=penalty.text), file=sys.stderr)
    exercises = load_exercises(args.source or default_source())
    term = None
    if args.secret_file:
        from .term.secret import read_secret

        term = read_secret(args.secret_file)
    missing = missing_extra()
    if missing:
        raise GradeUsageError("grading.cli.missing_extra", modules=", ".join(missing))
    if args.no_sandbox:
        print(message("grading.cli.no_sandbox_warning", args.lang), file=sys.stderr)
    elif args.scheduler is None:  # else each worker's sandbox is checked when connecting
        from .sandbox.bwrap import INSTALL_COMMAND, SandboxMissing, check

        try:
            check()
        except SandboxMissing as err:
            what = message(f"grading.cli.sandbox_{err.reason}", args.lang, detail=err.detail)
            print(f"baccarat-kit grade: {message('grading.cli.no_sandbox', args.lang, detail=what, install=INSTALL_COMMAND)}",
                  file=sys.stderr)
            return 2
    _refuse_case_clashes(paths, (old_doc or {}).get("submissions", []))  # (before a row is graded)
    limits = Limits(args.timeout, args.notebook_timeout, args.memory_mb, "none" if args.no_sandbox else "bwrap",
                    wall_limit=args.wall_limit, batch_wall_limit=args.batch_wall_limit)
    journal = Journal(out, {"update": args.update, "sandbox": limits.sandbox, "timeout": args.timeout,
                            "notebook_timeout": args.notebook_timeout, "wall_limit": args.wall_limit,
                            "memory_mb": args.memory_mb, "secret": term.fingerprint if term is not None else None,
                            "source": str(Path(args.source or default_source()).resolve())})
    kept = journal.check()  # (made once the batch can start: a refused cluster leaves no folder)
    if resuming:
        print(message("grading.cli.resuming", args.lang, out=args.out, kept=kept), file=sys.stderr)
    read_as = _stat(Path(args.out) / "results.json")

    def write(subs: list[Submission], keep: tuple[str, ...] = (), rows_out: list[dict[str, Any]] | None = None) -> Path:
        """The gradebook (the one read above, unless it changed since: read again then)."""
        same = old_doc if old_doc is not None and _stat(Path(args.out) / "results.json") == read_as else None
        return write_outputs(args.out, subs, exercises, limits, args.lang, page=feedback_html, update=args.update,
                             skipped=skipped, late_policy=book_rule.text if book_rule is not None else None,
                             term=dates.record(), resuming=True, keep=keep, old_doc=same, rows_out=rows_out)

    try:
        with _stop_on_signals(), contextlib.ExitStack() as stack:
            subs = _grade_batch(stack, args, paths, exercises, limits, deadline, deadlines, penalty, known, term,
                                journal)
    except (BatchStopped, KeyboardInterrupt) as stop:
        subs = journal_rows(paths, journal, deadline, deadlines, penalty, known)
        keyed = [s for s in subs if s.status not in ("needs_secret", "other_secret")] if args.update else subs
        keyed = _settle(keyed, (old_doc or {}).get("submissions", []), args.lang)
        if keyed:  # (as a whole batch: a regrade that could not be keyed replaces nothing)
            write(keyed, keep=(JOURNAL_NAME,))
        signum = stop.signum if isinstance(stop, BatchStopped) else signal.SIGINT
        print(message("grading.cli.stopped" if subs else "grading.cli.stopped_none", args.lang,
                      signal=signal.Signals(signum).name, kept=len(subs), total=len(paths), out=args.out,
                      left=len(paths) - len(subs)), file=sys.stderr)
        return 128 + signum
    return _graded(args, subs, skipped, write, journal, (old_doc or {}).get("submissions", []))


def _stat(path: Path) -> tuple[int, int, int] | None:
    try:
        st = path.stat()
    except OSError:
        return None
    return st.st_ino, st.st_size, st.st_mtime_ns


@contextlib.contextmanager
def _stop_on_signals() -> Iterator[None]:
    """While a batch is graded, SIGTERM raises :class:`.grade.BatchStopped` (and Ctrl-C, as always,
    KeyboardInterrupt) in this thread, once: a second one acts as it would have."""
    import threading

    from .grade import BatchStopped

    if threading.current_thread() is not threading.main_thread():  # (only the main thread gets signals)
        yield
        return
    previous = {s: signal.getsignal(s) for s in (signal.SIGTERM, signal.SIGINT)}

    def stopped(signum: int, _frame: object) -> None:
        for s, handler in previous.items():
            signal.signal(s, handler)
        raise BatchStopped(signum)

    for s in previous:
        signal.signal(s, stopped)
    try:
        yield
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)


def _grade_batch(stack: contextlib.ExitStack, args: argparse.Namespace, paths: list[Path],
                 exercises: dict[str, Exercise], limits: Limits, deadline: str | None,
                 deadlines: Mapping[str, str], penalty: LatePenalty | None, known: list[str],
                 term: TermSecret | None, journal: Journal) -> list[Submission]:
    from .grade import grade_paths

    submit = None
    if args.scheduler is not None:
        from .cluster import remote_grading

        submit = stack.enter_context(remote_grading(args.scheduler, args.certs, args.insecure_scheduler,
                                                    exercises, limits))
    journal.open()
    bar = None
    if not args.no_progress:
        from tqdm import tqdm

        bar = tqdm(total=len(paths), unit="nb", file=sys.stderr, desc="grade")
        stack.callback(bar.close)
    return grade_paths(paths, exercises, limits, args.jobs, progress=bar.update if bar else None,
                       deadline=deadline, deadlines=deadlines, penalty=penalty, known=known, submit=submit,
                       term=term, journal=journal)


def _graded(args: argparse.Namespace, subs: list[Submission], skipped: list[dict[str, str]],
            write: Callable[..., Path], journal: Journal, old_rows: list[dict[str, Any]]) -> int:
    """What a whole batch says and writes (the gradebook, from its rows; the journal then goes;
    ``old_rows``: the gradebook's that ``--update`` writes into)."""
    from ..i18n import both as _both
    from .grade import batch_failure
    from .grade_manual.publish import written_view
    from .records import visible
    from .term.gradebook import exercise_means

    untrusted = _both("grading.warning.mtime_deadline")[args.lang]
    for s in subs:  # learner text (file names, ids) only through visible(): no terminal escapes
        for warning in s.warnings:
            if warning[args.lang] != untrusted:
                print(visible(f"{s.file}: {warning[args.lang]}", 2000), file=sys.stderr)
    needs_secret = sum(1 for s in subs if s.status == "needs_secret")
    if needs_secret:
        print(message("grading.cli.needs_secret", args.lang, count=needs_secret), file=sys.stderr)
    other_secret = sum(1 for s in subs if s.status == "other_secret")
    if other_secret:  # the wrong --secret-file: every such row is 0, say so before anyone returns them
        print(message("grading.cli.other_secret", args.lang, count=other_secret), file=sys.stderr)
    over_budget = sum(1 for s in subs if s.status == "batch_limit")
    if over_budget:
        print(message("grading.cli.batch_limit", args.lang, count=over_budget, seconds=args.batch_wall_limit),
              file=sys.stderr)
    mismatches = sum(1 for s in subs if s.identity_mismatch)
    if mismatches:
        print(message("grading.cli.mismatches", args.lang, count=mismatches), file=sys.stderr)
    untouched = sum(1 for s in subs if s.status == "not_attempted")
    if untouched:
        print(message("grading.cli.not_attempted", args.lang, count=untouched), file=sys.stderr)
    by_mtime = sum(1 for s in subs if s.time_source == "mtime" and s.deadline)
    if by_mtime:
        print(message("grading.cli.mtime_deadline", args.lang, count=by_mtime), file=sys.stderr)
    if args.no_sandbox:
        from ..i18n import both

        for s in subs:
            s.warnings.append(both("grading.warning.no_sandbox"))
        print(message("grading.cli.no_sandbox_warning", args.lang), file=sys.stderr)
    if args.update:  # a regrade the set-up could not key (no, or another term's, secret) replaces nothing
        unkeyed = sum(1 for s in subs if s.status in ("needs_secret", "other_secret"))
        if unkeyed:
            print(message("grading.cli.update_unkeyed", args.lang, count=unkeyed), file=sys.stderr)
            subs = [s for s in subs if s.status not in ("needs_secret", "other_secret")]
        if not subs:
            journal.remove()
            return 1
    subs = _settle(subs, old_rows, args.lang)
    if not subs:  # (an --update of untouched copies only: her answered rows stay, nothing to write)
        journal.remove()
        return 0
    rows: list[dict[str, Any]] = []
    write(subs, rows_out=rows)
    for item in skipped:
        print(visible(f"{item['file']}: {item[args.lang]}", 2000), file=sys.stderr)
    means = [message("grading.cli.summary_pending" if pending else "grading.cli.summary_exercise", args.lang,
                     exercise=ex, mean=f"{mean:.1f}", max=most, n=n, pending=pending, graded=f"{graded:.4g}")
             if ex is not None else message("grading.cli.summary_no_exercise", args.lang, n=n)
             for ex, mean, most, n, pending, graded in exercise_means(
                 written_view(args.out, [s for s in subs if s.status != "not_attempted"], args.lang, rows))]
    # (an untouched copy is no 0 of hers: the means are of the copies answered; the line above counts them)
    means = means or [message("grading.cli.summary_none_answered", args.lang)]
    print(message("grading.cli.summary", args.lang, count=len(subs),
                  means=message("grading.cli.summary_sep", args.lang).join(means), out=args.out))
    failure = batch_failure(subs)
    if failure is not None:
        print(f"baccarat-kit: {message('grading.cli.batch_failed', args.lang, reason=failure[args.lang])}",
              file=sys.stderr)
        return 1
    return 0


def _refuse_case_clashes(paths: Sequence[Path], old_rows: list[dict[str, Any]]) -> None:
    """Learner folders whose names differ only in case (the folders ``collect`` took the files
    from, and the gradebook's owners on ``--update``) are refused before anything is graded or
    written (:func:`.term.handin.case_clashes`: the merge would replace her row, the LMS files
    list two learners)."""
    from .records import GradeUsageError, visible
    from .term.collect import manifest_entry
    from .term.handin import case_clashes

    owners = [str((manifest_entry(p) or {}).get("owner") or "") for p in paths]
    clash = case_clashes([*owners, *(str(r.get("owner") or "") for r in old_rows)])
    if clash:
        raise GradeUsageError("grading.cli.case_clash", names="; ".join(" / ".join(map(visible, g)) for g in clash))


def _settle(subs: list[Submission], old_rows: list[dict[str, Any]], lang: str) -> list[Submission]:
    """The rows a batch writes into the gradebook (``old_rows``: the one ``--update`` writes into):
    an untouched copy that would replace her answered row of the exercise is left out, said on
    stderr (it never counts over it: :func:`.term.export.counting_order`). (Folders differing only
    in case were refused before grading: :func:`_refuse_case_clashes`.)"""
    from .records import visible

    answered = {(str(r.get("owner")).casefold(), r.get("exercise")) for r in old_rows
                if r.get("owner") and r.get("status") != "not_attempted"}
    untouched = [s for s in subs if s.status == "not_attempted" and s.owner
                 and (s.owner.casefold(), s.exercise) in answered]
    if untouched:
        print(message("grading.cli.update_untouched", lang, count=len(untouched),
                      files=", ".join(visible(s.file, 200) for s in untouched[:5])), file=sys.stderr)
    return [s for s in subs if s not in untouched]


def _say_deadlines(dates: TermDeadlines, lang: str) -> None:
    """On ``--update``: which deadline and class list the regraded files get (this command's, or
    the gradebook's), on stderr."""
    none = message("grading.cli.update_none", lang)
    when = dates.deadline or message("grading.cli.update_collect_deadline", lang)  # (handin.stamp: then the collect's)
    listed = (message("grading.cli.update_class_list", lang, file=dates.class_list or "?", count=len(dates.deadlines))
              if dates.class_list_from != "none" else none)
    print(message("grading.cli.update_deadlines", lang, deadline=when,
                  deadline_from=message(f"grading.cli.update_from_{dates.deadline_from}", lang, option="--deadline"),
                  class_list=listed,
                  class_list_from=message(f"grading.cli.update_from_{dates.class_list_from}", lang,
                                          option="--class-list")), file=sys.stderr)


def _cmd_dask_certs(args: argparse.Namespace) -> int:
    from .cluster import make_certs

    written = make_certs(args.folder, args.host or ("localhost", "127.0.0.1"), args.days)
    print(message("grading.dask.certs_written", args.lang, count=len(written), path=args.folder))
    return 0


def _cmd_collect(args: argparse.Namespace) -> int:
    from .records import visible
    from .term import collect as _collect
    from .term.deadlines import read_class_list

    deadlines = read_class_list(args.class_list) if args.class_list else None
    only = {n.strip() for part in args.only for n in part.split(",") if n.strip()} if args.only else None
    root = Path(args.root)
    missing = sorted(n for n in only or () if not (root / f"{args.hub_prefix or ''}{n}").is_dir())
    if missing and root.is_dir():  # a typo collected nothing, silently, into a new folder
        there = sorted(p.name for p in root.iterdir() if p.is_dir() and not p.name.startswith("."))
        raise _collect.CollectError("grading.collect.only_missing", names=", ".join(missing), root=root,
                                    choices=", ".join(there[:20]) + (" …" if len(there) > 20 else ""))
    done = _collect.collect(args.root, args.out, pattern=args.glob, deadline=args.deadline, name=args.name,
                            now=_collect.clock(), deadlines=deadlines, only=only,
                            hub_prefix=args.hub_prefix)
    for item in done.skipped:  # names from learner folders: escaped, one line each
        print(visible(f"{item['file']}: {item[args.lang]}", 2000), file=sys.stderr)
    print(message("grading.collect.done", args.lang, count=len(done.files), out=done.folder))
    if done.late:  # a collect after the deadline flags every file late: say so, not only in the manifest
        names = ", ".join(done.late[:10]) + (" …" if len(done.late) > 10 else "")
        print(visible(message("grading.collect.late", args.lang, count=len(done.late), names=names), 2000))
    return 0


def _cmd_return(args: argparse.Namespace) -> int:
    from .records import visible
    from .term.hand_back import return_feedback

    written, problems = return_feedback(args.graded, args.to, args.hub_prefix)
    for item in problems:
        why = message(f"grading.returned.{item['reason']}", args.lang)
        print(visible(message("grading.collect.not_returned", args.lang, file=item["file"], why=why), 2000),
              file=sys.stderr)
    print(message("grading.collect.returned", args.lang, count=len(written), to=args.to))
    return 0


def _cmd_hand_out(args: argparse.Namespace) -> int:
    from .records import visible
    from .term.hand_out import hand_out

    done = hand_out(args.handout, args.to, args.hub_prefix)
    if not done.written and not done.kept and done.problems and all(p["reason"] == "no_folder" for p in done.problems):
        # not one learner has a folder there: --to (or --hub-prefix) is wrong, or no home is made yet
        from .term.collect import CollectError

        names = [Path(p["file"]).name for p in done.problems]
        raise CollectError("grading.handout.no_learner_folders", to=args.to, count=len(names),
                           names=", ".join(names[:5]) + (" …" if len(names) > 5 else ""))
    for path in done.kept:
        print(visible(message("grading.handout.kept", args.lang, file=path), 2000), file=sys.stderr)
    for item in done.problems:  # no_folder: not "from collection", as return says it
        if item["reason"] == "other_learner":
            why = message("grading.handout.other_learner", args.lang, learner=item["learner"], folder=item["folder"])
        else:
            why = message("grading.handout.no_folder" if item["reason"] == "no_folder"
                          else f"grading.returned.{item['reason']}", args.lang)
        print(visible(message("grading.handout.not_handed_out", args.lang, file=item["file"], why=why), 2000),
              file=sys.stderr)
    print(message("grading.handout.done", args.lang, count=len(done.written), kept=len(done.kept), to=args.to))
    return 0


def register_report(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "report",
        help="one HTML page on what a graded class got wrong / 全班報告（常見誤解、分數、需要查看的狀態）",
        description=(
            "Write a self-contained HTML report from a graded folder (its results.json): score "
            "distributions, each question's success rate, the misconceptions the class showed with "
            "links to the lessons, a learners × exercises grid and the statuses that need your eye. "
            "--lang zh|en (anywhere on the line) chooses its language."
        ),
    )
    p.add_argument("graded", metavar="GRADED_DIR", help="folder written by `baccarat-kit grade … --out DIR`")
    p.add_argument("--out", metavar="FILE", default=None,
                   help="the HTML file (default: GRADED_DIR-report.html beside the folder)")
    p.add_argument("--lessons-url", metavar="URL", default=None,
                   help="where lesson links point, e.g. http://localhost:8888/lab/tree/notebooks/ "
                        "(default: the kit's notebooks/ folder, relative to the report)")
    p.set_defaults(func=_cmd_report)


def _cmd_report(args: argparse.Namespace) -> int:
    from .report import write_report

    path, rep = write_report(args.graded, args.out, args.lang, args.lessons_url)
    known = sum(1 for lr in rep.learners if lr.known)
    print(message("report.written", args.lang, path=path, learners=known, submissions=rep.submissions))
    return 0
