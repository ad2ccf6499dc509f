"""URLs for verifying and backing up a campaign's log, and restoring a campaign from a backup."""

from django.urls import path

from . import integrity_views, restore_views

app_name = "integrity"

urlpatterns = [
    path("c/<uuid:code>/log/verify/", integrity_views.log_verify, name="verify"),
    path("c/<uuid:code>/backup/", integrity_views.campaign_backup, name="backup"),
    path("c/<uuid:code>/log/head/", integrity_views.log_head, name="head"),
    path("restore/", restore_views.restore_upload, name="restore"),
    path("restore/<slug:token>/", restore_views.restore_people, name="restore-people"),
]
