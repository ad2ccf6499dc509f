from django.apps import AppConfig


class LogisticsConfig(AppConfig):
    name = "referee.logistics"
    label = "logistics"
