"""Flowing an aid's Markdown blocks onto cards: rows, widow control, pagination.

The template writes the Markdown subset of docs.markup.  Its blocks become
unbreakable rows (a line of text, a table row, a heading with its rule) and
fill cards top to bottom; a heading keeps with what follows and repeats, marked
as continued, when its section runs onto the next card; a table's header
repeats too.  Text is broken by render.text_break (CJK line breaking, kinsoku).
A row holds what it draws as plan ops (render.face_ops), placed from its
top-left corner; docs.aid_plan moves them onto the card.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pnpforge.docs import context, markup
from pnpforge.errors import PnpError
from pnpforge.render import fonts as fontmod
from pnpforge.render import text as tx
from pnpforge.render import text_atoms, text_break
from pnpforge.render.face_ops import Disc, Label, Rect, Rule, TextAt
from pnpforge.render.units import mix

# ---- column widths of an aid's tables: fill the card's width, never split a word ----


def fit_columns(natural: list[float], width: float, minimum: list[float] | None = None) -> list[float]:
    """Column widths filling `width`.

    A table that fits grows every column in proportion to its natural width.
    Otherwise narrow columns keep their natural width and the wide ones share
    what is left (water-filling), and then no column goes below its longest
    word (`minimum`): the difference comes from the columns with room to spare.
    """
    n = len(natural)
    minimum = [min(m, w) for m, w in zip(minimum or [0.0] * n, natural, strict=False)]
    if sum(natural) <= width:
        return [w * width / sum(natural) for w in natural]
    if sum(minimum) >= width:  # even the longest words do not fit: scale them down
        return [m * width / sum(minimum) for m in minimum]
    widths = [0.0] * n
    left = width
    for k, i in enumerate(sorted(range(n), key=lambda i: natural[i])):
        widths[i] = min(natural[i], left / (n - k))
        left -= widths[i]
    deficit = sum(max(0.0, m - w) for m, w in zip(minimum, widths, strict=False))
    if deficit > 0:
        spare = [max(0.0, w - m) for m, w in zip(minimum, widths, strict=False)]
        total = sum(spare)
        widths = [max(m, w - deficit * sp / total) for m, w, sp in zip(minimum, widths, spare, strict=False)]
    return widths


# ---- layout: blocks -> rows -> cards -----------------------------------------------------------


@dataclass
class Style:
    """Fonts, colours and sizes of one layout pass (body size `s`, points)."""

    regular: str
    bold: str
    accent: str
    s: float
    measure: Any
    continued: str = " (cont.)"  # added to a section heading repeated on the next card
    ink: str = "#1c1c1c"  # body text (the aid style's [card] ink)
    leading: float = 1.32  # line height / size
    mark_colour: str = "#b03a2e"  # the provisional sign


@dataclass
class Row:
    """An unbreakable strip of a card's body: its plan ops, in points from the row's top-left
    corner (y grows upwards, so what the row shows lies below 0)."""

    height: float
    ops: tuple[Any, ...]
    space_before: float = 0.0
    keep_with_next: bool = False
    break_before: bool = False
    repeat: tuple[Row, ...] = ()  # rows to repeat when this row starts a card
    text: str = ""  # plain text (tests and overflow messages)


def _spans(text: str, bold: bool = False, colour: str | None = None) -> list:
    """Markup -> render.text_atoms spans; '†' becomes the small provisional sign cards use."""

    out = []
    for run, is_bold in markup.spans(text):
        parts = run.split(context.MARK)
        for k, part in enumerate(parts):
            if k:
                out.append(text_atoms.Span(mark=True))
            if part:
                out.append(text_atoms.Span(part, bold=bold or is_bold, colour=colour))
    return out


def _lines(
    st: Style,
    text: str,
    size: float,
    width: float,
    bold: bool = False,
    colour: str | None = None,
    where: str = "",
) -> list:

    atoms = text_atoms.atomize(_spans(text, bold, colour), st.measure)
    missing = tx.missing_chars(atoms, st.measure)
    if missing:
        chars = ", ".join(f"{fontmod.describe_char(ch)} in {font}" for ch, font in missing)
        raise PnpError(f"{where}: the fonts cannot draw {chars}")
    return text_break.break_lines(atoms, max(width, 1.0) / size, st.measure)


def _text_height(n: int, size: float, leading: float) -> float:
    return 0.0 if n <= 0 else size * leading * (n - 1) + size


def _text_op(
    st: Style, lines: list, x: float, top: float, w: float, size: float, colour: str, align: str = "left"
) -> TextAt:
    """Lines set top-aligned in the box from (x, top), `w` wide."""
    h = _text_height(len(lines), size, st.leading)
    fitted = tx.Fitted(lines, size, st.leading, h)
    return TextAt(fitted, x, top - h, w, h, align, "top", colour, st.measure, st.mark_colour)


def _line_rows(
    st: Style,
    lines: list,
    size: float,
    colour: str,
    indent: float,
    width: float,
    space_before: float,
    plain: str,
    first_extra: tuple[Any, ...] = (),
) -> list[Row]:
    """One Row per line, with widow/orphan control for blocks of several lines; the first
    line's row also shows `first_extra` (a list item's badge)."""
    rows: list[Row] = []
    n = len(lines)
    for k, line in enumerate(lines):
        ops: tuple[Any, ...] = (_text_op(st, [line], indent, 0.0, width - indent, size, colour),)
        if k == 0:
            ops += first_extra
        keep = (k < n - 1) and (n <= 3 or k == 0 or k == n - 2)
        rows.append(
            Row(size * st.leading, ops, space_before if k == 0 else 0.0, keep, text=plain if k == 0 else "")
        )
    return rows


def _heading_rows(st: Style, b: markup.Heading, width: float, where: str) -> list[Row]:

    size = st.s * (1.12 if b.level <= 2 else 1.0)
    lines = _lines(st, b.text, size, width, bold=True, colour=st.accent, where=where)
    gap = st.s * 0.75
    rows = _line_rows(st, lines, size, st.accent, 0.0, width, gap, markup.plain(b.text))
    if b.level <= 2 and rows:
        last = rows[-1]
        y = -size * st.leading + size * 0.12
        ops = (*last.ops, Rule(st.accent, 0.4, 0.0, y, width, y))
        rows[-1] = Row(last.height + size * 0.2, ops, last.space_before, last.keep_with_next, text=last.text)
    for r in rows:
        r.keep_with_next = True
    return rows


def _item_rows(st: Style, b: markup.Item, width: float, where: str, first_in_list: bool) -> list[Row]:

    s = st.s
    depth_indent = b.depth * s * 1.1
    indent = depth_indent + (s * 1.55 if b.ordered else s * 1.05)
    lines = _lines(st, b.text, s, width - indent, where=where)
    accent = st.accent

    badge: tuple[Any, ...]
    if b.ordered:  # the number in a disc
        d = s * 1.18
        cy = -s * 0.52
        num = str(b.number)
        fs = s * (0.78 if len(num) == 1 else 0.62)
        centre = depth_indent + d / 2
        badge = (
            Disc(accent, centre, cy, d / 2),
            Label(num, st.bold, fs, "#ffffff", centre, cy - fs * 0.36, "center"),
        )
    else:  # a small square
        q = s * 0.34
        badge = (Rect(accent, depth_indent + s * 0.15, -s * 0.52 - q / 2, q, q),)
    gap = s * (0.42 if first_in_list else 0.24)
    return _line_rows(st, lines, s, st.ink, indent, width, gap, markup.plain(b.text), badge)


def _para_rows(
    st: Style, text: str, width: float, where: str, size: float | None = None, colour: str | None = None
) -> list[Row]:
    size = size or st.s
    colour = colour or st.ink
    lines = _lines(st, text, size, width, colour=colour, where=where)
    return _line_rows(st, lines, size, colour, 0.0, width, st.s * 0.45, markup.plain(text))


def _table_rows(st: Style, t: markup.Table, width: float, where: str) -> list[Row]:
    """A table as one Row per table row; the header repeats on a continuation card."""

    size = st.s * 0.95
    pad = size * 0.45
    ncol = t.columns
    all_rows = ([t.header] if t.header else []) + list(t.rows)
    natural = [0.0] * ncol
    minimum = [0.0] * ncol
    for r in all_rows:
        for i, cell in enumerate(r):
            atoms = text_atoms.atomize(_spans(cell, bold=r is t.header), st.measure)
            longest = max((a.width for a in atoms if a.kind in ("word", "cjk")), default=0.0)
            minimum[i] = max(minimum[i], longest * size + 2 * pad)
            w = (
                sum(
                    st.measure.text(run, st.bold if (b or r is t.header) else st.regular)
                    for run, b in markup.spans(cell)
                )
                * size
            )
            natural[i] = max(natural[i], w + 2 * pad)
    widths = fit_columns(natural, width, minimum)
    align = t.align or ("left",) * ncol
    tint = mix(st.accent, "#ffffff", 0.88)
    rows: list[Row] = []

    def make(cells: tuple[str, ...], header: bool, shade: bool) -> Row:
        cell_lines = [
            _lines(
                st,
                c,
                size,
                widths[i] - 2 * pad,
                bold=header,
                colour="#ffffff" if header else st.ink,
                where=where,
            )
            for i, c in enumerate(cells)
        ]
        n = max(len(ls) for ls in cell_lines) if cell_lines else 1
        h = _text_height(n, size, st.leading) + 2 * pad

        ops: list[Any] = []
        if header or shade:
            ops.append(Rect(st.accent if header else tint, 0.0, -h, sum(widths), h))
        cx = 0.0
        for i, ls in enumerate(cell_lines):
            if ls:
                colour = "#ffffff" if header else st.ink
                cell_align = align[i] if i < len(align) else "left"
                ops.append(_text_op(st, ls, cx + pad, -pad, widths[i] - 2 * pad, size, colour, cell_align))
            cx += widths[i]
        ops.append(Rule(mix(st.accent, "#ffffff", 0.55), 0.3, 0.0, -h, sum(widths), -h))
        return Row(h, tuple(ops), text=" | ".join(markup.plain(x) for x in cells))

    head = make(t.header, True, False) if t.header else None
    for k, r in enumerate(t.rows):
        row = make(r, False, k % 2 == 1)
        row.repeat = (head,) if head else ()
        rows.append(row)
    if head is not None:
        head.keep_with_next = True
        rows.insert(0, head)
    if rows:
        rows[0].space_before = st.s * 0.5
    return rows


def build_rows(blocks: list[markup.Block], st: Style, width: float, where: str) -> list[Row]:
    """Every block as rows, in order (a Break marks the next row to start a card).

    Rows after a section heading carry that heading, marked as continued, to
    repeat when the section runs onto another card.
    """
    rows: list[Row] = []
    pending_break = False
    prev: markup.Block | None = None
    section: tuple[Row, ...] = ()
    for b in blocks:
        if isinstance(b, markup.Break):
            pending_break = True
            prev = b
            continue
        if isinstance(b, markup.Heading):
            new = _heading_rows(st, b, width, where)
            section = tuple(_heading_rows(st, markup.Heading(b.level, b.text + st.continued), width, where))
        elif isinstance(b, markup.Item):
            new = _item_rows(st, b, width, where, not isinstance(prev, markup.Item))
        elif isinstance(b, markup.Para):
            new = _para_rows(st, b.text, width, where)
        elif isinstance(b, markup.Note):
            new = _para_rows(st, b.text, width, where, size=st.s * 0.86, colour="#555555")
        elif isinstance(b, markup.Table):
            new = _table_rows(st, b, width, where)
        else:  # pragma: no cover - parse() makes only these
            raise AssertionError(b)
        if not isinstance(b, markup.Heading):
            for r in new:
                r.repeat = section + r.repeat
        if new:
            new[0].break_before = pending_break
            pending_break = False
            rows.extend(new)
        prev = b
    return rows


def segments(blocks: list[markup.Block]) -> list[list[markup.Block]]:
    """Blocks split at the template's explicit card breaks ('---')."""
    out: list[list[markup.Block]] = [[]]
    for b in blocks:
        if isinstance(b, markup.Break):
            if out[-1]:
                out.append([])
        else:
            out[-1].append(b)
    return [seg for seg in out if seg]


