"""Reading a card plan without drawing it: the colours, fonts and art it prints.

Preflight asks what a card will print (inks that shift in CMYK, fonts that
would not be embedded, art below the shop's resolution); the plan
(render.face_ops) holds all of it as values, so this walks the plan the way
the PDF backend (render.plan_pdf) draws it, and no canvas is involved.
A colour is listed only where the backend would set it (a rule between rows
only when there are two rows, a pattern's colour only when there is a pattern).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from pnpforge.render.face_ops import (
    Badge,
    Band,
    CardPlan,
    Disc,
    Fill,
    Frame,
    Hatch,
    IconBadge,
    IconRow,
    InlineIcons,
    Label,
    Lattice,
    Padded,
    Pattern,
    Picture,
    Placed,
    Placeholder,
    Rect,
    RoundFrame,
    RowsBlock,
    Rule,
    Shape,
    TextAt,
    TextBlock,
)
from pnpforge.render.text import Fitted
from pnpforge.render.units import readable_on


@dataclass
class Inks:
    """The '#rrggbb' colours and the font names a plan sets."""

    colours: set[str] = field(default_factory=set)
    fonts: set[str] = field(default_factory=set)


def inks(plan: CardPlan) -> Inks:
    """Every colour and font the plan's drawing sets."""
    out = Inks()
    for op in plan.ops:
        _card_op(op, out)
    return out


def placed_art(plan: CardPlan) -> Iterator[tuple[Placed, Picture | Placeholder]]:
    """Each piece of art (or its placeholder) with the region it is placed in."""
    for op in plan.ops:
        if isinstance(op, Placed):
            content = op.content
            while isinstance(content, Padded):
                content = content.content
            if isinstance(content, (Picture, Placeholder)):
                yield op, content


def _card_op(op: Any, out: Inks) -> None:
    add = out.colours.add
    if isinstance(op, Placed):
        _box_op(op.content, out)
    elif isinstance(op, Fill):
        add(op.colour)
    elif isinstance(op, Shape):
        for colour in (op.fill, op.stroke):
            if colour:
                add(colour)
    elif isinstance(op, Badge):
        add(op.fill)
        add(op.text_colour if op.whole else "#ffffff")
        out.fonts.add(op.font)
    elif isinstance(op, Pattern):
        if op.kind != "none":
            add(op.colour)
    elif isinstance(op, Frame):
        add(op.colour)
    elif isinstance(op, Band):
        add(op.fill)
        add(op.line)
    elif isinstance(op, TextAt):
        _text(op.fitted, op.colour, op.measure, None, op.mark_colour or op.colour, out)
    elif isinstance(op, (Rect, Rule, Disc, RoundFrame, Lattice)):
        add(op.colour)
    elif isinstance(op, Label):
        add(op.colour)
        out.fonts.add(op.font)


def _box_op(op: Any, out: Inks) -> None:
    if isinstance(op, Padded):
        _box_op(op.content, out)
    elif isinstance(op, TextBlock):
        _text(op.fitted, op.colour, op.measure, op.icons, op.mark_colour, out)
    elif isinstance(op, RowsBlock):
        for row in op.laid.rows:
            _text(row.label, op.colour, op.measure, op.icons, op.mark_colour, out)
            _text(row.value, op.colour, op.measure, op.icons, op.mark_colour, out)
        if op.rule and len(op.laid.rows) > 1:
            out.colours.add(op.rule)
    elif isinstance(op, IconBadge):
        _badge(op.spec, op.fonts, out)
        if op.mark:
            out.colours.add(op.mark.colour)
            out.fonts.add(op.mark.font)
    elif isinstance(op, IconRow):
        for spec in op.specs:
            _badge(spec, op.fonts, out)
        if op.mark:
            out.colours.add(op.mark.colour)
            out.fonts.add(op.mark.font)
    elif isinstance(op, Hatch):
        out.colours.update((op.ground, op.colour))
    elif isinstance(op, Placeholder):
        out.colours.update((op.hatch.ground, op.hatch.colour, op.outline))
        out.fonts.add(op.font)


def _text(
    fitted: Fitted, colour: str, m: Any, icons: InlineIcons | None, mark_colour: str, out: Inks
) -> None:
    for line in fitted.lines:
        for run in line.runs():
            kind = run[0]
            if kind == "text":
                span = run[2]
                out.colours.add(span.colour or colour)
                out.fonts.add(m.bold if span.bold else m.regular)
            elif kind == "icon" and icons is not None:
                _badge(icons.specs[run[1]], icons.fonts, out)
            elif kind == "mark":
                out.colours.add(mark_colour)
                out.fonts.add(m.regular)


def _badge(spec: dict[str, Any], fonts: Any, out: Inks) -> None:
    """What render.face_paint.draw_badge sets."""
    shape, fill, stroke = spec["shape"], spec["fill"], spec["stroke"]
    if shape != "none":
        for colour in (fill, stroke):
            if colour:
                out.colours.add(colour)
    out.colours.add(spec["text_colour"] or (readable_on(fill) if fill and shape != "none" else "#1a1a1a"))
    out.fonts.add(fonts.bold if spec["font"] == "bold" else fonts.regular)
