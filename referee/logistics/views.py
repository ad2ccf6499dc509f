"""The one-click character templates (everything else runs through the play pages)."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django_htmx.http import trigger_client_event

from referee.campaigns.access import gm_view
from referee.campaigns.models import Campaign
from referee.play.selectors import dashboard_context
from rules.tables import characters as templates

from . import services
from .forms import RecruitForm


@gm_view("POST")
def recruit(request: HttpRequest, campaign: Campaign, template: str) -> HttpResponse:
    if template not in templates.TEMPLATES:
        raise Http404("No such character template")
    form = RecruitForm(request.POST, campaign=campaign)
    if not form.is_valid():
        context = {**dashboard_context(campaign), "recruit_form": form}
        return render(request, "logistics/panel.html#recruits-panel", context, status=422)
    character = services.character_from_template(
        campaign=campaign,
        template=template,
        name=form.cleaned_data["name"],
        unit=form.cleaned_data["unit"],
    )
    text = f"{character.name} joins the campaign ({templates.TEMPLATES[template]['name']} template)."
    if not request.htmx:
        messages.success(request, text)
        return redirect("campaigns:detail", code=campaign.code)
    # The whole dashboard: the button swaps in this panel and, out of band, the characters list.
    context = {**dashboard_context(campaign), "recruit_message": text}
    response = render(request, "campaigns/dashboard.html", context)
    return trigger_client_event(response, "campaign-changed")
