"""Top Enforcement Officer (王牌執行官) rules engine: traits, card effects, penalties, the end and scoring."""

from __future__ import annotations

import random

import pytest

from enforcer_positions import (
    DEFAULT_OFFICERS,
    QUIET_TABLE,
    act,
    conserved,
    deal_game,
    feed,
    grab,
    ob,
    settle,
)  # fmt: skip
from pnpforge.rules.engine import TERMINAL
from pnpforge.rules.games.enforcer import EnforcerState, flow, make_rules
from pnpforge.rules.games.enforcer.memo import READOUTS
from pnpforge.rules.kit import load_game
from pnpforge.store.db import open_db


@pytest.fixture
def db(shipped_db):
    return open_db(shipped_db)


@pytest.fixture
def rules(db):
    return make_rules(load_game(db, "enforcer"), {})


# ---- traits and card effects --------------------------------------------------------------


def test_vulnerable_refuses_seizure_restriction_and_revenue_but_takes_aid(rules):
    st = deal_game(
        rules,
        hands={0: ["EX-seize-land", "EX-seize-revenue", "EX-notice", "EX-referral", "EX-care-visit"]},
        table=["OB-07", *QUIET_TABLE[:3]],
    )
    act(st, "execute", ob("OB-07"))
    plays = {a[1] for a in st.legal_actions() if a[0] == "play"}
    assert "EX-seize-land" not in plays and "EX-seize-revenue" not in plays
    assert {"EX-referral", "EX-care-visit", "EX-notice"} <= plays
    act(st, "play", "EX-referral")
    act(st, "play", "EX-care-visit")
    settle(st)
    act(st, "resolve")
    assert st.points[0] == 1 and [c.card for c in st.helped[0]] == ["OB-07"]


def test_aid_cards_are_refused_against_ordinary_obligors(rules):
    st = deal_game(rules, hands={0: ["EX-referral"]})
    act(st, "execute", ob("OB-03"))
    assert ("play", "EX-referral") not in st.legal_actions()


def test_inmate_is_immune_to_restriction_cards(rules):
    st = deal_game(
        rules, hands={0: ["EX-notice", "EX-arrest", "EX-exit-ban"]}, table=["OB-14", *QUIET_TABLE[:3]]
    )
    act(st, "execute", ob("OB-14"))
    feed(st, "OBJ-dismissed")
    act(st, "play", "EX-notice")
    settle(st)
    plays = {a[1] for a in st.legal_actions() if a[0] == "play"}
    assert "EX-arrest" not in plays and "EX-exit-ban" not in plays


def test_specialist_adds_one_power_to_its_category_including_dual(rules):
    officers = [("OF-tax", "OF-care"), *DEFAULT_OFFICERS[1:3]]
    st = deal_game(rules, officers=officers, table=["OB-25", *QUIET_TABLE[:3]])
    act(st, "execute", ob("OB-25"))  # 稅罰
    assert st.execution_power() == 1
    fee = next(c for c in st.table() if c.card == "OB-19")
    assert st.power_against(0, fee, "table", []) == 0  # 費: no 稅 bonus


def test_freeze_deposits_flips_another_objection_and_clarify_cancels_one(rules):
    st = deal_game(rules, hands={0: ["EX-seize-deposit", "EX-clarify"]})
    act(st, "execute", ob("OB-03"))
    act(st, "play", "EX-seize-deposit")
    feed(st, "OBJ-illegal")
    assert st.execution_difficulty() == 5 + 4
    act(st, "play", "EX-clarify", 0)
    assert st.execution_difficulty() == 5 and st.execution_power() == 4


def test_wrongful_seizure_voids_seizure_power(rules):
    st = deal_game(rules, hands={0: ["EX-seize-land", "EX-sale"]}, table=["OB-06", *QUIET_TABLE[:3]])
    act(st, "execute", ob("OB-06"))
    feed(st, "OBJ-seize-error")
    act(st, "play", "EX-seize-land")
    act(st, "play", "EX-sale")
    assert st.execution_power() == 2


def test_blitz_and_detain_cost_a_discard(rules):
    st = deal_game(
        rules,
        hands={0: ["EX-blitz", "EX-sale", "EX-detain", "EX-exit-ban"]},
        table=["OB-06", *QUIET_TABLE[:3]],
    )
    act(st, "execute", ob("OB-06"))
    feed(st, "OBJ-dismissed")
    detain = [a for a in st.legal_actions() if a[:2] == ("play", "EX-detain")]
    assert detain == [("play", "EX-detain", "EX-exit-ban")]  # only a 限制 card pays for 管收
    act(st, "play", "EX-blitz", "EX-sale")
    act(st, "play", "EX-detain", "EX-exit-ban")
    assert st.execution_power() == 10
    assert {"EX-sale", "EX-exit-ban"} <= {c.card for c in st.piles.pile("exec_discard")}


