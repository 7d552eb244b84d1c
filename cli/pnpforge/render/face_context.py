"""The template context a face is planned in: set-up, values, templates, colours.

Whatever does not depend on the card is worked out once per card type (the
template context, labels, icon widths); templates are compiled once per
process and shared by every renderer (a build draws prints, images and a
proof from the same compiled templates).
"""

from __future__ import annotations

import datetime
from pathlib import Path
from typing import Any

from jinja2 import TemplateSyntaxError

from pnpforge.errors import PnpError
from pnpforge.model import Card, CardType, Game
from pnpforge.render import fonts as fontmod
from pnpforge.render import text_atoms
from pnpforge.render.face_cache import (
    LRU,
    MISSING,
    REF_CACHE_SIZE,
    StaticText,
)
from pnpforge.render.face_paint import badge_width
from pnpforge.render.face_values import (
    COMPILED,
    CardView,
    FieldsView,
    PlanContext,
    ReadTracker,
    TypeVars,
    face_environment,
    mark_provisional,
)
from pnpforge.render.layout import Layout
from pnpforge.render.layout_game import load_game_layouts, source_line
from pnpforge.render.units import is_hex_colour
from pnpforge.resources import TemplateRoots, as_roots, project_templates, template_roots
from pnpforge.store import repo, translations
from pnpforge.store.location import db_folder as store_db_folder


def default_templates_dir(db_dir: Path) -> TemplateRoots:
    """The project's templates/ beside the database (file by file), then the shipped ones."""
    return template_roots(project_templates(db_dir))


def db_folder(db: Any) -> Path:
    """Folder of the database file: art paths are relative to it."""
    return store_db_folder(db) or Path.cwd()


