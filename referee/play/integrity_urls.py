"""URLs for verifying, backing up and restoring a campaign's log."""

app_name = "integrity"

urlpatterns: list = []
