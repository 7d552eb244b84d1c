"""The board of Accusation: every seat's piles, the marks on field cards, and what they add up to.

Cards are referred to by their index in the rules' instance list, so actions
stay small sortable tuples.  Marks (guilty, garrisoning, deconstructing,
sacrificed) exist only while the card is on the field and are cleared in one
place, `move`, so no rule has to remember to clear them.
"""

from __future__ import annotations

from collections import Counter
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
        # Cards in the Zones are the rules' own CardInstance objects, so their identity maps
        # back to the index the actions use without hashing the dataclass on every read.
        self.index_by_identity = {id(instance): index for index, instance in enumerate(rules.instances)}
        self.pile_names = [{pile: pile_name(seat, pile) for pile in PILES} for seat in range(self.players)]
        self.seat_pile_of = {
            name: (seat, pile) for seat in range(self.players) for pile, name in self.pile_names[seat].items()
        }
        self.zones_ = Zones(self.seat_pile_of)
        # Index lists of the piles read since their last change: piles are read far more often
        # than they change, and every change goes through `move`, which drops the two it touched.
        self._index_lists: dict[str, list[int]] = {}
        # Each seat's field cards of one type, kept like the index lists until that field changes.
        self._field_of_kind: list[dict[str | None, list[int]]] = [{} for _ in range(self.players)]
        # Each seat's public piles as an observation shows them, kept until one of them changes.
        self._public_of: dict[int, tuple[tuple[str, tuple[int, ...]], ...]] = {}
        # Each seat's field symbols, beside the field list they were counted from (a new list
        # stands for a changed field, as `pile` replaces a list rather than change it).
        self._symbols_of: dict[int, tuple[list[int], Counter]] = {}
        self.kind_of = [definition.type for definition in rules.instance_defs]
        # per card: stardust it gives on the field (1 + its passive) and its 'guard_others' passive
        self.stardust_of = [1 + d.effect.passives.get("extra_stardust", 0) for d in rules.instance_defs]
        self.guard_others_of = [d.effect.passives.get("guard_others", 0) for d in rules.instance_defs]
        self.guard_of = [d.guard for d in rules.instance_defs]
        self.requirements_of = [tuple(Counter(d.requirements).items()) for d in rules.instance_defs]
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
        self.moves = 0  # every move: with the marks and the turn, what the public view depends on
        # The observation fields every seat sees alike, beside the key they were read at (agents).
        self.shared_view: tuple[tuple[object, ...], dict[str, object]] | None = None
        self._guards: tuple[tuple[object, ...], tuple[tuple[int, int], ...]] | None = None
        self._stardusts: tuple[tuple[object, ...], tuple[int, ...]] | None = None
        self.turn_seat = 0
        self.actions_left = 0
        self.abilities_used: set[int] = set()  # leaders whose free ability was used this turn
        for card, owner in enumerate(rules.instance_owner):
            kind = rules.instance_defs[card].type
            pile = "conspiracy" if kind == "leader" else "hand" if kind == "ritual" else "deck"
            self.zones_.deal([self.instances[card]], self.pile_names[owner][pile])

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
        piles, names = self.zones_.all_views(), self.pile_names
        totals: dict[int, int] = {}
        for seat, team in enumerate(self.team_of):
            totals[team] = totals.get(team, 0) + len(piles[names[seat]["score"]])
        return totals

    def counts(self, pile: str) -> tuple[int, ...]:
        """How many cards each seat has in its `pile`, seat by seat."""
        piles = self.zones_.all_views()
        return tuple([len(piles[names[pile]]) for names in self.pile_names])

    # ---- cards ----------------------------------------------------------------------------

    def card(self, card: int) -> CardDef:
        return self.rules.instance_defs[card]

    def owner(self, card: int) -> int:
        return self.rules.instance_owner[card]

    def label(self, card: int) -> str:
        return f"{self.card(card).name}({self.rules.instances[card]})"

    def pile(self, seat: int, pile: str) -> list[int]:
        """The cards of one of `seat`'s piles, bottom first (a shared list: read it, never change it)."""
        name = self.pile_names[seat][pile]
        cards = self._index_lists.get(name)
        if cards is None:
            index_by_identity = self.index_by_identity
            cards = [index_by_identity[id(instance)] for instance in self.zones_.pile(name)]
            self._index_lists[name] = cards
        return cards

    def public(self, seat: int) -> tuple[tuple[str, tuple[int, ...]], ...]:
        """(pile, cards) of each of `seat`'s public piles, as immutable tuples for observations."""
        shown = self._public_of.get(seat)
        if shown is None:
            shown = self._public_of[seat] = tuple(
                [(name, tuple(self.pile(seat, name))) for name in PUBLIC_PILES]
            )
        return shown

    def count(self, seat: int, pile: str) -> int:
        return len(self.zones_.view(self.pile_names[seat][pile]))

    def location(self, card: int) -> tuple[int, str]:
        """(seat, pile) where the card is now."""
        return self.seat_pile_of[self.zones_.where(self.instances[card])]

    def move(self, card: int, seat: int, pile: str) -> None:
        instance = self.instances[card]
        source, target = self.zones_.where(instance), self.pile_names[seat][pile]
        self.zones_.move(instance, source, target)
        self.moves += 1
        self._index_lists.pop(source, None)
        self._index_lists.pop(target, None)
        source_seat, source_pile = self.seat_pile_of[source]
        if pile == "field":
            self._field_of_kind[seat].clear()
        if source_pile == "field":
            self._field_of_kind[source_seat].clear()
        if pile in TABLE_PILES or source_pile in TABLE_PILES or self.kind_of[card] == "leader":
            self.table_moves += 1
        if source_pile in PUBLIC_PILES:
            self._public_of.pop(source_seat, None)
        if pile in PUBLIC_PILES:
            self._public_of.pop(seat, None)
        if pile != "field":
            self._clear_marks(card)

    def board_key(self) -> tuple[object, ...]:
        """What every field read-out and pile invariant depends on: equal keys, equal answers
        (the move count stands for the piles, the immutable marks for themselves)."""
        return (self.table_moves, self.guilty, self.garrisoning, self.deconstructing, self.sacrificed)

    def _clear_marks(self, card: int) -> None:
        """A card leaving the field stops being guilty, garrisoning or deconstructing."""
        if card in self.guilty:
            self.guilty = self.guilty - {card}
        kind = self.kind_of[card]
        self.garrisoning = without(self.garrisoning, card, kind == "location")
        self.deconstructing = without(self.deconstructing, card, kind == "ritual")
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
        self.garrisoning = without(self.garrisoning, follower, False)
        self.deconstructing = without(self.deconstructing, follower, False)

    def absolve(self, follower: int) -> None:
        """解除罪惡: the follower is innocent again (it does not resume 駐守 or 解構)."""
        self.guilty = self.guilty - {follower}

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

    # ---- board arithmetic -------------------------------------------------------------------

    def passive(self, card: int, key: str) -> int:
        """A passive's value; a guilty follower has lost all its effects."""
        if card in self.guilty:
            return 0
        return self.card(card).effect.passives.get(key, 0)

    def symbols(self, seat: int) -> Counter:
        """Symbols on your field: followers (guilty too), locations, rituals, leader.

        Counted again only when the field changed (every ritual check and effect asks); the
        Counter is shared: read it, never change it."""
        field = self.pile(seat, "field")
        known = self._symbols_of.get(seat)
        if known is None or known[0] is not field:
            counts: Counter = Counter()
            defs = self.rules.instance_defs
            for card in field:
                counts.update(defs[card].symbols)
            known = self._symbols_of[seat] = (field, counts)
        return known[1]

    def stardust(self, seat: int) -> int:
        """1 per innocent follower on the field plus their 'extra_stardust' passives."""
        guilty, stardust_of = self.guilty, self.stardust_of
        return sum([stardust_of[f] for f in self.field(seat, "follower") if f not in guilty])

    def stardusts(self) -> tuple[int, ...]:
        """`stardust` of every seat, seat by seat (each observation shows them all); summed again
        only when a field or the marks changed."""
        key = self.board_key()
        if self._stardusts is not None and self._stardusts[0] == key:
            return self._stardusts[1]
        guilty, stardust_of, field = self.guilty, self.stardust_of, self.field
        values = tuple(
            [
                sum([stardust_of[f] for f in field(seat, "follower") if f not in guilty])
                for seat in range(self.players)
            ]
        )
        self._stardusts = (key, values)
        return values

    def guard(self, location: int) -> int:
        seat = self.location(location)[0]
        bonus = sum(self.card(f).garrison for f, host in self.garrisoning.items() if host == location)
        bonus += sum(
            self.passive(other, "guard_others") for other in self.field(seat, "location") if other != location
        )
        return self.card(location).guard + bonus

    def guards(self) -> tuple[tuple[int, int], ...]:
        """(location, guard) of every location on every field, seat by seat: what `guard` gives
        each, with the garrisons and the 'guard_others' passives summed once for all of them;
        summed again only when a field or the marks changed."""
        key = self.board_key()
        if self._guards is not None and self._guards[0] == key:
            return self._guards[1]
        garrisoned: dict[int, int] = {}
        for follower, host in self.garrisoning.items():
            garrisoned[host] = garrisoned.get(host, 0) + self.card(follower).garrison
        guilty, guard_of, others_of = self.guilty, self.guard_of, self.guard_others_of
        out: list[tuple[int, int]] = []
        for seat in range(self.players):
            locations = self.field(seat, "location")
            if not locations:
                continue
            others = [0 if location in guilty else others_of[location] for location in locations]
            total = sum(others)
            for location, own in zip(locations, others, strict=True):
                out.append((location, guard_of[location] + garrisoned.get(location, 0) + total - own))
        values = tuple(out)
        self._guards = (key, values)
        return values

    def raid_value(self, follower: int) -> int:
        return (self.card(follower).volume or 0) + self.passive(follower, "raid_bonus")

    def raiders(self, seat: int) -> list[int]:
        """聲量1以上的非罪惡信徒 can raid."""
        guilty, defs = self.guilty, self.rules.instance_defs
        return [f for f in self.field(seat, "follower") if f not in guilty and (defs[f].volume or 0) >= 1]

    def raid_bonus_all(self, seat: int) -> int:
        locations = self.field(seat, "location")
        return sum([self.passive(loc, "raid_bonus_all") for loc in locations]) if locations else 0

    def ritual_shortfall(self, seat: int, ritual: int) -> int:
        """Missing symbols after 解構 and 獻祭 reductions (≤ 0 means executable)."""
        have = self.symbols(seat)
        short = sum([max(0, count - have[symbol]) for symbol, count in self.requirements_of[ritual]])
        reduction = sum(self.card(f).deconstruct for f, host in self.deconstructing.items() if host == ritual)
        reduction += sum(1 for host in self.sacrificed.values() if host == ritual)
        return short - reduction

    def executable_rituals(self, seat: int) -> list[int]:
        return [r for r in self.field(seat, "ritual") if self.ritual_shortfall(seat, r) <= 0]

    def any_ritual_completed(self) -> bool:
        piles = self.zones_.all_views()
        return any([piles[names["score"]] for names in self.pile_names])

    def accusers(self, enemy: int, calamity: int) -> list[int]:
        """Followers in `enemy`'s hand loud enough (聲量 ≥ 災厄) to accuse."""
        return [
            f
            for f in self.pile(enemy, "hand")
            if self.card(f).type == "follower" and (self.card(f).volume or 0) >= calamity
        ]

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
