"""Drawing one card: its face from the card type's layout, its back from the card type.

FaceRenderer is what the sheet code (render/pdf.py, render/sheet.py) calls for
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
"""

from __future__ import annotations

import datetime
import math
from collections import OrderedDict
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable

from pnpforge.errors import PnpError
from pnpforge.model import Card, CardType, Game
from pnpforge.render import fonts as fontmod
from pnpforge.render import text as tx
from pnpforge.render.layout import Layout, Region, load_game_layouts
from pnpforge.store.location import db_folder as store_db_folder
from pnpforge.resources import TemplateRoots, as_roots, project_templates, template_roots
from pnpforge.render.units import MM, eval_length, hex_to_rgb, is_hex_colour, mix, readable_on

Op = Callable[[Any, float, float, float], None]     # (canvas, trim x, trim y, bleed)

_PLAN_CACHE_SIZE = 512      # planned faces kept (copies of a card reuse its plan)
_FIT_CACHE_SIZE = 512       # fitted texts kept (the same text in the same region: one fit)
_REF_CACHE_SIZE = 256       # cards looked up by ref(), kept


class _LRU(OrderedDict):
    """A small least-recently-used map: caches here must not grow with the deck."""

    def __init__(self, size: int) -> None:
        super().__init__()
        self.size = size

    def lookup(self, key: Any) -> Any:
        value = self.get(key, _MISSING)
        if value is not _MISSING:
            self.move_to_end(key)
        return value

    def store(self, key: Any, value: Any) -> Any:
        if len(self) >= self.size:
            self.popitem(last=False)
        self[key] = value
        return value


_MISSING = object()


def _freeze(value: Any) -> Any:
    """A hashable stand-in for a card value that keeps 1, 1.0 and True apart."""
    t = type(value)
    if t is str:
        return value
    if t is dict:
        return (dict, tuple((k, _freeze(v)) for k, v in value.items()))
    if t is list or t is tuple:
        return (t, tuple(_freeze(v) for v in value))
    if t is float:
        return (t, repr(value))
    return (t, value)


def _plan_key(card: Card) -> tuple | None:
    """Everything of a card a face can show (templates see no notes or timestamps);
    None when a value cannot be hashed (then the card is planned afresh)."""
    key = tuple(_freeze(v) for v in (
        card.type, card.id, card.name, card.name_en, card.copies, card.text, card.flavor,
        card.art, card.provenance, card.source, card.provisional_fields, card.fields))
    try:
        hash(key)
    except TypeError:
        return None
    return key


class _Static(str):
    """A template without Jinja syntax: its output, rendered once."""


def default_templates_dir(db_dir: Path) -> TemplateRoots:
    """The project's templates/ beside the database (file by file), then the shipped ones."""
    return template_roots(project_templates(db_dir))


def db_folder(db: Any) -> Path:
    """Folder of the database file: art paths are relative to it."""
    return store_db_folder(db) or Path.cwd()


# ---- values as templates see them ------------------------------------------------------


class _PStr(str):
    pnp_prov = True


class _PInt(int):
    pnp_prov = True


class _PFloat(float):
    pnp_prov = True


class _PList(list):
    pnp_prov = True


def _wrap(value: Any, prov: bool) -> Any:
    """Mark a provisional value so the template output carries the sign after it."""
    if not prov or value is None or isinstance(value, bool):
        return value
    if isinstance(value, str):
        return _PStr(value)
    if isinstance(value, int):
        return _PInt(value)
    if isinstance(value, float):
        return _PFloat(value)
    if isinstance(value, list):
        return _PList(value)
    return value


class _Tracker:
    """Which provisional values a template read: a region showing one gets the sign."""

    def __init__(self) -> None:
        self.active = False
        self.read: set[str] = set()

    def note(self, name: str) -> None:
        if self.active:
            self.read.add(name)


class FieldsView:
    """`f.NAME` / `card.fields.NAME` in templates; a missing value is undefined (empty)."""

    def __init__(self, values: dict[str, Any], prov: set[str], tracker: _Tracker) -> None:
        self._values, self._prov, self._tracker = values, prov, tracker

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_") or name not in self._values:
            raise AttributeError(name)
        return self[name]

    def __getitem__(self, name: str) -> Any:
        if name not in self._values:
            raise KeyError(name)
        if name in self._prov:
            self._tracker.note(name)
        return _wrap(self._values[name], name in self._prov)

    def __contains__(self, name: object) -> bool:
        return name in self._values

    def __iter__(self):
        return iter(self._values)

    def get(self, name: str, default: Any = None) -> Any:
        return self[name] if name in self._values else default


class CardView:
    """`card` in templates: the card's attributes, provisional ones marked."""

    _PLAIN = ("id", "type", "art", "provenance", "source", "is_provisional")
    _MARKABLE = ("name", "name_en", "text", "flavor", "copies")

    def __init__(self, card: Card, prov: set[str], tracker: _Tracker) -> None:
        self._card, self._prov, self._tracker = card, prov, tracker
        self.fields = FieldsView(card.fields, prov, tracker)

    def __getattr__(self, name: str) -> Any:
        if name in self._PLAIN:
            return getattr(self._card, name)
        if name in self._MARKABLE:
            if name in self._prov:
                self._tracker.note(name)
            return _wrap(getattr(self._card, name), name in self._prov)
        raise AttributeError(name)


@dataclass
class _TypeVars:
    """What the template context holds for a card type, built once per type."""

    labels: dict[str, str]
    game: dict[str, Any]
    type: dict[str, Any]            # with "fields": list of FieldDef dicts
    label: Callable[[str], str]
    icon: Callable[[str], str]

    def type_copy(self) -> dict[str, Any]:
        """A fresh copy per card, as asdict gave: a template that changes it changes no
        other card."""
        t = dict(self.type)
        t["fields"] = [{k: (list(v) if isinstance(v, list) else v) for k, v in d.items()}
                       for d in self.type["fields"]]
        return t


@dataclass
class _Ctx:
    """Everything planning one card needs."""

    card: Card | None
    ctype: CardType
    layout: Layout
    vars: dict[str, Any]
    tracker: _Tracker
    categories: list[str]
    measure: tx.Measure
    marks_used: bool = False


# ---- the renderer ---------------------------------------------------------------------------


