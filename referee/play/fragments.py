"""Rendered pieces of pages, kept while the campaign they show has not changed.

A fragment (``{% fragment "ships-panel" %}…{% endfragment %}``, from the ``fragments``
template library) is rendered once per campaign version and kept in the ``fragments``
cache. Its key names:

- the release the fragment was rendered by (``settings.RELEASE``), so a deployment never
  serves what its predecessor rendered;
- the campaign: its id, code and creation time (a database made afresh, or a campaign
  restored elsewhere, never meets another's fragments) and its ``state_version``, which the
  database moves on every change to anything the campaign holds (``CampaignScoped``);
- who reads it: the role, and the user (a player's page shows only what that player may
  see; a GM's fragment is never served to a player, nor one player's to another);
- whether the request came from HTMX (a refreshed panel closes the page's form slot).

The version must be read before anything is rendered and must still be the version of what
is rendered, so only GET and HEAD requests read or fill the cache: a POST that changed the
campaign renders its panels afresh (its campaign object still holds the version it read
before the change). A fragment rendered while another request changed the campaign is kept
under the older version, which no later request reads.

Every process of every app server may keep its own copy (the cache is files on the host);
the key, not the cache, is what keeps fragments right, so two app servers never disagree
for longer than one request. CSRF tokens differ per visitor: a fragment is rendered with a
placeholder in their place and each request puts its own token in."""

from __future__ import annotations

import logging
import random
from functools import cache

from django.conf import settings
from django.contrib.staticfiles.storage import staticfiles_storage
from django.core.cache import caches
from django.core.cache.backends.filebased import FileBasedCache
from django.utils.safestring import SafeString, mark_safe

logger = logging.getLogger(__name__)

CACHE_ALIAS = "fragments"
# No text the app stores can hold a NUL (PostgreSQL refuses it), so nothing rendered from
# the campaign can look like the placeholder.
CSRF_PLACEHOLDER = "\x00csrf-token\x00"
# Where each shown form's request key goes (``kept``).
REQUEST_KEY_PLACEHOLDER = "\x00request-key\x00"
ROLES = ("gm", "player")


def release() -> str:
    """The deployment's release id (``settings.RELEASE``): what a kept piece was rendered by.
    A deployment sets its own (the image's build); a local run takes its start time, so a
    server started on changed code never serves what its predecessor rendered."""
    return str(settings.RELEASE)


@cache
def _static_digest() -> str:
    """What names the static files a page links (their hashed names change with them)."""
    return getattr(staticfiles_storage, "manifest_hash", "") or "plain"


def key(campaign, role: str, user, *parts: str) -> str:
    """The one cache key of anything kept for a campaign's version: a fragment, a kept page,
    a record select's choices. It names the release and static files it was rendered with,
    the campaign (id, code, creation, ``state_version``), the reader (role, and the user's
    id and name; None for what every GM shares) and ``parts``, what the caller keeps."""
    created = campaign.created_at.timestamp() if campaign.created_at else 0
    reader = "-" if user is None else f"{user.pk}:{user.get_username()}"
    return ":".join(
        [
            release(),
            _static_digest(),
            str(campaign.pk),
            str(campaign.code),
            f"{created:.6f}",
            str(campaign.state_version),
            role,
            reader,
            *parts,
        ]
    )


def key_for(context, name: str) -> str | None:
    """A ``{% fragment %}``'s cache key, or None when this rendering must not use the cache."""
    request = context.get("request")
    campaign = context.get("campaign")
    role = context.get("role")
    if request is None or campaign is None or role not in ROLES:
        return None
    if request.method not in ("GET", "HEAD"):
        return None
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return None
    return key(campaign, role, user, "htmx" if getattr(request, "htmx", False) else "page", name)


def get(key: str) -> str | None:
    try:
        return caches[CACHE_ALIAS].get(key)
    except OSError:  # a cache folder the server cannot read: render, as without a cache
        logger.warning("The fragment cache could not be read.", exc_info=True)
        return None


def put(key: str, html: str) -> None:
    try:
        caches[CACHE_ALIAS].set(key, html)
    except OSError:
        logger.warning("The fragment cache could not be written.", exc_info=True)


class FileCache(FileBasedCache):
    """Django's file cache, but making room only on every ``CULL_EVERY``-th write of a
    process: the stock one lists the whole folder before each write, which with thousands
    of kept fragments cost more than rendering one. The folder holds at most
    ``MAX_ENTRIES`` plus ``CULL_EVERY`` files per process writing to it."""

    CULL_EVERY = 64

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._writes = 0

    def _cull(self):
        self._writes += 1
        if self._writes % self.CULL_EVERY:
            return
        files = self._list_cache_files()
        if len(files) < self._max_entries:
            return
        # Back under the limit, and a share more (CULL_FREQUENCY) to make room.
        excess = len(files) - self._max_entries + self._max_entries // max(self._cull_frequency, 1)
        for name in random.sample(files, min(excess, len(files))):
            self._delete(name)


def with_csrf(html: str, context) -> SafeString:
    """The fragment with this request's CSRF token where the placeholder stands."""
    if CSRF_PLACEHOLDER in html:
        html = html.replace(CSRF_PLACEHOLDER, str(context.get("csrf_token", "")))
    return mark_safe(html)  # rendered by the template engine, which escaped what it holds
