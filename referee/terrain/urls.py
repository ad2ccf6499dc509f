from django.urls import path

from . import views

app_name = "terrain"

urlpatterns = [
    path("c/<uuid:code>/terrain/hexes/<uuid:hex_code>/", views.hex_detail, name="hex"),
    path("c/<uuid:code>/terrain/rows/fill/<slug:key>/", views.row_fill, name="row-fill"),
]
