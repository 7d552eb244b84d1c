"""Deck constraints: each kind catches what it should, parameters are checked, data round-trips."""

from __future__ import annotations

import json

import pytest

from dbcopies import only_constraint
from pnpforge.errors import PnpError
from pnpforge.model import Card
from pnpforge.store import bundle
from pnpforge.store.constraints import Constraint, check_params, insert_constraint, list_constraints
from pnpforge.store.db import open_db, transaction
from pnpforge.validate.constraints import evaluate, selector


def card(cid: str, copies: int = 1, **fields) -> Card:
    return Card(game="g", type="card", id=cid, name=cid, copies=copies, fields=fields)


def run(kind: str, params: dict, cards: list[Card]) -> list:
    """Breaches of one constraint over `cards`; the query "" selects them all, "odd" every other one."""
    subsets = {"": cards, "odd": cards[::2]}
    return evaluate(Constraint("g", "c", kind, "label", params), lambda q: subsets[q])


SUITED = [card(f"{s}{n}", suit=s, number=n) for s in "AB" for n in (2, 3, 4)]


def test_unique_counts_copies_and_names_the_cards():
    assert run("unique", {"fields": ["suit", "number"]}, SUITED) == []
    twice = [*SUITED[:-1], card("B4x", copies=2, suit="B", number=4)]
    breaches = run("unique", {"fields": ["suit", "number"]}, twice)
    assert len(breaches) == 1 and breaches[0].cards == ("B4x",)
    dup = [*SUITED, card("A2b", suit="A", number=2)]
    assert run("unique", {"fields": ["suit", "number"]}, dup)[0].cards == ("A2", "A2b")


def test_each_value_finds_a_swapped_number_with_counts_still_right():
    params = {"field": "number", "range": [2, 4], "group_by": "suit", "groups": ["A", "B", "C"]}
    breaches = run("each_value", params, SUITED)
    assert [b.message for b in breaches] == [
        "suit=C: number 2 appears 0 times, expected 1",
        "suit=C: number 3 appears 0 times, expected 1",
        "suit=C: number 4 appears 0 times, expected 1",
    ]
    swapped = [card("A2", suit="A", number=2), card("A3", suit="A", number=4), card("A4", suit="A", number=4)]
    msgs = [(b.message, b.cards) for b in run("each_value", {**params, "groups": ["A"]}, swapped)]
    assert ("suit=A: number 3 appears 0 times, expected 1", ()) in msgs
    assert ("suit=A: number 4 appears 2 times, expected 1", ("A3", "A4")) in msgs


def test_each_value_reports_values_outside_the_set():
    breaches = run("each_value", {"field": "number", "values": [2, 3, 4]}, [*SUITED[:3], card("X", number=9)])
    assert any("9 is outside the set" in b.message and b.cards == ("X",) for b in breaches)


def test_values_limits_length_and_own_fields():
    servers = [card("S1", level=1, holes=["R", "G"]), card("S2", level=1, holes=["R"])]
    breaches = run("values", {"field": "holes", "of": "length", "equals": 2}, servers)
    assert [(b.message, b.cards) for b in breaches] == [("S2: holes count is 1, expected 2", ("S2",))]
    missions = [card("M1", bullets=9, suspects=8), card("M2", bullets=5, suspects=6), card("M3", bullets=4)]
    breaches = run("values", {"field": "bullets", "min_field": "suspects"}, missions)
    assert [b.cards for b in breaches] == [("M2",)]
    assert "below the minimum 6" in breaches[0].message
    assert run("values", {"field": "bullets", "in": [9, 5]}, missions)[0].cards == ("M3",)
    assert run("values", {"field": "weakness", "min": 1}, missions)[0].message == "M1: weakness is missing"
    assert run("values", {"field": "weakness", "min": 1, "optional": True}, missions) == []
    assert (
        "not a number" in run("values", {"field": "bullets", "max": 9}, [card("Z", bullets="x")])[0].message
    )


def test_distinct_and_required_values():
    villains = [card(f"V{n}", order=n) for n in (1, 2, 2, 4, 5)]
    breaches = run("distinct", {"field": "order", "values": [1, 2, 3, 4, 5]}, villains)
    assert [(b.message, b.cards) for b in breaches] == [
        ("order 2 is on 2 copies", ("V2", "V2")),
        ("no card has order 3", ()),
    ]


def test_group_count_per_group_including_a_missing_group():
    cards = [card("L1", cult="X"), card("R1", cult="X", copies=3), card("R2", cult="Y", copies=2)]
    breaches = run("group_count", {"group_by": "cult", "groups": ["X", "Y", "Z"], "expected": 3}, cards[1:])
    assert [b.message for b in breaches] == ["cult=Y: 2 copies, expected 3", "cult=Z: 0 copies, expected 3"]
    assert run("group_count", {"min": 1, "max": 4}, cards)[0].message == "6 copies, expected 1–4"


def test_refs_resolve_and_agree():
    deck = [
        card("EX-1", power=2),
        card("SP-1", base="EX-1", power=2),
        card("SP-2", base="EX-9"),
        card("SP-3", base="EX-1", power=5),
    ]
    breaches = run("refs", {"field": "base", "same": ["power"]}, deck)
    assert [b.cards for b in breaches] == [("SP-2",), ("SP-3", "EX-1")]
    assert "SP-2: base names 'EX-9', which is not a card of the game" == breaches[0].message