class FaceRenderer:
    """Faces and backs of one game's cards, drawn onto reportlab canvases."""

    def __init__(self, db: Any, game: str, templates_dir: Path | None = None,
                 date: str | None = None) -> None:
        from pnpforge.store import repo

        self.game: Game = repo.get_game(db, game)
        self.types: dict[str, CardType] = {t.slug: t for t in repo.card_types(db, game)}
        self._db = db                     # ref() looks cards up on demand, not all at once
        self._refs = _LRU(_REF_CACHE_SIZE)
        self.base_dir = db_folder(db)
        self.templates_dir = as_roots(templates_dir) if templates_dir else \
            default_templates_dir(self.base_dir)
        self.date = date or datetime.date.today().isoformat()
        self.fonts = fontmod.ensure_fonts(self.game.language)
        self.layouts, self._warnings = load_game_layouts(self.templates_dir, game,
                                                         list(self.types.values()))
        widths: dict[tuple[str, str], float] = {}      # one character width table per game
        self._measures = {slug: self._measure_for(lay, widths)
                          for slug, lay in self.layouts.items()}
        for slug, lay in self.layouts.items():
            self._check_icon_glyphs(slug, lay)
        self._env = self._make_env()
        self._templates: dict[tuple[str, bool], Any] = {}
        self._plans = _LRU(_PLAN_CACHE_SIZE)
        self._backs: dict[str, list[Op]] = {}
        self._images: dict[tuple, Any] = {}
        self._type_vars: dict[str, _TypeVars] = {}
        self._boxes: dict[str, list[_Box]] = {}
        self._fits = _LRU(_FIT_CACHE_SIZE)
        self._static: dict[tuple, Any] = {}          # per-layout values no card changes

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

    def draw_back(self, canvas: Any, card_type_slug: str, x: float, y: float,
                  bleed: float) -> None:
        """Draw the back of a card type (mirror-symmetric, so duplex offsets don't show)."""
        for op in self._plan_back(card_type_slug):
            canvas.saveState()
            op(canvas, x, y, bleed)
            canvas.restoreState()

    def warnings(self) -> list[str]:
        return list(dict.fromkeys(self._warnings))

    def size_mm(self, card_type_slug: str) -> tuple[float, float]:
        t = self._ctype(card_type_slug)
        return t.width_mm, t.height_mm

    # -- set-up ---------------------------------------------------------------------------

    def _ctype(self, slug: str) -> CardType:
        if slug not in self.types:
            raise PnpError(f"game '{self.game.slug}' has no card type '{slug}' "
                           f"(allowed: {', '.join(self.types) or 'none'})")
        return self.types[slug]

    def _zh(self) -> bool:
        return self.game.language.startswith("zh")

    def _word(self, key: str) -> str:
        """The few words the renderer itself prints, in the game's script."""
        words = {
            "zh-Hant": {"badge": "暫", "legend": "暫定值", "missing": "缺圖"},
            "zh-Hans": {"badge": "暂", "legend": "暂定值", "missing": "缺图"},
        }.get(self.game.language, {"badge": "P", "legend": "provisional", "missing": "missing art"})
        return words[key]

    def _make_env(self):
        env, self._finalize = _environment(self._zh())
        return env

    def _measure_for(self, lay: Layout, widths: dict[tuple[str, str], float]) -> tx.Measure:
        m = tx.Measure(self.fonts.regular, self.fonts.bold, widths=widths)
        m.mark = lay.provisional["mark"] or "†"

        def icon_width(name: str) -> float:
            spec = lay.icons.get(name)
            if spec is None:
                return 1.0
            h = spec["scale"]
            return _badge_width(m, spec, name, h, self.fonts) + 0.24
        m.icon_width = icon_width
        return m

    def _check_icon_glyphs(self, slug: str, lay: Layout) -> None:
        for name, spec in lay.icons.items():
            font = self.fonts.bold if spec["font"] == "bold" else self.fonts.regular
            for ch in fontmod.missing_glyphs(spec["text"] or name, font):
                raise PnpError(f"layout '{lay.name}' (card type '{slug}'): icon '{name}' uses "
                               f"{fontmod.describe_char(ch)}, which font {font} lacks")
        mark = lay.provisional["mark"]
        for ch in fontmod.missing_glyphs(mark, self.fonts.regular):
            raise PnpError(f"layout '{lay.name}': [provisional] mark uses "
                           f"{fontmod.describe_char(ch)}, which font {self.fonts.regular} lacks")

    # -- context ----------------------------------------------------------------------------

    def _vars_of(self, ctype: CardType) -> _TypeVars:
        """The per-type part of the template context (labels, game, type), made once."""
        tv = self._type_vars.get(ctype.slug)
        if tv is not None:
            return tv
        lay = self.layouts[ctype.slug]
        labels = {f.name: (f.label or f.name) for f in ctype.fields}

        def icon(name: str) -> str:
            if name not in lay.icons:
                raise PnpError(f"icon('{name}') is not declared "
                               f"(icons: {', '.join(lay.icons) or 'none'})")
            return f":{name}:"

        game = {"slug": self.game.slug, "title": self.game.title, "title_en": self.game.title_en,
                "version": self.game.version, "language": self.game.language}
        typ = {"slug": ctype.slug, "name": ctype.name, "name_en": ctype.name_en,
               "width_mm": ctype.width_mm, "height_mm": ctype.height_mm, "role": ctype.role,
               "fields": [f.to_dict() for f in ctype.fields]}
        tv = _TypeVars(labels, game, typ, lambda n: labels.get(n, n), icon)
        self._type_vars[ctype.slug] = tv
        return tv

    def _ref(self, card_id: Any) -> Any:
        """`ref(id)` in templates: another card of the game, looked up when asked for."""
        if not card_id:
            return None
        key = str(card_id)
        other = self._refs.lookup(key)
        if other is _MISSING:
            from pnpforge.store import repo
            other = self._refs.store(key, repo.find_card(self._db, self.game.slug, key))
        return CardView(other, set(), _Tracker()) if other else None

    def _context(self, card: Card | None, ctype: CardType) -> _Ctx:
        lay = self.layouts[ctype.slug]
        tv = self._vars_of(ctype)
        tracker = _Tracker()
        prov: set[str] = set()
        if card is not None and card.provenance != "provisional":
            prov = set(card.provisional_fields)   # wholly provisional cards wear the badge instead
        cats = self._categories(card, lay)
        labels = tv.labels
        fview = FieldsView(card.fields if card else {}, prov, tracker)

        def rows() -> list[tuple[str, Any]]:
            out = []
            for fd in ctype.fields:
                if card is not None and fd.name in card.fields \
                        and card.fields[fd.name] not in (None, "", []):
                    out.append((labels[fd.name], fview[fd.name]))
            return out

        variables = {
            "card": CardView(card, prov, tracker) if card else None,
            "f": fview, "game": dict(tv.game), "type": tv.type_copy(), "back": dict(ctype.back),
            "date": self.date, "category": cats[0] if cats else "",
            "category2": cats[1] if len(cats) > 1 else (cats[0] if cats else ""),
            "categories": cats, "label": tv.label, "fields": rows,
            "icon": tv.icon, "ref": self._ref,
            "is_prov": lambda n: n in prov,
        }
        return _Ctx(card, ctype, lay, variables, tracker, cats, self._measures[ctype.slug])

    def _categories(self, card: Card | None, lay: Layout) -> list[str]:
        fname = lay.categories["field"]
        if not fname or card is None:
            return []
        value = card.fields.get(fname)
        known = lay.categories["colours"]
        if value in (None, "", []):
            return []
        if isinstance(value, list):
            return [str(v) for v in value]
        value = str(value)
        if value not in known and len(value) > 1 and all(ch in known for ch in value):
            return list(value)               # '稅罰' -> 稅, 罰
        return [value]

    def _where(self, ctx: _Ctx, region: str) -> str:
        who = f"card {ctx.card.id}" if ctx.card else f"back of '{ctx.ctype.slug}'"
        return f"{who} ({self.game.slug}/{ctx.ctype.slug}), region '{region}'"

    def _render(self, ctx: _Ctx, source: str, where: str, track: bool = False,
                marks: bool = True) -> str:
        """Render a template; `marks=False` for names and colours, which carry no sign."""
        if not source:
            return ""
        tmpl = self._templates.get((source, False))
        if tmpl is None:
            tmpl = self._templates[(source, False)] = self._compile(source, where, False)
        ctx.tracker.active, ctx.tracker.read = track, set()
        if type(tmpl) is _Static:
            ctx.tracker.active = False
            return str(tmpl) if marks else tmpl.replace(tx.MARK, "")
        try:
            out = tmpl.render(ctx.vars)
            return out if marks else out.replace(tx.MARK, "")
        except PnpError as e:
            raise PnpError(f"{where}: {e}") from e
        except Exception as e:  # jinja errors, sandbox refusals, bad filters
            raise PnpError(f"{where}: template failed: {type(e).__name__}: {e}") from e
        finally:
            ctx.tracker.active = False

    def _eval(self, ctx: _Ctx, source: str, where: str, track: bool = False) -> Any:
        expr = self._templates.get((source, True))
        if expr is None:
            expr = self._templates[(source, True)] = self._compile(source, where, True)
        ctx.tracker.active, ctx.tracker.read = track, set()
        try:
            return expr(**ctx.vars)
        except PnpError as e:
            raise PnpError(f"{where}: {e}") from e
        except Exception as e:
            raise PnpError(f"{where}: expression failed: {type(e).__name__}: {e}") from e
        finally:
            ctx.tracker.active = False

    def _compile(self, source: str, where: str, expression: bool) -> Any:
        """Compile once per source and environment (shared by every renderer of the process,
        e.g. a build drawing prints, images and a proof); text without Jinja syntax is
        rendered once, here."""
        key = (self._zh(), source, expression)
        compiled = _COMPILED.lookup(key)
        if compiled is not _MISSING:
            return compiled
        from jinja2 import TemplateSyntaxError
        try:
            if expression:
                compiled = self._env.compile_expression(source, undefined_to_none=True)
                _flatten_globals(getattr(compiled, "_template", None))
            else:
                compiled = self._env.from_string(source)
                _flatten_globals(compiled)
                if not any(tag in source for tag in ("{{", "{%", "{#")):
                    compiled = _Static(compiled.render())
        except TemplateSyntaxError as e:
            raise PnpError(f"{where}: {e.message}") from e
        return _COMPILED.store(key, compiled)

    def _colour(self, ctx: _Ctx, spec: str, where: str) -> str | None:
        """Resolve a colour option for this card: hex, palette name, category or template."""
        if not spec:
            return None
        if "{{" in spec:
            spec = self._render(ctx, spec, where, marks=False).strip()
            if not spec:
                return None
        if spec in ("category", "category2"):
            cats = ctx.categories
            if not cats:
                return ctx.layout.categories["default"]
            pick = cats[0] if spec == "category" or len(cats) == 1 else cats[1]
            col = ctx.layout.categories["colours"].get(pick, ctx.layout.categories["default"])
            return self._colour(ctx, col, where) if not is_hex_colour(col) else col
        if spec in ctx.layout.palette:
            return ctx.layout.palette[spec]
        if is_hex_colour(spec):
            return spec
        raise PnpError(f"{where}: '{spec}' is not a colour (allowed: #rgb, #rrggbb, category, "
                       f"category2, or a palette name: "
                       f"{', '.join(sorted(ctx.layout.palette)) or 'none'})")

    # -- planning a face --------------------------------------------------------------------

    def _plan(self, card: Card) -> list[Op]:
        key = _plan_key(card)
        if key is None:
            return self._build_plan(card)
        plan = self._plans.lookup(key)
        if plan is _MISSING:
            plan = self._plans.store(key, self._build_plan(card))
        return plan

    def _build_plan(self, card: Card) -> list[Op]:
        ctype = self._ctype(card.type)
        ctx = self._context(card, ctype)
        lay = ctx.layout
        W, H = ctype.width_mm, ctype.height_mm
        bg = self._colour(ctx, lay.card["background"], self._where(ctx, "[card] background"))
        ops: list[Op] = [_background_op(bg or "#ffffff", W, H)]
        boxes = self._boxes.get(ctype.slug)
        if boxes is None:
            boxes = self._boxes[ctype.slug] = [_Box.of(reg, W, H) for reg in lay.regions]
        for reg, box in zip(lay.regions, boxes):
            where = self._where(ctx, reg.name)
            if reg.opts["when"] and not self._eval(ctx, reg.opts["when"], where + " option 'when'"):
                continue
            shape_op = self._shape_op(ctx, reg, box, W, H, where)
            if shape_op:
                ops.append(shape_op)
            planner = getattr(self, f"_plan_{reg.kind}")
            op = planner(ctx, reg, box, where)
            if op is not None:
                ops.append(_rotated(op, box, H, int(reg.opts["rotate"])))
        ops.extend(self._plan_provisional(ctx, W, H))
        return ops

    def _shape_op(self, ctx: _Ctx, reg: Region, box: "_Box", W: float, H: float,
                  where: str) -> Op | None:
        o = reg.opts
        fill = self._colour(ctx, o["fill"], where + " option 'fill'")
        stroke = self._colour(ctx, o["stroke"], where + " option 'stroke'")
        if reg.kind == "shape" and not fill and not stroke:
            stroke = "#000000"          # a shape with neither would be invisible: outline it
        if not fill and not stroke:
            return None
        key = ("shape", ctx.ctype.slug, reg.name, fill, stroke)   # drawn alike on every card
        op = self._static.get(key)
        if op is None:
            op = self._static[key] = _shape_op(reg, box, W, H, fill, stroke)
        return op

    def _plan_shape(self, ctx: _Ctx, reg: Region, box: "_Box", where: str) -> Op | None:
        return None                       # the shape itself is drawn by _shape_op

    def _spans(self, ctx: _Ctx, raw: str, bold: bool, keywords: bool) -> list[tx.Span]:
        """Markup -> spans, with the layout's keyword styles resolved for this card."""
        spans = tx.parse_markup(raw, ctx.layout.icons)
        if bold:
            spans = [tx.Span(s.text, True, s.colour, s.icon, s.mark) for s in spans]
        if keywords and ctx.layout.keywords:
            spans = tx.apply_keywords(spans, self._keywords(ctx))
        if any(s.mark for s in spans):
            ctx.marks_used = True
        return spans

    def _keywords(self, ctx: _Ctx) -> dict[str, dict[str, Any]]:
        """The layout's keyword styles with colours resolved (once per layout when no colour
        depends on the card)."""
        key = ("keywords", ctx.ctype.slug)
        kws = self._static.get(key)
        if kws is None:
            kws = {w: {"icon": k["icon"], "bold": k["bold"],
                       "colour": self._colour(ctx, k["colour"], f"[keywords.{w}]")}
                   for w, k in ctx.layout.keywords.items()}
            if all(_card_free(k["colour"]) for k in ctx.layout.keywords.values()):
                self._static[key] = kws
        return kws

    def _template_text(self, ctx: _Ctx, source: str, where: str) -> str:
        """Render a text template; a region that read a provisional value shows the sign."""
        raw = self._render(ctx, source, where, track=True)
        if ctx.tracker.read and tx.MARK not in raw and raw.strip():
            raw = raw.rstrip() + tx.MARK
        return _tidy(raw)

    def _atoms_checked(self, ctx: _Ctx, spans: list[tx.Span], where: str) -> list[tx.Atom]:
        atoms = tx.atomize(spans, ctx.measure)
        missing = tx.missing_chars(atoms, ctx.measure)
        if missing:
            ch, font = missing[0]
            more = f" (and {len(missing) - 1} more)" if len(missing) > 1 else ""
            raise PnpError(f"{where}: font {font} has no glyph for {fontmod.describe_char(ch)}"
                           f"{more}; change the text, never print a blank box")
        return atoms

    def _plan_text(self, ctx: _Ctx, reg: Region, box: "_Box", where: str) -> Op | None:
        o = reg.opts
        raw = self._template_text(ctx, o["text"], where + " option 'text'")
        if not raw.strip():
            return None
        colour = self._colour(ctx, o["colour"], where + " option 'colour'") or "#1a1a1a"
        spans = self._spans(ctx, raw, o["font"] == "bold", o["keywords"])
        bw, bh = box.content(int(o["rotate"]), o["padding"])
        size, min_size, shrink = o["size"], min(o["min_size"], o["size"]), o["fit"] == "shrink"
        # the same text in the same region (copies, shared labels, repeated rules): one fit
        key = (ctx.ctype.slug, tuple(spans), bw, bh, size, min_size, o["leading"], shrink)
        fitted = self._fits.lookup(key)
        if fitted is _MISSING:
            atoms = self._atoms_checked(ctx, spans, where)
            try:
                fitted = tx.fit(atoms, bw, bh, size, min_size, o["leading"], ctx.measure,
                                shrink=shrink)
            except tx.Overflow as e:
                raise PnpError(f"{where}: {e.describe()} (region {box.w:g}×{box.h:g} mm; shorten "
                               "the text, enlarge the region or lower min_size)") from e
            fitted = self._fits.store(key, fitted.for_drawing())
        painter = self._icon_painter(ctx)
        mark_colour = self._colour(ctx, ctx.layout.provisional["mark_colour"], where) or "#b03a2e"
        return _padded(_TextOp(fitted, o["align"], o["valign"], colour, ctx.measure, painter,
                               mark_colour), o["padding"])

    def _plan_rows(self, ctx: _Ctx, reg: Region, box: "_Box", where: str) -> Op | None:
        o = reg.opts
        items = self._eval(ctx, o["items"], where + " option 'items'") or []
        if not isinstance(items, (list, tuple)):
            raise PnpError(f"{where}: option 'items' must give a list of (label, value) pairs, "
                           f"got {type(items).__name__}")
        colour = self._colour(ctx, o["colour"], where) or "#1a1a1a"
        lcolour = self._colour(ctx, o["label_colour"], where) or "#666666"
        rule = self._colour(ctx, o["rule"], where)
        spans: list[tuple[list[tx.Span], list[tx.Span]]] = []
        for item in items:
            label, value = _pair(item, where)
            vtext = _tidy(self._finalize(value))
            if not vtext:
                continue
            lspans = [tx.Span(_tidy(str(label)), o["label_font"] == "bold", lcolour)]
            vspans = self._spans(ctx, vtext, o["font"] == "bold", o["keywords"])
            vspans = [s if s.colour else tx.Span(s.text, s.bold, colour, s.icon, s.mark)
                      for s in vspans]
            spans.append((lspans, vspans))
        if not spans:
            return None
        bw, bh = box.content(int(o["rotate"]), o["padding"])
        m = ctx.measure
        size, min_size = o["size"], min(o["min_size"], o["size"])
        key = ("rows", ctx.ctype.slug, tuple((tuple(ls), tuple(vs)) for ls, vs in spans),
               bw, bh, size, min_size, o["leading"])
        laid = self._fits.lookup(key)
        if laid is _MISSING:
            rows = [(self._atoms_checked(ctx, ls, where), self._atoms_checked(ctx, vs, where))
                    for ls, vs in spans]
            try:
                laid = _fit_rows(rows, bw, bh, size, min_size, o["leading"], m)
            except tx.Overflow as e:
                raise PnpError(f"{where}: {e.describe()} (region {box.w:g}×{box.h:g} mm)") from e
            laid = self._fits.store(key, laid.for_drawing())
        painter = self._icon_painter(ctx)
        mark_colour = self._colour(ctx, ctx.layout.provisional["mark_colour"], where) or "#b03a2e"
        return _padded(_RowsOp(laid, m, painter, mark_colour, colour, rule), o["padding"])

    def _plan_icon(self, ctx: _Ctx, reg: Region, box: "_Box", where: str) -> Op | None:
        o = reg.opts
        name = self._render(ctx, o["icon"], where + " option 'icon'", track=True,
                            marks=False).strip()
        if not name:
            return None
        mark = self._mark_painter(ctx, where) if ctx.tracker.read else None
        spec = self._icon_spec(ctx, name, where)
        return _IconOp(spec, name, o["align"], ctx.measure, self.fonts, mark)

    def _plan_icons(self, ctx: _Ctx, reg: Region, box: "_Box", where: str) -> Op | None:
        o = reg.opts
        items = self._eval(ctx, o["items"], where + " option 'items'", track=True)
        marked = bool(ctx.tracker.read)
        if items in (None, "", []):
            return None
        if isinstance(items, (str, int)):
            items = [items]
        names = [str(i) for i in items]
        specs = [self._icon_spec(ctx, n, where, o["default"]) for n in names]
        mark = self._mark_painter(ctx, where) if marked else None
        return _IconsOp(specs, names, o["direction"], o["gap"] * MM, o["align"], ctx.measure,
                        self.fonts, mark)

    def _mark_painter(self, ctx: _Ctx, where: str) -> Callable[[Any, float, float, float], None]:
        """The provisional sign beside a graphic (icons), top-aligned at (x, top)."""
        colour = self._colour(ctx, ctx.layout.provisional["mark_colour"], where) or "#b03a2e"
        ctx.marks_used = True
        return _mark_paint(colour, ctx.layout.provisional["mark"], self.fonts.regular)

    def _icon_spec(self, ctx: _Ctx, name: str, where: str, default: str = "") -> dict[str, Any]:
        """An icon's look with its colours resolved for this card (shared, not to be changed:
        kept per layout when none of its colours depends on the card)."""
        key = ("icon", ctx.ctype.slug, name, default)
        spec = self._static.get(key)
        if spec is None:
            spec = self._resolve_icon(ctx, name, where, default)
            base = ctx.layout.icons.get(name) or ctx.layout.icons[default]
            if all(_card_free(base[k]) for k in ("fill", "stroke", "text_colour")):
                self._static[key] = spec
        return spec

    def _resolve_icon(self, ctx: _Ctx, name: str, where: str, default: str) -> dict[str, Any]:
        spec = ctx.layout.icons.get(name)
        if spec is None and default:
            spec = dict(ctx.layout.icons[default], text=name)
            self._check_plain(ctx, name, self.fonts.bold if spec["font"] == "bold"
                              else self.fonts.regular, where)
        if spec is None:
            raise PnpError(f"{where}: icon '{name}' is not declared in the layout "
                           f"(icons: {', '.join(ctx.layout.icons) or 'none'})")
        spec = dict(spec)
        for key in ("fill", "stroke", "text_colour"):
            spec[key] = self._colour(ctx, spec[key], f"{where} [icons.{name}] {key}")
        return spec

    def _icon_painter(self, ctx: _Ctx) -> tx.IconPainter:
        key = ("painter", ctx.ctype.slug)
        painter = self._static.get(key)
        if painter is None:
            painter = self._make_icon_painter(ctx)
            if all(("icon", ctx.ctype.slug, name, "") in self._static for name in ctx.layout.icons):
                self._static[key] = painter      # no icon colour depends on the card
        return painter

    def _make_icon_painter(self, ctx: _Ctx) -> tx.IconPainter:
        specs: dict[str, dict[str, Any]] = {}
        m, fonts = ctx.measure, self.fonts

        def paint(c: Any, name: str, x: float, baseline: float, size: float) -> None:
            if name not in specs:     # markup only makes declared icons: resolved below
                specs[name] = self._icon_spec(ctx, name, "inline icon")
            spec = specs[name]
            h = size * spec["scale"]
            w = _badge_width(m, spec, name, h, fonts)
            centre = baseline + (tx.ASCENT - 0.5) * size
            c.saveState()
            _draw_badge(c, spec, name, x + 0.12 * size, centre - h / 2, w, h, m, fonts)
            c.restoreState()
        # resolve colours now, so a bad colour is a planning error, not a drawing one
        for name in ctx.layout.icons:
            specs[name] = self._icon_spec(ctx, name, "inline icon")
        return paint

    def _plan_image(self, ctx: _Ctx, reg: Region, box: "_Box", where: str) -> Op | None:
        o = reg.opts
        source = self._render(ctx, o["source"], where + " option 'source'", marks=False).strip()
        empty = self._colour(ctx, o["empty_colour"], where) or "#d9d4cc"
        if not source:
            return _hatch_op(empty) if o["empty"] == "pattern" else None
        path = Path(source)
        if not path.is_absolute():
            path = self.base_dir / path
        bw, bh = box.content(int(o["rotate"]), 0.0)
        px = (max(1, round(bw / 72 * o["dpi"])), max(1, round(bh / 72 * o["dpi"])))
        try:
            image = self._load_image(path, px, o["fit"])
        except FileNotFoundError:
            self._warnings.append(f"{where}: art file {path} not found; printed a placeholder")
            return self._placeholder_op(ctx, empty, path.name)
        except Exception as e:  # unreadable or unsupported image
            self._warnings.append(f"{where}: cannot read art file {path} ({e}); "
                                  "printed a placeholder")
            return self._placeholder_op(ctx, empty, path.name)
        return _ImageOp(image, o["fit"])

    def _load_image(self, path: Path, px: tuple[int, int], fit: str) -> tuple[Any, int, int]:
        """Open, orient and resample art to the region at the wanted dpi (cached)."""
        from pnpforge.artfile import check_art, check_pixels
        check_art(path, self.base_dir)
        stat = path.stat()
        key = (str(path), stat.st_mtime_ns, stat.st_size, px, fit)
        if key in self._images:
            return self._images[key]
        from PIL import Image, ImageOps
        from reportlab.lib.utils import ImageReader
        with Image.open(path) as im:
            check_pixels(path, im.width, im.height)
            im = ImageOps.exif_transpose(im)
            if im.mode in ("RGBA", "LA", "P"):
                im = im.convert("RGBA")
                flat = Image.new("RGB", im.size, (255, 255, 255))
                flat.paste(im, mask=im.split()[-1])
                im = flat
            else:
                im = im.convert("RGB")
            if fit == "cover":
                im = ImageOps.fit(im, px, Image.Resampling.LANCZOS)
            else:
                im = ImageOps.contain(im, px, Image.Resampling.LANCZOS)
            im.load()
        result = (ImageReader(im), im.width, im.height)
        self._images[key] = result
        return result

    def _placeholder_op(self, ctx: _Ctx, colour: str, filename: str) -> Op:
        label = f"{self._word('missing')} {filename}"
        label = "".join(ch for ch in label
                        if not fontmod.missing_glyphs(ch, self.fonts.regular)) or "?"
        hatch = _hatch_op(colour)
        font = self.fonts.regular
        dark = mix(colour, "#000000", 0.45)

        def op(c: Any, x: float, y: float, w: float, h: float) -> None:
            hatch(c, x, y, w, h)
            c.setStrokeColorRGB(*hex_to_rgb(dark))
            c.setLineWidth(0.5)
            c.setDash(2, 2)
            c.rect(x + 1, y + 1, w - 2, h - 2, stroke=1, fill=0)
            c.setDash()
            size = min(6.0, h * 0.3)
            from reportlab.pdfbase.pdfmetrics import stringWidth
            text = label
            while stringWidth(text, font, size) > w - 4 and len(text) > 2:
                text = text[:-2] + "…"
            c.setFillColorRGB(*hex_to_rgb(dark))
            c.setFont(font, size)
            c.drawCentredString(x + w / 2, y + h / 2 - size * 0.35, text)
        return op

    # -- provisional badge and stamp --------------------------------------------------------

    def _plan_provisional(self, ctx: _Ctx, W: float, H: float) -> list[Op]:
        card, lay = ctx.card, ctx.layout
        assert card is not None
        pv, st = lay.provisional, lay.stamp
        safe = lay.card["safe_margin"]
        ops: list[Op] = []
        badge_text = ""
        if card.is_provisional and pv["badge"]:
            badge_text = self._word("badge") if pv["badge"] == "auto" else \
                self._render(ctx, pv["badge"], self._where(ctx, "[provisional] badge")).strip()
        d = pv["badge_size"]
        corner = pv["position"]
        if badge_text:
            fill = self._colour(ctx, pv["badge_fill"], "[provisional] badge_fill") or "#b03a2e"
            tcol = self._colour(ctx, pv["badge_text_colour"], "[provisional]") or "#ffffff"
            self._check_plain(ctx, badge_text, self.fonts.bold,
                              self._where(ctx, "[provisional] badge"))
            bx = safe if corner.endswith("left") else W - safe - d
            by = safe if corner.startswith("top") else H - safe - d
            ops.append(_badge_op(badge_text, bx, by, d, H, fill, tcol, self.fonts.bold,
                                 whole=card.provenance == "provisional"))
        if st["enabled"]:
            ops.extend(self._plan_stamp(ctx, W, H, safe, badge_text, d, corner))
        return ops

    def _check_plain(self, ctx: _Ctx, text: str, font: str, where: str) -> None:
        for ch in fontmod.missing_glyphs(text, font):
            raise PnpError(f"{where}: font {font} has no glyph for "
                           f"{fontmod.describe_char(ch)}")

    def _plan_stamp(self, ctx: _Ctx, W: float, H: float, safe: float, badge: str, d: float,
                    corner: str) -> list[Op]:
        st, pv = ctx.layout.stamp, ctx.layout.provisional
        where = self._where(ctx, "[stamp]")
        text = _tidy(self._render(ctx, st["text"], where)).replace("\n", " ")
        if ctx.marks_used and pv["legend"]:
            legend = f"{pv['mark']} {self._word('legend')}" \
                if pv["legend"] == "auto" else self._render(ctx, pv["legend"], where)
            text = f"{text} · {legend}" if text else legend
        if not text:
            return []
        colour = self._colour(ctx, st["colour"], where) or "#8a8a8a"
        spans = [tx.Span(text, False, colour)]
        atoms = self._atoms_checked(ctx, spans, where)
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
        try:
            fitted = tx.fit(atoms, box_w, box_h, st["size"], min(st["min_size"], st["size"]),
                            1.0, ctx.measure)
            if len(fitted.lines) > 1:
                raise tx.Overflow(len(fitted.lines) - 1, sum(ln.chars() for ln in fitted.lines[1:]),
                                  "", st["min_size"])
        except tx.Overflow as e:
            raise PnpError(f"{where}: the stamp “{text}” does not fit on one line even at "
                           f"{st['min_size']:g} pt ({e.chars_over} characters over); shorten "
                           "[stamp] text") from e
        return [_StampOp(fitted.for_drawing(), left, top, line_h, box_w, box_h, H, st["align"],
                         ctx.measure, colour)]

    # -- backs ----------------------------------------------------------------------------------

    def _plan_back(self, slug: str) -> list[Op]:
        if slug not in self._backs:
            self._backs[slug] = self._build_back(slug)
        return self._backs[slug]

    def _build_back(self, slug: str) -> list[Op]:
        ctype = self._ctype(slug)
        ctx = self._context(None, ctype)
        b = ctx.layout.back
        where = self._where(ctx, "[back]")
        colour = self._colour(ctx, b["colour"], where) or \
            (ctype.back.get("colour") if is_hex_colour(str(ctype.back.get("colour", ""))) else None) \
            or "#34495e"
        ink = self._colour(ctx, b["text_colour"], where) or readable_on(colour)
        pattern_colour = self._colour(ctx, b["pattern_colour"], where) or mix(colour, ink, 0.12)
        W, H = ctype.width_mm, ctype.height_mm
        ops: list[Op] = [_background_op(colour, W, H),
                         _pattern_op(b["pattern"], pattern_colour, W, H)]
        inset = b["frame_inset"]
        if b["frame"]:
            ops.append(_frame_op(mix(colour, ink, 0.55), W, H, inset))
        title = _tidy(self._render(ctx, b["title"], where + " title"))
        subtitle = _tidy(self._render(ctx, b["subtitle"], where + " subtitle"))
        footer = _tidy(self._render(ctx, b["footer"], where + " footer"))
        inner_w = W - 2 * inset - 4
        band_h = min(H * 0.36, 30.0)
        band_y = (H - band_h) / 2
        ops.append(_band_op(mix(colour, "#000000", 0.25), mix(colour, ink, 0.55),
                            inset, band_y, W - 2 * inset, band_h, H))
        if title:
            ops.append(self._centred_text(ctx, title, inset + 2, band_y + 2, inner_w,
                                          band_h * 0.62 - 2, b["title_size"], self.fonts.bold,
                                          ink, H, "back title", valign="bottom"))
        if subtitle:
            ops.append(self._centred_text(ctx, subtitle, inset + 2, band_y + band_h * 0.62 + 0.5,
                                          inner_w, band_h * 0.38 - 2.5, b["subtitle_size"],
                                          self.fonts.regular, mix(ink, colour, 0.15), H,
                                          "back subtitle", valign="top"))
        if footer:
            ops.append(self._centred_text(ctx, footer, inset + 2, H - inset - 7, inner_w, 4.5,
                                          6.0, self.fonts.regular, mix(ink, colour, 0.25), H,
                                          "back footer", valign="middle"))
        return ops

    def _centred_text(self, ctx: _Ctx, text: str, x: float, y: float, w: float, h: float,
                      size: float, font: str, colour: str, H: float, what: str,
                      valign: str) -> Op:
        bold = font == self.fonts.bold
        atoms = self._atoms_checked(ctx, [tx.Span(text, bold, colour)], self._where(ctx, what))
        try:
            fitted = tx.fit(atoms, w * MM, h * MM, size, min(4.0, size), 1.15, ctx.measure)
        except tx.Overflow as e:
            raise PnpError(f"{self._where(ctx, what)}: {e.describe()}") from e
        m = ctx.measure

        def op(c: Any, ox: float, oy: float, bleed: float) -> None:
            tx.draw(c, fitted, ox + x * MM, oy + (H - y - h) * MM, w * MM, h * MM, "center",
                    valign, colour, m, None, colour)
        return op


