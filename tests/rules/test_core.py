"""The engine's contract mechanics (catalogue C.1-C.10), independent of any one rule family."""

from fractions import Fraction

import rules
from rules.schema import RationalType

PURSUIT = "booby_trap.pursuit_target"


def unit(uid, move_cost, speed, range_hexes=3, size_class=4):
    return {
        "id": uid,
        "range_hexes": range_hexes,
        "size_class": size_class,
        "move_cost": move_cost,
        "speed": speed,
    }


def test_a_rational_float_means_the_decimal_it_was_written_as():
    rational = RationalType()
    assert rational.freeze(0.2) == Fraction(1, 5)
    assert rational.freeze(0.1) == Fraction(1, 10)
    assert rational.freeze(2.5) == Fraction(5, 2)
    assert rational.freeze(3) == Fraction(3)
    assert rational.freeze("1/3") == Fraction(1, 3)


def test_a_float_move_cost_ties_with_the_same_fraction_written_p_over_q():
    # 0.2 and "1/5" are the same movement cost, so the lower speed (A) decides.
    r = rules.resolve(PURSUIT, {"units": [unit("A", 0.2, 5), unit("B", "1/5", 10)]}, []).to_dict()["result"]
    assert r == {"target_id": "A", "candidate_ids": ["A", "B"], "decided_by": "speed"}