def paginate(rows: list[Row], height: float) -> list[list[Row]]:
    """Fill cards top to bottom; keep-with-next chains move whole, headings repeat."""
    pages: list[list[Row]] = [[]]
    used = 0.0

    def cost(row: Row, page: list[Row]) -> float:
        return row.height + (row.space_before if page else 0.0)

    def lead_in(row: Row) -> float:
        """Height of what a card must repeat before `row` when `row` starts it."""
        return sum(r.height + (r.space_before if k else 0.0) for k, r in enumerate(row.repeat)) + (
            row.space_before if row.repeat else 0.0
        )

    def start_page() -> None:
        nonlocal used
        pages.append([])
        used = 0.0

    def put(row: Row) -> None:
        nonlocal used
        page = pages[-1]
        if not page:
            for r in row.repeat:
                used += cost(r, page)
                page.append(r)
        used += cost(row, page)
        page.append(row)

    i = 0
    while i < len(rows):
        j = i
        while rows[j].keep_with_next and j + 1 < len(rows) and not rows[j + 1].break_before:
            j += 1
        group = rows[i : j + 1]
        if group[0].break_before and pages[-1]:
            start_page()
        page = pages[-1]
        need = sum(r.height for r in group) + sum(r.space_before for r in group[1:])
        need += group[0].space_before if page else lead_in(group[0])
        if used + need <= height + 0.01:
            for r in group:
                put(r)
            i = j + 1
            continue
        if page:
            start_page()
            continue
        # a chain taller than a whole card: place rows one by one
        for r in group:
            if pages[-1] and used + cost(r, pages[-1]) > height + 0.01:
                start_page()
            if not pages[-1] and r.height + lead_in(r) > height + 0.01:
                raise PnpError(f"one row is taller than a whole card: “{r.text[:30]}”")
            put(r)
        i = j + 1
    return [p for p in pages if p]
