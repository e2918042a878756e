"""What crosses from the learner's kernel: plain values only, written without the json module."""

from __future__ import annotations

import json
from decimal import Decimal

import pytest

import baccarat_kit as bk
from baccarat_kit.grading.sandbox import _extract


class AlwaysEqual:
    def __eq__(self, other: object) -> bool:
        return True

    __hash__ = object.__hash__


class SneakyInt(int):
    def __eq__(self, other: object) -> bool:
        return True

    __hash__ = int.__hash__


@pytest.mark.parametrize("value", [AlwaysEqual(), SneakyInt(3), float("nan"), {1: 2}, [1, AlwaysEqual()],
                                   type("Str", (str,), {})("x"), b"bytes", Decimal("NaN")])
def test_non_plain_values_are_refused(value: object) -> None:
    with pytest.raises(_extract._Refused):
        _extract.plain(value)


def test_plain_values_round_trip_through_the_own_writer() -> None:
    value = {"a": [1, True, None, "閒家 🂡 \"q\" \\"], "b": (2, 3), "m": Decimal("95.00")}
    text = _extract.dumps(_extract.plain(value))
    assert text.isascii()
    assert json.loads(text) == {"a": [1, True, None, "閒家 🂡 \"q\" \\"], "b": [2, 3], "m": {"$decimal": "95.00"}}


def test_collect_reports_missing_bad_type_and_function_results() -> None:
    def mine(total: int, third: int | None) -> bool:
        return total < 3

    ns = {"LEARNER_ID": "s1", "a": 5, "b": AlwaysEqual(), "f": mine, "g": 7}
    qs = [{"id": "q1", "kind": "value", "answer": "a"}, {"id": "q2", "kind": "value", "answer": "b"},
          {"id": "q3", "kind": "value", "answer": "zzz"},
          {"id": "q4", "kind": "function", "answer": "f", "inputs": [[0, None], [5, 3]]},
          {"id": "q5", "kind": "function", "answer": "g", "inputs": [[0, None]]}]
    got = _extract.collect(ns, qs)
    assert got["learner_id"] == "s1"
    assert got["answers"]["q1"] == {"status": "ok", "value": 5}
    assert got["answers"]["q2"] == {"status": "bad-type", "type": "AlwaysEqual"}
    assert got["answers"]["q3"] == {"status": "missing"}
    assert got["answers"]["q4"] == {"status": "ok", "results": [True, False], "tripped": 0, "kit_function": False,
                                         "empty": False}
    assert got["answers"]["q5"]["status"] == "not-function"


def test_a_function_answer_that_does_not_finish_gets_a_timeout_of_its_own() -> None:
    def endless(total: int, third: int | None) -> bool:
        while True:
            pass

    qs = [{"id": "q", "kind": "function", "answer": "f", "inputs": [[3, 8], [4, 3]]}]
    got = _extract.collect({"f": endless}, qs, 0.2)["answers"]["q"]
    assert got == {"status": "timeout", "seconds": 0.2, "clock": "cpu"}  # (its CPU time ran out)
    kit = _extract.collect({"f": bk.banker_draws}, qs)["answers"]["q"]
    assert kit["kit_function"] is True  # the kit's (in a grading run: the exercise API's) own function
