"""Top Enforcement Officer (王牌執行官) rules engine: rulebook examples, FAQ, and random play.

Positions are reached through the engine's own interface: a test chooses the chance outcomes
(which officers are dealt, which cards are drawn, which obligors and objections are flipped)
from a private copy of cards.db, so every card is real and conservation holds throughout.
Scoring tests move real cards between zones with `grab` (never creating any).
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from pnpforge.errors import PnpError
from pnpforge.rules.engine import CHANCE, TERMINAL, CardInstance, RuleViolation
from pnpforge.rules.games.enforcer import EnforcerState, make_rules
from pnpforge.rules.runner import play_game
from pnpforge.store import repo
from pnpforge.store.db import open_db, transaction

# Cards drawn when a test does not care: plain power, no effect that changes the scenario.
FILLER = ["EX-sale", "EX-instalment", "EX-care-visit", "EX-probe", "EX-seize-revenue",
          "EX-blitz", "EX-seize-deposit", "EX-exit-ban", "EX-seize-vehicle"]
QUIET_TABLE = ["OB-03", "OB-01", "OB-19", "OB-27"]       # no 矚目, no 大戶, not weak
DEFAULT_OFFICERS = [("OF-negotiate", "OF-care"), ("OF-rookie", "OF-gold"),
                    ("OF-ace", "OF-fee"), ("OF-fine", "OF-health"), ("OF-tax", "OF-auction"),
                    ("OF-arrest", "OF-detain")]


@pytest.fixture
def db(shipped_db):
    return open_db(shipped_db)


@pytest.fixture
def rules(db):
    return make_rules(db, {})


# ---- position helpers ----------------------------------------------------------------------

def feed(st: EnforcerState, *ids: str) -> None:
    """Apply chosen chance outcomes, one per id."""
    for cid in ids:
        assert st.current_player() == CHANCE, f"expected a chance node for {cid}"
        st.apply(cid)


def settle(st: EnforcerState) -> None:
    """Resolve pending chance nodes with filler cards (or the first outcome)."""
    while st.current_player() == CHANCE:
        legal = st.legal_actions()
        st.apply(next((c for c in FILLER if c in legal), legal[0]))


def act(st: EnforcerState, *action) -> None:
    st.apply(tuple(action))


def setup(rules, players: int = 3, officers=None, hands=None, table=None) -> EnforcerState:
    """A game dealt with the given officers (first of each pair chosen), hands and table."""
    st = rules.new_initial_state(players, random.Random(0))
    officers = officers or DEFAULT_OFFICERS[:players]
    for pair in officers:
        feed(st, *pair)
    for seat, pair in enumerate(officers):
        assert st.current_player() == seat
        act(st, "officer", pair[0])
    hands = hands or {}
    for seat in range(players):
        wanted = list(hands.get(seat, []))
        for _ in range(5):
            if wanted:
                feed(st, wanted.pop(0))
            else:
                legal = st.legal_actions()
                feed(st, next((c for c in FILLER if c in legal), legal[0]))
    feed(st, *(table or QUIET_TABLE))
    if st.phase == "clock_in":
        act(st, "draw")
    settle(st)
    assert st.phase == "period" and st.period == 0 and st.current_player() == 0
    return st


def grab(st: EnforcerState, cid: str) -> CardInstance:
    """Remove one instance of `cid` from whichever pile holds it."""
    piles = [st.exec_deck, st.exec_discard, st.obligor_deck, st.table, *st.hand, *st.scored]
    for pile in piles:
        for i, ci in enumerate(pile):
            if ci.card == cid:
                return pile.pop(i)
    raise AssertionError(f"{cid} not found")


def ob(cid: str) -> str:
    return f"{cid}#0"


def conserved(rules, st: EnforcerState) -> bool:
    seen: Counter = Counter()
    for cards in st.zones().values():
        seen.update(cards)
    return seen == Counter(rules.deck())


# ---- set-up and turn structure ---------------------------------------------------------

def test_setup_deals_two_officers_five_cards_and_four_obligors(rules):
    st = setup(rules, 4)
    assert [len(h) for h in st.hand] == [6, 5, 5, 5]          # seat 0 has clocked in
    assert len(st.table) == 4 and len(st.obligor_deck) == 28 - 4
    for s in range(4):
        assert st.officer[s] is not None and len(st.cover[s]) == 1 and len(st.penalty_card[s]) == 1
    assert len(st.box) == 12 - 8 + 3                           # undealt officers + specialties
    assert st.tracks[1].eliminate_at == st.tracks[0].eliminate_at + 1   # 菜鳥: own track
    assert conserved(rules, st)


def test_officer_choice_is_between_the_two_dealt(rules):
    st = rules.new_initial_state(3, random.Random(0))
    feed(st, "OF-tax", "OF-care", "OF-fee", "OF-gold", "OF-ace", "OF-fine")
    assert st.legal_actions() == [("officer", "OF-care"), ("officer", "OF-tax")]
    act(st, "officer", "OF-care")
    assert st.officer[0].card == "OF-care" and [c.card for c in st.cover[0]] == ["OF-tax"]


def test_player_counts_outside_3_to_6_are_refused(rules):
    with pytest.raises(PnpError, match="3–6"):
        rules.new_initial_state(2, random.Random(0))
    with pytest.raises(PnpError, match="3–6"):
        rules.new_initial_state(7, random.Random(0))


def test_chance_outcomes_are_weighted_by_copies(rules):
    st = setup(rules)
    act(st, "research")
    outcomes = dict(st.chance_outcomes())
    assert abs(sum(outcomes.values()) - 1) < 1e-9
    left = Counter(ci.card for ci in st.exec_deck)
    assert outcomes["EX-notice"] == pytest.approx(left["EX-notice"] / len(st.exec_deck))


def test_a_day_is_two_actions_then_evening_strategy_only(rules):
    st = setup(rules, hands={0: ["EX-delay"]})
    act(st, "research")
    settle(st)
    assert st.period == 1
    act(st, "research")
    settle(st)
    assert st.period == 2
    kinds = {a[0] for a in st.legal_actions()}
    assert kinds == {"strat", "end_turn"}                      # 晚上: strategy cards only
    act(st, "end_turn")
    assert st.phase == "discard"                               # 5 + 3 drawn = 8 > 6
    while st.phase == "discard":
        act(st, "discard", st.legal_actions()[0][1])
    assert len(st.hand[0]) == 6
    settle(st)
    assert st.turn == 1 and len(st.hand[1]) == 6               # seat 1 clocked in


def test_gold_officer_keeps_eight_cards(rules):
    st = setup(rules, officers=[("OF-gold", "OF-care"), ("OF-rookie", "OF-negotiate"),
                                ("OF-ace", "OF-fee")])
    act(st, "research")
    settle(st)
    act(st, "research")
    settle(st)
    act(st, "end_turn")
    assert len(st.hand[0]) == 8 and st.turn == 1


def test_strategy_cards_do_not_use_up_the_action(rules):
    st = setup(rules, hands={0: ["EX-news", "EX-cowork"]})
    act(st, "strat", "EX-news", ob("OB-03"))
    assert st.period == 0 and st.spotlight(st.table[0])
    act(st, "strat", "EX-cowork")
    settle(st)
    assert st.phase == "give"
    size = len(st.hand[0])
    act(st, "give", "EX-sale", 2)
    assert len(st.hand[0]) == size - 1 and st.phase == "period" and st.period == 0


def test_only_joint_investigation_is_playable_during_an_execution(rules):
    st = setup(rules, hands={0: ["EX-cowork", "EX-delay", "EX-news", "EX-assign", "EX-award"]})
    act(st, "execute", ob("OB-03"))
    strategies = [a for a in st.legal_actions() if a[0] == "strat"]
    assert strategies == [("strat", "EX-cowork")]
    act(st, "strat", "EX-cowork")
    settle(st)
    act(st, "give", "EX-delay", 1)
    assert st.phase == "exec" and st.exec.target.card == "OB-03"


def test_master_takes_the_specialty_card_instead_of_drawing(rules):
    st = rules.new_initial_state(3, random.Random(0))
    feed(st, "OF-auction", "OF-tax", "OF-fee", "OF-gold", "OF-ace", "OF-fine")
    for _ in range(3):
        act(st, "officer", st.legal_actions()[0][1])
    settle(st)
    assert st.officer[0].card == "OF-auction"
    assert st.legal_actions() == [("draw",), ("take_specialty",)]
    act(st, "take_specialty")
    assert "SP-auction" in [c.card for c in st.hand[0]]
    assert ("research_sp",) not in st.legal_actions()          # it is already in hand


# ---- executing: the rulebook's examples ---------------------------------------------------

def test_example_weakness_doubles_seize_land_8_vs_5(rules):
    st = setup(rules, hands={0: ["EX-seize-land"]}, table=["OB-02", *QUIET_TABLE[:3]])
    act(st, "execute", ob("OB-02"))
    act(st, "play", "EX-seize-land")
    assert (st.execution_power(), st.execution_difficulty()) == (8, 5)
    act(st, "resolve")
    assert [c.card for c in st.scored[0]] == ["OB-02"]
    assert st.points[0] == 4 and st.penalties[0] == 0


def test_example_gangster_tycoon_15_vs_14(rules):
    st = setup(rules, hands={0: ["EX-notice", "EX-arrest", "EX-seize-land", "EX-auction"]},
               table=["OB-18", *QUIET_TABLE[:3]])
    act(st, "execute", ob("OB-18"))
    feed(st, "OBJ-flaw")                                        # 程序瑕疵: 難度 +2
    assert st.execution_difficulty() == 14
    assert ("play", "EX-arrest") not in st.legal_actions()    # 拘提 needs 傳繳通知 first
    act(st, "play", "EX-notice")
    settle(st)                                                  # 傳繳通知 draws a card
    act(st, "play", "EX-arrest")
    act(st, "play", "EX-seize-land")
    act(st, "play", "EX-auction")
    assert st.execution_power() == 1 + 4 + 4 * 2 + 2 == 15
    act(st, "resolve")
    assert st.points[0] == 15 and st.penalties[0] == 0


def test_gangster_redraws_on_objection_dismissed_others_do_not(rules):
    st = setup(rules, table=["OB-18", *QUIET_TABLE[:3]])
    act(st, "execute", ob("OB-18"))
    feed(st, "OBJ-dismissed")
    assert st.current_player() == CHANCE                        # 若抽出異議駁回則再抽一張
    feed(st, "OBJ-flaw")
    assert st.execution_difficulty() == 14
    st2 = setup(rules, table=QUIET_TABLE)
    act(st2, "execute", ob("OB-01"))
    feed(st2, "OBJ-dismissed")
    assert st2.current_player() == 0 and st2.execution_difficulty() == 3


def test_tout_flips_two_objections(rules):
    st = setup(rules, table=["OB-15", *QUIET_TABLE[:3]])
    act(st, "execute", ob("OB-15"))
    feed(st, "OBJ-flaw", "OBJ-illegal")
    assert st.execution_difficulty() == 4 + 2 + 4


def test_failed_execution_is_a_penalty_and_the_obligor_stays(rules):
    st = setup(rules)
    act(st, "execute", ob("OB-03"))
    act(st, "resolve")
    assert st.penalties[0] == 1 and "OB-03" in [c.card for c in st.table]
    assert st.returns()[0] == -1                                # track cell −1


# ---- FAQ ----------------------------------------------------------------------------------

def test_faq_one_notice_serves_several_arrests(rules):
    st = setup(rules, hands={0: ["EX-notice", "EX-arrest", "EX-arrest"]},
               table=["OB-06", *QUIET_TABLE[:3]])
    act(st, "execute", ob("OB-06"))
    feed(st, "OBJ-dismissed")
    act(st, "play", "EX-notice")
    settle(st)
    act(st, "play", "EX-arrest")
    assert ("play", "EX-arrest") in st.legal_actions()
    act(st, "play", "EX-arrest")
    assert st.execution_power() == 1 + 4 + 4


def test_faq_one_auction_pairs_with_one_seizure(rules):
    st = setup(rules, hands={0: ["EX-auction", "EX-auction", "EX-seize-land", "EX-seize-vehicle"]},
               table=["OB-06", *QUIET_TABLE[:3]])
    act(st, "execute", ob("OB-06"))
    feed(st, "OBJ-dismissed")
    act(st, "play", "EX-seize-land")
    act(st, "play", "EX-auction")
    act(st, "play", "EX-auction")
    assert st.execution_power() == 8 + 2 + 2                    # not ×4: one 拍賣 per 查封
    act(st, "play", "EX-seize-vehicle")
    assert st.execution_power() == 8 + 6 + 2 + 2                # the second 拍賣 takes 查封車輛


def test_faq_delayed_spotlight_obligor_still_forces_the_penalty(rules):
    st = setup(rules, hands={0: ["EX-delay", "EX-seize-land", "EX-sale"]},
               table=["OB-04", *QUIET_TABLE[:3]])
    act(st, "strat", "EX-delay", ob("OB-04"))
    assert ("execute", ob("OB-04")) not in st.legal_actions()  # 延緩執行: cannot be executed
    act(st, "execute", ob("OB-03"))
    assert st.penalties[0] == 1                                 # skipped a 矚目 obligor


def test_faq_own_project_beats_spotlight(rules):
    st = setup(rules, hands={0: ["EX-seize-land", "EX-sale"]}, table=["OB-04", *QUIET_TABLE[:3]])
    act(st, "project", ob("OB-03"))
    settle(st)
    assert st.project[0].card == "OB-03" and st.penalties[0] == 0
    act(st, "execute", ob("OB-03"))
    act(st, "play", "EX-seize-land")
    act(st, "play", "EX-sale")
    act(st, "resolve")
    assert st.penalties[0] == 0 and st.project[0] is None and st.points[0] == 5


def test_news_gives_spotlight_until_the_casters_next_turn(rules):
    st = setup(rules, hands={0: ["EX-news"]})
    act(st, "strat", "EX-news", ob("OB-01"))
    target = next(c for c in st.table if c.card == "OB-01")
    assert st.spotlight(target)
    st._expire_effects(1)
    assert st.spotlight(target)                                  # another seat's turn: still on
    st._expire_effects(0)
    assert not st.spotlight(target)


def test_faq_news_or_delay_blocks_projects_and_big_debtors_never_are(rules):
    st = setup(rules, hands={0: ["EX-news", "EX-delay", "EX-assign", "EX-award"]},
               table=["OB-06", *QUIET_TABLE[:3]])
    act(st, "strat", "EX-news", ob("OB-03"))
    act(st, "strat", "EX-delay", ob("OB-01"))
    legal = st.legal_actions()
    for blocked in ("OB-03", "OB-01", "OB-06"):
        assert ("project", ob(blocked)) not in legal
        assert ("strat", "EX-award", ob(blocked)) not in legal
        assert not any(a[:3] == ("strat", "EX-assign", ob(blocked)) for a in legal)
    assert ("project", ob("OB-19")) in legal


def test_faq_exposed_fake_vulnerable_voids_aid_already_played(rules):
    st = setup(rules, hands={0: ["EX-referral", "EX-instalment", "EX-probe", "EX-seize-land"]},
               table=["OB-10", *QUIET_TABLE[:3]])
    act(st, "execute", ob("OB-10"))
    assert ("play", "EX-seize-land") not in st.legal_actions()  # 假弱勢 counts as 弱勢
    act(st, "play", "EX-referral")
    act(st, "play", "EX-instalment")
    assert st.execution_power() == 5
    act(st, "play", "EX-probe")                                 # 識破: turned, no longer 弱勢
    assert st.execution_power() == 1                            # 扶助 cards void
    assert ("play", "EX-seize-land") in st.legal_actions()
    act(st, "play", "EX-seize-land")
    assert st.execution_power() == 5
    act(st, "resolve")
    assert st.penalties[0] == 1 and not st.helped[0]
    assert not st.weak(next(c for c in st.table if c.card == "OB-10"))  # stays exposed


@pytest.mark.parametrize("card", ["EX-assign", "EX-award"])
def test_faq_assign_and_award_replace_a_project_without_penalty(rules, card):
    st = setup(rules, hands={0: [card]})
    act(st, "project", ob("OB-03"))
    settle(st)
    extra = (0,) if card == "EX-assign" else ()
    act(st, "strat", card, ob("OB-01"), *extra)
    settle(st)
    assert st.project[0].card == "OB-01" and st.penalties[0] == 0
    assert "OB-03" in [c.card for c in st.table]               # the old project goes back
    if card == "EX-award":
        assert ("execute", ob("OB-01")) not in st.legal_actions()   # not this turn
        assert st.power_against(0, st.project[0], "project", []) == 2


def test_project_action_replacing_a_project_is_a_penalty(rules):
    st = setup(rules)
    act(st, "project", ob("OB-03"))
    settle(st)
    act(st, "project", ob("OB-01"))
    settle(st)
    assert st.penalties[0] == 1 and st.project[0].card == "OB-01"


def test_abandoning_the_project_for_a_table_obligor_is_a_penalty(rules):
    st = setup(rules)
    act(st, "project", ob("OB-03"))
    settle(st)
    act(st, "execute", ob("OB-01"))
    feed(st, "OBJ-dismissed")
    assert st.penalties[0] == 1 and st.project[0] is None
    assert "OB-03" in [c.card for c in st.table]


def test_assign_gives_another_player_a_project(rules):
    st = setup(rules, hands={0: ["EX-assign"]})
    act(st, "strat", "EX-assign", ob("OB-19"), 2)
    settle(st)
    assert st.project[2].card == "OB-19" and len(st.table) == 4
    assert ("execute", ob("OB-19")) not in st.legal_actions()   # only its owner executes it


# ---- traits and card effects --------------------------------------------------------------

def test_vulnerable_refuses_seizure_restriction_and_revenue_but_takes_aid(rules):
    st = setup(rules, hands={0: ["EX-seize-land", "EX-seize-revenue", "EX-notice", "EX-referral",
                                 "EX-care-visit"]}, table=["OB-07", *QUIET_TABLE[:3]])
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
    st = setup(rules, hands={0: ["EX-referral"]})
    act(st, "execute", ob("OB-03"))
    assert ("play", "EX-referral") not in st.legal_actions()


def test_inmate_is_immune_to_restriction_cards(rules):
    st = setup(rules, hands={0: ["EX-notice", "EX-arrest", "EX-exit-ban"]},
               table=["OB-14", *QUIET_TABLE[:3]])
    act(st, "execute", ob("OB-14"))
    feed(st, "OBJ-dismissed")
    act(st, "play", "EX-notice")
    settle(st)
    plays = {a[1] for a in st.legal_actions() if a[0] == "play"}
    assert "EX-arrest" not in plays and "EX-exit-ban" not in plays


def test_specialist_adds_one_power_to_its_category_including_dual(rules):
    officers = [("OF-tax", "OF-care"), *DEFAULT_OFFICERS[1:3]]
    st = setup(rules, officers=officers, table=["OB-25", *QUIET_TABLE[:3]])
    act(st, "execute", ob("OB-25"))                             # 稅罰
    assert st.execution_power() == 1
    fee = next(c for c in st.table if c.card == "OB-19")
    assert st.power_against(0, fee, "table", []) == 0           # 費: no 稅 bonus


def test_freeze_deposits_flips_another_objection_and_clarify_cancels_one(rules):
    st = setup(rules, hands={0: ["EX-seize-deposit", "EX-clarify"]})
    act(st, "execute", ob("OB-03"))
    act(st, "play", "EX-seize-deposit")
    feed(st, "OBJ-illegal")
    assert st.execution_difficulty() == 5 + 4
    act(st, "play", "EX-clarify", 0)
    assert st.execution_difficulty() == 5 and st.execution_power() == 4


def test_wrongful_seizure_voids_seizure_power(rules):
    st = setup(rules, hands={0: ["EX-seize-land", "EX-sale"]}, table=["OB-06", *QUIET_TABLE[:3]])
    act(st, "execute", ob("OB-06"))
    feed(st, "OBJ-seize-error")
    act(st, "play", "EX-seize-land")
    act(st, "play", "EX-sale")
    assert st.execution_power() == 2


def test_blitz_and_detain_cost_a_discard(rules):
    st = setup(rules, hands={0: ["EX-blitz", "EX-sale", "EX-detain", "EX-exit-ban"]},
               table=["OB-06", *QUIET_TABLE[:3]])
    act(st, "execute", ob("OB-06"))
    feed(st, "OBJ-dismissed")
    detain = [a for a in st.legal_actions() if a[:2] == ("play", "EX-detain")]
    assert detain == [("play", "EX-detain", "EX-exit-ban")]     # only a 限制 card pays for 管收
    act(st, "play", "EX-blitz", "EX-sale")
    act(st, "play", "EX-detain", "EX-exit-ban")
    assert st.execution_power() == 10
    assert {"EX-sale", "EX-exit-ban"} <= {c.card for c in st.exec_discard}


def test_veteran_vetoes_one_objection_per_turn(rules):
    officers = [("OF-ace", "OF-gold"), ("OF-rookie", "OF-care"), ("OF-fee", "OF-fine")]
    st = setup(rules, officers=officers, table=["OB-15", *QUIET_TABLE[:3]])
    act(st, "execute", ob("OB-15"))
    feed(st, "OBJ-flaw", "OBJ-illegal")
    vetoes = [a for a in st.legal_actions() if a[0] == "veto"]
    assert vetoes and {a[1] for a in vetoes} == {0, 1}
    act(st, "veto", 1, vetoes[0][2])
    assert st.execution_difficulty() == 4 + 2
    assert not [a for a in st.legal_actions() if a[0] == "veto"]


def test_care_expert_draws_two_after_helping_the_vulnerable(rules):
    officers = [("OF-care", "OF-gold"), ("OF-rookie", "OF-ace"), ("OF-fee", "OF-fine")]
    st = setup(rules, officers=officers, hands={0: ["EX-referral", "EX-care-visit"]},
               table=["OB-07", *QUIET_TABLE[:3]])
    act(st, "execute", ob("OB-07"))
    act(st, "play", "EX-referral")
    act(st, "play", "EX-care-visit")
    settle(st)
    size = len(st.hand[0])
    act(st, "resolve")
    settle(st)
    assert len(st.hand[0]) == size + 2


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
    assert [c.card for c in st.specialty[0]] == ["SP-detain"]
    assert conserved(rules, st)


# ---- penalties, end and scoring -----------------------------------------------------------

def fail(st: EnforcerState, target: str) -> None:
    act(st, "execute", ob(target))
    settle(st)
    act(st, "resolve")
    settle(st)


def test_fifth_penalty_eliminates_and_track_cells_are_lost(rules):
    st = setup(rules)
    losses = []
    for _ in range(2):
        fail(st, "OB-03")
        losses.append(st.returns()[0])
        fail(st, "OB-03")
        losses.append(st.returns()[0])
        st.turn, st.period, st.phase = 0, 0, "period"           # keep seat 0 acting
        st._legal = None
    assert losses == [-1, -3, -6, -10]
    fail(st, "OB-03")
    assert st.eliminated[0] and not st.hand[0] and st.turn == 1
    assert conserved(rules, st)


def test_rookie_survives_one_more_penalty(rules):
    st = setup(rules, officers=[("OF-rookie", "OF-gold"), ("OF-care", "OF-ace"),
                                ("OF-fee", "OF-fine")])
    for _ in range(5):
        fail(st, "OB-03")
        st.turn, st.period, st.phase = 0, 0, "period"
        st._legal = None
    assert not st.eliminated[0] and st.returns()[0] == -10
    fail(st, "OB-03")
    assert st.eliminated[0]


def test_last_player_standing_ends_the_game_and_wins(rules):
    st = setup(rules)
    st.penalties[2] = 5
    st._eliminate(2)
    st.penalties[0] = 4
    fail(st, "OB-03")
    assert st.is_terminal() and st.current_player() == TERMINAL
    assert st.end_reason() == "last_player" and st.winners() == [1]


def leave_one(st: EnforcerState) -> None:
    """Move every obligor but OB-23 (no traits) from the pile into seat 2's score pile."""
    for ci in [c for c in st.obligor_deck if c.card != "OB-23"]:
        st.obligor_deck.remove(ci)
        st.scored[2].append(ci)
        st.points[2] += st.ob(ci).score


