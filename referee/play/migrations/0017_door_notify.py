"""Tell every server process when what the door reads changed outside a campaign's own
row: a session saved or ended, a user changed or removed, a campaign deleted, or one of
these tables emptied. The campaign's own changes are told already (``referee_campaign``,
campaigns.0005); memberships touch their campaign. One notification per statement, with no
payload: the processes forget who they had seen ask (``referee.play.door_cache``)."""

from django.conf import settings
from django.db import migrations

FUNCTION = """
CREATE OR REPLACE FUNCTION referee_door_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('referee_door', '');
    RETURN NULL;
END;
$$;
"""

# (table, events) whose statements tell the door's caches to forget.
WATCHED = (
    ("django_session", "UPDATE OR DELETE OR TRUNCATE"),
    ("auth_user", "UPDATE OR DELETE OR TRUNCATE"),
    ("campaigns_campaign", "DELETE OR TRUNCATE"),
    ("campaigns_membership", "TRUNCATE"),
)


def triggers() -> str:
    return "".join(
        f"CREATE TRIGGER referee_door_notify AFTER {events} ON {table} "
        "FOR EACH STATEMENT EXECUTE FUNCTION referee_door_notify();\n"
        for table, events in WATCHED
    )


def drop() -> str:
    drops = "".join(f"DROP TRIGGER IF EXISTS referee_door_notify ON {table};\n" for table, _ in WATCHED)
    return drops + "DROP FUNCTION IF EXISTS referee_door_notify();\n"


class Migration(migrations.Migration):
    dependencies = [
        ("play", "0016_log_seal"),
        ("campaigns", "0007_campaign_unseen_version"),
        ("sessions", "0001_initial"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [migrations.RunSQL(FUNCTION + triggers(), reverse_sql=drop())]
