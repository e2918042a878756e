"""Judge what ran, not what was typed (issue 35): fingerprints of the code a grading run executed.

The kit's rule code is absent from a grading run (issue 30), so a learner who wants it there must
bring it: pasted into a cell (:mod:`..judge.pasted` reads the cells' text), or as *data* that
becomes code only when the cells run — the kit's modules as a base64/zip blob unpacked into the
writable folder and imported, its source compressed and run through ``exec``, its bytecode
through ``marshal`` or ``types.CodeType``, a kit module saved under another name. None of these
leaves kit code in the cells' text. This module looks at what ran instead:

* :func:`install` (the runner calls it in the learner process before any learner code runs)
  adds an **audit hook** (``sys.addaudithook``: it cannot be removed). The hook fingerprints every
  code object the moment Python is about to run it or has been handed it: ``exec`` (every
  import from source or bytecode, every ``exec``/``eval`` of a string or code object, every cell
  statement IPython runs), ``marshal.loads`` of bytes (unmarshalled again here), ``code.__new__``
  (``types.CodeType``, ``code.replace``: the new bytecode), ``function.__new__`` (a function made
  with ``types.FunctionType`` from any code object: one compiled and never executed, a module's
  code called as a function; wherever she keeps it, or none) and a function's ``__code__`` set.
  A code object is fingerprinted with everything nested in it (every function and class body).
* after the cells, and again after the last answer, the runner raises the audit event
  :data:`WALK`; the hook then walks what the run left behind (the learner's namespace: functions, classes, methods, modules, containers one
  level deep; every module imported during the run whose file is not in the read-only Python
  folders) for code that reached none of those events, and ends its report.
* a **fingerprint** (:func:`code_fingerprints`) is computed from the bytecode itself, not the
  text, normalised (no ``NOP``, only what can be reached: :func:`full_fingerprint`): ``co_code``
  (instructions with their operands: a local, global or attribute is an index
  by order of first use, so renaming does not change it; line numbers, comments, layout and the
  docstring are not in it), the arguments' shape and the constants' (a nested function by its
  own bytecode). The grader computes the same fingerprints of the kit's rule modules (outside the
  sandbox, from the installed kit: :mod:`..judge.ran`) and sends only their **hashes** here, never
  the kit's code. A match is reported with where it came from (the file or ``<string>`` it was
  compiled as, the module being imported, the event) and the learner's own name for it.

What learner code can do about it (it runs in this process): the hook's state and its
descriptor live only in the hook's closure (nothing in any module or frame refers to them; the
callables it uses are bound before learner code runs, so patching ``builtins``, ``os``, ``json``
or ``hashlib`` does not reach them). What can reach that closure, read this process's memory or
run code where the hook is not (``gc``, ``ctypes``, another audit hook, ``sys._current_frames``, a
sub-interpreter, a program started without Landlock: :data:`TRACED`, :data:`PROGRAMS`) is a
**trace**, reported before the code that asked gets an answer. The hook never stops her code and
never fails silently: an exception in it is counted (and sent as a ``fail`` line when it can be),
the count goes into every end line, and a code object is marked seen only once it was checked.
Each report line carries a sequence number and an HMAC under a key the grader sent with the job;
that key is in this process, so it stops only lines written blind. The grader reads a trace, a
failure, a missing line or a missing walk as "could not verify what ran" (:mod:`..judge.ran`,
docs/threat-model.md).

Standard library only: this file is copied into the grading run's folder (``bk_sandbox.ran``).
"""

from __future__ import annotations

import opcode as _opcode_info
import sys
from _blake2 import blake2b as _blake2b
from collections.abc import Callable, Iterator
from opcode import hasjabs as _hasjabs
from opcode import hasjrel as _hasjrel
from opcode import opmap as _opmap
from opcode import opname as _opname
from typing import Any

