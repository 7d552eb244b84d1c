"""What one seat may see: the observation its agent receives, and nothing more.

A seat sees its own suspect and hand (not in mission 17, where it sees the
others' hands instead), every hint, face-up discards and public counts — never
another seat's suspect or cover, the deck, or face-down cards.  The greedy
heuristic over it lives in `deduction`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from pnpforge.rules.engine import CardInstance, Observation

from . import board
from .board import ASIDE_PILE, DECK, DISCARD_DOWN, DISCARD_UP, LINEUP, REWARDS, SHARED

if TYPE_CHECKING:
    from .state import InfiltraitorsState

Hint = tuple[CardInstance, bool]


@dataclass(frozen=True)
class SeatObservation(Observation):
    """Everything one seat may know, as immutable values (no reference to the state)."""

    players: int
    stage: str
    turn: int
    bullets: int
    unsolved: int
    deck_size: int
    lineup_size: int
    hand_sizes: tuple[int, ...]
    hand: tuple[CardInstance, ...] | None  # None when the seat cannot see its own hand (mission 17)
    other_hands: tuple[tuple[int, tuple[CardInstance, ...]], ...]  # (seat, cards): mission 17 only
    my_suspect: CardInstance | None
    my_cover: CardInstance | None
    occupied: tuple[bool, ...]
    has_cover: tuple[bool, ...]
    tiles: tuple[int | None, ...]
    hints: tuple[tuple[int, tuple[Hint, ...]], ...]  # (target, hints in the order placed)
    discard_up: tuple[CardInstance, ...]
    discard_down_count: int
    shared_specials: tuple[CardInstance, ...]
    rewards: tuple[CardInstance, ...]
    aside_present: bool
    aside_known: CardInstance | None  # the aside suspect, for a seat that looked at it (mission 19)
    withdrawn: tuple[bool, ...]
    final_phase: bool

    def hints_at(self, target: int) -> tuple[Hint, ...]:
        for place, hints in self.hints:
            if place == target:
                return hints
        return ()


def observe(state: InfiltraitorsState, seat: int) -> SeatObservation:
    """The seat's observation of `state`, copied into immutable values."""
    piles = state.piles
    views = piles.all_views()  # len(views[name]): a pile's size without a method call
    seats = range(state.players)
    hands_out = state.mission.has("hands_out")
    others = (
        tuple((s, tuple(piles.pile(state.hand_piles[s]))) for s in seats if s != seat) if hands_out else ()
    )
    occupied = tuple(len(views[pile]) > 0 for pile in state.stand_piles)
    covers = [tuple(piles.pile(pile)) for pile in state.cover_piles]
    aside = piles.top(ASIDE_PILE)
    return SeatObservation.of(
        seat=seat,
        players=state.players,
        stage=state.stage,
        turn=state.turn,
        bullets=state.bullets,
        unsolved=len(views[LINEUP]) + sum(occupied) + (aside is not None),
        deck_size=len(views[DECK]),
        lineup_size=len(views[LINEUP]),
        hand_sizes=tuple(len(views[pile]) for pile in state.hand_piles),
        hand=None if hands_out else tuple(piles.pile(state.hand_piles[seat])),
        other_hands=others,
        my_suspect=piles.top(state.stand_piles[seat]),
        my_cover=covers[seat][0] if covers[seat] else None,
        occupied=occupied,
        has_cover=tuple(bool(cover) for cover in covers),
        tiles=tuple(state.tile_of),
        hints=board.hints_view(state),
        discard_up=tuple(piles.pile(DISCARD_UP)),
        discard_down_count=len(views[DISCARD_DOWN]),
        shared_specials=tuple(piles.pile(SHARED)),
        rewards=tuple(piles.pile(REWARDS)),
        aside_present=aside is not None,
        aside_known=aside if (aside is not None and seat in state.peeked) else None,
        withdrawn=tuple(state.withdrawn),
        final_phase=state.final_phase,
    )
