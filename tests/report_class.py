"""A generated class: a ``results.json`` as the class-workflow grader writes it.

Used by ``tests/test_report.py``, ``tests/browser/test_class_report.py`` (and the README's screenshot)
and ``benchmarks/bench_report.py``. The exercises, questions, points and the misconceptions of
exercise 06's options are the kit's own (``exercises/source``); the learners' answers are
drawn from a seeded generator, so the same arguments give the same class.

Besides today's fields it carries those the class workflow adds: per submission
``graded_at``, ``submitted_at``, ``late``; per question ``score`` (fractional for partial
credit), ``points``, ``text``, ``answer`` and ``misconception``.

    make_class(learners=12)                     # the test class (hostile ids, every status)
    make_class(learners=300, hostile=False)     # the benchmark's class
"""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from typing import Any

from baccarat_kit.grading.grade import default_source, load_exercises
from baccarat_kit.grading.judge.checks import correct_option

HOSTILE_IDS = (
    '<img src=x onerror="window.__pwned=1">',
    "</script><script>window.__pwned=2</script>",
    ' =HYPERLINK("http://example.invalid","x")',
    "s9\u202egnp.exe",
)
"""Learner ids that must show as text: markup, a script end tag, a formula, a direction override."""

VALUE_MISCONCEPTIONS = {
    "01-card-values": ["face-card-not-in-table"],
    "02-naturals-player": ["three-card-natural", "naturals-tie", "matrix-after-natural"],
    "03-banker-rule": ["banker-3-always", "banker-copies-player", "banker-6-always-stands",
                       "eight-stops-low-banker", "banker-0-5-always"],
    "04-whole-coups": ["final-total-as-third", "three-card-natural"],
    "05-settlement": ["tie-loses-main-bets", "no-commission-all-even"],
}
"""Misconceptions a wrong value of each exercise may express (the class workflow computes them
by playing the mistaken rule; here they are drawn)."""

START = datetime(2026, 11, 23, 9, 0, tzinfo=UTC)
DEADLINE = START + timedelta(days=7)


def _stamp(t: datetime) -> str:
    return t.isoformat(timespec="seconds").replace("+00:00", "Z")


