"""`pnp shop`, `pnp preflight`, `pnp cut`, `pnp tts-object`: files for shops, cutters and TTS.

Thin faces over pnpforge.shop, render.preflight, render.cut and render.tts_object;
reportlab and pypdfium2 load inside the calls, so `pnp --help` stays fast.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer

from pnpforge.commands._common import LANG, echo_json, handled, in_language, open_db
from pnpforge.errors import ValidationFailed

PROFILE_HELP = "Shop profile: mpc (MakePlayingCards), tgc (The Game Crafter), drivethru (DriveThruCards)."
TYPE = typer.Option(None, "--type", "-t", help="Only this card type.")
JSON = typer.Option(False, "--json", help="Print what was written (or found) as JSON.")


def _echo_problems(report: Any, errors_only: bool = False) -> None:
    for p in report.errors if errors_only else report.problems:
        typer.echo(p.line(), err=p.severity == "error")


def _preflight_summary(report: Any) -> str:
    target = f"for {report.profile}" if report.profile else "for press printing"
    return (
        f"Preflight of {report.game} {target}: {report.cards} cards, "
        f"{len(report.errors)} error(s), {len(report.warnings)} warning(s)"
    )


def shop_cmd(
    game: str = typer.Argument(..., help="Game slug."),
    profile: str = typer.Option(..., "--profile", "-p", help=PROFILE_HELP),
    type_: str | None = TYPE,
    output: str | None = typer.Option(
        None, "-o", "--output", metavar="DIR", help="Directory (default output/GAME/shop/PROFILE/)."
    ),
    as_json: bool = JSON,
    lang: str | None = LANG,
) -> None:
    """Files a print-on-demand shop takes: per-card PNGs (mpc, tgc) or a CMYK PDF per deck (drivethru).

    Preflight runs first; any error stops before a file is written.
    """
    from pnpforge.render.preflight import preflight
    from pnpforge.shop.export import shop

    with handled(), in_language([game], lang) as (db, slugs):
        game = slugs[0]
        report = preflight(db, game, profile, type_)
        if report.errors:
            _echo_problems(report, errors_only=True)
            raise ValidationFailed(  # a refused deck exits 1, as `pnp preflight` does; 2 is for usage
                f"{_preflight_summary(report)}; nothing was written "
                f"(see pnp preflight {game} --profile {profile})"
            )
        result = shop(db, game, profile, output=output, card_type=type_)
    if as_json:
        echo_json({**result.to_dict(), "preflight": report.to_dict()})
        return
    typer.echo(f"Wrote {len(result.files)} files for {profile} in {result.directory}")
    for slug, fit in result.fits.items():
        typer.echo(f"  {slug}: {fit['note']}")
    typer.echo(f"  {_preflight_summary(report)}")
    for p in report.warnings:
        typer.echo(f"Warning: {p.subject}: {p.message}", err=True)
    for w in result.warnings:
        typer.echo(f"Warning: {w}", err=True)


def preflight_cmd(
    game: str = typer.Argument(..., help="Game slug."),
    profile: str | None = typer.Option(None, "--profile", "-p", help=PROFILE_HELP),
    type_: str | None = TYPE,
    as_json: bool = JSON,
) -> None:
    """Check a deck before upload: art resolution and bleed, safe zone, CMYK colours, fonts, sizes.

    Every problem names its card; exit 1 when there is an error.
    """
    from pnpforge.render.preflight import preflight

    with handled():
        report = preflight(open_db(readonly=True), game, profile, type_)
    if as_json:
        echo_json(report.to_dict())
    else:
        _echo_problems(report)
        typer.echo(_preflight_summary(report))
    if report.errors:
        raise typer.Exit(1)


def cut_cmd(
    game: str = typer.Argument(..., help="Game slug."),
    machine: str = typer.Option(..., "--machine", "-m", help="silhouette or cricut."),
    paper: str = typer.Option("a4", "--paper", help="Paper size: a4 (as print and build) or letter."),
    type_: str | None = TYPE,
    output: str | None = typer.Option(
        None, "-o", "--output", metavar="DIR", help="Directory (default output/GAME/cut/MACHINE/)."
    ),
    as_json: bool = JSON,
) -> None:
    """Print-then-cut: a PDF with the machine's registration marks and a cut file per sheet.

    SVG outlines for both machines, DXF too for Silhouette Studio's basic edition; each outline
    is a card's trim rectangle with rounded corners. Faces only (no backs).
    """
    from pnpforge.render.cut import cut

    with handled():
        result = cut(open_db(readonly=True), game, machine, paper=paper, output=output, card_type=type_)
    if as_json:
        echo_json(result.to_dict())
        return
    sheets = max((p["page"] for p in result.placements), default=0)
    typer.echo(
        f"Wrote {result.pdf}: {len(result.placements)} cards on {sheets} sheet(s) "
        f"for {machine}, and {sheets} cut file(s) in {result.directory}"
    )
    typer.echo(
        "  Print at 100 % / actual size, faces only; load the cut file in the machine's "
        "software with registration marks on."
    )
    for w in result.warnings:
        typer.echo(f"Warning: {w}", err=True)


def tts_object_cmd(
    game: str = typer.Argument(..., help="Game slug."),
    base_url: str | None = typer.Option(
        None,
        "--base-url",
        metavar="URL",
        help="Where the sheet PNGs are uploaded (default: file:/// addresses on this computer).",
    ),
    source: str | None = typer.Option(
        None,
        "--from",
        metavar="DIR",
        help="Folder of the TTS sheets and GAME.json (default output/GAME/tts/; made if missing).",
    ),
    output: str | None = typer.Option(
        None, "-o", "--output", metavar="FILE", help="Linked saved object (default DIR/linked/GAME.json)."
    ),
) -> None:
    """A Tabletop Simulator saved object with full image addresses, ready for its Saved Objects folder.

    Reads GAME.json that `pnp tts` or `pnp build` wrote (image names relative to it; with no
    sheets there yet, they are drawn first) and writes a copy whose images point at this
    computer's files or, with --base-url, at where the PNGs were uploaded.
    """
    from pnpforge.render.tts_object import check_base_url, link_saved_object

    with handled():
        if base_url is not None:
            check_base_url(base_url)  # before drawing anything
        from pnpforge.store.location import output_root

        folder = Path(source) if source else output_root(open_db(readonly=True)) / game / "tts"
        saved = folder / f"{game}.json"
        drawn = 0
        if not saved.exists():
            from pnpforge.render import tts

            drawn = len(tts(open_db(readonly=True), game, output=str(folder)).decks)
        target = Path(output) if output else folder / "linked" / f"{game}.json"
        linked = link_saved_object(saved, target, base_url)
    made = f"drew {drawn} sheet(s) in {folder}; " if drawn else ""
    typer.echo(
        f"Wrote {linked.path} ({made}{len(linked.images)} images at {linked.base_url}); copy it to "
        "Tabletop Simulator's Saved Objects folder (see README.txt beside the sheets)"
    )


def register(app: typer.Typer) -> None:
    app.command("shop")(shop_cmd)
    app.command("preflight")(preflight_cmd)
    app.command("cut")(cut_cmd)
    app.command("tts-object")(tts_object_cmd)
