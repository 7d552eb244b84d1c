"""Planning a face's regions: text, rows, icons, images and shapes.

A region is planned once per card (copies share the plan): its template is
rendered, every glyph is checked against the fonts, the text is fitted to the
box (the same text in the same box is fitted once), and art is resampled to
the region at the print resolution (render.face_images).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pnpforge.errors import PnpError
from pnpforge.render import fonts as fontmod
from pnpforge.render import text as tx
from pnpforge.render import text_atoms, text_draw, text_markup
from pnpforge.render.face_cache import MISSING
from pnpforge.render.face_geometry import Box, BoxOp, Op, fit_rows, padded, row_pair, tidy_text
from pnpforge.render.face_images import ImagePlanner
from pnpforge.render.face_ops import IconOp, IconsOp, RowsOp, TextOp
from pnpforge.render.face_paint import badge_width, draw_badge, mark_paint, shape_fill_op
from pnpforge.render.face_values import PlanContext, card_free_colour
from pnpforge.render.layout import Region
from pnpforge.render.text_line import fit_one_line
from pnpforge.render.units import MM


class RegionPlanner(ImagePlanner):
    """Plans one region of a face (text, rows, icons, image, shape) for one card."""

    def _shape_op(self, ctx: PlanContext, reg: Region, box: Box, W: float, H: float, where: str) -> Op | None:
        o = reg.opts
        fill = self._colour(ctx, o["fill"], where + " option 'fill'")
        stroke = self._colour(ctx, o["stroke"], where + " option 'stroke'")
        if reg.kind == "shape" and not fill and not stroke:
            stroke = "#000000"  # a shape with neither would be invisible: outline it
        if not fill and not stroke:
            return None
        key = ("shape", ctx.ctype.slug, reg.name, fill, stroke)  # drawn alike on every card
        op = self._static.get(key)
        if op is None:
            op = self._static[key] = shape_fill_op(reg, box, W, H, fill, stroke)
        return op

    def _plan_shape(self, ctx: PlanContext, reg: Region, box: Box, where: str) -> BoxOp | None:
        return None  # the shape itself is drawn by _shape_op

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
                    "colour": self._colour(ctx, k["colour"], f"[keywords.{w}]"),
                }
                for w, k in ctx.layout.keywords.items()
            }
            if all(card_free_colour(k["colour"]) for k in ctx.layout.keywords.values()):
                self._static[key] = kws
        return kws

    def _template_text(self, ctx: PlanContext, source: str, where: str) -> str:
        """Render a text template; a region that read a provisional value shows the sign."""
        raw = self._render(ctx, source, where, track=True)
        if ctx.tracker.read and text_atoms.MARK not in raw and raw.strip():
            raw = raw.rstrip() + text_atoms.MARK
        return tidy_text(raw)

    def _check_plain(self, ctx: PlanContext, text: str, font: str, where: str) -> None:
        for ch in fontmod.missing_glyphs(text, font):
            raise PnpError(f"{where}: font {font} has no glyph for {fontmod.describe_char(ch)}")

    def _atoms_checked(
        self, ctx: PlanContext, spans: list[text_atoms.Span], where: str, m: text_atoms.Measure | None = None
    ) -> list[text_atoms.Atom]:
        m = m or ctx.measure
        atoms = text_atoms.atomize(spans, m)
        missing = tx.missing_chars(atoms, m)
        if missing:
            ch, font = missing[0]
            more = f" (and {len(missing) - 1} more)" if len(missing) > 1 else ""
            raise PnpError(
                f"{where}: font {font} has no glyph for {fontmod.describe_char(ch)}"
                f"{more}; change the text, never print a blank box"
            )
        return atoms

    def _script_measure(self, ctx: PlanContext, font: str) -> text_atoms.Measure:
        """The measure of a text region: the type's, or for `font = "zh-Hant"`/`"zh-Hans"`
        one of that script's fonts (same widths table, icons and mark)."""
        if font in ("regular", "bold"):
            return ctx.measure
        key = ("script-measure", ctx.ctype.slug, font)
        m = self._static.get(key)
        if m is None:
            fs = fontmod.ensure_fonts(font)
            base = ctx.measure
            m = text_atoms.Measure(fs.regular, fs.regular, base.icon_width, base._cache)
            m.mark = base.mark
            self._static[key] = m
        return m

    def _region_memo_ok(self, ctx: PlanContext, keywords: bool) -> bool:
        """May a region's op be looked up by its text alone?  Yes when nothing else it
        shows depends on the card: keyword colours, inline icons and the sign's colour."""
        slug = ctx.ctype.slug
        if keywords and ctx.layout.keywords and ("keywords", slug) not in self._static:
            return False
        if ("painter", slug) not in self._static:
            return False
        return card_free_colour(ctx.layout.provisional["mark_colour"])

    def _plan_text(self, ctx: PlanContext, reg: Region, box: Box, where: str) -> BoxOp | None:
        o = reg.opts
        raw = self._template_text(ctx, o["text"], where + " option 'text'")
        if not raw.strip():
            return None
        colour = self._colour(ctx, o["colour"], where + " option 'colour'") or "#1a1a1a"
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
    ) -> BoxOp:
        """A text region's op for its rendered text: spans, fit (one per text and box), op.
        With `memo_ok` the caller keeps the op by its text, so the fit and op caches keyed
        by spans would only hold the same again."""
        o = reg.opts
        spans = self._spans(ctx, raw, o["font"] == "bold", o["keywords"])
        m = self._script_measure(ctx, o["font"])
        bw, bh = box.content(int(o["rotate"]), o["padding"])
        size, min_size, shrink = o["size"], min(o["min_size"], o["size"]), o["fit"] == "shrink"
        # the same text in the same region (copies, shared labels, repeated rules): one fit
        key = (ctx.ctype.slug, tuple(spans), bw, bh, size, min_size, o["leading"], shrink, m.regular)
        fitted: Any = MISSING if memo_ok else self._fits.lookup(key)
        if fitted is MISSING:
            fitted = fit_one_line(spans, bw, bh, size, o["leading"], m)
            if fitted is None:
                atoms = self._atoms_checked(ctx, spans, where, m)
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
                    tail = self._where_tail(ctx.ctype.slug, reg.name)
                    self._shrunk.setdefault((ctx.ctype.slug, reg.name, tail, o["warn_size"]), []).append(
                        (who, fitted.size)
                    )
            if not memo_ok:
                self._fits.store(key, fitted)
        painter = self._icon_painter(ctx)
        mark_colour = self._colour(ctx, ctx.layout.provisional["mark_colour"], where) or "#b03a2e"
        op_key = ("text", key, o["align"], o["valign"], colour, painter, mark_colour, o["padding"])
        op: Any = MISSING if memo_ok else self._region_ops.lookup(op_key)
        if op is MISSING:
            op = padded(
                TextOp(fitted, o["align"], o["valign"], colour, m, painter, mark_colour),
                o["padding"],
            )
            if not memo_ok:
                self._region_ops.store(op_key, op)
        return op

    def _plan_rows(self, ctx: PlanContext, reg: Region, box: Box, where: str) -> BoxOp | None:
        o = reg.opts
        items = self._eval(ctx, o["items"], where + " option 'items'") or []
        if not isinstance(items, (list, tuple)):
            raise PnpError(
                f"{where}: option 'items' must give a list of (label, value) pairs, "
                f"got {type(items).__name__}"
            )
        colour = self._colour(ctx, o["colour"], where) or "#1a1a1a"
        lcolour = self._colour(ctx, o["label_colour"], where) or "#666666"
        rule = self._colour(ctx, o["rule"], where)
        shown: list[tuple[str, str]] = []  # what the rows show, as text
        for item in items:
            label, value = row_pair(item, where)
            vtext = tidy_text(self._finalize(value))
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
    ) -> BoxOp:
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
        laid = self._fits.lookup(key)
        if laid is MISSING:
            rows = [
                (self._atoms_checked(ctx, ls, where), self._atoms_checked(ctx, vs, where)) for ls, vs in spans
            ]
            try:
                laid = fit_rows(rows, bw, bh, size, min_size, o["leading"], m)
            except tx.Overflow as e:
                raise PnpError(f"{where}: {e.describe()} (region {box.w:g}×{box.h:g} mm)") from e
            laid = self._fits.store(key, laid.for_drawing())
        painter = self._icon_painter(ctx)
        mark_colour = self._colour(ctx, ctx.layout.provisional["mark_colour"], where) or "#b03a2e"
        op_key = ("rows", key, painter, mark_colour, colour, rule, o["padding"])
        op = self._region_ops.lookup(op_key)
        if op is MISSING:
            op = padded(RowsOp(laid, m, painter, mark_colour, colour, rule), o["padding"])
            self._region_ops.store(op_key, op)
        return op

    def _plan_icon(self, ctx: PlanContext, reg: Region, box: Box, where: str) -> BoxOp | None:
        o = reg.opts
        name = self._render(ctx, o["icon"], where + " option 'icon'", track=True, marks=False).strip()
        if not name:
            return None
        mark = self._mark_painter(ctx, where) if ctx.tracker.read else None
        spec = self._icon_spec(ctx, name, where)
        return IconOp(spec, name, o["align"], ctx.measure, self.fonts, mark)

    def _plan_icons(self, ctx: PlanContext, reg: Region, box: Box, where: str) -> BoxOp | None:
        o = reg.opts
        items = self._eval(ctx, o["items"], where + " option 'items'", track=True)
        marked = bool(ctx.tracker.read)
        if items in (None, "", []):
            return None
        if isinstance(items, (str, int)):
            items = [items]
        names = [str(i) for i in items]
        specs = [self._icon_spec(ctx, n, where, o["default"]) for n in names]
        # cells of a list designed one by one: the sign after each such icon, not after the row
        cells = () if marked else tuple(bool(getattr(i, "pnp_prov", False)) for i in items)
        mark = self._mark_painter(ctx, where) if marked or any(cells) else None
        return IconsOp(
            specs, names, o["direction"], o["gap"] * MM, o["align"], ctx.measure, self.fonts, mark, cells
        )

    def _mark_painter(self, ctx: PlanContext, where: str) -> Callable[[Any, float, float, float], None]:
        """The provisional sign beside a graphic (icons), top-aligned at (x, top)."""
        colour = self._colour(ctx, ctx.layout.provisional["mark_colour"], where) or "#b03a2e"
        ctx.marks_used = True
        return mark_paint(colour, ctx.layout.provisional["mark"], self.fonts.regular)

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
            self._check_plain(
                ctx, name, self.fonts.bold if spec["font"] == "bold" else self.fonts.regular, where
            )
        if spec is None:
            raise PnpError(
                f"{where}: icon '{name}' is not declared in the layout "
                f"(icons: {', '.join(ctx.layout.icons) or 'none'})"
            )
        spec = dict(spec)
        for key in ("fill", "stroke", "text_colour"):
            spec[key] = self._colour(ctx, spec[key], f"{where} [icons.{name}] {key}")
        return spec

    def _icon_painter(self, ctx: PlanContext) -> text_draw.IconPainter:
        key = ("painter", ctx.ctype.slug)
        painter = self._static.get(key)
        if painter is None:
            painter = self._make_icon_painter(ctx)
            if all(("icon", ctx.ctype.slug, name, "") in self._static for name in ctx.layout.icons):
                self._static[key] = painter  # no icon colour depends on the card
        return painter

    def _make_icon_painter(self, ctx: PlanContext) -> text_draw.IconPainter:
        specs: dict[str, dict[str, Any]] = {}
        m, fonts = ctx.measure, self.fonts

        def paint(c: Any, name: str, x: float, baseline: float, size: float) -> None:
            if name not in specs:  # markup only makes declared icons: resolved below
                specs[name] = self._icon_spec(ctx, name, "inline icon")
            spec = specs[name]
            h = size * spec["scale"]
            w = badge_width(m, spec, name, h, fonts)
            centre = baseline + (text_atoms.ASCENT - 0.5) * size
            c.saveState()
            draw_badge(c, spec, name, x + 0.12 * size, centre - h / 2, w, h, m, fonts)
            c.restoreState()

        # resolve colours now, so a bad colour is a planning error, not a drawing one
        for name in ctx.layout.icons:
            specs[name] = self._icon_spec(ctx, name, "inline icon")
        return paint
