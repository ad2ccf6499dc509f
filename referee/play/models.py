"""The turn log: append-only, hash-chained, the product's memory."""

from __future__ import annotations

import bisect
import hashlib
import hmac
import json
import math
import secrets
from datetime import datetime
from decimal import Decimal
from functools import cache

import pgtrigger
import pgtrigger.compiler
from django.conf import settings
from django.contrib.postgres.fields import ArrayField
from django.contrib.postgres.indexes import GinIndex
from django.db import models
from django.db.models import Q

import rules
from referee.campaigns.models import Campaign, CampaignScoped, Phase

from . import signing

GENESIS_HASH = "0" * 64
# How an entry's hash is made. 1: SHA-256 of the previous hash and the entry (the first
# logs). 2: an HMAC keyed with the server's log key over the same text, the entry
# carrying a random nonce, so a hidden entry cannot be guessed from the next one's
# prev_hash and a rewrite cannot be re-hashed without the key. 3: as 2, but the hashed
# text holds no number of the log's own (no seq; an undo names the entry it undoes by
# that entry's hash), so a player's copy can number entries as the player sees them and
# still verify, without showing how many hidden entries lie between. 4: as 3, but the
# changes left to the GM (``pending``) are covered by a keyed digest of them
# (``pending_digest``) instead of themselves, so an export carries them in plain words
# for the GM and not at all for players, and still verifies.
HASH_SCHEME = 4
HASH_SCHEMES = (1, 2, 3, 4)
PENDING_DIGEST_SCHEME = 4
# Integers beyond this many digits are refused rather than recorded (PostgreSQL keeps
# them, but Python will not read back an integer of more than 4300 digits). The largest
# float, 1.8e308, is stored as an integer of 309 digits.
MAX_DIGITS = 4000


class UnrecordableValue(ValueError):
    """A value the log cannot keep exactly as it was hashed; the message is for the GM."""


class Visibility(models.TextChoices):
    EVERYONE = "everyone", "Everyone"
    GM = "gm", "GM only"
    # The GM and the players in ``audience``: a whisper.
    WHISPER = "whisper", "GM and chosen players"
    # The player in ``audience`` rolled, and sees that they did; only the GM sees the result.
    BLIND = "blind", "Blind: only the GM sees the result"


def _reader_id(user) -> int | None:
    return getattr(user, "pk", None) if user is not None else None


AUDIENCE_VISIBILITIES = (Visibility.WHISPER, Visibility.BLIND)


def hidden_sql(alias: str = "", reader: str = "%s") -> str:
    """``LogEntryQuerySet.hidden`` in SQL, for the one-statement paths (the status poll, the
    log's counts): an entry hidden from the player whose id is ``reader`` (a parameter by
    default; NULL: a player no whisper names), its columns read through ``alias`` if given.
    Unrevealed and not for everyone, unless whispered to that player or a blind roll of theirs."""
    c = f"{alias}." if alias else ""
    return (
        f"{c}visibility <> 'everyone' AND {c}revealed_at IS NULL AND NOT ({c}visibility IN ('whisper', 'blind') "
        f"AND coalesce({c}audience @> ARRAY[{reader}]::bigint[], false))"
    )


def unnumbered_sql() -> str:
    """``LogEntryQuerySet.unnumbered`` in SQL: an entry without a number for the player whose
    id is the one parameter, the hidden ones and the player's own unrevealed blind rolls."""
    return (
        "visibility <> 'everyone' AND revealed_at IS NULL "
        "AND NOT (visibility = 'whisper' AND coalesce(audience @> ARRAY[%s]::bigint[], false))"
    )


