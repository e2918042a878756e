"""``baccarat-kit cases …``: check, list, show and measure the case catalogue.

* ``cases check [PATH ...]`` — every claim of every case, through the engine, and every quote
  against its source page (``--sources``); the ids of the given files against the shipped
  catalogue's; exit 0 when all hold, 1 when a claim or a quote is wrong, 2 when a file cannot
  be read as a case file or a quote could not be verified.
* ``cases list`` — every case and variant id, one a line.
* ``cases show ID`` — the case and the engine's explained trace.
* ``cases coverage`` — the banker-matrix cells the catalogue exercises, and those it does not.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from ..i18n import message
from .catalogue import Catalogue, check, read
from .coverage import coverage
from .problems import Problem
from .verify import count_claims

EXIT_OK, EXIT_WRONG, EXIT_USAGE = 0, 1, 2


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "cases",
        help="check, list and show the worked-case catalogue / 查核、列出、顯示案例目錄",
        description="The worked cases of the source pages, verified by the engine.",
    )
    cmds = p.add_subparsers(dest="cases_command", metavar="ACTION")

    def source_options(q: argparse.ArgumentParser, *, positional: bool) -> None:
        if positional:
            q.add_argument("paths", nargs="*", metavar="PATH",
                           help="case files or folders (default: the shipped catalogue)")
        else:
            q.add_argument("--path", dest="paths", action="append", default=[], metavar="PATH",
                           help="read these case files or folders instead of the shipped catalogue")
        q.add_argument("--with-shipped", action="store_true",
                       help="read (and check) the shipped catalogue too, beside the given paths")

    q = cmds.add_parser("check", help="check every claim through the engine, every quote against its "
                        "source page / 逐項查核宣稱與引文")
    source_options(q, positional=True)
    q.add_argument("--sources", metavar="FOLDER", default=None,
                   help="the source pages (000_*.txt …) to check quotes against "
                        "(default: $BACCARAT_KIT_SOURCES, else shared/seeds beside the kit's checkout)")
    q.set_defaults(func=_cmd_check)
    q = cmds.add_parser("list", help="every case and variant id, one a line / 列出全部 id")
    source_options(q, positional=False)
    q.add_argument("-q", "--quiet", action="store_true", help="ids only")
    q.set_defaults(func=_cmd_list)
    q = cmds.add_parser("show", help="a case with the engine's explained trace / 顯示案例")
    q.add_argument("case_id", metavar="ID")
    source_options(q, positional=False)
    q.set_defaults(func=_cmd_show)
    q = cmds.add_parser("coverage", help="banker-matrix cells the cases exercise / 矩陣覆蓋")
    source_options(q, positional=False)
    q.set_defaults(func=_cmd_coverage)
    p.set_defaults(func=lambda args: _usage(p))


def _usage(parser: argparse.ArgumentParser) -> int:
    parser.print_help(sys.stderr)
    return EXIT_USAGE


def _read(args: argparse.Namespace) -> tuple[Catalogue, tuple[Problem, ...]]:
    paths: Sequence[str] = args.paths
    if not paths:
        return read(None)
    return read(paths, shipped=args.with_shipped)


def _cmd_check(args: argparse.Namespace) -> int:
    from ..sources import find

    paths: Sequence[str] = args.paths
    catalogue, problems = check(paths or None, shipped=True if args.with_shipped else None,
                                sources=args.sources)
    for problem in problems:
        print(problem.message(args.lang))
    count = {kind: sum(1 for p in problems if p.kind == kind) for kind in ("claim", "quote", "unverified")}
    schema = len(problems) - sum(count.values())
    n_cases = len(catalogue.all())
    if not problems:
        quotes = sum(1 for c in catalogue.all() if c.quote)
        pages = find(args.sources) if quotes else None
        where = message("cases.cli.sources", args.lang, folder=pages.folder) if pages is not None else ""
        print(message("cases.cli.check-ok", args.lang, files=len(catalogue.files), cases=n_cases,
                      claims=sum(count_claims(c) for c in catalogue.all()), quotes=quotes, where=where))
        return EXIT_OK
    print(message("cases.cli.check-bad", args.lang, files=len(catalogue.files), cases=n_cases,
                  wrong=count["claim"], misquoted=count["quote"], schema=schema,
                  unverified=count["unverified"]), file=sys.stderr)
    return EXIT_USAGE if schema or count["unverified"] else EXIT_WRONG


def _schema_failed(problems: tuple[Problem, ...], lang: str) -> bool:
    for problem in problems:
        print(problem.message(lang), file=sys.stderr)
    return bool(problems)


def _cmd_list(args: argparse.Namespace) -> int:
    catalogue, schema = _read(args)
    if _schema_failed(schema, args.lang):
        return EXIT_USAGE
    for case in catalogue.all():
        if args.quiet:
            print(case.id)
        else:
            print(f"{case.id}\t{case.source}\t{case.kind}\t{case.title(args.lang)}")
    return EXIT_OK


def _cmd_show(args: argparse.Namespace) -> int:
    catalogue, schema = _read(args)
    if _schema_failed(schema, args.lang):
        return EXIT_USAGE
    case = catalogue[args.case_id]  # UnknownCase is a BaccaratError: one line, exit 2
    print(case.explain(args.lang))
    return EXIT_OK if not case.check() else EXIT_WRONG


def _cmd_coverage(args: argparse.Namespace) -> int:
    catalogue, schema = _read(args)
    if _schema_failed(schema, args.lang):
        return EXIT_USAGE
    print(coverage(catalogue).table(args.lang))
    return EXIT_OK
