from django.apps import AppConfig


class TerrainConfig(AppConfig):
    name = "referee.terrain"
    label = "terrain"

    def ready(self) -> None:
        # Dashboard panels, record kinds and effect rules register here.
        from . import registry  # noqa: F401
