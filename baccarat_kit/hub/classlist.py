"""The class list: one password per learner, stored only as an scrypt hash.

The instructor keeps it (``baccarat-kit hub passwd LIST NAME`` adds a learner or resets their
password; the file is written 0600, so only root reads it). The hub's authenticator reads it at
every sign-in, so a reset needs no restart. One line per learner::

    learner,password_hash
    alice,scrypt$16384$8$1$<salt>$<hash>
    bruno,chosen

``chosen`` (:data:`CHOSEN`): the learner has signed in with the password she was given, and from
then on her password is the one the hub keeps for her (jupyterhub-nativeauthenticator's table in
the hub's database), which she changes herself at ``/hub/change-password``; a reset (``hub
passwd``) puts a new hash over the word, and that password, once used, becomes hers in turn
(:class:`.jupyter.ClassListAuthenticator`).

>>> stored = hash_password("correct horse")
>>> verify("correct horse", stored), verify("Correct horse", stored), verify("x", "nonsense")
(True, False, False)
>>> valid_name(" Alice "), valid_name("chen-da-wen")
('alice', 'chen-da-wen')
"""

from __future__ import annotations

import base64
import contextlib
import csv
import fcntl
import hashlib
import hmac
import io
import os
import re
import secrets
from collections.abc import Iterable, Iterator
from pathlib import Path

from ..errors import BaccaratError
from ..locations import write_atomic

NAME = re.compile(r"[a-z][a-z0-9]*(?:[-_][a-z0-9]+)*")
MAX_NAME = 20
HEADER = ("learner", "password_hash")
SCRYPT_N, SCRYPT_R, SCRYPT_P = 2**14, 8, 1
ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"  # no 0/o, 1/l/i: read aloud or off paper
CHOSEN = "chosen"
"""A learner whose password now lives in the hub (she signed in; see the module docstring)."""


class HubError(BaccaratError):
    """A class list, learner name or account that cannot be used as asked."""


def valid_name(name: str) -> str:
    """A learner name as the hub and Unix use it (lower case; letters, digits, ``-``/``_``)."""
    clean = str(name).strip().lower()
    if not NAME.fullmatch(clean) or len(clean) > MAX_NAME:
        raise HubError("hub.bad_name", value=name, most=MAX_NAME)
    return clean


def hash_password(password: str) -> str:
    salt = secrets.token_bytes(16)
    digest = hashlib.scrypt(password.encode("utf-8"), salt=salt, n=SCRYPT_N, r=SCRYPT_R,
                            p=SCRYPT_P, dklen=32)
    b64 = base64.b64encode
    return f"scrypt${SCRYPT_N}${SCRYPT_R}${SCRYPT_P}${b64(salt).decode()}${b64(digest).decode()}"


def verify(password: str, stored: str) -> bool:
    """Whether ``password`` matches the stored hash (constant-time compare)."""
    try:
        kind, n, r, p, salt, digest = stored.split("$")
        if kind != "scrypt":
            return False
        want = base64.b64decode(digest, validate=True)
        got = hashlib.scrypt(password.encode("utf-8"), salt=base64.b64decode(salt, validate=True),
                             n=int(n), r=int(r), p=int(p), dklen=len(want), maxmem=2**26)
    except (ValueError, TypeError):
        return False
    return hmac.compare_digest(got, want)


def generate_password(groups: int = 3) -> str:
    """A password to hand out, e.g. ``k7mq-x2fd-9hwp`` (about 62 bits)."""
    return "-".join("".join(secrets.choice(ALPHABET) for _ in range(4)) for _ in range(groups))


def load(path: str | Path) -> dict[str, str]:
    """``{learner: hash}``; a missing file is an empty class."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    rows = list(csv.reader(io.StringIO(text)))
    out: dict[str, str] = {}
    for number, row in enumerate(rows, 1):
        if not row or tuple(row) == HEADER:
            continue
        if len(row) != 2:
            raise HubError("hub.bad_list_line", path=path, line=number)
        out[valid_name(row[0])] = row[1]
    return out


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[None]:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path.with_name(f".{path.name}.lock"), os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)


def _write(path: Path, entries: dict[str, str]) -> None:
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(HEADER)
    writer.writerows(sorted(entries.items()))
    write_atomic(path, buf.getvalue().encode("utf-8"))


def set_passwords(path: str | Path, passwords: dict[str, str]) -> None:
    """Add learners or reset their passwords (``{name: password}``)."""
    target = Path(path)
    with _locked(target):
        entries = load(target)
        for name, password in passwords.items():
            if not password:
                raise HubError("hub.empty_password", name=name)
            entries[valid_name(name)] = hash_password(password)
        _write(target, entries)


def mark_chosen(path: str | Path, name: str, stored: str) -> bool:
    """Her line becomes :data:`CHOSEN`, if it still holds the hash ``stored`` (a reset written
    meanwhile is kept); True if it was changed."""
    target = Path(path)
    with _locked(target):
        entries = load(target)
        if entries.get(name) != stored or stored == CHOSEN:
            return False
        entries[name] = CHOSEN
        _write(target, entries)
    return True


def remove(path: str | Path, names: Iterable[str]) -> list[str]:
    """Take learners off the list; returns those that were on it."""
    target = Path(path)
    with _locked(target):
        entries = load(target)
        gone = [n for n in map(valid_name, names) if entries.pop(n, None) is not None]
        _write(target, entries)
    return gone
