"""The class report (``baccarat-kit report``): its numbers against results.json, escaping,
tolerance of older results, lesson links, and the command's errors.

Two classes: one graded here by the real grader (today's results.json, without the class
workflow's fields) and one generated in the class workflow's schema (``tests/report_class.py``).
"""

from __future__ import annotations

import json
import re
import shutil
import statistics
import sys
from collections import Counter, defaultdict
from html.parser import HTMLParser
from pathlib import Path
from typing import Any, ClassVar

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from baccarat_kit.cli import main
from baccarat_kit.grading import report as rp
from baccarat_kit.grading.term.authoring import read_source
from baccarat_kit.misconceptions import all_misconceptions

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
from report_class import HOSTILE_IDS, make_class  # noqa: E402

SOURCE = ROOT / "exercises" / "source"


# ---------------------------------------------------------------- reading the page back
class Node:
    def __init__(self, tag: str, attrs: dict[str, str], parent: Node | None):
        self.tag, self.attrs, self.parent = tag, attrs, parent
        self.children: list[Node] = []
        self.parts: list[str] = []

    @property
    def text(self) -> str:
        return "".join(self.parts)

    def all(self, tag: str | None = None, **attrs: str) -> list[Node]:
        out = []
        for c in self.children:
            if (tag is None or c.tag == tag) and all(c.attrs.get(k.replace("_", "-")) == v for k, v in attrs.items()):
                out.append(c)
            out.extend(c.all(tag, **attrs))
        return out

    def having(self, attr: str) -> list[Node]:
        out = []
        for c in self.children:
            if attr in c.attrs:
                out.append(c)
            out.extend(c.having(attr))
        return out


class Page(HTMLParser):
    """A small DOM: every element with its attributes and its whole text."""

    VOID: ClassVar[set[str]] = {"meta", "br", "img", "input", "link", "hr", "col", "path", "use", "rect", "line"}

    def __init__(self, text: str):
        super().__init__(convert_charrefs=True)
        self.root = Node("#root", {}, None)
        self.cur = self.root
        self.feed(text)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        node = Node(tag, {k: v or "" for k, v in attrs}, self.cur)
        self.cur.children.append(node)
        if tag not in self.VOID:
            self.cur = node

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.cur.children.append(Node(tag, {k: v or "" for k, v in attrs}, self.cur))

    def handle_endtag(self, tag: str) -> None:
        node = self.cur
        while node is not self.root and node.tag != tag:
            node = node.parent  # type: ignore[assignment]
        if node is not self.root:
            self.cur = node.parent  # type: ignore[assignment]

    def handle_data(self, data: str) -> None:
        node: Node | None = self.cur
        while node is not None:
            node.parts.append(data)
            node = node.parent


def grid(page: Page) -> dict[str, Any]:
    """The grid's data (the page's ``#grid-data`` block, read back through the HTML parser as the
    browser reads it: its text is JSON as written)."""
    (block,) = page.root.all("script", id="grid-data")
    assert block.attrs["type"] == "application/json"
    data: dict[str, Any] = json.loads(block.text)
    return data


def cell_of(c: list[Any], column_max: float) -> dict[str, Any]:
    """A grid cell's fields (``classreport.grid_data``)."""
    assert len(c) in (3, 7), c  # the last four only when one of them is not the usual
    flags, status, most, files = c[3:] if len(c) == 7 else (0, "", None, 1)
    return {"score": c[0], "file": c[1], "submitted": c[2], "late": bool(flags & 1), "mismatch": bool(flags & 2),
            "status": status, "max": column_max if most is None else most, "files": files, "pending": bool(flags & 4)}


# ---------------------------------------------------------------- what results.json says
def chosen(doc: dict[str, Any]) -> dict[tuple[str, str], dict[str, Any]]:
    """Per (learner, exercise) the submission graded last (graded_at, else the later row)."""
    out: dict[tuple[str, str], dict[str, Any]] = {}
    for s in doc["submissions"]:
        if not s.get("exercise"):
            continue
        lid = s["learner"].strip().casefold() or "\0" + s["file"]
        key = (lid, s["exercise"])
        if key not in out or (s.get("graded_at") or "") >= (out[key].get("graded_at") or ""):
            out[key] = s
    return out


def fmt(x: float) -> str:
    return rp.fmt(float(x))


