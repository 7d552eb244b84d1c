"""Planning a face's regions: text, rows, icons, images and shapes.

A region is planned once per card (copies share the plan): its template is
rendered, every glyph is checked against the fonts, the text is fitted to the
box (the same text in the same box is fitted once), and art is resampled to
the region at the print resolution (render.face_images).  Each region kind's
planner returns a box op (render.face_ops) or None.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from pnpforge.errors import PnpError
from pnpforge.render import text as tx
from pnpforge.render import text_atoms, text_markup
from pnpforge.render.face_cache import FIT_CACHE_SIZE, LRU, MISSING
from pnpforge.render.face_context import TemplateRunner
from pnpforge.render.face_fit import TextFitter
from pnpforge.render.face_geometry import Box, fit_rows, row_pair, tidy_text
from pnpforge.render.face_images import ArtPlanner
from pnpforge.render.face_ops import (
    IconBadge,
    IconRow,
    InlineIcons,
    Mark,
    Padded,
    RowsBlock,
    Shape,
    TextBlock,
)
from pnpforge.render.face_values import PlanContext, card_free_colour
from pnpforge.render.layout import Region
from pnpforge.render.text_line import fit_one_line
from pnpforge.render.units import MM


def padded(op: Any, padding: float) -> Any:
    """The op inset by its region's padding (mm)."""
    return Padded(op, padding * MM) if padding else op


