from django.urls import path

from . import views

app_name = "imports"

urlpatterns = [
    path("c/<uuid:code>/import/", views.unit_files_import, name="import"),
    path("c/<uuid:code>/<slug:kind>/<uuid:obj_code>/unit-file/", views.unit_file_export, name="export"),
]
