"""Infiltraitors (滲透因子): the relation rule, the five actions, the hand limit and the end of a
mission, each from the rulebook's text or example."""

from __future__ import annotations

import pytest

from pnpforge.rules.engine import CHANCE, CardInstance, RuleViolation
from pnpforge.rules.games.infiltraitors import board, factor_relations, related
from pnpforge.rules.games.infiltraitors.board import BOX, DECK, DISCARD_DOWN, DISCARD_UP, LINEUP
from test_rules_infiltraitors_helpers import (
    add_hint,
    clear_lineup,
    conserved,
    fresh,
    give_turn,
    module_db,
    move,
    pile_ids,
    put_rack,
    rules_cache,
    set_hand,
    settle_chance,
)


@pytest.fixture(scope="module")
def db(tmp_path_factory):
    return module_db(tmp_path_factory)


@pytest.fixture(scope="module")
def rules_for(db):
    return rules_cache(db)


# ---- the relation rule (rulebook: 給予提示 and its example) ---------------------------------


def test_relation_examples_from_the_rulebook(rules_for):
    specs = rules_for().specs
    # 嫌疑人牌是紅 6: any red card relates; 3 (factor) and 12 (multiple) relate; 4 does not.
    assert related(specs["R09"], "紅", 6)
    assert related(specs["K03"], "紅", 6)
    assert related(specs["Y12"], "紅", 6)
    assert not related(specs["K04"], "紅", 6)
    assert related(specs["B06"], "紅", 6)  # same number
    assert not related(specs["K13"], "紅", 6)
    assert related(specs["SP-R"], "紅", 6)  # special card: same suit
    assert not related(specs["SP-K"], "紅", 6)  # special card: suit only, never by number


def test_printed_relation_lists_are_the_factor_rule(rules_for):
    specs = rules_for().specs
    assert specs["R06"].relates == {2, 3, 12}
    assert specs["K07"].relates == {14}
    assert specs["Y11"].relates == frozenset()
    assert factor_relations(2) == {4, 6, 8, 10, 12, 14}


def test_hint_is_placed_upright_or_sideways_by_the_rule(rules_for):
    st = fresh(rules_for())
    put_rack(st, 0, "R06")
    set_hand(st, 0, ["K03", "K04", "Y12"])
    st.apply(("hint", 0, "K03", 0))
    assert board.hints(st, 0)[-1] == (CardInstance("K03"), True)
    give_turn(st, 0)  # next time round seat 0 plays 4 beside its red 6: sideways
    st.apply(("hint", 0, "K04", 0))
    assert board.hints(st, 0)[-1] == (CardInstance("K04"), False)
    used = [(e.seat, e.card) for e in st.events if e.kind == "used" and e.card != "M01"]
    assert used == [(0, "K03"), (0, "K04")]


# ---- the five actions --------------------------------------------------------------------


def test_take_a_suspect_then_the_top_card_is_discarded_unseen(rules_for):
    st = fresh(rules_for())
    lineup, deck, down = st.piles.count(LINEUP), st.piles.count(DECK), st.piles.count(DISCARD_DOWN)
    assert ("take",) in st.legal_actions()
    st.apply(("take",))
    settle_chance(st)
    assert board.has_suspect(st, 0) and st.piles.count(LINEUP) == lineup - 1
    assert st.piles.count(DECK) == deck - 1 and st.piles.count(DISCARD_DOWN) == down + 1
    give_turn(st, 0)  # never more than one suspect on a stand
    assert ("take",) not in st.legal_actions()


def test_exchange_is_placed_by_the_suspects_owner_and_may_draw(rules_for):
    st = fresh(rules_for())
    put_rack(st, 1, "K06")
    set_hand(st, 0, ["R12", "Y04"])
    legal = st.legal_actions()
    assert ("exchange", 0, 1, "R12", 0, 1) in legal and ("exchange", 0, 1, "R12", 0, 0) in legal
    st.apply(("exchange", 0, 1, "R12", 0, 1))
    assert st.current_player() == CHANCE  # the draw is a chance step
    settle_chance(st)
    assert board.hints(st, 1) == [(CardInstance("R12"), True)]
    assert board.hand_count(st, 0) == 2


def test_exchange_and_elimination_never_target_your_own_suspect(rules_for):
    st = fresh(rules_for())
    put_rack(st, 0, "R06")
    assert not any(
        a[0] in ("exchange", "eliminate") and a[2 if a[0] == "exchange" else 1] == 0
        for a in st.legal_actions()
    )


