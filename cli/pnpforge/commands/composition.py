"""`pnp composition …`: list, set, add and remove a game's composition rows, and their history."""

from __future__ import annotations

import json

import typer

from pnpforge.commands._common import CORRECTION, echo_json, handled, project, table
from pnpforge.errors import PnpError

app = typer.Typer(
    help="Composition rows: rulebook counts (errors when broken) and designed targets (warnings).",
    no_args_is_help=True,
)


def _pairs(assignments: list[str]) -> dict[str, str]:
    out = {}
    for a in assignments:
        key, sep, value = a.partition("=")
        if not sep or not key.strip():
            raise PnpError(f"expected KEY=VALUE, got {a!r}")
        out[key.strip()] = value
    return out


@app.command("list")
def list_cmd(
    game: str = typer.Argument(..., help="Game slug."),
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """Each row with its count now, whether it is the rulebook's or designed, and its source."""
    with handled():
        rows = project(readonly=True).composition(game)
        if as_json:
            echo_json(
                [{**r.to_dict(), "follows_deck": row.follows_deck, "source": row.source} for row, r in rows]
            )
            return
        lines = [
            [
                r.rule,
                ("  " if r.parent else "") + r.label,
                r.expected,
                r.actual,
                "ok" if r.ok else ("WARN" if r.provisional else "FAIL"),
                ("designed" if r.provisional else "rulebook")
                + (", follows deck" if row.follows_deck else ""),
                row.source,
            ]
            for row, r in rows
        ]
        typer.echo(
            table(["id", "label", "expected", "actual", "", "provenance", "source"], lines, max_col=44)
        )


@app.command("set")
def set_cmd(
    game: str = typer.Argument(..., help="Game slug."),
    rule_id: str = typer.Argument(..., metavar="ID", help="Composition row id."),
    assignments: list[str] = typer.Argument(
        ...,
        metavar="KEY=VALUE...",
        help="label, card_type, query, expected, parent, source, designed (yes/no), follows_deck (yes/no).",
    ),
    correction: str | None = CORRECTION,
) -> None:
    """Change a row; a changed rulebook count or selection becomes designed (unless --correction)."""
    with handled():
        rule = project().set_composition_row(game, rule_id, _pairs(assignments), correction)
        kind = "designed" if rule.provisional else "rulebook"
        typer.echo(f"updated {game}/{rule.id}: {rule.label} = {rule.expected} ({kind})")


@app.command("add")
def add_cmd(
    game: str = typer.Argument(..., help="Game slug."),
    rule_id: str = typer.Argument(..., metavar="ID", help="New row id (letters, digits, . _ -)."),
    expected: int = typer.Option(..., "--expected", help="Copies the row's cards should add up to."),
    label: str = typer.Option(..., "--label", help="What the row counts, as the report shows it."),
    card_type: str | None = typer.Option(None, "--type", help="Card type the row counts (default: all)."),
    query: str = typer.Option("", "--query", help="Search query narrowing the cards (pnp cards search)."),
    parent: str | None = typer.Option(None, "--parent", help="Row this one is a part of."),
    source: str = typer.Option("", "--source", help="Rulebook section, or why the target was chosen."),
    rulebook: bool = typer.Option(
        False, "--rulebook", help="A count the rulebook declares (default: designed)."
    ),
    follows_deck: bool = typer.Option(
        False, "--follows-deck", help="A designed target that card edits move."
    ),
) -> None:
    """Add a row: a designed target unless --rulebook."""
    from pnpforge.api import CompositionRule  # the library stays off `pnp --help` start-up

    with handled():
        rule = CompositionRule(
            game, rule_id, label, expected, card_type, query, parent, not rulebook, source, follows_deck
        )
        added = project().add_composition_row(rule)
        typer.echo(f"added {game}/{added.id}: {added.label} = {added.expected}")


@app.command("rm")
def rm_cmd(
    game: str = typer.Argument(..., help="Game slug."),
    rule_id: str = typer.Argument(..., metavar="ID", help="Composition row id."),
    correction: str | None = CORRECTION,
) -> None:
    """Remove a row (not one that other rows name as their parent)."""
    with handled():
        project().remove_composition_row(game, rule_id, correction)
        typer.echo(f"removed {game}/{rule_id}")


@app.command("history")
def history_cmd(
    game: str = typer.Argument(..., help="Game slug."),
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """Edits of the game's structural values (composition rows, piles, sizes, player counts …)."""

    def show(value: object) -> str:
        return "none" if value is None else json.dumps(value, ensure_ascii=False, sort_keys=True)

    with handled():
        rows = project(readonly=True).structure_history(game)
        if as_json:
            echo_json(rows)
            return
        typer.echo(
            table(
                ["#", "at", "key", "before", "after", "correction"],
                [
                    [r["seq"], r["at"], r["key"], show(r["before"]), show(r["after"]), r["correction"] or ""]
                    for r in rows
                ],
                max_col=60,
            )
        )


def register(root: typer.Typer) -> None:
    root.add_typer(app, name="composition")
