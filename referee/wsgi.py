import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "referee.settings")
if not os.environ.get("DATABASE_URL"):
    # A local gunicorn on the embedded PostgreSQL starts it (settings read its socket) and
    # counts as one of its owners while it serves.
    from referee import embedded_pg

    embedded_pg.ensure_running(embedded_pg.default_datadir())
application = get_wsgi_application()