class RegionPlanner:
    """Plans one region of a face (text, rows, icons, image, shape) for one card.

    Holds its collaborators (templates, text fitting, art) and what no card
    changes per layout (keyword styles, icon looks, fixed shapes), so a region
    shown alike on many cards is planned once.
    """

    def __init__(self, runner: TemplateRunner, fitter: TextFitter, art: ArtPlanner) -> None:
        self.runner, self.fitter, self.art = runner, fitter, art
        self._static: dict[tuple, Any] = {}  # per-layout values no card changes
        self._region_ops = LRU(FIT_CACHE_SIZE)  # text and rows ops, shared by cards showing the same
        self.planners: dict[str, Any] = {
            "text": self._plan_text,
            "rows": self._plan_rows,
            "icon": self._plan_icon,
            "icons": self._plan_icons,
            "image": art.plan,
            "shape": self._plan_shape,
        }

    def shape(self, ctx: PlanContext, reg: Region, box: Box, W: float, H: float, where: str) -> Shape | None:
        o = reg.opts
        fill = self.runner.colour(ctx, o["fill"], where + " option 'fill'")
        stroke = self.runner.colour(ctx, o["stroke"], where + " option 'stroke'")
        if reg.kind == "shape" and not fill and not stroke:
            stroke = "#000000"  # a shape with neither would be invisible: outline it
        if not fill and not stroke:
            return None
        key = ("shape", ctx.ctype.slug, reg.name, fill, stroke)  # drawn alike on every card
        op = self._static.get(key)
        if op is None:
            o = reg.opts
            op = self._static[key] = Shape(
                o["shape"], box, W, H, o["radius"], o["stroke_width"], bool(o["bleed"]), fill, stroke
            )
        return op

    def _plan_shape(self, ctx: PlanContext, reg: Region, box: Box, where: str) -> None:
        return None  # the shape itself is planned by shape()

    def _spans(self, ctx: PlanContext, raw: str, bold: bool, keywords: bool) -> list[text_atoms.Span]:
        """Markup -> spans, with the layout's keyword styles resolved for this card."""
        spans = text_markup.parse_markup(raw, ctx.layout.icons)
        if bold:
            spans = [text_atoms.Span(s.text, True, s.colour, s.icon, s.mark) for s in spans]
        if keywords and ctx.layout.keywords:
            spans = text_markup.apply_keywords(spans, self._keywords(ctx))
        if any(s.mark for s in spans):
            ctx.marks_used = True
        return spans

    def _keywords(self, ctx: PlanContext) -> dict[str, dict[str, Any]]:
        """The layout's keyword styles with colours resolved (once per layout when no colour
        depends on the card)."""
        key = ("keywords", ctx.ctype.slug)
        kws = self._static.get(key)
        if kws is None:
            kws = {
                w: {
                    "icon": k["icon"],
                    "bold": k["bold"],
                    "colour": self.runner.colour(ctx, k["colour"], f"[keywords.{w}]"),
                }
                for w, k in ctx.layout.keywords.items()
            }
            if all(card_free_colour(k["colour"]) for k in ctx.layout.keywords.values()):
                self._static[key] = kws
        return kws

    def _template_text(self, ctx: PlanContext, source: str, where: str) -> str:
        """Render a text template; a region that read a provisional value shows the sign."""
        raw = self.runner.render(ctx, source, where, track=True)
        if ctx.tracker.read and text_atoms.MARK not in raw and raw.strip():
            raw = raw.rstrip() + text_atoms.MARK
        return tidy_text(raw)

    def _region_memo_ok(self, ctx: PlanContext, keywords: bool) -> bool:
        """May a region's op be looked up by its text alone?  Yes when nothing else it
        shows depends on the card: keyword colours, inline icons and the sign's colour."""
        slug = ctx.ctype.slug
        if keywords and ctx.layout.keywords and ("keywords", slug) not in self._static:
            return False
        if ("painter", slug) not in self._static:
            return False
        return card_free_colour(ctx.layout.provisional["mark_colour"])

    def _plan_text(self, ctx: PlanContext, reg: Region, box: Box, where: str) -> Any:
        o = reg.opts
        raw = self._template_text(ctx, o["text"], where + " option 'text'")
        if not raw.strip():
            return None
        colour = self.runner.colour(ctx, o["colour"], where + " option 'colour'") or "#1a1a1a"
        memo_key = ("text", ctx.ctype.slug, reg.name, raw, colour)
        memo_ok = self._region_memo_ok(ctx, o["keywords"])
        if memo_ok:
            hit = self._region_ops.lookup(memo_key)
            if hit is not MISSING:
                if text_atoms.MARK in raw:
                    ctx.marks_used = True  # what _spans notes for a text showing the sign
                return hit
        op = self._text_op(ctx, reg, box, where, raw, colour, memo_ok)
        if memo_ok:
            self._region_ops.store(memo_key, op)
        return op

    def _text_op(
        self, ctx: PlanContext, reg: Region, box: Box, where: str, raw: str, colour: str, memo_ok: bool
    ) -> Any:
        """A text region's op for its rendered text: spans, fit (one per text and box), op.
        With `memo_ok` the caller keeps the op by its text, so the fit and op caches keyed
        by spans would only hold the same again."""
        o = reg.opts
        spans = self._spans(ctx, raw, o["font"] == "bold", o["keywords"])
        m = self.fitter.script_measure(ctx, o["font"])
        bw, bh = box.content(int(o["rotate"]), o["padding"])
        size, min_size, shrink = o["size"], min(o["min_size"], o["size"]), o["fit"] == "shrink"
        # the same text in the same region (copies, shared labels, repeated rules): one fit
        key = (ctx.ctype.slug, tuple(spans), bw, bh, size, min_size, o["leading"], shrink, m.regular)
        fitted: Any = MISSING if memo_ok else self.fitter.fits.lookup(key)
        if fitted is MISSING:
            fitted = fit_one_line(spans, bw, bh, size, o["leading"], m)
            if fitted is None:
                atoms = self.fitter.atoms(ctx, spans, where, m)
                try:
                    fitted = tx.fit(atoms, bw, bh, size, min_size, o["leading"], m, shrink=shrink)
                except tx.Overflow as e:
                    raise PnpError(
                        f"{where}: {e.describe()} (region {box.w:g}×{box.h:g} mm; shorten "
                        "the text, enlarge the region or lower min_size)"
                    ) from e
                fitted = fitted.for_drawing()
                if shrink and fitted.size < min(o["warn_size"], size) - 1e-6:
                    who = ctx.card.id if ctx.card else f"back of '{ctx.ctype.slug}'"
                    tail = self.runner.where_tail(ctx.ctype.slug, reg.name)
                    self.fitter.note_shrunk(ctx.ctype.slug, reg.name, tail, o["warn_size"], who, fitted.size)
            if not memo_ok:
                self.fitter.fits.store(key, fitted)
        painter = self._icon_painter(ctx)
        mark_colour = self.runner.colour(ctx, ctx.layout.provisional["mark_colour"], where) or "#b03a2e"
        op_key = ("text", key, o["align"], o["valign"], colour, painter, mark_colour, o["padding"])
        op: Any = MISSING if memo_ok else self._region_ops.lookup(op_key)
        if op is MISSING:
            op = padded(
                TextBlock(fitted, o["align"], o["valign"], colour, m, painter, mark_colour),
                o["padding"],
            )
            if not memo_ok:
                self._region_ops.store(op_key, op)
        return op

    def _plan_rows(self, ctx: PlanContext, reg: Region, box: Box, where: str) -> Any:
        o = reg.opts
        items = self.runner.evaluate(ctx, o["items"], where + " option 'items'") or []
        if not isinstance(items, (list, tuple)):
            raise PnpError(
                f"{where}: option 'items' must give a list of (label, value) pairs, "
                f"got {type(items).__name__}"
            )
        colour = self.runner.colour(ctx, o["colour"], where) or "#1a1a1a"
        lcolour = self.runner.colour(ctx, o["label_colour"], where) or "#666666"
        rule = self.runner.colour(ctx, o["rule"], where)
        shown: list[tuple[str, str]] = []  # what the rows show, as text
        for item in items:
            label, value = row_pair(item, where)
            vtext = tidy_text(self.runner.finalize(value))
            if vtext:
                shown.append((str(label), vtext))
        if not shown:
            return None
        memo_key = ("rows", ctx.ctype.slug, reg.name, tuple(shown), colour, lcolour, rule)
        memo_ok = self._region_memo_ok(ctx, o["keywords"])
        if memo_ok:
            hit = self._region_ops.lookup(memo_key)
            if hit is not MISSING:
                if any(text_atoms.MARK in vtext for _, vtext in shown):
                    ctx.marks_used = True  # what _spans notes for a value showing the sign
                return hit
        spans: list[tuple[list[text_atoms.Span], list[text_atoms.Span]]] = []
        for label, vtext in shown:
            lspans = [text_atoms.Span(tidy_text(label), o["label_font"] == "bold", lcolour)]
            vspans = self._spans(ctx, vtext, o["font"] == "bold", o["keywords"])
            vspans = [
                s if s.colour else text_atoms.Span(s.text, s.bold, colour, s.icon, s.mark) for s in vspans
            ]
            spans.append((lspans, vspans))
        op = self._rows_op(ctx, reg, box, where, spans, colour, rule)
        if memo_ok:
            self._region_ops.store(memo_key, op)
        return op

    def _rows_op(
        self,
        ctx: PlanContext,
        reg: Region,
        box: Box,
        where: str,
        spans: list[tuple[list[text_atoms.Span], list[text_atoms.Span]]],
        colour: str,
        rule: str | None,
    ) -> Any:
        """A rows region's op for its label/value spans: laid out once per rows and box."""
        o = reg.opts
        bw, bh = box.content(int(o["rotate"]), o["padding"])
        m = ctx.measure
        size, min_size = o["size"], min(o["min_size"], o["size"])
        key = (
            "rows",
            ctx.ctype.slug,
            tuple((tuple(ls), tuple(vs)) for ls, vs in spans),
            bw,
            bh,
            size,
            min_size,
            o["leading"],
        )
        laid = self.fitter.fits.lookup(key)
        if laid is MISSING:
            rows = [
                (self.fitter.atoms(ctx, ls, where), self.fitter.atoms(ctx, vs, where)) for ls, vs in spans
            ]
            try:
                laid = fit_rows(rows, bw, bh, size, min_size, o["leading"], m)
            except tx.Overflow as e:
                raise PnpError(f"{where}: {e.describe()} (region {box.w:g}×{box.h:g} mm)") from e
            laid = self.fitter.fits.store(key, laid.for_drawing())
        painter = self._icon_painter(ctx)
        mark_colour = self.runner.colour(ctx, ctx.layout.provisional["mark_colour"], where) or "#b03a2e"
        op_key = ("rows", key, painter, mark_colour, colour, rule, o["padding"])
        op = self._region_ops.lookup(op_key)
        if op is MISSING:
            op = padded(RowsBlock(laid, m, painter, mark_colour, colour, rule), o["padding"])
            self._region_ops.store(op_key, op)
        return op

    def _plan_icon(self, ctx: PlanContext, reg: Region, box: Box, where: str) -> Any:
        o = reg.opts
        name = self.runner.render(ctx, o["icon"], where + " option 'icon'", track=True, marks=False).strip()
        if not name:
            return None
        mark = self._mark(ctx, where) if ctx.tracker.read else None
        spec = self._icon_spec(ctx, name, where)
        return IconBadge(spec, name, o["align"], ctx.measure, self.runner.fonts, mark)

    def _plan_icons(self, ctx: PlanContext, reg: Region, box: Box, where: str) -> Any:
        o = reg.opts
        items = self.runner.evaluate(ctx, o["items"], where + " option 'items'", track=True)
        marked = bool(ctx.tracker.read)
        if items in (None, "", []):
            return None
        if isinstance(items, (str, int)):
            items = [items]
        names = [str(i) for i in items]
        specs = [self._icon_spec(ctx, n, where, o["default"]) for n in names]
        # cells of a list designed one by one: the sign after each such icon, not after the row
        cells = () if marked else tuple(bool(getattr(i, "pnp_prov", False)) for i in items)
        mark = self._mark(ctx, where) if marked or any(cells) else None
        return IconRow(
            tuple(specs),
            tuple(names),
            o["direction"],
            o["gap"] * MM,
            o["align"],
            ctx.measure,
            self.runner.fonts,
            mark,
            cells,
        )

    def _mark(self, ctx: PlanContext, where: str) -> Mark:
        """The provisional sign beside a graphic (icons), top-aligned."""
        colour = self.runner.colour(ctx, ctx.layout.provisional["mark_colour"], where) or "#b03a2e"
        ctx.marks_used = True
        return _mark(colour, ctx.layout.provisional["mark"], self.runner.fonts.regular)

    def _icon_spec(self, ctx: PlanContext, name: str, where: str, default: str = "") -> dict[str, Any]:
        """An icon's look with its colours resolved for this card (shared, not to be changed:
        kept per layout when none of its colours depends on the card)."""
        key = ("icon", ctx.ctype.slug, name, default)
        spec = self._static.get(key)
        if spec is None:
            spec = self._resolve_icon(ctx, name, where, default)
            base = ctx.layout.icons.get(name) or ctx.layout.icons[default]
            if all(card_free_colour(base[k]) for k in ("fill", "stroke", "text_colour")):
                self._static[key] = spec
        return spec

    def _resolve_icon(self, ctx: PlanContext, name: str, where: str, default: str) -> dict[str, Any]:
        spec = ctx.layout.icons.get(name)
        if spec is None and default:
            spec = dict(ctx.layout.icons[default], text=name)
            self.fitter.check_plain(
                name, self.runner.fonts.bold if spec["font"] == "bold" else self.runner.fonts.regular, where
            )
        if spec is None:
            raise PnpError(
                f"{where}: icon '{name}' is not declared in the layout "
                f"(icons: {', '.join(ctx.layout.icons) or 'none'})"
            )
        spec = dict(spec)
        for key in ("fill", "stroke", "text_colour"):
            spec[key] = self.runner.colour(ctx, spec[key], f"{where} [icons.{name}] {key}")
        return spec

    def _icon_painter(self, ctx: PlanContext) -> InlineIcons:
        key = ("painter", ctx.ctype.slug)
        icons = self._static.get(key)
        if icons is None:
            # resolve colours now, so a bad colour is a planning error, not a drawing one
            specs = {name: self._icon_spec(ctx, name, "inline icon") for name in ctx.layout.icons}
            icons = InlineIcons(specs, ctx.measure, self.runner.fonts)
            if all(("icon", ctx.ctype.slug, name, "") in self._static for name in ctx.layout.icons):
                self._static[key] = icons  # no icon colour depends on the card
        return icons


@lru_cache(maxsize=256)
def _mark(colour: str, sign: str, font: str) -> Mark:
    return Mark(colour, sign, font)
