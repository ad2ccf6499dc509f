from django.apps import AppConfig


class ClockConfig(AppConfig):
    name = "referee.clock"
    label = "clock"
    verbose_name = "Campaign clock"
