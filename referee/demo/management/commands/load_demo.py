from django.core.management.base import BaseCommand

from referee.demo.campaign import DEMO_LOGINS, demo_campaign_load


class Command(BaseCommand):
    help = "Load the demo campaign (once: running it again changes nothing)."

    def handle(self, *args, **options) -> None:
        campaign, created = demo_campaign_load()
        verb = "Loaded" if created else "Already loaded:"
        self.stdout.write(f"{verb} demo campaign {campaign.name!r}")
        for role, (username, password) in DEMO_LOGINS.items():
            self.stdout.write(f"  {role.upper():6} login: {username} / {password}")
