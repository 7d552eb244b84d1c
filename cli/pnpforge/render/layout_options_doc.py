"""The layout option tables as Markdown: section titles, defaults in TOML spelling.

templates/README.md documents every option from the table in
render.layout_options; the wording of that documentation changes nothing a
layout may do, so it lives apart from the table (and out of the layout
cache's key).  Player-aid styles pass their own table and titles.
"""

from __future__ import annotations

from pnpforge.render.layout_options import SECTIONS, Inherit, Opt

SECTION_TITLES = {
    "card": "Card-wide settings",
    "categories": "Colours by category",
    "icons.NAME": "Icons (badges drawn in icon regions and inline as :NAME:)",
    "keywords.WORD": "Keywords (styled wherever text regions print them)",
    "stamp": "Stamp (version, date and card id inside the safe area)",
    "provisional": "Provisional marks",
    "back": "Card backs",
    "regions": "Every region",
    "regions.text": 'Text regions (kind = "text")',
    "regions.rows": 'Label/value rows (kind = "rows")',
    "regions.image": 'Art (kind = "image")',
    "regions.shape": 'Shapes (kind = "shape")',
    "regions.icon": 'One icon (kind = "icon")',
    "regions.icons": 'A row or column of icons (kind = "icons")',
}


def format_default(opt: Opt) -> str:
    """An option's default as the docs show it (TOML spelling)."""
    d = opt.default
    if isinstance(d, Inherit):
        return repr(d)
    if isinstance(d, bool):
        return "true" if d else "false"
    if isinstance(d, float):
        return f"{d:g}"
    if isinstance(d, dict):
        return "{}"
    if isinstance(d, str):
        return '"' + d.replace('"', '\\"') + '"'
    return str(d)


def options_markdown(
    sections: dict[str, list[Opt]] | None = None, titles: dict[str, str] | None = None
) -> str:
    """The option tables of templates/README.md, generated from an option table
    (the card layouts' by default; player-aid styles pass theirs)."""
    sections = SECTIONS if sections is None else sections
    titles = SECTION_TITLES if titles is None else titles
    out: list[str] = []
    for key, opts in sections.items():
        out.append(f"### `{key}` — {titles[key]}\n")
        if not opts:
            out.append("No options beyond those of every region.\n")
            continue
        out.append("| option | default | allowed | meaning |")
        out.append("|---|---|---|---|")
        for o in opts:
            allowed = ", ".join(f"`{c}`" for c in o.choices) if o.choices else o.kind
            req = " **Required.**" if o.required else ""
            default = "—" if o.required else f"`{format_default(o).replace('|', '&#124;')}`"
            doc = o.doc.replace("|", "&#124;")
            out.append(f"| `{o.name}` | {default} | {allowed} | {doc}{req} |")
        out.append("")
    return "\n".join(out)
