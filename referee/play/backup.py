"""A campaign as one JSON document, and back.

The backup holds the campaign row, every row of every model that points at the
campaign (memberships, invites, star systems, ships, units, characters, markers and
whatever is added later) and the whole turn log. Rows are written generically from
each model's concrete fields, so a new field or model is carried without an edit here.
A foreign key is written as the related object's natural key, never as a database id:
users by username, the log by ``seq``, everything else by its ``code`` (or ``token``).

Restoring recreates everything with the same codes, and the log with the same seq,
hashes and timestamps, in one transaction; the restored chain is verified before the
transaction commits."""

from __future__ import annotations

import base64
import datetime as dt
import hmac
import json
import logging
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

import orjson
import pgtrigger
from django.apps import apps
from django.contrib.auth import get_user_model
from django.contrib.postgres.fields import ArrayField
from django.core.exceptions import FieldDoesNotExist, ValidationError
from django.db import DatabaseError, connection, models, transaction
from django.db.models import F
from django.db.models.fields import AutoFieldMixin
from django.utils import timezone
from django.utils.duration import duration_iso_string

from referee.campaigns.models import Campaign, touch_campaign_trigger_uris

from . import integrity
from .log_sql import ENTRIES_IN_BATCH, LOG, streamed_batches
from .models import GENESIS_HASH, HASH_SCHEME, LogEntry, LogSeal, public_root
from .wording import Namer, words_of

logger = logging.getLogger(__name__)

BACKUP_FORMAT = "referee-backup/1"
CHUNK = 2000
# Log entries PostgreSQL writes per batch: the backup holds about 8 MB at its peak.
LOG_BATCH = 500


class BackupError(ValueError):
    """A model the backup cannot describe (a foreign key without a natural key)."""


class RestoreError(ValueError):
    """A document that cannot be restored; nothing was written. The message is in plain
    words for a GM on the restore page; ``command_hint`` adds what to type to the
    ``restore_campaign`` command, where there is something to type."""

    def __init__(self, message: str, *, command_hint: str = ""):
        super().__init__(message)
        self.command_hint = command_hint


def _kind(label: str) -> str:
    """A kind of row by the name a person knows it by ("ships"), from its label in a backup
    ("fleet.ship"); a label this app does not know is "records of an unknown kind"."""
    try:
        return str(apps.get_model(label)._meta.verbose_name_plural)
    except (LookupError, ValueError):
        return "records of an unknown kind"


class CampaignExists(RestoreError):
    pass


# --- which rows belong to a campaign -------------------------------------------------


def _campaign_fk(model: type[models.Model]) -> models.ForeignKey | None:
    fks = [
        f
        for f in model._meta.concrete_fields
        if f.many_to_one and f.remote_field.model is Campaign and not f.primary_key
    ]
    return fks[0] if len(fks) == 1 else None


def owned_models() -> list[type[models.Model]]:
    """Every concrete model with one foreign key to Campaign, the log and its seal aside
    (the seal is made again on restore, from the restored log), in an
    order where a model comes after the models it points at (ids are allocated up
    front, so the order only makes the document easier to read)."""
    found = [
        m
        for m in apps.get_models()
        if m not in (LogEntry, LogSeal) and not m._meta.proxy and _campaign_fk(m) is not None
    ]
    ordered: list[type[models.Model]] = []
    pending = sorted(found, key=lambda m: m._meta.label_lower)
    while pending:
        for model in pending:
            deps = {f.remote_field.model for f in model._meta.concrete_fields if f.is_relation} - {model}
            if not (deps & set(pending)):
                ordered.append(model)
                pending.remove(model)
                break
        else:  # a cycle: keep the rest in name order
            ordered += pending
            break
    return ordered


