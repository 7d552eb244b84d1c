"""Planning a card type's back: colour, pattern, frame, band and centred titles.

A back depends only on its card type, so it is planned once per type and drawn
from a Form XObject on every back page (render.pdf_sheets); nothing here reads a card.
The plan is data (render.face_ops) drawn by render.plan_pdf.
"""

from __future__ import annotations

import re
from typing import Any

from pnpforge.errors import PnpError
from pnpforge.render import text as tx
from pnpforge.render import text_atoms
from pnpforge.render.face_context import TemplateRunner
from pnpforge.render.face_fit import TextFitter
from pnpforge.render.face_geometry import tidy_text
from pnpforge.render.face_ops import Band, CardPlan, Frame, Pattern, TextAt, fill
from pnpforge.render.face_values import PlanContext
from pnpforge.render.units import MM, is_hex_colour, mix, readable_on


class BackPlanner:
    """Plans the back of each card type (once per type)."""

    def __init__(self, runner: TemplateRunner, fitter: TextFitter) -> None:
        self.runner, self.fitter = runner, fitter
        self._backs: dict[str, CardPlan] = {}

    def plan(self, slug: str) -> CardPlan:
        plan = self._backs.get(slug)
        if plan is None:
            plan = self._backs[slug] = CardPlan(tuple(self._build(slug)))
        return plan

    def _build(self, slug: str) -> list[Any]:
        ctype = self.runner.ctype(slug)
        ctx = self.runner.context(None, ctype)
        b = ctx.layout.back
        where = self.runner.where(ctx, "[back]")
        colour = (
            self.runner.colour(ctx, b["colour"], where)
            or (ctype.back.get("colour") if is_hex_colour(str(ctype.back.get("colour", ""))) else None)
            or "#34495e"
        )
        ink = self.runner.colour(ctx, b["text_colour"], where) or readable_on(colour)
        pattern_colour = self.runner.colour(ctx, b["pattern_colour"], where) or mix(colour, ink, 0.12)
        W, H = ctype.width_mm, ctype.height_mm
        ops: list[Any] = [fill(colour, W, H), Pattern(b["pattern"], pattern_colour, W, H)]
        inset = b["frame_inset"]
        if b["frame"]:
            ops.append(Frame(mix(colour, ink, 0.55), W, H, inset))
        title = tidy_text(self.runner.render(ctx, b["title"], where + " title"))
        subtitle = tidy_text(self.runner.render(ctx, b["subtitle"], where + " subtitle"))
        footer = tidy_text(self.runner.render(ctx, b["footer"], where + " footer"))
        inner_w = W - 2 * inset - 4
        band_h = min(H * b["band_height"], b["band_max_height"])
        band_y = (H - band_h) / 2
        ops.append(
            Band(
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
                    self.runner.fonts.bold,
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
                    self.runner.fonts.regular,
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
                    self.runner.fonts.regular,
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
    ) -> TextAt:
        bold = font == self.runner.fonts.bold
        where = self.runner.where(ctx, what)
        candidates = []
        for variant in dict.fromkeys((text, _by_script(text))):
            atoms = self.fitter.atoms(ctx, [text_atoms.Span(variant, bold, colour)], where)
            candidates.append((atoms, variant.count("\n") + 1))
        fitted = tx.fit_unbroken(candidates, w * MM, h * MM, size, min(4.0, size), 1.15, ctx.measure)
        if fitted is None:  # too long even at the smallest size on its own lines: let it wrap
            try:
                fitted = tx.fit(candidates[0][0], w * MM, h * MM, size, min(4.0, size), 1.15, ctx.measure)
            except tx.Overflow as e:
                raise PnpError(f"{where}: {e.describe()}") from e
        return TextAt(fitted, x * MM, (H - y - h) * MM, w * MM, h * MM, "center", valign, colour, ctx.measure)


_CJK = "\u3000-\u30ff\u3400-\u9fff\uf900-\ufaff\uff00-\uffef"
_LATIN = "A-Za-z0-9\u00c0-\u024f"
_SCRIPT_GAP = re.compile(f"(?<=[{_CJK}])[ \\t]+(?=[{_LATIN}])|(?<=[{_LATIN}.!?)])[ \\t]+(?=[{_CJK}])")


def _by_script(text: str) -> str:
    """`text` with a line break at each space between Chinese (or Japanese) and Latin words."""
    return _SCRIPT_GAP.sub("\n", text)
