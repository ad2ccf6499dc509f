"""``manage.py migrate`` as the database's owner role, then the app's role gets row access.

The app runs as a role that owns nothing (see ``referee.play.dbroles``); migrations need
the owner, whose credentials come from ``MIGRATE_DATABASE_URL`` (or the embedded
server's owner role). Without a separate owner this is Django's migrate unchanged."""

from __future__ import annotations

from django.core.management.commands.migrate import Command as DjangoMigrate

from referee.play import dbroles


class Command(DjangoMigrate):
    def handle(self, *args, **options):
        database = options["database"]
        if not dbroles.separate_owner(database):
            return super().handle(*args, **options)
        with dbroles.as_owner(database):
            result = super().handle(*args, **options)
            dbroles.grant_app_role(database)
        return result
