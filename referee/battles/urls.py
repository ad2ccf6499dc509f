from django.urls import path

from . import views

app_name = "battles"

urlpatterns = [
    path("c/<uuid:code>/battles/", views.battles_page, name="page"),
    path("c/<uuid:code>/battles/forces.mul", views.forces_download, name="forces"),
    path("c/<uuid:code>/battles/battlefields/<uuid:field_code>/board/", views.board_download, name="board"),
    path("c/<uuid:code>/battles/boards/", views.board_upload, name="board-upload"),
    path("c/<uuid:code>/battles/results/", views.result_upload, name="result-upload"),
    path("c/<uuid:code>/battles/results/apply/", views.result_apply, name="result-apply"),
]
