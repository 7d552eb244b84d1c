"""Print-on-demand shops as data: their card products, resolution, bleed, safe zone and colour.

Each figure names where it comes from.  `checked` says whether the product's
size is confirmed by a source quoted here; the others come from the shop's
product list as published at the time of writing and should be checked on the
shop's site before an order (the output says so for those products).
"""

from __future__ import annotations

from dataclasses import dataclass

from pnpforge.errors import PnpError

INCH = 25.4


@dataclass(frozen=True)
class Product:
    """One card product of a shop: its trim size and the file the shop wants for it."""

    name: str
    trim_w_mm: float
    trim_h_mm: float
    bleed_mm: float  # left and right (and top and bottom unless bleed_y_mm)
    safe_mm: float  # inside the trim
    checked: bool = True
    note: str = ""
    bleed_y_mm: float | None = None  # top and bottom, when the shop's file differs by axis

    @property
    def bleed_v_mm(self) -> float:
        return self.bleed_mm if self.bleed_y_mm is None else self.bleed_y_mm

    @property
    def full_w_mm(self) -> float:
        return self.trim_w_mm + 2 * self.bleed_mm

    @property
    def full_h_mm(self) -> float:
        return self.trim_h_mm + 2 * self.bleed_v_mm

    def pixels(self, dpi: int) -> tuple[int, int]:
        """File size in pixels at `dpi`: the full size (trim and bleed) rounded to whole pixels."""
        return round(self.full_w_mm / INCH * dpi), round(self.full_h_mm / INCH * dpi)

    def label(self) -> str:
        return f"{self.name} ({self.trim_w_mm:g}×{self.trim_h_mm:g} mm)"


@dataclass(frozen=True)
class Profile:
    """A shop: what files it takes and how."""

    slug: str
    name: str
    output: str  # 'png': one image per face and back; 'pdf': one PDF per deck
    dpi: int
    colour: str  # 'rgb' | 'cmyk'
    max_ink: float  # total area coverage limit in percent (CMYK shops)
    products: tuple[Product, ...]
    sources: tuple[str, ...]

    def product(self, name: str) -> Product:
        for p in self.products:
            if p.name == name:
                return p
        raise PnpError(
            f"profile '{self.slug}' has no product '{name}' "
            f"(products: {', '.join(p.name for p in self.products)})"
        )


def _in(v: float) -> float:
    return v * INCH


# The shops' common card products share these trim sizes (inches, width × height).
_TRIM_IN = {
    "poker": (2.5, 3.5),
    "bridge": (2.25, 3.5),
    "mini": (1.75, 2.5),
    "square": (2.5, 2.5),
    "square-2.75": (2.75, 2.75),
    "tarot": (2.75, 4.75),
}


def _standard(name: str, bleed_mm: float, safe_mm: float, checked: bool = True, note: str = "") -> Product:
    """A product in one of the common trim sizes (`_TRIM_IN`), named after it."""
    w_in, h_in = _TRIM_IN[name]
    return Product(name, _in(w_in), _in(h_in), bleed_mm, safe_mm, checked=checked, note=note)


MPC_BLEED = 36 / 300 * INCH  # 36 px at 300 dpi: 822 - 750 = 72 px over both sides
TGC_BLEED = _in(0.125)  # 825 - 750 = 75 px at 300 dpi
DTC_BLEED = _in(0.125)

MPC = Profile(
    slug="mpc",
    name="MakePlayingCards",
    output="png",
    dpi=300,
    colour="rgb",
    max_ink=0.0,
    products=(
        _standard(
            "poker",
            MPC_BLEED,
            _in(0.125),
            note="822 × 1122 px at 300 dpi (trim 750 × 1050, 36 px bleed a side)",
        ),
        _standard("bridge", MPC_BLEED, _in(0.125), checked=False),
        _standard("mini", MPC_BLEED, _in(0.125), checked=False),
        Product("mini-european", 44.0, 68.0, MPC_BLEED, 3.0, checked=False),
        _standard("square", MPC_BLEED, _in(0.125), checked=False),
        _standard("square-2.75", MPC_BLEED, _in(0.125), checked=False),
        _standard("tarot", MPC_BLEED, _in(0.125), checked=False),
    ),
    sources=(
        "MakePlayingCards upload guide: poker cards 822 × 1122 px at 300 dpi including bleed; "
        "other products from MakePlayingCards' card-size list (not re-checked)",
    ),
)

TGC = Profile(
    slug="tgc",
    name="The Game Crafter",
    output="png",
    dpi=300,
    colour="rgb",
    max_ink=0.0,
    products=(
        _standard(
            "poker", TGC_BLEED, TGC_BLEED, note="825 × 1125 px, RGB PNG; safe zone 75 px from the file edge"
        ),
        Product(
            "euro-poker",
            63.0,
            88.0,
            (_in(2.75) - 63.0) / 2,
            _in(0.125),
            bleed_y_mm=(_in(3.75) - 88.0) / 2,
            note="file 825 × 1125 px like poker; trim 63 × 88 mm",
        ),
        _standard("mini", TGC_BLEED, TGC_BLEED, checked=False),
        Product(
            "euro-square",
            _in(2.76),
            _in(2.76),
            _in(0.12),
            _in(0.125),
            note="file 900 × 900 px; trim 70 × 70 mm",
        ),
        Product("square", _in(3.5), _in(3.5), TGC_BLEED, TGC_BLEED),
        _standard("tarot", TGC_BLEED, TGC_BLEED, checked=False),
    ),
    sources=(
        "The Game Crafter poker deck template: 825 × 1125 px, 1/8 in bleed, 75 px safe zone",
        "The Game Crafter templates as transcribed by the Dextrous/Cardmaker template sets: "
        "euro-poker 2.48 × 3.46 in, euro-square 2.76 in, square 3.5 in, all 300 dpi",
    ),
)

DRIVETHRU = Profile(
    slug="drivethru",
    name="DriveThruCards",
    output="pdf",
    dpi=300,
    colour="cmyk",
    max_ink=240.0,
    products=(
        _standard(
            "poker",
            DTC_BLEED,
            _in(0.125),
            note="page 2.75 × 3.75 in; back then face, card by card; PDF/X-1a:2003",
        ),
        _standard("mini", DTC_BLEED, _in(0.125), checked=False),
        _standard("square", DTC_BLEED, _in(0.125), checked=False),
        _standard("tarot", DTC_BLEED, _in(0.125), checked=False),
    ),
    sources=(
        "DriveThruCards publisher help, 'Common Card Prep Issues & Solutions' "
        "(onebookshelfpublisherservice.zendesk.com, article 227867607): 1/8 in bleed, "
        "poker 2.75 × 3.75 in with bleed, 1/8 in safe zone, PDF/X-1a:2003",
        "DriveThruCards card set-up guide: total ink at most 240 %, CMYK, back page first",
    ),
)

PROFILES: dict[str, Profile] = {p.slug: p for p in (MPC, TGC, DRIVETHRU)}


def get_profile(slug: str) -> Profile:
    """The profile named `slug`, or a PnpError listing the profiles."""
    try:
        return PROFILES[slug]
    except KeyError:
        raise PnpError(f"unknown shop profile '{slug}' (profiles: {', '.join(PROFILES)})") from None