class LogEntryQuerySet(models.QuerySet):
    def in_campaign(self, campaign: Campaign) -> LogEntryQuerySet:
        return self.filter(campaign=campaign)

    def hidden(self, user=None) -> LogEntryQuerySet:
        """Entries a player (``user``; any player when None) must not learn of, not even a
        count: unrevealed entries that are not for everyone, less those whispered to the
        user and the user's own blind rolls (which they see that they made)."""
        qs = self.filter(revealed_at__isnull=True).exclude(visibility=Visibility.EVERYONE)
        if (reader := _reader_id(user)) is not None:
            qs = qs.exclude(visibility__in=AUDIENCE_VISIBILITIES, audience__contains=[reader])
        return qs

    def unnumbered(self, user=None) -> LogEntryQuerySet:
        """Entries that take no place in a player's numbering: the hidden ones and the
        player's own unrevealed blind rolls (whose result, number included, is the GM's)."""
        qs = self.filter(revealed_at__isnull=True).exclude(visibility=Visibility.EVERYONE)
        if (reader := _reader_id(user)) is not None:
            qs = qs.exclude(visibility=Visibility.WHISPER, audience__contains=[reader])
        return qs

    def visible_to(self, role: str | None, user=None) -> LogEntryQuerySet:
        """GMs read everything; players what is public or has been revealed, what is
        whispered to them, and (as a bare line) that they made their own blind rolls."""
        if role == "gm":
            return self
        if role == "player":
            seen = Q(visibility=Visibility.EVERYONE) | Q(revealed_at__isnull=False)
            if (reader := _reader_id(user)) is not None:
                seen |= Q(visibility__in=AUDIENCE_VISIBILITIES, audience__contains=[reader])
            return self.filter(seen)
        return self.none()

    def standing(self) -> LogEntryQuerySet:
        """Entries nobody has undone."""
        return self.filter(reversed_by__isnull=True)

    def about(self, role: str, obj: models.Model) -> LogEntryQuerySet:
        """Resolutions in which ``obj`` filled the procedure's ``role`` (kept with the inputs)."""
        return self.filter(inputs__contains={f"@{role}": {"code": str(obj.code)}})

    def turns(self, first: int | None, last: int | None) -> LogEntryQuerySet:
        qs = self
        if first is not None:
            qs = qs.filter(turn__gte=first)
        if last is not None:
            qs = qs.filter(turn__lte=last)
        return qs


def new_nonce() -> str:
    return secrets.token_hex(16)


class OwnerIgnorableTriggerSql(pgtrigger.compiler.UpsertTriggerSql):
    """pgtrigger's trigger SQL, except that the trigger honours ``pgtrigger.ignore`` only
    in a session whose role owns the table (or is a member of its owner role).

    Any session may set ``pgtrigger.ignore``, the app's role included; for a guard that
    the app's role must not switch off, the setting alone is not enough. The table's
    owner could drop or disable the trigger anyway, so letting it ignore the guard gives
    it nothing more. Names are schema-qualified, so a temporary table or a search_path
    cannot stand in for the catalog.

    Migrations name this class: a change to the template below needs a new class."""

    IGNORED = "IF ({ignore_func_name}(TG_NAME) IS TRUE) THEN"
    OWNER_IGNORED = (
        "IF ({ignore_func_name}(TG_NAME) IS TRUE AND pg_catalog.pg_has_role(current_user, "
        "(SELECT c.relowner FROM pg_catalog.pg_class c WHERE c.oid = TG_RELID), 'USAGE')) THEN"
    )

    def get_template(self) -> str:
        template = super().get_template()
        if template.count(self.IGNORED) != 1:
            raise RuntimeError("pgtrigger's trigger template changed: review OwnerIgnorableTriggerSql")
        return template.replace(self.IGNORED, self.OWNER_IGNORED)


class OwnerIgnorableTrigger(pgtrigger.Trigger):
    """A trigger that only the table's owner may hold off with ``pgtrigger.ignore``."""

    def compile(self, model: type[models.Model]) -> pgtrigger.compiler.Trigger:
        compiled = super().compile(model)
        return pgtrigger.compiler.Trigger(
            name=compiled.name, sql=OwnerIgnorableTriggerSql(**compiled.sql.kwargs)
        )


