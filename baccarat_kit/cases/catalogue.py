"""Reading case files: the schema, the :class:`Case` and :class:`Catalogue` objects.

A case file is TOML (read with :mod:`tomllib`) with ``schema_version = 1`` and a list of
``[[case]]`` tables. A case is either a **full hand** (``cards`` in deal order, with the
expected ``winner``, ``player_total`` and ``banker_total``) or a **partial case** (the
totals, third-card values and decisions a source gives, no invented cards), or a
**card-value example** (``hand`` or ``values`` with the expected ``total``). Variants are
``[[case.variant]]`` tables with a ``change``; their ids are derived from the case id.

Every problem found while reading (invalid TOML, a missing or unknown key, a bad card,
a duplicate id, cards that run out) is collected as a :class:`Problem`, never raised
one at a time: :func:`read` returns them all, :func:`load` raises one
:class:`CaseFileError` that lists them all.
"""

from __future__ import annotations

import os
import re
import tomllib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any, Literal

from ..cards import Card, parse_cards
from ..errors import BaccaratError, NotEnoughCards
from ..i18n import message, normalize_language
from .problems import CLAIM_KEYS, Problem

SCHEMA_VERSION = 1
SHIPPED = Path(__file__).resolve().parent
ENV_EXTRA = "BACCARAT_KIT_CASES"
"""Environment variable: extra case folders or files (separated by ``os.pathsep``) that
:func:`load` reads beside the shipped catalogue."""


WINNERS = ("player", "banker", "tie")
DECISIONS = ("draw", "stand")

_META_KEYS = ("id", "source", "basis", "title", "assumptions", "quote", "quote_en")
_HAND_KEYS = ("cards", "player_cards", "banker_cards", "hand", "values", "natural_totals")
_CASE_KEYS = (*_META_KEYS, *_HAND_KEYS, *CLAIM_KEYS, "bet", "variant")
_VARIANT_KEYS = ("change", *_HAND_KEYS, *CLAIM_KEYS, "bet")
_BET_KEYS = ("area", "stake", "returned", "net", "table")
_FULL_REQUIRED = ("winner", "player_total", "banker_total")
_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")
_TOML_AT = re.compile(r"\s*\(at line (\d+), column (\d+)\)\s*$")


class CaseFileError(BaccaratError):
    """Case files that cannot be loaded; the message lists every problem found."""

    def message(self, lang: str | None = None) -> str:
        lang = normalize_language(lang)
        params = {k: (v(lang) if callable(v) else v) for k, v in self.params.items()}
        return message(self.key, lang, **params)

    @property
    def problems(self) -> tuple[Problem, ...]:
        """The problems, as :class:`Problem` records."""
        lines = self.params.get("problems")
        return lines.problems if isinstance(lines, _Lines) else ()


@dataclass(frozen=True, slots=True)
class BetClaim:
    """A stake a source gives with the amounts it says come back (BCR-001: 100 → 200)."""

    area: str
    stake: Decimal
    returned: Decimal | None
    net: Decimal | None
    table: str = "commission"


