"""`pnp preflight`: what a print shop would reject or print badly, found before the upload.

Each card is planned once by the same FaceRenderer that prints it and its plan
is read (render.plan_read), so the checks see exactly what will print: the
colours and fonts it uses, and every piece of art with the box it fills.  Problems name the card
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

from dataclasses import dataclass, field
from typing import Any

from PIL import Image
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

from pnpforge.errors import PnpError
from pnpforge.query.select import stamp_date
from pnpforge.render import pdf
from pnpforge.render.face import FaceRenderer
from pnpforge.render.face_ops import Picture
from pnpforge.render.plan_read import inks, placed_art
from pnpforge.render.units import eval_length, hex_to_rgb
from pnpforge.shop.fit import fit_type, no_product_message
from pnpforge.shop.preflight_colour import colour_shift, hex_colour
from pnpforge.shop.profiles import get_profile
from pnpforge.store import repo

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


def _art_uses(card: str, ctype: Any, plan: Any) -> list[ArtUse]:
    """The art a card's plan places, with the pixels of each file (None: unreadable)."""
    uses = []
    for placed, art in placed_art(plan):
        size: tuple[int, int] | None = None
        if isinstance(art, Picture):
            with Image.open(art.path) as opened:
                size = opened.size
        box, e = placed.box, 0.01
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
        uses.append(
            ArtUse(card, ctype.slug, placed.region, art.path, size, art.target_px, art.dpi, art.fit, edges)
        )
    return uses


# ---- the run ---------------------------------------------------------------------------------------


@dataclass
class _Seen:
    """Colours, fonts and art of the whole selection, each colour and font with the cards that use it."""

    colours: dict[tuple[float, float, float], list[str]] = field(default_factory=dict)
    fonts: dict[str, list[str]] = field(default_factory=dict)
    art: list[ArtUse] = field(default_factory=list)

    def add(self, subject: str, plan: Any) -> None:
        used = inks(plan)
        for col in {tuple(round(v, 4) for v in hex_to_rgb(c)) for c in used.colours}:
            self.colours.setdefault(col, []).append(subject)  # type: ignore[arg-type]
        for font in used.fonts:
            self.fonts.setdefault(font, []).append(subject)


def preflight(
    db: Any, game: str, profile_slug: str | None = None, card_type: str | None = None
) -> PreflightReport:
    """Check every card of a game (or of one type) against a shop profile, or press printing."""
    profile = get_profile(profile_slug) if profile_slug else None
    types = {t.slug: t for t in repo.card_types(db, game)}
    cards = pdf.select_cards(db, game, card_type, None)
    if not cards:
        raise PnpError(f"game '{game}' has no cards" + (f" of type '{card_type}'" if card_type else ""))
    report = PreflightReport(game, profile_slug, len(cards))
    used = list(dict.fromkeys(c.type for c in cards))
    fits = _check_sizes(profile, types, used, cards, report)
    renderer = FaceRenderer(db, game, date=stamp_date(db, game)[:10])
    seen = _read_plans(renderer, cards, used, report)
    _check_art(seen.art, fits, profile.dpi if profile else DEFAULT_DPI, report)
    if profile is not None:
        _check_safe(renderer, fits, types, cards, report)
    _check_colours(seen, profile.max_ink if profile and profile.max_ink else 240.0, report)
    _check_fonts(seen, report)
    return report


def _read_plans(renderer: FaceRenderer, cards: list, used: list[str], report: PreflightReport) -> _Seen:
    """Plan every face and back once and read what each prints (no canvas is drawn on)."""
    seen = _Seen()
    for card in cards:
        try:
            plan = renderer.plan(card)
        except PnpError as e:
            report.problems.append(Problem("error", f"{card.game}/{card.id}", str(e)))
            continue
        seen.add(f"{card.game}/{card.id}", plan)
        seen.art.extend(_art_uses(card.id, renderer.types[card.type], plan))
    for slug in used:
        seen.add(f"back of {slug}", renderer.plan_back(slug))
    return seen


def _cards_of(cards: list, slug: str) -> str:
    ids = [c.id for c in cards if c.type == slug]
    shown = ", ".join(ids[:3])
    return f"{shown} … {len(ids)} cards" if len(ids) > 3 else shown


def _check_sizes(profile: Any, types: dict, used: list[str], cards: list, report: PreflightReport) -> dict:
    """Fit each used type; a type no product fits is an error naming its cards."""
    if profile is None:
        return {}
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
        crop = _crop_warning(use)
        if crop:
            report.problems.append(Problem("warning", subject, crop))
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


CROP_WARN = 0.2  # a `cover` fit that cuts off more than this share of the art's width or height


def _crop_warning(use: ArtUse) -> str:
    """Art whose shape differs strongly from its slot's, filled by cropping (`fit = "cover"`):
    the slot's printed size in mm and in pixels at the region's dpi, i.e. the size to draw."""
    if use.fit != "cover" or use.source_px is None:
        return ""
    (iw, ih), (tw, th) = use.source_px, use.target_px
    if min(iw, ih, tw, th) <= 0:
        return ""
    art_aspect, slot_aspect = iw / ih, tw / th
    kept = min(art_aspect, slot_aspect) / max(art_aspect, slot_aspect)
    if kept >= 1 - CROP_WARN:
        return ""
    side = "height" if art_aspect < slot_aspect else "width"
    w_mm, h_mm = tw / use.layout_dpi * 25.4, th / use.layout_dpi * 25.4
    return (
        f"art {use.path} is {iw}×{ih} px, a different shape from its slot (region '{use.region}', "
        f"printed {w_mm:.1f}×{h_mm:.1f} mm, {tw}×{th} px at {use.layout_dpi} dpi): filled by cropping "
        f'(fit = "cover"), {1 - kept:.0%} of its {side} is cut off; draw it at {tw}×{th} px, '
        'or set fit = "contain" in the layout to show all of it'
    )


def _region_insets(reg: Any, W: float, H: float) -> tuple[float, float, float, float]:
    o = reg.opts
    x, y, w, h = (eval_length(o[k], W, H) for k in ("x", "y", "w", "h"))
    pad = float(o.get("padding", 0.0) or 0.0)
    return x + pad, y + pad, W - x - w + pad, H - y - h + pad


def _check_safe(
    renderer: FaceRenderer, fits: dict, types: dict, cards: list, report: PreflightReport
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
    for name, subjects in seen.fonts.items():
        if not isinstance(pdfmetrics.getFont(name), TTFont):
            report.problems.append(
                Problem(
                    "error",
                    ", ".join(subjects[:3]),
                    f"font {name} is a standard PDF font and would not be embedded",
                )
            )
