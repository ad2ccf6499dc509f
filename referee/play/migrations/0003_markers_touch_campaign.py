from django.db import migrations


class Migration(migrations.Migration):
    """Markers count as campaign state for players' change counter (see 0002)."""

    dependencies = [("play", "0002_append_only_log_and_state_version"), ("fleet", "0003_markers")]

    operations = [
        migrations.RunSQL(
            "CREATE TRIGGER fleet_marker_touch_campaign AFTER INSERT OR UPDATE OR DELETE ON fleet_marker "
            "FOR EACH ROW EXECUTE FUNCTION referee_touch_campaign();",
            "DROP TRIGGER IF EXISTS fleet_marker_touch_campaign ON fleet_marker;",
        )
    ]
