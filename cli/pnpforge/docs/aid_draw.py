"""Drawing player-aid cards: the face (title band, flowed rows, footer) and the shared back.

Every size, colour and margin comes from the game's aid style (docs.aid_style,
helpers/aid.toml), so a designer restyles aids in templates; the rows were
laid out and every glyph checked when the aids were planned, so drawing can
no longer fail on content.  HelperRenderer has render.pdf_sheets' Renderer
interface: the aids go through the same sheet writer as the cards.
"""

from __future__ import annotations

from typing import Any

from pnpforge.errors import PnpError
from pnpforge.render import text as tx
from pnpforge.render import text_atoms, text_break, text_draw
from pnpforge.render.units import MM, hex_to_rgb, mix, readable_on


class HelperRenderer:
    """Faces and the back of helper cards, with render.pdf_sheets' Renderer interface."""

    def __init__(self, hs: Any, fonts: Any, date: str, labels: dict[str, str]) -> None:
        self.hs, self.fonts, self.date, self.labels = hs, fonts, date, labels
        self.card_look: dict[str, Any] = hs.look.card
        self.back_look: dict[str, Any] = hs.look.back
        self._warnings: list[str] = []

    def check(self, card: Any) -> None:
        """Layout already happened in plan_helpers (every glyph checked); nothing can overflow."""

    def warnings(self) -> list[str]:
        return list(self._warnings)

    def draw_face(self, c: Any, card: Any, x: float, y: float, bleed: float) -> None:

        look = self.card_look
        W, H = self.hs.width_mm * MM, self.hs.height_mm * MM
        safe = look["safe_margin"] * MM
        c.saveState()
        c.setFillColorRGB(*hex_to_rgb(look["paper"]))
        c.rect(x - bleed, y - bleed, W + 2 * bleed, H + 2 * bleed, stroke=0, fill=1)
        self._header(c, card, x, y, W, H, bleed)
        top = y + H - (look["header_height"] + 2.0) * MM
        left, width = x + safe, W - 2 * safe
        for k, row in enumerate(card.rows):
            if k:
                top -= row.space_before
            row.draw(c, left, top, width)
            top -= row.height
        self._footer(c, card, x, y, W)
        c.restoreState()

    def _header(self, c: Any, card: Any, x: float, y: float, W: float, H: float, bleed: float) -> None:
        """The title band: aid title, game title and English title, and `k/n` when spread."""

        look = self.card_look
        accent, safe = look["accent"], look["safe_margin"] * MM
        band = look["header_height"] * MM
        c.setFillColorRGB(*hex_to_rgb(accent))
        c.rect(x - bleed, y + H - band, W + 2 * bleed, band + bleed, stroke=0, fill=1)
        c.setFillColorRGB(*hex_to_rgb(mix(accent, "#ffffff", 0.35)))
        c.rect(x - bleed, y + H - band - 0.5 * MM, W + 2 * bleed, 0.5 * MM, stroke=0, fill=1)
        m = card.style.measure
        pager = f"{card.index}/{card.total}" if card.total > 1 else ""
        pager_w = m.text(pager, self.fonts.regular) * look["pager_size"] + (1.5 * MM if pager else 0)
        inner = W - 2 * safe - pager_w
        sub = self.hs.game.title if not card.title_en else f"{self.hs.game.title} · {card.title_en}"
        title = self._fit_one(
            card.title, self.fonts.bold, look["title_size"], look["title_min_size"], inner, True
        )
        subtitle = self._fit_one(
            sub, self.fonts.regular, look["subtitle_size"], look["subtitle_min_size"], inner, False
        )
        base = y + H - band
        text_draw.draw(
            c,
            title,
            x + safe,
            base + band * 0.40,
            inner,
            band * 0.52,
            "left",
            "bottom",
            "#ffffff",
            m,
            None,
            "#ffffff",
        )
        text_draw.draw(
            c,
            subtitle,
            x + safe,
            base + band * 0.12,
            inner,
            band * 0.26,
            "left",
            "middle",
            mix(accent, "#ffffff", 0.75),
            m,
            None,
            "#ffffff",
        )
        if pager:
            c.setFillColorRGB(1, 1, 1)
            c.setFont(self.fonts.regular, look["pager_size"])
            c.drawRightString(x + W - safe, base + band * 0.42, pager)

    def _fit_one(self, text: str, font: str, size: float, min_size: float, width: float, bold: bool) -> Any:
        """`text` on one line at the largest size from `size` down to `min_size`, else an error."""

        m = text_atoms.Measure(self.fonts.regular, self.fonts.bold)
        atoms = text_atoms.atomize([text_atoms.Span(text, bold=bold)], m)
        for s in _sizes_down(size, min_size):
            lines = text_break.break_lines(atoms, width / s, m)
            if len(lines) == 1:
                return tx.Fitted(lines, s, 1.15, s)
        raise PnpError(
            f"helper card title “{text}” does not fit on one line at {min_size:g} pt "
            f"(shorten it, or lower the size in {self.hs.look.source})"
        )

    def _footer(self, c: Any, card: Any, x: float, y: float, W: float) -> None:

        look = self.card_look
        g = self.hs.game
        text = f"{g.title} v{g.version} · {self.date} · {card.title}"
        colour = look["footer_colour"]
        c.setFillColorRGB(*(hex_to_rgb(colour) if colour else (0.52, 0.52, 0.52)))
        size, floor, safe = look["footer_size"], look["footer_min_size"], look["safe_margin"]
        while size > floor and c.stringWidth(text, self.fonts.regular, size) > W - 2 * safe * MM:
            size -= 0.25
        c.setFont(self.fonts.regular, size)
        c.drawCentredString(x + W / 2, y + (safe - 0.6) * MM, text)

    def draw_back(self, c: Any, type_slug: str, x: float, y: float, bleed: float) -> None:
        """The aid back: a colour, a lattice, a frame and a centred title band.

        Mirror-symmetric like the card backs, so a duplex offset never shows.
        """

        look = self.back_look
        W, H = self.hs.width_mm * MM, self.hs.height_mm * MM
        colour = look["colour"]
        ink = readable_on(colour)
        c.saveState()
        c.setFillColorRGB(*hex_to_rgb(colour))
        c.rect(x - bleed, y - bleed, W + 2 * bleed, H + 2 * bleed, stroke=0, fill=1)
        p = c.beginPath()
        p.rect(x - bleed, y - bleed, W + 2 * bleed, H + 2 * bleed)
        c.clipPath(p, stroke=0, fill=0)
        if look["pattern"] == "lattice":
            self._lattice(c, x, y, W, H, bleed, mix(colour, ink, 0.12))
        inset = look["frame_inset"] * MM
        if look["frame"]:
            c.setStrokeColorRGB(*hex_to_rgb(mix(colour, ink, 0.55)))
            c.setLineWidth(0.8)
            c.roundRect(
                x + inset,
                y + inset,
                W - 2 * inset,
                H - 2 * inset,
                look["frame_radius"] * MM,
                stroke=1,
                fill=0,
            )
        self._back_band(c, x, y, W, H, inset, colour, ink)
        c.restoreState()

    def _lattice(self, c: Any, x: float, y: float, W: float, H: float, bleed: float, colour: str) -> None:
        """Diagonal lines both ways through the card's centre, over the bleed."""

        c.setStrokeColorRGB(*hex_to_rgb(colour))
        c.setLineWidth(self.back_look["pattern_width"])
        cx, cy, step = x + W / 2, y + H / 2, self.back_look["pattern_step"] * MM
        reach = (W + H) / 2 + 2 * bleed
        n = int(reach / step) + 2
        for k in range(-n, n + 1):
            d = k * step
            c.line(cx + d - reach, cy - reach, cx + d + reach, cy + reach)
            c.line(cx - d + reach, cy - reach, cx - d - reach, cy + reach)

    def _back_band(
        self, c: Any, x: float, y: float, W: float, H: float, inset: float, colour: str, ink: str
    ) -> None:
        """The centred band with the game's title and the aid line."""

        look = self.back_look
        band_h = min(H * look["band_height"], look["band_max_height"] * MM)
        by = y + (H - band_h) / 2
        c.setFillColorRGB(*hex_to_rgb(mix(colour, "#000000", 0.25)))
        c.rect(x + inset, by, W - 2 * inset, band_h, stroke=0, fill=1)
        m = text_atoms.Measure(self.fonts.regular, self.fonts.bold)
        inner = W - 2 * inset - 4 * MM
        words = {"{game}": self.hs.game.title, "{helper_footer}": self.labels["helper_footer"]}
        title = self._fit_one(
            _fill(look["title"], words),
            self.fonts.bold,
            look["title_size"],
            look["title_min_size"],
            inner,
            True,
        )
        subtitle = self._fit_one(
            _fill(look["subtitle"], words),
            self.fonts.regular,
            look["subtitle_size"],
            look["subtitle_min_size"],
            inner,
            False,
        )
        text_draw.draw(
            c,
            title,
            x + inset + 2 * MM,
            by + band_h * 0.42,
            inner,
            band_h * 0.5,
            "center",
            "bottom",
            ink,
            m,
            None,
            ink,
        )
        text_draw.draw(
            c,
            subtitle,
            x + inset + 2 * MM,
            by + band_h * 0.12,
            inner,
            band_h * 0.26,
            "center",
            "middle",
            mix(ink, colour, 0.2),
            m,
            None,
            ink,
        )


def _fill(text: str, words: dict[str, str]) -> str:
    """`{game}`-style placeholders replaced (plain replacement: titles may hold braces)."""
    for key, value in words.items():
        text = text.replace(key, value)
    return text


def _sizes_down(size: float, min_size: float) -> list[float]:
    out, s = [], size
    while s >= min_size - 1e-9:
        out.append(round(s, 2))
        s -= 0.25
    return out
