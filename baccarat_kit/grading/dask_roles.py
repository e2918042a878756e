"""Roles on a grading cluster: a worker's certificate cannot act as the instructor's client.

Dask's TLS checks only that a peer's certificate comes from the cluster's CA (``dask-certs``
makes one CA per cluster and throws its key away); it does not tell the scheduler's, the
workers' and the instructor's certificates apart. Whoever holds a worker's key (anyone who
takes over one worker machine) could otherwise open a client with it and run code on every
worker and on the scheduler. So the scheduler, every worker and every nanny load this module
(``dask scheduler --preload baccarat_kit.grading.dask_roles``, ``dask worker --preload … --preload-nanny
…``, or the Dask settings ``distributed.scheduler.preload``, ``distributed.worker.preload``,
``distributed.nanny.preload``), which reads the role from
the common name of the peer's certificate (``baccarat-kit dask ROLE``, written by
:func:`.cluster.make_certs`; no new one can be signed) on every request that arrives, and:

* on the **scheduler**: the instructor's (and the scheduler's own) certificate may do anything; a
  worker's only what a worker does (:data:`SCHEDULER_OPS_OF_WORKERS`: register, heartbeat, who
  has a key, …), so it can neither register as a client (submit tasks), nor ``run_function``,
  ``broadcast``, ``scatter``, or open a bare stream; inside a worker's stream only the worker's
  messages (:data:`WORKER_STREAM_OPS`) are taken, never a client's (``update-graph``);
* on a **worker**: the scheduler's and the instructor's certificates may do anything; another
  worker's may only fetch results (:data:`WORKER_OPS_OF_WORKERS`: ``get_data``), never ``run``
  code or send it a task; on a **nanny**, a worker's only say it is closing.

A worker also clears, as it starts, the grading folders a killed worker process of this machine
left in its private scratch (:func:`clear_stale`).

The gate is in place from the moment the preload runs, just after the server starts listening and
before any worker registers; a handler a plugin adds later is gated too (:class:`_GatedHandlers`).

A request refused raises ``PermissionError`` naming the role and the operation (and is logged).
A comm without TLS (a ``tcp://`` cluster, ``--insecure-scheduler``) has no certificate: no roles
are told apart there. :func:`.cluster.probe_workers` refuses to grade unless the scheduler and
every worker report this gate (:func:`installed`).
"""

from __future__ import annotations

import functools
import inspect
import logging
import os
import re
import shutil
import stat
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

__all__ = ["GATE", "GRADE_PREFIX", "clear_stale", "dask_setup", "installed", "peer_role", "worker_gate"]

GATE = 1
"""Version of the gate a server reports through the ``baccarat_kit_roles`` request."""
ROLE_NAME = "baccarat-kit dask "
"""Prefix of the common name of every certificate ``dask-certs`` makes; the role follows it."""
TRUSTED = frozenset({"instructor", "scheduler"})
SCHEDULER_OPS_OF_WORKERS = frozenset({
    "register-worker", "register_nanny", "unregister", "heartbeat_worker", "who_has", "log_event",
    "set_resources", "retire_workers", "baccarat_kit_roles",
})
"""Requests a worker's certificate may make of the scheduler (what ``distributed``'s workers and
nannies send it)."""
WORKER_STREAM_OPS = frozenset({
    "task-finished", "task-erred", "release-worker-data", "add-keys", "long-running", "reschedule",
    "keep-alive", "log-event", "worker-status-change", "request-refresh-who-has",
})
"""Messages the scheduler takes in a worker's stream (``Scheduler.__init__``'s ``worker_handlers``)."""
WORKER_OPS_OF_WORKERS = frozenset({"get_data", "ping", "baccarat_kit_roles"})
"""Requests one worker's certificate may make of another worker (fetching a task's result)."""
NANNY_OPS_OF_WORKERS = frozenset({"close_gracefully", "baccarat_kit_roles"})
"""Requests a worker's certificate may make of a nanny (its worker says it is closing)."""

