"""Grading past one machine: ``baccarat-kit grade … --scheduler tls://HOST:8786 --certs DIR``.

The batch is driven as always by :func:`.grade.grade_paths` on the instructor's machine (the
client); this module only gives it another ``submit``: each submission goes to a Dask cluster
(``dask.distributed``, the ``[dask]`` extra), where a worker grades it with :func:`.grade.grade_file`
in its own bubblewrap sandbox, with the batch's limits. The steps:

1. :func:`check_address` refuses a scheduler address that anyone could use: Dask runs whatever
   it is sent, as the workers' user, so only ``tls://`` with the instructor's certificates
   (:func:`security`, made by ``baccarat-kit dask-certs DIR``, :func:`make_certs`) is accepted;
   plain ``tcp://`` only with ``--insecure-scheduler`` (a private network no learner reaches);
2. :func:`connect` opens the client and asks every worker (:func:`probe_workers`) for the
   fingerprint of its kit (:func:`kit_fingerprint`: the same code must grade, or the grades
   would differ) and for its sandbox (bubblewrap must work there, as it must locally);
3. :class:`DaskSubmit` scatters the trusted exercises (questions, hidden checks) once to the
   workers, then sends each submission's *bytes* (read here, never a path a worker would read
   from a shared folder) with its name; at most a few per worker thread are in flight, so a
   class of 60,000 files is never all in memory. On the worker, :func:`grade_sent` writes the
   bytes into a fresh 0700 folder of its own (learner code, in bubblewrap, sees a private
   ``/tmp`` and none of the worker's files), grades that file under the submission's name, and
   returns the :class:`~.records.Submission`. A worker that dies takes its running submission
   with it: the scheduler gives it to another worker (``distributed.scheduler.allowed-failures``
   times, then the row says ``worker_failed``); an exception is retried once (``retries``).

Under a term secret (``grade --secret-file``) the secret never leaves the client: each
submission is sent with its owner's tokens (:class:`.term.secret.TermKeys`, one HMAC per
exercise, computed on the client), over the same TLS channel as its bytes. A token gives that
learner's questions of that exercise and nothing else; the learner's code on the worker runs in
bubblewrap and never sees it (keys are evaluated outside the sandbox, after it has ended).

Everything else (hand-in times from ``collect``'s manifest, lateness, feedback names, duplicate
warnings, the gradebook) stays on the client, so ``grades.csv`` is the same as a local run's.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import itertools
import os
import platform
import queue
import shutil
import stat
import tempfile
import threading
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import Future
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from ipaddress import ip_address
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .. import __version__
from ..i18n import os_reason
from .judge.checks import Exercise
from .records import GradeUsageError, Submission
from .sandbox import session as _session
from .sandbox.bwrap import Sandbox
from .sandbox.session import MAX_FILE_BYTES, Limits
from .term.secret import TermKeys

if TYPE_CHECKING:
    from distributed import Client, Security

__all__ = [
    "CERT_FILES", "DaskSubmit", "KitMismatch", "RemoteSandbox", "check_address", "check_roles",
    "connect", "grade_sent", "kit_fingerprint", "make_certs", "probe_workers", "remote_grading", "security",
]

INSTALL = 'pip install "baccarat-kit[dask]"'
ROLES = ("scheduler", "worker", "instructor")
"""One certificate per role; the workers of a cluster share theirs."""
CERT_FILES = ("ca.pem", *(f"{role}.{ext}" for role in ROLES for ext in ("pem", "key")))
"""What ``baccarat-kit dask-certs DIR`` writes (the CA's private key is never written)."""
SECURE_SCHEMES = ("tls",)
INSECURE_SCHEMES = ("tcp",)
PER_THREAD = 2
"""Submissions in flight per worker thread: one running, one waiting beside it."""
RETRIES = 1
"""Times a submission whose grading raised (not the learner's doing: grade_file never raises
for a bad notebook) is tried again, on any worker."""


# ---------------------------------------------------------------- certificates
def make_certs(folder: str | Path, hosts: Sequence[str] = ("localhost", "127.0.0.1"), days: int = 365) -> list[Path]:
    """A certificate authority of its own for one cluster and a key and certificate for each of
    :data:`ROLES`, in a new folder (mode 0700, keys 0600). The CA's private key is thrown away
    once the three are signed, so no one, the instructor included, can make another certificate
    the cluster trusts: a new machine gets the worker's files, a lost key means a new folder.

    ``hosts`` (names or addresses) go into each certificate's subject alternative names; Dask
    itself does not check host names (each cluster has its own CA), other tools may.
    """
    try:
        from cryptography import x509
        from cryptography.hazmat.primitives import hashes, serialization
        from cryptography.hazmat.primitives.asymmetric import ec
        from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID
    except ImportError as err:
        raise GradeUsageError("grading.dask.missing", module="cryptography", install=INSTALL) from err
    if days < 1:
        raise GradeUsageError("grading.dask.bad_days", value=days)
    target = Path(folder)
    if target.is_symlink() or target.is_dir():
        os.close(_own_folder(target))  # a link, another user's or a full folder: refused before any key is made
    elif target.exists():
        raise GradeUsageError("grading.dask.certs_exist", path=target)
    else:
        target.mkdir(mode=0o700, parents=True)
    now = datetime.now(UTC) - timedelta(minutes=5)
    names: list[x509.GeneralName] = []
    for host in hosts:
        try:
            names.append(x509.IPAddress(ip_address(host)))
        except ValueError:
            names.append(x509.DNSName(host))

    def name(common: str) -> x509.Name:
        return x509.Name([x509.NameAttribute(NameOID.ORGANIZATION_NAME, "baccarat-kit"),
                          x509.NameAttribute(NameOID.COMMON_NAME, common)])

    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca_name = name(f"baccarat-kit dask CA {os.urandom(4).hex()}")
    ca = (x509.CertificateBuilder().subject_name(ca_name).issuer_name(ca_name).public_key(ca_key.public_key())
          .serial_number(x509.random_serial_number()).not_valid_before(now).not_valid_after(now + timedelta(days=days))
          .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
          .add_extension(x509.KeyUsage(digital_signature=False, content_commitment=False, key_encipherment=False,
                                       data_encipherment=False, key_agreement=False, key_cert_sign=True,
                                       crl_sign=True, encipher_only=False, decipher_only=False), critical=True)
          .sign(ca_key, hashes.SHA256()))
    dir_fd = _own_folder(target)  # (again: written through this descriptor, never by path)
    try:
        written = [_write(target / "ca.pem", ca.public_bytes(serialization.Encoding.PEM), 0o644, dir_fd)]
        for role in ROLES:
            key = ec.generate_private_key(ec.SECP256R1())
            cert = (x509.CertificateBuilder().subject_name(name(f"baccarat-kit dask {role}")).issuer_name(ca_name)
                    .public_key(key.public_key()).serial_number(x509.random_serial_number())
                    .not_valid_before(now).not_valid_after(now + timedelta(days=days))
                    .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
                    # every role both listens and connects (the scheduler calls its workers back)
                    .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH,
                                                          ExtendedKeyUsageOID.CLIENT_AUTH]), critical=False)
                    .add_extension(x509.SubjectAlternativeName(names), critical=False)
                    .sign(ca_key, hashes.SHA256()))
            written.append(_write(target / f"{role}.pem", cert.public_bytes(serialization.Encoding.PEM), 0o644, dir_fd))
            written.append(_write(target / f"{role}.key", key.private_bytes(
                serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()), 0o600,
                dir_fd))
    finally:
        os.close(dir_fd)
    del ca_key
    return written


