"""Drawing primitives the PDF backend (render.plan_pdf) shares: shapes, badges, patterns.

Plain functions of a canvas and numbers; `badge_width` is also what planning
measures icons with, so a badge is planned and drawn at the same width.
"""

from __future__ import annotations

import math
from typing import Any

from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen import pdfgeom

from pnpforge.errors import PnpError
from pnpforge.render import text_atoms
from pnpforge.render.pdf_ops import draw_string, fill_hex
from pnpforge.render.units import MM, hex_to_rgb, readable_on


def draw_shape(
    c: Any, shape: str, x: float, y: float, w: float, h: float, radius: float, fill: bool, stroke: bool
) -> None:
    p = c.beginPath()
    cx, cy = x + w / 2, y + h / 2
    if shape == "rect":
        p.rect(x, y, w, h)
    elif shape == "rounded":
        p.roundRect(x, y, w, h, min(radius, w / 2, h / 2))
    elif shape == "circle":
        r = min(w, h) / 2
        p.circle(cx, cy, r)
    elif shape == "ellipse":
        p.ellipse(x, y, w, h)
    else:
        pts = _polygon(shape, x, y, w, h)
        p.moveTo(*pts[0])
        for pt in pts[1:]:
            p.lineTo(*pt)
        p.close()
    c.drawPath(p, fill=1 if fill else 0, stroke=1 if stroke else 0)


def _polygon(shape: str, x: float, y: float, w: float, h: float) -> list[tuple[float, float]]:
    cx, cy, t, r = x + w / 2, y + h / 2, y + h, x + w
    if shape == "diamond":
        return [(cx, t), (r, cy), (cx, y), (x, cy)]
    if shape == "pentagon":
        return [(cx, t), (r, y + h * 0.62), (x + w * 0.81, y), (x + w * 0.19, y), (x, y + h * 0.62)]
    if shape == "inv-pentagon":
        return [(cx, y), (r, y + h * 0.38), (x + w * 0.81, t), (x + w * 0.19, t), (x, y + h * 0.38)]
    if shape == "hexagon":
        k = min(w * 0.25, h * 0.29)
        return [(x + k, t), (r - k, t), (r, cy), (r - k, y), (x + k, y), (x, cy)]
    if shape == "banner":
        k = min(h * 0.35, w * 0.2)
        return [(x, y), (r, y), (r - k, cy), (r, t), (x, t)]
    raise PnpError(f"unknown shape '{shape}'")  # pragma: no cover - validated on load


def badge_width(m: text_atoms.Measure, spec: dict[str, Any], name: str, h: float, fonts: Any) -> float:
    """Badges are square unless their text needs more room (then a pill or wide box)."""
    if spec["shape"] not in ("rounded", "rect", "circle", "none"):
        return h
    font = fonts.bold if spec["font"] == "bold" else fonts.regular
    text = spec["text"] or name
    tw = m.text(text, font) * h * 0.62
    return max(h, tw + h * 0.45)


def draw_badge(
    c: Any,
    spec: dict[str, Any],
    name: str,
    x: float,
    y: float,
    w: float,
    h: float,
    m: text_atoms.Measure,
    fonts: Any,
) -> None:
    shape = spec["shape"]
    fill, stroke = spec["fill"], spec["stroke"]
    if shape != "none":
        if fill:
            c.setFillColorRGB(*hex_to_rgb(fill))
        if stroke:
            c.setStrokeColorRGB(*hex_to_rgb(stroke))
            c.setLineWidth(max(0.3, h * 0.06))
        kind = {"circle": "rounded"}.get(shape, shape)
        radius = h / 2 if shape == "circle" else h * 0.22
        draw_shape(c, kind, x, y, w, h, radius, bool(fill), bool(stroke))
    text = spec["text"] or name
    font = fonts.bold if spec["font"] == "bold" else fonts.regular
    tcol = spec["text_colour"] or (readable_on(fill) if fill and shape != "none" else "#1a1a1a")
    room = w * (0.62 if shape in ("diamond", "pentagon", "inv-pentagon", "hexagon") else 0.86)
    size = h * (0.62 if len(text) == 1 else 0.55)
    tw = m.text(text, font)
    if tw * size > room:
        size = room / tw

    fill_hex(c, tcol)
    c.setFont(font, size)  # what preflight reads from the plan as this badge's font
    cy = y + h / 2
    if shape == "pentagon":
        cy = y + h * 0.45
    elif shape == "inv-pentagon":
        cy = y + h * 0.55
    # drawCentredString, as it places the string: half its width left of the centre
    draw_string(
        c,
        font,
        size,
        x + w / 2 - 0.5 * stringWidth(text, font, size),
        cy - (text_atoms.ASCENT - 0.5) * size,
        text,
    )


def draw_pattern(c: Any, pattern: str, W: float, H: float, ox: float, oy: float, bleed: float) -> None:
    x0, y0 = ox - bleed, oy - bleed
    w, h = W * MM + 2 * bleed, H * MM + 2 * bleed
    cx, cy = ox + W * MM / 2, oy + H * MM / 2
    reach = math.hypot(w, h)
    step = 4 * MM
    n = int(reach / step) + 2
    if pattern == "lattice":
        for k in range(-n, n + 1):
            d = k * step
            c.line(cx + d - reach, cy - reach, cx + d + reach, cy + reach)
            c.line(cx - d + reach, cy - reach, cx - d - reach, cy + reach)
    elif pattern == "dots":
        # every dot in one path, filled once: the dots never touch, so the pixels are those of
        # one fill per dot, and the circle's curves are computed once, not per dot
        r = 0.45 * MM
        arc = pdfgeom.bezierArc(-r, -r, r, r, 0, 360)
        p = c.beginPath()
        for i in range(-n, n + 1):
            for j in range(-n, n + 1):
                px, py = cx + i * step, cy + j * step
                if x0 - 2 <= px <= x0 + w + 2 and y0 - 2 <= py <= y0 + h + 2:
                    p.moveTo(px + arc[0][0], py + arc[0][1])
                    for _, _, x1, y1, x2, y2, x3, y3 in arc:
                        p.curveTo(px + x1, py + y1, px + x2, py + y2, px + x3, py + y3)
        c.drawPath(p, stroke=0, fill=1)
    elif pattern == "rings":
        for k in range(1, n + 1):
            c.circle(cx, cy, k * step, stroke=1, fill=0)
    elif pattern == "stripes":
        c.setLineWidth(step * 0.35)
        for k in range(-n, n + 1):
            c.line(cx + k * step, y0, cx + k * step, y0 + h)
