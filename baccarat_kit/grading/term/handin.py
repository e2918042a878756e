"""Who handed a graded file in, and when: from where ``collect`` took it, never from the notebook.

:func:`stamp` fills these fields of each graded :class:`~..records.Submission` of a batch:

* ``owner`` and ``learner``: the learner folder (Hub user) ``collect`` took the file from; the
  notebook's ``LEARNER_ID`` is kept as ``claimed_id``, shown to the instructor, and flagged
  (``identity_mismatch``) only when it names another learner (:func:`.gradebook.mark_mismatches`).
  A file graded without collect has no owner: its claim is then all there is.
* ``submitted_at``: the time of the collect that took it (``time_source`` "collect"). The same
  bytes collected again later keep the earlier time. Without a manifest only the file's
  modification time is known, which the learner can set: ``time_source`` "mtime" and a warning.
* ``deadline`` (the learner's own from a class list, else the one given), ``late`` and the late
  policy's ``penalty``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path

from ...i18n import both
from ..records import SELF_STUDY_ID, Submission
from .collect import clock, is_late, iso, manifest_entry, parse_deadline, untrusted_manifest
from .deadlines import LatePenalty


def stamp(paths: Sequence[Path], subs: Sequence[Submission], deadline: str | None = None,
          deadlines: Mapping[str, str] | None = None, penalty: LatePenalty | None = None,
          known: Sequence[str] = ()) -> int:
    """Fill owner, identity, hand-in time and lateness of ``subs`` (see the module docstring);
    returns how many rows have a real identity mismatch."""
    from .gradebook import mark_mismatches

    own = {k.casefold(): v for k, v in (deadlines or {}).items()}  # a list's "Alice" is the hub's "alice"
    for path, sub in zip(paths, subs, strict=True):
        sub.claimed_id = sub.learner.strip()
        entry = manifest_entry(path)
        if entry is not None:
            sub.owner = str(entry.get("owner") or "") or None
            sub.submitted_at = entry.get("submitted_at")
            sub.file_mtime = entry.get("file_mtime")
            sub.time_source = "collect"
            recorded = entry.get("deadline")
        else:
            forged = untrusted_manifest(path)
            if forged is not None:  # placed where a learner writes: neither its owner nor its time counts
                sub.warnings.append(both("grading.warning.untrusted_manifest", path=str(forged)))
            try:
                sub.file_mtime = iso(datetime.fromtimestamp(path.stat().st_mtime, UTC))
            except (OSError, OverflowError, ValueError):
                sub.file_mtime = None
            sub.submitted_at = sub.file_mtime
            sub.time_source = "mtime"
            recorded = None
        sub.learner = sub.owner or sub.claimed_id
        sub.deadline = own.get(sub.learner.casefold()) or deadline or (str(recorded) if recorded else None)
        if sub.time_source == "mtime" and sub.submitted_at and not plausible(sub.submitted_at, sub.deadline):
            sub.warnings.append(both("grading.warning.mtime_impossible", when=sub.submitted_at))
            sub.submitted_at = None  # neither on time nor late: not known (and it never counts as the latest)
    _earliest_for_same_bytes(subs)
    for sub in subs:
        sub.late = is_late(sub.submitted_at, sub.deadline) if sub.submitted_at and sub.deadline else None
        if sub.late and penalty is not None and sub.submitted_at and sub.deadline:
            seconds = (parse_deadline(sub.submitted_at) - parse_deadline(sub.deadline)).total_seconds()
            sub.penalty = penalty.factor(seconds)
            sub.late_policy = penalty.text
        if sub.time_source == "mtime" and sub.deadline:
            sub.warnings.append(both("grading.warning.mtime_deadline"))
        if sub.status == "ok" and not sub.claimed_id and not sub.owner:
            sub.warnings.append(both("grading.warning.no_learner_id", owner="-"))
        if sub.status == "ok" and sub.claimed_id == SELF_STUDY_ID:  # the course's own variant
            sub.warnings.append(both("grading.warning.self_study_id", id=SELF_STUDY_ID))
    # (a copy handed in with no answer, "not_attempted", claims no one's work: no flag either way)
    flags = mark_mismatches([(s.owner, "" if s.status == "not_attempted" else s.claimed_id) for s in subs], known)
    for sub, flag in zip(subs, flags, strict=True):
        sub.identity_mismatch = flag
        if flag and sub.owner:
            sub.warnings.append(both("grading.warning.other_owner", learner=sub.claimed_id, owner=sub.owner))
        elif flag:  # not collected: its claim names a learner who was
            sub.warnings.append(both("grading.warning.claim_not_collected", learner=sub.claimed_id))
    return sum(flags)


TERM_DAYS = 366
"""A file's modification time more than this before its deadline is no time of this term."""


def plausible(moment: str, deadline: str | None) -> bool:
    """Whether a file's modification time can be a hand-in of this term: not after the grader's
    clock (an hour allowed for a file server's), not before :data:`TERM_DAYS` before the deadline
    (with no deadline: not before 2000). A learner sets 2100 or 1970 with ``touch -d``; such a
    time made a loose file late (its score cut to 0) or on time, and counted as her latest.

    >>> plausible("2026-11-30T10:00:00Z", "2026-12-01T00:00:00Z"), plausible("1970-01-02T00:00:00Z", None)
    (True, False)
    >>> plausible("2100-01-01T00:00:00Z", None), plausible("2024-01-01T00:00:00Z", "2026-12-01T00:00:00Z")
    (False, False)
    """
    when = parse_deadline(moment)
    floor = (parse_deadline(deadline) - timedelta(days=TERM_DAYS) if deadline
             else datetime(2000, 1, 1, tzinfo=UTC))
    return floor <= when <= clock() + timedelta(hours=1)


def _earliest_for_same_bytes(subs: Sequence[Submission]) -> None:
    """A file collected again unchanged (same owner, exercise and bytes) was handed in when first collected."""
    first: dict[tuple[str, str, str], str] = {}
    for s in subs:
        if s.time_source == "collect" and s.owner and s.sha256 and s.submitted_at:
            key = (s.owner, s.exercise or "", s.sha256)
            first[key] = min(first.get(key, s.submitted_at), s.submitted_at)
    for s in subs:
        key = (s.owner or "", s.exercise or "", s.sha256)
        if s.time_source == "collect" and key in first:
            s.submitted_at = first[key]


def case_clashes(owners: Sequence[str | None]) -> list[list[str]]:
    """Learner folders (owners) whose names differ only in case (``Alice`` and ``alice``): the
    gradebook replaces rows by owner without case, the LMS files list owners as written, so such a
    pair would be one learner in one place and two in another; ``grade`` refuses it.

    >>> case_clashes(["alice", "bob", "Alice", None, "alice", "ALICE"])
    [['ALICE', 'Alice', 'alice']]
    """
    spellings: dict[str, set[str]] = {}
    for owner in owners:
        if owner:
            spellings.setdefault(owner.strip().casefold(), set()).add(owner)
    return [sorted(names) for _key, names in sorted(spellings.items()) if len(names) > 1]
