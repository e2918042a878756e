"""Collect a learner's answers as plain JSON values. Runs inside the learner's kernel.

The grader sends the source of this module, unchanged, to the learner's kernel after the
learner's cells, and calls :func:`emit` with a random nonce. It is self-contained (standard
library only, its own JSON writer, no ``json`` module) because the learner's code ran
first and may have patched anything importable. Nothing here decides a grade: the grader
parses the printed line strictly, checks every type again in its own process and compares
with answers it computes itself. The notebook's ``check()`` uses :func:`collect` in-process,
so both see the same plain values.

Plain means: ``None``, ``bool``, ``int``, ``str``, ``list``/``tuple`` and ``dict`` with
``str`` keys, by exact type (a subclass or an object whose ``__eq__`` always says yes is
refused), plus ``decimal.Decimal`` written as ``{"$decimal": "95.00"}`` and ``float`` as its
shortest repr ``{"$float": "99.75"}`` (never a JSON number: the grader parses no floats).
"""

# This module must stay importable on its own and free of imports from baccarat_kit:
# its text is executed in the learner's kernel.

MAX_ITEMS = 5000
MAX_TEXT = 2000
MAX_DEPTH = 8
FUNCTION_SECONDS = 10.0
"""CPU time a function answer has for all its inputs (the grader sends its ``--timeout``, and a
wall-clock backstop several times as long)."""


class _Refused(Exception):
    pass


def _type_name(obj):
    try:
        name = type(obj).__name__
    except Exception:
        return "?"
    return name[:60] if type(name) is str else "?"


def plain(obj, depth=0):
    """``obj`` as plain JSON-able data, or :class:`_Refused` naming the first bad type."""
    t = type(obj)
    if obj is None or t is bool:
        return obj
    if t is int:
        if -(10 ** 30) < obj < 10 ** 30:
            return obj
        raise _Refused("int")
    if t is str:
        if len(obj) <= MAX_TEXT:
            return obj
        raise _Refused("str")
    if t is float:
        # Sent as its shortest repr (``0.1 * 3`` → "0.30000000000000004"); the grader reads it
        # at the question's precision. inf and nan are refused.
        if obj == obj and obj not in (float("inf"), float("-inf")):
            return {"$float": repr(obj)}
        raise _Refused("float")
    if depth >= MAX_DEPTH:
        raise _Refused(_type_name(obj))
    if t is list or t is tuple:
        if len(obj) > MAX_ITEMS:
            raise _Refused(t.__name__)
        return [plain(item, depth + 1) for item in obj]
    if t is dict:
        if len(obj) > MAX_ITEMS:
            raise _Refused("dict")
        out = {}
        for k, v in obj.items():
            if type(k) is not str:
                raise _Refused(_type_name(k))
            out[k] = plain(v, depth + 1)
        return out
    import decimal

    if t is decimal.Decimal and obj.is_finite():
        return {"$decimal": str(obj)}
    raise _Refused(_type_name(obj))


class _OutOfTime(BaseException):
    pass


def _function_answer(fn, inputs, seconds=None, wall=None):
    """``fn`` called on every input (each result as plain data, or the error's type name), within
    ``seconds`` of this process's CPU time in all and ``wall`` seconds of wall-clock time (then
    ``{"status": "timeout", "clock": "cpu" | "wall"}``; None: no such limit). In a grading run the
    kit's rule code is not there (issue 30), so whatever a call returns is what the learner's own
    code computed."""
    import types

    inner = fn
    for _ in range(8):  # a decorated def (functools.lru_cache, functools.wraps): her function inside
        if type(inner) is types.FunctionType:
            break
        try:
            inner = inner.__wrapped__
        except Exception:
            break
    if type(inner) is not types.FunctionType or not callable(fn) or isinstance(fn, type):
        return {"status": "not-function", "type": _type_name(fn)}
    code = inner.__code__
    kit_function = "baccarat_kit" in str(code.co_filename) or str(getattr(inner, "__module__", "")).startswith(
        "baccarat_kit")
    alarms = []  # (signal, timer, handler before), for each limit set
    try:
        import signal

        def _ring(signum, frame):
            raise _OutOfTime("cpu" if signum == signal.SIGPROF else "wall")

        for limit, which, timer in ((seconds, signal.SIGPROF, signal.ITIMER_PROF),
                                    (wall, signal.SIGALRM, signal.ITIMER_REAL)):
            if limit:
                alarms.append((which, timer, signal.signal(which, _ring)))
                signal.setitimer(timer, float(limit))
    except (ImportError, ValueError, OSError, AttributeError):  # not the main thread, not Unix
        pass
    results = []
    try:
        for args in inputs:
            try:
                value = fn(*args)
            except _OutOfTime:
                raise
            except Exception as err:
                results.append({"$error": _type_name(err)})
                continue
            try:
                results.append(plain(value))
            except _Refused as bad:
                results.append({"$bad": str(bad.args[0])[:60]})
    except _OutOfTime as out:
        clock = out.args[0] if out.args else "cpu"
        return {"status": "timeout", "seconds": seconds if clock == "cpu" else wall, "clock": clock}
    finally:
        if alarms:
            import signal

            for which, timer, before in alarms:
                signal.setitimer(timer, 0)
                signal.signal(which, before)
    return {"status": "ok", "results": results, "tripped": 0, "kit_function": bool(kit_function)}


