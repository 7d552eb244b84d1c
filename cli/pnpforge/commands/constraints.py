"""`pnp constraints …`: list, add and remove a game's deck constraints."""

from __future__ import annotations

import typer

from pnpforge.commands._common import CORRECTION, echo_json, handled, project, table

app = typer.Typer(help="Deck constraints: the rulebook's rules about a whole deck.", no_args_is_help=True)


@app.command("list")
def list_cmd(
    game: str = typer.Argument(..., help="Game slug."),
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """List the game's constraints with how many breaches each has now."""
    with handled():
        items = project(readonly=True).constraints(game)
        if as_json:
            echo_json([{**c.to_dict(), "breaches": [b.message for b in breaches]} for c, breaches in items])
            return
        rows = [
            [
                c.id,
                c.kind,
                c.label,
                "ok" if not b else f"{len(b)} FAIL",
                "provisional" if c.provisional else "",
                c.source,
            ]
            for c, b in items
        ]
        typer.echo(table(["id", "kind", "label", "", "", "source"], rows, max_col=48))


@app.command("add")
def add_cmd(
    game: str = typer.Argument(..., help="Game slug."),
    constraint_id: str = typer.Argument(..., metavar="ID", help="Constraint id (letters, digits, . _ -)."),
    kind: str = typer.Option(
        ...,
        "--kind",
        help="unique, each_value, values, distinct, group_count, refs; consistency kinds: monotone, "
        "distinct_items, distinct_abilities.",
    ),
    params: str = typer.Option(
        ..., "--params", help='Parameters as JSON, e.g. \'{"fields": ["suit", "number"]}\'.'
    ),
    label: str = typer.Option(..., "--label", help="What the rule says, as the report shows it."),
    source: str = typer.Option("", "--source", help="Rulebook section the rule comes from."),
    provisional: bool = typer.Option(False, "--provisional", help="A designed rule, not the rulebook's."),
    replace: bool = typer.Option(False, "--replace", help="Overwrite a constraint with this id."),
    correction: str | None = CORRECTION,
) -> None:
    """Add a constraint; refused with what is allowed when its parameters do not fit the kind."""
    from pnpforge.api import Constraint, load_json_param  # the library stays off `pnp --help` start-up

    with handled():
        decoded = load_json_param(params, "--params")
        constraint = Constraint(game, constraint_id, kind, label, decoded, provisional, source)
        breaches = project().add_constraint(constraint, replace=replace, correction=correction)
        typer.echo(
            f"added {constraint_id} to {game}: "
            + ("the deck keeps it" if not breaches else f"{len(breaches)} breach(es) now")
        )
        for b in breaches:
            typer.echo(f"  {b.message}", err=True)


@app.command("rm")
def rm_cmd(
    game: str = typer.Argument(..., help="Game slug."),
    constraint_id: str = typer.Argument(..., metavar="ID", help="Constraint id."),
    correction: str | None = CORRECTION,
) -> None:
    """Remove a constraint (recorded in the structure history; --correction moves the edition)."""
    with handled():
        project().remove_constraint(game, constraint_id, correction=correction)
        typer.echo(f"removed {constraint_id} from {game}")


def register(root: typer.Typer) -> None:
    root.add_typer(app, name="constraints")