@dataclass(eq=False, slots=True)
class Case:
    """One worked case (or a variant of one) from a source page, with its claims.

    ``claims`` maps claim names (see :data:`CLAIM_KEYS`) to the expected values as
    normalised data: totals and third-card values as ints, decisions ``"draw"``/``"stand"``,
    ``unused`` as a tuple of cards. ``givens`` holds what the source gives without claiming:
    the two-card hands of a partial case, a card-value example's ``hand``/``values``, or
    ``natural_totals``.
    """

    id: str
    source: str
    basis: str
    file: str
    kind: Literal["full", "partial"]
    cards: tuple[Card, ...] | None
    claims: dict[str, Any]
    givens: dict[str, Any]
    bets: tuple[BetClaim, ...] = ()
    quote: str | None = None
    quote_en: str | None = None
    parent: Case | None = None
    variants: tuple[Case, ...] = ()
    _titles: dict[str, str] = field(default_factory=dict)
    _assumptions: dict[str, str] | None = None
    _changes: dict[str, str] | None = None
    _coup: Any = None

    def title(self, lang: str | None = None) -> str:
        """The case's title; a variant's is its parent's title marked as a variant."""
        lang = normalize_language(lang)
        if self.parent is not None:
            return message("cases.variant-title", lang, title=self.parent.title(lang))
        return self._titles[lang]

    def basis_text(self, lang: str | None = None) -> str:
        """``basis`` for readers: the regulators' names as cited, 003's and 004's in words.

        >>> from baccarat_kit.cases import load
        >>> load()["TW-A"].basis_text("zh"), load()["HK-A"].basis_text("zh")
        ('標準 Punto Banco', 'Massachusetts Gaming Commission, Baccarat 4.11.2024')
        """
        key = {"standard Punto Banco": "cases.basis.standard", "—": "cases.basis.none"}.get(self.basis)
        return self.basis if key is None else message(key, normalize_language(lang))

    def source_text(self, lang: str | None = None) -> str:
        """``source`` for readers: the page id (``"000"``), or for a case of the instructor's
        own (``source = "instructor"``) its label.

        >>> from baccarat_kit.cases import load
        >>> load()["HK-A"].source_text("en")
        '002'
        """
        if self.source == "instructor":
            return message("cases.source.instructor", normalize_language(lang))
        return self.source

    def assumptions(self, lang: str | None = None) -> str | None:
        """The assumptions the source states (適用版本／假設), or None."""
        own = self._assumptions if self.parent is None else self.parent._assumptions
        return None if own is None else own[normalize_language(lang)]

    def translation(self, lang: str | None = None) -> str | None:
        """The kit's English translation of the source's quote (``quote_en``) for an English
        reader; None in Chinese (the quote is the source's own words) or when there is none.

        >>> from baccarat_kit.cases import load
        >>> load()["HK-A"].translation("en")[:40], load()["HK-A"].translation("zh")
        ('Player 5 → third card 8; banker 3 | stan', None)
        """
        return self.quote_en if normalize_language(lang) == "en" else None

    def change(self, lang: str | None = None) -> str | None:
        """What a variant changed (the source's 只改一個條件 sentence); None for a case."""
        return None if self._changes is None else self._changes[normalize_language(lang)]

    @property
    def is_variant(self) -> bool:
        return self.parent is not None

    @property
    def is_value_example(self) -> bool:
        """A card-value example (7 + 8 = 15 → 5) rather than a coup or a drawing decision."""
        return "hand" in self.givens or "values" in self.givens

    def coup(self) -> Any:
        """The engine's :class:`~baccarat_kit.coup.Coup` for a full hand, else None."""
        return self._coup

    def outcome(self) -> Any:
        """What the engine makes of this case's cards or givens (a ``verify.Outcome``)."""
        from .verify import outcome

        return outcome(self)

    def check(self) -> tuple[Problem, ...]:
        """Every claim of this case that the engine does not confirm (empty: all hold)."""
        from .verify import check_case

        return check_case(self)

    def rules(self) -> tuple[str, ...]:
        """The engine's rule ids this case exercises (for ``cases coverage``)."""
        return tuple(self.outcome().rules)

    def explain(self, lang: str | None = None, *, quote: bool = True) -> str:
        """The case with the engine's full explained trace (what ``cases show`` prints);
        ``quote=False`` leaves out the source's words (and their translation)."""
        from .verify import explain_case

        return explain_case(self, lang, quote=quote)

    def __repr__(self) -> str:
        return f"<Case {self.id} ({self.kind}, source {self.source})>"


