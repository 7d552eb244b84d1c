"""`pnp release` and `pnp diff`: freeze a game's cards under a tag, and list what changed."""

from __future__ import annotations

import typer

from pnpforge.commands._common import echo_json, handled, project, table


def release_cmd(
    game: str = typer.Argument(..., help="Game slug."),
    tag: str | None = typer.Argument(None, help="New release tag, e.g. v0.2 (omit to list releases)."),
    notes: str = typer.Option("", "--notes", help="What this release changes, for the changelog."),
    as_json: bool = typer.Option(False, "--json", help="Print the releases as JSON."),
) -> None:
    """Freeze the game's cards as release TAG and print its version (v0.2 → 0.2) on cards from now on.

    Without TAG, list the releases; the rulebook edition, when the game has one, is the first.
    """
    with handled():
        if tag is None:
            known = project(readonly=True).releases(game)
            if as_json:
                echo_json([r.to_dict() for r in known])
                return
            if not known:
                typer.echo(f"{game} has no releases yet: pnp release {game} v0.1")
                return
            typer.echo(
                table(
                    ["tag", "version", "frozen", "notes"],
                    [[r.tag, r.version or "—", r.created_at, r.notes] for r in known],
                    max_col=60,
                )
            )
            return
        made, count = project().release(game, tag, notes)
        if as_json:
            echo_json(made.to_dict() | {"cards": count})
            return
        typer.echo(
            f"released {game} {made.tag}: {count} cards frozen; cards now print version {made.version}"
        )
        typer.echo(
            f"  what changed since: pnp diff {game} {made.tag}; reprint: "
            f"pnp print {game} --changed-since {made.tag}"
        )


def diff_cmd(
    game: str = typer.Argument(..., help="Game slug."),
    tag: str | None = typer.Argument(None, help="From this release (default: the latest)."),
    tag2: str | None = typer.Argument(None, help="To this release (default: the cards as they are now)."),
    as_json: bool = typer.Option(False, "--json", help="Print the diff as JSON."),
) -> None:
    """Cards added, removed and changed (field: before → after) between releases or since the last."""
    from pnpforge.query.changes import text_lines  # the library stays off `pnp --help` start-up

    with handled():
        diff = project(readonly=True).diff(game, tag, tag2)
    if as_json:
        echo_json(diff.to_dict())
        return
    for line in text_lines(diff):
        typer.echo(line)


def register(app: typer.Typer) -> None:
    app.command("release")(release_cmd)
    app.command("diff")(diff_cmd)
