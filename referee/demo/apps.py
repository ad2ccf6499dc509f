from django.apps import AppConfig


class DemoConfig(AppConfig):
    """The demo campaign, built from the seeds' worked examples (no models)."""

    name = "referee.demo"
    label = "demo"
