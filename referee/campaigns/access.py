"""One access helper per role: outsiders get 404 on every campaign URL."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps

from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotAllowed

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


def _allowed(request: HttpRequest, methods: tuple[str, ...]) -> HttpResponseNotAllowed | None:
    if request.method in methods or (request.method == "HEAD" and "GET" in methods):
        return None
    return HttpResponseNotAllowed(methods)


def member_view(*methods: str) -> Callable:
    """A campaign page for its members: the view gets ``(request, campaign, role, ...)``.

    Access is checked before the method, so an outsider learns nothing (404)."""

    def decorate(view: Callable) -> Callable:
        @wraps(view)
        def wrapper(request: HttpRequest, code, *args, **kwargs) -> HttpResponse:
            campaign, role = campaign_for_member(request, code)
            return _allowed(request, methods) or view(request, campaign, role, *args, **kwargs)

        return wrapper

    return decorate


def gm_view(*methods: str) -> Callable:
    """A campaign action for its GMs: the view gets ``(request, campaign, ...)``."""

    def decorate(view: Callable) -> Callable:
        @wraps(view)
        def wrapper(request: HttpRequest, code, *args, **kwargs) -> HttpResponse:
            campaign = campaign_for_gm(request, code)
            return _allowed(request, methods) or view(request, campaign, *args, **kwargs)

        return wrapper

    return decorate
