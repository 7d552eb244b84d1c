"""Rules engine of Infiltraitors (滲透因子): the rulebook's examples, the missions' special
rules, hidden information, and seeded random play checked at every step."""

from __future__ import annotations

import random
import shutil
from collections import Counter
from pathlib import Path

import pytest

from pnpforge.errors import PnpError
from pnpforge.rules.engine import CHANCE, CardInstance, RuleViolation
from pnpforge.rules.games.infiltraitors import (CENTER, EXTRA, factor_relations, make_rules,
                                                mission_id, related)
from pnpforge.rules.runner import play_game
from pnpforge.store import repo
from pnpforge.store.db import open_db, transaction

REPO_DB = Path(__file__).resolve().parents[1] / "cards.db"
ALL_MISSIONS = ["T1", "T2", "T3"] + [f"M{i:02d}" for i in range(1, 21)]


@pytest.fixture(scope="module")
def db(tmp_path_factory):
    path = tmp_path_factory.mktemp("infiltraitors") / "cards.db"
    shutil.copy(REPO_DB, path)
    return open_db(path)


@pytest.fixture(scope="module")
def rules_for(db):
    cache: dict = {}

    def get(mission: str = "M01"):
        if mission not in cache:
            cache[mission] = make_rules(db, {"mission": mission})
        return cache[mission]
    return get


# ---- helpers: settle set-up, then arrange a position by moving real cards ---------------

def fresh(rules, players: int = 3, seed: int = 0):
    st = rules.new_initial_state(players, random.Random(seed))
    rng = random.Random(seed)
    while st.current_player() == CHANCE:
        st.apply(rng.choice(st.legal_actions()))
    return st


def pull(st, cid: str) -> CardInstance:
    """Take card `cid` from wherever it lies (keeps card conservation intact)."""
    for zone in [st.hq, st.pile, st.extra, st.discard_up, st.discard_down, st.center,
                 st.rewards, st.box, *st.hands]:
        for c in zone:
            if c.card == cid:
                zone.remove(c)
                return c
    for slots in (st.racks, st.covers):
        for i, c in enumerate(slots):
            if c is not None and c.card == cid:
                slots[i] = None
                return c
    for hints in st.hints.values():
        for i, (c, _) in enumerate(hints):
            if c.card == cid:
                hints.pop(i)
                return c
    raise AssertionError(f"{cid} not found")


def put_rack(st, seat: int, cid: str) -> None:
    """Stand card `cid` before `seat` as if it had been taken from the centre."""
    in_pile = any(c.card == cid for c in st.pile)
    if st.racks[seat] is not None:
        st.hq.append(st.racks[seat])
    elif not in_pile and st.pile:
        st.hq.append(st.pile.pop())      # keep the number of unsolved suspects
    st.racks[seat] = pull(st, cid)
    st.refresh()


def set_hand(st, seat: int, cids: list[str]) -> None:
    st.hq.extend(st.hands[seat])
    st.hands[seat] = []
    for cid in cids:
        st.hands[seat].append(pull(st, cid))
    st.refresh()


def settle_chance(st, rng: random.Random | None = None) -> None:
    rng = rng or random.Random(1)
    while st.current_player() == CHANCE:
        st.apply(rng.choice(st.legal_actions()))


def conserved(st, rules) -> bool:
    return Counter(c for z in st.zones().values() for c in z) == Counter(rules.deck())


# ---- the relation rule (rulebook: 給予提示 and its example) ---------------------------------

def test_relation_examples_from_the_rulebook(rules_for):
    specs = rules_for().specs
    # 嫌疑人牌是紅 6: any red card relates; 3 (factor) and 12 (multiple) relate; 4 does not.
    assert related(specs["R09"], "紅", 6)
    assert related(specs["K03"], "紅", 6)
    assert related(specs["Y12"], "紅", 6)
    assert not related(specs["K04"], "紅", 6)
    assert related(specs["B06"], "紅", 6)          # same number
    assert not related(specs["K13"], "紅", 6)
    assert related(specs["SP-R"], "紅", 6)         # special card: same suit
    assert not related(specs["SP-K"], "紅", 6)     # special card: suit only, never by number


