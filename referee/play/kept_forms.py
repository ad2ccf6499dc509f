"""The GM's procedure form, kept whole while the campaign has not changed, and served again
in one statement before the rest of the request machinery, as a player's page is
(``kept_pages``).

A procedure's page (``/c/<code>/play/<procedure>/?<roles>``) shown to a GM is rendered once
per campaign version, GM and query string, with placeholders where the visitor's CSRF
token and the form's request key go, and kept in the fragment cache under a key that names
the code that rendered it, the static files it links, the campaign (id, code, creation,
``state_version``), the GM (id and name), the procedure and the query string. The next
request for it is answered by the middleware here: the status poll's one statement
(``poll.member``) vouches for the session and the member exactly as ``django.contrib.auth``
would and reads the campaign's version; the kept page gets this visitor's CSRF token and a
new request key (a double click still returns the first roll; two tabs never share a key).

Anything it cannot vouch for goes the usual way, which renders the page and keeps it: no or
an odd session, a player, messages waiting to be shown, an HTMX request, a page not kept
yet, a host not allowed, a request the stack would redirect. Nothing is written."""

from __future__ import annotations

import hashlib
import re
import uuid

from django.conf import settings
from django.contrib.messages.storage.cookie import CookieStorage
from django.http import HttpRequest, HttpResponse
from django.middleware.csrf import CsrfViewMiddleware, get_token
from django.utils.cache import patch_vary_headers

from . import fragments, kept_pages, poll

# A procedure's page (``play:procedure``), as the URL resolver reads its code and procedure.
FORM_PATH = re.compile(
    r"/c/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})/play/([a-z0-9_.]{1,140})/"
)
# Where each shown form's request key goes (no text the app stores can hold a NUL).
REQUEST_KEY_PLACEHOLDER = "\x00request-key\x00"


def form_key(*, campaign_id, code, created_at, state_version, user_id, username, procedure_id, query) -> str:
    created = created_at.timestamp() if created_at else 0
    asked = hashlib.sha256(query.encode()).hexdigest()[:32]
    return (
        f"{fragments.code_digest()}:{kept_pages._static_digest()}:{campaign_id}:{code}:{created:.6f}"
        f":{state_version}:gm:{user_id}:{username}:procedure-page:{procedure_id}:{asked}"
    )


def keeps(request: HttpRequest) -> bool:
    """Whether this request for a procedure's page may be kept (and served kept)."""
    return (
        request.method == "GET"
        and not getattr(request, "htmx", False)
        and settings.MESSAGE_STORAGE == kept_pages.DEFAULT_MESSAGES
    )


def fresh(html: str, request: HttpRequest) -> str:
    """A kept page with this visitor's CSRF token and a request key of its own."""
    return html.replace(fragments.CSRF_PLACEHOLDER, get_token(request)).replace(
        REQUEST_KEY_PLACEHOLDER, str(uuid.uuid4())
    )


class KeptFormMiddleware(poll.StatusPollMiddleware):
    """Serves a GM's kept procedure page (see the module's words); every other request,
    and a page it cannot serve, goes on down the stack."""

    def __init__(self, get_response):
        super().__init__(get_response)
        self.csrf = CsrfViewMiddleware(get_response)

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.method == "GET" and (found := FORM_PATH.fullmatch(request.path_info)):
            response = self.kept(request, *found.groups())
            if response is not None:
                return response
        return self.get_response(request)

    def kept(self, request: HttpRequest, code: str, procedure_id: str) -> HttpResponse | None:
        if (
            request.headers.get("HX-Request")
            or CookieStorage.cookie_name in request.COOKIES
            or settings.MESSAGE_STORAGE != kept_pages.DEFAULT_MESSAGES
            or not self.may_answer(request)
        ):
            return None
        row = poll.member(request, code)
        if row is None:
            return None
        poll.vouch(request, row)  # whatever answers, the user the session holds is read
        if row[3] != "gm" or poll.messages_waiting(row):
            return None
        user_id, campaign_id, state_version, created_at, username = row[1], *row[5:9]
        key = form_key(
            campaign_id=campaign_id,
            code=code,
            created_at=created_at,
            state_version=state_version,
            user_id=user_id,
            username=username,
            procedure_id=procedure_id,
            query=request.META.get("QUERY_STRING", ""),
        )
        html = fragments.get(key)
        if html is None:
            return None
        self.csrf.process_request(request)
        response = HttpResponse(fresh(html, request))
        response = self.csrf.process_response(request, response)
        patch_vary_headers(response, ("Cookie",))  # as the session middleware marks a page read by session
        response["Content-Length"] = str(len(response.content))
        return self.finish(request, response)