WALK = "baccarat_kit.ran.walk"
"""The audit event the runner raises after the cells (argument: the learner's namespace): the
hook walks what the run left and sends its last line."""
PREFIX = "ran "
"""Every line of this report starts so (``ran SEQ PAYLOAD MAC``)."""
MIN_CODE_BYTES = 64
"""A code object with a shorter ``co_code`` (instructions and their inline caches, in bytes) is
too common to tell anything (``return total in NATURALS``): not fingerprinted on either side."""
MIN_NEW_CODE_BYTES = 160
"""``types.CodeType`` is handed the bytecode alone (no constants): only one this long is compared."""
IMPORTLIB = "<frozen importlib._bootstrap_external>"
MAX_LINES = 300
"""Most match and trace lines one run reports (then one line says that more were left out)."""
MAX_WALK = 200_000
"""Most objects the walk looks at after the cells."""
CO_FLAG_MASK = 0x3FF
"""The ``co_flags`` that shape a function's code (not the ``__future__`` features of its file)."""
CACHE = _opmap.get("CACHE", -1)
EXTENDED_ARG = _opmap["EXTENDED_ARG"]
CONST_OPS = frozenset(_opmap[name] for name in ("LOAD_CONST", "KW_NAMES", "RETURN_CONST") if name in _opmap)
"""The instructions whose operand is an index into ``co_consts``."""
NOP = _opmap["NOP"]
NOP_BYTE = bytes((NOP,))
RETURNS = tuple(bytes((_opmap[name],)) for name in ("RETURN_VALUE", "RETURN_CONST") if name in _opmap)
"""What ends the part of a code object's instructions that the quick test hashes."""
JUMPS_BACK = frozenset(op for op in _hasjrel if "BACKWARD" in _opname[op])
JUMPS_FORWARD = frozenset(_hasjrel) - JUMPS_BACK
JUMPS_ABS = frozenset(_hasjabs)
STOPS = frozenset(_opmap[name] for name in ("RETURN_VALUE", "RETURN_CONST", "RAISE_VARARGS", "RERAISE",
                                            "JUMP_FORWARD", "JUMP_BACKWARD", "JUMP_BACKWARD_NO_INTERRUPT",
                                            "JUMP_ABSOLUTE", "JUMP") if name in _opmap)
"""After these the next instruction is not reached (unless a jump goes there)."""
_CACHE_ENTRIES = getattr(_opcode_info, "_inline_cache_entries", None) or [0] * 256
if isinstance(_CACHE_ENTRIES, dict):  # Python 3.13 keys them by name
    _CACHE_ENTRIES = [_CACHE_ENTRIES.get(name, 0) for name in _opname]
CACHES = bytes(_CACHE_ENTRIES)
"""How many inline cache entries follow each instruction, by opcode (none before Python 3.11)."""
TRACED = ("sys.addaudithook", "gc.get_objects", "gc.get_referrers", "gc.get_referents",
          "sys._current_frames", "sys._current_exceptions", "os.kill", "os.killpg", "signal.pthread_kill",
          "cpython.PyInterpreterState_New", "ctypes.dlopen", "ctypes.dlsym", "ctypes.dlsym/handle",
          "ctypes.cdata", "ctypes.cdata/buffer", "ctypes.string_at", "ctypes.wstring_at", "ctypes.call_function")
"""Audited events that can reach the hook's state, read the process's memory (its key) or run
code where the hook is not (a sub-interpreter: audit hooks are per interpreter): each makes the
report one that could not verify what ran. A tracer (``sys.settrace``/``setprofile``: a debugger,
a profiler, ``doctest``) is not among them: Python runs audit hooks with tracing off, so a tracer
never sees the hook's frames."""
SUBINTERPRETERS = ("_xxsubinterpreters", "_xxinterpchannels", "_xxinterpqueues", "_interpreters",
                   "_interpchannels", "_interpqueues", "_testcapi", "_testinternalcapi")
