"""The widgets of a procedure's lists and tables, so that no GM types JSON.

A procedure input whose type is a list, an object or a GM table (``rules.schema``) is shown
as what it is: a set of named choices as checkboxes (``list[str enum {...}]``), a list of
objects or of plain values as a table of rows with a field per column and a row to add
(``list[object{...}]``, ``list[int]``), an optional object as one row (``object{...}|null``),
and a 2D6 table or a weapon chart as its eleven rows, 2 to 12. Each cell is read and checked
by itself, and its error stands beside it; the value handed on is the engine's JSON, which
the contract still checks whole.

A row is added without JavaScript: *Add a row* posts the form back (``ADD_ROW``) and the
form comes back with one more blank row and everything typed kept. A row is removed by
ticking its *Remove* box. Blank rows are left out.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any

from django import forms
from django.forms.utils import ErrorDict
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe

import rules
from rules import schema

from . import help_words, wording

ADD_ROW = "add_row"  # the posted name of an "Add a row" button; its value names the input


def adds_a_row(form: forms.Form, names) -> bool:
    """Whether ``form`` was posted by the *Add a row* button of one of its lists ``names``
    (not by its own button): if so it is read, so that it shows again as typed, and shown
    without errors (a row is being filled in, nothing was asked of it yet)."""
    if not form.is_bound or form.data.get(ADD_ROW) not in names:
        return False
    form.full_clean()
    form._errors = ErrorDict()
    for field in form.fields.values():
        if hasattr(field.widget, "cell_errors"):  # a list's cells say nothing either
            field.widget.cell_errors = {}
    return True


BLANK_ROWS = 2  # blank rows under a list's rows, to type new ones into
MAX_BLANK_ROWS = 20  # however many times "Add a row" was pressed
INDEX = r"(\d{1,4})"  # a row's number in a cell's name; anything longer names no row
WHOLE = re.compile(r"[+-]?\d{1,16}")
TOTALS = schema.TABLE_KEYS
UNSHOWABLE = re.compile("[\x00\ud800-\udfff]")  # a NUL or a broken character, shown back
# Lists of named values whose order and repeats matter (the hexes a 'Mech crosses, in
# order): rows of choices, where other such lists are sets of checkboxes.
SEQUENCES = {("terrain.magma", "movement_path")}


@dataclass(frozen=True)
class Column:
    """One field of a row: its name in the engine's object, its words and its type."""

    name: str
    label: str
    type: schema.Type
    default: Any = schema.REQUIRED

    @property
    def kind(self) -> str:
        inner = self.type.inner if isinstance(self.type, schema.NullableType) else self.type
        if isinstance(inner, schema.ListType):
            return "list"
        return inner.kind

    @property
    def optional(self) -> bool:
        return self.default is not schema.REQUIRED or self.type.nullable

    def choices(self, procedure_id: str) -> list[tuple[str, str]]:
        inner = self.type.inner if isinstance(self.type, schema.NullableType) else self.type
        return [(c, help_words.choice_for(procedure_id, self.name, c)) for c in inner.choices]


def _columns(item: schema.Type, value_label: str) -> tuple[list[Column], bool]:
    """The columns of one row of ``item``, and whether a row is a whole object."""
    if isinstance(item, schema.ObjectType):
        return [Column(f.name, wording.label(f.name), f.type, f.default) for f in item.fields], True
    return [Column("value", value_label, item)], False


