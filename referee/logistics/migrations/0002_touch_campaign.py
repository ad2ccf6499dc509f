from django.db import migrations

TABLES = ["logistics_shipstores", "logistics_unitrefit", "logistics_charactersheet"]


class Migration(migrations.Migration):
    """Stores, refits and character sheets count as campaign state for players' change counter."""

    dependencies = [("logistics", "0001_initial"), ("play", "0003_markers_touch_campaign")]
    # play 0008 drops the function these triggers call, and them with it.
    run_before = [("play", "0008_drop_hand_written_triggers")]

    operations = [
        migrations.RunSQL(
            "\n".join(
                f"CREATE TRIGGER {t}_touch_campaign AFTER INSERT OR UPDATE OR DELETE ON {t} "
                "FOR EACH ROW EXECUTE FUNCTION referee_touch_campaign();"
                for t in TABLES
            ),
            "\n".join(f"DROP TRIGGER IF EXISTS {t}_touch_campaign ON {t};" for t in TABLES),
        )
    ]
