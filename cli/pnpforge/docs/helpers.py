"""Player-aid ("helper") cards: content from cards.db via Jinja2, set at card size, put on sheets.

What a game prints is declared in templates/GAME/helpers/helpers.toml:

    size = "villain"          # card type whose size the aids take (default: largest deck card)
    [[aid]]
    id = "player-aid"         # stable id, [a-z0-9-]
    template = "player-aid.md.j2"   # in templates/GAME/helpers/
    title = "玩家輔助"         # optional; else the template's "# " heading, else the component name
    component = "help-card"   # quantity: a component's count (the rulebook's own aid) …
    card_type = "villain"     # … or as many as the cards of a type (Dirty Money's villains) …
    count = 1                 # … or a fixed number (an aid pnpforge adds)
    per_player = true         # with --players N: N copies (the rulebook gives one per player)
    body_pt = 7.0             # preferred text size; never below MIN_PT

The template writes the Markdown subset of docs.markup.  Its blocks flow over as
many cards as they need ("---" forces a new card); the largest text size from
body_pt down to MIN_PT that needs the fewest cards is used, so material is split
over cards in reading order rather than shrunk below legibility.  Text is broken
and drawn by render.text (CJK line breaking, kinsoku), and the cards go through
render.pdf's sheet writer with render.sheet's imposition, so marks and backs
match the card sheets exactly.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import sqlite_utils

from pnpforge.docs import context, markup
from pnpforge.errors import PnpError

BODY_PT = 7.0          # preferred body text size on a card
MIN_PT = 6.0           # legibility floor: material moves to another card instead
SIZE_STEP = 0.2
LEADING = 1.32
HEADER_MM = 10.5       # title band at the top (bleeds off the top edge)
SAFE_MM = 3.5          # text keeps this far inside the trim
FOOTER_MM = 3.2        # the stamp line at the bottom
AID_TYPE = "aid"       # the type helper cards carry on sheets (one back design for all)
MARK_COLOUR = "#b03a2e"
PAPER = "#fbfaf6"
INK = "#1c1c1c"
_ID = re.compile(r"^[a-z0-9][a-z0-9-]{0,30}$")
_AID_KEYS = {"id", "template", "title", "title_en", "component", "card_type", "count", "per_player",
             "body_pt"}
_TOP_KEYS = {"size", "aid"}


# ---- the declaration ------------------------------------------------------------------

@dataclass(frozen=True)
class AidSpec:
    """One player aid a game's kit prints (see the module docstring)."""

    id: str
    template: str
    title: str = ""
    title_en: str = ""
    component: str | None = None
    card_type: str | None = None
    count: int | None = None
    per_player: bool = False
    body_pt: float = BODY_PT


@dataclass(frozen=True)
class HelperSpec:
    path: Path
    size_type: str | None
    aids: tuple[AidSpec, ...]


def spec_path(root: Path, game: str) -> Path:
    return context.find(root, f"{game}/helpers/helpers.toml")


def load_spec(root: Path, game: str) -> HelperSpec:
    """Read and check helpers.toml; every problem is reported with the file and the aid."""
    path = spec_path(root, game)
    if not path.is_file():
        raise PnpError(f"game '{game}' declares no helper cards: {path} does not exist "
                       "(see pnpforge.docs.helpers for its format)")
    try:
        with open(path, "rb") as f:
            data = tomllib.load(f)
    except tomllib.TOMLDecodeError as e:
        raise PnpError(f"{path}: not valid TOML: {e}") from e
    problems: list[str] = []
    for key in sorted(set(data) - _TOP_KEYS):
        problems.append(f"unknown key '{key}' (allowed: {', '.join(sorted(_TOP_KEYS))})")
    size = data.get("size")
    if size is not None and not isinstance(size, str):
        problems.append("'size' must be a card type slug")
    raw = data.get("aid", [])
    if not isinstance(raw, list) or not raw:
        problems.append("declare at least one [[aid]]")
        raw = []
    aids: list[AidSpec] = []
    for i, a in enumerate(raw, 1):
        aid = _aid(a, i, path.parent, problems)
        if aid:
            if any(x.id == aid.id for x in aids):
                problems.append(f"aid {i}: id '{aid.id}' is used twice")
            aids.append(aid)
    if problems:
        raise PnpError(f"{path}: " + "; ".join(problems))
    return HelperSpec(path, size, tuple(aids))


