"""What lies on the table during a mission: piles, counters and whose turn it is.

Every physical card sits in exactly one named pile of `Zones` (the deck is the
headquarters pile, `lineup` the suspects waiting in the centre, `aside` the
suspect set aside in missions 18 and 19, `stand_S` the suspect on seat S's
stand, `cover_S` its face-down cover card in mission 16, `hints_S` the hints
beside it), so cards can only move between piles.  The piles and counters are
`state.InfiltraitorsState`'s data; these functions read them for every rule, and
`actions` (what is legal) and `effects` (what actions do) build on them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from pnpforge.rules.engine import CardInstance, RuleViolation

from .data import CardSpec, related
from .memo import READOUTS, HintsView

if TYPE_CHECKING:
    from .state import InfiltraitorsState

ASIDE = -1  # target index of the suspect set aside (missions 18 and 19)
CENTRE = -2  # source index of the shared centre specials (mission 6)

DECK = "deck"
LINEUP = "lineup"
ASIDE_PILE = "aside"
DISCARD_UP = "discard_up"
DISCARD_DOWN = "discard_down"
SHARED = "shared_specials"
REWARDS = "rewards"
BOX = "box"
MISSION = "mission"  # the mission card being played

# A chance event: (kind,) or (kind, seat) — which card comes off which pile, to whom.
ChanceEvent = tuple


def hand(st: InfiltraitorsState, seat: int) -> Sequence[CardInstance]:
    return st.piles.pile(st.hand_piles[seat])


def hand_count(st: InfiltraitorsState, seat: int) -> int:
    return st.piles.count(st.hand_piles[seat])


def suspect(st: InfiltraitorsState, seat: int) -> CardInstance | None:
    """The suspect on `seat`'s stand, if any."""
    cards = st.piles.pile(st.stand_piles[seat])
    return cards[0] if cards else None


def has_suspect(st: InfiltraitorsState, seat: int) -> bool:
    return st.piles.count(st.stand_piles[seat]) > 0


def cover(st: InfiltraitorsState, seat: int) -> CardInstance | None:
    cards = st.piles.pile(st.cover_piles[seat])
    return cards[0] if cards else None


def aside(st: InfiltraitorsState) -> CardInstance | None:
    cards = st.piles.pile(ASIDE_PILE)
    return cards[0] if cards else None


def hints_view(st: InfiltraitorsState) -> HintsView:
    """Every place's hints as immutable values, kept until a hint is placed or discarded."""
    readouts = READOUTS(st)
    if readouts.hints_view is None:
        upright = st.upright
        readouts.hints_view = tuple(
            (target, tuple((card, upright[card]) for card in st.piles.pile(pile)))
            for target, pile in st.hint_piles.items()
        )
    return readouts.hints_view


def hints(st: InfiltraitorsState, target: int) -> list[tuple[CardInstance, bool]]:
    """The hints beside a suspect, in the order placed, with their orientation."""
    return [(card, st.upright[card]) for card in st.piles.pile(st.hint_piles[target])]


def spec(st: InfiltraitorsState, card: CardInstance) -> CardSpec:
    return st.rules.specs[card.card]


def card_name(st: InfiltraitorsState, card_id: str) -> str:
    """A card id with its suit and number, for logs: 'R06 (紅6)'."""
    spec = st.rules.specs[card_id]
    return f"{card_id} ({spec.suit}{'特別牌' if spec.special else spec.number})"


def place_name(st: InfiltraitorsState, target: int) -> str:
    return "the aside suspect" if target == ASIDE else f"seat {target}'s suspect"


def unsolved(st: InfiltraitorsState) -> int:
    """Suspects still in play: in the centre, on a stand, or set aside."""
    on_stands = sum(1 for pile in st.stand_piles if st.piles.count(pile))
    return st.piles.count(LINEUP) + on_stands + st.piles.count(ASIDE_PILE)


def active_count(st: InfiltraitorsState) -> int:
    return sum(1 for gone in st.withdrawn if not gone)


def suspect_identity(st: InfiltraitorsState, target: int) -> tuple[str, int]:
    """(suit, number) of a suspect as hints and guesses see it (mission 16: the cover's suit)."""
    card = aside(st) if target == ASIDE else suspect(st, target)
    if card is None:
        raise RuleViolation(f"no suspect at {target}")
    suit, number = spec(st, card).identity()
    covered_by = cover(st, target) if target != ASIDE else None
    if covered_by is not None:
        suit = spec(st, covered_by).suit
    return suit, number


def orientation(st: InfiltraitorsState, card: CardInstance, target: int) -> bool:
    """True (upright) when the card relates to the target suspect."""
    return related(spec(st, card), *suspect_identity(st, target))
