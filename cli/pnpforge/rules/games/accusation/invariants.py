"""The position's pile and mark invariants, checked after every step of a checked game.

A step moves a card or two, so each check looks only at what the step could have broken: the
piles a `Zones.watch()` watcher reports as moved (every move of a card goes through the Zones,
whoever makes it), and the marks when they were replaced (they are immutable, so a changed mark
is a new object).  A leader or a guilty follower found sound in a pile stays sound while it is
still in that pile, which one set operation on the pile's cards tells when the pile moves.
Whenever this finds something wrong, `full_check` (every invariant read afresh, in a fixed
order) names the fault, so every fault is caught at the step that makes it, with the message a
full check gives.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from pnpforge.rules.engine import CardInstance, RuleViolation
from pnpforge.rules.games.accusation import board

if TYPE_CHECKING:
    from pnpforge.rules.games.accusation.state import AccusationState

LEADER_PILES = ("conspiracy", "field", "hand")  # where a leader may be


class BoardChecks:
    """One state's pile and mark checks, with what they last found sound kept between steps."""

    __slots__ = (
        "_attached", "_changed", "_guilty", "_index_by_identity", "_kind_of_pile", "_magic_ids",
        "_not_ritual_ids", "_sound_in", "won",
    )  # fmt: skip

    def __init__(self, st: AccusationState) -> None:
        instances, kind_of = st.instances, st.rules.kind_of
        # the card index of each of the rules' CardInstance objects by identity, and the identities
        # of magic and of non-ritual cards (the checks read the Zones, not the rules' index lists)
        self._index_by_identity = {id(instance): card for card, instance in enumerate(instances)}
        ids = [id(instance) for instance in instances]
        self._magic_ids = frozenset(ids[card] for card, kind in enumerate(kind_of) if kind == "magic")
        self._not_ritual_ids = frozenset(ids[card] for card, kind in enumerate(kind_of) if kind != "ritual")
        self._kind_of_pile = {name: pile for name, (_, pile) in st.seat_pile_of.items()}
        self._changed: set[str] = st.zones_.watch()  # the piles moved since the last check (all, at first)
        # pile name -> {identity: card index} of the leaders and guilty followers found sound in it
        self._sound_in: dict[str, dict[int, int]] = {}
        self._guilty: frozenset[int] | None = None  # the guilty marks last checked (None: never)
        # the marks attaching cards to others, with the guilty marks, as last found sound
        self._attached: tuple[object, ...] | None = None
        self.won = False  # a side had completed enough rituals at the last check

    def check(self, st: AccusationState) -> None:
        """Every pile and mark invariant; the guards here are the cheap tests of what changed."""
        guilty = st.guilty
        if guilty is not self._guilty:
            self._guilty_changed(st)
        changed = self._changed
        moved_field = moved_under = False
        if changed:
            moved_field, moved_under = self._piles_moved(st, changed)
        last = self._attached
        if (
            moved_field
            or moved_under
            or last is None
            or last[0] is not st.garrisoning
            or last[1] is not st.deconstructing
            or last[2] is not st.sacrificed
            or last[3] is not guilty
        ):
            count_under = moved_under or last is None or last[2] is not st.sacrificed
            _check_attached(st, st.zones_.all_views(), count_under)
            self._attached = (st.garrisoning, st.deconstructing, st.sacrificed, guilty)

    def _guilty_changed(self, st: AccusationState) -> None:
        """The newly guilty cards must be followers on a field; cards no longer guilty are let go."""
        guilty, last = st.guilty, self._guilty
        if last is None:  # the first check: the leaders too
            fresh = sorted(guilty)
            for leader in st.rules.leaders:
                self._found_sound(st, leader, LEADER_PILES)
        else:
            fresh = sorted(guilty - last)
            if not last <= guilty:
                self._let_go(last - guilty)
        for follower in fresh:
            if st.rules.kind_of[follower] != "follower":
                self._fault(st)
            self._found_sound(st, follower, ("field",))
        self._guilty = guilty

    def _let_go(self, cards: frozenset[int]) -> None:
        """Stop watching cards that need no more checking (no longer guilty)."""
        for name, sound in list(self._sound_in.items()):
            for identity, card in list(sound.items()):
                if card in cards:
                    del sound[identity]
            if not sound:
                del self._sound_in[name]

    def _found_sound(self, st: AccusationState, card: int, allowed: tuple[str, ...]) -> None:
        """The card must be in one of the `allowed` kinds of pile; it is then watched in that pile."""
        instance = st.instances[card]
        name = st.zones_.where(instance)
        if self._kind_of_pile[name] not in allowed:
            self._fault(st)
        self._sound_in.setdefault(name, {})[id(instance)] = card

    def _piles_moved(self, st: AccusationState, changed: set[str]) -> tuple[bool, bool]:
        """The moved piles: no magic on a field, only rituals in a score pile, and the cards watched
        in them still there (else checked where they went); returns (a field moved, an under
        pile moved), and notes whether a side has completed enough rituals when a score pile moved."""
        piles, kinds, sound_in = st.zones_.all_views(), self._kind_of_pile, self._sound_in
        moved_field = moved_under = moved_score = False
        gone: list[tuple[int, int]] = []  # watched cards no longer in their pile: (card, identity)
        for name in changed:
            kind = kinds[name]
            sound = sound_in.get(name)
            if kind == "field":
                moved_field = True
                if not self._magic_ids.isdisjoint(map(id, piles[name])):
                    self._fault(st)
            elif kind == "score":
                moved_score = True
                if not self._not_ritual_ids.isdisjoint(map(id, piles[name])):
                    self._fault(st)
            elif kind == "under":
                moved_under = True
            if sound:
                present = set(map(id, piles[name]))
                if not present.issuperset(sound):
                    left = [(card, identity) for identity, card in sound.items() if identity not in present]
                    for _, identity in left:
                        del sound[identity]
                    gone += left
        leaders = st.rules.leaders
        for card, _ in sorted(gone):
            self._found_sound(st, card, LEADER_PILES if card in leaders else ("field",))
        changed.clear()
        if moved_score:
            needed = board.rituals_to_win(st)
            self.won = any(total >= needed for total in board.rituals_by_team(st).values())
        return moved_field, moved_under

    def _fault(self, st: AccusationState) -> None:
        """Something is wrong: the full check names it (in its fixed order)."""
        self.full_check(st)
        raise RuleViolation("the piles or marks broke an invariant")  # the full check always names it

    def full_check(self, st: AccusationState) -> None:
        """Every pile and mark invariant read afresh from the Zones and the marks (what the kept
        answers must agree with; the tests compare the two)."""
        zones, instances, seat_pile_of = st.zones_, st.instances, st.seat_pile_of
        where = zones.where
        for leader in st.rules.leaders:
            pile = seat_pile_of[where(instances[leader])][1]
            if pile not in LEADER_PILES:
                raise RuleViolation(f"leader {board.label(st, leader)} left play to {pile}")
        piles = zones.all_views()
        for names in st.pile_names:
            field, score = piles[names["field"]], piles[names["score"]]
            if not self._magic_ids.isdisjoint(map(id, field)):
                raise RuleViolation(
                    f"magic {board.label(st, self._first(field, self._magic_ids))} on the field"
                )
            if not self._not_ritual_ids.isdisjoint(map(id, score)):
                card = self._first(score, self._not_ritual_ids)
                raise RuleViolation(f"{board.label(st, card)} in the score zone is not a ritual")
        for follower in st.guilty:
            if (
                seat_pile_of[where(instances[follower])][1] != "field"
                or st.rules.kind_of[follower] != "follower"
            ):
                raise RuleViolation(f"{board.label(st, follower)} is guilty but not a follower on the field")
        _check_attached(st, piles)

    def _first(self, pile: Sequence[CardInstance], identities: frozenset[int]) -> int:
        """The index of the first card of `pile` among `identities` (to name a fault)."""
        return next(self._index_by_identity[id(i)] for i in pile if id(i) in identities)


