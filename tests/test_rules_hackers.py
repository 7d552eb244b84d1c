"""League of Hackers rules engine: the rulebook's examples, every defence effect, and random play.

Positions are built from a real game (a private copy of cards.db): the helpers move cards
between zones, never create them, so card conservation holds in every test.
"""

from __future__ import annotations

import itertools
import random
import sqlite3
from collections import Counter

import pytest

from pnpforge.rules.engine import CHANCE, RuleViolation
from pnpforge.rules.games.hackers import (ATTACK, INSTALL, REPAIR, HackersState, Server,
                                          make_rules)
from pnpforge.rules.runner import check_zones, play_game
from pnpforge.store.db import open_db


@pytest.fixture
def rules(shipped_db):
    return make_rules(open_db(shipped_db), {})


# ---- position helpers ----------------------------------------------------------------------

def fresh(rules, players: int, seed: int = 0) -> HackersState:
    """A dealt game with starting servers, waiting for the first board choice."""
    st = rules.new_initial_state(players, random.Random(seed))
    while st.decision.kind != "board":
        st.apply(st.legal_actions()[0])
    return st


def grab(st: HackersState, cid: str):
    """Remove one instance of card `cid` from wherever it is and return it."""
    piles = [st.deck, st.discard, st.supply, st.box, *st.hands, *st.tableau, *st.boards,
             *st.stock.values()]
    for pile in piles:
        for k, inst in enumerate(pile):
            if inst.card == cid:
                return pile.pop(k)
    for owner in st.servers:
        for k, sv in enumerate(owner):
            if sv.inst.card == cid:
                return owner.pop(k).inst
    raise AssertionError(f"{cid} not found")


def position(rules, players: int, hands=None, tableau=None, servers=None, supply=None,
             vp=None, discs=None) -> HackersState:
    """Rearrange a fresh game into the given position and reopen the current step's choices."""
    st = fresh(rules, players)
    for s in range(players):
        st.deck.extend(st.hands[s])
        st.hands[s] = []
    for owner in st.servers:
        st.box.extend(sv.inst for sv in owner)
        owner.clear()
    if supply is not None:
        st.box.extend(st.supply)
        st.supply = [grab(st, cid) for cid in supply]
    for s, ids in (hands or {}).items():
        st.hands[s] = [grab(st, cid) for cid in ids]
    for s, ids in (tableau or {}).items():
        st.tableau[s] = [grab(st, cid) for cid in ids]
    for owner, specs in (servers or {}).items():
        for cid, damage in specs:
            sv = Server(grab(st, cid), rules.server[cid])
            sv.damage = list(damage) if damage else [0] * len(sv.damage)
            st.servers[owner].append(sv)
    if vp:
        st.vp = list(vp)
    if discs:
        st.disc = list(discs)
    st.jobs.clear()
    st.decision = None
    st.jobs.append(("select",))
    st._advance()
    return st


def play(st: HackersState, *actions) -> None:
    for a in actions:
        assert a in st.legal_actions(), f"{a} not legal at {st.decision.kind}: {st.legal_actions()}"
        st.apply(a)


def pay_first(st: HackersState, kind: str = "pay") -> None:
    while not st.is_terminal() and st.decision.kind == kind:
        st.apply(st.legal_actions()[0])


def servers_with(rules, pred, n: int = 1) -> list[str]:
    ids = [sid for sid, spec in sorted(rules.server.items()) if pred(spec)]
    assert len(ids) >= n, "the database has too few servers for this test"
    return ids[:n]


def defence_summing(rules, colour: str, total: int, avoid=()) -> list[str]:
    """Defence cards adding exactly `total` to `colour` (from the database's values)."""
    cands = [d for d in sorted(rules.defence.values(), key=lambda d: d.id)
             if (d.colour == colour or d.effect == "deep_security") and d.effect not in avoid]
    for k in range(1, 5):
        for combo in itertools.combinations(cands, k):
            if sum(d.defence for d in combo) == total:
                return [d.id for d in combo]
    raise AssertionError(f"no defence cards add up to {total} in {colour}")


