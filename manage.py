#!/usr/bin/env python
"""Django's command-line utility for the referee assistant."""

import os
import sys

# Commands that never touch the database do not start the embedded PostgreSQL.
NO_DATABASE = {"resolve", "bench_rules", "help", "version", "collectstatic", "--help", "-h", "--version"}


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "referee.settings")
    command = sys.argv[1] if len(sys.argv) > 1 else "help"
    if not os.environ.get("DATABASE_URL") and command not in NO_DATABASE:
        from referee import embedded_pg

        embedded_pg.ensure_running(embedded_pg.default_datadir())
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
