from django.apps import AppConfig


class SheetsConfig(AppConfig):
    name = "referee.sheets"
    label = "sheets"
    verbose_name = "Record sheets"