"""The modules that can start a sub-interpreter, where this hook is not (hooks are per
interpreter). Importing one is a trace: Python 3.13's ``_interpreters.create()`` raises no audit
event at all (3.12's raised ``cpython.PyInterpreterState_New``, still in :data:`TRACED`). The
sandbox also masks their files (:mod:`.api_tree`)."""
PROGRAMS = ("os.exec", "os.posix_spawn", "os.spawn", "subprocess.Popen", "os.system")
"""Events that start another program, where the hook is not: traced when Landlock could not take
the right to execute programs away (else they fail with ``PermissionError``)."""


_TYPE_NAME = type.__dict__["__name__"].__get__
"""A class's own name (``type.__name__``'s slot: never a ``__name__`` her metaclass defines)."""
REENTRANT = ("exec", "function.__new__", "code.__new__")
"""Events the hook never causes itself: one of them while the hook is at work in the same thread
means her code ran from inside the hook (a ``__class__`` property, a metaclass's ``__eq__``, a
string's ``__format__`` …): still checked, and a trace."""


def _hash(data: bytes) -> str:
    return _blake2b(data, digest_size=10).hexdigest()


def _const_shape(value: Any, out: list[str], code_type: type, depth: int = 0) -> None:
    kind = type(value)  # (compared by identity only, named through ``type``'s own slot: a const
    # of a code object she built may be any object, and nothing of hers may run in the hook)
    name = _TYPE_NAME(kind)
    if value is None or kind is bool or kind is int or kind is float or kind is complex:
        out.append(f"{name}:{value!r}")
    elif kind is str:
        out.append("s:" + value[:200])
    elif kind is bytes:
        out.append("b:" + value[:200].hex())
    elif (kind is tuple or kind is frozenset) and depth < 4:
        items: list[str] = []
        for item in value:
            _const_shape(item, items, code_type, depth + 1)
        out.append(name + "(" + ",".join(sorted(items) if kind is frozenset else items) + ")")
    elif kind is code_type:
        out.append("code:" + opcodes(value.co_code))
    else:
        out.append(name)


def opcodes(co_code: bytes) -> str:
    """The hash of the instructions alone (no operand, no ``NOP``) up to the first return: the
    quick first test, at C speed (dead code appended after a return changes nothing)."""
    ops = co_code[0::2].replace(NOP_BYTE, b"")
    ends = [n for n in (ops.find(r) for r in RETURNS) if n >= 0]
    return _hash(ops[:min(ends) + 1] if ends else ops)


def full_fingerprint(code: Any) -> str:
    """The instructions that can be reached from the start (none that follows a return or a jump
    unless a jump goes there; exception handlers are left out on both sides), without ``NOP``,
    each jump's target by its place among them, each constant's operand renumbered by first use
    (so a docstring, kept or dropped, changes nothing), the constants in that order (their shape:
    a nested function by its instructions) and the arguments' shape."""
    raw = code.co_code
    out = bytearray()
    order: dict[int, int] = {}
    ext = 0
    steps: list[tuple[int, int, int]] = []
    at: dict[int, int] = {}
    for i in range(0, len(raw), 2):
        op, arg = raw[i], raw[i + 1] | ext
        if op == CACHE:
            continue
        if op == EXTENDED_ARG:
            ext = arg << 8
            continue
        ext = 0
        at[i] = len(steps)
        steps.append((i, op, arg))
    targets: dict[int, int] = {}
    for n, (i, op, arg) in enumerate(steps):
        if op in JUMPS_FORWARD or op in JUMPS_BACK or op in JUMPS_ABS:
            after = i + 2 + 2 * CACHES[op]
            target = arg * 2 if op in JUMPS_ABS else after - 2 * arg if op in JUMPS_BACK else after + 2 * arg
            targets[n] = at.get(target, len(steps))
    reach: set[int] = set()
    todo = [0]
    while todo:
        n = todo.pop()
        while n < len(steps) and n not in reach:
            reach.add(n)
            if n in targets:
                todo.append(targets[n])
            if steps[n][1] in STOPS:
                break
            n += 1
    place: dict[int, int] = {}  # a step -> its place among those kept (a NOP: the next one's)
    kept = 0
    for n in sorted(reach):
        place[n] = kept
        kept += steps[n][1] != NOP
    for n in sorted(reach):
        i, op, arg = steps[n]
        if op == NOP:
            continue
        if n in targets:
            arg = place.get(targets[n], kept)
        elif op in CONST_OPS:
            arg = order.setdefault(arg, len(order))
        out += bytes((op, arg & 0xFF, (arg >> 8) & 0xFF, (arg >> 16) & 0xFF))
    consts = code.co_consts
    shapes: list[str] = []
    for index in order:
        if index < len(consts):
            _const_shape(consts[index], shapes, type(code))
    head = f"{code.co_argcount},{code.co_posonlyargcount},{code.co_kwonlyargcount},{code.co_flags & CO_FLAG_MASK}"
    return _hash(bytes(out) + b"\0" + "\n".join([head, *shapes]).encode("utf-8", "surrogatepass"))


