from django.apps import AppConfig


class DiaryConfig(AppConfig):
    name = "referee.diary"
    label = "diary"
    verbose_name = "The evening's diary"
