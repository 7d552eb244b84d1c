"""Infiltraitors (滲透因子): what a seat observes, the greedy heuristic over it, the data driving
the engine, and seeded play checked at every step."""

from __future__ import annotations

import dataclasses
import random
from collections import Counter

import pytest

from pnpforge.errors import PnpError
from pnpforge.rules.engine import CHANCE, CardInstance
from pnpforge.rules.games.infiltraitors import board, make_rules
from pnpforge.rules.games.infiltraitors.board import DECK, LINEUP
from pnpforge.rules.kit import check_observation, load_game
from pnpforge.rules.runner import play_game
from pnpforge.store import repo
from pnpforge.store.db import transaction
from test_rules_infiltraitors_helpers import (
    ALL_MISSIONS,
    add_hint,
    copy_db,
    fresh,
    module_db,
    move,
    put_rack,
    rules_cache,
)


@pytest.fixture(scope="module")
def db(tmp_path_factory):
    return module_db(tmp_path_factory)


@pytest.fixture(scope="module")
def rules_for(db):
    return rules_cache(db)


# ---- what a seat observes -------------------------------------------------------------------


def _leaves(value) -> list:
    """Every atom inside an observation (dataclass fields, tuples), to search for a card."""
    if (
        dataclasses.is_dataclass(value)
        and not isinstance(value, type)
        and not isinstance(value, CardInstance)
    ):
        return [x for f in dataclasses.fields(value) for x in _leaves(getattr(value, f.name))]
    if isinstance(value, (tuple, list, frozenset)):
        return [x for v in value for x in _leaves(v)]
    return [value]


def test_observation_shows_only_what_the_seat_may_see(rules_for):
    st = fresh(rules_for("M16"))
    put_rack(st, 0, "R06")
    put_rack(st, 1, "K06")
    move(st, "Y09", st.cover_piles[1])
    obs = st.observation(0)
    check_observation(obs, 0)
    assert obs.my_suspect == CardInstance("R06") and obs.hand == tuple(board.hand(st, 0))
    assert obs.has_cover[1] and obs.occupied[1]
    leaves = _leaves(obs)
    secrets = [
        CardInstance("K06"),
        CardInstance("Y09"),
        *st.piles.pile(DECK),
        *board.hand(st, 1),
        *st.piles.pile(LINEUP),
    ]
    for secret in secrets:
        assert secret not in leaves
    assert rules_for("M16").greedy_value(obs, ("eliminate", 1, "黃", 6)) < 1000.0
    assert st.observation(1).my_suspect == CardInstance("K06")
    assert st.observation(1).my_cover == CardInstance("Y09")


def test_greedy_value_ignores_what_the_seat_cannot_see(rules_for):
    """Swap another seat's suspect with a deck card: the acting seat's values do not move."""
    rules = rules_for()
    st = fresh(rules)
    put_rack(st, 1, "K06")
    add_hint(st, 1, "R12", True)
    add_hint(st, 1, "Y05", False)
    obs = st.observation(0)
    before = {a: rules.greedy_value(obs, a) for a in st.legal_actions()}
    swap = next(c for c in st.piles.pile(DECK) if c.card != "K06")
    st.piles.move_all(st.stand_piles[1], DECK)
    st.piles.move(swap, DECK, st.stand_piles[1])
    st.refresh()
    obs_after = st.observation(0)
    assert obs_after == obs
    assert {a: rules.greedy_value(obs_after, a) for a in st.legal_actions()} == before


def test_greedy_shoots_when_the_hints_pin_the_suspect(rules_for):
    rules = rules_for("T1")
    st = fresh(rules)
    put_rack(st, 1, "K13")
    # 13 is prime: upright 紅13 (same number) plus sideways reds/yellows narrow it down.
    for cid in ["R13", "Y13", "R02", "Y03", "R05", "Y07", "R11", "Y11", "R04", "Y02"]:
        add_hint(st, 1, cid)
    obs = st.observation(0)
    best = max(st.legal_actions(), key=lambda a: rules.greedy_value(obs, a))
    assert best == ("eliminate", 1, "黑", 13)
    assert rules.greedy_value(obs, best) == 1000.0


# ---- the data drives the engine ------------------------------------------------------------


def test_an_edit_to_the_database_changes_the_next_game(tmp_path):
    _, db = copy_db(tmp_path)
    card = repo.get_card(db, "infiltraitors", "M01")
    card.fields["bullets"] = 8
    with transaction(db) as conn:
        repo.update_card(conn, card)
    assert fresh(make_rules(load_game(db, "infiltraitors"), {"mission": "M01"})).bullets == 8
    six = repo.get_card(db, "infiltraitors", "R06")
    six.fields["relates"] = ["2", "4"]
    with transaction(db) as conn:
        repo.update_card(conn, six)
    with pytest.raises(PnpError, match="card R06: printed related numbers"):
        make_rules(load_game(db, "infiltraitors"), {"mission": "M01"})


