"""Card text markup and layout keywords, turned into styled spans.

Markup (applied after the Jinja2 template ran):
  **bold**     bold on/off
  :name:       inline icon, when `name` is an icon the layout declares
  newline      new line; an empty line starts a new paragraph (half a line of space)
Keywords from the layout are styled (bold, colour) or replaced by icons.
Parsing is string work with no font involved, so it stands apart from measuring.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import replace
from functools import lru_cache
from typing import Any

from pnpforge.render.text_atoms import MARK, Span


def parse_markup(text: str, icon_names: Iterable[str] = ()) -> list[Span]:
    """Turn markup into spans: ** toggles bold, :name: is an icon, MARK is the sign."""
    icons = set(icon_names)
    if "**" not in text and MARK not in text and (not icons or ":" not in text):
        return [Span(text)] if text else []  # plain text: one span
    spans: list[Span] = []
    bold = False
    buf: list[str] = []

    def flush() -> None:
        if buf:
            spans.append(Span("".join(buf), bold=bold))
            buf.clear()

    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if text.startswith("**", i):
            flush()
            bold = not bold
            i += 2
            continue
        if ch == ":" and icons:
            end = text.find(":", i + 1)
            if end > i + 1 and text[i + 1 : end] in icons:
                flush()
                spans.append(Span(icon=text[i + 1 : end]))
                i = end + 1
                continue
        if ch == MARK:
            flush()
            spans.append(Span(mark=True))
            i += 1
            continue
        buf.append(ch)
        i += 1
    flush()
    return spans


def apply_keywords(spans: list[Span], keywords: dict[str, dict[str, Any]]) -> list[Span]:
    """Style each keyword occurrence (longest keyword first) or replace it by its icon."""
    if not keywords:
        return spans
    words = tuple(sorted(keywords, key=len, reverse=True))
    finder = _keyword_finder(words)
    out: list[Span] = []
    for sp in spans:
        if sp.icon or sp.mark or not sp.text:
            out.append(sp)
            continue
        out.extend(_split_keywords(sp, words, keywords, finder))
    return out


@lru_cache(maxsize=64)
def _keyword_finder(words: tuple[str, ...]) -> Callable[[str, int], Any] | None:
    """A regex finding, at the leftmost place, the first of `words` (longest first) that
    starts there: what trying each word at each position finds, in one C-level scan.
    None when a keyword is empty (only the plain scan handles that)."""
    if not words or not all(words):
        return None
    return re.compile("|".join(re.escape(w) for w in words)).search


def _split_keywords(
    sp: Span,
    words: tuple[str, ...] | list[str],
    keywords: dict[str, dict[str, Any]],
    finder: Callable[[str, int], Any] | None = None,
) -> list[Span]:
    text, out, start, i = sp.text, [], 0, 0
    while i < len(text):
        if finder is not None:
            found = finder(text, i)
            if found is None:
                break
            i, hit = found.start(), found.group()
        else:
            hit = next((w for w in words if text.startswith(w, i)), None)
            if hit is None:
                i += 1
                continue
        if i > start:
            out.append(replace(sp, text=text[start:i]))
        kw = keywords[hit]
        if kw.get("icon"):
            out.append(Span(icon=kw["icon"]))
        else:
            out.append(
                replace(
                    sp, text=hit, bold=sp.bold or kw.get("bold", True), colour=kw.get("colour") or sp.colour
                )
            )
        i += len(hit)
        start = i
    if start < len(text):
        out.append(replace(sp, text=text[start:]))
    return out


def plain_text(spans: list[Span]) -> str:
    return "".join(sp.text for sp in spans)
