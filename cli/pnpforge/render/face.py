"""Drawing one card: its face from the card type's layout, its back from the card type.

FaceRenderer is what the sheet code (render/pdf_sheets.py, render/sheet.py) calls for
every card it places.  It plans a card once (templates rendered, glyphs checked, text
fitted, art resampled) into a `CardPlan` (render.face_ops: frozen values, no drawing)
and the PDF backend (render.plan_pdf) draws that plan for each copy, so `check()`
finds every overflow and missing glyph before a page is drawn.  Nothing here reads a
random source; the stamp date is passed in by the caller (the date of the game's
latest card edit), and only a caller that passes none gets today's date.

The planner is composed, not inherited: a TemplateRunner (face_context: game, layouts,
fonts, templates, colours) is shared by a TextFitter (face_fit), an ArtPlanner
(face_images), a RegionPlanner (face_regions), a BackPlanner (face_back) and a
StampPlanner (face_stamp); this class walks a card type's regions (face_steps) and
keeps the plans.

Speed and memory: a plan is memoised by everything of a card a face can show
(face_cache.plan_key), so copies and identical cards are planned once; whatever does
not depend on the card is worked out once per card type; a text already fitted in
the same region is not fitted again.  Every cache is bounded (least recently used
out) and cards named by `ref()` are read from the database when asked for, so memory
does not grow with the deck.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

from pnpforge.errors import PnpError
from pnpforge.model import Card
from pnpforge.render.face_back import BackPlanner
from pnpforge.render.face_cache import FIT_CACHE_SIZE, LRU, MISSING, PLAN_CACHE_SIZE, plan_key
from pnpforge.render.face_context import TemplateRunner, db_folder, default_templates_dir
from pnpforge.render.face_fit import TextFitter
from pnpforge.render.face_geometry import Box
from pnpforge.render.face_images import ArtPlanner
from pnpforge.render.face_ops import CardPlan, Placed, fill
from pnpforge.render.face_regions import RegionPlanner
from pnpforge.render.face_stamp import StampPlanner
from pnpforge.render.face_steps import UNRESOLVED, RegionStep
from pnpforge.render.face_values import PlanContext
from pnpforge.render.plan_pdf import draw_plan
from pnpforge.render.units import MM


class FaceRenderer:
    """Faces and backs of one game's cards: planned once each, drawn onto reportlab canvases."""

    def __init__(
        self, db: Any, game: str, templates_dir: Path | None = None, date: str | None = None
    ) -> None:
        self.runner = TemplateRunner(db, game, templates_dir, date)
        self.fitter = TextFitter()
        self.regions = RegionPlanner(self.runner, self.fitter, ArtPlanner(self.runner))
        self.backs = BackPlanner(self.runner, self.fitter)
        self.stamps = StampPlanner(self.runner, self.fitter)
        self._plans = LRU(PLAN_CACHE_SIZE)
        self._last: tuple[Card, CardPlan] | None = None
        self._placed = LRU(FIT_CACHE_SIZE)  # region ops placed in their regions
        self._steps_of: dict[str, list[RegionStep]] = {}  # per card type: its regions, planned once

    # -- what callers read ----------------------------------------------------------------

    @property
    def game(self) -> Any:
        return self.runner.game

    @property
    def types(self) -> dict[str, Any]:
        return self.runner.types

    @property
    def layouts(self) -> dict[str, Any]:
        return self.runner.layouts

    @property
    def fonts(self) -> Any:
        return self.runner.fonts

    # -- public API ---------------------------------------------------------------------

    def check(self, card: Card) -> None:
        """Raise PnpError if the card cannot be drawn (overflow, missing glyph, bad layout)."""
        self.plan(card)

    def draw_face(self, canvas: Any, card: Card, x: float, y: float, bleed: float) -> None:
        """Draw the face with its trim box's bottom-left at (x, y) points."""
        draw_plan(canvas, self.plan(card), x, y, bleed)

    def draw_back(self, canvas: Any, card_type_slug: str, x: float, y: float, bleed: float) -> None:
        """Draw the back of a card type (mirror-symmetric, so duplex offsets don't show)."""
        draw_plan(canvas, self.plan_back(card_type_slug), x, y, bleed)

    def plan_back(self, card_type_slug: str) -> CardPlan:
        """What the back of a card type draws (planned once per type)."""
        return self.backs.plan(card_type_slug)

    def warnings(self) -> list[str]:
        """What was noticed while planning, each once: one line per region whose text shrank below
        its warn size, naming the cards (the smallest first) and the smallest size."""
        return list(dict.fromkeys(self.runner.warnings)) + self.fitter.shrunk_warnings()

    def size_mm(self, card_type_slug: str) -> tuple[float, float]:
        t = self.runner.ctype(card_type_slug)
        return t.width_mm, t.height_mm

    # -- planning a face --------------------------------------------------------------------

    def plan(self, card: Card) -> CardPlan:
        """What the card's face draws.  Memoised by everything of the card a face can show;
        the sheet code checks a card and then draws that same object, so the last one asked
        for is answered without keying it again."""
        last = self._last
        if last is not None and last[0] is card:
            return last[1]
        key = plan_key(card)
        if key is None:
            return self._build(card)
        plan = self._plans.lookup(key)
        if plan is MISSING:
            plan = self._plans.store(key, self._build(card))
        self._last = (card, plan)
        return plan

    def _build(self, card: Card) -> CardPlan:
        run = self.runner
        ctype = run.ctype(card.type)
        ctx = run.context(card, ctype)
        lay = ctx.layout
        W, H = ctype.width_mm, ctype.height_mm
        bg = run.colour(ctx, lay.card["background"], run.where(ctx, "[card] background"))
        ops: list[Any] = [fill(bg or "#ffffff", W, H)]
        who = f"card {card.id}"
        for step in self._steps(ctx):
            reg, box = step.reg, step.box
            where = who + step.tail
            if step.when and not run.evaluate(ctx, step.when, where + " option 'when'"):
                continue
            shape_op = step.shape
            if shape_op is UNRESOLVED:
                shape_op = self.regions.shape(ctx, reg, box, W, H, where)
                if step.fixed_shape:
                    step.shape = shape_op  # no colour of it depends on the card
            if shape_op:
                ops.append(shape_op)
            op = step.planner(ctx, reg, box, where)
            if op is not None:
                ops.append(self._place(op, box, H, step.rotate, reg.name))
        ops.extend(self.stamps.plan(ctx, W, H))
        return CardPlan(tuple(ops))

    def _steps(self, ctx: PlanContext) -> list[RegionStep]:
        """The card type's regions with what every card shares worked out once."""
        slug = ctx.ctype.slug
        steps = self._steps_of.get(slug)
        if steps is None:
            W, H = ctx.ctype.width_mm, ctx.ctype.height_mm
            planners = self.regions.planners
            steps = self._steps_of[slug] = [
                RegionStep.of(
                    reg, Box.of(reg, W, H), self.runner.where_tail(slug, reg.name), planners[reg.kind]
                )
                for reg in ctx.layout.regions
            ]
        return steps

    def _place(self, op: Any, box: Box, H: float, rotate: int, region: str) -> Placed:
        """The region op placed on the card; a text or rows op shared by several cards
        (the same fitted text in the same region) is placed once."""
        key = (op, id(box), rotate)
        hit = self._placed.lookup(key)
        if hit is not MISSING and hit.box is box:
            return hit
        placed = Placed(op, box, H, rotate, region)
        return self._placed.store(key, placed)


def one_card_pdf(
    renderer: FaceRenderer, card: Card | None = None, back: str | None = None, bleed_mm: float = 0.0
) -> bytes:
    """A PDF page holding exactly one face (or one back): for previews and golden tests."""
    # reportlab canvas: only this preview makes a PDF; planning a face needs none
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
    # pypdfium2: only previews rasterise; planning or printing never does
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
