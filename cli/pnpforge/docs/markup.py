"""The small Markdown subset that summary and helper templates write.

Why a subset of Markdown: the same template output is the Markdown summary
(for a wiki or a forum post) *and* the source of the PDF summary and the
helper cards, so the three can never say different things.  Rule-section
bodies in cards.db already use it ("1. " steps, "- " bullets).

Blocks (one per line unless noted):
  # / ## / ###  heading            1. text    numbered step (indent 2 = nested)
  - text        bullet             | a | b |  table row (a |---| row marks the header)
  > text        note (small)       ---        break: a new card on helper cards
  blank line    ends a paragraph   other      paragraph text (consecutive lines join)
Inline: **bold**; a backslash escapes the next character (\\| inside a table cell).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass, field

_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_ORDERED = re.compile(r"^(\s*)(\d+)[.)]\s+(.*)$")
_BULLET = re.compile(r"^(\s*)[-*+]\s+(.*)$")
_BREAK = re.compile(r"^\s*(-{3,}|\*{3,}|_{3,})\s*$")
_ALIGN_ROW = re.compile(r"^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$")
_COMMENT = re.compile(r"<!--.*?-->", re.S)


@dataclass(frozen=True)
class Heading:
    level: int
    text: str


@dataclass(frozen=True)
class Para:
    text: str


@dataclass(frozen=True)
class Item:
    """One list item; `number` is set for numbered steps, None for bullets."""

    text: str
    number: int | None = None
    depth: int = 0

    @property
    def ordered(self) -> bool:
        return self.number is not None


@dataclass(frozen=True)
class Note:
    text: str


@dataclass(frozen=True)
class Table:
    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    align: tuple[str, ...] = field(default=())  # 'left' | 'right' | 'center' per column

    @property
    def columns(self) -> int:
        return max([len(self.header)] + [len(r) for r in self.rows])


@dataclass(frozen=True)
class Break:
    """`---`: start a new card (helper cards); a thin rule in summaries."""


Block = Heading | Para | Item | Note | Table | Break


# ---- parsing ---------------------------------------------------------------------


def is_wide(ch: str) -> bool:
    """CJK and full-width characters: no space is needed between two of them."""
    return unicodedata.east_asian_width(ch) in "WF"


def join_lines(a: str, b: str) -> str:
    """Join two wrapped source lines: a space between Latin words, none between CJK."""
    if not a:
        return b
    if not b:
        return a
    return a + b if is_wide(a[-1]) or is_wide(b[0]) else f"{a} {b}"


def split_row(line: str) -> list[str]:
    """Cells of a table row; `\\|` stays a literal bar inside a cell."""
    s = line.strip()
    if s.startswith("|"):
        s = s[1:]
    if s.endswith("|") and not s.endswith("\\|"):
        s = s[:-1]
    cells, cur, i = [], "", 0
    while i < len(s):
        ch = s[i]
        if ch == "\\" and i + 1 < len(s):
            cur += s[i : i + 2]
            i += 2
            continue
        if ch == "|":
            cells.append(cur.strip())
            cur = ""
        else:
            cur += ch
        i += 1
    cells.append(cur.strip())
    return cells


def _alignments(line: str) -> tuple[str, ...]:
    out = []
    for cell in split_row(line):
        left, right = cell.startswith(":"), cell.endswith(":")
        out.append("center" if left and right else "right" if right else "left")
    return tuple(out)


def parse(text: str) -> list[Block]:
    """Blocks of a template's output, in order."""
    lines = _COMMENT.sub("", text).replace("\r\n", "\n").split("\n")
    blocks: list[Block] = []
    para: str | None = None
    i = 0

    def flush() -> None:
        nonlocal para
        if para is not None and para.strip():
            blocks.append(Para(para.strip()))
        para = None

    while i < len(lines):
        line = lines[i].rstrip()
        if not line.strip():
            flush()
            i += 1
            continue
        if line.lstrip().startswith("|"):
            flush()
            table, i = _table(lines, i)
            blocks.append(table)
            continue
        m = _HEADING.match(line)
        if m:
            flush()
            blocks.append(Heading(len(m.group(1)), m.group(2)))
        elif _BREAK.match(line):
            flush()
            blocks.append(Break())
        elif m := _ORDERED.match(line):
            flush()
            blocks.append(Item(m.group(3).strip(), int(m.group(2)), len(m.group(1)) // 2))
        elif m := _BULLET.match(line):
            flush()
            blocks.append(Item(m.group(2).strip(), None, len(m.group(1)) // 2))
        elif line.lstrip().startswith(">"):
            flush()
            blocks.append(Note(line.lstrip()[1:].strip()))
        elif para is None and blocks and isinstance(blocks[-1], (Item, Note)) and lines[i][:1].isspace():
            # an indented continuation of the previous list item or note
            prev = blocks.pop()
            assert isinstance(prev, (Item, Note))  # checked just above
            blocks.append(type(prev)(**{**prev.__dict__, "text": join_lines(prev.text, line.strip())}))
        else:
            para = join_lines(para or "", line.strip())
        i += 1
    flush()
    return blocks


def _table(lines: list[str], i: int) -> tuple[Table, int]:
    rows: list[list[str]] = []
    align: tuple[str, ...] = ()
    header: list[str] = []
    while i < len(lines) and lines[i].lstrip().startswith("|"):
        line = lines[i]
        if _ALIGN_ROW.match(line) and len(rows) == 1 and not header:
            header = rows.pop()
            align = _alignments(line)
        else:
            rows.append(split_row(line))
        i += 1
    width = max([len(header)] + [len(r) for r in rows])
    pad = lambda r: tuple(r + [""] * (width - len(r)))  # noqa: E731 - tiny local helper
    align = tuple(align) + ("left",) * (width - len(align))
    return Table(pad(header) if header else (), tuple(pad(r) for r in rows), align[:width]), i


# ---- inline ------------------------------------------------------------------------


def spans(text: str) -> Iterator[tuple[str, bool]]:
    """(text, bold) runs of one line; escapes resolved, ** markers removed."""
    bold = False
    cur = ""
    i = 0
    while i < len(text):
        if text[i] == "\\" and i + 1 < len(text):
            cur += text[i + 1]
            i += 2
            continue
        if text.startswith("**", i):
            if cur:
                yield cur, bold
            cur = ""
            bold = not bold
            i += 2
            continue
        cur += text[i]
        i += 1
    if cur:
        yield cur, bold


def plain(text: str) -> str:
    """The text a reader sees: no markers, no escapes."""
    return "".join(t for t, _ in spans(text))


def escape_cell(value: object) -> str:
    """A value made safe for a table cell: bars escaped, line breaks flattened."""
    s = "" if value is None else str(value)
    return s.replace("\\", "\\\\").replace("|", "\\|").replace("\r", "").replace("\n", " ")


def escape_text(value: object) -> str:
    """A value made safe as inline text: ** and backslashes escaped."""
    s = "" if value is None else str(value)
    return s.replace("\\", "\\\\").replace("**", "\\*\\*")


_ACTIVE = re.compile(r"(?<!\\)([<\[])")


def escape_body(value: object) -> str:
    """A rule section's body made safe for rules.md: its Markdown subset (headings, lists,
    tables, bold) stays, while raw HTML (`<script>`, `<img …>`), autolinks and link or
    image syntax (`[x](…)`, `![x](…)`) are escaped to show as the characters they are.
    A bundle's text is data: in a viewer it must never run or load anything."""
    s = "" if value is None else str(value)
    return _ACTIVE.sub(r"\\\1", s)


def to_markdown(blocks: list[Block]) -> str:
    """Normalised Markdown for a list of blocks (what `pnp rules --format md` writes)."""
    out: list[str] = []
    prev: Block | None = None
    for b in blocks:
        if (
            out
            and not (isinstance(b, Item) and isinstance(prev, Item))
            and not (isinstance(b, Note) and isinstance(prev, Note))
        ):
            out.append("")
        if isinstance(b, Heading):
            out.append("#" * b.level + " " + b.text)
        elif isinstance(b, Para):
            out.append(b.text)
        elif isinstance(b, Item):
            lead = f"{b.number}." if b.ordered else "-"
            out.append("  " * b.depth + f"{lead} {b.text}")
        elif isinstance(b, Note):
            out.append(f"> {b.text}")
        elif isinstance(b, Table):
            out.extend(_table_md(b))
        elif isinstance(b, Break):
            out.append("---")
        prev = b
    return "\n".join(out).rstrip() + "\n"


def _table_md(t: Table) -> list[str]:
    header = t.header or tuple("" for _ in range(t.columns))
    marks = {"left": "---", "right": "---:", "center": ":---:"}
    align = t.align or ("left",) * t.columns
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join(marks[a] for a in align) + "|"]
    lines += ["| " + " | ".join(r) + " |" for r in t.rows]
    return lines