class Posted(dict):
    """What the form posted for one structured input: row key -> {column: text}, with
    ``removed`` rows and the number of ``blank`` rows the form showed."""

    def __init__(self, *args, blank: int = BLANK_ROWS, removed=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.blank = blank
        self.removed = set(removed)


def _read_cell(column: Column, text: str, procedure_id: str):
    """One cell's text as the engine's value; ``forms.ValidationError`` in plain words."""
    kind = column.kind
    text = text.strip()
    if schema.unstorable_text(text):
        raise forms.ValidationError("This holds a character that cannot be stored.")
    if len(text) > schema.MAX_TEXT:
        raise forms.ValidationError(f"At most {schema.MAX_TEXT} characters (this has {len(text):,}).")
    if kind == "bool":
        return text in ("on", "true", "1")
    if text == "":
        return None
    if kind == "int":
        if not WHOLE.fullmatch(text):
            raise forms.ValidationError("Enter a whole number.")
        number = int(text)
        if abs(number) > schema.MAX_NUMBER:
            raise forms.ValidationError("This number is too large.")
        return number
    if kind == "float":
        try:
            number = float(text)
        except ValueError:
            raise forms.ValidationError("Enter a number.") from None
        if not math.isfinite(number) or abs(number) > schema.MAX_NUMBER:
            raise forms.ValidationError("Enter a number of ordinary size.")
        return number
    if kind == "enum":
        allowed = dict(column.choices(procedure_id))
        if text not in allowed:
            raise forms.ValidationError("Choose one of the listed values.")
        return text
    if kind == "list":  # a list of names inside a row: written with commas between
        return [part.strip() for part in text.split(",") if part.strip()]
    if kind == "rational":
        for parse in (int, float):
            try:
                return parse(text)
            except ValueError:
                continue
    return text


def _shown(column: Column, value) -> str:
    """A value of the engine as its cell shows it."""
    if value is None:
        return ""
    if column.kind == "list" and isinstance(value, list | tuple):
        return ", ".join(str(v) for v in value)
    if isinstance(value, bool):
        return "on" if value else ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


class RowsWidget(forms.Widget):
    """A table of rows, a field per column; ``fixed`` rows (2..12) or as many as typed."""

    use_fieldset = True

    def __init__(self, *, columns, fixed=None, single=False, procedure_id="", attrs=None):
        super().__init__(attrs)
        self.columns = columns
        self.fixed = fixed  # the row keys of a 2D6 table, or None for a list
        self.single = single  # an optional object: one row, no adding
        self.procedure_id = procedure_id
        self.cell_errors: dict[tuple[str, str], str] = {}
        self.disabled = False

    def value_from_datadict(self, data, files, name):
        rows: dict[str, dict[str, str]] = {}
        pattern = re.compile(rf"{re.escape(name)}-{INDEX if self.fixed is None else '([0-9]{1,2})'}-(\w+)")
        removed = []
        for key in data:
            m = pattern.fullmatch(key)
            if not m:
                continue
            row, column = m.groups()
            if self.fixed is not None and row not in self.fixed:
                continue  # a 2D6 table has the totals 2 to 12 only
            if column == "remove":
                removed.append(row)
            elif column == "row" or any(c.name == column for c in self.columns):
                rows.setdefault(row, {})[column] = str(data.get(key, ""))
        try:
            blank = int(data.get(f"{name}-blank", BLANK_ROWS))
        except (TypeError, ValueError):
            blank = BLANK_ROWS
        if blank < 0:
            blank = BLANK_ROWS
        if data.get(ADD_ROW) == name:
            blank += 1
        return Posted(rows, blank=max(0, min(blank, MAX_BLANK_ROWS)), removed=removed)

    def used(self, texts: dict[str, str]) -> bool:
        """A row is typed in when a cell other than a tick holds something; a row of ticks
        only (a hex crossed: clear? climbing?) when its *Count this row* box is ticked."""
        if all(c.kind == "bool" for c in self.columns):
            return texts.get("row", "") != ""
        return any(texts.get(c.name, "").strip() for c in self.columns if c.kind != "bool")

    def value_omitted_from_data(self, data, files, name):
        return False

    def _rows(self, value) -> tuple[list[tuple[str, dict[str, str]]], int]:
        """The rows to show (key, cell texts) and how many blank ones follow."""
        if isinstance(value, Posted):
            shown = [(k, v) for k, v in value.items() if k not in value.removed]
            if self.fixed is None:
                shown = [row for row in sorted(shown, key=lambda r: int(r[0])) if self.used(row[1])]
            return shown, value.blank
        rows = []
        if self.fixed is not None:
            table = value if isinstance(value, dict) else {}
            for key in self.fixed:
                entry = table.get(key)
                if entry is None:
                    continue
                entry = entry if isinstance(entry, dict) else {"value": entry}
                rows.append((key, {c.name: _shown(c, entry.get(c.name)) for c in self.columns}))
            return rows, 0
        items = [value] if self.single and isinstance(value, dict) else value
        if isinstance(items, list | tuple):
            for i, item in enumerate(items):
                entry = item if isinstance(item, dict) else {"value": item}
                texts = {c.name: _shown(c, entry.get(c.name)) for c in self.columns}
                rows.append((str(i), {**texts, "row": "on"}))
        return rows, BLANK_ROWS

    def _cell(self, name: str, row: str, column: Column, text: str, label: str) -> str:
        cell = f"{name}-{row}-{column.name}"
        text = UNSHOWABLE.sub("", text)  # typed back as it was, less what no page can hold
        error = self.cell_errors.get((row, column.name), "")
        described = format_html(' aria-invalid="true" aria-describedby="{}_error"', cell) if error else ""
        if self.disabled:
            described = format_html("{} disabled", described)
        if column.kind == "bool":
            checked = " checked" if text in ("on", "true", "1") else ""
            widget = format_html(
                '<input type="checkbox" name="{}" id="id_{}" aria-label="{}"{}{}>',
                cell,
                cell,
                label,
                mark_safe(checked),
                described,
            )
        elif column.kind == "enum":
            options = [("", "—")]
            options += column.choices(self.procedure_id)
            widget = format_html(
                '<select name="{}" id="id_{}" aria-label="{}"{}>{}</select>',
                cell,
                cell,
                label,
                described,
                format_html_join(
                    "",
                    '<option value="{}"{}>{}</option>',
                    ((v, mark_safe(" selected") if v == text else "", words) for v, words in options),
                ),
            )
        else:
            number = column.kind in ("int", "float")
            widget = format_html(
                '<input type="text" name="{}" id="id_{}" value="{}" aria-label="{}"{}{}>',
                cell,
                cell,
                text,
                label,
                mark_safe(' inputmode="decimal"' if number else f' maxlength="{schema.MAX_TEXT}"'),
                described,
            )
        if error:
            widget += format_html(
                '<div class="error" id="{}_error" data-testid="error-{}">{}</div>', cell, cell, error
            )
        return format_html("<td>{}</td>", widget)

    def render(self, name, value, attrs=None, renderer=None):
        self.disabled = bool((attrs or {}).get("disabled"))  # a player's figure the records fix
        rows, blank = self._rows(value)
        if self.fixed is not None:
            texts = dict(rows)
            rows = [(key, texts.get(key, {})) for key in self.fixed]
            blank = 0
        elif self.single:
            rows = rows[:1] or [("0", {})]
            blank = 0
        else:
            start = max((int(k) for k, _ in rows), default=-1) + 1
            rows = [*rows, *((str(start + i), {}) for i in range(blank))]
        head = format_html_join("", "<th scope='col'>{}</th>", ((c.label,) for c in self.columns))
        lead = "<th scope='col'>2D6</th>" if self.fixed is not None else ""
        tail = "<th scope='col'>Remove</th>" if self.fixed is None and not self.single else ""
        body = []
        ticks_only = all(c.kind == "bool" for c in self.columns) and self.fixed is None and not self.single
        if ticks_only:
            head = format_html("<th scope='col'>Count this row</th>{}", head)
        for number, (key, texts) in enumerate(rows, start=1):
            if not texts:  # a blank row starts from each tick's default
                texts = {c.name: "on" for c in self.columns if c.kind == "bool" and c.default is True}
            where = f"{key}" if self.fixed is not None else f"Row {number}"
            cells = format_html_join(
                "",
                "{}",
                (
                    (self._cell(name, key, c, texts.get(c.name, ""), f"{where}: {c.label}"),)
                    for c in self.columns
                ),
            )
            first = format_html("<th scope='row'>{}</th>", key) if self.fixed is not None else ""
            if ticks_only:
                first = format_html(
                    '<td><input type="checkbox" name="{}-{}-row" aria-label="Count row {}"{}></td>',
                    name,
                    key,
                    number,
                    mark_safe(" checked" if texts.get("row") else ""),
                )
            last = (
                format_html(
                    '<td><input type="checkbox" name="{}-{}-remove" aria-label="Remove row {}"></td>',
                    name,
                    key,
                    number,
                )
                if tail
                else ""
            )
            body.append(format_html("<tr>{}{}{}</tr>", first, cells, last))
        table = format_html(
            '<div class="scroll"><table class="rows" data-testid="rows-{}"><thead><tr>{}{}{}</tr></thead>'
            "<tbody>{}</tbody></table></div>",
            name,
            mark_safe(lead),
            head,
            mark_safe(tail),
            mark_safe("".join(body)),
        )
        if self.fixed is None and not self.single and not self.disabled:
            table += format_html(
                '<input type="hidden" name="{}-blank" value="{}">'
                '<button type="submit" name="{}" value="{}" class="secondary small" formnovalidate'
                ' data-testid="add-row-{}">Add a row</button>',
                name,
                blank,
                ADD_ROW,
                name,
                name,
            )
        return table


class RowsField(forms.Field):
    """A list of objects or plain values, an optional object, a 2D6 table or a weapon chart,
    typed row by row; ``clean`` gives the engine's JSON value."""

    def __init__(self, spec: schema.Input, procedure_id: str, **kwargs):
        self.spec = spec
        typ = spec.type.inner if isinstance(spec.type, schema.NullableType) else spec.type
        self.shape = typ
        value_label = wording.label(spec.name)
        single = False
        fixed = None
        if isinstance(typ, schema.ListType):
            columns, self.objects = _columns(typ.item, value_label.rstrip("s") or value_label)
        elif isinstance(typ, schema.ObjectType):
            columns, self.objects = _columns(typ, value_label)
            single = True
        elif isinstance(typ, schema.Table2d6Type):
            columns, self.objects = _columns(typ.item, "Result")
            fixed = TOTALS
        elif isinstance(typ, schema.ChartType):
            columns, self.objects = _columns(schema.ChartType.entry, "Weapon")
            fixed = TOTALS
        elif isinstance(typ, schema.MapType):
            columns = [
                Column("key", wording.label(typ.key_name), schema.StrType()),
                Column("value", "Value", typ.value_type),
            ]
            self.objects = True
        else:  # pragma: no cover - every contract type is one of the above
            raise TypeError(f"no widget for {typ!r}")
        self.columns = columns
        self.procedure_id = procedure_id
        kwargs.setdefault(
            "widget", RowsWidget(columns=columns, fixed=fixed, single=single, procedure_id=procedure_id)
        )
        super().__init__(**kwargs)

    def prepare_value(self, value):
        return value

    def clean(self, value):
        if not isinstance(value, Posted):  # a disabled field's initial: the campaign's value
            try:
                return self.spec.validate(value) if value is not None else self._value([])
            except rules.InputError as error:
                raise forms.ValidationError(wording.plain_text(error.message)) from None
        rows = value
        errors: dict[tuple[str, str], str] = {}
        read: list[tuple[str, dict]] = []
        keys = [k for k in rows if k not in rows.removed]
        if self.widget.fixed is None:
            keys.sort(key=int)
        for key in keys:
            texts = rows[key]
            if not self.widget.used(texts):
                continue
            entry = {}
            for column in self.columns:
                try:
                    cell = _read_cell(column, texts.get(column.name, ""), self.procedure_id)
                except forms.ValidationError as error:
                    errors[(key, column.name)] = " ".join(error.messages)
                    continue
                if cell is None:
                    if not column.optional:
                        errors[(key, column.name)] = f"Fill in {column.label.lower()}."
                    elif column.type.nullable:
                        entry[column.name] = None
                    continue
                entry[column.name] = cell
            read.append((key, entry))
        self.widget.cell_errors = errors
        if len(read) > schema.MAX_ITEMS:
            raise forms.ValidationError(
                f"At most {schema.MAX_ITEMS} rows are allowed (this has {len(read):,})."
            )
        if errors:
            raise forms.ValidationError(
                [self._where(key, column) + message for (key, column), message in errors.items()][:5]
            )
        return self._value(read)

    def _column(self, name: str) -> Column:
        return next((c for c in self.columns if c.name == name), self.columns[0])

    def _where(self, key: str, column: str) -> str:
        label = self._column(column).label
        if self.widget.fixed is not None:
            return f"{key}, {label}: "
        if self.widget.single:
            return f"{label}: "
        return f"Row {int(key) + 1}, {label}: "

    def _value(self, read: list[tuple[str, dict]]):
        typ = self.shape
        empty = None if self.spec.type.nullable else self._empty()
        if not read:
            if self.required and not self.spec.type.nullable:
                raise forms.ValidationError("Add at least one row.")
            return empty
        if isinstance(typ, schema.ObjectType):
            return read[0][1]
        if isinstance(typ, schema.MapType):
            return {e["key"]: e.get("value") for _, e in read if "key" in e}
        if isinstance(typ, schema.ChartType):
            missing = [k for k in TOTALS if k not in dict(read)]
            if missing:
                self.widget.cell_errors = {(k, "weapon"): "Fill in a weapon." for k in missing}
                raise forms.ValidationError(
                    "A chart needs a weapon for every total from 2 to 12, or none at all "
                    f"(missing: {', '.join(missing)})."
                )
            return dict(read)
        if isinstance(typ, schema.Table2d6Type):
            return {k: e["value"] for k, e in read if "value" in e}
        if self.objects:
            return [e for _, e in read]
        return [e["value"] for _, e in read if "value" in e]

    def _empty(self):
        if isinstance(self.shape, schema.ListType):
            return []
        return None


class ChoicesSetField(forms.MultipleChoiceField):
    """A set of named conditions (``list[str enum {...}]``) as checkboxes."""

    widget = forms.CheckboxSelectMultiple

    def prepare_value(self, value):
        return list(value) if isinstance(value, list | tuple) else value

    def clean(self, value):
        chosen = super().clean(value)
        return list(dict.fromkeys(chosen))  # a value posted twice is chosen once


def structured_field(spec: schema.Input, procedure_id: str, common: dict) -> forms.Field:
    """The widget field for an input that is not one plain value."""
    typ = spec.type.inner if isinstance(spec.type, schema.NullableType) else spec.type
    if (
        isinstance(typ, schema.ListType)
        and isinstance(typ.item, schema.EnumType)
        and (procedure_id, spec.name) not in SEQUENCES
    ):
        choices = [(c, help_words.choice_for(procedure_id, spec.name, c)) for c in typ.item.choices]
        return ChoicesSetField(choices=choices, **{**common, "required": False})
    return RowsField(spec, procedure_id, **{**common, "required": False})


def reads_rows(field: forms.Field) -> bool:
    return isinstance(field, RowsField | ChoicesSetField)


def posted(field: forms.Field, name: str, value) -> dict[str, Any]:
    """The form data that types ``value`` (an engine value) into ``field`` under ``name``:
    what a GM's browser posts, for a script or a test that fills a form as a GM would."""
    if isinstance(field, ChoicesSetField):
        return {name: list(value or ())}
    if not isinstance(field, RowsField):
        raise TypeError(f"{name} is one plain value")
    rows, _blank = field.widget._rows(value)
    data: dict[str, Any] = {f"{name}-blank": "0"}
    for key, texts in rows:
        for column, text in texts.items():
            if text != "" and not (column != "row" and field._column(column).kind == "bool" and not text):
                data[f"{name}-{key}-{column}"] = text
    return data


def kept_value(procedure_id: str, spec: schema.Input, source):
    """What the GM had typed into a structured input, read back from a form's data to show
    again (the engine's value when it reads, else the rows as typed); ``None`` when the
    data does not hold the input at all."""
    field = structured_field(spec, procedure_id, {"label": spec.name})
    if isinstance(field, ChoicesSetField):
        return [v for v in source.getlist(spec.name) if isinstance(v, str)]
    if not any(key.startswith(f"{spec.name}-") for key in source):
        return None
    value = field.widget.value_from_datadict(source, {}, spec.name)
    try:
        return field.clean(value)
    except forms.ValidationError:
        return value