class Catalogue:
    """Cases from one or more files. Iterates the cases (variants hang off ``variants``);
    ``catalogue["BCR-004"]`` and ``catalogue["BCR-004-variant"]`` give a case or a variant.
    """

    def __init__(self, cases: Iterable[Case], files: Iterable[str] = ()) -> None:
        self._cases = tuple(cases)
        self.files = tuple(files)
        self._index: dict[str, Case] = {}
        for case in self.all():
            self._index.setdefault(case.id, case)

    def __iter__(self) -> Iterator[Case]:
        return iter(self._cases)

    def __len__(self) -> int:
        return len(self._cases)

    def __contains__(self, case_id: object) -> bool:
        return case_id in self._index

    def __getitem__(self, case_id: str) -> Case:
        try:
            return self._index[case_id]
        except KeyError:
            raise UnknownCase(case_id, self.ids()) from None

    def all(self) -> tuple[Case, ...]:
        """Every case and variant, each case followed by its variants."""
        out: list[Case] = []
        for case in self._cases:
            out.append(case)
            out.extend(case.variants)
        return tuple(out)

    def ids(self) -> tuple[str, ...]:
        """Every case and variant id, in file order."""
        return tuple(c.id for c in self.all())

    def by_source(self, source: str) -> tuple[Case, ...]:
        """The cases (not variants) taken from one source page ("000" … "004")."""
        return tuple(c for c in self._cases if c.source == source)

    def check(self) -> tuple[Problem, ...]:
        """Every claim problem of every case and variant."""
        return tuple(p for case in self.all() for p in case.check())

    def coverage(self) -> Any:
        """Which cells of the banker matrix (and naturals) the catalogue exercises."""
        from .coverage import coverage

        return coverage(self)

    def __repr__(self) -> str:
        return f"<Catalogue: {len(self._cases)} cases, {len(self.all())} with variants>"


class UnknownCase(BaccaratError, KeyError):
    """A case id that is not in the catalogue."""

    def __init__(self, case_id: str, ids: Iterable[str]) -> None:
        import difflib

        ids = list(ids)
        near = difflib.get_close_matches(case_id, ids, n=5, cutoff=0.5) or ids[:5]
        super().__init__("cases.unknown-id", value=case_id, choices=", ".join(near))

    def __str__(self) -> str:
        return self.message()


# ---------------------------------------------------------------- reading


def shipped_files() -> tuple[Path, ...]:
    """The case files shipped with the kit."""
    return tuple(sorted(SHIPPED.glob("*.toml")))


def _expand(paths: Iterable[str | os.PathLike[str]]) -> tuple[list[tuple[Path, str]], list[Problem]]:
    files: list[tuple[Path, str]] = []
    problems: list[Problem] = []
    for raw in paths:
        p = Path(raw).expanduser()
        if p.is_dir():
            found = sorted(p.glob("*.toml"))
            if not found:
                problems.append(Problem(str(p), None, None, "cases.err.empty-folder", {}, "schema"))
            files.extend((f, str(p / f.name)) for f in found)
        elif p.is_file():
            files.append((p, str(raw)))
        else:
            problems.append(Problem(str(raw), None, None, "cases.err.no-such-path", {}, "schema"))
    return files, problems


def read(
    paths: Iterable[str | os.PathLike[str]] | str | os.PathLike[str] | None = None,
    *,
    shipped: bool | None = None,
) -> tuple[Catalogue, tuple[Problem, ...]]:
    """Read case files and return the catalogue with every schema problem found.

    ``paths``: files or folders of ``*.toml``; ``None`` reads the shipped catalogue plus any
    folders named in ``$BACCARAT_KIT_CASES``. ``shipped=True`` reads the shipped catalogue
    beside the given paths (so a duplicate id across them is found).
    Cases with a schema problem are left out of the catalogue.
    """
    if paths is None:
        extra = [p for p in os.environ.get(ENV_EXTRA, "").split(os.pathsep) if p.strip()]
        paths_list: list[str | os.PathLike[str]] = list(extra)
        shipped = True if shipped is None else shipped
    elif isinstance(paths, str | os.PathLike):
        paths_list = [paths]
    else:
        paths_list = list(paths)
    entries: list[tuple[Path, str]] = []
    if shipped:
        entries.extend((f, f.name) for f in shipped_files())
    found, problems = _expand(paths_list)
    entries.extend(found)
    cases: list[Case] = []
    seen: dict[str, str] = {}
    for path, label in entries:
        file_cases, file_problems = _read_file(path, label)
        problems.extend(file_problems)
        for case in file_cases:
            clash = next((c.id for c in (case, *case.variants) if c.id in seen), None)
            if clash is not None:
                problems.append(Problem(label, clash, "id", "cases.err.duplicate",
                                        {"other": seen[clash]}, "schema"))
                continue
            for c in (case, *case.variants):
                seen[c.id] = label
            cases.append(case)
    return Catalogue(cases, [label for _, label in entries]), tuple(problems)


