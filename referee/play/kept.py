"""The players' page and the GM's dashboard, kept whole while the campaign has not changed,
and served again in one statement before the rest of the request machinery.

A player's page (``/c/<code>/``, or ``?show=all``) and the GM's (``/c/<code>/``) are rendered
once per campaign version, reader and choice, with a placeholder where the visitor's CSRF
token goes, and kept in the fragment cache (``fragments``) under a key that names, like a
fragment's, the code that rendered it, the static files it links, the campaign (id, code,
creation, ``state_version``) and the reader (role, id and name). The next request for it is
answered by the middleware here: the status poll's one statement (``poll.member``) vouches
for the session and the member exactly as ``django.contrib.auth`` would and reads the
campaign's version; the kept page gets this visitor's CSRF token, and the CSRF cookie is set
as the stack sets it.

Anything it cannot vouch for goes the usual way, which renders the page and keeps it: no or
an odd session, messages waiting to be shown, an HTMX request, any other query string (any
at all for the GM), a page not kept yet, a host not allowed, a request the stack would
redirect. Nothing is written: no session save."""

from __future__ import annotations

import hashlib
import re
import uuid
from functools import cache

from django.conf import settings
from django.contrib import messages
from django.contrib.messages.storage.cookie import CookieStorage
from django.contrib.staticfiles.storage import staticfiles_storage
from django.http import HttpRequest, HttpResponse
from django.middleware.csrf import CsrfViewMiddleware, get_token
from django.template.loader import render_to_string
from django.utils.cache import patch_vary_headers

from . import door as poll
from . import fragments

# The players' page (``campaigns:detail``), as the URL resolver's uuid converter reads it.
PAGE_PATH = re.compile(r"/c/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})/")
QUERIES = {"": False, "show=all": True}  # the query strings a kept page answers, and show_all
DEFAULT_MESSAGES = "django.contrib.messages.storage.fallback.FallbackStorage"


@cache
def _static_digest() -> str:
    """What names the static files the page links (their hashed names change with them)."""
    return getattr(staticfiles_storage, "manifest_hash", "") or "plain"


def reader_key(*, campaign_id, code, created_at, state_version, role, user_id, username) -> str:
    """What every kept page's key starts with: the code and static files it was rendered
    with, the campaign as of its version, and its reader."""
    created = created_at.timestamp() if created_at else 0
    return (
        f"{fragments.code_digest()}:{_static_digest()}:{campaign_id}:{code}:{created:.6f}:{state_version}"
        f":{role}:{user_id}:{username}"
    )


def row_reader(row: tuple) -> dict:
    """The campaign and reader a member's row of ``poll.member_sql`` names, as a key wants them."""
    user_id, campaign_id, state_version, created_at, username = row[1], *row[5:9]
    return {
        "campaign_id": campaign_id,
        "created_at": created_at,
        "state_version": state_version,
        "user_id": user_id,
        "username": username,
    }


def request_reader(campaign, request: HttpRequest) -> dict:
    """The campaign and reader of a page rendered for ``request``, as a key wants them."""
    return {
        "campaign_id": campaign.pk,
        "code": campaign.code,
        "created_at": campaign.created_at,
        "state_version": campaign.state_version,
        "user_id": request.user.pk,
        "username": request.user.get_username(),
    }


def page_key(*, show_all: bool, role: str = "player", **campaign_and_reader) -> str:
    return reader_key(role=role, **campaign_and_reader) + f":page:{'all' if show_all else 'first'}"


def plain_get(request: HttpRequest) -> bool:
    """A GET for a whole page (not HTMX's piece of one) under the default message storage."""
    return (
        request.method == "GET"
        and not getattr(request, "htmx", False)
        and settings.MESSAGE_STORAGE == DEFAULT_MESSAGES
    )


def keeps(request: HttpRequest) -> bool:
    """Whether this request for the players' page may be kept (and served kept)."""
    return plain_get(request) and request.META.get("QUERY_STRING", "") in QUERIES


def render_player_page(
    request: HttpRequest, template: str, context: dict, campaign, show_all: bool, *, role: str = "player"
) -> HttpResponse:
    """The players' page (or the GM's dashboard, ``role`` "gm"); rendered with the CSRF
    placeholder and kept when nothing in it belongs to this request alone (no message
    waiting; for the GM, only the plain page: their lists' other pages have URLs of their own)."""
    if not keeps(request) or (role == "gm" and show_all) or len(messages.get_messages(request)):
        return HttpResponse(render_to_string(template, context, request))
    key = page_key(show_all=show_all, role=role, **request_reader(campaign, request))
    html = render_to_string(template, {**context, "csrf_token": fragments.CSRF_PLACEHOLDER}, request)
    fragments.put(key, html)
    return HttpResponse(html.replace(fragments.CSRF_PLACEHOLDER, get_token(request)))