# DELETE is refused; UPDATE only reveals an entry (revealed_at from NULL to a time) or
# forgets a deleted user (actor to NULL). Everything else about an entry is as written.
# The app's role cannot hold it off with pgtrigger.ignore (only the table's owner can).
APPEND_ONLY = OwnerIgnorableTrigger(
    name="append_only",
    when=pgtrigger.Before,
    operation=pgtrigger.Update | pgtrigger.Delete,
    func=pgtrigger.Func(
        """
        IF TG_OP = 'DELETE' THEN
            RAISE EXCEPTION 'the turn log is append-only: entry % cannot be deleted', OLD.{columns.seq}
                USING ERRCODE = 'integrity_constraint_violation';
        END IF;
        IF (to_jsonb(NEW) - '{columns.revealed_at}' - '{columns.actor}')
               = (to_jsonb(OLD) - '{columns.revealed_at}' - '{columns.actor}')
           AND (NEW.{columns.revealed_at} IS NOT DISTINCT FROM OLD.{columns.revealed_at}
                OR OLD.{columns.revealed_at} IS NULL)
           AND (NEW.{columns.actor} IS NOT DISTINCT FROM OLD.{columns.actor} OR NEW.{columns.actor} IS NULL)
        THEN
            RETURN NEW;
        END IF;
        RAISE EXCEPTION 'the turn log is append-only: entry % can only be revealed', OLD.{columns.seq}
            USING ERRCODE = 'integrity_constraint_violation';
        """
    ),
)