def check_numbers(doc: dict[str, Any], page: Page) -> None:
    """Every number of the page against an independent reading of results.json."""
    picked = chosen(doc)
    by_exercise: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for (_, ex), s in picked.items():
        by_exercise[ex].append(s)
    cards = {n.attrs["id"][3:]: n for n in page.root.all("div", **{"class": "exercise"})}
    assert sorted(cards) == sorted(by_exercise)
    for ex, subs in by_exercise.items():
        ok = [s for s in subs if s["status"] == "ok"]
        stats = cards[ex].all("p", **{"class": "stats"})[0]
        assert int(stats.attrs["data-graded"]) == len(ok)
        if ok:
            assert float(stats.attrs["data-mean"]) == pytest.approx(statistics.fmean(s["score"] for s in ok), abs=1e-4)
        rows = cards[ex].all("tr")[1:]
        rates = [float(r.attrs["data-rate"]) for r in rows if int(r.attrs["data-graded"])]
        assert rates == sorted(rates), f"{ex}: questions not hardest first"
        scored = [int(r.attrs["data-graded"]) > 0 for r in rows]  # one with every answer pending: last, not "hardest"
        assert scored == sorted(scored, reverse=True)
        for r in rows:
            qs = [q for s in ok if (q := s["questions"][r.attrs["data-q"]]).get("pending") is not True]
            assert int(r.attrs["data-graded"]) == len(qs)  # (a written answer not scored yet: not counted)
            assert int(r.attrs["data-full"]) == sum(q["score"] >= q["points"] for q in qs), (ex, r.attrs["data-q"])
    # the grid: one row per learner, one cell per exercise (null: not handed in)
    data = grid(page)
    exercises = sorted(by_exercise)
    learners = {lid for (lid, _) in picked}
    assert len(data["rows"]) == len(learners)
    max_of = {ex: max(s["max_score"] for s in subs) for ex, subs in by_exercise.items()}
    assert data["max"] == [max_of[ex] for ex in exercises] and data["top"] == sum(max_of.values())
    seen = 0
    for row in data["rows"]:
        assert len(row) == 5 + len(exercises)
        total = 0.0
        for ex, c in zip(exercises, row[5:], strict=True):
            if c is None:
                continue
            seen += 1
            cell = cell_of(c, max_of[ex])
            total += cell["score"]
            s = next(s for s in picked.values() if s["exercise"] == ex and s["file"].endswith(cell["file"])
                     and (s["status"] != "ok") == bool(cell["status"]))
            want = s["score"] if s["status"] == "ok" else 0
            assert cell["score"] == pytest.approx(want) and fmt(cell["score"]) == fmt(want)
            assert cell["max"] == s["max_score"]
            assert cell["late"] == (s.get("late") is True)
        assert row[4] == pytest.approx(total)
    assert seen == len(picked)
    # misconceptions: learners per id (only in graded, not fully right answers)
    if any("misconception" in q for s in doc["submissions"] for q in s.get("questions", {}).values()):
        showed: dict[str, set[str]] = defaultdict(set)
        for (lid, _), s in picked.items():
            if s["status"] != "ok":
                continue
            for q in s["questions"].values():
                if q.get("misconception") and q["score"] < q["points"]:
                    showed[q["misconception"]].add(lid)
        got = {n.attrs["data-m"]: int(n.attrs["data-learners"]) for n in page.root.having("data-m")}
        assert got == {k: len(v) for k, v in showed.items()}


# ---------------------------------------------------------------- a class graded by the real grader
def _notebook(path: Path, lid: str, replace: dict[str, str] | None = None) -> dict[str, Any]:
    nb: dict[str, Any] = read_source(path)  # (a learner copy is read as it is)
    for cell in nb["cells"]:
        if cell["cell_type"] != "code":
            continue
        src = "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
        src = re.sub(r'LEARNER_ID = "[^"]*"', f"LEARNER_ID = {json.dumps(lid)}", src)
        for a, b in (replace or {}).items():
            src = re.sub(a, b, src)
        cell["source"] = src
    return nb


HOSTILE = '<b id="pwned">carol</b>'


def _shown(path: Path, qid: str, lid: str, misconception: str) -> str:
    """The letter this learner sees for the option that names ``misconception`` (choices are
    shuffled per learner)."""
    from baccarat_kit.grading.judge.checks import Question

    meta = read_source(path)["metadata"]["baccarat_kit"]
    q = next(q for q in meta["questions"] if q["id"] == qid)
    key = next(k for k, option in q["options"].items() if option.get("misconception") == misconception)
    question = Question.from_dict(q)
    return next(letter for letter, k in question.shown_options(lid).items() if k == key)