def check(
    paths: Iterable[str | os.PathLike[str]] | str | os.PathLike[str] | None = None,
    *,
    shipped: bool | None = None,
    sources: str | os.PathLike[str] | None = None,
) -> tuple[Catalogue, tuple[Problem, ...]]:
    """Read case files and check everything in them: the catalogue and every problem (schema
    first, then the engine's, then the quotes').

    Beyond :func:`read`: an id of the given files that the shipped catalogue already has is a
    problem even without ``shipped=True`` (the two meet in ``$BACCARAT_KIT_CASES``, the lessons'
    CaseViewer; ``shipped=False`` leaves the shipped ids out, for an edited copy of a shipped
    file); each ``quote`` is checked against its source page, found by
    :func:`baccarat_kit.sources.find` (``sources``, ``$BACCARAT_KIT_SOURCES`` or beside the
    checkout; :mod:`.quotes`).

    >>> catalogue, problems = check()
    >>> [p for p in problems if p.kind != "unverified"]   # (no source pages: each file says so)
    []
    """
    from ..sources import find, where_looked
    from .quotes import check_quotes

    catalogue, problems = read(paths, shipped=shipped)
    clashes: list[Problem] = []
    if paths is not None and shipped is None:
        taken = {c.id: c.file for c in read([], shipped=True)[0].all()}
        for case in catalogue.all():
            if case.id in taken:
                clashes.append(Problem(case.file, case.id, "id", "cases.err.duplicate-shipped",
                                       {"other": taken[case.id]}, "schema"))
    quotes = check_quotes(catalogue.all(), find(sources), where_looked(sources))
    return catalogue, (*problems, *clashes, *catalogue.check(), *quotes)


def load(
    path: Iterable[str | os.PathLike[str]] | str | os.PathLike[str] | None = None,
    *,
    shipped: bool | None = None,
) -> Catalogue:
    """The case catalogue: ``path`` a file or folder (or several); ``None`` the shipped one.

    Raises :class:`CaseFileError` listing every schema problem if any file is malformed.

    >>> cat = load()
    >>> cat["BCR-004"].cards
    (Card('A'), Card('2'), Card('2'), Card('3'), Card('3'))
    >>> cat["BCR-004-variant"].change("en")[:52]
    "Only the player's third card changes from 3 to 4: pl"
    """
    catalogue, problems = read(path, shipped=shipped)
    if problems:
        raise CaseFileError(
            "cases.err.load", count=len(problems),
            problems=_Lines(problems),
        )
    return catalogue


class _Lines:
    """Problems rendered lazily in the language of the message that shows them."""

    def __init__(self, problems: Iterable[Problem]) -> None:
        self.problems = tuple(problems)

    def __call__(self, lang: str) -> str:
        return "\n".join("  " + p.message(lang) for p in self.problems)


# ---------------------------------------------------------------- one file


def _read_file(path: Path, label: str) -> tuple[list[Case], list[Problem]]:
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as err:
        return [], [Problem(label, None, None, "cases.err.encoding", {"detail": str(err)}, "toml")]
    except OSError as err:
        return [], [Problem(label, None, None, "cases.err.os", {"detail": err.strerror or str(err)},
                            "toml")]
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        detail = str(err)
        m = _TOML_AT.search(detail)
        line = m.group(1) if m else "?"
        column = m.group(2) if m else "?"
        detail = _TOML_AT.sub("", detail)
        return [], [Problem(label, None, None, "cases.err.toml",
                            {"line": line, "column": column, "detail": detail}, "toml")]
    reader = _FileReader(label)
    return reader.read(data), reader.problems


