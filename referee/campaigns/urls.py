from django.urls import include, path

from . import views

app_name = "campaigns"

urlpatterns = [
    path("", views.campaign_list, name="list"),
    path("join/<uuid:token>/", views.join, name="join"),
    path("c/<uuid:code>/", views.campaign_detail, name="detail"),
    path("c/<uuid:code>/players/", views.players, name="players"),
    path("c/<uuid:code>/invites/", views.invite_create, name="invite-create"),
    path("c/<uuid:code>/invites/<uuid:token>/revoke/", views.invite_revoke, name="invite-revoke"),
    path("c/<uuid:code>/members/<int:membership_id>/remove/", views.member_remove, name="member-remove"),
    path("", include("referee.fleet.urls")),
]