GRADE_PREFIX = "bk-grade-"
"""A worker grades each submission in a folder ``bk-grade-PID-…`` of its scratch (PID: the worker's;
:func:`.cluster.grade_sent`)."""

log = logging.getLogger("baccarat_kit.grading.dask_roles")


def peer_role(comm: Any) -> str | None:
    """The role of the certificate at the other end of ``comm``: ``instructor``, ``scheduler``,
    ``worker``, ``""`` for a certificate that names none, or None when the comm is not TLS.

    >>> class Comm:
    ...     extra_info = {"peercert": {"subject": ((("organizationName", "baccarat-kit"),),
    ...                                            (("commonName", "baccarat-kit dask worker"),))}}
    >>> peer_role(Comm())
    'worker'
    """
    info = getattr(comm, "extra_info", None) or {}
    if "peercert" not in info:
        return None
    cert = info.get("peercert") or {}
    names = [str(value) for rdn in cert.get("subject", ()) for key, value in rdn if key == "commonName"]
    if len(names) != 1 or not names[0].startswith(ROLE_NAME):
        return ""
    return names[0][len(ROLE_NAME):]


def _refuse(role: str | None, op: str, where: str) -> PermissionError:
    log.warning("baccarat-kit: refused %r from a %s certificate on the %s", op, role or "nameless", where)
    return PermissionError(f"baccarat-kit: a {role or 'nameless'} certificate may not call {op!r} on the {where}")


def _gated(op: str, handler: Callable[..., Any], allowed: frozenset[str], where: str) -> Callable[..., Any]:
    """``handler`` behind the role check; its signature is the handler's with ``comm`` first (Dask
    passes the comm to a handler whose first parameter has that name, and ``serializers`` to one
    that takes it)."""
    params = list(inspect.signature(handler).parameters.values())
    takes_comm = bool(params) and params[0].name == "comm"

    @functools.wraps(handler)
    def gate(comm: Any, **msg: Any) -> Any:
        role = peer_role(comm)
        if role is not None and role not in TRUSTED and op not in allowed:
            raise _refuse(role, op, where)
        return handler(comm, **msg) if takes_comm else handler(**msg)

    comm = inspect.Parameter("comm", inspect.Parameter.POSITIONAL_OR_KEYWORD)
    gate.__signature__ = inspect.Signature([comm, *(params[1:] if takes_comm else params)])  # type: ignore[attr-defined]
    gate._baccarat_kit_gate = GATE  # type: ignore[attr-defined]
    return gate


def _worker_stream_only(op: str, handler: Callable[..., Any]) -> Callable[..., Any]:
    """A scheduler stream handler that a worker's stream (``worker=…`` in every message) reaches
    only when it is a worker's message."""
    def check(kwargs: dict[str, Any]) -> None:
        if "worker" in kwargs and op not in WORKER_STREAM_OPS:
            raise _refuse("worker", op, "scheduler (in a worker's stream)")

    import importlib

    if importlib.import_module("distributed.utils").iscoroutinefunction(handler):  # (as Dask decides to await)
        @functools.wraps(handler)
        async def agate(*args: Any, **kwargs: Any) -> Any:
            check(kwargs)
            return await handler(*args, **kwargs)

        agate._baccarat_kit_gate = GATE  # type: ignore[attr-defined]
        return agate

    @functools.wraps(handler)
    def gate(*args: Any, **kwargs: Any) -> Any:
        check(kwargs)
        return handler(*args, **kwargs)

    gate._baccarat_kit_gate = GATE  # type: ignore[attr-defined]
    return gate


class _GatedHandlers(dict[str, Any]):
    """A server's ``handlers`` (or ``stream_handlers``): each handler, when Dask looks it up for a
    request, is the gated one, also for a handler a plugin adds later (the shuffle extension does)."""

    def __init__(self, handlers: dict[str, Any], gate: Callable[[str, Any], Any]) -> None:
        super().__init__(handlers)
        self._gate = gate

    def __getitem__(self, op: str) -> Any:
        handler = super().__getitem__(op)
        if getattr(handler, "_baccarat_kit_gate", None) != GATE:
            handler = self._gate(op, handler)
            super().__setitem__(op, handler)
        return handler

    def get(self, op: str, default: Any = None) -> Any:
        return self[op] if op in self else default


