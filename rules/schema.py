"""Input and result schemas, written in the catalogue's own type notation.

Each procedure module pastes its ``contract`` block from the rules catalogue; this
module parses the ``inputs:`` and ``result:`` sections into types that validate and
normalise values (catalogue section C.2) and describe themselves for forms.

Grammar (as used by the catalogue)::

    type   := atom ("|" atom)*                 # in practice ``T|null``
    atom   := int | float | number | bool | str | rational | chart | null
            | "str enum {" name ("|" name)* "}"
            | "list[" type "]" | "table2d6[" type "]"
            | "object{" field ("," field)* "}"    # field: name: type [= json]
                                                  # a field named <LOC> is a map
"""

from __future__ import annotations

import dataclasses
import json
import math
import re
from fractions import Fraction
from types import MappingProxyType
from typing import Any

from .errors import InputError

REQUIRED = object()
TABLE_KEYS = tuple(str(n) for n in range(2, 13))

# --- Input limits -------------------------------------------------------------------------
# Declared once and enforced on every procedure input before its type is checked, so no
# input can make a resolution slow or its log entry huge. A procedure's ``bounds`` (the
# rules' own ranges, e.g. Thrust Points a craft can spend) are tighter still; these caps
# hold for everything the rules leave open.
MAX_NUMBER = 10**15  # |x| of any int or float input: whole numbers stay exact as floats and in jsonb
MAX_TEXT = 200  # characters of any text input (a name, an id, a weapon) and of any object key
MAX_ITEMS = 100  # entries of any list input, keys of any object input
MAX_DEPTH = 6  # lists and objects nested inside one input (the deepest contract type needs 3)
MAX_JSON_TEXT = 20_000  # characters of one input written as JSON (a form's text box, the CLI)
MAX_RATIONAL_DIGITS = 15  # digits of either side of a "p/q" fraction

# Text a PostgreSQL column cannot hold (NUL) or UTF-8 cannot encode (lone surrogates).
_UNSTORABLE = re.compile("[\x00\ud800-\udfff]")