def test_wait_discards_the_top_unseen_and_draws_up_to_three(rules_for):
    st = fresh(rules_for())
    assert [a for a in st.legal_actions() if a[0] == "wait"] == [("wait", k) for k in range(4)]
    hand, deck, down = board.hand_count(st, 0), st.piles.count(DECK), st.piles.count(DISCARD_DOWN)
    st.apply(("wait", 2))
    settle_chance(st)
    assert board.hand_count(st, 0) == hand + 2 and st.piles.count(DECK) == deck - 3
    assert st.piles.count(DISCARD_DOWN) == down + 1


def test_correct_elimination_returns_suspect_discards_hints_and_rewards(rules_for):
    rules = rules_for()
    st = fresh(rules)
    put_rack(st, 1, "K06")
    add_hint(st, 1, "R12", True)
    add_hint(st, 1, "Y04", False)
    move(st, "B09", DISCARD_DOWN)
    bullets = st.bullets
    st.apply(("eliminate", 1, "黑", 6))
    assert st.bullets == bullets - 1 and not board.has_suspect(st, 1) and st.solved == 1
    assert "K06" in pile_ids(st, DECK)
    assert set(pile_ids(st, DISCARD_UP)) >= {"R12", "Y04"}  # hints discarded face up
    legal = st.legal_actions()  # reward: any face-up card, or a face-down one blind
    assert ("reward", "R12", 0) in legal and ("reward_blind",) in legal
    st.apply(("reward", "R12", 0))
    assert CardInstance("R12") in board.hand(st, 0)
    assert conserved(st, rules)
    shots = [e for e in st.events if e.kind == "outcome" and "shoots" in e.text]
    assert shots[-1].card == "K06" and "hit" in shots[-1].text


def test_wrong_guess_spends_a_bullet_and_the_suspect_stays(rules_for):
    st = fresh(rules_for())
    put_rack(st, 1, "K06")
    bullets = st.bullets
    st.apply(("eliminate", 1, "黑", 12))
    assert st.bullets == bullets - 1 and board.suspect(st, 1) == CardInstance("K06")
    assert st.solved == 0 and st.stage == "act" and st.actor == 1
    assert "miss" in [e for e in st.events if e.kind == "outcome"][-1].text


def test_hand_limit_is_seven_at_the_end_of_a_turn(rules_for):
    st = fresh(rules_for())
    set_hand(st, 0, ["R02", "R03", "R04", "R05", "R07", "R08"])
    st.apply(("wait", 3))
    settle_chance(st)
    assert st.stage == "discard" and st.actor == 0 and board.hand_count(st, 0) == 9
    up = st.piles.count(DISCARD_UP)
    st.apply(("discard", 0))
    st.apply(("discard", 0))
    assert board.hand_count(st, 0) == 7 and st.piles.count(DISCARD_UP) == up + 2  # face up
    assert st.stage == "act" and st.actor == 1


def test_apply_refuses_an_illegal_action(rules_for):
    st = fresh(rules_for())
    with pytest.raises(RuleViolation):
        st.apply(("eliminate", 0, "紅", 6))


# ---- end of the game ------------------------------------------------------------------------


def test_rulebook_example_four_suspects_three_bullets_loses(rules_for):
    st = fresh(rules_for())
    while st.piles.count(LINEUP) > 4:
        st.piles.move(st.piles.pile(LINEUP)[-1], LINEUP, DECK)
    put_rack(st, 1, "K06")  # 4 unsolved: 3 in the centre, 1 on a stand
    st.bullets = 4
    assert board.unsolved(st) == 4
    st.apply(("eliminate", 1, "黑", 7))  # a miss leaves 3 bullets for 4 suspects
    assert st.is_terminal() and st.returns() == [0.0] * 3 and st.winners() == []
    assert st.end_reason() == "fewer bullets than unsolved suspects"
    assert st.events[-1].kind == "end" and "lost" in st.events[-1].text


def test_empty_deck_and_empty_hands_loses(rules_for):
    st = fresh(rules_for())
    put_rack(st, 1, "K06")
    for seat in range(3):
        set_hand(st, seat, [])
    set_hand(st, 0, ["R02"])
    st.piles.move_all(DECK, BOX)
    st.refresh()
    st.apply(("exchange", 0, 1, "R02", 0, 0))
    assert st.is_terminal() and st.end_reason() == "headquarters deck and hands exhausted"


def test_last_traitor_eliminated_wins(rules_for):
    st = fresh(rules_for("T1"))
    clear_lineup(st)
    put_rack(st, 1, "K06")
    st.solved = st.suspects_total - 1
    st.apply(("eliminate", 1, "黑", 6))
    assert st.is_terminal() and st.returns() == [1.0] * 3 and st.winners() == [0, 1, 2]
    assert st.scores_from_rules() == st.returns()
    scores = [e for e in st.events if e.kind == "score"]
    assert [(e.seat, e.value) for e in scores] == [(0, 1.0), (1, 1.0), (2, 1.0)]
