from django.urls import path

from . import views

app_name = "clock"

urlpatterns = [
    path("c/<uuid:code>/clock/agenda/", views.agenda_panel, name="agenda"),
    path("c/<uuid:code>/clock/next-event/", views.next_event, name="next-event"),
    path("c/<uuid:code>/clock/transit/", views.transit, name="transit"),
]
