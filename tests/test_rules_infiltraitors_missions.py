"""Infiltraitors (滲透因子): each mission's parameters from its card, the mission option, and
the special rules of the missions that change play."""

from __future__ import annotations

import random

import pytest

from pnpforge.errors import PnpError
from pnpforge.rules.engine import CardInstance
from pnpforge.rules.games.infiltraitors import ASIDE, CENTRE, board, make_rules, mission_id
from pnpforge.rules.games.infiltraitors.board import (
    ASIDE_PILE,
    DECK,
    DISCARD_DOWN,
    DISCARD_UP,
    REWARDS,
    SHARED,
)
from pnpforge.rules.kit import load_game
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


# ---- mission parameters ------------------------------------------------------------------


def test_training_one_setup_three_players(rules_for):
    rules = rules_for("T1")
    assert len(rules.in_play) == 36  # 紅/黑/黃 2–13
    assert {rules.specs[c.card].suit for c in rules.in_play} == {"紅", "黑", "黃"}
    st = fresh(rules, 3)
    assert [board.hand_count(st, s) for s in range(3)] == [5, 5, 5]
    assert board.unsolved(st) == 2 and st.bullets == 5 and st.piles.count(DECK) == 36 - 17


@pytest.mark.parametrize("mission,suits,players", [("T2", 3, 4), ("T3", 4, 2)])
def test_training_two_and_three_scale_with_agents(rules_for, mission, suits, players):
    rules = rules_for(mission)
    assert len(rules.in_play) == 14 * suits
    st = fresh(rules, players)
    assert board.unsolved(st) == players and st.bullets == players + 3


@pytest.mark.parametrize(
    "mission,suspects,bullets,suits",
    [
        ("M01", 7, 10, 4),
        ("M05", 9, 12, 5),
        ("M07", 6, 7, 4),
        ("M12", 6, 6, 5),
        ("M18", 9, 9, 5),
        ("M20", 11, 12, 5),
    ],
)
def test_mission_parameters(rules_for, mission, suspects, bullets, suits):
    rules = rules_for(mission)
    st = fresh(rules, 4)
    aside = 1 if mission == "M18" else 0
    assert board.unsolved(st) == suspects and st.piles.count(ASIDE_PILE) == aside
    assert st.bullets == bullets and len(rules.mission.suits) == suits


def test_mission_option_forms_and_errors(db):
    assert mission_id("m1") == "M01" and mission_id("7") == "M07" and mission_id("t2") == "T2"
    assert make_rules(load_game(db, "infiltraitors"), {}).mission.id == "M01"
    with pytest.raises(PnpError, match=r"unknown mission 'M99' \(allowed: M01, .*T3\)"):
        make_rules(load_game(db, "infiltraitors"), {"mission": "M99"})
    with pytest.raises(PnpError, match=r"infiltraitors: unknown option 'missoin' \(allowed: mission\)"):
        make_rules(load_game(db, "infiltraitors"), {"missoin": "M01"})
    with pytest.raises(PnpError, match="infiltraitors is for 2–5 players, got 6"):
        make_rules(load_game(db, "infiltraitors"), {}).new_initial_state(6, random.Random(0))


def test_options_are_declared_and_every_mission_is_a_scenario(rules_for):
    rules = rules_for()
    assert [o.name for o in rules.OPTIONS] == ["mission"] and rules.OPTIONS[0].default == "M01"
    assert rules.scenarios() == ["T1", "T2", "T3"] + [f"M{i:02d}" for i in range(1, 21)]
    assert set(rules.USED) == {"card", "special", "mission"}
    assert rules.info.cooperative and (rules.info.players_min, rules.info.players_max) == (2, 5)


def test_the_mission_card_is_on_the_table_and_announced(rules_for):
    st = fresh(rules_for("M07"))
    assert pile_ids(st, "mission") == ["M07"]
    first = st.events[0]
    assert (first.kind, first.card, first.seat) == ("outcome", "M07", None)  # used when completed
    assert "6 suspects, 7 bullets" in first.text
    assert not any(e.kind == "used" and e.card == "M07" for e in st.events)


# ---- special rules ------------------------------------------------------------------------


