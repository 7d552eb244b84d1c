"""DriveThruCards: one CMYK PDF per card type, a page per card side, aiming at PDF/X-1a:2003.

Pages are the product's full size (poker: 2.75 × 3.75 in), back then face, card
by card and copy by copy, as the shop's card set-up asks.  What this file makes
sure of, and tests read back: every colour operator and image is DeviceCMYK
(the CmykCanvas converts the RGB drawing), total ink ≤ the profile's limit,
every font embedded (subset TrueType), PDF 1.4, TrimBox and BleedBox on every
page, `GTS_PDFXVersion` and `Trapped` in the document info, and an output
intent naming the registered SWOP condition (CGATS TR 001), for which PDF/X
allows the ICC profile to be left out.  What it does not do: run a PDF/X
validator (none exists for Python), or embed a press ICC profile; a shop's
preflight (or Acrobat's) is the final word.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from reportlab.pdfbase.pdfdoc import PDFDictionary, PDFName, PDFString

from pnpforge import progress
from pnpforge.outfile import atomic_open, confined
from pnpforge.render.reportlab_compat import add_pdfx_keys
from pnpforge.render.units import MM
from pnpforge.shop.cmyk import CmykCanvas
from pnpforge.shop.place import draw_side, placement

PDFX_VERSION = "PDF/X-1:2003"
PDFX_CONFORMANCE = "PDF/X-1a:2003"
OUTPUT_CONDITION = "CGATS TR 001"
OUTPUT_CONDITION_INFO = "U.S. Web Coated (SWOP) v2"


def write_deck_pdfs(ctx: Any, out: Path, result: Any) -> None:
    """One PDF per card type of the selection, pages back then face for every copy."""
    for slug in dict.fromkeys(c.type for c in ctx.cards):
        deck = [c for c in ctx.cards if c.type == slug for _ in range(c.copies)]
        if not deck:
            continue
        name = f"{ctx.game.slug}-{slug}-{ctx.profile.slug}.pdf"
        path = confined(out, name)
        _write_deck(ctx, slug, deck, path)
        fit = ctx.fits[slug]
        result.files.append(str(path))
        result.entries.append(
            {
                "file": name,
                "type": slug,
                "product": fit.product.name,
                "fit": fit.mode,
                "pages": 2 * len(deck),
                "cards": len(deck),
                "order": "back, face",
                "page_cards": [c.id for c in deck],
            }
        )


def _write_deck(ctx: Any, slug: str, deck: list, path: Path) -> None:
    fit = ctx.fits[slug]
    p = fit.product
    page = (p.full_w_mm * MM, p.full_h_mm * MM)
    where = placement(fit, *page)
    with atomic_open(path) as fh:
        c = CmykCanvas(fh, pagesize=page, invariant=1, pageCompression=1, initialFontName=ctx.fonts.regular)
        c.max_ink = ctx.profile.max_ink
        _pdfx_document(c, f"{ctx.game.title} — {ctx.types[slug].name_en or slug}", ctx.date)
        checked: set[str] = set()
        for n, card in enumerate(deck, start=1):
            progress.report(f"{slug} PDF", n, len(deck))
            if card.id not in checked:
                ctx.renderer.check(card)
                checked.add(card.id)
            for face in (False, True):
                _boxes(c, p, page)
                draw_side(c, ctx.renderer, fit, where, card if face else None, None if face else slug)
                c.showPage()
        c.save()


def _boxes(c: Any, product: Any, page: tuple[float, float]) -> None:
    """TrimBox at the product's trim, BleedBox the whole page (PDF/X needs both)."""
    bx, by = product.bleed_mm * MM, product.bleed_v_mm * MM
    c.setTrimBox((bx, by, page[0] - bx, page[1] - by))
    c.setBleedBox((0, 0, page[0], page[1]))


def _pdfx_document(c: Any, title: str, date: str) -> None:
    """Title, dates, PDF/X version keys and the SWOP output intent."""
    c.setTitle(title)
    c.setAuthor("pnpforge")
    c.setCreator("pnpforge")
    digits = "".join(ch for ch in date if ch.isdigit())[:14].ljust(14, "0")
    c.setDateFormatter(lambda *_: f"D:{digits}+00'00'")
    keys = f"/GTS_PDFXVersion ({PDFX_VERSION}) /GTS_PDFXConformance ({PDFX_CONFORMANCE})".encode()
    intent = PDFDictionary(
        {
            "Type": PDFName("OutputIntent"),
            "S": PDFName("GTS_PDFX"),
            "OutputConditionIdentifier": PDFString(OUTPUT_CONDITION),
            "RegistryName": PDFString("http://www.color.org"),
            "Info": PDFString(OUTPUT_CONDITION_INFO),
        }
    )
    add_pdfx_keys(c, keys, intent)
