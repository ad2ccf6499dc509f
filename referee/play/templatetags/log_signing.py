"""The players' own check of the log: the server's public key and where the browser asks
for the signed head (``static/js/log-check.js``)."""

from django import template
from django.urls import reverse

from referee.play import signing

register = template.Library()


@register.inclusion_tag("play/log_check.html")
def log_check(campaign) -> dict:
    return {
        "public_key": signing.public_key(),
        "url": reverse("integrity:head", args=[campaign.code]),
        "campaign": campaign,
    }