def check_limits(value: Any, field: str) -> None:
    """Refuse a JSON-style value past the input limits with ``InputError(field, ...)``.

    Iterative (a value nested thousands deep never reaches Python's recursion limit) and
    stops at the first value past a limit."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, str):
            _check_text(item, field)
        elif isinstance(item, bool) or item is None:
            continue
        elif isinstance(item, (int, float)):
            _check_number(item, field)
        elif isinstance(item, (list, tuple, dict)):
            if depth > MAX_DEPTH:
                raise InputError(field, f"is nested more than {MAX_DEPTH} levels deep")
            if len(item) > MAX_ITEMS:
                raise InputError(field, f"has {len(item):,} entries; at most {MAX_ITEMS} are allowed")
            if isinstance(item, dict):
                for key in item:
                    if not isinstance(key, str):
                        raise InputError(field, "object keys must be text")
                    _check_text(key, field)
                stack.extend((v, depth + 1) for v in item.values())
            else:
                stack.extend((v, depth + 1) for v in item)


def unstorable_text(text: str) -> bool:
    """Text a database column cannot hold: a NUL, or a lone surrogate UTF-8 cannot encode."""
    return _UNSTORABLE.search(text) is not None


def _check_text(text: str, field: str) -> None:
    if len(text) > MAX_TEXT:
        raise InputError(field, f"is {len(text):,} characters long; at most {MAX_TEXT} are allowed")
    if unstorable_text(text):
        raise InputError(field, "contains a character that cannot be stored (a NUL or a broken character)")


def _check_number(number: int | float, field: str) -> None:
    if isinstance(number, float) and not math.isfinite(number):
        raise InputError(field, "must be a finite number")
    if abs(number) > MAX_NUMBER:
        raise InputError(field, f"must be between -{MAX_NUMBER:,} and {MAX_NUMBER:,}")


def parse_json_text(text: str, field: str) -> Any:
    """Parse one input written as JSON, within the input limits: no size, depth or
    number can make the parser recurse, overflow or run long. ``InputError`` on failure."""
    if len(text) > MAX_JSON_TEXT:
        raise InputError(field, f"is {len(text):,} characters long; at most {MAX_JSON_TEXT:,} are allowed")
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:  # brackets outside strings: the nesting the parser would recurse into
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
            if deepest > MAX_DEPTH:
                raise InputError(field, f"is nested more than {MAX_DEPTH} levels deep")
        elif ch in "]}":
            depth -= 1

    def refuse_constant(name: str):
        raise InputError(field, "must be a finite number")

    try:
        value = json.loads(text, parse_constant=refuse_constant)
    except ValueError as error:  # JSONDecodeError, or an integer too long to convert
        if isinstance(error, InputError):
            raise
        raise InputError(field, "is not valid JSON") from None
    check_limits(value, field)
    return value


def number_text(value: float) -> str:
    """A number as a person writes it in a message: 1,000 not 1e+03, 2.5 not 2.500."""
    if float(value).is_integer():
        return f"{int(value):,}"
    return f"{value:,.6g}" if abs(value) >= 1e-4 else f"{value:g}"


def words(name: str) -> str:
    """A contract name as words: ``deep_space`` -> ``deep space``."""
    return name.replace("_", " ")


class Type:
    """A value type. ``validate`` returns the JSON-normalised value; ``freeze`` the one
    a procedure reads (tuples for lists, frozen dataclasses for objects)."""

    nullable = False
    kind = "json"

    def validate(self, value: Any, field: str) -> Any:  # pragma: no cover - abstract
        raise NotImplementedError

    def freeze(self, value: Any) -> Any:
        return value

    def describe(self) -> dict:
        return {"type": self.kind}


class IntType(Type):
    kind = "int"

    def validate(self, value, field):
        if isinstance(value, bool):
            raise InputError(field, "must be a whole number, not yes or no")
        if isinstance(value, float) and math.isfinite(value) and value.is_integer():
            return int(value)
        if not isinstance(value, int):
            raise InputError(field, "must be a whole number")
        return value


class FloatType(Type):
    kind = "float"

    def validate(self, value, field):
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise InputError(field, "must be a number")
        if not math.isfinite(value):
            raise InputError(field, "must be a finite number")
        return value


class BoolType(Type):
    kind = "bool"

    def validate(self, value, field):
        if not isinstance(value, bool):
            raise InputError(field, "must be yes or no")
        return value


class StrType(Type):
    kind = "str"

    def validate(self, value, field):
        if not isinstance(value, str):
            raise InputError(field, "must be text")
        return value


class EnumType(Type):
    kind = "enum"

    def __init__(self, choices: tuple[str, ...]):
        self.choices = choices

    def validate(self, value, field):
        if not isinstance(value, str) or value not in self.choices:
            raise InputError(field, f"must be one of: {', '.join(words(c) for c in self.choices)}")
        return value

    def describe(self):
        return {"type": "enum", "choices": list(self.choices)}


class RationalType(Type):
    """``int``, ``float`` or ``"p/q"``; frozen as an exact Fraction."""

    kind = "rational"

    def validate(self, value, field):
        if isinstance(value, bool):
            raise InputError(field, "must be a number or a fraction like 1/3")
        if isinstance(value, (int, float)):
            if not math.isfinite(value):
                raise InputError(field, "must be a finite number")
            return value
        digits = MAX_RATIONAL_DIGITS
        if isinstance(value, str) and re.fullmatch(
            rf"\s*-?\d{{1,{digits}}}\s*/\s*\d{{1,{digits}}}\s*", value
        ):
            _p, q = (int(part) for part in value.split("/"))
            if q == 0:
                raise InputError(field, f"{value.strip()} divides by zero")
            return value.replace(" ", "")
        raise InputError(field, "must be a number or a fraction like 1/3")

    def freeze(self, value):
        if isinstance(value, str):
            p, q = value.split("/")
            return Fraction(int(p), int(q))
        if isinstance(value, int):
            return Fraction(value)
        # The decimal the caller wrote: 0.2 is 1/5, not the binary float just above it,
        # so 0.2 and "1/5" compare equal (e.g. a move-cost tie in booby_trap.pursuit_target).
        return Fraction(repr(value))


class NullType(Type):
    kind = "null"

    def validate(self, value, field):
        if value is not None:
            raise InputError(field, "must be left empty")
        return None


class NullableType(Type):
    nullable = True

    def __init__(self, inner: Type):
        self.inner = inner
        self.kind = inner.kind

    def validate(self, value, field):
        return None if value is None else self.inner.validate(value, field)

    def freeze(self, value):
        return None if value is None else self.inner.freeze(value)

    def describe(self):
        return {**self.inner.describe(), "nullable": True}


class ListType(Type):
    kind = "list"

    def __init__(self, item: Type):
        self.item = item

    def validate(self, value, field):
        if not isinstance(value, (list, tuple)):
            raise InputError(field, "must be a list")
        # C.2: for an element of a list the field is the list's name.
        return [self.item.validate(v, field) for v in value]

    def freeze(self, value):
        return tuple(self.item.freeze(v) for v in value)

    def describe(self):
        return {"type": "list", "item": self.item.describe()}


class MapType(Type):
    """``object{<LOC>: int}``: any string keys, one value type."""

    kind = "map"

    def __init__(self, value_type: Type, key_name: str):
        self.value_type = value_type
        self.key_name = key_name

    def validate(self, value, field):
        if not isinstance(value, dict) or not all(isinstance(k, str) for k in value):
            raise InputError(field, f"must be a table of values by {words(self.key_name).lower()}")
        return {k: self.value_type.validate(v, field) for k, v in value.items()}

    def freeze(self, value):
        return MappingProxyType({k: self.value_type.freeze(v) for k, v in value.items()})


class Table2d6Type(Type):
    """GM table keyed by some of "2".."12"."""

    kind = "table2d6"

    def __init__(self, item: Type):
        self.item = item

    def validate(self, value, field):
        if not isinstance(value, dict):
            raise InputError(field, "must be a table with an entry for each roll it covers, from 2 to 12")
        bad = [k for k in value if k not in TABLE_KEYS]
        if bad:
            raise InputError(field, "has an entry for a roll that 2D6 cannot make: rolls run from 2 to 12")
        return {k: self.item.validate(value[k], field) for k in TABLE_KEYS if k in value}

    def freeze(self, value):
        return MappingProxyType({int(k): self.item.freeze(v) for k, v in value.items()})

    def describe(self):
        return {"type": "table2d6", "item": self.item.describe()}


@dataclasses.dataclass(frozen=True, slots=True)
class ObjectField:
    name: str
    type: Type
    default: Any = REQUIRED


class ObjectType(Type):
    kind = "object"

    def __init__(self, fields: tuple[ObjectField, ...]):
        self.fields = fields
        self.names = tuple(f.name for f in fields)
        self.cls = dataclasses.make_dataclass("Record", [f.name for f in fields], frozen=True, slots=True)

    def validate(self, value, field):
        if not isinstance(value, dict):
            raise InputError(field, f"each entry must be a record of {self.names_text()}")
        unknown = [k for k in value if k not in self.names]
        if unknown:
            raise InputError(
                field, f"an entry has a part it cannot have: each entry holds {self.names_text()}"
            )
        out = {}
        for f in self.fields:
            if f.name in value:
                out[f.name] = f.type.validate(value[f.name], field)
            elif f.default is REQUIRED:
                raise InputError(field, f"each entry needs its {words(f.name)}")
            else:
                out[f.name] = json.loads(json.dumps(f.default))
        return out

    def names_text(self) -> str:
        names = [words(n) for n in self.names]
        return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"

    def freeze(self, value):
        return self.cls(**{f.name: f.type.freeze(value[f.name]) for f in self.fields})

    def describe(self):
        return {
            "type": "object",
            "fields": [
                {"name": f.name, **f.type.describe()}
                | ({} if f.default is REQUIRED else {"default": f.default})
                for f in self.fields
            ],
        }


class ChartType(Type):
    """Booby-trap weapon chart: every key "2".."12" -> {weapon, spaces >= 1, weight = spaces}."""

    kind = "chart"
    entry = ObjectType(
        (
            ObjectField("weapon", StrType()),
            ObjectField("spaces", IntType()),
            ObjectField("weight", FloatType(), None),
        )
    )

    def validate(self, value, field):
        if not isinstance(value, dict):
            raise InputError(field, "must be a weapon chart with an entry for every roll from 2 to 12")
        missing = [k for k in TABLE_KEYS if k not in value]
        extra = [k for k in value if k not in TABLE_KEYS]
        if missing or extra:
            what = f"no entry for {', '.join(missing)}" if missing else "an entry for a roll 2D6 cannot make"
            raise InputError(
                field, f"a chart needs an entry for every roll from 2 to 12, and only those ({what})"
            )
        out = {}
        for k in TABLE_KEYS:
            entry = self.entry.validate(value[k], field)
            if entry["spaces"] < 1:
                raise InputError(field, f"entry {k}: spaces must be at least 1")
            if entry["weight"] is None:
                entry["weight"] = entry["spaces"]
            out[k] = entry
        return out

    def freeze(self, value):
        return MappingProxyType({int(k): self.entry.freeze(v) for k, v in value.items()})


_SIMPLE = {
    "int": IntType,
    "float": FloatType,
    "number": FloatType,
    "bool": BoolType,
    "str": StrType,
    "rational": RationalType,
    "chart": ChartType,
    "null": NullType,
}


class _Parser:
    def __init__(self, text: str):
        self.text = text
        self.pos = 0

    def error(self, what: str):
        raise SyntaxError(f"{what} at {self.pos} in {self.text!r}")

    def ws(self):
        while self.pos < len(self.text) and self.text[self.pos] == " ":
            self.pos += 1

    def peek(self, s: str) -> bool:
        self.ws()
        return self.text.startswith(s, self.pos)

    def eat(self, s: str):
        if not self.peek(s):
            self.error(f"expected {s!r}")
        self.pos += len(s)

    def name(self) -> str:
        self.ws()
        m = re.compile(r"<?[A-Za-z_][A-Za-z0-9_]*>?").match(self.text, self.pos)
        if not m:
            self.error("expected a name")
        self.pos = m.end()
        return m.group(0)

    def choice(self) -> str:
        """An enum choice: any token up to ``|`` or ``}`` (``aft``, ``80``, ``220+``)."""
        self.ws()
        m = re.compile(r"[^|}\s]+").match(self.text, self.pos)
        if not m:
            self.error("expected an enum choice")
        self.pos = m.end()
        return m.group(0)

    def type(self) -> Type:
        options = [self.atom()]
        while self.peek("|"):
            self.eat("|")
            options.append(self.atom())
        non_null = [t for t in options if not isinstance(t, NullType)]
        if len(non_null) != 1:
            self.error("only T|null unions are supported")
        inner = non_null[0]
        return NullableType(inner) if len(options) > 1 else inner

    def atom(self) -> Type:
        word = self.name()
        if word == "str" and self.peek("enum"):
            self.eat("enum")
            self.eat("{")
            choices = [self.choice()]
            while self.peek("|"):
                self.eat("|")
                choices.append(self.choice())
            self.eat("}")
            return EnumType(tuple(choices))
        if word in ("list", "table2d6"):
            self.eat("[")
            item = self.type()
            self.eat("]")
            return ListType(item) if word == "list" else Table2d6Type(item)
        if word == "object":
            self.eat("{")
            fields = [self.field()]
            while self.peek(","):
                self.eat(",")
                fields.append(self.field())
            self.eat("}")
            if len(fields) == 1 and fields[0].name.startswith("<"):
                return MapType(fields[0].type, fields[0].name.strip("<>"))
            return ObjectType(tuple(fields))
        if word in _SIMPLE:
            return _SIMPLE[word]()
        self.error(f"unknown type {word!r}")

    def default(self) -> Any:
        self.ws()
        try:
            value, end = json.JSONDecoder().raw_decode(self.text, self.pos)
        except json.JSONDecodeError:
            self.error("expected a JSON default")
        self.pos = end
        return value

    def field(self) -> ObjectField:
        name = self.name()
        self.eat(":")
        typ = self.type()
        if self.peek("="):
            self.eat("=")
            return ObjectField(name, typ, self.default())
        return ObjectField(name, typ)


def parse_type(text: str) -> Type:
    p = _Parser(text)
    t = p.type()
    p.ws()
    if p.pos != len(text):
        p.error("unexpected text")
    return t


@dataclasses.dataclass(frozen=True, slots=True)
class Input:
    """One input of a procedure, with what a form needs to offer it."""

    name: str
    type: Type
    default: Any = REQUIRED
    help: str = ""
    min: float | None = None
    max: float | None = None
    unit: str = ""
    label: str = ""

    @property
    def required(self) -> bool:
        return self.default is REQUIRED

    def validate(self, value: Any) -> Any:
        check_limits(value, self.name)
        value = self.type.validate(value, self.name)
        if value is not None and (self.min is not None or self.max is not None):
            for v in value if isinstance(value, list) else [value]:
                if isinstance(v, (int, float)) and not isinstance(v, bool):
                    if self.min is not None and v < self.min:
                        raise InputError(self.name, f"must be at least {number_text(self.min)}")
                    if self.max is not None and v > self.max:
                        raise InputError(self.name, f"must be at most {number_text(self.max)}")
        return value

    def describe(self) -> dict:
        d = {
            "name": self.name,
            "label": self.label or self.name.replace("_", " ").capitalize(),
            **self.type.describe(),
            "required": self.required,
            "help": self.help,
            "unit": self.unit,
        }
        d.setdefault("nullable", False)
        if not self.required:
            d["default"] = self.default
        if self.min is not None:
            d["min"] = self.min
        if self.max is not None:
            d["max"] = self.max
        return d


@dataclasses.dataclass(frozen=True, slots=True)
class ResultKey:
    name: str
    type: Type
    help: str = ""


@dataclasses.dataclass(frozen=True, slots=True)
class Contract:
    procedure: str
    inputs: tuple[Input, ...]
    result: tuple[ResultKey, ...]
    dice: str
    effects: str
    errors: str


_LINE = re.compile(r"^\s+(?P<name>[a-z_][a-z0-9_]*):\s(?P<rest>.*)$")


def _split_comment(rest: str) -> tuple[str, str]:
    """Split ``type = default   # comment`` at the comment (never inside a JSON string)."""
    in_str = False
    for i, ch in enumerate(rest):
        if ch == '"' and (i == 0 or rest[i - 1] != "\\"):
            in_str = not in_str
        elif ch == "#" and not in_str:
            return rest[:i].strip(), rest[i + 1 :].strip()
    return rest.strip(), ""


