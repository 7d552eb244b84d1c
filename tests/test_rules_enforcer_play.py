"""Top Enforcement Officer (王牌執行官) rules engine: data, options, observation, events and sample play."""

from __future__ import annotations

import dataclasses
import random
from collections import Counter

import pytest

from enforcer_positions import QUIET_TABLE, act, deal_game, feed, ob, settle
from pnpforge.errors import PnpError
from pnpforge.rules.engine import CHANCE, RuleViolation
from pnpforge.rules.games.enforcer import EnforcerState, flow, make_rules
from pnpforge.rules.kit import check_observation, load_game
from pnpforge.rules.runner import play_game
from pnpforge.store import repo
from pnpforge.store.db import open_db, transaction


@pytest.fixture
def db(shipped_db):
    return open_db(shipped_db)


@pytest.fixture
def rules(db):
    return make_rules(load_game(db, "enforcer"), {})


# ---- data-driven, options, errors --------------------------------------------------------


def test_engine_reads_card_values_from_the_database(shipped_db):
    db = open_db(shipped_db)
    card = repo.get_card(db, "enforcer", "EX-seize-land")
    card.fields["power"] = 5
    with transaction(db) as conn:
        repo.update_card(conn, card)
    st = deal_game(
        make_rules(load_game(db, "enforcer"), {}),
        hands={0: ["EX-seize-land"]},
        table=["OB-02", *QUIET_TABLE[:3]],
    )
    act(st, "execute", ob("OB-02"))
    act(st, "play", "EX-seize-land")
    assert st.execution_power() == 10


def test_unknown_effects_are_reported(shipped_db):
    db = open_db(shipped_db)
    card = repo.get_card(db, "enforcer", "EX-sale")
    card.fields["effect"] = "teleport"
    with transaction(db) as conn:
        repo.update_card(conn, card)
    unknown = make_rules(load_game(db, "enforcer"), {}).unknown_effects()
    assert [(u.card_id, u.effect) for u in unknown] == [("EX-sale", "teleport")]


def test_bad_card_data_and_options_are_clear_errors(shipped_db):
    db = open_db(shipped_db)
    with pytest.raises(
        PnpError, match="enforcer: unknown option 'speed' \\(allowed: auction_power, max_steps, max_turns\\)"
    ):
        make_rules(load_game(db, "enforcer"), {"speed": 1})
    card = repo.get_card(db, "enforcer", "PEN")
    card.fields["track"] = "-1 -3"
    with transaction(db) as conn:
        repo.update_card(conn, card)
    with pytest.raises(PnpError, match="PEN.*track"):
        make_rules(load_game(db, "enforcer"), {})


def test_turn_cap_option_ends_a_stuck_game(db):
    capped = make_rules(load_game(db, "enforcer"), {"max_turns": 2})
    st = deal_game(capped)
    for _ in range(2):  # seat 0, then seat 1: research
        for _ in range(2):
            act(st, "research")
            settle(st)
        act(st, "end_turn")
        while st.phase == "discard":
            act(st, "discard", st.legal_actions()[0][1])
        settle(st)
    assert st.is_terminal() and st.end_reason() == "turn_limit"


def test_notice_only_enables_arrest_in_the_same_turn(rules):
    st = deal_game(rules, hands={0: ["EX-notice", "EX-arrest"]}, table=["OB-06", *QUIET_TABLE[:3]])
    act(st, "execute", ob("OB-06"))
    feed(st, "OBJ-dismissed")
    act(st, "play", "EX-notice")
    settle(st)
    act(st, "resolve")
    settle(st)
    flow.begin_turn(st, 0)  # a new day for seat 0
    settle(st)
    act(st, "execute", ob("OB-06"))
    settle(st)
    assert ("play", "EX-arrest") not in st.legal_actions()


def test_illegal_action_is_refused(rules):
    st = deal_game(rules)
    with pytest.raises(RuleViolation):
        st.apply(("execute", "OB-28#0"))


def test_observation_holds_the_own_hand_and_public_facts_only(rules):
    st = deal_game(rules, hands={1: ["EX-award", "EX-detain"]})
    obs = st.observation(1)
    assert obs.seat == 1 and sorted(obs.hand) == sorted(c.card for c in st.hand(1))
    assert obs.hand_sizes == tuple(len(st.hand(s)) for s in range(3))
    assert obs.table == tuple(str(c) for c in st.table())
    assert obs.officers == tuple(st.officer_card(s).card for s in range(3))
    check_observation(obs, 1)  # plain immutable data: no state, pile or list reachable
    hidden = {c.card for c in st.hand(0)} | {c.card for c in st.piles.pile("exec_deck")}
    seen = set(flatten(obs)) - set(obs.hand)
    assert not any(cid in seen for cid in hidden - set(obs.hand) - {c.card for c in st.hand(1)})
    assert obs.exec_deck_size == st.piles.count("exec_deck")


def test_observation_names_every_field_and_equals_the_checked_constructor(rules):
    """`observe` fills the instance directly: every field must be set, and the result must equal
    what `Observation.of` (which checks the field names) builds from the same values."""
    st = deal_game(rules, hands={1: ["EX-award", "EX-detain"]})
    obs = st.observation(1)
    names = {f.name for f in dataclasses.fields(obs)}
    assert set(vars(obs)) == names
    assert type(obs).of(**{name: getattr(obs, name) for name in names}) == obs


def flatten(value):
    """Every atom reachable from an observation."""
    if isinstance(value, tuple | frozenset | list):
        for item in value:
            yield from flatten(item)
    elif hasattr(value, "__dataclass_fields__"):
        for name in value.__dataclass_fields__:
            yield from flatten(getattr(value, name))
    else:
        yield value