def _own_folder(target: Path) -> int:
    """A descriptor of ``target``, opened without following a link, once it is checked to be a
    folder of this user's (then made 0700): the certificates go into it through the descriptor, so
    a folder someone else owns (who could swap or read its files) or a link is refused, naming it."""
    try:
        fd = os.open(target, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)
    except OSError as err:
        raise GradeUsageError("grading.dask.certs_link", path=target, detail=os_reason(err)) from err
    info = os.fstat(fd)
    if info.st_uid != os.geteuid():
        os.close(fd)
        try:
            import pwd

            owner = f"{pwd.getpwuid(info.st_uid).pw_name} (uid {info.st_uid})"
        except KeyError:
            owner = f"uid {info.st_uid}"
        raise GradeUsageError("grading.dask.certs_not_owned", path=target, owner=owner)
    if any(True for _ in os.scandir(fd)):  # filled in since it was looked at
        os.close(fd)
        raise GradeUsageError("grading.dask.certs_exist", path=target)
    os.fchmod(fd, 0o700)
    return fd


def _write(path: Path, data: bytes, mode: int, dir_fd: int | None = None) -> Path:
    name: str | Path = path.name if dir_fd is not None else path
    fd = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, mode, dir_fd=dir_fd)
    with os.fdopen(fd, "wb") as fh:
        os.fchmod(fh.fileno(), mode)
        fh.write(data)
    return path


