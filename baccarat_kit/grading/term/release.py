"""Make the learners' copies of the exercises from the instructor's sources.

``baccarat-kit release exercises/source --out exercises``. In a source notebook:

* lines between ``# BEGIN SOLUTION`` and ``# END SOLUTION`` are replaced by a placeholder
  (``# 在這裡寫你的程式碼 / your code here`` and ``...``) at the same indentation;
* ``name = value  # SOLUTION`` becomes ``name = ...``; ``name = value  # SOLUTION: text``
  becomes ``name = text``;
* cells tagged ``instructor`` are dropped; outputs and execution counts are cleared;
* the hidden checks and the rubrics of written questions are removed from ``metadata.baccarat_kit``;
  a written answer's Markdown cell (``metadata.baccarat_kit.written``) gets a placeholder instead
  of the model answer (:mod:`..judge.written`);
* before anything is written, each model solution is graded against its own keys, hidden checks
  included, and must earn full marks (:func:`..judge.selfcheck.prove`; else exit 2 naming the
  exercise, the question and the disagreement);
* the copy says which kind it is in ``metadata.baccarat_kit.edition``: ``"class"`` (the
  default, an instructor's release for a class: the hidden checks are removed) or
  ``"self-study"`` (``--self-study``, the course a learner takes alone, as shipped in
  ``exercises/``: the hidden checks stay, so ``check()`` runs everything the grader runs, and
  ``LEARNER_ID`` is preset to :data:`SELF_STUDY_ID`); a note cell after the title says which;
* one edition per language (``release(..., lang="en")``, ``baccarat-kit release … --edition en``):
  a cell's text is its source (Traditional Chinese) or, for another language, its
  ``metadata.translations[lang]``; a code cell's translation may differ only in comments, and
  ``bk.set_language("…")`` is set to the edition's language (:func:`edition`); the copy records
  it as ``metadata.baccarat_kit.language`` (``"zh"`` or ``"en"``), so that the grader writes her
  feedback page in the language she worked in, whatever ``grade --lang`` is.

The copy keeps the source's cell ids, so releasing twice gives the same bytes, and every
edition of an exercise keeps its exercise id: one grader, one set of keys, one gradebook.

>>> release_source("x = 5  # SOLUTION\\ny = 2  # SOLUTION: 0", "nb", 1)
'x = ...\\ny = 0'
>>> print(release_source("def f(t):\\n    # BEGIN SOLUTION\\n    return t < 3\\n    # END SOLUTION", "nb", 1))
def f(t):
    # 在這裡寫你的程式碼 (your code here)
    ...
"""

from __future__ import annotations

import copy
import hashlib
import json
import os
import re
import tempfile
from pathlib import Path
from typing import Any

from ...errors import BaccaratError
from ...i18n import both, message
from ...sources import find, where_looked
from ..judge import selfcheck
from ..judge.checks import FORM_CHECKS, Exercise, public_metadata, seal
from ..judge.written import MARK as WRITTEN_MARK
from ..judge.written import answer_cells
from ..records import SELF_STUDY_ID as _SELF_STUDY_ID
from ..records import WRITTEN, GradeUsageError
from .authoring import (
    CJK,
    SET_LANGUAGE,
    SOURCE_CELLS,
    cell_number,
    code_tokens,
    compile_source,
    misquotes,
)
from .secret import TermSecret

BEGIN = re.compile(r"^(\s*)#\s*BEGIN SOLUTION\s*$")
END = re.compile(r"^\s*#\s*END SOLUTION\s*$")
SOLUTION_LINE = re.compile(r"^(\s*[A-Za-z_][\w.\[\]'\"]*\s*=\s*)(.+?)\s*#\s*SOLUTION(?::\s*(.*))?\s*$")
INSTRUCTOR_TAG = "instructor"
EDITIONS = ("class", "self-study")
"""The kinds of learner copy (``metadata.baccarat_kit.edition``)."""
SELF_STUDY_ID = _SELF_STUDY_ID
"""The learner id a self-study copy presets: everyone learning alone gets the same variants."""
_EMPTY_ID = re.compile(r'^LEARNER_ID = ""\s*$', re.M)


class ReleaseError(BaccaratError):
    """A source notebook that cannot be released (its markers do not pair up)."""


def _placeholder(indent: str) -> list[str]:
    text = f"{message('grading.release.placeholder', 'zh')} ({message('grading.release.placeholder', 'en')[2:]})"
    return [f"{indent}{text}", f"{indent}..."]