class LogEntry(CampaignScoped):
    """One resolution, reversal or turn event. Never updated (except to reveal) or deleted:
    the database refuses it (the append-only trigger above)."""

    campaign = models.ForeignKey(Campaign, on_delete=models.PROTECT, related_name="log")
    seq = models.PositiveIntegerField()
    turn = models.PositiveIntegerField()
    phase = models.CharField(max_length=12, choices=Phase.choices)
    game_time = models.DateTimeField()
    procedure = models.CharField(max_length=64, help_text="Procedure id, or an event such as turn.advance")
    title = models.CharField(max_length=200)
    inputs = models.JSONField(default=dict)
    rolls = models.JSONField(default=list)
    result = models.JSONField(default=dict)
    effects = models.JSONField(default=list, help_text="Applied changes: target, field, before, after")
    pending = models.JSONField(default=list, help_text="Effects the GM applies by hand")
    pending_words = models.JSONField(
        default=list, blank=True, help_text="The effects left to the GM in plain words, records by name"
    )
    pending_digest = models.CharField(
        max_length=64, blank=True, default="", help_text="Keyed digest of the effects left to the GM"
    )
    summary = models.TextField()
    reference = models.CharField(max_length=300, blank=True)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="turn_log_entries"
    )
    actor_name = models.CharField(max_length=150, blank=True)
    visibility = models.CharField(max_length=8, choices=Visibility.choices, default=Visibility.EVERYONE)
    # Who besides the GM reads a whisper, or made a blind roll: user ids. Like every column
    # but ``revealed_at``, the append-only guard keeps it as written.
    audience = ArrayField(models.BigIntegerField(), default=list, blank=True)
    # The entry a reply is about: the GM's Accept or Reject of a player's roll, a note's
    # correction, an annotation. Its hash and title are also in ``inputs`` (``@about``),
    # which the hash covers.
    refers_to = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="replies"
    )
    revealed_at = models.DateTimeField(null=True, blank=True)
    reversal_of = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="reversed_by"
    )
    created_at = models.DateTimeField()
    request_key = models.UUIDField(
        null=True,
        blank=True,
        editable=False,
        help_text="The procedure form this resolution came from: a second submit of it returns this entry.",
    )
    # What a person reads of the entry (``wording.entry_words``), derived from what the hash
    # covers when the entry is written, so exports write words without Python per entry.
    # Not hashed; the append-only guard keeps it as written all the same.
    words = models.JSONField(default=dict, blank=True, editable=False)
    hash_scheme = models.PositiveSmallIntegerField(default=HASH_SCHEME)
    nonce = models.CharField(max_length=32, blank=True, default=new_nonce)
    prev_hash = models.CharField(max_length=64)
    hash = models.CharField(max_length=64)

    objects = LogEntryQuerySet.as_manager()

    class Meta(CampaignScoped.Meta):
        ordering = ["campaign", "seq"]
        verbose_name_plural = "log entries"
        triggers = [*CampaignScoped.Meta.triggers, APPEND_ONLY]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "seq"], name="log_seq_unique_per_campaign"),
            models.UniqueConstraint(fields=["campaign", "prev_hash"], name="log_chain_never_forks"),
            models.CheckConstraint(condition=Q(seq__gte=1), name="log_seq_from_1"),
            models.UniqueConstraint(fields=["campaign", "request_key"], name="log_one_entry_per_form"),
            # A player's roll is accepted or rejected once.
            models.UniqueConstraint(
                fields=["refers_to"],
                condition=Q(procedure__in=["roll.accept", "roll.reject"]),
                name="log_one_decision_per_roll",
            ),
            models.CheckConstraint(
                condition=Q(visibility__in=["everyone", "gm", "whisper", "blind"]),
                name="log_visibility_valid",
            ),
        ]
        indexes = [
            models.Index(fields=["campaign", "turn"], name="log_campaign_turn"),
            # Players' numbering and status version count the hidden entries, which are few.
            models.Index(
                fields=["campaign", "seq"],
                condition=~Q(visibility="everyone") & Q(revealed_at__isnull=True),
                name="log_unshared_entries",
            ),
            # Undo asks whether a later entry changed the same record's field
            # (``effects @> [{target, code, field}]``): the index finds those few entries
            # instead of reading every later one.
            # Without fastupdate: each entry goes into the index as it is written, rather than
            # into a pending list every search reads until vacuum merges it.
            GinIndex(
                fields=["effects"],
                opclasses=["jsonb_path_ops"],
                fastupdate=False,
                name="log_effects_contain",
            ),
        ]

    def __str__(self) -> str:
        return f"#{self.seq} {self.procedure}"

    @property
    def number(self) -> int:
        """The entry's number as its reader sees it: its seq for the GM; for players, its
        place among the entries they can see (``Numbering``), so hidden ones leave no gap."""
        return self.__dict__.get("_shown_number", self.seq)

    @property
    def secret(self) -> bool:
        """Not (yet) for every player: GM-only, a whisper or a blind roll, unrevealed."""
        return self.visibility != Visibility.EVERYONE and self.revealed_at is None

    @property
    def blind(self) -> bool:
        """A blind roll whose result only the GM has seen so far."""
        return self.visibility == Visibility.BLIND and self.revealed_at is None

    def ruling_for(self, role: str | None, user=None) -> LogEntry | None:
        """The GM's Accept or Reject of this player's roll, if there is one the reader may
        read: a GM-only ruling of a blind roll is no ruling at all to a player, whose roll
        still reads "waiting for the GM" (read once per reader)."""
        if "@awaiting_gm" not in (self.inputs or {}):
            return None
        key = _ruling_key(role, user)
        if key not in self.__dict__.get("_rulings", {}):
            read_rulings([self], role, user)
        return self.__dict__["_rulings"][key]

    def awaiting_gm_for(self, role: str | None, user=None) -> bool:
        """A player's roll that waits for the GM's Accept or Reject (``referee.play.players``),
        as the reader may know: while they may read no ruling of it."""
        return "@awaiting_gm" in (self.inputs or {}) and self.ruling_for(role, user) is None

    @property
    def is_note(self) -> bool:
        return self.procedure in ("note.post", "note.correct", "note.annotate")

    @property
    def note_text(self) -> str:
        text = (self.inputs or {}).get("text")
        return text if isinstance(text, str) else ""

    @property
    def audience_names(self) -> str:
        """Who a whisper goes to, by name."""
        from django.contrib.auth import get_user_model

        names = get_user_model().objects.filter(pk__in=self.audience).order_by("username")
        return ", ".join(names.values_list("username", flat=True))

    @property
    def result_items(self) -> list[tuple[str, object]]:
        """The result in the contract's order, headline first (jsonb does not keep order)."""
        try:
            order = rules.get(self.procedure).result_keys
        except rules.InputError:
            return list(self.result.items())
        return [(k, self.result[k]) for k in order if k in self.result]

    @property
    def is_reversal(self) -> bool:
        return self.reversal_of_id is not None

    def hash_payload(self) -> dict:
        """Everything the hash covers: the entry as exported, without database ids.

        ``revealed_at`` is left out: revealing is the one change the log allows. Entries
        of the first scheme carry neither a scheme nor a nonce, as they were hashed; entries
        of the third carry no seq, and name the entry they undo by its hash."""
        keyed = {"hash_scheme": self.hash_scheme, "nonce": self.nonce} if self.hash_scheme >= 2 else {}
        if self.hash_scheme >= 3:
            place = {"reversal_of_hash": self.reversal_of.hash if self.reversal_of_id else None}
        else:
            place = {
                "seq": self.seq,
                "reversal_of_seq": self.reversal_of.seq if self.reversal_of_id else None,
            }
        return entry_payload(
            **keyed,
            **place,
            campaign_code=str(self.campaign.code),
            turn=self.turn,
            phase=self.phase,
            game_time=self.game_time,
            procedure=self.procedure,
            title=self.title,
            inputs=self.inputs,
            rolls=self.rolls,
            result=self.result,
            effects=self.effects,
            **(
                {"pending_digest": self.pending_digest}
                if self.hash_scheme >= PENDING_DIGEST_SCHEME
                else {"pending": self.pending}
            ),
            summary=self.summary,
            reference=self.reference,
            actor_name=self.actor_name,
            visibility=self.visibility,
            created_at=self.created_at,
        )