class KeptMiddleware(poll.StatusPollMiddleware):
    """Serves a kept page before the stack: the page at ``PATH`` (its first group the
    campaign's code) for a member whose row ``key`` names a kept page, ``fill``-ed with this
    visitor's CSRF token; every other request, and a page it cannot serve, goes on down."""

    PATH: re.Pattern

    def __init__(self, get_response):
        super().__init__(get_response)
        self.csrf = CsrfViewMiddleware(get_response)

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.method == "GET" and (found := self.PATH.fullmatch(request.path_info)):
            response = self.kept(request, found)
            if response is not None:
                return response
        return self.get_response(request)

    def wants(self, request: HttpRequest) -> bool:
        """Whether the request may be answered kept at all, before the database is asked."""
        return True

    def key(self, request: HttpRequest, row: tuple, found: re.Match) -> str | None:
        """The kept page's key for the member of ``row`` (``poll.member_sql``), or None."""
        raise NotImplementedError

    def fill(self, html: str, request: HttpRequest) -> str:
        return html.replace(fragments.CSRF_PLACEHOLDER, get_token(request))

    def kept(self, request: HttpRequest, found: re.Match) -> HttpResponse | None:
        if (
            not self.wants(request)
            or request.headers.get("HX-Request")
            or CookieStorage.cookie_name in request.COOKIES
            or settings.MESSAGE_STORAGE != DEFAULT_MESSAGES
            or not self.may_answer(request)
        ):
            return None
        row = poll.member(request, found.group(1))
        if row is None:
            return None
        poll.vouch(request, row)  # whatever answers, the user the session holds is read
        if poll.messages_waiting(row) or (key := self.key(request, row, found)) is None:
            return None
        html = fragments.get(key)
        if html is None:
            return None
        self.csrf.process_request(request)
        response = HttpResponse(self.fill(html, request))
        response = self.csrf.process_response(request, response)
        patch_vary_headers(response, ("Cookie",))  # as the session middleware marks a page read by session
        response["Content-Length"] = str(len(response.content))
        return self.finish(request, response)


class KeptPageMiddleware(KeptMiddleware):
    """Serves a player's kept page or a GM's kept dashboard (see the module's words)."""

    PATH = PAGE_PATH

    def wants(self, request: HttpRequest) -> bool:
        return request.META.get("QUERY_STRING", "") in QUERIES

    def key(self, request: HttpRequest, row: tuple, found: re.Match) -> str | None:
        query, role = request.META.get("QUERY_STRING", ""), row[3]
        if role not in ("player", "gm") or (role == "gm" and query):
            return None
        return page_key(code=found.group(1), show_all=QUERIES[query], role=role, **row_reader(row))


# --- the GM's procedure form, kept likewise ----------------------------------------------

# A procedure's page (``play:procedure``), as the URL resolver reads its code and procedure.
FORM_PATH = re.compile(
    r"/c/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})/play/([a-z0-9_.]{1,140})/"
)
# Where each shown form's request key goes (no text the app stores can hold a NUL).
REQUEST_KEY_PLACEHOLDER = "\x00request-key\x00"


def form_key(*, procedure_id, query, **campaign_and_reader) -> str:
    asked = hashlib.sha256(query.encode()).hexdigest()[:32]
    return reader_key(role="gm", **campaign_and_reader) + f":procedure-page:{procedure_id}:{asked}"


form_keeps = plain_get  # a procedure's page may be kept whatever its query string


def fresh(html: str, request: HttpRequest) -> str:
    """A kept page with this visitor's CSRF token and a request key of its own."""
    return html.replace(fragments.CSRF_PLACEHOLDER, get_token(request)).replace(
        REQUEST_KEY_PLACEHOLDER, str(uuid.uuid4())
    )


class KeptFormMiddleware(KeptMiddleware):
    """Serves a GM's kept procedure page (see the module's words)."""

    PATH = FORM_PATH

    def key(self, request: HttpRequest, row: tuple, found: re.Match) -> str | None:
        if row[3] != "gm":
            return None
        return form_key(
            code=found.group(1),
            procedure_id=found.group(2),
            query=request.META.get("QUERY_STRING", ""),
            **row_reader(row),
        )

    def fill(self, html: str, request: HttpRequest) -> str:
        return fresh(html, request)
