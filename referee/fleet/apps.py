from django.apps import AppConfig


class FleetConfig(AppConfig):
    name = "referee.fleet"
    label = "fleet"