def _aid(a: Any, i: int, folder: Path, problems: list[str]) -> AidSpec | None:
    where = f"aid {i}"
    if not isinstance(a, dict):
        problems.append(f"{where}: must be a table ([[aid]])")
        return None
    unknown = sorted(set(a) - _AID_KEYS)
    if unknown:
        problems.append(f"{where}: unknown key(s) {', '.join(unknown)} "
                        f"(allowed: {', '.join(sorted(_AID_KEYS))})")
    aid_id = a.get("id")
    if not isinstance(aid_id, str) or not _ID.match(aid_id):
        problems.append(f"{where}: 'id' must be lower-case letters, digits and '-' (got {aid_id!r})")
        return None
    where = f"aid '{aid_id}'"
    template = a.get("template")
    if not isinstance(template, str) or not (folder / template).is_file():
        problems.append(f"{where}: template {template!r} is not a file in {folder}")
    sources = [k for k in ("component", "card_type", "count") if k in a]
    if len(sources) != 1:
        problems.append(f"{where}: give exactly one of component, card_type, count "
                        f"(got {', '.join(sources) or 'none'})")
    count = a.get("count")
    if count is not None and (not isinstance(count, int) or isinstance(count, bool) or count < 1):
        problems.append(f"{where}: 'count' must be a whole number ≥ 1 (got {count!r})")
    body = a.get("body_pt", BODY_PT)
    if not isinstance(body, (int, float)) or isinstance(body, bool) or not MIN_PT <= body <= 14:
        problems.append(f"{where}: 'body_pt' must be between {MIN_PT:g} and 14 (got {body!r})")
        body = BODY_PT
    per = a.get("per_player", False)
    if not isinstance(per, bool):
        problems.append(f"{where}: 'per_player' must be true or false")
        per = False
    title, title_en = a.get("title", ""), a.get("title_en", "")
    if not isinstance(title, str) or not isinstance(title_en, str):
        problems.append(f"{where}: 'title' and 'title_en' must be strings")
        title = title_en = ""
    return AidSpec(aid_id, str(template), title, title_en, a.get("component"), a.get("card_type"),
                   count, per, float(body))


# ---- quantities ------------------------------------------------------------------------

@dataclass
class AidPlan:
    """One aid, resolved: its title, how many copies, and its content as blocks."""

    spec: AidSpec
    title: str
    title_en: str
    quantity: int
    source: str                   # where the quantity comes from, for the manifest
    blocks: list[markup.Block]
    pages: list[list["Row"]] = field(default_factory=list)
    size_pt: float = BODY_PT

    @property
    def cards_per_set(self) -> int:
        return len(self.pages)


def quantity(aid: AidSpec, game: Any, components: dict[str, Any], type_counts: dict[str, int],
             players: int | None, spec_file: Path) -> tuple[int, str]:
    """Copies of one aid and the reason, e.g. (4, 'one per player (--players 4)')."""
    if aid.component is not None:
        comp = components.get(aid.component)
        if comp is None:
            raise PnpError(f"{spec_file}: aid '{aid.id}' names component '{aid.component}', which "
                           f"game '{game.slug}' does not have (components: "
                           f"{', '.join(components) or 'none'})")
        base, why = comp.count, f"component {comp.slug} ×{comp.count}"
    elif aid.card_type is not None:
        if aid.card_type not in type_counts:
            raise PnpError(f"{spec_file}: aid '{aid.id}' names card type '{aid.card_type}', which "
                           f"game '{game.slug}' does not have (types: {', '.join(type_counts)})")
        base, why = type_counts[aid.card_type], f"as many as the {aid.card_type} cards"
    else:
        base, why = int(aid.count or 1), "fixed count"
    if aid.per_player and players is not None:
        return players, f"one per player (--players {players})"
    return base, why


# ---- content -------------------------------------------------------------------------------

def aid_blocks(aid: AidSpec, ctx: dict[str, Any], root: Path, game: str) -> tuple[str, list]:
    """Render an aid's template; a leading '# ' heading becomes the card title."""
    text = context.render(f"{game}/helpers/{aid.template}", {**ctx, "aid": aid}, root)
    blocks = markup.parse(text)
    title = aid.title
    if blocks and isinstance(blocks[0], markup.Heading) and blocks[0].level == 1:
        title = title or markup.plain(blocks[0].text)
        blocks = blocks[1:]
    if not any(not isinstance(b, markup.Break) for b in blocks):
        raise PnpError(f"templates/{game}/helpers/{aid.template} gives aid '{aid.id}' no content")
    return title, blocks


