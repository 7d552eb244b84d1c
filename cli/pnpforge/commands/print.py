"""`pnp print`, `pnp images`, `pnp tts`, `pnp proof`: parse, call the library API, say what was written.

Nothing heavy is imported here at module level: the API (and through it reportlab
and pypdfium2) loads inside the commands, so `pnp --help` stays fast.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import typer

from pnpforge.commands._common import (
    BACKS,
    BLEED,
    FLIP,
    GAP,
    LANG,
    MARKS,
    OFFSET,
    PAPER,
    echo_files,
    echo_json,
    echo_sheet_footer,
    handled,
    project,
)

if TYPE_CHECKING:  # types only: their modules are the library's
    from pnpforge.render import Manifest

CALIBRATION = "calibration"

_PRINT_HELP = (
    "Write print-and-play card sheets (PDF) for GAME into output/GAME/ (or -o PATH).\n\n"
    "Cards print at their exact size, as many per sheet as fit (turned 90° when that fits more), "
    "one sheet layout per card size; aid cards get their own sheets. Bleed between neighbours is "
    "clipped to half the gap, so any gap >= 0 works (gap 0: neighbours share a cut line). With "
    "--backs duplex each face page is followed by its back page, mirrored for the --flip edge: "
    "print double-sided.\n\n"
    "`pnp print calibration [--paper P] [--flip F] [--offset X,Y]` prints a duplex calibration "
    "page that tells you which --offset your printer needs."
)


def print_cmd(
    game: str = typer.Argument(..., help="Game slug (pnp games lists them), or 'calibration'."),
    type_: str | None = typer.Option(None, "--type", "-t", help="Only this card type."),
    query: str | None = typer.Option(
        None, "--query", "-q", help="Only cards matching this search, e.g. 'is:provisional'."
    ),
    paper: str = PAPER,
    bleed: float = BLEED,
    gap: float = GAP,
    marks: bool = MARKS,
    backs: str = BACKS,
    flip: str = FLIP,
    one_each: bool = typer.Option(False, "--one-each", help="One copy of every card (proofing)."),
    offset: str | None = OFFSET,
    output: str | None = typer.Option(
        None, "-o", "--output", metavar="PATH", help="PDF file or directory (default output/GAME/)."
    ),
    as_json: bool = typer.Option(False, "--json", help="Print the manifest as JSON."),
    changed_since: str | None = typer.Option(
        None,
        "--changed-since",
        metavar="TAG",
        help="Only cards added or changed since release TAG (a reprint sheet; see pnp diff).",
    ),
    lang: str | None = LANG,
) -> None:
    """Print-and-play PDF of a game's cards (help text: _PRINT_HELP)."""
    from pnpforge.api import PrintOptions, Project, SheetOptions, parse_offset  # off `pnp --help` start-up

    with handled():
        off = parse_offset(offset)
        if game == CALIBRATION:
            manifest = Project.print_calibration(SheetOptions(paper=paper, flip=flip, offset=off), output)
        else:
            opts = PrintOptions(
                paper=paper,
                bleed=bleed,
                gap=gap,
                marks=marks,
                backs=backs,
                flip=flip,
                offset=off,
                card_type=type_,
                query=query,
                one_each=one_each,
                output=output,
            )
            manifest = project(readonly=True).print_cards(game, opts, lang=lang, changed_since=changed_since)
    if as_json:
        echo_json(manifest.to_dict())
        return
    _summary(manifest)


def _summary(m: Manifest) -> None:
    typer.echo(f"Wrote {m.path}")
    if m.game == CALIBRATION:
        typer.echo(
            f"  {m.pages} pages ({m.paper}): print double-sided at 100 %, "
            f"flip on the {m.flip} edge, then read the back against a light."
        )
        return
    backs = {
        "duplex": f"duplex, flip on the {m.flip} edge",
        "separate": "backs after the faces",
        "none": "no backs",
    }[m.backs]
    typer.echo(
        f"  {m.pages} pages on {m.paper}, {m.cards} cards, {backs}; bleed {m.bleed:g} mm, "
        f"gap {m.gap:g} mm"
        + (f"; backs shifted {m.offset[0]:g},{m.offset[1]:g} mm" if tuple(m.offset) != (0.0, 0.0) else "")
    )
    for s in m.sheets:
        turned = ", turned 90°" if s.rotated else ""
        typer.echo(
            f"  {s.card_w:g}×{s.card_h:g} mm {s.role}: {s.cards} cards, {s.per_sheet} per "
            f"sheet ({s.cols}×{s.rows}{turned}), {s.sheets} sheet(s)"
        )
    echo_sheet_footer(m.warnings)


def images_cmd(
    game: str = typer.Argument(..., help="Game slug."),
    dpi: int = typer.Option(300, "--dpi", help="Resolution (30-1200)."),
    type_: str | None = typer.Option(None, "--type", "-t", help="Only this card type."),
    output: str | None = typer.Option(
        None, "-o", "--output", metavar="DIR", help="Directory (default output/GAME/images/)."
    ),
    as_json: bool = typer.Option(False, "--json", help="Print the list of files as JSON."),
    lang: str | None = LANG,
) -> None:
    """One PNG per card face and per card type's back, at the card's size (digital playtests)."""
    with handled():
        result = project(readonly=True).images(game, dpi=dpi, card_type=type_, output=output, lang=lang)
    echo_files(result, as_json, f"{len(result.files)} PNG files at {dpi} dpi")


def proof_cmd(
    game: str = typer.Argument(..., help="Game slug."),
    type_: str | None = typer.Option(None, "--type", "-t", help="Only this card type."),
    output: str | None = typer.Option(
        None, "-o", "--output", metavar="DIR", help="Directory (default output/GAME/)."
    ),
    as_json: bool = typer.Option(False, "--json", help="Print the list of files as JSON."),
    lang: str | None = LANG,
) -> None:
    """A contact sheet (PNG) of every card face, small, to review a whole deck at a glance."""
    with handled():
        result = project(readonly=True).proof(game, card_type=type_, output=output, lang=lang)
    echo_files(result, as_json, f"{len(result.files)} proof sheet(s)")


def register(app: typer.Typer) -> None:
    app.command("print", help=_PRINT_HELP)(print_cmd)
    app.command("images")(images_cmd)
    app.command("proof")(proof_cmd)
