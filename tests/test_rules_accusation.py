"""Accusation (控訴) rules engine: the rulebook's examples, its turn rules and its FAQ items.

Each test starts a real game from a copy of the shipped cards.db, plays the set-up,
then arranges the cards it needs into zones (the engine reads zones live) and drives
the game through its legal actions only.
"""

from __future__ import annotations

from collections import Counter

import pytest

from pnpforge.edit import set_card
from pnpforge.rules.engine import CHANCE
from pnpforge.rules.games.accusation import (
    ABILITY,
    ACCEPT,
    ACCUSE,
    ASIDE,
    CHOOSE,
    DECLINE,
    DECONSTRUCT,
    DISCARD,
    END,
    FIRST,
    GARRISON,
    KEEP,
    LOC_ACTION,
    NO_ACCUSE,
    PLAY,
    RAID,
    RAID_WITH,
    REBUILD,
    RITUAL,
    arithmetic,
    board,
    effects,
    flow,
    make_rules,
    parse_effect,
)
from pnpforge.rules.kit import load_game
from pnpforge.store.db import open_db

# ---- helpers --------------------------------------------------------------------------


@pytest.fixture
def db(shipped_db):
    return open_db(shipped_db)


def rules_of(db, **options):
    return make_rules(load_game(db, "accusation"), options)


def start(rules, first: int = 0, players: int = 2, actions: int | None = 2):
    """A state at the first player's first main decision, nobody having mulliganed.

    `actions` overrides the first turn's single action so a test's play does not end
    the turn by itself (None keeps the rulebook's one action).
    """
    st = rules.new_initial_state(players)
    st.apply((FIRST, first))
    while st.decision.kind != "main":
        st.apply((KEEP,) if st.decision.kind == "mulligan" else legal(st)[0])
    if actions is not None:
        st.actions_left = actions
    return st


def inst(st, card_id: str, seat: int | None = None) -> int:
    for i, ci in enumerate(st.rules.instances):
        if ci.card == card_id and (seat is None or st.rules.instance_owner[i] == seat):
            return i
    raise KeyError(card_id)


def put(st, card_id: str, zone: str, seat: int | None = None) -> int:
    """Move a card of its owner to one of the owner's zones."""
    i = inst(st, card_id, seat)
    board.move(st, i, st.rules.instance_owner[i], zone)
    return i


def clear(st, seat: int, zone: str, to: str = "exile") -> None:
    for i in list(board.pile(st, seat, zone)):
        board.move(st, i, seat, to)


def empty_hands(st) -> None:
    """Hands hold nothing, so no accusation or discard choice interferes unless a test adds one."""
    for s in range(st.players):
        clear(st, s, "hand")


def legal(st):
    """The legal actions, with a pending main-phase decision re-offered after a test arranged the cards."""
    if st.decision is not None and st.decision.kind == "main":
        st.decision.offered = sorted(flow.main_options(st, st.decision.seat))
    return st.legal_actions()


def choose(st, action) -> None:
    assert tuple(action) in legal(st), (action, st.decision.kind, legal(st))
    st.apply(action)


def answer(st, kind: str, action) -> None:
    assert st.decision.kind == kind, (st.decision.kind, legal(st))
    choose(st, action)


def draw_chance(st) -> None:
    """Resolve pending chance draws with the first card."""
    while st.current_player() == CHANCE:
        st.apply(legal(st)[0])


def hand_ids(st, seat: int) -> list[str]:
    return sorted(board.card(st, i).id for i in board.pile(st, seat, "hand"))


def ids(st, seat: int, zone: str) -> list[str]:
    return sorted(board.card(st, i).id for i in board.pile(st, seat, zone))


# ---- the rulebook's own examples ------------------------------------------------------------


