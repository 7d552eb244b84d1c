"""The one exception type the library raises for a user's mistake.

Commands turn it into a message and a non-zero exit; anything else is a bug
and keeps its traceback.
"""

from __future__ import annotations


class PnpError(Exception):
    """A problem the user can fix: bad input, a missing file, an invalid card."""

    exit_code = 2


class ValidationFailed(PnpError):
    """A write was refused because it would leave a card invalid."""

    exit_code = 1

    def __init__(self, message: str, problems: list | None = None) -> None:
        super().__init__(message)
        self.problems = problems or []
