"""Campaign pages: list, create, dashboard (GM) or status (player), invites, joining, and the
players' status poll."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.response import TemplateResponse
from django.urls import reverse
from django.views.decorators.http import require_http_methods

from referee import htmx
from referee.campaigns import services
from referee.campaigns.forms import CampaignForm, InviteForm
from referee.campaigns.models import Campaign, Invite, Membership
from referee.play import door, members
from referee.play.door import gm_view, member_view
from referee.play.kept import kept
from referee.play.selectors import dashboard_context
from referee.play.services import PlayError

from .selectors import player_context, players_context


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


PLAYER_PAGES = {"": "first", "show=all": "all"}  # the query strings the players' page is cached for


def _page_name(request: htmx.HtmxHttpRequest, campaign: Campaign, role: str) -> str | None:
    """The page's name in the cache key (``@kept``) for a query string: the players' page
    and its "Show all", the GM's dashboard without a query (its lists' other pages have
    URLs of their own); None bypasses the cache."""
    query = request.META.get("QUERY_STRING", "")
    if role == "gm":
        return "dashboard" if not query else None
    return PLAYER_PAGES.get(query)


@member_view("GET")
@kept(key=_page_name)
def campaign_detail(request: htmx.HtmxHttpRequest, campaign: Campaign, role: str) -> HttpResponse:
    if role == "gm":
        return TemplateResponse(request, "campaigns/dashboard.html", dashboard_context(campaign))
    show_all = request.GET.get("show") == "all"
    context = player_context(campaign, request.user, show_all=show_all)
    return TemplateResponse(request, "campaigns/player.html", context)


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


@member_view("GET")
def status_poll(request: htmx.HtmxHttpRequest, campaign: Campaign, role: str) -> HttpResponse:
    """Players' live status: 204 when nothing they can see changed since version ``v``
    (the version comes from the statement that authenticated the request), else the panel;
    ``watch`` (a GM page's) asks only for the version. Members only: 404 for others."""
    version = door.visitor_of(request).version
    if request.GET.get("v", "") == version or request.GET.get("watch"):
        response = HttpResponse(status=204)
    else:
        context = player_context(
            campaign, request.user, role=role, version=version, show_all=request.GET.get("show") == "all"
        )
        response = render(request, "campaigns/player.html#status-panel", context)
    response["X-Campaign-Version"] = version
    return response