def plain_attacks(rules, n: int, exclude=()) -> list[str]:
    return [a for a in sorted(rules.attack) if a not in exclude][:n]


def green_damage(st, owner) -> int:
    return sum(sv.damage[h] for sv in st.servers[owner] for h, c in enumerate(sv.spec.holes)
               if c == "G")


def resolve_passively(st: HackersState) -> None:
    """Take the first option at every resolution decision until a new choice begins."""
    while not st.is_terminal() and st.decision.kind not in ("board", "draw"):
        st.apply(st.legal_actions()[0])


# ---- the rulebook's examples ---------------------------------------------------------------

def test_attack_example_green_pay_2_with_trojan_and_zero_day(rules):
    """遊戲進行範例—攻擊範例: 2 attack + 8 direct vs green defence 4 and 7 free slots."""
    neo, trinity, other = 0, 1, 2
    green = servers_with(rules, lambda s: "G" in s.holes, 3)
    no_green = servers_with(rules, lambda s: "G" not in s.holes, 2)
    trinity_servers, holes = [], 0
    for sid in green:                      # enough green holes for 7 free slots
        trinity_servers.append(sid)
        holes += rules.server[sid].holes.count("G")
        if holes * 4 >= 7:
            break
    to_fill = holes * 4 - 7
    layout = []
    for sid in trinity_servers:
        dmg = []
        for c in rules.server[sid].holes:
            put = min(4, to_fill) if c == "G" else 0
            to_fill -= put
            dmg.append(put)
        layout.append((sid, dmg))
    green_card = next(a for a, spec in sorted(rules.attack.items())
                      if spec.colours == ("G",) and spec.option(2) == (0, 6))
    neo_tableau = ["D-07R", "D-09Y", "D-06R", "D-06Y"]
    st = position(rules, 3,
                  hands={neo: [green_card, *plain_attacks(rules, 3, exclude=[green_card])]},
                  tableau={neo: neo_tableau,
                           trinity: defence_summing(rules, "G", 4, avoid=("trojan_horse",))},
                  servers={neo: [(no_green[0], None)], trinity: layout,
                           other: [(no_green[1], None)]})
    assert st.attack_strength(neo, green_card, 2, "G") == (2, 8)
    assert st.defence_of(trinity, "G") == 4
    assert st.free_slots(trinity, "G") == 7
    before = green_damage(st, trinity)
    play(st, ("board", ATTACK), ("attack", green_card, 2))
    pay_first(st)
    resolve_passively(st)
    assert green_damage(st, trinity) - before == 7
    assert green_damage(st, other) == 0
    assert st.vp[neo] == 9                 # 7 damage + 2 × D-06
    assert st.vp[trinity] == 0


def test_scoring_example_sixteen_vp(rules):
    """遊戲進行範例—計分範例: S-10 and S-22 clean, one hole of S-14 damaged, D-05G and D-05B."""
    trinity = 1
    s14 = rules.server["S-14"]
    st = position(rules, 3, hands={0: plain_attacks(rules, 1)},
                  tableau={trinity: ["D-05G", "D-05B"]},
                  servers={0: [("S-01", None)], 2: [("S-02", None)],
                           trinity: [("S-10", None), ("S-14", [1] + [0] * (len(s14.holes) - 1)),
                                     ("S-22", None)]})
    play(st, ("board", REPAIR), ("amount", 1))
    # Everybody's hand is now empty: the round ends and is scored.
    while st.current_player() != CHANCE:
        st.apply(st.legal_actions()[0])
    assert st.snapshots and st.snapshots[0]["seats"][trinity][1] == 2   # two D-05 in play
    assert st.vp[trinity] == 16            # 2 + 2 (D-05) + 3 + 2 (bonuses) + 7 clean holes


