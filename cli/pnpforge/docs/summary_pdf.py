"""Typesetting a rulebook summary as PDF: platypus flowables from the Markdown blocks.

Every style names an embedded font (the canvas starts in it too, so Helvetica
never enters the file), Chinese gets CJK line breaking with kinsoku, pages are
numbered "n / total" with the game's version and the database date in the
footer, and invariant mode with a fixed creation date makes rebuilds
byte-identical.
"""

from __future__ import annotations

import contextlib
import io
import re
import unicodedata
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any
from xml.sax.saxutils import escape

from reportlab.lib import colors, textsplit
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfbase.pdfmetrics import registerFontFamily, stringWidth
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import (
    BaseDocTemplate,
    CondPageBreak,
    Frame,
    HRFlowable,
    PageTemplate,
    Paragraph,
    Spacer,
    Table,
    TableStyle,
    paragraph,
)
from reportlab.platypus.paragraph import ParaLines, cjkU, makeCJKParaLine

from pnpforge.docs import markup
from pnpforge.render import units
from pnpforge.render.fonts import ensure_fonts
from pnpforge.render.text_atoms import NO_START

MARGIN_MM = (17.0, 15.0, 16.0, 18.0)  # left, top, right, bottom
BODY_PT = 9.0
# A summary that would end with a nearly empty page is set again a little tighter;
# these are the body sizes tried, largest first (never below 8.4 pt).
BODY_SIZES = (9.0, 8.7, 8.4)
MM = 72.0 / 25.4


# ---- Chinese line breaking for reportlab's platypus ----------------------------------------


@contextlib.contextmanager
def kinsoku() -> Iterator[None]:
    """Chinese line-breaking rules for platypus while one summary is set.

    reportlab's CJK wrapping keeps a line from starting with some closing
    punctuation, but its list lacks the full-width ，；：！？ that Chinese text is
    full of, and it hangs only the one character that overflows: "…除外）" at
    the margin then put "。" alone at the start of the next line.  For the
    duration of the build we extend its list with render.text's NO_START (the
    rules the cards use) and break lines with `_breaks`, which moves characters
    to the next line until that line starts with one that may start a line.
    Everything is put back afterwards.
    """
    originals = (paragraph.ALL_CANNOT_START, textsplit.ALL_CANNOT_START)
    splitters = (paragraph.cjkFragSplit, textsplit.dumbSplit)
    extended = originals[1] + "".join(sorted(set(NO_START) - set(originals[1])))
    # platypus reads its own copy for multi-run paragraphs, textsplit's for single runs
    paragraph.ALL_CANNOT_START = textsplit.ALL_CANNOT_START = extended
    paragraph.cjkFragSplit, textsplit.dumbSplit = _frag_split(extended), _dumb_split(extended)
    try:
        yield
    finally:
        paragraph.ALL_CANNOT_START, textsplit.ALL_CANNOT_START = originals
        paragraph.cjkFragSplit, textsplit.dumbSplit = splitters


_FUZZ = 1e-6


