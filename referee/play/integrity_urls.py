"""URLs for verifying and backing up a campaign's log (restoring is a manage.py act)."""

from django.urls import path

from . import integrity_views

app_name = "integrity"

urlpatterns = [
    path("c/<uuid:code>/log/verify/", integrity_views.log_verify, name="verify"),
    path("c/<uuid:code>/backup/", integrity_views.campaign_backup, name="backup"),
    path("c/<uuid:code>/log/head/", integrity_views.log_head, name="head"),
]
