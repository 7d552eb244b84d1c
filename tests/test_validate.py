"""The validators: field rules, references, duplicates, composition, provisional values."""

from __future__ import annotations

import pytest

from pnpforge import edit
from pnpforge.errors import PnpError, ValidationFailed
from pnpforge.model import FieldDef
from pnpforge.store import repo
from pnpforge.store.db import open_db
from pnpforge.validate import check_value, coerce, validate_game


@pytest.mark.parametrize(
    "fd,value,fragment",
    [
        (FieldDef("p", "integer", min=0, max=5), 6, "above the maximum 5"),
        (FieldDef("p", "integer", min=0, max=5), -1, "below the minimum 0"),
        (FieldDef("p", "integer"), "3", "expected an integer"),
        (FieldDef("p", "integer"), True, "expected an integer"),
        (FieldDef("e", "enum", allowed=["火", "水"]), "土", "allowed: 火, 水"),
        (FieldDef("l", "list", allowed=["a", "b"]), ["a", "c"], "'c' not allowed"),
        (FieldDef("b", "boolean"), "yes", "true or false"),
    ],
)
def test_bad_values_are_named(fd, value, fragment):
    assert fragment in check_value(fd, value)


@pytest.mark.parametrize(
    "fd,value",
    [
        (FieldDef("p", "integer", min=0, max=5), 5),
        (FieldDef("e", "enum", allowed=["火"]), "火"),
        (FieldDef("l", "list", allowed=["a", "b"]), ["b", "a"]),
        (FieldDef("b", "boolean"), False),
    ],
)
def test_good_values_pass(fd, value):
    assert check_value(fd, value) is None


def test_coerce_from_text():
    assert coerce(FieldDef("p", "integer"), " 7 ") == 7
    assert coerce(FieldDef("b", "boolean"), "Yes") is True
    assert coerce(FieldDef("l", "list"), "a|b，c") == ["a", "b", "c"]
    assert coerce(FieldDef("p", "integer"), "") is None
    with pytest.raises(ValueError):
        coerce(FieldDef("p", "integer"), "seven")


def test_fixture_game_is_valid_with_provisional_warnings(mini_db):
    problems = validate_game(open_db(mini_db), "mini")
    assert [p for p in problems if p.severity == "error"] == []
    warned = {p.card for p in problems if p.severity == "warning"}
    assert warned == {"H-02", "S-01"}


def _unchanged(db, game="mini"):
    return [c.to_dict() for c in repo.list_cards(db, game)]


@pytest.mark.parametrize(
    "values,fragment",
    [
        ({"power": "99"}, "above the maximum"),
        ({"element": "土"}, "not allowed"),
        ({"weakness": "NOPE"}, "not in the game"),
        ({"weakness": "H-02"}, "expected a spell card"),
        ({"name": "水之巫女"}, "already used by H-02"),
        ({"provenance": "rulebook", "source": ""}, "needs a source"),
    ],
)
def test_invalid_edit_is_refused_and_changes_nothing(mini_db, values, fragment):
    db = open_db(mini_db)
    before = _unchanged(db)
    with pytest.raises(ValidationFailed, match=fragment):
        edit.set_card(db, "mini", "H-01", values)
    assert _unchanged(db) == before


def test_unknown_field_is_refused_with_allowed_list(mini_db):
    db = open_db(mini_db)
    with pytest.raises(PnpError, match="allowed: .*power"):
        edit.set_card(db, "mini", "H-01", {"colour": "red"})


def test_composition_is_deck_level_and_does_not_block(mini_db):
    db = open_db(mini_db)
    card, deck = edit.set_card(db, "mini", "H-01", {"copies": "5"})
    assert card.copies == 5
    assert [p.field for p in deck] == ["heroes"]
    assert "declares 3, the deck has 6" in deck[0].message
    errors = [p for p in validate_game(db, "mini") if p.severity == "error"]
    assert [p.scope for p in errors] == ["deck"]


def test_removing_a_referenced_card_is_refused(mini_db):
    db = open_db(mini_db)
    with pytest.raises(ValidationFailed, match="named by H-01"):
        edit.remove_card(db, "mini", "S-01")
    assert repo.find_card(db, "mini", "S-01") is not None


def test_required_field(mini_db):
    db = open_db(mini_db)
    with pytest.raises(ValidationFailed, match="required field is missing"):
        edit.add_card(db, "mini", "hero", "H-09", {"name": "無名"})
    assert repo.find_card(db, "mini", "H-09") is None


def test_a_missing_art_file_is_a_warning_validate_shows(run, shipped_db):
    """A card naming an art file that is not there prints a placeholder: validate says so,
    naming the card, without --warnings."""
    assert run("--db", shipped_db, "cards", "set", "enforcer", "OB-01", "art=art/missing.png").exit_code == 0
    r = run("--db", shipped_db, "validate", "enforcer")
    assert r.exit_code == 0
    line = next(ln for ln in r.stdout.splitlines() if "OB-01" in ln)
    assert "art" in line and "missing.png not found" in line
