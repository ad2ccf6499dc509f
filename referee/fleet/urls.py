"""Create, edit and delete any record kind; included by the campaign URLs, so the names
are ``campaigns:object-create`` and so on."""

from django.urls import path

from . import views

urlpatterns = [
    path("c/<uuid:code>/records/<slug:kind>/", views.object_list, name="object-list"),
    path("c/<uuid:code>/<slug:kind>/new/", views.object_create, name="object-create"),
    path("c/<uuid:code>/<slug:kind>/<uuid:obj_code>/edit/", views.object_edit, name="object-edit"),
    path("c/<uuid:code>/<slug:kind>/<uuid:obj_code>/delete/", views.object_delete, name="object-delete"),
    path("c/<uuid:code>/<slug:kind>/<uuid:obj_code>/roll/", views.object_roll, name="object-roll"),
]
