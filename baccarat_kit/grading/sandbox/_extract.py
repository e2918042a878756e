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
# its text is executed in the learner's kernel. Its annotations are never evaluated (a
# function's are strings, a local variable's never is), so the names they use are imported for
# mypy only, under TYPE_CHECKING: the text imports nothing more there.

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping, Sequence
    from signal import Handlers, Signals
    from types import FrameType
    from typing import Any, NotRequired, Required, TypeAlias, TypedDict

    Plain: TypeAlias = "bool | int | str | list[Plain] | dict[str, Plain] | None"
    """What :func:`plain` returns (a float or a Decimal as its one-key ``$float``/``$decimal`` dict)."""
    Handler: TypeAlias = "Callable[[int, FrameType | None], Any] | int | Handlers | None"
    """A signal handler, as :func:`signal.signal` takes and returns it."""

    class Wanted(TypedDict):
        """One question as the grader sends it (:meth:`..judge.checks.Question.extraction`)."""

        id: str
        kind: str
        answer: str
        inputs: NotRequired[list[list[Any]]]

    class Answer(TypedDict, total=False):
        """What :func:`collect` found for one question."""

        status: Required[str]
        value: Plain
        type: str
        seconds: float | None
        clock: str
        """Which limit a timeout ran out of: ``cpu`` (``seconds`` of CPU time) or ``wall`` (its backstop)."""
        results: list[Plain]
        tripped: int
        kit_function: bool
        empty: bool

    class Collected(TypedDict):
        """What :func:`collect` returns."""

        learner_id: str | None
        answers: dict[str, Answer]

MAX_ITEMS = 5000
MAX_TEXT = 2000
MAX_DEPTH = 8
FUNCTION_SECONDS = 10.0
"""CPU time a function answer has for all its inputs (the grader sends its ``--timeout``, and a
wall-clock backstop several times as long)."""


class _Refused(Exception):
    pass


def _type_name(obj: "object") -> "str":
    try:
        name = type(obj).__name__
    except Exception:
        return "?"
    return name[:60] if type(name) is str else "?"


def plain(obj: "object", depth: "int" = 0) -> "Plain":
    """``obj`` as plain JSON-able data, or :class:`_Refused` naming the first bad type."""
    if obj is None or type(obj) is bool:
        return obj
    if type(obj) is int:
        if -(10 ** 30) < obj < 10 ** 30:
            return obj
        raise _Refused("int")
    if type(obj) is str:
        if len(obj) <= MAX_TEXT:
            return obj
        raise _Refused("str")
    if type(obj) is float:
        # Sent as its shortest repr (``0.1 * 3`` → "0.30000000000000004"); the grader reads it
        # at the question's precision. inf and nan are refused.
        if obj == obj and obj not in (float("inf"), float("-inf")):
            return {"$float": repr(obj)}
        raise _Refused("float")
    if depth >= MAX_DEPTH:
        raise _Refused(_type_name(obj))
    if type(obj) is list or type(obj) is tuple:
        if len(obj) > MAX_ITEMS:
            raise _Refused(type(obj).__name__)
        return [plain(item, depth + 1) for item in obj]
    if type(obj) is dict:
        if len(obj) > MAX_ITEMS:
            raise _Refused("dict")
        out: dict[str, Plain] = {}
        for k, v in obj.items():
            if type(k) is not str:
                raise _Refused(_type_name(k))
            out[k] = plain(v, depth + 1)
        return out
    import decimal

    if type(obj) is decimal.Decimal and obj.is_finite():
        return {"$decimal": str(obj)}
    raise _Refused(_type_name(obj))


class _OutOfTime(BaseException):
    pass


def _function_answer(fn: "object", inputs: "Sequence[Sequence[object]]",
                     seconds: "float | None" = None, wall: "float | None" = None) -> "Answer":
    """``fn`` called on every input (each result as plain data, or the error's type name), within
    ``seconds`` of this process's CPU time in all and ``wall`` seconds of wall-clock time (then
    ``{"status": "timeout", "clock": "cpu" | "wall"}``; None: no such limit). In a grading run the
    kit's rule code is not there (issue 30), so whatever a call returns is what the learner's own
    code computed."""
    import types

    inner: Any = fn  # any object of hers: its ``__wrapped__`` is looked up, whatever it is
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
    alarms: list[tuple[Signals, int, Handler]] = []  # (signal, timer, handler before), for each limit set
    try:
        import signal

        def _ring(signum: "int", frame: "FrameType | None") -> "None":
            raise _OutOfTime("cpu" if signum == signal.SIGPROF else "wall")

        for limit, which, timer in ((seconds, signal.SIGPROF, signal.ITIMER_PROF),
                                    (wall, signal.SIGALRM, signal.ITIMER_REAL)):
            if limit:
                alarms.append((which, timer, signal.signal(which, _ring)))
                signal.setitimer(timer, float(limit))
    except (ImportError, ValueError, OSError, AttributeError):  # not the main thread, not Unix
        pass
    results: list[Plain] = []
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
    return {"status": "ok", "results": results, "tripped": 0, "kit_function": bool(kit_function),
            "empty": _empty_body(code)}


def _empty_body(code: "Any") -> "bool":
    """Whether a function's body does nothing but return None: the ``...`` placeholder its copy
    came with, ``pass``, a docstring alone. It only tells "not attempted" from a wrong answer (the
    points are the same: none); her code could change what this says, never a score."""
    try:
        import dis

        ops = [(i.opname, i.argval) for i in dis.get_instructions(code)
               if i.opname not in ("RESUME", "NOP", "CACHE", "EXTENDED_ARG")]
    except Exception:
        return False
    return ops in ([("LOAD_CONST", None), ("RETURN_VALUE", None)], [("RETURN_CONST", None)])


def collect(namespace: "Mapping[str, object]", questions: "Sequence[Wanted]",
            seconds: "float | None" = None, wall: "float | None" = None) -> "Collected":
    """The answers to ``questions`` found in ``namespace`` (a notebook's globals), as plain data.

    ``questions``: ``[{"id", "kind", "answer", "inputs"}]`` (``inputs`` for functions, each given
    ``seconds`` of CPU time and ``wall`` seconds of wall-clock time in all).
    """
    answers: dict[str, Answer] = {}
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


def dumps(value: "object") -> "str":
    """A JSON text for plain data, written without the ``json`` module (ASCII only)."""
    out: list[str] = []
    _write(value, out)
    return "".join(out)


def _write(value: "object", out: "list[str]") -> "None":
    if value is None:
        out.append("null")
    elif type(value) is bool:
        out.append("true" if value else "false")
    elif type(value) is int:
        out.append(f"{value:d}")
    elif type(value) is str:
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
    elif type(value) is list:
        out.append("[")
        for i, item in enumerate(value):
            if i:
                out.append(",")
            _write(item, out)
        out.append("]")
    elif type(value) is dict:
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


def reset_shell() -> "None":
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


def emit(namespace: "Mapping[str, object]", nonce: "str", questions: "Sequence[Wanted]",
         seconds: "float | None" = None, wall: "float | None" = None) -> "None":
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
