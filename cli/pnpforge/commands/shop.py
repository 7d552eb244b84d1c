"""`pnp shop`, `pnp preflight`, `pnp cut`, `pnp tts`, `pnp tts-object`: files for shops, cutters and TTS.

Thin faces over the library API's print-shop outputs (pnpforge.api.Project: preflight,
shop, cut, tts, tts_object): parse, call, format.  reportlab and pypdfium2 load inside
the calls, so `pnp --help` stays fast.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import typer

from pnpforge.commands._common import LANG, db_path, echo_files, echo_json, handled, in_language, project
from pnpforge.errors import ValidationFailed

if TYPE_CHECKING:
    from pnpforge.api import Project

PROFILE_HELP = "Shop profile: mpc (MakePlayingCards), tgc (The Game Crafter), drivethru (DriveThruCards)."
TYPE = typer.Option(None, "--type", "-t", help="Only this card type.")
JSON = typer.Option(False, "--json", help="Print what was written (or found) as JSON.")


@contextlib.contextmanager
def _in_language(game: str, lang: str | None) -> Iterator[tuple[Project, str]]:
    """The project (or its `lang` edition, for the block) and the game's slug in it."""
    from pnpforge.api import Project  # the library stays off `pnp --help` start-up

    with in_language([game], lang) as (db, slugs):
        yield Project(db, Project.path_of(db_path())), slugs[0]


def _echo_problems(problems: list[Any]) -> None:
    for p in problems:
        typer.echo(p.line(), err=p.severity == "error")


def _preflight_summary(report: Any) -> str:
    from pnpforge.shop.export import preflight_summary  # the library stays off `pnp --help` start-up

    return preflight_summary(report)


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
    with handled(), _in_language(game, lang) as (shop_project, slug):
        try:
            order = shop_project.shop(slug, profile, output=output, card_type=type_)
        except ValidationFailed as refused:  # the preflight's errors, then its summary (exit 1)
            _echo_problems(refused.problems)
            raise
    result, report = order.result, order.preflight
    if as_json:
        echo_json(order.to_dict())
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
    with handled():
        report = project(readonly=True).preflight(game, profile, type_)
    if as_json:
        echo_json(report.to_dict())
    else:
        _echo_problems(report.problems)
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
    with handled():
        result = project(readonly=True).cut(game, machine, paper=paper, output=output, card_type=type_)
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


def tts_cmd(
    game: str = typer.Argument(..., help="Game slug."),
    type_: str | None = TYPE,
    output: str | None = typer.Option(
        None, "-o", "--output", metavar="DIR", help="Directory (default output/GAME/tts/)."
    ),
    as_json: bool = typer.Option(False, "--json", help="Print the sheets as JSON."),
    lang: str | None = LANG,
) -> None:
    """Tabletop Simulator deck sheets (up to 10×7 cards, ≤ 4096 px), back images and README.txt."""
    with handled(), _in_language(game, lang) as (tts_project, slug):
        result = tts_project.tts(slug, output=output, card_type=type_)
    echo_files(result, as_json, f"{len(result.decks)} deck sheet(s); see README.txt to import")


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
    with handled():
        linked = project(readonly=True).tts_object(game, source=source, output=output, base_url=base_url)
    made = f"drew {linked.drawn} sheet(s) in {linked.folder}; " if linked.drawn else ""
    typer.echo(
        f"Wrote {linked.path} ({made}{len(linked.images)} images at {linked.base_url}); copy it to "
        "Tabletop Simulator's Saved Objects folder (see README.txt beside the sheets)"
    )


def register(app: typer.Typer) -> None:
    app.command("shop")(shop_cmd)
    app.command("preflight")(preflight_cmd)
    app.command("cut")(cut_cmd)
    app.command("tts")(tts_cmd)
    app.command("tts-object")(tts_object_cmd)
