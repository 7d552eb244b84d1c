"""What lies on the table during a mission: piles, counters and whose turn it is.

Every physical card sits in exactly one named pile of `Zones` (the deck is the
headquarters pile, `lineup` the suspects waiting in the centre, `aside` the
suspect set aside in missions 18 and 19, `stand_S` the suspect on seat S's
stand, `cover_S` its face-down cover card in mission 16, `hints_S` the hints
beside it), so cards can only move between piles.  The rules' logic lives in
the mixins that build on this class.
"""

from __future__ import annotations

from collections.abc import Sequence

from pnpforge.rules.engine import CardInstance, RuleViolation
from pnpforge.rules.kit import Zones

from .data import CardSpec, Mission, related
from .rules import InfiltraitorsRules

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


class Table:
    """One mission's table for a number of agents; read and moved through named piles."""

    def __init__(self, rules: InfiltraitorsRules, players: int) -> None:
        mission = rules.mission
        self.rules = rules
        self.mission: Mission = mission
        self.players = players
        self.hand_piles = [f"hand_{s}" for s in range(players)]
        self.stand_piles = [f"stand_{s}" for s in range(players)]
        self.cover_piles = [f"cover_{s}" for s in range(players)]
        self.hint_piles: dict[int, str] = {s: f"hints_{s}" for s in range(players)}
        self.hint_piles[ASIDE] = "hints_aside"
        self.piles = Zones(
            [DECK, LINEUP, ASIDE_PILE, DISCARD_UP, DISCARD_DOWN, SHARED, REWARDS, BOX, MISSION]
            + self.hand_piles
            + self.stand_piles
            + self.cover_piles
            + list(self.hint_piles.values())
        )
        self.piles.deal(rules.in_play, DECK)  # unordered: every draw is a chance outcome
        self.piles.deal(rules.box, BOX)
        self.piles.deal(rules.shared_specials, SHARED)
        self.piles.deal([rules.mission_card] if rules.mission_card else [], MISSION)
        self.piles.deal(rules.other_missions, BOX)
        self.upright: dict[CardInstance, bool] = {}  # orientation of each hint on the table
        self.tile_of: list[int | None] = [None] * players  # number tile beside each stand (missions 3, 14)
        self.next_tile = 1
        self.bullets_start = mission.bullet_count(players)
        self.bullets = self.bullets_start
        self.suspects_total = mission.suspect_count(players)
        self.solved = 0
        self.withdrawn = [False] * players
        self.peeked: set[int] = set()  # seats that looked at the aside suspect (mission 19)
        self.eliminator: int | None = None  # the only seat that may shoot (mission 12)
        self.final_phase = False  # mission 18: the last suspect, played with the pooled rewards
        self.turn = 0  # seat whose turn it is
        self.actor = 0  # seat deciding now (the turn's seat, or one discarding down)
        self.stage = "act"
        self.extra_hints_left = 0
        self.passes = 0
        self.result: tuple[str, str] | None = None  # ("win" | "lose", why)
        self.rounds = 0
        self.chance_queue: list[ChanceEvent] = []
        self._hints_view: tuple | None = None  # cache of hints_view(); None when hints changed

    # -- reading the piles ---------------------------------------------------------

    def hand(self, seat: int) -> Sequence[CardInstance]:
        return self.piles.pile(self.hand_piles[seat])

    def hand_count(self, seat: int) -> int:
        return self.piles.count(self.hand_piles[seat])

    def suspect(self, seat: int) -> CardInstance | None:
        """The suspect on `seat`'s stand, if any."""
        cards = self.piles.pile(self.stand_piles[seat])
        return cards[0] if cards else None

    def has_suspect(self, seat: int) -> bool:
        return self.piles.count(self.stand_piles[seat]) > 0

    def cover(self, seat: int) -> CardInstance | None:
        cards = self.piles.pile(self.cover_piles[seat])
        return cards[0] if cards else None

    def aside(self) -> CardInstance | None:
        cards = self.piles.pile(ASIDE_PILE)
        return cards[0] if cards else None

    def hints_view(self) -> tuple[tuple[int, tuple[tuple[CardInstance, bool], ...]], ...]:
        """Every place's hints as immutable values, kept until a hint is placed or discarded."""
        if self._hints_view is None:
            upright = self.upright
            self._hints_view = tuple(
                (target, tuple((card, upright[card]) for card in self.piles.pile(pile)))
                for target, pile in self.hint_piles.items()
            )
        return self._hints_view

    def hints(self, target: int) -> list[tuple[CardInstance, bool]]:
        """The hints beside a suspect, in the order placed, with their orientation."""
        return [(card, self.upright[card]) for card in self.piles.pile(self.hint_piles[target])]

    def spec(self, card: CardInstance) -> CardSpec:
        return self.rules.specs[card.card]

    def card_name(self, card_id: str) -> str:
        """A card id with its suit and number, for logs: 'R06 (紅6)'."""
        spec = self.rules.specs[card_id]
        return f"{card_id} ({spec.suit}{'特別牌' if spec.special else spec.number})"

    def place_name(self, target: int) -> str:
        return "the aside suspect" if target == ASIDE else f"seat {target}'s suspect"

    def unsolved(self) -> int:
        """Suspects still in play: in the centre, on a stand, or set aside."""
        on_stands = sum(1 for pile in self.stand_piles if self.piles.count(pile))
        return self.piles.count(LINEUP) + on_stands + self.piles.count(ASIDE_PILE)

    def active_count(self) -> int:
        return sum(1 for gone in self.withdrawn if not gone)

    # -- identities and relations ------------------------------------------------------

    def suspect_identity(self, target: int) -> tuple[str, int]:
        """(suit, number) of a suspect as hints and guesses see it (mission 16: the cover's suit)."""
        card = self.aside() if target == ASIDE else self.suspect(target)
        if card is None:
            raise RuleViolation(f"no suspect at {target}")
        suit, number = self.spec(card).identity()
        cover = self.cover(target) if target != ASIDE else None
        if cover is not None:
            suit = self.spec(cover).suit
        return suit, number

    def orientation(self, card: CardInstance, target: int) -> bool:
        """True (upright) when the card relates to the target suspect."""
        return related(self.spec(card), *self.suspect_identity(target))