def security(folder: str | Path, role: str = "instructor") -> Security:
    """The ``distributed.Security`` of ``role`` from a folder made by :func:`make_certs`:
    TLS only, the peer's certificate required and checked against the folder's CA."""
    target = Path(folder)
    wanted = [target / "ca.pem", target / f"{role}.pem", target / f"{role}.key"]
    missing = [p.name for p in wanted if not p.is_file()]
    if missing:
        raise GradeUsageError("grading.dask.no_certs", path=target, missing=", ".join(missing))
    key_mode = stat.S_IMODE(wanted[2].stat().st_mode)
    if key_mode & 0o077:
        raise GradeUsageError("grading.dask.key_mode", path=wanted[2], mode=f"{key_mode:04o}")
    found = cert_role(wanted[1])
    if found is not None and found != role:  # say it here: the scheduler would only drop the comm
        raise GradeUsageError("grading.dask.cert_role", path=wanted[1], name=role,
                              found=_ROLE_WORDS.get(found, {"zh": found, "en": found}),
                              role=_ROLE_WORDS.get(role, {"zh": role, "en": role}))
    ca, cert, key = map(str, wanted)
    sec: Security = _distributed().Security(require_encryption=True, tls_ca_file=ca,
                                                          tls_client_cert=cert, tls_client_key=key)
    return sec


_ROLE_WORDS = {"instructor": {"zh": "講師", "en": "instructor"},
               "scheduler": {"zh": "排程器", "en": "scheduler"},
               "worker": {"zh": "工作節點", "en": "worker"}}


def cert_role(path: str | Path) -> str | None:
    """The role a certificate made by :func:`make_certs` names in its common name (``worker``,
    ``scheduler``, ``instructor``), or None when it names none (someone else's certificate: the
    servers judge it) or cannot be read as PEM."""
    from cryptography import x509

    from .dask_roles import ROLE_NAME

    try:
        cert = x509.load_pem_x509_certificate(Path(path).read_bytes())
    except (OSError, ValueError):
        return None
    names = [str(a.value) for a in cert.subject.get_attributes_for_oid(x509.NameOID.COMMON_NAME)]
    if len(names) != 1 or not names[0].startswith(ROLE_NAME):
        return None
    return names[0][len(ROLE_NAME):]


def _distributed() -> Any:
    """``distributed`` (the [dask] extra), imported when first needed; its API is only partly typed."""
    import importlib

    try:
        return importlib.import_module("distributed")
    except ImportError as err:
        raise GradeUsageError("grading.dask.missing", module="distributed", install=INSTALL) from err


# ---------------------------------------------------------------- the address
def check_address(address: str, certs: str | Path | None, insecure: bool = False) -> str:
    """The scheme of a scheduler address the instructor may use, else :class:`GradeUsageError`.

    >>> check_address("tls://10.0.0.5:8786", "certs")
    'tls'
    >>> check_address("tcp://10.0.0.5:8786", None, insecure=True)
    'tcp'
    >>> try:
    ...     check_address("tcp://10.0.0.5:8786", None)
    ... except GradeUsageError as err:
    ...     print(err.message("en")[:50])
    Refusing the unencrypted scheduler address tcp://1
    """
    scheme, sep, rest = address.partition("://")
    if not sep:
        scheme, rest = "tcp", address  # Dask reads HOST:PORT as tcp://
    scheme = scheme.lower()
    if not rest or scheme not in SECURE_SCHEMES + INSECURE_SCHEMES:
        raise GradeUsageError("grading.dask.bad_address", address=address)
    if scheme in INSECURE_SCHEMES and not insecure:
        raise GradeUsageError("grading.dask.insecure", address=address)
    if scheme in SECURE_SCHEMES and certs is None:
        raise GradeUsageError("grading.dask.needs_certs", address=address)
    return scheme


# ---------------------------------------------------------------- the workers
@functools.cache
def kit_fingerprint() -> str:
    """sha256 of the installed kit's code and data (every ``*.py`` and ``*.toml`` by relative
    path): a worker grades only when its kit is this one."""
    root = Path(__file__).resolve().parents[1]
    digest = hashlib.sha256()
    for path in sorted(p for p in root.rglob("*") if p.suffix in (".py", ".toml") and "__pycache__" not in p.parts):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()


