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
RULE_FUNCTIONS = (
    ("baccarat_kit.rules", ("hand_total", "is_natural", "player_draws", "banker_draws",
                            "player_rule", "banker_rule", "draw_values", "banker_matrix",
                            "_check_total", "_check_third")),
    ("baccarat_kit.coup", ("play", "_total")),
)
"""The kit's functions replaced by tripwires while a learner's function is called."""


ABSENT_MODULES = (
    "baccarat_kit.rules", "baccarat_kit.coup", "baccarat_kit.settlement", "baccarat_kit.odds",
    "baccarat_kit.misconceptions", "baccarat_kit.simulation", "baccarat_kit.grading.judge.keys",
    "baccarat_kit.grading.judge.checks",
)
"""Modules whose every function is absent (a tripwire) while a submission's cells run in the
grader's sandbox: the engine's decision code, settlement and the grader's key code (issue 20).
The runner imports the first six before the cells; ``odds`` and ``simulation`` (0.1 s to import)
are made absent only if something imported them already (the static reading refuses them anyway)."""
EAGER_ABSENT = ABSENT_MODULES[:3] + ABSENT_MODULES[4:5] + ABSENT_MODULES[6:]
ABSENT_METHODS = (
    ("baccarat_kit.shoe", "Shoe", ("deal", "rounds")),
    ("baccarat_kit.cards", "Card", ("value",)),
    ("baccarat_kit.cards", "Rank", ("value_points",)),
    ("baccarat_kit.ledger", "Ledger", ("record",)),
)
"""Methods (and properties) that deal or value cards: absent as well."""


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


def _install_tripwires(modules):
    """Replace the code of the kit's rule functions so that any call is counted and fails.

    Code objects are swapped on the function objects themselves, so a reference the learner
    took earlier (``f = bk.banker_draws``, a default argument, an alias) trips as well.
    The banker table's sets are swapped for counting ones. Returns (hits, restore).
    """
    hits = []
    saved = []

    def _trip(*args, **kwargs):
        _BK_GRADER_TRIPPED.append(1)  # noqa: F821 - set in the function's module below
        raise RuntimeError("baccarat-kit grader: a rule function of the kit was called")

    for module_name, names in RULE_FUNCTIONS:
        module = modules.get(module_name)
        if module is None:
            continue
        module._BK_GRADER_TRIPPED = hits
        for name in names:
            fn = getattr(module, name, None)
            code = getattr(fn, "__code__", None)
            if code is None or code.co_freevars:
                continue
            saved.append((fn, code))
            fn.__code__ = _trip.__code__.replace(co_name=code.co_name)
    rules = modules.get("baccarat_kit.rules")
    table_saved = []
    table = getattr(rules, "BANKER_DRAWS_ON", None)
    if table is not None:
        import gc

        for inner in gc.get_referents(table):
            if type(inner) is dict:

                class _CountingSet(frozenset):
                    def __contains__(self, item):
                        hits.append(1)
                        return frozenset.__contains__(self, item)

                    def __iter__(self):
                        hits.append(1)
                        return frozenset.__iter__(self)

                for key in list(inner):
                    table_saved.append((inner, key, inner[key]))
                    inner[key] = _CountingSet(inner[key])

    def restore():
        for fn, code in saved:
            fn.__code__ = code
        for inner, key, value in table_saved:
            inner[key] = value

    return hits, restore


def _plain_argument(value, depth=0):
    t = type(value)
    if value is None or t in (bool, int, str, float):
        return True
    if depth < 4 and (t is list or t is tuple):
        return all(_plain_argument(v, depth + 1) for v in value)
    if depth < 4 and t is dict:
        return all(type(k) is str and _plain_argument(v, depth + 1) for k, v in value.items())
    import decimal

    return t is decimal.Decimal


