"""`pnp tts`: Tabletop Simulator deck sheets (at most 10×7 cards, 4096 px), backs and a note.

The saved object beside them (one deck per card type) and its linked copy for
`pnp tts-object` are tts_object.py.

Each card's face is drawn once and rasterised at the sheet's resolution; a
type's sheets are written as soon as their last face is in, so memory holds
one sheet at a time.  `images_and_tts` (what `pnp build` runs) draws every face
and back once for both the card images and the TTS sheets.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from PIL import Image

from pnpforge.render import pdf, sheet_plan
from pnpforge.render.raster import (
    Drawing,
    Raster,
    RasterContext,
    RasterResult,
    Sink,
    back_item,
    card_context,
    check_dpi,
    drawing_of,
    face_item,
    out_dir,
    plan_images,
    png_sink,
    render_drawings,
    type_order,
    write_png,
)
from pnpforge.shop.tts_object import (
    LinkResult,
    check_base_url,
    link_saved_object,
    readme_note,
    write_saved_object,
)
from pnpforge.store.location import output_root

TTS_MAX_COLS, TTS_MAX_ROWS = 10, 7
TTS_MAX_PX = 4096
TTS_DPI = 200  # enough for a table view; 10×7 poker sheets end up ~165 dpi


# ---- pnp tts --------------------------------------------------------------------------------


def tts_grid(n: int) -> tuple[int, int]:
    """Columns and rows of a TTS sheet holding n (≤ 70) cards."""
    cols = min(TTS_MAX_COLS, n)
    return cols, math.ceil(n / cols)


def tts_px_per_mm(w_mm: float, h_mm: float, cols: int, rows: int, dpi: int = TTS_DPI) -> float:
    """Resolution that keeps a cols×rows sheet within TTS_MAX_PX on both sides."""
    return min(dpi / 25.4, TTS_MAX_PX / (cols * w_mm), TTS_MAX_PX / (rows * h_mm))


@dataclass
class _TtsDeck:
    """One card type's sheets, planned up front and written as soon as its last face is in.

    Each distinct face is rasterised once, however many copies and sheets it
    appears on; the faces are dropped once the sheets are written.
    """

    out: Path
    cards: list  # deck order, copies included
    card_px: tuple[int, int]
    sheets: list[dict]  # the README / manifest entry of each sheet
    faces: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.distinct = len({c.id for c in self.cards})

    def add(self, card_id: str, img: Any) -> None:
        self.faces[card_id] = img
        if len(self.faces) == self.distinct:
            self._write_sheets()

    def _write_sheets(self) -> None:
        cw, ch = self.card_px
        per_sheet = TTS_MAX_COLS * TTS_MAX_ROWS
        for entry, batch in zip(self.sheets, sheet_plan.chunks(self.cards, per_sheet), strict=False):
            cols, rows = entry["width"], entry["height"]
            canvas = Image.new("RGB", (cols * cw, rows * ch), (255, 255, 255))
            for i, card in enumerate(batch):
                canvas.paste(self.faces[card.id], ((i % cols) * cw, (i // cols) * ch))
            write_png(self.out / entry["file"], canvas)
        self.faces.clear()


def _plan_tts(
    ctx: RasterContext, drawings: dict[tuple[str, str], Drawing], out: Path, dpi: int
) -> RasterResult:
    """Per card type: deck sheets of ≤ 10×7 cards (copies included) and a back image."""
    result = RasterResult(str(out))
    per_sheet = TTS_MAX_COLS * TTS_MAX_ROWS
    game = ctx.game.slug
    for slug in type_order(ctx):
        t = ctx.types[slug]
        deck = [c for c in ctx.cards if c.type == slug for _ in range(c.copies)]
        if not deck:
            continue
        cols0, rows0 = tts_grid(min(len(deck), per_sheet))
        ppm = tts_px_per_mm(t.width_mm, t.height_mm, cols0, rows0, dpi)
        # whole pixels, rounded down: 10 cards × cw must stay within TTS_MAX_PX
        cw, ch = max(1, math.floor(t.width_mm * ppm)), max(1, math.floor(t.height_mm * ppm))
        back_name = f"{game}-{slug}-back.png"
        result.files.append(str(out / back_name))
        tts_deck = _TtsDeck(out, deck, (cw, ch), [])
        for n, batch in enumerate(sheet_plan.chunks(deck, per_sheet), start=1):
            cols, rows = tts_grid(len(batch))
            entry = {
                "file": f"{game}-{slug}-{n}.png",
                "back": back_name,
                "type": slug,
                "width": cols,
                "height": rows,
                "number": len(batch),
                "card_px": [cw, ch],
                "sideways": t.width_mm > t.height_mm,
            }
            tts_deck.sheets.append(entry)
            result.decks.append(entry)
            result.files.append(str(out / entry["file"]))
        for card in {c.id: c for c in deck}.values():
            drawing_of(drawings, face_item(card, ctx)).rasters.append(
                Raster(ppm, (cw, ch), _deck_sink(tts_deck, card.id))
            )
        drawing_of(drawings, back_item(slug, ctx)).rasters.append(
            Raster(ppm, (cw, ch), png_sink(out / back_name))
        )
    return result


def _deck_sink(deck: Any, card_id: str) -> Sink:
    """A sink handing a card's pixels to its TTS deck, which keeps them for its sheets."""
    return lambda px: deck.add(card_id, px.image())