def test_greedy_value_depends_on_the_observation_alone(rules):
    st = deal_game(rules, hands={0: ["EX-seize-land", "EX-sale"]}, table=["OB-02", *QUIET_TABLE[:3]])
    obs = st.observation(0)
    before = {a: rules.greedy_value(obs, a) for a in st.legal_actions()}
    for card in list(st.hand(1)):  # another seat's hidden cards change: the values do not
        st.piles.move(card, "hand:1", "exec_discard")
    assert {a: rules.greedy_value(obs, a) for a in before} == before
    assert before[("execute", ob("OB-02"))] > before[("research",)] > 0  # 4×2 against 難度 5: a sure win
    assert max(before, key=before.get)[0] == "execute"


# ---- random play -------------------------------------------------------------------------


def drive(rules, players: int, seed: int, greedy: bool = False) -> EnforcerState:
    """One game with seeded random (or greedy) choices, checking every step."""
    rng = random.Random(seed)
    deck = Counter(rules.deck())
    st = rules.new_initial_state(players, rng)
    for _ in range(rules.info.max_steps):
        if st.is_terminal():
            break
        seen: Counter = Counter()
        for cards in st.zones().values():
            seen.update(cards)
        assert seen == deck, f"seed {seed}: card conservation broken"
        legal = st.legal_actions()
        assert legal and legal == sorted(legal)
        if st.current_player() == CHANCE:
            ids, weights = zip(*st.chance_outcomes(), strict=True)
            action = rng.choices(ids, weights)[0]
        elif greedy:
            obs = st.observation(st.current_player())
            values = [rules.greedy_value(obs, a) for a in legal]
            action = legal[values.index(max(values))]
        else:
            action = rng.choice(legal)
        st.apply(action)
        st.check_invariants()
    assert st.is_terminal(), f"seed {seed}: no end within {rules.info.max_steps} steps"
    assert st.returns() == st.scores_from_rules()
    assert st.winners() and all(not st.out_of_game[s] for s in st.winners())
    return st


def test_random_games_conserve_cards_and_end(rules):
    reasons = Counter()
    for seed in range(40):
        st = drive(rules, 3 + seed % 4, seed)
        reasons[st.end_reason()] += 1
    assert set(reasons) <= {"table", "last_player", "turn_limit"}


def test_greedy_games_mostly_end_by_running_out_of_obligors(rules):
    reasons = Counter(drive(rules, 3 + seed % 4, seed, greedy=True).end_reason() for seed in range(12))
    assert reasons["table"] >= 6


def test_runner_plays_mixed_games_without_failures(rules):
    for seed in range(10):
        n = 3 + seed % 4
        res = play_game(rules, n, seed, (["random", "greedy"] * 3)[:n])
        assert res.completed, res.failure


def test_pnp_check_passes(run, shipped_db):
    result = run("--db", shipped_db, "check", "enforcer", "-n", "24")
    assert result.exit_code == 0, result.output


@pytest.mark.slow
def test_many_random_and_greedy_games(rules):
    for seed in range(400):
        drive(rules, 3 + seed % 4, 1000 + seed, greedy=seed % 3 == 0)


# ---- events and options --------------------------------------------------------------------


def test_an_execution_records_what_was_used_and_what_happened(rules):
    st = deal_game(rules, hands={0: ["EX-seize-land"]}, table=["OB-02", *QUIET_TABLE[:3]])
    start = len(st.events)
    act(st, "execute", ob("OB-02"))
    act(st, "play", "EX-seize-land")
    act(st, "resolve")
    new = [(e.kind, e.seat, e.card) for e in st.events[start:]]
    assert ("used", 0, "EX-seize-land") in new and ("used", 0, "OB-02") in new
    assert ("score", 0, "OB-02") in new
    texts = [e.text for e in st.events[start:] if e.kind == "outcome"]
    assert any("succeeds: power 8 vs difficulty 5" in t for t in texts)


def test_failures_penalties_and_elimination_are_events(rules):
    st = deal_game(rules)
    st.penalties[0] = 4
    act(st, "execute", ob("OB-03"))
    act(st, "resolve")
    kinds = [(e.kind, e.seat) for e in st.events]
    assert ("eliminated", 0) in kinds
    assert any(e.kind == "outcome" and "penalty 5: failed to execute" in e.text for e in st.events)


def test_score_events_add_up_to_the_final_scores(rules):
    for seed in range(6):
        st = drive(rules, 3 + seed % 4, seed, greedy=seed % 2 == 0)
        totals = [0.0] * st.players
        for event in st.events:
            if event.kind == "score":
                totals[event.seat] += event.value
        assert totals == st.returns()
        assert [e.kind for e in st.events].count("end") == 1 and st.events[-1].kind == "end"


def test_every_used_event_is_a_declared_kind_of_use(rules):
    st = drive(rules, 4, 3)
    kinds = {rules.cards.kind[e.card] for e in st.events if e.kind == "used"}
    assert kinds <= set(rules.USED) and {"execution", "officer", "penalty", "objection"} <= kinds


def test_options_are_typed_and_validated(db):
    assert (
        make_rules(load_game(db, "enforcer"), {"max_turns": "5"}).max_turns == 5
    )  # strings from the command line
    with pytest.raises(PnpError, match="enforcer: option 'max_turns' is 0, below the minimum 1"):
        make_rules(load_game(db, "enforcer"), {"max_turns": "0"})
    with pytest.raises(PnpError, match="enforcer: option 'max_steps' got 'many'"):
        make_rules(load_game(db, "enforcer"), {"max_steps": "many"})