# ---- layout: blocks -> rows -> cards -----------------------------------------------------------

@dataclass
class Style:
    """Fonts, colours and sizes of one layout pass (body size `s`, points)."""

    regular: str
    bold: str
    accent: str
    s: float
    measure: Any
    continued: str = " (cont.)"     # added to a section heading repeated on the next card


Draw = Callable[[Any, float, float, float], None]      # (canvas, left x, top y, width) in pt


@dataclass
class Row:
    """An unbreakable strip of a card's body, drawn from its top-left corner."""

    height: float
    draw: Draw
    space_before: float = 0.0
    keep_with_next: bool = False
    break_before: bool = False
    repeat: tuple["Row", ...] = ()    # rows to repeat when this row starts a card
    text: str = ""                    # plain text (tests and overflow messages)


def _spans(text: str, bold: bool = False, colour: str | None = None) -> list:
    """Markup -> render.text spans; '†' becomes the small provisional sign cards use."""
    from pnpforge.render import text as tx
    out = []
    for run, is_bold in markup.spans(text):
        parts = run.split(context.MARK)
        for k, part in enumerate(parts):
            if k:
                out.append(tx.Span(mark=True))
            if part:
                out.append(tx.Span(part, bold=bold or is_bold, colour=colour))
    return out


def _lines(st: Style, text: str, size: float, width: float, bold: bool = False,
           colour: str | None = None, where: str = "") -> list:
    from pnpforge.render import fonts as fontmod
    from pnpforge.render import text as tx
    atoms = tx.atomize(_spans(text, bold, colour), st.measure)
    missing = tx.missing_chars(atoms, st.measure)
    if missing:
        chars = ", ".join(f"{fontmod.describe_char(ch)} in {font}" for ch, font in missing)
        raise PnpError(f"{where}: the fonts cannot draw {chars}")
    return tx.break_lines(atoms, max(width, 1.0) / size, st.measure)


def _text_height(n: int, size: float) -> float:
    return 0.0 if n <= 0 else size * LEADING * (n - 1) + size


def _draw_lines(c: Any, st: Style, lines: list, x: float, top: float, w: float, size: float,
                colour: str, align: str = "left") -> None:
    from pnpforge.render import text as tx
    h = _text_height(len(lines), size)
    fitted = tx.Fitted(lines, size, LEADING, h)
    tx.draw(c, fitted, x, top - h, w, h, align, "top", colour, st.measure, None, MARK_COLOUR)


def _line_rows(st: Style, lines: list, size: float, colour: str, indent: float,
               space_before: float, plain: str,
               first_extra: Callable[[Any, float, float], None] | None = None) -> list[Row]:
    """One Row per line, with widow/orphan control for blocks of several lines."""
    rows: list[Row] = []
    n = len(lines)
    for k, line in enumerate(lines):
        def draw(c: Any, x: float, top: float, w: float, line: Any = line, k: int = k) -> None:
            _draw_lines(c, st, [line], x + indent, top, w - indent, size, colour)
            if k == 0 and first_extra is not None:
                first_extra(c, x, top)
        keep = (k < n - 1) and (n <= 3 or k == 0 or k == n - 2)
        rows.append(Row(size * LEADING, draw, space_before if k == 0 else 0.0, keep,
                        text=plain if k == 0 else ""))
    return rows


def _heading_rows(st: Style, b: markup.Heading, width: float, where: str) -> list[Row]:
    from pnpforge.render.units import hex_to_rgb
    size = st.s * (1.12 if b.level <= 2 else 1.0)
    lines = _lines(st, b.text, size, width, bold=True, colour=st.accent, where=where)
    gap = st.s * 0.75
    rows = _line_rows(st, lines, size, st.accent, 0.0, gap, markup.plain(b.text))
    if b.level <= 2 and rows:
        last = rows[-1]
        inner = last.draw

        def draw(c: Any, x: float, top: float, w: float) -> None:
            inner(c, x, top, w)
            c.setStrokeColorRGB(*hex_to_rgb(st.accent))
            c.setLineWidth(0.4)
            y = top - size * LEADING + size * 0.12
            c.line(x, y, x + w, y)
        rows[-1] = Row(last.height + size * 0.2, draw, last.space_before, last.keep_with_next,
                       text=last.text)
    for r in rows:
        r.keep_with_next = True
    return rows


