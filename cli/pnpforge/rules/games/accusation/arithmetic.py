"""What the board of Accusation adds up to: symbols, stardust, guards, raids and rituals.

Every rule and every observation reads these sums, far more often than a card
enters or leaves a field or a mark changes, so the sums every seat sees
(stardust, guards) are kept beside the field and mark state they were read at
and summed again only when that changed.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from pnpforge.rules.games.accusation import board
from pnpforge.rules.games.accusation.memo import READOUTS

if TYPE_CHECKING:
    from pnpforge.rules.games.accusation.state import AccusationState


# rulebook 004:174 「罪惡信徒會失去效果欄中所有能力，信徒在場上不論是否罪惡狀態都會提供符號。」
def passive(st: AccusationState, card: int, key: str) -> int:
    """A passive's value; a guilty follower has lost all its effects."""
    if card in st.guilty:
        return 0
    return board.card(st, card).effect.passives.get(key, 0)


def symbols(st: AccusationState, seat: int) -> Counter:
    """Symbols on your field: followers (guilty too), locations, rituals, leader.

    Counted again only when the field changed (every ritual check and effect asks); the
    Counter is shared: read it, never change it."""
    field = board.pile(st, seat, "field")
    kept = READOUTS(st).symbols_of
    known = kept.get(seat)
    if known is None or known[0] is not field:
        symbols_of = st.rules.symbols_of
        counts = Counter([symbol for card in field for symbol in symbols_of[card]])  # counted in C
        known = kept[seat] = (field, counts)
    return known[1]


# rulebook 004:227 「你場上每個「非罪惡信徒」都會提供1個星塵」
def stardust(st: AccusationState, seat: int) -> int:
    """1 per innocent follower on the field plus their 'extra_stardust' passives."""
    guilty, stardust_of = st.guilty, st.rules.stardust_of
    return sum([stardust_of[f] for f in board.field(st, seat, "follower") if f not in guilty])


def stardusts(st: AccusationState) -> tuple[int, ...]:
    """`stardust` of every seat, seat by seat (each observation shows them all); summed again
    only when a follower entered or left a field or the guilty marks changed, and then only for
    the seats whose field changed (a changed field is a new list) or holds a card whose guilt did."""
    readouts = READOUTS(st)
    known = readouts.stardusts
    guilty = st.guilty
    if known[0] == st.follower_moves and known[1] is guilty:
        return known[2]
    seats, lists = readouts.stardust_seats, st._lists
    follower_stardust = st.rules.follower_stardust_of
    turned = known[1] ^ guilty  # the cards whose guilt changed since the last sums
    for seat, (field, _) in enumerate(seats):
        now = lists[seat]["field"]
        if now is not field or not turned.isdisjoint(now):
            seats[seat] = (now, sum([follower_stardust[card] for card in now if card not in guilty]))
    values = tuple([value for _, value in seats])
    readouts.stardusts = (st.follower_moves, guilty, values)
    return values


def guard(st: AccusationState, location: int) -> int:
    seat = board.location(st, location)[0]
    bonus = sum(board.card(st, f).garrison for f, host in st.garrisoning.items() if host == location)
    bonus += sum(
        passive(st, other, "guard_others") for other in board.field(st, seat, "location") if other != location
    )
    return board.card(st, location).guard + bonus