class _FileReader:
    def __init__(self, label: str) -> None:
        self.label = label
        self.problems: list[Problem] = []

    def problem(self, case: str | None, fld: str | None, key: str, **params: Any) -> None:
        self.problems.append(Problem(self.label, case, fld, key, params, "schema"))

    def read(self, data: dict[str, Any]) -> list[Case]:
        for key in data:
            if key not in ("schema_version", "case"):
                self.problem(None, key, "cases.err.unknown-top", field=key,
                             choices="schema_version, [[case]]")
        version = data.get("schema_version")
        if version is None:
            self.problem(None, "schema_version", "cases.err.no-version", version=SCHEMA_VERSION)
        elif version != SCHEMA_VERSION:
            self.problem(None, "schema_version", "cases.err.version", value=version,
                         version=SCHEMA_VERSION)
            return []
        raw_cases = data.get("case", [])
        if not isinstance(raw_cases, list) or not all(isinstance(c, dict) for c in raw_cases):
            self.problem(None, "case", "cases.err.not-cases")
            return []
        if not raw_cases:
            self.problem(None, "case", "cases.err.no-cases")
        out: list[Case] = []
        ids_here: set[str] = set()
        for index, raw in enumerate(raw_cases, 1):
            case = self.case(raw, index, ids_here)
            if case is not None:
                out.append(case)
        return out

    # -- one case ---------------------------------------------------------

    def case(self, raw: dict[str, Any], index: int, ids_here: set[str]) -> Case | None:
        before = len(self.problems)
        cid = raw.get("id")
        if not isinstance(cid, str) or not _ID.match(cid):
            name = f"#{index}"
            if cid is None:
                self.problem(name, "id", "cases.err.missing", field="id")
            else:
                self.problem(name, "id", "cases.err.bad-id", value=repr(cid))
            cid = name
        elif cid in ids_here:
            self.problem(cid, "id", "cases.err.duplicate", other=self.label)
        ids_here.add(cid)
        self._unknown(cid, raw, _CASE_KEYS, "")
        for key in ("source", "basis"):
            if key not in raw:
                self.problem(cid, key, "cases.err.missing", field=key)
            elif not isinstance(raw[key], str) or not raw[key].strip():
                self.problem(cid, key, "cases.err.type", field=key, expected=_text("text"),
                             value=repr(raw[key]))
        titles = self._texts(cid, raw, "title", required=True)
        assumptions = self._texts(cid, raw, "assumptions", required=False)
        quote = raw.get("quote")
        if quote is not None and not isinstance(quote, str):
            self.problem(cid, "quote", "cases.err.type", field="quote", expected=_text("text"),
                         value=repr(quote))
        quote_en = raw.get("quote_en")
        if quote_en is not None and (not isinstance(quote_en, str) or not quote_en.strip()):
            self.problem(cid, "quote_en", "cases.err.type", field="quote_en", expected=_text("text"),
                         value=repr(quote_en))
        elif quote_en is not None and quote is None:
            self.problem(cid, "quote_en", "cases.err.translation-alone")
        body = self.body(cid, raw)
        variants_raw = raw.get("variant", [])
        if not isinstance(variants_raw, list) or not all(isinstance(v, dict) for v in variants_raw):
            self.problem(cid, "variant", "cases.err.type", field="variant",
                         expected=_text("tables"), value=repr(variants_raw))
            variants_raw = []
        variants: list[Case] = []
        for n, vraw in enumerate(variants_raw, 1):
            vid = f"{cid}-variant" if n == 1 else f"{cid}-variant-{n}"
            self._unknown(vid, vraw, _VARIANT_KEYS, "")
            changes = self._texts(vid, vraw, "change", required=True)
            vbody = self.body(vid, vraw)
            if vbody is not None and changes is not None:
                variants.append(Case(
                    id=vid, source=str(raw.get("source", "")), basis=str(raw.get("basis", "")),
                    file=self.label, _changes=changes, **vbody,
                ))
        if len(self.problems) > before or body is None or titles is None:
            return None
        case = Case(
            id=cid, source=raw["source"], basis=raw["basis"], file=self.label, quote=quote,
            quote_en=None if quote_en is None else quote_en.strip("\n"), _titles=titles, _assumptions=assumptions, **body,
        )
        for v in variants:
            v.parent = case
        case.variants = tuple(variants)
        return case

    def _unknown(self, cid: str, raw: dict[str, Any], allowed: tuple[str, ...], prefix: str) -> None:
        for key in raw:
            if key not in allowed:
                self.problem(cid, prefix + key, "cases.err.unknown", field=prefix + key,
                             choices=", ".join(allowed))

    def _texts(self, cid: str, raw: dict[str, Any], key: str, *, required: bool) -> dict[str, str] | None:
        value = raw.get(key)
        if value is None:
            if required:
                self.problem(cid, key, "cases.err.missing", field=f"{key}.zh, {key}.en")
            return None
        if not isinstance(value, dict):
            self.problem(cid, key, "cases.err.type", field=key, expected=_text("zh-en"),
                         value=repr(value))
            return None
        ok = True
        for lang in ("zh", "en"):
            if not isinstance(value.get(lang), str) or not value[lang].strip():
                self.problem(cid, f"{key}.{lang}", "cases.err.missing", field=f"{key}.{lang}")
                ok = False
        for extra in value:
            if extra not in ("zh", "en"):
                self.problem(cid, f"{key}.{extra}", "cases.err.unknown", field=f"{key}.{extra}",
                             choices=f"{key}.zh, {key}.en")
                ok = False
        return {"zh": value["zh"], "en": value["en"]} if ok else None

    # -- the hand, the claims, the bets ---------------------------------------

    def body(self, cid: str, raw: dict[str, Any]) -> dict[str, Any] | None:
        before = len(self.problems)
        givens: dict[str, Any] = {}
        claims: dict[str, Any] = {}
        cards: tuple[Card, ...] | None = None
        if "cards" in raw:
            cards = self._cards(cid, "cards", raw["cards"])
            for other in ("player_cards", "banker_cards", "hand", "values", "natural_totals"):
                if other in raw:
                    self.problem(cid, other, "cases.err.conflict", field=other, other="cards")
        for key in ("player_cards", "banker_cards"):
            if key in raw:
                two = self._cards(cid, key, raw[key])
                if two is not None and len(two) != 2:
                    self.problem(cid, key, "cases.err.two-cards", field=key, count=len(two))
                elif two is not None:
                    givens[key] = two
        if "hand" in raw:
            hand = self._cards(cid, "hand", raw["hand"])
            if hand is not None:
                if not hand:
                    self.problem(cid, "hand", "cases.err.type", field="hand",
                                 expected=_text("cards"), value=repr(raw["hand"]))
                else:
                    givens["hand"] = hand
        for key in ("values", "natural_totals"):
            if key in raw:
                vals = raw[key]
                if (not isinstance(vals, list) or not vals
                        or not all(_is_int(v) and 0 <= v <= 9 for v in vals)):
                    self.problem(cid, key, "cases.err.type", field=key, expected=_text("values"),
                                 value=repr(vals))
                else:
                    givens[key] = tuple(vals)
        if "hand" in givens and "values" in givens:
            self.problem(cid, "values", "cases.err.conflict", field="values", other="hand")
        for key in CLAIM_KEYS:
            if key in raw:
                value = self._claim(cid, key, raw[key])
                if value is not _BAD:
                    claims[key] = value
        value_example = "hand" in raw or "values" in raw
        if value_example:
            for key in claims:
                if key not in ("sum", "total"):
                    self.problem(cid, key, "cases.err.value-only", field=key)
            if "total" not in raw:
                self.problem(cid, "total", "cases.err.missing", field="total")
        else:
            for key in ("sum", "total"):
                if key in raw:
                    self.problem(cid, key, "cases.err.needs-hand", field=key)
        bets = self._bets(cid, raw.get("bet", []))
        kind: Literal["full", "partial"] = "full" if "cards" in raw else "partial"
        coup = None
        if kind == "full":
            for key in _FULL_REQUIRED:
                if key not in raw:
                    self.problem(cid, key, "cases.err.missing", field=key)
            if cards is not None:
                from ..coup import play

                try:
                    coup = play(cards)
                except NotEnoughCards as err:
                    self.problem(cid, "cards", "cases.err.run-out", field="cards",
                                 detail=err.message)
        else:
            if bets:
                self.problem(cid, "bet", "cases.err.bet-needs-cards")
            if not any(k in raw for k in CLAIM_KEYS) and not value_example:
                self.problem(cid, None, "cases.err.no-claims", choices=", ".join(CLAIM_KEYS))
            if "unused" in claims:
                self.problem(cid, "unused", "cases.err.needs-cards", field="unused")
        if len(self.problems) > before:
            return None
        return {"kind": kind, "cards": cards, "claims": claims, "givens": givens,
                "bets": bets, "_coup": coup}

    def _cards(self, cid: str, key: str, value: Any) -> tuple[Card, ...] | None:
        if not isinstance(value, str | list):
            self.problem(cid, key, "cases.err.type", field=key, expected=_text("cards"),
                         value=repr(value))
            return None
        try:
            return parse_cards(value)
        except BaccaratError as err:
            self.problem(cid, key, "cases.err.card", field=key, detail=err.message)
            return None

    def _claim(self, cid: str, key: str, value: Any) -> Any:
        def bad(expected: str) -> object:
            self.problem(cid, key, "cases.err.type", field=key, expected=_text(expected),
                         value=repr(value))
            return _BAD

        if key in ("player_first_total", "banker_first_total", "player_total", "banker_total",
                   "total"):
            return value if _is_int(value) and 0 <= value <= 9 else bad("total")
        if key == "sum":
            return value if _is_int(value) and value >= 0 else bad("sum")
        if key in ("player_third", "banker_third"):
            if _is_int(value) and 0 <= value <= 9:
                return value
            if isinstance(value, str):
                try:
                    (card,) = parse_cards(value)
                except (BaccaratError, ValueError):
                    return bad("third")
                return card.value
            return bad("third")
        if key == "natural":
            return value if isinstance(value, bool) else bad("bool")
        if key in ("player_decision", "banker_decision"):
            return value if value in DECISIONS else bad("decision")
        if key == "winner":
            return value if value in WINNERS else bad("winner")
        if key == "unused":
            cards = self._cards(cid, key, value)
            return _BAD if cards is None else cards
        raise AssertionError(key)  # pragma: no cover - CLAIM_KEYS and this function agree

    def _bets(self, cid: str, raw: Any) -> tuple[BetClaim, ...]:
        from ..settlement import bet_area, pay_table, stake_amount

        if not isinstance(raw, list) or not all(isinstance(b, dict) for b in raw):
            self.problem(cid, "bet", "cases.err.type", field="bet", expected=_text("tables"),
                         value=repr(raw))
            return ()
        out: list[BetClaim] = []
        for n, bet in enumerate(raw, 1):
            where = f"bet[{n}]"
            self._unknown(cid, bet, _BET_KEYS, where + ".")
            try:
                area = bet_area(bet["area"])
                stake = stake_amount(bet["stake"])
                table = str(bet.get("table", "commission"))
                pay_table(table)
            except KeyError as err:
                self.problem(cid, f"{where}.{err.args[0]}", "cases.err.missing",
                             field=f"{where}.{err.args[0]}")
                continue
            except BaccaratError as err:
                self.problem(cid, where, "cases.err.bet", field=where, detail=err.message)
                continue
            amounts: dict[str, Decimal | None] = {}
            for key in ("returned", "net"):
                v = bet.get(key)
                if v is None:
                    amounts[key] = None
                    continue
                try:
                    if isinstance(v, bool) or not isinstance(v, int | str):
                        raise InvalidOperation
                    amounts[key] = Decimal(str(v))
                except InvalidOperation:
                    self.problem(cid, f"{where}.{key}", "cases.err.type", field=f"{where}.{key}",
                                 expected=_text("amount"), value=repr(v))
                    amounts[key] = None
            if amounts["returned"] is None and amounts["net"] is None:
                self.problem(cid, where, "cases.err.missing", field=f"{where}.returned / {where}.net")
                continue
            out.append(BetClaim(area, stake, amounts["returned"], amounts["net"], table))
        return tuple(out)


_BAD = object()


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _text(kind: str) -> Any:
    """A lazily translated description of an expected type, for schema messages."""
    return lambda lang: message(f"cases.expect.{kind}", lang)
