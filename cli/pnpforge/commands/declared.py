"""`pnp examples …` and `pnp text-rules …`: list a game's worked examples and text rules, remove one.

They are added with the game's data (`pnp game import`); listing shows each with its
rulebook source and whether the cards keep it now, and `rm` is the designer's way out
when a deliberate design change leaves a rulebook example or a text rule behind.
"""

from __future__ import annotations

import typer

from pnpforge.commands._common import echo_json, handled, open_db, table

examples_app = typer.Typer(help="The rulebook's worked examples, run by pnp check.", no_args_is_help=True)
text_rules_app = typer.Typer(
    help="What each card type's printed text restates, checked against its fields.", no_args_is_help=True
)


@examples_app.command("list")
def examples_list(
    game: str = typer.Argument(..., help="Game slug."),
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """List the game's worked examples: what the rulebook gives, what the cards give now."""
    from pnpforge.rules.examples import run_examples
    from pnpforge.store import repo

    with handled():
        db = open_db(readonly=True)
        repo.get_game(db, game)
        results = run_examples(db, game, repo.list_cards(db, game, strict=False))
        if as_json:
            echo_json([r.to_dict() for r in results])
            return
        rows = [
            [
                r.example.id,
                r.example.label,
                "ok" if r.ok else "FAIL",
                "conflict recorded" if r.example.conflict else "",
                r.example.source,
            ]
            for r in results
        ]
        typer.echo(table(["id", "example", "", "", "source"], rows, max_col=48))


@examples_app.command("rm")
def examples_rm(
    game: str = typer.Argument(..., help="Game slug."),
    example_id: str = typer.Argument(..., metavar="ID", help="Example id."),
) -> None:
    """Remove a worked example (a design change the rulebook's example no longer describes)."""
    from pnpforge.store import repo
    from pnpforge.store.db import transaction
    from pnpforge.store.declared import delete_example

    with handled():
        db = open_db()
        repo.get_game(db, game)
        with transaction(db) as conn:
            delete_example(conn, game, example_id)
        typer.echo(f"removed example {example_id} from {game}")


@text_rules_app.command("list")
def text_rules_list(
    game: str = typer.Argument(..., help="Game slug."),
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """List the game's text rules with how many cards break each now."""
    from pnpforge.store import repo
    from pnpforge.validate.text_rules import text_rule_breaches

    with handled():
        db = open_db(readonly=True)
        repo.get_game(db, game)
        items = text_rule_breaches(db, game, repo.list_cards(db, game, strict=False))
        if as_json:
            echo_json([{**r.to_dict(), "breaches": [b.message for b in bs]} for r, bs in items])
            return
        rows = [
            [r.id, r.card_type, r.kind, r.label, "ok" if not bs else f"{len(bs)} FAIL", r.source]
            for r, bs in items
        ]
        typer.echo(table(["id", "type", "kind", "rule", "", "source"], rows, max_col=48))


@text_rules_app.command("rm")
def text_rules_rm(
    game: str = typer.Argument(..., help="Game slug."),
    rule_id: str = typer.Argument(..., metavar="ID", help="Text rule id."),
) -> None:
    """Remove a text rule."""
    from pnpforge.store import repo
    from pnpforge.store.db import transaction
    from pnpforge.store.declared import delete_text_rule

    with handled():
        db = open_db()
        repo.get_game(db, game)
        with transaction(db) as conn:
            delete_text_rule(conn, game, rule_id)
        typer.echo(f"removed text rule {rule_id} from {game}")


def register(root: typer.Typer) -> None:
    root.add_typer(examples_app, name="examples")
    root.add_typer(text_rules_app, name="text-rules")