# A GM's ruling on a player's roll that waited for it (``referee.play.players``), and the
# words its roll's summary said until then ("waiting for the GM to accept it.").
RULINGS = ("roll.accept", "roll.reject")
RULED_WORDS = {"roll.accept": "accepted by", "roll.reject": "rejected by"}
WAITING_WORDS = "waiting for the GM to accept it."


def ruled_by(entry: LogEntry, role: str | None, user=None, numbering: Numbering | None = None) -> str:
    """ "accepted by #33" or "rejected by #34": the ruling on a player's roll that waited for
    the GM, as its reader may read it (``LogEntry.ruling_for``), numbered as the reader
    numbers entries (the players' ``Numbering``, made when not given); empty while it waits,
    or while the reader may read no ruling of it. The logs, the entry page and the diary
    word it here; the exports in SQL from the same words (``ruled_by_sql``)."""
    ruling = entry.ruling_for(role, user)
    if ruling is None:
        return ""
    if role == "gm":
        number = ruling.seq
    else:
        numbering = numbering or Numbering.for_campaign(entry.campaign, user)
        number = numbering.number(ruling.seq)
        if number is None:
            return ""
    return f"{RULED_WORDS[ruling.procedure]} #{number}"


def ruled_by_sql(procedure: str, number: str) -> str:
    """``ruled_by``'s words in SQL, for the exports: the ruling's ``procedure`` column and
    its ``number`` as the reader numbers it."""
    cases = " ".join(f"WHEN '{p}' THEN '{words} #'" for p, words in RULED_WORDS.items())
    return f"(CASE {procedure} {cases} END || {number})"


def _ruling_key(role: str | None, user) -> tuple:
    return ("gm", None) if role == "gm" else (role, _reader_id(user))


def read_rulings(entries, role: str | None, user=None) -> None:
    """Read the rulings ``role`` may read of every waiting roll among ``entries`` in one
    query, so ``ruled_by`` asks nothing more for each (the diary's many lines)."""
    entries = [e for e in entries if "@awaiting_gm" in (e.inputs or {})]
    if not entries:
        return
    key = _ruling_key(role, user)
    found: dict[int, LogEntry] = {}
    if role in ("gm", "player"):
        rulings = (
            LogEntry.objects.filter(refers_to__in=[e.pk for e in entries], procedure__in=RULINGS)
            .visible_to(role, user)
            .only("seq", "procedure", "visibility", "revealed_at", "refers_to")
        )  # one ruling a roll (log_one_decision_per_roll), as its reader may read it
        found = {r.refers_to_id: r for r in rulings}
    for entry in entries:
        entry.__dict__.setdefault("_rulings", {})[key] = found.get(entry.pk)


HEAD_FORMAT = "referee-log-head/1"
PUBLIC_HEAD_FORMAT = "referee-public-head/1"


