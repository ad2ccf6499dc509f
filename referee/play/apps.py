from django.apps import AppConfig


class PlayConfig(AppConfig):
    name = "referee.play"
    label = "play"