def _breaks(
    chars: Sequence[str],
    widths: Sequence[float],
    max_widths: Sequence[float],
    forced: Sequence[bool],
    no_start: str,
) -> tuple[list[tuple[int, int, float, float, bool]], int, float, float]:
    """Line ranges (start, end, extra space, width used, forced) cut between characters, the
    way reportlab cuts CJK text, plus the kinsoku rule; and the start, width and measure of the
    unfinished last line.  A Latin word that overflows goes back to its space."""
    lines: list[tuple[int, int, float, float, bool]] = []
    i = start = 0
    used = 0.0
    measure = max_widths[0]
    n = len(chars)
    while i < n:
        c, w, lb = chars[i], widths[i], forced[i]
        i += 1
        used += w
        if not (lb or (used > measure + _FUZZ and used > 0)):
            continue
        extra = measure - used
        if not lb:
            if c and ord(c[0]) < 0x3000:  # inside a Latin word: break at its space or the CJK before it
                for j in range(i - 1, (start + i) >> 1, -1):
                    cj = chars[j]
                    if (cj and unicodedata.category(cj[0]) == "Zs") or (cj and ord(cj[0]) >= 0x3000):
                        k = j + 1
                        if k < i:
                            extra += sum(widths[k + 1 : i])
                            w, c, i = widths[k], chars[k], k + 1
                            break
            if c not in no_start and i > start + 1:
                i -= 1  # the overflowing character starts the next line
                extra += w
            while i < n and chars[i] in no_start and i > start + 1:
                i -= 1  # the next line may not start with it: take a character along
                extra += widths[i]
        lines.append((start, i, extra, used, lb))
        measure = max_widths[min(len(lines), len(max_widths) - 1)]
        start, used = i, 0.0
    return lines, start, used, measure


def _frag_split(no_start: str) -> Callable[..., Any]:
    """reportlab's cjkFragSplit (paragraphs of several runs), breaking lines with `_breaks`."""

    def split(frags: Any, maxWidths: Any, calcBounds: Any, encoding: str = "utf8") -> Any:  # noqa: N803
        units = []
        for f in frags:
            text = f.text.decode(encoding) if isinstance(f.text, bytes) else f.text
            units.extend([cjkU(t, f, encoding) for t in text] if text else [cjkU(text, f, encoding)])
        widths = []
        for u in units:
            w = u.width
            if hasattr(w, "normalizedValue"):
                w._normalizer = maxWidths[0]
                w = w.normalizedValue(maxWidths[0])
            widths.append(w)
        forced = [hasattr(u.frag, "lineBreak") for u in units]
        ranges, start, used, measure = _breaks(units, widths, maxWidths, forced, no_start)
        lines = [
            makeCJKParaLine(units[a:b], maxWidths[min(n, len(maxWidths) - 1)], u, x, lb, calcBounds)
            for n, (a, b, x, u, lb) in enumerate(ranges)
        ]
        if used > 0:
            lines.append(makeCJKParaLine(units[start:], measure, used, measure - used, False, calcBounds))
        return ParaLines(kind=1, lines=lines)

    return split


def _dumb_split(no_start: str) -> Callable[..., Any]:
    """reportlab's dumbSplit (paragraphs of one run), breaking lines with `_breaks`."""

    def split(word: str, widths: Sequence[float], maxWidths: Any) -> list[list[Any]]:  # noqa: N803
        measures = maxWidths if isinstance(maxWidths, list | tuple) else [maxWidths]
        ranges, start, used, measure = _breaks(word, widths, measures, [False] * len(word), no_start)
        lines: list[list[Any]] = [[x, word[a:b].strip()] for a, b, x, _, _ in ranges]
        if used > 0:
            lines.append([measure - used, word[start:]])
        return lines

    return split


# ---- typesetting -----------------------------------------------------------------------


@dataclass
class _Styles:
    regular: str
    bold: str
    cjk: bool
    accent: str
    s: dict[str, Any]
    cell_pt: float = 8.5


