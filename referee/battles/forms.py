"""The battle pages' forms: a board to upload, a unit list to bring back, records to hand out."""

from __future__ import annotations

import base64
import binascii
import uuid
import zlib

from django import forms

from referee.forms import MaxUploadSize

from . import board, mul


class BoardUploadForm(forms.Form):
    prefix = "board"  # the battle page holds both upload forms
    file = forms.FileField(
        label="MegaMek board",
        help_text="A .board file, as MegaMek's board editor saves it.",
        validators=[MaxUploadSize(board.MAX_BOARD_BYTES, board.WHAT)],
    )
    name = forms.CharField(
        label="Battlefield name",
        max_length=120,
        required=False,
        help_text="Leave blank to name it after the file.",
    )


class ResultUploadForm(forms.Form):
    prefix = "result"
    file = forms.FileField(
        label="MegaMek unit list",
        help_text="The .mul MegaMek saved after the battle (or a unit list saved from its lobby).",
        validators=[MaxUploadSize(mul.MAX_MUL_BYTES, mul.WHAT)],
    )


def pack(raw: bytes) -> str:
    """The unit list, carried from the preview to Apply in the form itself."""
    return base64.b64encode(zlib.compress(raw, 9)).decode("ascii")


def unpack(text: str) -> bytes:
    try:
        packed = base64.b64decode(text.encode("ascii"), validate=True)
        inflater = zlib.decompressobj()
        raw = inflater.decompress(packed, mul.MAX_MUL_BYTES + 1)
    except (binascii.Error, zlib.error, UnicodeEncodeError, ValueError):
        raise forms.ValidationError("The unit list did not come back whole: upload it again.") from None
    if len(raw) > mul.MAX_MUL_BYTES or inflater.unconsumed_tail:
        raise forms.ValidationError("The unit list did not come back whole: upload it again.")
    return raw


class ResultApplyForm(forms.Form):
    data = forms.CharField(widget=forms.HiddenInput, max_length=1_000_000, strip=False)
    request_key = forms.UUIDField(widget=forms.HiddenInput, required=False)

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["request_key"].initial = uuid.uuid4()

    def clean_data(self) -> bytes:
        return unpack(self.cleaned_data["data"])