def make_last_obligor_leave(rules) -> EnforcerState:
    """Seat 1 holds project OB-03; seat 0 executes the last table obligor the pile can't replace."""
    st = setup(rules, hands={0: ["EX-assign", "EX-seize-land"], 1: ["EX-seize-land", "EX-seize-revenue"]},
               table=["OB-02", *QUIET_TABLE[:3]])
    leave_one(st)
    act(st, "strat", "EX-assign", ob("OB-03"), 1)
    settle(st)                                                  # OB-23, the last one, revealed
    assert len(st.table) == 4 and not st.obligor_deck and st.penalties == [0, 0, 0]
    act(st, "execute", ob("OB-02"))
    act(st, "play", "EX-seize-land")
    act(st, "resolve")
    return st


def test_table_running_out_ends_the_game_with_make_up_executions(rules):
    st = make_last_obligor_leave(rules)
    assert len(st.table) == 3 and st.ending and st.end_reason() == "table"
    assert st.exec is not None and st.exec.final and st.exec.target.card == "OB-03"
    assert st.current_player() == 1                             # seat 1 makes up its project
    act(st, "resolve")                                          # make-up fails: a penalty
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
    st = setup(rules)
    for seat, ids in scored.items():
        for cid in ids:
            st.scored[seat].append(grab(st, cid))
            st.points[seat] += st.ob(st.scored[seat][-1]).score
    for seat, ids in (helped or {}).items():
        st.helped[seat] = {c for c in st.scored[seat] if c.card in ids}
    for seat, p in (penalties or {}).items():
        st.penalties[seat] = p
    st._finish("table")
    return st


