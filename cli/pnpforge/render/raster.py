"""Card images, Tabletop Simulator decks and proof sheets, rasterised from PDF drawing.

Every pixel here comes from the same `draw_face` / `draw_back` calls the print
sheets use: we draw into a temporary PDF (one page per card, a thin bleed
around it) and rasterise that with pypdfium2, so a PNG can never disagree with
the printed card.  The bleed is a whole number of pixels, so cropping it off
lands exactly on the trim and the card's edge has no white seam.
"""

from __future__ import annotations

import math
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

from pnpforge.errors import PnpError
from pnpforge.render import pdf, sheet
from pnpforge.render.sheet import MM_TO_PT

BLEED_PX = 2                 # drawn around each card page, cropped off after rendering
TTS_MAX_COLS, TTS_MAX_ROWS = 10, 7
TTS_MAX_PX = 4096
TTS_DPI = 200                # enough for a table view; 10×7 poker sheets end up ~165 dpi
PROOF_DPI = 100
PROOF_COLS, PROOF_ROWS = 10, 10
PROOF_GAP_MM, PROOF_LABEL_MM, PROOF_MARGIN_MM, PROOF_TITLE_MM = 4.0, 5.0, 6.0, 9.0


@dataclass
class RasterResult:
    """What an image command wrote."""

    directory: str
    files: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    decks: list[dict] = field(default_factory=list)     # tts: one entry per sheet

    def to_dict(self) -> dict:
        d = {"directory": self.directory, "files": list(self.files), "warnings": list(self.warnings)}
        if self.decks:
            d["decks"] = list(self.decks)
        return d


@dataclass(frozen=True)
class Item:
    """One thing to rasterise: a card's face, or a card type's back."""

    kind: str           # 'face' | 'back'
    obj: Any            # Card for a face, type slug for a back
    w_mm: float
    h_mm: float


# ---- the shared machinery -----------------------------------------------------------

@dataclass
class _Context:
    game: Any
    types: dict
    cards: list
    renderer: pdf.Renderer
    fonts: Any
    date: str


def _context(db: Any, game: str, card_type: str | None,
             renderer_factory: pdf.RendererFactory | None) -> _Context:
    from pnpforge.render.fonts import ensure_fonts
    from pnpforge.store import repo

    g = repo.get_game(db, game)
    types = {t.slug: t for t in repo.card_types(db, game)}
    cards = pdf.select_cards(db, game, card_type, None)
    if not cards:
        raise PnpError(f"game '{game}' has no cards" + (f" of type '{card_type}'" if card_type else ""))
    date = pdf.stamp_date(db, game)[:10]
    renderer = (renderer_factory or pdf.default_renderer)(db, game, date=date)
    return _Context(g, types, cards, renderer, ensure_fonts(g.language), date)


def _out_dir(output: str | None, game: str, sub: str) -> Path:
    d = Path(output) if output else Path("output") / game / sub
    d.mkdir(parents=True, exist_ok=True)
    return d


def write_item_pdf(path: Path, items: list[Item], ctx: _Context, px_per_mm: float) -> None:
    """One page per item: the card at its trim size plus BLEED_PX of bleed all round."""
    b_mm = BLEED_PX / px_per_mm
    b = b_mm * MM_TO_PT
    with pdf.atomic_output(path) as fh:
        c = pdf.open_canvas(path, ctx.fonts.regular, f"{ctx.game.title} images", ctx.date)
        checked: set[str] = set()
        for it in items:
            c.setPageSize(((it.w_mm + 2 * b_mm) * MM_TO_PT, (it.h_mm + 2 * b_mm) * MM_TO_PT))
            if it.kind == "face":
                if it.obj.id not in checked:
                    ctx.renderer.check(it.obj)
                    checked.add(it.obj.id)
                ctx.renderer.draw_face(c, it.obj, b, b, b)
            else:
                ctx.renderer.draw_back(c, it.obj, b, b, b)
            c.showPage()
        c.save_to(fh)


