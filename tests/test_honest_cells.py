"""Provenance per cell of a list field: the enforcer penalty track's rulebook cells and designed ones.

The rulebook gives the track's first cells (-1 -3) and its final X; pnpforge designs the rest.
Every reader honours the per-cell marks: validate, `cards show`, the printed face, the
summary and aids; an edit of a rulebook cell makes that cell (only) the designer's; the
engine plays the same games from the list as it did from the text.
"""

from __future__ import annotations

import sqlite3

import pytest

from pnpforge import edit
from pnpforge.docs.context import build_context, shown_value
from pnpforge.model import Card, CardType, FieldDef, cell_entry, fits_card, split_entry, tidy_provisional
from pnpforge.render.face_values import FieldsView, ReadTracker, face_environment
from pnpforge.rules.games.enforcer.data import load_cards
from pnpforge.store import repo
from pnpforge.store.db import open_db
from pnpforge.validate.edition import apply_edition_rules, edition_differences
from pnpforge.validate.fields import coerce, validate_card

TRACK = ["-1", "-3", "-6", "-10", "X"]


def marker(track: list[str] | str = TRACK, marks: list[str] | None = None) -> Card:
    return Card(
        game="enforcer",
        type="penalty",
        id="PEN",
        name="減分標記卡",
        copies=6,
        fields={"track": track, "rookie_track": ["0", "-1", "X"]},
        provenance="rulebook",
        source="遊戲過程—減分",
        provisional_fields=["rookie_track", "track[3]", "track[4]"] if marks is None else marks,
    )


PENALTY = CardType(
    game="enforcer",
    slug="penalty",
    name="減分標記卡",
    name_en="Penalty Marker",
    width_mm=63,
    height_mm=88,
    fields=[FieldDef("track", "list", allowed=[]), FieldDef("rookie_track", "list", allowed=[])],
)


def test_entries_name_cells_one_based():
    assert split_entry("track[3]") == ("track", 2) and cell_entry("track", 2) == "track[3]"
    assert split_entry("track") == ("track", None)
    assert split_entry("track[0]") == ("track[0]", None)  # not a cell: validate calls it unknown
    card = marker()
    assert card.provisional_cells("track") == {2, 3}
    assert [card.is_cell_provisional("track", i) for i in range(5)] == [False, False, True, True, False]
    assert not card.is_value_provisional("track") and card.has_provisional_part("track")
    assert card.is_cell_provisional("rookie_track", 0)  # the whole value marks every cell


def test_validate_refuses_cells_that_are_not_there():
    assert not validate_card(marker(), PENALTY)
    problems = validate_card(marker(marks=["track[6]", "rookie_track[1]", "track", "track[2]"]), PENALTY)
    text = "\n".join(p.message for p in problems)
    assert "track has 5 cell(s), so there is no cell 6" in text
    assert "whole of track is already marked" in text
    assert len(problems) == 2  # rookie_track[1] names a real cell
    with_text = CardType(**{**PENALTY.__dict__, "fields": [FieldDef("track", "text")]})
    card = marker(track="-1 -3 X", marks=["track[1]"])
    card.fields.pop("rookie_track")
    assert "not a list field" in validate_card(card, with_text)[0].message


def test_open_list_takes_cells_separated_by_spaces_and_refuses_empty_items():
    fd = FieldDef("track", "list", allowed=[])
    assert coerce(fd, "-1 -3  -6|-10, X") == TRACK
    assert coerce(FieldDef("holes", "list", allowed=["R", "B"]), "R B|B") == ["R B", "B"]  # closed: as before
    card = marker(track=["-1", " ", "X"], marks=[])
    assert any("an item is empty" in p.message for p in validate_card(card, PENALTY))


def test_an_edit_makes_only_the_changed_cells_the_designers():
    old = marker()
    new = marker(track=["-2", "-3", "-6", "-12", "X", "X"])
    out = apply_edition_rules(old, new)
    assert out.provisional_fields == ["rookie_track", "track[1]", "track[3]", "track[4]", "track[6]"]
    shorter = apply_edition_rules(old, marker(track=["-1", "-3", "X"]))
    assert shorter.provisional_fields == ["rookie_track", "track[3]"]  # cell 4 went with the edit
    every = apply_edition_rules(old, marker(track=["-5", "-7", "-9", "X", "Y"]))
    assert every.provisional_fields == ["rookie_track", "track"]  # all cells designed: the whole value
    corrected = apply_edition_rules(old, marker(track=["-2", "-3", "-6", "-10", "X"]), correction="OCR")
    assert corrected.provisional_fields == ["rookie_track", "track[3]", "track[4]"]
    whole = marker(marks=["track"])
    assert apply_edition_rules(whole, marker(track=["-2"], marks=["track"])).provisional_fields == ["track"]