def collect(namespace, questions, seconds=None, wall=None):
    """The answers to ``questions`` found in ``namespace`` (a notebook's globals), as plain data.

    ``questions``: ``[{"id", "kind", "answer", "inputs"}]`` (``inputs`` for functions, each given
    ``seconds`` of CPU time and ``wall`` seconds of wall-clock time in all).
    """
    answers = {}
    for q in questions:
        name = q["answer"]
        if name not in namespace:
            answers[q["id"]] = {"status": "missing"}
            continue
        value = namespace[name]
        if q["kind"] == "function":
            answers[q["id"]] = _function_answer(value, q["inputs"], seconds, wall)
            continue
        try:
            answers[q["id"]] = {"status": "ok", "value": plain(value)}
        except _Refused as bad:
            answers[q["id"]] = {"status": "bad-type", "type": str(bad.args[0])[:60]}
    learner = namespace.get("LEARNER_ID")
    if type(learner) is not str or not learner.strip() or len(learner) > 100:
        learner = None
    return {"learner_id": learner, "answers": answers}


def dumps(value):
    """A JSON text for plain data, written without the ``json`` module (ASCII only)."""
    out = []
    _write(value, out)
    return "".join(out)


def _write(value, out):
    t = type(value)
    if value is None:
        out.append("null")
    elif t is bool:
        out.append("true" if value else "false")
    elif t is int:
        out.append(f"{value:d}")
    elif t is str:
        out.append('"')
        for ch in value:
            o = ord(ch)
            if 32 <= o < 127 and ch != '"' and ch != "\\":
                out.append(ch)
            elif o < 0x10000:
                out.append(f"\\u{o:04x}")
            else:
                o -= 0x10000
                out.append(f"\\u{0xD800 + (o >> 10):04x}\\u{0xDC00 + (o & 0x3FF):04x}")
        out.append('"')
    elif t is list:
        out.append("[")
        for i, item in enumerate(value):
            if i:
                out.append(",")
            _write(item, out)
        out.append("]")
    elif t is dict:
        out.append("{")
        for i, (k, v) in enumerate(value.items()):
            if i:
                out.append(",")
            _write(str(k), out)
            out.append(":")
            _write(v, out)
        out.append("}")
    else:
        raise _Refused(_type_name(value))


def reset_shell():
    """Undo what a learner may have hooked into IPython: transformers, events, tracers."""
    import sys
    import threading

    sys.settrace(None)
    sys.setprofile(None)
    threading.settrace(None)
    threading.setprofile(None)
    try:
        from IPython import get_ipython
        from IPython.core.inputtransformer2 import TransformerManager
    except ImportError:
        return
    ip = get_ipython()
    if ip is None:
        return

    # Methods replaced on the shell object itself (ip.transform_cell = …) are dropped, so the
    # class's own methods apply again.
    import types

    own = vars(ip)
    for name in list(own):
        for klass in type(ip).__mro__:
            if name in vars(klass):
                if isinstance(vars(klass)[name], types.FunctionType):
                    del own[name]
                break
    ip.input_transformer_manager = TransformerManager()
    ip.input_transformers_post = []
    ip.ast_transformers = []
    for name in list(ip.events.callbacks):
        ip.events.callbacks[name] = []


def emit(namespace, nonce, questions, seconds=None, wall=None):
    """Print one line: the nonce, then the answers as JSON (what the grader reads)."""
    reset_shell()
    try:
        text = dumps(collect(namespace, questions, seconds, wall))
    except Exception as err:
        text = dumps({"error": _type_name(err)})
    import sys

    stream = sys.stdout
    stream.write(nonce + text + "\n")
    stream.flush()
