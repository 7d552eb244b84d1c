"""CJK-aware line breaking of measured atoms.

A break may fall between any two CJK characters, Latin words break only at
spaces, no line starts with closing punctuation (，。、；：！？）」』》 …) and no
line ends with opening punctuation (（「『《 …).  A Line also groups its atoms
into the runs drawing needs, computed once per line.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pnpforge.render.text_atoms import NO_END, NO_START, Atom, Measure


def can_break(a: Atom, b: Atom) -> bool:
    """May a line end with `a` and the next start with `b` (both not spaces)?"""
    if b.kind == "mark":
        return False
    if b.first in NO_START or a.last in NO_END:
        return False
    return True


def break_allowed(seq: list[Atom], k: int) -> bool:
    """May a line break fall before seq[k]?  Spaces at the break vanish, so the rules
    look at the last non-space atom before it and the first non-space one after."""
    p = k - 1
    while p >= 0 and seq[p].kind == "space":
        p -= 1
    q = k
    while q < len(seq) and seq[q].kind == "space":
        q += 1
    if p < 0:
        return False  # nothing but spaces before: no line
    if q >= len(seq):
        return True
    return can_break(seq[p], seq[q])


@dataclass
class Line:
    """One line of atoms; not changed once made (its width and runs are cached)."""

    atoms: list[Atom]
    para_before: bool = False  # a paragraph gap precedes this line
    _width: float | None = field(default=None, init=False, repr=False, compare=False)
    _runs: list[tuple] | None = field(default=None, init=False, repr=False, compare=False)

    def width(self) -> float:
        if self._width is None:
            self._width = sum(a.width for a in self.atoms)
        return self._width

    def runs(self) -> list[tuple]:
        """What drawing does, in order: ("text", text, span, width at 1 pt) for a run of
        words, characters and spaces of one span; ("icon", name, width), ("mark", width)
        and ("skip", width) for the other atoms."""
        if self._runs is None:
            self._runs = _runs(self.atoms)
        return self._runs

    def chars(self) -> int:
        return sum(len(a.text) if a.kind in ("word", "cjk") else 1 for a in self.atoms if a.kind != "space")


def _trim(atoms: list[Atom]) -> list[Atom]:
    s, e = 0, len(atoms)
    while s < e and atoms[s].kind == "space":
        s += 1
    while e > s and atoms[e - 1].kind == "space":
        e -= 1
    return atoms[s:e]


def _split_long(atom: Atom, limit: float, m: Measure) -> list[Atom]:
    """A word wider than the line: break it between characters (last resort)."""
    font = m.font(atom.span)
    parts, cur = [], ""
    for ch in atom.text:
        if cur and m.text(cur + ch, font) > limit:
            parts.append(cur)
            cur = ""
        cur += ch
    parts.append(cur)
    return [Atom("word", p, atom.span, m.text(p, font)) for p in parts if p]


def break_lines(atoms: list[Atom], width: float, m: Measure) -> list[Line]:
    """Greedy breaking with kinsoku: `width` is in 1-pt units (box width / size)."""
    lines: list[Line] = []
    cur: list[Atom] = []
    cur_w = 0.0
    para = False
    queue = list(atoms)
    i = 0
    while i < len(queue):
        a = queue[i]
        if a.kind in ("newline", "para"):
            lines.append(Line(_trim(cur), para))
            para = a.kind == "para"
            cur, cur_w = [], 0.0
            i += 1
            continue
        if a.kind == "space" and not cur:
            i += 1  # no leading spaces
            continue
        if a.kind == "word" and a.width > width + 1e-9:
            queue[i : i + 1] = _split_long(a, width, m)
            continue
        if cur_w + a.width <= width + 1e-9 or a.kind == "space":
            cur.append(a)
            cur_w += a.width
            i += 1
            continue
        # `a` does not fit: end the line at the last place the rules allow
        cut = _find_cut(cur, a)
        if cut is None:  # nothing allowed (e.g. one long run): break here anyway
            cut = len(cur) if cur else 0
        if cut == 0 and not cur:  # an icon or character wider than the whole line
            lines.append(Line([a], para))
            para = False
            i += 1
            continue
        head, tail = cur[:cut], cur[cut:]
        lines.append(Line(_trim(head), para))
        para = False
        cur = [t for t in tail]
        while cur and cur[0].kind == "space":
            cur.pop(0)
        cur_w = sum(t.width for t in cur)
        if cur_w + a.width > width + 1e-9 and cur:
            # the carried-over tail plus `a` still does not fit: place `a` next round
            continue
    if cur or not lines:
        lines.append(Line(_trim(cur), para))
    return [ln for ln in lines if ln.atoms or ln.para_before or len(lines) == 1]


def _find_cut(cur: list[Atom], nxt: Atom) -> int | None:
    """Largest k >= 1 such that a break before (cur + [nxt])[k] is allowed."""
    seq = cur + [nxt]
    for k in range(len(cur), 0, -1):
        if break_allowed(seq, k):
            return k
    return None


_TEXT_KINDS = frozenset(("word", "cjk", "space"))


def _runs(atoms: list[Atom]) -> list[tuple]:
    """Group a line's atoms as drawing needs them (see Line.runs)."""
    out: list[tuple] = []
    run: list[Atom] = []

    def flush() -> None:
        if run:
            out.append(("text", "".join([a.text for a in run]), run[0].span, sum([a.width for a in run])))
            run.clear()

    for a in atoms:
        if a.kind in _TEXT_KINDS:
            if run and run[0].span is not a.span and run[0].span != a.span:
                flush()
            run.append(a)
            continue
        flush()
        if a.kind == "icon":
            out.append(("icon", a.span.icon or "", a.width))
        elif a.kind == "mark":
            out.append(("mark", a.width))
        else:
            out.append(("skip", a.width))
    flush()
    return out