def test_tidy_keeps_what_the_designer_wrote_and_folds_full_lists():
    card = marker(marks=["track[9]", "track[1]", "track"])
    tidy_provisional(card)
    assert card.provisional_fields == ["track"]
    card = marker(marks=["track[2]", "track[9]"])
    tidy_provisional(card)
    assert card.provisional_fields == ["track[2]", "track[9]"]  # a wrong entry is for validate to refuse
    assert not fits_card(card, "track[9]") and fits_card(card, "track[2]") and fits_card(card, "copies")


def test_the_shipped_track_in_every_reader(shipped_db, run):
    db = open_db(shipped_db)
    pen = repo.get_card(db, "enforcer", "PEN")
    assert pen.fields["track"] == TRACK and pen.provisional_cells("track") == {2, 3}
    assert shown_value(pen, "track", " ") == "-1 -3 -6† -10† X"
    assert shown_value(pen, "rookie_track", " ").endswith("X†")
    ctx = build_context(db, "enforcer")
    assert ctx["value"]("PEN", "track", " ") == "-1 -3 -6† -10† X"
    out = run("--db", shipped_db, "cards", "show", "enforcer", "PEN").stdout
    assert "-1、-3、-6†、-10†、X  (provisional cells: 3, 4, marked †)" in out
    summary = run("--db", shipped_db, "rules", "enforcer", "-f", "md", "-o", "-").stdout
    assert "減分軌：-1 -3 -6† -10† X" in summary


def test_faces_mark_each_designed_cell():
    env, finalize = face_environment(True)
    view = FieldsView({"track": TRACK}, {"track[3]", "track[4]"}, ReadTracker())
    cells = view["track"]
    assert [getattr(c, "pnp_prov", False) for c in cells] == [False, False, True, True, False]
    shown = env.from_string("{{ f.track }}").render(f=view)
    assert shown == "-1、-3、-6\ue000、-10\ue000、X"


def test_edition_guards_the_rulebook_cells_only(shipped_db):
    db = open_db(shipped_db)
    before = {d.key for d in edition_differences(db, "enforcer") if d.card == "PEN"}
    assert not before
    conn = sqlite3.connect(shipped_db)
    with conn:  # around the editor: a designed cell and then a rulebook cell
        conn.execute(
            'UPDATE cards SET fields = json_set(fields, \'$.track\', json(\'["-1","-3","-7","-10","X"]\')) '
            "WHERE game = 'enforcer' AND id = 'PEN'"
        )
    assert not [d for d in edition_differences(db, "enforcer") if d.card == "PEN"]
    with conn:
        conn.execute(
            'UPDATE cards SET fields = json_set(fields, \'$.track\', json(\'["-2","-3","-7","-10","X"]\')) '
            "WHERE game = 'enforcer' AND id = 'PEN'"
        )
    conn.close()
    found = [(d.key, d.edition, d.current) for d in edition_differences(db, "enforcer") if d.card == "PEN"]
    assert found == [("fields.track[1]", "-1", "-2")]


def test_editor_marks_the_cell_and_the_engine_reads_the_list(shipped_db):
    db = open_db(shipped_db)
    card, _ = edit.set_card(db, "enforcer", "PEN", {"track": "-1 -2 -6 -10 X"})
    assert card.provisional_fields == ["rookie_track", "track[2]", "track[3]", "track[4]"]
    assert card.fields["track"] == ["-1", "-2", "-6", "-10", "X"]
    data = load_cards(repo.list_cards(db, "enforcer"))
    assert data.standard_track.cells == (-1, -2, -6, -10) and data.standard_track.eliminate_at == 5
    as_text = marker(track="-1 -2 -6 -10 X", marks=[])
    assert load_cards(
        [*repo.list_cards(db, "enforcer", strict=False)[:-1], as_text]
    ).standard_track.cells == (
        -1,
        -2,
        -6,
        -10,
    )


@pytest.mark.parametrize("raw", ["-1 -3 -6 -10", "-1 -3 ten X"])
def test_the_engine_names_a_bad_track(shipped_db, raw):
    from pnpforge.rules.kit import DeckError

    db = open_db(shipped_db)
    edit.set_card(db, "enforcer", "PEN", {"track": raw})
    with pytest.raises(DeckError, match="PEN.*track"):
        load_cards(repo.list_cards(db, "enforcer"))
