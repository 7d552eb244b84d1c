"""`pnp shop`: the files a print-on-demand shop asks for, drawn by the print drawing.

PNG shops (MakePlayingCards, The Game Crafter): one image per distinct face
and one per back, at the product's full size (trim plus bleed) and the shop's
resolution.  Files are numbered in deck order and carry their copies in the
name (`007-OB-03-x2.png`), so the upload order and the counts read at a glance;
`manifest.json` lists file, card, copies, product and how the card was fitted.

The PDF shop (DriveThruCards) gets one CMYK PDF per card type: see pdfx.py.
"""

from __future__ import annotations

import json
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pypdfium2 as pdfium
from PIL import Image
from reportlab.pdfgen.canvas import Canvas

from pnpforge import progress
from pnpforge.errors import PnpError, ValidationFailed
from pnpforge.outfile import confined, ensure_folder, write_text
from pnpforge.query.select import stamp_date
from pnpforge.render import pdf
from pnpforge.render.fonts import ensure_fonts
from pnpforge.render.raster_png import write_png
from pnpforge.shop.fit import Fit, fit_types
from pnpforge.shop.pdfx import write_deck_pdfs
from pnpforge.shop.place import draw_side, placement
from pnpforge.shop.preflight import PreflightReport, preflight
from pnpforge.shop.profiles import Profile, get_profile
from pnpforge.store import repo
from pnpforge.store.location import output_root


@dataclass
class ShopResult:
    """What `pnp shop` wrote, for the terminal, --json and the build manifest."""

    profile: str
    directory: str
    files: list[str] = field(default_factory=list)
    entries: list[dict] = field(default_factory=list)
    fits: dict[str, dict] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)

    def to_dict(self) -> dict:
        return {
            "profile": self.profile,
            "directory": self.directory,
            "fits": self.fits,
            "entries": self.entries,
            "files": self.files,
            "warnings": self.warnings,
        }


@dataclass
class ShopContext:
    """The cards of a selection, their types, fits and the renderer that draws them."""

    game: Any
    profile: Profile
    cards: list
    types: dict
    fits: dict[str, Fit]
    renderer: Any
    fonts: Any
    date: str


def shop_context(
    db: Any, game: str, profile: Profile, card_type: str | None = None, renderer_factory: Any = None
) -> ShopContext:
    """Select the cards, fit every type to a product (refusing types without one)."""
    g = repo.get_game(db, game)
    types = {t.slug: t for t in repo.card_types(db, game)}
    cards = pdf.select_cards(db, game, card_type, None)
    if not cards:
        raise PnpError(f"game '{game}' has no cards" + (f" of type '{card_type}'" if card_type else ""))
    used = dict.fromkeys(c.type for c in cards)
    fits = fit_types(profile, {s: (types[s].width_mm, types[s].height_mm) for s in used})
    date = stamp_date(db, game)[:10]
    renderer = (renderer_factory or pdf.default_renderer)(db, game, date=date)
    return ShopContext(g, profile, cards, types, fits, renderer, ensure_fonts(g.language), date)


def default_dir(output: str | None, game: str, profile: str, root: Path = Path("output")) -> Path:
    """-o DIR, or shop/PROFILE under the game's folder in the project's output/."""
    return ensure_folder(Path(output) if output else root / game / "shop" / profile)


def shop(
    db: Any,
    game: str,
    profile_slug: str,
    output: str | None = None,
    card_type: str | None = None,
    renderer_factory: Any = None,
) -> ShopResult:
    """Write the shop files of a game; PnpError for a type no product fits."""
    profile = get_profile(profile_slug)
    ctx = shop_context(db, game, profile, card_type, renderer_factory)
    out = default_dir(output, game, profile.slug, output_root(db))
    result = ShopResult(profile.slug, str(out))
    result.fits = {slug: f.to_dict() for slug, f in ctx.fits.items()}
    for f in ctx.fits.values():
        if not f.product.checked:
            result.warnings.append(
                f"{profile.name} {f.product.label()}: size from the shop's product list, "
                "not confirmed by a source quoted here; check it on the shop's site before ordering"
            )
    if profile.output == "png":
        _write_pngs(ctx, out, result)
    else:
        write_deck_pdfs(ctx, out, result)
    manifest = out / "manifest.json"
    write_text(manifest, json.dumps(_manifest(ctx, result), ensure_ascii=False, indent=2) + "\n")
    result.files.append(str(manifest))
    result.warnings = list(dict.fromkeys([*result.warnings, *ctx.renderer.warnings()]))
    return result


def preflight_summary(report: PreflightReport) -> str:
    """One line for a preflight: game, target, cards, errors and warnings."""
    target = f"for {report.profile}" if report.profile else "for press printing"
    return (
        f"Preflight of {report.game} {target}: {report.cards} cards, "
        f"{len(report.errors)} error(s), {len(report.warnings)} warning(s)"
    )


class ShopRefused(ValidationFailed):
    """The preflight found errors, so no shop file was written; `report` holds them all.

    Exit 1, as `pnp preflight` exits on an error (2 is for usage)."""

    def __init__(self, report: PreflightReport, profile: str) -> None:
        super().__init__(
            f"{preflight_summary(report)}; nothing was written "
            f"(see pnp preflight {report.game} --profile {profile})",
            report.errors,
        )
        self.report = report


