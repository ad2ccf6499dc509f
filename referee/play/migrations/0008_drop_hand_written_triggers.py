"""The hand-written triggers of 0002-0004 (and of logistics 0002) give way to the ones
declared on the models with django-pgtrigger (the migrations that follow this one).

Dropping referee_touch_campaign() with CASCADE removes every row-level touch trigger
that used it, whichever table it was put on by hand."""

from importlib import import_module

from django.db import migrations

FORWARD = """
DROP TRIGGER IF EXISTS play_logentry_append_only ON play_logentry;
DROP FUNCTION IF EXISTS play_logentry_append_only();
DROP TRIGGER IF EXISTS campaigns_campaign_bump_version ON campaigns_campaign;
DROP FUNCTION IF EXISTS campaigns_campaign_bump_version();
DROP TRIGGER IF EXISTS play_logentry_touch_campaign ON play_logentry;
DROP FUNCTION IF EXISTS play_logentry_touch_campaigns();
DROP FUNCTION IF EXISTS referee_touch_campaign() CASCADE;
"""


def _old(name: str):
    return import_module(f"referee.play.migrations.{name}")


def _backward_sql() -> str:
    """Going back puts the play app's hand-written triggers as 0004 left them."""
    first, markers, per_statement = (
        _old("0002_append_only_log_and_state_version"),
        _old("0003_markers_touch_campaign"),
        _old("0004_log_touch_per_statement"),
    )
    return "\n".join(
        [
            first.APPEND_ONLY + first.STATE_VERSION + first.TOUCH,
            markers.Migration.operations[0].sql,
            per_statement.FORWARD,
        ]
    )


class Migration(migrations.Migration):
    dependencies = [("play", "0007_log_entry_request_key")]

    operations = [migrations.RunSQL(FORWARD, _backward_sql())]
