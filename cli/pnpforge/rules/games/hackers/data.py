"""League of Hackers card data, read once from the database into frozen specs.

Every number the engine plays with (defence values and costs, attack tables,
server holes, costs and bonuses, copies) comes from here, so editing a card
changes the next check; the effect *rules* live in the engine, keyed by each
defence card's `effect` field.  Reading goes through the kit's typed field
readers, so a malformed card is one line naming the card and the field.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from pnpforge.errors import PnpError
from pnpforge.model import Card
from pnpforge.rules.kit import CardInstance, DeckError, enum_field, int_field, list_field, text_field

COLOURS = ("R", "Y", "G", "B")
INSTALL, DEFEND, ATTACK, REPAIR = range(4)
BOARD_NAMES = ("安裝購置 install", "防禦漏洞 defend", "攻擊入侵 attack", "修理維護 repair")

ROUNDS = 3
HAND_SIZE = 8
HOLE_CAPACITY = 4  # damage tokens per hole
REPAIR_PER_CARD = 3
MAX_PAYMENT = 4  # attack cards offer strengths for paying 1-4
MAX_HANDICAP = 3  # the optional rule: a less experienced player draws 1-3 more cards
# Effect sizes printed in the rulebook's card-effect list.
TROJAN_ATTACK = 2
ZERO_DAY_DIRECT = 2
INCIDENT_REPAIR = 2
AUTO_RECOVERY = 2
UNDERGROUND_VP = 2

EFFECTS = (
    "thin_provision",
    "incident_response",
    "solid_state_cache",
    "auto_recovery",
    "certification_audit",
    "proof_of_concept",
    "trojan_horse",
    "underground_market",
    "zero_day_attack",
    "deep_security",
)
TAPPABLE = ("thin_provision", "incident_response")  # effects that turn the card sideways


@dataclass(frozen=True)
class DefenceSpec:
    id: str
    colour: str
    defence: int
    cost: int
    effect: str
    effect_colours: frozenset[str]


@dataclass(frozen=True)
class AttackSpec:
    id: str
    colours: tuple[str, ...]
    strengths: tuple[tuple[int, int], ...]  # (attack, direct) for paying 1..MAX_PAYMENT

    def strength(self, pay: int) -> tuple[int, int]:
        """(attack, direct) printed for paying `pay` cards."""
        return self.strengths[pay - 1]


@dataclass(frozen=True)
class ServerSpec:
    id: str
    level: int
    holes: tuple[str, ...]
    cost: int
    bonus: int


@dataclass(frozen=True)
class Catalogue:
    """Every card of the game by type, and how many copies of each the deck holds."""

    defence: dict[str, DefenceSpec]
    attack: dict[str, AttackSpec]
    server: dict[str, ServerSpec]
    copies: dict[str, int]

    def instances(self, ids: Iterable[str]) -> list[CardInstance]:
        """The physical cards of these ids, every copy."""
        return [CardInstance(cid, k) for cid in ids for k in range(self.copies[cid])]


def _colours(card: Card, name: str, *, required: bool) -> tuple[str, ...]:
    values = list_field(card, name, default=None if required else [])
    if values is None or (required and not values):
        raise DeckError(
            f"card {card.id}: field '{name}' must list at least one colour of {', '.join(COLOURS)}"
        )
    bad = [c for c in values if c not in COLOURS]
    if bad:
        raise DeckError(
            f"card {card.id}: field '{name}' has {', '.join(bad)} (allowed: {', '.join(COLOURS)})"
        )
    return tuple(values)


def _defence(card: Card) -> DefenceSpec:
    return DefenceSpec(
        card.id,
        enum_field(card, "colour", COLOURS),
        int_field(card, "defence", min=0),
        int_field(card, "cost", min=0),
        text_field(card, "effect", default=""),
        frozenset(_colours(card, "effect_colours", required=False)),
    )


def _attack(card: Card) -> AttackSpec:
    strengths = tuple(
        (int_field(card, f"attack_{pay}", min=0), int_field(card, f"direct_{pay}", min=0))
        for pay in range(1, MAX_PAYMENT + 1)
    )
    return AttackSpec(card.id, _colours(card, "colours", required=True), strengths)


def _server(card: Card) -> ServerSpec:
    return ServerSpec(
        card.id,
        int_field(card, "level", min=1),
        _colours(card, "holes", required=True),
        int_field(card, "cost", min=1),  # the rulebook: a server never costs less than 1
        int_field(card, "bonus", min=0),
    )


def load_catalogue(cards: Iterable[Card]) -> Catalogue:
    """The game's cards as specs; unknown card types and missing levels are deck errors."""
    defence: dict[str, DefenceSpec] = {}
    attack: dict[str, AttackSpec] = {}
    server: dict[str, ServerSpec] = {}
    copies: dict[str, int] = {}
    for card in cards:
        copies[card.id] = card.copies
        if card.type == "defence":
            defence[card.id] = _defence(card)
        elif card.type == "attack":
            attack[card.id] = _attack(card)
        elif card.type == "server":
            server[card.id] = _server(card)
        else:
            raise DeckError(
                f"card {card.id}: unknown card type '{card.type}' (the engine knows defence, attack, server)"
            )
    levels = {spec.level for sid, spec in server.items() if copies[sid] > 0}
    missing = [str(level) for level in range(1, ROUNDS + 1) if level not in levels]
    if missing:
        raise PnpError(f"hackers: no server card of level {', '.join(missing)} (one round per level)")
    return Catalogue(defence, attack, server, copies)
