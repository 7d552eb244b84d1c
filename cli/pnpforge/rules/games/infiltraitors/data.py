"""Cards and missions as the engine needs them, read from the database.

Everything the rules depend on comes from card fields: the numbered cards'
suit, number and printed list of related numbers, the special cards' suit and
effect, and each mission card's parameters and special-rule effect.  A field
the engine cannot use is a DeckError (a PnpError) naming the card and field,
read through the engine kit's typed readers, so a designer sees which card to
fix instead of a traceback.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from pnpforge.rules.kit import (
    DeckError,
    GameData,
    bool_field,
    game_cards,
    int_field,
    list_field,
    text_field,
)

SLUG = "infiltraitors"
DEFAULT_MISSION = "M01"
NUMBERS = range(2, 16)
SPECIAL_NUMBER = 1  # a special card as suspect counts as number 1 (mission 15)

CARD_EFFECTS = frozenset({"suit_only_hint"})
# Mission effect key -> the engine flags it switches on.
MISSION_EFFECTS: dict[str, frozenset[str]] = {
    "facedown_discard": frozenset({"facedown"}),
    "ordered_tiles": frozenset({"ordered"}),
    "ordered_tiles_facedown": frozenset({"ordered", "facedown"}),
    "no_talk": frozenset(),  # agents never talk: nothing to enforce
    "time_limit": frozenset(),  # a real-time limit: simulated agents have no clock
    "small_hand": frozenset(),  # carried by the hand_size / hand_limit fields
    "shared_specials": frozenset({"shared_specials"}),
    "balanced_hints": frozenset({"balanced"}),
    "exchange_left_only": frozenset({"exchange_left"}),
    "right_only_no_talk": frozenset({"eliminate_right"}),
    "sole_eliminator": frozenset({"sole_eliminator"}),
    "specials_in_deck": frozenset({"specials_in_deck"}),
    "covered_suit": frozenset({"covered_suit"}),
    "hands_facing_out": frozenset({"hands_out"}),
    "final_suspect_pooled": frozenset({"pooled_final"}),
    "final_suspect_solo": frozenset({"solo_final"}),
}


@dataclass(frozen=True)
class CardSpec:
    """A playing card as the engine needs it; number is None for a special card."""

    id: str
    suit: str
    number: int | None
    relates: frozenset[int]
    copies: int
    effect: str | None = None

    @property
    def special(self) -> bool:
        return self.number is None

    def identity(self) -> tuple[str, int]:
        """(suit, number) a guess must name; a special suspect counts as number 1."""
        return (self.suit, SPECIAL_NUMBER if self.number is None else self.number)


@dataclass(frozen=True)
class Mission:
    """One mission card's parameters and the flags of its special rule."""

    id: str
    name: str
    suspects: int | None
    suspects_per_agent: bool
    bullets: int
    bullets_per_agent: bool
    suits: tuple[str, ...]
    number_min: int
    number_max: int
    hand_size: int
    hand_limit: int
    tiles: int | None
    effect: str | None
    flags: frozenset[str]

    def suspect_count(self, players: int) -> int:
        return players if self.suspects_per_agent else int(self.suspects or 0)

    def bullet_count(self, players: int) -> int:
        return self.bullets + (players if self.bullets_per_agent else 0)

    def has(self, flag: str) -> bool:
        return flag in self.flags


def factor_relations(number: int) -> frozenset[int]:
    """Numbers 2–15 other than `number` that divide it or that it divides (the rulebook's relation)."""
    return frozenset(m for m in NUMBERS if m != number and (m % number == 0 or number % m == 0))


# rulebook 003:521 「打出的手牌號碼是嫌疑人牌號碼的倍數或因數」
# rulebook 003:519 「如果打出的是特別牌，它只能給出花色相同的提示。」
def related(hint: CardSpec, suit: str, number: int) -> bool:
    """Does `hint` relate to a suspect of (suit, number)?  Upright if so, sideways if not.

    Same suit, same number, or a factor/multiple (the card's printed list);
    a special card hints by suit alone, and a special suspect (number 1)
    relates to no number.
    """
    if hint.suit == suit:
        return True
    if hint.number is None:
        return False
    return hint.number == number or number in hint.relates


def _deck_error(message: str) -> DeckError:
    return DeckError(f"{SLUG}: {message}")


