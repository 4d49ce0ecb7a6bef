"""The one base class of user-facing errors: the CLI prints their message as one line."""


class GridjudgeError(RuntimeError):
    """Expected failure caused by the user's input; `str(exc)` is one line for the user."""