def _item_rows(st: Style, b: markup.Item, width: float, where: str, first_in_list: bool) -> list[Row]:
    from pnpforge.render.units import hex_to_rgb
    s = st.s
    depth_indent = b.depth * s * 1.1
    indent = depth_indent + (s * 1.55 if b.ordered else s * 1.05)
    lines = _lines(st, b.text, s, width - indent, where=where)
    accent = st.accent

    def badge(c: Any, x: float, top: float) -> None:
        cx = x + depth_indent
        c.setFillColorRGB(*hex_to_rgb(accent))
        if b.ordered:
            d = s * 1.18
            cy = top - s * 0.52
            c.circle(cx + d / 2, cy, d / 2, stroke=0, fill=1)
            c.setFillColorRGB(1, 1, 1)
            num = str(b.number)
            fs = s * (0.78 if len(num) == 1 else 0.62)
            c.setFont(st.bold, fs)
            c.drawCentredString(cx + d / 2, cy - fs * 0.36, num)
        else:
            q = s * 0.34
            c.rect(cx + s * 0.15, top - s * 0.52 - q / 2, q, q, stroke=0, fill=1)

    gap = s * (0.42 if first_in_list else 0.24)
    return _line_rows(st, lines, s, INK, indent, gap, markup.plain(b.text), badge)


def _para_rows(st: Style, text: str, width: float, where: str, size: float | None = None,
               colour: str = INK) -> list[Row]:
    size = size or st.s
    lines = _lines(st, text, size, width, colour=colour, where=where)
    return _line_rows(st, lines, size, colour, 0.0, st.s * 0.45, markup.plain(text))


def _table_rows(st: Style, t: markup.Table, width: float, where: str) -> list[Row]:
    """A table as one Row per table row; the header repeats on a continuation card."""
    from pnpforge.render import text as tx
    from pnpforge.render.units import hex_to_rgb, mix
    size = st.s * 0.95
    pad = size * 0.45
    ncol = t.columns
    all_rows = ([t.header] if t.header else []) + list(t.rows)
    natural = [0.0] * ncol
    minimum = [0.0] * ncol
    for r in all_rows:
        for i, cell in enumerate(r):
            atoms = tx.atomize(_spans(cell, bold=r is t.header), st.measure)
            longest = max((a.width for a in atoms if a.kind in ("word", "cjk")), default=0.0)
            minimum[i] = max(minimum[i], longest * size + 2 * pad)
            w = sum(st.measure.text(run, st.bold if (b or r is t.header) else st.regular)
                    for run, b in markup.spans(cell)) * size
            natural[i] = max(natural[i], w + 2 * pad)
    widths = _fit_columns(natural, width, minimum)
    align = t.align or ("left",) * ncol
    tint = mix(st.accent, "#ffffff", 0.88)
    rows: list[Row] = []

    def make(cells: tuple[str, ...], header: bool, shade: bool) -> Row:
        cell_lines = [_lines(st, c, size, widths[i] - 2 * pad, bold=header,
                             colour="#ffffff" if header else INK, where=where)
                      for i, c in enumerate(cells)]
        n = max(len(ls) for ls in cell_lines) if cell_lines else 1
        h = _text_height(n, size) + 2 * pad

        def draw(c: Any, x: float, top: float, w: float) -> None:
            if header or shade:
                c.setFillColorRGB(*hex_to_rgb(st.accent if header else tint))
                c.rect(x, top - h, sum(widths), h, stroke=0, fill=1)
            cx = x
            for i, ls in enumerate(cell_lines):
                colour = "#ffffff" if header else INK
                _draw_lines(c, st, ls, cx + pad, top - pad, widths[i] - 2 * pad, size, colour,
                            align=align[i] if i < len(align) else "left")
                cx += widths[i]
            c.setStrokeColorRGB(*hex_to_rgb(mix(st.accent, "#ffffff", 0.55)))
            c.setLineWidth(0.3)
            c.line(x, top - h, x + sum(widths), top - h)
        return Row(h, draw, text=" | ".join(markup.plain(x) for x in cells))

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


