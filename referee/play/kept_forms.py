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

from django.http import HttpRequest
from django.middleware.csrf import get_token

from . import fragments, kept_pages

# A procedure's page (``play:procedure``), as the URL resolver reads its code and procedure.
FORM_PATH = re.compile(
    r"/c/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})/play/([a-z0-9_.]{1,140})/"
)
# Where each shown form's request key goes (no text the app stores can hold a NUL).
REQUEST_KEY_PLACEHOLDER = "\x00request-key\x00"


def form_key(*, procedure_id, query, **campaign_and_reader) -> str:
    asked = hashlib.sha256(query.encode()).hexdigest()[:32]
    return kept_pages.reader_key(role="gm", **campaign_and_reader) + f":procedure-page:{procedure_id}:{asked}"


keeps = kept_pages.plain_get  # a procedure's page may be kept whatever its query string


def fresh(html: str, request: HttpRequest) -> str:
    """A kept page with this visitor's CSRF token and a request key of its own."""
    return html.replace(fragments.CSRF_PLACEHOLDER, get_token(request)).replace(
        REQUEST_KEY_PLACEHOLDER, str(uuid.uuid4())
    )


class KeptFormMiddleware(kept_pages.KeptMiddleware):
    """Serves a GM's kept procedure page (see the module's words)."""

    PATH = FORM_PATH

    def key(self, request: HttpRequest, row: tuple, found: re.Match) -> str | None:
        if row[3] != "gm":
            return None
        return form_key(
            code=found.group(1),
            procedure_id=found.group(2),
            query=request.META.get("QUERY_STRING", ""),
            **kept_pages.row_reader(row),
        )

    def fill(self, html: str, request: HttpRequest) -> str:
        return fresh(html, request)
