"""Sign-in throttling: after too many wrong passwords for one account, or from one address,
within a window, sign-in is refused (even with the right password) until the window passes.

Failures are rows in the database (``LoginFailure``), never process memory, so every worker
and host counts the same failures."""

from __future__ import annotations

import ipaddress
import math
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


def attempt_begin(*, username: str, address: str | None) -> tuple[str | None, int | None]:
    """One sign-in counted at a time per account and per address: under a transaction's
    advisory locks on both (always the account's first, so two never wait on each other),
    the count is checked and, if sign-in may go ahead, the attempt is recorded as a failure
    until its password is judged (``success_record``, ``attempt_forget``). The locks are
    released before the password is hashed, so a slow hash holds nobody up, and twelve
    parallel wrong passwords still count one after another: at most the limit are judged.

    Returns why sign-in is refused now (for the visitor to read) and no attempt, or no
    refusal and the attempt's id."""
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_advisory_xact_lock(hashtextextended(%s, 1))", ["sign-in account:" + _normal(username)]
        )
        if address:
            cursor.execute(
                "SELECT pg_advisory_xact_lock(hashtextextended(%s, 1))", ["sign-in address:" + address]
            )
        if message := refusal(username=username, address=address):
            return message, None
        LoginFailure.objects.filter(at__lt=timezone.now() - WINDOW).delete()  # old ones count for nothing
        return None, LoginFailure.objects.create(username=_normal(username), address=address).pk


def attempt_forget(attempt: int) -> None:
    """An attempt that was no wrong password after all (the form refused it for another
    reason): it counts for nothing."""
    LoginFailure.objects.filter(pk=attempt).delete()


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


def success_record(*, username: str) -> None:
    """The right password, outside a pause: the account's earlier slips (and this attempt,
    counted until it was judged) are forgiven."""
    LoginFailure.objects.filter(username=_normal(username)).delete()
