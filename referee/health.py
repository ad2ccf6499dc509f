"""``/healthz``: whether the app answers and reaches its database (for proxies and monitors)."""

from django.db import DatabaseError, connection
from django.http import HttpRequest, HttpResponse
from django.views.decorators.http import require_safe


@require_safe
def healthz(request: HttpRequest) -> HttpResponse:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
    except DatabaseError:
        return HttpResponse("The database does not answer.", status=503, content_type="text/plain")
    return HttpResponse("ok", content_type="text/plain")
