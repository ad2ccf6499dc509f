from django.urls import path

from . import views

app_name = "sheets"

SHEET = "c/<uuid:code>/sheets/<slug:kind>/<uuid:obj_code>/"

urlpatterns = [
    path(SHEET, views.sheet_page, name="sheet"),
    path(f"{SHEET}adjust/", views.sheet_adjust, name="adjust"),
    path(f"{SHEET}lists/", views.sheet_lists, name="lists"),
    path(f"{SHEET}start/", views.sheet_start, name="start"),
    path(f"{SHEET}design/", views.design_save, name="design-save"),
    path("c/<uuid:code>/designs/new/<slug:record>/", views.design_pick, name="pick"),
    path("c/<uuid:code>/designs/<uuid:design_code>/use/", views.design_use, name="use"),
]