# ---- attack, damage and defence ------------------------------------------------------------

def test_damage_spreads_evenly_caps_at_four_and_returns_the_rest(rules):
    st = fresh(rules, 3)
    sid = servers_with(rules, lambda s: s.holes.count("R") >= 2 and len(s.holes) >= 3)[0]
    sv = Server(grab(st, sid), rules.server[sid])
    st.servers[1].append(sv)
    reds = [h for h, c in enumerate(sv.spec.holes) if c == "R"]
    sv.damage[reds[0]] = 3
    refs = tuple((len(st.servers[1]) - 1, h) for h in reds)
    st.decision = None
    st._job_place(1, refs, 3)              # water-filling: [3, 0, …] + 3 → [3, 3] on two holes
    assert [sv.damage[h] for h in reds[:2]] == [3, 3]
    st._job_place(1, refs, 50)             # far too much: every red hole full, rest returned
    assert all(sv.damage[h] == 4 for h in reds)
    assert all(sv.damage[h] == 0 for h, c in enumerate(sv.spec.holes) if c != "R")


def test_victim_places_the_remainder(rules):
    st = fresh(rules, 3)
    sid = servers_with(rules, lambda s: s.holes.count("G") >= 2)[0]
    st.servers[2].append(Server(grab(st, sid), rules.server[sid]))
    greens = [h for h, c in enumerate(rules.server[sid].holes) if c == "G"]
    k = len(st.servers[2]) - 1
    st.decision = None
    st._job_place(2, tuple((k, h) for h in greens), 1)
    assert st.decision.kind == "place" and st.decision.seat == 2
    assert st.legal_actions() == sorted(("place", k, h) for h in greens)
    st.apply(("place", k, greens[-1]))
    assert st.servers[2][k].damage[greens[-1]] == 1


def test_direct_damage_ignores_defence_and_attack_does_not(rules):
    st = fresh(rules, 3)
    for owner in st.servers:
        st.box.extend(sv.inst for sv in owner)
        owner.clear()
    sid = servers_with(rules, lambda s: s.holes.count("B") >= 1, 2)
    st.servers[1].append(Server(grab(st, sid[0]), rules.server[sid[0]]))
    st.tableau[1] = [grab(st, c) for c in defence_summing(rules, "B", 3)]
    assert st.damage_against(1, "B", 3, 0) == 0
    assert st.damage_against(1, "B", 4, 0) == 1
    assert st.damage_against(1, "B", 0, 2) == 2
    assert st.damage_against(1, "B", 5, 1) == 3


def test_deep_security_defends_every_colour(rules):
    st = fresh(rules, 3)
    st.tableau[1] = [grab(st, "D-10R")]
    value = rules.defence["D-10R"].defence
    assert value == 1
    assert [st.defence_of(1, c) for c in "RYGB"] == [1, 1, 1, 1]


def test_two_trojan_horses_add_four_and_zero_day_adds_direct(rules):
    st = fresh(rules, 3)
    st.tableau[0] = [grab(st, "D-07R"), grab(st, "D-07G")]    # both mark red and green
    card = next(a for a, s in sorted(rules.attack.items()) if "R" in s.colours)
    atk, direct = rules.attack[card].option(1)
    assert st.attack_strength(0, card, 1, "R") == (atk + 4, direct)
    marks = rules.defence["D-09R"].effect_colours
    st.tableau[0].append(grab(st, "D-09R"))
    colour = sorted(marks)[0]
    trojans = sum(1 for c in ("D-07R", "D-07G") if colour in rules.defence[c].effect_colours)
    assert st.attack_strength(0, card, 1, colour) == (atk + 2 * trojans, direct + 2)


