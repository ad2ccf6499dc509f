"""How every form renders: through the project's templates, one markup for a field.

``templates/forms/field.html`` is a field's group (label, widget, its errors and help,
with the ids the widget's ``aria-describedby`` points at); ``templates/forms/form.html``
is a whole form (``{{ form }}``): its own errors, then each field's group. A form card
(``templates/forms/card.html``) puts a form in the page's ``#form-slot``.
"""

from __future__ import annotations

from django import forms
from django.forms.renderers import TemplatesSetting
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
