"""The one-click character templates (everything else runs through the play pages)."""

from __future__ import annotations

from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.urls import reverse

from referee import htmx
from referee.campaigns.models import Campaign
from referee.play.door import gm_view
from referee.play.selectors import dashboard_context
from rules.tables import characters as templates

from . import services
from .forms import RecruitForm


@gm_view("POST")
def recruit(request: htmx.HtmxHttpRequest, campaign: Campaign, template: str) -> HttpResponse:
    if template not in templates.TEMPLATES:
        raise Http404("No such character template")
    form = RecruitForm(request.POST, campaign=campaign)
    if not form.is_valid():
        context = {**dashboard_context(campaign), "recruit_form": form}
        return render(request, "logistics/panel.html#recruits-panel", context, status=htmx.INVALID)
    character = services.character_from_template(
        campaign=campaign,
        template=template,
        name=form.cleaned_data["name"],
        unit=form.cleaned_data["unit"],
    )
    text = f"{character.name} joins the campaign ({templates.TEMPLATES[template]['name']} template)."
    # The whole dashboard: the button swaps in this panel and, out of band, the characters list.
    return htmx.panel(
        request,
        "campaigns/dashboard.html",
        lambda: {**dashboard_context(campaign), "recruit_message": text},
        back_to=reverse("campaigns:detail", args=[campaign.code]),
        message=text,
    )
