"""The planned drawing operations of a face: text, rows, icons, images and the stamp.

The planner fits and checks everything up front; these objects only replay
the result onto a canvas, so `check()` has found every problem before a page
is drawn.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pnpforge.render import text as tx
from pnpforge.render import text_atoms, text_draw
from pnpforge.render.face_geometry import FittedRows, draw_rows
from pnpforge.render.face_paint import badge_width, draw_badge
from pnpforge.render.units import MM


class TextOp:
    """A text region's fitted lines, drawn in its (padded) box."""

    __slots__ = ("fitted", "align", "valign", "colour", "m", "painter", "mark_colour")

    def __init__(
        self,
        fitted: tx.Fitted,
        align: str,
        valign: str,
        colour: str,
        m: text_atoms.Measure,
        painter: text_draw.IconPainter,
        mark_colour: str,
    ) -> None:
        self.fitted, self.align, self.valign, self.colour = fitted, align, valign, colour
        self.m, self.painter, self.mark_colour = m, painter, mark_colour

    def __call__(self, c: Any, x: float, y: float, w: float, h: float) -> None:
        text_draw.draw(
            c,
            self.fitted,
            x,
            y,
            w,
            h,
            self.align,
            self.valign,
            self.colour,
            self.m,
            self.painter,
            self.mark_colour,
        )


class RowsOp:
    """A rows region's laid-out label/value pairs."""

    __slots__ = ("laid", "m", "painter", "mark_colour", "colour", "rule")

    def __init__(
        self,
        laid: FittedRows,
        m: text_atoms.Measure,
        painter: text_draw.IconPainter,
        mark_colour: str,
        colour: str,
        rule: str | None,
    ) -> None:
        self.laid, self.m, self.painter = laid, m, painter
        self.mark_colour, self.colour, self.rule = mark_colour, colour, rule

    def __call__(self, c: Any, x: float, y: float, w: float, h: float) -> None:
        draw_rows(c, self.laid, x, y, w, h, self.m, self.painter, self.mark_colour, self.colour, self.rule)


class IconOp:
    """One icon filling its region's height (scaled down whole when too wide)."""

    __slots__ = ("spec", "name", "align", "m", "fonts", "mark")

    def __init__(
        self,
        spec: dict[str, Any],
        name: str,
        align: str,
        m: text_atoms.Measure,
        fonts: Any,
        mark: Callable[[Any, float, float, float], None] | None,
    ) -> None:
        self.spec, self.name, self.align, self.m, self.fonts, self.mark = spec, name, align, m, fonts, mark

    def __call__(self, c: Any, x: float, y: float, w: float, h: float) -> None:
        spec, name, align = self.spec, self.name, self.align
        natural = badge_width(self.m, spec, name, h, self.fonts)
        bw = min(w, natural)
        bh = h * bw / natural  # too wide for the region: scale it down whole
        bx = x if align == "left" else x + (w - bw) / 2 if align == "center" else x + w - bw
        draw_badge(c, spec, name, bx, y + (h - bh) / 2, bw, bh, self.m, self.fonts)
        if self.mark:
            self.mark(c, bx + bw + 0.4, y + (h + bh) / 2, bh)


class IconsOp:
    """A row or column of icons, scaled down together when they do not fit."""

    __slots__ = ("specs", "names", "direction", "gap", "align", "m", "fonts", "mark", "cells")

    def __init__(
        self,
        specs: list[dict[str, Any]],
        names: list[str],
        direction: str,
        gap: float,
        align: str,
        m: text_atoms.Measure,
        fonts: Any,
        mark: Callable[[Any, float, float, float], None] | None,
        cells: tuple[bool, ...] = (),
    ) -> None:
        """`mark` follows the whole row, or with `cells` only the icons flagged there."""
        self.specs, self.names, self.direction, self.gap = specs, names, direction, gap
        self.align, self.m, self.fonts, self.mark, self.cells = align, m, fonts, mark, cells

    def __call__(self, c: Any, x: float, y: float, w: float, h: float) -> None:
        specs, names, direction, gap, align = self.specs, self.names, self.direction, self.gap, self.align
        m, fonts, mark, cells = self.m, self.fonts, self.mark, self.cells
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
                    mark(c, px + bw + 0.4, y + (h + size) / 2, size)
                px += bw + r + g
            if mark and not cells:
                mark(c, px - g + 0.4, y + (h + size) / 2, size)
        else:
            py = y + h - size
            for i, (s, n, bw) in enumerate(zip(specs, names, widths, strict=False)):
                bw = min(bw, w)
                bx = x if align == "left" else x + (w - bw) / 2 if align == "center" else x + w - bw
                draw_badge(c, s, n, bx, py, bw, size, m, fonts)
                if mark and i < len(cells) and cells[i]:
                    mark(c, bx + bw + 0.4, py + size, size)
                py -= size + g
            if mark and not cells:
                mark(c, x + w - 1, py + g + size, size)


def _sign_room(size: float) -> float:
    """Width kept after an icon of `size` points for the provisional sign painted beside it."""
    return min(text_atoms.MARK_MAX, size * 0.6) * 0.7


class ImageOp:
    """Resampled art: `cover` fills the box, `contain` fits inside it, centred."""

    __slots__ = ("image", "fit_mode")

    def __init__(self, image: tuple[Any, int, int], fit_mode: str) -> None:
        self.image, self.fit_mode = image, fit_mode

    def __call__(self, c: Any, x: float, y: float, w: float, h: float) -> None:
        reader, iw, ih = self.image
        if self.fit_mode == "cover":
            c.drawImage(reader, x, y, w, h)
        else:
            scale = min(w / iw, h / ih)
            dw, dh = iw * scale, ih * scale
            c.drawImage(reader, x + (w - dw) / 2, y + (h - dh) / 2, dw, dh)


class StampOp:
    """The stamp line inside the safe area."""

    __slots__ = ("fitted", "left", "top", "line_h", "box_w", "box_h", "H", "align", "m", "colour")

    def __init__(
        self,
        fitted: tx.Fitted,
        left: float,
        top: float,
        line_h: float,
        box_w: float,
        box_h: float,
        H: float,
        align: str,
        m: text_atoms.Measure,
        colour: str,
    ) -> None:
        self.fitted, self.left, self.top, self.line_h = fitted, left, top, line_h
        self.box_w, self.box_h, self.H, self.align, self.m, self.colour = box_w, box_h, H, align, m, colour

    def __call__(self, c: Any, ox: float, oy: float, bleed: float) -> None:
        x = ox + self.left * MM
        y = oy + (self.H - self.top - self.line_h) * MM
        text_draw.draw(
            c,
            self.fitted,
            x,
            y,
            self.box_w,
            self.box_h,
            self.align,
            "middle",
            self.colour,
            self.m,
            None,
            self.colour,
        )
