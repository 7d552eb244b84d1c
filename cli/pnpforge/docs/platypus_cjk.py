"""Chinese line breaking for reportlab's platypus, as the rulebook summaries need it."""

from __future__ import annotations

import contextlib
import unicodedata
from collections.abc import Callable, Iterator, Sequence
from typing import Any


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
    from reportlab.lib import textsplit
    from reportlab.platypus import paragraph

    from pnpforge.render.text_atoms import NO_START

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
    from reportlab.platypus.paragraph import ParaLines, cjkU, makeCJKParaLine

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
