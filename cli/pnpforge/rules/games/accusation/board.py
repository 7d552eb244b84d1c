"""The board of Accusation: every seat's piles, the marks on field cards, and what they add up to.

Cards are referred to by their index in the rules' instance list, so actions
stay small sortable tuples.  Marks (guilty, garrisoning, deconstructing,
sacrificed) exist only while the card is on the field and are cleared in one
place, `move`, so no rule has to remember to clear them.

The position's data lives in `state.AccusationState`; these are functions over it
(`board.pile(st, seat, "hand")`), as are `arithmetic`, `effects` and `flow` above them.
"""

from __future__ import annotations

from collections.abc import Generator, Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from pnpforge.rules.engine import CHANCE
from pnpforge.rules.games.accusation.actions import DISCARD, DRAW, Decision
from pnpforge.rules.games.accusation.data import CardDef
from pnpforge.rules.games.accusation.memo import READOUTS, Readouts, Shown

if TYPE_CHECKING:
    from pnpforge.rules.games.accusation.state import AccusationState

PILES = ("deck", "hand", "field", "discard", "conspiracy", "exile", "score", "aside", "under", "stack")
# Piles every seat may inspect (区域介紹: 公開資訊); deck, hand and sacrificed cards are hidden.
PUBLIC_PILES = ("field", "discard", "conspiracy", "exile", "score", "aside", "stack")
# Piles whose cards carry or hold marks, or count for the win: a move in or out of one is a
# change of the table (see `board_key`).
TABLE_PILES = ("field", "under", "score")
NO_MARKS: Mapping[int, int] = MappingProxyType({})


def without(marks: Mapping[int, int], card: int, as_host: bool) -> Mapping[int, int]:
    """`marks` without `card` (and without the cards attached to it when `as_host`): the same
    object when neither is there, so an unchanged mark keeps its identity."""
    if card not in marks and not (as_host and card in marks.values()):
        return marks
    return MappingProxyType(
        {f: host for f, host in marks.items() if f != card and not (as_host and host == card)}
    )


def pile_name(seat: int, pile: str) -> str:
    """The Zones name of one seat's pile, as the runner's conservation report shows it."""
    return f"p{seat}.{pile}"


Play = Generator[Decision, Any, None]
Attempt = Generator[Decision, Any, bool]


def team(st: AccusationState, seat: int) -> int:
    return seat % 2 if st.players == 4 else seat


def team_seats(st: AccusationState, team: int) -> list[int]:
    return [seat for seat in range(st.players) if st.rules.team_of[seat] == team]


def clockwise(st: AccusationState, start: int) -> list[int]:
    return list(st.rules.clockwise[start])


def enemies(st: AccusationState, seat: int) -> list[int]:
    return list(st.rules.enemies[seat])


# rulebook 004:143 「玩家完成2個儀式後獲得勝利。」
# rulebook 004:266 「同方玩家累計完成4張儀式，該方玩家立刻獲勝。」
def rituals_to_win(st: AccusationState) -> int:
    return 2 if st.players == 2 else 4


def team_rituals(st: AccusationState, team: int) -> int:
    return sum(count(st, seat, "score") for seat in team_seats(st, team))


def rituals_by_team(st: AccusationState) -> dict[int, int]:
    """Completed rituals of each side (what `team_rituals` gives, for every side at once)."""
    totals: dict[int, int] = {}
    for seat, team in enumerate(st.rules.team_of):
        totals[team] = totals.get(team, 0) + len(st._lists[seat]["score"])
    return totals


def counts(st: AccusationState, pile: str) -> tuple[int, ...]:
    """How many cards each seat has in its `pile`, seat by seat."""
    return tuple([len(lists[pile]) for lists in st._lists])


def card(st: AccusationState, card: int) -> CardDef:
    return st.rules.instance_defs[card]


def owner(st: AccusationState, card: int) -> int:
    return st.rules.instance_owner[card]


def label(st: AccusationState, card: int) -> str:
    return f"{st.rules.instance_defs[card].name}({st.rules.instances[card]})"


