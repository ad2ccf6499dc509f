"""Campaign pages: list, create, dashboard (GM) or status (player), invites, joining, and the
players' status poll."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse, HttpResponseNotAllowed
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods

from referee import htmx
from referee.campaigns import services
from referee.campaigns.access import gm_view, member_view
from referee.campaigns.forms import CampaignForm, InviteForm
from referee.campaigns.models import Campaign, Invite, Membership
from referee.play import kept, members
from referee.play.selectors import dashboard_context, poll_version
from referee.play.services import PlayError

from .selectors import membership_for_poll, player_context, players_context


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
        return kept.render_player_page(
            request, "campaigns/dashboard.html", dashboard_context(campaign), campaign, False, role="gm"
        )
    show_all = request.GET.get("show") == "all"
    context = player_context(campaign, request.user, show_all=show_all)
    return kept.render_player_page(request, "campaigns/player.html", context, campaign, show_all)


@gm_view("GET")
def players(request: htmx.HtmxHttpRequest, campaign: Campaign) -> HttpResponse:
    """Who plays and the invite links: for HTMX the dashboard's folded group, read the
    first time the GM opens it; otherwise a page of their own."""
    return htmx.page(request, "campaigns/players.html", players_context(campaign), partial="players")


@gm_view("POST")
def invite_create(request: htmx.HtmxHttpRequest, campaign: Campaign) -> HttpResponse:
    form = InviteForm(request.POST)
    if not form.is_valid():
        error = " ".join(f"{form[name].label}: {' '.join(errors)}" for name, errors in form.errors.items())
        return _dashboard_panel(
            request, campaign, "invites-panel", error=error, status=htmx.INVALID, form=form
        )
    members.invite_create(  # on the record, GM-only
        campaign=campaign,
        created_by=request.user,
        days=form.cleaned_data["days"],
        max_uses=form.cleaned_data["max_uses"],
    )
    return _dashboard_panel(request, campaign, "invites-panel")


@gm_view("POST")
def invite_revoke(request: htmx.HtmxHttpRequest, campaign: Campaign, token) -> HttpResponse:
    invite = get_object_or_404(Invite, campaign=campaign, token=token)
    members.invite_revoke(invite=invite, actor=request.user)
    return _dashboard_panel(request, campaign, "invites-panel")


def _dashboard_panel(
    request: htmx.HtmxHttpRequest,
    campaign: Campaign,
    partial: str,
    *,
    error: str = "",
    status: int = 200,
    form: InviteForm | None = None,
) -> HttpResponse:
    """A panel of the dashboard about who plays (invites, members); the change is in the log,
    so the page's other panels follow."""
    extra = {"invite_form": form} if form is not None else {}
    return htmx.panel(
        request,
        f"campaigns/players.html#{partial}",
        lambda: {**players_context(campaign), "members_error": error, **extra},
        back_to=reverse("campaigns:players", args=[campaign.code]),
        status=status,
        message=error,
    )


@login_required
@require_http_methods(["GET", "POST"])
def join(request: htmx.HtmxHttpRequest, token) -> HttpResponse:
    invite = get_object_or_404(Invite.objects.select_related("campaign"), token=token)
    if request.method == "POST":
        try:
            members.member_join(invite=invite, user=request.user)
        except (services.MembershipError, PlayError) as error:
            return render(
                request, "campaigns/join.html", {"invite": invite, "refusal": str(error)}, status=410
            )
        messages.success(request, f"You joined {invite.campaign.name}.")
        return redirect("campaigns:detail", code=invite.campaign.code)
    if invite.campaign.role_of(request.user):
        return redirect("campaigns:detail", code=invite.campaign.code)
    if refusal := invite.refusal():
        return render(request, "campaigns/join.html", {"invite": invite, "refusal": refusal}, status=410)
    return render(request, "campaigns/join.html", {"invite": invite})


@gm_view("POST")
def member_remove(request: htmx.HtmxHttpRequest, campaign: Campaign, membership_id: int) -> HttpResponse:
    membership = get_object_or_404(Membership, campaign=campaign, pk=membership_id)
    try:
        members.member_remove(membership=membership, actor=request.user)
    except (services.MembershipError, PlayError) as e:
        return _dashboard_panel(request, campaign, "members-panel", error=str(e), status=409)
    return _dashboard_panel(request, campaign, "members-panel")


def status_poll(request: htmx.HtmxHttpRequest, code) -> HttpResponse:
    """Players' live status: 204 when nothing they can see changed since version ``v``
    (one query beyond authentication: the membership, the campaign's version and its count
    of hidden entries together), else the refreshed panel. Members only: 404 for others.
    A signed-in member's "nothing changed" is answered before this view (``poll``)."""
    if request.method not in ("GET", "HEAD"):
        return HttpResponseNotAllowed(["GET"])
    membership = membership_for_poll(request.user, code)
    if membership is None:
        raise Http404("No such campaign")
    campaign, role = membership.campaign, membership.role
    version = poll_version(campaign, role, hidden=membership.hidden)
    if request.GET.get("v", "") == version or request.GET.get("watch"):
        response = HttpResponse(status=204)
    else:
        context = player_context(
            campaign, request.user, role=role, version=version, show_all=request.GET.get("show") == "all"
        )
        response = render(request, "campaigns/player.html#status-panel", context)
    response["X-Campaign-Version"] = version
    return response
