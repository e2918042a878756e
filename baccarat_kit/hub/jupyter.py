"""The JupyterHub side of a one-machine class: who signs in, and how their server starts.

``deploy/jupyterhub/jupyterhub_config.py`` sets::

    c.JupyterHub.authenticator_class = "baccarat_kit.hub.jupyter.ClassListAuthenticator"
    c.JupyterHub.spawner_class = "baccarat_kit.hub.jupyter.LearnerSpawner"

:class:`ClassListAuthenticator` signs in only the learners of the class list, each with their
own password (:mod:`.classlist`), which she changes herself at ``/hub/change-password``
(jupyterhub-nativeauthenticator's page, its table in the hub's database). :class:`LearnerSpawner` is JupyterHub's ``LocalProcessSpawner``
with TLJH's user-per-learner: at each start it makes sure the Unix user ``jupyter-NAME`` and its
0700 home exist (:mod:`.accounts`), puts the server into the learner's cgroup (:mod:`.limits`)
and runs it as that user, never as root: ``baccarat-kit hub singleuser`` (its ``Spawner.cmd``),
which writes the course into the home *as that user* (so every file is theirs, and a link a
learner planted cannot make root write elsewhere) and starts JupyterLab as ``baccarat-kit lab``
does: the course's first layout (side bars closed), no news pop-up.
"""

from __future__ import annotations

import asyncio
import os
from typing import Any, ClassVar

import bcrypt
from jupyterhub.auth import Authenticator  # type: ignore[import-untyped]
from jupyterhub.spawner import LocalProcessSpawner, set_user_setuid  # type: ignore[import-untyped]
from jupyterhub.utils import random_port  # type: ignore[import-untyped]
from nativeauthenticator import NativeAuthenticator  # type: ignore[import-untyped]
from nativeauthenticator.handlers import (  # type: ignore[import-untyped]
    ChangePasswordAdminHandler,
    ChangePasswordHandler,
)
from nativeauthenticator.orm import UserInfo  # type: ignore[import-untyped]
from traitlets import Bool, Integer, Unicode

from . import PREFIX, accounts, classlist, limits


class ClassListAuthenticator(NativeAuthenticator):  # type: ignore[misc]
    """Sign-in against the instructor's class list; then each learner keeps her own password.

    The class list (read at every attempt) says who may sign in, and holds the password she was
    handed (scrypt). Her first sign-in with it moves it into the hub: jupyterhub-nativeauthenticator
    keeps it (bcrypt, in the hub's database) and her line of the list says ``chosen``. From then on
    she signs in with the password the hub keeps, which she changes herself at
    ``/hub/change-password`` (NativeAuthenticator's own page; an admin resets one at
    ``/hub/change-password/NAME``). The instructor's ``hub passwd NAME`` puts a new hash into the
    list: that one, and only that one, then works, and becomes hers at the next sign-in.
    NativeAuthenticator's sign-up page is not served: only the class list's learners exist."""

    class_list = Unicode("/opt/baccarat-hub/state/classlist.csv", config=True,
                         help="The class list written by `baccarat-kit hub passwd`.")
    enable_signup = Bool(False, config=True, help="No sign-up: the class list says who exists.")
    minimum_password_length = Integer(8, config=True, help="A chosen password's least length.")
    check_common_password = Bool(True, config=True, help="Refuse a common password.")

    any_allow_config = True  # the class list is the allow list

    def _entries(self) -> dict[str, str]:
        try:
            return classlist.load(self.class_list)
        except (OSError, classlist.HubError) as err:
            self.log.error("class list %s cannot be read: %s", self.class_list, err)
            return {}

    def normalize_username(self, username: str) -> str:
        return str(username).strip().lower()

    def validate_username(self, username: str) -> bool:
        return bool(classlist.NAME.fullmatch(username)) and len(username) <= classlist.MAX_NAME

    def check_allowed(self, username: str, authentication: Any = None) -> bool:
        return username in self._entries()

    def is_password_strong(self, password: str) -> bool:
        # bcrypt takes at most 72 bytes (bcrypt 5 refuses more: the page would fail)
        return len(password.encode()) <= BCRYPT_MAX_BYTES and bool(super().is_password_strong(password))

    def _hers(self, name: str, password: str) -> bool:
        user = self.get_user(name)
        try:
            return bool(user is not None and user.is_authorized and user.is_valid_password(password))
        except ValueError:  # longer than bcrypt takes: not hers
            return False

    def _keep(self, name: str, password: str) -> None:
        """The password she signed in with, kept as hers (NativeAuthenticator's table)."""
        hashed = bcrypt.hashpw(password.encode(), bcrypt.gensalt())
        user = self.get_user(name)
        if user is None:
            self.db.add(UserInfo(username=name, password=hashed, is_authorized=True))
        else:
            user.password, user.is_authorized = hashed, True
        self.db.commit()

    async def authenticate(self, handler: Any, data: dict[str, str]) -> str | None:
        name = self.normalize_username(data.get("username", ""))
        stored = self._entries().get(name)
        password = data.get("password", "")
        # scrypt and bcrypt take tens of ms: off the hub's event loop.
        if stored == classlist.CHOSEN and await asyncio.to_thread(self._hers, name, password):
            return name
        if (stored not in (None, classlist.CHOSEN) and len(password.encode()) <= BCRYPT_MAX_BYTES
                and await asyncio.to_thread(classlist.verify, password, str(stored))):
            self._keep(name, password)
            classlist.mark_chosen(self.class_list, name, str(stored))
            return name
        self.log.warning("failed sign-in for %r", name)
        return None

    def change_password(self, username: str, new_password: str) -> bool | None:
        """Hers (or an admin's reset at /hub/change-password/NAME): the hub keeps it, the list says so."""
        done: bool | None = super().change_password(username, new_password)
        stored = self._entries().get(username)
        if done and stored not in (None, classlist.CHOSEN):
            classlist.mark_chosen(self.class_list, username, str(stored))
        return done

    def get_handlers(self, app: Any) -> list[tuple[str, Any]]:
        """JupyterHub's own sign-in page, and NativeAuthenticator's password pages (no sign-up)."""
        return [*Authenticator.get_handlers(self, app), (r"/change-password", ChangePasswordHandler),
                (r"/change-password/([^/]+)", ChangePasswordAdminHandler)]


