"""A designer's mistakes in the League of Hackers deck show in the sample games.

Each test breaks a private copy of the shipped database the way an edit (or raw SQL)
could, then plays seeded games through the runner as the check does: a card nobody
can use is never used, a malformed value stops the engine with one line naming the
card and field, a missing server level or an unknown effect is reported.
"""

from __future__ import annotations

import sqlite3
from collections import Counter
from pathlib import Path

import pytest

from pnpforge.errors import PnpError
from pnpforge.rules.agents import seat_agents
from pnpforge.rules.kit import DeckError
from pnpforge.rules.runner import play_game
from test_rules_hackers_positions import load

GAMES = 100  # as many as a default check plays


def never_used(db_path: Path) -> list[str]:
    """Cards with copies whose type the engine declares usable and that no game used."""
    rules = load(db_path)
    used: Counter[str] = Counter()
    for i in range(GAMES):
        players = (2, 3, 4)[i % 3]
        result = play_game(rules, players, 1 + i, seat_agents("mixed", players, i))
        assert result.completed, result.failure
        used.update(result.used)
    return sorted({c.card for c in rules.deck()} - set(used))


def edit(db_path: Path, sql: str, *args: object) -> None:
    conn = sqlite3.connect(db_path)
    conn.execute(sql, args)
    conn.commit()
    conn.close()


def set_field(db_path: Path, card: str, field: str, value: object) -> None:
    edit(
        db_path,
        f"UPDATE cards SET fields = json_set(fields, '$.{field}', ?) WHERE game = 'hackers' AND id = ?",
        value,
        card,
    )


def test_the_shipped_deck_uses_every_card(shipped_db):
    assert never_used(shipped_db) == []


@pytest.mark.parametrize(("card", "field", "value"), [("D-05R", "cost", 9), ("S-21", "cost", 13)])
def test_a_card_nobody_can_afford_is_never_used(shipped_db, card, field, value):
    """A defence card costing more than a hand can pay; a level-3 server dearer than a hand
    and every Thin Provision together (a typo: 13 for 3)."""
    set_field(shipped_db, card, field, value)
    assert never_used(shipped_db) == [card]


@pytest.mark.parametrize(
    ("card", "field", "value", "message"),
    [
        ("D-03G", "defence", -2, "field 'defence' is -2, below the minimum 0"),
        ("S-07", "holes", '["R", "P"]', "field 'holes' has P"),
        ("A-05", "colours", "[]", "field 'colours' must list at least one colour"),
        ("S-02", "cost", 0, "field 'cost' is 0, below the minimum 1"),
        ("D-10B", "colour", "purple", "field 'colour' is 'purple'"),
    ],
)
def test_a_malformed_value_stops_the_engine_naming_card_and_field(shipped_db, card, field, value, message):
    if isinstance(value, str) and value.startswith("["):
        edit(
            shipped_db,
            f"UPDATE cards SET fields = json_set(fields, '$.{field}', json(?)) "
            "WHERE game = 'hackers' AND id = ?",
            value,
            card,
        )
    else:
        set_field(shipped_db, card, field, value)
    with pytest.raises(DeckError, match=f"card {card}: {message}"):
        load(shipped_db)


def test_a_round_without_servers_is_refused(shipped_db):
    edit(
        shipped_db,
        "UPDATE cards SET copies = 0 WHERE game = 'hackers' AND type = 'server' "
        "AND json_extract(fields, '$.level') = 3",
    )
    with pytest.raises(PnpError, match="hackers: no server card of level 3"):
        load(shipped_db)


def test_an_effect_the_engine_does_not_know_is_reported(shipped_db):
    set_field(shipped_db, "D-06Y", "effect", "proof_of_concpet")
    assert [(u.card_id, u.effect) for u in load(shipped_db).unknown_effects()] == [
        ("D-06Y", "proof_of_concpet")
    ]
