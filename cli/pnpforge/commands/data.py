"""Top-level data commands: games, validate, import, export."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer

from pnpforge.commands._common import CORRECTION, echo_json, echo_problems, handled, project, table
from pnpforge.errors import PnpError


def games_cmd(as_json: bool = typer.Option(False, "--json", help="Print a JSON array.")) -> None:
    """List the games with titles, players, card types and card counts."""
    with handled():
        proj = project(readonly=True)
        out: list[dict[str, Any]] = []
        for g in proj.games():
            counts = proj.copies_per_type(g.slug)
            types = [
                {
                    "slug": t.slug,
                    "name": t.name,
                    "name_en": t.name_en,
                    "role": t.role,
                    "width_mm": t.width_mm,
                    "height_mm": t.height_mm,
                    "size_provisional": t.size_provisional,
                    "cards": counts.get(t.slug, 0) or 0,
                }
                for t in proj.card_types(g.slug)
            ]
            out.append(
                {
                    "slug": g.slug,
                    "title": g.title,
                    "title_en": g.title_en,
                    "language": g.language,
                    "players_min": g.players_min,
                    "players_max": g.players_max,
                    "play_time": g.play_time,
                    "version": g.version,
                    "cards": sum(t["cards"] for t in types),
                    "distinct_cards": len(proj.cards_leniently(g.slug)),
                    "card_types": types,
                }
            )
        if as_json:
            echo_json(out)
            return
        for info in out:
            typer.echo(
                f"{info['slug']}: {info['title']} / {info['title_en']} — {info['language']}, "
                f"{info['players_min']}–{info['players_max']} players, v{info['version']}, "
                f"{info['distinct_cards']} cards, {info['cards']} copies"
            )
            rows = [
                [
                    t["slug"],
                    t["name"],
                    t["name_en"],
                    f"{t['width_mm']:g}×{t['height_mm']:g} mm" + ("*" if t["size_provisional"] else ""),
                    t["cards"],
                    "aid" if t["role"] == "aid" else "deck",
                ]
                for t in info["card_types"]
            ]
            # "cards" in the JSON is copies (its meaning since the first release); the text says so
            body = table(["type", "name", "name_en", "size", "copies", "role"], rows).splitlines()
            typer.echo("\n".join("    " + line for line in body) + "\n")
        if any(t["size_provisional"] for g in out for t in info["card_types"]):
            typer.echo("* size chosen by pnpforge (provisional): the rulebook gives none")


def validate_cmd(
    game: str | None = typer.Argument(None, help="Only this game."),
    as_json: bool = typer.Option(False, "--json", help='Print {"errors": [...], "warnings": [...]}.'),
    warnings: bool = typer.Option(
        False, "--warnings", "-w", help="List every warning, not only their count."
    ),
    lang: str | None = typer.Option(
        None,
        "--lang",
        "-l",
        metavar="LANG",
        help="Also report missing and stale LANG translations and glossary terms they do not use.",
    ),
    strict: bool = typer.Option(
        False, "--strict", help="With --lang: a missing or stale translation is an error."
    ),
) -> None:
    """Validate cards, references and composition; exit 1 when there are errors."""
    from pnpforge.validate import ERROR  # the library stays off `pnp --help` start-up

    with handled():
        proj = project(readonly=True)
        problems = proj.validate(game, lang, strict=strict)
        slugs = [game] if game else [g.slug for g in proj.games()]
        if lang is not None:
            slugs = [s for s in slugs if proj.game(s).language != lang]
        errors = [p for p in problems if p.severity == ERROR]
        warns = [p for p in problems if p.severity != ERROR]
        if as_json:
            echo_json({"errors": [p.to_dict() for p in errors], "warnings": [p.to_dict() for p in warns]})
        else:
            rows = []
            for s in slugs:
                cards = proj.cards_leniently(s)
                n = sum(c.copies for c in cards if type(c.copies) is int)
                rows.append(
                    [s, len(cards), n, sum(p.game == s for p in errors), sum(p.game == s for p in warns)]
                )
            typer.echo(table(["game", "cards", "copies", "errors", "warnings"], rows))
            # a missing art file is shown always; provisional values only with --warnings
            shown = errors + (warns if warnings else [p for p in warns if p.field == "art"])
            if shown:
                typer.echo("")
                typer.echo(
                    table(
                        ["severity", "game", "card", "field", "message"],
                        [[p.severity, p.game, p.card or "", p.field or "", p.message] for p in shown],
                        max_col=70,
                    )
                )
            if len(shown) < len(errors) + len(warns):
                typer.echo(
                    f"{len(warns)} warnings (provisional values and the like): "
                    f"pnp validate --warnings lists them"
                )
        raise typer.Exit(1 if errors else 0)


def import_cmd(
    game: str = typer.Argument(..., help="Game slug."),
    file: Path = typer.Argument(
        ...,
        help="CSV, JSON or XLSX file (as written by pnp export), "
        "or an http(s) link to a CSV (a published Google Sheet).",
    ),
    fmt: str | None = typer.Option(None, "--format", help="csv, json or xlsx (default: from the file name)."),
    encoding: str | None = typer.Option(
        None, "--encoding", help="Source encoding if not UTF-8, e.g. big5, gbk."
    ),
    dry_run: bool = typer.Option(False, "--dry-run", help="Show what would change; write nothing."),
    correction: str | None = CORRECTION,
    allow_private_network: bool = typer.Option(
        False,
        "--allow-private-network",
        help="Let a link reach this machine, link-local or private addresses (refused by default).",
    ),
) -> None:
    """Upsert cards by id from CSV or JSON; one bad row and nothing is written."""
    with handled():
        proj = project(scratch=dry_run)  # a dry run imports into a private copy and rolls back
        result = proj.import_cards(
            game, file, fmt, encoding, dry_run, correction=correction, allow_private=allow_private_network
        )
        for ch in result.changes:
            if ch.op == "add":
                typer.echo(f"+ {ch.id}")
            elif ch.op == "update":
                typer.echo(f"~ {ch.id}")
                for k, (a, b) in ch.changes.items():
                    typer.echo(f"    {k}: {a!r} → {b!r}")
        c = result.counts
        verb = "would add" if dry_run else "added"
        typer.echo(
            f"{verb} {c['add']}, {'would update' if dry_run else 'updated'} {c['update']}, "
            f"unchanged {c['same']}" + (" (dry run: nothing written)" if dry_run else "")
        )
        echo_problems(result.deck_problems, "deck check (not blocking):")


def export_cmd(
    game: str = typer.Argument(..., help="Game slug."),
    fmt: str = typer.Option("csv", "--format", help="csv, json or xlsx (xlsx also from -o FILE.xlsx)."),
    output: Path | None = typer.Option(None, "-o", "--output", help="Write to this file."),
) -> None:
    """Export a game's cards as CSV or JSON (round-trips exactly with pnp import).

    CSV cells a spreadsheet would run as a formula (starting with = + - @) get a
    leading apostrophe, which pnp import removes again.
    """
    from pnpforge.outfile import write_bytes, write_text  # off `pnp --help` start-up

    with handled():
        proj = project(readonly=True)
        if fmt == "xlsx" or (output is not None and output.suffix.lower() == ".xlsx"):
            proj.game(game)
            if output is None:
                raise PnpError("XLSX is a binary format: name the file with -o FILE.xlsx")
            write_bytes(output, proj.export_workbook(game))
            typer.echo(f"wrote {output} ({len(proj.card_types(game))} sheet(s), one per card type)")
            return
        text = proj.export_cards(game, fmt)
        if output:
            write_text(output, text)
            typer.echo(f"wrote {output}")
        else:
            typer.echo(text, nl=False)


def register(app: typer.Typer) -> None:
    app.command("games")(games_cmd)
    app.command("validate")(validate_cmd)
    app.command("import")(import_cmd)
    app.command("export")(export_cmd)
