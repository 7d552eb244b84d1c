"""Column widths for an aid's tables: fill the card's width, never split a word.

Apart from `aid_flow` because it is plain arithmetic on widths, tested on its own.
"""

from __future__ import annotations


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