def test_underground_market_needs_two_damaged_opponents(rules):
    reds = servers_with(rules, lambda s: "R" in s.holes, 3)
    card = next(a for a, s in sorted(rules.attack.items())
                if s.colours == ("R",) and s.option(1)[1] > 0)
    st = position(rules, 3, hands={0: [card, *plain_attacks(rules, 2, exclude=[card])]},
                  tableau={0: ["D-08R", "D-06R"]},
                  servers={0: [(servers_with(rules, lambda s: "R" not in s.holes)[0], None)],
                           1: [(reds[0], None)], 2: [(reds[1], None)]})
    direct = rules.attack[card].option(1)[1]
    atk = rules.attack[card].option(1)[0]
    play(st, ("board", ATTACK), ("attack", card, 1))
    pay_first(st)
    resolve_passively(st)
    placed = [min(atk + direct, sum(4 for c in rules.server[r].holes if c == "R"))
              for r in reds[:2]]
    assert st.vp[0] == max(placed) + 1 + 2        # damage, D-06, D-08


# ---- install ---------------------------------------------------------------------------------

def test_thin_provision_discounts_once_per_round_and_solid_state_scores(rules):
    dear = servers_with(rules, lambda s: s.level == 1 and s.cost >= 2, 2)
    cost = rules.server[dear[0]].cost
    hand = plain_attacks(rules, cost + 3)
    st = position(rules, 3, hands={0: hand}, tableau={0: ["D-01R", "D-03R"]}, supply=dear,
                  servers={0: [("S-01", None)]})
    amounts = [a for a in st.legal_actions()]
    assert ("board", INSTALL) in amounts
    play(st, ("board", INSTALL))
    assert ("amount", cost - 1) in st.legal_actions()       # D-01 makes it one cheaper
    play(st, ("amount", cost - 1))
    pay_first(st)
    play(st, ("server", dear[0]))
    assert [sv.inst.card for sv in st.servers[0]][-1] == dear[0]
    assert any(i.card == "D-01R" for i in st.tapped)
    assert st.vp[0] == 1                                       # D-03
    resolve_passively(st)
    play(st, ("board", INSTALL))
    assert min(a[1] for a in st.legal_actions()) == rules.server[dear[1]].cost   # tapped now


def test_sixth_server_replaces_one_and_moves_its_damage(rules):
    five = servers_with(rules, lambda s: s.level == 1, 6)
    new = five.pop()
    old_holes = len(rules.server[five[0]].holes)
    st = position(rules, 3, hands={0: plain_attacks(rules, 4)}, supply=[new],
                  servers={0: [(five[0], [2, 3] + [0] * (old_holes - 2))] +
                           [(sid, None) for sid in five[1:]]})
    play(st, ("board", INSTALL), ("amount", rules.server[new].cost))
    pay_first(st)
    play(st, ("server", new))
    assert st.decision.kind == "scrap"
    assert len(st.legal_actions()) == 5
    play(st, ("scrap", 0))
    while st.decision.kind == "place":
        st.apply(st.legal_actions()[0])
    assert len(st.servers[0]) == 5
    moved = st.servers[0][-1]
    assert moved.inst.card == new and sum(moved.damage) == 5
    assert max(moved.damage) - min(moved.damage) <= 1
    assert five[0] in [i.card for i in st.box]


def test_ties_lower_vp_first_then_higher_disc(rules):
    last = servers_with(rules, lambda s: s.level == 1)[0]
    cost = rules.server[last].cost

    def contest(vp, discs):
        first = plain_attacks(rules, cost + 1)
        st = position(rules, 3, hands={0: first,
                                       1: plain_attacks(rules, cost + 1, exclude=first)},
                      supply=[last], vp=vp, discs=discs,
                      servers={0: [("S-02", None)], 1: [("S-03", None)], 2: [("S-04", None)]})
        for _ in range(2):
            play(st, ("board", INSTALL), ("amount", cost))
            pay_first(st)
        winner = st.decision.seat
        play(st, ("server", last))
        resolve_passively(st)
        return winner, st

    winner, st = contest([3, 1, 0], [0, 1, 2])
    assert winner == 1
    assert len(st.hands[0]) == cost + 1              # the loser takes its payment back
    assert contest([2, 2, 0], [0, 1, 2])[0] == 1     # equal VP: seat 1's disc is on top
    assert contest([2, 2, 0], [5, 1, 2])[0] == 0


