"""`pnp db …` and `pnp game …`: whole databases and whole games."""

from __future__ import annotations

from pathlib import Path

import typer

from pnpforge.commands._common import CORRECTION, db_path, echo_problems, handled, project

db_app = typer.Typer(help="Create and dump card databases.", no_args_is_help=True)
game_app = typer.Typer(help="Import and export whole games (definition and cards).", no_args_is_help=True)


@db_app.command("init")
def init_cmd() -> None:
    """Create an empty card database at --db (or $PNP_DB, or ./cards.db)."""
    with handled():
        typer.echo(f"created {project(create=True).path}")


@db_app.command("upgrade")
def upgrade_cmd() -> None:
    """Bring a card database's schema up to date (and finish an interrupted write's roll-back)."""
    from pnpforge.api import Project  # the library stays off `pnp --help` start-up

    with handled():
        old, new = Project.upgrade(db_path())
        where = Project.path_of(db_path())
        typer.echo(
            f"{where}: schema version {old} → {new}"
            if old != new
            else f"{where} is up to date (schema version {new})"
        )


@db_app.command("dump")
def dump_cmd(path: Path | None = typer.Argument(None, help="Database file (default: --db).")) -> None:
    """A deterministic text dump, for review and for `git diff cards.db` (see README)."""
    from pnpforge.api import Project  # the library stays off `pnp --help` start-up

    with handled():
        proj = Project.open(path, readonly=True) if path else project(readonly=True)
        for line in proj.dump():
            typer.echo(line)


@game_app.command("import")
def game_import_cmd(
    file: Path = typer.Argument(..., help="Game bundle JSON."),
    replace: bool = typer.Option(False, "--replace", help="Replace the game if it exists."),
    correction: str | None = CORRECTION,
) -> None:
    """Import a whole game from a bundle; all cards are validated first."""
    from pnpforge.api import read_bundle  # the library stays off `pnp --help` start-up

    with handled():
        data = read_bundle(file)  # a bad file is refused before the database is opened
        slug, deck = project().import_bundle(data, file, replace, correction=correction)
        typer.echo(f"imported game {slug}")
        echo_problems(deck, "deck check (not blocking):")


@game_app.command("export")
def game_export_cmd(
    game: str = typer.Argument(..., help="Game slug."),
    output: Path | None = typer.Option(None, "-o", "--output", help="Write here."),
) -> None:
    """Export a whole game as a bundle (definition, cards, composition, glossary, rules)."""
    from pnpforge.outfile import write_text  # off `pnp --help` start-up

    with handled():
        text = project(readonly=True).export_game(game)
        if output:
            write_text(output, text)
            typer.echo(f"wrote {output}")
        else:
            typer.echo(text, nl=False)
