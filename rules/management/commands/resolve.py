"""``manage.py resolve``: the rules engine from the command line (catalogue C.7)."""

from __future__ import annotations

import json
import sys

from django.core.management.base import BaseCommand, CommandParser

import rules


def parse_input_value(text: str, name: str = "input"):
    """JSON when it parses (3, 2.5, true, null, [1,2], {"a":1}, "x"); else the plain string.
    What it parses to is then held to the input limits like any other input."""
    try:
        return json.loads(text)
    except RecursionError:  # nested thousands deep: past any limit, refused as such
        raise rules.InputError(name, "is nested too deeply") from None
    except ValueError:
        return text


def parse_dice(text: str) -> list[int]:
    if text.strip() == "":
        return []
    try:
        return [int(part) for part in text.split(",")]
    except ValueError:
        raise rules.DiceError(f"--dice takes comma-separated whole numbers (got {text!r})") from None


class Command(BaseCommand):
    help = "Resolve one rules procedure: prints the outcome as JSON or text."
    # A pure-engine command: the web app's model checks have nothing to say about it.
    requires_system_checks = []

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("procedure_id", nargs="?", help="e.g. jump.malfunction")
        parser.add_argument("--input", action="append", default=[], metavar="NAME=VALUE")
        parser.add_argument("--inputs-json", default=None, metavar="JSON")
        parser.add_argument("--dice", default=None, help='comma-separated dice, e.g. 3,5,6; "" for none')
        parser.add_argument("--format", choices=("json", "text"), default="json")
        parser.add_argument("--list", action="store_true", help="list every procedure")

    def handle(self, *args, **opts) -> None:
        if opts["list"]:
            for proc in rules.all_procedures():
                self.stdout.write(f"{proc.id}\t{proc.title}\t{proc.reference}")
            return
        try:
            outcome = self._resolve(opts)
        except rules.InputError as e:
            self.stderr.write(f"InputError: {e.field}: {e.message}")
            sys.exit(2)
        except rules.DiceError as e:
            self.stderr.write(f"DiceError: {e}")
            sys.exit(3)
        if opts["format"] == "json":
            self.stdout.write(json.dumps(outcome.to_dict(), indent=2))
            return
        self.stdout.write(outcome.summary)
        for key, value in outcome.result.items():
            self.stdout.write(f"{key}: {json.dumps(value)}")
        for effect in outcome.effects:
            self.stdout.write(
                f"effect: {effect['target']}.{effect['field']} {effect['op']} {json.dumps(effect['value'])}"
            )

    def _resolve(self, opts) -> rules.Outcome:
        if not opts["procedure_id"]:
            raise rules.InputError("procedure_id", "name a procedure (or use --list)")
        inputs = {}
        if opts["inputs_json"] is not None:
            try:
                inputs = json.loads(opts["inputs_json"])
            except RecursionError:
                raise rules.InputError("inputs", "--inputs-json is nested too deeply") from None
            except ValueError as e:
                raise rules.InputError("inputs", f"--inputs-json is not valid JSON ({e})") from None
            if not isinstance(inputs, dict):
                raise rules.InputError("inputs", "--inputs-json must be a JSON object")
        for item in opts["input"]:
            name, sep, value = item.partition("=")
            if not sep:
                raise rules.InputError(name or "input", f"--input {item!r} needs the form name=value")
            inputs[name] = parse_input_value(value, name)
        proc = rules.get(opts["procedure_id"])  # an unknown id is reported before anything else
        proc.normalise(inputs)  # C.2: a bad input is reported even when --dice is also bad
        dice = None if opts["dice"] is None else parse_dice(opts["dice"])
        return rules.resolve(opts["procedure_id"], inputs, dice)
