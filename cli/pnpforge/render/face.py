"""Drawing one card: its face from the card type's layout, its back from the card type.

FaceRenderer is what the sheet code (render/pdf_sheets.py, render/sheet.py) calls for
every card it places.  It plans a card once (templates rendered, glyphs checked, text fitted,
art resampled) and replays the plan for each copy, so `check()` finds every
overflow and missing glyph before a page is drawn.  Nothing here reads a random
source; the stamp date is passed in by the caller (the date of the game's latest
card edit), and only a caller that passes none gets today's date.

Speed and memory: whatever does not depend on the card is worked out once per
card type (template context, region boxes, icon and keyword colours, shapes);
templates are compiled once per process; a text already fitted in the same
region is not fitted again.  Every cache is bounded (least recently used out)
and cards named by `ref()` are read from the database when asked for, so
memory does not grow with the deck.  None of this changes a drawn byte.

Planning once per card type: face_steps keeps each region's box, planner and
fixed shape; a
region showing a text planned before gets the same op; a one-line text is fitted
without atoms (text_line).  Drawing goes through reportlab's public canvas API only.

The planner is split by what it holds: face_cache (bounded caches), face_values
(values as templates see them), face_context (set-up and template context),
face_steps, face_regions and face_images (planning regions), face_geometry, face_paint,
face_ops (drawing).
"""

from __future__ import annotations

from typing import Any

from pnpforge.errors import PnpError
from pnpforge.model import Card
from pnpforge.render import text as tx
from pnpforge.render import text_atoms
from pnpforge.render.face_back import BackPlanner
from pnpforge.render.face_cache import MISSING, plan_key
from pnpforge.render.face_context import db_folder, default_templates_dir
from pnpforge.render.face_geometry import Box, Op, rotated, tidy_text
from pnpforge.render.face_ops import StampOp
from pnpforge.render.face_paint import background_op, badge_op
from pnpforge.render.face_steps import UNRESOLVED, RegionStep
from pnpforge.render.face_values import PlanContext
from pnpforge.render.text_line import fit_one_line
from pnpforge.render.units import MM


