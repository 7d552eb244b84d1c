"""The table of a League of Hackers game: piles, servers, scores, and the work queue.

`HackersTable` is the part of the state every step shares.  Work left to do
sits in `jobs` (resolved in order by `_advance`); `decision` is what waits for
a seat (or for chance).  The steps themselves live in `actions.py` (choosing
and installing) and `effects.py` (attack, repair, round end); `state.py` puts
them together behind the engine interface.
"""

from __future__ import annotations

from collections import Counter, deque
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from pnpforge.rules.engine import CardInstance, RuleViolation, State
from pnpforge.rules.kit import Zones

from .arithmetic import defence_in, free_slots, virtual_defence
from .data import HOLE_CAPACITY, Catalogue, ServerSpec

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


class HackersTable(State):
    """Piles, servers, scores and the queue of work shared by every step of a game."""

    def __init__(self, catalogue: Catalogue, players: int, handicap: tuple[int, ...]) -> None:
        self.catalogue = catalogue
        self.players = players
        self.has_virtual = players == 2
        self.virtual_owner = players if self.has_virtual else -1
        self.owner_count = players + (1 if self.has_virtual else 0)
        self.action_limit = 4 if players == 2 else 5
        self.server_limit = 4 if players == 2 else 5
        self.handicap = handicap
        levels = sorted({spec.level for spec in catalogue.server.values()})
        self.piles = Zones(["deck", "discard", "supply", "box", *[f"stock:{lvl}" for lvl in levels]])
        self.hand_pile = [f"hand:{seat}" for seat in range(players)]
        self.board_pile = [f"board:{seat}" for seat in range(players)]
        self.tableau_pile = [f"tableau:{seat}" for seat in range(players)]
        for names in (self.hand_pile, self.board_pile, self.tableau_pile):
            for name in names:
                self.piles.add_pile(name)
        for owner in range(self.owner_count):
            self.piles.add_pile(self.server_pile(owner))
        self.piles.deal(catalogue.instances([*catalogue.defence, *catalogue.attack]), "deck")
        self.deck_counts: Counter[str] = Counter(card.card for card in self.piles.pile("deck"))
        self.deck_ids = sorted(self.deck_counts)  # every id the deck can hold, in action order
        for sid, spec in catalogue.server.items():
            self.piles.deal(catalogue.instances([sid]), f"stock:{spec.level}")
        self.choice: list[BoardChoice | None] = [None] * players
        self.tapped: set[CardInstance] = set()
        self._tableaux_seen: tuple[tuple[tuple[str, bool], ...], ...] | None = None
        self._servers_seen: tuple[tuple[tuple[str, tuple[int, ...]], ...], ...] | None = None
        self.servers: list[list[Server]] = [[] for _ in range(self.owner_count)]
        self.vp = [0] * players
        self.disc_height = list(range(players))  # the later arrival on a space sits higher
        self._top_height = players - 1
        self.round_no = 1
        self.action_no = 1
        self.to_draw: deque[int] = deque()
        self.jobs: deque[tuple[Any, ...]] = deque()
        self.decision: Decision | None = None
        self.attacks: list[AttackRecord] = []
        self.installs: list[tuple[int, int]] = []  # (seat, Solid State Caches in play)
        self.snapshots: list[list[tuple[tuple[tuple[tuple[int, ...], int], ...], int]]] = []
        self.revealed = [False] * players
        self.terminal = False

    # -- piles ---------------------------------------------------------------------------------
    def server_pile(self, owner: int) -> str:
        return f"servers:{self.owner_name(owner)}"

    def owner_name(self, owner: int) -> str:
        return VIRTUAL if owner == self.virtual_owner else str(owner)

    def find(self, pile: str, card_id: str) -> CardInstance:
        """The first copy of `card_id` in `pile` (copies are interchangeable)."""
        for card in self.piles.view(pile):
            if card.card == card_id:
                return card
        raise RuleViolation(f"{card_id} is not in '{pile}'")

    def move(self, card: CardInstance, src: str, dst: str) -> None:
        """Move a card, keeping the deck's counts by card id (the chance outcomes) in step."""
        self.piles.move(card, src, dst)
        if src.startswith("tableau:") or dst.startswith("tableau:"):
            self._tableaux_seen = None
        if src == "deck":
            self.deck_counts[card.card] -= 1
        elif dst == "deck":
            self.deck_counts[card.card] += 1

    def move_cards(self, cards: Iterable[CardInstance], src: str, dst: str) -> None:
        for card in list(cards):
            self.move(card, src, dst)

    def tap(self, card: CardInstance) -> None:
        """Turn a card in front of its owner sideways (its effect is spent until the round ends)."""
        self.tapped.add(card)
        self._tableaux_seen = None

    def untap_all(self) -> None:
        self.tapped.clear()
        self._tableaux_seen = None

    def tableaux_seen(self) -> tuple[tuple[tuple[str, bool], ...], ...]:
        """Every seat's cards in front, each with whether it is tapped (public; kept until they change)."""
        if self._tableaux_seen is None:
            tapped = self.tapped
            self._tableaux_seen = tuple(
                tuple((card.card, card in tapped) for card in self.piles.view(name))
                for name in self.tableau_pile
            )
        return self._tableaux_seen

    def servers_changed(self) -> None:
        """Servers or their damage are about to change: drop the public view and recheck the damage."""
        self._servers_seen = None

    def servers_seen(self) -> tuple[tuple[tuple[str, tuple[int, ...]], ...], ...]:
        """Every owner's servers with the damage on each hole (public; kept until they change)."""
        if self._servers_seen is None:
            self.check_damage()
            self._servers_seen = tuple(
                tuple((sv.card.card, tuple(sv.damage)) for sv in owner) for owner in self.servers
            )
        return self._servers_seen

    def add_server(self, owner: int, card: CardInstance, src: str) -> None:
        self.move(card, src, self.server_pile(owner))
        self.servers[owner].append(Server(card, self.catalogue.server[card.card]))
        self.servers_changed()

    def remove_server(self, owner: int, index: int) -> Server:
        old = self.servers[owner].pop(index)
        self.servers_changed()
        self.move(old.card, self.server_pile(owner), "box")
        return old

    def chosen(self, seat: int) -> BoardChoice:
        choice = self.choice[seat]
        if choice is None:
            raise RuleViolation(f"seat {seat} has no board chosen")
        return choice

    def discard_board(self, seat: int) -> None:
        self.piles.move_all(self.board_pile[seat], "discard")

    def supply_ids(self) -> list[str]:
        return sorted(set(self.piles.ids("supply")))

    # -- what the table shows --------------------------------------------------------------------
    def count_effect(self, seat: int, effect: str, untapped: bool = False) -> int:
        """Defence cards with this effect in front of `seat` (only upright ones if `untapped`)."""
        defence = self.catalogue.defence
        return sum(
            1
            for card in self.piles.view(self.tableau_pile[seat])
            if defence[card.card].effect == effect and not (untapped and card in self.tapped)
        )

    def tableau_ids(self, seat: int) -> list[str]:
        return list(self.piles.ids(self.tableau_pile[seat]))

    def defence_of(self, owner: int, colour: str) -> int:
        """Defence in one colour: the cards in front, or the virtual player's hole count."""
        if owner == self.virtual_owner:
            return virtual_defence([sv.spec.holes for sv in self.servers[owner]], colour)
        return defence_in(self.catalogue, self.tableau_ids(owner), colour)

    def total_damage(self, owner: int) -> int:
        return sum(sum(sv.damage) for sv in self.servers[owner])

    def free_slots(self, owner: int, colour: str) -> int:
        return free_slots([(sv.spec.holes, sv.damage) for sv in self.servers[owner]], colour)

    def has_colour(self, owner: int, colour: str) -> bool:
        return any(colour in sv.spec.holes for sv in self.servers[owner])

    def effective_cost(self, seat: int, spec: ServerSpec) -> int:
        """A server's price after upright Thin Provision cards, never below 1."""
        return max(1, spec.cost - self.count_effect(seat, "thin_provision", untapped=True))

    def priority(self, seats: Iterable[int]) -> list[int]:
        """Lower VP first; on equal VP the disc higher in the stack first."""
        return sorted(seats, key=lambda s: (self.vp[s], -self.disc_height[s]))

    def hand(self, seat: int) -> tuple[CardInstance, ...]:
        return tuple(self.piles.pile(self.hand_pile[seat]))

    def check_damage(self) -> None:
        for owner in self.servers:
            for sv in owner:
                if sv.damage and (min(sv.damage) < 0 or max(sv.damage) > HOLE_CAPACITY):
                    raise RuleViolation(f"{sv.card}: damage {sv.damage} outside 0..{HOLE_CAPACITY}")

    # -- scores ----------------------------------------------------------------------------------
    def gain(self, seat: int, vp: int, reason: str, card: str | None = None) -> None:
        """Score VP; a moving disc lands on top of the stack at its new space."""
        if vp <= 0:
            return
        self.vp[seat] += vp
        self._top_height += 1
        self.disc_height[seat] = self._top_height
        self.score(seat, vp, reason, card)

    # -- the work queue --------------------------------------------------------------------------
    def decide(self, kind: str, seat: int, actions: list[Any], **data: Any) -> None:
        if not actions:
            raise RuleViolation(f"decision {kind} for seat {seat} has no option")
        self.decision = Decision(kind, seat, actions, data)

    def push(self, *jobs: tuple[Any, ...]) -> None:
        """Run these jobs next, in the order given."""
        self.jobs.extendleft(reversed(jobs))

    def advance(self) -> None:
        """Run queued jobs until one needs a decision or none is left (the game is over)."""
        while self.decision is None:
            if not self.jobs:
                self.terminal = True
                self.end("three rounds played")
                return
            job = self.jobs.popleft()
            getattr(self, f"_job_{job[0]}")(*job[1:])
