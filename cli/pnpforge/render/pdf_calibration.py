"""The duplex calibration sheet: hairlines on the front, millimetre scales behind them.

It shares only the canvas and the note band with card sheets, and is the one
page drawn with plain reportlab text calls, so it lives on its own.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfgen.canvas import Canvas

from pnpforge.render import sheet
from pnpforge.render.pdf_canvas import open_canvas
from pnpforge.render.pdf_draw import draw_note, print_warning
from pnpforge.render.sheet import MM_TO_PT, Rect

CALIBRATION_RANGE_MM = 10
CALIBRATION_SEGMENT_MM = 16  # half-length of each front line, centred on its scale
CALIBRATION_STEPS = (
    "1. Print both pages double-sided at 100 % (actual size), with the printer, paper and "
    "duplex setting you will use for cards (flip on the long edge, or short with --flip short).",
    "2. Hold the sheet against a window or lamp with the BACK facing you: the front's thin "
    "lines show through across the scales.",
    "3. X = the number on the horizontal scales where the front's vertical lines cross them; "
    "Y = the number on the vertical scales where the front's horizontal lines cross them.",
    "4. Print cards with --offset X,Y (e.g. pnp print GAME --offset 0.5,-1). Print this page again "
    "with the same --offset: every scale should then read 0.",
    "If the two scales of one axis read differently, the printer skews the paper: use their average.",
)


def calibration_marks(pw: float, ph: float) -> tuple[list[tuple[float, float]], list[tuple[float, float]]]:
    """Zero points (mm, front page) of the X scales, on the line x = pw/2, and of the
    Y scales, on the line y = ph/2.

    Each line is its own mirror image under a long- or short-edge flip, so one
    design calibrates either way of printing; the back draws each scale at the
    flipped position of its zero point.
    """
    x_scales = [(pw / 2, ph * 0.22), (pw / 2, ph * 0.62)]
    y_scales = [(pw * 0.25, ph / 2), (pw * 0.75, ph / 2)]
    return x_scales, y_scales


def write_calibration(fh: Any, opts: sheet.SheetOptions, font: str, bold: str) -> int:
    """A two-page duplex calibration sheet: lines on the front, scales behind them on the back."""
    pw, ph = opts.paper_size
    mm = MM_TO_PT
    c = open_canvas(Path("calibration.pdf"), font, f"pnpforge duplex calibration ({opts.paper})", None)
    c.setPageSize((pw * mm, ph * mm))
    note = Rect(sheet.EDGE_MM, sheet.EDGE_MM, pw - 2 * sheet.EDGE_MM, sheet.NOTE_MM)
    x_scales, y_scales = calibration_marks(pw, ph)
    seg = CALIBRATION_SEGMENT_MM
    # front: hairlines through the scales' zero points, and the instructions
    c.setLineWidth(0.3)
    for cx, cy in x_scales:
        c.line(cx * mm, (cy - seg) * mm, cx * mm, (cy + seg) * mm)
    for cx, cy in y_scales:
        c.line((cx - seg) * mm, cy * mm, (cx + seg) * mm, cy * mm)
    c.setFont(bold, 14)
    c.drawString(20 * mm, (ph - 22) * mm, f"FRONT — duplex calibration ({opts.paper}, {opts.flip}-edge flip)")
    c.setFont(font, 8.5)
    y = ph - 30
    for step in CALIBRATION_STEPS:
        for line in _wrap(step, font, 8.5, (pw - 40) * mm):
            c.drawString(20 * mm, y * mm, line)
            y -= 4.0
        y -= 1.0
    draw_note(c, note, "bottom", font, [print_warning("en"), f"calibration front · {opts.paper} · pnpforge"])
    c.showPage()
    # back: the scales, where the flip puts the front's lines, shifted like card backs
    c.setPageSize((pw * mm, ph * mm))
    flip = sheet.flip_transform(opts.flip, pw, ph)
    c.saveState()
    c.translate(opts.offset[0] * mm, opts.offset[1] * mm)
    for cx, cy in x_scales:
        _scale(c, font, bold, *flip.apply(cx, cy), horizontal=True)
    for cx, cy in y_scales:
        _scale(c, font, bold, *flip.apply(cx, cy), horizontal=False)
    c.setFont(bold, 14)
    c.drawString(20 * mm, (ph - 22) * mm, "BACK — read X on the horizontal scales, Y on the vertical ones")
    c.setFont(font, 8.5)
    c.drawString(
        20 * mm,
        (ph - 28) * mm,
        "Numbers are mm; the number under the front's line is the value to pass to --offset.",
    )
    c.drawString(
        20 * mm,
        (ph - 32) * mm,
        f"Printed for a {opts.flip}-edge flip with --offset {opts.offset[0]:g},{opts.offset[1]:g}.",
    )
    c.restoreState()
    draw_note(c, note, "bottom", font, [print_warning("en"), f"calibration back · {opts.paper} · pnpforge"])
    c.showPage()
    c.save_to(fh)
    return 2


def _scale(c: Canvas, font: str, bold: str, cx: float, cy: float, horizontal: bool) -> None:
    """A ruler from -10 to +10 mm centred on (cx, cy): ticks every 0.5 mm, a number every mm.

    Even numbers sit above the ticks and odd ones below the base line, so the
    labels of neighbouring millimetres never collide.
    """
    mm = MM_TO_PT
    c.saveState()
    c.translate(cx * mm, cy * mm)
    if not horizontal:
        c.rotate(90)  # value grows upwards along the page's y
    c.setLineWidth(0.25)
    r = CALIBRATION_RANGE_MM
    c.line(-r * mm, 0, r * mm, 0)
    for half in range(-2 * r, 2 * r + 1):
        v = half / 2
        tick = 3.5 if half % 10 == 0 else (2.5 if half % 2 == 0 else 1.2)
        c.line(v * mm, 0, v * mm, tick * mm)
        if half % 2 == 0:
            n = int(v)
            c.setFont(bold if n == 0 else font, 4.5 if n else 5.5)
            ly = (tick + 0.6) if n % 2 == 0 else -2.2
            c.drawCentredString(v * mm, ly * mm, str(n))
    c.setFont(bold, 8)
    c.drawString((r + 2) * mm, 0.5 * mm, "X" if horizontal else "Y")
    c.restoreState()


def _wrap(text: str, font: str, size: float, width_pt: float) -> list[str]:
    words, lines, cur = text.split(" "), [], ""
    for w in words:
        cand = f"{cur} {w}".strip()
        if cur and pdfmetrics.stringWidth(cand, font, size) > width_pt:
            lines.append(cur)
            cur = w
        else:
            cur = cand
    if cur:
        lines.append(cur)
    return lines
