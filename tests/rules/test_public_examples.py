"""The seeds' worked examples (catalogue C.8), checked the way ``check_vectors.py`` checks them."""

import json
import math
from pathlib import Path

import pytest

import rules

DATA = Path(__file__).resolve().parent / "data" / "public_examples.json"
# The shared original sits beside the repository: <repo>/../shared/public_examples.json.
SHARED = Path(__file__).resolve().parents[3] / "shared" / "public_examples.json"
TOLERANCE = 1e-9

VECTORS = json.loads(DATA.read_text(encoding="utf-8"))


def is_number(x):
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def same_exact(want, got):
    """Structural equality where a bool never equals a number and types must match."""
    if isinstance(want, bool) or isinstance(got, bool):
        return isinstance(want, bool) and isinstance(got, bool) and want == got
    if is_number(want) and is_number(got):
        return want == got
    if isinstance(want, dict) and isinstance(got, dict):
        return want.keys() == got.keys() and all(same_exact(want[k], got[k]) for k in want)
    if isinstance(want, list) and isinstance(got, list):
        return len(want) == len(got) and all(same_exact(w, g) for w, g in zip(want, got, strict=True))
    return type(want) is type(got) and want == got


def same(want, got):
    """C.8: a number at the top of a result key within 1e-9; anything else exactly."""
    if is_number(want) and is_number(got):
        return math.isclose(want, got, rel_tol=TOLERANCE, abs_tol=TOLERANCE)
    return same_exact(want, got)


def test_the_comparison_is_strict_where_the_contract_is():
    assert same(1, 1.0 + 1e-12)
    assert not same(1, 1.001)
    assert not same(True, 1)
    assert not same(0, False)
    assert not same([1.0 + 1e-12], [1])  # inside lists and objects: exact
    assert not same({"a": True}, {"a": 1})
    assert not same(None, 0)
    assert not same("1", 1)
    assert same({"a": [1, "x", None]}, {"a": [1, "x", None]})


@pytest.mark.parametrize("vector", VECTORS, ids=[v["id"] for v in VECTORS])
def test_public_example(vector):
    dice = vector["dice"]
    call = (
        vector["procedure"],
        json.loads(json.dumps(vector["inputs"])),
        None if dice is None else list(dice),
    )
    if "expect_error" in vector:
        assert "expect" not in vector
        error = {"InputError": rules.InputError, "DiceError": rules.DiceError}[vector["expect_error"]]
        with pytest.raises(error):
            rules.resolve(*call)
        return
    result = rules.resolve(*call).to_dict()["result"]
    assert vector["expect"], "a vector must expect at least one result key"
    for key, want in vector["expect"].items():
        assert key in result, f"result has no key {key!r}"
        assert same(want, result[key]), f"{key}: expected {want!r}, got {result[key]!r}"


def test_the_vectors_are_well_formed():
    assert isinstance(VECTORS, list)
    assert VECTORS
    ids = [v["id"] for v in VECTORS]
    assert len(ids) == len(set(ids))
    for v in VECTORS:
        assert {"id", "procedure", "inputs", "dice"} <= v.keys()
        assert ("expect" in v) != ("expect_error" in v)
        assert v["procedure"] in rules.PROCEDURE_IDS
        assert v.get("expect_error", "InputError") in ("InputError", "DiceError")


def test_the_repo_copy_is_the_shared_contract_file():
    copy = json.loads(DATA.read_text(encoding="utf-8"))
    assert isinstance(copy, list)
    assert copy
    if SHARED.exists():
        assert copy == json.loads(SHARED.read_text(encoding="utf-8"))
