from django.apps import AppConfig


class BoobytrapsConfig(AppConfig):
    name = "referee.boobytraps"
    label = "boobytraps"
