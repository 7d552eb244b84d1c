"""The one top-level error boundary of `pnp`: no code path prints a traceback unless asked.

Expected problems (PnpError, a locked database, a full disk) are worded where
they happen (`_common.handled`).  Anything else that reaches the entry point
is a bug in pnpforge or a situation nobody foresaw; it becomes one line naming
the command, its input and where to report it, and exit code 70 (EX_SOFTWARE).
`pnp --debug …` or PNP_DEBUG=1 shows the traceback instead.
"""

from __future__ import annotations

import os
import shlex
import sys
import traceback
from collections.abc import Callable, Sequence

REPORT_TO = "the pnpforge maintainers (the project's issue tracker; see CONTRIBUTING.md)"
EXIT_BUG = 70  # EX_SOFTWARE of sysexits.h
EXIT_INTERRUPTED = 130

_debug = {"on": False}


def set_debug(on: bool) -> None:
    """`--debug` on the command line: show tracebacks."""
    _debug["on"] = _debug["on"] or on


def debugging(argv: Sequence[str] = ()) -> bool:
    env = os.environ.get("PNP_DEBUG", "").strip().lower() in ("1", "true", "yes")
    return _debug["on"] or env or "--debug" in argv


def describe(argv: Sequence[str], exc: BaseException) -> str:
    """The one line for an unexpected exception: command, input, what happened, where to report."""
    words = [a for a in argv if a != "--debug"]
    command = next((a for a in words if not a.startswith("-") and a not in _option_values(words)), "")
    shown = shlex.join(["pnp", *words])
    if len(shown) > 300:
        shown = shown[:299] + "…"
    what = f"{type(exc).__name__}: {exc}".splitlines()[0] if str(exc) else type(exc).__name__
    if len(what) > 200:
        what = what[:199] + "…"
    return (
        f"Error: pnp {command or '(no command)'} stopped on an unexpected problem ({what}) "
        f"while running `{shown}`; nothing more was done. This is a bug: please report it to "
        f"{REPORT_TO} with the output of the same command run with --debug"
    )


def _option_values(words: Sequence[str]) -> set[str]:
    """The values of the root options that take one (`--db PATH`), not the command's name."""
    values = set()
    for i, word in enumerate(words[:-1]):
        if word == "--db":
            values.add(words[i + 1])
    return values


def run(entry: Callable[[], object], argv: Sequence[str] | None = None) -> None:
    """Run the CLI `entry`; an unexpected exception becomes one line and exit code 70."""
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        entry()
    except SystemExit:
        raise
    except KeyboardInterrupt:
        sys.stderr.write("Interrupted; nothing more was done\n")
        raise SystemExit(EXIT_INTERRUPTED) from None
    except BaseException as exc:  # the boundary: everything that escaped the commands
        if debugging(args):
            traceback.print_exc()
        else:
            sys.stderr.write(describe(args, exc) + "\n")
        raise SystemExit(EXIT_BUG) from None
