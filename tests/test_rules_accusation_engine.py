"""Accusation (控訴) engine contract: declared options, observations, events, scoring and sample play."""

from __future__ import annotations

import dataclasses
import random
from collections import Counter

import pytest

from pnpforge.edit import set_card
from pnpforge.errors import PnpError
from pnpforge.rules.agents import seat_agents
from pnpforge.rules.engine import CHANCE, RuleViolation
from pnpforge.rules.games import load_rules
from pnpforge.rules.games.accusation import FIRST, KEEP, PLAY, RAID, board, make_rules
from pnpforge.rules.kit import check_observation, load_game
from pnpforge.rules.runner import check_event, check_zones, play_game
from pnpforge.store import repo
from pnpforge.store.db import open_db


@pytest.fixture
def db(shipped_db):
    return open_db(shipped_db)


def main_decision(rules, first: int = 0):
    """A new duel at the first player's first main-phase decision, nobody having mulliganed."""
    state = rules.new_initial_state(rules.players)
    state.apply((FIRST, first))
    while state.decision.kind != "main":
        state.apply((KEEP,) if state.decision.kind == "mulligan" else state.legal_actions()[0])
    return state


def play_out(rules, seed: int, agent: str = "random"):
    """A whole game with the runner's per-state checks done here by hand, returning the final state."""
    deck = Counter(rules.deck())
    cards = {c.card for c in deck}
    rng = random.Random(seed)
    state = rules.new_initial_state(rules.players)
    steps = 0
    while not state.is_terminal():
        legal = state.legal_actions()
        assert legal == sorted(legal) and legal
        seat = state.current_player()
        if seat == CHANCE or agent == "random":
            action = legal[rng.randrange(len(legal))]
        else:
            obs = state.observation(seat)
            action = max(legal, key=lambda a: (rules.greedy_value(obs, a), rng.random()))
        state.apply(action)
        steps += 1
        state.check_invariants()
        check_zones(state, deck)
        assert steps <= rules.info.max_steps
    for event in state.events:
        check_event(event, rules.players, cards)
    assert state.returns() == state.scores_from_rules()
    return state


# ---- options ------------------------------------------------------------------------------------


def test_options_are_declared_and_validated(db):
    assert [o.name for o in make_rules(load_game(db, "accusation"), {}).OPTIONS] == ["mode", "cults"]
    with pytest.raises(PnpError, match=r"accusation: unknown option 'cult' \(allowed: cults, mode\)"):
        make_rules(load_game(db, "accusation"), {"cult": "鴉教團,鴉教團"})
    with pytest.raises(PnpError, match=r"option 'mode' got '3v3' \(allowed: duel, 2v2\)"):
        make_rules(load_game(db, "accusation"), {"mode": "3v3"})
    with pytest.raises(PnpError, match="unknown cult '狼群'"):
        make_rules(load_game(db, "accusation"), {"cults": "鴉教團,狼群"})
    with pytest.raises(PnpError, match="needs 2 cult names"):
        make_rules(load_game(db, "accusation"), {"cults": "鴉教團"})
    with pytest.raises(PnpError, match="team-mates"):
        make_rules(load_game(db, "accusation"), {"mode": "2v2", "cults": "鴉教團,白狐神社,鴉教團,白狐神社"})
    with pytest.raises(PnpError, match="not 4"):
        make_rules(load_game(db, "accusation"), {}).new_initial_state(4)


def test_player_counts_follow_the_mode_within_the_games_table(db):
    duel, team = (
        make_rules(load_game(db, "accusation"), {}),
        make_rules(load_game(db, "accusation"), {"mode": "2v2"}),
    )
    assert (duel.info.players_min, duel.info.players_max) == (2, 2)
    assert (team.info.players_min, team.info.players_max) == (4, 4)
    assert team.info.options == {"mode": "2v2", "cults": "鴉教團,白狐神社,白狐神社,鴉教團"}
    same = make_rules(
        load_game(db, "accusation"), {"cults": "鴉教團，鴉教團"}
    )  # two boxes of one cult: copies numbered apart
    assert len(set(same.deck())) == 48