@pytest.fixture(scope="module")
def graded(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    root = tmp_path_factory.mktemp("report-class")
    subs = root / "submissions"

    def put(folder: str, name: str, nb: dict[str, Any] | str) -> None:
        (subs / folder).mkdir(parents=True, exist_ok=True)
        text = nb if isinstance(nb, str) else json.dumps(nb, ensure_ascii=False)
        (subs / folder / name).write_text(text, encoding="utf-8")

    six = SOURCE / "06-misconceptions.ipynb"
    put("alice", "06-misconceptions.ipynb", _notebook(six, "alice"))
    put("bob", "06-misconceptions.ipynb", _notebook(six, "bob", {
        r"^q1 = .*": f'q1 = "{_shown(six, "q1", "bob", "banker-3-always")}"',
        r"^q3 = .*": f'q3 = "{_shown(six, "q3", "bob", "face-card-not-in-table")}"'}))
    put("carol", "06-misconceptions.ipynb", _notebook(six, HOSTILE, {r"^q1 = .*": f'q1 = "{_shown(six, "q1", HOSTILE, "banker-3-always")}"'}))
    put("dave", "06-misconceptions.ipynb", _notebook(ROOT / "exercises" / "06-misconceptions.ipynb", "dave"))
    put("erin", "03-banker-rule.ipynb", _notebook(SOURCE / "03-banker-rule.ipynb", "erin"))
    put("frank", "03-banker-rule.ipynb", "this is not a notebook {")
    shutil.copy(ROOT / "tests" / "fixtures" / "submissions" / "endless-loop.ipynb", subs / "03-banker-rule-mallory.ipynb")
    out = root / "graded"
    assert main(["--lang", "en", "grade", str(subs), "--out", str(out), "--jobs", "2", "--no-progress",
                 "--timeout", "8", "--notebook-timeout", "40"]) == 0
    report = root / "class.html"
    assert main(["report", str(out), "--out", str(report)]) == 0
    doc = json.loads((out / "results.json").read_text(encoding="utf-8"))
    return {"doc": doc, "html": report.read_text(encoding="utf-8"), "out": out, "report": report}


@pytest.mark.sandbox  # (the graded fixture grades for real)
def test_the_report_of_a_really_graded_class_matches_its_results(graded: dict[str, Any]) -> None:
    check_numbers(graded["doc"], Page(graded["html"]))


@pytest.mark.sandbox  # (the graded fixture grades for real)
def test_misconceptions_of_a_really_graded_class_come_from_its_messages(graded: dict[str, Any]) -> None:
    """Today's results name a choice's misconception only in its message: bob and carol chose
    06's q1 option that names banker-3-always, bob also q3's face-card-not-in-table option."""
    page = Page(graded["html"])
    got = {n.attrs["data-m"]: n for n in page.root.having("data-m")}
    assert {k: int(v.attrs["data-learners"]) for k, v in got.items()} == {
        "banker-3-always": 2, "face-card-not-in-table": 1}
    row = got["banker-3-always"]
    assert "06-misconceptions:q1 (2)" in row.text
    assert "「a」" in row.text or "“a”" in row.text or "a" in row.all("q")[0].text
    assert row.all("a", **{"class": "lesson"})[0].attrs["href"].split("#")[0].endswith("04-banker-rule.ipynb")
    subs = {s["learner"]: s for s in graded["doc"]["submissions"]}
    assert "[banker-3-always]" in subs["bob"]["questions"]["q1"]["message"]["en"]


@pytest.mark.sandbox  # (the graded fixture grades for real)
def test_statuses_of_a_really_graded_class(graded: dict[str, Any]) -> None:
    page = Page(graded["html"])
    rows = page.root.all("table", **{"class": "attention"})[0].all("tbody")[0].all("tr")
    cats = Counter(r.attrs["data-category"] for r in rows)
    statuses = Counter(s["status"] for s in graded["doc"]["submissions"])
    assert statuses["cell_timeout"] + statuses["notebook_timeout"] == 1 == cats["timeout"]
    assert statuses["not_json"] == 1 == cats["refused"]
    assert cats["warning"] == sum(len(s["warnings"]) for s in graded["doc"]["submissions"])
    # A file that timed out has an exercise but no id: a grid row of its own, marked, named by
    # its file (without the folder all submissions share). A file of no exercise and no id
    # (frank's, not JSON) has no grid row, only its line here.
    unknown = [r[0] for r in grid(page)["rows"] if not r[3]]
    assert unknown == ["（沒有學員 id） 03-banker-rule-mallory.ipynb"]
    refused = [r for r in rows if r.attrs["data-category"] == "refused"]
    assert "frank/03-banker-rule.ipynb" in refused[0].text


@pytest.mark.sandbox  # (the graded fixture grades for real)
def test_a_learner_id_never_becomes_markup(graded: dict[str, Any]) -> None:
    text = graded["html"]
    assert HOSTILE not in text
    assert json.dumps(HOSTILE).replace("<", "\\u003c").replace(">", "\\u003e") in text  # in the grid's data
    page = Page(text)
    assert not page.root.all("b", id="pwned")
    assert HOSTILE in [r[0] for r in grid(page)["rows"]]  # (the page's script writes it as text)


# ---------------------------------------------------------------- a class in the class workflow's schema
@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    folder = tmp_path_factory.mktemp("generated") / "graded"
    folder.mkdir()
    doc = make_class(12)
    (folder / "results.json").write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    path, rep = rp.write_report(folder)
    return {"doc": doc, "folder": folder, "path": path, "rep": rep, "html": path.read_text(encoding="utf-8")}


def test_the_report_of_a_generated_class_matches_its_results(generated: dict[str, Any]) -> None:
    assert generated["path"] == generated["folder"].parent / "graded-report.html"
    check_numbers(generated["doc"], Page(generated["html"]))


def test_late_regraded_and_refused_cells_are_marked(generated: dict[str, Any]) -> None:
    page = Page(generated["html"])
    data = grid(page)
    cells = [cell_of(c, most) for row in data["rows"] for c, most in zip(row[5:], data["max"], strict=True) if c]
    assert [c for c in cells if c["late"]] and "遲交" in data["marks"]["late"]
    refused = [c for c in cells if c["status"]]
    assert refused and all(data["status"][c["status"]].startswith("✘") for c in refused)
    twice = [c for c in cells if c["files"] == 2]
    assert len(twice) == 1 and data["files"] == {"2": "2 個檔案，顯示最後評分的一份"}
    regraded = next(s for s in generated["doc"]["submissions"] if s["file"].endswith("-v2.ipynb"))
    assert fmt(twice[0]["score"]) == fmt(regraded["score"])  # the later graded file counts
    kinds = Counter(n.attrs["data-category"] for n in page.root.having("data-category"))
    assert kinds["sandbox"] == 1  # the function that calls the kit
    assert kinds["warning"] == 1


def test_every_hostile_id_shows_as_text(generated: dict[str, Any]) -> None:
    text = generated["html"]
    # one script that runs (by its hash) and the grid's data, which no text of it can end
    assert text.count("<script") == 2 and text.count("</script>") == 2
    assert text.count('<script type="application/json" id="grid-data">') == 1
    assert "<img" not in text
    shown = {r[0] for r in grid(Page(text))["rows"]}
    for lid in HOSTILE_IDS:
        assert rp.visible(lid.strip(), 60) in shown
    assert "s9\\u202egnp.exe" in shown  # a direction override cannot reorder what is shown


def test_the_grids_data_cannot_end_its_block() -> None:
    """The grid's data sits in a script block: no text of it may close the block or open a comment."""
    text = rp.classreport.script_json({"id": "</script><script>x()</script><!--&"})
    assert "<" not in text and ">" not in text and "&" not in text
    assert json.loads(text) == {"id": "</script><script>x()</script><!--&"}


def markup_text(min_size: int, max_size: int) -> st.SearchStrategy[str]:
    """Text of any characters, half of them markup's."""
    chars = st.one_of(st.sampled_from(list("<>&\"'=/ ;#\u202e\x1b\n")), st.characters())
    return st.lists(chars, min_size=min_size, max_size=max_size).map("".join)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ids=st.lists(markup_text(1, 150), min_size=1, max_size=4, unique_by=lambda t: t.strip().casefold()),
       folder=markup_text(1, 40), status=markup_text(0, 20))
