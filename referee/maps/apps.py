from django.apps import AppConfig


class MapsConfig(AppConfig):
    name = "referee.maps"
    label = "maps"
