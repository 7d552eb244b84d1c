"""Top Enforcement Officer (王牌執行官): a designer's realistic mistakes show in the sample games.

Each test breaks a private copy of cards.db the way an edit could (a card made
unplayable, an obligor made unbeatable, a copy removed, an effect mistyped) and
checks that sample games report it: a card never used, a failed game, or an
unknown effect.  The same games on the shipped data use the card, so each test
could fail.
"""

from __future__ import annotations

from collections import Counter

import pytest

from pnpforge.rules.agents import seat_agents
from pnpforge.rules.games.enforcer import make_rules
from pnpforge.rules.kit import load_game
from pnpforge.rules.runner import GameResult, play_game
from pnpforge.store import repo
from pnpforge.store.db import open_db, transaction

GAMES = 24


def sample_games(db_path, games: int = GAMES) -> list[GameResult]:
    """Mixed random and greedy tables over every player count, as `pnp check` plays them."""
    rules = make_rules(load_game(open_db(db_path, readonly=True), "enforcer"), {})
    results = []
    for i in range(games):
        players = 3 + i % 4
        results.append(play_game(rules, players, 1 + i, seat_agents("mixed", players, i // 4 % 2)))
    return results


def used(results: list[GameResult]) -> Counter:
    total: Counter = Counter()
    for result in results:
        total.update(result.used)
    return total


def edit(db_path, card_id: str, **changes) -> None:
    """Change a card's fields (or copies) as a designer's edit would."""
    db = open_db(db_path)
    card = repo.get_card(db, "enforcer", card_id)
    for name, value in changes.items():
        if name == "copies":
            card.copies = value
        else:
            card.fields[name] = value
    with transaction(db) as conn:
        repo.update_card(conn, card)


@pytest.fixture(scope="module")
def shipped_used(tmp_path_factory):
    import shutil

    from conftest import SHIPPED_DB

    path = tmp_path_factory.mktemp("enforcer") / "cards.db"
    shutil.copy(SHIPPED_DB, path)
    results = sample_games(path)
    assert all(r.completed for r in results), [r.failure for r in results if not r.completed]
    return used(results)


@pytest.mark.parametrize(
    "card_id,changes",
    [
        ("EX-seize-luxury", {"effect_value": 20}),  # 查封精品 needs 難度 ≥ 20: no obligor has it
        ("OB-18", {"difficulty": 30}),  # 黑道酒店大亨 beyond any hand: never executed
        ("EX-arrest", {"requires": "EX-award"}),  # 拘提 after a strategy card that is never in play
    ],
)
def test_a_card_made_unusable_is_never_used(shipped_db, shipped_used, card_id, changes):
    assert shipped_used[card_id] > 0
    edit(shipped_db, card_id, **changes)
    results = sample_games(shipped_db)
    assert all(r.completed for r in results)
    assert used(results)[card_id] == 0


def test_too_few_officers_fails_the_largest_games_with_a_clear_error(shipped_db):
    edit(shipped_db, "OF-tax", copies=0)  # 6 players need 12 officers
    results = sample_games(shipped_db, games=8)
    failures = {r.players: r.failure for r in results if not r.completed}
    assert set(failures) == {6}
    assert failures[6] == "PnpError: enforcer: 6 players need 12 officer cards"


def test_too_few_penalty_markers_fails_every_game(shipped_db):
    edit(shipped_db, "PEN", copies=2)
    results = sample_games(shipped_db, games=4)
    assert [r.failure for r in results] == [
        f"PnpError: enforcer: {n} players need {n} penalty marker cards" for n in (3, 4, 5, 6)
    ]


def test_a_mistyped_effect_is_reported_not_ignored(shipped_db):
    edit(shipped_db, "OBJ-flaw", effect="difficulty_upp")
    unknown = make_rules(load_game(open_db(shipped_db), "enforcer"), {}).unknown_effects()
    assert [(u.card_id, u.effect) for u in unknown] == [("OBJ-flaw", "difficulty_upp")]


def test_a_broken_track_or_reference_is_one_line_naming_card_and_field(shipped_db):
    from pnpforge.errors import PnpError

    edit(shipped_db, "EX-arrest", requires="OB-01")  # a card, but not an execution card
    with pytest.raises(PnpError, match=r"card EX-arrest: requires 'OB-01' is not an execution card"):
        make_rules(load_game(open_db(shipped_db), "enforcer"), {})