def test_printed_relation_lists_are_the_factor_rule(rules_for):
    specs = rules_for().specs
    assert specs["R06"].relates == {2, 3, 12}
    assert specs["K07"].relates == {14}
    assert specs["Y11"].relates == frozenset()
    assert factor_relations(2) == {4, 6, 8, 10, 12, 14}


def test_hint_is_placed_upright_or_sideways_by_the_rule(rules_for):
    rules = rules_for()
    st = fresh(rules)
    put_rack(st, 0, "R06")
    set_hand(st, 0, ["K03", "K04", "Y12"])
    st.apply(("hint", 0, "K03", 0))
    assert st.hints[0][-1] == (CardInstance("K03"), True)
    # next time round seat 0 plays 4 beside its red 6: sideways
    st.turn = st.actor = 0
    st.stage = "act"
    st.refresh()
    st.apply(("hint", 0, "K04", 0))
    assert st.hints[0][-1] == (CardInstance("K04"), False)
    assert st.cards_played() == ["K03", "K04"]


# ---- the five actions --------------------------------------------------------------------

def test_take_a_suspect_then_the_top_card_is_discarded_unseen(rules_for):
    rules = rules_for()
    st = fresh(rules)
    pile, hq, down = len(st.pile), len(st.hq), len(st.discard_down)
    assert ("take",) in st.legal_actions()
    st.apply(("take",))
    settle_chance(st)
    assert st.racks[0] is not None and len(st.pile) == pile - 1
    assert len(st.hq) == hq - 1 and len(st.discard_down) == down + 1
    # never more than one suspect on a stand
    st.turn = st.actor = 0
    st.stage = "act"
    st.refresh()
    assert ("take",) not in st.legal_actions()


def test_exchange_is_placed_by_the_suspects_owner_and_may_draw(rules_for):
    rules = rules_for()
    st = fresh(rules)
    put_rack(st, 1, "K06")
    set_hand(st, 0, ["R12", "Y04"])
    legal = st.legal_actions()
    assert ("exchange", 0, 1, "R12", 0, 1) in legal and ("exchange", 0, 1, "R12", 0, 0) in legal
    st.apply(("exchange", 0, 1, "R12", 0, 1))
    assert st.current_player() == CHANCE          # the draw is a chance step
    settle_chance(st)
    assert st.hints[1] == [(CardInstance("R12"), True)]
    assert len(st.hands[0]) == 2


def test_exchange_and_elimination_never_target_your_own_suspect(rules_for):
    st = fresh(rules_for())
    put_rack(st, 0, "R06")
    assert not any(a[0] in ("exchange", "eliminate") and a[2 if a[0] == "exchange" else 1] == 0
                   for a in st.legal_actions())


def test_wait_discards_the_top_unseen_and_draws_up_to_three(rules_for):
    rules = rules_for()
    st = fresh(rules)
    assert [a for a in st.legal_actions() if a[0] == "wait"] == [("wait", k) for k in range(4)]
    hand, hq, down = len(st.hands[0]), len(st.hq), len(st.discard_down)
    st.apply(("wait", 2))
    settle_chance(st)
    assert len(st.hands[0]) == hand + 2 and len(st.hq) == hq - 3
    assert len(st.discard_down) == down + 1


def test_correct_elimination_returns_suspect_discards_hints_and_rewards(rules_for):
    rules = rules_for()
    st = fresh(rules)
    put_rack(st, 1, "K06")
    st.hints[1] = [(pull(st, "R12"), True), (pull(st, "Y04"), False)]
    st.discard_down.append(pull(st, "B09"))
    st.refresh()
    bullets = st.bullets
    st.apply(("eliminate", 1, "黑", 6))
    assert st.bullets == bullets - 1 and st.racks[1] is None and st.solved == 1
    assert CardInstance("K06") in st.hq
    assert {c.card for c in st.discard_up} >= {"R12", "Y04"}   # hints discarded face up
    # reward: any face-up card, or a face-down one blind
    legal = st.legal_actions()
    assert ("reward", "R12", 0) in legal and ("reward_blind",) in legal
    st.apply(("reward", "R12", 0))
    assert CardInstance("R12") in st.hands[0]
    assert conserved(st, rules)