def natural_key_field(model: type[models.Model]) -> str:
    """The field a foreign key to ``model`` is written as."""
    if model is get_user_model():
        return model.USERNAME_FIELD
    if model is LogEntry:
        return "seq"  # unique within the campaign the backup holds
    for name in ("code", "token"):
        try:
            field = model._meta.get_field(name)
        except FieldDoesNotExist:
            continue
        if field.unique:
            return name
    raise BackupError(
        f"{model._meta.label} has no natural key (a unique 'code'), so a foreign key to it "
        "cannot be backed up; give it a code"
    )


# --- values -----------------------------------------------------------------------------


def dump_value(field: models.Field, value: Any) -> Any:
    """A field's value as JSON, losslessly (datetimes keep their microseconds)."""
    if value is None or isinstance(field, models.JSONField):
        return value
    if isinstance(value, dt.datetime | dt.date | dt.time):
        return value.isoformat()
    if isinstance(value, dt.timedelta):
        return duration_iso_string(value)
    if isinstance(value, uuid.UUID | Decimal):
        return str(value)
    if isinstance(value, bytes | memoryview):
        return base64.b64encode(bytes(value)).decode()
    if isinstance(value, str | int | float | bool):
        return value
    return str(value)


def load_value(field: models.Field, value: Any) -> Any:
    if value is None or isinstance(field, models.JSONField):
        return value
    return field.to_python(value)


def _is_auto(model: type[models.Model]) -> bool:
    return isinstance(model._meta.pk, AutoFieldMixin)


def _fields(model: type[models.Model], skip: models.Field | None) -> list[models.Field]:
    return [
        f
        for f in model._meta.concrete_fields
        if f is not skip and not (f.primary_key and _is_auto(model)) and not getattr(f, "generated", False)
    ]


def dump_row(obj: models.Model, fields: list[models.Field], users: set[str]) -> dict:
    row = {}
    for field in fields:
        if field.is_relation:
            related = getattr(obj, field.name)
            if related is None:
                row[field.name] = None
                continue
            key = natural_key_field(field.remote_field.model)
            value = getattr(related, key)
            if field.remote_field.model is get_user_model():
                users.add(value)
            row[field.name] = dump_value(field.remote_field.model._meta.get_field(key), value)
        elif field is AUDIENCE:  # user ids: written as usernames, mapped like any user on restore
            names = _usernames(getattr(obj, field.attname))
            users.update(names)
            row[field.name] = names
        else:
            row[field.name] = dump_value(field, getattr(obj, field.attname))
    return row


AUDIENCE = LogEntry._meta.get_field("audience")


def _usernames(ids: list[int]) -> list[str]:
    found = dict(
        get_user_model().objects.filter(pk__in=ids).values_list("pk", get_user_model().USERNAME_FIELD)
    )
    return [found[i] for i in ids if i in found]  # a deleted user reads nothing any more


def _rows(model: type[models.Model], campaign: Campaign, users: set[str]) -> Iterator[dict]:
    fk = _campaign_fk(model)
    fields = _fields(model, fk)
    relations = [f.name for f in fields if f.is_relation]
    qs = model._base_manager.filter(**{fk.name: campaign}).select_related(*relations).order_by("pk")
    for obj in qs.iterator(chunk_size=CHUNK):
        yield dump_row(obj, fields, users)


# --- the log, written by PostgreSQL ------------------------------------------------------
# The log is most of a backup: PostgreSQL writes each batch of entries as JSON text, field
# for field what ``dump_row`` writes, so Python handles batches, not entries.


def _q(name: str) -> str:
    return connection.ops.quote_name(name)


def _value_sql(field: models.Field, column: str) -> str | None:
    """``dump_value`` of a column, as SQL; None for a kind of field only Python writes."""
    if isinstance(field, models.JSONField):
        return column
    if isinstance(field, models.DateTimeField):  # datetime.isoformat() of a UTC time
        return f"""(to_char({column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS')
            || CASE WHEN date_trunc('second', {column}) = {column} THEN ''
                ELSE to_char({column} AT TIME ZONE 'UTC', '.US') END || '+00:00')"""
    if isinstance(field, models.DateField | models.DurationField | models.DecimalField | models.FloatField):
        return None
    if isinstance(field, models.UUIDField):
        return f"{column}::text"
    if isinstance(field, models.CharField | models.TextField | models.IntegerField | models.BooleanField):
        return column
    return None


