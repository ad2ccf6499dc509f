from django.apps import AppConfig


class TerrainConfig(AppConfig):
    name = "referee.terrain"
    label = "terrain"
