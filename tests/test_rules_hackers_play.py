"""League of Hackers engine: observations, events, options, data binding and seeded play."""

from __future__ import annotations

import random
import sqlite3
from collections import Counter

import pytest

from pnpforge.errors import PnpError
from pnpforge.rules.engine import CHANCE, RuleViolation
from pnpforge.rules.games.hackers import board
from pnpforge.rules.games.hackers.data import ATTACK, REPAIR
from pnpforge.rules.kit import DeckError, check_observation, observation_leak
from pnpforge.rules.runner import check_zones, play_game
from test_rules_hackers_positions import fresh, load, pay_first, plain_attacks, play, position


@pytest.fixture
def rules(shipped_db):
    return load(shipped_db)


# ---- observation -------------------------------------------------------------------------------


def test_observation_hides_other_hands_and_earlier_secret_choices(rules):
    first = plain_attacks(rules, 3)
    second = plain_attacks(rules, 2, exclude=first)
    st = position(
        rules,
        3,
        hands={0: first, 1: second},
        servers={0: [("S-01", None)], 1: [("S-02", None)], 2: [("S-03", None)]},
    )
    play(st, ("board", REPAIR), ("amount", 2))
    pay_first(st)
    assert st.decision.seat == 1
    obs = st.observation(1)
    check_observation(obs, 1)
    assert observation_leak(obs) is None
    assert obs.boards[0] == (-1, 2, ())  # face down: only how many cards
    assert obs.hand == tuple(sorted(second))
    secret = {c.card for c in st.piles.pile("board:0")}
    flat = repr(obs)
    assert not any(cid in flat for cid in secret - set(second))
    assert obs.hand_sizes[0] == 1 and obs.deck_size == st.piles.count("deck")
    mine = st.observation(0)
    assert mine.boards[0][0] == REPAIR and mine.my_board == REPAIR
    assert isinstance(rules.greedy_value(obs, st.legal_actions()[0]), float | int)


def test_revealed_board_shows_its_cards_only_when_that_seat_resolves(rules):
    multi = next(a for a, spec in sorted(rules.catalogue.attack.items()) if len(spec.colours) > 1)
    first = [multi, *plain_attacks(rules, 2, exclude=[multi])]
    second = plain_attacks(rules, 2, exclude=first)
    st = position(
        rules,
        3,
        hands={0: first, 1: second},
        servers={0: [("S-01", None)], 1: [("S-02", None)], 2: [("S-03", None)]},
    )
    play(st, ("board", ATTACK), ("attack", multi, 1))
    pay_first(st)
    play(st, ("board", REPAIR), ("amount", 1))
    pay_first(st)
    assert st.decision.kind == "colour" and st.decision.seat == 0  # attacks resolve before repairs
    seen = st.observation(2)
    assert seen.boards[0] == (ATTACK, 2, tuple(sorted(c.card for c in st.piles.pile("board:0"))))
    assert seen.boards[1] == (REPAIR, 1, ())  # turned over, not yet resolved
    assert seen.boards[2] == (-1, 0, ())


def test_observation_is_plain_data_at_every_step(rules):
    rng = random.Random(5)
    st = rules.new_initial_state(3, rng)
    while not st.is_terminal():
        for seat in range(3):
            check_observation(st.observation(seat), seat)
        acts = st.legal_actions()
        st.apply(acts[rng.randrange(len(acts))])


def test_public_views_kept_between_steps_are_never_stale(rules):
    """The state keeps the servers and tableaux it shows until they change; recomputed they agree."""

    def fresh_views(st):
        servers = tuple(tuple((sv.card.card, tuple(sv.damage)) for sv in owner) for owner in st.servers)
        tableaux = tuple(
            tuple((c.card, c in st.tapped) for c in st.piles.pile(name)) for name in st.tableau_pile
        )
        assert (board.servers_seen(st), board.tableaux_seen(st)) == (servers, tableaux)

    for seed, agent in ((1, "random"), (2, "greedy"), (3, "random")):
        players = 2 + seed % 3
        result = play_game(rules, players, seed, [agent] * players, checker=fresh_views)
        assert result.completed, result.failure


# ---- events ------------------------------------------------------------------------------------


def test_events_say_what_was_used_and_scores_add_up(rules):
    result = play_game(rules, 3, 11, ["greedy"] * 3)
    assert result.completed, result.failure
    assert result.used and set(result.used) <= {c.card for c in rules.deck()}
    st = rules.new_initial_state(3, random.Random(11))
    rng = random.Random(11)
    while not st.is_terminal():
        acts = st.legal_actions()
        st.apply(acts[rng.randrange(len(acts))])
    points = Counter()
    for event in st.events:
        if event.kind == "score":
            points[event.seat] += event.value
    assert [points[s] for s in range(3)] == st.returns()
    kinds = Counter(e.kind for e in st.events)
    assert kinds["used"] and kinds["outcome"] and kinds["round"] >= 3 and kinds["end"] == 1
    used_types = {
        next(
            t
            for t, ids in (
                ("defence", rules.catalogue.defence),
                ("attack", rules.catalogue.attack),
                ("server", rules.catalogue.server),
            )
            if e.card in ids
        )
        for e in st.events
        if e.kind == "used"
    }
    assert used_types == set(rules.USED)


