"""The table of a League of Hackers game: piles, servers, scores, and the work queue.

The table is `state.HackersState`'s data; these functions read and move it for
every step.  Work left to do sits in `jobs` (run in order by the state's
`advance`, through `state.JOBS`); `decision` is what waits for a seat (or for
chance).  The steps themselves are functions in `actions.py` (choosing and
installing) and `effects.py` (attack, repair, round end).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from pnpforge.rules.engine import CardInstance, RuleViolation

from . import arithmetic
from .arithmetic import defence_in, virtual_defence
from .data import HOLE_CAPACITY, ServerSpec
from .memo import READOUTS, ServersSeen, TableauxSeen

if TYPE_CHECKING:
    from .state import HackersState

VIRTUAL = "virtual"


class Server:
    """A server card in front of someone, with the damage on each of its holes."""

    __slots__ = ("card", "spec", "damage")

    def __init__(self, card: CardInstance, spec: ServerSpec) -> None:
        self.card = card
        self.spec = spec
        self.damage = [0] * len(spec.holes)

    @property
    def clean(self) -> bool:
        return not any(self.damage)


@dataclass
class BoardChoice:
    """A seat's face-down choice in this step: the board, its key card and what it pays."""

    board: int
    key: CardInstance | None = None
    pay: int = 0  # cards to put under the board besides the key card
    pay_option: int = 0  # attack: the printed strength paid for


@dataclass
class Decision:
    """Who must choose what now; `actions` is the sorted legal list, `data` the context."""

    kind: str
    seat: int
    actions: list[Any]
    data: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class AttackRecord:
    """One resolved attack, for recomputing its VP by the rules at the end."""

    seat: int
    placed: tuple[int, ...]  # damage landed on each opponent hit (0 when nothing landed)
    proofs_of_concept: int
    underground_markets: int


# -- piles ---------------------------------------------------------------------------------
def server_pile(st: HackersState, owner: int) -> str:
    return f"servers:{owner_name(st, owner)}"


def owner_name(st: HackersState, owner: int) -> str:
    return VIRTUAL if owner == st.virtual_owner else str(owner)


def find(st: HackersState, pile: str, card_id: str) -> CardInstance:
    """The first copy of `card_id` in `pile` (copies are interchangeable)."""
    for card in st.piles.view(pile):
        if card.card == card_id:
            return card
    raise RuleViolation(f"{card_id} is not in '{pile}'")


def move(st: HackersState, card: CardInstance, src: str, dst: str) -> None:
    """Move a card (the kit keeps the deck's counts by card id in step), telling the read-outs
    when a tableau changed."""
    st.piles.move(card, src, dst)
    if src.startswith("tableau:") or dst.startswith("tableau:"):
        READOUTS(st).tableaux_seen = None


def move_cards(st: HackersState, cards: Iterable[CardInstance], src: str, dst: str) -> None:
    for card in list(cards):
        move(st, card, src, dst)


def tap(st: HackersState, card: CardInstance) -> None:
    """Turn a card in front of its owner sideways (its effect is spent until the round ends)."""
    st.tapped.add(card)
    READOUTS(st).tableaux_seen = None


def untap_all(st: HackersState) -> None:
    st.tapped.clear()
    READOUTS(st).tableaux_seen = None


def tableaux_seen(st: HackersState) -> TableauxSeen:
    """Every seat's cards in front, each with whether it is tapped (public; kept until they change)."""
    readouts = READOUTS(st)
    if readouts.tableaux_seen is None:
        tapped = st.tapped
        readouts.tableaux_seen = tuple(
            tuple((card.card, card in tapped) for card in st.piles.view(name)) for name in st.tableau_pile
        )
    return readouts.tableaux_seen


def servers_changed(st: HackersState) -> None:
    """Servers or their damage are about to change: drop the public view and recheck the damage."""
    READOUTS(st).servers_seen = None


def servers_seen(st: HackersState) -> ServersSeen:
    """Every owner's servers with the damage on each hole (public; kept until they change)."""
    readouts = READOUTS(st)
    if readouts.servers_seen is None:
        check_damage(st)
        readouts.servers_seen = tuple(
            tuple((sv.card.card, tuple(sv.damage)) for sv in owner) for owner in st.servers
        )
    return readouts.servers_seen


