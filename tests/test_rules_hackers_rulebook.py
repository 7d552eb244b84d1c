"""League of Hackers rules engine: the rulebook's examples and every defence effect.

Positions come from `test_rules_hackers_positions` (cards moved between piles of a real
game, never created).
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from pnpforge.rules.engine import CHANCE
from pnpforge.rules.games.hackers import board, effects
from pnpforge.rules.games.hackers.data import ATTACK, INSTALL, REPAIR
from test_rules_hackers_positions import (
    colour_damage,
    defence_summing,
    fresh,
    load,
    pay_first,
    plain_attacks,
    play,
    position,
    put_server,
    resolve_passively,
    servers_with,
)


@pytest.fixture
def rules(shipped_db):
    return load(shipped_db)


# ---- the rulebook's examples ---------------------------------------------------------------


def test_attack_example_green_pay_2_with_trojan_and_zero_day(rules):
    """遊戲進行範例—攻擊範例: 2 attack + 8 direct vs green defence 4 and 7 free slots."""
    neo, trinity, other = 0, 1, 2
    server = rules.catalogue.server
    green = servers_with(rules, lambda s: "G" in s.holes, 3)
    no_green = servers_with(rules, lambda s: "G" not in s.holes, 2)
    trinity_servers, holes = [], 0
    for sid in green:  # enough green holes for 7 free slots
        trinity_servers.append(sid)
        holes += server[sid].holes.count("G")
        if holes * 4 >= 7:
            break
    to_fill = holes * 4 - 7
    layout = []
    for sid in trinity_servers:
        dmg = []
        for c in server[sid].holes:
            put = min(4, to_fill) if c == "G" else 0
            to_fill -= put
            dmg.append(put)
        layout.append((sid, dmg))
    green_card = next(
        a
        for a, spec in sorted(rules.catalogue.attack.items())
        if spec.colours == ("G",) and spec.strength(2) == (0, 6)
    )
    st = position(
        rules,
        3,
        hands={neo: [green_card, *plain_attacks(rules, 3, exclude=[green_card])]},
        tableau={
            neo: ["D-07R", "D-09Y", "D-06R", "D-06Y"],
            trinity: defence_summing(rules, "G", 4, avoid=("trojan_horse",)),
        },
        servers={neo: [(no_green[0], None)], trinity: layout, other: [(no_green[1], None)]},
    )
    assert effects.attack_strength(st, neo, green_card, 2, "G") == (2, 8)
    assert board.defence_of(st, trinity, "G") == 4
    assert board.free_slots(st, trinity, "G") == 7
    before = colour_damage(st, trinity, "G")
    play(st, ("board", ATTACK), ("attack", green_card, 2))
    pay_first(st)
    resolve_passively(st)
    assert colour_damage(st, trinity, "G") - before == 7
    assert colour_damage(st, other, "G") == 0
    assert st.vp[neo] == 9  # 7 damage + 2 × D-06
    assert st.vp[trinity] == 0


def test_scoring_example_sixteen_vp(rules):
    """遊戲進行範例—計分範例: S-10 and S-22 clean, one hole of S-14 damaged, D-05G and D-05B."""
    trinity = 1
    s14 = rules.catalogue.server["S-14"]
    st = position(
        rules,
        3,
        hands={0: plain_attacks(rules, 1)},
        tableau={trinity: ["D-05G", "D-05B"]},
        servers={
            0: [("S-01", None)],
            2: [("S-02", None)],
            trinity: [("S-10", None), ("S-14", [1] + [0] * (len(s14.holes) - 1)), ("S-22", None)],
        },
    )
    play(st, ("board", REPAIR), ("amount", 1))
    # Everybody's hand is now empty: the round ends and is scored.
    while st.current_player() != CHANCE:
        st.apply(st.legal_actions()[0])
    assert st.snapshots and st.snapshots[0][trinity][1] == 2  # two D-05 in play
    assert st.vp[trinity] == 16  # 2 + 2 (D-05) + 3 + 2 (bonuses) + 7 clean holes


# ---- attack, damage and defence ------------------------------------------------------------


def test_damage_spreads_evenly_caps_at_four_and_returns_the_rest(rules):
    st = fresh(rules, 3)
    sid = servers_with(rules, lambda s: s.holes.count("R") >= 2 and len(s.holes) >= 3)[0]
    put_server(st, 1, sid)
    sv = st.servers[1][-1]
    reds = [h for h, c in enumerate(sv.spec.holes) if c == "R"]
    sv.damage[reds[0]] = 3
    refs = tuple((len(st.servers[1]) - 1, h) for h in reds)
    st.decision = None
    effects._job_place(st, 1, refs, 3)  # water-filling: [3, 0, …] + 3 → [3, 3] on two holes
    assert [sv.damage[h] for h in reds[:2]] == [3, 3]
    effects._job_place(st, 1, refs, 50)  # far too much: every red hole full, rest returned
    assert all(sv.damage[h] == 4 for h in reds)
    assert all(sv.damage[h] == 0 for h, c in enumerate(sv.spec.holes) if c != "R")


def test_victim_places_the_remainder(rules):
    st = fresh(rules, 3)
    sid = servers_with(rules, lambda s: s.holes.count("G") >= 2)[0]
    put_server(st, 2, sid)
    greens = [h for h, c in enumerate(rules.catalogue.server[sid].holes) if c == "G"]
    k = len(st.servers[2]) - 1
    st.decision = None
    effects._job_place(st, 2, tuple((k, h) for h in greens), 1)
    assert st.decision.kind == "place" and st.decision.seat == 2
    assert st.legal_actions() == sorted(("place", k, h) for h in greens)
    st.apply(("place", k, greens[-1]))
    assert st.servers[2][k].damage[greens[-1]] == 1


def test_direct_damage_ignores_defence_and_attack_does_not(rules):
    st = position(
        rules,
        3,
        tableau={1: defence_summing(rules, "B", 3)},
        servers={1: [(servers_with(rules, lambda s: s.holes.count("B") >= 1)[0], None)]},
        hands={0: plain_attacks(rules, 2)},
    )
    assert effects.damage_against(st, 1, "B", 3, 0) == 0
    assert effects.damage_against(st, 1, "B", 4, 0) == 1
    assert effects.damage_against(st, 1, "B", 0, 2) == 2
    assert effects.damage_against(st, 1, "B", 5, 1) == 3


def test_deep_security_defends_every_colour(rules):
    st = position(rules, 3, tableau={1: ["D-10R"]}, hands={0: plain_attacks(rules, 2)})
    assert rules.catalogue.defence["D-10R"].defence == 1
    assert [board.defence_of(st, 1, c) for c in "RYGB"] == [1, 1, 1, 1]


def test_two_trojan_horses_add_four_and_zero_day_adds_direct(rules):
    st = position(rules, 3, tableau={0: ["D-07R", "D-07G"]}, hands={0: plain_attacks(rules, 2)})
    card = next(a for a, s in sorted(rules.catalogue.attack.items()) if "R" in s.colours)
    atk, direct = rules.catalogue.attack[card].strength(1)
    assert effects.attack_strength(st, 0, card, 1, "R") == (atk + 4, direct)
    marks = rules.catalogue.defence["D-09R"].effect_colours
    st2 = position(rules, 3, tableau={0: ["D-07R", "D-07G", "D-09R"]}, hands={0: plain_attacks(rules, 2)})
    colour = sorted(marks)[0]
    trojans = sum(1 for c in ("D-07R", "D-07G") if colour in rules.catalogue.defence[c].effect_colours)
    assert effects.attack_strength(st2, 0, card, 1, colour) == (atk + 2 * trojans, direct + 2)


def test_underground_market_needs_two_damaged_opponents(rules):
    reds = servers_with(rules, lambda s: "R" in s.holes, 3)
    attack = rules.catalogue.attack
    card = next(a for a, s in sorted(attack.items()) if s.colours == ("R",) and s.strength(1)[1] > 0)
    st = position(
        rules,
        3,
        hands={0: [card, *plain_attacks(rules, 2, exclude=[card])]},
        tableau={0: ["D-08R", "D-06R"]},
        servers={
            0: [(servers_with(rules, lambda s: "R" not in s.holes)[0], None)],
            1: [(reds[0], None)],
            2: [(reds[1], None)],
        },
    )
    atk, direct = attack[card].strength(1)
    play(st, ("board", ATTACK), ("attack", card, 1))
    pay_first(st)
    resolve_passively(st)
    placed = [
        min(atk + direct, sum(4 for c in rules.catalogue.server[r].holes if c == "R")) for r in reds[:2]
    ]
    assert st.vp[0] == max(placed) + 1 + 2  # damage, D-06, D-08


# ---- install ---------------------------------------------------------------------------------


def test_thin_provision_discounts_once_per_round_and_solid_state_scores(rules):
    dear = servers_with(rules, lambda s: s.level == 1 and s.cost >= 2, 2)
    cost = rules.catalogue.server[dear[0]].cost
    st = position(
        rules,
        3,
        hands={0: plain_attacks(rules, cost + 3)},
        tableau={0: ["D-01R", "D-03R"]},
        supply=dear,
        servers={0: [("S-01", None)]},
    )
    assert ("board", INSTALL) in st.legal_actions()
    play(st, ("board", INSTALL))
    assert ("amount", cost - 1) in st.legal_actions()  # D-01 makes it one cheaper
    play(st, ("amount", cost - 1))
    pay_first(st)
    play(st, ("server", dear[0]))
    assert [sv.card.card for sv in st.servers[0]][-1] == dear[0]
    assert any(i.card == "D-01R" for i in st.tapped)
    assert st.vp[0] == 1  # D-03
    resolve_passively(st)
    play(st, ("board", INSTALL))
    assert min(a[1] for a in st.legal_actions()) == rules.catalogue.server[dear[1]].cost  # tapped now


def test_sixth_server_replaces_one_and_moves_its_damage(rules):
    five = servers_with(rules, lambda s: s.level == 1, 6)
    new = five.pop()
    old_holes = len(rules.catalogue.server[five[0]].holes)
    st = position(
        rules,
        3,
        hands={0: plain_attacks(rules, 4)},
        supply=[new],
        servers={0: [(five[0], [2, 3] + [0] * (old_holes - 2))] + [(sid, None) for sid in five[1:]]},
    )
    play(st, ("board", INSTALL), ("amount", rules.catalogue.server[new].cost))
    pay_first(st)
    play(st, ("server", new))
    assert st.decision.kind == "scrap"
    assert len(st.legal_actions()) == 5
    play(st, ("scrap", 0))
    while st.decision.kind == "place":
        st.apply(st.legal_actions()[0])
    assert len(st.servers[0]) == 5
    moved = st.servers[0][-1]
    assert moved.card.card == new and sum(moved.damage) == 5
    assert max(moved.damage) - min(moved.damage) <= 1
    assert five[0] in [i.card for i in st.piles.pile("box")]


def test_ties_lower_vp_first_then_higher_disc(rules):
    last = servers_with(rules, lambda s: s.level == 1)[0]
    cost = rules.catalogue.server[last].cost

    def contest(vp, discs):
        first = plain_attacks(rules, cost + 1)
        st = position(
            rules,
            3,
            hands={0: first, 1: plain_attacks(rules, cost + 1, exclude=first)},
            supply=[last],
            vp=vp,
            discs=discs,
            servers={0: [("S-02", None)], 1: [("S-03", None)], 2: [("S-04", None)]},
        )
        for _ in range(2):
            play(st, ("board", INSTALL), ("amount", cost))
            pay_first(st)
        winner = st.decision.seat
        play(st, ("server", last))
        resolve_passively(st)
        return winner, st

    winner, st = contest([3, 1, 0], [0, 1, 2])
    assert winner == 1
    assert st.piles.count("hand:0") == cost + 1  # the loser takes its payment back
    assert contest([2, 2, 0], [0, 1, 2])[0] == 1  # equal VP: seat 1's disc is on top
    assert contest([2, 2, 0], [5, 1, 2])[0] == 0


def test_install_needs_a_supply(rules):
    st = position(rules, 3, hands={0: plain_attacks(rules, 3)}, supply=[])
    assert ("board", INSTALL) not in st.legal_actions()


# ---- repair and round end -----------------------------------------------------------------


def test_repair_three_per_card_and_two_incident_responses_stack(rules):
    big = servers_with(rules, lambda s: len(s.holes) == 4)[0]
    st = position(
        rules,
        3,
        hands={0: plain_attacks(rules, 2)},
        tableau={0: ["D-02R", "D-02Y"]},
        servers={0: [(big, [4, 3, 0, 0])]},
    )
    play(st, ("board", REPAIR), ("amount", 1))
    pay_first(st)
    resolve_passively(st)
    assert board.total_damage(st, 0) == 0  # 3 + 2 + 2 = 7 removed for one card
    assert sum(1 for i in st.tapped if i.card.startswith("D-02")) == 2


def test_repair_choice_when_damage_exceeds_budget(rules):
    big = servers_with(rules, lambda s: len(s.holes) == 4)[0]
    st = position(rules, 3, hands={0: plain_attacks(rules, 2)}, servers={0: [(big, [4, 4, 0, 1])]})
    play(st, ("board", REPAIR), ("amount", 1))
    pay_first(st)
    assert st.decision.kind == "fix" and st.decision.seat == 0
    for _ in range(3):
        st.apply(("fix", 0, 3) if ("fix", 0, 3) in st.legal_actions() else st.legal_actions()[0])
    assert board.total_damage(st, 0) == 9 - 3


def test_round_end_auto_recovery_then_audit_and_next_level(rules):
    two = servers_with(rules, lambda s: s.level == 1, 2)
    st = position(
        rules,
        3,
        hands={0: plain_attacks(rules, 1)},
        tableau={1: ["D-04R", "D-05R"]},
        servers={0: [("S-03", None)], 2: [("S-04", None)], 1: [(two[0], [1, 1]), (two[1], None)]},
    )
    play(st, ("board", REPAIR), ("amount", 1))
    while st.current_player() != CHANCE:
        st.apply(st.legal_actions()[0])
    server = rules.catalogue.server
    holes = sum(len(server[s].holes) for s in two)
    bonus = sum(server[s].bonus for s in two)
    assert st.vp[1] == holes + bonus + 2  # D-04 cleaned it, D-05 counts 2 servers
    assert st.round_no == 2 and st.action_no == 1
    assert st.piles.count("supply") and all(server[i.card].level == 2 for i in st.piles.pile("supply"))
    assert all(not any(sv.damage) for o in st.servers for sv in o)
    assert not st.tapped


def test_three_rounds_of_at_most_five_steps(rules):
    st = rules.new_initial_state(4, random.Random(3))
    rng = random.Random(3)
    seen = Counter()
    while not st.is_terminal():
        if st.decision.kind == "board":
            seen[(st.round_no, st.action_no)] += 1
        acts = st.legal_actions()
        st.apply(acts[rng.randrange(len(acts))])
    assert {r for r, _ in seen} <= {1, 2, 3}
    assert max(a for _, a in seen) <= 5
    assert len(st.snapshots) == 3


# ---- two players: the virtual player ------------------------------------------------------


def test_two_players_virtual_player(rules):
    st = fresh(rules, 2)
    assert st.action_limit == 4 and st.server_limit == 4
    virtual = st.virtual_owner
    assert len(st.servers[virtual]) == 2 and [len(st.servers[s]) for s in (0, 1)] == [1, 1]
    holes = Counter(c for sv in st.servers[virtual] for c in sv.spec.holes)
    assert [board.defence_of(st, virtual, c) for c in "RYGB"] == [holes[c] for c in "RYGB"]


def test_virtual_player_catches_up_and_other_player_picks(rules):
    l1 = servers_with(rules, lambda s: s.level == 1, 6)
    cost = rules.catalogue.server[l1[4]].cost
    st = position(
        rules,
        2,
        hands={0: plain_attacks(rules, cost + 1)},
        supply=l1[4:],
        servers={0: [(l1[0], None), (l1[1], None)], 1: [(l1[2], None)], 2: [(l1[3], None), ("S-20", None)]},
    )
    play(st, ("board", INSTALL), ("amount", cost))
    pay_first(st)
    play(st, ("server", l1[4]))
    assert st.decision.kind == "vpick" and st.decision.seat == 1
    play(st, ("server", l1[5]))
    assert [sv.card.card for sv in st.servers[2]][-1] == l1[5]


def test_attacks_hit_the_virtual_player(rules):
    card = next(
        a for a, s in sorted(rules.catalogue.attack.items()) if s.colours == ("R",) and s.strength(1)[1] > 0
    )
    red = servers_with(rules, lambda s: "R" in s.holes)[0]
    other = servers_with(rules, lambda s: "R" not in s.holes, 2)
    st = position(
        rules,
        2,
        hands={0: [card, *plain_attacks(rules, 2, exclude=[card])]},
        servers={0: [(other[0], None)], 1: [(other[1], None)], 2: [(red, None)]},
    )
    play(st, ("board", ATTACK), ("attack", card, 1))
    pay_first(st)
    resolve_passively(st)
    expected = board.total_damage(st, 2)
    assert expected > 0 and st.vp[0] == expected