def test_messenger_example_deck_empty_stops_before_the_discard(db):
    """例i: 信使「抽1張牌，雙方玩家棄置1張牌」: with an empty deck the discard is not resolved."""
    st = start(rules_of(db))
    empty_hands(st)
    clear(st, 0, "deck")
    m = put(st, "cro07", "hand", 0)
    keep0 = put(st, "cro10", "hand", 0)
    keep1 = put(st, "fox13", "hand", 1)  # 聲量3 could accuse the 災厄3 詠頌
    choose(st, (PLAY, m))
    answer(st, "accuse", (NO_ACCUSE,))
    assert keep0 in board.pile(st, 0, "hand") and keep1 in board.pile(st, 1, "hand")
    assert board.pile(st, 0, "discard") == [] and board.pile(st, 1, "discard") == []
    assert st.decision.kind != "discard"


def test_messenger_with_cards_draws_then_both_players_discard(db):
    st = start(rules_of(db))
    empty_hands(st)
    m = put(st, "cro07", "hand", 0)
    put(st, "fox08", "hand", 1)  # 聲量2: cannot accuse 災厄3
    choose(st, (PLAY, m))
    draw_chance(st)
    assert len(board.pile(st, 0, "hand")) == 1
    answer(st, "discard", (DISCARD, board.pile(st, 0, "hand")[0]))  # current player first
    assert st.decision.seat == 1
    answer(st, "discard", (DISCARD, inst(st, "fox08", 1)))
    assert len(board.pile(st, 0, "discard")) == 1 and ids(st, 1, "discard") == ["fox08"]


def frenzy_rules(db):
    """狂亂質詢 is in the database with copies 0 (another box); deal it into the crow deck."""
    set_card(db, "accusation", "ext01", {"copies": 1, "cult": "鴉教團", "calamity": 2})
    return rules_of(db)


def test_frenzied_interrogation_example_enemy_destroys_even_if_you_have_none(db):
    """例ii: 「雙方玩家破壞自己場上1個信徒」: you have none, the enemy still destroys one."""
    st = start(frenzy_rules(db))
    empty_hands(st)
    card = put(st, "ext01", "hand", 0)
    a, b = put(st, "fox08", "field", 1), put(st, "fox09", "field", 1)
    choose(st, (PLAY, card))
    assert st.decision.seat == 1 and st.decision.kind == "choose"
    choose(st, (CHOOSE, a))
    assert a in board.pile(st, 1, "discard") and b in board.pile(st, 1, "field")
    assert card in board.pile(st, 0, "discard")


def test_frenzied_interrogation_each_player_destroys_own(db):
    st = start(frenzy_rules(db))
    empty_hands(st)
    card = put(st, "ext01", "hand", 0)
    mine = put(st, "cro10", "field", 0)
    theirs = put(st, "fox08", "field", 1)
    choose(st, (PLAY, card))
    assert st.decision.seat == 0  # the current player resolves first
    assert legal(st) == [(CHOOSE, mine)]
    choose(st, (CHOOSE, mine))
    choose(st, (CHOOSE, theirs))
    assert mine in board.pile(st, 0, "discard") and theirs in board.pile(st, 1, "discard")


# ---- set-up and turn structure ----------------------------------------------------------------


def test_setup_rituals_in_hand_leader_in_conspiracy_and_three_draws(db):
    st = rules_of(db).new_initial_state(2)
    st.apply((FIRST, 1))
    draw_chance(st)
    for s in (0, 1):
        kinds = Counter(board.card(st, i).type for i in board.pile(st, s, "hand"))
        assert kinds["ritual"] == 3 and len(board.pile(st, s, "hand")) == 6
        assert [board.card(st, i).type for i in board.pile(st, s, "conspiracy")] == ["leader"]
        assert len(board.pile(st, s, "deck")) == 24 - 1 - 6
    assert st.decision.kind == "mulligan" and st.decision.seat == 1  # the first player starts