def test_scores_from_rules_do_not_follow_the_running_tally(rules):
    rng = random.Random(2)
    st = rules.new_initial_state(2, rng)
    while not st.is_terminal():
        acts = st.legal_actions()
        st.apply(acts[rng.randrange(len(acts))])
    assert st.scores_from_rules() == st.returns()
    st.vp[0] += 1
    assert st.scores_from_rules() != st.returns()
    st.vp[0] -= 1
    st.snapshots[0][0] = ((), 0)  # a round's servers forgotten: the recount drops
    assert st.scores_from_rules()[0] < st.returns()[0]


# ---- options -----------------------------------------------------------------------------------


def test_unknown_option_and_bad_handicap_are_refused(shipped_db):
    with pytest.raises(PnpError, match=r"hackers: unknown option 'rounds' \(allowed: handicap\)"):
        load(shipped_db, {"rounds": "2"})
    for bad in ("4", "x", "1,-1", "1,,2"):
        with pytest.raises(PnpError, match="option 'handicap'"):
            load(shipped_db, {"handicap": bad})
    rules = load(shipped_db, {"handicap": "1,0,0"})
    with pytest.raises(PnpError, match="gives 3 seats, the game has 2 players"):
        rules.new_initial_state(2, random.Random(0))
    with pytest.raises(PnpError, match="hackers is for 2–4 players, got 5"):
        rules.new_initial_state(5, random.Random(0))


def test_handicap_draws_extra_cards_then_discards_back_to_eight(shipped_db):
    rules = load(shipped_db, {"handicap": "3,0,1"})
    st = rules.new_initial_state(3, random.Random(4))
    while st.decision.kind == "draw":
        st.apply(st.legal_actions()[0])
    assert [st.piles.count(f"hand:{s}") for s in range(3)] == [11, 8, 9]
    assert st.decision.kind == "discard" and st.decision.seat == 0
    deck_before = st.piles.count("deck")
    while st.decision.kind == "discard":
        st.apply(st.legal_actions()[0])
    assert [st.piles.count(f"hand:{s}") for s in range(3)] == [8, 8, 8]
    assert st.piles.count("deck") == deck_before + 4  # the discards go back into the deck
    assert st.decision.kind == "setup"
    check_zones(st, Counter(rules.deck()))
    result = play_game(rules, 3, 4, ["greedy"] * 3)
    assert result.completed, result.failure


# ---- legality and data binding -----------------------------------------------------------------


def test_illegal_action_is_refused(rules):
    st = fresh(rules, 3)
    with pytest.raises(RuleViolation):
        st.apply(("board", 99))


def test_database_edit_changes_the_engine(shipped_db):
    conn = sqlite3.connect(shipped_db)
    conn.execute(
        "UPDATE cards SET fields = json_set(fields, '$.defence', 3) WHERE game = 'hackers' AND id = 'D-10R'"
    )
    conn.execute(
        "UPDATE cards SET fields = json_set(fields, '$.effect', 'mystery') "
        "WHERE game = 'hackers' AND id = 'D-04B'"
    )
    conn.commit()
    conn.close()
    rules = load(shipped_db)
    st = position(rules, 3, tableau={2: ["D-10R"]}, hands={0: plain_attacks(rules, 2)})
    assert board.defence_of(st, 2, "Y") == 3
    assert [u.card_id for u in rules.unknown_effects()] == ["D-04B"]


def test_malformed_card_is_one_line_naming_card_and_field(shipped_db):
    conn = sqlite3.connect(shipped_db)
    conn.execute(
        "UPDATE cards SET fields = json_set(fields, '$.attack_2', 'lots') "
        "WHERE game = 'hackers' AND id = (SELECT min(id) FROM cards WHERE game = 'hackers' "
        "AND type = 'attack')"
    )
    conn.commit()
    conn.close()
    with pytest.raises(DeckError, match=r"card A-\S+: field 'attack_2' must be an integer"):
        load(shipped_db)


def test_every_effect_is_known(rules):
    assert rules.unknown_effects() == []
    assert len(rules.deck()) == 90


# ---- seeded play through the runner ---------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_and_greedy_games_complete_under_every_check(rules, players):
    for seed in range(4):
        for agent in ("random", "greedy"):
            result = play_game(rules, players, seed, [agent] * players)
            assert result.completed, f"seed {seed}: {result.failure}"
            assert result.end_reason == "three rounds played" and result.winners


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
def test_many_random_games(rules, players):
    for seed in range(150):
        result = play_game(rules, players, 1000 + seed, ["random"] * players)
        assert result.completed, f"seed {1000 + seed}: {result.failure}"


def test_chance_draws_follow_the_deck(rules):
    st = rules.new_initial_state(3, random.Random(0))
    assert st.current_player() == CHANCE
    outcomes = st.chance_outcomes()
    assert abs(sum(p for _, p in outcomes) - 1) < 1e-9
    counts = Counter(c.card for c in st.piles.pile("deck"))
    assert all(p == counts[a[1]] / st.piles.count("deck") for a, p in outcomes)