class KitMismatch(RuntimeError):
    """A worker's kit is not the client's: it refuses to grade (the row says ``worker_failed``)."""


@dataclass(frozen=True)
class RemoteSandbox(Sandbox):
    """What confined learner code on the workers, as results.json records it."""

    where: str = ""
    described: str = ""

    def describe(self) -> str:
        return f"{self.described} (on Dask workers at {self.where})"


def _worker_report(sandbox: str) -> dict[str, str]:
    """Run on each worker by :func:`probe_workers`: its kit, Python and sandbox (its signature
    never changes: a worker with another kit must still answer, to be told apart)."""
    from .sandbox import bwrap

    report = {"kit": kit_fingerprint(), "version": __version__, "python": platform.python_version()}
    try:
        box = bwrap.check() if sandbox == "bwrap" else bwrap.Sandbox("none")
        report["sandbox"] = box.describe()
    except bwrap.SandboxMissing as err:
        report["error"] = f"{err.reason}: {err}"
    return report


def worker_scope(memory_mb: int) -> str:
    """Run on a worker: what ``--memory-mb`` and the process count limit there, in results.json's
    words (``sandbox (cgroup v1)``, ``sandbox (cgroup v2)`` or ``per-process only``): what its
    sandboxes had, or before it ran one, what a cgroup made (and removed) now gives."""
    from .sandbox import cgroup

    scope = _session.limits_scope()
    if scope == _session.PER_PROCESS_ONLY or scope.startswith("sandbox ("):
        return scope
    group, _why = cgroup.create(memory_mb, _session.PROCESSES + 8)  # as session._group makes them
    if group is None:
        return _session.PER_PROCESS_ONLY
    group.remove()
    return f"sandbox (cgroup v{group.version})"


def worker_cpu_source(memory_mb: int) -> str:
    """Run on a worker: where its sandboxes' CPU time (which the time limits count) is read
    (:func:`.session.cpu_source`), or before it ran one, where a cgroup made (and removed) now reads it."""
    from .sandbox import cgroup

    source = _session.cpu_source()
    if source != "not started yet":
        return source
    group, _why = cgroup.create(memory_mb, _session.PROCESSES + 8)
    if group is None:
        return _session.TREE_SOURCE
    group.remove()
    return group.cpu_source or _session.TREE_SOURCE


def workers_scope(scopes: dict[str, str]) -> str:
    """One scope for results.json from each worker's (:func:`worker_scope`): the local run's
    words when they all agree, else each with its count of workers.

    >>> workers_scope({"tls://a": "sandbox (cgroup v1)", "tls://b": "sandbox (cgroup v1)"})
    'sandbox (cgroup v1)'
    >>> workers_scope({"tls://a": "sandbox (cgroup v2)", "tls://b": "per-process only"})
    'per-process only on 1 of 2 workers; sandbox (cgroup v2) on 1 of 2 workers'
    """
    kinds = sorted(set(scopes.values()))
    if len(kinds) == 1:
        return kinds[0]
    return "; ".join(f"{k} on {sum(1 for v in scopes.values() if v == k)} of {len(scopes)} workers" for k in kinds)


def probe_workers(client: Client, limits: Limits, timeout: float = 60.0) -> str:
    """Wait for a worker, check that every worker has this kit and a working sandbox, and say
    what confines learner code there (for results.json: the sandbox, returned, and the scope of
    the limits, recorded with :func:`.session.record_scope`)."""
    c = _untyped(client)
    try:
        c.wait_for_workers(1, timeout=timeout)
    except TimeoutError as err:
        raise GradeUsageError("grading.dask.no_workers", address=c.scheduler.address, seconds=timeout) from err
    reports: dict[str, dict[str, str]] = c.run(_worker_report, limits.sandbox)
    if str(c.scheduler.address).startswith("tls://"):
        check_roles(client)
    ours = kit_fingerprint()
    for worker, report in sorted(reports.items()):
        if report["kit"] != ours:
            raise GradeUsageError("grading.dask.kit_differs", worker=worker, theirs=report["version"],
                                  ours=__version__, fingerprint=report["kit"][:12], mine=ours[:12])
        if "error" in report:
            raise GradeUsageError("grading.dask.worker_sandbox", worker=worker, detail=report["error"])
    _session.record_scope(workers_scope(c.run(worker_scope, limits.memory_mb)))  # (same kit everywhere now)
    _session.record_cpu_source(workers_scope(c.run(worker_cpu_source, limits.memory_mb)))
    kinds = sorted({r["sandbox"] for r in reports.values()})
    return f"{'; '.join(kinds)}; {len(reports)} workers, Python {', '.join(sorted({r['python'] for r in reports.values()}))}"


