"""Planning art regions: the card's image file resampled to the region, or a placeholder.

Art is the one region kind that reads files and loads Pillow; it is planned
here, apart from text and icons, so that work and its failure modes (a
missing or unreadable file becomes a hatched placeholder and a warning) stay
in one place.  Resampled images are kept by file, size and fit in a cache
bounded by their pixels.  The planned `Picture` names its file and pixel size,
so preflight reads art resolutions from the plan.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pnpforge.artfile import check_art, check_pixels
from pnpforge.render import fonts as fontmod
from pnpforge.render.face_cache import ART_CACHE_BYTES, MISSING, SizedLRU
from pnpforge.render.face_context import TemplateRunner
from pnpforge.render.face_geometry import Box
from pnpforge.render.face_ops import Picture, Placeholder, hatch
from pnpforge.render.face_values import PlanContext
from pnpforge.render.layout import Region
from pnpforge.render.units import mix


class ArtPlanner:
    """Plans image regions for one card from the templates' `source`."""

    def __init__(self, runner: TemplateRunner) -> None:
        self.runner = runner
        self._images = SizedLRU(ART_CACHE_BYTES)  # resampled art, bounded by its pixels

    def plan(self, ctx: PlanContext, reg: Region, box: Box, where: str) -> Any:
        run, o = self.runner, reg.opts
        source = run.render(ctx, o["source"], where + " option 'source'", marks=False).strip()
        empty = run.colour(ctx, o["empty_colour"], where) or "#d9d4cc"
        if not source:
            return hatch(empty) if o["empty"] == "pattern" else None
        path = Path(source)
        if not path.is_absolute():
            path = run.base_dir / path
        bw, bh = box.content(int(o["rotate"]), 0.0)
        px = (max(1, round(bw / 72 * o["dpi"])), max(1, round(bh / 72 * o["dpi"])))
        try:
            reader, w, h = self._load(path, px, o["fit"])
        except FileNotFoundError:
            run.warnings.append(f"{where}: art file {path} not found; printed a placeholder")
            return self._placeholder(empty, path, o["fit"], px, int(o["dpi"]))
        except Exception as e:  # unreadable or unsupported image
            run.warnings.append(f"{where}: cannot read art file {path} ({e}); printed a placeholder")
            return self._placeholder(empty, path, o["fit"], px, int(o["dpi"]))
        return Picture(reader, w, h, o["fit"], str(path), px, int(o["dpi"]))

    def _load(self, path: Path, px: tuple[int, int], fit: str) -> tuple[Any, int, int]:
        """Open, orient and resample art to the region at the wanted dpi (cached)."""
        check_art(path, self.runner.base_dir)
        stat = path.stat()
        key = (str(path), stat.st_mtime_ns, stat.st_size, px, fit)
        hit = self._images.lookup(key)
        if hit is not MISSING:
            return hit
        # Pillow and reportlab load only when a card has art
        from PIL import Image, ImageOps
        from reportlab.lib.utils import ImageReader

        with Image.open(path) as opened:
            check_pixels(path, opened.width, opened.height)
            im: Any = ImageOps.exif_transpose(opened)
            if im.mode in ("RGBA", "LA", "P"):
                im = im.convert("RGBA")
                flat = Image.new("RGB", im.size, (255, 255, 255))
                flat.paste(im, mask=im.split()[-1])
                im = flat
            else:
                im = im.convert("RGB")
            if fit == "cover":
                im = ImageOps.fit(im, px, Image.Resampling.LANCZOS)
            else:
                im = ImageOps.contain(im, px, Image.Resampling.LANCZOS)
            im.load()
        result = (ImageReader(im), im.width, im.height)
        return self._images.store(key, result, im.width * im.height * 3)

    def _placeholder(self, colour: str, path: Path, fit: str, px: tuple[int, int], dpi: int) -> Placeholder:
        font = self.runner.fonts.regular
        label = f"{self.runner.word('missing')} {path.name}"
        label = "".join(ch for ch in label if not fontmod.missing_glyphs(ch, font)) or "?"
        return Placeholder(hatch(colour), mix(colour, "#000000", 0.45), label, font, str(path), fit, px, dpi)
