"""Restoring a campaign from its backup in the browser: upload the file, say who each of
the backup's people is here, and land on the restored campaign. The checks are the
``restore_campaign`` command's own (``backup.preview`` and ``backup.restore_with_checks``)."""

from __future__ import annotations

import math
import secrets
import time
from pathlib import Path

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods

from referee.campaigns.models import Campaign
from rules.schema import unstorable_text

from . import backup
from .jsonfile import FileError, parse_json

SESSION_KEY = "restore_uploads"
ALREADY_HERE = (
    "This campaign is already on this server (a campaign with its code exists, restored before or a "
    "moment ago): nothing to restore. Its GM finds it under Your campaigns."
)
STAGED_FOR = 24 * 3600  # an upload not restored within a day is thrown away
COMPRESSED = {b"\x1f\x8b": "gzip", b"PK": "zip", b"BZ": "bzip2", b"\xfd7": "xz", b"(\xb5": "zstd"}


def _staging() -> Path:
    path = Path(settings.VAR_DIR) / "restores"
    path.mkdir(parents=True, exist_ok=True)
    now = time.time()
    for old in path.glob("*.json"):
        if now - old.stat().st_mtime > STAGED_FOR:
            old.unlink(missing_ok=True)
    return path


# What a backup this app wrote never holds: values nested deeper (its deepest records
# are a handful of levels inside the tables), or whole numbers beyond a database column's.
MAX_BACKUP_DEPTH = 64
# A PostgreSQL bigint, the widest whole number a column holds.
MIN_BACKUP_INTEGER, MAX_BACKUP_INTEGER = -(2**63), 2**63 - 1


