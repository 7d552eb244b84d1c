"""Planning player-aid cards: the face (title band, flowed rows, footer) and the shared back.

An aid card is planned as data, like a card face (render.face_ops ops in a
CardPlan), and drawn by the one PDF backend (render.plan_pdf), so preflight and
every output read one kind of plan.  Every size, colour and margin comes from
the game's aid style (docs.aid_style, helpers/aid.toml); the rows were laid out
and every glyph checked when the aids were planned (docs.aid_flow), so drawing
can no longer fail on content.  HelperRenderer has render.pdf_sheets' Renderer
interface: the aids go through the same sheet writer as the cards.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from reportlab.pdfbase.pdfmetrics import stringWidth

from pnpforge.errors import PnpError
from pnpforge.render import text as tx
from pnpforge.render import text_atoms, text_break
from pnpforge.render.face_ops import CardPlan, Disc, Fill, Label, Lattice, Rect, RoundFrame, Rule, TextAt
from pnpforge.render.plan_pdf import draw_plan
from pnpforge.render.units import MM, mix, readable_on

FOOTER_GREY = "#858585"  # the footer's colour when the style names none (52 % grey)


class HelperRenderer:
    """Plans of helper cards' faces and back, with render.pdf_sheets' Renderer interface."""

    def __init__(self, hs: Any, fonts: Any, date: str, labels: dict[str, str]) -> None:
        self.hs, self.fonts, self.date, self.labels = hs, fonts, date, labels
        self.card_look: dict[str, Any] = hs.look.card
        self.back_look: dict[str, Any] = hs.look.back
        self._faces: dict[int, tuple[Any, CardPlan]] = {}  # id(card) -> (card, its plan)
        self._back: CardPlan | None = None
        self._warnings: list[str] = []

    def check(self, card: Any) -> None:
        """Layout already happened in plan_helpers (every glyph checked); nothing can overflow."""

    def warnings(self) -> list[str]:
        return list(self._warnings)

    def draw_face(self, c: Any, card: Any, x: float, y: float, bleed: float) -> None:
        draw_plan(c, self.plan_face(card), x, y, bleed)

    def draw_back(self, c: Any, type_slug: str, x: float, y: float, bleed: float) -> None:
        draw_plan(c, self.plan_back(), x, y, bleed)

    # ---- the face --------------------------------------------------------------------------------

    def plan_face(self, card: Any) -> CardPlan:
        """The face of one aid card (planned once; its copies share the plan)."""
        hit = self._faces.get(id(card))
        if hit is not None and hit[0] is card:
            return hit[1]
        look = self.card_look
        W, H = self.hs.width_mm * MM, self.hs.height_mm * MM
        safe = look["safe_margin"] * MM
        ops: list[Any] = [Fill(look["paper"], self.hs.width_mm, self.hs.height_mm)]
        ops += self._header(card, W, H)
        top = H - (look["header_height"] + 2.0) * MM
        for k, row in enumerate(card.rows):
            if k:
                top -= row.space_before
            ops += (moved(op, safe, top) for op in row.ops)
            top -= row.height
        ops.append(self._footer(card, W))
        plan = CardPlan(tuple(ops))
        self._faces[id(card)] = (card, plan)
        return plan

    def _header(self, card: Any, W: float, H: float) -> list[Any]:
        """The title band: aid title, game title and English title, and `k/n` when spread."""
        look = self.card_look
        accent, safe = look["accent"], look["safe_margin"] * MM
        band = look["header_height"] * MM
        m = card.style.measure
        pager = f"{card.index}/{card.total}" if card.total > 1 else ""
        pager_w = m.text(pager, self.fonts.regular) * look["pager_size"] + (1.5 * MM if pager else 0)
        inner = W - 2 * safe - pager_w
        sub = self.hs.game.title if not card.title_en else f"{self.hs.game.title} · {card.title_en}"
        title = self._fit_one(card.title, look["title_size"], look["title_min_size"], inner, True)
        subtitle = self._fit_one(sub, look["subtitle_size"], look["subtitle_min_size"], inner, False)
        base = H - band
        ops: list[Any] = [
            Rect(accent, 0.0, base, W, band, "lrt"),
            Rect(mix(accent, "#ffffff", 0.35), 0.0, base - 0.5 * MM, W, 0.5 * MM, "lr"),
            TextAt(title, safe, base + band * 0.40, inner, band * 0.52, "left", "bottom", "#ffffff", m),
            TextAt(
                subtitle,
                safe,
                base + band * 0.12,
                inner,
                band * 0.26,
                "left",
                "middle",
                mix(accent, "#ffffff", 0.75),
                m,
                "#ffffff",
            ),
        ]
        if pager:
            ops.append(
                Label(
                    pager,
                    self.fonts.regular,
                    look["pager_size"],
                    "#ffffff",
                    W - safe,
                    base + band * 0.42,
                    "right",
                )
            )
        return ops

    def _footer(self, card: Any, W: float) -> Label:
        """The game, its version, the date and the aid's title, shrunk to the card's width."""
        look = self.card_look
        g = self.hs.game
        text = f"{g.title} v{g.version} · {self.date} · {card.title}"
        size, floor, safe = look["footer_size"], look["footer_min_size"], look["safe_margin"]
        while size > floor and stringWidth(text, self.fonts.regular, size) > W - 2 * safe * MM:
            size -= 0.25
        colour = look["footer_colour"] or FOOTER_GREY
        return Label(text, self.fonts.regular, size, colour, W / 2, (safe - 0.6) * MM, "center")

    def _fit_one(self, text: str, size: float, min_size: float, width: float, bold: bool) -> Any:
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

    # ---- the back --------------------------------------------------------------------------------

    def plan_back(self) -> CardPlan:
        """The aid back: a colour, a lattice, a frame and a centred title band.

        Mirror-symmetric like the card backs, so a duplex offset never shows.
        """
        if self._back is not None:
            return self._back
        look = self.back_look
        W, H = self.hs.width_mm * MM, self.hs.height_mm * MM
        colour = look["colour"]
        ink = readable_on(colour)
        ops: list[Any] = [Fill(colour, self.hs.width_mm, self.hs.height_mm)]
        if look["pattern"] == "lattice":
            ops.append(
                Lattice(mix(colour, ink, 0.12), look["pattern_width"], look["pattern_step"] * MM, W, H)
            )
        inset = look["frame_inset"] * MM
        if look["frame"]:
            ops.append(
                RoundFrame(
                    mix(colour, ink, 0.55),
                    0.8,
                    inset,
                    inset,
                    W - 2 * inset,
                    H - 2 * inset,
                    look["frame_radius"] * MM,
                )
            )
        ops += self._back_band(W, H, inset, colour, ink)
        self._back = CardPlan(tuple(ops))
        return self._back

    def _back_band(self, W: float, H: float, inset: float, colour: str, ink: str) -> list[Any]:
        """The centred band with the game's title and the aid line."""
        look = self.back_look
        band_h = min(H * look["band_height"], look["band_max_height"] * MM)
        by = (H - band_h) / 2
        m = text_atoms.Measure(self.fonts.regular, self.fonts.bold)
        inner = W - 2 * inset - 4 * MM
        words = {"{game}": self.hs.game.title, "{helper_footer}": self.labels["helper_footer"]}
        title = self._fit_one(
            _fill(look["title"], words), look["title_size"], look["title_min_size"], inner, True
        )
        subtitle = self._fit_one(
            _fill(look["subtitle"], words), look["subtitle_size"], look["subtitle_min_size"], inner, False
        )
        x = inset + 2 * MM
        return [
            Rect(mix(colour, "#000000", 0.25), inset, by, W - 2 * inset, band_h),
            TextAt(title, x, by + band_h * 0.42, inner, band_h * 0.5, "center", "bottom", ink, m, ink),
            TextAt(
                subtitle,
                x,
                by + band_h * 0.12,
                inner,
                band_h * 0.26,
                "center",
                "middle",
                mix(ink, colour, 0.2),
                m,
                ink,
            ),
        ]


def moved(op: Any, dx: float, dy: float) -> Any:
    """An aid row's op moved from the row's corner to (dx, dy) on the card."""
    if isinstance(op, Rule):
        return replace(op, x=dx + op.x, y=dy + op.y, x2=dx + op.x2, y2=dy + op.y2)
    if isinstance(op, (TextAt, Rect, Disc, Label)):
        return replace(op, x=dx + op.x, y=dy + op.y)
    raise TypeError(f"an aid row cannot hold {type(op).__name__}")  # pragma: no cover - rows make only these


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
