"""The dashboard's pages, under the names they have always had: ``campaigns:*`` for the
campaign and record pages, ``play:*`` for the status poll and the live stream
(``referee/urls.py`` puts each list in its namespace)."""

from django.urls import path

from . import live, record_views, views

campaign_patterns = [
    path("", views.campaign_list, name="list"),
    path("join/<uuid:token>/", views.join, name="join"),
    path("c/<uuid:code>/", views.campaign_detail, name="detail"),
    path("c/<uuid:code>/players/", views.players, name="players"),
    path("c/<uuid:code>/invites/", views.invite_create, name="invite-create"),
    path("c/<uuid:code>/invites/<uuid:token>/revoke/", views.invite_revoke, name="invite-revoke"),
    path("c/<uuid:code>/members/<int:membership_id>/remove/", views.member_remove, name="member-remove"),
    # Create, edit and delete any record kind.
    path("c/<uuid:code>/records/<slug:kind>/", record_views.object_list, name="object-list"),
    path("c/<uuid:code>/<slug:kind>/new/", record_views.object_create, name="object-create"),
    path("c/<uuid:code>/<slug:kind>/<uuid:obj_code>/edit/", record_views.object_edit, name="object-edit"),
    path(
        "c/<uuid:code>/<slug:kind>/<uuid:obj_code>/delete/", record_views.object_delete, name="object-delete"
    ),
    path("c/<uuid:code>/<slug:kind>/<uuid:obj_code>/roll/", record_views.object_roll, name="object-roll"),
]

play_patterns = [
    path("c/<uuid:code>/status/", views.status_poll, name="status"),
    path("c/<uuid:code>/live/", live.live_stream, name="live"),
    path("c/<uuid:code>/live/gm/", live.gm_stream, name="gm-live"),
]
