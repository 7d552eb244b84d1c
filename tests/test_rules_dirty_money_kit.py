"""Dirty Money (洗钱) on the engine kit: options, observations, events, greedy play, and the deck
mistakes the rules checker must catch through this engine (a card no game can use, a villain whose
power cannot fire, a deck no one can finish, villains sharing an order, art cards disagreeing).

Mistakes are made in a private copy of cards.db with values inside the fields' limits, so the
card validator accepts them and only the engine can tell they break the game.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from pnpforge.errors import PnpError
from pnpforge.rules.check import CheckOptions, run_check
from pnpforge.rules.engine import CHANCE, State
from pnpforge.rules.games.dirty_money import DirtyMoneyState, board, make_rules
from pnpforge.rules.games.dirty_money.agents import DirtyMoneyObservation
from pnpforge.rules.kit import DeckError, check_observation, load_game, observation_leak
from pnpforge.rules.runner import play_game
from pnpforge.store import repo
from pnpforge.store.db import open_db, transaction

SLUG = "dirty-money"


@pytest.fixture
def db(shipped_db):
    return open_db(shipped_db)


def pin(db, card_id: str, **fields: Any) -> None:
    """Set field values on a card of the private database copy."""
    card = repo.get_card(db, SLUG, card_id)
    card.fields.update(fields)
    with transaction(db) as conn:
        repo.update_card(conn, card)


def start(rules, players: int) -> DirtyMoneyState:
    """Set-up with the first chance outcome everywhere, up to the first player's first decision."""
    state = rules.new_initial_state(players, random.Random(0))
    while state.phase() != "turn" or state.current_player() == CHANCE:
        state.apply(state.legal_actions()[0])
    return state


class LastState:
    """A runner checker that keeps the state it last saw (the final one once the game ends)."""

    def __init__(self) -> None:
        self.state: State | None = None

    def __call__(self, state: State) -> None:
        self.state = state


# ---- options and players --------------------------------------------------------------------


def test_options_are_declared_typed_and_validated(db):
    rules = make_rules(load_game(db, "dirty-money"), {"quick": "true", "max_rounds": "12"})
    assert rules.info.options == {"quick": True, "selection": False, "max_rounds": 12}
    assert rules.end_target == 8 and rules.max_rounds == 12
    assert [o.name for o in rules.OPTIONS] == ["quick", "selection", "max_rounds"]
    with pytest.raises(PnpError, match=r"unknown option 'turbo' \(allowed: max_rounds, quick, selection\)"):
        make_rules(load_game(db, "dirty-money"), {"turbo": "1"})
    with pytest.raises(PnpError, match=r"option 'selection' got 'maybe' \(allowed: true, false\)"):
        make_rules(load_game(db, "dirty-money"), {"selection": "maybe"})
    with pytest.raises(PnpError, match="max_rounds' is 0, below the minimum 1"):
        make_rules(load_game(db, "dirty-money"), {"max_rounds": 0})


def test_player_counts_come_from_the_games_table(db):
    rules = make_rules(load_game(db, "dirty-money"), {})
    assert (rules.info.players_min, rules.info.players_max) == (2, 5)
    with pytest.raises(PnpError, match="dirty-money is for 2–5 players, got 6"):
        rules.new_initial_state(6, random.Random(0))


# ---- observation ----------------------------------------------------------------------------


def test_observation_is_pure_data_holding_own_hand_and_public_counts(db):
    state = start(make_rules(load_game(db, "dirty-money"), {}), 3)
    for seat in range(3):
        obs = state.observation(seat)
        assert isinstance(obs, DirtyMoneyObservation)
        check_observation(obs, seat)
        assert observation_leak(obs) is None
        assert obs.hand == tuple(sorted(c.card for c in board.cards(state, f"hand:{seat}")))
        assert obs.table.hand_sizes == tuple(len(board.cards(state, f"hand:{q}")) for q in range(3))
        assert obs.table.villains == tuple(state.villain_of)


def test_other_hands_are_unreachable_from_an_observation(db):
    """Changing what another seat holds (same count) leaves this seat's observation unchanged."""
    state = start(make_rules(load_game(db, "dirty-money"), {}), 3)
    seen_by_1, seen_by_2 = state.observation(1), state.observation(2)
    hand = board.cards(state, "hand:2")
    swapped = hand[0].card
    replacement = next(cid for cid in ("EUR-5D", "JPY-5D", "USD-5D") if cid not in state.piles.ids("hand:2"))
    state.piles.move(hand[0], "hand:2", "money_deck")
    state.place(replacement, "hand:2")
    assert state.observation(1) == seen_by_1
    assert state.observation(2).hand != seen_by_2.hand and swapped != replacement


# ---- greedy play ----------------------------------------------------------------------------


def test_greedy_goes_where_it_can_buy_rather_than_to_the_most_cash(db):
    rules = make_rules(load_game(db, "dirty-money"), {})
    state = start(rules, 2)
    seat = state.current_player()
    for pile, cards in ((f"hand:{seat}", ("USD-4", "USD-4")), ("display:美国", ("US-ART-4",))):
        state.clear(pile)
        for card_id in cards:
            state.place(card_id, pile)
    state.clear("spot:LOC-US")
    state.place("JPY-1", "spot:LOC-US")
    state.clear("spot:LOC-EU")
    for card_id in ("JPY-5", "JPY-4", "JPY-3"):  # more cash, but nothing it buys in Europe
        state.place(card_id, "spot:LOC-EU")
    obs = state.observation(seat)
    cost = rules.placements["US-ART-4"].cost
    assert cost <= 8
    assert rules.greedy_value(obs, ("go", "LOC-US")) > rules.greedy_value(obs, ("go", "LOC-EU"))


