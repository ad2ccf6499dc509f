from django.http import HttpRequest, HttpResponse
from django.urls import path

from referee.urls import urlpatterns as product_urlpatterns


def bare(request: HttpRequest) -> HttpResponse:
    """The ceiling: the whole middleware stack, no database, no template."""
    return HttpResponse("ok", content_type="text/plain")


urlpatterns = [path("bench/bare/", bare, name="bench-bare"), *product_urlpatterns]
