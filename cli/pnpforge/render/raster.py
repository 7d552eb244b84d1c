"""Card images, Tabletop Simulator decks and proof sheets, rasterised from PDF drawing.

Every pixel here comes from the same `draw_face` / `draw_back` calls the print
sheets use: we draw into a temporary PDF and rasterise that with pypdfium2, so
a PNG can never disagree with the printed card.  Each card is drawn once, as a
Form XObject, and placed on one page per resolution it is wanted at (the card
image, the TTS sheet), with a thin bleed around it.  The bleed is a whole
number of pixels at that page's resolution, so cropping it off lands exactly on
the trim and the card's edge has no white seam.  PNGs are written by
`write_png` (unfiltered, fast zlib, render.raster_png), the largest cost of an
image otherwise.  Proof sheets are render.raster_proof.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
from PIL import Image

from pnpforge import progress
from pnpforge.errors import PnpError
from pnpforge.outfile import confined, ensure_folder
from pnpforge.query.select import stamp_date
from pnpforge.render import pdf, pdf_canvas, pdf_sheets
from pnpforge.render.fonts import ensure_fonts
from pnpforge.render.raster_png import write_png
from pnpforge.render.sheet import MM_TO_PT
from pnpforge.store import repo
from pnpforge.store.location import output_root

BLEED_PX = 2  # drawn around each card page, cropped off after rendering


@dataclass
class RasterResult:
    """What an image command wrote."""

    directory: str
    files: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    decks: list[dict] = field(default_factory=list)  # tts: one entry per sheet

    def to_dict(self) -> dict:
        d: dict[str, Any] = {
            "directory": self.directory,
            "files": list(self.files),
            "warnings": list(self.warnings),
        }
        if self.decks:
            d["decks"] = list(self.decks)
        return d


@dataclass(frozen=True)
class Item:
    """One thing to rasterise: a card's face, or a card type's back."""

    kind: str  # 'face' | 'back'
    obj: Any  # Card for a face, type slug for a back
    w_mm: float
    h_mm: float


# ---- the shared machinery -----------------------------------------------------------


@dataclass
class RasterContext:
    game: Any
    types: dict
    cards: list
    renderer: pdf_sheets.Renderer
    fonts: Any
    date: str


def card_context(
    db: Any, game: str, card_type: str | None, renderer_factory: pdf.RendererFactory | None
) -> RasterContext:
    g = repo.get_game(db, game)
    types = {t.slug: t for t in repo.card_types(db, game)}
    cards = pdf.select_cards(db, game, card_type, None)
    if not cards:
        raise PnpError(f"game '{game}' has no cards" + (f" of type '{card_type}'" if card_type else ""))

    date = stamp_date(db, game)[:10]
    renderer = (renderer_factory or pdf.default_renderer)(db, game, date=date)
    return RasterContext(g, types, cards, renderer, ensure_fonts(g.language), date)


def out_dir(output: str | None, game: str, sub: str, db: Any = None) -> Path:
    """-o DIR, or SUB under the game's folder in the project's output/ (the database's folder)."""
    d = Path(output) if output else (output_root(db) if db is not None else Path("output")) / game / sub
    ensure_folder(d)
    return d


Sink = Callable[["Pixels"], None]  # receives one rendered item, cropped to its trim


@dataclass(frozen=True)
class Raster:
    """One rendering of a drawing: px_per_mm, cropped to `size` pixels, handed to `sink`."""

    px_per_mm: float
    size: tuple[int, int]
    sink: Sink


@dataclass
class Drawing:
    """An item drawn once, and every resolution it is wanted at (card image, TTS, ...)."""

    item: Item
    rasters: list[Raster] = field(default_factory=list)


def _size_px(w_mm: float, h_mm: float, px_per_mm: float) -> tuple[int, int]:
    return max(1, round(w_mm * px_per_mm)), max(1, round(h_mm * px_per_mm))


def write_drawings_pdf(path: Path, drawings: list[Drawing], ctx: Any) -> list[Raster]:
    """Each item drawn once as a Form XObject, then one page per raster; the rasters in page order.

    A page is the card at its trim size plus BLEED_PX of bleed at that page's
    resolution, exactly as if the card had been drawn on it directly; the form is
    drawn with the widest bleed any of its pages needs (bleed only extends shapes
    past the trim, so inside the trim every page shows the same drawing).
    """
    pages: list[Raster] = []
    with pdf_canvas.atomic_output(path) as fh:
        c = pdf_canvas.open_canvas(path, ctx.fonts.regular, f"{ctx.game.title} images", ctx.date)
        checked: set[str] = set()
        for n, d in enumerate(drawings):
            it = d.item
            w, h = it.w_mm * MM_TO_PT, it.h_mm * MM_TO_PT
            b = max(BLEED_PX / r.px_per_mm for r in d.rasters) * MM_TO_PT
            name = f"item{n}"
            if it.kind == "face" and it.obj.id not in checked:
                ctx.renderer.check(it.obj)
                checked.add(it.obj.id)
            c.beginForm(name, -b, -b, w + b, h + b)
            if it.kind == "face":
                ctx.renderer.draw_face(c, it.obj, 0.0, 0.0, b)
            else:
                ctx.renderer.draw_back(c, it.obj, 0.0, 0.0, b)
            c.endForm(compression=0)  # a temporary file: don't spend time packing it
            for r in d.rasters:
                pb = BLEED_PX / r.px_per_mm * MM_TO_PT
                c.setPageSize((w + 2 * pb, h + 2 * pb))
                c.translate(pb, pb)
                c.doForm(name)
                c.showPage()
                pages.append(r)
        c.save_to(fh)
    return pages


class Pixels:
    """The trim of one rendered page, read in place from pdfium's bitmap.

    What a Raster's sink receives.  `write_png` reads its rows without copying
    them; `image()` is a PIL copy, for a sink that keeps the pixels (a TTS face
    waiting for its sheet).  The bitmap, which owns the memory, lives as long
    as this object.
    """

    def __init__(self, bitmap: Any, size: tuple[int, int]) -> None:
        w, h = size
        if bitmap.mode != "RGB" or bitmap.width < w + BLEED_PX or bitmap.height < h + BLEED_PX:
            raise ValueError(
                f"{bitmap.mode} bitmap {bitmap.width}×{bitmap.height} cannot hold an RGB {w}×{h} trim"
            )
        self._bitmap = bitmap
        self._view = memoryview(bitmap.buffer).cast("B")
        self._stride = bitmap.stride
        self._start = BLEED_PX * bitmap.stride + 3 * BLEED_PX
        self.size = size

    def rows(self) -> Iterator[memoryview]:
        """The RGB bytes of each row of the trim, top to bottom."""
        w, h = self.size
        for y in range(h):
            at = self._start + y * self._stride
            yield self._view[at : at + 3 * w]

    def image(self) -> Any:
        """A PIL RGB copy of the trim."""
        return Image.frombytes("RGB", self.size, self._view[self._start :], "raw", "RGB", self._stride)


def rasterise(pdf_path: Path, pages: list[Raster]) -> Iterator[Pixels]:
    """Each page rendered at its raster's resolution (RGB), as the Pixels of its trim."""
    doc = pdfium.PdfDocument(str(pdf_path))
    try:
        for i, r in enumerate(pages):
            page = doc[i]
            try:
                bitmap = page.render(
                    scale=r.px_per_mm * 25.4 / 72.0,
                    rev_byteorder=True,
                    force_bitmap_format=pdfium_c.FPDFBitmap_BGR,
                )
            finally:
                page.close()
            yield Pixels(bitmap, r.size)
    finally:
        doc.close()


def render_drawings(drawings: list[Drawing], ctx: Any) -> None:
    """Draw every item once and hand each raster's Pixels to its sink, in page order."""
    drawings = [d for d in drawings if d.rasters]
    if not drawings:
        return
    with tempfile.TemporaryDirectory(prefix="pnp-raster-") as tmp:
        path = Path(tmp) / "items.pdf"
        pages = write_drawings_pdf(path, drawings, ctx)
        for n, (r, px) in enumerate(zip(pages, rasterise(path, pages), strict=False), start=1):
            r.sink(px)
            progress.report("images", n, len(pages))


def face_item(card: Any, ctx: RasterContext) -> Item:
    t = ctx.types[card.type]
    return Item("face", card, t.width_mm, t.height_mm)


def back_item(slug: str, ctx: RasterContext) -> Item:
    t = ctx.types[slug]
    return Item("back", slug, t.width_mm, t.height_mm)


def drawing_of(drawings: dict[tuple[str, str], Drawing], item: Item) -> Drawing:
    """The one Drawing of an item (a card's face or a type's back), made on first use."""
    key = (item.kind, item.obj.id if item.kind == "face" else item.obj)
    return drawings.setdefault(key, Drawing(item))


def type_order(ctx: RasterContext) -> list[str]:
    return list(dict.fromkeys(c.type for c in ctx.cards))


# ---- pnp images ----------------------------------------------------------------------------


def check_dpi(dpi: int) -> None:
    if not (isinstance(dpi, int) and 30 <= dpi <= 1200):
        raise PnpError(f"--dpi must be a whole number from 30 to 1200 (got {dpi})")


def plan_images(
    ctx: RasterContext, drawings: dict[tuple[str, str], Drawing], out: Path, dpi: int
) -> RasterResult:
    """`<id>.png` per card face and `back-<type>.png` per card type, at the card's size."""
    result = RasterResult(str(out))
    ppm = dpi / 25.4
    items = [face_item(c, ctx) for c in ctx.cards] + [back_item(s, ctx) for s in type_order(ctx)]
    for it in items:
        path = confined(out, f"{it.obj.id}.png" if it.kind == "face" else f"back-{it.obj}.png")
        drawing_of(drawings, it).rasters.append(
            Raster(ppm, _size_px(it.w_mm, it.h_mm, ppm), png_sink(path, dpi))
        )
        result.files.append(str(path))
    return result


def images(
    db: Any,
    game: str,
    dpi: int = 300,
    card_type: str | None = None,
    output: str | None = None,
    renderer_factory: pdf.RendererFactory | None = None,
) -> RasterResult:
    """`<id>.png` per card face and `back-<type>.png` per card type, at the card's size."""
    check_dpi(dpi)
    ctx = card_context(db, game, card_type, renderer_factory)
    out = out_dir(output, game, "images", db)
    drawings: dict[tuple[str, str], Drawing] = {}
    result = plan_images(ctx, drawings, out, dpi)
    render_drawings(list(drawings.values()), ctx)
    result.warnings = list(ctx.renderer.warnings())
    return result


def png_sink(path: Path, dpi: int | None = None) -> Sink:
    """A sink writing the pixels it gets to `path` as PNG."""
    return lambda px: write_png(path, px, dpi)
