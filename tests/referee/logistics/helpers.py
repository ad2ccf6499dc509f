"""Small helpers shared by the logistics tests."""

import re

from django.urls import reverse

from referee.play import services


def resolve(cast, procedure_id, inputs, *, dice=None, **subjects):
    """One resolution through the play service, as the GM's click runs it."""
    return services.procedure_resolve(
        campaign=cast.campaign,
        procedure_id=procedure_id,
        inputs=inputs,
        dice=dice,
        actor=cast.gm,
        subjects={k: v.code for k, v in subjects.items()},
    )


def procedure_page(cast, procedure_id, **subjects):
    url = reverse("play:procedure", args=[cast.campaign.code, procedure_id])
    query = "&".join(f"{k}={v.code}" for k, v in subjects.items())
    return cast.client("gm").get(f"{url}?{query}")


def value_of(html: str, name: str) -> str | None:
    """The value a rendered input carries (None when it carries none)."""
    m = re.search(rf'<input[^>]*name="{name}"[^>]*>', html)
    if not m:
        return None
    v = re.search(r'value="([^"]*)"', m.group(0))
    return v.group(1) if v else None


def selected(html: str, name: str) -> str | None:
    m = re.search(rf'<select[^>]*name="{name}".*?</select>', html, re.S)
    if not m:
        return None
    s = re.search(r'<option value="([^"]*)"[^>]*selected', m.group(0))
    return s.group(1) if s else None


def dashboard(cast):
    return cast.client("gm").get(reverse("campaigns:detail", args=[cast.campaign.code]))


def checked(html: str, name: str) -> bool:
    m = re.search(rf'<input[^>]*name="{name}"[^>]*>', html)
    return bool(m) and " checked" in m.group(0)