def load_cards(game: GameData) -> dict[str, CardSpec]:
    """Numbered and special cards by id.

    A printed relation list that breaks the factor rule, or a suit that does not
    hold each number 2–15 exactly once, is a DeckError: hints and guesses name a
    card by suit and number, so the engine depends on both.
    """
    specs: dict[str, CardSpec] = {}
    for card in game_cards(game, card_type="card"):
        number = int_field(card, "number", min=NUMBERS.start, max=NUMBERS.stop - 1)
        printed = _printed_relations(card)
        rule = factor_relations(number)
        if printed != rule:
            raise DeckError(
                f"card {card.id}: printed related numbers {sorted(printed)} differ from "
                f"the factors/multiples of {number} within 2–15 {sorted(rule)}"
            )
        specs[card.id] = CardSpec(card.id, text_field(card, "suit"), number, rule, card.copies)
    for card in game_cards(game, card_type="special"):
        effect = text_field(card, "effect", default=None)
        specs[card.id] = CardSpec(card.id, text_field(card, "suit"), None, frozenset(), card.copies, effect)
    _check_suits(specs)
    return specs


def _printed_relations(card) -> set[int]:
    """The numbers a card prints as related to its own; each must be an integer."""
    printed = set()
    for item in list_field(card, "relates", default=[]):
        if not item.strip().isdigit():
            raise DeckError(f"card {card.id}: field 'relates' lists {item!r}, not a number")
        printed.add(int(item))
    return printed


def _check_suits(specs: dict[str, CardSpec]) -> None:
    """Each suit holds every number 2–15 exactly once and one special card.

    Rulebook: 每款花色都包含 2-15 號卡牌; 5 張特別牌 (每種花色 1 張).
    """
    holders: dict[tuple[str, int], list[str]] = {}
    for spec in specs.values():
        if spec.number is not None:
            holders.setdefault((spec.suit, spec.number), []).extend([spec.id] * spec.copies)
    for suit in sorted({suit for suit, _ in holders}):
        problems = [
            f"number {number} on {len(ids)} cards ({', '.join(ids)})"
            for number in NUMBERS
            if len(ids := holders.get((suit, number), [])) > 1
        ]
        missing = [str(number) for number in NUMBERS if not holders.get((suit, number))]
        if missing:
            problems.append(f"no card numbered {', '.join(missing)}")
        specials = [s.id for s in specs.values() if s.special and s.suit == suit for _ in range(s.copies)]
        if len(specials) != 1:
            listed = f" ({', '.join(specials)})" if specials else ""
            problems.append(f"{len(specials)} special cards{listed} instead of one")
        if problems:
            raise _deck_error(
                f"suit {suit} has {' and '.join(problems)}; each suit needs 2–15 exactly once and "
                f"one special card (hints and guesses name a card by suit and number)"
            )


def mission_from_card(card) -> Mission:
    """A mission card's fields as engine parameters; missing or inconsistent fields are errors."""
    per_agent = bool_field(card, "suspects_per_agent", default=False)
    suspects = None if per_agent else int_field(card, "suspects", min=1)
    suits = list_field(card, "suits")
    if not suits:
        raise DeckError(f"card {card.id}: field 'suits' must list the mission's suits")
    count = int_field(card, "suit_count", default=None)
    if count is not None and count != len(suits):
        raise DeckError(f"card {card.id}: suit_count {count} but suits lists {len(suits)}")
    effect = text_field(card, "effect", default=None)
    number_min = int_field(card, "number_min", min=NUMBERS.start, max=NUMBERS.stop - 1)
    hand_size, hand_limit = int_field(card, "hand_size", min=0), int_field(card, "hand_limit", min=1)
    if hand_size > hand_limit:
        raise DeckError(f"card {card.id}: deals {hand_size} cards, more than its hand limit {hand_limit}")
    flags = MISSION_EFFECTS.get(effect or "", frozenset())
    tiles = int_field(card, "number_tiles", default=None, min=1)
    if "ordered" in flags and suspects is not None and (tiles or 0) < suspects:
        raise DeckError(
            f"card {card.id}: {tiles or 0} number tiles for {suspects} suspects "
            f"(each suspect taken gets the next tile, in order)"
        )
    return Mission(
        id=card.id,
        name=card.name,
        suspects=suspects,
        suspects_per_agent=per_agent,
        bullets=int_field(card, "bullets", min=0),
        bullets_per_agent=bool_field(card, "bullets_per_agent", default=False),
        suits=tuple(suits),
        number_min=number_min,
        number_max=int_field(card, "number_max", min=number_min, max=NUMBERS.stop - 1),
        hand_size=hand_size,
        hand_limit=hand_limit,
        tiles=tiles,
        effect=effect,
        flags=flags,
    )


def mission_id(raw: Any) -> str:
    """'M01', 'm1', '1' -> 'M01'; 'T1', 't1' -> 'T1' (training); anything else unchanged."""
    text = str(raw).strip()
    match = re.fullmatch(r"[mM]?0*(\d{1,2})", text)
    if match:
        return f"M{int(match.group(1)):02d}"
    match = re.fullmatch(r"[tT]0*(\d)", text)
    if match:
        return f"T{int(match.group(1))}"
    return text
