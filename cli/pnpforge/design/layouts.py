"""Starter card layouts for a new game: a title band, an art slot, the fields, the rules text.

Written once into the project's `templates/GAME/` (beside its cards.db) for
the designer to edit; an existing file is never overwritten.  Positions are
plain millimetres computed for the card size, so the file reads as what it
draws.  When a card type has an enum field, its values colour the title band.
"""

from __future__ import annotations

from pathlib import Path

from pnpforge.model import FieldDef
from pnpforge.outfile import ensure_folder, write_text

# Colours for the values of a card type's first enum field, in order.
BAND_COLOURS = ("#2f4858", "#b5472f", "#2e8b57", "#d4a017", "#2e6da4", "#7d3c98", "#a0522d", "#5d6d7e")
_SAFE = 3.0  # the layout's safe margin (templates/README.md)
_STAMP = 3.5  # room kept above the bottom safe edge for the stamp line
_BAND = 12.0


def base_layout(title: str) -> str:
    """The shared base.toml: colours and the back; card types extend it."""
    return f"""# Starter layout for {title}, written by `pnp game new`: edit freely.
# Every option is described in pnpforge's templates/README.md; each card type's
# file extends this one.

[card]
background = "#fbfaf7"
colour = "#1f2328"
font_size = 7
min_font_size = 4

[back]
pattern = "lattice"
"""


def _toml_str(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


ART_DPI = 300  # the resolution an image region is drawn at unless the layout says otherwise


def _heights(fields: list[FieldDef], height: float) -> tuple[float, float, float]:
    """(fields rows, rules text, art slot) heights in mm for a card `height` mm tall."""
    room = height - _SAFE - _STAMP - (_BAND + 1)
    rows_h = round(min(len(fields) * 3.6 + 1, room * 0.35), 1) if fields else 0.0
    text_h = round(max(room * 0.25, 8.0), 1)
    return rows_h, text_h, round(room - rows_h - text_h - 2, 1)


def art_slot(fields: list[FieldDef], width: float, height: float) -> tuple[float, float]:
    """The starter layout's art slot in mm (filled by cropping): the shape to draw art in."""
    return round(width - 2 * _SAFE, 1), _heights(fields, height)[2]


def type_layout(type_name: str, fields: list[FieldDef], width: float, height: float) -> str:
    """One card type's layout, sized for `width` × `height` mm."""
    top = _BAND + 1
    rows_h, _, art_h = _heights(fields, height)
    rows_y = round(top + art_h + 1, 1)
    text_y = round(rows_y + rows_h + (1 if fields else 0), 1)
    band = "category" if any(f.type == "enum" for f in fields) else BAND_COLOURS[0]
    out = [
        f"# {type_name}: title band, art slot, fields, rules text. Written by `pnp game new`.",
        'extends = "base"',
        "",
    ]
    out += _categories(fields)
    out += _region("band", "shape", 0, 0, "W", _BAND, fill=_toml_str(band), bleed="true")
    out += _region(
        "title",
        "text",
        _SAFE,
        _SAFE,
        "W - 6",
        _BAND - _SAFE - 0.5,
        text='"**{{ card.name }}**"',
        size="10",
        min_size="6",
        colour='"#ffffff"',
        valign='"middle"',
    )
    out += _region("art", "image", _SAFE, top, "W - 6", art_h, fit='"cover"')
    if fields:
        out += _region("fields", "rows", _SAFE, rows_y, "W - 6", rows_h, rule='"#dddddd"', min_size="3.5")
    out += _region(
        "rules",
        "text",
        _SAFE,
        text_y,
        "W - 6",
        round(height - _SAFE - _STAMP - text_y, 1),
        text='"{{ card.text }}"',
        when='"card.text"',
        min_size="4",
    )
    return "\n".join(out)


def _categories(fields: list[FieldDef]) -> list[str]:
    enum = next((f for f in fields if f.type == "enum" and f.allowed), None)
    if enum is None or enum.allowed is None:
        return []
    lines = [
        "[categories]",
        f"field = {_toml_str(enum.name)}",
        f'default = "{BAND_COLOURS[0]}"',
        "",
        "[categories.colours]",
    ]
    lines += [f'{_toml_str(v)} = "{BAND_COLOURS[i % len(BAND_COLOURS)]}"' for i, v in enumerate(enum.allowed)]
    return lines + [""]


def _region(name: str, kind: str, x: float, y: float, w: str, h: float | str, **options: str) -> list[str]:
    lines = [
        "[[regions]]",
        f'name = "{name}"',
        f'kind = "{kind}"',
        f"x = {x:g}",
        f"y = {y:g}",
        f'w = "{w}"',
        f"h = {h:g}" if isinstance(h, float) else f'h = "{h}"',
    ]
    lines += [f"{key} = {value}" for key, value in options.items()]
    return lines + [""]


def write_layouts(
    folder: Path, title: str, types: list[tuple[str, str, list[FieldDef]]], width: float, height: float
) -> tuple[list[Path], list[Path]]:
    """Write base.toml and one TYPE.toml per (slug, name, fields); (written, kept as they were)."""

    ensure_folder(folder)
    wanted = [(folder / "base.toml", base_layout(title))]
    wanted += [
        (folder / f"{slug}.toml", type_layout(name, fields, width, height)) for slug, name, fields in types
    ]
    written: list[Path] = []
    kept: list[Path] = []
    for path, text in wanted:
        if path.exists():
            kept.append(path)
            continue
        write_text(path, text)
        written.append(path)
    return written, kept