def test_mulligan_refills_to_six_and_shuffles_the_set_aside_cards_back(db):
    st = rules_of(db).new_initial_state(2)
    st.apply((FIRST, 0))
    draw_chance(st)
    aside = board.pile(st, 0, "hand")[:2]
    for i in aside:
        choose(st, (ASIDE, i))
    choose(st, (KEEP,))
    draw_chance(st)
    hand = board.pile(st, 0, "hand")
    assert len(hand) == 6 and not set(aside) & set(hand)
    assert set(aside) <= set(board.pile(st, 0, "deck")) and board.pile(st, 0, "aside") == []
    assert st.decision.kind == "mulligan" and st.decision.seat == 1


def test_first_player_has_one_action_then_two(db):
    st = start(rules_of(db), first=1, actions=None)
    assert st.turn_seat == 1 and st.actions_left == 1
    clear(st, 1, "hand")
    put(st, "fox18", "hand", 1)
    choose(st, (PLAY, inst(st, "fox18")))
    # the action is spent: the turn ends by itself; seat 0 starts with two
    draw_chance(st)
    assert st.turn_seat == 0 and st.actions_left == 2


def test_end_of_turn_discards_to_six_then_draws_two(db):
    st = start(rules_of(db))
    hand = board.pile(st, 0, "deck")[:3]
    for i in hand:
        board.move(st, i, 0, "hand")
    assert len(board.pile(st, 0, "hand")) == 9
    choose(st, (END,))
    if st.decision.kind == "ritual":
        choose(st, (DECLINE,))
    for _ in range(3):
        answer(st, "discard", (DISCARD, board.pile(st, 0, "hand")[0]))
    assert len(board.pile(st, 0, "hand")) == 6
    draw_chance(st)
    assert len(board.pile(st, 0, "hand")) == 8 and st.turn_seat == 1


def test_rebuild_costs_two_actions(db):
    st = start(rules_of(db), actions=None)
    r = put(st, "cro03", "discard", 0)
    assert (REBUILD, r) not in legal(st)  # first turn: one action
    st.actions_left = 2
    choose(st, (REBUILD, r))
    assert r in board.pile(st, 0, "field") and st.actions_left == 0


def test_leader_needs_a_completed_ritual_and_its_ability_is_free_once_a_turn(db):
    st = start(rules_of(db))
    leader = inst(st, "cro01", 0)
    assert (PLAY, leader) not in legal(st)
    put(st, "fox03", "score", 1)  # either player having completed one is enough
    choose(st, (PLAY, leader))
    assert leader in board.pile(st, 0, "field") and st.actions_left == 1
    empty_hands(st)
    lost = put(st, "cro10", "field", 0)  # 迷路的亡魂: 詠頌 draw 1
    choose(st, (ABILITY, leader))  # 第十三夜: re-execute a 詠頌
    choose(st, (CHOOSE, lost))
    draw_chance(st)
    assert st.actions_left == 1 and len(board.pile(st, 0, "hand")) == 1
    assert (ABILITY, leader) not in legal(st)


# ---- raids, 駐守, guard bonuses -------------------------------------------------------------


def test_raid_needs_total_volume_and_turns_raiders_guilty(db):
    st = start(rules_of(db))
    empty_hands(st)
    loc = put(st, "fox18", "field", 1)  # 稻原 守護2
    big = put(st, "fox17", "field", 1)  # 神隱之森 守護3
    f1 = put(st, "cro10", "field", 0)  # 聲量2
    assert (RAID, loc) in legal(st) and (RAID, big) not in legal(st)
    f2 = put(st, "cro14", "field", 0)  # 聲量2: together 4
    assert (RAID, big) in legal(st)
    choose(st, (RAID, big))
    choose(st, (RAID_WITH, f1))
    assert st.decision.kind == "raid"  # 2 < 3: another follower is needed
    choose(st, (RAID_WITH, f2))
    assert big in board.pile(st, 1, "discard") and {f1, f2} <= st.guilty
    draw_chance(st)  # 神隱之森 on_destroyed: its owner draws 1
    assert len(board.pile(st, 1, "hand")) == 1
    # guilty followers cannot raid again
    assert (RAID, loc) not in legal(st)