def public_root(root: str, entry_hash: str) -> str:
    """The players' chain one entry on: SHA-256 (unkeyed, so a browser can recompute it)
    of the root so far and the hash of the next entry that everyone reads."""
    return hashlib.sha256((root + entry_hash).encode()).hexdigest()


def seal_statement(campaign_code: str, length: int, head: str, scheme: int) -> str:
    return canonical_json(
        {"kind": HEAD_FORMAT, "campaign": campaign_code, "length": length, "head": head, "scheme": scheme}
    )


def public_head_statement(campaign_code: str, length: int, root: str, at: datetime) -> str:
    return canonical_json(
        {
            "kind": PUBLIC_HEAD_FORMAT,
            "campaign": campaign_code,
            "length": length,
            "root": root,
            "at": _iso(at),
        }
    )


class LogSeal(models.Model):
    """Where a campaign's log ends, as the server wrote it: its length, the hash of its last
    entry and the oldest hash scheme its entries may use, signed with the server's signing
    key (``referee.play.signing``) in the same transaction as each entry is appended. An
    owner of the database can cut or rewrite the log, but not sign where it ends: the
    check reads the chain up to the seal.

    Beside it, the players' chain: a root over the hashes of the entries everyone reads,
    in order (``public_root``), and how many, signed the same way, so a player's browser
    can check each new head extends the one it kept, without learning of hidden entries."""

    campaign = models.OneToOneField(
        Campaign, on_delete=models.CASCADE, primary_key=True, related_name="log_seal"
    )
    length = models.PositiveIntegerField(default=0)
    head = models.CharField(max_length=64, default=GENESIS_HASH)
    # The oldest hash scheme an entry of this log may be: a campaign begun under keyed
    # hashing never takes an unkeyed entry.
    scheme = models.PositiveSmallIntegerField(default=HASH_SCHEME)
    signature = models.CharField(max_length=128)
    public_length = models.PositiveIntegerField(default=0)
    public_root = models.CharField(max_length=64, default=GENESIS_HASH)
    public_at = models.DateTimeField()
    public_signature = models.CharField(max_length=128)

    def __str__(self) -> str:
        return f"log seal at #{self.length}"

    def statement(self, campaign_code: str | None = None) -> str:
        """The text the seal's signature covers."""
        return seal_statement(campaign_code or str(self.campaign.code), self.length, self.head, self.scheme)

    def public_statement(self, campaign_code: str | None = None) -> str:
        """The text the players' head's signature covers."""
        code = campaign_code or str(self.campaign.code)
        return public_head_statement(code, self.public_length, self.public_root, self.public_at)

    def sign(self, campaign_code: str, *, public: bool) -> None:
        self.signature = signing.sign(self.statement(campaign_code))
        if public:
            self.public_signature = signing.sign(self.public_statement(campaign_code))


class Numbering:
    """Players' entry numbers: the entries they can see, numbered 1, 2, 3... without the
    gaps hidden entries would leave in ``seq``. Revealing an entry gives it its place, so
    later entries' numbers move up by one then."""

    def __init__(self, hidden_seqs: list[int]):
        self.hidden = sorted(hidden_seqs)

    @classmethod
    def for_campaign(cls, campaign: Campaign, user=None) -> Numbering:
        """The numbering of player ``user`` (of a player no whisper names, when None)."""
        entries = LogEntry.objects.in_campaign(campaign).unnumbered(user)
        return cls(list(entries.values_list("seq", flat=True)))

    def number(self, seq: int) -> int | None:
        """The player's number of the entry ``seq``; None for one without a place (the
        player's own blind roll, until the GM reveals it)."""
        at = bisect.bisect_left(self.hidden, seq)
        if at < len(self.hidden) and self.hidden[at] == seq:
            return None
        return seq - at

    def seq(self, number: int) -> int:
        """The seq of the visible entry with this number."""
        seq = number
        for hidden in self.hidden:
            if hidden > seq:
                break
            seq += 1
        return seq

    def apply(self, entries) -> list[LogEntry]:
        """Give each entry (and the entries it undoes or is undone by) its players' number."""
        entries = list(entries)
        for entry in entries:
            for shown in (entry, entry.reversal_of, getattr(entry, "reversed_by", None)):
                if shown is not None:
                    shown.__dict__["_shown_number"] = self.number(shown.seq)
        return entries