def test_the_registry_finds_the_package(db):
    rules = load_rules(db, "accusation", {"mode": "duel"})
    assert rules.USED.keys() == {"follower", "location", "magic", "ritual", "leader"}


# ---- observation -----------------------------------------------------------------------------------


def test_observation_holds_own_hand_and_public_piles_only(db):
    rules = make_rules(load_game(db, "accusation"), {})
    state = main_decision(rules)
    for seat in (0, 1):
        obs = state.observation(seat)
        check_observation(obs, seat)
        assert obs.hand == tuple(board.pile(state, seat, "hand"))
        other = 1 - seat
        hidden = (
            set(board.pile(state, other, "hand"))
            | set(board.pile(state, other, "deck"))
            | set(board.pile(state, seat, "deck"))
        )
        seen = set(obs.hand) | {c for piles in obs.public for _, cards in piles for c in cards}
        assert hidden and not hidden & seen
        assert obs.hand_counts[other] == board.count(state, other, "hand")
        assert obs.deck_counts[seat] == board.count(state, seat, "deck")
        assert {name for name, _ in obs.public[other]} == {
            "field",
            "discard",
            "conspiracy",
            "exile",
            "score",
            "aside",
            "stack",
        }


def test_observation_is_a_snapshot_nothing_of_the_state(db):
    rules = make_rules(load_game(db, "accusation"), {})
    state = main_decision(rules)
    obs = state.observation(0)
    values = [getattr(obs, f.name) for f in dataclasses.fields(obs)]
    assert not any(v is state or v is state.zones_ for v in values)
    # the marks may be shared only because they are immutable (the state replaces them)
    assert isinstance(state.guilty, frozenset) and isinstance(obs.guilty, frozenset)
    with pytest.raises(AttributeError):
        state.guilty.add(0)
    with pytest.raises(TypeError):
        state.garrisoning[0] = 1
    before = obs.hand
    state.apply(next(a for a in state.legal_actions() if a[0] == PLAY))
    assert obs.hand == before and state.observation(0).hand != before
    with pytest.raises(dataclasses.FrozenInstanceError):
        obs.hand = ()


def test_greedy_value_reads_the_observation_only(db):
    rules = make_rules(load_game(db, "accusation"), {})
    state = main_decision(rules)
    obs, legal = state.observation(0), state.legal_actions()
    values = [rules.greedy_value(obs, a) for a in legal]
    state.apply(legal[-1])  # the position moves on; values judged from the old observation do not
    assert values == [rules.greedy_value(obs, a) for a in legal]
    assert max(values) > min(values)


# ---- events and scoring ---------------------------------------------------------------------------


def test_events_say_what_happened(db):
    rules = make_rules(load_game(db, "accusation"), {})
    state = play_out(rules, seed=5, agent="greedy")
    kinds = Counter(e.kind for e in state.events)
    assert kinds["faction"] == 2 and kinds["end"] == 1 and kinds["round"] >= 2 and kinds["used"] > 10
    rituals = [e for e in state.events if e.kind == "score"]
    assert rituals and all(e.value == 1.0 and e.text.startswith("completed ritual") for e in rituals)
    assert all(rules.defs[e.card].type == "ritual" for e in rituals)
    used_types = {rules.defs[e.card].type for e in state.events if e.kind == "used"}
    assert used_types <= set(rules.USED)
    end = [e for e in state.events if e.kind == "end"][0]
    assert ("rituals and win" in end.text) == (state.end_reason() == "rituals")


def test_accusation_is_logged_as_an_outcome_and_the_accuser_as_used(db):
    rules = make_rules(load_game(db, "accusation"), {})
    for seed in range(1, 40):
        state = play_out(rules, seed)
        accusations = [e for e in state.events if e.kind == "outcome" and "accused" in e.text]
        if accusations:
            revealed = [e for e in state.events if e.kind == "used" and "to accuse" in e.text]
            assert len(revealed) == len(accusations)
            return
    pytest.fail("no accusation in 40 random games")