def check_roles(client: Client) -> None:
    """Refuse (:class:`GradeUsageError`) a TLS cluster whose scheduler or a worker does not keep
    the roles apart (:mod:`.dask_roles`, loaded with ``--preload baccarat_kit.grading.dask_roles``):
    there, a worker's key would act as the instructor's client."""
    from . import dask_roles

    c = _untyped(client)
    try:
        answer = c.sync(c.scheduler.baccarat_kit_roles)
    except Exception:  # an error reply: the scheduler has no such request
        answer = None
    if not isinstance(answer, dict) or answer.get("gate") != dask_roles.GATE:
        raise GradeUsageError("grading.dask.no_roles", where=c.scheduler.address)
    if answer.get("role") != "instructor":
        raise GradeUsageError("grading.dask.not_instructor", role=answer.get("role") or "?")
    nannies = any(info.get("nanny") for info in c.scheduler_info()["workers"].values())
    for on_nanny in (False, True) if nannies else (False,):
        for worker, report in sorted(c.run(dask_roles.worker_gate, nanny=on_nanny).items()):
            if report.get("gate") != dask_roles.GATE:
                raise GradeUsageError("grading.dask.no_roles", where=f"{worker}{' (nanny)' if on_nanny else ''}")


def grade_sent(name: str, data: bytes, display: str, exercises: dict[str, Exercise], limits: Limits,
               fingerprint: str, term: TermKeys | None = None) -> Submission:
    """Run on a worker: grade one submission sent as bytes (see the module docstring), against
    ``term``: the tokens of its owner (never the term secret, which stays on the client)."""
    from .grade import grade_file

    mine = kit_fingerprint()
    if mine != fingerprint:
        raise KitMismatch(f"this worker's baccarat-kit ({__version__}, {mine[:12]}) is not the client's ({fingerprint[:12]})")
    base = Path(name).name
    if base in ("", ".", "..") or base.startswith("."):
        base = "submission.ipynb"
    from .dask_roles import GRADE_PREFIX

    # 0700, the worker's own, in its scratch ($TMPDIR: dask-cluster's private folder), named by
    # this process so that the next worker clears it if this one is killed (dask_roles.clear_stale)
    folder = Path(tempfile.mkdtemp(prefix=f"{GRADE_PREFIX}{os.getpid()}-"))
    try:
        path = folder / base
        _write(path, data, 0o600)
        return grade_file(path, exercises, limits, display=display, term=term)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


# ---------------------------------------------------------------- the client
def _untyped(client: Client) -> Any:
    """The client as ``Any``: most of ``distributed.Client``'s methods carry no annotations."""
    return client


def connect(address: str, certs: str | Path | None = None, insecure: bool = False, timeout: float = 30.0) -> Client:
    """A ``distributed.Client`` for the scheduler at ``address`` (checked by :func:`check_address`)."""
    dist = _distributed()
    scheme = check_address(address, certs, insecure)
    sec = security(certs) if scheme in SECURE_SCHEMES and certs is not None else None
    if "://" not in address:
        address = f"tcp://{address}"
    try:
        client: Client = dist.Client(address, security=sec, timeout=f"{timeout}s", set_as_default=False)
        return client
    except (OSError, TimeoutError) as err:
        raise GradeUsageError("grading.dask.unreachable", address=address, detail=str(err)[:200] or type(err).__name__) from err


