"""Tell listening servers when a campaign changed, so players' live pages need not poll.

After every committed change of a campaign (its state_version moves on every change a
player could see, and on the GM's own too) PostgreSQL sends a notification on the
``referee_campaign`` channel carrying only the campaign's public code: no version, no
field, nothing about what changed. Notifications with the same payload in one
transaction arrive once, at commit; a rolled-back change sends nothing."""

from django.db import migrations

FORWARD = """
CREATE OR REPLACE FUNCTION referee_notify_campaign() RETURNS trigger AS $$
BEGIN
    PERFORM pg_notify('referee_campaign', NEW.code::text);
    RETURN NULL;
END
$$ LANGUAGE plpgsql;

DROP TRIGGER IF EXISTS campaigns_campaign_notify ON campaigns_campaign;
CREATE TRIGGER campaigns_campaign_notify
    AFTER UPDATE ON campaigns_campaign
    FOR EACH ROW EXECUTE FUNCTION referee_notify_campaign();
"""

REVERSE = """
DROP TRIGGER IF EXISTS campaigns_campaign_notify ON campaigns_campaign;
DROP FUNCTION IF EXISTS referee_notify_campaign();
"""


class Migration(migrations.Migration):
    dependencies = [("play", "0007_log_entry_request_key")]

    operations = [migrations.RunSQL(FORWARD, REVERSE)]
