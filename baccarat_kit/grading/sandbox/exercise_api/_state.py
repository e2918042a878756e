"""What one grading run told the exercise API (set once, before any learner code runs), and the
sentence an absent name raises. Standard library only."""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import sys
from typing import Any

_data: dict[str, Any] = {}
_lang = ["zh"]

ABSENT_DEFAULT = {
    "zh": "{name}：這次評分的 Python 裡沒有套件的規則程式（只有練習用的介面），請自己算出答案。",
    "en": "{name}: the kit's rule code is not in the grading run (only the exercise interface is): "
          "work the answer out yourself.",
}
"""Used only when no run configured the API (the grader always hands in the locale's text)."""


def configure(data: dict[str, Any]) -> None:
    """Set the run's data: exercise, keyed learner, hands, settlement, options, messages, language."""
    _data.clear()
    _data.update(data)
    if data.get("lang") in ("zh", "en"):
        _lang[0] = data["lang"]


def data() -> dict[str, Any]:
    return _data


def set_language(lang: Any) -> str:
    text = str(lang).strip().lower()
    if text.startswith("zh") or text in ("中文", "tw"):
        _lang[0] = "zh"
    elif text.startswith("en"):
        _lang[0] = "en"
    else:
        raise ValueError(f"{lang!r} is not a language: use 'zh' or 'en'")
    return _lang[0]


def language() -> str:
    return _lang[0]


def text(key: str, lang: str | None = None, **params: Any) -> str:
    """The message ``key`` the grader handed in (zh and en, from the kit's locale), in ``lang``."""
    texts = (_data.get("messages") or {}).get(key) or (ABSENT_DEFAULT if key == "absent" else {"zh": key, "en": key})
    template = texts.get(lang or _lang[0]) or texts.get("en") or key
    try:
        return template.format(**params)
    except (KeyError, IndexError, ValueError):
        return template


class AbsentError(AttributeError):
    """A name of the kit that the grading run does not hold (``bk.play``): both languages in one
    sentence."""


class AbsentModule(ModuleNotFoundError):
    """A module of the kit that the grading run does not hold (``import baccarat_kit.rules``)."""


def absent_error(name: str, attribute: bool = False) -> Exception:
    both = text("absent", "zh", name=name) + " / " + text("absent", "en", name=name)
    return AbsentError(both) if attribute else AbsentModule(both, name=name)


class _Absent(importlib.abc.MetaPathFinder):
    """Refuses every ``baccarat_kit.…`` module that is not part of the API, with the sentence."""

    def __init__(self, package: str, own: tuple[str, ...]) -> None:
        self.package = package
        self.own = {f"{package}.{m}" for m in own}

    def find_spec(self, fullname: str, path: Any = None, target: Any = None) -> Any:
        if fullname.startswith(self.package + ".") and fullname not in self.own:
            raise absent_error(fullname.replace(self.package, "bk", 1) if self.package == "baccarat_kit"
                               else fullname)
        return None


def install_finder(package: str, own: tuple[str, ...]) -> None:
    if package != "baccarat_kit":  # imported on the host under its own name (tests): no finder
        return
    if not any(isinstance(f, _Absent) for f in sys.meta_path):
        sys.meta_path.insert(0, _Absent(package, own))
