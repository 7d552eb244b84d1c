"""`pnp constraints …`: list, add and remove a game's deck constraints."""

from __future__ import annotations

import json

import typer

from pnpforge.commands._common import CORRECTION, echo_json, handled, open_db, table

app = typer.Typer(help="Deck constraints: the rulebook's rules about a whole deck.", no_args_is_help=True)


@app.command("list")
def list_cmd(
    game: str = typer.Argument(..., help="Game slug."),
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """List the game's constraints with how many breaches each has now."""
    from pnpforge.store import repo
    from pnpforge.store.constraints import list_constraints
    from pnpforge.validate.constraints import evaluate, selector

    with handled():
        db = open_db(readonly=True)
        repo.get_game(db, game)
        select = selector(db, game, repo.list_cards(db, game))
        items = [(c, evaluate(c, select)) for c in list_constraints(db, game)]
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
    from pnpforge.errors import PnpError
    from pnpforge.store import repo, structure
    from pnpforge.store.constraints import Constraint, check_params, insert_constraint
    from pnpforge.store.db import transaction
    from pnpforge.validate.constraints import run_constraint, selector

    with handled():
        try:
            decoded = json.loads(params)
        except ValueError as exc:
            raise PnpError(f"--params is not valid JSON: {exc}") from None
        check_params(kind, decoded)
        db = open_db()
        repo.get_game(db, game)
        constraint = Constraint(game, constraint_id, kind, label, decoded, provisional, source)
        breaches = run_constraint(constraint, selector(db, game, repo.list_cards(db, game)))
        with transaction(db) as conn:
            before = structure.current(conn, game)
            insert_constraint(conn, constraint, replace=replace)
            structure.record_changes(conn, game, before, correction)
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
    from pnpforge.store import repo, structure
    from pnpforge.store.constraints import delete_constraint
    from pnpforge.store.db import transaction

    with handled():
        db = open_db()
        repo.get_game(db, game)
        with transaction(db) as conn:
            before = structure.current(conn, game)
            delete_constraint(conn, game, constraint_id)
            structure.record_changes(conn, game, before, correction)
        typer.echo(f"removed {constraint_id} from {game}")


def register(root: typer.Typer) -> None:
    root.add_typer(app, name="constraints")