def _size_px(w_mm: float, h_mm: float, px_per_mm: float) -> tuple[int, int]:
    return max(1, round(w_mm * px_per_mm)), max(1, round(h_mm * px_per_mm))


def rasterise(pdf_path: Path, items: list[Item], px_per_mm: float,
              size: tuple[int, int] | None = None) -> Iterator[Any]:
    """PIL images of each item page, cropped to the trim: round(mm × px_per_mm) pixels, or `size`."""
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(str(pdf_path))
    try:
        for i, it in enumerate(items):
            page = doc[i]
            try:
                bitmap = page.render(scale=px_per_mm * 25.4 / 72.0)
                img = bitmap.to_pil().convert("RGB")
            finally:
                page.close()
            w, h = size or _size_px(it.w_mm, it.h_mm, px_per_mm)
            img = img.crop((BLEED_PX, BLEED_PX, BLEED_PX + w, BLEED_PX + h))
            yield img
    finally:
        doc.close()


def _render_items(items: list[Item], ctx: _Context, px_per_mm: float,
                  size: tuple[int, int] | None = None) -> Iterator[Any]:
    with tempfile.TemporaryDirectory(prefix="pnp-raster-") as tmp:
        path = Path(tmp) / "items.pdf"
        write_item_pdf(path, items, ctx, px_per_mm)
        yield from rasterise(path, items, px_per_mm, size)


def _back_items(ctx: _Context) -> list[Item]:
    slugs = list(dict.fromkeys(c.type for c in ctx.cards))
    return [Item("back", s, ctx.types[s].width_mm, ctx.types[s].height_mm) for s in slugs]


def _face(card: Any, ctx: _Context) -> Item:
    t = ctx.types[card.type]
    return Item("face", card, t.width_mm, t.height_mm)


# ---- pnp images ----------------------------------------------------------------------------

def images(db: Any, game: str, dpi: int = 300, card_type: str | None = None,
           output: str | None = None, renderer_factory: pdf.RendererFactory | None = None) -> RasterResult:
    """`<id>.png` per card face and `back-<type>.png` per card type, at the card's size."""
    if not (isinstance(dpi, int) and 30 <= dpi <= 1200):
        raise PnpError(f"--dpi must be a whole number from 30 to 1200 (got {dpi})")
    ctx = _context(db, game, card_type, renderer_factory)
    out = _out_dir(output, game, "images")
    items = [_face(c, ctx) for c in ctx.cards] + _back_items(ctx)
    result = RasterResult(str(out))
    px_per_mm = dpi / 25.4
    for it, img in zip(items, _render_items(items, ctx, px_per_mm)):
        name = f"{it.obj.id}.png" if it.kind == "face" else f"back-{it.obj}.png"
        path = out / name
        img.save(path, dpi=(dpi, dpi), optimize=False)
        result.files.append(str(path))
    result.warnings = list(ctx.renderer.warnings())
    return result


# ---- pnp tts --------------------------------------------------------------------------------

def tts_grid(n: int) -> tuple[int, int]:
    """Columns and rows of a TTS sheet holding n (≤ 70) cards."""
    cols = min(TTS_MAX_COLS, n)
    return cols, math.ceil(n / cols)


def tts_px_per_mm(w_mm: float, h_mm: float, cols: int, rows: int, dpi: int = TTS_DPI) -> float:
    """Resolution that keeps a cols×rows sheet within TTS_MAX_PX on both sides."""
    return min(dpi / 25.4, TTS_MAX_PX / (cols * w_mm), TTS_MAX_PX / (rows * h_mm))