def release_source(source: str, where: str, cell: int) -> str:
    """One code cell's source with its solutions removed."""
    out: list[str] = []
    inside: str | None = None
    for line in source.split("\n"):
        if inside is not None:
            if END.match(line):
                out.extend(_placeholder(inside))
                inside = None
            continue
        m = BEGIN.match(line)
        if m:
            inside = m.group(1)
            continue
        if END.match(line):
            raise ReleaseError("grading.release.stray_end", where=where, cell=cell)
        if re.search(r"#\s*SOLUTION\b", line):
            sm = SOLUTION_LINE.match(line)
            if not sm:
                raise ReleaseError("grading.release.bad_solution_line", where=where, cell=cell, line=line.strip())
            replacement = sm.group(3)
            out.append(sm.group(1) + (replacement.strip() if replacement is not None else "..."))
            continue
        out.append(line)
    if inside is not None:
        raise ReleaseError("grading.release.unclosed", where=where, cell=cell)
    return "\n".join(out)


def answer_leaks(source: str, answer: str, kind: str) -> bool:
    r"""Whether a code cell would hand ``answer``'s model answer to learners: a top-level
    ``answer = …`` line without ``# SOLUTION`` (outside a BEGIN/END block), or a
    ``def answer(…)`` whose body has no ``# BEGIN SOLUTION`` block.

    >>> answer_leaks("case_a = True", "case_a", "value"), answer_leaks("case_a = True  # SOLUTION", "case_a", "value")
    (True, False)
    >>> answer_leaks("def f(t):\n    return t < 6", "f", "function")
    True
    >>> answer_leaks("def f(t):\n    # BEGIN SOLUTION\n    return t < 6\n    # END SOLUTION", "f", "function")
    False
    """
    lines = source.split("\n")
    assign = re.compile(rf"^{re.escape(answer)}\s*(:[^=]*)?=(?!=)")
    define = re.compile(rf"^(async\s+)?def\s+{re.escape(answer)}\s*\(")
    inside = False
    for n, line in enumerate(lines):
        if BEGIN.match(line):
            inside = True
            continue
        if END.match(line):
            inside = False
            continue
        if inside:
            continue
        if kind != "function" and assign.match(line) and not re.search(r"#\s*SOLUTION\b", line):
            return True
        if kind == "function" and define.match(line):
            body = []
            for later in lines[n + 1:]:
                if later.strip() and not later[:1].isspace():
                    break
                body.append(later)
            if not any(BEGIN.match(b) for b in body):
                return True
    return False


def is_learner_copy(nb: Any) -> bool:
    """Whether a notebook is a learner's copy made by release: marked ``"released": true``, or
    (a copy released before the mark existed) holding release's placeholder in a code cell."""
    meta = nb.get("metadata", {}).get("baccarat_kit") if isinstance(nb, dict) else None
    if isinstance(meta, dict) and meta.get("released"):
        return True
    mark = message("grading.release.placeholder", "zh")
    for cell in nb.get("cells", []) if isinstance(nb, dict) else []:
        if isinstance(cell, dict) and cell.get("cell_type") == "code":
            src = cell.get("source", "")
            if mark in ("".join(src) if isinstance(src, list) else str(src)):
                return True
    return False