def test_unknown_effects_are_reported(tmp_path):
    _, db = copy_db(tmp_path)
    assert make_rules(load_game(db, "infiltraitors"), {}).unknown_effects() == []
    card = repo.get_card(db, "infiltraitors", "M02")
    with transaction(db) as conn:
        conn.execute(
            "UPDATE field_defs SET allowed = json_insert(allowed, '$[#]', 'teleport') "
            "WHERE game = 'infiltraitors' AND card_type = 'mission' AND name = 'effect'"
        )
        card.fields["effect"] = "teleport"
        repo.update_card(conn, card)
    unknown = make_rules(load_game(db, "infiltraitors"), {}).unknown_effects()
    assert [(u.card_id, u.effect) for u in unknown] == [("M02", "teleport")]


# ---- seeded play ----------------------------------------------------------------------------


def _uniform(rules, st, legal, rng):
    return legal[rng.randrange(len(legal))]


def _by_kind(rules, st, legal, rng):
    """Random kind of action, but shots only at a likely guess, so games run deep."""
    obs = st.observation(st.current_player())
    sure = [a for a in legal if a[0] != "eliminate" or rules.greedy_value(obs, a) >= 5.0]
    legal = sure or legal
    kind = rng.choice(sorted({a[0] for a in legal}))
    acts = [a for a in legal if a[0] == kind]
    return acts[rng.randrange(len(acts))]


def drive(rules, players: int, seed: int, policy) -> tuple:
    rng = random.Random(seed)
    deck = Counter(rules.deck())
    st = rules.new_initial_state(players, rng)
    steps = 0
    while not st.is_terminal():
        assert steps < rules.info.max_steps, f"seed {seed}: step cap reached"
        legal = st.legal_actions()
        assert legal and legal == sorted(legal)
        chance = st.current_player() == CHANCE
        action = _uniform(rules, st, legal, rng) if chance else policy(rules, st, legal, rng)
        st.apply(action)
        steps += 1
        st.check_invariants()
        held = Counter(c for z in st.zones().values() for c in z)
        assert held == deck, f"seed {seed} step {steps}"
    assert st.returns() == st.scores_from_rules()
    assert st.events[-1].kind == "end"
    return st, steps


@pytest.mark.parametrize("mission", ALL_MISSIONS)
def test_random_play_keeps_every_invariant(rules_for, mission):
    rules = rules_for(mission)
    for seed in range(2):  # 2–5 agents across the four games
        drive(rules, 2 + seed, seed, _uniform)
        drive(rules, 4 + seed, 100 + seed, _by_kind)


@pytest.mark.parametrize("mission", ["M01", "M07", "M17", "M18", "M19"])
def test_greedy_games_through_the_runner(rules_for, mission):
    rules = rules_for(mission)
    results = [play_game(rules, 2 + i % 4, i, ["greedy"] * (2 + i % 4)) for i in range(4)]
    assert all(r.completed for r in results), [r.failure for r in results]
    assert any(r.winners for r in results)


@pytest.mark.slow
@pytest.mark.parametrize("mission", ALL_MISSIONS)
def test_many_random_games(rules_for, mission):
    rules = rules_for(mission)
    for seed in range(60):
        drive(rules, 2 + seed % 4, seed, _uniform if seed % 2 else _by_kind)
    for seed in range(12):
        result = play_game(rules, 2 + seed % 4, seed, ["greedy"] * (2 + seed % 4))
        assert result.completed, result.failure


def test_a_game_records_what_happened_in_standard_events(rules_for):
    rules = rules_for("M03")
    result = play_game(rules, 3, 5, ["greedy"] * 3, verbose=True)
    assert result.completed, result.failure
    counts = result.event_counts
    assert counts["used"] > 10 and counts["outcome"] > 5 and counts["round"] > 3
    assert counts["score"] == 3 and counts["end"] == 1
    assert result.used["M03"] == 1 and all(card[0] in "RKYBGSM" for card in result.used)
    log = "\n".join(result.log)
    assert "hint" in log and "shoots seat" in log and "round 1 ends" in log
    assert ": hit, traitor" in log and "mission M03 " in log


@pytest.mark.parametrize("mission", ["M01", "M06", "M07", "M16", "M17", "M19"])
def test_legal_actions_sorted_and_values_of_a_decision_match_one_by_one(rules_for, mission):
    """The legal actions come sorted without a final sort, and the greedy values of a whole
    decision (shots filled per target) equal the values asked one action at a time."""
    rules = rules_for(mission)
    for seed in range(3):
        st = rules.new_initial_state(3 + seed % 2, random.Random(seed))
        rng = random.Random(seed)
        while not st.is_terminal():
            legal = st.legal_actions()
            assert legal == sorted(legal), f"seed {seed}: legal actions out of order"
            player = st.current_player()
            if player != CHANCE:
                obs = st.observation(player)
                together = rules.greedy_values(obs, legal)
                rules._deduction_memo = [None, None]  # one by one, from a fresh deduction
                assert together == [rules.greedy_value(obs, action) for action in legal], f"seed {seed}"
            st.apply(legal[rng.randrange(len(legal))])
