from django.apps import AppConfig


class DashboardConfig(AppConfig):
    """The pages people watch between rolls (no models): the GM's dashboard, the players'
    page, who plays, the record pages, the status poll and the live stream."""

    name = "referee.dashboard"
    label = "dashboard"
