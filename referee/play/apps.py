from django.apps import AppConfig


class PlayConfig(AppConfig):
    name = "referee.play"
    label = "play"

    def ready(self) -> None:
        # Every rule family is found once, at start-up, when all the apps' models are loaded;
        # ``members`` registers then how the entries about who plays are undone.
        from . import families, members  # noqa: F401

        families.discover()
