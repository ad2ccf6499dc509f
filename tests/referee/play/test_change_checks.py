"""A change the play loop saves is checked against the record's rules and the table's
constraints that name what it changed, as ``full_clean`` checks them, without building a
query for each constraint it does not touch."""

import pytest
from django.apps import apps
from django.core.exceptions import ValidationError
from django.db import models

from referee.fleet.models import Ship
from referee.play.effects import ChangeRecorder, _constraints_on
from tests.factories import ShipFactory

pytestmark = pytest.mark.django_db


def test_a_change_breaking_a_constraint_on_what_it_changed_is_refused_and_not_saved():
    ship = ShipFactory(kf_integrity=4, kf_integrity_max=4, overburn=0)
    recorder = ChangeRecorder()
    recorder.set(ship, "overburn", 16)
    with pytest.raises(ValidationError) as refused:
        recorder.save()
    assert "Overburn runs from 0 to 15." in refused.value.messages
    ship.refresh_from_db()
    assert ship.overburn == 0


def test_the_checked_constraints_are_those_whose_fields_all_changed():
    def names(*attrs) -> set[str]:
        return {c.name for _, c in _constraints_on(Ship, frozenset(attrs))}

    assert names("drive_charged", "charged_from_reactor", "last_jump_at") == set()
    assert names("kf_integrity") == set()  # its maximum did not change: full_clean skips it too
    assert "ship_kf_integrity_within_max" in names("kf_integrity", "kf_integrity_max")
    assert "ship_overburn_0_15" in names("overburn")


def test_every_constraint_full_clean_would_check_is_checked():
    """Django checks a check constraint when every field it names is among those not
    excluded; the sorted list must hold exactly those, for every model with constraints."""
    for model in apps.get_models():
        checks = [c for c in model._meta.constraints if isinstance(c, models.CheckConstraint)]
        for constraint in checks:
            named = frozenset(constraint.condition.referenced_base_fields - {"pk"})
            if not named:
                continue
            assert constraint in [c for _, c in _constraints_on(model, named)], (model, constraint.name)
            fewer = named - {sorted(named)[0]}
            assert constraint not in [c for _, c in _constraints_on(model, fewer)], (model, constraint.name)
