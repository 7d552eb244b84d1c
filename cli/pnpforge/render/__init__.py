"""Rendering: fonts, card layouts and faces, sheets and rasters (heavy imports stay inside).

Print-shop outputs drawn from these (shop files, cut files, preflight, TTS decks) live in
pnpforge.shop, above this package.

The public calls the commands use; each imports reportlab / pypdfium2 only
when called, so importing this package (or `pnp --help`) stays cheap:

    print_cards(db, game, PrintOptions(...)) -> Manifest     # the print-and-play PDF
    print_calibration(SheetOptions(...), output) -> Manifest # duplex calibration page
    images(db, game, dpi=300, card_type=None, output=None) -> RasterResult
    proof(db, game, output=None) -> RasterResult              # contact sheet(s)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pnpforge.render.heap import collector_held_back
from pnpforge.render.sheet import PrintOptions, SheetOptions, parse_offset
from pnpforge.render.sheet_manifest import Manifest, Placement

if TYPE_CHECKING:  # pragma: no cover
    from pnpforge.render.raster import RasterResult

__all__ = [
    "Manifest",
    "Placement",
    "PrintOptions",
    "SheetOptions",
    "images",
    "parse_offset",
    "print_calibration",
    "print_cards",
    "proof",
]


def print_cards(
    db: Any, game: str, options: PrintOptions | None = None, renderer_factory: Any = None
) -> Manifest:
    """Write the print-and-play PDF of a game (or of a selection) and return its manifest."""
    from pnpforge.render import pdf  # reportlab, Pillow: this package loads with pnp cards

    with collector_held_back():
        return pdf.print_cards(db, game, options or PrintOptions(), renderer_factory)


def print_calibration(options: SheetOptions | None = None, output: str | None = None) -> Manifest:
    """Write the duplex calibration page (a cross on the front, scales on the back)."""
    from pnpforge.render import pdf  # reportlab: this package loads with pnp cards

    return pdf.print_calibration(options or SheetOptions(), output)


def images(
    db: Any,
    game: str,
    dpi: int = 300,
    card_type: str | None = None,
    output: str | None = None,
    renderer_factory: Any = None,
) -> RasterResult:
    """One PNG per card face and one per card type's back, at the card's size."""
    from pnpforge.render import raster  # reportlab, pypdfium2: this package loads with pnp cards

    return raster.images(
        db, game, dpi=dpi, card_type=card_type, output=output, renderer_factory=renderer_factory
    )


def proof(
    db: Any, game: str, output: str | None = None, card_type: str | None = None, renderer_factory: Any = None
) -> RasterResult:
    """A contact sheet (PNG) of every face, small, for reviewing a deck at a glance."""
    from pnpforge.render import raster_proof  # reportlab, pypdfium2: this package loads with pnp cards

    return raster_proof.proof(db, game, output=output, card_type=card_type, renderer_factory=renderer_factory)
