from django.apps import AppConfig


class PlayConfig(AppConfig):
    name = "referee.play"
    label = "play"

    def ready(self) -> None:
        # Every rule family is found once, at start-up, when all the apps' models are loaded;
        # ``members`` registers then how the entries about who plays are undone.
        from . import families, members  # noqa: F401

        families.discover()

        # Models are imported once the apps are loaded, as the families are found above.
        from django.db.models.signals import post_save

        from referee.campaigns.models import Campaign  # loaded with the apps, as above

        post_save.connect(_open_log_seal, sender=Campaign, dispatch_uid="play.open_log_seal")


def _open_log_seal(sender, instance, created: bool, raw: bool = False, **kwargs) -> None:
    """Every campaign's log is sealed from its start, so an emptied log shows as cut."""
    if created and not raw:
        from .services import log_seal_open  # services import the models: not at app start

        log_seal_open(campaign=instance)
