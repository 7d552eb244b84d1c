"""`pnp proof`: contact sheets of every card face, labelled id ×copies, as PNG.

A proof is for reviewing a deck at a glance: one small face per card (copies
are counted in its label), rows breaking where the card size changes, drawn by
the same renderer as the print sheets.
"""

from __future__ import annotations

import functools
import tempfile
from pathlib import Path
from typing import Any

import pypdfium2 as pdfium
from reportlab.lib.colors import Color

from pnpforge.outfile import ensure_folder
from pnpforge.render import pdf, pdf_canvas, pdf_draw, sheet, sheet_plan
from pnpforge.render.raster import RasterContext, RasterResult, card_context
from pnpforge.render.raster_png import write_png
from pnpforge.render.sheet import MM_TO_PT
from pnpforge.store.location import output_root

PROOF_DPI = 100
PROOF_COLS, PROOF_ROWS = 10, 10
PROOF_GAP_MM, PROOF_LABEL_MM, PROOF_MARGIN_MM, PROOF_TITLE_MM = 4.0, 5.0, 6.0, 9.0


def proof(
    db: Any,
    game: str,
    output: str | None = None,
    card_type: str | None = None,
    renderer_factory: pdf.RendererFactory | None = None,
    dpi: int = PROOF_DPI,
) -> RasterResult:
    """Contact sheet(s) of every card face (one each), labelled id ×copies, as PNG."""
    ctx = card_context(db, game, card_type, renderer_factory)

    out = Path(output) if output else output_root(db) / game
    ensure_folder(out)  # a file or device given as -o: one line naming it, as images and print say
    result = RasterResult(str(out))
    per_page = PROOF_COLS * PROOF_ROWS
    pages = list(sheet_plan.chunks(ctx.cards, per_page))
    suffix = f"-{card_type}" if card_type else ""
    for n, batch in enumerate(pages, start=1):
        name = f"{game}{suffix}-proof.png" if len(pages) == 1 else f"{game}{suffix}-proof-{n}.png"
        with tempfile.TemporaryDirectory(prefix="pnp-proof-") as tmp:
            path = Path(tmp) / "proof.pdf"
            _write_proof_pdf(path, batch, ctx, f"{n}/{len(pages)}")
            img = _rasterise_page(path, dpi)
        write_png(out / name, img, dpi)
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
    depth: list[tuple[float, float]] = [(0.0, 0.0)] * len(sizes)  # (x, page top -> card bottom)
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


def _write_proof_pdf(path: Path, cards: list, ctx: RasterContext, page_label: str) -> None:
    sizes = [(ctx.types[c.type].width_mm, ctx.types[c.type].height_mm) for c in cards]
    page_w, page_h, corners = proof_layout(sizes)
    m, mm = PROOF_MARGIN_MM, MM_TO_PT
    grey = Color(0.6, 0.6, 0.6)
    with pdf_canvas.atomic_output(path) as fh:
        c = pdf_canvas.open_canvas(path, ctx.fonts.regular, f"{ctx.game.title} proof", ctx.date)
        c.setPageSize((page_w * mm, page_h * mm))
        c.setFillColorRGB(1, 1, 1)
        c.rect(0, 0, page_w * mm, page_h * mm, stroke=0, fill=1)
        c.setFillColorRGB(0, 0, 0)
        c.setFont(ctx.fonts.bold, 14)
        copies = sum(x.copies for x in cards)
        c.drawString(
            m * mm,
            (page_h - m - 6) * mm,
            f"{ctx.game.titles()} v{ctx.game.version} · {ctx.date} · "
            f"proof {page_label} · {len(cards)} cards, {copies} copies",
        )
        for i, (card, (w, h), (x, y)) in enumerate(zip(cards, sizes, corners, strict=False)):
            ctx.renderer.check(card)
            trim = sheet.Rect(x, y, w, h)
            slot = sheet.Slot(i, trim, trim, sheet.translate(x, y))
            pdf_draw.place(c, slot, functools.partial(ctx.renderer.draw_face, c, card, 0.0, 0.0, 0.0))
            c.setStrokeColor(grey)
            c.setLineWidth(0.5)
            c.rect(x * mm, y * mm, w * mm, h * mm, stroke=1, fill=0)
            c.setFillColorRGB(0, 0, 0)
            label = f"{card.id} ×{card.copies}" + (" (provisional)" if card.is_provisional else "")
            text, size = pdf_draw.fit_font(label, ctx.fonts.regular, 9.0, (w + PROOF_GAP_MM / 2) * mm)
            c.setFont(ctx.fonts.regular, size)
            c.drawCentredString((x + w / 2) * mm, (y - 3.8) * mm, text)
        c.showPage()
        c.save_to(fh)


def _rasterise_page(path: Path, dpi: int) -> Any:
    doc = pdfium.PdfDocument(str(path))
    try:
        page = doc[0]
        try:
            return page.render(scale=dpi / 72.0).to_pil().convert("RGB")
        finally:
            page.close()
    finally:
        doc.close()
