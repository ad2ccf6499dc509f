"""The import form: files (or a zip) to upload, or a unit file's text pasted in."""

from __future__ import annotations

import uuid

from django import forms

from referee.forms import MaxUploadSize
from referee.unitfiles.files import MAX_ZIP_BYTES
from referee.unitfiles.text import MAX_FILE_BYTES

MAX_UPLOADS = 50
TOO_LARGE = MaxUploadSize(MAX_ZIP_BYTES, "a unit file or a zip of them")
PENDING_LIMIT = 1_500_000  # characters of the signed units kept between asking and answering


class MultipleFileInput(forms.ClearableFileInput):
    allow_multiple_selected = True


class MultipleFileField(forms.FileField):
    def __init__(self, *args, **kwargs) -> None:
        kwargs.setdefault("widget", MultipleFileInput(attrs={"accept": ".mtf,.blk,.zip"}))
        super().__init__(*args, **kwargs)

    def clean(self, data, initial=None) -> list:
        items = data if isinstance(data, list | tuple) else ([data] if data else [])
        if len(items) > MAX_UPLOADS:
            raise forms.ValidationError(f"Choose at most {MAX_UPLOADS} files at once (or put them in a zip).")
        cleaned = [super(MultipleFileField, self).clean(item, initial) for item in items]
        for item in cleaned:
            TOO_LARGE(item)
        return cleaned


class UnitFileImportForm(forms.Form):
    files = MultipleFileField(
        label="Unit files",
        required=False,
        help_text="MegaMek .mtf ('Mechs) or .blk files (everything else), or a zip of many.",
    )
    text = forms.CharField(
        label="Or paste a unit file",
        required=False,
        max_length=MAX_FILE_BYTES,
        strip=False,
        widget=forms.Textarea(attrs={"rows": 8, "spellcheck": "false"}),
    )
    existing = forms.ChoiceField(
        label="When a unit's chassis and model are already in the campaign",
        choices=[
            ("ask", "Ask me"),
            ("copy", "Import a second copy (named “#2”)"),
            ("update", "Update the existing record's sheet (a logged change that can be undone)"),
        ],
        initial="ask",
        required=False,
        widget=forms.RadioSelect,
    )
    as_designs = forms.BooleanField(
        label="Keep them as designs, to start new records from, instead of creating records",
        required=False,
    )

    # One import per form shown: a double click (or a resent post) finds the first import's entry.
    request_key = forms.UUIDField(required=False, widget=forms.HiddenInput)
    # The units read on the post that asked what to do with those already there, signed, so the
    # answer need not choose the files again.
    pending = forms.CharField(required=False, widget=forms.HiddenInput, max_length=PENDING_LIMIT)

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["request_key"].initial = uuid.uuid4()

    def clean(self) -> dict:
        data = super().clean()
        data["existing"] = data.get("existing") or "ask"
        if data.get("pending"):
            return data
        if not self.errors and not data.get("files") and not (data.get("text") or "").strip():
            raise forms.ValidationError("Choose a unit file or a zip, or paste a unit file's text.")
        return data