_ENVS: dict[bool, tuple[Any, Callable[[Any], str]]] = {}
_COMPILED = _LRU(1024)      # (zh, source, expression) -> compiled template or expression


def _environment(zh: bool) -> tuple[Any, Callable[[Any], str]]:
    """The sandboxed Jinja2 environment (one per script: lists and yes/no differ) and its
    finalize, which prints values as cards show them and marks provisional ones."""
    if zh in _ENVS:
        return _ENVS[zh]
    from jinja2 import Undefined

    from pnpforge.render.templating import sandboxed_environment

    sep = "、" if zh else ", "
    yes, no = ("是", "否") if zh else ("yes", "no")

    def plain(v: Any) -> str:
        if v is None or isinstance(v, Undefined):
            return ""
        if isinstance(v, bool):
            return yes if v else no
        if isinstance(v, float) and v.is_integer():
            return str(int(v))
        if isinstance(v, (list, tuple)):
            return sep.join(plain(x) for x in v)
        return str(v)

    def finalize(v: Any) -> str:
        s = plain(v)
        return s + tx.MARK if s and getattr(v, "pnp_prov", False) else s

    env = sandboxed_environment(finalize=finalize)
    _ENVS[zh] = (env, finalize)
    return _ENVS[zh]


def _card_free(colour: str) -> bool:
    """A colour option that resolves the same on every card (hex, palette name or empty)."""
    return "{{" not in colour and colour not in ("category", "category2")