def test_garrison_raises_guard_and_guilt_ends_it(db):
    st = start(rules_of(db), first=1)
    empty_hands(st)
    loc = put(st, "fox18", "field", 1)  # 守護2
    scare = put(st, "fox08", "hand", 1)  # 稻草人 駐守3
    choose(st, (PLAY, scare))
    answer(st, "garrison", (GARRISON, loc))
    assert arithmetic.guard(st, loc) == 5
    board.make_guilty(st, scare)
    assert arithmetic.guard(st, loc) == 2 and scare not in st.garrisoning
    board.absolve(st, scare)  # 解除罪惡 does not resume 駐守
    assert arithmetic.guard(st, loc) == 2


def test_followers_entering_by_accusation_cannot_garrison(db):
    st = start(rules_of(db))
    empty_hands(st)
    put(st, "fox18", "field", 1)
    accuser = put(st, "fox10", "hand", 1)  # 祈願之子 聲量3 駐守2
    m = put(st, "cro10", "hand", 0)  # 災厄2 詠頌
    choose(st, (PLAY, m))
    answer(st, "accuse", (ACCUSE, accuser))
    assert accuser in board.pile(st, 1, "field") and accuser in st.guilty and accuser not in st.garrisoning


def test_bell_tower_and_bridge_passives(db):
    st = start(rules_of(db))
    tower = put(st, "cro17", "field", 0)  # 你場上其他地點守護+1
    bridge = put(st, "cro16", "field", 0)
    assert arithmetic.guard(st, bridge) == 4 + 1 and arithmetic.guard(st, tower) == 5
    put(st, "fox16", "field", 1)  # 狐尾橋: your raids +1
    crossing = put(st, "fox13", "field", 1)  # 狐渡: +1 when it raids
    assert arithmetic.raid_bonus_all(st, 1) == 1 and arithmetic.raid_value(st, crossing) == 4
    board.make_guilty(st, crossing)
    assert arithmetic.raid_value(st, crossing) == 3  # 罪惡 loses the passive


# ---- accusation ------------------------------------------------------------------------------


def test_accusation_cancels_the_chant_and_fires_the_accusers_trigger(db):
    st = start(rules_of(db), first=1)
    empty_hands(st)
    hermit = put(st, "fox06", "hand", 1)  # 詠頌 災厄3: draw 1 …
    weak = put(st, "cro10", "hand", 0)  # 聲量2: too quiet
    child = put(st, "cro13", "hand", 0)  # 灰眼童 聲量5 控訴時: enemy discards 1
    victim = put(st, "fox14", "hand", 1)
    choose(st, (PLAY, hermit))
    assert st.decision.seat == 0 and legal(st) == [(ACCUSE, child), (NO_ACCUSE,)]
    assert (ACCUSE, weak) not in legal(st)
    choose(st, (ACCUSE, child))
    assert st.decision.seat == 1 and st.decision.kind == "discard"  # the 控訴時 effect first
    choose(st, (DISCARD, victim))
    assert child in board.pile(st, 0, "field") and child in st.guilty
    assert hermit in board.pile(st, 1, "field") and hermit not in st.guilty  # the accused card stays
    assert board.pile(st, 1, "hand") == []  # no card was drawn


def test_accused_chant_triggers_nest_monastery_after(db):
    st = start(rules_of(db))
    empty_hands(st)
    put(st, "cro18", "field", 0)  # 當你的信徒的詠頌被控訴後，抽1張牌
    m = put(st, "cro05", "hand", 0)  # 災厄3
    guard = put(st, "fox10", "hand", 1)
    choose(st, (PLAY, m))
    choose(st, (ACCUSE, guard))
    draw_chance(st)
    assert len(board.pile(st, 0, "hand")) == 1