def _fit_columns(natural: list[float], width: float, minimum: list[float] | None = None
                 ) -> list[float]:
    """Column widths filling `width`.

    A table that fits grows every column in proportion to its natural width.
    Otherwise narrow columns keep their natural width and the wide ones share
    what is left (water-filling), and then no column goes below its longest
    word (`minimum`): the difference comes from the columns with room to spare.
    """
    n = len(natural)
    minimum = [min(m, w) for m, w in zip(minimum or [0.0] * n, natural)]
    if sum(natural) <= width:
        return [w * width / sum(natural) for w in natural]
    if sum(minimum) >= width:      # even the longest words do not fit: scale them down
        return [m * width / sum(minimum) for m in minimum]
    widths = [0.0] * n
    left = width
    for k, i in enumerate(sorted(range(n), key=lambda i: natural[i])):
        widths[i] = min(natural[i], left / (n - k))
        left -= widths[i]
    deficit = sum(max(0.0, m - w) for m, w in zip(minimum, widths))
    if deficit > 0:
        spare = [max(0.0, w - m) for m, w in zip(minimum, widths)]
        total = sum(spare)
        widths = [max(m, w - deficit * sp / total) for m, w, sp in zip(minimum, widths, spare)]
    return widths


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
            section = tuple(_heading_rows(st, markup.Heading(b.level, b.text + st.continued),
                                          width, where))
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
        return sum(r.height + (r.space_before if k else 0.0) for k, r in enumerate(row.repeat)) \
            + (row.space_before if row.repeat else 0.0)

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
        group = rows[i:j + 1]
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


# ---- cards ------------------------------------------------------------------------------------

@dataclass
class HelperCard:
    """One helper card face: what the sheet writer places (it reads .id and .type)."""

    id: str
    aid: str
    title: str
    title_en: str
    index: int
    total: int
    rows: list[Row]
    style: Style
    type: str = AID_TYPE
    copies: int = 1


@dataclass
class HelperSet:
    """Everything `pnp helpers` prints for one game."""

    game: Any
    width_mm: float
    height_mm: float
    size_type: str
    size_provisional: bool
    aids: list[AidPlan]
    cards: list[HelperCard]
    accent: str

    def placements(self) -> list[HelperCard]:
        """Cards in print order, copies expanded."""
        return [c for c in self.cards for _ in range(c.copies)]


def _size_type(spec: HelperSpec, types: list[Any]) -> Any:
    if spec.size_type:
        for t in types:
            if t.slug == spec.size_type:
                return t
        raise PnpError(f"{spec.path}: size = '{spec.size_type}' is not a card type of this game "
                       f"(types: {', '.join(t.slug for t in types)})")
    decks = [t for t in types if t.role == "deck"] or list(types)
    if not decks:
        raise PnpError(f"{spec.path}: the game has no card types, so helper cards have no size")
    return max(decks, key=lambda t: t.width_mm * t.height_mm)


def body_box(width_mm: float, height_mm: float) -> tuple[float, float]:
    """Width and height (pt) of a helper card's text area."""
    from pnpforge.render.units import MM
    return ((width_mm - 2 * SAFE_MM) * MM,
            (height_mm - HEADER_MM - 2.0 - SAFE_MM - FOOTER_MM) * MM)


def _sizes(preferred: float) -> list[float]:
    out, s = [], preferred
    while s >= MIN_PT - 1e-9:
        out.append(round(s, 2))
        s -= SIZE_STEP
    return out or [MIN_PT]


def layout_aid(blocks: list[markup.Block], fonts: Any, accent: str, width: float, height: float,
               preferred: float, where: str, continued: str = " (cont.)"
               ) -> list[tuple[float, list[Row], Style]]:
    """Cards for an aid: each '---' segment at the largest size (≥ MIN_PT) needing fewest cards.

    Returns (size, rows, style) per card, in order.
    """
    from pnpforge.render import text as tx
    measure = tx.Measure(fonts.regular, fonts.bold)
    cards: list[tuple[float, list[Row], Style]] = []
    for seg in segments(blocks):
        tried: list[tuple[float, list[list[Row]], Style]] = []
        for s in _sizes(preferred):
            st = Style(fonts.regular, fonts.bold, accent, s, measure, continued)
            tried.append((s, paginate(build_rows(seg, st, width, where), height), st))
        fewest = min(len(p) for _, p, _ in tried)
        size, pages, st = next(t for t in tried if len(t[1]) == fewest)
        cards.extend((size, rows, st) for rows in pages)
    return cards


