"""The instructor's page for scoring written answers: ``baccarat-kit grade-manual GRADED``.

A small HTTP server on 127.0.0.1 only (a port the system picks, or ``--port``), opened with a
random token in the URL it prints (``secrets.token_urlsafe``); every request must carry the token
(the page's saves send it in a header, never a cookie) and a ``Host`` of 127.0.0.1 or localhost on
that port (a page of another site cannot reach it through a DNS name of its own). The page is
rendered from ``report/templates/manual.html.j2`` with autoescape; every answer arrives as JSON
data and is put into the page with ``textContent``: a learner's Markdown or HTML is shown as the
text she typed, never rendered or run. Its one script is allowed by hash (Content-Security-Policy),
it loads nothing else and talks only to this server.

Keyboard first: ``j``/``k`` (or Tab through the list) move between answers, a digit types the
score, ``c`` goes to the comment (from the score field too), Enter saves and moves to the next
answer still pending at once, Shift+Enter is a new line in the comment, Esc leaves a field.
``--anonymous`` shows each learner as a number in a random order (her name never reaches the page).

A key never lands on another answer (issue 43): Enter takes the answer's id and the SHA-256 of
its text with what was typed, the page moves on, and the saves go to the server one at a time, in
order; an answer whose save has not returned shows its fields read-only. The server refuses a save
whose digest is not the text the gradebook now holds for that answer. Each save goes through
:func:`..term.manual.set_mark` (a score from 0 to the question's points), is kept in
``GRADED/manual.json`` and published into the gradebook (:func:`.publish.publish`), both
atomically, before the page is told "saved".
"""

from __future__ import annotations

import hmac
import json
import secrets
import threading
from collections.abc import Mapping
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

from ...i18n import message
from ..judge.checks import Exercise
from ..term import manual
from . import publish

MAX_BODY = 64 * 1024


@dataclass
class Session:
    """One instructor's scoring session over one gradebook folder."""

    folder: Path
    exercises: Mapping[str, Exercise]
    lang: str = "zh"
    anonymous: bool = False
    token: str = field(default_factory=lambda: secrets.token_urlsafe(24))
    lock: threading.Lock = field(default_factory=threading.Lock)
    answers: list[manual.Answer] = field(default_factory=list)
    labels: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        from ..term.gradebook import read_results

        rows = read_results(self.folder / "results.json").get("submissions", [])
        found = manual.answers(rows)
        if self.anonymous:  # a number each, in an order no one can guess; her name never sent
            who = manual.anonymous_numbers(found)
            found.sort(key=lambda a: (a.exercise, a.question, int(who[a.learner][1:])))
            self.labels = [who[a.learner] for a in found]
        else:
            found.sort(key=lambda a: (a.exercise, a.question, a.learner.casefold()))
            self.labels = [a.learner for a in found]
        self.answers = found

    def item(self, i: int, marks: Mapping[str, manual.Mark]) -> dict[str, Any]:
        a = self.answers[i]
        ex = self.exercises.get(a.exercise)
        q = next((q for q in ex.questions if q.id == a.question), None) if ex else None
        mark, earlier = a.marks(marks)
        return {
            "id": i, "sha256": a.sha256, "who": self.labels[i], "exercise": a.exercise, "question": a.question,
            "points": a.points,
            "title": (ex.title.get(self.lang) or a.exercise) if ex else a.exercise,
            "text": (q.text.get(self.lang) or "") if q else "",
            "rubric": [{"id": c["id"], "points": c["points"], "text": c.get(self.lang) or c.get("en", "")}
                       for c in (q.rubric if q else ())],
            "answer": a.text, "score": mark.score if mark else None, "comment": mark.comment if mark else "",
            "earlier": {"score": earlier.score, "comment": earlier.comment} if earlier else None,
        }

    def items(self) -> list[dict[str, Any]]:
        marks = manual.load(self.folder)
        return [self.item(i, marks) for i in range(len(self.answers))]

    def save(self, body: Any) -> dict[str, Any]:
        """Score one answer (``{"id": n, "sha256": "…", "score": "2" | null, "comment": "…"}``), keep
        it and publish the gradebook; the answer as the page shows it now. Refused when ``sha256``
        is not the digest of the text the gradebook holds for that answer now."""
        from ..term.gradebook import read_results

        if not isinstance(body, dict) or type(body.get("id")) is not int or not 0 <= body["id"] < len(self.answers):
            raise manual.ManualError("manual.error.unknown", where="id", value=str(body)[:60] if not isinstance(
                body, dict) else str(body.get("id"))[:20], choices=f"0–{len(self.answers) - 1}")
        i = body["id"]
        with self.lock:
            a = self.answers[i]
            now = {b.key: b for b in manual.answers(read_results(self.folder / "results.json").get("submissions", []))}
            if body.get("sha256") != a.sha256 or a.key not in now or now[a.key].sha256 != a.sha256:
                raise manual.ManualError("manual.error.stale", who=self.labels[i], question=a.question)
            self.answers[i] = a = now[a.key]  # (the same text; its file as the gradebook names it now)
            marks = manual.set_mark(manual.load(self.folder), a, body.get("score"), body.get("comment"),
                                    message("manual.page.score", self.lang))  # (the page names her: no name here)
            manual.save(self.folder, marks)
            publish.publish(self.folder, self.exercises, self.lang, marks, only={a.file})
            return self.item(i, marks)

    def progress(self) -> str:
        marks = manual.load(self.folder)
        scored = sum(1 for a in self.answers if a.marks(marks)[0] is not None)
        return message("manual.page.progress", self.lang, scored=scored, total=len(self.answers))


