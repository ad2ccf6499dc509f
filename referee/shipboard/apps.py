from django.apps import AppConfig


class ShipboardConfig(AppConfig):
    name = "referee.shipboard"
    label = "shipboard"
