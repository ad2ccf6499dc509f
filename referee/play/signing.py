"""The server's signing key (Ed25519): what it signs, anyone holding its public half can
check without the server's secrets (a player's browser, ``verify_log`` on a player's
machine). The turn log's keyed hashes and HMAC signatures stay the server's own check;
this key is what lets others check the server.

The key is made from ``LOG_SIGNING_KEY`` when set, else derived from SECRET_KEY (as the
log's hash key is), so it survives restarts and no key sits in the repository or the
database: an owner of the database can read and rewrite every row, but cannot sign."""

from __future__ import annotations

import hashlib
from functools import cache

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from django.conf import settings


@cache
def _private(secret: str) -> Ed25519PrivateKey:
    seed = hashlib.sha256(b"referee turn log signing key\0" + secret.encode()).digest()
    return Ed25519PrivateKey.from_private_bytes(seed)


def _key() -> Ed25519PrivateKey:
    return _private(getattr(settings, "LOG_SIGNING_KEY", "") or settings.SECRET_KEY)


def public_key() -> str:
    """The public half, as 64 hex digits (what the players' page shows and exports carry)."""
    return _key().public_key().public_bytes(Encoding.Raw, PublicFormat.Raw).hex()


def sign(text: str) -> str:
    """The signature of ``text`` (its UTF-8 bytes), as 128 hex digits."""
    return _key().sign(text.encode()).hex()


def is_public_key(text: object) -> bool:
    return isinstance(text, str) and len(text) == 64 and all(c in "0123456789abcdef" for c in text)


def valid(public_key_hex: str, text: str, signature_hex: object) -> bool:
    """Whether ``signature_hex`` is the signature of ``text`` by the key ``public_key_hex``."""
    if not is_public_key(public_key_hex) or not isinstance(signature_hex, str) or len(signature_hex) != 128:
        return False
    try:
        key = Ed25519PublicKey.from_public_bytes(bytes.fromhex(public_key_hex))
        key.verify(bytes.fromhex(signature_hex), text.encode())
    except (ValueError, InvalidSignature):
        return False
    return True
