# A saved route keeps the system its ship left from by code, like the rest of the route, and
# no longer a text of the names as they were when it was saved (a system renamed since read
# by its old name).

from django.db import migrations, models


def _origin_from_the_log(plan, LogEntry) -> str | None:
    """Where the ship was when the route was saved: the system its first logged move after
    the saving entry left from, or where it is now when it has not moved since."""
    made = [{"target": "routeplan", "code": str(plan.code)}]
    saved = (
        LogEntry.objects.filter(campaign_id=plan.campaign_id, effects__contains=made)
        .order_by("seq")
        .values_list("seq", flat=True)
        .first()
    )
    if saved is None:
        return None
    moved = [{"target": "ship", "code": str(plan.ship.code), "field": "star_system"}]
    later = (
        LogEntry.objects.filter(campaign_id=plan.campaign_id, seq__gt=saved, effects__contains=moved)
        .order_by("seq")
        .values_list("effects", flat=True)
        .first()
    )
    if later is None:
        return str(plan.ship.star_system.code) if plan.ship.star_system_id else None
    for change in later:
        if change.get("target") == "ship" and change.get("code") == str(plan.ship.code):
            if change.get("field") == "star_system":
                return change.get("before")
    return None


def origin_fill(apps, schema_editor):
    RoutePlan = apps.get_model("maps", "RoutePlan")
    StarSystem = apps.get_model("fleet", "StarSystem")
    LogEntry = apps.get_model("play", "LogEntry")
    for plan in RoutePlan.objects.select_related("ship", "ship__star_system").iterator():
        code = _origin_from_the_log(plan, LogEntry)
        if code is None:  # no log to read: the first name of the words, if one system bears it
            named = StarSystem.objects.filter(
                campaign_id=plan.campaign_id, name=plan.route_words.split(" → ", 1)[0]
            ).values_list("code", flat=True)
            code = named[0] if len(named) == 1 else None
        if code is not None and StarSystem.objects.filter(campaign_id=plan.campaign_id, code=code).exists():
            RoutePlan.objects.filter(pk=plan.pk).update(origin=code)


def words_fill(apps, schema_editor):
    """Back to a text of the names (as they are now)."""
    RoutePlan = apps.get_model("maps", "RoutePlan")
    StarSystem = apps.get_model("fleet", "StarSystem")
    for plan in RoutePlan.objects.iterator():
        codes = [str(plan.origin) if plan.origin else "", *(c for c in plan.route.split(",") if c)]
        names = {
            str(code): name
            for code, name in StarSystem.objects.filter(
                campaign_id=plan.campaign_id, code__in=[c for c in codes if c]
            ).values_list("code", "name")
        }
        words = " → ".join(names.get(code, "?") for code in codes)
        RoutePlan.objects.filter(pk=plan.pk).update(route_words=words[:600])


class Migration(migrations.Migration):
    dependencies = [
        ("maps", "0002_route_plans"),
        ("fleet", "0009_star_system_sail_hours"),
        ("play", "0016_log_seal"),
    ]

    operations = [
        migrations.AddField(
            model_name="routeplan",
            name="origin",
            field=models.UUIDField(
                blank=True,
                help_text="The system the ship left from, by code (empty: not known).",
                null=True,
                verbose_name="from",
            ),
        ),
        migrations.RunPython(origin_fill, words_fill, elidable=True),
        migrations.RemoveField(model_name="routeplan", name="route_words"),
    ]