def install_absence(modules, allowed):
    """Make the kit's decision and key code absent while learner cells run (the grader's sandbox).

    Every function of :data:`ABSENT_MODULES` and :data:`ABSENT_METHODS` is swapped (its code
    object, so earlier references trip too) for one that records its name and raises; the
    ``allowed`` calls (``bk.grading.hands_for``, ``check.letter`` …, resolved to the kit's
    objects) may use them, while they run on plain arguments (a learner object as an argument
    could run her code inside an allowed call). Returns the list of tripped names, in order.
    """
    import threading
    import types

    hits = []
    table = []
    depth = {}

    def guard(index, args, kwargs):
        fn, label, kind, cls = table[index]
        me = threading.get_ident()
        if kind == "allowed":
            rest = args[1:] if cls is not None and args and (type(args[0]) is cls or args[0] is cls) else args
            if all(_plain_argument(a) for a in rest) and all(_plain_argument(v) for v in kwargs.values()):
                depth[me] = depth.get(me, 0) + 1
                try:
                    return fn(*args, **kwargs)
                finally:
                    depth[me] -= 1
            return fn(*args, **kwargs)
        if depth.get(me, 0) > 0:
            return fn(*args, **kwargs)
        hits.append(label)
        raise RuntimeError(f"baccarat-kit grader: {label} is absent while a submission is graded")

    swapped = set()

    def swap(fn, label, kind, cls=None):
        code = getattr(fn, "__code__", None)
        if type(fn) is not types.FunctionType or code is None or code.co_freevars or id(fn) in swapped:
            return
        swapped.add(id(fn))
        copy = types.FunctionType(code, fn.__globals__, fn.__name__, fn.__defaults__, fn.__closure__)
        copy.__kwdefaults__ = fn.__kwdefaults__
        table.append((copy, label, kind, cls))
        fn.__globals__["_BK_GRADER_GUARD"] = guard
        text = f"def _bk_absent(*args, **kwargs):\n    return _BK_GRADER_GUARD({len(table) - 1}, args, kwargs)\n"
        holder = {}
        exec(compile(text, code.co_filename, "exec"), fn.__globals__, holder)
        fn.__code__ = holder["_bk_absent"].__code__.replace(co_name=code.co_name)
        fn.__defaults__ = None
        fn.__kwdefaults__ = None

    def members(owner):
        out = []
        for name, member in list(vars(owner).items()):
            if isinstance(member, property):
                member = member.fget
            elif isinstance(member, (staticmethod, classmethod)):
                member = member.__func__
            out.append((name, member))
        return out

    kit = modules.get("baccarat_kit")
    for path in allowed:  # first: the allowed calls keep their own code behind the guard
        parts = path.split(".")
        obj = modules.get("baccarat_kit.grading") if parts[0] == "check" else kit
        parts = ["Checker", *parts[1:]] if parts[0] == "check" else parts[1:]
        if parts == ["Checker"] and path.startswith("check"):
            parts = ["Checker", "__call__"]
        cls = None
        for part in parts:
            cls = obj if isinstance(obj, type) else cls
            obj = getattr(obj, part, None)
        if isinstance(obj, types.MethodType):  # a classmethod (bk.Ledger.from_csv): its function
            obj = obj.__func__
        if isinstance(obj, type):
            for _name, member in members(obj):
                swap(member, f"{path}", "allowed", obj)
        elif obj is not None:
            swap(obj, path, "allowed", cls)
    for module_name in ABSENT_MODULES:
        module = modules.get(module_name)
        for name, member in list(vars(module).items()) if module is not None else []:
            if type(member) is types.FunctionType and member.__module__ == module_name:
                swap(member, f"{module_name.replace('baccarat_kit', 'bk')}.{name}", "absent")
            elif isinstance(member, type) and member.__module__ == module_name:
                for mname, method in members(member):
                    swap(method, f"{module_name.replace('baccarat_kit', 'bk')}.{name}.{mname}", "absent")
    for module_name, class_name, names in ABSENT_METHODS:
        owner = getattr(modules.get(module_name), class_name, None)
        for name, member in members(owner) if owner is not None else []:
            if name in names:
                swap(member, f"bk.{class_name}.{name}", "absent")
    return hits


def _function_answer(fn, inputs, modules):
    import types

    if type(fn) is not types.FunctionType:
        return {"status": "not-function", "type": _type_name(fn)}
    code = fn.__code__
    kit_function = "baccarat_kit" in str(code.co_filename) or str(getattr(fn, "__module__", "")).startswith(
        "baccarat_kit")
    hits, restore = _install_tripwires(modules)
    results = []
    try:
        for args in inputs:
            try:
                value = fn(*args)
            except Exception as err:
                results.append({"$error": _type_name(err)})
                continue
            try:
                results.append(plain(value))
            except _Refused as bad:
                results.append({"$bad": str(bad.args[0])[:60]})
    finally:
        restore()
    return {"status": "ok", "results": results, "tripped": len(hits), "kit_function": bool(kit_function)}


def collect(namespace, questions, modules=None):
    """The answers to ``questions`` found in ``namespace`` (a notebook's globals), as plain data.

    ``questions``: ``[{"id", "kind", "answer", "inputs"}]`` (``inputs`` for functions).
    """
    if modules is None:
        import sys

        modules = sys.modules
    answers = {}
    for q in questions:
        name = q["answer"]
        if name not in namespace:
            answers[q["id"]] = {"status": "missing"}
            continue
        value = namespace[name]
        if q["kind"] == "function":
            answers[q["id"]] = _function_answer(value, q["inputs"], modules)
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


def emit(namespace, nonce, questions):
    """Print one line: the nonce, then the answers as JSON (what the grader reads)."""
    reset_shell()
    try:
        text = dumps(collect(namespace, questions))
    except Exception as err:
        text = dumps({"error": _type_name(err)})
    import sys

    stream = sys.stdout
    stream.write(nonce + text + "\n")
    stream.flush()
