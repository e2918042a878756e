"""``baccarat-kit hub …``: the instructor's commands for a class on one machine.

``setup PREFIX`` builds (or upgrades) the learners' environment (:mod:`.env`); ``passwd LIST
NAME…`` adds learners or resets their passwords (new ones are printed once, to hand out);
``hand-out HANDOUT`` gives each learner of the list her own class copies (``release
--class-list``) in ``~/exercises/``, making her account first if she has not signed in yet;
``remove LIST NAME…`` takes learners off the class and removes their accounts and homes;
``remove-term LIST`` does that for the whole list. Account changes need root.
``singleuser`` is what the hub runs as each learner (:class:`.jupyter.LearnerSpawner`): her
course copy, then her JupyterLab, with the code of ``baccarat-kit lab``.
"""

from __future__ import annotations

import argparse
import os
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

    h = cmds.add_parser("hand-out", help="give each learner of the list her own class copies "
                                         "(from `release --class-list`) in ~/exercises/")
    h.add_argument("handout", metavar="HANDOUT", help="the folder written by release --class-list … --out")
    h.add_argument("--class-list", required=True, metavar="LIST",
                   help="the hub's class list: only its learners get copies (and an account)")
    _homes_arguments(h)
    h.set_defaults(func=_cmd_hand_out)

    u = cmds.add_parser("singleuser", help="(run by the hub as the learner) her course copy, "
                                           "then her JupyterLab")
    u.add_argument("--course", default=COURSE_DIR, metavar="DIR",
                   help=f"the course copy, inside her home (default {COURSE_DIR})")
    u.set_defaults(func=_cmd_singleuser, passthrough=True)

    for name, help_text in (("remove", "take learners off the class: account, home, password"),
                            ("remove-term", "remove every learner of the list (end of term)")):
        r = cmds.add_parser(name, help=help_text)
        r.add_argument("class_list", metavar="LIST")
        if name == "remove":
            r.add_argument("names", nargs="+", metavar="NAME")
        r.add_argument("--prefix", default=PREFIX, help=f"Unix name prefix (default {PREFIX})")
        r.set_defaults(func=_cmd_remove)


COURSE_DIR = "course"
"""A learner's course copy, inside her home; her JupyterLab shows the home (``course/``, the class
copies in ``exercises/``, her feedback pages in ``feedback/``)."""


def _homes_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--homes", default=os.environ.get("BACCARAT_HUB_HOMES", "/home"),
                   help="where learners' homes are (default $BACCARAT_HUB_HOMES or /home)")
    p.add_argument("--prefix", default=os.environ.get("BACCARAT_HUB_USER_PREFIX", PREFIX),
                   help=f"Unix name prefix (default $BACCARAT_HUB_USER_PREFIX or {PREFIX})")


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


def _cmd_hand_out(args: argparse.Namespace) -> int:
    """Each learner's account made (as at her first sign-in), then ``hand-out --hub-prefix``."""
    from pathlib import Path

    from ..grading.cli import _cmd_hand_out as hand_out
    from . import accounts, classlist

    listed = classlist.load(args.class_list)
    if not listed:
        raise classlist.HubError("hub.empty_list", path=args.class_list)
    folders = {p.name for p in Path(args.handout).iterdir() if p.is_dir() and not p.is_symlink()} \
        if Path(args.handout).is_dir() else set()
    strangers = sorted(folders - set(listed))
    if strangers:  # (a stranger's account or an old learner's home would have got her copies)
        from ..grading.records import visible

        raise classlist.HubError("hub.handout.not_listed", names=", ".join(visible(n, 80) for n in strangers[:20])
                                 + (" …" if len(strangers) > 20 else ""), count=len(strangers), path=args.class_list)
    for name in sorted(folders):
        accounts.ensure(accounts.unix_name(name, args.prefix), args.homes)
    return hand_out(argparse.Namespace(handout=args.handout, to=args.homes, hub_prefix=args.prefix,
                                       lang=args.lang))


def _cmd_singleuser(args: argparse.Namespace) -> int:
    """Her course copy (written as her: every file hers; what she changed is kept), its first
    layout, then JupyterLab on her home through JupyterHub's single-user server: the code and
    options of ``baccarat-kit lab`` (:func:`baccarat_kit.course.prepare_lab`)."""
    import pwd
    from pathlib import Path

    from .. import course
    from .classlist import HubError

    if os.geteuid() == 0:
        raise HubError("hub.singleuser_root")
    home = Path(os.environ.get("HOME") or pwd.getpwuid(os.getuid()).pw_dir).resolve()
    report, first = course.prepare_lab(home / args.course, args.lang)
    print(report.explain(args.lang), file=sys.stderr)
    cmd = [sys.executable, "-m", "jupyterhub.singleuser",
           *course.lab_options(report.dest, first, root=home, default_url="ServerApp"),
           *getattr(args, "extra", [])]
    return course._exec(cmd, env=course.lab_environment())


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