def _field_sql(field: models.Field) -> str | None:
    """A log entry's field as ``dump_row`` writes it, as SQL over the entry ``e``."""
    column = f"e.{_q(field.column)}"
    User = get_user_model()
    if field is AUDIENCE:
        name = _q(User._meta.get_field(User.USERNAME_FIELD).column)
        return f"""CASE WHEN cardinality({column}) = 0 THEN '[]'::json ELSE
            (SELECT coalesce(json_agg(u.{name} ORDER BY a.n), '[]') FROM unnest({column})
            WITH ORDINALITY AS a(id, n) JOIN {_q(User._meta.db_table)} u ON u.{_q(User._meta.pk.column)} = a.id) END"""
    if field.is_relation:
        model = field.remote_field.model
        key = model._meta.get_field(natural_key_field(model))
        value = _value_sql(key, f"r.{_q(key.column)}")
        if value is None or not isinstance(field, models.ForeignKey):
            return None
        return f"""CASE WHEN {column} IS NOT NULL THEN
            (SELECT {value} FROM {_q(model._meta.db_table)} r WHERE r.{_q(model._meta.pk.column)} = {column}) END"""
    if isinstance(field, ArrayField):
        return None
    return _value_sql(field, column)


def log_row_sql(fields: list[models.Field]) -> str | None:
    """Each entry as ``dump_row`` writes it, a JSON object built by PostgreSQL; None when
    a field is of a kind it is not told how to write (the log is then written by Python)."""
    parts = [(field.name, _field_sql(field)) for field in fields]
    if any(sql is None for _name, sql in parts) or len(parts) > 50:  # 100 arguments at most
        return None
    pairs = ", ".join(f"'{name}', {sql}" for name, sql in parts)
    return f"json_build_object({pairs})::text"


def _log_usernames(campaign: Campaign, fields: list[models.Field]) -> list[str]:
    """Every user the log names: actors and audiences (the users a backup maps on restore)."""
    User = get_user_model()
    ids = [
        f"e.{_q(f.column)}"
        for f in fields
        if f.is_relation and f.remote_field.model is User and isinstance(f, models.ForeignKey)
    ]
    named = " UNION ALL ".join([*(f"SELECT {i}" for i in ids), f"SELECT unnest(e.{_q(AUDIENCE.column)})"])
    with connection.cursor() as cursor:
        cursor.execute(
            f"""SELECT DISTINCT u.{_q(User._meta.get_field(User.USERNAME_FIELD).column)}
                FROM {LOG} e CROSS JOIN LATERAL ({named}) AS n(id)
                JOIN {_q(User._meta.db_table)} u ON u.{_q(User._meta.pk.column)} = n.id
                WHERE e.campaign_id = %s""",
            [campaign.pk],
        )
        return [row[0] for row in cursor.fetchall()]


# --- backup -----------------------------------------------------------------------------


@contextmanager
def snapshot():
    """One consistent view of the campaign while it is read, without blocking the GM:
    a repeatable-read transaction (or the caller's transaction, if already in one)."""
    if connection.in_atomic_block:
        yield
        return
    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
        yield