def pile(st: AccusationState, seat: int, pile: str) -> list[int]:
    """The cards of one of `seat`'s piles, bottom first (a shared list: read it, never change it)."""
    return st._lists[seat][pile]


def public(st: AccusationState, seat: int, readouts: Readouts | None = None) -> Shown:
    """(pile, cards) of each of `seat`'s public piles, as immutable tuples for observations (the
    caller that has the position's read-outs at hand passes them)."""
    public_of = (readouts or READOUTS(st)).public_of
    shown = public_of.get(seat)
    if shown is None:
        shown = public_of[seat] = tuple([(name, tuple(pile(st, seat, name))) for name in PUBLIC_PILES])
    return shown


def publics(st: AccusationState) -> tuple[Shown, ...]:
    """`public` of every seat, seat by seat; the same tuple until a public pile changes."""
    readouts = READOUTS(st)
    known = readouts.publics
    if known[0] != st.public_moves:
        shown = tuple([public(st, seat, readouts) for seat in range(st.players)])
        known = readouts.publics = (st.public_moves, shown)
    return known[1]


def own_hidden(st: AccusationState, seat: int) -> dict[str, tuple[int, ...]]:
    """`seat`'s hand and the cards it sacrificed, as its observation shows them (to it alone);
    the same values until one of the two piles changes (`move` gives it a new list)."""
    lists = st._lists[seat]
    hand, under = lists["hand"], lists["under"]
    kept = READOUTS(st).own_hidden
    known = kept[seat]
    if known[0] is not hand or known[1] is not under:
        known = kept[seat] = (hand, under, {"hand": tuple(hand), "own_under": tuple(under)})
    return known[2]


def hidden_counts(st: AccusationState) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """How many cards each seat has in its hand, deck and under pile: what others may count."""
    lists = st._lists
    return (
        tuple([len(piles["hand"]) for piles in lists]),
        tuple([len(piles["deck"]) for piles in lists]),
        tuple([len(piles["under"]) for piles in lists]),
    )


def count(st: AccusationState, seat: int, pile: str) -> int:
    return len(st._lists[seat][pile])


def location(st: AccusationState, card: int) -> tuple[int, str]:
    """(seat, pile) where the card is now."""
    return st.seat_pile_of[st.zones_.where(st.instances[card])]


def move(st: AccusationState, card: int, seat: int, pile: str) -> None:
    instance = st.instances[card]
    source, target = st.zones_.where(instance), st.pile_names[seat][pile]
    st.zones_.move(instance, source, target)
    st.moves += 1
    source_seat, source_pile = st.seat_pile_of[source]
    source_lists, target_lists = st._lists[source_seat], st._lists[seat]
    left = source_lists[source_pile].copy()
    left.remove(card)
    source_lists[source_pile] = left
    target_lists[pile] = [*target_lists[pile], card]
    readouts = None
    if pile == "field" or source_pile == "field":
        readouts = READOUTS(st)
        readouts.field_of_kind[seat].clear()
        readouts.field_of_kind[source_seat].clear()
        st.field_moves += 1
        kind = st.rules.kind_of[card]
        if kind == "follower":
            st.follower_moves += 1
        elif kind == "location":
            st.location_moves += 1
    if pile in TABLE_PILES or source_pile in TABLE_PILES or st.rules.kind_of[card] == "leader":
        st.table_moves += 1
    if source_pile in PUBLIC_PILES or pile in PUBLIC_PILES:
        public_of = (readouts or READOUTS(st)).public_of
        if source_pile in PUBLIC_PILES:
            public_of.pop(source_seat, None)
            st.public_moves += 1
        if pile in PUBLIC_PILES:
            public_of.pop(seat, None)
            st.public_moves += 1
    if pile != "field":
        _clear_marks(st, card)


def board_key(st: AccusationState) -> tuple[object, ...]:
    """What every field read-out and pile invariant depends on: equal keys, equal answers
    (the move count stands for the piles, the immutable marks for themselves)."""
    return (st.table_moves, st.guilty, st.garrisoning, st.deconstructing, st.sacrificed)


