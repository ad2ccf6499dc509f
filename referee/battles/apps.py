from django.apps import AppConfig


class BattlesConfig(AppConfig):
    name = "referee.battles"
    label = "battles"
    verbose_name = "Battles in MegaMek"