def plan_helpers(db: sqlite_utils.Database, game: str, players: int | None = None,
                 root: Path | None = None) -> HelperSet:
    """Resolve a game's aids: content, quantities, and their layout on cards."""
    from pnpforge.render.fonts import ensure_fonts
    from pnpforge.store import repo

    root = root or context.templates_dir(db)
    g = repo.get_game(db, game)
    if players is not None and not g.players_min <= players <= g.players_max:
        raise PnpError(f"--players {players}: {game} is for {g.players_min}–{g.players_max} players")
    spec = load_spec(root, game)
    types = repo.card_types(db, game)
    size_t = _size_type(spec, types)
    comps = {c.slug: c for c in repo.components(db, game)}
    counts = {t.slug: t.count for t in context.type_counts(db, game)}
    ctx = context.build_context(db, game, players=players, root=root)
    fonts = ensure_fonts(g.language)
    accent = context.accent_colour(db, game)
    L = context.labels(g.language, root)
    continued = f"{L['open_paren']}{L['continued']}{L['close_paren']}"
    width, height = body_box(size_t.width_mm, size_t.height_mm)
    plans: list[AidPlan] = []
    cards: list[HelperCard] = []
    for aid in spec.aids:
        where = f"templates/{game}/helpers/{aid.template} (aid '{aid.id}')"
        title, blocks = aid_blocks(aid, ctx, root, game)
        comp = comps.get(aid.component or "")
        title = title or (comp.name if comp else aid.id)
        title_en = aid.title_en or (comp.name_en if comp else "")
        qty, why = quantity(aid, g, comps, counts, players, spec.path)
        laid = layout_aid(blocks, fonts, accent, width, height, aid.body_pt, where, continued)
        plan = AidPlan(aid, title, title_en, qty, why, blocks, [rows for _, rows, _ in laid],
                       min(size for size, _, _ in laid))
        plans.append(plan)
        for k, (_, rows, st) in enumerate(laid, 1):
            cards.append(HelperCard(f"AID-{aid.id}-{k}", aid.id, title, title_en, k, len(laid),
                                    rows, st, copies=qty))
    return HelperSet(g, size_t.width_mm, size_t.height_mm, size_t.slug, size_t.size_provisional,
                     plans, cards, accent)


# ---- drawing ------------------------------------------------------------------------------------

