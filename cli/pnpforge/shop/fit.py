"""Which product of a shop a card type prints as, and how the card is put on it.

A card rarely measures exactly what a shop sells (63 × 88 mm against a
63.5 × 88.9 mm poker card).  Three honest ways, tried in this order:

- exact: sizes agree within 0.05 mm;
- bleed extended: the card is at most EXTEND_MM smaller on each side; it is
  drawn at its own size, centred, and its bleed (the background and every
  shape marked `bleed`) is drawn out to the product's bleed edge, so the shop's
  cut lands in the card's bleed and nothing is resized;
- scaled: the shapes agree within ASPECT_TOL and the size within SCALE_TOL;
  the card is scaled uniformly to cover the product's trim (a sliver of at most
  a fraction of a millimetre is cut from the longer side).

Anything else has no product: the caller refuses it and lists the products.
"""

from __future__ import annotations

from dataclasses import dataclass

from pnpforge.errors import PnpError
from pnpforge.shop.profiles import Product, Profile

EXACT_MM = 0.05
EXTEND_MM = 1.0
ASPECT_TOL = 0.02
SCALE_TOL = 0.05


@dataclass(frozen=True)
class Fit:
    """How one card type goes onto one product."""

    type_slug: str
    card_w_mm: float
    card_h_mm: float
    product: Product
    mode: str  # 'exact' | 'bleed extended' | 'scaled'
    scale: float  # 1.0 unless mode is 'scaled'

    def describe(self) -> str:
        """One line for the output and the manifest: what was done to fit the card."""
        p = self.product
        size = f"{self.card_w_mm:g}×{self.card_h_mm:g} mm"
        if self.mode == "exact":
            return f"{size} printed as {p.label()} at its own size"
        if self.mode == "bleed extended":
            return (
                f"{size} printed as {p.label()} at its own size, bleed extended to the "
                f"product's edge (cut {abs(p.trim_w_mm - self.card_w_mm) / 2:.2f} / "
                f"{abs(p.trim_h_mm - self.card_h_mm) / 2:.2f} mm outside the card's trim)"
            )
        return f"{size} scaled ×{self.scale:.4f} to cover {p.label()}"

    def to_dict(self) -> dict:
        return {
            "type": self.type_slug,
            "product": self.product.name,
            "mode": self.mode,
            "scale": round(self.scale, 5),
            "card_mm": [self.card_w_mm, self.card_h_mm],
            "trim_mm": [round(self.product.trim_w_mm, 3), round(self.product.trim_h_mm, 3)],
            "checked": self.product.checked,
            "note": self.describe(),
        }


def _candidate(slug: str, w: float, h: float, p: Product) -> Fit | None:
    dw, dh = p.trim_w_mm - w, p.trim_h_mm - h
    if abs(dw) <= EXACT_MM and abs(dh) <= EXACT_MM:
        return Fit(slug, w, h, p, "exact", 1.0)
    if -EXACT_MM <= dw <= 2 * EXTEND_MM and -EXACT_MM <= dh <= 2 * EXTEND_MM:
        return Fit(slug, w, h, p, "bleed extended", 1.0)
    aspect = (w / h) / (p.trim_w_mm / p.trim_h_mm)
    scale = max(p.trim_w_mm / w, p.trim_h_mm / h)
    if abs(aspect - 1) <= ASPECT_TOL and abs(scale - 1) <= SCALE_TOL:
        return Fit(slug, w, h, p, "scaled", scale)
    return None


_RANK = {"exact": 0, "bleed extended": 1, "scaled": 2}


def fit_type(profile: Profile, slug: str, w_mm: float, h_mm: float) -> Fit | None:
    """The best product for a w×h card, or None: exact, then extended, then least scaled."""
    found = [f for p in profile.products if (f := _candidate(slug, w_mm, h_mm, p)) is not None]
    if not found:
        return None
    return min(
        found,
        key=lambda f: (_RANK[f.mode], abs(f.product.trim_w_mm - w_mm) + abs(f.product.trim_h_mm - h_mm)),
    )


def no_product_message(profile: Profile, slug: str, w_mm: float, h_mm: float) -> str:
    products = ", ".join(p.label() for p in profile.products)
    return f"card type '{slug}' ({w_mm:g}×{h_mm:g} mm) has no {profile.name} product (products: {products})"


def fit_types(profile: Profile, sizes: dict[str, tuple[float, float]]) -> dict[str, Fit]:
    """Fit every card type; PnpError naming each type that has no product (and the products)."""
    fits: dict[str, Fit] = {}
    missing: list[str] = []
    for slug, (w, h) in sizes.items():
        f = fit_type(profile, slug, w, h)
        if f is None:
            missing.append(no_product_message(profile, slug, w, h))
        else:
            fits[slug] = f
    if missing:
        raise PnpError("; ".join(missing) + " — print those types elsewhere or leave them out with --type")
    return fits