@example(ids=['a"b<i>&\u202e\'' * 12, " ", "Ab"], folder='f"<', status='s"<')
def test_any_id_file_and_status_come_back_from_the_grid_as_text(ids: list[str], folder: str, status: str) -> None:
    """Whatever a learner id, a file name or a status holds, the grid shows it (text and
    attributes, read back by an HTML parser) as :func:`visible` writes it, and nothing else."""
    base = {"exercise": "03-banker-rule", "max_score": 11, "score": 3, "warnings": [], "questions": {},
            "reason": {"zh": "x", "en": "x"}, "submitted_at": "2026-12-01T10:00:00Z"}
    subs = [{**base, "file": f"/c/{folder}/{i}.ipynb", "learner": lid, "status": status}
            for i, lid in enumerate(ids)]
    rep = rp.build_report({"submissions": subs})
    page = Page(rp.render_html(rep, "en"))
    rows = grid(page)["rows"]
    assert rows == grid_of(rep)  # (the HTML parser gives back the JSON as written)
    assert len(rows) == len(rep.learners)
    for lr, row in zip(rep.learners, rows, strict=True):
        label = lr.label if lr.known else f"(no learner id) {lr.label}"
        assert row[0] == rp.visible(label, 60)
        assert (row[2] or row[0]) == rp.visible(label, 300)
        assert row[1] == rp.visible(lr.label.casefold(), 200)  # its sort key
        (c,) = row[5:]
        cell = cell_of(c, 11)
        stored = rep.cells[(lr.key, "03-banker-rule")]
        assert (cell["file"], cell["submitted"]) == (rp.visible(stored.file, 300), "2026-12-01T10:00:00Z")
        assert cell["status"] == (rp.visible(stored.status or "?") if stored.status != "ok" else "")  # "": refused