def test_wrong_guess_spends_a_bullet_and_the_suspect_stays(rules_for):
    st = fresh(rules_for())
    put_rack(st, 1, "K06")
    bullets = st.bullets
    st.apply(("eliminate", 1, "黑", 12))
    assert st.bullets == bullets - 1 and st.racks[1] == CardInstance("K06")
    assert st.solved == 0 and st.stage == "act" and st.actor == 1


def test_hand_limit_is_seven_at_the_end_of_a_turn(rules_for):
    rules = rules_for()
    st = fresh(rules)
    set_hand(st, 0, ["R02", "R03", "R04", "R05", "R07", "R08"])
    st.apply(("wait", 3))
    settle_chance(st)
    assert st.stage == "discard" and st.actor == 0 and len(st.hands[0]) == 9
    up = len(st.discard_up)
    st.apply(("discard", 0))
    st.apply(("discard", 0))
    assert len(st.hands[0]) == 7 and len(st.discard_up) == up + 2   # face up
    assert st.stage == "act" and st.actor == 1


# ---- end of the game ------------------------------------------------------------------------

def test_rulebook_example_four_suspects_three_bullets_loses(rules_for):
    st = fresh(rules_for())
    while len(st.pile) > 4:
        st.hq.append(st.pile.pop())
    put_rack(st, 1, "K06")          # 4 unsolved: 3 in the centre, 1 on a stand
    st.bullets = 4
    assert st.unsolved() == 4
    st.apply(("eliminate", 1, "黑", 7))             # a miss leaves 3 bullets for 4 suspects
    assert st.is_terminal() and st.returns() == [0.0] * 3 and st.winners() == []
    assert st.end_reason() == "fewer bullets than unsolved suspects"


def test_empty_deck_and_empty_hands_loses(rules_for):
    st = fresh(rules_for())
    put_rack(st, 1, "K06")
    for s in range(3):
        set_hand(st, s, [])
    set_hand(st, 0, ["R02"])
    st.box.extend(st.hq)
    st.hq.clear()
    st.refresh()
    st.apply(("exchange", 0, 1, "R02", 0, 0))
    assert st.is_terminal() and st.end_reason() == "headquarters deck and hands exhausted"


def test_last_traitor_eliminated_wins(rules_for):
    rules = rules_for("T1")
    st = fresh(rules)
    st.hq.extend(st.pile)
    st.pile.clear()
    put_rack(st, 1, "K06")
    st.solved = st.suspects_total - 1
    st.apply(("eliminate", 1, "黑", 6))
    assert st.is_terminal() and st.returns() == [1.0] * 3 and st.winners() == [0, 1, 2]
    assert st.scores_from_rules() == st.returns()


# ---- mission parameters ------------------------------------------------------------------

def test_training_one_setup_three_players(rules_for):
    rules = rules_for("T1")
    assert len(rules.in_play) == 36                      # 紅/黑/黃 2–13
    assert {rules.specs[c.card].suit for c in rules.in_play} == {"紅", "黑", "黃"}
    st = fresh(rules, 3)
    assert [len(h) for h in st.hands] == [5, 5, 5]
    assert len(st.pile) == 2 and st.bullets == 5 and len(st.hq) == 36 - 17


@pytest.mark.parametrize("mission,suits,players", [("T2", 3, 4), ("T3", 4, 2)])
def test_training_two_and_three_scale_with_agents(rules_for, mission, suits, players):
    rules = rules_for(mission)
    assert len(rules.in_play) == 14 * suits
    st = fresh(rules, players)
    assert len(st.pile) == players and st.bullets == players + 3


@pytest.mark.parametrize("mission,suspects,bullets,suits", [
    ("M01", 7, 10, 4), ("M05", 9, 12, 5), ("M07", 6, 7, 4), ("M12", 6, 6, 5),
    ("M18", 9, 9, 5), ("M20", 11, 12, 5)])
def test_mission_parameters(rules_for, mission, suspects, bullets, suits):
    rules = rules_for(mission)
    st = fresh(rules, 4)
    aside = 1 if mission == "M18" else 0
    assert len(st.pile) + len(st.extra) == suspects and len(st.extra) == aside
    assert st.bullets == bullets and len(rules.mission.suits) == suits


