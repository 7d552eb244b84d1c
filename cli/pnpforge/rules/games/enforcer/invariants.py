"""The position's invariants, checked after every step of a checked game.

Most steps move two or three piles and leave every seat's status alone, so each check keeps what
it last found sound and redoes only the parts whose inputs changed: the piles a `Zones.watch()`
watcher reports as moved, and the plain per-seat lists (points, penalties, tracks, eliminated
flags, helped obligors, specialty owners) compared with copies of the values last checked.  A
check skipped this way would have read exactly what passed before, so every fault is still caught
at the step that makes it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from pnpforge.rules.engine import CardInstance, RuleViolation

from .data import TABLE_SIZE, Track

if TYPE_CHECKING:
    from .state import EnforcerState


class InvariantChecker:
    """One state's invariant checks, with what they last found sound kept between steps."""

    __slots__ = (
        "_changed", "_eliminated", "_facts", "_helped", "_homes", "_names", "_projects", "_scored",
        "_special_piles", "_specialty", "_status", "_totals",
    )  # fmt: skip

    def __init__(self, st: EnforcerState) -> None:
        players = st.players
        # the pile names the seat checks read, seat by seat: (scored, project, award, hand)
        self._names: list[tuple[str, str, str, str]] = [
            (names["scored"], names["project"], names["award"], names["hand"]) for names in st.seat_names
        ]
        self._scored = {names[0]: seat for seat, names in enumerate(self._names)}
        self._projects = frozenset(name for names in self._names for name in names[1:3])
        # the piles a specialty card may be in: its master's specialty pile and hand, or in play
        self._homes = [(names["specialty"], names["hand"]) for names in st.seat_names]
        self._facts: list[set[CardInstance]] = [set() for _ in range(players)]  # each seat's scored cards
        self._totals = [0] * players  # and their total score
        self._changed: set[str] = st.piles.watch()  # starts with every pile
        # copies of the plain values last found sound (None: not checked yet)
        self._status: tuple[list[bool], list[int], list[Track]] | None = None
        self._helped: list[set[CardInstance]] | None = None
        self._specialty: dict[CardInstance, int] | None = None
        self._special_piles: set[str] = set()  # the piles the owned specialty cards were found in
        self._eliminated = False  # a seat was out at the last check

    def check(self, st: EnforcerState) -> None:
        """Every invariant; the guards here are the cheap tests of what changed since the last check."""
        piles = st.piles.all_views()  # every pile uncopied: the checks only read them
        changed = self._changed
        if changed:
            if not changed.isdisjoint(self._scored):
                self._rescore(st, piles, changed)
            if not changed.isdisjoint(self._projects):
                self._check_projects(st, piles)
        if st.points != self._totals:
            self._points_fault(st)
        if st.helped != self._helped:
            self._check_helped(st)
        status = self._status
        flags_changed = (
            status is None
            or st.out_of_game != status[0]
            or st.penalties != status[1]
            or st.tracks != status[2]
        )
        if flags_changed:
            self._check_flags(st)
        if self._eliminated and (flags_changed or changed):
            self._check_eliminated(st, piles)
        owners = st.specialty_owner
        if owners and (owners != self._specialty or not changed.isdisjoint(self._special_piles)):
            self._check_specialties(st)
        changed.clear()
        if st.execution is None and (piles["in_play"] or piles["objection_shown"]):
            raise RuleViolation("cards left in play outside an execution")
        if (
            st.phase in ("period", "clock_in")
            and not st.pending
            and len(piles["table"]) < TABLE_SIZE
            and piles["obligor_deck"]
        ):
            raise RuleViolation("the table was not refilled to four obligors")
        if st.phase == "discard" and len(piles[st.seat_names[st.turn]["hand"]]) <= st.hand_limit(st.turn):
            raise RuleViolation("discard phase with a legal hand size")

    def _rescore(
        self, st: EnforcerState, piles: Mapping[str, Sequence[CardInstance]], changed: set[str]
    ) -> None:
        """Each moved scored pile's cards and total score again; the helped obligors are checked anew."""
        obligors, facts, totals = st.cards.obligor, self._facts, self._totals
        for name, seat in self._scored.items():
            if name in changed:
                scored = piles[name]
                facts[seat] = set(scored)
                totals[seat] = sum([obligors[c.card].score for c in scored])
        self._helped = None

    def _points_fault(self, st: EnforcerState) -> None:
        points, totals = st.points, self._totals
        seat = next(s for s in range(st.players) if points[s] != totals[s])
        raise RuleViolation(f"seat {seat}: points {points[seat]} do not match its scored obligors")

    def _check_helped(self, st: EnforcerState) -> None:
        """Every helped obligor is among the seat's scored ones."""
        facts = self._facts
        for seat, cards in enumerate(st.helped):
            if cards and not cards <= facts[seat]:
                raise RuleViolation(f"seat {seat}: helped obligors not among its scored ones")
        self._helped = [set(cards) for cards in st.helped]

    def _check_projects(self, st: EnforcerState, piles: Mapping[str, Sequence[CardInstance]]) -> None:
        """No 大戶 as a project, no 獎檢公告 without one (run when a project or award pile moved)."""
        obligors = st.cards.obligor
        for seat, (_, project_name, award_name, _) in enumerate(self._names):
            project = piles[project_name]
            if project:
                if obligors[project[0].card].big:
                    raise RuleViolation(f"seat {seat}: 大戶 {project[0]} is a project")
            elif piles[award_name]:
                raise RuleViolation(f"seat {seat}: 獎檢公告 without a project")

    def _check_flags(self, st: EnforcerState) -> None:
        """Eliminated flags against the penalties (run when a flag, a penalty or a track changed)."""
        out, penalties, tracks = st.out_of_game, st.penalties, st.tracks
        for seat, flag in enumerate(out):
            if flag != (penalties[seat] >= tracks[seat].eliminate_at):
                raise RuleViolation(f"seat {seat}: eliminated flag disagrees with the penalties")
        self._status = (list(out), list(penalties), list(tracks))
        self._eliminated = True in out

    def _check_eliminated(self, st: EnforcerState, piles: Mapping[str, Sequence[CardInstance]]) -> None:
        """An eliminated seat holds no hand and no project."""
        for seat, flag in enumerate(st.out_of_game):
            if flag:
                _, project_name, _, hand_name = self._names[seat]
                if piles[hand_name] or piles[project_name]:
                    raise RuleViolation(f"seat {seat}: eliminated but still holds cards")

    def _check_specialties(self, st: EnforcerState) -> None:
        """Each specialty card is with its master: in its specialty pile, its hand, or in play (run
        when an owner changed or a pile the owned cards were found in moved)."""
        owners = st.specialty_owner
        where, homes = st.piles.where, self._homes
        found = set()
        for card, owner in owners.items():
            place = where(card)
            specialty, hand = homes[owner]
            if place != specialty and place != hand and place != "in_play":
                raise RuleViolation(f"specialty card {card} strayed from its master")
            found.add(place)
        self._specialty = dict(owners)
        self._special_piles = found  # a card that leaves its pile marks that pile as moved
