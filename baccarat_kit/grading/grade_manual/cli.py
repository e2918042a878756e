"""``baccarat-kit grade-manual GRADED``: score written answers by hand (a page, or a CSV round-trip)."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from ...i18n import message


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "grade-manual",
        help="score written answers by hand against their rubric / 文字題人工評分",
        description=("Serve a page on 127.0.0.1 (a random token in its URL) where you score each written answer "
                     "of GRADED against its rubric, with a comment (keys: j/k, digits, c, Enter); or, with "
                     "--export-csv / --import-csv, do the same in a spreadsheet (one row per learner and question). "
                     "Scores are kept in GRADED/manual.json and merged into results.json, grades.csv, the LMS "
                     "files and the feedback pages; `grade --update` keeps them."),
    )
    p.add_argument("graded", metavar="GRADED", help="the folder written by `baccarat-kit grade … --out DIR`")
    p.add_argument("--source", default=None, metavar="DIR",
                   help="the trusted sources (their rubrics), as given to grade (default: the kit's exercises/source)")
    p.add_argument("--port", type=int, default=0, help="the page's port on 127.0.0.1 (default: one that is free)")
    p.add_argument("--anonymous", action="store_true",
                   help="show each learner as a number in a random order, not by name")
    p.add_argument("--export-csv", metavar="FILE", default=None,
                   help="write every written answer and its score so far to FILE (a new file), then stop")
    p.add_argument("--import-csv", metavar="FILE", default=None,
                   help="take the scores and comments of FILE (made by --export-csv); nothing is taken if a row is wrong")
    p.set_defaults(func=_cmd)


def _cmd(args: argparse.Namespace) -> int:
    from ..grade import default_source, load_exercises
    from ..term import manual
    from ..term.gradebook import read_results
    from . import publish

    folder = Path(args.graded)
    if not (folder / "results.json").is_file():
        from ..term.gradebook import MARKER

        raise manual.ManualError("manual.error.not_gradebook", path=folder, marker=MARKER)
    exercises = load_exercises(args.source or default_source())
    rows = read_results(folder / "results.json").get("submissions", [])
    marks = manual.load(folder)
    if args.export_csv:
        target = Path(args.export_csv)
        try:  # a new file only: an instructor's file is never overwritten
            fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600)
        except FileExistsError:
            raise manual.ManualError("manual.cli.export_exists", file=target) from None
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as fh:
            fh.write(manual.export_csv(rows, marks))
        found = manual.answers(rows)
        print(message("manual.cli.exported", args.lang, file=target, total=len(found),
                      scored=sum(1 for a in found if a.key in marks)))
        return 0
    if args.import_csv:
        source = Path(args.import_csv)
        if not source.is_file():  # (a FIFO or a device would block or never end)
            raise manual.ManualError("manual.error.csv_not_file", file=source)
        with source.open("rb") as fh:  # at most one byte over the limit read (import_csv refuses it)
            data = fh.read(manual.MAX_CSV_BYTES + 1)
        marks = manual.import_csv(data, rows, marks, source.name)
        manual.save(folder, marks)
        doc = publish.publish(folder, exercises, args.lang, marks)
        scored, total = manual.summary(doc["submissions"])
        print(message("manual.cli.imported", args.lang, file=source, scored=scored, total=total, folder=folder))
        return 0
    from .page import Session, serve

    session = Session(folder, exercises, args.lang or "zh", args.anonymous)
    if not session.answers:
        print(message("manual.cli.none", args.lang, folder=folder))
        return 0
    server, url = serve(session, args.port)
    print(message("manual.cli.serving", args.lang, url=url), flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        print(file=sys.stderr)
    finally:
        server.server_close()
    return 0
