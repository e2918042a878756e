"""A printable one-page cheat-sheet of the drawing rules, drawn from the engine's table.

``baccarat-kit cheatsheet --out docs/cheat-sheet.html`` writes it (both languages on one
page, A4 when printed); the course ships it, and lessons 03–04 and the trainer link to it.
Every value on it is read from :mod:`baccarat_kit.rules` and :mod:`baccarat_kit.cards`.

>>> page = html_page()
>>> page.count('class="bk-draw"') + page.count('class="bk-stand"'), page.count('class="bk-stood"')  # 8 x 10 + 8 = 88
(80, 8)
"""

from __future__ import annotations

import html
from pathlib import Path
from typing import Any

from .cards import Rank
from .coup import banker_why
from .i18n import LANGUAGES, message
from .rules import (
    BANKER_DRAWS_WHEN_PLAYER_STOOD,
    NATURALS,
    PLAYER_DRAWS_ON,
    VALUES,
    banker_draws,
    format_values,
)

DEFAULT_OUT = Path("docs") / "cheat-sheet.html"


def _esc(text: object) -> str:
    return html.escape(str(text), quote=True)


def _both(key: str, **params: Any) -> str:
    zh, en = (message(key, lang, **params) for lang in LANGUAGES)
    return f'<span lang="zh-Hant">{_esc(zh)}</span> <span lang="en" class="en">{_esc(en)}</span>'


def html_page() -> str:
    """The whole cheat-sheet as one HTML document."""
    by_value: dict[int, list[str]] = {}
    for rank in Rank:
        by_value.setdefault(rank.value_points, []).append(rank.value)
    cards = ", ".join(f"{'/'.join(names)} = {v}" for v, names in sorted(by_value.items(), key=lambda kv: (kv[0] == 0, kv[0])))
    stood = set(range(8)) - BANKER_DRAWS_WHEN_PLAYER_STOOD
    player_stands = set(range(8)) - PLAYER_DRAWS_ON
    head = "".join(f'<th scope="col">{v}</th>' for v in VALUES)
    rows = []
    for t in range(8):
        cells = "".join(
            f'<td class="bk-{"draw" if banker_draws(t, v) else "stand"}">{"D" if banker_draws(t, v) else "S"}</td>'
            for v in VALUES)
        stood_cell = "D" if banker_draws(t, None) else "S"
        rows.append(f'<tr><th scope="row">{t}</th>{cells}<td class="bk-stood">{stood_cell}</td>'
                    f'<td class="why">{_esc(banker_why(t, "zh"))}<br><span class="en">{_esc(banker_why(t, "en"))}</span></td></tr>')
    steps = [
        _both("cheatsheet.cards", cards=cards),
        _both("cheatsheet.total"),
        _both("cheatsheet.natural", naturals=format_values(NATURALS)),
        _both("cheatsheet.player", draws=format_values(PLAYER_DRAWS_ON), stands=format_values(player_stands)),
        _both("cheatsheet.banker-stood", draws=format_values(BANKER_DRAWS_WHEN_PLAYER_STOOD),
              stands=format_values(stood)),
        _both("cheatsheet.banker-third"),
    ]
    items = "".join(f"<li>{s}</li>" for s in steps)
    return f"""<!DOCTYPE html>
<html lang="zh-Hant">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{_esc(message("cheatsheet.title", "zh"))} / {_esc(message("cheatsheet.title", "en"))}</title>
<style>
@page {{ size: A4; margin: 12mm; }}
body {{ font-family: sans-serif; font-size: 11pt; color: #111; max-width: 190mm; margin: auto; }}
h1 {{ font-size: 15pt; margin: 0 0 4pt; }}
.en {{ color: #333; }}
ol li {{ margin-bottom: 3pt; }}
table {{ border-collapse: collapse; margin-top: 6pt; }}
th, td {{ border: 1px solid #666; padding: 2pt 5pt; text-align: center; }}
td.why {{ text-align: left; font-size: 9pt; }}
.bk-draw {{ background: #dbeafe; font-weight: bold; }}
.bk-stand {{ background: #fff; }}
.bk-stood {{ background: #eee; }}
caption {{ text-align: left; font-weight: bold; margin-bottom: 3pt; }}
footer {{ font-size: 8pt; margin-top: 6pt; }}
p.scope {{ font-size: 9pt; margin: 0 0 4pt; }}
</style>
</head>
<body>
<h1>{_esc(message("cheatsheet.title", "zh"))} <span lang="en" class="en">{_esc(message("cheatsheet.title", "en"))}</span></h1>
<p class="scope">{_both("cheatsheet.scope")}</p>
<ol>{items}</ol>
<table>
<caption>{_both("cheatsheet.matrix")}</caption>
<thead><tr><th scope="col">{_both("cheatsheet.corner")}</th>{head}<th scope="col">{_both("cheatsheet.stood")}</th><th scope="col">{_both("cheatsheet.why")}</th></tr></thead>
<tbody>{"".join(rows)}</tbody>
</table>
<footer>{_both("cheatsheet.footer")}</footer>
</body>
</html>
"""


def write(out: Path = DEFAULT_OUT) -> Path:
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(html_page(), encoding="utf-8")
    return out


def register(sub: Any) -> None:
    p = sub.add_parser("cheatsheet", help="write the printable one-page rules cheat-sheet / 產生一頁規則速查表",
                       description="Write the drawing rules, from the engine's table, as one printable HTML page.")
    p.add_argument("--out", default=str(DEFAULT_OUT), help=f"output file (default {DEFAULT_OUT})")
    p.set_defaults(func=lambda args: print(write(Path(args.out))) or 0)
