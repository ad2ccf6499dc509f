from django.urls import path

from . import views

app_name = "maps"

urlpatterns = [
    path("c/<uuid:code>/maps/", views.map_index, name="index"),
    path("c/<uuid:code>/maps/stars/", views.star_page, name="stars"),
    path("c/<uuid:code>/maps/stars/panel/", views.star_panel, name="stars-panel"),
    path("c/<uuid:code>/maps/stars/map.svg", views.star_svg, name="stars-svg"),
    path("c/<uuid:code>/maps/stars/place/", views.star_place, name="stars-place"),
    path("c/<uuid:code>/maps/stars/plans/", views.star_plan_save, name="plan-save"),
    path("c/<uuid:code>/maps/stars/plans/<uuid:plan_code>/drop/", views.star_plan_drop, name="plan-drop"),
    path("c/<uuid:code>/maps/systems/<uuid:system_code>/", views.system_page, name="system"),
    path("c/<uuid:code>/maps/systems/<uuid:system_code>/panel/", views.system_panel, name="system-panel"),
    path("c/<uuid:code>/maps/systems/<uuid:system_code>/map.svg", views.system_svg, name="system-svg"),
    path("c/<uuid:code>/maps/systems/<uuid:system_code>/move/", views.ship_move, name="move"),
    path(
        "c/<uuid:code>/maps/systems/<uuid:system_code>/pirate-points/",
        views.pirate_point_add,
        name="pirate-add",
    ),
    path(
        "c/<uuid:code>/maps/systems/<uuid:system_code>/pirate-points/<uuid:point_code>/delete/",
        views.pirate_point_delete,
        name="pirate-delete",
    ),
    path("c/<uuid:code>/maps/battlefields/<uuid:field_code>/", views.battlefield_page, name="battlefield"),
    path(
        "c/<uuid:code>/maps/battlefields/<uuid:field_code>/panel/",
        views.battlefield_panel,
        name="battlefield-panel",
    ),
    path(
        "c/<uuid:code>/maps/battlefields/<uuid:field_code>/map.svg",
        views.battlefield_svg,
        name="battlefield-svg",
    ),
    path("c/<uuid:code>/maps/battlefields/<uuid:field_code>/place/", views.unit_place, name="place"),
    path(
        "c/<uuid:code>/maps/battlefields/<uuid:field_code>/hexes/<str:label>/",
        views.hex_save,
        name="hex-save",
    ),
]
