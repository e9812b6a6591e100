"""The one error type for bad user input (exit status 2 on the command line)."""


class InputError(ValueError):
    """Invalid input: the message names the offending token, card, row or player."""