def code_fingerprints(code: Any) -> Iterator[tuple[str, str, str]]:
    r"""``(qualified name, bytecode hash, full hash)`` of ``code`` and every code object nested in
    it that is large enough (:data:`MIN_CODE_BYTES`): what the grader computes of the kit.
    Renamed, laid out again and without its docstring, a function keeps its fingerprints:

    >>> one = ('def f(total, third):\n    "The rule."\n    t = check(total, "banker")\n'
    ...        '    return t in TABLE[third] if third is not None else (t in STOOD and t > 2 or t < 0)\n')
    >>> two = ('def g(x, y):\n    z = check(x,\n              "banker")  # mine\n'
    ...        '    return (z in T[y]) if y is not None else (\n        z in S and z > 2 or z < 0)\n')
    >>> [p[1:] for p in code_fingerprints(compile(one, "a", "exec"))] == [
    ...     p[1:] for p in code_fingerprints(compile(two, "b", "exec"))] != []
    True
    """
    todo = [code]
    kind = type(code)
    while todo:
        one = todo.pop()
        for value in one.co_consts:
            if type(value) is kind:
                todo.append(value)
        if len(one.co_code) >= MIN_CODE_BYTES:
            yield one.co_qualname, opcodes(one.co_code), full_fingerprint(one)


def install(kit: dict[str, Any], key: bytes, fd: int, trusted: list[str], writable: list[str],
            programs_blocked: bool = False) -> None:
    """Add the audit hook (see the module docstring). ``kit``: ``{"code": [bytecode hashes],
    "full": [full hashes]}`` of the kit's rule modules (from the grader); ``key``: the HMAC key of
    this run's report lines; ``fd``: where they go (the learner process's pipe to the supervisor:
    the hook writes to a duplicate of its own); ``trusted``: the read-only Python folders whose
    modules the walk skips (their imports were fingerprinted by the hook as they ran);
    ``writable``: the run's writable folders; ``programs_blocked``: Landlock took the right to execute
    programs away (else starting one is a trace, :data:`PROGRAMS`). Nothing of this is kept
    anywhere but the hook."""
    import _hashlib
    import _json
    import _thread
    import builtins
    import functools
    import marshal
    import os
    import signal
    import time
    import types

    private = _private(builtins, types.FunctionType)
    handlers = {int(n): signal.getsignal(n) for n in signal.valid_signals()}
    private["_hook"](_state(kit, key, os.dup(fd), trusted, writable, set(sys.modules), programs_blocked),
          (_hashlib.hmac_digest, _json.encode_basestring_ascii, _thread.get_ident, marshal.loads, os.write,
           time.monotonic, types.CodeType, types.FunctionType, types.MethodType, types.ModuleType, type,
           staticmethod, classmethod, issubclass, len, id, str, getattr, repr, sys.modules, sys.addaudithook,
           os.path.normpath, sys._getframe, handlers, signal.getsignal, functools.partial))


