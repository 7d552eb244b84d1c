"""Text checked against the fonts and fitted to its box, for every planner of a card.

Faces, backs and the stamp all turn spans into atoms, refuse a glyph the font
lacks (never a blank box in print) and fit the atoms to a box; this collaborator
does that once for all of them and remembers the texts that had to shrink below
their region's warn size, so the print can name those cards.
"""

from __future__ import annotations

from pnpforge.errors import PnpError
from pnpforge.render import fonts as fontmod
from pnpforge.render import text as tx
from pnpforge.render import text_atoms
from pnpforge.render.face_cache import FIT_CACHE_SIZE, LRU
from pnpforge.render.face_values import PlanContext


class TextFitter:
    """Glyph checks, script measures and the fitted texts shared by a game's planners."""

    def __init__(self) -> None:
        self.fits = LRU(FIT_CACHE_SIZE)  # the same text in the same box: one fit
        self._measures: dict[tuple[str, str], text_atoms.Measure] = {}
        # (type, region, layout file tail, warn size) -> [(card id, size)]
        self._shrunk: dict[tuple[str, str, str, float], list[tuple[str, float]]] = {}

    def check_plain(self, text: str, font: str, where: str) -> None:
        """Refuse a text (drawn without atoms: badges, names) the font has no glyph for."""
        for ch in fontmod.missing_glyphs(text, font):
            raise PnpError(f"{where}: font {font} has no glyph for {fontmod.describe_char(ch)}")

    def atoms(
        self, ctx: PlanContext, spans: list[text_atoms.Span], where: str, m: text_atoms.Measure | None = None
    ) -> list[text_atoms.Atom]:
        """The spans as atoms, every glyph checked against the measure's fonts."""
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

    def script_measure(self, ctx: PlanContext, font: str) -> text_atoms.Measure:
        """The measure of a text region: the type's, or for `font = "zh-Hant"`/`"zh-Hans"`
        one of that script's fonts (same widths table, icons and mark)."""
        if font in ("regular", "bold"):
            return ctx.measure
        key = (ctx.ctype.slug, font)
        m = self._measures.get(key)
        if m is None:
            fs = fontmod.ensure_fonts(font)
            base = ctx.measure
            m = text_atoms.Measure(fs.regular, fs.regular, base.icon_width, base._cache)
            m.mark = base.mark
            self._measures[key] = m
        return m

    def note_shrunk(self, slug: str, region: str, tail: str, warn: float, who: str, size: float) -> None:
        self._shrunk.setdefault((slug, region, tail, warn), []).append((who, size))

    def shrunk_warnings(self) -> list[str]:
        """One line per region whose text shrank below its warn size, naming the cards
        (the smallest first) and the smallest size."""
        out = []
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
