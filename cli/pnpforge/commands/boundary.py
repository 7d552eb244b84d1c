"""The one top-level error boundary of `pnp`: no code path prints a traceback unless asked.

Expected problems (PnpError, a locked database, a full disk) are worded where
they happen (`_common.handled`).  Anything else that reaches the entry point
is a bug in pnpforge or a situation nobody foresaw; it becomes one line naming
the command, its input and where to report it, and exit code 70 (EX_SOFTWARE).
`pnp --debug …` or PNP_DEBUG=1 shows the traceback instead.
"""

from __future__ import annotations

import json
import os
import shlex
import sys
import traceback
from collections.abc import Callable, Sequence
from typing import Any

import click
from typer.core import TyperGroup

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


EXIT_USAGE = 2  # a command line pnp cannot parse, as click and the shells use it


def _command_at(root: click.Group, args: Sequence[str]) -> tuple[str, click.Command]:
    """(`pnp cards show`, its command) from the words of a command line, for an error raised
    without its context (an option missing its value): the commands the words walk through."""
    path: list[str] = ["pnp"]
    command: click.Command = root
    skip = _option_values(args)
    for word in args:
        if word.startswith("-") or word in skip or not isinstance(command, click.Group):
            continue
        found = command.commands.get(word)
        if found is None:
            break
        path.append(word)
        command = found
    return " ".join(path), command


def usage_line(exc: click.UsageError, args: Sequence[str], root: click.Group) -> tuple[str, bool]:
    """A usage error as one line naming the command and the problem, and whether the
    command was asked for --json (then the line goes out as `{"error": ...}`)."""
    ctx = exc.ctx
    command, found = (ctx.command_path, ctx.command) if ctx is not None else _command_at(root, args)
    problem = exc.format_message().strip().rstrip(".")
    problem = " ".join(problem.split())  # one line, whatever the parser wrote
    problem = problem[:1].lower() + problem[1:] if problem[:2] != problem[:2].upper() else problem
    hint = f"; see {command} -h"
    wants_json = "--json" in args and any(getattr(p, "name", None) == "as_json" for p in found.params)
    return f"{command}: {problem}{hint}", wants_json


class PlainErrorsGroup(TyperGroup):
    """The root `pnp` group: a usage error (missing argument, unknown option or command, bad
    value) is one plain line and exit 2, like every other error pnp prints, not a boxed panel."""

    def main(  # type: ignore[override]
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        words = list(sys.argv[1:] if args is None else args)
        try:
            code = super().main(words, prog_name, complete_var, standalone_mode=False, **extra)
        except click.exceptions.NoArgsIsHelpError as exc:
            sys.exit(exc.exit_code)  # the help was printed: no error to add
        except click.UsageError as exc:
            line, as_json = usage_line(exc, words, self)
            if as_json:
                click.echo(json.dumps({"error": line, "exit": EXIT_USAGE}, ensure_ascii=False, indent=2))
            else:
                click.echo(f"Error: {line}", err=True)
            sys.exit(EXIT_USAGE)
        except click.ClickException as exc:  # a file option that cannot be opened and the like
            click.echo(f"Error: {' '.join(exc.format_message().split())}", err=True)
            sys.exit(exc.exit_code)
        except click.Abort:
            click.echo("Aborted; nothing more was done", err=True)
            sys.exit(1)
        sys.exit(code if isinstance(code, int) else 0)
