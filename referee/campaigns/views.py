"""Campaign pages: list, create, dashboard (GM) or status (player), invites, joining."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import UserCreationForm
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods

from referee import htmx
from referee.play.selectors import dashboard_context, player_context

from . import services
from .access import gm_view, member_view
from .forms import CampaignForm
from .models import Campaign, Invite, Membership


@require_http_methods(["GET", "POST"])
def signup(request: htmx.HtmxHttpRequest) -> HttpResponse:
    form = UserCreationForm(htmx.posted(request))
    if form.is_valid():
        user = form.save()
        login(request, user)
        return redirect(request.GET.get("next") or "campaigns:list")
    return render(request, "registration/signup.html", {"form": form}, status=htmx.form_status(form))


@login_required
@require_http_methods(["GET", "POST"])
def campaign_list(request: htmx.HtmxHttpRequest) -> HttpResponse:
    form = CampaignForm(htmx.posted(request))
    if form.is_valid():
        campaign = services.campaign_create(
            name=form.cleaned_data["name"],
            year=form.cleaned_data["year"],
            turn_length_s=form.cleaned_data["turn_length_s"],
            creator=request.user,
        )
        messages.success(request, f"Campaign {campaign.name} created: you are its GM.")
        return redirect("campaigns:detail", code=campaign.code)
    memberships = Membership.objects.filter(user=request.user).select_related("campaign")
    context = {"memberships": memberships, "form": form}
    return render(request, "campaigns/list.html", context, status=htmx.form_status(form))


@member_view("GET")
def campaign_detail(request: htmx.HtmxHttpRequest, campaign: Campaign, role: str) -> HttpResponse:
    if role == "gm":
        return render(request, "campaigns/dashboard.html", dashboard_context(campaign))
    return render(request, "campaigns/player.html", player_context(campaign))


@gm_view("POST")
def invite_create(request: htmx.HtmxHttpRequest, campaign: Campaign) -> HttpResponse:
    services.invite_create(campaign=campaign, created_by=request.user)
    return _dashboard_panel(request, campaign, "invites-panel")


@gm_view("POST")
def invite_revoke(request: htmx.HtmxHttpRequest, campaign: Campaign, token) -> HttpResponse:
    invite = get_object_or_404(Invite, campaign=campaign, token=token)
    services.invite_revoke(invite=invite)
    return _dashboard_panel(request, campaign, "invites-panel")


def _dashboard_panel(
    request: htmx.HtmxHttpRequest, campaign: Campaign, partial: str, *, error: str = "", status: int = 200
) -> HttpResponse:
    """A panel of the dashboard about who plays (invites, members): no game state changed."""
    return htmx.panel(
        request,
        f"campaigns/dashboard.html#{partial}",
        lambda: {**dashboard_context(campaign), "members_error": error},
        back_to=reverse("campaigns:detail", args=[campaign.code]),
        status=status,
        message=error,
        changed=False,
    )


@login_required
@require_http_methods(["GET", "POST"])
def join(request: htmx.HtmxHttpRequest, token) -> HttpResponse:
    invite = get_object_or_404(Invite.objects.select_related("campaign"), token=token)
    if invite.revoked_at is not None:
        return render(request, "campaigns/join.html", {"invite": invite, "revoked": True}, status=410)
    if request.method == "POST":
        services.invite_accept(invite=invite, user=request.user)
        messages.success(request, f"You joined {invite.campaign.name}.")
        return redirect("campaigns:detail", code=invite.campaign.code)
    return render(request, "campaigns/join.html", {"invite": invite})


@gm_view("POST")
def member_remove(request: htmx.HtmxHttpRequest, campaign: Campaign, membership_id: int) -> HttpResponse:
    membership = get_object_or_404(Membership, campaign=campaign, pk=membership_id)
    try:
        services.membership_remove(membership=membership)
    except services.MembershipError as e:
        return _dashboard_panel(request, campaign, "members-panel", error=str(e), status=409)
    return _dashboard_panel(request, campaign, "members-panel")
