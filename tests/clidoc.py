"""The command reference `docs/cli.md`, generated from the CLI's own declarations.

`tests/test_docs.py` fails when the file is out of date; regenerate it with
`PNP_UPDATE_DOCS=1 pytest tests/test_docs.py`.
"""

from __future__ import annotations

from collections.abc import Iterator

import click
import typer.main

from pnpforge.app import app

HEADER = """# Command reference

Generated from the command declarations by `tests/clidoc.py`; do not edit by hand
(`PNP_UPDATE_DOCS=1 pytest tests/test_docs.py` regenerates it). The README explains
what each command is for; this page lists every option with its default.
"""


def commands(
    group: click.Group, prefix: tuple[str, ...] = ()
) -> Iterator[tuple[tuple[str, ...], click.Command]]:
    """Every command and sub-command, depth first, in name order."""
    for name in sorted(group.commands):
        cmd = group.commands[name]
        yield prefix + (name,), cmd
        if isinstance(cmd, click.Group):
            yield from commands(cmd, prefix + (name,))


def _default(param: click.Parameter) -> str:
    if isinstance(param, click.Option) and (param.is_flag or param.default in (None, (), [])):
        return ""
    return f" (default: `{param.default}`)" if param.default not in (None, "") else ""


def _param_line(param: click.Parameter) -> str:
    if isinstance(param, click.Argument):
        return f"- `{param.name.upper() if param.name else '?'}`: {getattr(param, 'help', '') or ''}"
    assert isinstance(param, click.Option)
    names = ", ".join(f"`{o}`" for o in (*param.opts, *param.secondary_opts))
    return f"- {names}: {param.help or ''}{_default(param)}"


def reference() -> str:
    """The whole reference page as Markdown."""
    root = typer.main.get_command(app)
    parts = [HEADER]
    assert isinstance(root, click.Group)
    for path, cmd in commands(root):
        parts.append(f"## pnp {' '.join(path)}\n")
        parts.append(((cmd.help or "").strip().split("\n\n")[0]) + "\n")
        lines = [_param_line(p) for p in cmd.params if p.name != "help"]
        if lines:
            parts.append("\n".join(lines) + "\n")
    return "\n".join(parts)
