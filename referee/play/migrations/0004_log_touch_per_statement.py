"""Log inserts touch their campaign once per statement, not once per row.

A row-level touch made a bulk insert (a restore of a long log) update the campaign
row once per entry, slower and slower. The log only grows by INSERT and changes by
a reveal (UPDATE), so: one statement-level trigger over the inserted rows, and a
row-level one for reveals."""

from django.db import migrations

FORWARD = """
DROP TRIGGER IF EXISTS play_logentry_touch_campaign ON play_logentry;

CREATE OR REPLACE FUNCTION play_logentry_touch_campaigns() RETURNS trigger AS $$
BEGIN
    UPDATE campaigns_campaign SET state_version = state_version
    WHERE id IN (SELECT DISTINCT campaign_id FROM inserted);
    RETURN NULL;
END
$$ LANGUAGE plpgsql;

CREATE TRIGGER play_logentry_touch_campaign
    AFTER INSERT ON play_logentry REFERENCING NEW TABLE AS inserted
    FOR EACH STATEMENT EXECUTE FUNCTION play_logentry_touch_campaigns();

CREATE TRIGGER play_logentry_touch_on_reveal
    AFTER UPDATE ON play_logentry
    FOR EACH ROW EXECUTE FUNCTION referee_touch_campaign();
"""

REVERSE = """
DROP TRIGGER IF EXISTS play_logentry_touch_on_reveal ON play_logentry;
DROP TRIGGER IF EXISTS play_logentry_touch_campaign ON play_logentry;
DROP FUNCTION IF EXISTS play_logentry_touch_campaigns();
CREATE TRIGGER play_logentry_touch_campaign AFTER INSERT OR UPDATE OR DELETE ON play_logentry
    FOR EACH ROW EXECUTE FUNCTION referee_touch_campaign();
"""


class Migration(migrations.Migration):
    dependencies = [("play", "0003_markers_touch_campaign")]

    operations = [migrations.RunSQL(FORWARD, REVERSE)]
