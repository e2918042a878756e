"""Learners' Unix accounts: ``jupyter-NAME``, made at first login, removed at the end of term.

Every account carries :data:`~baccarat_kit.hub.MARKER` in its comment field; an existing user
without it is never used for a learner's server and never removed. A learner's home is
``HOMES/jupyter-NAME``, theirs, mode 0700 (no other learner can list, read or write it).
"""

from __future__ import annotations

import contextlib
import os
import pwd
import shutil
import subprocess
import time
from pathlib import Path

from . import MARKER, PREFIX
from .classlist import HubError, valid_name

LOCKED = 10  # useradd/userdel: "cannot lock /etc/passwd; try again later"


def unix_name(learner: str, prefix: str = PREFIX) -> str:
    """``jupyter-alice`` for ``alice`` (at most 32 characters, as useradd allows)."""
    name = prefix + valid_name(learner)
    if len(name) > 32:
        raise HubError("hub.name_too_long", value=name)
    return name


def lookup(unix: str) -> pwd.struct_passwd | None:
    try:
        return pwd.getpwnam(unix)
    except KeyError:
        return None


def is_learner(entry: pwd.struct_passwd) -> bool:
    return entry.pw_gecos.split(",")[0] == MARKER and entry.pw_uid != 0


def _run(argv: list[str]) -> None:
    """Run useradd/userdel, waiting while another one holds /etc/passwd's lock."""
    for attempt in range(50):
        done = subprocess.run(argv, capture_output=True, text=True, check=False)
        if done.returncode == 0:
            return
        if done.returncode != LOCKED:
            raise HubError("hub.account_command", command=" ".join(argv),
                           error=(done.stderr or done.stdout).strip() or done.returncode)
        time.sleep(0.1 + 0.02 * attempt)
    raise HubError("hub.account_command", command=" ".join(argv), error="/etc/passwd stays locked")


def ensure(unix: str, homes: str | Path) -> pwd.struct_passwd:
    """The learner's account, made if missing; their home exists, is theirs and is 0700."""
    if os.geteuid() != 0:
        raise HubError("hub.needs_root", action=f"useradd {unix}")
    homes = Path(homes)
    entry = lookup(unix)
    if entry is None:
        homes.mkdir(parents=True, exist_ok=True, mode=0o755)
        _run(["useradd", "--no-create-home", "--home-dir", str(homes / unix), "--shell",
              "/bin/bash", "--comment", MARKER, "--user-group", unix])
        entry = pwd.getpwnam(unix)
    if not is_learner(entry):
        raise HubError("hub.not_a_learner", user=unix, marker=MARKER)
    home = Path(entry.pw_dir)
    with contextlib.suppress(FileExistsError):
        home.mkdir(mode=0o700)
    st = home.lstat()
    if not home.is_dir() or home.is_symlink():
        raise HubError("hub.bad_home", path=home, user=unix)
    if (st.st_uid, st.st_gid) != (entry.pw_uid, entry.pw_gid):
        os.chown(home, entry.pw_uid, entry.pw_gid, follow_symlinks=False)
    os.chmod(home, 0o700, follow_symlinks=False)
    return entry


def kill_processes(entry: pwd.struct_passwd) -> None:
    """End every process of this (learner) user: ``pkill -KILL -U uid``."""
    if is_learner(entry):
        subprocess.run(["pkill", "-KILL", "-U", str(entry.pw_uid)], check=False,
                       capture_output=True)


KILL_WAIT_S = 60.0
"""How long :func:`remove` waits for a learner's processes to end (a moment, unless the machine is busy)."""


def remove(unix: str) -> bool:
    """Remove a learner's account and home (their processes first). False if not ours."""
    entry = lookup(unix)
    if entry is None or not is_learner(entry):
        return False
    from . import limits

    limits.remove(unix)
    # until they are gone (userdel refuses while any is left): a deadline, not 20 tries (2 s),
    # which a busy machine can use up before the killed processes have ended
    deadline = time.monotonic() + KILL_WAIT_S
    while True:
        kill_processes(entry)
        done = subprocess.run(["pgrep", "-U", str(entry.pw_uid)], capture_output=True, check=False)
        if done.returncode != 0 or time.monotonic() > deadline:
            break
        time.sleep(0.1)
    _run(["userdel", unix])
    home = Path(entry.pw_dir)
    if home.is_dir() and not home.is_symlink() and home.stat().st_uid == entry.pw_uid:
        shutil.rmtree(home)
    return True
