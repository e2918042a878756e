"""A class released from a term secret (issue 20): one copy per learner with her questions written
in as data, keys the shipped code cannot compute, and a grader that keys every file by its owner.

The term runs as the docs show it: ``secret new`` → ``release --class-list --secret-file`` → the
learners' homes → ``collect`` → ``grade --secret-file`` (→ ``--update``). Model-solved term copies
are the sources with the learner's data put in exactly as release puts it (:func:`term_source`).
"""

from __future__ import annotations

import json
import re
import stat
from pathlib import Path
from typing import Any

import pytest
from test_grading_sandbox import needs_bwrap

import baccarat_kit as bk
from baccarat_kit.cli import main
from baccarat_kit.grading.judge.keys import expected
from baccarat_kit.grading.term import release as rel
from baccarat_kit.grading.term.authoring import read_source
from baccarat_kit.grading.term.collect import collect
from baccarat_kit.grading.term.secret import TermSecret, read_secret

ROOT = Path(__file__).resolve().parents[1]
SOURCE = ROOT / "exercises" / "source"
LEARNERS = ("alice", "bob", "carol")
PER_LEARNER = ("04-whole-coups", "05-settlement", "06-misconceptions")


def _source(exercise: str) -> dict[str, Any]:
    return read_source(SOURCE / f"{exercise}.ipynb")


def _code(nb: dict[str, Any]) -> list[str]:
    return [c["source"] if isinstance(c["source"], str) else "".join(c["source"])
            for c in nb["cells"] if c["cell_type"] == "code"]


@pytest.fixture
def term(tmp_path: Path) -> dict[str, Path]:
    key = tmp_path / "term.key"
    assert main(["--lang", "en", "secret", "new", str(key)]) == 0
    roster = tmp_path / "class.csv"
    roster.write_text("learner,deadline,name\n" + "".join(f"{n},,{n.title()}\n" for n in LEARNERS), encoding="utf-8")
    return {"key": key, "roster": roster, "dir": tmp_path}


def solved_copy(exercise: str, secret: TermSecret, learner: str) -> str:
    """The model solution, on this learner's term copy (her data, her mark, her option letters)."""
    nb = _source(exercise)
    token = secret.token(exercise, learner)
    ex = rel.Exercise.from_metadata(nb["metadata"]["baccarat_kit"], exercise)
    out = rel.term_source(nb, exercise, token)
    out["metadata"]["baccarat_kit"] = rel.term_metadata(rel.public_metadata(nb["metadata"]["baccarat_kit"]), ex,
                                                        token, secret.fingerprint, learner)
    for cell in out["cells"]:
        if cell["cell_type"] == "code":
            cell["source"] = re.sub(r"^LEARNER_ID = .*$", f"LEARNER_ID = {learner!r}", cell["source"], flags=re.M)
    return json.dumps(out, ensure_ascii=False)


def _grade(args: list[str]) -> dict[str, Any]:
    out = Path(args[args.index("--out") + 1])
    code = main(["--lang", "en", "grade", *args, "--no-progress", "--timeout", "20", "--notebook-timeout", "60", "--jobs", "2"])
    assert code in (0, 1)
    return json.loads((out / "results.json").read_text(encoding="utf-8"))


def _rows(doc: dict[str, Any]) -> dict[tuple[str, str], dict[str, Any]]:
    return {(r["learner"], r["exercise"]): r for r in doc["submissions"]}


