"""One access helper per role: outsiders get 404 on every campaign URL."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest

from .models import Campaign, Membership, Role


def _membership(request: HttpRequest, code) -> Membership:
    if not request.user.is_authenticated:
        raise Http404("No such campaign")
    try:
        return Membership.objects.select_related("campaign").get(campaign__code=code, user=request.user)
    except (Membership.DoesNotExist, ValueError):
        raise Http404("No such campaign") from None


def campaign_for_member(request: HttpRequest, code) -> tuple[Campaign, str]:
    """The campaign and the user's role in it; 404 for anyone who is not a member."""
    membership = _membership(request, code)
    return membership.campaign, membership.role


def campaign_for_gm(request: HttpRequest, code) -> Campaign:
    """The campaign, for its GMs only: 404 for outsiders, 403 for players."""
    membership = _membership(request, code)
    if membership.role != Role.GM:
        raise PermissionDenied("Only the campaign's GM can do that.")
    return membership.campaign