def test_greedy_values_of_a_decision_equal_each_action_valued_alone(db):
    """The decision-wide valuation shares work between actions, never changes a value."""
    rules = make_rules(load_game(db, "dirty-money"), {})
    rng = random.Random(7)
    state = rules.new_initial_state(3, rng)
    compared = set()
    for _ in range(2000):
        if state.is_terminal():
            break
        seat, legal = state.current_player(), state.legal_actions()
        if seat == CHANCE:
            state.apply(rng.choice(legal))
            continue
        obs = state.observation(seat)
        values = rules.greedy_values(obs, legal)
        assert values == [rules.greedy_value(obs, action) for action in legal]
        compared.update(action[0] for action in legal)
        state.apply(legal[values.index(max(values))])
    assert {"go", "pick", "pay"} <= compared


def test_greedy_tables_beat_random_ones_and_always_finish(db):
    rules = make_rules(load_game(db, "dirty-money"), {})
    greedy_wins = 0
    for seed in range(1, 13):
        players = 2 + seed % 4
        agents = ["greedy" if (q + seed) % 2 else "random" for q in range(players)]
        result = play_game(rules, players, seed, agents)
        assert result.completed and result.end_reason == "placement target", result.failure
        greedy_wins += agents[result.winners[0]] == "greedy"
    assert greedy_wins >= 10


# ---- events ---------------------------------------------------------------------------------


def test_events_say_what_happened_and_scores_add_up(db):
    rules = make_rules(load_game(db, "dirty-money"), {})
    last = LastState()
    result = play_game(rules, 4, 7, ["greedy", "random", "greedy", "random"], checker=last)
    assert result.completed, result.failure
    state = last.state
    assert isinstance(state, DirtyMoneyState)
    events = state.events
    kinds = {event.kind for event in events}
    assert {"used", "outcome", "score", "round", "end", "faction"} <= kinds
    assert [e.kind for e in events].count("end") == 1 and events[-1].kind == "end"
    assert sum(e.kind == "round" for e in events) == state.round_number
    assert sorted(e.text for e in events if e.kind == "faction") == sorted(
        f"{rules.villains[v].name} ({v})" for v in state.villain_of if v
    )
    for seat in range(4):
        points = sum(e.value or 0 for e in events if e.kind == "score" and e.seat == seat)
        assert points == result.returns[seat]
        bought = sorted(
            e.card for e in events if e.kind == "used" and e.seat == seat and e.card in rules.placements
        )
        assert bought == sorted(c.card for c in board.cards(state, f"tableau:{seat}"))
    types = {**{c: "placement" for c in rules.placements}, **{v: "villain" for v in rules.villains}}
    types |= {c: ("action" if m.is_action else "currency") for c, m in rules.money.items()}
    types |= {loc.id: "location" for loc in rules.locations}
    assert {types[e.card] for e in events if e.kind == "used" and e.card} <= set(rules.USED)


def test_scores_from_rules_catch_a_marker_the_ledger_missed(db):
    state = start(make_rules(load_game(db, "dirty-money"), {}), 2)
    assert state.returns() == state.scores_from_rules()
    state.piles.move(
        board.cards(state, "money_deck")[0], "money_deck", "blacklist:0"
    )  # a card no rule placed
    assert state.returns() != state.scores_from_rules()


# ---- deck mistakes the checker catches through this engine -----------------------------------


def _check(db_path, games: int, **options: Any) -> dict[str, Any]:
    return run_check(db_path, SLUG, CheckOptions(games=games, strict=True, options=dict(options)))


def test_the_shipped_deck_uses_every_card_in_a_default_check(shipped_db):
    report = _check(shipped_db, 100)
    assert report["ok"], report["errors"]
    assert report["simulation"]["never_used"] == []
    assert report["simulation"]["failed"] == 0


def test_a_card_hardly_any_hand_can_afford_is_nearly_useless(db, shipped_db):
    """Cost 20 is still payable with a rich hand (about 7 games in 1,000): not "never used", but
    used so much less than the other placements that strict fails on strong evidence."""
    pin(db, "US-ART-4", cost=20)
    report = _check(shipped_db, 30)
    sim = report["simulation"]
    assert "US-ART-4" in sim["missed_in_plan"] and "US-ART-4" in sim["aimed"]["found"]
    assert [u["card"] for u in sim["low_use"] if u["strong"]] == ["US-ART-4"]
    assert not report["ok"]


def test_a_villain_whose_power_cannot_fire_is_never_used(db, shipped_db):
    pin(db, "V5", effect_value=0)  # the Loan Shark's "any card as $0" pays nothing
    report = _check(shipped_db, 30)
    assert report["simulation"]["never_used"] == ["V5"]


def test_a_deck_no_one_can_finish_fails_its_games(db, shipped_db):
    for card in repo.list_cards(db, SLUG, "placement"):
        pin(db, card.id, cost=20)
    report = _check(shipped_db, 2, max_rounds=6)
    assert report["simulation"]["failed"] == 2
    assert any("did not end in 6 rounds" in error for error in report["errors"])


def test_two_villains_sharing_an_order_are_refused(db, shipped_db):
    pin(db, "V3", order=2)
    with pytest.raises(DeckError, match="cards V2, V3: field 'order' is 2 on each"):
        make_rules(load_game(db, "dirty-money"), {})
    report = _check(shipped_db, 4)
    assert any("V2, V3" in error for error in report["errors"])


def test_art_cards_disagreeing_on_their_set_table_are_refused(db):
    pin(db, "EU-ART-1", set_scores="2,5,9,14,21")
    with pytest.raises(DeckError, match="art cards disagree on field 'set_scores'"):
        make_rules(load_game(db, "dirty-money"), {})
