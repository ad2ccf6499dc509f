"""Campaign pages: list, create, dashboard (GM) or status (player), invites, joining."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.views import LoginView
from django.core.exceptions import NON_FIELD_ERRORS
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_http_methods

from referee import htmx
from referee.play import kept_pages, members
from referee.play.selectors import dashboard_context, player_context, players_context
from referee.play.services import PlayError

from . import services
from .access import gm_view, member_view
from .forms import CampaignForm, InviteForm, SignInForm
from .models import Campaign, Invite, Membership


@require_http_methods(["GET", "POST"])
def signup(request: htmx.HtmxHttpRequest) -> HttpResponse:
    form = UserCreationForm(htmx.posted(request))
    if form.is_valid():
        user = form.save()
        login(request, user)
        return redirect(_safe_next(request) or "campaigns:list")
    return render(request, "registration/signup.html", {"form": form}, status=htmx.form_status(form))


def _safe_next(request: htmx.HtmxHttpRequest) -> str | None:
    """``?next=`` when it stays on this site; a link elsewhere is dropped, never followed."""
    target = request.GET.get("next") or ""
    if url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return None


class SignInView(LoginView):
    """Sign in; refused with a 429 and a plain message after too many wrong passwords."""

    form_class = SignInForm

    def form_invalid(self, form):
        response = super().form_invalid(form)
        if form.has_error(NON_FIELD_ERRORS, "throttled"):
            response.status_code = 429
        return response


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
        return kept_pages.render_player_page(
            request, "campaigns/dashboard.html", dashboard_context(campaign), campaign, False, role="gm"
        )
    show_all = request.GET.get("show") == "all"
    context = player_context(campaign, request.user, show_all=show_all)
    return kept_pages.render_player_page(request, "campaigns/player.html", context, campaign, show_all)


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
