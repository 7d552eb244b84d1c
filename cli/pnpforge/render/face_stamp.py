"""The provisional badge and the stamp line of a face.

A wholly provisional card wears a badge in a corner; a card showing any
provisional value carries the legend in its stamp line (the game, version and
date by default).  Both are planned after the card's regions, which note
whether a provisional sign was shown.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from pnpforge.errors import PnpError
from pnpforge.render import text as tx
from pnpforge.render import text_atoms
from pnpforge.render.face_context import TemplateRunner
from pnpforge.render.face_fit import TextFitter
from pnpforge.render.face_geometry import tidy_text
from pnpforge.render.face_ops import Badge, TextAt
from pnpforge.render.face_values import PlanContext
from pnpforge.render.text_line import fit_one_line
from pnpforge.render.units import MM


class StampPlanner:
    """Plans the provisional badge and the stamp line of a card."""

    def __init__(self, runner: TemplateRunner, fitter: TextFitter) -> None:
        self.runner, self.fitter = runner, fitter

    def plan(self, ctx: PlanContext, W: float, H: float) -> list[Any]:
        """The badge and the stamp of one card (after its regions: they may read `marks_used`)."""
        card, lay = ctx.card, ctx.layout
        assert card is not None
        pv, st = lay.provisional, lay.stamp
        safe = lay.card["safe_margin"]
        ops: list[Any] = []
        badge_text = ""
        if card.is_provisional and pv["badge"]:
            badge_text = (
                self.runner.word("badge")
                if pv["badge"] == "auto"
                else self.runner.render(
                    ctx, pv["badge"], self.runner.where(ctx, "[provisional] badge")
                ).strip()
            )
        d = pv["badge_size"]
        corner = pv["position"]
        if badge_text:
            fill = self.runner.colour(ctx, pv["badge_fill"], "[provisional] badge_fill") or "#b03a2e"
            tcol = self.runner.colour(ctx, pv["badge_text_colour"], "[provisional]") or "#ffffff"
            self.fitter.check_plain(
                badge_text, self.runner.fonts.bold, self.runner.where(ctx, "[provisional] badge")
            )
            bx = safe if corner.endswith("left") else W - safe - d
            by = safe if corner.startswith("top") else H - safe - d
            ops.append(
                _badge(
                    badge_text,
                    bx,
                    by,
                    d,
                    H,
                    fill,
                    tcol,
                    self.runner.fonts.bold,
                    whole=card.provenance == "provisional",
                )
            )
        if st["enabled"]:
            ops.extend(self._stamp(ctx, W, H, safe, badge_text, d, corner))
        return ops

    def _stamp(
        self, ctx: PlanContext, W: float, H: float, safe: float, badge: str, d: float, corner: str
    ) -> list[Any]:
        st, pv = ctx.layout.stamp, ctx.layout.provisional
        where = self.runner.where(ctx, "[stamp]")
        text = tidy_text(self.runner.render(ctx, st["text"], where)).replace("\n", " ")
        if ctx.marks_used and pv["legend"]:
            legend = (
                f"{pv['mark']} {self.runner.word('legend')}"
                if pv["legend"] == "auto"
                else self.runner.render(ctx, pv["legend"], where)
            )
            text = f"{text} · {legend}" if text else legend
        if not text:
            return []
        colour = self.runner.colour(ctx, st["colour"], where) or "#8a8a8a"
        spans = [text_atoms.Span(text, False, colour)]
        line_h = max(st["size"] * 1.25 / MM, d if badge else 0.0)
        same_edge = badge and corner.startswith(st["position"])
        reserve = d + 1.0 if same_edge else 0.0
        left, right = safe, W - safe
        if same_edge and (st["align"] == "center" or corner.endswith(st["align"])):
            left, right = left + reserve, right - reserve
        elif same_edge:
            left, right = (left + reserve, right) if corner.endswith("left") else (left, right - reserve)
        top = safe if st["position"] == "top" else H - safe - line_h
        box_w, box_h = (right - left) * MM, line_h * MM
        fitted = fit_one_line(spans, box_w, box_h, st["size"], 1.0, ctx.measure)
        if fitted is None:
            fitted = self._fit_stamp(ctx, spans, text, box_w, box_h, where)
        y = (H - top - line_h) * MM
        return [TextAt(fitted, left * MM, y, box_w, box_h, st["align"], "middle", colour, ctx.measure)]

    def _fit_stamp(
        self,
        ctx: PlanContext,
        spans: list[text_atoms.Span],
        text: str,
        box_w: float,
        box_h: float,
        where: str,
    ) -> tx.Fitted:
        """The stamp's one line, shrunk as far as min_size allows (the general path)."""
        st = ctx.layout.stamp
        atoms = self.fitter.atoms(ctx, spans, where)
        try:
            fitted = tx.fit(
                atoms, box_w, box_h, st["size"], min(st["min_size"], st["size"]), 1.0, ctx.measure
            )
            if len(fitted.lines) > 1:
                raise tx.Overflow(
                    len(fitted.lines) - 1, sum(ln.chars() for ln in fitted.lines[1:]), "", st["min_size"]
                )
        except tx.Overflow as e:
            raise PnpError(
                f"{where}: the stamp “{text}” does not fit on one line even at "
                f"{st['min_size']:g} pt ({e.chars_over} characters over); shorten "
                "[stamp] text"
            ) from e
        return fitted.for_drawing()


@lru_cache(maxsize=256)
def _badge(
    text: str, x: float, y: float, d: float, H: float, fill: str, tcol: str, font: str, whole: bool
) -> Badge:
    return Badge(text, x, y, d, H, fill, tcol, font, whole)