def grid_of(rep: rp.ClassReport) -> list[Any]:
    from baccarat_kit.grading.report import classreport

    top = sum(e.max_score for e in rep.exercises)
    data: list[Any] = classreport.grid_data(rep, classreport._messages("en"), "en", top)["rows"]
    return data


def test_example_answers_name_no_learner(generated: dict[str, Any]) -> None:
    page = Page(generated["html"])
    learners = {s["learner"] for s in generated["doc"]["submissions"] if s["learner"]}
    for row in page.root.having("data-m"):
        cells = [c for c in row.children if c.tag == "td"]
        example = cells[3].text
        assert example
        assert not any(lid in example for lid in learners)


def test_english_report(generated: dict[str, Any], tmp_path: Path) -> None:
    out = tmp_path / "en.html"
    assert main(["report", str(generated["folder"]), "--out", str(out), "--lang", "en"]) == 0
    text = out.read_text(encoding="utf-8")
    assert '<html lang="en">' in text and "Misconceptions the class showed" in text and "late" in text
    check_numbers(generated["doc"], Page(text))


def test_the_page_needs_no_network(generated: dict[str, Any]) -> None:
    text = generated["html"]
    assert "default-src 'none'" in text
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", text)
    svgs = Page(text).root.all("svg")
    assert len(svgs) == len(generated["rep"].exercises) + 1
    assert all(s.attrs.get("class") == "plot" and s.attrs.get("viewbox") for s in svgs)


def test_older_results_without_the_workflow_fields(generated: dict[str, Any], tmp_path: Path) -> None:
    """Today's grader writes no late flag, question text, answer or misconception: the report
    still works; misconceptions come only from messages that name them."""
    doc = json.loads(json.dumps(generated["doc"]))
    for s in doc["submissions"]:
        for k in ("graded_at", "submitted_at", "late"):
            s.pop(k, None)
        for q in s["questions"].values():
            for k in ("text", "answer", "misconception"):
                q.pop(k, None)
    folder = tmp_path / "old"
    folder.mkdir()
    (folder / "results.json").write_text(json.dumps(doc), encoding="utf-8")
    path, rep = rp.write_report(folder, tmp_path / "old.html", "en")
    page = Page(path.read_text(encoding="utf-8"))
    assert not [c for row in grid(page)["rows"] for c in row[5:] if c and cell_of(c, 0)["late"]]
    assert not page.root.having("data-m")  # no message of this class names one
    assert rep.exercises and all(q.text["en"] == q.id for e in rep.exercises for q in e.questions)


# ---------------------------------------------------------------- lesson links
def test_every_misconception_links_to_a_lesson_heading_that_exists() -> None:
    links = rp.lesson_links()
    for m in all_misconceptions():
        assert m.id in links, f"{m.id} has no lesson"
        file, _, anchor = links[m.id].partition("#")
        notebook = ROOT / "notebooks" / file
        assert notebook.is_file(), f"{m.id}: {file} is not a lesson"
        assert anchor in rp.notebook_headings(notebook), f"{m.id}: no heading #{anchor} in {file}"
        src = (ROOT / "notebooks" / "src" / (notebook.stem + ".py")).read_text(encoding="utf-8")
        headings = {rp.heading_id(line[2:]) for line in src.splitlines() if re.match(r"^# #{1,6} ", line)}
        assert anchor in headings, f"{m.id}: no heading #{anchor} in notebooks/src/{notebook.stem}.py"


def test_lesson_links_in_the_page_reach_the_lessons(generated: dict[str, Any]) -> None:
    page = Page(generated["html"])
    links = page.root.all("a", **{"class": "lesson"})
    assert links
    for a in links:
        href = a.attrs["href"]
        path = (generated["path"].parent / href.split("#")[0]).resolve()
        assert path.is_file(), href
        from urllib.parse import unquote

        assert unquote(href.split("#")[1]) in rp.notebook_headings(path)


@pytest.mark.parametrize("url", ["http://127.0.0.1:8888/lab/tree/notebooks/",
                                 "http://127.0.0.1:8888/lab/tree/notebooks"])  # without its last slash too