class DaskSubmit:
    """``submit`` for :func:`.grade.grade_paths`: ``self(path)`` returns at once a future of the
    path's :class:`~.records.Submission`; a feeder thread reads the file and sends it when a worker
    thread is free (at most :data:`PER_THREAD` per worker thread in flight). :meth:`close` stops it.
    """

    def __init__(self, client: Client, exercises: dict[str, Exercise], limits: Limits) -> None:
        self._client = _untyped(client)
        self._exercises = exercises
        self._limits = limits
        self._fingerprint = kit_fingerprint()
        from .grade import BatchBudget

        self._budget = BatchBudget(limits)  # (the batch's wall-clock budget, if any, counts from here)
        [self._shared] = self._client.scatter([exercises], broadcast=True, hash=False)
        self._queue: queue.Queue[tuple[Path, TermKeys | None, Future[Submission]] | None] = queue.Queue()
        self._free = threading.Condition()
        self._in_flight = 0
        self._window = (0.0, PER_THREAD)
        self._numbers = itertools.count()
        self._stopping = False
        self._thread = threading.Thread(target=self._feed, name="baccarat-kit dask feeder", daemon=True)
        self._thread.start()

    def __call__(self, path: Path, term: TermKeys | None = None) -> Future[Submission]:
        fut: Future[Submission] = Future()
        self._queue.put((path, term, fut))
        return fut

    def close(self) -> None:
        """Stop sending: submissions not yet sent are cancelled (after an interrupted batch)."""
        self._stopping = True
        self._queue.put(None)
        with self._free:
            self._free.notify_all()
        self._thread.join()

    def _capacity(self) -> int:
        """Submissions allowed in flight: :data:`PER_THREAD` per worker thread (asked every 5 s,
        so workers that join or leave during a batch count)."""
        checked, size = self._window
        if time.monotonic() - checked > 5:
            try:
                threads = sum(self._client.nthreads().values())
            except Exception:  # the scheduler will be asked again
                threads = 0
            size = max(PER_THREAD, PER_THREAD * threads)
            self._window = (time.monotonic(), size)
        return size

    def _feed(self) -> None:
        while (item := self._queue.get()) is not None:
            path, term, fut = item
            if self._stopping:
                fut.cancel()
                continue
            with self._free:
                while self._in_flight >= self._capacity() and not self._stopping:
                    self._free.wait(timeout=5)
                if self._stopping:
                    fut.cancel()
                    continue
                self._in_flight += 1
            if not fut.set_running_or_notify_cancel():
                self._finish(fut)
                continue
            try:
                self._send(path, fut, term)
            except BaseException as err:  # anything: the row says worker_failed
                self._finish(fut, error=err)

    def _send(self, path: Path, fut: Future[Submission], term: TermKeys | None = None) -> None:
        from .grade import NotRead, grade_file, read_given

        try:  # never through a link, never waiting on a FIFO, at most the limit (grade.read_given)
            data = read_given(path, MAX_FILE_BYTES)
        except NotRead:  # nothing of it runs: its row (refused, too large) is made here
            self._finish(fut, result=grade_file(path, self._exercises, self._limits, term=term))
            return
        limits = self._budget.now()  # the batch's end goes with it: the worker stops it by then
        if limits is None:
            self._finish(fut, result=self._budget.not_run(path))
            return
        key = f"baccarat-kit-grade-{next(self._numbers)}-{hashlib.sha256(data).hexdigest()[:16]}"
        remote = self._client.submit(grade_sent, path.name, data, str(path), self._shared, limits,
                                     self._fingerprint, term, key=key, pure=False, retries=RETRIES)
        remote.add_done_callback(functools.partial(self._arrived, fut))

    def _arrived(self, fut: Future[Submission], remote: Any) -> None:
        try:
            result = remote.result()
        except BaseException as err:  # KilledWorker, lost data, KitMismatch …
            self._finish(fut, error=err)
        else:
            self._finish(fut, result=result)
        finally:
            remote.release()

    def _finish(self, fut: Future[Submission], result: Submission | None = None,
                error: BaseException | None = None) -> None:
        with self._free:
            self._in_flight -= 1
            self._free.notify()
        if error is not None:
            fut.set_exception(error)
        elif result is not None:
            fut.set_result(result)


@contextmanager
def remote_grading(address: str, certs: str | Path | None, insecure: bool, exercises: dict[str, Exercise],
                   limits: Limits) -> Iterator[DaskSubmit]:
    """Connect, check the workers, and give the ``submit`` of a batch; closed on exit.

    With Dask Gateway or dask-kubernetes, open the ``Client`` as they say and use
    :func:`probe_workers` and :class:`DaskSubmit` the same way (docs/grading.md).
    """
    client = _untyped(connect(address, certs, insecure))
    try:
        described = probe_workers(client, limits)
        _session.record_sandbox(RemoteSandbox(limits.sandbox, None, client.scheduler.address, described))
        submit = DaskSubmit(client, exercises, limits)
        try:
            yield submit
        finally:
            submit.close()
            with contextlib.suppress(Exception):  # (the workers' own record; the probe's stands without it)
                _session.record_scope(workers_scope(client.run(worker_scope, limits.memory_mb)))
                _session.record_cpu_source(workers_scope(client.run(worker_cpu_source, limits.memory_mb)))
    finally:
        client.close()
