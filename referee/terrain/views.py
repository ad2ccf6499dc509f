"""Terrain pages: a hex's modifiers for every unit type, and filling in a row the seed
names but does not print."""

from __future__ import annotations

from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse

from referee import htmx
from referee.campaigns.models import Campaign
from referee.play import families
from referee.play.door import gm_view
from referee.play.selectors import with_actions

from . import catalog
from .forms import TerrainRowForm
from .models import Hex, TerrainRow
from .modifiers import read_hex, rows_for, sheet


@gm_view("GET")
def hex_detail(request: htmx.HtmxHttpRequest, campaign: Campaign, hex_code) -> HttpResponse:
    """The hex as the movement table reads it, for every unit type, with what is missing."""
    hex_ = get_object_or_404(Hex.objects.in_campaign(campaign), code=hex_code)
    rows = rows_for(campaign)
    reading = read_hex(hex_, rows)
    (hex_,) = with_actions(campaign, [hex_])
    context = {
        "campaign": campaign,
        "hex": hex_,
        "reading": reading,
        "lines": sheet(reading),
        "terrain_name": catalog.terrain_name(hex_.terrain, rows),
        "condition_names": [catalog.terrain_name(c, rows) for c in reading.inputs["conditions"]]
        + [c["name"] for c in reading.inputs["custom_conditions"]],
        "weather_names": [catalog.terrain_name(w) for w in reading.weather],
        "calculator": reverse("play:procedure", args=[campaign.code, "terrain.hex_modifiers"])
        + f"?hex={hex_.code}",
    }
    return render(request, "terrain/hex.html", context)


@gm_view("GET")
def row_fill(request: htmx.HtmxHttpRequest, campaign: Campaign, key: str) -> HttpResponse:
    """The terrain-row form for a row the seed names, with what the text states filled in."""
    seed = catalog.SEED_ROWS.get(key)
    if seed is None:
        raise Http404("The seed names no such row")
    row = TerrainRow.objects.in_campaign(campaign).filter(key=key).first()
    if row is not None:
        form = TerrainRowForm(instance=row, campaign=campaign)
    else:
        initial = {"key": seed.key, "name": seed.name, "kind": seed.kind, "notes": seed.source}
        initial.update(seed.known)
        form = TerrainRowForm(initial=initial, campaign=campaign)
    return htmx.form_card(request, htmx.FORM_CARD, families.kind("terrain-rows").card(campaign, form, row))
