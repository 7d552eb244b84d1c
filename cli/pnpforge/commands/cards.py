"""`pnp cards …`: list, show, search, add, set, rm, history."""

from __future__ import annotations

import csv
import io
from typing import TYPE_CHECKING, Any

import typer

from pnpforge.commands._common import CORRECTION, echo_json, echo_problems, handled, project, table
from pnpforge.errors import PnpError

if TYPE_CHECKING:
    from pnpforge.api import Project
    from pnpforge.model import Card

app = typer.Typer(help="Query and edit the cards of a game.", no_args_is_help=True)


def _record(card: Card, with_game: bool = False) -> dict[str, Any]:
    from pnpforge.formats.records import card_record  # the library stays off `pnp --help` start-up

    d = card_record(card)
    return {"game": card.game, **d} if with_game else d


def _summary(card: Card, order: dict[tuple[str, str], list[str]]) -> str:
    """Field values in the card type's own order (the order a designer defined them in)."""
    names = order.get((card.game, card.type)) or sorted(card.fields)
    parts = [
        f"{k}={'|'.join(map(str, v)) if isinstance(v, list) else v}"
        for k in names
        if (v := card.fields.get(k)) not in (None, [], "")
    ]
    return " ".join(parts)


def _field_order(proj: Project, cards: list[Card]) -> dict[tuple[str, str], list[str]]:
    return {
        (g, t.slug): [f.name for f in t.fields]
        for g in sorted({c.game for c in cards})
        for t in proj.card_types(g)
    }


def output_cards(
    proj: Project, cards: list[Card], as_json: bool, as_csv: bool, with_game: bool = False
) -> None:
    """One listing format for list and search."""
    if as_json and as_csv:
        raise typer.BadParameter("choose one of --json and --csv")
    if as_json:
        echo_json([_record(c, with_game) for c in cards])
        return
    if as_csv:
        from pnpforge.formats.records import ATTR_COLUMNS, cell, csv_escape  # off start-up, as above

        keys = sorted({k for c in cards for k in c.fields})
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        w.writerow((["game"] if with_game else []) + ATTR_COLUMNS + keys)
        for c in cards:
            row = (
                ([c.game] if with_game else [])
                + [cell(getattr(c, k)) for k in ATTR_COLUMNS]
                + [cell(c.fields.get(k)) for k in keys]
            )
            w.writerow([csv_escape(cell) for cell in row])
        typer.echo(buf.getvalue(), nl=False)
        return
    headers = (["game"] if with_game else []) + ["id", "type", "name", "name_en", "copies", "fields", "P"]
    order = _field_order(proj, cards)
    rows: list[list[Any]] = [
        ([c.game] if with_game else [])
        + [c.id, c.type, c.name, c.name_en, c.copies, _summary(c, order), "P" if c.is_provisional else ""]
        for c in cards
    ]
    typer.echo(table(headers, rows, max_col=64))
    typer.echo(
        f"{len(cards)} cards, {sum(c.copies for c in cards)} copies"
        + ("; P = has provisional values" if any(c.is_provisional for c in cards) else "")
    )


@app.command("list")
def list_cmd(
    game: str = typer.Argument(..., help="Game slug (pnp games lists them)."),
    type_: str | None = typer.Option(None, "--type", "-t", help="Only this card type."),
    as_json: bool = typer.Option(False, "--json", help="Print a JSON array."),
    as_csv: bool = typer.Option(False, "--csv", help="Print CSV."),
) -> None:
    """List a game's cards."""
    with handled():
        proj = project(readonly=True)
        output_cards(proj, proj.cards(game, type_), as_json, as_csv)


