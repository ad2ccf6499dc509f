from django.urls import path

from . import views

app_name = "shipboard"

urlpatterns = [
    path(
        "c/<uuid:code>/shipboard/compartments/<uuid:compartment_code>/",
        views.compartment_detail,
        name="compartment",
    ),
    path(
        "c/<uuid:code>/shipboard/compartments/<uuid:compartment_code>/edit/",
        views.compartment_edit,
        name="compartment-edit",
    ),
    path(
        "c/<uuid:code>/shipboard/compartments/<uuid:compartment_code>/seal/",
        views.breach_seal,
        name="breach-seal",
    ),
    path(
        "c/<uuid:code>/shipboard/compartments/<uuid:compartment_code>/surfaces/add/",
        views.surface_add,
        name="surface-add",
    ),
    path(
        "c/<uuid:code>/shipboard/compartments/<uuid:compartment_code>/surfaces/new/",
        views.surface_create,
        name="surface-create",
    ),
    path(
        "c/<uuid:code>/shipboard/surfaces/<uuid:surface_code>/edit/", views.surface_edit, name="surface-edit"
    ),
    path(
        "c/<uuid:code>/shipboard/surfaces/<uuid:surface_code>/delete/",
        views.surface_delete,
        name="surface-delete",
    ),
]
