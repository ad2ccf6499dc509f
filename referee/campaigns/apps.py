from django.apps import AppConfig


class CampaignsConfig(AppConfig):
    name = "referee.campaigns"
    label = "campaigns"