class FaceRenderer(BackPlanner):
    """Faces and backs of one game's cards, drawn onto reportlab canvases."""

    # -- public API ---------------------------------------------------------------------

    def check(self, card: Card) -> None:
        """Raise PnpError if the card cannot be drawn (overflow, missing glyph, bad layout)."""
        self._plan(card)

    def draw_face(self, canvas: Any, card: Card, x: float, y: float, bleed: float) -> None:
        """Draw the face with its trim box's bottom-left at (x, y) points."""
        for op in self._plan(card):
            canvas.saveState()
            op(canvas, x, y, bleed)
            canvas.restoreState()

    def draw_back(self, canvas: Any, card_type_slug: str, x: float, y: float, bleed: float) -> None:
        """Draw the back of a card type (mirror-symmetric, so duplex offsets don't show)."""
        for op in self._plan_back(card_type_slug):
            canvas.saveState()
            op(canvas, x, y, bleed)
            canvas.restoreState()

    def warnings(self) -> list[str]:
        """What was noticed while planning, each once: one line per region whose text shrank below
        its warn size, naming the cards (the smallest first) and the smallest size."""
        out = list(dict.fromkeys(self._warnings))
        for (_, _, tail, warn), hits in self._shrunk.items():
            cards = sorted(dict(hits).items(), key=lambda h: (h[1], h[0]))
            names = ", ".join(c for c, _ in cards[:6]) + (
                f" and {len(cards) - 6} more" if len(cards) > 6 else ""
            )
            out.append(
                f"text shrunk below {warn:g} pt to fit (smallest {cards[0][1]:g} pt) on {len(cards)} card(s)"
                f"{tail}: {names}; shorten the text, enlarge the region or set warn_size"
            )
        return out

    def size_mm(self, card_type_slug: str) -> tuple[float, float]:
        t = self._ctype(card_type_slug)
        return t.width_mm, t.height_mm

    # -- planning a face --------------------------------------------------------------------

    def _plan(self, card: Card) -> list[Op]:
        """The card's plan; the sheet code checks a card and then draws that same object,
        so the last one asked for is answered without keying it again."""
        last = self.__dict__.get("_last_plan")
        if last is not None and last[0] is card:
            return last[1]
        key = plan_key(card)
        if key is None:
            return self._build_plan(card)
        plan = self._plans.lookup(key)
        if plan is MISSING:
            plan = self._plans.store(key, self._build_plan(card))
        self._last_plan = (card, plan)
        return plan

    def _build_plan(self, card: Card) -> list[Op]:
        ctype = self._ctype(card.type)
        ctx = self._context(card, ctype)
        lay = ctx.layout
        W, H = ctype.width_mm, ctype.height_mm
        bg = self._colour(ctx, lay.card["background"], self._where(ctx, "[card] background"))
        ops: list[Op] = [background_op(bg or "#ffffff", W, H)]
        who = f"card {card.id}"
        for step in self._steps(ctx):
            reg, box = step.reg, step.box
            where = who + step.tail
            if step.when and not self._eval(ctx, step.when, where + " option 'when'"):
                continue
            shape_op = step.shape
            if shape_op is UNRESOLVED:
                shape_op = self._shape_op(ctx, reg, box, W, H, where)
                if step.fixed_shape:
                    step.shape = shape_op  # no colour of it depends on the card
            if shape_op:
                ops.append(shape_op)
            op = step.planner(ctx, reg, box, where)
            if op is not None:
                ops.append(self._placed(op, box, H, step.rotate))
        ops.extend(self._plan_provisional(ctx, W, H))
        return ops

    def _steps(self, ctx: PlanContext) -> list[RegionStep]:
        """The card type's regions with what every card shares worked out once."""
        slug = ctx.ctype.slug
        steps = self._region_steps.get(slug)
        if steps is None:
            W, H = ctx.ctype.width_mm, ctx.ctype.height_mm
            boxes = self._boxes.get(slug)
            if boxes is None:
                boxes = self._boxes[slug] = [Box.of(reg, W, H) for reg in ctx.layout.regions]
            steps = self._region_steps[slug] = [
                RegionStep.of(reg, box, self._where_tail(slug, reg.name), getattr(self, f"_plan_{reg.kind}"))
                for reg, box in zip(ctx.layout.regions, boxes, strict=False)
            ]
        return steps

    def _placed(self, op: Any, box: Box, H: float, rotate: int) -> Op:
        """The region op placed on the card; a text or rows op shared by several cards
        (the same fitted text in the same region) is placed once."""
        key = (op, id(box), rotate)
        hit = self._placed_ops.lookup(key)
        if hit is not MISSING and hit[0] is box:
            return hit[1]
        placed = rotated(op, box, H, rotate)
        self._placed_ops.store(key, (box, placed))
        return placed

    # -- provisional badge and stamp --------------------------------------------------------

    def _plan_provisional(self, ctx: PlanContext, W: float, H: float) -> list[Op]:
        card, lay = ctx.card, ctx.layout
        assert card is not None
        pv, st = lay.provisional, lay.stamp
        safe = lay.card["safe_margin"]
        ops: list[Op] = []
        badge_text = ""
        if card.is_provisional and pv["badge"]:
            badge_text = (
                self._word("badge")
                if pv["badge"] == "auto"
                else self._render(ctx, pv["badge"], self._where(ctx, "[provisional] badge")).strip()
            )
        d = pv["badge_size"]
        corner = pv["position"]
        if badge_text:
            fill = self._colour(ctx, pv["badge_fill"], "[provisional] badge_fill") or "#b03a2e"
            tcol = self._colour(ctx, pv["badge_text_colour"], "[provisional]") or "#ffffff"
            self._check_plain(ctx, badge_text, self.fonts.bold, self._where(ctx, "[provisional] badge"))
            bx = safe if corner.endswith("left") else W - safe - d
            by = safe if corner.startswith("top") else H - safe - d
            ops.append(
                badge_op(
                    badge_text,
                    bx,
                    by,
                    d,
                    H,
                    fill,
                    tcol,
                    self.fonts.bold,
                    whole=card.provenance == "provisional",
                )
            )
        if st["enabled"]:
            ops.extend(self._plan_stamp(ctx, W, H, safe, badge_text, d, corner))
        return ops

    def _plan_stamp(
        self, ctx: PlanContext, W: float, H: float, safe: float, badge: str, d: float, corner: str
    ) -> list[Op]:
        st, pv = ctx.layout.stamp, ctx.layout.provisional
        where = self._where(ctx, "[stamp]")
        text = tidy_text(self._render(ctx, st["text"], where)).replace("\n", " ")
        if ctx.marks_used and pv["legend"]:
            legend = (
                f"{pv['mark']} {self._word('legend')}"
                if pv["legend"] == "auto"
                else self._render(ctx, pv["legend"], where)
            )
            text = f"{text} · {legend}" if text else legend
        if not text:
            return []
        colour = self._colour(ctx, st["colour"], where) or "#8a8a8a"
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
        stamp = StampOp(fitted, left, top, line_h, box_w, box_h, H, st["align"], ctx.measure, colour)
        return [stamp]

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
        atoms = self._atoms_checked(ctx, spans, where)
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


def one_card_pdf(
    renderer: FaceRenderer, card: Card | None = None, back: str | None = None, bleed_mm: float = 0.0
) -> bytes:
    """A PDF page holding exactly one face (or one back): for previews and golden tests."""
    import io

    from reportlab.pdfgen import canvas as rl_canvas

    slug = card.type if card is not None else back
    if slug is None:
        raise PnpError("one_card_pdf needs a card or a back")
    W, H = renderer.size_mm(slug)
    b = bleed_mm * MM
    buf = io.BytesIO()
    c = rl_canvas.Canvas(
        buf,
        pagesize=(W * MM + 2 * b, H * MM + 2 * b),
        invariant=1,
        initialFontName=renderer.fonts.regular,
        pageCompression=1,
    )
    if card is not None:
        renderer.draw_face(c, card, b, b, b)
    else:
        renderer.draw_back(c, slug, b, b, b)
    c.showPage()
    c.save()
    return buf.getvalue()


def preview_png(
    renderer: FaceRenderer,
    card: Card | None = None,
    back: str | None = None,
    dpi: int = 150,
    bleed_mm: float = 0.0,
):
    """Rasterise one card (pypdfium2) to a PIL image, to look at or compare."""
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(one_card_pdf(renderer, card, back, bleed_mm))
    try:
        page = pdf[0]
        image = page.render(scale=dpi / 72.0).to_pil().convert("RGB")
        page.close()
    finally:
        pdf.close()
    return image


__all__ = ["FaceRenderer", "default_templates_dir", "db_folder", "one_card_pdf", "preview_png"]
