"""Every form renders through the project's renderer: one markup for a field, wherever it is."""

import re

import pytest
from django import forms
from django.forms.renderers import get_default_renderer

from referee.forms import FormRenderer


class Sample(forms.Form):
    name = forms.CharField(help_text="What the table calls it.")
    hours = forms.IntegerField(min_value=0)
    shared = forms.BooleanField(required=False, label="Shared with players")

    def clean(self):
        raise forms.ValidationError("The chart cannot be used.")


def group(form: forms.Form, name: str) -> str:
    return str(form[name].as_field_group())


def test_the_project_renderer_is_the_default():
    assert isinstance(get_default_renderer(), FormRenderer)


def test_a_field_is_a_labelled_group_with_its_help_that_the_widget_points_at():
    html = group(Sample(), "name")
    assert html.lstrip().startswith('<div class="field">')
    assert '<label for="id_name">Name:</label>' in html
    assert '<small class="muted" id="id_name_helptext">What the table calls it.</small>' in html
    assert 'aria-describedby="id_name_helptext"' in html
    assert 'role="alert"' not in html


def test_an_error_is_an_alert_beside_the_field_that_keeps_what_was_typed():
    form = Sample({"name": "Lodestar", "hours": "-3"})
    html = group(form, "hours")
    assert '<div class="field has-error">' in html
    error = re.search(
        r'<div class="error" role="alert" aria-live="assertive" tabindex="-1" id="id_hours_error" data-testid="error-hours">(.*?)</div>',
        html,
    )
    assert error and "greater than or equal to 0" in error.group(1)
    assert 'aria-invalid="true"' in html and 'aria-describedby="id_hours_error"' in html
    assert 'value="-3"' in html
    assert 'role="alert"' not in group(form, "name")


def test_a_checkbox_sits_beside_its_label():
    assert '<div class="field check">' in group(Sample(), "shared")


def test_a_whole_form_shows_its_own_errors_once_then_each_field():
    form = Sample({"name": "Lodestar", "hours": "2"})
    html = str(form)
    assert html.count("The chart cannot be used.") == 1
    assert re.search(
        r'<div class="error" role="alert" aria-live="assertive" tabindex="-1" data-testid="form-error">The chart cannot be used.</div>',
        html,
    )
    assert '<div class="fields">' in html and html.count('<div class="field') == 1 + 3


def test_a_field_with_a_template_of_its_own_keeps_it():
    class Own(forms.Form):
        name = forms.CharField(template_name="django/forms/field.html")

    assert 'class="field' not in group(Own(), "name")


@pytest.mark.django_db
def test_a_weapon_chart_lays_its_rows_out_as_a_table_with_errors_in_their_cells():
    from referee.boobytraps.forms import WeaponChartForm
    from tests.factories import CampaignFactory

    form = WeaponChartForm({"name": "Mine", "weapon_type": "torp"}, campaign=CampaignFactory())
    html = str(form)
    assert '<table class="chart">' in html and '<label for="id_name">Name:</label>' in html
    cell = re.search(
        r'<td class="has-error">(<input[^>]*name="weapon_2"[^>]*>)<div class="error" role="alert" id="id_weapon_2_error">',
        html,
    )
    assert cell and 'aria-describedby="id_weapon_2_error"' in cell.group(1)
