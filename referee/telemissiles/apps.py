from django.apps import AppConfig


class TelemissilesConfig(AppConfig):
    name = "referee.telemissiles"
    label = "telemissiles"
