"""The ``baccarat-kit`` command: a thin layer over the library.

Each sub-command lives beside the code it drives and registers itself through
:data:`COMMANDS` ("module:function"; the function receives the sub-parsers object
and adds its parser with ``set_defaults(func=…)``). Every
:class:`~baccarat_kit.errors.BaccaratError` becomes one line on stderr and exit 2.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from .errors import BaccaratError
from .i18n import message, normalize_language, set_language

COMMANDS: list[str] = [
    "baccarat_kit.cli:register_play",
    "baccarat_kit.cases.cli:register",
    "baccarat_kit.odds_cli:register_cli",
    "baccarat_kit.grading.cli:register",
    "baccarat_kit.grading.cli:register_report",
    "baccarat_kit.grading.cluster_cli:register",
    "baccarat_kit.grading.grade_manual.cli:register",
    "baccarat_kit.course:register",
    "baccarat_kit.hub.cli:register",
    "baccarat_kit.progress:register",
    "baccarat_kit.cheatsheet:register",
]


def register_play(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "play",
        help="play one coup from cards in deal order and explain it / 依發牌順序打一局並逐步說明",
        description="Deal P1 B1 P2 B2, then the third cards, explain every decision, settle bets.",
    )
    p.add_argument("cards", help='cards in deal order, e.g. "2 3 3 4 4"')
    p.add_argument("--bet", action="append", default=[], metavar="AREA=STAKE",
                   help="a bet, e.g. player=100 (repeatable; areas: player banker tie player-pair banker-pair)")
    p.add_argument("--table", default="commission",
                   help="pay table: commission, commission-tie-9, no-commission (default: commission)")
    p.set_defaults(func=_cmd_play)


def _cmd_play(args: argparse.Namespace) -> int:
    from .coup import play
    from .settlement import settle

    coup = play(args.cards)
    print(coup.explain(args.lang))
    if args.bet:
        bets = []
        for item in args.bet:
            area, sep, stake = item.partition("=")
            if not sep:
                raise BaccaratError("cli.bad_bet", value=item)
            bets.append((area, stake))
        print()
        print(settle(coup, bets, args.table).explain(args.lang))
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="baccarat-kit",
        description="baccarat-kit: Punto Banco drawing rules and settlement, explained "
                    "(百家樂補牌規則與結算教學工具).",
    )
    from . import __version__

    parser.add_argument("--version", action="version", version=f"baccarat-kit {__version__}")
    parser.add_argument("--lang", default=None,
                        help="language of messages: zh (繁體中文, default) or en")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for spec in COMMANDS:
        module_name, _, func = spec.partition(":")
        getattr(importlib.import_module(module_name), func)(sub)
    return parser


def optional_extras() -> dict[str, set[str]]:
    """``{extra: {module names}}`` from the installed package's metadata (one source: the
    ``[project.optional-dependencies]`` of pyproject.toml); nested extras are expanded."""
    import re
    from importlib import metadata

    try:
        requires = metadata.requires("baccarat-kit") or []
    except metadata.PackageNotFoundError:  # pragma: no cover - running from a bare checkout
        return {}
    direct: dict[str, set[str]] = {}
    nested: dict[str, set[str]] = {}
    for req in requires:
        m = re.match(r"\s*([A-Za-z0-9_.-]+)\s*(?:\[([^\]]*)\])?[^;]*;\s*extra\s*==\s*['\"]([^'\"]+)",
                     req)
        if not m:
            continue
        name, inner, extra = m.group(1), m.group(2), m.group(3)
        if re.sub(r"[-_.]+", "-", name.lower()) == "baccarat-kit":
            nested.setdefault(extra, set()).update(x.strip() for x in (inner or "").split(","))
        else:
            direct.setdefault(extra, set()).add(re.sub(r"[-.]+", "_", name.lower()))
    out = {extra: set(mods) for extra, mods in direct.items()}
    for extra, inner_extras in nested.items():
        for inner in inner_extras:
            out.setdefault(extra, set()).update(direct.get(inner, set()))
    return out


def missing_extra(module: str, command: str | None) -> str | None:
    """The extra that provides ``module`` (the command's own extra first), or ``None``."""
    top = module.partition(".")[0].lower()
    extras = {k: v for k, v in optional_extras().items() if k != "test"}
    holders = sorted((e for e, mods in extras.items() if top in mods),
                     key=lambda e: (e != command, len(extras[e]), e))
    return holders[0] if holders else None


def _hoist_lang(argv: list[str]) -> list[str]:
    """Allow ``--lang`` anywhere on the line (before or after the sub-command)."""
    out: list[str] = []
    lang: list[str] = []
    it = iter(argv)
    for arg in it:
        if arg == "--lang":
            lang = ["--lang", next(it, "")]
        elif arg.startswith("--lang="):
            lang = [arg]
        else:
            out.append(arg)
    return lang + out


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code (0 ok, 1 checked and found wrong, 2 bad input)."""
    from . import i18n

    args_list = _hoist_lang(list(sys.argv[1:] if argv is None else argv))
    parser = build_parser()
    args, rest = parser.parse_known_args(args_list)
    if rest:
        if not getattr(args, "passthrough", False):
            parser.error(message("cli.unknown_arguments", None, value=" ".join(rest)))
        args.extra = rest  # `baccarat-kit lab DIR --ServerApp.token=…`: the rest goes to JupyterLab
    args.argv = args_list  # what was typed (a passthrough command checks its folder against it)
    saved = i18n._current
    lang = "en"
    try:
        # The chosen language holds for this command only (restored afterwards).
        lang = set_language(args.lang) if args.lang is not None else normalize_language(None)
        args.lang = lang
        if not getattr(args, "func", None):
            parser.print_help()
            return 2
        return int(args.func(args) or 0)
    except BaccaratError as err:
        print(f"baccarat-kit: {err.message(lang)}", file=sys.stderr)
        return 2
    except ModuleNotFoundError as err:
        extra = missing_extra(err.name or "", getattr(args, "command", None))
        if extra is None:
            raise
        print(f"baccarat-kit: {message('cli.missing_extra', lang, module=err.name, extra=extra)}",
              file=sys.stderr)
        return 2
    except BrokenPipeError:
        # The reader went away (`baccarat-kit cases list | head`): stop quietly.
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except (OSError, UnicodeDecodeError) as err:
        print(f"baccarat-kit: {message('cli.os_error', lang, value=err)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    finally:
        i18n._current = saved


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