def _json_script(data: Any) -> str:
    """JSON that can sit inside a ``<script type="application/json">`` (no ``<``, ``>``, ``&``)."""
    text = json.dumps(data, ensure_ascii=False)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026") \
        .replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")


def page_html(session: Session) -> tuple[str, str]:
    """The page and its Content-Security-Policy (its one script allowed by hash)."""
    import base64
    import hashlib

    from ..report.templates import environment, markup, render

    script = environment().get_template("manual.js.j2").render()
    digest = base64.b64encode(hashlib.sha256(script.encode("utf-8")).digest()).decode("ascii")
    csp = (f"default-src 'none'; style-src 'unsafe-inline'; script-src 'sha256-{digest}'; connect-src 'self'; "
           "base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
    labels = {k: message(f"manual.page.{k}", session.lang) for k in (
        "title", "help", "rubric", "answer", "score", "comment", "save", "pending", "changed", "saved", "empty",
        "learner", "question", "saving", "not_saved", "earlier")}
    data = {"token": session.token, "items": session.items(), "labels": labels}
    html = render("manual.html.j2", html_lang="zh-Hant" if session.lang == "zh" else "en", labels=labels,
                  progress=session.progress(), data=markup(_json_script(data)), script=markup(script))
    return html, csp


class _Handler(BaseHTTPRequestHandler):
    session: Session
    port: int

    def log_message(self, format: str, *args: Any) -> None:
        return

    def _host_ok(self) -> bool:
        return self.headers.get("Host", "") in (f"127.0.0.1:{self.port}", f"localhost:{self.port}")

    def _send(self, code: int, body: bytes, kind: str, csp: str = "default-src 'none'") -> None:
        self.send_response(code)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Content-Security-Policy", csp)
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Referrer-Policy", "no-referrer")
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Frame-Options", "DENY")
        self.end_headers()
        self.wfile.write(body)

    def _refuse(self) -> None:
        self._send(403, b"forbidden\n", "text/plain; charset=utf-8")

    def do_GET(self) -> None:
        url = urlsplit(self.path)
        token = (parse_qs(url.query).get("token") or [""])[0]
        if not self._host_ok() or url.path != "/" or not hmac.compare_digest(token, self.session.token):
            self._refuse()
            return
        html, csp = page_html(self.session)
        self._send(200, html.encode("utf-8"), "text/html; charset=utf-8", csp)

    def do_POST(self) -> None:
        token = self.headers.get("X-Manual-Token", "")
        if (not self._host_ok() or urlsplit(self.path).path != "/save"
                or not hmac.compare_digest(token, self.session.token)
                or not self.headers.get("Content-Type", "").startswith("application/json")):
            self._refuse()
            return
        try:
            size = int(self.headers.get("Content-Length", "0"))
        except ValueError:
            size = -1
        if not 0 < size <= MAX_BODY:
            self._send(413, b"too large\n", "text/plain; charset=utf-8")
            return
        try:
            body = json.loads(self.rfile.read(size).decode("utf-8"))
            item = self.session.save(body)
            out = {"ok": True, "item": item, "progress": self.session.progress()}
            code = 200
        except manual.ManualError as err:
            out, code = {"ok": False, "error": err.message(self.session.lang)}, 400
        except (ValueError, UnicodeDecodeError):
            out, code = {"ok": False, "error": "not JSON"}, 400
        self._send(code, json.dumps(out, ensure_ascii=False).encode("utf-8"), "application/json; charset=utf-8")


def serve(session: Session, port: int = 0) -> tuple[ThreadingHTTPServer, str]:
    """A server for ``session`` on 127.0.0.1 (``port`` 0: one the system picks, started by the
    caller with ``serve_forever``) and the URL to open, token included."""
    handler: type[_Handler] = type("ManualHandler", (_Handler,), {"session": session, "port": 0})
    server = ThreadingHTTPServer(("127.0.0.1", port), handler)
    bound = int(server.server_address[1])
    handler.port = bound
    return server, f"http://127.0.0.1:{bound}/?token={session.token}"
