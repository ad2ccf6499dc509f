"""Each entry says how its hash was made. The entries already written keep scheme 1
(unkeyed SHA-256, no nonce) and go on verifying as they are; new ones are keyed and
salted (scheme 2)."""

from django.db import migrations, models

import referee.play.models


class Migration(migrations.Migration):
    dependencies = [
        ("play", "0004_log_touch_per_statement"),
    ]

    operations = [
        migrations.AddField(
            model_name="logentry",
            name="hash_scheme",
            field=models.PositiveSmallIntegerField(default=1),
        ),
        migrations.AddField(
            model_name="logentry",
            name="nonce",
            field=models.CharField(blank=True, default="", max_length=32),
        ),
        migrations.AlterField(
            model_name="logentry",
            name="hash_scheme",
            field=models.PositiveSmallIntegerField(default=2),
        ),
        migrations.AlterField(
            model_name="logentry",
            name="nonce",
            field=models.CharField(blank=True, default=referee.play.models.new_nonce, max_length=32),
        ),
    ]