def _iso(value: datetime | None) -> str | None:
    return value.isoformat(timespec="microseconds") if value else None


def entry_payload(*, game_time: datetime, created_at: datetime, **fields) -> dict:
    return {**fields, "game_time": _iso(game_time), "created_at": _iso(created_at)}


def canonical(value, *, where: str = "the entry"):
    """A value as PostgreSQL's jsonb will give it back, so what is hashed is what is read.

    jsonb keeps numbers as ``numeric``: ``-0.0`` comes back ``0.0`` and a float written
    with an exponent (``1e+23``, any float of 16 or more integral digits) comes back as
    the integer its decimal digits spell, not the float's binary value. Non-finite numbers,
    NUL characters and unpaired surrogates cannot be stored at all, and an integer of more
    than ``MAX_DIGITS`` digits is refused: each raises ``UnrecordableValue``. Idempotent,
    and the identity on anything jsonb returned."""
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, int):
        if len(str(abs(value))) > MAX_DIGITS:
            raise UnrecordableValue(f"a number in {where} has more than {MAX_DIGITS} digits")
        return value
    if isinstance(value, float):
        if not math.isfinite(value):
            raise UnrecordableValue(f"{where} holds a number that is not finite ({value})")
        if value == 0:
            return 0.0
        text = repr(value)
        if "e+" in text:  # numeric reads 1.5e+20 with no decimals: an integer comes back
            return canonical(int(Decimal(text)), where=where)
        return value
    if isinstance(value, Decimal):
        if not value.is_finite():
            raise UnrecordableValue(f"{where} holds a number that is not finite ({value})")
        return canonical(json.loads(str(value)), where=where)
    if isinstance(value, str):
        if "\x00" in value:
            raise UnrecordableValue(f"text in {where} holds a NUL character, which cannot be recorded")
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            raise UnrecordableValue(f"text in {where} is not valid Unicode") from None
        return value
    if isinstance(value, dict):
        out = {}
        for key, item in value.items():
            if not isinstance(key, str):  # JSON keys are text: key them as json.dumps would
                key = json.dumps({key: 0})[1:].rsplit(":", 1)[0].strip('"')
            out[canonical(key, where=where)] = canonical(item, where=where)
        return out
    if isinstance(value, list | tuple):
        return [canonical(item, where=where) for item in value]
    raise UnrecordableValue(f"{where} holds a value that is not plain data ({type(value).__name__})")


def canonical_json(payload: dict) -> str:
    return json.dumps(canonical(payload), sort_keys=True, separators=(",", ":"), ensure_ascii=False)


@cache
def _log_key(secret: str) -> bytes:
    return hashlib.sha256(b"referee turn log key\0" + secret.encode()).digest()


def log_key() -> bytes:
    """The key of the chain: ``LOG_HMAC_KEY`` if set, else one derived from SECRET_KEY."""
    return _log_key(getattr(settings, "LOG_HMAC_KEY", "") or settings.SECRET_KEY)


def pending_digest(nonce: str, pending: list) -> str:
    """What an entry's hash covers of the effects left to the GM (hash scheme 4): a digest
    keyed like the chain and salted with the entry's nonce, which names nothing."""
    text = ("pending\0" + nonce + canonical_json({"pending": pending})).encode()
    return hmac.new(log_key(), text, hashlib.sha256).hexdigest()


def chain_hash(prev_hash: str, payload: dict) -> str:
    """The hash of an entry: over the previous hash and the canonical JSON of the entry,
    keyed with the server's log key for entries of scheme 2 and 3 (the scheme is in the payload)."""
    text = (prev_hash + canonical_json(payload)).encode()
    scheme = payload.get("hash_scheme", 1)
    if scheme == 1:
        return hashlib.sha256(text).hexdigest()
    if scheme in (2, 3, 4):
        return hmac.new(log_key(), text, hashlib.sha256).hexdigest()
    raise UnrecordableValue(f"unknown hash scheme {scheme!r}")
