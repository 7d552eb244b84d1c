"""The board of Accusation: every seat's piles, the marks on field cards, and what they add up to.

Cards are referred to by their index in the rules' instance list, so actions
stay small sortable tuples.  Marks (guilty, garrisoning, deconstructing,
sacrificed) exist only while the card is on the field and are cleared in one
place, `move`, so no rule has to remember to clear them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Generator
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
        # Each field's cards of one type, kept like the index lists until a field changes.
        self._field_of_kind: dict[tuple[int, str | None], list[int]] = {}
        # Each seat's public piles as an observation shows them, kept until one of them changes.
        self._public_of: dict[int, tuple[tuple[str, tuple[int, ...]], ...]] = {}
        self.kind_of = [definition.type for definition in rules.instance_defs]
        # per card: stardust it gives on the field (1 + its passive) and its 'guard_others' passive
        self.stardust_of = [1 + d.effect.passives.get("extra_stardust", 0) for d in rules.instance_defs]
        self.guard_others_of = [d.effect.passives.get("guard_others", 0) for d in rules.instance_defs]
        self.guard_of = [d.guard for d in rules.instance_defs]
        # each seat's side, and each side's seats (seats 0+2 and 1+3 in 2v2, each seat alone in a duel)
        self.team_of = [seat % 2 if self.players == 4 else seat for seat in range(self.players)]
        self.guilty: set[int] = set()
        self.garrisoning: dict[int, int] = {}  # follower -> location it garrisons
        self.deconstructing: dict[int, int] = {}  # follower -> ritual it deconstructs
        self.sacrificed: dict[int, int] = {}  # card under a ritual -> that ritual
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
        return [(start + k) % self.players for k in range(self.players)]

    def enemies(self, seat: int) -> list[int]:
        return [other for other in self.clockwise(seat) if self.team(other) != self.team(seat)]

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
        self._index_lists.pop(source, None)
        self._index_lists.pop(target, None)
        source_seat, source_pile = self.seat_pile_of[source]
        if pile == "field" or source_pile == "field":
            self._field_of_kind.clear()
        if source_pile in PUBLIC_PILES:
            self._public_of.pop(source_seat, None)
        if pile in PUBLIC_PILES:
            self._public_of.pop(seat, None)
        if pile != "field":
            self._clear_marks(card)

    def _clear_marks(self, card: int) -> None:
        """A card leaving the field stops being guilty, garrisoning or deconstructing."""
        self.guilty.discard(card)
        self.garrisoning.pop(card, None)
        self.deconstructing.pop(card, None)
        kind = self.card(card).type
        if kind == "location":
            for follower in [f for f, host in self.garrisoning.items() if host == card]:
                del self.garrisoning[follower]
        if kind == "ritual":
            for follower in [f for f, host in self.deconstructing.items() if host == card]:
                del self.deconstructing[follower]
            for under in [c for c, host in self.sacrificed.items() if host == card]:
                del self.sacrificed[under]
                self.move(under, self.owner(under), "discard")
        self.sacrificed.pop(card, None)

    def make_guilty(self, follower: int) -> None:
        """罪惡: the follower loses its effects and stops garrisoning / deconstructing."""
        self.guilty.add(follower)
        self.garrisoning.pop(follower, None)
        self.deconstructing.pop(follower, None)

    def field(self, seat: int, kind: str | None = None) -> list[int]:
        """The cards on `seat`'s field (of one type), bottom first (a shared list: read it only)."""
        key = (seat, kind)
        cards = self._field_of_kind.get(key)
        if cards is None:
            cards = self.pile(seat, "field")
            if kind is not None:
                kind_of = self.kind_of
                cards = [card for card in cards if kind_of[card] == kind]
            self._field_of_kind[key] = cards
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
        """Symbols on your field: followers (guilty too), locations, rituals, leader."""
        counts: Counter = Counter()
        for card in self.pile(seat, "field"):
            counts.update(self.card(card).symbols)
        return counts

    def stardust(self, seat: int) -> int:
        """1 per innocent follower on the field plus their 'extra_stardust' passives."""
        guilty, stardust_of = self.guilty, self.stardust_of
        return sum([stardust_of[f] for f in self.field(seat, "follower") if f not in guilty])

    def guard(self, location: int) -> int:
        seat = self.location(location)[0]
        bonus = sum(self.card(f).garrison for f, host in self.garrisoning.items() if host == location)
        bonus += sum(
            self.passive(other, "guard_others") for other in self.field(seat, "location") if other != location
        )
        return self.card(location).guard + bonus

    def guards(self) -> tuple[tuple[int, int], ...]:
        """(location, guard) of every location on every field, seat by seat: what `guard` gives
        each, with the garrisons and the 'guard_others' passives summed once for all of them."""
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
        return tuple(out)

    def raid_value(self, follower: int) -> int:
        return (self.card(follower).volume or 0) + self.passive(follower, "raid_bonus")

    def raiders(self, seat: int) -> list[int]:
        """聲量1以上的非罪惡信徒 can raid."""
        return [f for f in self.innocent_followers(seat) if (self.card(f).volume or 0) >= 1]

    def raid_bonus_all(self, seat: int) -> int:
        return sum(self.passive(loc, "raid_bonus_all") for loc in self.field(seat, "location"))

    def ritual_shortfall(self, seat: int, ritual: int) -> int:
        """Missing symbols after 解構 and 獻祭 reductions (≤ 0 means executable)."""
        have = self.symbols(seat)
        need = Counter(self.card(ritual).requirements)
        short = sum(max(0, count - have[symbol]) for symbol, count in need.items())
        reduction = sum(self.card(f).deconstruct for f, host in self.deconstructing.items() if host == ritual)
        reduction += sum(1 for host in self.sacrificed.values() if host == ritual)
        return short - reduction

    def executable_rituals(self, seat: int) -> list[int]:
        return [r for r in self.field(seat, "ritual") if self.ritual_shortfall(seat, r) <= 0]

    def any_ritual_completed(self) -> bool:
        return any(self.count(seat, "score") for seat in range(self.players))

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
            choice = yield Decision(CHANCE, "draw", [(DRAW, c) for c in deck], {"seat": seat})
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
