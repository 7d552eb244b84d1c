"""The search agent's truncated playouts: an engine's evaluation hook (Top Enforcement Officer's
`evaluate` module) and the `horizon` option that stops a playout to ask it."""

from __future__ import annotations

import random

import pytest

from dbcopies import SHIPPED_DB
from pnpforge.errors import PnpError
from pnpforge.rules.engine import CHANCE
from pnpforge.rules.games import load_rules
from pnpforge.rules.games.enforcer import evaluate
from pnpforge.rules.runner import pick_chance, play_game
from pnpforge.rules.search import SearchAgent, check_options
from pnpforge.store.db import open_db


@pytest.fixture(scope="module")
def db():
    return open_db(SHIPPED_DB, readonly=True)


@pytest.fixture(scope="module")
def enforcer(db):
    return load_rules(db, "enforcer", {})


def _greedy_game(rules, players, seed):
    """Every position of a greedy game, the last one over."""
    rng = random.Random(seed)
    state = rules.new_initial_state(players, rng)
    positions = [state.clone()]
    while not state.is_terminal():
        player = state.current_player()
        legal = state.legal_actions()
        if player == CHANCE:
            action = pick_chance(state, rng)
        else:
            values = rules.greedy_values(state.observation(player), legal)
            action = legal[values.index(max(values))]
        state.apply(action)
        positions.append(state.clone())
    return positions


def test_the_estimate_is_a_share_of_the_win_that_follows_the_standings(enforcer):
    positions = _greedy_game(enforcer, 3, seed=5)
    for state in positions[::25]:
        shares = [enforcer.evaluate(state, seat) for seat in range(3)]
        assert all(0.0 <= share <= 1.0 for share in shares)
        assert sum(shares) == pytest.approx(1.0)
        standings = [evaluate.standing(state, seat) for seat in state.alive()]
        alive_shares = [shares[seat] for seat in state.alive()]
        # the seat ahead on the rulebook's scoring has the largest share
        assert alive_shares.index(max(alive_shares)) == standings.index(max(standings))
    middle = positions[len(positions) // 2]
    assert max(evaluate.standing(middle, s) for s in range(3)) > 0  # someone has scored by then
    end = positions[-1]
    winners = end.winners()
    assert [enforcer.evaluate(end, s) for s in range(3)] == [
        1.0 / len(winners) if s in winners else 0.0 for s in range(3)
    ]


def test_a_seat_one_penalty_from_elimination_pays_for_the_risk(enforcer):
    state = _greedy_game(enforcer, 3, seed=5)[40]
    track = state.tracks[0]
    last = track.eliminate_at - 1  # penalties that leave the seat one short of X
    assert last >= 2
    state.penalties[0] = last - 1
    safer = evaluate.standing(state, 0)
    state.penalties[0] = last
    step = track.loss(last) - track.loss(last - 1)  # the track's last step (a loss, negative)
    assert evaluate.standing(state, 0) == pytest.approx(safer + 1.5 * step)


def test_truncated_playouts_ask_the_engine_and_cost_fewer_steps(enforcer):
    state = _greedy_game(enforcer, 3, seed=9)[30]
    agent = SearchAgent(random.Random(0), enforcer, 0, {"horizon": "10"})
    assert agent.horizon == 10
    credit, _ = agent._playout(state.clone(), random.Random(1))
    played = state.clone()
    rng = random.Random(1)
    for _ in range(10):  # the same ten steps the playout took (greedy, ties by the same draws)
        player = played.current_player()
        legal = played.legal_actions()
        if player == CHANCE:
            outcomes, r, acc, action = played.chance_outcomes(), rng.random(), 0.0, None
            for candidate, p in outcomes:
                acc += p
                if r < acc:
                    action = candidate
                    break
            action = outcomes[-1][0] if action is None else action
        elif len(legal) == 1:
            action = legal[rng.randrange(1)]
        else:
            scores = enforcer.greedy_values(played.observation(player), legal)
            tied = [i for i, s in enumerate(scores) if s == max(scores)]
            action = legal[tied[rng.randrange(len(tied))] if len(tied) > 1 else tied[0]]
        played.apply(action)
    assert credit == pytest.approx(enforcer.evaluate(played, 0))
    to_the_end = SearchAgent(random.Random(0), enforcer, 0, {"horizon": "0"})
    credit, _ = to_the_end._playout(state.clone(), random.Random(1))
    assert credit in (0.0, 1.0) or 0 < credit < 1  # a win, a loss or a shared win
    assert to_the_end.horizon == 0


def test_an_engine_without_an_evaluation_plays_to_the_end(db):
    rules = load_rules(db, "hackers", {})
    assert not hasattr(rules, "evaluate")
    agent = SearchAgent(random.Random(0), rules, 0, {"horizon": "5"})
    assert agent.horizon == 0


def test_a_game_with_truncated_playouts_is_seeded(enforcer):
    options = {"budget": "2", "width": "2", "horizon": "20"}
    first = play_game(enforcer, 3, 11, ["search", "greedy", "greedy"], agent_options=options)
    assert first.completed, first.failure
    again = play_game(enforcer, 3, 11, ["search", "greedy", "greedy"], agent_options=options)
    assert (again.returns, again.steps) == (first.returns, first.steps)


@pytest.mark.parametrize(("value", "message"), [("x", "whole number"), ("-1", "horizon=-1")])
def test_a_bad_horizon_is_refused(value, message):
    with pytest.raises(PnpError, match=message):
        check_options({"horizon": value})
