"""Learner-facing text in Traditional Chinese (default) and English.

Every message the kit shows lives in ``baccarat_kit/locale/*.toml`` as data:
one table per message key with a ``zh`` and an ``en`` string, formatted with
:py:meth:`str.format`. Each part of the kit keeps its own file (``core.toml``,
``cases.toml`` …) so translators edit data, not code.

>>> from baccarat_kit.i18n import message
>>> message("lang.name", "en")
'English'
>>> message("lang.name", "zh")
'繁體中文'
"""

from __future__ import annotations

import os
import tomllib
from functools import cache
from pathlib import Path
from typing import Any

LANGUAGES = ("zh", "en")
_ALIASES = {
    "zh": "zh",
    "zh-hant": "zh",
    "zh-tw": "zh",
    "zh_tw": "zh",
    "zh-hk": "zh",
    "tw": "zh",
    "中文": "zh",
    "en": "en",
    "en-us": "en",
    "en-gb": "en",
    "english": "en",
}
_current: str | None = None


# The base of the kit's error family lives here, with the messages it renders, so that
# errors.py (its subclasses) imports this module and never the other way round.
class BaccaratError(ValueError):
    """Base class of the kit's errors; the message key and its parameters are kept."""

    def __init__(self, key: str, /, **params: Any) -> None:
        self.key = key
        self.params = params
        super().__init__(key)

    def message(self, lang: str | None = None) -> str:
        """This error as a sentence in ``lang`` (``"zh"`` or ``"en"``; default: current)."""
        return message(self.key, lang, **self.params)

    def __str__(self) -> str:
        return self.message()


class LanguageError(BaccaratError):
    """A language the kit does not speak."""


def normalize_language(lang: str | None) -> str:
    """Return ``"zh"`` or ``"en"`` for a language name, or the current default for ``None``.

    >>> normalize_language("zh-Hant"), normalize_language("EN")
    ('zh', 'en')
    """
    if lang is None:
        return get_language()
    key = str(lang).strip().lower()
    if key in _ALIASES:
        return _ALIASES[key]
    raise LanguageError("error.language", value=lang, choices="zh (繁體中文), en (English)")


def get_language() -> str:
    """The default language: set by :func:`set_language`, else ``$BACCARAT_KIT_LANG``, else zh."""
    if _current is not None:
        return _current
    env = os.environ.get("BACCARAT_KIT_LANG")
    if env and env.strip().lower() in _ALIASES:
        return _ALIASES[env.strip().lower()]
    return "zh"


def set_language(lang: str) -> str:
    """Choose the default language of messages and explanations; returns it."""
    global _current
    _current = normalize_language(lang)
    return _current


@cache
def catalogue() -> dict[str, dict[str, str]]:
    """All messages of every ``locale/*.toml`` file, keyed by message key."""
    merged: dict[str, dict[str, str]] = {}
    folder = Path(__file__).resolve().parent / "locale"
    for entry in sorted(folder.glob("*.toml")):
        data = tomllib.loads(entry.read_text(encoding="utf-8"))
        for key, texts in _flatten(data):
            if key in merged:
                raise RuntimeError(f"message key {key!r} is defined twice (in {entry.name})")
            merged[key] = texts
    return merged


def _flatten(data: dict[str, Any], prefix: str = "") -> list[tuple[str, dict[str, str]]]:
    out: list[tuple[str, dict[str, str]]] = []
    for key, value in data.items():
        full = f"{prefix}{key}"
        if isinstance(value, dict) and "zh" in value and "en" in value:
            out.append((full, {"zh": value["zh"], "en": value["en"]}))
        elif isinstance(value, dict):
            out.extend(_flatten(value, full + "."))
    return out


class Term(str):
    """A parameter that is itself a message key, translated when the message is rendered.

    >>> message("rule.total_range", "zh", who=Term("who.banker"), value=12)[:7]
    '莊家點數 12'
    """

    __slots__ = ()


_OS_KEYS = {"ENOENT": "os.ENOENT", "EACCES": "os.EACCES", "EPERM": "os.EACCES", "EISDIR": "os.EISDIR",
            "ENOTDIR": "os.ENOTDIR", "ELOOP": "os.ELOOP", "EEXIST": "os.EEXIST", "ENOSPC": "os.ENOSPC",
            "EROFS": "os.EROFS"}


def os_reason(err: OSError) -> str:
    """Why an operating-system call failed, for a message's ``{detail}``: a :class:`Term` in the
    message's language for the usual reasons (the C library's ``strerror`` is English only), else
    the system's own text.

    >>> message("os.ENOENT", "zh"), os_reason(FileNotFoundError(2, "No such file or directory"))
    ('沒有這個檔案或資料夾', 'os.ENOENT')
    """
    import errno

    key = _OS_KEYS.get(errno.errorcode.get(err.errno or 0, ""))
    return Term(key) if key else (err.strerror or type(err).__name__)


def message(key: str, lang: str | None = None, /, **params: Any) -> str:
    """The message ``key`` in ``lang`` (default: the current language), formatted with ``params``.

    Parameters that are :class:`Term` are message keys themselves and are translated too.
    """
    texts = catalogue().get(key)
    if texts is None:
        raise KeyError(f"no message {key!r} in baccarat_kit/locale/*.toml")
    code = normalize_language(lang)
    rendered = {k: message(v, code) if isinstance(v, Term)
                else v.get(code, "") if isinstance(v, dict) and set(v) == set(LANGUAGES) else v
                for k, v in params.items()}  # a {"zh": …, "en": …} value in this language, never raw
    return texts[code].format(**rendered)


def both(key: str, /, **params: Any) -> dict[str, str]:
    """The message in every language: ``{"zh": …, "en": …}``."""
    return {lang: message(key, lang, **params) for lang in LANGUAGES}