def _declaration(line: str) -> tuple[str, Type, Any, str]:
    m = _LINE.match(line)
    if not m:
        raise SyntaxError(f"not a declaration: {line!r}")
    body, comment = _split_comment(m.group("rest"))
    p = _Parser(body)
    typ = p.type()
    default = REQUIRED
    if p.peek("="):
        p.eat("=")
        default = p.default()
    p.ws()
    if p.pos != len(body):
        p.error("unexpected text")
    return m.group("name"), typ, default, comment


def parse_contract(text: str, *, bounds: dict | None = None, units: dict | None = None) -> Contract:
    """Parse a catalogue ``contract`` block; ``bounds`` maps input names to (min, max)."""
    sections: dict[str, list[str]] = {}
    current = None
    for raw in text.splitlines():
        if not raw.strip():
            continue
        m = re.match(r"^([a-z]+):\s*(.*)$", raw)
        if m and not raw.startswith(" "):
            current = m.group(1)
            sections[current] = [m.group(2)] if m.group(2) else []
        elif current is not None:
            sections[current].append(raw)
    bounds = bounds or {}
    units = units or {}
    inputs = []
    for line in sections.get("inputs", []):
        if line.strip() in ("none", "{}"):
            continue
        name, typ, default, comment = _declaration(line)
        if default is not REQUIRED:
            typ.validate(default, name)  # the catalogue's own defaults must be valid
        lo, hi = bounds.get(name, (None, None))
        inputs.append(Input(name, typ, default, comment, lo, hi, units.get(name, "")))
    unknown = set(bounds) - {i.name for i in inputs}
    if unknown:
        raise SyntaxError(f"bounds for unknown inputs: {sorted(unknown)}")
    result = []
    for line in sections.get("result", []):
        name, typ, _default, comment = _declaration(line)
        result.append(ResultKey(name, typ, comment))
    return Contract(
        procedure=sections["procedure"][0].strip(),
        inputs=tuple(inputs),
        result=tuple(result),
        dice="\n".join(sections.get("dice", [])),
        effects="\n".join(sections.get("effects", [])),
        errors="\n".join(sections.get("errors", [])),
    )
