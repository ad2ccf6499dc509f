from django.urls import path

from . import player_views, views

app_name = "play"

urlpatterns = [
    path("c/<uuid:code>/play/", views.procedure_index, name="index"),
    path("c/<uuid:code>/play/<str:procedure_id>/", views.procedure_form, name="procedure"),
    path("c/<uuid:code>/play/<str:procedure_id>/odds/", views.procedure_odds, name="odds"),
    path("c/<uuid:code>/log/", views.log_list, name="log"),
    path("c/<uuid:code>/log/export.<str:fmt>", views.log_export, name="export"),
    path("c/<uuid:code>/log/<int:seq>/", views.entry_detail, name="entry"),
    path("c/<uuid:code>/log/<int:seq>/undo/", views.log_undo, name="undo"),
    path("c/<uuid:code>/log/<int:seq>/reveal/", views.log_reveal, name="reveal"),
    path("c/<uuid:code>/log/<int:seq>/pending/<int:number>/apply/", views.effect_apply, name="effect-apply"),
    path(
        "c/<uuid:code>/log/<int:seq>/pending/<int:number>/dismiss/",
        views.effect_dismiss,
        name="effect-dismiss",
    ),
    path("c/<uuid:code>/log/<int:seq>/accept/", views.roll_accept, name="accept"),
    path("c/<uuid:code>/log/<int:seq>/reject/", views.roll_reject, name="reject"),
    path("c/<uuid:code>/log/notes/", player_views.note_create, name="note"),
    path("c/<uuid:code>/my/roll/<str:procedure_id>/", player_views.player_roll, name="player-roll"),
    path("c/<uuid:code>/my/roll/<str:procedure_id>/odds/", player_views.player_odds, name="player-odds"),
    path("c/<uuid:code>/turn/next-phase/", views.phase_advance, name="next-phase"),
    path("c/<uuid:code>/turn/clock/", views.clock_advance, name="clock"),
    path("c/<uuid:code>/settings/", views.campaign_settings, name="settings"),
]
