"""How every form renders: through the project's templates, one markup for a field.

``templates/forms/field.html`` is a field's group (label, widget, its errors and help,
with the ids the widget's ``aria-describedby`` points at); ``templates/forms/form.html``
is a whole form (``{{ form }}``): its own errors, then each field's group. A form card
(``templates/forms/card.html``) puts a form in the page's ``#form-slot``.
"""

from __future__ import annotations

from django import forms
from django.core.exceptions import ValidationError
from django.forms.renderers import TemplatesSetting
from django.utils.deconstruct import deconstructible
from django.utils.html import format_html
from django.utils.safestring import mark_safe


class FormRenderer(TemplatesSetting):
    form_template_name = "forms/form.html"
    field_template_name = "forms/field.html"


def _attrs(attrs: dict) -> str:
    """``django/forms/widgets/attrs.html``, in Python."""
    return mark_safe(  # every part went through format_html
        "".join(
            format_html(" {}", name) if value is True else format_html(' {}="{}"', name, str(value))
            for name, value in attrs.items()
            if value is not False
        )
    )


class Select(forms.Select):
    """Django's select, with the same markup as its templates, written in Python: a
    template include per option made a select of a campaign's 200 ships the slowest part
    of a procedure's page."""

    def render(self, name, value, attrs=None, renderer=None) -> str:
        widget = self.get_context(name, value, attrs)["widget"]
        parts = [format_html('<select name="{}"{}>', widget["name"], _attrs(widget["attrs"]))]
        for group_name, options, _index in widget["optgroups"]:
            if group_name:
                parts.append(format_html('\n  <optgroup label="{}">', group_name))
            parts.extend(
                format_html(
                    '\n  <option value="{}"{}>{}</option>\n',
                    str(option["value"]),
                    _attrs(option["attrs"]),
                    option["label"],
                )
                for option in options
            )
            if group_name:
                parts.append("\n  </optgroup>")
        parts.append("\n</select>")  # the template's output, stripped as Django strips it
        return mark_safe("".join(parts))  # every part went through format_html


KB = 1024
MB = 1024 * KB


def size_in_words(limit: int) -> str:
    """``2 MB``, ``700 KB``: a size limit as a GM reads it."""
    return f"{limit // MB} MB" if limit >= MB and limit % MB == 0 else f"{limit // KB:,} KB"


def too_large(limit: int, what: str) -> str:
    """The refusal of a file over ``limit`` bytes, naming the limit: ``what`` is the kind of
    file it should have been ("a board")."""
    return f"The file is larger than {size_in_words(limit)}, the most {what} may be."


@deconstructible
class MaxUploadSize:
    """A file field's validator: an upload over ``limit`` bytes is refused, saying the limit
    (``too_large``), before any of it is read."""

    def __init__(self, limit: int, what: str) -> None:
        self.limit, self.what = limit, what

    def __call__(self, upload) -> None:
        if upload is not None and upload.size > self.limit:
            raise ValidationError(too_large(self.limit, self.what), code="too_large")

    def __eq__(self, other) -> bool:
        return isinstance(other, MaxUploadSize) and (self.limit, self.what) == (other.limit, other.what)
