"""Imposition geometry (pnpforge.render.sheet): pure functions, no PDF involved."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pnpforge.errors import PnpError
from pnpforge.render import sheet, sheet_plan
from pnpforge.render.sheet import (
    EDGE_MM,
    PAPERS,
    Affine,
    Rect,
    SheetOptions,
    back_slot,
    flip_transform,
    parse_offset,
)
from pnpforge.render.sheet_plan import plan_layout

TOL = 0.05  # mm, the tolerance on card sizes


def _segments_hit(m: sheet.Segment, r: Rect) -> bool:
    """Does a horizontal or vertical segment touch the inside of r?"""
    lo_x, hi_x = sorted((m.x0, m.x1))
    lo_y, hi_y = sorted((m.y0, m.y1))
    return lo_x < r.x1 and hi_x > r.x and lo_y < r.y1 and hi_y > r.y


# ---- known layouts ---------------------------------------------------------------


@pytest.mark.parametrize(
    "paper,w,h,marks,expected",
    [
        ("a4", 63, 88, True, 9),  # poker: the classic 3×3
        ("letter", 63, 88, True, 9),
        ("a4", 70, 120, True, 4),  # tarot
        ("a4", 70, 70, True, 8),
        ("a4", 44, 67, True, 16),  # mini: 4×4 with room for every mark
        ("a4", 44, 67, False, 18),  # without marks, turned 3×6 fits two more
        ("a4", 88, 63, True, 9),  # a landscape card is turned to fit 3×3
    ],
)
def test_known_capacities(paper, w, h, marks, expected):
    layout = plan_layout(w, h, SheetOptions(paper=paper, marks=marks))
    assert layout.capacity == expected


def test_landscape_card_is_turned_on_the_portrait_page():
    layout = plan_layout(88, 63, SheetOptions())
    assert layout.rotated
    for s in layout.slots:
        assert abs(s.trim.w - 63) < TOL and abs(s.trim.h - 88) < TOL
        assert s.rotation == 90
    upright = plan_layout(63, 88, SheetOptions())
    assert not upright.rotated and all(s.rotation == 0 for s in upright.slots)


def test_grid_is_centred_horizontally_and_reads_top_row_first():
    layout = plan_layout(63, 88, SheetOptions())
    g = layout.grid
    assert abs(g.x - (210 - g.x1)) < 1e-6
    first, last = layout.slots[0].trim, layout.slots[-1].trim
    assert first.y > last.y and first.x < last.x


def test_too_big_card_is_a_clear_error():
    with pytest.raises(PnpError) as e:
        plan_layout(250, 300, SheetOptions(paper="letter"), what="card type 'board'")
    msg = str(e.value)
    assert "card type 'board'" in msg and "250×300" in msg and "letter" in msg and "a4" in msg


@pytest.mark.parametrize(
    "kwargs,needle",
    [
        ({"paper": "a3"}, "allowed: a4, letter"),
        ({"backs": "both"}, "allowed: duplex, separate, none"),
        ({"flip": "left"}, "allowed: long, short"),
        ({"bleed": -1}, "between 0 and 10"),
        ({"bleed": 10.5}, "between 0 and 10"),
        ({"gap": -0.1}, "0 mm or more"),
        ({"offset": (25.0, 0.0)}, "--offset"),
    ],
)
def test_option_validation_names_what_is_allowed(kwargs, needle):
    with pytest.raises(PnpError, match=needle.replace("(", r"\(")):
        SheetOptions(**kwargs).validate()


def test_parse_offset():
    assert parse_offset("0.5,-1") == (0.5, -1.0)
    assert parse_offset(" -2 , 3 ") == (-2.0, 3.0)
    assert parse_offset(None) == (0.0, 0.0)
    for bad in ("1", "a,b", "1,2,3", "nan,1"):
        with pytest.raises(PnpError, match="X,Y"):
            parse_offset(bad)


def test_bleed_between_neighbours_is_half_the_gap_and_full_outside():
    layout = plan_layout(63, 88, SheetOptions(bleed=3, gap=2))
    s = layout.slots[4]  # the middle card of 3×3
    assert abs(s.trim.x - s.clip.x - 1.0) < 1e-9 and abs(s.clip.x1 - s.trim.x1 - 1.0) < 1e-9
    corner = layout.slots[0]  # top-left: outer bleed left and top
    assert abs(corner.trim.x - corner.clip.x - 3.0) < 1e-9
    assert abs(corner.clip.y1 - corner.trim.y1 - 3.0) < 1e-9
    wide = plan_layout(63, 88, SheetOptions(bleed=3, gap=8, paper="a4"))
    m = wide.slots[0]
    assert abs(m.clip.x1 - m.trim.x1 - 3.0) < 1e-9  # gap ≥ 2×bleed: full bleed inside too


def test_marks_only_for_used_cut_lines_are_subset():
    from pnpforge.render.pdf_draw import used_marks  # pure helper living beside the drawing

    layout = plan_layout(63, 88, SheetOptions())
    one_row = used_marks(layout, 3)
    assert 0 < len(one_row) < len(layout.marks)
    ys = {round(v, 6) for s in layout.slots[:3] for v in (s.trim.y, s.trim.y1)}
    assert all(round(m.y0, 6) in ys for m in one_row if m.y0 == m.y1)


# ---- properties over many sizes, papers, bleeds and gaps ------------------------------

layouts = st.builds(
    lambda w, h, paper, bleed, gap, marks: (
        w,
        h,
        SheetOptions(paper=paper, bleed=bleed, gap=gap, marks=marks),
    ),
    st.floats(20, 140).map(lambda v: round(v, 1)),
    st.floats(20, 190).map(lambda v: round(v, 1)),
    st.sampled_from(sorted(PAPERS)),
    st.floats(0, 10).map(lambda v: round(v, 2)),
    st.floats(0, 12).map(lambda v: round(v, 2)),
    st.booleans(),
)


@settings(max_examples=150, deadline=None)
@given(layouts)
def test_layout_invariants(case):
    w, h, opts = case
    pw, ph = opts.paper_size
    band = sheet.NOTE_MM + opts.bleed
    fits_somehow = any(
        a <= pw - 2 * EDGE_MM - (band if left else 0) + 1e-9
        and b <= ph - 2 * EDGE_MM - (0 if left else band) + 1e-9
        for a, b in ((w, h), (h, w))
        for left in (True, False)
    )
    try:
        layout = plan_layout(w, h, opts)
    except PnpError:
        assert not fits_somehow, "refused a card that fits"
        return
    assert fits_somehow
    page = Rect(0, 0, layout.page_w, layout.page_h)
    slots = layout.slots
    for s in slots:
        # exact size (turned or not), on the page, inside the printable edge
        assert {round(s.trim.w, 3), round(s.trim.h, 3)} == {round(w, 3), round(h, 3)}
        assert page.expand(-EDGE_MM, -EDGE_MM, -EDGE_MM, -EDGE_MM).contains(s.trim)
        assert s.clip.contains(s.trim) and page.contains(s.clip)
        # the transform puts the card's own rectangle exactly on the trim
        mapped = s.transform.map_rect(Rect(0, 0, w, h))
        assert all(
            abs(a - b) < 1e-6
            for a, b in zip(
                (mapped.x, mapped.y, mapped.w, mapped.h),
                (s.trim.x, s.trim.y, s.trim.w, s.trim.h),
                strict=False,
            )
        )
        # no card or its bleed enters the note band
        assert not s.clip.overlaps(layout.note)
    for i, a in enumerate(slots):
        for b in slots[i + 1 :]:
            assert not a.clip.overlaps(b.clip), "bleeds of two cards overlap"
    for m in layout.marks:
        assert page.contains(Rect(min(m.x0, m.x1), min(m.y0, m.y1), abs(m.x1 - m.x0), abs(m.y1 - m.y0)))
        assert m.length >= sheet.MARK_MIN_MM - 1e-9
        assert not any(_segments_hit(m, s.clip) for s in slots), "a crop mark crosses a card"
        assert not _segments_hit(m, layout.note)
    if opts.marks and not layout.warnings:
        assert layout.marks, "marks were asked for"


@settings(max_examples=60, deadline=None)
@given(layouts, st.sampled_from(["long", "short"]), st.tuples(st.floats(-3, 3), st.floats(-3, 3)))
def test_back_is_behind_its_face_and_turned_like_a_card(case, flip, offset):
    w, h, opts = case
    try:
        layout = plan_layout(w, h, opts)
    except PnpError:
        return
    m = flip_transform(flip, layout.page_w, layout.page_h)
    shift = sheet.translate(*offset)
    for s in layout.slots:
        b = back_slot(s, w, h, layout.page_w, layout.page_h, flip, offset)
        # every point of the face lies in front of the mirrored point of the back,
        # where a card turned over sideways shows it: face (u, v) <-> back (w-u, v)
        for u, v in ((0, 0), (w, 0), (0, h), (w / 3, h / 5)):
            fx, fy = (shift @ m).apply(*s.transform.apply(u, v))
            bx, by = b.transform.apply(w - u, v)
            assert math.isclose(fx, bx, abs_tol=1e-6) and math.isclose(fy, by, abs_tol=1e-6)
        # the back's rectangle is the face's mirrored rectangle, shifted
        exp = (shift @ m).map_rect(s.trim)
        assert all(
            abs(p - q) < 1e-6
            for p, q in zip(
                (b.trim.x, b.trim.y, b.trim.w, b.trim.h), (exp.x, exp.y, exp.w, exp.h), strict=False
            )
        )
        assert not b.transform.mirrored  # the back is drawn readable, never mirror-written


def test_back_positions_for_long_and_short_flip():
    layout = plan_layout(63, 88, SheetOptions())
    s = layout.slots[0]  # top-left face
    long_b = back_slot(s, 63, 88, 210, 297, "long")
    assert math.isclose(long_b.trim.x, 210 - s.trim.x1) and math.isclose(long_b.trim.y, s.trim.y)
    assert long_b.rotation == 0  # book-style flip: back upright
    short_b = back_slot(s, 63, 88, 210, 297, "short")
    assert math.isclose(short_b.trim.y, 297 - s.trim.y1) and math.isclose(short_b.trim.x, s.trim.x)
    assert short_b.rotation == 180  # calendar flip: back drawn upside down
    shifted = back_slot(s, 63, 88, 210, 297, "long", (1.5, -2.0))
    assert math.isclose(shifted.trim.x, long_b.trim.x + 1.5)
    assert math.isclose(shifted.trim.y, long_b.trim.y - 2.0)


def test_affine_composition_order():
    t, r = sheet.translate(10, 0), Affine(0, 1, -1, 0, 0, 0)  # r: 90° counter-clockwise
    assert (t @ r).apply(1, 0) == (10, 1)  # rotate first, then move
    assert (r @ t).apply(1, 0) == (0, 11)


def test_chunks_is_lazy():
    def endless():
        n = 0
        while True:
            yield n
            n += 1

    it = sheet_plan.chunks(endless(), 9)
    assert next(it) == list(range(9)) and next(it)[0] == 9
    assert [len(c) for c in sheet_plan.chunks(range(20), 9)] == [9, 9, 2]
    assert sheet_plan.pages_needed(19, 9) == 3 and sheet_plan.pages_needed(0, 9) == 0


def test_groups_keep_aid_cards_apart_and_deck_first():
    keys = [
        sheet_plan.size_key(63, 88, "aid"),
        sheet_plan.size_key(63, 88, "deck"),
        sheet_plan.size_key(44, 67, "deck"),
    ]
    ordered = sheet_plan.order_groups(keys)
    assert ordered == [("deck", 63, 88), ("deck", 44, 67), ("aid", 63, 88)]
