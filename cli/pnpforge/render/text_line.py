"""One-line texts fitted without building atoms: names, subtitles, stamps.

Most text regions of a face hold a short plain string (a card name, an id in
the stamp) that fits on one line at the region's first size.  The general
fitter in render.text splits it into one object per character, breaks lines,
and then reduces the result for drawing; for a 10,000-card deck that is a large
share of planning, repeated for every card because every name differs.

`fit_one_line` answers the same question for that common case with plain
floats: it adds the widths up in exactly the order and grouping the general
path uses (words summed first, then the line), so the `Fitted` it returns is
equal to `fit(...).for_drawing()` and the drawn bytes cannot differ.  Anything
else (markup, icons, several spans, line breaks, tabs, edge spaces, a missing
glyph, a text needing a smaller size) returns None and takes the general path,
which also raises the errors.
"""

from __future__ import annotations

from pnpforge.render import text as tx
from pnpforge.render import text_atoms


def fit_one_line(
    spans: list[text_atoms.Span],
    width: float,
    height: float,
    size: float,
    leading: float,
    m: text_atoms.Measure,
) -> tx.Fitted | None:
    """`fit(atomize(spans), width, height, size, ..., m).for_drawing()` when the text is one
    plain span that fits on one line at `size`; None when the general path must decide."""
    if len(spans) != 1:
        return None
    span = spans[0]
    text = span.text
    if span.icon or span.mark or not text or "\n" in text or "\t" in text:
        return None
    if text[0] == " " or text[-1] == " ":
        return None
    font = m.bold if span.bold else m.regular
    widths = atom_widths(text, font, m)
    if widths is None:
        return None
    limit = width / size + 1e-9
    line_w = 0.0
    for w in widths:  # break_lines' running width: a non-space atom past the limit breaks
        if line_w + w > limit:
            return None
        line_w += w
    total = sum(w for w in widths)  # Line.width()
    if total * size > width + 0.01:
        return None
    drawn = tx._DrawnLine.made(False, total, [("text", text, span, sum(list(widths)))])
    h = tx.block_height([drawn], size, leading)  # type: ignore[list-item]
    if h > height + 0.01:
        return None
    return tx.Fitted([drawn], size, leading, h)  # type: ignore[list-item]


def atom_widths(text: str, font: str, m: text_atoms.Measure) -> list[float] | None:
    """The widths (at 1 pt) of the atoms `atomize` makes of a one-line, one-span text, in
    order; None if `font` lacks a glyph for any of its characters (the general path names it).

    A word's width is the sum of its characters' widths taken in order, as Measure.word
    gives it; characters are read from a per-font table of (class, width), one look-up each.
    """
    table = _table(m, font)
    out: list[float] = []
    start = -1
    for i, ch in enumerate(text):
        entry = table.get(ch)
        if entry is None:
            entry = _entry(ch, font, m, table)
            if entry is None:
                return None
        if entry[0] == "w":
            if start < 0:
                start = i
            continue
        if start >= 0:
            out.append(sum([table[c][1] for c in text[start:i]]))
            start = -1
        out.append(entry[1])
    if start >= 0:
        out.append(sum([table[c][1] for c in text[start:]]))
    return out


def _table(m: text_atoms.Measure, font: str) -> dict[str, tuple[str, float]]:
    """The measure's character table for `font` (kept on the measure: its fonts' widths)."""
    tables: dict[str, dict[str, tuple[str, float]]] | None = m.__dict__.get("_line_tables")
    if tables is None:
        tables = m._line_tables = {}  # type: ignore[attr-defined]
    table = tables.get(font)
    if table is None or len(table) >= _TABLE_LIMIT:  # emptied between texts, never within one
        table = tables[font] = {}
    return table


def _entry(
    ch: str, font: str, m: text_atoms.Measure, table: dict[str, tuple[str, float]]
) -> tuple[str, float] | None:
    """A character's class and width, or None when the font cannot draw it (spaces always can)."""
    cls = text_atoms._char_class(ch)
    if cls != " " and not m.has_glyph(ch, font):
        return None
    entry = table[ch] = (cls, m.char(ch, font))
    return entry


_TABLE_LIMIT = 8192  # characters kept per font (a deck's script needs a few thousand)