def test_scoring_justice_bonus_for_all_four_categories(rules):
    st = finished(rules, {0: ["OB-01", "OB-07", "OB-13", "OB-19"], 1: ["OB-25", "OB-27"],
                          2: ["OB-02", "OB-03"]})
    r = st.returns()
    assert r[0] == 4 + 1 + 3 + 2 + 4
    assert r[1] == 3 + 5 + 4                                      # dual cards cover 稅罰 + 健費
    assert r[2] == 4 + 5
    assert r == st.scores_from_rules()


def test_scoring_love_bonus_goes_to_most_helped_ties_share(rules):
    st = finished(rules, {0: ["OB-07", "OB-09"], 1: ["OB-08"], 2: ["OB-17"]},
                  helped={0: ["OB-07", "OB-09"], 1: ["OB-08"]})
    assert st.returns() == [1 + 2 + 4, 2, 2]
    st2 = finished(rules, {0: ["OB-07"], 1: ["OB-08"], 2: ["OB-17"]},
                   helped={0: ["OB-07"], 1: ["OB-08"]})
    assert st2.returns() == [1 + 4, 2 + 4, 2]
    assert st2.returns() == st2.scores_from_rules()


def test_tie_breakers_obligor_count_then_penalties_then_shared(rules):
    st = finished(rules, {0: ["OB-02", "OB-01"], 1: ["OB-24"], 2: ["OB-19"]})
    assert st.returns()[:2] == [8, 8] and st.winners() == [0]   # more obligors
    # seats 0 and 2 use the standard track (seat 1 is the rookie)
    st = finished(rules, {0: ["OB-03", "OB-19"], 2: ["OB-02", "OB-21"]},
                  penalties={0: 1, 2: 1})
    assert st.returns() == [6, 0, 6] and st.winners() == [0, 2]  # shared win
    st = finished(rules, {0: ["OB-03", "OB-21"], 2: ["OB-02", "OB-13"]}, penalties={0: 1})
    assert st.returns() == [7, 0, 7] and st.winners() == [2]     # fewer penalties


