"""Sessions in the database, keyed only by what Django makes a key of.

Django's session keys are 32 lowercase letters and digits. A cookie can carry anything,
a NUL included (a quoted cookie's ``\\000`` escape reads as one), and PostgreSQL refuses a
NUL in a query with an error every page would answer 500 to; any key that is not letters
and digits is no session at all, as an unknown key is."""

from __future__ import annotations

from django.contrib.sessions.backends.db import SessionStore as DatabaseSessionStore


def well_formed(key: str | None) -> bool:
    return bool(key) and 8 <= len(key) <= 40 and key.isascii() and key.isalnum()


class SessionStore(DatabaseSessionStore):
    def _validate_session_key(self, key) -> bool:
        return isinstance(key, str) and well_formed(key)
