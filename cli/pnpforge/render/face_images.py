"""Planning art regions: the card's image file resampled to the region, or a placeholder.

Art is the one region kind that reads files and loads Pillow; it is planned
here, apart from text and icons, so that work and its failure modes (a
missing or unreadable file becomes a hatched placeholder and a warning) stay
in one place.  Resampled images are cached by file, size and fit.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pnpforge.render import fonts as fontmod
from pnpforge.render.face_cache import MISSING
from pnpforge.render.face_context import FaceContext
from pnpforge.render.face_geometry import Box, BoxOp
from pnpforge.render.face_ops import ImageOp
from pnpforge.render.face_paint import hatch_op
from pnpforge.render.face_values import PlanContext
from pnpforge.render.layout import Region
from pnpforge.render.units import hex_to_rgb, mix


class ImagePlanner(FaceContext):
    """Plans image regions for one card; RegionPlanner adds the other kinds."""

    def _plan_image(self, ctx: PlanContext, reg: Region, box: Box, where: str) -> BoxOp | None:
        o = reg.opts
        source = self._render(ctx, o["source"], where + " option 'source'", marks=False).strip()
        empty = self._colour(ctx, o["empty_colour"], where) or "#d9d4cc"
        if not source:
            return hatch_op(empty) if o["empty"] == "pattern" else None
        path = Path(source)
        if not path.is_absolute():
            path = self.base_dir / path
        bw, bh = box.content(int(o["rotate"]), 0.0)
        px = (max(1, round(bw / 72 * o["dpi"])), max(1, round(bh / 72 * o["dpi"])))
        try:
            image = self._load_image(path, px, o["fit"])
        except FileNotFoundError:
            self._warnings.append(f"{where}: art file {path} not found; printed a placeholder")
            return self._placeholder_op(ctx, empty, path.name)
        except Exception as e:  # unreadable or unsupported image
            self._warnings.append(f"{where}: cannot read art file {path} ({e}); printed a placeholder")
            return self._placeholder_op(ctx, empty, path.name)
        return ImageOp(image, o["fit"])

    def _load_image(self, path: Path, px: tuple[int, int], fit: str) -> tuple[Any, int, int]:
        """Open, orient and resample art to the region at the wanted dpi (cached)."""
        from pnpforge.artfile import check_art, check_pixels

        check_art(path, self.base_dir)
        stat = path.stat()
        key = (str(path), stat.st_mtime_ns, stat.st_size, px, fit)
        hit = self._images.lookup(key)
        if hit is not MISSING:
            return hit
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

    def _placeholder_op(self, ctx: PlanContext, colour: str, filename: str) -> BoxOp:
        label = f"{self._word('missing')} {filename}"
        label = "".join(ch for ch in label if not fontmod.missing_glyphs(ch, self.fonts.regular)) or "?"
        hatch = hatch_op(colour)
        font = self.fonts.regular
        dark = mix(colour, "#000000", 0.45)

        def op(c: Any, x: float, y: float, w: float, h: float) -> None:
            hatch(c, x, y, w, h)
            c.setStrokeColorRGB(*hex_to_rgb(dark))
            c.setLineWidth(0.5)
            c.setDash(2, 2)
            c.rect(x + 1, y + 1, w - 2, h - 2, stroke=1, fill=0)
            c.setDash()
            size = min(6.0, h * 0.3)
            from reportlab.pdfbase.pdfmetrics import stringWidth

            text = label
            while stringWidth(text, font, size) > w - 4 and len(text) > 2:
                text = text[:-2] + "…"
            c.setFillColorRGB(*hex_to_rgb(dark))
            c.setFont(font, size)
            c.drawCentredString(x + w / 2, y + h / 2 - size * 0.35, text)

        return op
