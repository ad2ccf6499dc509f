from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from referee import health
from referee.dashboard import urls as dashboard_urls
from referee.play import urls as play_urls

urlpatterns = [
    # The resolver tries patterns in order: the pages asked for most come first, the status
    # poll (about once a second from every open page) and the live streams, then the
    # procedure and log pages, then the dashboard and the players' page.
    path("", include((dashboard_urls.play_patterns + play_urls.urlpatterns, "play"))),
    path("", include("referee.play.integrity_urls")),
    path("", include((dashboard_urls.campaign_patterns, "campaigns"))),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("accounts/", include("referee.campaigns.account_urls")),
    path("admin/", admin.site.urls),
    path("healthz", health.healthz, name="healthz"),
    path("", include("referee.shipboard.urls")),
    path("", include("referee.logistics.urls")),
    path("", include("referee.terrain.urls")),
    path("", include("referee.boobytraps.urls")),
    path("", include("referee.imports.urls")),
    path("", include("referee.sheets.urls")),
    path("", include("referee.maps.urls")),
    path("", include("referee.battles.urls")),
    path("", include("referee.clock.urls")),
    path("", include("referee.desk.urls")),
    path("", include("referee.diary.urls")),
]