def _flatten_globals(tmpl: Any) -> None:
    """Give a compiled template its globals as a plain dict instead of Jinja's ChainMap.

    Every render copies the globals into a new context, and iterating a ChainMap
    costs more than the rest of a one-line template's render; the environment's
    globals never change after set-up, so the copy is the same mapping.
    """
    if tmpl is not None and not isinstance(getattr(tmpl, "globals", None), dict):
        tmpl.globals = dict(tmpl.globals)


# ---- geometry helpers -------------------------------------------------------------------------


@dataclass
class _Box:
    """A region's box in mm from the trim's top-left."""

    x: float
    y: float
    w: float
    h: float

    @classmethod
    def of(cls, reg: Region, W: float, H: float) -> "_Box":
        o = reg.opts
        return cls(*(eval_length(o[k], W, H) for k in ("x", "y", "w", "h")))

    def points(self, ox: float, oy: float, H: float) -> tuple[float, float, float, float]:
        return ox + self.x * MM, oy + (H - self.y - self.h) * MM, self.w * MM, self.h * MM

    def content(self, rotate: int, padding: float) -> tuple[float, float]:
        w, h = (self.w - 2 * padding) * MM, (self.h - 2 * padding) * MM
        return (h, w) if rotate in (90, 270) else (w, h)

    def bleed(self, x: float, y: float, w: float, h: float, W: float, H: float,
              b: float) -> tuple[float, float, float, float]:
        e = 0.01
        if self.x <= e:
            x, w = x - b, w + b
        if self.x + self.w >= W - e:
            w += b
        if self.y + self.h >= H - e:
            y, h = y - b, h + b
        if self.y <= e:
            h += b
        return x, y, w, h