def backup_chunks(campaign: Campaign) -> Iterator[str]:
    """The backup document as text chunks; the log is streamed, so its size is not
    bounded by memory."""
    with snapshot():
        campaign = Campaign.objects.get(pk=campaign.pk)
        users: set[str] = set()
        head = {
            "format": BACKUP_FORMAT,
            "created_at": timezone.now().isoformat(),
            "campaign": dump_row(campaign, _fields(Campaign, None), users),
        }
        yield json.dumps(head, ensure_ascii=False)[:-1] + ', "tables": {'
        for i, model in enumerate(owned_models()):
            rows = ",\n".join(json.dumps(r, ensure_ascii=False) for r in _rows(model, campaign, users))
            yield f'{", " if i else ""}"{model._meta.label_lower}": [{rows}]'
        yield '}, "log": ['
        seal = LogSeal.objects.filter(campaign=campaign).first()
        scheme = seal.scheme if seal is not None else HASH_SCHEME
        closing = integrity.Closing(
            kind=BACKUP_FORMAT, campaign_code=str(campaign.code), partial=False, scheme=scheme
        )
        log_fields = _fields(LogEntry, _campaign_fk(LogEntry))
        if (row_sql := log_row_sql(log_fields)) is not None:
            users.update(_log_usernames(campaign, log_fields))
            batch = f"""SELECT string_agg({row_sql}, E',\\n' ORDER BY e.seq), json_agg(e.hash ORDER BY e.seq)::text
                FROM {LOG} e WHERE {ENTRIES_IN_BATCH}"""
            for text, hashes in streamed_batches(campaign, batch, {}, size=LOG_BATCH):
                yield ("" if closing.count == 0 else ",\n") + text
                for entry_hash in orjson.loads(hashes):
                    closing.add(entry_hash)
        else:  # a kind of field PostgreSQL is not told how to write: entry by entry in Python
            entries = (
                LogEntry.objects.in_campaign(campaign)
                .select_related("actor", "reversal_of", "refers_to")
                .order_by("seq")
                .iterator(chunk_size=CHUNK)
            )
            for entry in entries:
                yield ("" if closing.count == 0 else ",\n") + json.dumps(
                    dump_row(entry, log_fields, users), ensure_ascii=False
                )
                closing.add(entry.hash)
        # Signed by the server: a backup with entries cut from the log's end does not restore.
        tail = {
            "log_count": closing.count,
            "log_head": closing.head,
            "log_scheme": scheme,
            "log_signature": closing.signature(),
            "users": sorted(users),
        }
        yield "], " + json.dumps(tail, ensure_ascii=False)[1:] + "\n"


def backup_document(campaign: Campaign) -> dict:
    return json.loads("".join(backup_chunks(campaign)))


# --- restore ----------------------------------------------------------------------------


def _allocate_ids(model: type[models.Model], count: int) -> list[int]:
    """Ids from the table's own sequence, taken before any insert so every foreign
    key can be filled in at once (Django's foreign keys are checked at commit)."""
    if count == 0:
        return []
    table = connection.ops.quote_name(model._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT nextval(pg_get_serial_sequence(%s, %s)) FROM generate_series(1, %s)",
            [table, model._meta.pk.column, count],
        )
        return [row[0] for row in cursor.fetchall()]


