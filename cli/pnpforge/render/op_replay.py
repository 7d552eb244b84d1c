"""Shapes drawn alike on every card, formatted once per canvas and replayed.

A card's background and its fixed-colour shapes (frames, bands) are the same
operators on every card of a sheet: each card is drawn at the origin of its own
transform.  Formatting their numbers again for each of 10,000 cards is most of
what drawing them costs, so the operators the first card wrote are kept per
canvas and appended for the others.  Only ops the planner marks static take this
path, and only ops that touch no page resource (images, forms, links, fonts) may
be marked: the bytes are the same as drawing them again.  No reportlab import:
the planner marks ops without loading the drawing library.
"""

from __future__ import annotations

import operator
import weakref
from typing import Any

_STATIC: weakref.WeakSet[Any] = weakref.WeakSet()


def mark_static(op: Any) -> Any:
    """Declare that `op` writes the same operators on every card of a canvas and touches
    no page resource (no image, form, link or font): a plain shape in fixed colours."""
    _STATIC.add(op)
    return op


def draw_op(canvas: Any, op: Any, x: float, y: float, bleed: float) -> None:
    """`q`, the op, `Q`: as `saveState(); op(...); restoreState()` writes it.

    An op marked static is run once per canvas and position; later cards get the
    operators it wrote then, without running it (its shapes are the same bytes,
    and between q and Q nothing it set outlives it).
    """
    if op not in _STATIC:
        saved = save_state(canvas)
        op(canvas, x, y, bleed)
        restore_state(canvas, saved)
        return
    memo = canvas.__dict__.setdefault("_pnp_static_ops", {})
    key = (id(op), x, y, bleed)
    hit = memo.get(key)
    code = canvas._code
    if hit is not None and hit[0] is op:
        code.append("q")
        code.extend(hit[1])
        code.append("Q")
        return
    canvas.saveState()
    start = len(code)
    op(canvas, x, y, bleed)
    memo[key] = (op, code[start:])
    canvas.restoreState()


_STATE_GETTERS: dict[type, tuple[tuple[str, ...], Any]] = {}


def save_state(canvas: Any) -> tuple[Any, ...]:
    """`canvas.saveState()` without its stack: the same `q` and the same attributes kept
    (reportlab's STATE_ATTRIBUTES), read in one call instead of a dict built per card op."""
    cls = type(canvas)
    names_getter = _STATE_GETTERS.get(cls)
    if names_getter is None:
        names = tuple(cls.STATE_ATTRIBUTES)
        names_getter = _STATE_GETTERS[cls] = (names, operator.itemgetter(*names))
    saved = names_getter[1](canvas.__dict__)
    canvas._extgstate = canvas._extgstate.pushCopy()
    canvas._code.append("q")
    return saved


def restore_state(canvas: Any, saved: tuple[Any, ...]) -> None:
    """`canvas.restoreState()` for a state `save_state` kept: `Q`, then the attributes back."""
    canvas._code.append("Q")
    canvas.__dict__.update(zip(_STATE_GETTERS[type(canvas)][0], saved, strict=True))