def test_m02_discards_face_down(rules_for):
    st = fresh(rules_for("M02"))
    put_rack(st, 1, "K06")
    add_hint(st, 1, "R12", True)
    st.apply(("eliminate", 1, "黑", 6))
    assert "R12" in pile_ids(st, DISCARD_DOWN) and not st.piles.count(DISCARD_UP)


def test_m03_number_tiles_set_the_order(rules_for):
    st = fresh(rules_for("M03"))
    st.apply(("take",))
    settle_chance(st)
    st.apply(("take",))
    settle_chance(st)
    assert st.tile_of[:2] == [1, 2]
    targets = {a[1] for a in st.legal_actions() if a[0] == "eliminate"}
    assert targets == {0}  # seat 2 must solve tile 1 first


def test_m06_centre_specials_exchange_and_come_back(rules_for):
    rules = rules_for("M06")
    st = fresh(rules)
    assert sorted(pile_ids(st, SHARED)) == ["SP-B", "SP-K", "SP-R", "SP-Y"]
    put_rack(st, 1, "K06")
    assert ("exchange", CENTRE, 1, "SP-K", 0, 0) in st.legal_actions()
    assert ("exchange", CENTRE, 1, "SP-K", 0, 1) not in st.legal_actions()
    st.apply(("exchange", CENTRE, 1, "SP-K", 0, 0))
    assert board.hints(st, 1) == [(CardInstance("SP-K"), True)]
    give_turn(st, 0)
    st.apply(("eliminate", 1, "黑", 6))
    assert "SP-K" in pile_ids(st, SHARED) and conserved(st, rules)


def test_m07_needs_balanced_hints_to_eliminate(rules_for):
    st = fresh(rules_for("M07"))
    put_rack(st, 1, "K06")
    for cid, up in [("R12", True), ("Y04", False), ("K09", True)]:
        add_hint(st, 1, cid, up)
    assert not any(a[0] == "eliminate" for a in st.legal_actions())
    add_hint(st, 1, "Y05", False)
    assert ("eliminate", 1, "黑", 6) in st.legal_actions()


def test_m08_exchange_only_to_the_left(rules_for):
    st = fresh(rules_for("M08"))
    put_rack(st, 1, "K06")
    put_rack(st, 2, "Y06")
    assert {a[2] for a in st.legal_actions() if a[0] == "exchange"} == {1}


def test_m09_hand_of_three(rules_for):
    st = fresh(rules_for("M09"), 4)
    assert [board.hand_count(st, s) for s in range(4)] == [3] * 4 and st.mission.hand_limit == 3


def test_m11_eliminate_only_to_the_right(rules_for):
    st = fresh(rules_for("M11"))
    put_rack(st, 1, "K06")
    put_rack(st, 2, "Y06")
    assert {a[1] for a in st.legal_actions() if a[0] == "eliminate"} == {2}


def test_m12_sole_eliminator(rules_for):
    st = fresh(rules_for("M12"), 3, seed=4)
    sole = st.eliminator
    assert sole in (0, 1, 2)
    put_rack(st, (sole + 1) % 3, "K06")
    give_turn(st, sole)
    acts = st.legal_actions()
    assert ("take",) not in acts and any(a[0] == "eliminate" for a in acts)
    give_turn(st, (sole + 2) % 3)
    acts = st.legal_actions()
    assert ("take",) in acts and not any(a[0] == "eliminate" for a in acts)


def test_m15_special_suspect_is_number_one_and_relates_by_suit(rules_for):
    rules = rules_for("M15")
    assert sum(1 for c in rules.in_play if rules.specs[c.card].special) == 5
    st = fresh(rules)
    put_rack(st, 1, "SP-K")
    set_hand(st, 0, ["K05", "R02"])
    st.apply(("exchange", 0, 1, "K05", 0, 0))
    assert board.hints(st, 1)[-1][1] is True
    give_turn(st, 0)
    st.apply(("exchange", 0, 1, "R02", 0, 0))  # 2 does not 'divide' a special's number 1
    assert board.hints(st, 1)[-1][1] is False
    give_turn(st, 0)
    st.apply(("eliminate", 1, "黑", 1))
    assert st.solved == 1


