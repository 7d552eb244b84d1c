"""`pnp cut`: a print PDF with a cutting machine's registration marks, and its cut files.

Each sheet of the PDF carries the machine's marks (cut_geometry.py) and cards at
their exact size with a little bleed; each sheet gets a cut file holding one
rounded outline per card at exactly the trim rectangle the manifest lists, and
nothing else (the marks are printed, never cut) — an SVG for both machines and,
for Silhouette Studio's basic edition (which reads DXF but not SVG), a DXF R2000
of lines and arcs in millimetres written by ezdxf.  Cards print single-sided: a
cut sheet has no backs.

The corner radius is the card type's `corner_radius_mm` in its back design
(card_types.back), else 3 mm.
"""

from __future__ import annotations

import io
import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pnpforge.errors import PnpError
from pnpforge.outfile import confined, ensure_folder, write_text
from pnpforge.query.select import stamp_date
from pnpforge.render import pdf_canvas
from pnpforge.render.raster import card_context
from pnpforge.render.sheet import MM_TO_PT, Rect
from pnpforge.shop.cut_geometry import (
    BLEED_MM,
    DEFAULT_CORNER_MM,
    Grid,
    Machine,
    grid,
    machine,
    rounded_outline,
)
from pnpforge.store.location import output_root


@dataclass
class CutSheet:
    """One printed sheet: its cards and their trim rectangles (mm, PDF origin)."""

    number: int
    cards: list[tuple[Any, Rect, bool, float]] = field(default_factory=list)  # card, trim, turned, r


@dataclass
class CutResult:
    """What `pnp cut` wrote, and the trim rectangles the cut files follow."""

    machine: str
    directory: str
    pdf: str = ""
    files: list[str] = field(default_factory=list)
    placements: list[dict] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    def to_dict(self) -> dict:
        return {
            "machine": self.machine,
            "directory": self.directory,
            "pdf": self.pdf,
            "files": self.files,
            "placements": self.placements,
            "warnings": self.warnings,
        }


def corner_radius(ctype: Any) -> float:
    """The card type's corner radius in mm (its back design may say), else the default."""
    value = (ctype.back or {}).get("corner_radius_mm", DEFAULT_CORNER_MM)
    try:
        radius = float(value)
    except (TypeError, ValueError):
        raise PnpError(
            f"card type '{ctype.slug}': corner_radius_mm must be a number of mm (got {value!r})"
        ) from None
    if not 0 <= radius <= min(ctype.width_mm, ctype.height_mm) / 2:
        raise PnpError(
            f"card type '{ctype.slug}': corner_radius_mm {radius:g} is outside 0 to half the card's width"
        )
    return radius


def plan_sheets(m: Machine, cards: list, types: dict) -> list[CutSheet]:
    """Cards in deck order (copies included) onto sheets; a new sheet when the size changes."""
    sheets: list[CutSheet] = []
    grids: dict[tuple[float, float], Grid] = {}
    size: tuple[float, float] | None = None
    for card in cards:
        t = types[card.type]
        here = (t.width_mm, t.height_mm)
        if here not in grids:
            same = [s for s, other in types.items() if (other.width_mm, other.height_mm) == here]
            label = "card type " if len(same) == 1 else "card types "
            grids[here] = grid(m, *here, what=label + ", ".join(repr(s) for s in same))
        g = grids[here]
        for _ in range(card.copies):
            if here != size or len(sheets[-1].cards) == g.per_sheet:
                size = here
                sheets.append(CutSheet(len(sheets) + 1))
            slot = g.slots[len(sheets[-1].cards)]
            sheets[-1].cards.append((card, slot, g.rotated, corner_radius(t)))
    return sheets


def cut(
    db: Any,
    game: str,
    machine_name: str,
    paper: str = "a4",
    output: str | None = None,
    card_type: str | None = None,
    renderer_factory: Any = None,
) -> CutResult:
    """Write the marked print PDF and one cut file per sheet (SVG, and DXF for Silhouette)."""
    m = machine(machine_name, paper)
    ctx = card_context(db, game, card_type, renderer_factory)
    out = ensure_folder(Path(output) if output else output_root(db) / game / "cut" / machine_name)
    sheets = plan_sheets(m, [c for c in ctx.cards if c.copies > 0], ctx.types)
    result = CutResult(machine_name, str(out))
    pdf_path = confined(out, f"{game}-{machine_name}-{paper}.pdf")
    _write_pdf(pdf_path, m, sheets, ctx, stamp_date(db, game))
    result.pdf = str(pdf_path)
    result.files.append(str(pdf_path))
    for sheet in sheets:
        stem = f"{game}-{machine_name}-{paper}-{sheet.number:02d}"
        write_text(confined(out, stem + ".svg"), svg(m, sheet))
        result.files.append(str(out / (stem + ".svg")))
        if machine_name == "silhouette":
            write_text(confined(out, stem + ".dxf"), dxf(sheet))
            result.files.append(str(out / (stem + ".dxf")))
        for card, r, turned, _ in sheet.cards:
            result.placements.append(
                {
                    "id": card.id,
                    "type": card.type,
                    "page": sheet.number,
                    "side": "face",
                    **r.to_dict(),
                    "rotation": 90 if turned else 0,
                }
            )
    manifest = confined(out, "manifest.json")
    write_text(manifest, json.dumps(_manifest(result), ensure_ascii=False, indent=2) + "\n")
    result.files.append(str(manifest))
    result.warnings = list(ctx.renderer.warnings())
    return result


