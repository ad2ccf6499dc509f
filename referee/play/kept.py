"""Whole-page cache for campaign pages while the campaign has not changed: ``@kept(key=...)``.

A view wrapped by ``door.gm_view``/``member_view`` and then by ``kept`` returns a
``TemplateResponse``. For a plain GET of a whole page (not an HTMX partial, no message
waiting to be shown) whose ``key`` names it, the decorator looks the page up in the
``fragments`` cache under the one key builder ``fragments.key`` (the release, the
campaign's version, the reader and the page's name). On a cache hit the view is not
called; on a cache miss it renders the view's response with a placeholder where the CSRF
token goes and stores it. Either way the response gets this visitor's CSRF token and,
where the page holds a form's request key (``REQUEST_KEY_PLACEHOLDER``), a fresh one (a
double click still returns the first roll; two tabs never share a key). A page without
request keys gets an ``ETag`` (a hash of the cached page's digest, kept with it, and the
visitor's CSRF secret),
so Django's ``ConditionalGetMiddleware`` answers a reload with 304 Not Modified.

The request runs the whole middleware stack either way: ``door`` authenticates it in one
statement, and the cache supplies the page."""

from __future__ import annotations

import hashlib
import uuid
from collections.abc import Callable
from functools import wraps

from django.conf import settings
from django.contrib.messages.storage.cookie import CookieStorage
from django.http import HttpRequest, HttpResponse
from django.middleware.csrf import get_token
from django.template.response import TemplateResponse
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.http import quote_etag

from . import door, fragments
from .fragments import CSRF_PLACEHOLDER, REQUEST_KEY_PLACEHOLDER

DEFAULT_MESSAGES = "django.contrib.messages.storage.fallback.FallbackStorage"


def may_keep(request: HttpRequest, visitor: door.Visitor | None) -> bool:
    """Whether the response may come from the cache: a GET for a whole page (not an HTMX
    partial) with no message waiting for it."""
    return (
        visitor is not None
        and request.method in ("GET", "HEAD")
        and not getattr(request, "htmx", False)
        and settings.MESSAGE_STORAGE == DEFAULT_MESSAGES
        and not request.COOKIES.get(CookieStorage.cookie_name)
        and not visitor.messages_waiting
    )


# The placeholders as they appear in a page's bytes: kept pages are kept, filled and sent as
# bytes, so serving one again neither decodes nor encodes it.
CSRF_MARK = CSRF_PLACEHOLDER.encode()
REQUEST_KEY_MARK = REQUEST_KEY_PLACEHOLDER.encode()


def fill(page: bytes, request: HttpRequest) -> bytes:
    """A page rendered with placeholders, with this visitor's CSRF token and a request key of its own."""
    if CSRF_MARK in page:
        page = page.replace(CSRF_MARK, get_token(request).encode())
    if REQUEST_KEY_MARK in page:
        page = page.replace(REQUEST_KEY_MARK, str(uuid.uuid4()).encode())
    return page


def page_digest(page: bytes) -> str:
    """What names a kept page's content, computed once when it is kept."""
    return hashlib.sha256(page).hexdigest()


def kept_page(value) -> tuple[bytes, str | None]:
    """(page, its digest) as the cache holds it; a page kept as text, without its digest, has None."""
    if isinstance(value, tuple):
        digest, page = value
        return page, digest
    return value.encode(), None


def _finish(
    request: HttpRequest,
    response: HttpResponse,
    page: bytes,
    cache_key: str | None,
    digest: str | None = None,
) -> HttpResponse:
    response.content = fill(page, request)
    if cache_key is not None and REQUEST_KEY_MARK not in page:
        secret = request.META.get("CSRF_COOKIE", "")
        # The ETag hashes the page's content, not its cache key: the key holds the campaign's
        # version, which a GM-only change moves too, and a player's reload must stay a 304.
        # The page's own digest is kept with it, so a cache hit hashes only that and the secret.
        digest = digest or page_digest(page)
        response["ETag"] = quote_etag(hashlib.sha256(f"{digest}:{secret}".encode()).hexdigest()[:32])
        patch_cache_control(response, private=True, no_cache=True)
    patch_vary_headers(response, ("Cookie",))  # the page is the session's reader's
    return response


def kept(*, key: Callable[..., str | None]) -> Callable:
    """Cache the view's page while the campaign has not changed. ``key(request, *args,
    **kwargs)``, called with the view's arguments, names the page in the cache key (None:
    render it and bypass the cache, as for a query string the page is not cached for)."""

    def decorate(view: Callable) -> Callable:
        @wraps(view)
        def wrapper(request: HttpRequest, *args, **kwargs) -> HttpResponse:
            visitor = door.visitor_of(request)
            cache_key = None
            if may_keep(request, visitor) and (name := key(request, *args, **kwargs)) is not None:
                cache_key = fragments.key(visitor.campaign, visitor.role, visitor.user, "page", name)
                found = fragments.get(cache_key)
                if found is not None:  # cache hit: the view is not called
                    page, digest = kept_page(found)
                    return _finish(request, HttpResponse(), page, cache_key, digest)
            response = view(request, *args, **kwargs)
            if not isinstance(response, TemplateResponse):
                return response
            if cache_key is not None and response.status_code == 200:
                response.context_data = {**(response.context_data or {}), "csrf_token": CSRF_PLACEHOLDER}
            response.render()
            page = response.content
            if cache_key is not None and response.status_code == 200:
                digest = page_digest(page)
                fragments.put(cache_key, (digest, page))
                return _finish(request, response, page, cache_key, digest)
            return _finish(request, response, page, None)

        return wrapper

    return decorate