def test_lessons_url_option(generated: dict[str, Any], tmp_path: Path, url: str) -> None:
    out = tmp_path / "r.html"
    assert main(["report", str(generated["folder"]), "--out", str(out), "--lessons-url", url]) == 0
    hrefs = [a.attrs["href"] for a in Page(out.read_text(encoding="utf-8")).root.all("a", **{"class": "lesson"})]
    assert hrefs and all(h.startswith("http://127.0.0.1:8888/lab/tree/notebooks/0") for h in hrefs)


# ---------------------------------------------------------------- the command
def test_a_folder_without_results_is_a_clear_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--lang", "en", "report", str(tmp_path)]) == 2
    assert "No results.json in" in capsys.readouterr().err
    (tmp_path / "results.json").write_text("[1, 2]", encoding="utf-8")
    assert main(["--lang", "en", "report", str(tmp_path)]) == 2
    assert "not a grading results file" in capsys.readouterr().err


def test_an_instructors_file_is_never_overwritten(generated: dict[str, Any], tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    mine = tmp_path / "notes.html"
    mine.write_text("<p>my notes</p>", encoding="utf-8")
    assert main(["--lang", "en", "report", str(generated["folder"]), "--out", str(mine)]) == 2
    assert "is not a report written by baccarat-kit" in capsys.readouterr().err
    assert mine.read_text(encoding="utf-8") == "<p>my notes</p>"
    again = tmp_path / "again.html"
    assert main(["report", str(generated["folder"]), "--out", str(again)]) == 0
    assert main(["report", str(generated["folder"]), "--out", str(again)]) == 0  # its own report: replaced
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


def test_a_score_that_is_not_a_finite_number_counts_as_none(tmp_path: Path) -> None:
    """NaN, Infinity, 1e400 (a float's infinity) and an integer beyond a float, which Python's json
    reads: counted as a score that is not a number (0, the question's points), not a traceback."""
    base = {"exercise": "03-banker-rule", "max_score": 11, "status": "ok", "warnings": [], "learner": "ann"}
    rows = [{**base, "file": "c/ann/03-banker-rule.ipynb", "score": "NaN",
             "questions": {"q1": {"score": "Infinity", "points": 2}, "q2": {"score": 1, "points": "BIG"}}},
            {**base, "file": "c/ann/04-whole-coups.ipynb", "exercise": "04-whole-coups", "score": "-Infinity",
             "max_score": "1e400", "questions": {"q1": {"score": 0.5, "points": "-1e400"}}}]
    text = json.dumps({"schema_version": 5, "submissions": rows})
    for word, literal in (("NaN", "NaN"), ("Infinity", "Infinity"), ("-Infinity", "-Infinity"),
                          ("1e400", "1e400"), ("-1e400", "-1e400"), ("BIG", "1" + "0" * 400)):
        text = text.replace(f'"{word}"', literal)
    folder = tmp_path / "graded"
    folder.mkdir()
    (folder / "results.json").write_text(text, encoding="utf-8")
    path, rep = rp.write_report(folder, tmp_path / "r.html", "en")
    assert [(c.score, c.max_score) for c in rep.cells.values()] == [(0.0, 11.0), (0.0, 0.0)]
    (e3, e4) = rep.exercises
    assert [(q.id, q.points, q.earned) for q in e3.questions] == [("q1", 2.0, 0.0), ("q2", 1.0, 1.0)]
    assert [(q.id, q.points, q.earned) for q in e4.questions] == [("q1", 1.0, 0.5)]
    page = path.read_text(encoding="utf-8")
    assert not re.search(r"\b(nan|inf)\b", page, re.I)


def test_a_misconception_counts_wherever_the_score_is_below_the_points(tmp_path: Path) -> None:
    """Whatever ``passed`` says (partial credit marked passed), and never on full points."""
    base = {"exercise": "03-banker-rule", "max_score": 11, "status": "ok", "warnings": [], "score": 1}
    q = {"points": 2, "passed": True, "misconception": "banker-3-always", "answer": "7"}
    subs = [{**base, "file": f"c/{who}/03-banker-rule.ipynb", "learner": who, "questions": {"q1": {**q, "score": got}}}
            for who, got in (("ann", 1.5), ("ben", 2), ("cai", 0))]
    rep = rp.build_report({"schema_version": 5, "submissions": subs})
    (m,) = rep.misconceptions
    assert (m.id, sorted(m.learners), m.answers) == ("banker-3-always", ["ann", "cai"], Counter({"7": 2}))


def test_scores_are_formatted_plainly() -> None:
    assert [rp.fmt(x) for x in (7.0, 7.5, 2.6666, 0.0)] == ["7", "7.5", "2.67", "0"]


def test_a_function_answers_example_is_the_cell_the_misconception_explains(tmp_path: Path) -> None:
    """The example of a misconception seen in a function answer was "def …" (how results.json
    shows a function): it is the first wrong cell the misconception explains, its input and her
    answer."""
    q5 = {"score": 3.95, "points": 4, "passed": False, "answer": "def …", "misconception": "banker-3-always",
          "misconceptions": ["banker-3-always"], "message": {"zh": "…", "en": "…"}, "checks": [],
          "wrong": [{"input": [3, 8], "got": "True", "want": "False", "rule": "banker-3-vs-8",
                     "misconception": "banker-3-always"}]}
    sub = {"file": "c/w1/ben/exercises/03-banker-rule.ipynb", "exercise": "03-banker-rule", "learner": "ben",
           "owner": "ben", "score": 3.95, "max_score": 11, "status": "ok", "reason": {"zh": "", "en": ""},
           "warnings": [], "graded_at": "2026-12-02T14:07:41Z", "questions": {"q5": q5}}
    folder = tmp_path / "graded"
    folder.mkdir()
    (folder / "results.json").write_text(json.dumps({"schema_version": 5, "submissions": [sub]}), encoding="utf-8")
    path, rep = rp.write_report(folder, tmp_path / "r.html", "en")
    (m,) = [m for m in rep.misconceptions if m.id == "banker-3-always"]
    assert m.example() == "(3, 8) → True"
    page = path.read_text(encoding="utf-8")
    assert "(3, 8) → True" in page and "“def …”" not in page


@pytest.mark.parametrize(("lang", "words"), [("en", "another's id"), ("zh", "學號是別人的")])
def test_a_cell_whose_id_names_another_learner_is_marked_in_the_grid(tmp_path: Path, lang: str, words: str) -> None:
    """dan handing in amy's copy showed as a plain 0/8 in the grid (the warning was far below)."""
    base = {"exercise": "04-whole-coups", "max_score": 8, "status": "ok", "reason": {"zh": "", "en": ""},
            "warnings": [], "graded_at": "2026-12-02T14:07:41Z", "questions": {}}
    subs = [{**base, "file": "c/w1/amy/exercises/04-whole-coups.ipynb", "learner": "amy", "owner": "amy",
             "score": 8, "identity_mismatch": False},
            {**base, "file": "c/w1/dan/exercises/04-whole-coups.ipynb", "learner": "dan", "owner": "dan",
             "score": 0, "claimed_id": "amy", "identity_mismatch": True}]
    folder = tmp_path / "graded"
    folder.mkdir()
    (folder / "results.json").write_text(json.dumps({"schema_version": 5, "submissions": subs}), encoding="utf-8")
    path, _ = rp.write_report(folder, tmp_path / "r.html", lang)
    data = grid(Page(path.read_text(encoding="utf-8")))
    assert data["marks"]["mismatch"] == "⚠ " + words
    marked = [(row[0], cell_of(c, 8)) for row in data["rows"] for c in row[5:] if c and cell_of(c, 8)["mismatch"]]
    assert [(who, c["file"], c["score"]) for who, c in marked] == [("dan", "c/w1/dan/exercises/04-whole-coups.ipynb", 0)]


def test_the_grid_counts_the_row_the_exports_and_return_count(tmp_path: Path) -> None:
    """Two hand-ins of ben's: the later one (11:00) graded first, the earlier one regraded later
    (--update). The exports (and return) count the latest hand-in; the grid counted the latest
    graded, so the report and moodle.csv showed different scores."""
    from baccarat_kit.grading.term.export import per_learner

    base = {"exercise": "03-banker-rule", "learner": "ben", "owner": "ben", "max_score": 11, "status": "ok",
            "reason": {"zh": "", "en": ""}, "warnings": [], "questions": {}, "identity_mismatch": False}
    subs = [{**base, "file": "c/w1/ben/exercises/03-banker-rule.ipynb", "score": 5,
             "submitted_at": "2026-12-01T10:00:00Z", "graded_at": "2026-12-02T12:00:00Z"},
            {**base, "file": "c/w2/ben/exercises/03-banker-rule.ipynb", "score": 9,
             "submitted_at": "2026-12-01T11:00:00Z", "graded_at": "2026-12-02T11:30:00Z"}]
    assert per_learner(subs)[0]["ben"]["03-banker-rule"]["score"] == 9
    folder = tmp_path / "graded"
    folder.mkdir()
    (folder / "results.json").write_text(json.dumps({"schema_version": 5, "submissions": subs}), encoding="utf-8")
    _, rep = rp.write_report(folder, tmp_path / "r.html", "en")
    (cell,) = rep.cells.values()
    assert cell.score == 9 and cell.files == 2


def test_a_file_collect_refused_shows_in_her_row_but_is_no_submission() -> None:
    """collect's refusals (a link, a FIFO in her folder) are shown as refused where they belong,
    and counted apart: "2 submissions" said 3 when a refusal of collect counted as one."""
    base = {"exercise": "03-banker-rule", "max_score": 11, "status": "ok", "warnings": [], "score": 11,
            "questions": {}}
    subs = [{**base, "file": f"c/{who}/03-banker-rule.ipynb", "learner": who, "owner": who} for who in ("ann", "ben")]
    skipped = [{"file": "cai/exercises/03-banker-rule.ipynb", "owner": "cai", "reason": "fifo",
                "zh": "不是一般檔案", "en": "not a regular file"}]
    rep = rp.build_report({"schema_version": 5, "submissions": subs, "skipped": skipped})
    assert rep.submissions == 2
    assert rep.cells[("cai", "03-banker-rule")].status == "refused"
    [seen] = [a for a in rep.attention if a.learner == "cai"]
    assert (seen.category, seen.detail["en"]) == ("refused", "not a regular file")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_pending_written_points_are_pending_never_0(tmp_path: Path, lang: str) -> None:
    """Red team: a written answer nobody had scored yet showed "0% (0/0)" and "0 / 3" in its
    exercise's table, among the hardest questions; its exercise's mean and her grid cell "9/14"
    looked final; and untouched copies were "no score (timeouts, refused files, failed grading)"."""
    base = {"exercise": "03-banker-rule", "max_score": 14, "status": "ok", "reason": {"zh": "", "en": ""},
            "warnings": [], "graded_at": "2026-12-02T14:07:41Z", "identity_mismatch": False}
    q9 = {"points": 3, "score": 0, "pending": True}
    subs = [{**base, "file": f"c/{who}/03-banker-rule.ipynb", "learner": who, "owner": who, "score": 9,
             "pending_points": 3, "questions": {"q1": {"points": 1, "score": 1, "passed": True}, "q9": q9}}
            for who in ("ann", "ben")]
    subs.append({**base, "file": "c/cai/03-banker-rule.ipynb", "learner": "cai", "owner": "cai", "score": 0,
                 "status": "not_attempted", "questions": {}})
    folder = tmp_path / "graded"
    folder.mkdir()
    (folder / "results.json").write_text(json.dumps({"schema_version": 5, "submissions": subs}), encoding="utf-8")
    path, rep = rp.write_report(folder, tmp_path / "r.html", lang)
    (ex,) = rep.exercises
    assert [(q.id, q.graded, q.pending) for q in ex.hardest_first()] == [("q1", 2, 0), ("q9", 0, 2)]
    assert (ex.pending_points, ex.not_graded, ex.not_attempted) == (6, 0, 1)
    page = Page(path.read_text(encoding="utf-8"))
    (card,) = page.root.all("div", **{"class": "exercise"})
    (row,) = [r for r in card.all("tr") if r.attrs.get("data-q") == "q9"]
    words = {"en": ("2 pending", "6 more points are pending", "1 copies handed back as they came", "pending"),
             "zh": ("2 份待人工評分", "另有 6 分待人工評分", "另有 1 份原封不動交回", "有待評分")}[lang]
    assert words[0] in row.text and "0 / 3" not in row.text and "0%" not in row.text
    (stats,) = [p for p in page.root.all("p") if p.attrs.get("class") == "stats"]
    assert words[1] in stats.text and words[2] in stats.text and "timeouts" not in stats.text
    data = grid(page)
    assert data["marks"]["pending"] == "✍ " + words[3]
    assert [cell_of(row[5], 14)["pending"] for row in data["rows"] if row[0] in ("ann", "ben")] == [True, True]
    assert "✍" not in " ".join(str(c) for row in data["rows"] if row[0] == "cai" for c in row)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_an_untouched_copys_feedback_page_gives_no_0_and_no_cross(lang: str) -> None:
    """Red team: her page of a copy handed back as it came said "not a wrong answer and scores
    nothing", under "Total: 0 / 7" and a ✘ and "0 / 1" on every question."""
    from baccarat_kit.grading.grade import default_source, load_exercises
    from baccarat_kit.grading.report.feedback import feedback_html

    row = {"file": "c/dave/01-card-values.ipynb", "learner": "dave", "owner": "dave", "exercise": "01-card-values",
           "status": "not_attempted", "score": 0, "max_score": 7, "questions": {}, "warnings": [],
           "reason": {"zh": "未作答", "en": "Not attempted"}, "graded_at": "2026-12-02T00:00:00Z"}
    page = Page(feedback_html(row, load_exercises(default_source()), lang, row))
    text = " ".join(page.root.text.split())
    assert "— / 7" in text and "0 / 7" not in text and "0 / 1" not in text and "✘" not in text
    assert text.count("— / 1") == 4