def _insert(model: type[models.Model], objs: list[models.Model]) -> None:
    """Insert rows exactly as given: ``raw`` skips ``pre_save``, so ``auto_now`` fields
    keep their stored times (what ``loaddata`` does through ``save_base(raw=True)``,
    batched)."""
    fields = [f for f in model._meta.local_concrete_fields if not getattr(f, "generated", False)]
    size = max(1, 30000 // len(fields))
    for start in range(0, len(objs), size):
        model._base_manager._insert(objs[start : start + size], fields=fields, raw=True)


class _Keys:
    """Natural key -> database id, for the rows being restored and the users."""

    def __init__(self):
        self.ids: dict[type[models.Model], dict[Any, int]] = {}

    def add(self, model: type[models.Model], key: Any, pk: Any) -> None:
        self.ids.setdefault(model, {})[str(key)] = pk

    def resolve(self, field: models.Field, value: Any) -> Any:
        if value is None:
            return None
        model = field.remote_field.model
        known = self.ids.get(model, {})
        if str(value) in known:
            return known[str(value)]
        # Nothing outside the backup is reached for: a row may only point at rows the
        # backup itself holds, and at the accounts its users were mapped to.
        where = f"a {field.model._meta.verbose_name}'s {field.verbose_name}"
        if model is get_user_model():
            raise RestoreError(f"{where} names user {value}, which the backup does not hold")
        raise RestoreError(f"{where} names a {model._meta.verbose_name} which the backup does not hold")


def _map_users(usernames: list[str], mapping: dict[str, str], same_accounts: bool, keys: _Keys) -> list[str]:
    """Give each user the backup names an account here; returns the usernames created.

    An account that exists here is only used when the restorer says so: by name with
    ``mapping`` (``{name in the backup: account here}``) or for every name with
    ``same_accounts``. Otherwise a name taken here is refused (another person may hold it
    on this server), and a free one is created without a usable password."""
    User = get_user_model()
    field = User.USERNAME_FIELD
    if unknown := sorted(set(mapping) - set(usernames)):
        raise RestoreError(f"the backup names no user {', '.join(unknown)} to map")
    targets: dict[str, str] = {}
    for name in usernames:
        target = mapping.get(name, name)
        if target in targets:
            raise RestoreError(f"users {targets[target]} and {name} of the backup would both become {target}")
        targets[target] = name
    created, taken = [], []
    for name in usernames:
        target = mapping.get(name, name)
        user = User._default_manager.filter(**{field: target}).first()
        if name in mapping or (user is not None and same_accounts):
            if user is None:
                raise RestoreError(
                    f"user {name} of the backup is mapped to {target}, who has no account here"
                )
        elif user is not None:
            taken.append(name)
            continue
        else:
            user = User(**{field: name})
            user.set_unusable_password()
            user.save()
            created.append(name)
        keys.add(User, name, user.pk)
    if taken:
        raise RestoreError(
            f"the backup names {', '.join(taken)}, who already {'has an account' if len(taken) == 1 else 'have accounts'} "
            "here; say which account takes each one's place",
            command_hint="--user NAME=ACCOUNT, or --same-accounts when they are the same people",
        )
    return created


ALLOWED_KEYS = frozenset(
    {
        "format",
        "created_at",
        "campaign",
        "tables",
        "log",
        "log_count",
        "log_head",
        "log_scheme",
        "log_signature",
        "users",
    }
)


def _checked_document(document: Any) -> tuple[dict, dict[str, list[dict]], list[dict], list[str]]:
    """The parts of a backup, each of the shape a backup has, or RestoreError naming what
    is not. Only the campaign's own kinds of record may be in it."""
    if not isinstance(document, dict) or document.get("format") != BACKUP_FORMAT:
        raise RestoreError(f"not a campaign backup (expected format {BACKUP_FORMAT})")
    if extra := sorted(set(document) - ALLOWED_KEYS):
        raise RestoreError(
            f"the backup holds parts named {', '.join(extra)}, which a campaign backup never holds"
        )
    campaign = document.get("campaign")
    if not isinstance(campaign, dict):
        raise RestoreError("the backup holds no campaign")
    tables = document.get("tables", {})
    if not isinstance(tables, dict):
        raise RestoreError("the backup's tables are not a group of named tables")
    own = {m._meta.label_lower: m for m in owned_models()}
    for label, rows in tables.items():
        if label not in own:
            raise RestoreError(
                f"the backup holds {_kind(label)}, which are not records a campaign keeps "
                "(a backup restores one campaign's own records only: never users, sessions, "
                "permissions or other campaigns)"
            )
        if not isinstance(rows, list) or not all(isinstance(r, dict) for r in rows):
            raise RestoreError(
                f"the backup's {own[label]._meta.verbose_name_plural} are not a list of records"
            )
    log = document.get("log", [])
    if not isinstance(log, list) or not all(isinstance(r, dict) for r in log):
        raise RestoreError("the backup's log is not a list of entries")
    for number, row in enumerate(log, 1):
        seq, entry_hash = row.get("seq"), row.get("hash")
        if not isinstance(seq, int) or isinstance(seq, bool) or not isinstance(entry_hash, str):
            raise RestoreError(f"log entry {number} of the backup has no proper seq and hash")
    users = document.get("users", [])
    if not isinstance(users, list) or not all(isinstance(u, str) and u for u in users):
        raise RestoreError("the backup's users are not a list of usernames")
    if len(set(users)) != len(users):
        raise RestoreError("the backup names a user twice")
    return campaign, tables, log, users


def _build(
    model: type[models.Model], row: dict, keys: _Keys, *, campaign_fk=None, campaign_id=None, pk=None
) -> models.Model:
    known = {f.name: f for f in _fields(model, campaign_fk)}
    unknown = set(row) - set(known)
    if unknown:
        raise RestoreError(
            f"its {model._meta.verbose_name_plural} hold {len(unknown)} field{'s' if len(unknown) != 1 else ''} "
            "this version of the app does not know: the backup comes from another version of the app"
        )
    values = {}
    for name, value in row.items():
        field = known[name]
        if field.is_relation:
            values[field.attname] = keys.resolve(field, value)
        elif field is AUDIENCE:
            if not isinstance(value, list) or not all(isinstance(name, str) for name in value):
                raise RestoreError("a log entry's audience is not a list of usernames")
            actor = LogEntry._meta.get_field("actor")  # a user key, resolved as the actor's is
            values[field.attname] = [keys.resolve(actor, name) for name in value]
        else:
            values[field.attname] = load_value(field, value)
    if campaign_fk is not None:
        values[campaign_fk.attname] = campaign_id
    if pk is not None:
        values[model._meta.pk.attname] = pk
    return model(**values)


@transaction.atomic
def _restore(document: Any, mapping: dict[str, str], same_accounts: bool) -> tuple[Campaign, list[str]]:
    campaign_row, tables_in, log_rows, usernames = _checked_document(document)
    code = load_value(Campaign._meta.get_field("code"), campaign_row.get("code"))
    if Campaign.objects.filter(code=code).exists():
        raise CampaignExists(f"a campaign with code {code} already exists; nothing was restored")
    scheme = _check_log_end(document, str(code), log_rows)
    keys = _Keys()
    created_users = _map_users(usernames, mapping, same_accounts, keys)

    [campaign_pk] = _allocate_ids(Campaign, 1) if _is_auto(Campaign) else [None]
    campaign = _build(Campaign, campaign_row, keys, pk=campaign_pk)
    keys.add(Campaign, campaign.code, campaign.pk)

    # Allocate every id and learn every natural key first, then build the rows.
    tables: list[tuple[type[models.Model], list[dict], list]] = []
    for label, rows in tables_in.items():
        model = apps.get_model(label)
        ids = _allocate_ids(model, len(rows)) if _is_auto(model) else [None] * len(rows)
        key = _natural_key_or_none(model)
        for row, pk in zip(rows, ids, strict=True):
            if key:  # a model with its own (non-serial) primary key keeps the stored one
                keys.add(
                    model,
                    row[key],
                    pk if pk is not None else load_value(model._meta.pk, row[model._meta.pk.name]),
                )
        tables.append((model, rows, ids))
    log_ids = _allocate_ids(LogEntry, len(log_rows))
    for row, pk in zip(log_rows, log_ids, strict=True):
        keys.add(LogEntry, row["seq"], pk)

    # Each insert would touch the campaign row, and many updates of one row in one
    # transaction cost ever more time; the touch triggers are held off for this
    # transaction's statements only (other campaigns keep writing meanwhile), and the
    # campaign is touched once at the end.
    with pgtrigger.ignore(*touch_campaign_trigger_uris()):
        _insert(Campaign, [campaign])
        for model, rows, ids in tables:
            fk = _campaign_fk(model)
            objs = [
                _build(model, row, keys, campaign_fk=fk, campaign_id=campaign.pk, pk=pk)
                for row, pk in zip(rows, ids, strict=True)
            ]
            _insert(model, objs)
        _restore_log(log_rows, log_ids, keys, campaign)
    _restore_seal(campaign, log_rows, scheme)
    Campaign.objects.filter(pk=campaign.pk).update(state_version=F("state_version"))
    report = integrity.verify_campaign(campaign)
    if not report.holds:
        raise RestoreError(f"the restored log does not verify: {report.message()}")
    return Campaign.objects.get(pk=campaign.pk), created_users


def _check_log_end(document: dict, code: str, log_rows: list[dict]) -> int:
    """The log must end where the backup said when it was made: its count and last hash,
    and the server's signature over every entry's hash and the campaign's oldest hash
    scheme, which is returned. A backup without a signature is refused: nothing would show
    a log cut, emptied or re-hashed under an older scheme."""
    count = document.get("log_count", len(log_rows))
    if count != len(log_rows):
        raise RestoreError(f"the backup says {count} log entries but holds {len(log_rows)}")
    if log_rows and document.get("log_head") not in (None, log_rows[-1]["hash"]):
        raise RestoreError("the backup's last log entry is not the one its header names")
    signature = document.get("log_signature")
    if signature is None:
        raise RestoreError(
            "the backup is not signed, so nothing shows its log is whole (entries cut, the log "
            "emptied or re-hashed would not show); only a signed backup is restored"
        )
    scheme = document.get("log_scheme")
    if scheme is not None and (scheme not in integrity.HASH_SCHEMES or isinstance(scheme, bool)):
        raise RestoreError("the backup names a hash scheme this version does not know")
    expected = integrity.Closing(kind=BACKUP_FORMAT, campaign_code=code, partial=False, scheme=scheme)
    for row in log_rows:
        expected.add(row["hash"])
    if not isinstance(signature, str) or not hmac.compare_digest(signature, expected.signature()):
        raise RestoreError(
            "the backup's signature does not match this server's log key: either it was made on "
            "another server, or its log does not end where it ended when the backup was made "
            "(entries were cut or added). A backup from "
            "another server restores only where the log key is that server's: set the LOG_HMAC_KEY "
            "setting (an environment variable) of this server to the other server's LOG_HMAC_KEY "
            "(or to its SECRET_KEY, if it had no LOG_HMAC_KEY), restart this server and restore again"
        )
    if scheme is None:  # signed before backups named it: the log's first entry's
        scheme = log_rows[0].get("hash_scheme", 1) if log_rows else HASH_SCHEME
    return scheme


def _restore_seal(campaign: Campaign, log_rows: list[dict], scheme: int) -> None:
    """The restored log sealed where it ends, under this server's signing key."""
    root, count, at = GENESIS_HASH, 0, campaign.created_at
    for row in log_rows:
        if row.get("visibility") == "everyone":
            root, count = public_root(root, row["hash"]), count + 1
            at = load_value(LogEntry._meta.get_field("created_at"), row["created_at"])
    seal = LogSeal(
        campaign=campaign,
        length=len(log_rows),
        head=log_rows[-1]["hash"] if log_rows else GENESIS_HASH,
        scheme=scheme,
        public_length=count,
        public_root=root,
        public_at=at or timezone.now(),
    )
    seal.sign(str(campaign.code), public=True)
    seal.save(force_insert=True)


def _natural_key_or_none(model: type[models.Model]) -> str | None:
    try:
        return natural_key_field(model)
    except BackupError:
        return None


def _restore_log(rows: list[dict], ids: list[int], keys: _Keys, campaign: Campaign) -> None:
    fk = _campaign_fk(LogEntry)
    namer, player_namer = Namer(campaign, "gm"), Namer(campaign, "player")
    for start in range(0, len(rows), CHUNK):
        batch = [
            _build(LogEntry, row, keys, campaign_fk=fk, campaign_id=campaign.pk, pk=pk)
            for row, pk in zip(rows[start : start + CHUNK], ids[start : start + CHUNK], strict=True)
        ]
        for entry in batch:
            # The words are not hashed: they are made again from what is, never taken on trust.
            entry.words = words_of(entry, namer.name, player_namer.name)
        _insert(LogEntry, batch)


def restore(
    document: Any, *, users: dict[str, str] | None = None, same_accounts: bool = False
) -> tuple[Campaign, list[str]]:
    """Recreate a campaign from its backup; returns it and the usernames created.

    Only the campaign's own records are restored (never users, sessions, permissions or
    another campaign), each row may only point at rows of the backup, and the backup's
    users become accounts here only as ``users`` maps them (``same_accounts``: each to the
    account of the same name); a name taken here is otherwise refused, a free one created.

    Raises CampaignExists when its code is taken, RestoreError when the document
    cannot be restored as it is; either way nothing is written."""
    try:
        return _restore(document, users or {}, same_accounts)
    except (KeyError, TypeError, AttributeError):
        raise RestoreError(
            "the backup is incomplete or malformed (a part a record needs is missing or misshapen)"
        ) from None
    except ValidationError as error:
        raise RestoreError(
            f"the backup holds a value this app cannot read: {'; '.join(error.messages)}"
        ) from None
    except RecursionError:
        raise RestoreError("the backup is nested too deeply") from None
    except integrity.NotAnExport as error:
        raise RestoreError(f"the backup's log cannot be checked: {error}") from None
    except DatabaseError as error:
        logger.warning("restore refused by the database: %s", str(error).strip())
        raise RestoreError(
            "the database refused its records: a value is out of the range a record may hold, or "
            "two records are the same where only one may be (an edited or damaged backup)"
        ) from None


# --- restoring from an upload (the browser's restore page) ---------------------------


@dataclass(frozen=True)
class Person:
    """Someone a backup names: their username there and their part in the campaign."""

    username: str
    role: str  # "gm", "player" or "" (named by the log only)


@dataclass(frozen=True)
class Preview:
    """What a backup holds, as a restorer sees it before restoring."""

    name: str
    code: str
    entries: int
    people: list[Person]


def preview(document: Any) -> Preview:
    """The campaign and the people a backup names, once its shape, its code (free here) and
    its signature are checked (RestoreError otherwise); nothing is written."""
    try:
        campaign, tables, log, users = _checked_document(document)
        roles: dict[str, str] = {}
        for row in tables.get("campaigns.membership", []):
            if isinstance(row.get("user"), str) and isinstance(row.get("role"), str):
                roles[row["user"]] = row["role"]
        code = load_value(Campaign._meta.get_field("code"), campaign.get("code"))
        if Campaign.objects.filter(code=code).exists():
            raise CampaignExists(f"a campaign with code {code} already exists on this server")
        _check_log_end(document, str(code), log)
        name = campaign.get("name")
        return Preview(
            name=name if isinstance(name, str) else "",
            code=str(campaign.get("code", "")),
            entries=len(log),
            people=[Person(u, roles.get(u, "")) for u in users],
        )
    except (KeyError, TypeError, AttributeError):
        raise RestoreError("the backup is incomplete or malformed") from None
    except ValidationError as error:
        raise RestoreError(
            f"the backup holds a value this app cannot read: {'; '.join(error.messages)}"
        ) from None


@dataclass(frozen=True)
class Restored:
    campaign: Campaign
    created: list[str]
    checks: list[str]


def restore_with_checks(
    document: Any, *, users: dict[str, str] | None = None, same_accounts: bool = False
) -> Restored:
    """``restore``, and the checks it made in words (each passed, or it raised)."""
    campaign, created = restore(document, users=users, same_accounts=same_accounts)
    entries = campaign.log.count()
    checks = [
        "The file is a campaign backup, holding one campaign's own records only.",
        "No campaign on this server had its code.",
        f"The log holds all {entries} entr{'y' if entries == 1 else 'ies'} it held when the backup "
        "was made, signed with the log key this server holds.",
        "Every person the backup names has their account here.",
        f"The restored log's hash chain verifies: {entries} entr{'y' if entries == 1 else 'ies'}, "
        "each recomputed on this server.",
    ]
    return Restored(campaign, created, checks)
