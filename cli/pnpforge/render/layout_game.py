"""A game's layouts: each card type's file loaded and checked against the type.

render.layout loads and merges one layout file; here every card type of a game
gets its layout (the generic one where it has no file, with a warning), each is
checked for the fields it reads and for regions that leave the card or its safe
area, and layout_cache keeps the checked result between runs.  `source_line`
points an error at its line of the layout file.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pnpforge.errors import PnpError
from pnpforge.render import layout_cache, units
from pnpforge.render.layout import Layout, LayoutError, _build, _chain, _label, generic_layout
from pnpforge.render.layout_checks import field_names_used
from pnpforge.render.layout_options import region_option
from pnpforge.resources import TemplateRoots, as_roots


def check_fields(layout: Layout, field_names: list[str], type_slug: str) -> None:
    """Every field a region reads must exist on the card type it draws."""
    problems = []
    allowed = set(field_names)
    for reg in layout.regions:
        for key, value in reg.opts.items():
            opt = region_option(reg.kind, key)
            if opt is None or not isinstance(value, str) or not value:
                continue
            if opt.kind in ("template", "colour") or (opt.kind == "expr"):
                if opt.kind == "colour" and "{{" not in value:
                    continue
                try:
                    used = field_names_used(value, expression=opt.kind == "expr")
                except Exception:  # syntax errors were reported when loading
                    continue
                for name in sorted(used - allowed):
                    problems.append(
                        f"{reg.origin}: region '{reg.name}' option '{key}' reads "
                        f"field '{name}', which card type '{type_slug}' does not have "
                        f"(fields: {', '.join(field_names) or 'none'})"
                    )
    if problems:
        raise LayoutError(
            f"layout '{layout.name}' does not fit card type '{type_slug}':\n  - " + "\n  - ".join(problems)
        )


def check_geometry(layout: Layout, width: float, height: float, type_slug: str) -> None:
    """Regions must lie on the card; text must keep inside the safe area."""
    problems = []
    safe = layout.card["safe_margin"]
    stamp = layout.stamp
    # the stamp's line (and the provisional badge beside it) belongs to no region
    band = max(stamp["size"] * 1.25 / units.MM, layout.provisional["badge_size"])
    band_top = safe + band if stamp["position"] == "top" else height - safe - band
    for reg in layout.regions:
        o = reg.opts
        x, y, w, h = (units.eval_length(o[k], width, height) for k in ("x", "y", "w", "h"))
        if w <= 0 or h <= 0:
            problems.append(
                f"{reg.origin}: region '{reg.name}' has no area on a {width:g}×{height:g} mm "
                f"card (w = {w:g}, h = {h:g} mm)"
            )
            continue
        eps = 0.01
        if x < -eps or y < -eps or x + w > width + eps or y + h > height + eps:
            problems.append(
                f"{reg.origin}: region '{reg.name}' ({x:g}, {y:g}, {w:g}×{h:g} mm) leaves "
                f"the {width:g}×{height:g} mm card"
            )
        if reg.kind in ("text", "rows", "icon", "icons") and not o["outside_safe"]:
            pad = o.get("padding", 0.0)
            over = max(
                safe - (x + pad),
                safe - (y + pad),
                (x + w - pad) - (width - safe),
                (y + h - pad) - (height - safe),
            )
            if over > eps:
                problems.append(
                    f"{reg.origin}: region '{reg.name}' reaches {over:.2f} mm into the "
                    f"{safe:g} mm safe margin (move it in, add padding, or set "
                    f"outside_safe = true)"
                )
            elif stamp["enabled"]:
                into = (y + h - pad) - band_top if stamp["position"] == "bottom" else band_top - (y + pad)
                if into > eps:
                    problems.append(
                        f"{reg.origin}: region '{reg.name}' covers the stamp line by "
                        f"{into:.2f} mm (keep text {band:.1f} mm clear of the "
                        f"{stamp['position']} of the safe area)"
                    )
    if problems:
        raise LayoutError(
            f"layout '{layout.name}' on card type '{type_slug}':\n  - " + "\n  - ".join(problems)
        )


def load_game_layouts(
    templates: Path | Sequence[Path] | TemplateRoots | None, game: str, types: list[Any]
) -> tuple[dict[str, Layout], list[str]]:
    """Layouts for every card type of `game` (generic where no file), plus warnings.

    Each file is looked up along the template folders: the project's own
    first, the shipped ones last.
    """
    roots = as_roots(templates)
    layouts: dict[str, Layout] = {}
    warnings: list[str] = []
    slugs = [t.slug for t in types]
    extended: set[str] = set()
    for t in types:
        path = roots.find(f"{game}/{t.slug}.toml")
        if path.is_file():
            lay = _load_checked(path, roots, t)
            extended.update(Path(f).stem for f in lay.files[1:])
        else:
            lay = generic_layout()
            warnings.append(
                f"card type '{t.slug}' has no layout ({_label(path, roots)}); using the generic one"
            )
            check_fields(lay, [f.name for f in t.fields], t.slug)
            check_geometry(lay, t.width_mm, t.height_mm, t.slug)
        layouts[t.slug] = lay
    for p in roots.files(game, "*.toml"):
        if p.stem not in slugs and p.stem not in extended and not p.stem.startswith("_"):
            warnings.append(
                f"{_label(p, roots)} matches no card type of '{game}' "
                f"(types: {', '.join(slugs)}) and no layout extends it"
            )
    return layouts, warnings


def _load_checked(path: Path, roots: TemplateRoots, ctype: Any) -> Layout:
    """A card type's layout file, loaded and checked against the type (layout_cache keeps it
    by the files' content, the labels errors name them by, and the type's fields and size)."""
    chain = [(_label(p, roots), d) for p, d in _chain(path, roots)]
    field_names = [f.name for f in ctype.fields]

    def build() -> Layout:
        lay = _build(chain, name=path.stem)
        check_fields(lay, field_names, ctype.slug)
        check_geometry(lay, ctype.width_mm, ctype.height_mm, ctype.slug)
        return lay

    key = (path.stem, chain, field_names, ctype.slug, ctype.width_mm, ctype.height_mm)
    return layout_cache.cached("layout", repr(key), build)


_FILE_IN_WHERE = re.compile(r" in templates/(\S+\.toml)")


def source_line(roots: TemplateRoots, where: str, source: str) -> str:
    """', line N' of the layout file named in `where` that holds template `source` (else '').

    Only an error path asks, so the file is read then: a designer is told where
    to look in the TOML, not just which option.
    """
    found = _FILE_IN_WHERE.search(where)
    needle = source.strip().split("\n", 1)[0][:40]
    if found is None or not needle:
        return ""
    try:
        lines = roots.find(found.group(1)).read_text(encoding="utf-8").splitlines()
    except (OSError, PnpError):
        return ""
    escaped = needle.replace("\\", "\\\\").replace('"', '\\"')
    for number, line in enumerate(lines, 1):
        if needle in line or escaped in line:
            return f", line {number}"
    return ""
