"""The runner: per-step checks that make a broken engine fail with its seed, event collection, logs."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from mini_engine import MiniRules, MiniState
from pnpforge.rules.kit import load_game
from pnpforge.rules.runner import play_game
from pnpforge.store.db import open_db


def rules(mini_db, **kw: Any) -> MiniRules:
    return MiniRules(load_game(open_db(mini_db), "mini"), kw.pop("options", {}), **kw)


def test_random_and_greedy_games_complete_and_conserve_cards(mini_db):
    r = rules(mini_db)
    for seed in range(30):
        players = 2 + seed % 3
        res = play_game(r, players, seed, ["random", "greedy", "random", "greedy"][:players])
        assert res.completed, res.failure
        assert res.steps == 12  # six cards: one draw and one choice each
        assert sum(res.used.values()) == sum(sum(c.values()) for c in res.used_by.values())


def test_greedy_agent_uses_the_engines_hook_on_the_observation(mini_db):
    res = play_game(rules(mini_db), 2, 7, ["greedy", "greedy"])
    assert sum(res.used.values()) == 6  # greedy always plays
    assert res.used == Counter({"H-01": 2, "H-02": 1, "S-01": 3})
    res = play_game(rules(mini_db), 2, 7, ["random", "random"])
    assert sum(res.used.values()) < 6


def test_result_carries_used_cards_per_seat_factions_and_events(mini_db):
    res = play_game(rules(mini_db), 3, 4, ["greedy"] * 3)
    assert res.factions == {0: "fire", 1: "water", 2: "fire"}
    assert set(res.used_by) <= {0, 1, 2} and sum(res.used_by[0].values()) == 2
    assert res.event_counts["used"] == res.event_counts["score"] == 6
    assert res.event_counts["end"] == 1 and res.end_reason == "deck exhausted"


def test_verbose_log_shows_what_happened_not_only_the_choice(mini_db):
    res = play_game(rules(mini_db), 2, 3, ["greedy", "greedy"], verbose=True)
    text = "\n".join(res.log)
    assert "seat 0 plays as fire" in text
    assert "seat 0 (greedy): play" in text
    assert "score: seat 0 plays" in text and "end: deck exhausted" in text
    assert res.log[-1].startswith("end: deck exhausted; scores")


def test_same_seed_same_game(mini_db):
    r = rules(mini_db)
    a = play_game(r, 3, 42, ["random"] * 3, verbose=True)
    b = play_game(r, 3, 42, ["random"] * 3, verbose=True)
    assert a.log == b.log and a.returns == b.returns


@pytest.mark.parametrize(
    "fault,fragment",
    [
        ("leak", "card conservation broken"),
        ("endless", "step cap 100 reached"),
        ("score_bias", "differ from the scoring rules"),
        ("unsorted", "not sorted"),
        ("mutable_observation", "observation of seat 0 leaks: observation.leak is a Zones"),
        ("bad_event", "'used' event names 'NOPE', not a card of the deck"),
    ],
)
def test_broken_engines_fail_with_their_seed(mini_db, fault, fragment):
    r = rules(mini_db, **{fault: 1.0 if fault == "score_bias" else True})
    results = [play_game(r, 2, seed, ["random", "random"]) for seed in range(5)]
    assert all(not res.completed for res in results)
    assert all(fragment in (res.failure or "") for res in results), results[0].failure


def test_engine_exception_is_a_failure_with_traceback_in_verbose(mini_db):
    r = rules(mini_db)
    r.value = {}  # every lookup fails: a KeyError deep in the engine
    res = play_game(r, 2, 1, ["greedy", "greedy"], verbose=True)
    assert not res.completed and res.failure and res.failure.startswith("KeyError")
    assert "Traceback" in res.log[-1]


def test_greedy_values_default_is_greedy_value_of_each_action(mini_db):
    r = rules(mini_db)
    obs = r.new_initial_state(2, random.Random(1)).observation(0)
    assert r.greedy_values(obs, [0, 1]) == [r.greedy_value(obs, 0), r.greedy_value(obs, 1)] == [0.0, 1.0]


def test_observation_is_built_for_agents_that_read_it_and_for_the_purity_check(mini_db):
    r = rules(mini_db)
    built: list[int] = []
    original = MiniState.observation

    def counting(self: MiniState, seat: int) -> Any:
        built.append(seat)
        return original(self, seat)

    MiniState.observation = counting
    try:
        res = play_game(r, 2, 3, ["random", "random"])
        random_built = len(built)
        built.clear()
        play_game(r, 2, 3, ["greedy", "greedy"])
    finally:
        MiniState.observation = original
    assert res.completed and res.steps == 12
    assert 0 < random_built < 6  # only at steps 0, 1, 2, 4, 8 (the purity check), never per decision
    assert len(built) == 6  # a greedy agent reads every decision's observation