def test_veteran_vetoes_one_objection_per_turn(rules):
    officers = [("OF-ace", "OF-gold"), ("OF-rookie", "OF-care"), ("OF-fee", "OF-fine")]
    st = deal_game(rules, officers=officers, table=["OB-15", *QUIET_TABLE[:3]])
    act(st, "execute", ob("OB-15"))
    feed(st, "OBJ-flaw", "OBJ-illegal")
    vetoes = [a for a in st.legal_actions() if a[0] == "veto"]
    assert vetoes and {a[1] for a in vetoes} == {0, 1}
    act(st, "veto", 1, vetoes[0][2])
    assert st.execution_difficulty() == 4 + 2
    assert not [a for a in st.legal_actions() if a[0] == "veto"]


def test_care_expert_draws_two_after_helping_the_vulnerable(rules):
    officers = [("OF-care", "OF-gold"), ("OF-rookie", "OF-ace"), ("OF-fee", "OF-fine")]
    st = deal_game(
        rules,
        officers=officers,
        hands={0: ["EX-referral", "EX-care-visit"]},
        table=["OB-07", *QUIET_TABLE[:3]],
    )
    act(st, "execute", ob("OB-07"))
    act(st, "play", "EX-referral")
    act(st, "play", "EX-care-visit")
    settle(st)
    size = len(st.hand(0))
    act(st, "resolve")
    settle(st)
    assert len(st.hand(0)) == size + 2


def test_specialty_card_returns_to_its_master_after_play(rules):
    st = rules.new_initial_state(3, random.Random(0))
    feed(st, "OF-detain", "OF-tax", "OF-fee", "OF-gold", "OF-ace", "OF-fine")
    for _ in range(3):
        act(st, "officer", st.legal_actions()[0][1])
    for _ in range(15):
        legal = st.legal_actions()
        feed(st, "EX-exit-ban" if "EX-exit-ban" in legal else legal[0])
    feed(st, "OB-06", *QUIET_TABLE[:3])
    act(st, "take_specialty")
    act(st, "execute", ob("OB-06"))
    feed(st, "OBJ-dismissed")
    act(st, "play", "SP-detain", "EX-exit-ban")
    act(st, "resolve")
    assert [c.card for c in st.piles.pile(f"specialty:{0}")] == ["SP-detain"]
    assert conserved(rules, st)


# ---- penalties, end and scoring -----------------------------------------------------------


def fail(st: EnforcerState, target: str) -> None:
    act(st, "execute", ob(target))
    settle(st)
    act(st, "resolve")
    settle(st)


def test_fifth_penalty_eliminates_and_track_cells_are_lost(rules):
    st = deal_game(rules)
    losses = []
    for _ in range(2):
        fail(st, "OB-03")
        losses.append(st.returns()[0])
        fail(st, "OB-03")
        losses.append(st.returns()[0])
        st.turn, st.period, st.phase = 0, 0, "period"  # keep seat 0 acting
        READOUTS(st).legal = None
    assert losses == [-1, -3, -6, -10]
    fail(st, "OB-03")
    assert st.out_of_game[0] and not st.hand(0) and st.turn == 1
    assert conserved(rules, st)


def test_rookie_survives_one_more_penalty(rules):
    st = deal_game(rules, officers=[("OF-rookie", "OF-gold"), ("OF-care", "OF-ace"), ("OF-fee", "OF-fine")])
    for _ in range(5):
        fail(st, "OB-03")
        st.turn, st.period, st.phase = 0, 0, "period"
        READOUTS(st).legal = None
    assert not st.out_of_game[0] and st.returns()[0] == -10
    fail(st, "OB-03")
    assert st.out_of_game[0]


def test_last_player_standing_ends_the_game_and_wins(rules):
    st = deal_game(rules)
    st.penalties[2] = 5
    flow.eliminate(st, 2)
    st.penalties[0] = 4
    fail(st, "OB-03")
    assert st.is_terminal() and st.current_player() == TERMINAL
    assert st.end_reason() == "last_player" and st.winners() == [1]