def release_notebook(nb: dict[str, Any], where: str = "?", kind: str = "class",
                     lang: str = "zh") -> dict[str, Any]:
    """The learner's copy of a source notebook (a notebook as a JSON dict): ``kind`` is
    ``"class"`` or ``"self-study"`` (see the module docstring), ``lang`` the edition's language
    (of the note cell)."""
    if is_learner_copy(nb):
        raise ReleaseError("grading.release.is_copy", where=where)
    nb = compile_source(nb, where, lang)  # questions written in cells: their metadata (..authoring)
    meta = nb.get("metadata", {}).get("baccarat_kit")
    exercise = Exercise.from_metadata(meta, where)  # refuse a source whose questions are not valid
    if any(q.sealed for q in exercise.questions):  # a copy's metadata: its keys are not there
        raise ReleaseError("grading.release.is_copy", where=where)
    for index, cell in enumerate(nb.get("cells", []), 1):
        if cell.get("cell_type") != "code" or INSTRUCTOR_TAG in cell.get("metadata", {}).get("tags", []):
            continue
        src = cell["source"] if isinstance(cell["source"], str) else "".join(cell["source"])
        for q in exercise.questions:
            if answer_leaks(src, q.answer, q.kind):
                raise ReleaseError("grading.release.leak", where=f"{exercise.id} ({where})", question=q.id,
                                   answer=q.answer, cell=cell_number(nb, index))
    if kind not in EDITIONS:
        raise ReleaseError("grading.release.bad_edition", value=kind, choices=", ".join(EDITIONS))
    marked = answer_cells(nb)
    for q in exercise.questions:  # a written answer needs the cell she writes it in
        if q.kind == WRITTEN and q.answer not in marked:
            raise ReleaseError("manual.release.no_cell", where=f"{exercise.id} ({where})", question=q.id, mark=q.answer)
    out = copy.deepcopy(nb)
    meta = {k: v for k, v in meta.items() if k != SOURCE_CELLS}  # (the source's cell numbers: not hers)
    out["metadata"]["baccarat_kit"] = (public_metadata(meta) if kind == "class" else {
        **copy.deepcopy(meta), "released": True,  # (each question's text is the grader's, from the source)
        "questions": [{k: v for k, v in q.items() if k != "text"} for q in copy.deepcopy(meta["questions"])]})
    out["metadata"]["baccarat_kit"]["edition"] = kind
    out["metadata"]["baccarat_kit"]["language"] = lang  # her feedback page's language (see grade.copy_language)
    cells = []
    for index, cell in enumerate(nb.get("cells", []), 1):
        tags = cell.get("metadata", {}).get("tags", [])
        if INSTRUCTOR_TAG in tags:
            continue
        new = copy.deepcopy(cell)
        new.get("metadata", {}).pop("translations", None)  # the other editions' text: see edition()
        if new.get("cell_type") == "markdown" and _written_mark(new) is not None:
            new["source"] = message("manual.placeholder", lang)  # the model answer stays in the source
        if new.get("cell_type") == "code":
            src = new["source"] if isinstance(new["source"], str) else "".join(new["source"])
            new["source"] = release_source(src, where, cell_number(nb, index))
            if kind == "self-study":
                new["source"] = _EMPTY_ID.sub(
                    f'LEARNER_ID = "{SELF_STUDY_ID}"  {message("grading.release.self_study_id", lang)}',
                    new["source"])
            new["outputs"] = []
            new["execution_count"] = None
        cells.append(new)
        if len(cells) == 1:  # after the title: which kind of copy this is
            cells.append({"cell_type": "markdown", "id": "edition-note", "metadata": {},
                          "source": message(f"grading.release.note.{kind}", lang)})
    out["cells"] = cells
    return out


def _written_mark(cell: dict[str, Any]) -> str | None:
    kit = (cell.get("metadata") or {}).get("baccarat_kit")
    mark = kit.get(WRITTEN_MARK) if isinstance(kit, dict) else None
    return mark if isinstance(mark, str) else None


def dumps_notebook(nb: dict[str, Any]) -> str:
    """A notebook as text the way Jupyter writes it (indent 1, sorted keys, UTF-8)."""
    return json.dumps(nb, indent=1, sort_keys=True, ensure_ascii=False) + "\n"


def source_files(folder: Path) -> list[Path]:
    found = sorted(p for p in Path(folder).glob("*.ipynb") if p.is_file())
    if not found:
        raise ReleaseError("grading.release.no_sources", path=folder)
    return found


def default_source() -> Path:
    """``exercises/source`` of the checkout the kit runs from, else of the current folder."""
    here = Path(__file__).resolve().parents[3] / "exercises" / "source"
    return here if here.is_dir() else Path("exercises") / "source"


_PROVEN: set[bytes] = set()
"""sha256 of each source notebook this process has proved (:func:`..judge.selfcheck.prove`): the same
bytes are not proved again (a second ``grade`` or the report in one process)."""


def load_exercises(source: str | Path) -> dict[str, Exercise]:
    """The trusted exercises (questions with public and hidden checks) from the sources."""
    folder = Path(source)
    if not folder.is_dir():
        raise GradeUsageError("grading.cli.no_sources", path=folder)
    out = {}
    for path in sorted(folder.glob("*.ipynb")):
        raw = path.read_bytes()
        nb = json.loads(raw.decode("utf-8"))
        if is_learner_copy(nb):
            raise GradeUsageError("grading.cli.released_source", path=path)
        nb = compile_source(nb, str(path))  # questions written in cells (.authoring)
        ex = Exercise.from_metadata(nb.get("metadata", {}).get("baccarat_kit"), str(path))
        if any(q.sealed for q in ex.questions):  # a copy's metadata without its mark: no keys in it
            raise GradeUsageError("grading.cli.released_source", path=path)
        digest = hashlib.sha256(raw).digest()
        if digest not in _PROVEN:
            selfcheck.prove(nb, str(path))  # the keys agree with the model solution (issue 20, attack 13)
            _PROVEN.add(digest)
        out[ex.id] = ex
    if not out:
        raise GradeUsageError("grading.cli.no_sources", path=folder)
    return out


