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
                   help="show each learner as a number in a random order, not by name (with --export-csv: "
                        "numbers in FILE, the key to them in a file of its own, --key)")
    p.add_argument("--export-csv", metavar="FILE", default=None,
                   help="write every written answer and its score so far to FILE (a new file), then stop")
    p.add_argument("--import-csv", metavar="FILE", default=None,
                   help="take the scores and comments of FILE (made by --export-csv); nothing is taken if a row is wrong")
    p.add_argument("--key", metavar="FILE", default=None,
                   help="the key of an anonymous export: where --export-csv --anonymous writes it (default: FILE's "
                        "name with -key, a new file), and what --import-csv reads for a file of numbers")
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
        found = manual.answers(rows)
        numbers = manual.anonymous_numbers(found) if args.anonymous else None
        key = Path(args.key) if args.key else target.with_name(f"{target.stem}-key{target.suffix or '.csv'}")
        for path in (target, key) if numbers is not None else (target,):
            if path.exists() or path.is_symlink():  # both checked before either is written
                raise manual.ManualError("manual.cli.export_exists", file=path)
        _write_new(target, manual.export_csv(rows, marks, numbers))
        if numbers is not None:
            _write_new(key, manual.key_csv(numbers))
        print(message("manual.cli.exported", args.lang, file=target, total=len(found),
                      scored=sum(1 for a in found if a.marks(marks)[0] is not None)))
        if numbers is not None:
            print(message("manual.cli.exported_key", args.lang, key=key))
        return 0
    if args.import_csv:
        data = _read_csv(Path(args.import_csv))
        numbers = manual.read_key(_read_csv(Path(args.key)), Path(args.key).name) if args.key else None
        marks = manual.import_csv(data, rows, marks, Path(args.import_csv).name, numbers)
        manual.save(folder, marks)
        doc = publish.publish(folder, exercises, args.lang, marks)
        scored, total = manual.summary(doc["submissions"])
        print(message("manual.cli.imported", args.lang, file=args.import_csv, scored=scored, total=total,
                      folder=folder))
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


def _write_new(target: Path, text: str) -> None:
    """``text`` into a new file (0600): an instructor's file is never overwritten."""
    from ..term import manual

    try:
        fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600)
    except FileExistsError:
        raise manual.ManualError("manual.cli.export_exists", file=target) from None
    with os.fdopen(fd, "w", encoding="utf-8", newline="") as fh:
        fh.write(text)


def _read_csv(source: Path) -> bytes:
    """A CSV the instructor gives: a regular file only (a FIFO or a device would block or never
    end), at most one byte over the limit read (:func:`..term.manual.import_csv` refuses it)."""
    from ..term import manual

    if not source.is_file():
        raise manual.ManualError("manual.error.csv_not_file", file=source)
    with source.open("rb") as fh:
        return fh.read(manual.MAX_CSV_BYTES + 1)
