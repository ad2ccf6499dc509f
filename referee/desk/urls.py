from django.urls import path

from . import views

app_name = "desk"

urlpatterns = [
    path("c/<uuid:code>/desk/", views.desk_panel, name="panel"),
    path("c/<uuid:code>/desk/act/", views.desk_act, name="act"),
]