def test_accused_magic_goes_to_discard_without_effect(db):
    st = start(rules_of(db))
    empty_hands(st)
    candle = put(st, "cro21", "hand", 0)  # 黯燭 災厄1: draw 2
    acc_f = put(st, "fox14", "hand", 1)  # 聲量1
    choose(st, (PLAY, candle))
    choose(st, (ACCUSE, acc_f))
    assert candle in board.pile(st, 0, "discard") and board.pile(st, 0, "hand") == []


def test_stardust_raises_calamity_when_enough_innocent_followers(db):
    st = start(rules_of(db))
    empty_hands(st)
    candle = put(st, "cro21", "hand", 0)  # 星塵3: 災厄+2 → 3
    put(st, "fox14", "hand", 1)  # 聲量1
    put(st, "cro10", "field", 0)
    put(st, "cro14", "field", 0)
    assert arithmetic.stardust(st, 0) == 2
    monk = put(st, "cro11", "field", 0)  # 割舌的僧侶: +1 stardust
    assert arithmetic.stardust(st, 0) == 4
    board.make_guilty(st, monk)
    assert arithmetic.stardust(st, 0) == 2
    board.absolve(st, monk)
    choose(st, (PLAY, candle))
    # 災厄3 now: the 聲量1 follower may not accuse; the two cards are drawn
    assert st.decision.kind != "accuse"
    draw_chance(st)
    assert len(board.pile(st, 0, "hand")) == 2


def test_stardust_extra_effect_follows_the_base_effect(db):
    st = start(rules_of(db), first=1)
    empty_hands(st)
    shower = put(st, "fox23", "hand", 1)  # 時雨: make guilty; 星塵3 extra: draw 1
    for cid in ("fox08", "fox09", "fox10"):
        put(st, cid, "field", 1)
    target = put(st, "cro05", "field", 0)
    choose(st, (PLAY, shower))
    choose(st, (CHOOSE, target))
    draw_chance(st)
    assert target in st.guilty and len(board.pile(st, 1, "hand")) == 1


def test_stardust_change_replaces_the_effect(db):
    st = start(rules_of(db), first=1)
    empty_hands(st)
    fire = put(st, "fox21", "hand", 1)  # 狐火: guard≤3 location; 星塵3: any location
    big = put(st, "cro19", "field", 0)  # 守護6
    assert not effects._targets(st, 1, parse_effect("play: destroy_location guard<=3").sections["play"][0])
    for cid in ("fox08", "fox09", "fox10"):
        put(st, cid, "field", 1)
    choose(st, (PLAY, fire))
    choose(st, (CHOOSE, big))
    assert big in board.pile(st, 0, "discard")


# ---- rituals and winning -------------------------------------------------------------------


def setup_storm(st, seat: int = 0) -> int:
    """群鴉風暴 (4 夜幕) on the field with 夜幕 enough."""
    r = put(st, "cro03", "field", seat)
    for cid in ("cro05", "cro07", "cro10"):
        put(st, cid, "field", seat)
    return r


def test_ritual_executes_at_end_of_turn_and_two_win(db):
    st = start(rules_of(db))
    empty_hands(st)
    r = setup_storm(st)
    put(st, "cro02", "score", 0)  # one completed already
    choose(st, (END,))
    assert st.decision.kind == "ritual" and (DECLINE,) in legal(st)
    choose(st, (RITUAL, r))
    assert st.is_terminal() and st.winners() == [0] and st.end_reason() == "rituals"
    assert st.returns() == st.scores_from_rules() == [1.0, -1.0]


def test_accused_ritual_stays_on_the_field(db):
    st = start(rules_of(db))
    empty_hands(st)
    r = setup_storm(st)  # 災厄1
    a = put(st, "fox14", "hand", 1)
    choose(st, (END,))
    choose(st, (RITUAL, r))
    choose(st, (ACCUSE, a))
    assert r in board.pile(st, 0, "field") and not st.is_terminal()