def test_mission_option_forms_and_errors(db):
    assert mission_id("m1") == "M01" and mission_id("7") == "M07" and mission_id("t2") == "T2"
    assert make_rules(db, {}).mission.id == "M01"
    with pytest.raises(PnpError, match="unknown mission"):
        make_rules(db, {"mission": "M99"})
    with pytest.raises(PnpError, match="unknown option"):
        make_rules(db, {"missoin": "M01"})
    with pytest.raises(PnpError, match="2–5"):
        make_rules(db, {}).new_initial_state(6, random.Random(0))


# ---- special rules ------------------------------------------------------------------------

def test_m02_discards_face_down(rules_for):
    st = fresh(rules_for("M02"))
    put_rack(st, 1, "K06")
    st.hints[1] = [(pull(st, "R12"), True)]
    st.refresh()
    st.apply(("eliminate", 1, "黑", 6))
    assert CardInstance("R12") in st.discard_down and not st.discard_up


def test_m03_number_tiles_set_the_order(rules_for):
    st = fresh(rules_for("M03"))
    st.apply(("take",))
    settle_chance(st)
    st.apply(("take",))
    settle_chance(st)
    assert st.tiles[:2] == [1, 2]
    targets = {a[1] for a in st.legal_actions() if a[0] == "eliminate"}
    assert targets == {0}                                    # seat 2 must solve tile 1 first


def test_m06_centre_specials_exchange_and_come_back(rules_for):
    rules = rules_for("M06")
    st = fresh(rules)
    assert sorted(c.card for c in st.center) == ["SP-B", "SP-K", "SP-R", "SP-Y"]
    put_rack(st, 1, "K06")
    assert ("exchange", CENTER, 1, "SP-K", 0, 0) in st.legal_actions()
    assert ("exchange", CENTER, 1, "SP-K", 0, 1) not in st.legal_actions()
    st.apply(("exchange", CENTER, 1, "SP-K", 0, 0))
    assert st.hints[1] == [(CardInstance("SP-K"), True)]
    st.turn = st.actor = 0
    st.stage = "act"
    st.refresh()
    st.apply(("eliminate", 1, "黑", 6))
    assert CardInstance("SP-K") in st.center and conserved(st, rules)


def test_m07_needs_balanced_hints_to_eliminate(rules_for):
    st = fresh(rules_for("M07"))
    put_rack(st, 1, "K06")
    st.hints[1] = [(pull(st, "R12"), True), (pull(st, "Y04"), False), (pull(st, "K09"), True)]
    st.refresh()
    assert not any(a[0] == "eliminate" for a in st.legal_actions())
    st.hints[1].append((pull(st, "Y05"), False))
    st.refresh()
    assert ("eliminate", 1, "黑", 6) in st.legal_actions()


def test_m08_exchange_only_to_the_left(rules_for):
    st = fresh(rules_for("M08"))
    put_rack(st, 1, "K06")
    put_rack(st, 2, "Y06")
    targets = {a[2] for a in st.legal_actions() if a[0] == "exchange"}
    assert targets == {1}


def test_m09_hand_of_three(rules_for):
    st = fresh(rules_for("M09"), 4)
    assert [len(h) for h in st.hands] == [3] * 4 and st.m.hand_limit == 3


def test_m11_eliminate_only_to_the_right(rules_for):
    st = fresh(rules_for("M11"))
    put_rack(st, 1, "K06")
    put_rack(st, 2, "Y06")
    assert {a[1] for a in st.legal_actions() if a[0] == "eliminate"} == {2}


def test_m12_sole_eliminator(rules_for):
    st = fresh(rules_for("M12"), 3, seed=4)
    e = st.eliminator
    assert e in (0, 1, 2)
    other = (e + 1) % 3
    put_rack(st, other, "K06")
    st.turn = st.actor = e
    st.refresh()
    acts = st.legal_actions()
    assert ("take",) not in acts and any(a[0] == "eliminate" for a in acts)
    st.turn = st.actor = (e + 2) % 3
    st.refresh()
    acts = st.legal_actions()
    assert ("take",) in acts and not any(a[0] == "eliminate" for a in acts)