def release(source_dir: str | Path, out_dir: str | Path, lang: str = "zh", kind: str = "class",
            class_list: str | Path | None = None, secret: TermSecret | None = None,
            sources: str | os.PathLike[str] | None = None,
            notes: list[dict[str, str]] | None = None) -> list[Path]:
    """Write the learner's copy of every ``source_dir/*.ipynb`` into ``out_dir``, in the
    edition ``lang``, of ``kind`` (``"class"`` or ``"self-study"``); returns them.

    Nothing is written unless every source is right: its questions (written in cells,
    :mod:`..authoring`), its markers, its model solutions (proved on their keys), and each of its
    quotations of a source page, compared with the page when the pages are found
    (:func:`baccarat_kit.sources.find`: ``sources``, ``$BACCARAT_KIT_SOURCES``, beside the
    checkout). A quotation that could not be verified (no pages found, or no such page) is said
    in ``notes`` (``{"zh": …, "en": …}`` sentences the command prints), never passed in silence.

    With a ``class_list`` and the term's ``secret``: one term copy per learner of the list
    (:func:`term_copy`), ``out_dir/<learner>/exercises/<exercise>.ipynb`` (the layout a Hub home
    has and ``collect --glob "exercises/*.ipynb"`` reads); each learner's copy is proved too.
    """
    if (class_list is None) != (secret is None):
        raise ReleaseError("term.release.needs_both")
    if class_list is not None and kind != "class":
        raise ReleaseError("term.release.not_self_study")
    roster = class_learners(class_list) if class_list is not None else []
    out = Path(out_dir)
    authored = [(path, json.loads(path.read_text(encoding="utf-8"))) for path in source_files(Path(source_dir))]
    pages = find(sources)
    wrong: list[dict[str, str]] = []
    said = notes if notes is not None else []
    if pages is None:
        said.append(both("grading.release.unverified", looked=where_looked(sources)))
    for path, nb in authored if pages is not None else ():
        bad, unverified = misquotes(nb, str(path), pages)
        wrong += bad
        said += unverified
    if wrong:  # a quotation that is not its page's words reaches no learner
        raise ReleaseError("grading.release.misquotes", problems={
            lang_: "\n".join(f"  {line[lang_]}" for line in wrong) for lang_ in ("zh", "en")})
    loaded = [(path, nb if is_learner_copy(nb) else compile_source(nb, str(path), lang)) for path, nb in authored]
    for path, nb in loaded:  # every source proved before any copy is written
        if not is_learner_copy(nb):  # (a learner copy is refused by release_notebook below)
            selfcheck.prove(nb, str(path))  # the model solution earns full marks on its own keys
    editions = [(path, edition(nb, lang, str(path))) for path, nb in loaded]
    if secret is not None:
        for path, nb in editions:  # every learner's own data, proved before anything is written
            for learner in roster:
                prove_term(nb, str(path), secret, learner, lang)
    written = []
    targets: list[tuple[Path, dict[str, Any]]] = []
    for path, nb in editions:  # every copy made (and refused, if it must be) before a folder is made
        if secret is None:
            targets.append((out / path.name, _localise(release_notebook(nb, str(path), kind, lang), lang)))
            continue
        for learner in roster:
            folder = out / learner / "exercises"
            targets.append((folder / path.name, _localise(term_copy(nb, str(path), secret, learner, lang), lang)))
    out.mkdir(parents=True, exist_ok=True)
    for target, copy_ in targets:
        target.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.stem}.", suffix=".tmp")
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(dumps_notebook(copy_))
        os.chmod(tmp, 0o644)
        os.replace(tmp, target)
        written.append(target)
    return written


def _localise(copy_: dict[str, Any], lang: str) -> dict[str, Any]:
    if lang != SOURCE_LANG:  # the placeholder in the edition's language only
        both = _placeholder("")[0]
        for cell in copy_["cells"]:
            if cell.get("cell_type") == "code":
                cell["source"] = cell["source"].replace(both, message("grading.release.placeholder", lang))
    return copy_