def test_empty_deck_forces_a_ritual_or_loses(db):
    st = start(rules_of(db))
    empty_hands(st)
    clear(st, 0, "deck")
    r = setup_storm(st)
    choose(st, (END,))
    assert legal(st) == [(RITUAL, r)]  # must execute
    choose(st, (RITUAL, r))
    assert r in board.pile(st, 0, "score") and not st.is_terminal()

    st = start(rules_of(db))
    empty_hands(st)
    clear(st, 0, "deck")
    choose(st, (END,))
    assert st.is_terminal() and st.winners() == [1] and st.end_reason() == "deck out"
    assert st.scores_from_rules() == st.returns() == [-1.0, 1.0]


def test_deck_empty_accused_ritual_game_goes_on(db):
    st = start(rules_of(db))
    empty_hands(st)
    clear(st, 0, "deck")
    r = setup_storm(st)
    a = put(st, "fox14", "hand", 1)
    choose(st, (END,))
    choose(st, (RITUAL, r))
    choose(st, (ACCUSE, a))
    assert not st.is_terminal() and st.turn_seat == 1


def test_deconstruct_lowers_the_requirement(db):
    """解構X (no base card has it): give 櫻華 解構2 in the database and the engine follows."""
    set_card(db, "accusation", "fox14", {"deconstruct": 2})
    st = start(rules_of(db), first=1)
    empty_hands(st)
    r = put(st, "fox03", "field", 1)  # 稻魂祭: 3 自然, itself 1
    assert arithmetic.ritual_shortfall(st, 1, r) == 2
    blossom = put(st, "fox14", "hand", 1)  # 櫻華 (駐守1, now 解構2) brings 1 自然
    choose(st, (PLAY, blossom))
    answer(st, "deconstruct", (DECONSTRUCT, r))
    assert arithmetic.ritual_shortfall(st, 1, r) == -1 and r in arithmetic.executable_rituals(st, 1)
    board.make_guilty(st, blossom)  # 罪惡: it stops deconstructing
    assert arithmetic.ritual_shortfall(st, 1, r) == 1


def test_sacrifice_reduces_any_symbol_and_goes_to_discard_on_completion(db):
    set_card(db, "accusation", "cro10", {"effect": "chant: sacrifice 2"})
    st = start(rules_of(db))
    empty_hands(st)
    r = put(st, "cro04", "field", 0)  # 無聲奉獻: 2 知識 2 禁忌, itself 1 知識
    soul = put(st, "cro10", "hand", 0)
    c1, c2 = put(st, "cro21", "hand", 0), put(st, "cro22", "hand", 0)
    put(st, "cro23", "hand", 0)  # a spare card: the turn must not end by itself
    choose(st, (PLAY, soul))  # fox hand is empty: no accusation
    answer(st, "choose", (CHOOSE, r))
    choose(st, (DISCARD, c1))
    choose(st, (DISCARD, c2))
    assert st.sacrificed == {c1: r, c2: r} and arithmetic.ritual_shortfall(st, 0, r) == 1
    put(st, "cro08", "field", 0)  # 禁忌
    assert r in arithmetic.executable_rituals(st, 0)
    choose(st, (END,))
    choose(st, (RITUAL, r))
    assert {c1, c2} <= set(board.pile(st, 0, "discard")) and st.sacrificed == {}


def test_sacrifice_impossible_without_a_ritual(db):
    set_card(db, "accusation", "cro10", {"effect": "chant: sacrifice 1; draw 1"})
    st = start(rules_of(db))
    empty_hands(st)
    soul = put(st, "cro10", "hand", 0)
    put(st, "cro21", "hand", 0)
    choose(st, (PLAY, soul))
    assert (
        len(board.pile(st, 0, "hand")) == 1 and board.pile(st, 0, "under") == []
    )  # nothing, and no draw after


# ---- resolution rules: may vs must, if vs each ------------------------------------------------