class HelperRenderer:
    """Faces and the back of helper cards, with render.pdf's Renderer interface."""

    def __init__(self, hs: HelperSet, fonts: Any, date: str, labels: dict[str, str]) -> None:
        self.hs, self.fonts, self.date, self.labels = hs, fonts, date, labels
        self._warnings: list[str] = []

    def check(self, card: HelperCard) -> None:
        """Layout already happened in plan_helpers (every glyph checked); nothing can overflow."""

    def warnings(self) -> list[str]:
        return list(self._warnings)

    def draw_face(self, c: Any, card: HelperCard, x: float, y: float, bleed: float) -> None:
        from pnpforge.render.units import MM, hex_to_rgb
        W, H = self.hs.width_mm * MM, self.hs.height_mm * MM
        c.saveState()
        c.setFillColorRGB(*hex_to_rgb(PAPER))
        c.rect(x - bleed, y - bleed, W + 2 * bleed, H + 2 * bleed, stroke=0, fill=1)
        self._header(c, card, x, y, W, H, bleed)
        top = y + H - (HEADER_MM + 2.0) * MM
        left, width = x + SAFE_MM * MM, W - 2 * SAFE_MM * MM
        for k, row in enumerate(card.rows):
            if k:
                top -= row.space_before
            row.draw(c, left, top, width)
            top -= row.height
        self._footer(c, card, x, y, W)
        c.restoreState()

    def _header(self, c: Any, card: HelperCard, x: float, y: float, W: float, H: float,
                bleed: float) -> None:
        from pnpforge.render import text as tx
        from pnpforge.render.units import MM, hex_to_rgb, mix
        band = HEADER_MM * MM
        c.setFillColorRGB(*hex_to_rgb(self.hs.accent))
        c.rect(x - bleed, y + H - band, W + 2 * bleed, band + bleed, stroke=0, fill=1)
        c.setFillColorRGB(*hex_to_rgb(mix(self.hs.accent, "#ffffff", 0.35)))
        c.rect(x - bleed, y + H - band - 0.5 * MM, W + 2 * bleed, 0.5 * MM, stroke=0, fill=1)
        m = card.style.measure
        pager = f"{card.index}/{card.total}" if card.total > 1 else ""
        pager_w = m.text(pager, self.fonts.regular) * 6.5 + (1.5 * MM if pager else 0)
        inner = W - 2 * SAFE_MM * MM - pager_w
        sub = self.hs.game.title if not card.title_en else f"{self.hs.game.title} · {card.title_en}"
        title = self._fit_one(card.title, self.fonts.bold, 10.0, 6.5, inner, True)
        subtitle = self._fit_one(sub, self.fonts.regular, 5.6, 4.2, inner, False)
        base = y + H - band
        tx.draw(c, title, x + SAFE_MM * MM, base + band * 0.40, inner, band * 0.52, "left",
                "bottom", "#ffffff", m, None, "#ffffff")
        tx.draw(c, subtitle, x + SAFE_MM * MM, base + band * 0.12, inner, band * 0.26, "left",
                "middle", mix(self.hs.accent, "#ffffff", 0.75), m, None, "#ffffff")
        if pager:
            c.setFillColorRGB(1, 1, 1)
            c.setFont(self.fonts.regular, 6.5)
            c.drawRightString(x + W - SAFE_MM * MM, base + band * 0.42, pager)

    def _fit_one(self, text: str, font: str, size: float, min_size: float, width: float,
                 bold: bool) -> Any:
        from pnpforge.render import text as tx
        m = tx.Measure(self.fonts.regular, self.fonts.bold)
        atoms = tx.atomize([tx.Span(text, bold=bold)], m)
        for s in _sizes_down(size, min_size):
            lines = tx.break_lines(atoms, width / s, m)
            if len(lines) == 1:
                return tx.Fitted(lines, s, 1.15, s)
        raise PnpError(f"helper card title “{text}” does not fit on one line at {min_size:g} pt")

    def _footer(self, c: Any, card: HelperCard, x: float, y: float, W: float) -> None:
        from pnpforge.render.units import MM
        g = self.hs.game
        text = f"{g.title} v{g.version} · {self.date} · {card.title}"
        c.setFillColorRGB(0.52, 0.52, 0.52)
        size = 4.5
        while size > 3.5 and c.stringWidth(text, self.fonts.regular, size) > W - 2 * SAFE_MM * MM:
            size -= 0.25
        c.setFont(self.fonts.regular, size)
        c.drawCentredString(x + W / 2, y + (SAFE_MM - 0.6) * MM, text)

    def draw_back(self, c: Any, type_slug: str, x: float, y: float, bleed: float) -> None:
        """The aid back: the game's colour, a lattice, a frame and a centred title band.

        Mirror-symmetric like the card backs, so a duplex offset never shows.
        """
        from pnpforge.render import text as tx
        from pnpforge.render.units import MM, hex_to_rgb, mix, readable_on
        W, H = self.hs.width_mm * MM, self.hs.height_mm * MM
        colour = self.hs.accent
        ink = readable_on(colour)
        c.saveState()
        c.setFillColorRGB(*hex_to_rgb(colour))
        c.rect(x - bleed, y - bleed, W + 2 * bleed, H + 2 * bleed, stroke=0, fill=1)
        p = c.beginPath()
        p.rect(x - bleed, y - bleed, W + 2 * bleed, H + 2 * bleed)
        c.clipPath(p, stroke=0, fill=0)
        c.setStrokeColorRGB(*hex_to_rgb(mix(colour, ink, 0.12)))
        c.setLineWidth(0.6)
        cx, cy, step = x + W / 2, y + H / 2, 4 * MM
        reach = (W + H) / 2 + 2 * bleed
        n = int(reach / step) + 2
        for k in range(-n, n + 1):
            d = k * step
            c.line(cx + d - reach, cy - reach, cx + d + reach, cy + reach)
            c.line(cx - d + reach, cy - reach, cx - d - reach, cy + reach)
        inset = 3.5 * MM
        c.setStrokeColorRGB(*hex_to_rgb(mix(colour, ink, 0.55)))
        c.setLineWidth(0.8)
        c.roundRect(x + inset, y + inset, W - 2 * inset, H - 2 * inset, 2.5 * MM, stroke=1, fill=0)
        band_h = min(H * 0.3, 26 * MM)
        by = y + (H - band_h) / 2
        c.setFillColorRGB(*hex_to_rgb(mix(colour, "#000000", 0.25)))
        c.rect(x + inset, by, W - 2 * inset, band_h, stroke=0, fill=1)
        m = tx.Measure(self.fonts.regular, self.fonts.bold)
        inner = W - 2 * inset - 4 * MM
        title = self._fit_one(self.hs.game.title, self.fonts.bold, 14.0, 7.0, inner, True)
        sub = f"{self.labels['helper_footer']} · Player aid"
        subtitle = self._fit_one(sub, self.fonts.regular, 7.0, 4.5, inner, False)
        tx.draw(c, title, x + inset + 2 * MM, by + band_h * 0.42, inner, band_h * 0.5, "center",
                "bottom", ink, m, None, ink)
        tx.draw(c, subtitle, x + inset + 2 * MM, by + band_h * 0.12, inner, band_h * 0.26,
                "center", "middle", mix(ink, colour, 0.2), m, None, ink)
        c.restoreState()


