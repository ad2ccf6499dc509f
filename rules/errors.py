"""The engine's exceptions: what a caller (a form, the CLI, a script) may catch."""


class InputError(ValueError):
    """An input is missing, of the wrong type, out of range, or makes the action illegal.

    ``field`` names the offending input ("procedure_id" for an unknown procedure).
    """

    def __init__(self, field: str, message: str):
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


class DiceError(ValueError):
    """The dice given do not fit what the procedure rolls."""


class OddsError(ValueError):
    """Exact odds cannot be given (too many dice paths to enumerate)."""
