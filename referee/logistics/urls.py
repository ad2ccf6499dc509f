from django.urls import path

from . import views

app_name = "logistics"

urlpatterns = [
    path("c/<uuid:code>/recruits/<slug:template>/", views.recruit, name="recruit"),
]
