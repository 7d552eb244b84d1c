"""`pnp preflight`: what a print shop would reject or print badly, found before the upload.

Each card is drawn once onto a recording canvas by the same FaceRenderer that
prints it, so the checks see exactly what will print: the colours and fonts it
uses, and every piece of art with the box it fills.  Problems name the card
(or the card type, for a size), and errors make the command exit 1:

- error: a card type no product of the profile fits; art below the shop's
  resolution at its printed size; art that cannot be read; a font that would
  not be embedded;
- warning: art that stops at the trim instead of running into the bleed;
  text or icons inside the shop's cut tolerance (its safe zone is wider than the
  layout's safe margin, or the region is marked outside_safe); colours that will
  shift in CMYK (total ink over the profile's limit, or saturated RGB that
  process inks do not reach — a heuristic: no press profile is consulted).
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field
from typing import Any

from pnpforge.errors import PnpError
from pnpforge.render.face import FaceRenderer
from pnpforge.shop.preflight_colour import colour_shift, hex_colour

__all__ = ["PreflightReport", "Problem", "colour_shift", "preflight"]

DEFAULT_DPI = 300


@dataclass(frozen=True)
class Problem:
    """One finding: 'error' or 'warning', the card (or type) it is about, and what is wrong."""

    severity: str
    subject: str
    message: str

    def line(self) -> str:
        return f"{self.severity}: {self.subject}: {self.message}"


@dataclass
class PreflightReport:
    """Every problem of a game for one profile (or for press printing in general)."""

    game: str
    profile: str | None
    cards: int = 0
    problems: list[Problem] = field(default_factory=list)

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self.problems if p.severity == "error"]

    @property
    def warnings(self) -> list[Problem]:
        return [p for p in self.problems if p.severity == "warning"]

    def to_dict(self) -> dict:
        return {
            "game": self.game,
            "profile": self.profile,
            "cards": self.cards,
            "errors": len(self.errors),
            "warnings": len(self.warnings),
            "problems": [
                {"severity": p.severity, "subject": p.subject, "message": p.message} for p in self.problems
            ],
        }


# ---- what a card draws --------------------------------------------------------------------------


@dataclass
class ArtUse:
    """A piece of art placed on a card: the file, its pixels, and the box it fills."""

    card: str
    type_slug: str
    region: str
    path: str
    source_px: tuple[int, int] | None  # None: the file could not be read
    target_px: tuple[int, int]
    layout_dpi: int
    fit: str
    edges: tuple[str, ...]  # trim edges the region touches


class ProbeRenderer(FaceRenderer):
    """A FaceRenderer that notes every art file it places, with its region and box."""

    def __init__(self, *args: Any, **kw: Any) -> None:
        super().__init__(*args, **kw)
        self.art: list[ArtUse] = []
        self._probe: tuple[str, Any, Any, Any] | None = None

    def _plan_image(self, ctx: Any, reg: Any, box: Any, where: str) -> Any:
        self._probe = (ctx.card.id if ctx.card is not None else "", reg, box, ctx.ctype)
        try:
            return super()._plan_image(ctx, reg, box, where)
        finally:
            self._probe = None

    def _load_image(self, path: Any, px: tuple[int, int], fit: str) -> Any:
        probe = self._probe
        try:
            loaded = super()._load_image(path, px, fit)
        except Exception:
            if probe is not None:
                self.art.append(self._use(probe, path, None, px, fit))
            raise
        if probe is not None:
            from PIL import Image

            with Image.open(path) as opened:
                size = opened.size
            self.art.append(self._use(probe, path, size, px, fit))
        return loaded

    @staticmethod
    def _use(probe: Any, path: Any, size: tuple[int, int] | None, px: tuple[int, int], fit: str) -> ArtUse:
        card, reg, box, ctype = probe
        e = 0.01
        edges = tuple(
            name
            for name, touches in (
                ("left", box.x <= e),
                ("top", box.y <= e),
                ("right", box.x + box.w >= ctype.width_mm - e),
                ("bottom", box.y + box.h >= ctype.height_mm - e),
            )
            if touches
        )
        return ArtUse(card, ctype.slug, reg.name, str(path), size, px, int(reg.opts["dpi"]), fit, edges)


def _recording_canvas() -> Any:
    from reportlab.pdfgen.canvas import Canvas

    class Recorder(Canvas):
        """Notes the RGB colours and fonts a drawing sets; the page itself is thrown away."""

        colours: set[tuple[float, float, float]]
        fonts: set[str]

        def setFillColorRGB(self, r: float, g: float, b: float, alpha: Any = None) -> None:  # noqa: N802
            self.colours.add((round(r, 4), round(g, 4), round(b, 4)))
            super().setFillColorRGB(r, g, b)

        def setStrokeColorRGB(self, r: float, g: float, b: float, alpha: Any = None) -> None:  # noqa: N802
            self.colours.add((round(r, 4), round(g, 4), round(b, 4)))
            super().setStrokeColorRGB(r, g, b)

        def setFont(self, psfontname: str, size: float, leading: Any = None) -> None:  # noqa: N802
            self.fonts.add(psfontname)
            super().setFont(psfontname, size, leading)

    c = Recorder(io.BytesIO(), pagesize=(600, 600))
    c.colours, c.fonts = set(), set()
    return c


# ---- the run ---------------------------------------------------------------------------------------


@dataclass
class _Seen:
    """Colours and fonts of the whole selection, each with the cards that use it."""

    colours: dict[tuple[float, float, float], list[str]] = field(default_factory=dict)
    fonts: dict[str, list[str]] = field(default_factory=dict)

    def add(self, subject: str, rec: Any) -> None:
        for col in rec.colours:
            self.colours.setdefault(col, []).append(subject)
        for font in rec.fonts:
            self.fonts.setdefault(font, []).append(subject)


def preflight(
    db: Any, game: str, profile_slug: str | None = None, card_type: str | None = None
) -> PreflightReport:
    """Check every card of a game (or of one type) against a shop profile, or press printing."""
    from pnpforge.query.select import stamp_date
    from pnpforge.render import pdf
    from pnpforge.shop.profiles import get_profile
    from pnpforge.store import repo

    profile = get_profile(profile_slug) if profile_slug else None
    types = {t.slug: t for t in repo.card_types(db, game)}
    cards = pdf.select_cards(db, game, card_type, None)
    if not cards:
        raise PnpError(f"game '{game}' has no cards" + (f" of type '{card_type}'" if card_type else ""))
    report = PreflightReport(game, profile_slug, len(cards))
    used = list(dict.fromkeys(c.type for c in cards))
    fits = _check_sizes(profile, types, used, cards, report)
    renderer = ProbeRenderer(db, game, date=stamp_date(db, game)[:10])
    seen = _draw_all(renderer, cards, used, report)
    _check_art(renderer.art, fits, profile.dpi if profile else DEFAULT_DPI, report)
    if profile is not None:
        _check_safe(renderer, fits, types, cards, report)
    _check_colours(seen, profile.max_ink if profile and profile.max_ink else 240.0, report)
    _check_fonts(seen, report)
    return report


def _draw_all(renderer: ProbeRenderer, cards: list, used: list[str], report: PreflightReport) -> _Seen:
    seen = _Seen()
    for card in cards:
        rec = _recording_canvas()
        try:
            renderer.draw_face(rec, card, 0.0, 0.0, 9.0)
        except PnpError as e:
            report.problems.append(Problem("error", f"{card.game}/{card.id}", str(e)))
            continue
        seen.add(f"{card.game}/{card.id}", rec)
    for slug in used:
        rec = _recording_canvas()
        renderer.draw_back(rec, slug, 0.0, 0.0, 9.0)
        seen.add(f"back of {slug}", rec)
    return seen


def _cards_of(cards: list, slug: str) -> str:
    ids = [c.id for c in cards if c.type == slug]
    shown = ", ".join(ids[:3])
    return f"{shown} … {len(ids)} cards" if len(ids) > 3 else shown


def _check_sizes(profile: Any, types: dict, used: list[str], cards: list, report: PreflightReport) -> dict:
    """Fit each used type; a type no product fits is an error naming its cards."""
    if profile is None:
        return {}
    from pnpforge.shop.fit import fit_type, no_product_message

    fits = {}
    for slug in used:
        t = types[slug]
        f = fit_type(profile, slug, t.width_mm, t.height_mm)
        if f is None:
            report.problems.append(
                Problem(
                    "error",
                    f"type {slug} ({_cards_of(cards, slug)})",
                    no_product_message(profile, slug, t.width_mm, t.height_mm),
                )
            )
        else:
            fits[slug] = f
    return fits


def _check_art(art: list[ArtUse], fits: dict, dpi: int, report: PreflightReport) -> None:
    for use in art:
        subject = f"{report.game}/{use.card}"
        if use.source_px is None:
            report.problems.append(
                Problem("error", subject, f"art {use.path} (region '{use.region}') cannot be read")
            )
            continue
        iw, ih = use.source_px
        tw, th = use.target_px
        ratio = max(tw / iw, th / ih) if use.fit == "cover" else min(tw / iw, th / ih)
        fit = fits.get(use.type_slug)
        effective = use.layout_dpi / ratio / (fit.scale if fit else 1.0)
        if effective < dpi - 0.5:
            w_mm, h_mm = tw / use.layout_dpi * 25.4, th / use.layout_dpi * 25.4
            report.problems.append(
                Problem(
                    "error",
                    subject,
                    f"art {use.path} is {iw}×{ih} px: {effective:.0f} dpi at its "
                    f"printed size {w_mm:.1f}×{h_mm:.1f} mm (region '{use.region}'); needs {dpi} dpi, "
                    f"i.e. at least {round(iw * dpi / effective)}×{round(ih * dpi / effective)} px",
                )
            )
        if use.edges:
            report.problems.append(
                Problem(
                    "warning",
                    subject,
                    f"art {use.path} (region '{use.region}') stops at the trim on "
                    f"the {', '.join(use.edges)} edge(s) instead of running into the bleed; a cut a "
                    "little off shows the colour behind it",
                )
            )


def _region_insets(reg: Any, W: float, H: float) -> tuple[float, float, float, float]:
    from pnpforge.render.units import eval_length

    o = reg.opts
    x, y, w, h = (eval_length(o[k], W, H) for k in ("x", "y", "w", "h"))
    pad = float(o.get("padding", 0.0) or 0.0)
    return x + pad, y + pad, W - x - w + pad, H - y - h + pad


def _check_safe(
    renderer: ProbeRenderer, fits: dict, types: dict, cards: list, report: PreflightReport
) -> None:
    """Text and icons must keep the shop's safe distance from where the shop cuts."""
    for slug, fit in fits.items():
        t, p = types[slug], fit.product
        s = fit.scale
        dx, dy = (p.trim_w_mm - t.width_mm * s) / 2, (p.trim_h_mm - t.height_mm * s) / 2
        layout = renderer.layouts[slug]
        near: list[tuple[str, float]] = []
        for reg in layout.regions:
            if reg.kind not in ("text", "rows", "icon", "icons"):
                continue
            left, top, right, bottom = _region_insets(reg, t.width_mm, t.height_mm)
            dist = min(left * s + dx, right * s + dx, top * s + dy, bottom * s + dy)
            if dist < p.safe_mm - 0.01:
                near.append((f"region '{reg.name}'", dist))
        stamp = layout.card["safe_margin"] * s + min(dx, dy)
        if layout.stamp["enabled"] and stamp < p.safe_mm - 0.01:
            near.append(("the stamp line", stamp))
        if near:
            names = ", ".join(name for name, _ in near)
            closest = max(0.0, min(d for _, d in near))
            report.problems.append(
                Problem(
                    "warning",
                    f"type {slug} ({_cards_of(cards, slug)})",
                    f"{names} come(s) as close as {closest:.2f} mm to {p.label()}'s cut; the shop "
                    f"asks for {p.safe_mm:.2f} mm (text may be trimmed if the cut drifts)",
                )
            )


def _check_colours(seen: _Seen, max_ink: float, report: PreflightReport) -> None:
    for rgb, subjects in sorted(seen.colours.items()):
        why = colour_shift(rgb, max_ink)
        if why:
            names = ", ".join(subjects[:3]) + (f" … {len(subjects)} in all" if len(subjects) > 3 else "")
            report.problems.append(
                Problem("warning", names, f"colour {hex_colour(rgb)} will shift in CMYK: {why}")
            )


def _check_fonts(seen: _Seen, report: PreflightReport) -> None:
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    for name, subjects in seen.fonts.items():
        if not isinstance(pdfmetrics.getFont(name), TTFont):
            report.problems.append(
                Problem(
                    "error",
                    ", ".join(subjects[:3]),
                    f"font {name} is a standard PDF font and would not be embedded",
                )
            )