PRIVATE = ("_hash", "_const_shape", "opcodes", "full_fingerprint", "code_fingerprints", "_hook")
"""The functions the hook runs, copied over a namespace of their own (:func:`_private`)."""


def _private(builtins: Any, function_type: Any) -> dict[str, Any]:
    """A namespace only the hook holds: this module's constants, a copy of each of :data:`PRIVATE`
    bound to it, and a snapshot of ``builtins`` taken before learner code ran. So nothing she
    patches later (``builtins.len``, this module's globals, ``hashlib``) changes what the hook does."""
    mine = globals()
    ns: dict[str, Any] = {"__builtins__": dict(builtins.__dict__), "__name__": __name__}
    for name, value in mine.items():
        if name.isupper() or name == "_blake2b":
            ns[name] = value
    for name in PRIVATE:
        original = mine[name]
        ns[name] = function_type(original.__code__, ns, original.__name__, original.__defaults__)
    return ns


def _state(kit: dict[str, Any], key: bytes, fd: int, trusted: list[str], writable: list[str],
           before: set[str], programs_blocked: bool) -> dict[str, Any]:
    return {"code": frozenset(str(h) for h in kit.get("code", [])),
            "full": frozenset(str(h) for h in kit.get("full", [])), "key": bytes(key), "fd": fd,
            "trusted": tuple(t.rstrip("/") + "/" for t in trusted), "writable": tuple(w.rstrip("/") + "/" for w in writable),
            "before": frozenset(before), "seq": 0, "sent": set(), "busy": set(), "seen": {},
            "dropped": 0, "failed": 0, "traced": TRACED if programs_blocked else TRACED + PROGRAMS}


