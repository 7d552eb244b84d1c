"""`pnp game new`: a new game from a spreadsheet (or flags), ready for print, helpers, rules and check."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import typer

from pnpforge.commands._common import echo_problems, handled, is_tty, project

if TYPE_CHECKING:  # the type only: the module is the library's
    from pnpforge.design.newgame import NewGame


def new_cmd(
    slug: str = typer.Argument(..., help="Game slug: lower-case letters, digits and '-' (e.g. my-game)."),
    title: str | None = typer.Option(None, "--title", help="The game's title (asked on a terminal)."),
    source: Path | None = typer.Option(
        None, "--from", metavar="FILE", help="CSV or XLSX sheet: one row per card (name, type, copies, …)."
    ),
    size: str | None = typer.Option(None, "--size", metavar="WxH", help="Card size in mm (default 63x88)."),
    language: str | None = typer.Option(
        None, "--language", help="zh-Hant, zh-Hans, en, ja or ko (default: from the names)."
    ),
    title_en: str | None = typer.Option(None, "--title-en", help="English title (default: from the slug)."),
    players: str = typer.Option("2-4", "--players", help="Player count, N or MIN-MAX."),
    card_type: list[str] = typer.Option([], "--type", help="Without --from: a card type name (repeatable)."),
    field: list[str] = typer.Option(
        [],
        "--field",
        metavar="NAME[:TYPE[=A|B]]",
        help="Without --from: a field of every type (repeatable), e.g. element:enum=fire|water.",
    ),
    encoding: str | None = typer.Option(None, "--encoding", help="The CSV's encoding if not UTF-8."),
    replace: bool = typer.Option(False, "--replace", help="Replace the game if it exists."),
    discard_edits: bool = typer.Option(
        False,
        "--discard-edits",
        help="With --replace: drop the cards and values added or edited since (listed); "
        "without it such a replace is refused.",
    ),
) -> None:
    """Create a game: card types and typed fields inferred from a sheet, starter layouts, release v0.1."""
    # the library stays off `pnp --help` start-up
    from pnpforge.design.newgame import NO_TYPES, GameSpec, parse_players, parse_size

    with handled():
        if title is None:
            if not is_tty():
                raise typer.BadParameter("--title is required (no terminal to ask on)")
            title = typer.prompt("Title")
        if source is None and not card_type and not field and is_tty():
            card_type = [
                t.strip() for t in typer.prompt("Card types, comma-separated", default="card").split(",")
            ]
            answer = typer.prompt(
                "Fields (NAME[:TYPE[=A|B]]), comma-separated", default="", show_default=False
            )
            field = [f for f in (s.strip() for s in answer.split(",")) if f]
        if source is None and not card_type and not field:
            raise typer.BadParameter(NO_TYPES)
        spec = GameSpec(slug, title.strip(), title_en, language, parse_size(size), parse_players(players))
        made = project().new_game(spec, source, card_type, field, encoding, replace, discard_edits)
    _report(made, source)
    echo_problems(made.deck_problems, "deck check (not blocking):")


def _report(made: NewGame, source: Path | None) -> None:
    lang = f"{made.language} (guessed; --language to change)" if made.language_guessed else made.language
    released = (
        f"released as {made.release}"
        if made.release
        else f"its releases kept ({', '.join(made.releases_kept)}; none made)"
    )
    typer.echo(
        f"created game {made.slug}: {made.cards} cards, language {lang}, "
        f"{made.size[0]:g}×{made.size[1]:g} mm cards, {released}"
    )
    for line in made.discarded:
        typer.echo(f"  discarded: {line}")
    if made.inference is not None:
        for itype in made.inference.types:
            typer.echo(
                f"  type {itype.slug} ({itype.name}): {len(itype.rows)} cards, {itype.copies} copies "
                f"→ designed target {itype.name}×{itype.copies} (follows cards add/rm)"
            )
            for note in itype.notes:
                typer.echo(f"    {note}")
        if not made.inference.has_ids:
            typer.echo("  ids: made from the type and row number (add an 'id' column to choose them)")
    for path in made.written:
        typer.echo(f"  wrote {_shown(path)}")
    for path in made.kept:
        typer.echo(f"  kept {_shown(path)} (already there)")
    if made.art_slots:
        from pnpforge.design.layouts import ART_DPI  # the design package stays off `pnp --help` start-up

        for slug, w, h in made.art_slots:
            px = f"{round(w / 25.4 * ART_DPI)}×{round(h / 25.4 * ART_DPI)} px"
            typer.echo(
                f"  art slot of {slug}: {w:g}×{h:g} mm, filled by cropping; draw at {px} for {ART_DPI} dpi"
            )
    for path in made.removed:
        typer.echo(f"  removed {_shown(path)} (its card type is gone; it was the unedited starter)")
    for path in made.orphaned:
        typer.echo(f"  left {_shown(path)} (edited; no card type uses it now: delete it if unwanted)")
    typer.echo(
        "To change a field's type or allowed values: pnp game export GAME -o game.json, edit it, "
        "pnp game import game.json --replace (or fix the sheet and rerun with --replace)."
    )
    typer.echo(
        f"Next: pnp print {made.slug} · pnp helpers {made.slug} · pnp rules {made.slug} · "
        f"pnp check {made.slug} · pnp watch {made.slug}"
    )


def _shown(path: Path) -> str:
    """A path relative to the working folder when it is inside it (what the designer types)."""
    try:
        return str(path.relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def register(app: typer.Typer) -> None:
    from pnpforge.commands.db import game_app  # the library stays off `pnp --help` start-up

    game_app.command("new")(new_cmd)