BoxOp = Callable[[Any, float, float, float, float], None]   # (canvas, x, y, w, h) in points


# Ops a face's plan keeps are small slotted objects rather than closures: a plan
# lives as long as its card may be drawn again, and objects with few parts keep
# the garbage collector's rounds short.


class _Padded:
    """A box-drawing op inset by the region's padding."""

    __slots__ = ("op", "p")

    def __init__(self, op: BoxOp, p: float) -> None:
        self.op, self.p = op, p

    def __call__(self, c: Any, x: float, y: float, w: float, h: float) -> None:
        p = self.p
        self.op(c, x + p, y + p, w - 2 * p, h - 2 * p)


def _padded(op: BoxOp, padding: float) -> BoxOp:
    if not padding:
        return op
    return _Padded(op, padding * MM)


class _Placed:
    """A box-drawing op placed on the card, turned about the box centre."""

    __slots__ = ("op", "box", "H", "rotate")

    def __init__(self, op: BoxOp, box: "_Box", H: float, rotate: int) -> None:
        self.op, self.box, self.H, self.rotate = op, box, H, rotate

    def __call__(self, c: Any, ox: float, oy: float, bleed: float) -> None:
        x, y, w, h = self.box.points(ox, oy, self.H)
        rotate = self.rotate
        if not rotate:
            self.op(c, x, y, w, h)
            return
        c.translate(x + w / 2, y + h / 2)
        c.rotate(rotate)
        if rotate in (90, 270):
            w, h = h, w
        self.op(c, -w / 2, -h / 2, w, h)