def test_m16_covered_card_sets_the_suit(rules_for):
    rules = rules_for("M16")
    st = fresh(rules)
    down = st.piles.count(DISCARD_DOWN)
    st.apply(("take",))
    settle_chance(st)
    assert board.cover(st, 0) is not None and st.piles.count(DISCARD_DOWN) == down
    put_rack(st, 1, "K06")
    move(st, "Y09", st.cover_piles[1])
    set_hand(st, 0, ["Y02", "K13"])
    give_turn(st, 0)
    st.apply(("exchange", 0, 1, "K13", 0, 0))
    assert board.hints(st, 1)[-1][1] is False  # black no longer matches: suit is yellow
    give_turn(st, 0)
    st.apply(("eliminate", 1, "黃", 6))
    assert st.solved == 1 and {"K06", "Y09"} <= set(pile_ids(st, DECK))
    assert conserved(st, rules)


def test_m17_hands_face_out(rules_for):
    st = fresh(rules_for("M17"))
    put_rack(st, 0, "R06")
    put_rack(st, 2, "K06")
    acts = st.legal_actions()
    assert all(a[1] != 0 for a in acts if a[0] in ("hint", "exchange"))
    assert all(a[5] == 1 for a in acts if a[0] == "exchange")  # the draw is compulsory
    obs = st.observation(0)
    assert obs.hand is None and dict(obs.other_hands)[1] == tuple(board.hand(st, 1))
    card = board.hand(st, 1)[0]
    st.apply(("exchange", 1, 2, card.card, card.copy, 1))
    settle_chance(st)
    assert board.hand_count(st, 0) == 6 and board.hand_count(st, 1) == 4


def test_m18_last_suspect_is_solved_with_the_pooled_rewards(rules_for):
    rules = rules_for("M18")
    st = fresh(rules, 3)
    clear_lineup(st)
    st.piles.move_all(ASIDE_PILE, DECK)
    move(st, "Y15", ASIDE_PILE)
    st.solved = 7
    put_rack(st, 1, "K06")
    move(st, "R02", DISCARD_UP)
    for cid in ["R03", "R04", "R05", "R07", "R08", "R09", "R10"]:
        move(st, cid, REWARDS)
    st.apply(("eliminate", 1, "黑", 6))
    st.apply(("reward", "R02", 0))  # 8th reward joins the pool
    settle_chance(st)
    assert st.final_phase and board.suspect(st, 0) == CardInstance("Y15") and not st.piles.count(ASIDE_PILE)
    assert sorted(board.hand_count(st, s) for s in range(3)) == [2, 3, 3] and board.hand_count(st, 0) == 3
    assert not st.piles.count(REWARDS) and conserved(st, rules)
    give_turn(st, 1)
    acts = st.legal_actions()
    assert not any(a[0] in ("wait", "take") for a in acts)
    assert all(a[5] == 0 for a in acts if a[0] == "exchange")


def test_m19_look_withdraw_and_final_shot(rules_for):
    rules = rules_for("M19")
    st = fresh(rules, 2)
    st.piles.move_all(ASIDE_PILE, DECK)
    aside = move(st, "G15", ASIDE_PILE)
    put_rack(st, 1, "K06")
    set_hand(st, 0, ["R02", "R03"])
    st.apply(("eliminate", 1, "黑", 6))
    if st.stage == "reward":
        st.apply(("reward_skip",))
    assert st.stage == "peek"
    st.apply(("peek", 1))
    assert st.stage == "extra_hint" and st.extra_hints_left == 2  # two cards in a 2-player game
    st.apply(("extra_hint", 0, "R02", 0))
    st.apply(("extra_hint", 0, "R03", 0))
    assert st.withdrawn[0] and st.stage == "final" and st.actor == 1
    assert [(e.seat, e.kind) for e in st.events if e.kind == "eliminated"] == [(0, "eliminated")]
    assert st.observation(0).aside_known == aside and st.observation(1).aside_known is None
    suit, number = rules.specs[aside.card].identity()
    st.apply(("eliminate", ASIDE, suit, number))
    assert st.is_terminal() and st.returns() == [1.0, 1.0]
    assert st.end_reason() == "final suspect eliminated" and st.scores_from_rules() == [1.0, 1.0]