class TemplateRunner:
    """A game's card types, layouts and fonts, and the template context of one card.

    The collaborator every planner holds: it renders templates, evaluates
    expressions and resolves colours for a card, and says where an error is.
    """

    def __init__(
        self, db: Any, game: str, templates_dir: Path | None = None, date: str | None = None
    ) -> None:
        self.game: Game = repo.get_game(db, game)
        self.types: dict[str, CardType] = {t.slug: t for t in repo.card_types(db, game)}
        self._db = db  # ref() looks cards up on demand, not all at once
        self._refs = LRU(REF_CACHE_SIZE)
        self.base_dir = db_folder(db)
        self.templates_dir = (
            as_roots(templates_dir) if templates_dir else default_templates_dir(self.base_dir)
        )
        self.date = date or datetime.date.today().isoformat()
        self.fonts = fontmod.ensure_fonts(self.game.language)
        self.layouts, self.warnings = load_game_layouts(self.templates_dir, game, list(self.types.values()))
        widths: dict[tuple[str, str], float] = {}  # one character width table per game
        self._measures = {slug: self._measure_for(lay, widths) for slug, lay in self.layouts.items()}
        for slug, lay in self.layouts.items():
            self._check_icon_glyphs(slug, lay)
        self._env = self._make_env()
        self._templates: dict[tuple[str, bool], Any] = {}
        self._type_vars: dict[str, TypeVars] = {}
        self._where_tails: dict[tuple[str, str], str] = {}
        self._fixed_colours: dict[tuple[int, str], tuple[Layout, str]] = {}
        self._words = translations.words(db, game, self.game.language)  # a value's printed word

    # -- set-up ---------------------------------------------------------------------------

    def ctype(self, slug: str) -> CardType:
        if slug not in self.types:
            raise PnpError(
                f"game '{self.game.slug}' has no card type '{slug}' "
                f"(allowed: {', '.join(self.types) or 'none'})"
            )
        return self.types[slug]

    def _zh(self) -> bool:
        return self.game.language.startswith("zh")

    def word(self, key: str) -> str:
        """The few words the renderer itself prints, in the game's script."""
        words = {
            "zh-Hant": {"badge": "暫", "legend": "暫定值", "missing": "缺圖"},
            "zh-Hans": {"badge": "暂", "legend": "暂定值", "missing": "缺图"},
        }.get(self.game.language, {"badge": "P", "legend": "provisional", "missing": "missing art"})
        return words[key]

    def _make_env(self):
        env, self.finalize = face_environment(self._zh())
        return env

    def _measure_for(self, lay: Layout, widths: dict[tuple[str, str], float]) -> text_atoms.Measure:
        m = text_atoms.Measure(self.fonts.regular, self.fonts.bold, widths=widths)
        m.mark = lay.provisional["mark"] or "†"

        def icon_width(name: str) -> float:
            spec = lay.icons.get(name)
            if spec is None:
                return 1.0
            h = spec["scale"]
            return badge_width(m, spec, name, h, self.fonts) + 0.24

        m.icon_width = icon_width
        return m

    def _check_icon_glyphs(self, slug: str, lay: Layout) -> None:
        for name, spec in lay.icons.items():
            font = self.fonts.bold if spec["font"] == "bold" else self.fonts.regular
            for ch in fontmod.missing_glyphs(spec["text"] or name, font):
                raise PnpError(
                    f"layout '{lay.name}' (card type '{slug}'): icon '{name}' uses "
                    f"{fontmod.describe_char(ch)}, which font {font} lacks"
                )
        mark = lay.provisional["mark"]
        for ch in fontmod.missing_glyphs(mark, self.fonts.regular):
            raise PnpError(
                f"layout '{lay.name}': [provisional] mark uses "
                f"{fontmod.describe_char(ch)}, which font {self.fonts.regular} lacks"
            )

    # -- context ----------------------------------------------------------------------------

    def _vars_of(self, ctype: CardType) -> TypeVars:
        """The per-type part of the template context (labels, game, type), made once."""
        tv = self._type_vars.get(ctype.slug)
        if tv is not None:
            return tv
        lay = self.layouts[ctype.slug]
        labels = {f.name: (f.label or f.name) for f in ctype.fields}

        def icon(name: str) -> str:
            if name not in lay.icons:
                raise PnpError(f"icon('{name}') is not declared (icons: {', '.join(lay.icons) or 'none'})")
            return f":{name}:"

        game = {
            "slug": self.game.slug,
            "title": self.game.title,
            "title_en": self.game.title_en,
            "version": self.game.version,
            "language": self.game.language,
        }
        typ = {
            "slug": ctype.slug,
            "name": ctype.name,
            "name_en": ctype.name_en,
            "width_mm": ctype.width_mm,
            "height_mm": ctype.height_mm,
            "role": ctype.role,
            "fields": [f.to_dict() for f in ctype.fields],
        }
        tv = TypeVars(labels, game, typ, lambda n: labels.get(n, n), icon)
        self._type_vars[ctype.slug] = tv
        return tv

    def _ref(self, card_id: Any) -> Any:
        """`ref(id)` in templates: another card of the game, looked up when asked for."""
        if not card_id:
            return None
        key = str(card_id)
        other = self._refs.lookup(key)
        if other is MISSING:
            other = self._refs.store(key, repo.find_card(self._db, self.game.slug, key))
        return CardView(other, set(), ReadTracker()) if other else None

    def context(self, card: Card | None, ctype: CardType) -> PlanContext:
        lay = self.layouts[ctype.slug]
        tv = self._vars_of(ctype)
        tracker = ReadTracker()
        prov: set[str] = set()
        if card is not None and card.provenance != "provisional":
            prov = set(card.provisional_fields)  # wholly provisional cards wear the badge instead
        cats = self._categories(card, lay)
        labels = tv.labels
        fview = FieldsView(card.fields if card else {}, prov, tracker)

        def rows() -> list[tuple[str, Any]]:
            out = []
            for fd in ctype.fields:
                if card is not None and fd.name in card.fields and card.fields[fd.name] not in (None, "", []):
                    value = fview[fd.name]
                    out.append((labels[fd.name], self._word_of(value) if self._words else value))
            return out

        variables = {
            "card": CardView(card, prov, tracker) if card else None,
            "f": fview,
            "game": dict(tv.game),
            "type": tv.type_copy(),
            "back": dict(ctype.back),
            "date": self.date,
            "category": cats[0] if cats else "",
            "category2": cats[1] if len(cats) > 1 else (cats[0] if cats else ""),
            "categories": cats,
            "label": tv.label,
            "fields": rows,
            "icon": tv.icon,
            "ref": self._ref,
            "is_prov": lambda n: n in prov,
            "word": self._word_of,
        }
        return PlanContext(card, ctype, lay, variables, tracker, cats, self._measures[ctype.slug])

    def _word_of(self, value: Any) -> Any:
        """`word(value)` in layouts: a value's (or each list item's) printed word in the
        game's language; the value itself when it has none.  A provisional mark stays."""
        if isinstance(value, list):  # an item designed on its own keeps its sign
            out: Any = [
                mark_provisional(self._words.get(str(v), v), bool(getattr(v, "pnp_prov", False)))
                for v in value
            ]
        else:
            out = self._words.get(str(value), value) if value is not None else value
        return mark_provisional(out, bool(getattr(value, "pnp_prov", False)))

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
            return list(value)  # '稅罰' -> 稅, 罰
        return [value]

    def where(self, ctx: PlanContext, region: str) -> str:
        who = f"card {ctx.card.id}" if ctx.card else f"back of '{ctx.ctype.slug}'"
        return who + self.where_tail(ctx.ctype.slug, region)

    def where_tail(self, slug: str, region: str) -> str:
        """What follows the card in an error's place: game, type, region and layout file."""
        tails = self._where_tails  # every card asks for the same few
        tail = tails.get((slug, region))
        if tail is None:
            layout = self.layouts.get(slug)
            files = f" in {layout.files[0]}" if layout is not None and layout.files else ""
            tail = tails[(slug, region)] = f" ({self.game.slug}/{slug}), region '{region}'{files}"
        return tail

    def render(
        self, ctx: PlanContext, source: str, where: str, track: bool = False, marks: bool = True
    ) -> str:
        """Render a template; `marks=False` for names and colours, which carry no sign."""
        if not source:
            return ""
        tmpl = self._templates.get((source, False))
        if tmpl is None:
            tmpl = self._templates[(source, False)] = self._compile(source, where, False)
        ctx.tracker.active, ctx.tracker.read = track, set()
        if type(tmpl) is StaticText:
            ctx.tracker.active = False
            return str(tmpl) if marks else tmpl.replace(text_atoms.MARK, "")
        try:
            out = tmpl.render(ctx.vars)
            return out if marks else out.replace(text_atoms.MARK, "")
        except PnpError as e:
            raise PnpError(f"{where}: {e}") from e
        except Exception as e:  # jinja errors, sandbox refusals, bad filters
            where += source_line(self.templates_dir, where, source)
            raise PnpError(f"{where}: template failed: {type(e).__name__}: {e}") from e
        finally:
            ctx.tracker.active = False

    def evaluate(self, ctx: PlanContext, source: str, where: str, track: bool = False) -> Any:
        expr = self._templates.get((source, True))
        if expr is None:
            expr = self._templates[(source, True)] = self._compile(source, where, True)
        ctx.tracker.active, ctx.tracker.read = track, set()
        try:
            return expr(**ctx.vars)
        except PnpError as e:
            raise PnpError(f"{where}: {e}") from e
        except Exception as e:
            where += source_line(self.templates_dir, where, source)
            raise PnpError(f"{where}: expression failed: {type(e).__name__}: {e}") from e
        finally:
            ctx.tracker.active = False

    def _compile(self, source: str, where: str, expression: bool) -> Any:
        """Compile once per source and environment (shared by every renderer of the process,
        e.g. a build drawing prints, images and a proof); text without Jinja syntax is
        rendered once, here."""
        key = (self._zh(), source, expression)
        compiled = COMPILED.lookup(key)
        if compiled is not MISSING:
            return compiled

        try:
            if expression:
                compiled = self._env.compile_expression(source, undefined_to_none=True)
            else:
                compiled = self._env.from_string(source)
                if not any(tag in source for tag in ("{{", "{%", "{#")):
                    compiled = StaticText(compiled.render())
        except TemplateSyntaxError as e:
            raise PnpError(f"{where}: {e.message}") from e
        return COMPILED.store(key, compiled)

    def colour(self, ctx: PlanContext, spec: str, where: str) -> str | None:
        """Resolve a colour option for this card: hex, palette name, category or template."""
        if not spec:
            return None
        fixed = self._fixed_colours  # palette names and hex: per layout
        hit = fixed.get((id(ctx.layout), spec))
        if hit is not None and hit[0] is ctx.layout:
            return hit[1]
        if "{{" in spec:
            spec = self.render(ctx, spec, where, marks=False).strip()
            if not spec:
                return None
        if spec in ("category", "category2"):
            cats = ctx.categories
            if not cats:
                return ctx.layout.categories["default"]
            pick = cats[0] if spec == "category" or len(cats) == 1 else cats[1]
            col = ctx.layout.categories["colours"].get(pick, ctx.layout.categories["default"])
            return self.colour(ctx, col, where) if not is_hex_colour(col) else col
        if spec in ctx.layout.palette or is_hex_colour(spec):
            colour = ctx.layout.palette.get(spec, spec)
            if len(fixed) >= 4096:  # colours a template gives per card: keep memory flat
                fixed.clear()
            fixed[(id(ctx.layout), spec)] = (ctx.layout, colour)
            return colour
        raise PnpError(
            f"{where}: '{spec}' is not a colour (allowed: #rgb, #rrggbb, category, "
            f"category2, or a palette name: "
            f"{', '.join(sorted(ctx.layout.palette)) or 'none'})"
        )