# --------------------------------------------------------------------------- term copies

LEARNER_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._@+-]{0,63}$")
"""A learner of a class list (a folder name of the release, a Hub user name)."""
VARIANT_LINE = re.compile(
    r"^(?P<indent>\s*)(?P<name>[A-Za-z_]\w*)\s*=\s*bk\.grading\.(?P<call>hands_for|settlement_for)"
    r"\((?P<args>.*)\)\s*(#.*)?$")
"""A line that fetches per-learner data in the learner's kernel: a term copy has the data instead."""
FETCHES = re.compile(r"\b(hands_for|settlement_for|variant_hands|settlement_variant)\b")
TERM_COPY_VERSION = 1


def class_learners(path: str | Path) -> list[str]:
    """The learners of a class list (:func:`.deadlines.read_roster`), each a safe folder name, once."""
    from .deadlines import read_roster

    learners: list[str] = []
    for learner, _deadline in read_roster(path):
        if not LEARNER_NAME.match(learner):
            raise ReleaseError("term.release.bad_learner", path=path, value=learner)
        if learner in learners:
            raise ReleaseError("term.release.twice", path=path, value=learner)
        learners.append(learner)
    if not learners:
        raise ReleaseError("term.release.no_learners", path=path)
    return learners


def _literal_hands(hands: list[str]) -> str:
    return "[\n" + "".join(f"    {h!r},\n" for h in hands) + "]"


def _literal_settlement(data: dict[str, Any]) -> str:
    lines = ["{"]
    for name, value in data.items():
        if name == "ledger":
            csv_text = value.to_csv()
            lines.append(f'    {name!r}: bk.Ledger.from_csv("""\\\n{csv_text}"""),')
        else:
            lines.append(f"    {name!r}: {value!r},")
    lines.append("}")
    return "\n".join(lines)


def term_source(nb: dict[str, Any], where: str, token: str, lang: str = "zh") -> dict[str, Any]:
    """``nb`` (a source, or its edition) with each line that fetches per-learner data
    (``hands = bk.grading.hands_for(…)``, ``v = bk.grading.settlement_for(…)``) replaced by that
    data for ``token`` as a literal; solutions are kept. Any other fetch left is refused."""
    import ast

    from ..judge import keys

    exercise = Exercise.from_metadata(nb.get("metadata", {}).get("baccarat_kit"), where)
    out = copy.deepcopy(nb)
    comment = message("term.release.data_comment", lang)
    for index, cell in enumerate(out.get("cells", []), 1):
        if cell.get("cell_type") != "code":
            continue
        src = cell["source"] if isinstance(cell["source"], str) else "".join(cell["source"])
        lines = []
        for line in src.split("\n"):
            m = VARIANT_LINE.match(line)
            if m is None:
                if FETCHES.search(line.split("#", 1)[0]):
                    raise ReleaseError("term.release.fetch_left", where=where, cell=cell_number(nb, index),
                                       line=line.strip())
                lines.append(line)
                continue
            if m.group("call") == "hands_for":
                try:
                    fetched = ast.literal_eval(m.group("args").split(",", 1)[0].strip())
                except (ValueError, SyntaxError):
                    fetched = None
                if fetched != exercise.id:
                    raise ReleaseError("term.release.fetch_left", where=where, cell=cell_number(nb, index),
                                       line=line.strip())
                literal = _literal_hands(keys.variant_hands(exercise.id, token))
            else:
                literal = _literal_settlement(keys.settlement_variant(token, exercise.id))
            first, *rest = literal.split("\n")
            lines.append(f"{m.group('indent')}{m.group('name')} = {first}  {comment}")
            lines.extend(rest)  # inside the brackets (and the CSV text): no indentation needed
        cell["source"] = "\n".join(lines)
    return out


def term_metadata(public: dict[str, Any], exercise: Exercise, token: str, fingerprint: str,
                  learner: str) -> dict[str, Any]:
    """A term copy's metadata from a class copy's (:func:`..judge.checks.public_metadata`): every
    choice's options in this learner's order, lettered a, b, c … (``"shuffle": false``: the copy
    needs no seed to show them); a question whose key is per learner keeps only the checks the
    kernel can run without the key (``type``, ``own-work``): her keys need the secret, and are
    then sealed (:func:`..judge.checks.seal`); and the term mark (``term``: version, learner, the
    secret's fingerprint)."""
    out = copy.deepcopy(public)
    for q in out.get("questions", []):
        question = exercise.question(str(q.get("id")))
        if question.needs_learner:
            q["public"] = [c for c in q.get("public", [])
                           if (c if isinstance(c, str) else c.get("check")) in FORM_CHECKS]
        if question.kind == "choice" and question.shuffle and isinstance(q.get("options"), dict):
            order = question.option_order(token)
            q["options"] = {chr(ord("a") + i): q["options"][key] for i, key in enumerate(order)}
            q["shuffle"] = False
    out["questions"] = [seal(q) for q in out.get("questions", [])]
    out["term"] = {"version": TERM_COPY_VERSION, "learner": learner, "fingerprint": fingerprint}
    return out