# ---- data-driven, options, errors --------------------------------------------------------

def test_engine_reads_card_values_from_the_database(shipped_db):
    db = open_db(shipped_db)
    card = repo.get_card(db, "enforcer", "EX-seize-land")
    card.fields["power"] = 5
    with transaction(db) as conn:
        repo.update_card(conn, card)
    st = setup(make_rules(db, {}), hands={0: ["EX-seize-land"]},
               table=["OB-02", *QUIET_TABLE[:3]])
    act(st, "execute", ob("OB-02"))
    act(st, "play", "EX-seize-land")
    assert st.execution_power() == 10


def test_unknown_effects_are_reported(shipped_db):
    db = open_db(shipped_db)
    card = repo.get_card(db, "enforcer", "EX-sale")
    card.fields["effect"] = "teleport"
    with transaction(db) as conn:
        repo.update_card(conn, card)
    unknown = make_rules(db, {}).unknown_effects()
    assert [(u.card_id, u.effect) for u in unknown] == [("EX-sale", "teleport")]


def test_bad_card_data_and_options_are_clear_errors(shipped_db):
    db = open_db(shipped_db)
    with pytest.raises(PnpError, match="unknown engine option"):
        make_rules(db, {"speed": 1})
    card = repo.get_card(db, "enforcer", "PEN")
    card.fields["track"] = "-1 -3"
    with transaction(db) as conn:
        repo.update_card(conn, card)
    with pytest.raises(PnpError, match="PEN.*track"):
        make_rules(db, {})


