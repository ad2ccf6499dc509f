from django.apps import AppConfig


class LogisticsConfig(AppConfig):
    name = "referee.logistics"
    label = "logistics"

    def ready(self) -> None:
        # Dashboard panels, record kinds and effect rules register here.
        from . import registry  # noqa: F401
