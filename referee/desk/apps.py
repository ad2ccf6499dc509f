from django.apps import AppConfig


class DeskConfig(AppConfig):
    name = "referee.desk"
    label = "desk"
    verbose_name = "The GM's desk"
