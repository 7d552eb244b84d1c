"""Operators written once per canvas and replayed: shapes, shared regions, copies.

A card's background and its fixed-colour shapes (frames, bands) are the same
operators on every card of a sheet: each card is drawn at the origin of its own
transform.  Formatting their numbers again for each of 10,000 cards is most of
what drawing them costs, so the operators the first card wrote are kept per
canvas and appended for the others.  Only ops the planner marks static take this
path (shapes, and text regions several cards share), and only ops that touch no
page resource (images, forms, links; fonts are the document's) may be marked:
the bytes are the same as drawing them again.  A whole face is replayed the same
way for a copy of a card, and ops registered as direct write their own operators
without the saved graphics state.  No reportlab import: the planner marks ops
without loading the drawing library.
"""

from __future__ import annotations

import operator
import weakref
from collections.abc import Callable
from typing import Any

_STATIC: weakref.WeakSet[Any] = weakref.WeakSet()


def mark_static(op: Any) -> Any:
    """Declare that `op` writes the same operators on every card of a canvas and touches
    no page resource (no image, form, link or font): a plain shape in fixed colours."""
    _STATIC.add(op)
    return op


_PURE: weakref.WeakSet[Any] = weakref.WeakSet()


def mark_pure(op: Any) -> Any:
    """Declare that `op` draws only paths, colours and text: no page resource (image, form,
    link), so the operators it writes may be appended again for the same arguments."""
    _PURE.add(op)
    return op


def is_pure(op: Any) -> bool:
    """Was `op` marked by mark_pure?"""
    try:
        return op in _PURE
    except TypeError:
        return False


def is_static(op: Any) -> bool:
    """Was `op` marked by mark_static?"""
    try:
        return op in _STATIC
    except TypeError:  # an object that cannot be weakly referenced was never marked
        return False


_DIRECT: set[type] = set()  # op types that write their own `q … Q` without touching canvas state


def register_direct(kind: type) -> type:
    """Declare that ops of `kind` have `emit(canvas, x, y, bleed)`, which appends exactly
    what drawing them inside saveState/restoreState appends, and changes no canvas state."""
    _DIRECT.add(kind)
    return kind


def draw_op(canvas: Any, op: Any, x: float, y: float, bleed: float) -> None:
    """`q`, the op, `Q`: as `saveState(); op(...); restoreState()` writes it.

    An op marked static is run once per canvas and position; later cards get the
    operators it wrote then, without running it (its shapes are the same bytes,
    and between q and Q nothing it set outlives it).
    """
    if type(op) in _DIRECT and op not in _STATIC:
        op.emit(canvas, x, y, bleed)
        return
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
    if len(memo) >= _MEMO_LIMIT:  # shared text regions are marked too: keep memory flat
        memo.clear()
    canvas.saveState()
    start = len(code)
    op(canvas, x, y, bleed)
    memo[key] = (op, code[start:])
    canvas.restoreState()


_MEMO_LIMIT = 2048  # ops whose operators a canvas keeps (emptied when full)


def replay_face(
    canvas: Any, plan: list[Any], x: float, y: float, bleed: float, safe: Callable[[Any], bool]
) -> None:
    """Draw a face's ops; a face drawn before on this canvas at the same place (a copy of a
    card) gets the operators it wrote then.

    Only a plan whose every op is `safe` (touches no page resource: no image, form or
    link, which a page must list) is kept; its operators depend on nothing but the plan.
    """
    memo = canvas.__dict__.setdefault("_pnp_faces", {})
    key = (id(plan), x, y, bleed)
    hit = memo.get(key)
    code = canvas._code
    if hit is not None and hit[0] is plan:
        code.extend(hit[1])
        return
    start = len(code)
    for op in plan:
        draw_op(canvas, op, x, y, bleed)
    if all(map(safe, plan)):
        if len(memo) >= _FACES_LIMIT:
            memo.clear()
        memo[key] = (plan, code[start:])


_FACES_LIMIT = 256  # faces whose operators a canvas keeps (copies follow each other)


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