def installed(server: Any) -> bool:
    """Whether ``server`` (a Scheduler or Worker) has this gate on every request it takes."""
    tables = [server.handlers, *([server.stream_handlers] if _is_scheduler(server) else [])]
    return all(isinstance(t, _GatedHandlers) for t in tables)


def _is_scheduler(server: Any) -> bool:
    from distributed import Scheduler

    return isinstance(server, Scheduler)


def worker_gate(dask_worker: Any) -> dict[str, Any]:
    """Run on a worker (``client.run`` passes it as ``dask_worker``): whether its gate is in place."""
    return {"gate": GATE if installed(dask_worker) else None}


def dask_setup(server: Any) -> None:
    """The Dask preload hook: gate every request ``server`` takes (see the module docstring)."""
    from distributed import Scheduler, Worker

    if isinstance(server, Scheduler):
        where, allowed = "scheduler", SCHEDULER_OPS_OF_WORKERS
        server.stream_handlers = _GatedHandlers(server.stream_handlers, _worker_stream_only)
    elif isinstance(server, Worker):
        where, allowed = "worker", WORKER_OPS_OF_WORKERS
        for name in clear_stale():  # what a worker killed mid-grading left (a learner's notebook)
            log.warning("baccarat-kit: removed %s, left by a worker process that is gone", name)
    else:  # a nanny (--preload-nanny): only the scheduler and the instructor run anything there
        where, allowed = type(server).__name__.lower(), NANNY_OPS_OF_WORKERS

    def report(comm: Any) -> dict[str, Any]:
        """What the ``baccarat_kit_roles`` request answers: the gate, and the role it saw."""
        return {"gate": GATE if installed(server) else None, "role": peer_role(comm)}

    server.handlers = _GatedHandlers({**server.handlers, "baccarat_kit_roles": report},
                                     lambda op, handler: _gated(op, handler, allowed, where))


_STALE = re.compile(re.escape(GRADE_PREFIX) + r"([0-9]+)-[a-z0-9_]+")


def clear_stale(folder: str | Path | None = None) -> list[str]:
    """Run when a worker starts (:func:`dask_setup`): remove the folders of
    :func:`.cluster.grade_sent` that a worker process killed mid-grading left behind (a learner's notebook
    in each), and nothing else. Only in a private scratch folder (``folder``, by default
    ``$TMPDIR``, which ``dask-cluster`` makes fresh and private for each start): one of this
    user's that no one else may write, opened without following a link; there only
    ``bk-grade-PID-…`` folders (never a link) of this user whose process PID is gone. Returns
    the names removed (sorted)."""
    base = Path(folder) if folder is not None else Path(tempfile.gettempdir())
    try:
        fd = os.open(base, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)
    except OSError:
        return []
    removed = []
    try:
        info = os.fstat(fd)
        if info.st_uid != os.geteuid() or info.st_mode & 0o022:  # a shared folder: not only ours there
            return []
        for entry in os.scandir(fd):
            found = _STALE.fullmatch(entry.name)
            if found is None or _alive(int(found.group(1))):
                continue
            try:
                st = os.stat(entry.name, dir_fd=fd, follow_symlinks=False)
                if not stat.S_ISDIR(st.st_mode) or st.st_uid != os.geteuid():
                    continue
                shutil.rmtree(entry.name, dir_fd=fd)  # (by descriptors: a link inside is removed, not followed)
            except OSError:
                continue
            removed.append(entry.name)
    finally:
        os.close(fd)
    return sorted(removed)


def _alive(pid: int) -> bool:
    """Whether a process ``pid`` exists (a process of another user's counts)."""
    if pid <= 0:
        return True  # (never a process of ours: keep what it names)
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError):
        return True
    return True
