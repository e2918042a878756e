"""The term secret: each class learner's questions come from it, and only the instructor holds it.

``baccarat-kit secret new term.key`` writes 32 random bytes (64 hex digits and a newline) to a new
file of mode 0600; it never overwrites one. The file goes to ``release --secret-file`` (one copy
per learner of the class list) and ``grade --secret-file``; never into the wheel, a learner's copy
or a folder a learner can read.

From it, for an exercise and a learner (the owner of her folder, the Hub user):

* her **token**, ``"term:" + HMAC-SHA256(secret, "exercise:learner")`` in hex. Every answer key
  takes it where a copy released without a secret takes the public learner id
  (:func:`..judge.keys.learner_seed` hashes it once more into the seed of her shoe, her amounts and
  her option order). Without the secret no one, the kit's own code included, can compute it; with a
  token one learns that learner's questions of that exercise and nothing else, so a grading worker
  is sent the tokens of the file it grades (:class:`TermKeys`), never the secret;
* the term's **fingerprint**, ``HMAC-SHA256(secret, "fingerprint")[:12]`` in hex: written into
  every term copy, so ``grade`` can say "this copy was released with another term secret"; it does
  not reveal the secret (HMAC is one-way) and says nothing about anyone's questions.

>>> term = TermSecret(bytes(32))
>>> term.fingerprint
'2c3767eca986'
>>> term.token("04-whole-coups", "alice")[:13], term.token("04-whole-coups", "alice ") == term.token("04-whole-coups", "alice")
('term:a838fcb1', True)
>>> term.token("04-whole-coups", "alice") != term.token("05-settlement", "alice")
True
"""

from __future__ import annotations

import hashlib
import hmac
import os
import re
import secrets
import stat
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from ...errors import BaccaratError
from ...i18n import os_reason

SECRET_BYTES = 32
TOKEN_PREFIX = "term:"
FINGERPRINT_LENGTH = 12
MAX_SECRET_FILE = 1024
_HEX = re.compile(r"^[0-9a-f]{64}$")


class SecretError(BaccaratError):
    """A term secret file that cannot be made or used as asked."""


@dataclass(frozen=True)
class TermSecret:
    """A term's secret (32 bytes). Its ``repr`` never shows the bytes."""

    secret: bytes = field(repr=False)

    def __post_init__(self) -> None:
        if len(self.secret) != SECRET_BYTES:
            raise SecretError("term.secret.bad_length", value=len(self.secret), size=SECRET_BYTES)

    @property
    def fingerprint(self) -> str:
        """The term's public fingerprint (see the module docstring)."""
        return hmac.new(self.secret, b"fingerprint", hashlib.sha256).hexdigest()[:FINGERPRINT_LENGTH]

    def token(self, exercise: str, learner: str) -> str:
        """The learner's token for ``exercise``: what her answer keys are computed from."""
        mac = hmac.new(self.secret, f"{exercise}:{learner.strip()}".encode(), hashlib.sha256)
        return TOKEN_PREFIX + mac.hexdigest()

    def keys_for(self, learner: str | None, exercises: Iterable[str]) -> TermKeys:
        """What grading one file of ``learner`` needs (her token of each exercise), without the secret."""
        tokens = {ex: self.token(ex, learner) for ex in exercises} if learner and learner.strip() else {}
        return TermKeys(self.fingerprint, learner.strip() if learner else None, tokens)


@dataclass(frozen=True)
class TermKeys:
    """The keys of one file graded under a term: the term's fingerprint, whose keys they are
    (the owner, or without one the copy's own mark) and her token of each exercise. Sent to a
    grading worker in place of the secret (it is picklable and holds no secret)."""

    fingerprint: str
    learner: str | None
    tokens: Mapping[str, str] = field(default_factory=dict)

    def token(self, exercise: str) -> str | None:
        return self.tokens.get(exercise)


def new_secret(path: str | Path) -> Path:
    """Write a new secret to ``path`` (created exclusively, mode 0600, never over a file or a link)."""
    target = Path(path)
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(target, flags, 0o600)
    except FileExistsError:
        raise SecretError("term.secret.exists", path=target) from None
    except OSError as err:
        raise SecretError("term.secret.cannot_write", path=target, detail=os_reason(err)) from None
    try:
        os.fchmod(fd, 0o600)  # whatever the umask
        os.write(fd, (secrets.token_bytes(SECRET_BYTES).hex() + "\n").encode("ascii"))
    finally:
        os.close(fd)
    return target


def read_secret(path: str | Path) -> TermSecret:
    """The secret in ``path`` (written by :func:`new_secret`); a file others can read is refused."""
    target = Path(path)
    try:
        fd = os.open(target, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as err:
        raise SecretError("term.secret.cannot_read", path=target, detail=os_reason(err)) from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise SecretError("term.secret.not_secret", path=target)
        mode = stat.S_IMODE(info.st_mode)
        if mode & 0o077:
            raise SecretError("term.secret.mode", path=target, mode=f"{mode:04o}")
        text = os.read(fd, MAX_SECRET_FILE).decode("ascii", errors="replace").strip().lower()
    finally:
        os.close(fd)
    if not _HEX.match(text):
        raise SecretError("term.secret.not_secret", path=target)
    return TermSecret(bytes.fromhex(text))