# rulebook 004:382 「地點離場後原本駐守該地點的信徒會被移到場上，不會再啟動駐守效果。」
# rulebook 004:396 「該儀式離場後，被獻祭給該儀式的所有卡牌會被置入棄牌區。」
def _clear_marks(st: AccusationState, card: int) -> None:
    """A card leaving the field stops being guilty, garrisoning or deconstructing (the marks are
    usually empty or without the card: looked at before anything is rebuilt)."""
    kind = st.rules.kind_of[card]
    if card in st.guilty:
        st.guilty = st.guilty - {card}
        st.location_guilt += kind == "location"
    if st.garrisoning:
        st.garrisoning = without(st.garrisoning, card, kind == "location")
    if st.deconstructing:
        st.deconstructing = without(st.deconstructing, card, kind == "ritual")
    if not st.sacrificed:
        return
    if kind == "ritual":
        unders = [c for c, host in st.sacrificed.items() if host == card]
        st.sacrificed = without(st.sacrificed, card, True)
        for under in unders:
            move(st, under, owner(st, under), "discard")
    else:
        st.sacrificed = without(st.sacrificed, card, False)


# rulebook 004:380 「若原本駐守中的信徒變為罪惡，則將該信徒從原本駐守的地點移開，代表已經不再駐守」
def make_guilty(st: AccusationState, follower: int) -> None:
    """罪惡: the follower loses its effects and stops garrisoning / deconstructing."""
    st.guilty = st.guilty | {follower}
    st.location_guilt += st.rules.kind_of[follower] == "location"
    st.garrisoning = without(st.garrisoning, follower, False)
    st.deconstructing = without(st.deconstructing, follower, False)


def absolve(st: AccusationState, follower: int) -> None:
    """解除罪惡: the follower is innocent again (it does not resume 駐守 or 解構)."""
    st.guilty = st.guilty - {follower}
    st.location_guilt += st.rules.kind_of[follower] == "location"


def attach(st: AccusationState, marks: str, card: int, host: int) -> None:
    """Mark `card` as garrisoning, deconstructing or sacrificed to `host` (`marks` names which)."""
    current: Mapping[int, int] = getattr(st, marks)
    setattr(st, marks, MappingProxyType({**current, card: host}))


def field(st: AccusationState, seat: int, kind: str | None = None) -> list[int]:
    """The cards on `seat`'s field (of one type), bottom first (a shared list: read it only)."""
    known = READOUTS(st).field_of_kind[seat]
    cards = known.get(kind)
    if cards is None:
        cards = pile(st, seat, "field")
        if kind is not None:
            kind_of = st.rules.kind_of
            cards = [card for card in cards if kind_of[card] == kind]
        known[kind] = cards
    return cards


def innocent_followers(st: AccusationState, seat: int) -> list[int]:
    return [f for f in field(st, seat, "follower") if f not in st.guilty]


def of_kind(st: AccusationState, cards: list[int], kind: str) -> list[int]:
    return [c for c in cards if kind == "any" or st.rules.kind_of[c] == kind]


# rulebook 004:276 「若沒有特別說明，則是從你的牌庫頂抽牌並加入手牌。」
def draw(st: AccusationState, seat: int) -> Attempt:
    """Draw one card; False when the deck is empty (the effect cannot go on)."""
    deck = pile(st, seat, "deck")
    if not deck:
        return False
    if len(deck) == 1:
        card = deck[0]
    else:
        # ints sort faster than tuples: the decision's own sort then finds them in order
        choice = yield Decision(CHANCE, "draw", [(DRAW, c) for c in sorted(deck)], {"seat": seat})
        card = choice[1]
    move(st, card, seat, "hand")
    return True


def discard(st: AccusationState, seat: int, count: int, why: str) -> Attempt:
    """The seat discards `count` cards of its choice; False when the hand runs out first."""
    for _ in range(count):
        hand = pile(st, seat, "hand")
        if not hand:
            return False
        choice = yield Decision(seat, "discard", [(DISCARD, c) for c in hand], {"why": why})
        move(st, choice[1], seat, "discard")
    return True