def test_may_step_declined_skips_the_if_you_do_part(db):
    st = start(rules_of(db))
    empty_hands(st)
    chick = put(st, "cro14", "hand", 0)  # 可以棄1張；若你這麼做，抽2張
    other = put(st, "cro21", "hand", 0)
    choose(st, (PLAY, chick))
    answer(st, "may", (DECLINE,))
    assert board.pile(st, 0, "hand") == [other] and board.pile(st, 0, "discard") == []


def test_may_step_accepted_discards_and_draws(db):
    st = start(rules_of(db))
    empty_hands(st)
    chick = put(st, "cro14", "hand", 0)
    other = put(st, "cro21", "hand", 0)
    choose(st, (PLAY, chick))
    answer(st, "may", (ACCEPT,))
    choose(st, (DISCARD, other))
    draw_chance(st)
    assert other in board.pile(st, 0, "discard") and len(board.pile(st, 0, "hand")) == 2


def test_may_not_offered_when_impossible(db):
    st = start(rules_of(db))
    empty_hands(st)
    chick = put(st, "cro14", "hand", 0)
    choose(st, (PLAY, chick))
    assert st.decision.kind != "may" and board.pile(st, 0, "hand") == []


@pytest.mark.parametrize("knowledge, draws", [(1, 1), (2, 2), (4, 2)])
def test_if_you_have_triggers_once(db, knowledge, draws):
    """神隱修士: draw 1; 若你擁有2個以上知識，再抽1張 (once, however many you have)."""
    st = start(rules_of(db), first=1)
    empty_hands(st)
    hermit = put(st, "fox06", "hand", 1)  # itself 知識 once on the field
    extra = ["fox15", "fox04", "fox05"][: knowledge - 1]
    for cid in extra:
        put(st, cid, "field", 1)
    choose(st, (PLAY, hermit))
    assert arithmetic.symbols(st, 1)["知識"] == knowledge
    draw_chance(st)
    assert len(board.pile(st, 1, "hand")) == draws


@pytest.mark.parametrize("extra, draws", [((), 0), (("fox18",), 1), (("fox18", "fox17"), 2)])
def test_each_counts_per_two(db, extra, draws):
    """焚香師: 你每擁有2個自然，抽1張牌 (焚香師 itself brings 1)."""
    st = start(rules_of(db), first=1)
    empty_hands(st)
    burner = put(st, "fox07", "hand", 1)
    put(st, "fox21", "hand", 1)  # a spare card: the turn must not end by itself
    for cid in extra:
        put(st, cid, "field", 1)
    choose(st, (PLAY, burner))
    draw_chance(st)
    assert len(board.pile(st, 1, "hand")) == 1 + draws


def test_each_count_is_fixed_when_the_effect_triggers(db):
    """Rule 5: destroying your own 自然 sources mid-effect does not lower the repeat count."""
    set_card(db, "accusation", "fox07", {"effect": "chant: per:自然/2 destroy_location own"})
    st = start(rules_of(db), first=1)
    empty_hands(st)
    burner = put(st, "fox07", "hand", 1)  # 自然 1
    fields = put(st, "fox18", "field", 1)  # 自然 2
    forest = put(st, "fox17", "field", 1)  # 自然 1: 4 in all -> 2 repeats
    choose(st, (PLAY, burner))
    choose(st, (CHOOSE, fields))  # now only 2 自然 remain …
    assert st.decision.kind == "choose"  # … yet a second repeat follows
    choose(st, (CHOOSE, forest))
    assert {fields, forest} <= set(board.pile(st, 1, "discard"))


def test_absolve_upto_may_stop_and_never_fails(db):
    st = start(rules_of(db))
    empty_hands(st)
    remedy = put(st, "cro22", "hand", 0)  # 至多2個; 星塵2 extra: draw 1
    a, b = put(st, "cro05", "field", 0), put(st, "cro06", "field", 0)
    board.make_guilty(st, a)
    board.make_guilty(st, b)
    choose(st, (PLAY, remedy))
    choose(st, (CHOOSE, a))
    choose(st, (DECLINE,))
    assert a not in st.guilty and b in st.guilty
    assert (
        arithmetic.stardust(st, 0) == 1 and len(board.pile(st, 0, "hand")) == 0
    )  # 1 < 2 stardust at play: no draw