def _question(q: Any, ex_id: str, n: int, learner_skill: float, difficulty: float,
              rng: random.Random) -> dict[str, Any]:
    text = {"zh": f"第 {n} 題", "en": f"question {n}"}
    right = rng.random() < max(0.05, min(0.97, learner_skill - difficulty + 0.35))
    misconception = None
    answer: str | None = None
    option: dict[str, str] = {}  # a choice question's option as the grader records it (the source's key)
    if right:
        score = float(q.points)
        msg = {"zh": "正確。", "en": "Correct."}
        answer = None
        if q.kind == "choice":
            option = {"option": correct_option(q, "")}
    elif q.kind == "choice":
        wrong = [k for k, o in q.options.items() if o.get("misconception")] or list(q.options)
        letter = rng.choice(wrong)
        option = {"option": letter}
        opt = q.options[letter]
        misconception = opt.get("misconception")
        answer = f"{letter} · {opt['zh']} / {opt['en']}"
        score = 0.0
        msg = {"zh": f"選項 {letter} 不對。", "en": f"Option {letter} is not right."}
    elif q.kind == "function":
        share = rng.choice([0.0, 0.5, 0.75, 0.9])
        score = round(q.points * share, 2)
        answer = None
        msg = {"zh": "有些輸入不對。", "en": "Some inputs are wrong."}
    else:
        pool = VALUE_MISCONCEPTIONS.get(ex_id, [])
        if pool and rng.random() < 0.7:
            misconception = rng.choice(pool)
        answer = str(rng.choice([0, 1, 3, 5, 6, 10, 95, 100, 150, 200]))
        score = float(q.points // 2) if q.type.startswith("list[") and rng.random() < 0.5 else 0.0
        msg = {"zh": f"答案 {answer} 不對。", "en": f"{answer} is not right."}
    return {
        "score": score, "points": q.points, "passed": score >= q.points, "message": msg,
        "checks": [{"check": "equals", "passed": score >= q.points, "hidden": False}],
        "text": text, "answer": answer, "misconception": misconception, **option,
    }


def _pending(q: Any, n: int) -> dict[str, Any]:
    """A written answer as ``grade`` leaves it: pending, 0 points until scored by hand."""
    return {"score": 0, "points": q.points, "passed": False, "kind": "written", "pending": True,
            "message": {"zh": "待評。", "en": "Pending."}, "checks": [], "text": {"zh": f"第 {n} 題", "en": f"question {n}"},
            "answer": None, "written": "", "answer_sha256": "", "manual": None, "misconception": None}


def make_class(learners: int = 12, seed: int = 2026, hostile: bool = True) -> dict[str, Any]:
    """A results document for ``learners`` learners × the kit's six exercises (see the module)."""
    rng = random.Random(seed)
    exercises = load_exercises(default_source())
    ids = [f"s{1001 + i}" for i in range(learners)]
    if hostile:
        ids[: len(HOSTILE_IDS)] = HOSTILE_IDS
    difficulty = {(e, q.id): rng.uniform(-0.2, 0.6) for e, ex in exercises.items() for q in ex.questions
                  if q.kind != "written"}  # (written answers: pending, drawn from nothing, as grade leaves them)
    subs: list[dict[str, Any]] = []
    for i, lid in enumerate(ids):
        skill = rng.betavariate(4, 2)
        for ex_id, ex in sorted(exercises.items()):
            if rng.random() < 0.04:
                continue  # not handed in
            handed = START + timedelta(hours=rng.uniform(0, 8 * 24))
            graded = DEADLINE + timedelta(hours=1, seconds=i * 7 + len(subs))
            folder = f"learner-{i + 1:03d}"
            sub: dict[str, Any] = {
                "file": f"{folder}/{ex_id}.ipynb", "sha256": f"{rng.getrandbits(256):064x}",
                "exercise": ex_id, "learner": lid, "score": 0, "max_score": ex.max_score,
                "status": "ok", "reason": {"zh": "已評分。", "en": "Graded."},
                "feedback": f"feedback/{folder}-{ex_id}.html", "questions": {}, "warnings": [],
                "submitted_at": _stamp(handed), "graded_at": _stamp(graded), "late": handed > DEADLINE,
            }
            roll = rng.random()
            if roll < 0.015:
                sub.update(status="cell_timeout", reason={
                    "zh": "第 3 格超過 10 秒仍未結束（無窮迴圈？），整份以 0 分計。",
                    "en": "Cell 3 did not finish within 10 s (an endless loop?): the whole submission scores 0."})
            elif roll < 0.025:
                sub.update(status="not_json", exercise=ex_id, reason={
                    "zh": "不是 JSON 檔，無法當作筆記本讀取（ValueError）。",
                    "en": "Not a JSON file, so not a notebook (ValueError)."})
            else:
                for n, q in enumerate(ex.questions, 1):
                    sub["questions"][q.id] = _pending(q, n) if q.kind == "written" else _question(
                        q, ex_id, n, skill, difficulty[(ex_id, q.id)], rng)
                sub["score"] = round(sum(q["score"] for q in sub["questions"].values()), 2)
                sub["pending_points"] = sum(q.points for q in ex.questions if q.kind == "written")
            subs.append(sub)
    if hostile and subs:
        _add_special_cases(subs, exercises)
    return {"limits": {"cell_timeout": 10.0, "notebook_timeout": 60.0, "memory_mb": 1024,
                       "sandbox": "landlock ABI 7"}, "submissions": subs}


def _add_special_cases(subs: list[dict[str, Any]], exercises: dict[str, Any]) -> None:
    """A regraded learner (two files, the later graded counts), a kit-calling function answer,
    an unreadable file with no learner, and a duplicate-id warning."""
    first = next(s for s in subs if s["exercise"] == "03-banker-rule" and s["status"] == "ok")
    again = {**first, "file": first["file"].replace(".ipynb", "-v2.ipynb"),
             "graded_at": _stamp(DEADLINE + timedelta(days=2)), "questions": dict(first["questions"])}
    q5 = dict(again["questions"]["q5"])
    q5.update(score=0.0, passed=False, answer=None, misconception=None,
              message={"zh": "`banker_draws` 呼叫了工具包的規則函式，不算自己的答案。",
                       "en": "`banker_draws` calls the kit's own rule function: it is not your own answer."},
              checks=[{"check": "own-work", "passed": False, "hidden": False}])
    again["questions"]["q5"] = q5
    again["score"] = round(sum(q["score"] for q in again["questions"].values()), 2)
    subs.append(again)
    subs.append({
        "file": "stray/.~lock.ipynb", "sha256": "", "exercise": None, "learner": "", "score": 0,
        "max_score": 0, "status": "not_notebook", "questions": {}, "warnings": [],
        "reason": {"zh": "不是可讀取的 Jupyter 筆記本（no list of cells）。",
                   "en": "Not a readable Jupyter notebook (no list of cells)."},
        "submitted_at": None, "graded_at": _stamp(DEADLINE + timedelta(hours=2)), "late": None,
    })
    warn = {"zh": "另有檔案也宣稱這個學員 id：x。", "en": "Other files claim the same learner id: x."}
    subs[0]["warnings"] = [warn]