def test_scores_from_rules_recompute_from_the_piles(db):
    rules = make_rules(load_game(db, "accusation"), {})
    state = play_out(rules, seed=2, agent="greedy")
    assert state.end_reason() == "rituals"
    winner = state.winners()[0]
    assert state.scores_from_rules()[winner] == 1.0
    ritual = board.pile(state, winner, "score")[0]
    board.move(state, ritual, winner, "discard")  # a tally that no longer matches the piles is caught
    assert state.scores_from_rules() != state.returns()


# ---- engine contract ---------------------------------------------------------------------------------


def test_illegal_action_is_refused(db):
    state = main_decision(make_rules(load_game(db, "accusation"), {}))
    with pytest.raises(RuleViolation):
        state.apply((RAID, 0))


def test_clone_replays_to_the_same_position(db):
    rules = make_rules(load_game(db, "accusation"), {})
    state = rules.new_initial_state(2)
    rng = random.Random(3)
    for _ in range(60):
        state.apply(rng.choice(state.legal_actions()))
    copy = state.clone()
    assert copy.zones() == state.zones() and copy.legal_actions() == state.legal_actions()


def test_unknown_effects_are_reported(db):
    assert make_rules(load_game(db, "accusation"), {}).unknown_effects() == []
    set_card(db, "accusation", "cro10", {"effect": "chant: teleport 1 | passive: shine 2"})
    unknown = make_rules(load_game(db, "accusation"), {}).unknown_effects()
    assert {(u.card_id, u.effect) for u in unknown} == {
        ("cro10", "chant: teleport 1"),
        ("cro10", "passive: shine 2"),
    }


def test_card_edits_change_the_engine(db):
    assert make_rules(load_game(db, "accusation"), {}).defs["fox08"].garrison == 3
    set_card(db, "accusation", "fox08", {"garrison": 1, "volume": 4})
    definition = make_rules(load_game(db, "accusation"), {}).defs["fox08"]
    assert definition.garrison == 1 and definition.volume == 4


# ---- sample play ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "seeds", "agent"),
    [
        ({}, range(20), "random"),
        ({}, range(8), "greedy"),
        ({"mode": "2v2"}, range(6), "random"),
        ({"mode": "2v2"}, range(4), "greedy"),
        ({"cults": "白狐神社,白狐神社"}, range(6), "random"),
    ],
)
def test_sample_games_conserve_cards_and_end(db, options, seeds, agent):
    rules = make_rules(load_game(db, "accusation"), options)
    for seed in seeds:
        state = play_out(rules, seed, agent)
        assert len(state.winners()) == rules.players // 2


def test_runner_plays_mixed_tables(db):
    rules = make_rules(load_game(db, "accusation"), {})
    for seed in range(5):
        result = play_game(rules, 2, seed, ["random", "greedy"])
        assert result.completed, result.failure
        assert result.factions == {0: "鴉教團", 1: "白狐神社"}


def test_default_run_uses_every_card_and_greedy_beats_random(db):
    """Like a default `pnp check`: 100 games, mixed agents rotating seats."""
    rules = make_rules(load_game(db, "accusation"), {})
    used: Counter[str] = Counter()
    greedy_wins = 0
    for index in range(100):
        agents = seat_agents("mixed", 2, index)
        result = play_game(rules, 2, 1 + index, agents)
        assert result.completed, result.failure
        used.update(result.used)
        greedy_wins += agents[result.winners[0]] == "greedy"
    expected = {c.id for c in repo.list_cards(db, "accusation") if c.copies > 0}
    assert expected and not {c for c in expected if not used[c]}
    assert greedy_wins >= 75


@pytest.mark.slow
def test_many_sample_games(db):
    for options, games in (({}, 400), ({"cults": "白狐神社,白狐神社"}, 150), ({"mode": "2v2"}, 100)):
        rules = make_rules(load_game(db, "accusation"), options)
        for seed in range(games):
            for agent in ("random", "greedy"):
                result = play_game(rules, rules.players, seed, [agent] * rules.players)
                assert result.completed, (options, seed, agent, result.failure)