def test_turn_cap_option_ends_a_stuck_game(db):
    capped = make_rules(db, {"max_turns": 2})
    st = setup(capped)
    for _ in range(2):                                          # seat 0, then seat 1: research
        for _ in range(2):
            act(st, "research")
            settle(st)
        act(st, "end_turn")
        while st.phase == "discard":
            act(st, "discard", st.legal_actions()[0][1])
        settle(st)
    assert st.is_terminal() and st.end_reason() == "turn_limit"


def test_notice_only_enables_arrest_in_the_same_turn(rules):
    st = setup(rules, hands={0: ["EX-notice", "EX-arrest"]}, table=["OB-06", *QUIET_TABLE[:3]])
    act(st, "execute", ob("OB-06"))
    feed(st, "OBJ-dismissed")
    act(st, "play", "EX-notice")
    settle(st)
    act(st, "resolve")
    settle(st)
    st._begin_turn(0)                                           # a new day for seat 0
    settle(st)
    act(st, "execute", ob("OB-06"))
    settle(st)
    assert ("play", "EX-arrest") not in st.legal_actions()


def test_illegal_action_is_refused(rules):
    st = setup(rules)
    with pytest.raises(RuleViolation):
        st.apply(("execute", "OB-28#0"))


def test_hidden_view_shows_own_hand_only_and_offers_the_greedy_hook(rules):
    st = setup(rules)
    view = st.hidden_view(1)
    assert view.hand == sorted(c.card for c in st.hand[1])
    assert view.hand_sizes == [len(h) for h in st.hand]
    assert not hasattr(view, "exec_deck")
    assert view.greedy_value(("research",)) == st.greedy_value(("research",))


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
            ids, weights = zip(*st.chance_outcomes())
            action = rng.choices(ids, weights)[0]
        elif greedy:
            values = [st.greedy_value(a) for a in legal]
            action = legal[values.index(max(values))]
        else:
            action = rng.choice(legal)
        st.apply(action)
        st.check_invariants()
    assert st.is_terminal(), f"seed {seed}: no end within {rules.info.max_steps} steps"
    assert st.returns() == st.scores_from_rules()
    assert st.winners() and all(not st.eliminated[s] for s in st.winners())
    return st


def test_random_games_conserve_cards_and_end(rules):
    reasons = Counter()
    for seed in range(40):
        st = drive(rules, 3 + seed % 4, seed)
        reasons[st.end_reason()] += 1
    assert set(reasons) <= {"table", "last_player", "turn_limit"}


def test_greedy_games_mostly_end_by_running_out_of_obligors(rules):
    reasons = Counter(drive(rules, 3 + seed % 4, seed, greedy=True).end_reason()
                      for seed in range(12))
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
