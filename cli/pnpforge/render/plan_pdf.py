"""The PDF backend: a card plan (render.face_ops) drawn through reportlab's public canvas API.

Each op type has one drawing function here, picked by type; the plan itself
holds no canvas and no callable, so the same plan is drawn on sheets, single
card pages, shop files and preflight's reading without being planned again.
Whatever repeats on a sheet (backs) is drawn once into a Form XObject by the
sheet code and placed with `doForm`.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any

from reportlab.pdfbase.pdfmetrics import stringWidth

from pnpforge.render import text_atoms, text_draw
from pnpforge.render.face_geometry import draw_rows
from pnpforge.render.face_ops import (
    Badge,
    Band,
    CardPlan,
    Disc,
    Fill,
    Frame,
    Hatch,
    IconBadge,
    IconRow,
    InlineIcons,
    Label,
    Lattice,
    Mark,
    Padded,
    Pattern,
    Picture,
    Placed,
    Placeholder,
    Rect,
    RoundFrame,
    Rule,
    Shape,
    TextAt,
    TextBlock,
)
from pnpforge.render.face_ops import RowsBlock as Rows
from pnpforge.render.face_paint import badge_width, draw_badge, draw_pattern, draw_shape
from pnpforge.render.units import MM, hex_to_rgb


def draw_plan(c: Any, plan: CardPlan, x: float, y: float, bleed: float) -> None:
    """Draw a face or back with its trim box's bottom-left at (x, y) points.

    Only an op that clips or moves the coordinates runs in a graphics state of its own
    (q … Q); every other op sets each colour, width and font it paints with, so what an
    op before it left set changes none of its pixels, and the pairs would only cost time.
    The caller keeps the whole card in one state (render.pdf_draw.place, a form).
    """
    for op in plan.ops:
        if _isolated(op):
            c.saveState()
            CARD_OPS[type(op)](c, op, x, y, bleed)
            c.restoreState()
        else:
            CARD_OPS[type(op)](c, op, x, y, bleed)


def _isolated(op: Any) -> bool:
    """Does drawing `op` clip, turn, or set a dash (state no later op resets)?"""
    if type(op) is Placed:
        if op.rotate:
            return True
        content = op.content
        while type(content) is Padded:
            content = content.content
        return type(content) in _CLIPPING_BOX_OPS
    return type(op) in _CLIPPING_CARD_OPS


def draw_in_box(c: Any, op: Any, x: float, y: float, w: float, h: float) -> None:
    """Draw a box op into the box (x, y bottom-left, w, h in points)."""
    BOX_OPS[type(op)](c, op, x, y, w, h)


# ---- box ops -------------------------------------------------------------------------------------


@lru_cache(maxsize=64)
def icon_painter(icons: InlineIcons) -> text_draw.IconPainter:
    """The painter text drawing calls for an inline icon (one per icon set)."""
    specs, m, fonts = icons.specs, icons.measure, icons.fonts

    def paint(c: Any, name: str, x: float, baseline: float, size: float) -> None:
        spec = specs[name]
        h = size * spec["scale"]
        w = badge_width(m, spec, name, h, fonts)
        centre = baseline + (text_atoms.ASCENT - 0.5) * size
        c.saveState()
        draw_badge(c, spec, name, x + 0.12 * size, centre - h / 2, w, h, m, fonts)
        c.restoreState()

    return paint


def _text(c: Any, op: TextBlock, x: float, y: float, w: float, h: float) -> None:
    text_draw.draw(
        c,
        op.fitted,
        x,
        y,
        w,
        h,
        op.align,
        op.valign,
        op.colour,
        op.measure,
        icon_painter(op.icons),
        op.mark_colour,
    )


def _rows(c: Any, op: Rows, x: float, y: float, w: float, h: float) -> None:
    draw_rows(c, op.laid, x, y, w, h, op.measure, icon_painter(op.icons), op.mark_colour, op.colour, op.rule)


def _mark(c: Any, mark: Mark, x: float, top: float, size: float) -> None:
    s = min(text_atoms.MARK_MAX, size * 0.6)
    c.setFillColorRGB(*hex_to_rgb(mark.colour))
    c.setFont(mark.font, s)
    c.drawString(x, top - text_atoms.ASCENT * s, mark.sign)


def _icon(c: Any, op: IconBadge, x: float, y: float, w: float, h: float) -> None:
    natural = badge_width(op.measure, op.spec, op.name, h, op.fonts)
    bw = min(w, natural)
    bh = h * bw / natural  # too wide for the region: scale it down whole
    align = op.align
    bx = x if align == "left" else x + (w - bw) / 2 if align == "center" else x + w - bw
    draw_badge(c, op.spec, op.name, bx, y + (h - bh) / 2, bw, bh, op.measure, op.fonts)
    if op.mark:
        _mark(c, op.mark, bx + bw + 0.4, y + (h + bh) / 2, bh)


def _icons(c: Any, op: IconRow, x: float, y: float, w: float, h: float) -> None:
    specs, names, direction, gap, align = op.specs, op.names, op.direction, op.gap, op.align
    m, fonts, mark, cells = op.measure, op.fonts, op.mark, op.cells
    size = h if direction == "row" else w
    widths = [badge_width(m, s, n, size, fonts) for s, n in zip(specs, names, strict=False)]
    # room for the sign after each flagged icon of a row, so the next icon does not hide it
    room = _sign_room(size) if mark else 0.0
    rooms = [room if i < len(cells) and cells[i] else 0.0 for i in range(len(widths))]
    if direction == "row":
        total = sum(widths) + sum(rooms) + gap * (len(widths) - 1)
        scale = min(1.0, w / total) if total > 0 else 1.0
    else:
        total = size * len(widths) + gap * (len(widths) - 1)
        scale = min(1.0, h / total) if total > 0 else 1.0
    size *= scale
    widths = [wd * scale for wd in widths]
    g = gap * scale
    rooms = [r * scale for r in rooms]
    if direction == "row":
        total = sum(widths) + sum(rooms) + g * (len(widths) - 1)
        px = x if align == "left" else x + (w - total) / 2 if align == "center" else x + w - total
        for s, n, bw, r in zip(specs, names, widths, rooms, strict=False):
            draw_badge(c, s, n, px, y + (h - size) / 2, bw, size, m, fonts)
            if mark and r:
                _mark(c, mark, px + bw + 0.4, y + (h + size) / 2, size)
            px += bw + r + g
        if mark and not cells:
            _mark(c, mark, px - g + 0.4, y + (h + size) / 2, size)
    else:
        py = y + h - size
        for i, (s, n, bw) in enumerate(zip(specs, names, widths, strict=False)):
            bw = min(bw, w)
            bx = x if align == "left" else x + (w - bw) / 2 if align == "center" else x + w - bw
            draw_badge(c, s, n, bx, py, bw, size, m, fonts)
            if mark and i < len(cells) and cells[i]:
                _mark(c, mark, bx + bw + 0.4, py + size, size)
            py -= size + g
        if mark and not cells:
            _mark(c, mark, x + w - 1, py + g + size, size)


def _sign_room(size: float) -> float:
    """Width kept after an icon of `size` points for the provisional sign painted beside it."""
    return min(text_atoms.MARK_MAX, size * 0.6) * 0.7


def _picture(c: Any, op: Picture, x: float, y: float, w: float, h: float) -> None:
    if op.fit == "cover":
        c.drawImage(op.image, x, y, w, h)
    else:
        iw, ih = op.width_px, op.height_px
        scale = min(w / iw, h / ih)
        dw, dh = iw * scale, ih * scale
        c.drawImage(op.image, x + (w - dw) / 2, y + (h - dh) / 2, dw, dh)


def _hatch(c: Any, op: Hatch, x: float, y: float, w: float, h: float) -> None:
    """The hatching is drawn once per document for each colour and box size, into a Form
    XObject every art slot of that size places (tens of lines a slot, on most faces)."""
    name = f"hatch-{op.colour[1:]}-{op.ground[1:]}-{w!r}x{h!r}"
    if not c.hasForm(name):
        c.beginForm(name, 0, 0, w, h)
        _hatch_lines(c, op, w, h)
        c.endForm()
    c.saveState()
    c.translate(x, y)
    c.doForm(name)
    c.restoreState()


def _hatch_lines(c: Any, op: Hatch, w: float, h: float) -> None:
    c.setFillColorRGB(*hex_to_rgb(op.ground))
    c.rect(0, 0, w, h, stroke=0, fill=1)
    p = c.beginPath()
    p.rect(0, 0, w, h)
    c.clipPath(p, stroke=0, fill=0)
    c.setStrokeColorRGB(*hex_to_rgb(op.colour))
    c.setLineWidth(0.4)
    step = 4.0
    k = -h
    while k < w:
        c.line(k, 0, k + h, h)
        k += step


def _placeholder(c: Any, op: Placeholder, x: float, y: float, w: float, h: float) -> None:
    _hatch(c, op.hatch, x, y, w, h)
    c.setStrokeColorRGB(*hex_to_rgb(op.outline))
    c.setLineWidth(0.5)
    c.setDash(2, 2)
    c.rect(x + 1, y + 1, w - 2, h - 2, stroke=1, fill=0)
    c.setDash()
    size = min(6.0, h * 0.3)
    text = op.label
    while stringWidth(text, op.font, size) > w - 4 and len(text) > 2:
        text = text[:-2] + "…"
    c.setFillColorRGB(*hex_to_rgb(op.outline))
    c.setFont(op.font, size)
    c.drawCentredString(x + w / 2, y + h / 2 - size * 0.35, text)


def _padded(c: Any, op: Padded, x: float, y: float, w: float, h: float) -> None:
    p = op.pad
    draw_in_box(c, op.content, x + p, y + p, w - 2 * p, h - 2 * p)


BOX_OPS: dict[type, Callable[..., None]] = {
    TextBlock: _text,
    Rows: _rows,
    IconBadge: _icon,
    IconRow: _icons,
    Picture: _picture,
    Hatch: _hatch,
    Placeholder: _placeholder,
    Padded: _padded,
}

# ---- card ops ------------------------------------------------------------------------------------


def _placed(c: Any, op: Placed, ox: float, oy: float, bleed: float) -> None:
    x, y, w, h = op.box.points(ox, oy, op.card_h)
    rotate = op.rotate
    if not rotate:
        draw_in_box(c, op.content, x, y, w, h)
        return
    c.translate(x + w / 2, y + h / 2)
    c.rotate(rotate)
    if rotate in (90, 270):
        w, h = h, w
    draw_in_box(c, op.content, -w / 2, -h / 2, w, h)


def _fill(c: Any, op: Fill, ox: float, oy: float, bleed: float) -> None:
    c.setFillColorRGB(*hex_to_rgb(op.colour))
    c.rect(ox - bleed, oy - bleed, op.card_w * MM + 2 * bleed, op.card_h * MM + 2 * bleed, stroke=0, fill=1)


def _shape(c: Any, op: Shape, ox: float, oy: float, bleed: float) -> None:
    x, y, w, h = op.box.points(ox, oy, op.card_h)
    if op.into_bleed and bleed > 0:
        x, y, w, h = op.box.bleed(x, y, w, h, op.card_w, op.card_h, bleed)
    if op.fill:
        c.setFillColorRGB(*hex_to_rgb(op.fill))
    if op.stroke:
        c.setStrokeColorRGB(*hex_to_rgb(op.stroke))
        c.setLineWidth(op.stroke_width * MM)
    draw_shape(c, op.shape, x, y, w, h, op.radius * MM, bool(op.fill), bool(op.stroke))


def _badge(c: Any, op: Badge, ox: float, oy: float, bleed: float) -> None:
    d = op.d
    cx, cy = ox + (op.x + d / 2) * MM, oy + (op.card_h - op.y - d / 2) * MM
    r = d / 2 * MM
    c.setLineWidth(0.6)
    c.setStrokeColorRGB(*hex_to_rgb(op.fill))
    if op.whole:
        c.setFillColorRGB(*hex_to_rgb(op.fill))
        c.circle(cx, cy, r, stroke=1, fill=1)
        c.setFillColorRGB(*hex_to_rgb(op.text_colour))
    else:
        c.setFillColorRGB(1, 1, 1)
        c.circle(cx, cy, r, stroke=1, fill=1)
        c.setFillColorRGB(*hex_to_rgb(op.fill))
    size = r * (1.15 if len(op.text) == 1 else 0.8)
    c.setFont(op.font, size)
    c.drawCentredString(cx, cy - (text_atoms.ASCENT - 0.5) * size, op.text)


def _pattern(c: Any, op: Pattern, ox: float, oy: float, bleed: float) -> None:
    if op.kind == "none":
        return
    x0, y0 = ox - bleed, oy - bleed
    w, h = op.card_w * MM + 2 * bleed, op.card_h * MM + 2 * bleed
    p = c.beginPath()
    p.rect(x0, y0, w, h)
    c.clipPath(p, stroke=0, fill=0)
    c.setStrokeColorRGB(*hex_to_rgb(op.colour))
    c.setFillColorRGB(*hex_to_rgb(op.colour))
    c.setLineWidth(0.6)
    draw_pattern(c, op.kind, op.card_w, op.card_h, ox, oy, bleed)


def _frame(c: Any, op: Frame, ox: float, oy: float, bleed: float) -> None:
    W, H, inset = op.card_w, op.card_h, op.inset
    c.setStrokeColorRGB(*hex_to_rgb(op.colour))
    c.setLineWidth(0.8)
    c.roundRect(
        ox + inset * MM,
        oy + inset * MM,
        (W - 2 * inset) * MM,
        (H - 2 * inset) * MM,
        2.5 * MM,
        stroke=1,
        fill=0,
    )
    c.setLineWidth(0.35)
    i2 = inset + 1.0
    c.roundRect(ox + i2 * MM, oy + i2 * MM, (W - 2 * i2) * MM, (H - 2 * i2) * MM, 1.8 * MM, stroke=1, fill=0)


def _band(c: Any, op: Band, ox: float, oy: float, bleed: float) -> None:
    bx, by = ox + op.x * MM, oy + (op.card_h - op.y - op.h) * MM
    w, h = op.w * MM, op.h * MM
    c.setFillColorRGB(*hex_to_rgb(op.fill))
    c.rect(bx, by, w, h, stroke=0, fill=1)
    c.setStrokeColorRGB(*hex_to_rgb(op.line))
    c.setLineWidth(0.5)
    c.line(bx, by, bx + w, by)
    c.line(bx, by + h, bx + w, by + h)


def _text_at(c: Any, op: TextAt, ox: float, oy: float, bleed: float) -> None:
    text_draw.draw(
        c,
        op.fitted,
        ox + op.x,
        oy + op.y,
        op.w,
        op.h,
        op.align,
        op.valign,
        op.colour,
        op.measure,
        None,
        op.mark_colour or op.colour,
    )


def _rect(c: Any, op: Rect, ox: float, oy: float, bleed: float) -> None:
    sides = op.bleed
    left = bleed if "l" in sides else 0.0
    below = bleed if "b" in sides else 0.0
    w = op.w + left + (bleed if "r" in sides else 0.0)
    h = op.h + below + (bleed if "t" in sides else 0.0)
    c.setFillColorRGB(*hex_to_rgb(op.colour))
    c.rect(ox + op.x - left, oy + op.y - below, w, h, stroke=0, fill=1)


def _rule(c: Any, op: Rule, ox: float, oy: float, bleed: float) -> None:
    c.setStrokeColorRGB(*hex_to_rgb(op.colour))
    c.setLineWidth(op.width)
    c.line(ox + op.x, oy + op.y, ox + op.x2, oy + op.y2)


def _disc(c: Any, op: Disc, ox: float, oy: float, bleed: float) -> None:
    c.setFillColorRGB(*hex_to_rgb(op.colour))
    c.circle(ox + op.x, oy + op.y, op.r, stroke=0, fill=1)


def _label(c: Any, op: Label, ox: float, oy: float, bleed: float) -> None:
    c.setFillColorRGB(*hex_to_rgb(op.colour))
    c.setFont(op.font, op.size)
    draw = {"left": c.drawString, "center": c.drawCentredString, "right": c.drawRightString}[op.align]
    draw(ox + op.x, oy + op.y, op.text)


def _round_frame(c: Any, op: RoundFrame, ox: float, oy: float, bleed: float) -> None:
    c.setStrokeColorRGB(*hex_to_rgb(op.colour))
    c.setLineWidth(op.width)
    c.roundRect(ox + op.x, oy + op.y, op.w, op.h, op.radius, stroke=1, fill=0)


def _lattice(c: Any, op: Lattice, ox: float, oy: float, bleed: float) -> None:
    W, H = op.card_w, op.card_h
    p = c.beginPath()
    p.rect(ox - bleed, oy - bleed, W + 2 * bleed, H + 2 * bleed)
    c.clipPath(p, stroke=0, fill=0)
    c.setStrokeColorRGB(*hex_to_rgb(op.colour))
    c.setLineWidth(op.width)
    cx, cy, step = ox + W / 2, oy + H / 2, op.step
    reach = (W + H) / 2 + 2 * bleed
    n = int(reach / step) + 2
    for k in range(-n, n + 1):
        d = k * step
        c.line(cx + d - reach, cy - reach, cx + d + reach, cy + reach)
        c.line(cx - d + reach, cy - reach, cx - d - reach, cy + reach)


_CLIPPING_BOX_OPS = frozenset({Hatch, Placeholder})  # move to their box; a placeholder sets a dash
_CLIPPING_CARD_OPS = frozenset({Pattern, Lattice})  # clip to the card and its bleed

CARD_OPS: dict[type, Callable[..., None]] = {
    Placed: _placed,
    Fill: _fill,
    Shape: _shape,
    Badge: _badge,
    Pattern: _pattern,
    Frame: _frame,
    Band: _band,
    TextAt: _text_at,
    Rect: _rect,
    Rule: _rule,
    Disc: _disc,
    Label: _label,
    RoundFrame: _round_frame,
    Lattice: _lattice,
}