def leave_one(st: EnforcerState) -> None:
    """Move every obligor but OB-23 (no traits) from the pile into seat 2's score pile."""
    for ci in [c for c in st.piles.pile("obligor_deck") if c.card != "OB-23"]:
        st.piles.move(ci, "obligor_deck", "scored:2")
        st.points[2] += st.obligor(ci).score


def make_last_obligor_leave(rules) -> EnforcerState:
    """Seat 1 holds project OB-03; seat 0 executes the last table obligor the pile can't replace."""
    st = deal_game(
        rules,
        hands={0: ["EX-assign", "EX-seize-land"], 1: ["EX-seize-land", "EX-seize-revenue"]},
        table=["OB-02", *QUIET_TABLE[:3]],
    )
    leave_one(st)
    act(st, "strat", "EX-assign", ob("OB-03"), 1)
    settle(st)  # OB-23, the last one, revealed
    assert len(st.table()) == 4 and not st.piles.pile("obligor_deck") and st.penalties == [0, 0, 0]
    act(st, "execute", ob("OB-02"))
    act(st, "play", "EX-seize-land")
    act(st, "resolve")
    return st


def test_table_running_out_ends_the_game_with_make_up_executions(rules):
    st = make_last_obligor_leave(rules)
    assert len(st.table()) == 3 and st.ending and st.end_reason() == "table"
    assert st.execution is not None and st.execution.final and st.execution.target.card == "OB-03"
    assert st.current_player() == 1  # seat 1 makes up its project
    act(st, "resolve")  # make-up fails: a penalty
    assert st.is_terminal() and st.penalties == [0, 1, 0]
    assert conserved(rules, st)


def test_make_up_execution_success_scores(rules):
    st = make_last_obligor_leave(rules)
    act(st, "play", "EX-seize-land")
    act(st, "play", "EX-seize-revenue")
    act(st, "resolve")
    assert st.is_terminal() and st.points[1] == 5 and st.penalties == [0, 0, 0]
    assert st.points[0] == 4


def finished(rules, scored: dict, helped: dict | None = None, penalties: dict | None = None):
    st = deal_game(rules)
    for seat, ids in scored.items():
        for cid in ids:
            st.points[seat] += st.obligor(grab(st, cid, f"scored:{seat}")).score
    for seat, helped_ids in (helped or {}).items():
        st.helped[seat] = {c for c in st.piles.pile(f"scored:{seat}") if c.card in helped_ids}
    for seat, p in (penalties or {}).items():
        st.penalties[seat] = p
    flow.finish(st, "table")
    return st


def test_scoring_justice_bonus_for_all_four_categories(rules):
    st = finished(
        rules, {0: ["OB-01", "OB-07", "OB-13", "OB-19"], 1: ["OB-25", "OB-27"], 2: ["OB-02", "OB-03"]}
    )
    r = st.returns()
    assert r[0] == 4 + 1 + 3 + 2 + 4
    assert r[1] == 3 + 5 + 4  # dual cards cover 稅罰 + 健費
    assert r[2] == 4 + 5
    assert r == st.scores_from_rules()


def test_scoring_love_bonus_goes_to_most_helped_ties_share(rules):
    st = finished(
        rules,
        {0: ["OB-07", "OB-09"], 1: ["OB-08"], 2: ["OB-17"]},
        helped={0: ["OB-07", "OB-09"], 1: ["OB-08"]},
    )
    assert st.returns() == [1 + 2 + 4, 2, 2]
    st2 = finished(rules, {0: ["OB-07"], 1: ["OB-08"], 2: ["OB-17"]}, helped={0: ["OB-07"], 1: ["OB-08"]})
    assert st2.returns() == [1 + 4, 2 + 4, 2]
    assert st2.returns() == st2.scores_from_rules()


def test_tie_breakers_obligor_count_then_penalties_then_shared(rules):
    st = finished(rules, {0: ["OB-02", "OB-01"], 1: ["OB-24"], 2: ["OB-19"]})
    assert st.returns()[:2] == [8, 8] and st.winners() == [0]  # more obligors
    # seats 0 and 2 use the standard track (seat 1 is the rookie)
    st = finished(rules, {0: ["OB-03", "OB-19"], 2: ["OB-02", "OB-21"]}, penalties={0: 1, 2: 1})
    assert st.returns() == [6, 0, 6] and st.winners() == [0, 2]  # shared win
    st = finished(rules, {0: ["OB-03", "OB-21"], 2: ["OB-02", "OB-13"]}, penalties={0: 1})
    assert st.returns() == [7, 0, 7] and st.winners() == [2]  # fewer penalties