def guards(st: AccusationState) -> tuple[tuple[int, int], ...]:
    """(location, guard) of every location on every field, seat by seat: what `guard` gives
    each, with the garrisons and the 'guard_others' passives summed once for all of them;
    summed again only when a location entered or left a field, a location's guilt changed
    or the garrisons changed."""
    readouts = READOUTS(st)
    known, garrisoning = readouts.guards, st.garrisoning
    if known[0] == st.location_moves and known[1] == st.location_guilt and known[2] is garrisoning:
        return known[3]
    garrisoned: dict[int, int] = {}
    for follower, host in st.garrisoning.items():
        garrisoned[host] = garrisoned.get(host, 0) + board.card(st, follower).garrison
    guilty, guard_of, others_of = st.guilty, st.rules.guard_of, st.rules.guard_others_of
    out: list[tuple[int, int]] = []
    for seat in range(st.players):
        locations = board.field(st, seat, "location")
        if not locations:
            continue
        others = [0 if location in guilty else others_of[location] for location in locations]
        total = sum(others)
        for location, own in zip(locations, others, strict=True):
            out.append((location, guard_of[location] + garrisoned.get(location, 0) + total - own))
    values = tuple(out)
    readouts.guards = (st.location_moves, st.location_guilt, st.garrisoning, values)
    return values


def guard_by_location(st: AccusationState) -> dict[int, int]:
    """`guards` as a mapping from location to guard (a shared dict: read it, never change it)."""
    values = guards(st)
    readouts = READOUTS(st)
    known = readouts.guard_map
    if known[0] is not values:
        known = readouts.guard_map = (values, dict(values))
    return known[1]


def raid_strength(st: AccusationState, seat: int) -> int:
    """What all of `seat`'s raiders and its locations' raid bonuses add up to: the most guard
    a raid of that seat can beat (what `raid_value` of each of `raiders` and `raid_bonus_all`
    give, summed in one pass)."""
    guilty = st.guilty
    raider_value_of, bonus_of = st.rules.raider_value_of, st.rules.raid_bonus_all_of
    total = sum([raider_value_of[f] for f in board.field(st, seat, "follower") if f not in guilty])
    return total + sum([bonus_of[loc] for loc in board.field(st, seat, "location") if loc not in guilty])


def raid_value(st: AccusationState, follower: int) -> int:
    return (board.card(st, follower).volume or 0) + passive(st, follower, "raid_bonus")


# rulebook 004:77 「聲量1以上的信徒才能參與襲擊。」
def raiders(st: AccusationState, seat: int) -> list[int]:
    """聲量1以上的非罪惡信徒 can raid."""
    guilty, defs = st.guilty, st.rules.instance_defs
    return [f for f in board.field(st, seat, "follower") if f not in guilty and (defs[f].volume or 0) >= 1]


def raid_bonus_all(st: AccusationState, seat: int) -> int:
    locations = board.field(st, seat, "location")
    return sum([passive(st, loc, "raid_bonus_all") for loc in locations]) if locations else 0


# rulebook 004:394 「每張獻祭的卡牌會減少該儀式1個任意符號需求。」
def ritual_shortfall(st: AccusationState, seat: int, ritual: int) -> int:
    """Missing symbols after 解構 and 獻祭 reductions (≤ 0 means executable)."""
    have = symbols(st, seat)
    short = sum([max(0, count - have[symbol]) for symbol, count in st.rules.requirements_of[ritual]])
    reduction = sum(board.card(st, f).deconstruct for f, host in st.deconstructing.items() if host == ritual)
    reduction += sum(1 for host in st.sacrificed.values() if host == ritual)
    return short - reduction


def executable_rituals(st: AccusationState, seat: int) -> list[int]:
    return [r for r in board.field(st, seat, "ritual") if ritual_shortfall(st, seat, r) <= 0]


def any_ritual_completed(st: AccusationState) -> bool:
    return any([lists["score"] for lists in st._lists])


# rulebook 004:105 「展示手牌中1張聲量(五邊形綠色數字)大於等於其效果災厄等級的信徒，然後無效被控訴的效果。」
def accusers(st: AccusationState, enemy: int, calamity: int) -> list[int]:
    """Followers in `enemy`'s hand loud enough (聲量 ≥ 災厄) to accuse."""
    return [
        f
        for f in board.pile(st, enemy, "hand")
        if board.card(st, f).type == "follower" and (board.card(st, f).volume or 0) >= calamity
    ]