def _styles(regular: str, bold: str, cjk: bool, accent: str, body: float = BODY_PT) -> _Styles:
    wrap = "CJK" if cjk else None
    acc = colors.HexColor(accent)
    ink = colors.HexColor("#1c1c1c")
    grey = colors.HexColor("#5a5a5a")

    def st(name: str, **kw: Any) -> ParagraphStyle:
        base = dict(
            fontName=regular,
            fontSize=body,
            leading=body * 1.45,
            textColor=ink,
            bulletFontName=regular,
            bulletFontSize=body,
            wordWrap=wrap,
            allowWidows=0,
            allowOrphans=0,
            spaceAfter=0,
            spaceBefore=0,
        )
        base.update(kw)
        return ParagraphStyle(name, **base)

    def heading(name: str, size: float, leading: float, before: float, after: float) -> ParagraphStyle:
        """A heading in the accent colour that stays with the text below it."""
        accent_bold = dict(fontName=bold, textColor=acc, keepWithNext=1, bulletFontName=bold)
        return st(name, fontSize=size, leading=leading, spaceBefore=before, spaceAfter=after, **accent_bold)

    s = {
        "h1": heading("h1", 20, 25, 0, 2),
        "h2": heading("h2", 12.5, 16, 9, 1),
        "h3": heading("h3", 10, 13, 5, 1.5),
        "p": st("p", spaceAfter=3),
        "li": st("li", spaceAfter=1.6),
        "note": st(
            "note",
            fontSize=body - 1.5,
            leading=(body - 1.5) * 1.4,
            textColor=grey,
            spaceBefore=3,
            spaceAfter=2,
            bulletFontSize=body - 1.5,
        ),
    }
    cell = body - 0.5
    for suffix, align in (("", 0), ("_r", 2), ("_c", 1)):
        s["cell" + suffix] = st("cell" + suffix, fontSize=cell, leading=cell * 1.35, alignment=align)
        s["th" + suffix] = st(
            "th" + suffix,
            fontName=bold,
            fontSize=cell,
            leading=cell * 1.35,
            textColor=colors.white,
            alignment=align,
            bulletFontName=bold,
        )
    return _Styles(regular, bold, cjk, accent, s, cell)


def inline_xml(text: str, bold_font: str) -> str:
    """Markup text -> reportlab paragraph XML: escaped, bold runs in the bold font by name."""
    out = []
    for run, is_bold in markup.spans(text):
        e = escape(run)
        out.append(f'<font name="{bold_font}">{e}</font>' if is_bold else e)
    return "".join(out)


def heading_xml(text: str, st: _Styles, level: int) -> str:
    """'遊戲概要 · Overview' -> the title, then the English gloss smaller, regular and grey."""
    main, sep, gloss = text.rpartition(" · ")
    if not sep or not main:
        return inline_xml(text, st.bold)
    size = {1: 13.0, 2: 9.5, 3: 8.0}[level]
    return (
        inline_xml(main, st.bold)
        + "\u2002"
        + f'<font name="{st.regular}" size="{size:g}" color="#6b6b6b">{escape(markup.plain(gloss))}</font>'
    )


def _col_widths(t: markup.Table, avail: float, st: _Styles) -> list[float]:
    """Natural widths scaled to the frame; too wide -> the wide columns give way."""
    pad = 12.0
    n = t.columns
    rows = ([t.header] if t.header else []) + list(t.rows)
    natural = [0.0] * n
    for r in rows:
        for i, cell in enumerate(r):
            font = st.bold if r is t.header else st.regular
            natural[i] = max(natural[i], stringWidth(markup.plain(cell), font, st.cell_pt) + pad)
    if sum(natural) <= avail:
        # fill the width: every column grows in proportion, so no column looks stranded
        return [w * avail / sum(natural) for w in natural]
    fixed = [w for w in natural if w <= avail / n]
    free = avail - sum(fixed)
    flex_total = sum(w for w in natural if w > avail / n)
    return [w if w <= avail / n else free * w / flex_total for w in natural]