@app.command("show")
def show_cmd(
    game: str = typer.Argument(..., help="Game slug."),
    card_id: str = typer.Argument(..., help="Card id."),
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """Show one card in full, with which values are provisional."""
    with handled():
        proj = project(readonly=True)
        card = proj.card(game, card_id)
        if as_json:
            echo_json(_record(card))
            return
        ctype = proj.card_type(game, card.type)

        def mark(name: str) -> str:
            return "  (provisional)" if card.is_value_provisional(name) else ""

        game_language = proj.game(game).language
        sep = "、" if game_language.startswith(("zh", "ja")) else ", "  # the game's own list separator
        english = f"  ({card.name_en})" if card.name_en and card.name_en != card.name else ""
        type_names = ctype.name if ctype.name_en in ("", ctype.name) else f"{ctype.name} / {ctype.name_en}"
        lines = [
            f"{card.id}  {card.name}{english}",
            f"type: {ctype.slug} ({type_names}, "
            f"{ctype.width_mm:g}×{ctype.height_mm:g} mm"
            f"{', size provisional' if ctype.size_provisional else ''})",
            f"copies: {card.copies}{mark('copies')}",
        ]
        for fd in ctype.fields:
            if fd.name in card.fields:
                v = card.fields[fd.name]
                cells = sorted(card.provisional_cells(fd.name)) if isinstance(v, list) else []
                if cells and not card.is_value_provisional(fd.name):  # designed cells wear † one by one
                    shown = sep.join(f"{x}†" if i in cells else str(x) for i, x in enumerate(v))
                    v, tail = (
                        shown,
                        f"  (provisional cells: {', '.join(str(i + 1) for i in cells)}, marked †)",
                    )
                else:
                    v, tail = (sep.join(map(str, v)) if isinstance(v, list) else v), mark(fd.name)
                label = f"{fd.name} ({fd.label})" if fd.label and fd.label != fd.name else fd.name
                lines.append(f"{label}: {v}{tail}")
        if card.text:
            lines.append(f"text{mark('text')}: {card.text}")
        if card.flavor:
            lines.append(f"flavor: {card.flavor}")
        if card.art:
            lines.append(f"art: {card.art}")
        lines.append(f"provenance: {card.provenance}" + (f" — {card.source}" if card.source else ""))
        if card.provisional_fields:
            lines.append(f"provisional values: {', '.join(card.provisional_fields)}")
        if card.notes:
            lines.append(f"notes: {card.notes}")
        lines.append(f"updated: {card.updated_at}")
        typer.echo("\n".join(lines))


@app.command("search", context_settings={"ignore_unknown_options": True})
def search_cmd(
    args: list[str] = typer.Argument(
        ..., help="[GAME] QUERY — the game is optional; a query may start with -term."
    ),
    as_json: bool = typer.Option(False, "--json", help="Print a JSON array."),
    as_csv: bool = typer.Option(False, "--csv", help="Print CSV."),
) -> None:
    """Search cards: field:value, field>=N, type:, name:, is:provisional, -negation, or, ( )."""
    with handled():
        proj = project(readonly=True)
        slugs = {g.slug for g in proj.games()}
        game = args[0] if len(args) > 1 and args[0] in slugs else None
        if len(args) > 1 and game is None:
            raise PnpError(
                f"unknown game '{args[0]}' (games in this database: {', '.join(sorted(slugs))}); "
                f"quote the query if it has spaces"
            )
        text = " ".join(args[1:] if game else args)
        output_cards(proj, proj.search(text, game), as_json, as_csv, with_game=game is None)


def _pairs(assignments: list[str]) -> dict[str, str]:
    out = {}
    for a in assignments:
        key, sep, value = a.partition("=")
        if not sep or not key.strip():
            raise typer.BadParameter(f"expected key=value, got '{a}'")
        out[key.strip()] = value
    return out


@app.command("add")
def add_cmd(
    game: str = typer.Argument(..., help="Game slug."),
    card_type: str = typer.Argument(..., help="Card type slug."),
    card_id: str = typer.Argument(..., help="New card id (short, printable)."),
    assignments: list[str] = typer.Argument(None, help="key=value: name=…, copies=…, fields."),
) -> None:
    """Add a card; refused (nothing written) if it would be invalid."""
    with handled():
        card, deck = project().add_card(game, card_type, card_id, _pairs(assignments or []))
        typer.echo(f"added {game}/{card.id} ({card.name})")
        echo_problems(deck, "deck check (not blocking):")


@app.command("set")
def set_cmd(
    game: str = typer.Argument(..., help="Game slug."),
    card_id: str = typer.Argument(..., help="Card id."),
    assignments: list[str] = typer.Argument(..., help="key=value … (empty value clears a field)."),
    correction: str | None = CORRECTION,
) -> None:
    """Change a card's attributes and fields, all or nothing."""
    with handled():
        card, deck = project().set_card(game, card_id, _pairs(assignments), correction=correction)
        typer.echo(f"updated {game}/{card.id}")
        echo_problems(deck, "deck check (not blocking):")


@app.command("rm")
def rm_cmd(
    game: str = typer.Argument(..., help="Game slug."),
    card_id: str = typer.Argument(..., help="Card id."),
    yes: bool = typer.Option(False, "--yes", "-y", help="Don't ask for confirmation."),
) -> None:
    """Remove a card (asks first unless --yes)."""
    with handled():
        proj = project()
        card = proj.card(game, card_id, strict=False)
        if not yes and not typer.confirm(f"Remove {game}/{card.id} ({card.name})?"):
            typer.echo("nothing removed")
            raise typer.Exit(1)
        deck = proj.remove_card(game, card_id)
        typer.echo(f"removed {game}/{card_id}")
        echo_problems(deck, "deck check (not blocking):")


@app.command("history")
def history_cmd(
    game: str = typer.Argument(..., help="Game slug."),
    card_id: str | None = typer.Argument(None, help="Only this card."),
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """Every insert, update and delete of a game's cards (recorded by database triggers)."""
    with handled():
        entries = project(readonly=True).history(game, card_id)
        if as_json:
            echo_json([e.to_dict() for e in entries])
            return
        out = []
        for e in entries:
            detail = (
                ", ".join(f"{k}: {old!r} → {new!r}" for k, (old, new) in e.changes.items())
                if e.op == "update"
                else (e.after or e.before or {}).get("name", "")
            )
            if e.correction:
                detail = f"{detail} (correction: {e.correction})"
            out.append([e.seq, e.at, e.op, e.card, detail])
        typer.echo(table(["#", "at", "op", "card", "change"], out, max_col=80))