def unsound_value(document) -> str | None:
    """Why no record could hold a value of the backup, in words (None: every value could):
    text with a NUL or a broken character (``rules.schema.unstorable_text``), a whole number
    beyond a bigint's (the widest column), or values nested deeper than a backup ever is.
    Walked without recursion, so no nesting can overflow it."""
    stack = [(document, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, str):
            if "\x00" in value:
                return "it holds a NUL character, which no record holds"
            if unstorable_text(value):
                return "it holds a broken character (half of a character pair), which no record holds"
        elif isinstance(value, bool) or value is None:
            continue
        elif isinstance(value, int):
            if value > MAX_BACKUP_INTEGER:
                return (
                    f"it holds a whole number larger than any record holds (at most {MAX_BACKUP_INTEGER:,})"
                )
            if value < MIN_BACKUP_INTEGER:
                return (
                    f"it holds a whole number smaller than any record holds (at least {MIN_BACKUP_INTEGER:,})"
                )
        elif isinstance(value, float):
            if not math.isfinite(value):
                return "it holds a number too large to be read"
        elif isinstance(value, (dict, list)):
            if depth > MAX_BACKUP_DEPTH:
                return "its values are nested far deeper than a backup's records are"
            if isinstance(value, dict):
                stack.extend((key, depth + 1) for key in value)
                stack.extend((item, depth + 1) for item in value.values())
            else:
                stack.extend((item, depth + 1) for item in value)
    return None


class Refused(Exception):
    def __init__(self, message: str, status: int = 400):
        super().__init__(message)
        self.message, self.status = message, status


def read_backup(raw: bytes):
    """The parsed backup of an upload, or Refused saying why it is not one."""
    kind = next((name for magic, name in COMPRESSED.items() if raw.startswith(magic)), None)
    if kind:
        raise Refused(
            f"This is a {kind}-compressed file, not a backup. Unpack it and upload the backup "
            "file inside (the .json file the Download backup button gives)."
        )
    if not raw.strip():
        raise Refused("The file is empty: choose the backup file the Download backup button gave.")
    try:
        document = parse_json(raw, "the file")
    except FileError as error:
        raise Refused(f"This is not a campaign backup: {error}.") from None
    if reason := unsound_value(document):
        raise Refused(f"This is not a sound backup: {reason}.")
    return document


class UploadForm(forms.Form):
    backup = forms.FileField(
        label="Backup file",
        allow_empty_file=True,
        help_text="The file Download backup gave, on this or another server.",
    )


def _refuse(request, template: str, context: dict, message: str, status: int) -> HttpResponse:
    return render(request, template, {**context, "refusal": message}, status=status)


def _too_large(limit: int) -> str:
    size = f"{limit // (1024 * 1024)} MB" if limit >= 1024 * 1024 else f"{limit:,} bytes"
    return (
        f"The file is larger than this server takes ({size}); the RESTORE_UPLOAD_MAX_BYTES setting "
        "raises the limit."
    )


@login_required
@require_http_methods(["GET", "POST"])
def restore_upload(request: HttpRequest) -> HttpResponse:
    limit = settings.RESTORE_UPLOAD_MAX_BYTES
    context = {"form": UploadForm(), "limit_mb": limit // (1024 * 1024)}
    if request.method == "GET":
        return render(request, "play/restore_upload.html", context)
    try:
        length = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        length = 0
    if length > limit + 64 * 1024:  # refused before the body is read
        return _refuse(request, "play/restore_upload.html", context, _too_large(limit), 413)
    form = UploadForm(request.POST, request.FILES)
    context["form"] = form
    if not form.is_valid():
        return _refuse(request, "play/restore_upload.html", context, "Choose a backup file to upload.", 400)
    upload = form.cleaned_data["backup"]
    if upload.size > limit:
        return _refuse(request, "play/restore_upload.html", context, _too_large(limit), 413)
    raw = upload.read(limit + 1)
    try:
        backup.preview(read_backup(raw))
    except Refused as refused:
        return _refuse(request, "play/restore_upload.html", context, refused.message, refused.status)
    except backup.CampaignExists:
        return _upload_again(request, ALREADY_HERE, 409)
    except backup.RestoreError as error:
        return _refuse(request, "play/restore_upload.html", context, f"Not restored: {error}.", 400)
    token = secrets.token_urlsafe(18)
    (_staging() / f"{token}.json").write_bytes(raw)
    staged = request.session.get(SESSION_KEY, [])
    request.session[SESSION_KEY] = [*staged[-4:], token]
    return redirect("integrity:restore-people", token=token)


def _choices(request) -> list[tuple[str, str]]:
    choices = [("me", f"Me ({request.user.get_username()})"), ("new", "A new account without a password")]
    if request.user.is_staff:
        choices.append(("account", "An account on this server (name it)"))
    return choices


class PeopleForm(forms.Form):
    """For each person the backup names: who they are here."""

    def __init__(self, people: list[backup.Person], choices, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.people = people
        for i, person in enumerate(people):
            part = {"gm": "the GM", "player": "a player"}.get(person.role, "named in the log")
            self.fields[f"who_{i}"] = forms.ChoiceField(
                label=f"{person.username} ({part})",
                choices=choices,
                initial="me" if person.role == "gm" else "new",
            )
            self.fields[f"name_{i}"] = forms.CharField(
                label=f"Account name for {person.username}",
                required=False,
                max_length=150,
                help_text="For a new account: its name, if not the same; for an account here: its name.",
            )

    def rows(self):
        return [(p, self[f"who_{i}"], self[f"name_{i}"]) for i, p in enumerate(self.people)]

    def clean(self):
        data = super().clean()
        User = get_user_model()
        field = User.USERNAME_FIELD
        validator = User._meta.get_field(field).validators
        plan: dict[str, tuple[str, str]] = {}  # backup name -> (what, account here)
        for i, person in enumerate(self.people):
            who, name = data.get(f"who_{i}"), (data.get(f"name_{i}") or "").strip()
            if who is None:
                continue
            if who == "me":
                plan[person.username] = ("me", self.user_name)
            elif who == "new":
                target = name or person.username
                try:
                    for validate in validator:
                        validate(target)
                except forms.ValidationError as error:
                    self.add_error(f"name_{i}", error)
                    continue
                if User._default_manager.filter(**{field: target}).exists():
                    self.add_error(
                        f"name_{i}",
                        f"An account named {target} exists here already: give the new account another "
                        "name, or choose who they are here.",
                    )
                    continue
                plan[person.username] = ("new", target)
            else:
                if not name:
                    self.add_error(f"name_{i}", "Name the account here.")
                    continue
                if not User._default_manager.filter(**{field: name}).exists():
                    self.add_error(f"name_{i}", f"There is no account named {name} here.")
                    continue
                plan[person.username] = ("account", name)
        if not self.people:
            raise forms.ValidationError(
                "The backup names nobody, so no one here could open the restored campaign: it is "
                "not restored from this page."
            )
        if not self.errors and not any(what == "me" for what, _ in plan.values()):
            raise forms.ValidationError(
                "Choose yourself for one of the backup's people (its GM, most often): otherwise you "
                "could not open the restored campaign."
            )
        data["plan"] = plan
        return data


def _staged(request, token: str) -> Path | None:
    if token not in request.session.get(SESSION_KEY, []):
        return None
    path = _staging() / f"{token}.json"
    return path if path.is_file() else None


def _upload_again(request, message: str, status: int) -> HttpResponse:
    context = {"form": UploadForm(), "limit_mb": settings.RESTORE_UPLOAD_MAX_BYTES // (1024 * 1024)}
    return _refuse(request, "play/restore_upload.html", context, message, status)


@login_required
@require_http_methods(["GET", "POST"])
def restore_people(request: HttpRequest, token: str) -> HttpResponse:
    path = _staged(request, token)
    if path is None:
        return _upload_again(
            request,
            "This upload is no longer waiting (it was restored already, or it is older than a day): "
            "upload the backup again.",
            410,
        )
    document = read_backup(path.read_bytes())
    context = {"upload_url": reverse("integrity:restore")}
    try:
        preview = backup.preview(document)
    except backup.CampaignExists:
        path.unlink(missing_ok=True)
        return _upload_again(request, ALREADY_HERE, 409)
    except backup.RestoreError as error:
        return _refuse(request, "play/restore_people.html", context, f"Not restored: {error}.", 400)
    choices = _choices(request)
    form = PeopleForm(preview.people, choices, request.POST or None)
    form.user_name = request.user.get_username()
    context.update({"preview": preview, "form": form})
    if request.method == "GET":
        return render(request, "play/restore_people.html", context)
    if not form.is_valid():
        return render(request, "play/restore_people.html", context, status=400)
    plan = form.cleaned_data["plan"]
    User = get_user_model()
    try:
        with transaction.atomic():
            made = []
            for what, target in plan.values():
                if what == "new":
                    user = User(**{User.USERNAME_FIELD: target})
                    user.set_unusable_password()
                    user.save()
                    made.append(target)
            restored = backup.restore_with_checks(document, users={name: t for name, (_w, t) in plan.items()})
    except backup.RestoreError as error:
        # A second submit that raced the first fails on the campaign's code once the first commits.
        if isinstance(error, backup.CampaignExists) or Campaign.objects.filter(code=preview.code).exists():
            return _refuse(request, "play/restore_people.html", context, ALREADY_HERE, 409)
        return _refuse(request, "play/restore_people.html", context, f"Not restored: {error}.", 400)
    path.unlink(missing_ok=True)
    request.session[SESSION_KEY] = [t for t in request.session.get(SESSION_KEY, []) if t != token]
    campaign = restored.campaign
    messages.success(request, f"Restored {campaign.name}. The checks it passed:")
    for check in restored.checks:
        messages.info(request, check)
    if made:
        messages.info(
            request,
            f"New accounts without a password: {', '.join(made)}. Each can be given one with "
            "manage.py changepassword, or invited again.",
        )
    return redirect("campaigns:detail", code=campaign.code)
