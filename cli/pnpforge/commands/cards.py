"""`pnp cards …`: list, show, search, add, set, rm, history."""

from __future__ import annotations

import typer

from pnpforge.commands._common import CORRECTION, echo_json, echo_problems, handled, open_db, table
from pnpforge.errors import PnpError

app = typer.Typer(help="Query and edit the cards of a game.", no_args_is_help=True)


def _record(card, with_game: bool = False) -> dict:
    from pnpforge.cardio import card_record

    d = card_record(card)
    return {"game": card.game, **d} if with_game else d


def _summary(card, order: dict[tuple[str, str], list[str]]) -> str:
    """Field values in the card type's own order (the order a designer defined them in)."""
    names = order.get((card.game, card.type)) or sorted(card.fields)
    parts = [
        f"{k}={'|'.join(map(str, v)) if isinstance(v, list) else v}"
        for k in names
        if (v := card.fields.get(k)) not in (None, [], "")
    ]
    return " ".join(parts)


def _field_order(cards: list) -> dict[tuple[str, str], list[str]]:
    from pnpforge.store import repo

    db = open_db(readonly=True)
    return {
        (g, t.slug): [f.name for f in t.fields]
        for g in sorted({c.game for c in cards})
        for t in repo.card_types(db, g)
    }


def output_cards(cards: list, as_json: bool, as_csv: bool, with_game: bool = False) -> None:
    """One listing format for list and search."""
    if as_json and as_csv:
        raise typer.BadParameter("choose one of --json and --csv")
    if as_json:
        echo_json([_record(c, with_game) for c in cards])
        return
    if as_csv:
        import csv
        import io

        from pnpforge.cardio import ATTR_COLUMNS, _cell, csv_escape

        keys = sorted({k for c in cards for k in c.fields})
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        w.writerow((["game"] if with_game else []) + ATTR_COLUMNS + keys)
        for c in cards:
            row = (
                ([c.game] if with_game else [])
                + [_cell(getattr(c, k)) for k in ATTR_COLUMNS]
                + [_cell(c.fields.get(k)) for k in keys]
            )
            w.writerow([csv_escape(cell) for cell in row])
        typer.echo(buf.getvalue(), nl=False)
        return
    headers = (["game"] if with_game else []) + ["id", "type", "name", "name_en", "copies", "fields", "P"]
    order = _field_order(cards)
    rows = [
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
    from pnpforge.store import repo

    with handled():
        db = open_db(readonly=True)
        repo.get_game(db, game)
        if type_:
            repo.get_card_type(db, game, type_)
        output_cards(repo.list_cards(db, game, type_), as_json, as_csv)


@app.command("show")
def show_cmd(
    game: str = typer.Argument(..., help="Game slug."),
    card_id: str = typer.Argument(..., help="Card id."),
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """Show one card in full, with which values are provisional."""
    from pnpforge.store import repo

    with handled():
        db = open_db(readonly=True)
        card = repo.get_card(db, game, card_id)
        if as_json:
            echo_json(_record(card))
            return
        ctype = repo.get_card_type(db, game, card.type)

        def mark(name: str) -> str:
            return "  (provisional)" if card.is_value_provisional(name) else ""

        game_language = repo.get_game(db, game).language
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
                v = sep.join(map(str, v)) if isinstance(v, list) else v
                label = f"{fd.name} ({fd.label})" if fd.label and fd.label != fd.name else fd.name
                lines.append(f"{label}: {v}{mark(fd.name)}")
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
    from pnpforge.query import search
    from pnpforge.store import repo

    with handled():
        db = open_db(readonly=True)
        slugs = {g.slug for g in repo.list_games(db)}
        game = args[0] if len(args) > 1 and args[0] in slugs else None
        if len(args) > 1 and game is None:
            raise PnpError(
                f"unknown game '{args[0]}' (games in this database: {', '.join(sorted(slugs))}); "
                f"quote the query if it has spaces"
            )
        text = " ".join(args[1:] if game else args)
        output_cards(search(db, game, text), as_json, as_csv, with_game=game is None)


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
    from pnpforge import edit

    with handled():
        db = open_db()
        card, deck = edit.add_card(db, game, card_type, card_id, _pairs(assignments or []))
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
    from pnpforge import edit

    with handled():
        db = open_db()
        card, deck = edit.set_card(db, game, card_id, _pairs(assignments), correction=correction)
        typer.echo(f"updated {game}/{card.id}")
        echo_problems(deck, "deck check (not blocking):")


@app.command("rm")
def rm_cmd(
    game: str = typer.Argument(..., help="Game slug."),
    card_id: str = typer.Argument(..., help="Card id."),
    yes: bool = typer.Option(False, "--yes", "-y", help="Don't ask for confirmation."),
) -> None:
    """Remove a card (asks first unless --yes)."""
    from pnpforge import edit
    from pnpforge.store import repo

    with handled():
        db = open_db()
        card = repo.get_card(db, game, card_id, strict=False)
        if not yes and not typer.confirm(f"Remove {game}/{card.id} ({card.name})?"):
            typer.echo("nothing removed")
            raise typer.Exit(1)
        deck = edit.remove_card(db, game, card_id)
        typer.echo(f"removed {game}/{card_id}")
        echo_problems(deck, "deck check (not blocking):")


@app.command("history")
def history_cmd(
    game: str = typer.Argument(..., help="Game slug."),
    card_id: str | None = typer.Argument(None, help="Only this card."),
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """Every insert, update and delete of a game's cards (recorded by database triggers)."""
    from pnpforge.store import edition, repo

    with handled():
        db = open_db(readonly=True)
        repo.get_game(db, game)
        rows = repo.history(db, game, card_id)
        reasons = edition.corrections(db, game, card_id)
        for r in rows:
            r["correction"] = reasons.get(r["seq"])
        if as_json:
            echo_json(rows)
            return
        from pnpforge.model import card_changes

        out = []
        for r in rows:
            b, a = r["before"] or {}, r["after"] or {}
            detail = (
                ", ".join(f"{k}: {old!r} → {new!r}" for k, (old, new) in card_changes(b, a).items())
                if r["op"] == "update"
                else (a or b).get("name", "")
            )
            if r["correction"]:
                detail = f"{detail} (correction: {r['correction']})"
            out.append([r["seq"], r["at"], r["op"], r["card"], detail])
        typer.echo(table(["#", "at", "op", "card", "change"], out, max_col=80))