def test_m15_special_suspect_is_number_one_and_relates_by_suit(rules_for):
    rules = rules_for("M15")
    assert sum(1 for c in rules.in_play if rules.specs[c.card].special) == 5
    st = fresh(rules)
    put_rack(st, 1, "SP-K")
    set_hand(st, 0, ["K05", "R02"])
    st.apply(("exchange", 0, 1, "K05", 0, 0))
    assert st.hints[1][-1][1] is True
    st.turn = st.actor = 0
    st.stage = "act"
    st.refresh()
    st.apply(("exchange", 0, 1, "R02", 0, 0))      # 2 does not 'divide' a special's number 1
    assert st.hints[1][-1][1] is False
    st.turn = st.actor = 0
    st.stage = "act"
    st.refresh()
    st.apply(("eliminate", 1, "黑", 1))
    assert st.solved == 1


def test_m16_covered_card_sets_the_suit(rules_for):
    rules = rules_for("M16")
    st = fresh(rules)
    down = len(st.discard_down)
    st.apply(("take",))
    settle_chance(st)
    assert st.covers[0] is not None and len(st.discard_down) == down
    put_rack(st, 1, "K06")
    st.covers[1] = pull(st, "Y09")
    set_hand(st, 0, ["Y02", "K13"])
    st.turn = st.actor = 0
    st.stage = "act"
    st.refresh()
    st.apply(("exchange", 0, 1, "K13", 0, 0))
    assert st.hints[1][-1][1] is False              # black no longer matches: suit is yellow
    st.turn = st.actor = 0
    st.stage = "act"
    st.refresh()
    st.apply(("eliminate", 1, "黃", 6))
    assert st.solved == 1 and {CardInstance("K06"), CardInstance("Y09")} <= set(st.hq)
    assert conserved(st, rules)


def test_m17_hands_face_out(rules_for):
    rules = rules_for("M17")
    st = fresh(rules)
    put_rack(st, 0, "R06")
    put_rack(st, 2, "K06")
    acts = st.legal_actions()
    assert all(a[1] != 0 for a in acts if a[0] in ("hint", "exchange"))
    assert all(a[5] == 1 for a in acts if a[0] == "exchange")        # the draw is compulsory
    view = st.hidden_view(0)
    assert view.hand is None and view.other_hands[1] == st.hands[1]
    card = st.hands[1][0]
    st.apply(("exchange", 1, 2, card.card, card.copy, 1))
    settle_chance(st)
    assert len(st.hands[0]) == 6 and len(st.hands[1]) == 4


def test_m18_last_suspect_is_solved_with_the_pooled_rewards(rules_for):
    rules = rules_for("M18")
    st = fresh(rules, 3)
    st.hq.extend(st.pile)
    st.pile.clear()
    st.hq.append(st.extra.pop())
    st.extra.append(pull(st, "Y15"))
    st.solved = 7
    put_rack(st, 1, "K06")
    st.discard_up.append(pull(st, "R02"))
    st.rewards += [pull(st, c) for c in ["R03", "R04", "R05", "R07", "R08", "R09", "R10"]]
    st.refresh()
    st.apply(("eliminate", 1, "黑", 6))
    st.apply(("reward", "R02", 0))                       # 8th reward joins the pool
    settle_chance(st)
    assert st.final_phase and st.racks[0] == CardInstance("Y15") and not st.extra
    assert sorted(len(h) for h in st.hands) == [2, 3, 3] and len(st.hands[0]) == 3
    assert not st.rewards and conserved(st, rules)
    st.turn = st.actor = 1
    st.refresh()
    acts = st.legal_actions()
    assert not any(a[0] in ("wait", "take") for a in acts)
    assert all(a[5] == 0 for a in acts if a[0] == "exchange")


