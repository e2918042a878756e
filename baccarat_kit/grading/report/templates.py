"""The HTML of the pages people read, from jinja2 templates (``templates/``) with autoescape.

Every value a template shows is escaped by jinja2; text that came from a learner (an id, a file
name, an answer) also goes through the ``v`` filter (:func:`..records.visible`), so no control
character or raw newline of hers reaches a page. Markup the code builds itself (the SVG charts of
:mod:`.charts`) is passed as :class:`markupsafe.Markup`. jinja2 is imported only when a page is
made (the ``[grade]`` extra), never by ``import baccarat_kit``.
"""

from __future__ import annotations

import base64
import hashlib
import re
from functools import cache
from typing import Any

from ..records import visible

FEEDBACK_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'"
"""A feedback page runs nothing and loads nothing: no script, no network, no form."""


def report_csp(script: str) -> str:
    """The class report's policy: its one inline script (by hash), inline styles and data: images."""
    digest = base64.b64encode(hashlib.sha256(script.encode("utf-8")).digest()).decode("ascii")
    return (f"default-src 'none'; style-src 'unsafe-inline'; img-src data:; script-src 'sha256-{digest}'; "
            "base-uri 'none'; form-action 'none'")


@cache
def environment() -> Any:
    import jinja2

    env = jinja2.Environment(
        loader=jinja2.PackageLoader("baccarat_kit.grading.report", "templates"),
        autoescape=True, undefined=jinja2.StrictUndefined, keep_trailing_newline=True,
        trim_blocks=True, lstrip_blocks=True,
    )
    env.filters["v"] = lambda text, limit=120: visible(str(text), limit)
    env.filters["md"] = inline_markdown
    return env


_CODE = re.compile(r"`([^`\n]+)`")
_STRONG = re.compile(r"\*\*([^*\n]+)\*\*")


def inline_markdown(text: Any, limit: int = 6000) -> Any:
    """``text`` escaped (through :func:`..records.visible`), then its inline Markdown, as a
    question's text and the grader's messages write it: `` `x` `` as code, ``**x**`` as bold. The
    tags are the only markup added, after escaping, so a learner's answer quoted in a message
    stays text.

    >>> str(inline_markdown("`case_a` is **not** <b>right</b>"))
    '<code>case_a</code> is <strong>not</strong> &lt;b&gt;right&lt;/b&gt;'
    """
    import markupsafe

    html = str(markupsafe.escape(visible(str(text), limit)))
    html = _STRONG.sub(r"<strong>\1</strong>", _CODE.sub(r"<code>\1</code>", html))
    return markupsafe.Markup(html)


def render(template: str, **context: Any) -> str:
    """The template ``templates/<template>`` filled with ``context`` (escaped)."""
    return str(environment().get_template(template).render(**context))


def markup(html: str) -> Any:
    """HTML this code built itself (never learner text), to be shown as is."""
    import markupsafe

    return markupsafe.Markup(html)