@pytest.mark.parametrize(
    "kind,params,words",
    [
        ("unique", {"field": "x"}, ["unknown field", "allowed: fields, query"]),
        ("each_value", {"field": "n"}, ["exactly one of 'values' or 'range'"]),
        ("each_value", {"field": "n", "range": [2]}, ["[lowest, highest]"]),
        ("values", {"field": "n"}, ["at least one of equals"]),
        ("values", {"field": "n", "min": "2"}, ["'min' must be a whole number"]),
        ("group_count", {"expected": 1, "grups": []}, ["unknown grups"]),
        ("nonsense", {}, ["unknown constraint kind 'nonsense'", "allowed: unique, each_value"]),
        ("refs", [], ["must be a JSON object"]),
    ],
)
def test_parameters_are_checked_with_what_is_allowed(kind, params, words):
    with pytest.raises(PnpError) as err:
        check_params(kind, params)
    for w in words:
        assert w in str(err.value)


def test_a_broken_constraint_row_is_a_breach_not_a_crash():
    breaches = evaluate(Constraint("g", "c", "values", "label", None), lambda q: [])
    assert breaches[0].message.startswith("the constraint itself is invalid")


def test_constraints_select_with_the_search_language_on_real_data(shipped_db):
    db = open_db(shipped_db)
    only_constraint(
        db,
        Constraint(
            "infiltraitors",
            "u",
            "unique",
            "花色＋號碼",
            {"fields": ["suit", "number"], "query": "type:card"},
        ),
    )
    conn = db.conn
    conn.execute(
        "UPDATE cards SET fields = json_set(fields, '$.number', 8) WHERE game = 'infiltraitors' "
        "AND id = 'R07'"
    )
    from pnpforge.store import repo

    (c,) = list_constraints(db, "infiltraitors")
    breaches = evaluate(c, selector(db, "infiltraitors", repo.list_cards(db, "infiltraitors")))
    assert [(b.message, b.cards) for b in breaches] == [("suit=紅 number=8 appears 2 times", ("R07", "R08"))]


def test_constraints_travel_in_game_bundles(mini_db, tmp_path):
    db = open_db(mini_db)
    with transaction(db) as conn:
        insert_constraint(
            conn,
            Constraint(
                "mini",
                "power-cap",
                "values",
                "力量不超過 10",
                {"field": "power", "query": "type:hero", "max": 10},
                True,
                "配件",
            ),
        )
    data = bundle.export(db, "mini")
    assert data["constraints"] == [
        {
            "id": "power-cap",
            "kind": "values",
            "label": "力量不超過 10",
            "params": {"field": "power", "query": "type:hero", "max": 10},
            "provisional": True,
            "source": "配件",
        }
    ]
    other = open_db(tmp_path / "other.db", create=True)
    path = tmp_path / "mini.json"
    path.write_text(bundle.dumps(data), encoding="utf-8")
    from pnpforge.edit import import_game

    import_game(other, path)
    assert [c.to_dict() for c in list_constraints(other, "mini")] == data["constraints"]


def test_a_bundle_with_bad_constraint_parameters_is_refused():
    data = {
        "format": bundle.FORMAT,
        "game": {
            "slug": "x",
            "title": "x",
            "title_en": "x",
            "language": "en",
            "players_min": 1,
            "players_max": 2,
        },
        "constraints": [{"id": "c", "kind": "values", "label": "l", "params": {"field": "n"}}],
    }
    with pytest.raises(PnpError, match=r"constraints\[0\] \(c\): values needs at least one of"):
        bundle.parse(json.loads(json.dumps(data)))


def test_constraints_command_adds_lists_and_removes(shipped_db, run):
    from pnpforge.app import app
    from pnpforge.commands import constraints

    if not any(getattr(g, "name", None) == "constraints" for g in app.registered_groups):
        constraints.register(app)

    def add(constraint_id: str, kind: str, params: str, *more: str):
        command = ("--db", shipped_db, "constraints", "add", "infiltraitors", constraint_id)
        return run(*command, "--kind", kind, "--params", params, *more)

    suits = '{"field": "suit", "values": ["紅", "黑", "黃", "藍", "綠"], "query": "type:special"}'
    res = add("suits", "each_value", suits, "--label", "特別牌每種花色 1 張", "--source", "遊戲配件")
    assert res.exit_code == 0 and "the deck keeps it" in res.output
    res = add("bad", "unique", '{"field": "suit"}', "--label", "x")
    assert res.exit_code == 2 and "allowed: fields, query" in res.stderr
    listing = run("--db", shipped_db, "constraints", "list", "infiltraitors").output
    assert "suits" in listing and "ok" in listing and "bad" not in listing
    assert run("--db", shipped_db, "constraints", "rm", "infiltraitors", "suits").exit_code == 0
    res = run("--db", shipped_db, "constraints", "rm", "infiltraitors", "suits")
    assert res.exit_code == 2 and "has no constraint 'suits'" in res.stderr


def test_group_count_without_groups_counts_an_empty_selection():
    assert run("group_count", {"expected": 1}, [])[0].message == "0 copies, expected 1"
