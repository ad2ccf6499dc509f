from django.urls import path

from . import views

app_name = "boobytraps"

urlpatterns = [
    path("c/<uuid:code>/booby-traps/charts/new/", views.chart_create, name="chart-create"),
    path("c/<uuid:code>/booby-traps/charts/<uuid:chart_code>/edit/", views.chart_edit, name="chart-edit"),
    path("c/<uuid:code>/booby-traps/charts/<uuid:chart_code>/copy/", views.chart_copy, name="chart-copy"),
    path(
        "c/<uuid:code>/booby-traps/charts/<uuid:chart_code>/delete/", views.chart_delete, name="chart-delete"
    ),
    path("c/<uuid:code>/booby-traps/<uuid:trap_code>/pursuit/", views.trap_pursuit, name="pursuit"),
]