def add_server(st: HackersState, owner: int, card: CardInstance, src: str) -> None:
    move(st, card, src, server_pile(st, owner))
    st.servers[owner].append(Server(card, st.catalogue.server[card.card]))
    servers_changed(st)


def remove_server(st: HackersState, owner: int, index: int) -> Server:
    old = st.servers[owner].pop(index)
    servers_changed(st)
    move(st, old.card, server_pile(st, owner), "box")
    return old


def chosen(st: HackersState, seat: int) -> BoardChoice:
    choice = st.choice[seat]
    if choice is None:
        raise RuleViolation(f"seat {seat} has no board chosen")
    return choice


def discard_board(st: HackersState, seat: int) -> None:
    st.piles.move_all(st.board_pile[seat], "discard")


def supply_ids(st: HackersState) -> list[str]:
    return sorted(set(st.piles.ids("supply")))


# -- what the table shows --------------------------------------------------------------------
def count_effect(st: HackersState, seat: int, effect: str, untapped: bool = False) -> int:
    """Defence cards with this effect in front of `seat` (only upright ones if `untapped`)."""
    defence = st.catalogue.defence
    return sum(
        1
        for card in st.piles.view(st.tableau_pile[seat])
        if defence[card.card].effect == effect and not (untapped and card in st.tapped)
    )


def tableau_ids(st: HackersState, seat: int) -> list[str]:
    return list(st.piles.ids(st.tableau_pile[seat]))


# rulebook 002:272 「虛擬玩家各顏色的防禦力等同其擁有」
def defence_of(st: HackersState, owner: int, colour: str) -> int:
    """Defence in one colour: the cards in front, or the virtual player's hole count."""
    if owner == st.virtual_owner:
        return virtual_defence([sv.spec.holes for sv in st.servers[owner]], colour)
    return defence_in(st.catalogue, tableau_ids(st, owner), colour)


def total_damage(st: HackersState, owner: int) -> int:
    return sum(sum(sv.damage) for sv in st.servers[owner])


def free_slots(st: HackersState, owner: int, colour: str) -> int:
    return arithmetic.free_slots([(sv.spec.holes, sv.damage) for sv in st.servers[owner]], colour)


def has_colour(st: HackersState, owner: int, colour: str) -> bool:
    return any(colour in sv.spec.holes for sv in st.servers[owner])


# rulebook 002:147 「伺服器費用不能少於１。」
# rulebook 002:291 「減１的價格購置伺服器卡。」
def effective_cost(st: HackersState, seat: int, spec: ServerSpec) -> int:
    """A server's price after upright Thin Provision cards, never below 1."""
    return max(1, spec.cost - count_effect(st, seat, "thin_provision", untapped=True))


# rulebook 002:137 「如果有兩名或更多玩家選擇相同的行動，則由勝利點數較低」
# rulebook 002:139 「的玩家優先；若點數相同低則由圓盤位置較高的玩家優先。」
def priority(st: HackersState, seats: Iterable[int]) -> list[int]:
    """Lower VP first; on equal VP the disc higher in the stack first."""
    return sorted(seats, key=lambda s: (st.vp[s], -st.disc_height[s]))


def hand(st: HackersState, seat: int) -> tuple[CardInstance, ...]:
    return tuple(st.piles.pile(st.hand_pile[seat]))


def check_damage(st: HackersState) -> None:
    for owner in st.servers:
        for sv in owner:
            if sv.damage and (min(sv.damage) < 0 or max(sv.damage) > HOLE_CAPACITY):
                raise RuleViolation(f"{sv.card}: damage {sv.damage} outside 0..{HOLE_CAPACITY}")


# -- scores ----------------------------------------------------------------------------------
def gain(st: HackersState, seat: int, vp: int, reason: str, card: str | None = None) -> None:
    """Score VP; a moving disc lands on top of the stack at its new space."""
    if vp <= 0:
        return
    st.vp[seat] += vp
    st._top_height += 1
    st.disc_height[seat] = st._top_height
    st.score(seat, vp, reason, card)


# -- the work queue --------------------------------------------------------------------------
def decide(st: HackersState, kind: str, seat: int, actions: list[Any], **data: Any) -> None:
    if not actions:
        raise RuleViolation(f"decision {kind} for seat {seat} has no option")
    st.decision = Decision(kind, seat, actions, data)


def push(st: HackersState, *jobs: tuple[Any, ...]) -> None:
    """Run these jobs next, in the order given."""
    st.jobs.extendleft(reversed(jobs))
