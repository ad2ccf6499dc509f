from django.apps import AppConfig


class ShipboardConfig(AppConfig):
    name = "referee.shipboard"
    label = "shipboard"

    def ready(self) -> None:
        # Dashboard panels, record kinds and effect rules register here.
        from . import registry  # noqa: F401