def _table(t: markup.Table, avail: float, st: _Styles):
    suffix = {"left": "", "right": "_r", "center": "_c"}
    align = t.align or ("left",) * t.columns
    data = []
    if t.header:
        data.append(
            [
                Paragraph(inline_xml(c, st.bold), st.s["th" + suffix[a]])
                for c, a in zip(t.header, align, strict=False)
            ]
        )
    for r in t.rows:
        data.append(
            [
                Paragraph(inline_xml(c, st.bold), st.s["cell" + suffix[a]])
                for c, a in zip(r, align, strict=False)
            ]
        )
    acc = colors.HexColor(st.accent)
    tint = colors.HexColor(_tint(st.accent, 0.92))
    cmds: list[tuple] = [
        ("FONT", (0, 0), (-1, -1), st.regular, st.cell_pt),
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ("TOPPADDING", (0, 0), (-1, -1), 2.2),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 2.6),
        ("LEFTPADDING", (0, 0), (-1, -1), 5),
        ("RIGHTPADDING", (0, 0), (-1, -1), 5),
        ("LINEBELOW", (0, -1), (-1, -1), 0.6, acc),
    ]
    start = 0
    if t.header:
        cmds += [("BACKGROUND", (0, 0), (-1, 0), acc), ("FONT", (0, 0), (-1, 0), st.bold, st.cell_pt)]
        start = 1
    for i in range(start, len(data)):
        if (i - start) % 2 == 1:
            cmds.append(("BACKGROUND", (0, i), (-1, i), tint))
    tbl = Table(
        data,
        colWidths=_col_widths(t, avail, st),
        repeatRows=1 if t.header else 0,
        hAlign="LEFT",
        spaceBefore=5,
        spaceAfter=6,
    )
    tbl.setStyle(TableStyle(cmds))
    return tbl


def _tint(colour: str, t: float) -> str:
    return units.mix(colour, "#ffffff", t)


def flowables(blocks: list[markup.Block], st: _Styles, avail: float) -> list:
    """Platypus flowables for the blocks, in order."""
    out: list = []
    for k, b in enumerate(blocks):
        if isinstance(b, markup.Heading):
            level = min(b.level, 3)
            # keep-with-next would carry a whole table to the next page and leave a hole;
            # before a table, ask only for room for the heading and a few rows
            before_table = k + 1 < len(blocks) and isinstance(blocks[k + 1], markup.Table)
            if before_table:
                out.append(CondPageBreak(90))
            head = Paragraph(heading_xml(b.text, st, level), st.s[f"h{level}"])
            head.keepWithNext = 0 if before_table else 1
            out.append(head)
            if level <= 2:
                rule = HRFlowable(
                    width="100%",
                    thickness=1.2 if level == 1 else 0.6,
                    color=colors.HexColor(st.accent),
                    spaceBefore=1,
                    spaceAfter=4 if level == 1 else 3,
                )
                rule.keepWithNext = 0 if before_table else 1
                out.append(rule)
        elif isinstance(b, markup.Para):
            out.append(Paragraph(inline_xml(b.text, st.bold), st.s["p"]))
        elif isinstance(b, markup.Item):
            indent = 13 + 12 * b.depth
            bullet = f"{b.number}." if b.ordered else ("•" if b.depth == 0 else "–")
            style = st.s["li"].clone(f"li{b.depth}", leftIndent=indent, bulletIndent=indent - 11)
            out.append(Paragraph(inline_xml(b.text, st.bold), style, bulletText=escape(bullet)))
        elif isinstance(b, markup.Note):
            out.append(Paragraph(inline_xml(b.text, st.bold), st.s["note"]))
        elif isinstance(b, markup.Table):
            out.append(_table(b, avail, st))
        elif isinstance(b, markup.Break):
            out.append(
                HRFlowable(
                    width="100%", thickness=0.4, color=colors.HexColor("#bbbbbb"), spaceBefore=3, spaceAfter=3
                )
            )
        else:  # pragma: no cover - parse() makes only these
            raise AssertionError(f"unknown block {b!r}")
    out.append(Spacer(1, 1))
    return out


def pdf_date(iso: str) -> str:
    """'2026-11-25T21:37:25Z' -> 'D:20261125213725+00'00'' (the PDF's date format)."""
    digits = "".join(ch for ch in iso if ch.isdigit())[:14].ljust(14, "0")
    return f"D:{digits}+00'00'"