def _manifest(result: CutResult) -> dict:
    """The manifest on disk: file names relative to it, so the folder can move (and a kit built
    anywhere is the same bytes)."""
    return {
        **result.to_dict(),
        "directory": ".",
        "pdf": Path(result.pdf).name,
        "files": [Path(f).name for f in result.files],
    }


# ---- the print PDF -------------------------------------------------------------------------------


def _write_pdf(path: Path, m: Machine, sheets: list[CutSheet], ctx: Any, created: str) -> None:
    """The print sheets, with the document info of every other PDF: creator pnpforge, dated by
    the game's latest card edit (`created`), so the same data gives the same bytes."""
    k = MM_TO_PT
    with pdf_canvas.atomic_output(path) as fh:
        c = pdf_canvas.open_canvas(
            path, ctx.fonts.regular, f"{ctx.game.title} — {m.name} print and cut", created
        )
        c.setPageSize((m.page[0] * k, m.page[1] * k))
        checked: set[str] = set()
        for sheet in sheets:
            for card, r, turned, _ in sheet.cards:
                if card.id not in checked:
                    ctx.renderer.check(card)
                    checked.add(card.id)
                _draw_card(c, ctx.renderer, card, r, turned)
            c.setFillColorRGB(0, 0, 0)
            for mark in m.marks:
                c.rect(mark.x * k, mark.y * k, mark.w * k, mark.h * k, stroke=0, fill=1)
            c.showPage()
        c.save_to(fh)


def _draw_card(c: Any, renderer: Any, card: Any, r: Rect, turned: bool) -> None:
    """The face in its slot, clipped to the trim plus BLEED_MM, turned 90° when the grid is."""
    k, b = MM_TO_PT, BLEED_MM * MM_TO_PT
    c.saveState()
    path = c.beginPath()
    path.rect(r.x * k - b, r.y * k - b, r.w * k + 2 * b, r.h * k + 2 * b)
    c.clipPath(path, stroke=0, fill=0)
    if turned:  # the card's bottom-left goes to the slot's bottom-right
        c.translate(r.x1 * k, r.y * k)
        c.rotate(90)
    else:
        c.translate(r.x * k, r.y * k)
    renderer.draw_face(c, card, 0.0, 0.0, b)
    c.restoreState()


# ---- cut files -----------------------------------------------------------------------------------


def _svg_path(r: Rect, radius: float, page_h: float) -> str:
    """The rounded outline as SVG path data (mm, y down)."""

    def pt(x: float, y: float) -> str:
        return f"{x:.3f},{page_h - y:.3f}"

    parts = rounded_outline(r, radius)
    first = parts[0][1]
    d = [f"M{pt(first[0], first[1])}"]
    for kind, v in parts:
        if kind == "line":
            d.append(f"L{pt(v[2], v[3])}")
        else:
            cx, cy, rad, _, end = v
            ex, ey = cx + rad * math.cos(math.radians(end)), cy + rad * math.sin(math.radians(end))
            d.append(f"A{rad:.3f},{rad:.3f} 0 0 0 {pt(ex, ey)}")  # counter-clockwise in y-up
    return " ".join(d) + " Z"


def svg(m: Machine, sheet: CutSheet) -> str:
    """One sheet's cut outlines only (red hairlines, as cutting software expects), in mm.

    The registration marks are printed on the sheet, never put in the cut file: Silhouette
    Studio and Cricut Design Space would cut any shape they find here, and they draw their
    own marks when registration is switched on.
    """
    w, h = m.page
    lines = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w:g}mm" height="{h:g}mm" '
        f'viewBox="0 0 {w:g} {h:g}">',
        '<g id="cut" fill="none" stroke="#ff0000" stroke-width="0.1">',
    ]
    for card, r, _, radius in sheet.cards:
        lines.append(f'<path id="{_xml_id(card.id, sheet.number, r)}" d="{_svg_path(r, radius, h)}"/>')
    lines.append("</g>")
    lines.append("</svg>")
    return "\n".join(lines) + "\n"


def _xml_id(card_id: str, page: int, r: Rect) -> str:
    safe = "".join(ch if ch.isalnum() or ch in "-_" else "_" for ch in card_id)
    return f"card-{safe}-p{page}-{round(r.x)}-{round(r.y)}"


def dxf(sheet: CutSheet) -> str:
    """One sheet's outlines as a DXF R2000 file written by ezdxf (LINE and ARC on layer CUT).

    R2000 is the oldest DXF version with `$INSUNITS`, so the file says millimetres (4)
    rather than leaving the importer to guess; y points up, as in the PDF.  ezdxf's fixed
    metadata option pins the header's dates and GUIDs, so a sheet always gives the same bytes.
    """
    import ezdxf  # about 1 s to import: only when a DXF is written (Silhouette), not for Cricut

    fixed = ezdxf.options.write_fixed_meta_data_for_testing
    ezdxf.options.write_fixed_meta_data_for_testing = True  # fixed dates, GUIDs, marker: same bytes
    try:
        doc = ezdxf.new("R2000", setup=False)
        doc.units = ezdxf.units.MM
        doc.header["$MEASUREMENT"] = 1  # metric
        doc.layers.add("CUT", color=1)
        msp = doc.modelspace()
        for _, r, _, radius in sheet.cards:
            for kind, v in rounded_outline(r, radius):
                if kind == "line":
                    msp.add_line((v[0], v[1]), (v[2], v[3]), dxfattribs={"layer": "CUT"})
                else:
                    msp.add_arc((v[0], v[1]), v[2], v[3], v[4] % 360, dxfattribs={"layer": "CUT"})
        stream = io.StringIO()
        doc.write(stream)
        return stream.getvalue()
    finally:
        ezdxf.options.write_fixed_meta_data_for_testing = fixed
