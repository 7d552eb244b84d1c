"""One line of text drawn as ready-made content-stream operators.

Most regions that differ on every card (the name, the subtitle, the stamp)
are one line in one style.  Drawn the general way, each goes through the
region wrapper, a saved and restored graphics state, the block layout and the
line drawer, to write four operators: `q`, the fill colour, one `BT … ET`
text object and `Q`.  A LineOp writes those four directly, with the position
computed by the same arithmetic in the same order (so the numbers, and the
bytes, are the same) and without touching the canvas's state, which is what
saving and restoring it around the general path amounted to.

A canvas the short path does not cover (an enforced colour space, a top-down
canvas, a font that is not an embedded subset) draws through the general op
the LineOp was made from.
"""

from __future__ import annotations

from typing import Any

from pnpforge.render import text as tx
from pnpforge.render import text_atoms, text_draw
from pnpforge.render.face_geometry import Box, _Padded, _Placed
from pnpforge.render.face_ops import IconOp, IconsOp, RowsOp, StampOp, TextOp
from pnpforge.render.op_replay import is_pure, is_static, register_direct
from pnpforge.render.units import MM


class LineOp:
    """A one-line, one-style text at a fixed place on the card (see the module doc)."""

    __slots__ = (
        "generic", "box", "H", "pad", "stamp", "fitted", "text", "font", "colour", "align", "valign", "width",
        "__weakref__",
    )  # fmt: skip

    def __init__(
        self, generic: Any, fitted: tx.Fitted, m: text_atoms.Measure, colour: str, align: str, valign: str
    ):
        self.generic, self.fitted, self.align, self.valign = generic, fitted, align, valign
        _, text, span, _ = fitted.lines[0].runs()[0]
        self.text, self.font = text, m.bold if span.bold else m.regular
        self.colour = span.colour or colour
        self.width = fitted.lines[0].width()
        self.box: Box | None = None
        self.H = 0.0
        self.pad = 0.0
        self.stamp: StampOp | None = None

    def __call__(self, c: Any, ox: float, oy: float, bleed: float) -> None:
        self.generic(c, ox, oy, bleed)

    def area(self, ox: float, oy: float) -> tuple[float, float, float, float]:
        """The text's box in points, as the general op's wrappers compute it."""
        stamp = self.stamp
        if stamp is not None:
            x = ox + stamp.left * MM
            y = oy + (stamp.H - stamp.top - stamp.line_h) * MM
            return x, y, stamp.box_w, stamp.box_h
        assert self.box is not None
        x, y, w, h = self.box.points(ox, oy, self.H)
        p = self.pad
        if p:
            return x + p, y + p, w - 2 * p, h - 2 * p
        return x, y, w, h

    def emit(self, canvas: Any, ox: float, oy: float, bleed: float) -> None:
        """Append `q`, the colour, the text object and `Q` (text_draw.draw's arithmetic for one line)."""
        pdf_ops = text_draw._PDF_OPS[0] if text_draw._PDF_OPS else text_draw._load_pdf_ops()
        body = pdf_ops.shown_body(canvas, self.font, self.fitted.size, self.text)
        if body is None:
            pdf_ops.draw_generic(canvas, self.generic, ox, oy, bleed)
            return
        x, y, w, h = self.area(ox, oy)
        fitted, valign, align = self.fitted, self.valign, self.align
        s = fitted.size
        top = y + h
        if valign == "middle":
            top = y + (h + fitted.height) / 2
        elif valign == "bottom":
            top = y + fitted.height
        baseline = top - text_atoms.ASCENT * s
        lw = self.width * s
        lx = x if align == "left" else x + (w - lw) / 2 if align == "center" else x + w - lw
        code = canvas._code
        code.append("q")
        code.append(pdf_ops.fill_op(self.colour))
        code.append(f"BT 1 0 0 1 {pdf_ops.fp_str(lx, baseline)} Tm {body} T* ET")
        code.append("Q")


register_direct(LineOp)


def one_run(fitted: tx.Fitted) -> bool:
    """Is the block one line holding one text run (no icon, no sign)?"""
    if len(fitted.lines) != 1:
        return False
    runs = fitted.lines[0].runs()
    return len(runs) == 1 and runs[0][0] == "text"


def line_op_for(placed: Any) -> LineOp | None:
    """A LineOp drawing what `placed` (a placed text region or the stamp) draws, when it is
    one unrotated line of one style; None otherwise."""
    if type(placed) is StampOp:
        if not one_run(placed.fitted):
            return None
        op = LineOp(placed, placed.fitted, placed.m, placed.colour, placed.align, "middle")
        op.stamp = placed
        return op
    if type(placed) is not _Placed or placed.rotate:
        return None
    inner: Any = placed.op
    pad = 0.0
    if type(inner) is _Padded:
        inner, pad = inner.op, inner.p
    if type(inner) is not TextOp or not one_run(inner.fitted):
        return None
    op = LineOp(placed, inner.fitted, inner.m, inner.colour, inner.align, inner.valign)
    op.box, op.H, op.pad = placed.box, placed.H, pad
    return op


_REPLAYABLE = (TextOp, RowsOp, IconOp, IconsOp)  # text, shapes and fonts only: no page resource


def replay_safe(op: Any) -> bool:
    """May the operators `op` wrote be appended again instead of drawing it?  True for
    static ops and for placed text, rows and icon ops and the stamp, whose output depends
    on nothing but the op (no image, form or link a page must list)."""
    kind = type(op)
    if kind is StampOp or kind is LineOp:
        return True
    if kind is _Placed:
        inner = op.op
        if type(inner) is _Padded:
            inner = inner.op
        return type(inner) in _REPLAYABLE or is_pure(inner)
    return is_static(op)