def typeset(
    blocks: list[markup.Block],
    game: Any,
    date_iso: str,
    page_mm: tuple[float, float],
    labels: dict[str, str],
    accent: str,
) -> tuple[bytes, int]:
    """The summary PDF as bytes, and its page count.

    Set at BODY_PT; when a slightly smaller body size saves a page (a last page
    with a few lines on it), that version is kept instead.
    """
    best = _typeset(blocks, game, date_iso, page_mm, labels, accent, BODY_SIZES[0])
    for body in BODY_SIZES[1:]:
        if best[1] <= 1:
            break
        tighter = _typeset(blocks, game, date_iso, page_mm, labels, accent, body)
        if tighter[1] < best[1]:
            return tighter
    return best


def _typeset(
    blocks: list[markup.Block],
    game: Any,
    date_iso: str,
    page_mm: tuple[float, float],
    labels: dict[str, str],
    accent: str,
    body: float,
) -> tuple[bytes, int]:
    fonts = ensure_fonts(game.language)
    registerFontFamily(
        fonts.regular, normal=fonts.regular, bold=fonts.bold, italic=fonts.regular, boldItalic=fonts.bold
    )
    st = _styles(fonts.regular, fonts.bold, game.language.startswith("zh"), accent, body)
    pw, ph = (v * MM for v in page_mm)
    left, top, right, bottom = (v * MM for v in MARGIN_MM)
    stamp = pdf_date(date_iso)
    title = f"{game.title} · {game.title_en}" if game.title_en and game.title_en != game.title else game.title
    footer_left = f"{title} · v{game.version} · {date_iso[:10]}"

    class NumberedCanvas(Canvas):
        """Holds pages until the end so each footer can say 'n of total'."""

        def __init__(self, *a: Any, **kw: Any) -> None:
            super().__init__(*a, **kw)
            self._pages: list[dict] = []
            self.setDateFormatter(lambda *_: stamp)

        def showPage(self) -> None:  # noqa: N802 - reportlab's name
            self._pages.append(dict(self.__dict__))
            self._startPage()

        def save(self) -> None:
            total = len(self._pages)
            for n, state in enumerate(self._pages, 1):
                self.__dict__.update(state)
                self._footer(n, total)
                Canvas.showPage(self)
            Canvas.save(self)

        def _footer(self, n: int, total: int) -> None:
            self.saveState()
            self.setStrokeColor(colors.HexColor("#bbbbbb"))
            self.setLineWidth(0.4)
            y = bottom - 7 * MM
            self.line(left, y + 9.5, pw - right, y + 9.5)
            self.setFillColor(colors.HexColor("#555555"))
            self.setFont(fonts.regular, 7.5)
            self.drawString(left, y, footer_left)
            self.drawRightString(pw - right, y, labels["page"].format(n=n, total=total))
            self.restoreState()

    buf = io.BytesIO()
    doc = BaseDocTemplate(
        buf,
        pagesize=(pw, ph),
        leftMargin=left,
        rightMargin=right,
        topMargin=top,
        bottomMargin=bottom,
        title=title,
        author="pnpforge",
        creator="pnpforge",
        subject=f"rulebook summary v{game.version}",
        invariant=1,
        initialFontName=fonts.regular,
        initialFontSize=body,
        pageCompression=1,
        lang=game.language,
    )
    frame = Frame(
        left,
        bottom,
        pw - left - right,
        ph - top - bottom,
        id="body",
        leftPadding=0,
        rightPadding=0,
        topPadding=0,
        bottomPadding=0,
    )
    doc.addPageTemplates([PageTemplate(id="page", frames=[frame])])
    with kinsoku():
        doc.build(flowables(blocks, st, pw - left - right), canvasmaker=NumberedCanvas)
    data = buf.getvalue()
    return data, _count_pages(data)


def _count_pages(data: bytes) -> int:
    """Pages of a PDF reportlab just wrote (its /Type /Page objects)."""

    return len(re.findall(rb"/Type /Page\b(?!s)", data))