def _rotated(op: BoxOp, box: _Box, H: float, rotate: int) -> Op:
    """Place a box-drawing op on the card, turned about the box centre."""
    return _Placed(op, box, H, rotate)


class _TextOp:
    """A text region's fitted lines, drawn in its (padded) box."""

    __slots__ = ("fitted", "align", "valign", "colour", "m", "painter", "mark_colour")

    def __init__(self, fitted: tx.Fitted, align: str, valign: str, colour: str, m: tx.Measure,
                 painter: tx.IconPainter, mark_colour: str) -> None:
        self.fitted, self.align, self.valign, self.colour = fitted, align, valign, colour
        self.m, self.painter, self.mark_colour = m, painter, mark_colour

    def __call__(self, c: Any, x: float, y: float, w: float, h: float) -> None:
        tx.draw(c, self.fitted, x, y, w, h, self.align, self.valign, self.colour, self.m,
                self.painter, self.mark_colour)


class _RowsOp:
    """A rows region's laid-out label/value pairs."""

    __slots__ = ("laid", "m", "painter", "mark_colour", "colour", "rule")

    def __init__(self, laid: "_Rows", m: tx.Measure, painter: tx.IconPainter, mark_colour: str,
                 colour: str, rule: str | None) -> None:
        self.laid, self.m, self.painter = laid, m, painter
        self.mark_colour, self.colour, self.rule = mark_colour, colour, rule

    def __call__(self, c: Any, x: float, y: float, w: float, h: float) -> None:
        _draw_rows(c, self.laid, x, y, w, h, self.m, self.painter, self.mark_colour,
                   self.colour, self.rule)


class _IconOp:
    """One icon filling its region's height (scaled down whole when too wide)."""

    __slots__ = ("spec", "name", "align", "m", "fonts", "mark")

    def __init__(self, spec: dict[str, Any], name: str, align: str, m: tx.Measure, fonts: Any,
                 mark: Callable[[Any, float, float, float], None] | None) -> None:
        self.spec, self.name, self.align, self.m, self.fonts, self.mark = \
            spec, name, align, m, fonts, mark

    def __call__(self, c: Any, x: float, y: float, w: float, h: float) -> None:
        spec, name, align = self.spec, self.name, self.align
        natural = _badge_width(self.m, spec, name, h, self.fonts)
        bw = min(w, natural)
        bh = h * bw / natural           # too wide for the region: scale it down whole
        bx = x if align == "left" else x + (w - bw) / 2 if align == "center" else x + w - bw
        _draw_badge(c, spec, name, bx, y + (h - bh) / 2, bw, bh, self.m, self.fonts)
        if self.mark:
            self.mark(c, bx + bw + 0.4, y + (h + bh) / 2, bh)


class _IconsOp:
    """A row or column of icons, scaled down together when they do not fit."""

    __slots__ = ("specs", "names", "direction", "gap", "align", "m", "fonts", "mark")

    def __init__(self, specs: list[dict[str, Any]], names: list[str], direction: str, gap: float,
                 align: str, m: tx.Measure, fonts: Any,
                 mark: Callable[[Any, float, float, float], None] | None) -> None:
        self.specs, self.names, self.direction, self.gap = specs, names, direction, gap
        self.align, self.m, self.fonts, self.mark = align, m, fonts, mark

    def __call__(self, c: Any, x: float, y: float, w: float, h: float) -> None:
        specs, names, direction, gap, align = \
            self.specs, self.names, self.direction, self.gap, self.align
        m, fonts, mark = self.m, self.fonts, self.mark
        size = h if direction == "row" else w
        widths = [_badge_width(m, s, n, size, fonts) for s, n in zip(specs, names)]
        if direction == "row":
            total = sum(widths) + gap * (len(widths) - 1)
            scale = min(1.0, w / total) if total > 0 else 1.0
        else:
            total = size * len(widths) + gap * (len(widths) - 1)
            scale = min(1.0, h / total) if total > 0 else 1.0
        size *= scale
        widths = [wd * scale for wd in widths]
        g = gap * scale
        if direction == "row":
            total = sum(widths) + g * (len(widths) - 1)
            px = x if align == "left" else x + (w - total) / 2 if align == "center" \
                else x + w - total
            for s, n, bw in zip(specs, names, widths):
                _draw_badge(c, s, n, px, y + (h - size) / 2, bw, size, m, fonts)
                px += bw + g
            if mark:
                mark(c, px - g + 0.4, y + (h + size) / 2, size)
        else:
            py = y + h - size
            for s, n, bw in zip(specs, names, widths):
                bw = min(bw, w)
                bx = x if align == "left" else x + (w - bw) / 2 if align == "center" \
                    else x + w - bw
                _draw_badge(c, s, n, bx, py, bw, size, m, fonts)
                py -= size + g
            if mark:
                mark(c, x + w - 1, py + g + size, size)


class _ImageOp:
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


