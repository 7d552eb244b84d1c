"""Drawing fitted text lines onto a canvas, run by run.

Kept apart from fitting because only drawing needs a canvas: planning and
queries never load reportlab.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pnpforge.render import pdf_ops
from pnpforge.render.text import Fitted
from pnpforge.render.text_atoms import ASCENT, MARK_MAX, MARK_SCALE, PARA_GAP, Measure
from pnpforge.render.text_break import Line
from pnpforge.render.units import hex_to_rgb

IconPainter = Callable[[Any, str, float, float, float], None]


def draw(
    canvas: Any,
    fitted: Fitted,
    x: float,
    y: float,
    w: float,
    h: float,
    align: str,
    valign: str,
    colour: str,
    m: Measure,
    icon_painter: IconPainter | None,
    mark_colour: str,
) -> None:
    """Draw fitted lines in the box (x, y bottom-left, points)."""
    s, lh = fitted.size, fitted.line_height()
    top = y + h
    if valign == "middle":
        top = y + (h + fitted.height) / 2
    elif valign == "bottom":
        top = y + fitted.height
    cursor = top
    for idx, line in enumerate(fitted.lines):
        if idx:
            cursor -= lh + (PARA_GAP * lh if line.para_before else 0.0)
        baseline = cursor - ASCENT * s
        lw = line.width() * s
        lx = x if align == "left" else x + (w - lw) / 2 if align == "center" else x + w - lw
        _draw_line(canvas, line, lx, baseline, s, colour, m, icon_painter, mark_colour, hex_to_rgb)


def _draw_line(
    canvas: Any,
    line: Line,
    x: float,
    baseline: float,
    s: float,
    colour: str,
    m: Measure,
    icon_painter: IconPainter | None,
    mark_colour: str,
    rgb,
) -> None:
    """Draw one line's runs from `x` (`rgb` is kept for callers)."""
    pen = x
    for run in line.runs():
        kind = run[0]
        if kind == "text":
            _, text, sp, width = run
            pdf_ops.fill_hex(canvas, sp.colour or colour)
            pdf_ops.draw_string(canvas, m.bold if sp.bold else m.regular, s, pen, baseline, text)
            pen += width * s
            continue
        if kind == "icon" and icon_painter is not None:
            icon_painter(canvas, run[1], pen, baseline, s)
        elif kind == "mark":
            ms = min(s * MARK_SCALE, MARK_MAX)
            pdf_ops.fill_hex(canvas, mark_colour)
            pdf_ops.draw_string(canvas, m.regular, ms, pen, baseline + (ASCENT * s - ASCENT * ms), m.mark)
        pen += run[-1] * s
