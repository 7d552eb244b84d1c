"""What the board of Accusation adds up to: symbols, stardust, guards, raids and rituals.

Every rule and every observation reads these sums, far more often than a card
enters or leaves a field or a mark changes, so the sums every seat sees
(stardust, guards) are kept beside the field and mark state they were read at
and summed again only when that changed.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from pnpforge.rules.games.accusation.board import BoardState

if TYPE_CHECKING:
    from pnpforge.rules.games.accusation.rules import AccusationRules

NOT_READ = -1  # a field move count no board has: the sums are not read yet


class BoardArithmetic(BoardState):
    """The board's read-outs on top of its piles and marks."""

    def __init__(self, rules: AccusationRules) -> None:
        super().__init__(rules)
        defs = rules.instance_defs
        # per card: stardust it gives on the field (1 + its passive) and its 'guard_others' passive
        self.stardust_of = [1 + d.effect.passives.get("extra_stardust", 0) for d in defs]
        # ... the same for followers and 0 for every other card (what a field's stardust sums)
        self.follower_stardust_of = [
            given if d.type == "follower" else 0 for given, d in zip(self.stardust_of, defs, strict=True)
        ]
        self.guard_others_of = [d.effect.passives.get("guard_others", 0) for d in defs]
        self.guard_of = [d.guard for d in defs]
        self.requirements_of = [tuple(Counter(d.requirements).items()) for d in defs]
        self.symbols_of = [tuple(d.symbols) for d in defs]  # per card: the symbols printed on it
        # per card, for the main-phase options: what it adds to a raid while innocent (聲量 and its
        # 'raid_bonus'; 0 for a card of 聲量 0, which cannot raid), its 'raid_bonus_all' passive,
        # and whether it has a free ability or a location action
        self.raider_value_of = [
            (d.volume or 0) + d.effect.passives.get("raid_bonus", 0) if (d.volume or 0) >= 1 else 0
            for d in defs
        ]
        self.raid_bonus_all_of = [d.effect.passives.get("raid_bonus_all", 0) for d in defs]
        self.has_ability = [bool(d.steps("ability")) for d in defs]
        self.has_action = [bool(d.steps("action")) for d in defs]
        # Each seat's field symbols, beside the field list they were counted from (a new list
        # stands for a changed field, as `pile` replaces a list rather than change it).
        self._symbols_of: dict[int, tuple[list[int], Counter]] = {}
        # (follower moves, guilty, values) and (location moves, location guilt, garrisoning, values):
        # the sums of every seat beside what they were read at (marks are replaced when they change).
        self._stardusts: tuple[int, frozenset[int], tuple[int, ...]] = (NOT_READ, frozenset(), ())
        # ... and each seat's stardust beside the field list it was summed from (at those guilty marks)
        self._stardust_seats: list[tuple[list[int] | None, int]] = [(None, 0) for _ in range(self.players)]
        self._guards: tuple[int, int, object, tuple[tuple[int, int], ...]] = (NOT_READ, 0, None, ())
        self._guard_map: tuple[object, dict[int, int]] = (None, {})

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
            symbols_of = self.symbols_of
            counts = Counter([symbol for card in field for symbol in symbols_of[card]])  # counted in C
            known = self._symbols_of[seat] = (field, counts)
        return known[1]

    def stardust(self, seat: int) -> int:
        """1 per innocent follower on the field plus their 'extra_stardust' passives."""
        guilty, stardust_of = self.guilty, self.stardust_of
        return sum([stardust_of[f] for f in self.field(seat, "follower") if f not in guilty])

    def stardusts(self) -> tuple[int, ...]:
        """`stardust` of every seat, seat by seat (each observation shows them all); summed again
        only when a follower entered or left a field or the guilty marks changed, and then only for
        the seats whose field changed (a changed field is a new list) or holds a card whose guilt did."""
        known = self._stardusts
        guilty = self.guilty
        if known[0] == self.follower_moves and known[1] is guilty:
            return known[2]
        seats, lists = self._stardust_seats, self._lists
        follower_stardust = self.follower_stardust_of
        turned = known[1] ^ guilty  # the cards whose guilt changed since the last sums
        for seat, (field, _) in enumerate(seats):
            now = lists[seat]["field"]
            if now is not field or not turned.isdisjoint(now):
                seats[seat] = (now, sum([follower_stardust[card] for card in now if card not in guilty]))
        values = tuple([value for _, value in seats])
        self._stardusts = (self.follower_moves, guilty, values)
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
        summed again only when a location entered or left a field, a location's guilt changed
        or the garrisons changed."""
        known, garrisoning = self._guards, self.garrisoning
        if known[0] == self.location_moves and known[1] == self.location_guilt and known[2] is garrisoning:
            return known[3]
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
        self._guards = (self.location_moves, self.location_guilt, self.garrisoning, values)
        return values

    def guard_by_location(self) -> dict[int, int]:
        """`guards` as a mapping from location to guard (a shared dict: read it, never change it)."""
        values = self.guards()
        known = self._guard_map
        if known[0] is not values:
            known = self._guard_map = (values, dict(values))
        return known[1]

    def raid_strength(self, seat: int) -> int:
        """What all of `seat`'s raiders and its locations' raid bonuses add up to: the most guard
        a raid of that seat can beat (what `raid_value` of each of `raiders` and `raid_bonus_all`
        give, summed in one pass)."""
        guilty = self.guilty
        raider_value_of, bonus_of = self.raider_value_of, self.raid_bonus_all_of
        total = sum([raider_value_of[f] for f in self.field(seat, "follower") if f not in guilty])
        return total + sum([bonus_of[loc] for loc in self.field(seat, "location") if loc not in guilty])

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
        return any([lists["score"] for lists in self._lists])

    def accusers(self, enemy: int, calamity: int) -> list[int]:
        """Followers in `enemy`'s hand loud enough (聲量 ≥ 災厄) to accuse."""
        return [
            f
            for f in self.pile(enemy, "hand")
            if self.card(f).type == "follower" and (self.card(f).volume or 0) >= calamity
        ]
