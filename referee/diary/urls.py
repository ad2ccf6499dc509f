from django.urls import path

from . import views

app_name = "diary"

urlpatterns = [
    path("c/<uuid:code>/diary/", views.evening, name="evening"),
]
