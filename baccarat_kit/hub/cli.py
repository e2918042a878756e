"""``baccarat-kit hub …``: the instructor's commands for a class on one machine.

``setup PREFIX`` builds the learners' environment (:mod:`.env`); ``passwd LIST NAME…`` adds
learners or resets their passwords (new ones are printed once, to hand out); ``remove LIST
NAME…`` takes learners off the class and removes their accounts and homes; ``remove-term LIST``
does that for the whole list. Account changes need root.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ..i18n import message
from . import PREFIX


def register(sub: Any) -> None:
    p = sub.add_parser("hub", help="a class on one machine (JupyterHub) / 一台機器上的班級",
                       description="The instructor's commands for the one-machine JupyterHub "
                                   "(deploy/jupyterhub/README.md).")
    cmds = p.add_subparsers(dest="hub_command", metavar="STEP", required=True)

    s = cmds.add_parser("setup", help="build the learners' environment (readable by them, "
                                      "writable only by root) and close this clone to them")
    s.add_argument("prefix", nargs="?", default="/opt/baccarat-hub")
    s.add_argument("--python", default=None, help="interpreter to build on (default: this one "
                   "if every user can run it, else /usr/bin/python3)")
    s.set_defaults(func=_cmd_setup)

    w = cmds.add_parser("passwd", help="add learners or reset their passwords")
    w.add_argument("class_list", metavar="LIST", help="e.g. /opt/baccarat-hub/state/classlist.csv")
    w.add_argument("names", nargs="+", metavar="NAME")
    w.add_argument("--password-stdin", action="store_true",
                   help="read one password per name from stdin (default: generate and print)")
    w.set_defaults(func=_cmd_passwd)

    for name, help_text in (("remove", "take learners off the class: account, home, password"),
                            ("remove-term", "remove every learner of the list (end of term)")):
        r = cmds.add_parser(name, help=help_text)
        r.add_argument("class_list", metavar="LIST")
        if name == "remove":
            r.add_argument("names", nargs="+", metavar="NAME")
        r.add_argument("--prefix", default=PREFIX, help=f"Unix name prefix (default {PREFIX})")
        r.set_defaults(func=_cmd_remove)


def _cmd_setup(args: argparse.Namespace) -> int:
    from pathlib import Path

    from ..locations import repository_root
    from . import env

    bin_dir = env.build(args.prefix, python=args.python)
    state = Path(args.prefix) / "state"
    state.mkdir(mode=0o700, exist_ok=True)
    state.chmod(0o700)
    print(message("hub.setup.done", args.lang, bin=bin_dir, state=state))
    repo = repository_root()
    if repo is not None and env.close_clone(repo):
        print(message("hub.setup.closed", args.lang, path=repo))
    return 0


def _cmd_passwd(args: argparse.Namespace) -> int:
    from . import classlist

    names = [classlist.valid_name(n) for n in args.names]
    if args.password_stdin:
        lines = sys.stdin.read().splitlines()
        if len(lines) < len(names):
            raise classlist.HubError("hub.too_few_passwords", names=len(names), lines=len(lines))
        chosen = dict(zip(names, lines, strict=False))
    else:
        chosen = {n: classlist.generate_password() for n in names}
    classlist.set_passwords(args.class_list, chosen)
    for name in names:
        print(f"{name}\t{chosen[name]}" if not args.password_stdin
              else message("hub.passwd.set", args.lang, name=name))
    return 0


def _cmd_remove(args: argparse.Namespace) -> int:
    from . import accounts, classlist

    names = (list(args.names) if getattr(args, "names", None)
             else sorted(classlist.load(args.class_list)))
    for name in names:
        unix = accounts.unix_name(name, args.prefix)
        removed = accounts.remove(unix)
        print(message("hub.removed" if removed else "hub.no_account", args.lang, user=unix))
    classlist.remove(args.class_list, names)
    return 0
