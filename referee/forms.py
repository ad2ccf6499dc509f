"""How every form renders: through the project's templates, one markup for a field.

``templates/forms/field.html`` is a field's group (label, widget, its errors and help,
with the ids the widget's ``aria-describedby`` points at); ``templates/forms/form.html``
is a whole form (``{{ form }}``): its own errors, then each field's group. A form card
(``templates/forms/card.html``) puts a form in the page's ``#form-slot``.
"""

from __future__ import annotations

from django.forms.renderers import TemplatesSetting


class FormRenderer(TemplatesSetting):
    form_template_name = "forms/form.html"
    field_template_name = "forms/field.html"