def test_m19_look_withdraw_and_final_shot(rules_for):
    rules = rules_for("M19")
    st = fresh(rules, 2)
    st.hq.append(st.extra.pop())
    st.extra.append(pull(st, "G15"))
    aside = st.extra[0]
    put_rack(st, 1, "K06")
    set_hand(st, 0, ["R02", "R03"])
    st.apply(("eliminate", 1, "黑", 6))
    if st.stage == "reward":
        st.apply(("reward_skip",))
    assert st.stage == "peek"
    st.apply(("peek", 1))
    assert st.stage == "extra_hint" and st.extra_hints_left == 2     # two cards in a 2-player game
    st.apply(("extra_hint", 0, "R02", 0))
    st.apply(("extra_hint", 0, "R03", 0))
    assert st.withdrawn[0] and st.stage == "final" and st.actor == 1
    assert st.hidden_view(0).extra_known == aside and st.hidden_view(1).extra_known is None
    suit, number = rules.specs[aside.card].identity()
    st.apply(("eliminate", EXTRA, suit, number))
    assert st.is_terminal() and st.returns() == [1.0, 1.0]
    assert st.end_reason() == "final suspect eliminated" and st.scores_from_rules() == [1.0, 1.0]


# ---- hidden information --------------------------------------------------------------------

def _contents(value) -> list:
    """Every leaf inside a view attribute (lists, tuples, dicts), to search for a card."""
    if isinstance(value, dict):
        return [x for k, v in value.items() for x in _contents(k) + _contents(v)]
    if isinstance(value, (list, tuple, set)):
        return [x for v in value for x in _contents(v)]
    return [value]


def test_hidden_view_shows_only_what_the_seat_may_see(rules_for):
    rules = rules_for("M16")
    st = fresh(rules)
    put_rack(st, 0, "R06")
    put_rack(st, 1, "K06")
    st.covers[1] = pull(st, "Y09")
    st.refresh()
    view = st.hidden_view(0)
    assert view.my_suspect == CardInstance("R06") and view.hand == st.hands[0]
    assert view.has_cover[1] and view.occupied[1]
    leaves = _contents({k: v for k, v in vars(view).items() if k not in ("rules", "m")})
    for secret in [CardInstance("K06"), CardInstance("Y09"), *st.hq, *st.hands[1], *st.pile]:
        assert secret not in leaves
    assert view.guess_probability(1, "黃", 6) < 1.0
    assert st.hidden_view(1).my_suspect == CardInstance("K06")
    assert st.hidden_view(1).my_cover == CardInstance("Y09")


def test_greedy_value_ignores_what_the_seat_cannot_see(rules_for):
    """Swap another seat's suspect with a deck card: the acting seat's values do not move."""
    rules = rules_for()
    st = fresh(rules)
    put_rack(st, 1, "K06")
    st.hints[1] = [(pull(st, "R12"), True), (pull(st, "Y05"), False)]
    st.refresh()
    before = {a: st.greedy_value(a) for a in st.legal_actions()}
    swap = next(c for c in st.hq if c.card not in ("K06",))
    st.hq.remove(swap)
    st.hq.append(st.racks[1])
    st.racks[1] = swap
    st.hq.sort(key=lambda c: (c.card, c.copy))
    st.refresh()
    after = {a: st.greedy_value(a) for a in st.legal_actions()}
    assert before == after


def test_greedy_shoots_when_the_hints_pin_the_suspect(rules_for):
    rules = rules_for("T1")
    st = fresh(rules)
    put_rack(st, 1, "K13")
    # 13 is prime: upright 紅13 (same number) plus sideways reds/yellows narrow it down.
    pins = ["R13", "Y13", "R02", "Y03", "R05", "Y07", "R11", "Y11", "R04", "Y02"]
    st.hints[1] = [(pull(st, c), st.orientation(CardInstance(c), 1)) for c in pins]
    st.refresh()
    view = st.hidden_view(0)
    assert view.guess_probability(1, "黑", 13) == 1.0
    best = max(st.legal_actions(), key=view.greedy_value)
    assert best == ("eliminate", 1, "黑", 13)


# ---- data drives the engine ---------------------------------------------------------------

