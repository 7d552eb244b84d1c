"""How player-aid cards look: option tables a designer sets in templates, not in Python.

The look of every aid card (paper, ink, title band, text sizes, margins) and of
the one back all aids share is read from `helpers/aid.toml`: the game's own
`templates/GAME/helpers/aid.toml` when it has one, else the shipped
`templates/_shared/helpers/aid.toml`.  A game's file usually starts with
`extends = "../../_shared/helpers/aid"` and changes a few options.  The files
follow the layout rules (render.layout.load_tables): every option is declared
below with its default, a mistake names the file and what is allowed, and
templates/README.md documents the same table (a test keeps them in sync).
The colour name `accent` is the game's colour (context.accent_colour).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pnpforge.errors import PnpError
from pnpforge.render.layout import load_tables
from pnpforge.render.layout_options import Opt
from pnpforge.render.units import is_hex_colour
from pnpforge.resources import as_roots

ACCENT = "accent"  # the palette name of the game's colour

_O = Opt
CARD = [
    _O("paper", "colour", "#fbfaf6", "Face colour; fills the trim box and the bleed."),
    _O("ink", "colour", "#1c1c1c", "Body text colour."),
    _O(
        "accent",
        "colour",
        ACCENT,
        "Colour of headings, bullets, table headers and the title band "
        "(`accent`: the game's colour, its first deck back colour darkened to read).",
    ),
    _O("mark_colour", "colour", "#b03a2e", "Colour of the provisional sign †."),
    _O("body_size", "pt", 7.0, "Preferred body text size (an aid's `body_pt` overrides it)."),
    _O("min_size", "pt", 6.0, "Legibility floor: material moves to another card instead of shrinking below."),
    _O("size_step", "pt", 0.2, "Step by which the body size is tried smaller."),
    _O("leading", "number", 1.32, "Line height as a multiple of the text size."),
    _O("safe_margin", "mm", 3.5, "Distance inside the trim that text keeps."),
    _O("header_height", "mm", 10.5, "Height of the title band at the top (it bleeds off the top edge)."),
    _O("footer_height", "mm", 3.2, "Height kept free at the bottom for the footer line."),
    _O("title_size", "pt", 10.0, "Title size in the band (shrinks to fit one line)."),
    _O("title_min_size", "pt", 6.5, "Smallest title size before an error."),
    _O("subtitle_size", "pt", 5.6, "Size of the line under the title (game title · English title)."),
    _O("subtitle_min_size", "pt", 4.2, "Smallest subtitle size before an error."),
    _O("pager_size", "pt", 6.5, "Size of the `2/3` counter of an aid spread over several cards."),
    _O("footer_size", "pt", 4.5, "Footer line size (game, version, date, aid title)."),
    _O("footer_min_size", "pt", 3.5, "Smallest footer size."),
    _O("footer_colour", "colour", "", "Footer line colour (empty: a 52 % grey)."),
]
BACK = [
    _O("colour", "colour", ACCENT, "Back colour (`accent`: the game's colour)."),
    _O(
        "pattern",
        "choice",
        "lattice",
        "Background pattern (mirror-symmetric, so a duplex back lines up).",
        ("lattice", "none"),
    ),
    _O("pattern_step", "mm", 4.0, "Distance between the lattice lines."),
    _O("pattern_width", "pt", 0.6, "Lattice line width."),
    _O("frame", "bool", True, "Draw an inner frame."),
    _O("frame_inset", "mm", 3.5, "Frame and band distance from the trim."),
    _O("frame_radius", "mm", 2.5, "Frame corner radius."),
    _O("band_height", "number", 0.3, "Height of the centred title band as a fraction of the card height."),
    _O("band_max_height", "mm", 26.0, "Largest title band height."),
    _O("title", "text", "{game}", "Band title; `{game}` is the game's title."),
    _O("title_size", "pt", 14.0, "Title size (shrinks to fit one line)."),
    _O("title_min_size", "pt", 7.0, "Smallest title size before an error."),
    _O(
        "subtitle",
        "text",
        "{helper_footer} · Player aid",
        "Line under the title; `{helper_footer}` is the game language's word for a player aid.",
    ),
    _O("subtitle_size", "pt", 7.0, "Subtitle size (shrinks to fit one line)."),
    _O("subtitle_min_size", "pt", 4.5, "Smallest subtitle size before an error."),
]
SECTIONS: dict[str, list[Opt]] = {"card": CARD, "back": BACK}
SECTION_TITLES = {
    "card": "Player-aid faces (helpers/aid.toml)",
    "back": "The player-aid back (helpers/aid.toml)",
}
STYLE_FILE = "aid.toml"


@dataclass(frozen=True)
class AidLook:
    """The resolved look of a game's aid cards: every option, colours made concrete."""

    card: dict[str, Any]
    back: dict[str, Any]
    source: str


def defaults() -> dict[str, dict[str, Any]]:
    """Every table with its declared defaults (what a game with no style of its own gets)."""
    return {name: {o.name: o.default for o in opts} for name, opts in SECTIONS.items()}


def style_path(roots: Any, game: str) -> Path:
    """The game's helpers/aid.toml, else the shipped default (looked up file by file)."""
    own = roots.find(f"{game}/helpers/{STYLE_FILE}")
    return own if own.is_file() else roots.find(f"_shared/helpers/{STYLE_FILE}")


def load_look(root: Path | None, game: str, accent: str) -> AidLook:
    """Read, check and resolve a game's aid style; `accent` replaces the colour name `accent`."""

    roots = as_roots(root)
    path = style_path(roots, game)
    tables = load_tables(path, roots, SECTIONS, palette={ACCENT: accent})
    resolved = {
        name: {o.name: _concrete(o, tables[name][o.name], accent) for o in opts}
        for name, opts in SECTIONS.items()
    }
    for name, opts in SECTIONS.items():
        for o in opts:
            value = resolved[name][o.name]
            if o.kind == "colour" and (value or o.default) and not is_hex_colour(value):
                raise PnpError(
                    f"{path}: [{name}] option '{o.name}' = {value!r} is not a colour "
                    f"(allowed: #rgb, #rrggbb, or {ACCENT})"
                )
    return AidLook(resolved["card"], resolved["back"], str(path))


def _concrete(option: Opt, value: Any, accent: str) -> Any:
    """A colour option's value with the name `accent` replaced by the game's colour."""
    return accent if option.kind == "colour" and value == ACCENT else value