class _StampOp:
    """The stamp line inside the safe area."""

    __slots__ = ("fitted", "left", "top", "line_h", "box_w", "box_h", "H", "align", "m",
                 "colour")

    def __init__(self, fitted: tx.Fitted, left: float, top: float, line_h: float, box_w: float,
                 box_h: float, H: float, align: str, m: tx.Measure, colour: str) -> None:
        self.fitted, self.left, self.top, self.line_h = fitted, left, top, line_h
        self.box_w, self.box_h, self.H, self.align, self.m, self.colour = \
            box_w, box_h, H, align, m, colour

    def __call__(self, c: Any, ox: float, oy: float, bleed: float) -> None:
        x = ox + self.left * MM
        y = oy + (self.H - self.top - self.line_h) * MM
        tx.draw(c, self.fitted, x, y, self.box_w, self.box_h, self.align, "middle", self.colour,
                self.m, None, self.colour)


def _shape_op(reg: Region, box: "_Box", W: float, H: float, fill: str | None,
              stroke: str | None) -> Op:
    """A region's shape in its fill and outline colours (into the bleed if it asks)."""
    o = reg.opts
    shape, radius, sw, use_bleed = o["shape"], o["radius"], o["stroke_width"], o["bleed"]

    def op(c: Any, ox: float, oy: float, bleed: float) -> None:
        x, y, w, h = box.points(ox, oy, H)
        if use_bleed and bleed > 0:
            x, y, w, h = box.bleed(x, y, w, h, W, H, bleed)
        if fill:
            c.setFillColorRGB(*hex_to_rgb(fill))
        if stroke:
            c.setStrokeColorRGB(*hex_to_rgb(stroke))
            c.setLineWidth(sw * MM)
        _draw_shape(c, shape, x, y, w, h, radius * MM, bool(fill), bool(stroke))
    return op


@lru_cache(maxsize=256)
def _mark_paint(colour: str, sign: str, font: str) -> Callable[[Any, float, float, float], None]:
    """The provisional sign beside a graphic (icons), top-aligned at (x, top)."""

    def paint(c: Any, x: float, top: float, size: float) -> None:
        s = min(tx.MARK_MAX, size * 0.6)
        c.setFillColorRGB(*hex_to_rgb(colour))
        c.setFont(font, s)
        c.drawString(x, top - tx.ASCENT * s, sign)
    return paint


@lru_cache(maxsize=256)
def _background_op(colour: str, W: float, H: float) -> Op:
    def op(c: Any, ox: float, oy: float, bleed: float) -> None:
        c.setFillColorRGB(*hex_to_rgb(colour))
        c.rect(ox - bleed, oy - bleed, W * MM + 2 * bleed, H * MM + 2 * bleed, stroke=0, fill=1)
    return op


def _draw_shape(c: Any, shape: str, x: float, y: float, w: float, h: float, radius: float,
                fill: bool, stroke: bool) -> None:
    p = c.beginPath()
    cx, cy = x + w / 2, y + h / 2
    if shape == "rect":
        p.rect(x, y, w, h)
    elif shape == "rounded":
        p.roundRect(x, y, w, h, min(radius, w / 2, h / 2))
    elif shape == "circle":
        r = min(w, h) / 2
        p.circle(cx, cy, r)
    elif shape == "ellipse":
        p.ellipse(x, y, w, h)
    else:
        pts = _polygon(shape, x, y, w, h)
        p.moveTo(*pts[0])
        for pt in pts[1:]:
            p.lineTo(*pt)
        p.close()
    c.drawPath(p, fill=1 if fill else 0, stroke=1 if stroke else 0)


def _polygon(shape: str, x: float, y: float, w: float, h: float) -> list[tuple[float, float]]:
    cx, cy, t, r = x + w / 2, y + h / 2, y + h, x + w
    if shape == "diamond":
        return [(cx, t), (r, cy), (cx, y), (x, cy)]
    if shape == "pentagon":
        return [(cx, t), (r, y + h * 0.62), (x + w * 0.81, y), (x + w * 0.19, y), (x, y + h * 0.62)]
    if shape == "inv-pentagon":
        return [(cx, y), (r, y + h * 0.38), (x + w * 0.81, t), (x + w * 0.19, t), (x, y + h * 0.38)]
    if shape == "hexagon":
        k = min(w * 0.25, h * 0.29)
        return [(x + k, t), (r - k, t), (r, cy), (r - k, y), (x + k, y), (x, cy)]
    if shape == "banner":
        k = min(h * 0.35, w * 0.2)
        return [(x, y), (r, y), (r - k, cy), (r, t), (x, t)]
    raise PnpError(f"unknown shape '{shape}'")  # pragma: no cover - validated on load


def _badge_width(m: tx.Measure, spec: dict[str, Any], name: str, h: float, fonts: Any) -> float:
    """Badges are square unless their text needs more room (then a pill or wide box)."""
    if spec["shape"] not in ("rounded", "rect", "circle", "none"):
        return h
    font = fonts.bold if spec["font"] == "bold" else fonts.regular
    text = spec["text"] or name
    tw = m.text(text, font) * h * 0.62
    return max(h, tw + h * 0.45)


def _draw_badge(c: Any, spec: dict[str, Any], name: str, x: float, y: float, w: float, h: float,
                m: tx.Measure, fonts: Any) -> None:
    shape = spec["shape"]
    fill, stroke = spec["fill"], spec["stroke"]
    if shape != "none":
        if fill:
            c.setFillColorRGB(*hex_to_rgb(fill))
        if stroke:
            c.setStrokeColorRGB(*hex_to_rgb(stroke))
            c.setLineWidth(max(0.3, h * 0.06))
        kind = {"circle": "rounded"}.get(shape, shape)
        radius = h / 2 if shape == "circle" else h * 0.22
        _draw_shape(c, kind, x, y, w, h, radius, bool(fill), bool(stroke))
    text = spec["text"] or name
    font = fonts.bold if spec["font"] == "bold" else fonts.regular
    tcol = spec["text_colour"] or (readable_on(fill) if fill and shape != "none" else "#1a1a1a")
    room = w * (0.62 if shape in ("diamond", "pentagon", "inv-pentagon", "hexagon") else 0.86)
    size = h * (0.62 if len(text) == 1 else 0.55)
    tw = m.text(text, font)
    if tw * size > room:
        size = room / tw
    c.setFillColorRGB(*hex_to_rgb(tcol))
    c.setFont(font, size)
    cy = y + h / 2
    if shape == "pentagon":
        cy = y + h * 0.45
    elif shape == "inv-pentagon":
        cy = y + h * 0.55
    c.drawCentredString(x + w / 2, cy - (tx.ASCENT - 0.5) * size, text)


@lru_cache(maxsize=256)
def _badge_op(text: str, x: float, y: float, d: float, H: float, fill: str, tcol: str,
              font: str, whole: bool) -> Op:
    """The provisional badge: filled for a wholly provisional card, an outline otherwise."""

    def op(c: Any, ox: float, oy: float, bleed: float) -> None:
        cx, cy = ox + (x + d / 2) * MM, oy + (H - y - d / 2) * MM
        r = d / 2 * MM
        c.setLineWidth(0.6)
        c.setStrokeColorRGB(*hex_to_rgb(fill))
        if whole:
            c.setFillColorRGB(*hex_to_rgb(fill))
            c.circle(cx, cy, r, stroke=1, fill=1)
            c.setFillColorRGB(*hex_to_rgb(tcol))
        else:
            c.setFillColorRGB(1, 1, 1)
            c.circle(cx, cy, r, stroke=1, fill=1)
            c.setFillColorRGB(*hex_to_rgb(fill))
        size = r * (1.15 if len(text) == 1 else 0.8)
        c.setFont(font, size)
        c.drawCentredString(cx, cy - (tx.ASCENT - 0.5) * size, text)
    return op


@lru_cache(maxsize=256)
def _hatch_op(colour: str) -> BoxOp:
    """Soft diagonal hatching: an art slot waiting for art."""
    from pnpforge.render.units import luminance
    # light slot on light cards, dark slot on dark ones: the colour sets the mood
    ground = mix(colour, "#ffffff", 0.55) if luminance(colour) > 0.2 else mix(colour, "#000000", 0.35)

    def op(c: Any, x: float, y: float, w: float, h: float) -> None:
        c.setFillColorRGB(*hex_to_rgb(ground))
        c.rect(x, y, w, h, stroke=0, fill=1)
        p = c.beginPath()
        p.rect(x, y, w, h)
        c.clipPath(p, stroke=0, fill=0)
        c.setStrokeColorRGB(*hex_to_rgb(colour))
        c.setLineWidth(0.4)
        step = 4.0
        k = -h
        while k < w:
            c.line(x + k, y, x + k + h, y + h)
            k += step
    return op