# ---------------------------------------------------------------- the secret file
def test_secret_new_is_0600_and_never_overwrites(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    key = tmp_path / "term.key"
    assert main(["--lang", "en", "secret", "new", str(key)]) == 0
    assert stat.S_IMODE(key.stat().st_mode) == 0o600
    before = key.read_bytes()
    assert re.fullmatch(rb"[0-9a-f]{64}\n", before)
    assert read_secret(key).fingerprint in capsys.readouterr().out
    assert main(["--lang", "en", "secret", "new", str(key)]) == 2
    assert "never overwrites" in capsys.readouterr().err
    assert key.read_bytes() == before
    link = tmp_path / "link.key"
    link.symlink_to(tmp_path / "elsewhere.key")
    assert main(["--lang", "en", "secret", "new", str(link)]) == 2  # not through a link either
    assert not (tmp_path / "elsewhere.key").exists()
    key.chmod(0o644)
    with pytest.raises(bk.BaccaratError, match="chmod 600"):
        read_secret(key)



def test_a_missing_or_unwritable_secret_file_is_said_in_one_language(tmp_path: Path) -> None:
    """The system's reason ("No such file or directory") was English inside the zh sentence."""
    from baccarat_kit.grading.term.secret import new_secret

    with pytest.raises(bk.BaccaratError) as err:
        read_secret(tmp_path / "nope.key")
    assert "沒有這個檔案或資料夾" in err.value.message("zh") and "No such" not in err.value.message("zh")
    assert "no such file or folder" in err.value.message("en")
    with pytest.raises(bk.BaccaratError) as err:
        new_secret(tmp_path / "missing-folder" / "term.key")
    assert "沒有這個檔案或資料夾" in err.value.message("zh")


# ---------------------------------------------------------------- release
def test_release_writes_one_copy_per_learner_with_her_data_and_nothing_secret(term: dict[str, Path]) -> None:
    out = term["dir"] / "handout"
    assert main(["--lang", "en", "release", str(SOURCE), "--out", str(out), "--class-list", str(term["roster"]),
                 "--secret-file", str(term["key"])]) == 0
    secret_hex = term["key"].read_text().strip()
    secret = read_secret(term["key"])
    texts: dict[str, dict[str, str]] = {}
    for learner in LEARNERS:
        folder = out / learner / "exercises"
        assert sorted(p.name for p in folder.glob("*.ipynb")) == sorted(p.name for p in SOURCE.glob("*.ipynb"))
        for path in folder.glob("*.ipynb"):
            text = path.read_text(encoding="utf-8")
            texts.setdefault(path.stem, {})[learner] = text
            assert secret_hex not in text and secret.token(path.stem, learner) not in text
            nb = json.loads(text)
            meta = nb["metadata"]["baccarat_kit"]
            assert meta["term"] == {"version": 1, "learner": learner, "fingerprint": secret.fingerprint}
            assert all("hidden" not in q and "rubric" not in q for q in meta["questions"])
            for q in meta["questions"]:
                if q.get("kind") == "written":  # no key at all: scored by hand
                    continue
                if q["key"]["fn"] in ("variant_coups", "settlement", "sealed"):  # no public check needs her key
                    assert {c if isinstance(c, str) else c["check"] for c in q["public"]} <= {"type", "own-work"}
            code = "\n".join(_code(nb))
            assert f'LEARNER_ID = "{learner}"' in code
            assert "hands_for" not in code and "settlement_for" not in code
    for exercise in PER_LEARNER:  # her questions differ from the others'
        assert len(set(texts[exercise].values())) == len(LEARNERS)
    hands = {lr: json.loads(texts["04-whole-coups"][lr])["cells"][2]["source"] for lr in LEARNERS}
    assert len(set(hands.values())) == len(LEARNERS)


def test_term_copies_run_without_the_per_learner_code(term: dict[str, Path], monkeypatch: pytest.MonkeyPatch,
                                                      tmp_path: Path) -> None:
    out = tmp_path / "handout"
    rel.release(SOURCE, out, class_list=term["roster"], secret=read_secret(term["key"]))

    def forbidden(*_: object, **__: object) -> None:
        raise AssertionError("a term copy computed per-learner data in the kernel")

    from baccarat_kit.grading.judge import keys

    for name in ("hands_for", "settlement_for"):
        monkeypatch.setattr(bk.grading, name, forbidden)
    for name in ("variant_hands", "settlement_variant", "learner_seed"):
        monkeypatch.setattr(keys, name, forbidden)
    monkeypatch.chdir(out / "bob" / "exercises")
    for exercise in PER_LEARNER:
        nb = json.loads(Path(f"{exercise}.ipynb").read_text(encoding="utf-8"))
        ns: dict[str, Any] = {"__name__": "__main__"}
        for code in _code(nb):
            exec(compile(code, exercise, "exec"), ns)  # check("qN") on "..." answers included
        if exercise == "04-whole-coups":  # a filled answer: its form only, nothing about right or wrong
            ns["player_totals"] = [0, 1, 2, 3, 4]
            text = ns["check"]("q1", lang="en", namespace=ns).text
            assert "format fine" in text and "✔" not in text and "✘" not in text
        if exercise == "06-misconceptions":  # her options, in her order, from the copy alone
            shown = ns["check"].options("q4", lang="en", namespace=ns).text
            assert [line[1] for line in shown.splitlines()] == ["a", "b", "c"]


def test_release_is_deterministic_per_secret(term: dict[str, Path], tmp_path: Path) -> None:
    secret = read_secret(term["key"])
    first = rel.release(SOURCE, tmp_path / "a", class_list=term["roster"], secret=secret)
    second = rel.release(SOURCE, tmp_path / "b", class_list=term["roster"], secret=secret)
    other = rel.release(SOURCE, tmp_path / "c", class_list=term["roster"], secret=TermSecret(bytes(32)))
    assert [p.read_bytes() for p in first] == [p.read_bytes() for p in second]
    by_name = {p.relative_to(tmp_path / "a"): p.read_bytes() for p in first}
    for p in other:
        rel_path = p.relative_to(tmp_path / "c")
        if rel_path.stem in ("04-whole-coups", "05-settlement"):
            assert p.read_bytes() != by_name[rel_path]


def test_release_refuses_a_class_list_without_a_secret_and_bad_names(term: dict[str, Path], tmp_path: Path,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--lang", "en", "release", str(SOURCE), "--out", str(tmp_path / "x"), "--class-list", str(term["roster"])]) == 2
    assert "--secret-file" in capsys.readouterr().err
    bad = tmp_path / "bad.csv"
    bad.write_text("learner\n../etc\n", encoding="utf-8")
    assert main(["--lang", "en", "release", str(SOURCE), "--out", str(tmp_path / "y"), "--class-list", str(bad),
                 "--secret-file", str(term["key"])]) == 2
    assert "../etc" in capsys.readouterr().err
    assert not (tmp_path / "y").exists() and not (tmp_path / "etc").exists()


def test_the_english_edition_is_a_term_copy_too(term: dict[str, Path], tmp_path: Path) -> None:
    written = rel.release(SOURCE, tmp_path / "en", lang="en", class_list=term["roster"],
                          secret=read_secret(term["key"]))
    nb = json.loads((tmp_path / "en" / "alice" / "exercises" / "05-settlement.ipynb").read_text(encoding="utf-8"))
    assert len(written) == 6 * len(LEARNERS)
    assert "your own question data" in _code(nb)[0] and "bk.Ledger.from_csv" in _code(nb)[0]


# ---------------------------------------------------------------- grading a term
def _homes(tmp_path: Path, files: dict[str, dict[str, str]]) -> Path:
    home = tmp_path / "home"
    for learner, notebooks in files.items():
        folder = home / learner / "exercises"
        folder.mkdir(parents=True, exist_ok=True)
        for name, text in notebooks.items():
            (folder / f"{name}.ipynb").write_text(text, encoding="utf-8")
    return home


@pytest.mark.sandbox  # (grades for real)
def test_a_term_grades_by_owner_and_refuses_without_its_secret(term: dict[str, Path], tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    secret = read_secret(term["key"])
    home = _homes(tmp_path, {lr: {ex: solved_copy(ex, secret, lr) for ex in PER_LEARNER} for lr in LEARNERS})
    done = collect(home, tmp_path / "collected", pattern="exercises/*.ipynb", name="week1")
    batch = str(done.folder)

    doc = _grade([batch, "--out", str(tmp_path / "graded"), "--secret-file", str(term["key"])])
    assert doc["schema_version"] == 6
    rows = _rows(doc)
    assert len(rows) == len(LEARNERS) * len(PER_LEARNER)
    for (learner, _exercise), row in rows.items():
        assert row["status"] == "ok" and row["score"] == row["max_score"] - row["pending_points"], row
        assert row["keys"] == "term" and row["keyed_for"] == learner
    assert main(["--lang", "en", "return", str(tmp_path / "graded"), "--to", str(home)]) == 0
    for learner in LEARNERS:  # the feedback goes back into the folder it was collected from
        assert sorted(p.name for p in (home / learner / "feedback").glob("*.html")) == [
            f"{ex}.html" for ex in PER_LEARNER]

    capsys.readouterr()
    doc = _grade([batch, "--out", str(tmp_path / "no-secret")])
    assert {r["status"] for r in doc["submissions"]} == {"needs_secret"}
    assert all(r["score"] == 0 and "--secret-file" in r["reason"]["en"] for r in doc["submissions"])
    assert "--secret-file" in capsys.readouterr().err

    other = tmp_path / "other.key"
    assert main(["--lang", "en", "secret", "new", str(other)]) == 0
    doc = _grade([batch, "--out", str(tmp_path / "other"), "--secret-file", str(other)])
    assert {r["status"] for r in doc["submissions"]} == {"other_secret"}
    assert all("another term secret" in r["reason"]["en"] for r in doc["submissions"])

    # mallory hands in alice's solved copies from her own folder: nothing per learner for her,
    # and alice's rows stay as they were
    stolen = {ex: solved_copy(ex, secret, "alice") for ex in ("04-whole-coups", "05-settlement")}
    mallory = collect(_homes(tmp_path / "m", {"mallory": stolen}), tmp_path / "collected", pattern="exercises/*.ipynb",
                      name="week1-mallory")
    before = {k: v["score"] for k, v in _rows(json.loads((tmp_path / "graded" / "results.json").read_text())).items()}
    doc = _grade([str(mallory.folder), "--out", str(tmp_path / "graded"), "--update", "--secret-file", str(term["key"])])
    rows = _rows(doc)
    for exercise in ("04-whole-coups", "05-settlement"):
        row = rows[("mallory", exercise)]
        assert row["status"] == "ok" and row["score"] == 0 and row["keyed_for"] == "mallory", row
        assert rows[("alice", exercise)]["score"] == before[("alice", exercise)] == rows[("alice", exercise)]["max_score"]
        assert "released for alice but handed in by mallory" in row["questions"]["q1"]["message"]["en"]
    # the mark edited to name her, or removed: she is graded on her own questions, alice's answers miss
    renamed = json.loads(stolen["05-settlement"])
    renamed["metadata"]["baccarat_kit"]["term"]["learner"] = "mallory"
    unmarked = json.loads(stolen["05-settlement"])
    del unmarked["metadata"]["baccarat_kit"]["term"]
    forged = {"05-settlement": json.dumps(renamed, ensure_ascii=False),
              "05-settlement-unmarked": json.dumps(unmarked, ensure_ascii=False)}
    again = collect(_homes(tmp_path / "m2", {"mallory": forged}), tmp_path / "collected",
                    pattern="exercises/*.ipynb", name="week1-mallory-2")
    doc = _grade([str(again.folder), "--out", str(tmp_path / "forged"), "--secret-file", str(term["key"])])
    assert len(doc["submissions"]) == 2
    # a question scores only where mallory's own key happens to equal alice's (the term secret is
    # new each run, so a few of the small answers, a line number or a returned stake, may coincide)
    questions = _source("05-settlement")["metadata"]["baccarat_kit"]["questions"]
    same = {q["id"] for q in questions
            if expected(q["key"], secret.token("05-settlement", "alice"))
            == expected(q["key"], secret.token("05-settlement", "mallory"))}
    for row in doc["submissions"]:
        assert row["keyed_for"] == "mallory", row
        earned = {qid for qid, q in row["questions"].items() if q["score"] > 0}
        assert earned == same, (row, same)
        assert row["score"] == sum(q["points"] for q in questions if q["id"] in same), row
    assert sum(any("no term mark" in w["en"] for w in row["warnings"]) for row in doc["submissions"]) == 1


@pytest.mark.sandbox  # (grades for real)
def test_a_regrade_without_the_term_secret_leaves_her_row_as_it_was(term: dict[str, Path], tmp_path: Path,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    """`grade FILE --out graded --update` with --secret-file forgotten (or another term's) replaced
    her graded row and feedback page by a 0 (needs_secret) that return and the exports then used;
    now such a file replaces nothing: stderr says so, exit 1 when it was all there was."""
    secret = read_secret(term["key"])
    home = _homes(tmp_path, {lr: {"05-settlement": solved_copy("05-settlement", secret, lr)} for lr in ("alice", "bob")})
    done = collect(home, tmp_path / "collected", pattern="exercises/*.ipynb", name="week1")
    graded = tmp_path / "graded"
    _grade([str(done.folder), "--out", str(graded), "--secret-file", str(term["key"])])
    before = (graded / "results.json").read_bytes()
    pages = {p.name: p.read_bytes() for p in (graded / "feedback").iterdir()}
    alice = done.folder / "alice" / "exercises" / "05-settlement.ipynb"
    other = tmp_path / "other.key"
    assert main(["--lang", "en", "secret", "new", str(other)]) == 0
    for extra in ([], ["--secret-file", str(other)]):
        capsys.readouterr()
        assert main(["--lang", "en", "grade", str(alice), "--out", str(graded), "--update", "--no-progress", *extra]) == 1
        assert "their rows and feedback pages in the gradebook were left as they were" in capsys.readouterr().err
        assert (graded / "results.json").read_bytes() == before
        assert {p.name: p.read_bytes() for p in (graded / "feedback").iterdir()} == pages
    rows = _rows(json.loads(before))
    assert rows[("alice", "05-settlement")]["score"] == rows[("alice", "05-settlement")]["max_score"] - rows[("alice", "05-settlement")]["pending_points"]
    # with the secret, the regrade replaces her row as always
    assert main(["--lang", "en", "grade", str(alice), "--out", str(graded), "--update", "--no-progress",
                 "--secret-file", str(term["key"])]) == 0
    assert _rows(json.loads((graded / "results.json").read_text()))[("alice", "05-settlement")]["status"] == "ok"


@pytest.mark.sandbox  # (grades for real)
def test_a_copy_released_before_the_term_secret_still_grades(tmp_path: Path) -> None:
    """No term mark and no --secret-file: the public learner id, as before, and the row says so."""
    nb = _source("04-whole-coups")
    for cell in nb["cells"]:
        if cell["cell_type"] == "code":
            cell["source"] = re.sub(r"^LEARNER_ID = .*$", "LEARNER_ID = 's0042'", cell["source"], flags=re.M)
    path = tmp_path / "subs" / "04-whole-coups.ipynb"
    path.parent.mkdir()
    path.write_text(json.dumps(nb, ensure_ascii=False), encoding="utf-8")
    doc = _grade([str(path), "--out", str(tmp_path / "graded")])
    [row] = doc["submissions"]
    assert row["status"] == "ok" and row["score"] == row["max_score"] - row["pending_points"] and row["keys"] == "public-id"
    assert row["keyed_for"] is None


def test_schema_3_gradebooks_are_upgraded_with_public_id_keys(tmp_path: Path) -> None:
    from baccarat_kit.grading.term.gradebook import read_results

    path = tmp_path / "results.json"
    path.write_text(json.dumps({"schema_version": 3, "submissions": [
        {"file": "a.ipynb", "learner": "ann", "owner": "ann", "exercise": "04-whole-coups", "score": 8}]}))
    doc = read_results(path)
    assert doc["schema_version"] == 6 and doc["upgraded_from"] == 3
    assert doc["submissions"][0]["keys"] == "public-id" and doc["submissions"][0]["learner"] == "ann"


@pytest.mark.slow
@pytest.mark.sandbox  # (grades for real)
def test_dask_workers_get_the_owners_tokens_never_the_secret(term: dict[str, Path], tmp_path: Path) -> None:
    """Through a TLS cluster of separate processes: term copies earn full marks, and what is sent
    to a worker (the submission, its owner's tokens) holds neither the secret nor its hex."""
    pytest.importorskip("distributed", reason="the [dask] extra is not installed")
    import pickle
    import sys

    from distributed import Client

    from baccarat_kit.grading import cluster
    from baccarat_kit.grading.grade import Limits, grade_paths, load_exercises

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from dask_local import ProcessCluster

    secret = read_secret(term["key"])
    home = _homes(tmp_path, {"alice": {"04-whole-coups": solved_copy("04-whole-coups", secret, "alice")},
                             "bob": {"05-settlement": solved_copy("05-settlement", secret, "bob")}})
    done = collect(home, tmp_path / "collected", pattern="exercises/*.ipynb", name="w1")
    exercises = load_exercises(SOURCE)
    certs = tmp_path / "certs"
    assert main(["--lang", "en", "dask-certs", str(certs)]) == 0
    running = ProcessCluster(tmp_path / "cluster", certs, workers=1)
    sent: list[bytes] = []
    try:
        with Client(running.address, security=cluster.security(certs), timeout="60s", set_as_default=False) as c:
            c.wait_for_workers(1, timeout=120)
            submit = cluster.DaskSubmit(c, exercises, Limits(20, 60))
            real = c.submit

            def recording(*args: Any, **kwargs: Any) -> Any:
                sent.append(pickle.dumps(args))
                return real(*args, **kwargs)

            c.submit = recording  # type: ignore[method-assign]
            try:
                subs = grade_paths(sorted(done.files), exercises, Limits(20, 60), submit=submit, term=secret)
            finally:
                submit.close()
    finally:
        running.stop()
    assert [(s.owner, s.status, s.score, s.keys) for s in subs] == [
        ("alice", "ok", 8, "term"), ("bob", "ok", 10, "term")]
    assert len(sent) == 2
    for blob in sent:
        assert secret.secret not in blob and secret.secret.hex().encode() not in blob
    assert secret.token("04-whole-coups", "alice").encode() in sent[0] + sent[1]


@needs_bwrap
@pytest.mark.parametrize(("lang", "words"), [("en", "is --secret-file this class's key file?"),
                                             ("zh", "--secret-file 給的是不是這一班的密鑰檔")])
def test_grading_with_another_terms_secret_says_so_and_exits_1(term: dict[str, Path], tmp_path: Path, lang: str,
                                                               words: str, capsys: pytest.CaptureFixture[str]) -> None:
    """The wrong key file gave a gradebook of zeros, exit 0 and not a line on stderr: an instructor
    could return them. Now one line says what is wrong, and a batch of nothing else exits 1."""
    secret = read_secret(term["key"])
    home = _homes(tmp_path, {"alice": {"04-whole-coups": solved_copy("04-whole-coups", secret, "alice")}})
    done = collect(home, tmp_path / "collected", pattern="exercises/*.ipynb", name="week1")
    other = tmp_path / "other.key"
    assert main(["--lang", "en", "secret", "new", str(other)]) == 0
    capsys.readouterr()
    code = main(["--lang", lang, "grade", str(done.folder), "--out", str(tmp_path / "graded"), "--secret-file",
                 str(other), "--no-progress"])
    assert code == 1
    assert words in capsys.readouterr().err
    doc = json.loads((tmp_path / "graded" / "results.json").read_text(encoding="utf-8"))
    assert [r["status"] for r in doc["submissions"]] == ["other_secret"]


# ---------------------------------------------------------------- each learner's language
def worked_copy(copy: Path, secret: TermSecret, lang: str, changes: dict[str, str] | None = None) -> str:
    """A learner's work on the copy she was handed: her released copy (her data, her mark, its
    language) with the model answers of the source's ``lang`` edition typed into its answer cells
    (matched by cell id), then the cells of ``changes`` (cell id → code) as she wrote them."""
    nb = json.loads(copy.read_text(encoding="utf-8"))
    mark = nb["metadata"]["baccarat_kit"]["term"]["learner"]
    exercise = copy.stem
    source = rel.edition(_source(exercise), lang, exercise)
    solved = {c["id"]: c["source"] for c in rel.term_source(source, exercise, secret.token(exercise, mark), lang)["cells"]
              if c["cell_type"] == "code"}
    for cell in nb["cells"]:
        if cell["cell_type"] == "code" and cell["id"] in solved and "LEARNER_ID" not in cell["source"]:
            cell["source"] = (changes or {}).get(cell["id"], solved[cell["id"]])
    return json.dumps(nb, ensure_ascii=False)


@pytest.mark.sandbox  # (grades for real)
def test_each_learners_feedback_is_in_the_language_of_the_copy_she_worked_in(
        term: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Feedback pages followed `grade --lang`: a learner of the English edition got Chinese pages.
    Now release records the edition's language in her copy and her page is in it, whatever
    --lang is; stderr and the CSVs follow --lang; a copy that says nothing (or anything but zh or
    en) gets the instructor's --lang. Her answer whose cell failed names that cell and the error."""
    zh_list, en_list = tmp_path / "class-zh.csv", tmp_path / "class-en.csv"
    zh_list.write_text("learner\nalice\ncarol\n", encoding="utf-8")
    en_list.write_text("learner\nbob\ndora\n", encoding="utf-8")
    for roster, out, edition in ((zh_list, "handout", "zh"), (en_list, "handout-en", "en")):
        assert main(["--lang", "en", "release", str(SOURCE), "--out", str(tmp_path / out), "--edition", edition,
                     "--class-list", str(roster), "--secret-file", str(term["key"])]) == 0
    copies = {lr: tmp_path / ("handout" if lr in ("alice", "carol") else "handout-en") / lr / "exercises"
              / "03-banker-rule.ipynb" for lr in ("alice", "bob", "carol", "dora")}
    assert {lr: json.loads(p.read_text())["metadata"]["baccarat_kit"]["language"] for lr, p in copies.items()} == {
        "alice": "zh", "bob": "en", "carol": "zh", "dora": "en"}
    secret = read_secret(term["key"])
    failing = {"ex03-04": "case_a = 1 / 0"}  # her q1 cell fails in grading
    work = {lr: worked_copy(copies[lr], secret, "zh" if lr in ("alice", "carol") else "en", failing)
            for lr in ("alice", "bob")}
    carol = json.loads(worked_copy(copies["carol"], secret, "zh"))
    carol["metadata"]["baccarat_kit"]["language"] = "<script>alert(1)</script>"  # only zh or en is ever taken
    dora = json.loads(worked_copy(copies["dora"], secret, "en"))
    del dora["metadata"]["baccarat_kit"]["language"]  # (a copy released before it was recorded)
    work |= {"carol": json.dumps(carol, ensure_ascii=False), "dora": json.dumps(dora, ensure_ascii=False)}
    home = _homes(tmp_path, {lr: {"03-banker-rule": text} for lr, text in work.items()})
    done = collect(home, tmp_path / "collected", pattern="exercises/*.ipynb", name="week1")

    for lang, other in (("en", "zh"), ("zh", "en")):
        out = tmp_path / f"graded-{lang}"
        capsys.readouterr()
        assert main(["--lang", lang, "grade", str(done.folder), "--out", str(out), "--secret-file", str(term["key"]),
                     "--no-progress", "--jobs", "2", "--timeout", "20"]) == 0
        err = capsys.readouterr().err
        rows = _rows(json.loads((out / "results.json").read_text(encoding="utf-8")))
        assert {lr: rows[(lr, "03-banker-rule")]["language"] for lr in work} == {
            "alice": "zh", "bob": "en", "carol": None, "dora": None}
        pages = {lr: (out / rows[(lr, "03-banker-rule")]["feedback"]).read_text(encoding="utf-8") for lr in work}
        html_lang = {"zh": '<html lang="zh-Hant">', "en": '<html lang="en">'}
        assert html_lang["zh"] in pages["alice"] and "練習 3：莊家補牌規則" in pages["alice"]
        assert html_lang["en"] in pages["bob"] and "Exercise 3: the banker" in pages["bob"]
        for lr in ("carol", "dora"):  # the copy says nothing usable: the instructor's --lang
            assert html_lang[lang] in pages[lr] and html_lang[other] not in pages[lr], lr
        assert "<script>alert" not in pages["carol"]
        # her failed q1 cell, named in her language (not "no answer"), full marks elsewhere
        assert "case_a</code> 沒有值：設定它的程式格（第 2 個程式格）在評分時出錯（ZeroDivisionError）" in pages["alice"]
        assert "case_a</code> has no value: the cell that sets it (code cell 2) failed when graded (ZeroDivisionError)" in pages["bob"]
        for lr in ("alice", "bob"):
            row = rows[(lr, "03-banker-rule")]
            assert row["questions"]["q1"]["score"] == 0 and row["score"] == row["max_score"] - row["pending_points"] - 1, row
            assert "No answer" not in pages[lr] and "找不到答案" not in pages[lr]
        assert rows[("carol", "03-banker-rule")]["score"] == rows[("carol", "03-banker-rule")]["max_score"] - rows[("carol", "03-banker-rule")]["pending_points"]
        # the instructor's outputs follow --lang
        said = {"en": "code cell(s) failed", "zh": "個程式格出錯"}
        assert said[lang] in err and said[other] not in err
        title = {"en": "Exercise 3: the banker", "zh": "練習 3：莊家補牌規則"}
        assert title[lang] in (out / "canvas.csv").read_text(encoding="utf-8")
    assert main(["--lang", "zh", "return", str(tmp_path / "graded-zh"), "--to", str(home)]) == 0
    returned = (home / "bob" / "feedback" / "03-banker-rule.html").read_text(encoding="utf-8")
    assert '<html lang="en">' in returned and "code cell 2" in returned