def _sizes_down(size: float, min_size: float) -> list[float]:
    out, s = [], size
    while s >= min_size - 1e-9:
        out.append(round(s, 2))
        s -= 0.25
    return out


# ---- printing -----------------------------------------------------------------------------------

def default_path(game: str, paper: str) -> Path:
    return Path("output") / game / f"{game}-helpers-{paper}.pdf"


def print_helpers(db: sqlite_utils.Database, game: str, opts: Any, players: int | None = None,
                  one_each: bool = False, root: Path | None = None) -> tuple[Any, HelperSet]:
    """Write the helper-card PDF (sheets, marks, backs as `pnp print`) -> (Manifest, HelperSet).

    `opts` is a render.sheet.PrintOptions; its output is a file or a folder.
    """
    from pnpforge.render import pdf, sheet
    from pnpforge.render.fonts import ensure_fonts

    opts.validate()
    hs = plan_helpers(db, game, players, root)
    g = hs.game
    fonts = ensure_fonts(g.language)
    date = context.stamp_date(db, game)
    labels = context.labels(g.language, root or context.templates_dir(db))
    renderer = HelperRenderer(hs, fonts, date[:10], labels)
    sheet_opts = opts.sheet_options()
    layout = sheet.plan_layout(hs.width_mm, hs.height_mm, sheet_opts, what="helper cards")
    cards = [c for c in hs.cards for _ in range(1 if one_each else c.copies)]
    job = pdf.Job(sheet.size_key(hs.width_mm, hs.height_mm, "aid"), layout, len(cards),
                  lambda: iter(cards))
    path = _output_path(opts.output, game, opts.paper)
    pw, ph = opts.paper_size
    manifest = sheet.Manifest(str(path), game, opts.paper, pw, ph, 0, opts.bleed, opts.gap,
                              opts.backs, opts.flip, opts.offset, date[:10])
    manifest.sheets.append(sheet.SheetSummary(layout.card_w, layout.card_h, "aid",
                                              layout.capacity, layout.cols, layout.rows,
                                              layout.rotated, job.count, job.pages))

    def on_place(card: Any, page: int, side: str, slot: Any) -> None:
        manifest.placements.append(sheet.Placement(card.id, card.type, page, side, slot.trim,
                                                   slot.rotation))

    info = pdf.DocInfo(title=f"{g.title} / {g.title_en} v{g.version} · helpers",
                       language=g.language, date=date[:10], font=fonts.regular)
    with pdf.atomic_output(path) as fh:
        manifest.pages = pdf.write_card_sheets(fh, [job], sheet_opts, renderer, info, on_place)
    notes = list(layout.warnings)
    if hs.size_provisional:
        notes.append(f"helper cards take the size of card type '{hs.size_type}', "
                     f"{hs.width_mm:g}×{hs.height_mm:g} mm, a provisional size")
    manifest.warnings = notes + renderer.warnings()
    return manifest, hs


def _output_path(output: str | None, game: str, paper: str) -> Path:
    name = default_path(game, paper)
    if output:
        p = Path(output)
        return p if p.suffix.lower() == ".pdf" else p / name.name
    return name
