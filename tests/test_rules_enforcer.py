"""Top Enforcement Officer (王牌執行官) rules engine: set-up, the turn, the rulebook's examples and FAQ.

Positions are reached through the engine's own interface (see `enforcer_positions`).
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from enforcer_positions import QUIET_TABLE, act, conserved, deal_game, feed, ob, settle
from pnpforge.errors import PnpError
from pnpforge.rules.engine import CHANCE
from pnpforge.rules.games.enforcer import flow, make_rules
from pnpforge.rules.kit import load_game
from pnpforge.store.db import open_db


@pytest.fixture
def db(shipped_db):
    return open_db(shipped_db)


@pytest.fixture
def rules(db):
    return make_rules(load_game(db, "enforcer"), {})


# ---- set-up and turn structure ---------------------------------------------------------


def test_setup_deals_two_officers_five_cards_and_four_obligors(rules):
    st = deal_game(rules, 4)
    assert [len(st.hand(s)) for s in range(4)] == [6, 5, 5, 5]  # seat 0 has clocked in
    assert len(st.table()) == 4 and len(st.piles.pile("obligor_deck")) == 28 - 4
    for s in range(4):
        assert (
            st.officer_card(s) is not None
            and len(st.piles.pile(f"cover:{s}")) == 1
            and len(st.piles.pile(f"penalty:{s}")) == 1
        )
    assert len(st.piles.pile("box")) == 12 - 8 + 3  # undealt officers + specialties
    assert st.tracks[1].eliminate_at == st.tracks[0].eliminate_at + 1  # 菜鳥: own track
    assert conserved(rules, st)


def test_officer_choice_is_between_the_two_dealt(rules):
    st = rules.new_initial_state(3, random.Random(0))
    feed(st, "OF-tax", "OF-care", "OF-fee", "OF-gold", "OF-ace", "OF-fine")
    assert st.legal_actions() == [("officer", "OF-care"), ("officer", "OF-tax")]
    act(st, "officer", "OF-care")
    assert st.officer_card(0).card == "OF-care" and [c.card for c in st.piles.pile(f"cover:{0}")] == [
        "OF-tax"
    ]


def test_player_counts_outside_3_to_6_are_refused(rules):
    with pytest.raises(PnpError, match="3–6"):
        rules.new_initial_state(2, random.Random(0))
    with pytest.raises(PnpError, match="3–6"):
        rules.new_initial_state(7, random.Random(0))


def test_chance_outcomes_are_weighted_by_copies(rules):
    st = deal_game(rules)
    act(st, "research")
    outcomes = dict(st.chance_outcomes())
    assert abs(sum(outcomes.values()) - 1) < 1e-9
    left = Counter(ci.card for ci in st.piles.pile("exec_deck"))
    assert outcomes["EX-notice"] == pytest.approx(left["EX-notice"] / len(st.piles.pile("exec_deck")))


def test_a_day_is_two_actions_then_evening_strategy_only(rules):
    st = deal_game(rules, hands={0: ["EX-delay"]})
    act(st, "research")
    settle(st)
    assert st.period == 1
    act(st, "research")
    settle(st)
    assert st.period == 2
    kinds = {a[0] for a in st.legal_actions()}
    assert kinds == {"strat", "end_turn"}  # 晚上: strategy cards only
    act(st, "end_turn")
    assert st.phase == "discard"  # 5 + 3 drawn = 8 > 6
    while st.phase == "discard":
        act(st, "discard", st.legal_actions()[0][1])
    assert len(st.hand(0)) == 6
    settle(st)
    assert st.turn == 1 and len(st.hand(1)) == 6  # seat 1 clocked in


def test_gold_officer_keeps_eight_cards(rules):
    st = deal_game(
        rules, officers=[("OF-gold", "OF-care"), ("OF-rookie", "OF-negotiate"), ("OF-ace", "OF-fee")]
    )
    act(st, "research")
    settle(st)
    act(st, "research")
    settle(st)
    act(st, "end_turn")
    assert len(st.hand(0)) == 8 and st.turn == 1


def test_strategy_cards_do_not_use_up_the_action(rules):
    st = deal_game(rules, hands={0: ["EX-news", "EX-cowork"]})
    act(st, "strat", "EX-news", ob("OB-03"))
    assert st.period == 0 and st.spotlight(st.table()[0])
    act(st, "strat", "EX-cowork")
    settle(st)
    assert st.phase == "give"
    size = len(st.hand(0))
    act(st, "give", "EX-sale", 2)
    assert len(st.hand(0)) == size - 1 and st.phase == "period" and st.period == 0


def test_only_joint_investigation_is_playable_during_an_execution(rules):
    st = deal_game(rules, hands={0: ["EX-cowork", "EX-delay", "EX-news", "EX-assign", "EX-award"]})
    act(st, "execute", ob("OB-03"))
    strategies = [a for a in st.legal_actions() if a[0] == "strat"]
    assert strategies == [("strat", "EX-cowork")]
    act(st, "strat", "EX-cowork")
    settle(st)
    act(st, "give", "EX-delay", 1)
    assert st.phase == "exec" and st.execution.target.card == "OB-03"


def test_master_takes_the_specialty_card_instead_of_drawing(rules):
    st = rules.new_initial_state(3, random.Random(0))
    feed(st, "OF-auction", "OF-tax", "OF-fee", "OF-gold", "OF-ace", "OF-fine")
    for _ in range(3):
        act(st, "officer", st.legal_actions()[0][1])
    settle(st)
    assert st.officer_card(0).card == "OF-auction"
    assert st.legal_actions() == [("draw",), ("take_specialty",)]
    act(st, "take_specialty")
    assert "SP-auction" in [c.card for c in st.hand(0)]
    assert ("research_sp",) not in st.legal_actions()  # it is already in hand


# ---- executing: the rulebook's examples ---------------------------------------------------


def test_example_weakness_doubles_seize_land_8_vs_5(rules):
    st = deal_game(rules, hands={0: ["EX-seize-land"]}, table=["OB-02", *QUIET_TABLE[:3]])
    act(st, "execute", ob("OB-02"))
    act(st, "play", "EX-seize-land")
    assert (st.execution_power(), st.execution_difficulty()) == (8, 5)
    act(st, "resolve")
    assert [c.card for c in st.piles.pile("scored:0")] == ["OB-02"]
    assert st.points[0] == 4 and st.penalties[0] == 0


def test_example_gangster_tycoon_15_vs_14(rules):
    st = deal_game(
        rules,
        hands={0: ["EX-notice", "EX-arrest", "EX-seize-land", "EX-auction"]},
        table=["OB-18", *QUIET_TABLE[:3]],
    )
    act(st, "execute", ob("OB-18"))
    feed(st, "OBJ-flaw")  # 程序瑕疵: 難度 +2
    assert st.execution_difficulty() == 14
    assert ("play", "EX-arrest") not in st.legal_actions()  # 拘提 needs 傳繳通知 first
    act(st, "play", "EX-notice")
    settle(st)  # 傳繳通知 draws a card
    act(st, "play", "EX-arrest")
    act(st, "play", "EX-seize-land")
    act(st, "play", "EX-auction")
    assert st.execution_power() == 1 + 4 + 4 * 2 + 2 == 15
    act(st, "resolve")
    assert st.points[0] == 15 and st.penalties[0] == 0


def test_gangster_redraws_on_objection_dismissed_others_do_not(rules):
    st = deal_game(rules, table=["OB-18", *QUIET_TABLE[:3]])
    act(st, "execute", ob("OB-18"))
    feed(st, "OBJ-dismissed")
    assert st.current_player() == CHANCE  # 若抽出異議駁回則再抽一張
    feed(st, "OBJ-flaw")
    assert st.execution_difficulty() == 14
    st2 = deal_game(rules, table=QUIET_TABLE)
    act(st2, "execute", ob("OB-01"))
    feed(st2, "OBJ-dismissed")
    assert st2.current_player() == 0 and st2.execution_difficulty() == 3


def test_tout_flips_two_objections(rules):
    st = deal_game(rules, table=["OB-15", *QUIET_TABLE[:3]])
    act(st, "execute", ob("OB-15"))
    feed(st, "OBJ-flaw", "OBJ-illegal")
    assert st.execution_difficulty() == 4 + 2 + 4


def test_failed_execution_is_a_penalty_and_the_obligor_stays(rules):
    st = deal_game(rules)
    act(st, "execute", ob("OB-03"))
    act(st, "resolve")
    assert st.penalties[0] == 1 and "OB-03" in [c.card for c in st.table()]
    assert st.returns()[0] == -1  # track cell −1


# ---- FAQ ----------------------------------------------------------------------------------


def test_faq_one_notice_serves_several_arrests(rules):
    st = deal_game(
        rules, hands={0: ["EX-notice", "EX-arrest", "EX-arrest"]}, table=["OB-06", *QUIET_TABLE[:3]]
    )
    act(st, "execute", ob("OB-06"))
    feed(st, "OBJ-dismissed")
    act(st, "play", "EX-notice")
    settle(st)
    act(st, "play", "EX-arrest")
    assert ("play", "EX-arrest") in st.legal_actions()
    act(st, "play", "EX-arrest")
    assert st.execution_power() == 1 + 4 + 4


def test_faq_one_auction_pairs_with_one_seizure(rules):
    st = deal_game(
        rules,
        hands={0: ["EX-auction", "EX-auction", "EX-seize-land", "EX-seize-vehicle"]},
        table=["OB-06", *QUIET_TABLE[:3]],
    )
    act(st, "execute", ob("OB-06"))
    feed(st, "OBJ-dismissed")
    act(st, "play", "EX-seize-land")
    act(st, "play", "EX-auction")
    act(st, "play", "EX-auction")
    assert st.execution_power() == 8 + 2 + 2  # not ×4: one 拍賣 per 查封
    act(st, "play", "EX-seize-vehicle")
    assert st.execution_power() == 8 + 6 + 2 + 2  # the second 拍賣 takes 查封車輛


def test_faq_delayed_spotlight_obligor_still_forces_the_penalty(rules):
    st = deal_game(
        rules, hands={0: ["EX-delay", "EX-seize-land", "EX-sale"]}, table=["OB-04", *QUIET_TABLE[:3]]
    )
    act(st, "strat", "EX-delay", ob("OB-04"))
    assert ("execute", ob("OB-04")) not in st.legal_actions()  # 延緩執行: cannot be executed
    act(st, "execute", ob("OB-03"))
    assert st.penalties[0] == 1  # skipped a 矚目 obligor


def test_faq_own_project_beats_spotlight(rules):
    st = deal_game(rules, hands={0: ["EX-seize-land", "EX-sale"]}, table=["OB-04", *QUIET_TABLE[:3]])
    act(st, "project", ob("OB-03"))
    settle(st)
    assert st.project(0).card == "OB-03" and st.penalties[0] == 0
    act(st, "execute", ob("OB-03"))
    act(st, "play", "EX-seize-land")
    act(st, "play", "EX-sale")
    act(st, "resolve")
    assert st.penalties[0] == 0 and st.project(0) is None and st.points[0] == 5


def test_news_gives_spotlight_until_the_casters_next_turn(rules):
    st = deal_game(rules, hands={0: ["EX-news"]})
    act(st, "strat", "EX-news", ob("OB-01"))
    target = next(c for c in st.table() if c.card == "OB-01")
    assert st.spotlight(target)
    flow.expire_effects(st, 1)
    assert st.spotlight(target)  # another seat's turn: still on
    flow.expire_effects(st, 0)
    assert not st.spotlight(target)


def test_faq_news_or_delay_blocks_projects_and_big_debtors_never_are(rules):
    st = deal_game(
        rules, hands={0: ["EX-news", "EX-delay", "EX-assign", "EX-award"]}, table=["OB-06", *QUIET_TABLE[:3]]
    )
    act(st, "strat", "EX-news", ob("OB-03"))
    act(st, "strat", "EX-delay", ob("OB-01"))
    legal = st.legal_actions()
    for blocked in ("OB-03", "OB-01", "OB-06"):
        assert ("project", ob(blocked)) not in legal
        assert ("strat", "EX-award", ob(blocked)) not in legal
        assert not any(a[:3] == ("strat", "EX-assign", ob(blocked)) for a in legal)
    assert ("project", ob("OB-19")) in legal


def test_faq_exposed_fake_vulnerable_voids_aid_already_played(rules):
    st = deal_game(
        rules,
        hands={0: ["EX-referral", "EX-instalment", "EX-probe", "EX-seize-land"]},
        table=["OB-10", *QUIET_TABLE[:3]],
    )
    act(st, "execute", ob("OB-10"))
    assert ("play", "EX-seize-land") not in st.legal_actions()  # 假弱勢 counts as 弱勢
    act(st, "play", "EX-referral")
    act(st, "play", "EX-instalment")
    assert st.execution_power() == 5
    act(st, "play", "EX-probe")  # 識破: turned, no longer 弱勢
    assert st.execution_power() == 1  # 扶助 cards void
    assert ("play", "EX-seize-land") in st.legal_actions()
    act(st, "play", "EX-seize-land")
    assert st.execution_power() == 5
    act(st, "resolve")
    assert st.penalties[0] == 1 and not st.helped[0]
    assert not st.weak(next(c for c in st.table() if c.card == "OB-10"))  # stays exposed


@pytest.mark.parametrize("card", ["EX-assign", "EX-award"])
def test_faq_assign_and_award_replace_a_project_without_penalty(rules, card):
    st = deal_game(rules, hands={0: [card]})
    act(st, "project", ob("OB-03"))
    settle(st)
    extra = (0,) if card == "EX-assign" else ()
    act(st, "strat", card, ob("OB-01"), *extra)
    settle(st)
    assert st.project(0).card == "OB-01" and st.penalties[0] == 0
    assert "OB-03" in [c.card for c in st.table()]  # the old project goes back
    if card == "EX-award":
        assert ("execute", ob("OB-01")) not in st.legal_actions()  # not this turn
        assert st.power_against(0, st.project(0), "project", []) == 2


def test_project_action_replacing_a_project_is_a_penalty(rules):
    st = deal_game(rules)
    act(st, "project", ob("OB-03"))
    settle(st)
    act(st, "project", ob("OB-01"))
    settle(st)
    assert st.penalties[0] == 1 and st.project(0).card == "OB-01"


def test_abandoning_the_project_for_a_table_obligor_is_a_penalty(rules):
    st = deal_game(rules)
    act(st, "project", ob("OB-03"))
    settle(st)
    act(st, "execute", ob("OB-01"))
    feed(st, "OBJ-dismissed")
    assert st.penalties[0] == 1 and st.project(0) is None
    assert "OB-03" in [c.card for c in st.table()]


def test_assign_gives_another_player_a_project(rules):
    st = deal_game(rules, hands={0: ["EX-assign"]})
    act(st, "strat", "EX-assign", ob("OB-19"), 2)
    settle(st)
    assert st.project(2).card == "OB-19" and len(st.table()) == 4
    assert ("execute", ob("OB-19")) not in st.legal_actions()  # only its owner executes it