def test_install_needs_a_supply(rules):
    st = position(rules, 3, hands={0: plain_attacks(rules, 3)}, supply=[])
    assert ("board", INSTALL) not in st.legal_actions()


# ---- repair and round end -----------------------------------------------------------------

def test_repair_three_per_card_and_two_incident_responses_stack(rules):
    big = servers_with(rules, lambda s: len(s.holes) == 4)[0]
    st = position(rules, 3, hands={0: plain_attacks(rules, 2)},
                  tableau={0: ["D-02R", "D-02Y"]}, servers={0: [(big, [4, 3, 0, 0])]})
    play(st, ("board", REPAIR), ("amount", 1))
    pay_first(st)
    resolve_passively(st)
    assert st.total_damage(0) == 0                   # 3 + 2 + 2 = 7 removed for one card
    assert sum(1 for i in st.tapped if i.card.startswith("D-02")) == 2


def test_repair_choice_when_damage_exceeds_budget(rules):
    big = servers_with(rules, lambda s: len(s.holes) == 4)[0]
    st = position(rules, 3, hands={0: plain_attacks(rules, 2)}, servers={0: [(big, [4, 4, 0, 1])]})
    play(st, ("board", REPAIR), ("amount", 1))
    pay_first(st)
    assert st.decision.kind == "fix" and st.decision.seat == 0
    for _ in range(3):
        st.apply(("fix", 0, 3) if ("fix", 0, 3) in st.legal_actions() else st.legal_actions()[0])
    assert st.total_damage(0) == 9 - 3


def test_round_end_auto_recovery_then_audit_and_next_level(rules):
    two = servers_with(rules, lambda s: s.level == 1, 2)
    st = position(rules, 3, hands={0: plain_attacks(rules, 1)},
                  tableau={1: ["D-04R", "D-05R"]},
                  servers={0: [("S-03", None)], 2: [("S-04", None)],
                           1: [(two[0], [1, 1]), (two[1], None)]})
    play(st, ("board", REPAIR), ("amount", 1))
    while st.current_player() != CHANCE:
        st.apply(st.legal_actions()[0])
    holes = sum(len(rules.server[s].holes) for s in two)
    bonus = sum(rules.server[s].bonus for s in two)
    assert st.vp[1] == holes + bonus + 2             # D-04 cleaned it, D-05 counts 2 servers
    assert st.round_no == 2 and st.action_no == 1
    assert st.supply and all(rules.server[i.card].level == 2 for i in st.supply)
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
    assert len(st.servers[st.V]) == 2 and [len(st.servers[s]) for s in (0, 1)] == [1, 1]
    holes = Counter(c for sv in st.servers[st.V] for c in sv.spec.holes)
    assert [st.defence_of(st.V, c) for c in "RYGB"] == [holes[c] for c in "RYGB"]


def test_virtual_player_catches_up_and_other_player_picks(rules):
    l1 = servers_with(rules, lambda s: s.level == 1, 6)
    cost = rules.server[l1[4]].cost
    st = position(rules, 2, hands={0: plain_attacks(rules, cost + 1)}, supply=l1[4:],
                  servers={0: [(l1[0], None), (l1[1], None)], 1: [(l1[2], None)],
                           2: [(l1[3], None), ("S-20", None)]})
    play(st, ("board", INSTALL), ("amount", cost))
    pay_first(st)
    play(st, ("server", l1[4]))
    assert st.decision.kind == "vpick" and st.decision.seat == 1
    play(st, ("server", l1[5]))
    assert [sv.inst.card for sv in st.servers[2]][-1] == l1[5]


