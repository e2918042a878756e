"""Confine the process that runs a learner's code, with Linux Landlock (no privileges needed).

:func:`confine` is called in the learner's kernel (by :mod:`.kernel`) and in the function runner
before any learner code runs. Where the running Linux supports it, afterwards the process and
its children:

* can create, change or delete files only below the folders given (the submission's temporary
  folder and the kernel's connection folder), and write ``/dev/null``;
* can bind and connect TCP only on the ports given (the kernel's own channels), so no network;
* can send signals only to processes confined the same way (not to the grader or its workers),
  and cannot reach abstract unix sockets outside (Landlock ABI 6 or later).

Reading is not restricted unless ``readable`` is given (the function runner): then files and
folders can be read (or executed) only below ``readable`` and ``writable``, so code that escapes
every other check still cannot read the kit, the instructor's sources or ``/proc``. Where Landlock is missing, :func:`confine` returns 0 and nothing is
confined: the grader then relies on its other limits (see docs/threat-model.md).

This module's source is also run on its own (inside ``python -I``), so it imports only the
standard library.
"""

# Standard library only: this text also runs inside the isolated function runner.
import ctypes
import os
import struct

_CREATE_RULESET, _ADD_RULE, _RESTRICT_SELF = 444, 445, 446  # the same on every Linux architecture
_RULE_PATH_BENEATH, _RULE_NET_PORT = 1, 2
_PR_SET_NO_NEW_PRIVS = 38

_FS_EXECUTE = 1 << 0
_FS_WRITE_FILE = 1 << 1
_FS_READ_FILE = 1 << 2
_FS_READ_DIR = 1 << 3
_FS_REMOVE_DIR = 1 << 4
_FS_REMOVE_FILE = 1 << 5
_FS_MAKE = sum(1 << b for b in range(6, 13))  # char, dir, reg, sock, fifo, block, sym
_FS_REFER = 1 << 13  # ABI 2
_FS_TRUNCATE = 1 << 14  # ABI 3
_NET_BIND_TCP, _NET_CONNECT_TCP = 1 << 0, 1 << 1  # ABI 4
_SCOPE_ABSTRACT_UNIX, _SCOPE_SIGNAL = 1 << 0, 1 << 1  # ABI 6


def abi_version() -> int:
    """The Landlock ABI version of the running kernel (0: not available)."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        version = libc.syscall(_CREATE_RULESET, None, ctypes.c_size_t(0), ctypes.c_uint32(1))
    except (OSError, AttributeError):
        return 0
    return max(int(version), 0)


def confine(writable: list[str], bind_ports: list[int] = (), connect_ports: list[int] = (),  # type: ignore[assignment]
            readable: list[str] | None = None, execute: bool = True) -> int:
    """Confine this process (see the module docstring); returns the ABI used, 0 if none.

    ``readable`` None leaves reading alone; a list (even empty) confines reading and executing
    to those folders and ``writable``. ``execute`` False: no program can be started at all (the
    process and its children keep running what they run; ``execve`` fails with ``EACCES``)."""
    abi = abi_version()
    if abi < 1:
        return 0
    libc = ctypes.CDLL(None, use_errno=True)
    write_dir = _FS_WRITE_FILE | _FS_REMOVE_DIR | _FS_REMOVE_FILE | _FS_MAKE
    write_file = _FS_WRITE_FILE
    read_dir = read_file = 0
    no_exec = 0 if execute else _FS_EXECUTE  # handled and granted nowhere: denied everywhere
    if readable is not None:
        read_file = _FS_READ_FILE | (_FS_EXECUTE if execute else 0)
        read_dir = read_file | _FS_READ_DIR
    if abi >= 2:
        write_dir |= _FS_REFER
    if abi >= 3:
        write_dir |= _FS_TRUNCATE
        write_file |= _FS_TRUNCATE
    net = (_NET_BIND_TCP | _NET_CONNECT_TCP) if abi >= 4 else 0
    scoped = (_SCOPE_ABSTRACT_UNIX | _SCOPE_SIGNAL) if abi >= 6 else 0
    handled = write_dir | read_dir | no_exec
    if abi >= 6:
        attr = struct.pack("=QQQ", handled, net, scoped)
    elif abi >= 4:
        attr = struct.pack("=QQ", handled, net)
    else:
        attr = struct.pack("=Q", handled)
    buf = ctypes.create_string_buffer(attr, len(attr))
    ruleset = libc.syscall(_CREATE_RULESET, buf, ctypes.c_size_t(len(attr)), ctypes.c_uint32(0))
    if ruleset < 0:
        return 0
    try:
        rules = [(path, write_dir | read_dir) for path in writable] + [(os.devnull, write_file | read_file)]
        rules += [(path, read_dir if os.path.isdir(path) else read_file) for path in readable or () if read_dir]
        for path, access in rules:
            fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
            try:
                rule = ctypes.create_string_buffer(struct.pack("=Qi", access, fd), 12)
                if libc.syscall(_ADD_RULE, ruleset, ctypes.c_uint32(_RULE_PATH_BENEATH), rule,
                                ctypes.c_uint32(0)) != 0:
                    raise OSError(ctypes.get_errno(), f"landlock rule for {path}")
            finally:
                os.close(fd)
        if net:
            ports = [(p, _NET_BIND_TCP) for p in bind_ports] + [(p, _NET_CONNECT_TCP) for p in connect_ports]
            for port, access in ports:
                rule = ctypes.create_string_buffer(struct.pack("=QQ", access, int(port)), 16)
                if libc.syscall(_ADD_RULE, ruleset, ctypes.c_uint32(_RULE_NET_PORT), rule,
                                ctypes.c_uint32(0)) != 0:
                    raise OSError(ctypes.get_errno(), f"landlock rule for port {port}")
        if libc.prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
            raise OSError(ctypes.get_errno(), "no_new_privs")
        if libc.syscall(_RESTRICT_SELF, ruleset, ctypes.c_uint32(0)) != 0:
            raise OSError(ctypes.get_errno(), "landlock_restrict_self")
    finally:
        os.close(ruleset)
    return abi