def test_search_takes_a_card_of_the_kind_from_the_deck(db):
    st = start(rules_of(db))
    empty_hands(st)
    priest = put(st, "cro06", "hand", 0)  # 詠頌: search a location
    choose(st, (PLAY, priest))
    opts = legal(st)
    assert opts and all(
        board.card(st, a[1]).type == "location" and a[1] in board.pile(st, 0, "deck") for a in opts
    )
    choose(st, opts[0])
    assert board.card(st, board.pile(st, 0, "hand")[0]).type == "location"


def test_location_action_repeats_and_costs_an_action(db):
    st = start(rules_of(db), first=1)
    empty_hands(st)
    hall = put(st, "fox15", "field", 1)  # 地點行動：抽1張
    put(st, "cro21", "hand", 0)  # seat 0 will have something to do
    choose(st, (LOC_ACTION, hall))
    draw_chance(st)
    assert len(board.pile(st, 1, "hand")) == 1 and st.actions_left == 1
    choose(st, (LOC_ACTION, hall))  # the same location again
    draw_chance(st)  # …then the turn ends: draw 2
    assert len(board.pile(st, 1, "hand")) == 4 and st.turn_seat == 0


# ---- the effect language ----------------------------------------------------------------------


def test_parse_effect_grammar():
    eff = parse_effect(
        "chant: may discard 1; if:done draw 2 | passive: extra_stardust 1 | stardust_calamity: 2"
    )
    steps = eff.sections["chant"]
    assert steps[0].may and steps[0].verb == "discard" and steps[1].if_done and steps[1].count == 2
    assert eff.passives == {"extra_stardust": 1} and eff.stardust_calamity == 2 and not eff.unknown
    assert parse_effect("play: destroy_location not:聖地 guard<=3").sections["play"][0].filters == (
        "not:聖地",
        "guard<=3",
    )
    assert parse_effect("play: draw two").unknown == ["play: draw two"]


@pytest.mark.parametrize("mode", ["duel", "2v2"])
def test_greedy_values_of_a_decision_match_one_by_one(db, mode):
    """The values of a whole decision (those that need no observation kept per action on the
    rules) equal the heuristic asked one action at a time, at every decision of random games."""
    import random

    rules = rules_of(db, mode=mode)
    players = rules.players
    for seed in range(3):
        rng = random.Random(seed)
        st = rules.new_initial_state(players)
        while not st.is_terminal():
            legal_now = st.legal_actions()
            if st.current_player() != CHANCE:
                obs = st.observation(st.current_player())
                values = rules.greedy_values(obs, legal_now)
                assert values == [rules.greedy_value(obs, action) for action in legal_now], seed
            st.apply(legal_now[rng.randrange(len(legal_now))])


def test_greedy_values_read_the_observation_where_it_matters(db):
    """A magic card's play is worth more with enough stardust, and a raid with a higher guard:
    those values come from the observation even once the decision's other values are kept."""
    import dataclasses

    rules = rules_of(db)
    st = start(rules)
    obs = st.observation(0)
    magic = next(i for i, d in enumerate(rules.instance_defs) if d.type == "magic" and d.stardust)
    location = next(i for i, d in enumerate(rules.instance_defs) if d.type == "location")
    actions = [(PLAY, magic), (RAID, location)]
    poor = dataclasses.replace(obs, stardust=(0,) * rules.players, guards=((location, 1),))
    rich = dataclasses.replace(obs, stardust=(99,) * rules.players, guards=((location, 9),))
    low, high = rules.greedy_values(poor, actions), rules.greedy_values(rich, actions)
    assert high[0] > low[0] and high[1] > low[1]