def test_attacks_hit_the_virtual_player(rules):
    card = next(a for a, s in sorted(rules.attack.items())
                if s.colours == ("R",) and s.option(1)[1] > 0)
    red = servers_with(rules, lambda s: "R" in s.holes)[0]
    other = servers_with(rules, lambda s: "R" not in s.holes, 2)
    st = position(rules, 2, hands={0: [card, *plain_attacks(rules, 2, exclude=[card])]},
                  servers={0: [(other[0], None)], 1: [(other[1], None)], 2: [(red, None)]})
    play(st, ("board", ATTACK), ("attack", card, 1))
    pay_first(st)
    resolve_passively(st)
    expected = st.total_damage(2)
    assert expected > 0 and st.vp[0] == expected


# ---- hidden information, legality, data binding ---------------------------------------------

def test_hidden_view_hides_earlier_secret_choices(rules):
    first = plain_attacks(rules, 3)
    st = position(rules, 3, hands={0: first, 1: plain_attacks(rules, 2, exclude=first)},
                  servers={0: [("S-01", None)], 1: [("S-02", None)], 2: [("S-03", None)]})
    play(st, ("board", REPAIR), ("amount", 2))
    pay_first(st)
    assert st.decision.seat == 1
    view = st.hidden_view(1)
    assert view.boards[0] == {"cards_face_down": 2}
    secret = {i.card for i in st.boards[0]}
    assert not secret & set(view.hand)
    assert view._table.boards[0] == [] and view._table.choice[0] is None
    assert view._table.hands[0] == [] and view._table.deck == []
    assert isinstance(view.greedy_value(st.legal_actions()[0]), float | int)
    mine = st.hidden_view(0)
    assert mine.boards[0]["board"] == REPAIR


def test_illegal_action_is_refused(rules):
    st = fresh(rules, 3)
    with pytest.raises(RuleViolation):
        st.apply(("board", 99))


def test_database_edit_changes_the_engine(shipped_db):
    conn = sqlite3.connect(shipped_db)
    conn.execute("UPDATE cards SET fields = json_set(fields, '$.defence', 3) "
                 "WHERE game = 'hackers' AND id = 'D-10R'")
    conn.execute("UPDATE cards SET fields = json_set(fields, '$.effect', 'mystery') "
                 "WHERE game = 'hackers' AND id = 'D-04B'")
    conn.commit()
    conn.close()
    rules = make_rules(open_db(shipped_db), {})
    st = fresh(rules, 3)
    st.tableau[2] = [grab(st, "D-10R")]
    assert st.defence_of(2, "Y") == 3
    assert [u.card_id for u in rules.unknown_effects()] == ["D-04B"]


def test_every_effect_is_known(rules):
    assert rules.unknown_effects() == []
    assert len(rules.deck()) == 90


# ---- random play -------------------------------------------------------------------------

def _random_game(rules, players: int, seed: int) -> int:
    rng = random.Random(seed)
    st = rules.new_initial_state(players, rng)
    deck = Counter(rules.deck())
    steps = 0
    while not st.is_terminal():
        acts = st.legal_actions()
        assert acts == sorted(acts) and acts
        if st.current_player() == CHANCE:
            ids = [a for a, _ in st.chance_outcomes()]
            action = ids[rng.randrange(len(ids))]
        else:
            action = acts[rng.randrange(len(acts))]
        st.apply(action)
        steps += 1
        check_zones(st, deck)
        st.check_invariants()
        assert steps <= rules.info.max_steps
    assert st.returns() == st.scores_from_rules()
    assert st.winners()
    return steps


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_conserve_cards_and_end(rules, players):
    for seed in range(8):
        _random_game(rules, players, seed)


def test_runner_plays_greedy_and_random(rules):
    for seed in range(6):
        p = 2 + seed % 3
        result = play_game(rules, p, seed, ["greedy", "random", "greedy", "random"][:p])
        assert result.completed, result.failure


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
def test_many_random_games(rules, players):
    for seed in range(150):
        _random_game(rules, players, 1000 + seed)
