"""The `pnp` command: a thin Typer face over the library.

Sub-commands import what they need inside their functions, so `pnp --help`
and the query commands never load reportlab or Pillow.
"""

from __future__ import annotations

import typer

from pnpforge import __version__
from pnpforge.commands import (
    _common,
    balance,
    boundary,
    cards,
    check,
    composition,
    constraints,
    data,
    db,
    declared,
    docs,
    new,
    release,
    translate,
    watch,
)
from pnpforge.commands import print as print_cmd
from pnpforge.commands import shop as shop_cmd

app = typer.Typer(
    name="pnp",
    help="pnpforge: card database, print-and-play sheets, player aids and rules checks.",
    no_args_is_help=True,
    cls=boundary.PlainErrorsGroup,  # usage errors as one plain line, exit 2
    add_completion=True,  # --install-completion / --show-completion for bash, zsh, fish, PowerShell
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"pnpforge {__version__}")
        raise typer.Exit()


@app.callback()
def root(
    db_path: str | None = typer.Option(
        None, "--db", metavar="PATH", help="Card database (default: $PNP_DB, else ./cards.db)."
    ),
    version: bool = typer.Option(
        False, "--version", callback=_version, is_eager=True, help="Print the version and exit."
    ),
    debug: bool = typer.Option(
        False, "--debug", help="Show the traceback of an unexpected error (also PNP_DEBUG=1)."
    ),
) -> None:
    """pnpforge: card database, print-and-play sheets, player aids and rules checks."""
    boundary.set_debug(debug)
    _common.set_db_path(db_path)
    from pnpforge.commands import _fontbar  # the library stays off `pnp --help` start-up

    _fontbar.install()


app.add_typer(cards.app, name="cards")
app.add_typer(db.db_app, name="db")
app.add_typer(db.game_app, name="game")
data.register(app)
check.register(app)
balance.register(app)
constraints.register(app)
declared.register(app)
composition.register(app)
print_cmd.register(app)
docs.register(app)
release.register(app)
new.register(app)
watch.register(app)
shop_cmd.register(app)
translate.register(app)


def main() -> None:
    """The `pnp` entry point, inside the one top-level error boundary (commands.boundary)."""
    boundary.run(app)