def test_an_edit_to_the_database_changes_the_next_game(tmp_path):
    path = tmp_path / "cards.db"
    shutil.copy(REPO_DB, path)
    db = open_db(path)
    card = repo.get_card(db, "infiltraitors", "M01")
    card.fields["bullets"] = 8
    with transaction(db) as conn:
        repo.update_card(conn, card)
    assert fresh(make_rules(db, {"mission": "M01"})).bullets == 8
    six = repo.get_card(db, "infiltraitors", "R06")
    six.fields["relates"] = ["2", "4"]
    with transaction(db) as conn:
        repo.update_card(conn, six)
    with pytest.raises(PnpError, match="R06"):
        make_rules(db, {"mission": "M01"})


def test_unknown_effects_are_reported(tmp_path):
    path = tmp_path / "cards.db"
    shutil.copy(REPO_DB, path)
    db = open_db(path)
    assert make_rules(db, {}).unknown_effects() == []
    card = repo.get_card(db, "infiltraitors", "M02")
    card.fields["effect"] = "no_talk"
    with transaction(db) as conn:
        conn.execute("UPDATE field_defs SET allowed = json_insert(allowed, '$[#]', 'teleport') "
                     "WHERE game = 'infiltraitors' AND card_type = 'mission' AND name = 'effect'")
        card.fields["effect"] = "teleport"
        repo.update_card(conn, card)
    unknown = make_rules(db, {}).unknown_effects()
    assert [(u.card_id, u.effect) for u in unknown] == [("M02", "teleport")]


def test_apply_refuses_an_illegal_action(rules_for):
    st = fresh(rules_for())
    with pytest.raises(RuleViolation):
        st.apply(("eliminate", 0, "紅", 6))


# ---- seeded random play -----------------------------------------------------------------

def _uniform(st, legal, rng):
    return legal[rng.randrange(len(legal))]


def _by_kind(st, legal, rng):
    """Random kind of action, but shots only at a likely guess, so games run deep."""
    view = st.hidden_view(st.current_player())
    sure = [a for a in legal if a[0] != "eliminate" or view.guess_probability(*a[1:]) >= 0.5]
    legal = sure or legal
    kind = rng.choice(sorted({a[0] for a in legal}))
    acts = [a for a in legal if a[0] == kind]
    return acts[rng.randrange(len(acts))]


def drive(rules, players: int, seed: int, policy) -> tuple:
    rng = random.Random(seed)
    deck = Counter(rules.deck())
    st = rules.new_initial_state(players, rng)
    steps = 0
    while not st.is_terminal():
        assert steps < rules.info.max_steps, f"seed {seed}: step cap reached"
        legal = st.legal_actions()
        assert legal and legal == sorted(legal)
        chance = st.current_player() == CHANCE
        action = _uniform(st, legal, rng) if chance else policy(st, legal, rng)
        st.apply(action)
        steps += 1
        st.check_invariants()
        held = Counter(c for z in st.zones().values() for c in z)
        assert held == deck, f"seed {seed} step {steps}"
    assert st.returns() == st.scores_from_rules()
    return st, steps


@pytest.mark.parametrize("mission", ALL_MISSIONS)
def test_random_play_keeps_every_invariant(rules_for, mission):
    rules = rules_for(mission)
    for seed in range(2):                     # 2–5 agents across the four games
        drive(rules, 2 + seed, seed, _uniform)
        drive(rules, 4 + seed, 100 + seed, _by_kind)


@pytest.mark.parametrize("mission", ["M01", "M07", "M17", "M18", "M19"])
def test_greedy_games_through_the_runner(rules_for, mission):
    rules = rules_for(mission)
    results = [play_game(rules, 2 + i % 4, i, ["greedy"] * (2 + i % 4)) for i in range(4)]
    assert all(r.completed for r in results), [r.failure for r in results]
    if mission == "M01":
        assert any(r.winners for r in results)


@pytest.mark.slow
@pytest.mark.parametrize("mission", ALL_MISSIONS)
def test_many_random_games(rules_for, mission):
    rules = rules_for(mission)
    for seed in range(60):
        drive(rules, 2 + seed % 4, seed, _uniform if seed % 2 else _by_kind)
    for seed in range(12):
        r = play_game(rules, 2 + seed % 4, seed, ["greedy"] * (2 + seed % 4))
        assert r.completed, r.failure