def term_copy(nb: dict[str, Any], where: str, secret: TermSecret, learner: str,
              lang: str = "zh") -> dict[str, Any]:
    """One learner's term copy of a source edition: her data written in, ``LEARNER_ID`` preset,
    solutions and hidden checks removed, no check that needs her key (see :func:`term_metadata`)."""
    exercise = Exercise.from_metadata(nb.get("metadata", {}).get("baccarat_kit"), where)
    token = secret.token(exercise.id, learner)
    out = release_notebook(term_source(nb, where, token, lang), where, "class", lang)
    preset = f"LEARNER_ID = {json.dumps(learner)}  {message('term.release.id_comment', lang)}"
    for cell in out["cells"]:
        if cell.get("id") == "edition-note":
            cell["source"] = message("term.release.note", lang)
        elif cell.get("cell_type") == "code":
            cell["source"] = _EMPTY_ID.sub(lambda _m: preset, cell["source"])
    out["metadata"]["baccarat_kit"] = term_metadata(out["metadata"]["baccarat_kit"], exercise, token,
                                                    secret.fingerprint, learner)
    return out


def prove_term(nb: dict[str, Any], where: str, secret: TermSecret, learner: str, lang: str = "zh") -> None:
    """The model solution, run on this learner's term copy data (with the copy's option letters),
    earns full marks against the grader's keys for her token (:func:`..judge.selfcheck.prove`)."""
    exercise = Exercise.from_metadata(nb.get("metadata", {}).get("baccarat_kit"), where)
    token = secret.token(exercise.id, learner)
    public = term_metadata(public_metadata(nb["metadata"]["baccarat_kit"]), exercise, token,
                           secret.fingerprint, learner)
    selfcheck.prove(term_source(nb, where, token, lang), where, [learner], key_ids={learner: token}, public=public)


# --------------------------------------------------------------------------- editions

SOURCE_LANG = "zh"


def edition(nb: dict[str, Any], lang: str = SOURCE_LANG, where: str = "?") -> dict[str, Any]:
    """One language's edition of a source notebook: each cell's text in ``lang`` (its
    ``metadata.translations[lang]`` unless ``lang`` is the source's language), translations
    dropped from the metadata, and ``bk.set_language("…")`` set to ``lang``.

    A Markdown cell with Chinese text needs a translation; a code cell's translation (for its
    comments) must have the same code.

    >>> nb = {"metadata": {}, "cells": [
    ...     {"cell_type": "markdown", "metadata": {"translations": {"en": "Hello"}}, "source": "你好"},
    ...     {"cell_type": "code", "metadata": {}, "source": 'bk.set_language("zh")'}]}
    >>> [c["source"] for c in edition(nb, "en")["cells"]]
    ['Hello', 'bk.set_language("en")']
    """
    out = copy.deepcopy(compile_source(nb, where, lang))
    for index, cell in enumerate(out.get("cells", []), 1):
        meta = cell.setdefault("metadata", {})
        translations = meta.pop("translations", {}) or {}
        source = cell["source"] if isinstance(cell["source"], str) else "".join(cell["source"])
        if lang != SOURCE_LANG:
            text = translations.get(lang)
            if text is None and cell.get("cell_type") == "markdown" and CJK.search(source):
                raise ReleaseError("grading.release.no_translation", where=where, cell=cell_number(out, index), lang=lang)
            if text is not None and cell.get("cell_type") == "code" and code_tokens(text) != code_tokens(source):
                raise ReleaseError("grading.release.code_differs", where=where, cell=cell_number(out, index), lang=lang)
            source = text if text is not None else source
        if cell.get("cell_type") == "code":
            source = SET_LANGUAGE.sub(lambda m: f"{m.group(1)}{m.group(2)}{lang}{m.group(2)}{m.group(3)}", source)
        cell["source"] = source
    return out