def tts(db: Any, game: str, output: str | None = None, card_type: str | None = None,
        renderer_factory: pdf.RendererFactory | None = None, dpi: int = TTS_DPI) -> RasterResult:
    """Per card type: deck sheets of ≤ 10×7 cards (copies included), a back image, README.txt."""
    from PIL import Image

    ctx = _context(db, game, card_type, renderer_factory)
    out = _out_dir(output, game, "tts")
    result = RasterResult(str(out))
    per_sheet = TTS_MAX_COLS * TTS_MAX_ROWS
    for slug in dict.fromkeys(c.type for c in ctx.cards):
        t = ctx.types[slug]
        deck = [c for c in ctx.cards if c.type == slug for _ in range(c.copies)]
        if not deck:
            continue
        cols0, rows0 = tts_grid(min(len(deck), per_sheet))
        ppm = tts_px_per_mm(t.width_mm, t.height_mm, cols0, rows0, dpi)
        # whole pixels, rounded down: 10 cards × cw must stay within TTS_MAX_PX
        cw, ch = max(1, math.floor(t.width_mm * ppm)), max(1, math.floor(t.height_mm * ppm))
        back_name = f"{game}-{slug}-back.png"
        [back] = list(_render_items([Item("back", slug, t.width_mm, t.height_mm)], ctx, ppm, (cw, ch)))
        back.save(out / back_name)
        result.files.append(str(out / back_name))
        for n, batch in enumerate(sheet.chunks(deck, per_sheet), start=1):
            cols, rows = tts_grid(len(batch))
            unique = list({c.id: c for c in batch}.values())
            imgs = dict(zip((c.id for c in unique),
                            _render_items([_face(c, ctx) for c in unique], ctx, ppm, (cw, ch))))
            canvas = Image.new("RGB", (cols * cw, rows * ch), (255, 255, 255))
            for i, card in enumerate(batch):
                canvas.paste(imgs[card.id], ((i % cols) * cw, (i // cols) * ch))
            name = f"{game}-{slug}-{n}.png"
            canvas.save(out / name)
            result.files.append(str(out / name))
            result.decks.append({"file": name, "back": back_name, "type": slug, "width": cols,
                                 "height": rows, "number": len(batch), "card_px": [cw, ch],
                                 "sideways": t.width_mm > t.height_mm})
    readme = out / "README.txt"
    readme.write_text(tts_readme(ctx.game, result.decks), encoding="utf-8")
    result.files.append(str(readme))
    result.warnings = list(ctx.renderer.warnings())
    return result


def tts_readme(game: Any, decks: list[dict]) -> str:
    """How to import the sheets into Tabletop Simulator, with each sheet's numbers."""
    lines = [
        f"{game.title} / {game.title_en}: Tabletop Simulator decks (made by pnpforge)",
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
        lines.append(f"{d['file']:<40} {d['back']:<36} {d['width']:>5} {d['height']:>6} "
                     f"{d['number']:>6} {'yes' if d['sideways'] else 'no'}")
    return "\n".join(lines) + "\n"


# ---- pnp proof -------------------------------------------------------------------------------

def proof(db: Any, game: str, output: str | None = None, card_type: str | None = None,
          renderer_factory: pdf.RendererFactory | None = None, dpi: int = PROOF_DPI) -> RasterResult:
    """Contact sheet(s) of every card face (one each), labelled id ×copies, as PNG."""
    ctx = _context(db, game, card_type, renderer_factory)
    out = Path(output) if output else Path("output") / game
    out.mkdir(parents=True, exist_ok=True)
    result = RasterResult(str(out))
    per_page = PROOF_COLS * PROOF_ROWS
    pages = list(sheet.chunks(ctx.cards, per_page))
    suffix = (f"-{card_type}" if card_type else "")
    for n, batch in enumerate(pages, start=1):
        name = f"{game}{suffix}-proof.png" if len(pages) == 1 else f"{game}{suffix}-proof-{n}.png"
        with tempfile.TemporaryDirectory(prefix="pnp-proof-") as tmp:
            path = Path(tmp) / "proof.pdf"
            _write_proof_pdf(path, batch, ctx, f"{n}/{len(pages)}")
            img = _rasterise_page(path, dpi)
        img.save(out / name, dpi=(dpi, dpi))
        result.files.append(str(out / name))
    result.warnings = list(ctx.renderer.warnings())
    return result


def proof_layout(sizes: list[tuple[float, float]]) -> tuple[float, float, list[tuple[float, float]]]:
    """Page size and each card's bottom-left corner (mm, PDF origin) on a contact sheet.

    Cards flow left to right at real size; a row ends when the next card would pass
    PROOF_COLS widths of the widest card, or where the card size changes (so each
    size keeps to its own rows and a small card never sits in a tall card's row).
    Each row is as tall as its tallest card plus the label under it.
    """
    m, title_h, gap = PROOF_MARGIN_MM, PROOF_TITLE_MM, PROOF_GAP_MM
    row_w = PROOF_COLS * (max(w for w, _ in sizes) + gap) - gap
    rows: list[list[int]] = []
    x = 0.0
    for i, (w, h) in enumerate(sizes):
        if not rows or x + w > row_w + 1e-9 or sizes[rows[-1][-1]] != (w, h):
            rows.append([])
            x = 0.0
        rows[-1].append(i)
        x += w + gap
    depth: list[tuple[float, float]] = [(0.0, 0.0)] * len(sizes)   # (x, page top -> card bottom)
    top = m + title_h
    for row in rows:
        x = m
        for i in row:
            w, h = sizes[i]
            depth[i] = (x, top + h)
            x += w + gap
        top += max(sizes[i][1] for i in row) + PROOF_LABEL_MM + gap
    page_w, page_h = 2 * m + row_w, top - gap + m
    return page_w, page_h, [(x, page_h - d) for x, d in depth]


def _write_proof_pdf(path: Path, cards: list, ctx: _Context, page_label: str) -> None:
    from reportlab.lib.colors import Color

    sizes = [(ctx.types[c.type].width_mm, ctx.types[c.type].height_mm) for c in cards]
    page_w, page_h, corners = proof_layout(sizes)
    m, mm = PROOF_MARGIN_MM, MM_TO_PT
    grey = Color(0.6, 0.6, 0.6)
    with pdf.atomic_output(path) as fh:
        c = pdf.open_canvas(path, ctx.fonts.regular, f"{ctx.game.title} proof", ctx.date)
        c.setPageSize((page_w * mm, page_h * mm))
        c.setFillColorRGB(1, 1, 1)
        c.rect(0, 0, page_w * mm, page_h * mm, stroke=0, fill=1)
        c.setFillColorRGB(0, 0, 0)
        c.setFont(ctx.fonts.bold, 14)
        copies = sum(x.copies for x in cards)
        c.drawString(m * mm, (page_h - m - 6) * mm,
                     f"{ctx.game.title} / {ctx.game.title_en} v{ctx.game.version} · {ctx.date} · "
                     f"proof {page_label} · {len(cards)} cards, {copies} copies")
        for i, (card, (w, h), (x, y)) in enumerate(zip(cards, sizes, corners)):
            ctx.renderer.check(card)
            trim = sheet.Rect(x, y, w, h)
            slot = sheet.Slot(i, trim, trim, sheet.translate(x, y))
            pdf.place(c, slot, lambda card=card: ctx.renderer.draw_face(c, card, 0.0, 0.0, 0.0))
            c.setStrokeColor(grey)
            c.setLineWidth(0.5)
            c.rect(x * mm, y * mm, w * mm, h * mm, stroke=1, fill=0)
            c.setFillColorRGB(0, 0, 0)
            label = f"{card.id} ×{card.copies}" + (" (provisional)" if card.is_provisional else "")
            text, size = pdf.fit_font(label, ctx.fonts.regular, 9.0, (w + PROOF_GAP_MM / 2) * mm)
            c.setFont(ctx.fonts.regular, size)
            c.drawCentredString((x + w / 2) * mm, (y - 3.8) * mm, text)
        c.showPage()
        c.save_to(fh)


def _rasterise_page(path: Path, dpi: int) -> Any:
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(str(path))
    try:
        page = doc[0]
        try:
            return page.render(scale=dpi / 72.0).to_pil().convert("RGB")
        finally:
            page.close()
    finally:
        doc.close()
