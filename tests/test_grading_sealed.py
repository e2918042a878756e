"""A released copy carries no right answer (redteam, session 2).

Before: a class copy's (and a term copy's) metadata kept every question's answer ``key``. Exercise
06 q7's is ``{"fn": "fixed", "args": ["same"]}``: the right meaning, written out, and the options
carry their ``means``, so ``check.letter("q7", key["args"][0])`` answered it from the copy alone.
The keys of questions whose checks are all hidden (02 q4, q6–q9; 03 q6–q8; 06 q1–q6) were there
too, so a generic cell (``keys.expected(q["key"], "")`` for each question of the copy, run in a
kernel where the kit is installed) printed every hidden answer without any rule work.

Now a copy keeps a key only where one of its own public checks evaluates it (``check()`` needs
it, and says the verdict anyway); any other key, and every ``fixed`` one, is sealed:
``{"fn": "sealed"}`` (with ``n``, the length of a list answer: its form). ``check()`` says of a
sealed question that only the grader checks it; the grader takes its keys from the sources.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from baccarat_kit.errors import BaccaratError
from baccarat_kit.grading.judge import keys
from baccarat_kit.grading.judge.checks import (
    FORM_CHECKS,
    SEALED_KEY,
    Exercise,
    SpecError,
    public_metadata,
)
from baccarat_kit.grading.notebook import Checker
from baccarat_kit.grading.term import release as rel
from baccarat_kit.grading.term.authoring import read_source
from baccarat_kit.grading.term.secret import TermSecret

ROOT = Path(__file__).resolve().parents[1]
SOURCES = sorted((ROOT / "exercises" / "source").glob("*.ipynb"))
SECRET = TermSecret(bytes(range(32)))


def _source(path: Path) -> dict[str, Any]:
    nb: dict[str, Any] = read_source(path)
    return nb


def _names(checks: list[Any]) -> set[str]:
    return {c if isinstance(c, str) else str(c.get("check")) for c in checks}


def _copies(path: Path) -> dict[str, dict[str, Any]]:
    nb = _source(path)
    return {"class": rel.release_notebook(nb, str(path), "class"),
            "term": rel.term_copy(nb, str(path), SECRET, "alice")}


@pytest.mark.parametrize("source", SOURCES, ids=lambda p: p.stem)
def test_a_released_copy_keeps_a_key_only_where_its_own_check_uses_it(source: Path) -> None:
    for kind, copy in _copies(source).items():
        text = json.dumps(copy["metadata"], ensure_ascii=False)
        assert '"fixed"' not in text, (kind, source.stem)
        for q in copy["metadata"]["baccarat_kit"]["questions"]:
            if q.get("kind") == "written":  # no key at all; its rubric stays in the sources (and self-study)
                assert "key" not in q and ("rubric" in q) == (kind == "self-study"), (kind, source.stem, q["id"])
                continue
            key = q["key"]
            if _names(q.get("public", [])) <= set(FORM_CHECKS):
                assert key["fn"] == SEALED_KEY and set(key) <= {"fn", "n"}, (kind, source.stem, q["id"], key)
            else:
                assert key["fn"] != SEALED_KEY, (kind, source.stem, q["id"])  # check() needs it


def test_q7s_right_meaning_and_every_hidden_answer_are_out_of_the_copy() -> None:
    """The generic solver: every key of the copy through the engine. It finds no answer that a
    check() of the copy does not already judge."""
    source = ROOT / "exercises" / "source" / "06-misconceptions.ipynb"
    for kind, copy in _copies(source).items():
        questions = copy["metadata"]["baccarat_kit"]["questions"]
        q7 = next(q for q in questions if q["id"] == "q7")
        assert "same" not in json.dumps(q7["key"]), kind
        solved = []
        for q in questions:
            try:
                solved.append(keys.expected(q["key"], ""))
            except BaccaratError as err:
                assert "grader" in err.message("en") and err.message("zh") != err.message("en")
        assert solved == [], kind
    hidden_only = {"02-naturals-player": ["q4", "q6", "q7", "q8", "q9"], "03-banker-rule": ["q6", "q7", "q8"]}
    for exercise, qids in hidden_only.items():
        copy = rel.release_notebook(_source(ROOT / "exercises" / "source" / f"{exercise}.ipynb"), exercise, "class")
        for q in copy["metadata"]["baccarat_kit"]["questions"]:
            if q["id"] in qids:
                with pytest.raises(BaccaratError):
                    keys.expected(q["key"], "")


def test_a_list_answer_keeps_its_length_and_the_self_study_copy_keeps_everything() -> None:
    source = ROOT / "exercises" / "source" / "04-whole-coups.ipynb"
    term = _copies(source)["term"]["metadata"]["baccarat_kit"]["questions"]
    assert [q["key"] for q in term] == [{"fn": SEALED_KEY, "n": 5}] * 4
    nb = _source(source)
    study = rel.release_notebook(nb, str(source), "self-study")["metadata"]["baccarat_kit"]["questions"]
    assert [q["key"] for q in study] == [q["key"] for q in nb["metadata"]["baccarat_kit"]["questions"]]


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_check_in_a_class_copy_says_the_grader_checks_a_sealed_question(tmp_path: Path, lang: str) -> None:
    source = ROOT / "exercises" / "source" / "06-misconceptions.ipynb"
    copy = rel.release_notebook(_source(source), str(source), "class")
    (tmp_path / source.name).write_text(rel.dumps_notebook(copy), encoding="utf-8")
    check = Checker("06-misconceptions", folder=tmp_path)
    ns: dict[str, Any] = {"LEARNER_ID": "s1234", "q7": "a"}
    text = check("q7", lang=lang, namespace=ns).text
    assert "✔" not in text and "✘" not in text
    assert ("只有評分程式" in text) if lang == "zh" else ("only the grader" in text)
    ns["q7"] = "z"  # the form is still checked
    assert "q7" in check("q7", lang=lang, namespace=ns).text and "✔" not in check("q7", lang=lang, namespace=ns).text
    assert check.letter("q7", "same", namespace=ns) in ("a", "b")  # the options' meanings stay


def test_04_term_copy_check_still_checks_the_length(tmp_path: Path) -> None:
    source = ROOT / "exercises" / "source" / "04-whole-coups.ipynb"
    copy = _copies(source)["term"]
    (tmp_path / source.name).write_text(rel.dumps_notebook(copy), encoding="utf-8")
    check = Checker("04-whole-coups", folder=tmp_path)
    ns: dict[str, Any] = {"LEARNER_ID": "alice", "player_totals": [1, 2, 3]}
    assert "5" in check("q1", lang="en", namespace=ns).text  # "5 items", not a verdict
    ns["player_totals"] = [1, 2, 3, 4, 5]
    text = check("q1", lang="en", namespace=ns).text
    assert "✔" not in text and "only the grader" in text


def test_a_sealed_key_is_refused_as_a_source_and_with_a_value_check() -> None:
    nb = _source(ROOT / "exercises" / "source" / "06-misconceptions.ipynb")
    copy = rel.release_notebook(nb, "06", "class")
    Exercise.from_metadata(copy["metadata"]["baccarat_kit"], "copy")  # a copy parses: check() reads it
    meta = copy["metadata"]["baccarat_kit"]
    meta["questions"][6]["public"] = ["type", "equals"]
    with pytest.raises(SpecError) as why:
        Exercise.from_metadata(meta, "copy")
    assert "q7" in why.value.message("en") and "sealed" in why.value.message("en")
    assert why.value.message("zh") != why.value.message("en")
    forged = {**nb["metadata"]["baccarat_kit"], "questions": [
        {**q, "key": {"fn": SEALED_KEY}} for q in nb["metadata"]["baccarat_kit"]["questions"]]}
    nb["metadata"]["baccarat_kit"] = forged
    with pytest.raises(BaccaratError):
        rel.release_notebook(nb, "06", "class")


def test_public_metadata_is_idempotent() -> None:
    for source in SOURCES:
        meta = _source(source)["metadata"]["baccarat_kit"]
        once = public_metadata(meta)
        assert public_metadata(once) == once


def _same(means: Any, want: Any) -> bool:
    from decimal import Decimal, InvalidOperation

    if isinstance(want, bool) or isinstance(means, bool):
        return means is want
    try:
        return Decimal(str(means)) == Decimal(str(want))
    except InvalidOperation:
        return str(means) == str(want)


def test_the_sources_right_options_carry_no_pattern() -> None:
    """A class copy without a term secret keeps the source's option letters in its metadata (the
    learner sees them shuffled by her id, but the metadata names them): 06's right option was
    "b" in all seven questions, so "always b" answered the exercise from the copy. The right
    options' source letters now vary; no letter is right in more than 5 of 7."""
    from collections import Counter

    for path in SOURCES:
        meta = read_source(path)["metadata"]["baccarat_kit"]
        right = []
        for q in meta["questions"]:
            if q.get("kind") != "choice":
                continue
            want = keys.expected(q["key"], "anyone")
            [letter] = [k for k, o in q["options"].items() if _same(o["means"], want)]
            right.append(letter)
        if len(right) >= 3:
            letter, times = Counter(right).most_common(1)[0]
            assert times <= len(right) - 2, f"{path.name}: the right option is {letter!r} in {times} of {len(right)}"
