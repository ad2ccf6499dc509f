from django.apps import AppConfig


class PlayConfig(AppConfig):
    name = "referee.play"
    label = "play"

    def ready(self) -> None:
        # Every rule family is found once, at start-up, when all the apps' models are loaded.
        from . import families

        families.discover()
