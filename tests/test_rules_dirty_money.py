"""Dirty Money (洗钱) rules engine: set-up, buying, turn structure, the FAQ, data and random play.

Positions are built from a real set-up (copy of cards.db, first chance outcome each time)
and then arranged with `state.place` / `state.clear`, which keep every card in one zone.
Values a test depends on are pinned in the test's private database copy, so the designed
(provisional) card values can change without breaking what the rulebook says.  Effects and
action cards are in `test_rules_dirty_money_effects`, villains in `..._villains`.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from dirty_money_positions import (  # type: ignore[import-not-found, unused-ignore]
    SLUG,
    fill,
    finish_turn,
    ids,
    pin,
    start,
)
from pnpforge.errors import PnpError
from pnpforge.rules.engine import CHANCE, RuleViolation
from pnpforge.rules.games.dirty_money import DirtyMoneyState, board, buying, make_rules
from pnpforge.rules.kit import load_game
from pnpforge.rules.runner import play_game
from pnpforge.store import repo
from pnpforge.store.db import open_db, transaction


@pytest.fixture
def db(shipped_db):
    return open_db(shipped_db)


# ---- set-up ----------------------------------------------------------------------------------


@pytest.mark.parametrize("players, extra", [(2, set()), (3, set()), (4, {"黑市"}), (5, {"黑市", "拍卖行"})])
def test_setup_by_player_count(db, players, extra):
    rules = make_rules(load_game(db, "dirty-money"), {})
    s = start(rules, players)
    assert {loc.name for loc in s.in_play} == {"欧洲", "美国", "日本", "香蕉共和国"} | extra
    first = s.current_player()
    assert first == s.marker
    orders = [rules.villains[v].order for v in s.villain_of]
    assert orders[first] == min(orders)  # lowest villain number starts
    last = (first - 1) % players
    hands = [len(board.cards(s, f"hand:{q}")) for q in range(players)]
    assert hands[last] == 4 and all(h == 3 for q, h in enumerate(hands) if q != last)
    assert not any(
        rules.money[c.card].is_action for q in range(players) for c in board.cards(s, f"hand:{q}")
    )  # no action card dealt
    assert all(len(board.cards(s, f"spot:{loc.id}")) == 2 for loc in s.in_play)
    assert all(len(board.cards(s, f"display:{r}")) == 2 for r in ("欧洲", "日本", "美国"))
    if players == 5:
        assert sorted(rules.placements[c.card].region for c in board.cards(s, "auction")) == sorted(
            ["欧洲", "日本", "美国"]
        )
        assert len(board.cards(s, "bear")) == 3  # all five villains are dealt
    else:
        assert not board.cards(s, "auction")


def test_selection_mode_shows_three_cards_per_region(db):
    s = start(make_rules(load_game(db, "dirty-money"), {"selection": True}), 5)
    assert all(len(board.cards(s, f"display:{r}")) == 3 for r in ("欧洲", "日本", "美国"))
    assert len(board.cards(s, "auction")) == 3  # the auction house is unchanged


# ---- buying (游戏玩法—执行地点动作) -------------------------------------------------------------


def _paying_position(db):
    pin(db, "US-ART-4", cost=7)
    pin(db, "US-ART-5", cost=8)
    pin(db, "USD-5D", value=5)
    s = start(make_rules(load_game(db, "dirty-money"), {}), 2, ("V3", "V4"))
    p = s.current_player()
    fill(s, f"hand:{p}", "USD-5D", "USD-5D", "USD-5D")
    fill(s, "display:美国", "US-ART-4", "US-ART-5")
    fill(s, "spot:LOC-US", "JPY-1")
    s.apply(("go", "LOC-US"))
    return s, p


def test_paying_example_three_fives_buy_a_seven_and_an_eight_together(db):
    s, p = _paying_position(db)
    assert s.phase() == "buy"
    s.apply(("pick", "US-ART-4"))
    s.apply(("pick", "US-ART-5"))
    for _ in range(3):
        assert ("settle",) not in s.legal_actions()
        s.apply(("pay", "USD-5D", 0))
    assert ("pay", "JPY-1", 0) not in s.legal_actions()  # yen cannot pay in the USA
    s.apply(("settle",))
    assert ids(s, f"tableau:{p}") == ["US-ART-4", "US-ART-5"]
    assert ids(s, f"hand:{p}") == ["JPY-1"]
    assert ids(s, "discard") == ["USD-5D"] * 3


def test_paying_separately_would_not_buy_both(db):
    """Paying $7 with two $5 notes leaves $5: no change, and too little for the $8 card."""
    s, p = _paying_position(db)
    s.apply(("pick", "US-ART-4"))
    s.apply(("pay", "USD-5D", 0))
    s.apply(("pay", "USD-5D", 0))
    s.apply(("settle",))
    assert ids(s, f"hand:{p}") == ["JPY-1", "USD-5D"]  # the $3 overpaid is gone
    assert s.legal_actions() == [("done",)]


def test_crypto_exchange_bought_first_discounts_the_second_card(db):
    pin(db, "EU-CRY-1", cost=5)
    pin(db, "EU-ART-1", cost=5)
    pin(db, "EUR-5", value=5)
    pin(db, "EUR-4", value=4)
    rules = make_rules(load_game(db, "dirty-money"), {})
    states = []
    for first in ("EU-CRY-1", "EU-ART-1"):
        s = start(rules, 2, ("V3", "V4"))
        p = s.current_player()
        fill(s, f"hand:{p}", "EUR-5", "EUR-4")  # $9
        fill(s, "display:欧洲", "EU-CRY-1", "EU-ART-1")
        fill(s, "spot:LOC-EU", "JPY-1")
        s.apply(("go", "LOC-EU"))
        s.apply(("pick", first))
        states.append((s, p))
    (s, p), (t, _q) = states
    ex, art = rules.placements["EU-CRY-1"], rules.placements["EU-ART-1"]
    assert buying.due(s, p, [ex, art]) == 9 and buying.due(s, p, [art, ex]) == 10
    assert ("pick", "EU-ART-1") in s.legal_actions()  # exchange first: $9 is enough
    assert ("pick", "EU-CRY-1") not in t.legal_actions()  # art first: $10 is too much
    s.apply(("pick", "EU-ART-1"))
    s.apply(("pay", "EUR-5", 0))
    s.apply(("pay", "EUR-4", 0))
    s.apply(("settle",))
    assert ids(s, f"tableau:{p}") == ["EU-ART-1", "EU-CRY-1"]
    later = rules.placements["EU-ART-2"]
    assert buying.due(s, p, [later]) == later.cost - 1  # every later purchase too
    jp = rules.placements["JP-ART-1"]
    assert buying.due(s, p, [jp]) == jp.cost  # but only in its own region


# ---- turn structure and FAQ -------------------------------------------------------------------


def test_faq_empty_locations_are_closed_and_every_card_is_taken(db):
    s = start(make_rules(load_game(db, "dirty-money"), {}), 2)
    p = s.current_player()
    before = ids(s, f"hand:{p}")
    fill(s, "spot:LOC-JP")
    fill(s, "spot:LOC-EU", "EUR-1", "EUR-2", "ACT-BRB", "ACT-TRD")
    assert ("go", "LOC-JP") not in s.legal_actions()
    s.apply(("go", "LOC-EU"))
    assert ids(s, f"hand:{p}") == sorted(before + ["EUR-1", "EUR-2"])
    # 常见问题 4: several action cards, resolved in the order the player picks.
    assert s.legal_actions() == [("resolve", "ACT-BRB"), ("resolve", "ACT-TRD")]


def test_hand_limit_sends_the_excess_to_the_blacklist(db):
    s = start(make_rules(load_game(db, "dirty-money"), {}), 2)
    p = s.current_player()
    fill(s, f"hand:{p}", "EUR-1", "EUR-2", "EUR-3", "EUR-4", "JPY-1", "JPY-2")
    fill(s, "spot:LOC-BR", "USD-1", "USD-2", "USD-3", "ACT-BRB")  # actions do not count
    s.apply(("go", "LOC-BR"))
    assert s.phase() == "hand_limit" and s.current_player() == p
    s.apply(("overflow", "JPY-1"))
    s.apply(("overflow", "USD-3"))
    assert len(board.cards(s, f"hand:{p}")) == 7 and ids(s, f"blacklist:{p}") == ["JPY-1", "USD-3"]
    assert s.phase() == "resolve_actions"
    with pytest.raises(RuleViolation):
        s.apply(("overflow", "EUR-1"))


def test_digital_bank_raises_the_hand_limit(db):
    s = start(make_rules(load_game(db, "dirty-money"), {}), 2)
    p = s.current_player()
    fill(s, f"tableau:{p}", "EU-BNK-1")
    fill(s, f"hand:{p}", "EUR-1", "EUR-2", "EUR-3", "EUR-4", "JPY-1", "JPY-2")
    fill(s, "spot:LOC-BR", "USD-1", "USD-2", "USD-3")
    s.apply(("go", "LOC-BR"))
    s.apply(s.legal_actions()[0])
    assert len(board.cards(s, f"hand:{p}")) == 8 and s.phase() != "hand_limit"


def test_round_end_refills_locations_and_displays(db):
    s = start(make_rules(load_game(db, "dirty-money"), {}), 2)
    fill(s, "spot:LOC-US", "EUR-1", "EUR-1", "EUR-1", "EUR-1")  # full: stays at 4
    finish_turn(s, go="LOC-EU")
    finish_turn(s, go="LOC-JP")
    assert s.round_number == 2
    sizes = {loc: len(board.cards(s, f"spot:{loc}")) for loc in ("LOC-EU", "LOC-JP", "LOC-US", "LOC-BR")}
    assert sizes == {"LOC-EU": 2, "LOC-JP": 2, "LOC-US": 4, "LOC-BR": 3}
    assert all(len(board.cards(s, f"display:{r}")) == 2 for r in ("欧洲", "日本", "美国"))


def test_last_players_extra_card_only_at_setup(db):
    s = start(make_rules(load_game(db, "dirty-money"), {}), 3)
    for _ in range(2):
        finish_turn(s, go="LOC-EU" if ("go", "LOC-EU") in s.legal_actions() else None)
    turn = next(f for f in reversed(s.stack) if f.kind == "turn")
    s.apply(("go", "LOC-JP"))
    while any(f is turn for f in s.stack):
        legal = s.legal_actions()
        s.apply(next((a for a in (("done",), ("skip",)) if a in legal), legal[0]))
    hands = [ids(s, f"hand:{q}") for q in range(3)]
    while s.phase() != "turn" or s.current_player() == CHANCE:
        s.apply(s.legal_actions()[0])  # the refill's draws
    assert s.round_number == 2 and [ids(s, f"hand:{q}") for q in range(3)] == hands


@pytest.mark.parametrize("quick", [False, True])
def test_reaching_the_target_ends_the_game_after_the_round(db, quick):
    pin(db, "EU-ART-1", cost=1)
    pin(db, "EUR-1", value=1)
    rules = make_rules(load_game(db, "dirty-money"), {"quick": quick})
    target = 8 if quick else 10
    s = start(rules, 3)
    p = s.current_player()
    others = [c for c in rules.placements if c != "EU-ART-1"][: target - 1]
    fill(s, f"tableau:{p}", *others)
    fill(s, f"hand:{p}", "EUR-1")
    fill(s, "display:欧洲", "EU-ART-1")
    fill(s, "spot:LOC-EU", "JPY-1")
    s.apply(("go", "LOC-EU"))
    s.apply(("pick", "EU-ART-1"))
    s.apply(("pay", "EUR-1", 0))
    s.apply(("settle",))
    finish_turn(s)
    assert len(board.cards(s, f"tableau:{p}")) == target and not s.is_terminal()
    finish_turn(s)  # everyone else still plays
    assert not s.is_terminal()
    finish_turn(s)
    assert s.is_terminal() and s.end_reason() == "placement target"
    assert s.returns() == s.scores_from_rules()


def test_one_short_of_the_target_plays_on(db):
    rules = make_rules(load_game(db, "dirty-money"), {})
    s = start(rules, 2)
    fill(s, "tableau:0", *list(rules.placements)[:9])
    finish_turn(s)
    finish_turn(s)
    assert not s.is_terminal() and s.round_number == 2


def test_tie_breakers_money_in_hand_then_last_to_play(db):
    pin(db, "EUR-1", value=1)
    pin(db, "EUR-5", value=5)
    s = start(make_rules(load_game(db, "dirty-money"), {}), 3)
    order = s.round_order
    for q in range(3):
        fill(s, f"hand:{q}", "EUR-1")
    assert s.returns() == [0.0, 0.0, 0.0]
    assert s.winners() == [order[-1]]  # all tied: the last to play wins
    fill(s, f"hand:{order[0]}", "EUR-5")
    assert s.winners() == [order[0]]  # more money left wins first


# ---- data drives the engine -----------------------------------------------------------------


def test_card_edits_and_unknown_effects_reach_the_engine(db):
    assert make_rules(load_game(db, "dirty-money"), {}).unknown_effects() == []
    pin(db, "EU-ART-1", cost=9)
    pin(db, "ACT-BRB", effect="launder_everything")
    rules = make_rules(load_game(db, "dirty-money"), {})
    assert rules.placements["EU-ART-1"].cost == 9
    assert [(u.card_id, u.effect) for u in rules.unknown_effects()] == [("ACT-BRB", "launder_everything")]
    card = repo.get_card(db, SLUG, "EU-CAS-1")
    del card.fields["cost"]
    with transaction(db) as conn:
        repo.update_card(conn, card)
    with pytest.raises(PnpError, match="EU-CAS-1.*cost"):
        make_rules(load_game(db, "dirty-money"), {})


def test_options(db):
    assert make_rules(load_game(db, "dirty-money"), {"quick": "true"}).end_target == 8
    assert make_rules(load_game(db, "dirty-money"), {}).end_target == 10
    with pytest.raises(PnpError, match="unknown option"):
        make_rules(load_game(db, "dirty-money"), {"turbo": True})
    with pytest.raises(PnpError, match="quick"):
        make_rules(load_game(db, "dirty-money"), {"quick": "maybe"})
    with pytest.raises(PnpError, match="players"):
        make_rules(load_game(db, "dirty-money"), {}).new_initial_state(6, random.Random(0))


# ---- random play ------------------------------------------------------------------------------


def random_game(rules, players: int, seed: int) -> DirtyMoneyState:
    """Random legal play, checking conservation and invariants after every step."""
    rng = random.Random(seed)
    deck = Counter(rules.deck())
    s = rules.new_initial_state(players, rng)
    steps = 0
    while not s.is_terminal():
        legal = s.legal_actions()
        assert legal and legal == sorted(legal)
        if s.current_player() == CHANCE:
            outcomes = s.chance_outcomes()
            assert abs(sum(p for _a, p in outcomes) - 1) < 1e-9
            action = rng.choices([a for a, _p in outcomes], [p for _a, p in outcomes])[0]
        else:
            action = legal[rng.randrange(len(legal))]
        s.apply(action)
        steps += 1
        assert steps <= rules.info.max_steps
        s.check_invariants()
        assert Counter(c for cards in s.zones().values() for c in cards) == deck
    assert s.returns() == s.scores_from_rules()
    assert len(s.winners()) == 1
    return s


def test_random_games_keep_every_card_and_end(db):
    rules = make_rules(load_game(db, "dirty-money"), {})
    reasons = Counter(random_game(rules, 2 + seed % 4, seed).end_reason() for seed in range(16))
    assert reasons["placement target"] >= 14


def test_random_quick_and_selection_games(db):
    for options in ({"quick": True}, {"selection": True}):
        rules = make_rules(load_game(db, "dirty-money"), options)
        for seed in range(4):
            s = random_game(rules, 2 + seed, 100 + seed)
            if s.end_reason() == "placement target":
                assert max(len(board.cards(s, f"tableau:{q}")) for q in range(s.players)) >= rules.end_target


def test_runner_plays_mixed_agents(db):
    rules = make_rules(load_game(db, "dirty-money"), {})
    for seed in range(6):
        n = 2 + seed % 4
        res = play_game(rules, n, seed, (["greedy", "random"] * 3)[:n])
        assert res.completed, res.failure


def test_pnp_check_passes(run, shipped_db):
    result = run("--db", shipped_db, "check", SLUG, "-n", "8")
    assert result.exit_code == 0, result.output


@pytest.mark.slow
def test_many_random_games(db):
    for options in ({}, {"quick": True}, {"selection": True}):
        rules = make_rules(load_game(db, "dirty-money"), options)
        for seed in range(100):
            random_game(rules, 2 + seed % 4, 1000 + seed)
