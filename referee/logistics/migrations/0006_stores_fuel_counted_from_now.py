"""Stores kept before station-keeping was counted start counting it at their campaign's
clock: left empty, their "fuel counted up to" would never come due and no day would burn."""

from django.db import migrations
from django.db.models import OuterRef, Subquery


def counted_from_now(apps, schema_editor):
    ShipStores = apps.get_model("logistics", "ShipStores")
    Campaign = apps.get_model("campaigns", "Campaign")
    clock = Subquery(Campaign.objects.filter(pk=OuterRef("campaign_id")).values("clock")[:1])
    ShipStores.objects.filter(fuel_accounted_to__isnull=True, auto_fuel=True).update(fuel_accounted_to=clock)


class Migration(migrations.Migration):
    dependencies = [
        ("logistics", "0005_stores_fuel_counted"),
        ("campaigns", "0001_initial"),
    ]

    operations = [migrations.RunPython(counted_from_now, migrations.RunPython.noop)]
