"""Database-enforced invariants of the turn log and the players' change counter.

- play_logentry is append-only: DELETE is refused; UPDATE only reveals an entry
  (revealed_at from NULL to a time) or forgets a deleted user (actor_id to NULL).
- campaigns_campaign.state_version goes up on every UPDATE of the campaign, and any
  write to what a campaign keeps (ships, units, characters, systems, log) touches
  its campaign, so players' pages can ask one indexed question: "changed since v?".
"""

from django.db import migrations

APPEND_ONLY = """
CREATE OR REPLACE FUNCTION play_logentry_append_only() RETURNS trigger AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        RAISE EXCEPTION 'the turn log is append-only: entry % cannot be deleted', OLD.seq
            USING ERRCODE = 'integrity_constraint_violation';
    END IF;
    IF (to_jsonb(NEW) - 'revealed_at' - 'actor_id') = (to_jsonb(OLD) - 'revealed_at' - 'actor_id')
       AND (NEW.revealed_at IS NOT DISTINCT FROM OLD.revealed_at OR OLD.revealed_at IS NULL)
       AND (NEW.actor_id IS NOT DISTINCT FROM OLD.actor_id OR NEW.actor_id IS NULL) THEN
        RETURN NEW;
    END IF;
    RAISE EXCEPTION 'the turn log is append-only: entry % can only be revealed', OLD.seq
        USING ERRCODE = 'integrity_constraint_violation';
END
$$ LANGUAGE plpgsql;

CREATE TRIGGER play_logentry_append_only
    BEFORE UPDATE OR DELETE ON play_logentry
    FOR EACH ROW EXECUTE FUNCTION play_logentry_append_only();
"""

STATE_VERSION = """
CREATE OR REPLACE FUNCTION campaigns_campaign_bump_version() RETURNS trigger AS $$
BEGIN
    NEW.state_version := OLD.state_version + 1;
    RETURN NEW;
END
$$ LANGUAGE plpgsql;

CREATE TRIGGER campaigns_campaign_bump_version
    BEFORE UPDATE ON campaigns_campaign
    FOR EACH ROW EXECUTE FUNCTION campaigns_campaign_bump_version();

CREATE OR REPLACE FUNCTION referee_touch_campaign() RETURNS trigger AS $$
BEGIN
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
        UPDATE campaigns_campaign SET state_version = state_version WHERE id = OLD.campaign_id;
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') AND (TG_OP = 'INSERT' OR NEW.campaign_id <> OLD.campaign_id) THEN
        UPDATE campaigns_campaign SET state_version = state_version WHERE id = NEW.campaign_id;
    END IF;
    RETURN NULL;
END
$$ LANGUAGE plpgsql;
"""

TABLES = ["fleet_ship", "fleet_unit", "fleet_character", "fleet_starsystem", "play_logentry"]

TOUCH = "\n".join(
    f"CREATE TRIGGER {t}_touch_campaign AFTER INSERT OR UPDATE OR DELETE ON {t} "
    "FOR EACH ROW EXECUTE FUNCTION referee_touch_campaign();"
    for t in TABLES
)

REVERSE = (
    "\n".join(f"DROP TRIGGER IF EXISTS {t}_touch_campaign ON {t};" for t in TABLES)
    + """
DROP FUNCTION IF EXISTS referee_touch_campaign();
DROP TRIGGER IF EXISTS campaigns_campaign_bump_version ON campaigns_campaign;
DROP FUNCTION IF EXISTS campaigns_campaign_bump_version();
DROP TRIGGER IF EXISTS play_logentry_append_only ON play_logentry;
DROP FUNCTION IF EXISTS play_logentry_append_only();
"""
)


class Migration(migrations.Migration):
    dependencies = [
        ("play", "0001_initial"),
        ("campaigns", "0002_campaign_state_version"),
        ("fleet", "0002_ship_x_au_ship_y_au"),
    ]

    operations = [migrations.RunSQL(APPEND_ONLY + STATE_VERSION + TOUCH, REVERSE)]