def _hook(state: dict[str, Any], bound: tuple[Any, ...]) -> None:
    """Build the hook over ``state`` and the callables ``bound`` before learner code ran, and add it."""
    (hmac_digest, quote, get_ident, unmarshal, write, monotonic, CodeType, FunctionType, MethodType, ModuleType,
     type_, staticmethod_, classmethod_, issubclass_, len_, id_, str_, _getattr, repr_, modules, add_hook,
     normpath, getframe, handlers, getsignal, partial_type) = bound
    code_set, full_set, key, fd = state["code"], state["full"], state["key"], state["fd"]
    trusted, writable, before = state["trusted"], state["writable"], state["before"]
    sent, busy, seen = state["sent"], state["busy"], state["seen"]
    ops_, full_ = opcodes, full_fingerprint
    del state["key"]

    def text(value: Any) -> str:
        """``value`` if it is a plain ``str`` (a subclass's ``__format__``/``__str__`` is her code)."""
        return value if type_(value) is str else "?"

    def emit(fields: list[str]) -> None:
        seq = state["seq"]
        state["seq"] = seq + 1
        payload = "\t".join(quote(str_(f)[:600]) for f in fields)
        mac = hmac_digest(key, f"{seq} {payload}".encode(), "sha256").hex()[:32]
        try:
            write(fd, f"{PREFIX}{seq} {payload} {mac}\n".encode("utf-8", "replace"))
        except OSError:  # (the grader sees the gap in the numbers, and the end line's count)
            state["failed"] += 1

    def report(fields: list[str]) -> None:
        if fields[0] == "end":
            emit(fields)
            return
        mark = "\t".join(fields[:3])
        if mark in sent:
            return
        if len_(sent) >= MAX_LINES:
            state["dropped"] += 1
            return
        sent.add(mark)
        emit(fields)

    def check(code: Any, how: str, where: Any) -> None:
        """Fingerprint ``code`` and everything nested in it; report each match. A code object is
        marked seen only once it was checked (a check that failed half-way is done again)."""
        if id_(code) in seen:
            return
        todo = [code]
        while todo:
            one = todo.pop()
            if id_(one) in seen:
                continue
            for value in one.co_consts:
                if type_(value) is CodeType and id_(value) not in seen:
                    todo.append(value)
            if len_(one.co_code) >= MIN_CODE_BYTES:
                h = ops_(one.co_code)
                if h in code_set:
                    f = full_(one)
                    if f in full_set:
                        report(["match", h, f, how, where if type_(where) is str else where(),
                                text(one.co_qualname)])
            seen[id_(one)] = one  # (kept: an id is not reused while it is here)

    def where_of(code: Any, depth: int) -> str:
        """The file ``code`` says it is from and, for a module's code that an import runs, the
        module's name (from the import's own frame: a label, not evidence)."""
        file = text(code.co_filename)
        if code.co_name != "<module>":
            return file
        caller = getframe(depth)  # (here, the lambda, check, on_exec, the hook: then what called exec)
        if caller is not None and caller.f_code.co_name == "_call_with_frames_removed":
            given: Any = caller.f_locals.get("args")
            names: Any = given[1] if type_(given) is tuple and len_(given) > 1 else None
            name: Any = names.get("__name__") if type_(names) is dict else None
            if type_(name) is str:
                return f"{file} (imported as {name[:120]})"
        return file

    def trusted_file(path: Any) -> bool:
        if type_(path) is not str or not path.startswith("/"):
            return False
        real = normpath(path)
        return real.startswith(trusted) and not real.startswith(writable)

    def objects(value: Any, label: str, depth: int, out: list[tuple[Any, str]]) -> None:
        kind = type_(value)
        if kind is FunctionType:
            out.append((value.__code__, label))
        elif kind is MethodType or kind is staticmethod_ or kind is classmethod_:
            objects(value.__func__, label, depth, out)
        elif issubclass_(kind, type_) and depth < 3:  # (not isinstance: it asks her object's __class__)
            for name, item in list(type_.__dict__["__dict__"].__get__(value).items()):
                objects(item, f"{label}.{text(name)}", depth + 1, out)
        elif kind is ModuleType and depth < 3:
            names = ModuleType.__dict__["__dict__"].__get__(value)
            if type_(names) is not dict or trusted_file(names.get("__file__")):
                return
            for name, item in list(names.items()):
                objects(item, f"{label}.{text(name)}", depth + 1, out)
        elif (kind is dict) and depth < 2:
            for name, item in list(value.items())[:1000]:  # (a key's own repr is her code: not called)
                key = repr_(name)[:40] if type_(name) is str or type_(name) is int else _TYPE_NAME(type_(name))
                objects(item, f"{label}[{key}]", depth + 1, out)
        elif (kind is list or kind is tuple or kind is set) and depth < 2:
            for n, item in enumerate(list(value)[:1000]):
                objects(item, f"{label}[{n}]", depth + 1, out)
        elif kind is CodeType:
            out.append((value, label))
        elif kind is partial_type and type_(value.func) is FunctionType:
            out.append((value.func.__code__, label))

    def walk(namespace: Any) -> None:
        start = monotonic()
        found: list[tuple[Any, str]] = []
        if type_(namespace) is dict:
            for name, value in list(namespace.items())[:MAX_WALK]:
                if type_(name) is str and not name.startswith("_bk_grader"):
                    try:
                        objects(value, name, 0, found)
                    except Exception:  # her object's own code raised: skipped
                        pass
        for name, module in list(modules.items()):
            if name in before or type_(module) is not ModuleType:
                continue
            try:
                objects(module, f"module {name}", 0, found)
            except Exception:
                pass
        for code, label in found[:MAX_WALK]:
            if type_(code) is CodeType and id_(code) not in seen:
                check(code, "walk", f"{label} ({text(code.co_filename)})")
        changed = [n for n, was in handlers.items() if getsignal(n) is not was]
        if changed:  # (information: an alarm guard; see docs/threat-model.md)
            report(["note", "signal", "", f"signal handlers set: {changed[:8]}", "", ""])
        if state["dropped"]:
            emit(["more", str_(state["dropped"])])
        report(["end", str_(len_(seen)), f"{monotonic() - start:.4f}", str_(state["failed"])])

    def hook(event: str, args: tuple[Any, ...]) -> None:
        if event not in handled:
            return
        me = get_ident()
        if me in busy:  # (the hook's own marshal.loads, sys._getframe …; see REENTRANT)
            if event in REENTRANT:
                try:
                    report(["trace", "reentered", "", f"{event} while the check ran: her code ran from inside it",
                            "", ""])
                    handled[event](args)
                except BaseException:
                    state["failed"] += 1
            return
        busy.add(me)
        try:
            handled[event](args)
        except BaseException as err:  # never in her way, never silent: counted in the end line
            state["failed"] += 1  # (first: no call that could fail again under a recursion limit)
            try:
                emit(["fail", event, _TYPE_NAME(type_(err))])
            except BaseException:
                pass
            if not issubclass_(type_(err), Exception):  # (her handler's KeyboardInterrupt: hers to get)
                raise
        finally:
            busy.discard(me)

    def on_exec(args: tuple[Any, ...]) -> None:
        code = args[0] if args else None
        if type_(code) is CodeType:
            check(code, "exec", lambda: where_of(code, 5))

    def on_marshal(args: tuple[Any, ...]) -> None:
        data = args[0] if args else None
        caller = getframe(2).f_code  # (0: this function, 1: the hook)
        if caller.co_name == "_compile_bytecode" and caller.co_filename == IMPORTLIB:
            return  # an import's bytecode: the module's code is fingerprinted as it is executed
        kind = type_(data)
        if (kind is bytes or kind is bytearray or kind is memoryview) and len_(data) < 64 * 1024 * 1024:
            got = unmarshal(data)
            if type_(got) is CodeType:
                check(got, "marshal.loads", f"marshal.loads of {len_(data)} bytes ({got.co_filename})")

    def on_new_code(args: tuple[Any, ...]) -> None:
        data: Any = args[0] if args else None
        if type_(data) is bytes and len_(data) >= MIN_NEW_CODE_BYTES:
            h = ops_(data)
            if h in code_set:
                name = text(args[2]) if len_(args) > 2 else "?"
                file = text(args[1]) if len_(args) > 1 else "?"
                report(["match", h, "", "code.__new__", f"types.CodeType / code.replace ({file})", name])

    def on_new_function(args: tuple[Any, ...]) -> None:
        # ``types.FunctionType(code, globals)``: a code object made callable with no ``exec``
        # (compiled and never executed, a module's code called as a function, kept only in a
        # closure, a default or an object's attribute, or used and deleted before the walk)
        code = args[0] if args else None
        if type_(code) is CodeType:
            check(code, "function.__new__", lambda: where_of(code, 5))

    def on_setattr(args: tuple[Any, ...]) -> None:
        if len_(args) > 2 and type_(args[1]) is str and args[1] == "__code__" and type_(args[2]) is CodeType:
            check(args[2], "__code__ set", lambda: where_of(args[2], 5))

    def on_trace(name: str) -> Callable[[tuple[Any, ...]], None]:
        def traced(args: tuple[Any, ...]) -> None:
            report(["trace", name, "", name, "", ""])
        return traced

    def on_import(args: tuple[Any, ...]) -> None:
        name = args[0] if args else None
        if type_(name) is str and name in SUBINTERPRETERS:
            report(["trace", "sub-interpreter", "", f"import {name}", "", ""])

    def on_walk(args: tuple[Any, ...]) -> None:
        walk(args[0] if args else None)  # (raised again by her code: one more end line, nothing hidden)

    handled: dict[str, Callable[[tuple[Any, ...]], None]] = {
        "exec": on_exec, "marshal.loads": on_marshal, "code.__new__": on_new_code,
        "function.__new__": on_new_function, "object.__setattr__": on_setattr, WALK: on_walk, "import": on_import,
        **{name: on_trace(name) for name in state["traced"]}}
    add_hook(hook)
