from django.apps import AppConfig


class BoobytrapsConfig(AppConfig):
    name = "referee.boobytraps"
    label = "boobytraps"

    def ready(self) -> None:
        # Dashboard panels, record kinds and effect rules register here.
        from . import registry  # noqa: F401
