"""The board of Accusation: every seat's piles, the marks on field cards, and what they add up to.

Cards are referred to by their index in the rules' instance list, so actions
stay small sortable tuples.  Marks (guilty, garrisoning, deconstructing,
sacrificed) exist only while the card is on the field and are cleared in one
place, `move`, so no rule has to remember to clear them.
"""

from __future__ import annotations

from collections.abc import Generator, Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from pnpforge.rules.engine import CHANCE
from pnpforge.rules.games.accusation.actions import DISCARD, DRAW, Decision
from pnpforge.rules.games.accusation.data import CardDef
from pnpforge.rules.kit import EventLog, Zones

if TYPE_CHECKING:
    from pnpforge.rules.games.accusation.rules import AccusationRules

PILES = ("deck", "hand", "field", "discard", "conspiracy", "exile", "score", "aside", "under", "stack")
# Piles every seat may inspect (区域介紹: 公開資訊); deck, hand and sacrificed cards are hidden.
PUBLIC_PILES = ("field", "discard", "conspiracy", "exile", "score", "aside", "stack")
# Piles whose cards carry or hold marks, or count for the win: a move in or out of one is a
# change of the table (see `BoardState.board_key`).
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


class BoardState(EventLog):
    """Piles and marks of one position, with the board arithmetic every rule reads.

    The piles are the kit's `Zones` (named `p<seat>.<pile>`), which refuse to move a
    card from where it is not, so no rule can lose or duplicate a card.
    """

    def __init__(self, rules: AccusationRules) -> None:
        self.rules = rules
        self.players = rules.players
        self.instances = rules.instances
        self.pile_names = [{pile: pile_name(seat, pile) for pile in PILES} for seat in range(self.players)]
        self.seat_pile_of = {
            name: (seat, pile) for seat in range(self.players) for pile, name in self.pile_names[seat].items()
        }
        self.zones_ = Zones(self.seat_pile_of)
        # Each seat's piles as card indices, kept in step with the Zones by `move` (every change
        # goes through it): piles are read far more often than they change.  A changed pile gets a
        # new list, so a reader may keep a list and tell by identity whether its pile moved.
        self._lists: list[dict[str, list[int]]] = [{pile: [] for pile in PILES} for _ in range(self.players)]
        # Bumped when a card enters or leaves any field, or any public pile: the observation's
        # shared fields (agents) are read again only when these or the marks changed.
        self.field_moves = 0
        self.public_moves = 0
        # ... and, of those field moves, the followers' and the locations' (what stardust and
        # guards read), with the changes of a location's guilt (a guilty card loses its passives).
        self.follower_moves = 0
        self.location_moves = 0
        self.location_guilt = 0
        # Each seat's field cards of one type, kept like the index lists until that field changes.
        self._field_of_kind: list[dict[str | None, list[int]]] = [{} for _ in range(self.players)]
        # Each seat's public piles as an observation shows them, kept until one of them changes.
        self._public_of: dict[int, tuple[tuple[str, tuple[int, ...]], ...]] = {}
        self.kind_of = [definition.type for definition in rules.instance_defs]
        # each seat's side, and each side's seats (seats 0+2 and 1+3 in 2v2, each seat alone in a duel)
        self.team_of = [seat % 2 if self.players == 4 else seat for seat in range(self.players)]
        # every seat's order of play from it, and its enemies in that order (asked at every step)
        self._clockwise = [
            [(start + k) % self.players for k in range(self.players)] for start in range(self.players)
        ]
        self._enemies = [
            [other for other in order if self.team_of[other] != self.team_of[order[0]]]
            for order in self._clockwise
        ]
        # The marks are immutable and replaced whenever they change (see `board_key`).
        self.guilty: frozenset[int] = frozenset()
        self.garrisoning: Mapping[int, int] = NO_MARKS  # follower -> location it garrisons
        self.deconstructing: Mapping[int, int] = NO_MARKS  # follower -> ritual it deconstructs
        self.sacrificed: Mapping[int, int] = NO_MARKS  # card under a ritual -> that ritual
        # Moves into or out of a field, an under pile or a score pile, and moves of leaders:
        # with the marks, what the field read-outs and the piles' invariants depend on.
        self.table_moves = 0
        self.moves = 0  # every move
        # The observation fields every seat sees alike, beside the key they were read at (agents),
        # and the marks as an observation shows them, beside the marks they were read from.
        self.shared_view: tuple[tuple[object, ...], dict[str, object]] | None = None
        self.shown_marks: tuple[object, object, tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]] = (
            None,
            None,
            (),
            (),
        )
        self._own_hidden: list[tuple[list[int] | None, list[int] | None, dict[str, tuple[int, ...]]]] = [
            (None, None, {}) for _ in range(self.players)
        ]
        self._publics: tuple[int, tuple[tuple[tuple[str, tuple[int, ...]], ...], ...]] = (-1, ())
        self.turn_seat = 0
        self.actions_left = 0
        self.abilities_used: set[int] = set()  # leaders whose free ability was used this turn
        for card, owner in enumerate(rules.instance_owner):
            kind = rules.instance_defs[card].type
            pile = "conspiracy" if kind == "leader" else "hand" if kind == "ritual" else "deck"
            self.zones_.deal([self.instances[card]], self.pile_names[owner][pile])
            self._lists[owner][pile].append(card)

    # ---- teams and seats ----------------------------------------------------------------

    def team(self, seat: int) -> int:
        return seat % 2 if self.players == 4 else seat

    def team_seats(self, team: int) -> list[int]:
        return [seat for seat in range(self.players) if self.team(seat) == team]

    def clockwise(self, start: int) -> list[int]:
        return list(self._clockwise[start])

    def enemies(self, seat: int) -> list[int]:
        return list(self._enemies[seat])

    def rituals_to_win(self) -> int:
        return 2 if self.players == 2 else 4

    def team_rituals(self, team: int) -> int:
        return sum(self.count(seat, "score") for seat in self.team_seats(team))

    def rituals_by_team(self) -> dict[int, int]:
        """Completed rituals of each side (what `team_rituals` gives, for every side at once)."""
        totals: dict[int, int] = {}
        for seat, team in enumerate(self.team_of):
            totals[team] = totals.get(team, 0) + len(self._lists[seat]["score"])
        return totals

    def counts(self, pile: str) -> tuple[int, ...]:
        """How many cards each seat has in its `pile`, seat by seat."""
        return tuple([len(lists[pile]) for lists in self._lists])

    # ---- cards ----------------------------------------------------------------------------

    def card(self, card: int) -> CardDef:
        return self.rules.instance_defs[card]

    def owner(self, card: int) -> int:
        return self.rules.instance_owner[card]

    def label(self, card: int) -> str:
        return f"{self.card(card).name}({self.rules.instances[card]})"

    def pile(self, seat: int, pile: str) -> list[int]:
        """The cards of one of `seat`'s piles, bottom first (a shared list: read it, never change it)."""
        return self._lists[seat][pile]

    def public(self, seat: int) -> tuple[tuple[str, tuple[int, ...]], ...]:
        """(pile, cards) of each of `seat`'s public piles, as immutable tuples for observations."""
        shown = self._public_of.get(seat)
        if shown is None:
            shown = self._public_of[seat] = tuple(
                [(name, tuple(self.pile(seat, name))) for name in PUBLIC_PILES]
            )
        return shown

    def publics(self) -> tuple[tuple[tuple[str, tuple[int, ...]], ...], ...]:
        """`public` of every seat, seat by seat; the same tuple until a public pile changes."""
        known = self._publics
        if known[0] != self.public_moves:
            known = self._publics = (self.public_moves, tuple([self.public(s) for s in range(self.players)]))
        return known[1]

    def own_hidden(self, seat: int) -> dict[str, tuple[int, ...]]:
        """`seat`'s hand and the cards it sacrificed, as its observation shows them (to it alone);
        the same values until one of the two piles changes (`move` gives it a new list)."""
        lists = self._lists[seat]
        hand, under = lists["hand"], lists["under"]
        known = self._own_hidden[seat]
        if known[0] is not hand or known[1] is not under:
            known = self._own_hidden[seat] = (hand, under, {"hand": tuple(hand), "own_under": tuple(under)})
        return known[2]

    def hidden_counts(self) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
        """How many cards each seat has in its hand, deck and under pile: what others may count."""
        lists = self._lists
        return (
            tuple([len(piles["hand"]) for piles in lists]),
            tuple([len(piles["deck"]) for piles in lists]),
            tuple([len(piles["under"]) for piles in lists]),
        )

    def count(self, seat: int, pile: str) -> int:
        return len(self._lists[seat][pile])

    def location(self, card: int) -> tuple[int, str]:
        """(seat, pile) where the card is now."""
        return self.seat_pile_of[self.zones_.where(self.instances[card])]

    def move(self, card: int, seat: int, pile: str) -> None:
        instance = self.instances[card]
        source, target = self.zones_.where(instance), self.pile_names[seat][pile]
        self.zones_.move(instance, source, target)
        self.moves += 1
        source_seat, source_pile = self.seat_pile_of[source]
        source_lists, target_lists = self._lists[source_seat], self._lists[seat]
        left = source_lists[source_pile].copy()
        left.remove(card)
        source_lists[source_pile] = left
        target_lists[pile] = [*target_lists[pile], card]
        if pile == "field" or source_pile == "field":
            self._field_of_kind[seat].clear()
            self._field_of_kind[source_seat].clear()
            self.field_moves += 1
            kind = self.kind_of[card]
            if kind == "follower":
                self.follower_moves += 1
            elif kind == "location":
                self.location_moves += 1
        if pile in TABLE_PILES or source_pile in TABLE_PILES or self.kind_of[card] == "leader":
            self.table_moves += 1
        if source_pile in PUBLIC_PILES:
            self._public_of.pop(source_seat, None)
            self.public_moves += 1
        if pile in PUBLIC_PILES:
            self._public_of.pop(seat, None)
            self.public_moves += 1
        if pile != "field":
            self._clear_marks(card)

    def board_key(self) -> tuple[object, ...]:
        """What every field read-out and pile invariant depends on: equal keys, equal answers
        (the move count stands for the piles, the immutable marks for themselves)."""
        return (self.table_moves, self.guilty, self.garrisoning, self.deconstructing, self.sacrificed)

    def _clear_marks(self, card: int) -> None:
        """A card leaving the field stops being guilty, garrisoning or deconstructing (the marks are
        usually empty or without the card: looked at before anything is rebuilt)."""
        kind = self.kind_of[card]
        if card in self.guilty:
            self.guilty = self.guilty - {card}
            self.location_guilt += kind == "location"
        if self.garrisoning:
            self.garrisoning = without(self.garrisoning, card, kind == "location")
        if self.deconstructing:
            self.deconstructing = without(self.deconstructing, card, kind == "ritual")
        if not self.sacrificed:
            return
        if kind == "ritual":
            unders = [c for c, host in self.sacrificed.items() if host == card]
            self.sacrificed = without(self.sacrificed, card, True)
            for under in unders:
                self.move(under, self.owner(under), "discard")
        else:
            self.sacrificed = without(self.sacrificed, card, False)

    def make_guilty(self, follower: int) -> None:
        """罪惡: the follower loses its effects and stops garrisoning / deconstructing."""
        self.guilty = self.guilty | {follower}
        self.location_guilt += self.kind_of[follower] == "location"
        self.garrisoning = without(self.garrisoning, follower, False)
        self.deconstructing = without(self.deconstructing, follower, False)

    def absolve(self, follower: int) -> None:
        """解除罪惡: the follower is innocent again (it does not resume 駐守 or 解構)."""
        self.guilty = self.guilty - {follower}
        self.location_guilt += self.kind_of[follower] == "location"

    def attach(self, marks: str, card: int, host: int) -> None:
        """Mark `card` as garrisoning, deconstructing or sacrificed to `host` (`marks` names which)."""
        current: Mapping[int, int] = getattr(self, marks)
        setattr(self, marks, MappingProxyType({**current, card: host}))

    def field(self, seat: int, kind: str | None = None) -> list[int]:
        """The cards on `seat`'s field (of one type), bottom first (a shared list: read it only)."""
        known = self._field_of_kind[seat]
        cards = known.get(kind)
        if cards is None:
            cards = self.pile(seat, "field")
            if kind is not None:
                kind_of = self.kind_of
                cards = [card for card in cards if kind_of[card] == kind]
            known[kind] = cards
        return cards

    def innocent_followers(self, seat: int) -> list[int]:
        return [f for f in self.field(seat, "follower") if f not in self.guilty]

    def of_kind(self, cards: list[int], kind: str) -> list[int]:
        return [card for card in cards if kind == "any" or self.card(card).type == kind]

    # ---- the two primitive card flows every rule uses ----------------------------------------

    def draw(self, seat: int) -> Attempt:
        """Draw one card; False when the deck is empty (the effect cannot go on)."""
        deck = self.pile(seat, "deck")
        if not deck:
            return False
        if len(deck) == 1:
            card = deck[0]
        else:
            # ints sort faster than tuples: the decision's own sort then finds them in order
            choice = yield Decision(CHANCE, "draw", [(DRAW, c) for c in sorted(deck)], {"seat": seat})
            card = choice[1]
        self.move(card, seat, "hand")
        return True

    def discard(self, seat: int, count: int, why: str) -> Attempt:
        """The seat discards `count` cards of its choice; False when the hand runs out first."""
        for _ in range(count):
            hand = self.pile(seat, "hand")
            if not hand:
                return False
            choice = yield Decision(seat, "discard", [(DISCARD, c) for c in hand], {"why": why})
            self.move(choice[1], seat, "discard")
        return True
