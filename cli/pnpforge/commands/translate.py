"""`pnp translate export|import|status`: the translator's round trip and coverage.

Thin faces over pnpforge.lang; the sheet format is described in lang/sheet.py.
"""

from __future__ import annotations

from pathlib import Path

import typer

from pnpforge.commands._common import echo_json, handled, open_db, table

app = typer.Typer(help="Translations of a game's printed texts (pnp translate --help).", no_args_is_help=True)

LANG = typer.Option(..., "--lang", "-l", help="Language of the translation: en, zh-Hant, zh-Hans, ja or ko.")


@app.command("export")
def export_cmd(
    game: str = typer.Argument(..., help="Game slug."),
    lang: str = LANG,
    output: Path = typer.Option(..., "-o", "--output", metavar="FILE", help="FILE.xlsx or FILE.csv."),
) -> None:
    """Write every printed text of GAME beside its translation, with missing and stale rows marked."""
    from pnpforge.lang.sheet import export_file

    with handled():
        n = export_file(open_db(readonly=True), game, lang, output)
    typer.echo(f"wrote {output} ({n} texts)")


@app.command("import")
def import_cmd(
    game: str = typer.Argument(..., help="Game slug."),
    path: Path = typer.Argument(..., help="A sheet written by pnp translate export (.xlsx or .csv)."),
    lang: str = LANG,
    dry_run: bool = typer.Option(False, "--dry-run", help="Check and list the changes; write nothing."),
) -> None:
    """Check every row, then write the changed translations (all or nothing)."""
    from pnpforge.lang.sheet import import_file

    with handled():
        res = import_file(open_db(), game, lang, path, dry_run=dry_run)
    for t in res.written:
        typer.echo(f"~ {t.kind} {t.key} {t.field} ({t.provenance})")
    verb = "would write" if dry_run else "wrote"
    typer.echo(f"{verb} {len(res.written)}, unchanged {res.unchanged}, left blank {res.blank}")


@app.command("status")
def status_cmd(
    game: str | None = typer.Argument(None, help="Only this game (default: every game)."),
    lang: str = LANG,
    as_json: bool = typer.Option(False, "--json", help="Print the coverage as JSON."),
) -> None:
    """Coverage per game and part of the kit: texts, translated, missing, stale."""
    from pnpforge.lang.status import coverage, game_status
    from pnpforge.store import repo

    with handled():
        db = open_db(readonly=True)
        slugs = [game] if game else [g.slug for g in repo.list_games(db) if g.language != lang]
        out = {s: coverage(game_status(db, s, lang)) for s in slugs}
    if as_json:
        echo_json(out)
        return
    rows = []
    for slug, groups in out.items():
        for group, c in groups.items():
            if c["units"]:
                pct = 100.0 * c["ok"] / c["units"]
                rows.append([slug, group, c["units"], c["ok"], c["missing"], c["stale"], f"{pct:.0f} %"])
    typer.echo(table(["game", "part", "texts", "translated", "missing", "stale", "coverage"], rows))


def register(root: typer.Typer) -> None:
    root.add_typer(app, name="translate")