def _finish_tts(ctx: RasterContext, result: RasterResult) -> None:
    result.files.append(write_saved_object(ctx, result))
    readme = Path(result.directory) / "README.txt"
    readme.write_text(tts_readme(ctx.game, result.decks) + readme_note(ctx.game), encoding="utf-8")
    result.files.append(str(readme))
    result.warnings = list(ctx.renderer.warnings())


def tts(
    db: Any,
    game: str,
    output: str | None = None,
    card_type: str | None = None,
    renderer_factory: pdf.RendererFactory | None = None,
    dpi: int = TTS_DPI,
) -> RasterResult:
    """Per card type: deck sheets of ≤ 10×7 cards (copies included), a back image, README.txt."""
    ctx = card_context(db, game, card_type, renderer_factory)
    out = out_dir(output, game, "tts", db)
    drawings: dict[tuple[str, str], Drawing] = {}
    result = _plan_tts(ctx, drawings, out, dpi)
    render_drawings(_by_type(drawings, ctx), ctx)
    _finish_tts(ctx, result)
    return result


def tts_object(
    db: Any,
    game: str,
    source: str | None = None,
    output: str | None = None,
    base_url: str | None = None,
) -> LinkResult:
    """The saved object `tts` wrote in `source` (default output/GAME/tts/), linked to full image
    addresses in `output` (default SOURCE/linked/GAME.json); the sheets are drawn first when
    `source` has no GAME.json yet.  A bad `base_url` is refused before anything is drawn."""
    if base_url is not None:
        check_base_url(base_url)
    folder = Path(source) if source else output_root(db) / game / "tts"
    saved = folder / f"{game}.json"
    drawn = 0
    if not saved.exists():
        drawn = len(tts(db, game, output=str(folder)).decks)
    target = Path(output) if output else folder / "linked" / f"{game}.json"
    linked = link_saved_object(saved, target, base_url)
    linked.drawn, linked.folder = drawn, str(folder)
    return linked


def _by_type(drawings: dict[tuple[str, str], Drawing], ctx: RasterContext) -> list[Drawing]:
    """Drawings grouped by card type (faces, then the back), so each type's TTS sheets are
    written, and its faces freed, before the next type is rasterised."""
    rank = {s: i for i, s in enumerate(type_order(ctx))}

    def key(d: Drawing) -> int:
        return rank[d.item.obj.type if d.item.kind == "face" else d.item.obj]

    return sorted(drawings.values(), key=key)  # stable: deck order within a type


# ---- images and TTS together (pnp build) ---------------------------------------------------


def images_and_tts(
    db: Any,
    game: str,
    images_output: str,
    tts_output: str,
    dpi: int = 300,
    renderer_factory: pdf.RendererFactory | None = None,
    tts_dpi: int = TTS_DPI,
) -> tuple[RasterResult, RasterResult]:
    """What `images` and `tts` write, with every face and back drawn once for both.

    The card images and the TTS sheets are different resolutions of one drawing
    (one Form XObject per item, a page per resolution), so they cannot disagree,
    and the drawing — most of the cost after PNG encoding — is not done twice.
    """
    check_dpi(dpi)
    ctx = card_context(db, game, None, renderer_factory)
    drawings: dict[tuple[str, str], Drawing] = {}
    img_result = plan_images(ctx, drawings, out_dir(images_output, game, "images", db), dpi)
    tts_result = _plan_tts(ctx, drawings, out_dir(tts_output, game, "tts", db), tts_dpi)
    render_drawings(_by_type(drawings, ctx), ctx)
    img_result.warnings = list(ctx.renderer.warnings())
    _finish_tts(ctx, tts_result)
    return img_result, tts_result


def tts_readme(game: Any, decks: list[dict]) -> str:
    """How to import the sheets into Tabletop Simulator, with each sheet's numbers."""
    lines = [
        f"{game.titles()}: Tabletop Simulator decks (made by pnpforge)",
        "",
        "Import each sheet as one Custom Deck:",
        "1. In Tabletop Simulator: Objects > Components > Cards > Custom Deck, click the table.",
        "2. Face: the sheet PNG below (pick it as a local file, or upload it to the Steam Cloud",
        "   with Modding > Cloud Manager so other players can see it).",
        "3. Unique backs: off.  Back: the back PNG named below.",
        "4. Width, Height, Number: as listed below.  Tick 'Back is Hidden' (so every slot is a card)",
        "   and 'Sideways' where listed.  Then Import.",
        "Copies are separate images on the sheet, so the deck has the right number of cards.",
        "",
        f"{'sheet':<40} {'back':<36} width height number sideways",
    ]
    for d in decks:
        lines.append(
            f"{d['file']:<40} {d['back']:<36} {d['width']:>5} {d['height']:>6} "
            f"{d['number']:>6} {'yes' if d['sideways'] else 'no'}"
        )
    return "\n".join(lines) + "\n"
