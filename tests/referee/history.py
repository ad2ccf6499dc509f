"""Log history for tests that need entries, not the rules: jumps the GM rules go ahead."""

from __future__ import annotations

from referee.play import services
from referee.play.models import LogEntry


def ruled_jump(campaign, actor, ship, *, dice, **extra) -> LogEntry:
    """A jump of ``ship`` resolved with ``dice``; the GM rules it goes ahead whatever the
    drive's charge, so a test can jump one ship again and again to build its log."""
    return services.procedure_resolve(
        campaign=campaign,
        procedure_id="jump.malfunction",
        gm_ruling=True,
        inputs={},
        dice=dice,
        actor=actor,
        subjects={"ship": ship.code},
        **extra,
    )


def quiet_roll(campaign, gm, *, visibility, audience=(), **extra) -> LogEntry:
    """A resolution that changes nothing in the campaign (the jump's constants), seen as
    ``visibility`` says: what tests of who learns what need."""
    return services.procedure_resolve(
        campaign=campaign,
        procedure_id="jump.basic_constants",
        inputs={},
        dice=[],
        actor=gm,
        visibility=visibility,
        audience=audience,
        **extra,
    )