BCRYPT_MAX_BYTES = 72


class LearnerSpawner(LocalProcessSpawner):  # type: ignore[misc]
    """Each learner's server as their own Unix user, in their own cgroup (module docstring)."""

    unix_prefix = Unicode(PREFIX, config=True, help="Unix name = prefix + learner name.")
    homes = Unicode("/home", config=True, help="Folder of the learners' homes.")
    pids_limit = Integer(0, config=True, help="Most processes per learner (0: no limit).")
    cgroup_parent = Unicode(limits.PARENT, config=True)

    _ports: ClassVar[dict[int, str]] = {}
    """The port each running learner's server was given, across every spawner of this hub.

    ``LocalProcessSpawner`` takes ``random_port()``: a port the kernel said was free a moment
    ago, then released. Two learners who start at once can be given the same port; the second
    server cannot bind it (JupyterHub turns port retries off), and the hub then routes the
    second learner to the first learner's server (seen in CI: bruno's ``/user/bruno/`` answered
    by alice's server with a 404). Each start claims a port no other learner holds."""

    @property
    def unix_name(self) -> str:
        return accounts.unix_name(self.user.name, self.unix_prefix)

    def _claim_port(self) -> int:
        """A port for this start that no other learner's running server was given."""
        held = {port for port, name in self._ports.items() if name != self.unix_name}
        mine: int = int(getattr(self, "port", 0) or 0)
        for _ in range(100):
            port: int = mine if mine and mine not in held else int(random_port())
            if port not in held:
                break
            mine = 0
        else:
            raise RuntimeError(f"no free port for {self.unix_name}: {len(held)} are held")
        self._release_port()
        self._ports[port] = self.unix_name
        self.port = port
        return port

    def _release_port(self) -> None:
        for port in [p for p, name in self._ports.items() if name == self.unix_name]:
            del self._ports[port]

    async def start(self) -> Any:
        self._claim_port()  # synchronous: no other start runs between the pick and the claim
        await asyncio.to_thread(accounts.ensure, self.unix_name, self.homes)
        self.cgroup = limits.make(self.unix_name, self.mem_limit or None, self.pids_limit or None,
                                  parent=self.cgroup_parent, cpu=self.cpu_limit or None)
        if self.cgroup is None and (self.mem_limit or self.pids_limit or self.cpu_limit):
            self.log.warning("%s runs without memory, process or CPU limits: no writable cgroup here",
                             self.unix_name)
        try:
            return await super().start()
        except BaseException:
            self._release_port()
            raise

    def make_preexec_fn(self, name: str) -> Any:
        become = set_user_setuid(self.unix_name)
        group = getattr(self, "cgroup", None)

        def preexec() -> None:
            if group is not None:
                group.enter(os.getpid())  # still root here; the learner cannot leave it
            become()

        return preexec

    def user_env(self, env: dict[str, str]) -> dict[str, str]:
        import pwd

        entry = pwd.getpwnam(self.unix_name)
        env.update(USER=self.unix_name, HOME=entry.pw_dir, SHELL=entry.pw_shell or "/bin/bash")
        return env

    async def move_certs(self, paths: dict[str, str]) -> dict[str, str]:
        # The hub's own certificates would have to be copied into a 0700 home as the learner:
        # refused with the setting to change (HTTPS to the browser is c.JupyterHub.ssl_cert/ssl_key).
        raise RuntimeError("c.JupyterHub.internal_ssl = True is not supported with LearnerSpawner: "
                           "set it to False (HTTPS for the browser: c.JupyterHub.ssl_cert and ssl_key)")

    async def stop(self, now: bool = False) -> None:
        await super().stop(now=now)
        self._release_port()
        await asyncio.to_thread(limits.remove, self.unix_name, parent=self.cgroup_parent)
