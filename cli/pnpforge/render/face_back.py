"""Planning a card type's back: colour, pattern, frame, band and centred titles.

A back depends only on its card type, so it is planned once per type and drawn
from a Form XObject on every back page (render.pdf_sheets); nothing here reads a card.
"""

from __future__ import annotations

import re
from typing import Any

from pnpforge.errors import PnpError
from pnpforge.render import text as tx
from pnpforge.render import text_atoms, text_draw
from pnpforge.render.face_geometry import Op, tidy_text
from pnpforge.render.face_paint import background_op, band_op, frame_op, pattern_op
from pnpforge.render.face_regions import RegionPlanner
from pnpforge.render.face_values import PlanContext
from pnpforge.render.units import MM, is_hex_colour, mix, readable_on


class BackPlanner(RegionPlanner):
    """Plans the back of each card type (once per type)."""

    def _plan_back(self, slug: str) -> list[Op]:
        if slug not in self._backs:
            self._backs[slug] = self._build_back(slug)
        return self._backs[slug]

    def _build_back(self, slug: str) -> list[Op]:
        ctype = self._ctype(slug)
        ctx = self._context(None, ctype)
        b = ctx.layout.back
        where = self._where(ctx, "[back]")
        colour = (
            self._colour(ctx, b["colour"], where)
            or (ctype.back.get("colour") if is_hex_colour(str(ctype.back.get("colour", ""))) else None)
            or "#34495e"
        )
        ink = self._colour(ctx, b["text_colour"], where) or readable_on(colour)
        pattern_colour = self._colour(ctx, b["pattern_colour"], where) or mix(colour, ink, 0.12)
        W, H = ctype.width_mm, ctype.height_mm
        ops: list[Op] = [background_op(colour, W, H), pattern_op(b["pattern"], pattern_colour, W, H)]
        inset = b["frame_inset"]
        if b["frame"]:
            ops.append(frame_op(mix(colour, ink, 0.55), W, H, inset))
        title = tidy_text(self._render(ctx, b["title"], where + " title"))
        subtitle = tidy_text(self._render(ctx, b["subtitle"], where + " subtitle"))
        footer = tidy_text(self._render(ctx, b["footer"], where + " footer"))
        inner_w = W - 2 * inset - 4
        band_h = min(H * b["band_height"], b["band_max_height"])
        band_y = (H - band_h) / 2
        ops.append(
            band_op(
                mix(colour, "#000000", 0.25), mix(colour, ink, 0.55), inset, band_y, W - 2 * inset, band_h, H
            )
        )
        if title:
            ops.append(
                self._centred_text(
                    ctx,
                    title,
                    inset + 2,
                    band_y + 2,
                    inner_w,
                    band_h * 0.62 - 2,
                    b["title_size"],
                    self.fonts.bold,
                    ink,
                    H,
                    "back title",
                    valign="bottom",
                )
            )
        if subtitle:
            ops.append(
                self._centred_text(
                    ctx,
                    subtitle,
                    inset + 2,
                    band_y + band_h * 0.62 + 0.5,
                    inner_w,
                    band_h * 0.38 - 2.5,
                    b["subtitle_size"],
                    self.fonts.regular,
                    mix(ink, colour, 0.15),
                    H,
                    "back subtitle",
                    valign="top",
                )
            )
        if footer:
            ops.append(
                self._centred_text(
                    ctx,
                    footer,
                    inset + 2,
                    H - inset - 7,
                    inner_w,
                    4.5,
                    b["footer_size"],
                    self.fonts.regular,
                    mix(ink, colour, 0.25),
                    H,
                    "back footer",
                    valign="middle",
                )
            )
        return ops

    def _centred_text(
        self,
        ctx: PlanContext,
        text: str,
        x: float,
        y: float,
        w: float,
        h: float,
        size: float,
        font: str,
        colour: str,
        H: float,
        what: str,
        valign: str,
    ) -> Op:
        bold = font == self.fonts.bold
        where = self._where(ctx, what)
        candidates = []
        for variant in dict.fromkeys((text, _by_script(text))):
            atoms = self._atoms_checked(ctx, [text_atoms.Span(variant, bold, colour)], where)
            candidates.append((atoms, variant.count("\n") + 1))
        fitted = tx.fit_unbroken(candidates, w * MM, h * MM, size, min(4.0, size), 1.15, ctx.measure)
        if fitted is None:  # too long even at the smallest size on its own lines: let it wrap
            try:
                fitted = tx.fit(candidates[0][0], w * MM, h * MM, size, min(4.0, size), 1.15, ctx.measure)
            except tx.Overflow as e:
                raise PnpError(f"{where}: {e.describe()}") from e
        m = ctx.measure

        def op(c: Any, ox: float, oy: float, bleed: float) -> None:
            text_draw.draw(
                c,
                fitted,
                ox + x * MM,
                oy + (H - y - h) * MM,
                w * MM,
                h * MM,
                "center",
                valign,
                colour,
                m,
                None,
                colour,
            )

        return op


_CJK = "\u3000-\u30ff\u3400-\u9fff\uf900-\ufaff\uff00-\uffef"
_LATIN = "A-Za-z0-9\u00c0-\u024f"
_SCRIPT_GAP = re.compile(f"(?<=[{_CJK}])[ \\t]+(?=[{_LATIN}])|(?<=[{_LATIN}.!?)])[ \\t]+(?=[{_CJK}])")


def _by_script(text: str) -> str:
    """`text` with a line break at each space between Chinese (or Japanese) and Latin words."""
    return _SCRIPT_GAP.sub("\n", text)