def _check_attached(
    st: AccusationState, piles: Mapping[str, Sequence[CardInstance]], count_under: bool = True
) -> None:
    """Garrisons, deconstructions and sacrifices only where the rules allow them (a handful of
    marks, all checked when a mark, a field or an under pile changed), and, when `count_under`
    (an under pile or the sacrifices changed), no card under a ritual but the sacrificed ones."""
    where, instances, seat_pile_of, kind_of = st.zones_.where, st.instances, st.seat_pile_of, st.rules.kind_of
    for marks, kind in ((st.garrisoning, "location"), (st.deconstructing, "ritual")):
        for follower, host in marks.items():
            seat, pile = seat_pile_of[where(instances[follower])]
            if follower in st.guilty or pile != "field":
                raise RuleViolation(f"{board.label(st, follower)} attached while guilty or off the field")
            if seat_pile_of[where(instances[host])] != (seat, "field") or kind_of[host] != kind:
                raise RuleViolation(
                    f"{board.label(st, follower)} attached to {board.label(st, host)}, "
                    f"not a {kind} on its field"
                )
    for under, ritual in st.sacrificed.items():
        seat, pile = seat_pile_of[where(instances[under])]
        if pile != "under" or seat_pile_of[where(instances[ritual])] != (seat, "field"):
            raise RuleViolation(f"sacrificed {board.label(st, under)} is not under a ritual of its seat")
    if count_under and sum([len(piles[names["under"]]) for names in st.pile_names]) != len(st.sacrificed):
        raise RuleViolation("a card is under a ritual without being sacrificed to it")