def _pattern_op(pattern: str, colour: str, W: float, H: float) -> Op:
    """Back patterns centred on the card, so mirroring the back changes nothing."""

    def op(c: Any, ox: float, oy: float, bleed: float) -> None:
        if pattern == "none":
            return
        x0, y0 = ox - bleed, oy - bleed
        w, h = W * MM + 2 * bleed, H * MM + 2 * bleed
        cx, cy = ox + W * MM / 2, oy + H * MM / 2
        p = c.beginPath()
        p.rect(x0, y0, w, h)
        c.clipPath(p, stroke=0, fill=0)
        c.setStrokeColorRGB(*hex_to_rgb(colour))
        c.setFillColorRGB(*hex_to_rgb(colour))
        c.setLineWidth(0.6)
        reach = math.hypot(w, h)
        step = 4 * MM
        n = int(reach / step) + 2
        if pattern == "lattice":
            for k in range(-n, n + 1):
                d = k * step
                c.line(cx + d - reach, cy - reach, cx + d + reach, cy + reach)
                c.line(cx - d + reach, cy - reach, cx - d - reach, cy + reach)
        elif pattern == "dots":
            for i in range(-n, n + 1):
                for j in range(-n, n + 1):
                    px, py = cx + i * step, cy + j * step
                    if x0 - 2 <= px <= x0 + w + 2 and y0 - 2 <= py <= y0 + h + 2:
                        c.circle(px, py, 0.45 * MM, stroke=0, fill=1)
        elif pattern == "rings":
            for k in range(1, n + 1):
                c.circle(cx, cy, k * step, stroke=1, fill=0)
        elif pattern == "stripes":
            c.setLineWidth(step * 0.35)
            for k in range(-n, n + 1):
                c.line(cx + k * step, y0, cx + k * step, y0 + h)
    return op


def _frame_op(colour: str, W: float, H: float, inset: float) -> Op:
    def op(c: Any, ox: float, oy: float, bleed: float) -> None:
        c.setStrokeColorRGB(*hex_to_rgb(colour))
        c.setLineWidth(0.8)
        c.roundRect(ox + inset * MM, oy + inset * MM, (W - 2 * inset) * MM,
                    (H - 2 * inset) * MM, 2.5 * MM, stroke=1, fill=0)
        c.setLineWidth(0.35)
        i2 = inset + 1.0
        c.roundRect(ox + i2 * MM, oy + i2 * MM, (W - 2 * i2) * MM, (H - 2 * i2) * MM,
                    1.8 * MM, stroke=1, fill=0)
    return op


def _band_op(fill: str, line: str, x: float, y: float, w: float, h: float, H: float) -> Op:
    def op(c: Any, ox: float, oy: float, bleed: float) -> None:
        bx, by = ox + x * MM, oy + (H - y - h) * MM
        c.setFillColorRGB(*hex_to_rgb(fill))
        c.rect(bx, by, w * MM, h * MM, stroke=0, fill=1)
        c.setStrokeColorRGB(*hex_to_rgb(line))
        c.setLineWidth(0.5)
        c.line(bx, by, bx + w * MM, by)
        c.line(bx, by + h * MM, bx + w * MM, by + h * MM)
    return op


# ---- rows ---------------------------------------------------------------------------------------


@dataclass
class _Row:
    label: tx.Fitted
    value: tx.Fitted
    height: float


@dataclass
class _Rows:
    rows: list[_Row]
    label_w: float
    size: float
    gap: float

    def for_drawing(self) -> "_Rows":
        """The same rows holding only what drawing reads (see tx.Fitted.for_drawing)."""
        return _Rows([_Row(r.label.for_drawing(), r.value.for_drawing(), r.height)
                      for r in self.rows], self.label_w, self.size, self.gap)


def _pair(item: Any, where: str) -> tuple[str, Any]:
    if isinstance(item, dict):
        return str(item.get("label", "")), item.get("value", "")
    if isinstance(item, (list, tuple)) and len(item) == 2:
        return str(item[0]), item[1]
    if isinstance(item, (str, int, float)):
        return "", item
    raise PnpError(f"{where}: each row must be a (label, value) pair, got {item!r}")


def _fit_rows(rows: list[tuple[list[tx.Atom], list[tx.Atom]]], width: float, height: float,
              size: float, min_size: float, leading: float, m: tx.Measure) -> _Rows:
    s = size
    last: list[tx.Line] = []
    while True:
        lw = max((sum(a.width for a in la) for la, _ in rows), default=0.0) * s
        label_w = min(lw + 0.8 * s if lw else 0.0, width * 0.55)
        vw = width - label_w
        out, total = [], 0.0
        lh = s * leading
        gap = 0.35 * lh
        ok = True
        for la, va in rows:
            llines = tx.break_lines(la, max(label_w - 0.8 * s, 1.0) / s, m) if la else []
            vlines = tx.break_lines(va, vw / s, m)
            if any(ln.width() * s > vw + 0.01 for ln in vlines):
                ok = False
            lf = tx.Fitted(llines, s, leading, tx.block_height(llines, s, leading))
            vf = tx.Fitted(vlines, s, leading, tx.block_height(vlines, s, leading))
            rh = max(lf.height, vf.height)
            out.append(_Row(lf, vf, rh))
            total += rh
            last = vlines
        total += gap * (len(rows) - 1)
        if ok and total <= height + 0.01:
            return _Rows(out, label_w, s, gap)
        if s <= min_size + 1e-9:
            over = total - height
            lines_over = max(1, math.ceil(over / lh))
            chars = sum(ln.chars() for ln in last)
            raise tx.Overflow(lines_over, chars, "rows", s)
        s = max(min_size, round(s - 0.25, 2))


def _draw_rows(c: Any, laid: _Rows, x: float, y: float, w: float, h: float, m: tx.Measure,
               painter: tx.IconPainter, mark_colour: str, colour: str, rule: str | None) -> None:
    top = y + h
    for i, row in enumerate(laid.rows):
        ry = top - row.height
        if row.label.lines:
            tx.draw(c, row.label, x, ry, laid.label_w, row.height, "left", "top", colour, m,
                    painter, mark_colour)
        tx.draw(c, row.value, x + laid.label_w, ry, w - laid.label_w, row.height, "left", "top",
                colour, m, painter, mark_colour)
        top = ry - laid.gap
        if rule and i < len(laid.rows) - 1:
            c.setStrokeColorRGB(*hex_to_rgb(rule))
            c.setLineWidth(0.3)
            c.line(x, ry - laid.gap / 2, x + w, ry - laid.gap / 2)


def _tidy(text: str) -> str:
    """Strip each line and collapse runs of blank lines that template logic leaves."""
    lines = [ln.strip() for ln in text.replace("\r\n", "\n").split("\n")]
    out: list[str] = []
    for ln in lines:
        if not ln and (not out or not out[-1]):
            continue
        out.append(ln)
    while out and not out[-1]:
        out.pop()
    return "\n".join(out)


def one_card_pdf(renderer: FaceRenderer, card: Card | None = None, back: str | None = None,
                 bleed_mm: float = 0.0) -> bytes:
    """A PDF page holding exactly one face (or one back): for previews and golden tests."""
    import io

    from reportlab.pdfgen import canvas as rl_canvas

    slug = card.type if card is not None else back
    if slug is None:
        raise PnpError("one_card_pdf needs a card or a back")
    W, H = renderer.size_mm(slug)
    b = bleed_mm * MM
    buf = io.BytesIO()
    c = rl_canvas.Canvas(buf, pagesize=(W * MM + 2 * b, H * MM + 2 * b), invariant=1,
                         initialFontName=renderer.fonts.regular, pageCompression=1)
    if card is not None:
        renderer.draw_face(c, card, b, b, b)
    else:
        renderer.draw_back(c, slug, b, b, b)
    c.showPage()
    c.save()
    return buf.getvalue()


def preview_png(renderer: FaceRenderer, card: Card | None = None, back: str | None = None,
                dpi: int = 150, bleed_mm: float = 0.0):
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