@dataclass(frozen=True)
class ShopOrder:
    """`pnp shop`'s whole answer: the preflight that let the deck through, and the files written."""

    preflight: PreflightReport
    result: ShopResult

    def to_dict(self) -> dict:
        return {**self.result.to_dict(), "preflight": self.preflight.to_dict()}


def shop_order(
    db: Any,
    game: str,
    profile_slug: str,
    output: str | None = None,
    card_type: str | None = None,
    renderer_factory: Any = None,
) -> ShopOrder:
    """The preflight, then the shop files: a deck the shop would refuse gets no files (ShopRefused)."""
    report = preflight(db, game, profile_slug, card_type)
    if report.errors:
        raise ShopRefused(report, profile_slug)
    result = shop(
        db, game, profile_slug, output=output, card_type=card_type, renderer_factory=renderer_factory
    )
    return ShopOrder(report, result)


def _manifest(ctx: ShopContext, result: ShopResult) -> dict:
    p = ctx.profile
    return {
        "game": ctx.game.slug,
        "profile": p.slug,
        "shop": p.name,
        "dpi": p.dpi,
        "colour": p.colour,
        "sources": list(p.sources),
        "fits": result.fits,
        "files": result.entries,
    }


# ---- PNG shops ----------------------------------------------------------------------------


@dataclass(frozen=True)
class PngJob:
    """One image to write: a face (card) or a back (type slug), at its product's pixel size."""

    path: Path
    fit: Fit
    px: tuple[int, int]
    card: Any = None
    back_of: str | None = None


def _write_pngs(ctx: ShopContext, out: Path, result: ShopResult) -> None:
    jobs = _plan_pngs(ctx, out, result)
    with tempfile.TemporaryDirectory(prefix="pnp-shop-") as tmp:
        pdf_path = Path(tmp) / "pages.pdf"
        _draw_pages(ctx, jobs, pdf_path)
        _rasterise(pdf_path, jobs, ctx.profile.dpi)
    result.files.extend(str(j.path) for j in jobs)


def _plan_pngs(ctx: ShopContext, out: Path, result: ShopResult) -> list[PngJob]:
    dpi = ctx.profile.dpi
    jobs: list[PngJob] = []
    for n, card in enumerate(ctx.cards, start=1):
        fit = ctx.fits[card.type]
        name = f"{n:03d}-{card.id}-x{card.copies}.png"
        jobs.append(PngJob(confined(out, name), fit, fit.product.pixels(dpi), card=card))
        result.entries.append(
            {
                "file": name,
                "side": "face",
                "card": card.id,
                "name": card.name,
                "type": card.type,
                "copies": card.copies,
                "back": f"back-{card.type}.png",
                "product": fit.product.name,
                "fit": fit.mode,
            }
        )
    for slug in dict.fromkeys(c.type for c in ctx.cards):
        fit = ctx.fits[slug]
        name = f"back-{slug}.png"
        copies = sum(c.copies for c in ctx.cards if c.type == slug)
        jobs.append(PngJob(confined(out, name), fit, fit.product.pixels(dpi), back_of=slug))
        result.entries.append(
            {
                "file": name,
                "side": "back",
                "card": None,
                "type": slug,
                "copies": copies,
                "product": fit.product.name,
                "fit": fit.mode,
            }
        )
    return jobs


def _draw_pages(ctx: ShopContext, jobs: list[PngJob], path: Path) -> None:
    """One page per image, sized so that rendering at the shop's dpi gives exactly its pixels."""
    dpi = ctx.profile.dpi
    c = Canvas(str(path), invariant=1, pageCompression=0, initialFontName=ctx.fonts.regular)
    checked: set[str] = set()
    for job in jobs:
        w_pt, h_pt = job.px[0] / dpi * 72.0, job.px[1] / dpi * 72.0
        c.setPageSize((w_pt, h_pt))
        if job.card is not None and job.card.id not in checked:
            ctx.renderer.check(job.card)
            checked.add(job.card.id)
        draw_side(c, ctx.renderer, job.fit, placement(job.fit, w_pt, h_pt), job.card, job.back_of)
        c.showPage()
    c.save()


def _rasterise(pdf_path: Path, jobs: list[PngJob], dpi: int) -> None:
    doc = pdfium.PdfDocument(str(pdf_path))
    try:
        for i, job in enumerate(jobs):
            page = doc[i]
            try:
                image = page.render(scale=dpi / 72.0).to_pil().convert("RGB")
            finally:
                page.close()
            if image.size != job.px:  # a rounding pixel at most: cut or pad to size
                image = _exact(image, job.px)
            write_png(job.path, image, dpi)
            progress.report("shop images", i + 1, len(jobs))
    finally:
        doc.close()


def _exact(image: Any, px: tuple[int, int]) -> Any:
    canvas = Image.new("RGB", px, image.getpixel((0, 0)))
    canvas.paste(image.crop((0, 0, min(px[0], image.width), min(px[1], image.height))), (0, 0))
    return canvas
