"""Sign-in throttling: after too many wrong passwords for one account, or from one address,
within a window, sign-in is refused (even with the right password) until the window passes.

Failures are rows in the database (``LoginFailure``), never process memory, so every worker
and host counts the same failures."""

from __future__ import annotations

import ipaddress
import math
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta

from django.conf import settings
from django.db import connection, transaction
from django.http import HttpRequest
from django.utils import timezone

from .models import LoginFailure

WINDOW = timedelta(minutes=15)
# One account: a person mistyping does not reach five in a quarter hour; a guesser gets five.
PER_ACCOUNT = 5
# One address: players at one table (or behind one NAT) share it, so it allows more.
PER_ADDRESS = 20


def client_address(request: HttpRequest) -> str | None:
    """The visitor's address: from the proxy's header when one is configured
    (``CLIENT_ADDRESS_HEADER``, set only where a trusted proxy writes it), else the socket's."""
    header = getattr(settings, "CLIENT_ADDRESS_HEADER", "")
    value = (request.META.get(header, "") if header else "") or request.META.get("REMOTE_ADDR", "")
    value = value.split(",")[-1].strip()
    try:
        return str(ipaddress.ip_address(value))
    except ValueError:
        return None  # not an address: counted per account only


def _normal(username: str) -> str:
    return (username or "").strip().lower()[:150]


@contextmanager
def judging(*, username: str, address: str | None) -> Iterator[None]:
    """One sign-in judged at a time per account and per address: the check of the count,
    the password's and the failure's record hold a transaction's advisory locks on both
    (always the account's first, so two never wait on each other), so twelve parallel
    wrong passwords are counted one after another and at most the limit are judged."""
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_advisory_xact_lock(hashtextextended(%s, 1))", ["sign-in account:" + _normal(username)]
        )
        if address:
            cursor.execute(
                "SELECT pg_advisory_xact_lock(hashtextextended(%s, 1))", ["sign-in address:" + address]
            )
        yield


def refusal(*, username: str, address: str | None) -> str | None:
    """Why sign-in is refused now, for the visitor to read; None when it may go ahead."""
    since = timezone.now() - WINDOW
    recent = LoginFailure.objects.filter(at__gt=since)
    for failures, limit in (
        (recent.filter(username=_normal(username)), PER_ACCOUNT),
        (recent.filter(address=address) if address else recent.none(), PER_ADDRESS),
    ):
        times = list(failures.order_by("-at").values_list("at", flat=True)[:limit])
        if len(times) >= limit:
            # Open again once the oldest of the last ``limit`` failures leaves the window.
            minutes = max(1, math.ceil((times[-1] + WINDOW - timezone.now()).total_seconds() / 60))
            return (
                f"Too many wrong passwords. Sign-in is paused for this account or this address: "
                f"try again in {minutes} minute{'s' if minutes != 1 else ''}."
            )
    return None


def failure_record(*, username: str, address: str | None) -> None:
    LoginFailure.objects.filter(at__lt=timezone.now() - WINDOW).delete()  # old ones count for nothing
    LoginFailure.objects.create(username=_normal(username), address=address)


def success_record(*, username: str) -> None:
    """The right password, outside a pause: the account's earlier slips are forgiven."""
    LoginFailure.objects.filter(username=_normal(username)).delete()
