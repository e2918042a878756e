"""The ``release`` and ``grade`` sub-commands (a thin layer over :mod:`.release` and :mod:`.grade`)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..i18n import message
from .grade import DEFAULT_CELL_TIMEOUT, DEFAULT_MEMORY_MB, DEFAULT_NOTEBOOK_TIMEOUT


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
    r.set_defaults(func=_cmd_release)

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
    g.add_argument("--deadline", default=None, metavar="ISO",
                   help="hand-in deadline (ISO 8601, UTC if no zone); later files are flagged late "
                        "(default: the deadline given to collect)")
    g.add_argument("--timeout", type=float, default=DEFAULT_CELL_TIMEOUT, metavar="S",
                   help=f"time limit per cell in seconds (default {DEFAULT_CELL_TIMEOUT:g})")
    g.add_argument("--notebook-timeout", type=float, default=DEFAULT_NOTEBOOK_TIMEOUT, metavar="S",
                   help=f"time limit for a whole notebook in seconds (default {DEFAULT_NOTEBOOK_TIMEOUT:g})")
    g.add_argument("--memory-mb", type=int, default=DEFAULT_MEMORY_MB, metavar="MB",
                   help=f"address-space limit of each kernel in MB (default {DEFAULT_MEMORY_MB})")
    g.add_argument("--jobs", type=int, default=1, metavar="N",
                   help="submissions graded at the same time (default 1)")
    g.add_argument("--source", default=None, metavar="DIR",
                   help="exercise sources with the hidden checks (default: exercises/source of the kit)")
    g.add_argument("--no-progress", action="store_true", help="no progress bar")
    g.add_argument("--no-sandbox", action="store_true",
                   help="run learner code WITHOUT bubblewrap's namespaces, as your own user: only for a "
                        "trusted, single-user run (recorded in results.json)")
    g.set_defaults(func=_cmd_grade)

    c = sub.add_parser(
        "collect",
        help="copy every learner's notebooks into a dated folder / 收取全班的練習",
        description=(
            "Copy ROOT/<learner>/… notebooks (a folder of learner folders, or a JupyterHub /home) into "
            "OUT/<UTC date-time>/<learner>/…, keeping each file's time. Hidden, linked and unreadable "
            "files are listed, not copied. ROOT is never changed."
        ),
    )
    c.add_argument("root", help="folder of learner folders, e.g. submissions/ or /home")
    c.add_argument("--out", required=True, metavar="DIR", help="where the dated folder is made")
    c.add_argument("--glob", default="**/*.ipynb", metavar="PATTERN",
                   help="notebooks inside each learner folder (default **/*.ipynb; JupyterHub: exercises/*.ipynb)")
    c.add_argument("--deadline", default=None, metavar="ISO",
                   help="hand-in deadline (ISO 8601, UTC if no zone): later files are flagged late")
    c.add_argument("--name", default=None, help="name of the new folder (default: the UTC date and time)")
    c.set_defaults(func=_cmd_collect)

    t = sub.add_parser(
        "return",
        help="put each learner's feedback pages into their folder / 發回回饋",
        description="Copy GRADED/feedback pages into ROOT/<learner>/feedback/EXERCISE.html (learner folders "
                    "as collected); never over a file the grader did not write.",
    )
    t.add_argument("graded", help="the folder written by grade --out")
    t.add_argument("--to", required=True, metavar="ROOT", help="the folder of learner folders (as given to collect)")
    t.set_defaults(func=_cmd_return)


def _cmd_release(args: argparse.Namespace) -> int:
    from .term.release import release

    written = release(args.source, args.out, getattr(args, "edition", "zh"),
                      "self-study" if getattr(args, "self_study", False) else "class")
    print(message("grading.release.done", args.lang, count=len(written), out=args.out))
    return 0


def _cmd_grade(args: argparse.Namespace) -> int:
    from .grade import (
        GradeUsageError,
        Limits,
        batch_failure,
        collect_paths,
        default_source,
        grade_paths,
        load_exercises,
        missing_extra,
    )
    from .term.collect import iso, parse_deadline
    from .term.gradebook import check_out_folder, write_outputs

    if args.timeout <= 0 or args.notebook_timeout <= 0 or args.memory_mb < 128 or args.jobs < 1:
        raise GradeUsageError("grading.cli.bad_limits", timeout=args.timeout,
                              notebook=args.notebook_timeout, memory=args.memory_mb, jobs=args.jobs)
    skipped: list[dict[str, str]] = []
    paths = collect_paths(args.paths, skipped)
    out = Path(args.out).resolve()
    for p in paths:
        if out == p.resolve() or out in p.resolve().parents:
            raise GradeUsageError("grading.cli.out_is_input", path=args.out)
    check_out_folder(args.out, args.update)
    deadline = iso(parse_deadline(args.deadline)) if args.deadline else None
    exercises = load_exercises(args.source or default_source())
    missing = missing_extra()
    if missing:
        raise GradeUsageError("grading.cli.missing_extra", modules=", ".join(missing))
    if args.no_sandbox:
        print(message("grading.cli.no_sandbox_warning", args.lang), file=sys.stderr)
    else:
        from .sandbox.bwrap import INSTALL_COMMAND, SandboxMissing, check

        try:
            check()
        except SandboxMissing as err:
            what = message(f"grading.cli.sandbox_{err.reason}", args.lang, detail=err.detail)
            print(f"baccarat-kit grade: {message('grading.cli.no_sandbox', args.lang, detail=what, install=INSTALL_COMMAND)}",
                  file=sys.stderr)
            return 2
    limits = Limits(args.timeout, args.notebook_timeout, args.memory_mb, "none" if args.no_sandbox else "bwrap")
    bar = None
    if not args.no_progress:
        from tqdm import tqdm

        bar = tqdm(total=len(paths), unit="nb", file=sys.stderr, desc="grade")
    try:
        subs = grade_paths(paths, exercises, limits, args.jobs, progress=bar.update if bar else None,
                           deadline=deadline)
    finally:
        if bar is not None:
            bar.close()
    for s in subs:
        for warning in s.warnings:
            print(f"{s.file}: {warning[args.lang]}", file=sys.stderr)
    if args.no_sandbox:
        from ..i18n import both

        for s in subs:
            s.warnings.append(both("grading.warning.no_sandbox"))
        print(message("grading.cli.no_sandbox_warning", args.lang), file=sys.stderr)
    write_outputs(args.out, subs, exercises, limits, args.lang, update=args.update, skipped=skipped)
    for item in skipped:
        print(f"{item['file']}: {item[args.lang]}", file=sys.stderr)
    mean = sum(s.score for s in subs) / len(subs)
    print(message("grading.cli.summary", args.lang, count=len(subs), mean=f"{mean:.2f}", out=args.out))
    failure = batch_failure(subs)
    if failure is not None:
        print(f"baccarat-kit: {message('grading.cli.batch_failed', args.lang, reason=failure[args.lang])}",
              file=sys.stderr)
        return 1
    return 0


def _cmd_collect(args: argparse.Namespace) -> int:
    from .term.collect import collect

    done = collect(args.root, args.out, pattern=args.glob, deadline=args.deadline, name=args.name)
    for item in done.skipped:
        print(f"{item['file']}: {item[args.lang]}", file=sys.stderr)
    print(message("grading.collect.done", args.lang, count=len(done.files), out=done.folder))
    return 0


def _cmd_return(args: argparse.Namespace) -> int:
    from .term.hand_back import return_feedback

    written, problems = return_feedback(args.graded, args.to)
    for item in problems:
        print(message("grading.collect.not_returned", args.lang, file=item), file=sys.stderr)
    print(message("grading.collect.returned", args.lang, count=len(written), to=args.to))
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
