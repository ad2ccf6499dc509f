from django.apps import AppConfig


class ImportsConfig(AppConfig):
    name = "referee.imports"
    verbose_name = "Unit-file import and export"
