"""The enforcer's cards as the engine reads them from the database.

Numbers, families, traits, weaknesses, copies and effect keys all come from the
card rows, so editing a card changes the next check; only the effect *rules*
live in the engine, keyed by each card's `effect` field.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace

from pnpforge.errors import PnpError
from pnpforge.model import Card
from pnpforge.rules.engine import CardInstance, UnknownEffect
from pnpforge.rules.kit import REQUIRED, DeckError, enum_field, int_field, list_field, text_field

SLUG = "enforcer"
CATEGORIES = ("稅", "健", "罰", "費")
START_HAND = 5
TABLE_SIZE = 4
HAND_LIMIT = 6
LOVE_BONUS = 4  # 執行有愛
JUSTICE_BONUS = 4  # 公義無礙

GENERAL, SEIZURE, RESTRICTION, AID, STRATEGY = "一般", "查封", "限制", "扶助", "策略"
FAMILIES = (GENERAL, SEIZURE, RESTRICTION, AID, STRATEGY)

PLAY_EFFECTS = (
    "none", "draw", "expose", "cancel_objection", "slogan", "not_vs_weak", "extra_objection",
    "discard_cost", "double_seizure", "min_difficulty", "requires_card", "discard_restriction_cost",
)  # fmt: skip
STRATEGY_EFFECTS = ("cowork", "assign_project", "delay", "news", "bonus_project")
OBLIGOR_EFFECTS = ("none", "immune_restriction", "redraw_on_dismissed")
OBJECTION_EFFECTS = ("none", "difficulty_up", "void_family")
OFFICER_EFFECTS = ("specialist", "master", "draw_on_success", "veto_objection", "hand_limit", "rookie_track")
DISCARD_COSTS = ("discard_cost", "discard_restriction_cost")


@dataclass(frozen=True)
class PlayCard:
    """An execution card or a specialty card (which plays as the card it copies)."""

    id: str
    name: str
    family: str
    power: int
    effect: str
    value: int
    requires: str | None
    key: str  # what weaknesses and requirements match: the base card's id
    specialty: bool = False


@dataclass(frozen=True)
class Obligor:
    id: str
    name: str
    categories: frozenset[str]
    score: int
    difficulty: int
    traits: frozenset[str]
    objections: int
    weakness: str | None
    effect: str
    big: bool = field(init=False, compare=False, repr=False)  # 大戶: never a project (asked every step)

    def __post_init__(self) -> None:
        object.__setattr__(self, "big", "大戶" in self.traits)


@dataclass(frozen=True)
class Objection:
    id: str
    name: str
    effect: str
    value: int
    family: str | None


@dataclass(frozen=True)
class Officer:
    id: str
    name: str
    family: str
    effect: str
    category: str | None
    specialty: str | None
    condition: str | None
    value: int


@dataclass(frozen=True)
class Track:
    """A penalty track: cumulative points lost after 1, 2, … penalties; then X."""

    cells: tuple[int, ...]
    # how many penalties eliminate: every step's invariants ask, so it is worked out once
    eliminate_at: int = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "eliminate_at", len(self.cells) + 1)

    def loss(self, penalties: int) -> int:
        if penalties <= 0:
            return 0
        return self.cells[min(penalties, len(self.cells)) - 1]


@dataclass
class CardData:
    """Every card of the game by id and kind, plus the two penalty tracks."""

    play: dict[str, PlayCard] = field(default_factory=dict)
    obligor: dict[str, Obligor] = field(default_factory=dict)
    objection: dict[str, Objection] = field(default_factory=dict)
    officer: dict[str, Officer] = field(default_factory=dict)
    copies: dict[str, int] = field(default_factory=dict)
    kind: dict[str, str] = field(default_factory=dict)
    names: dict[str, str] = field(default_factory=dict)
    standard_track: Track = Track((0,))
    rookie_track: Track = Track((0,))
    unknown: list[UnknownEffect] = field(default_factory=list)
    obligor_at: dict[str, Obligor] = field(default_factory=dict)  # by instance text, e.g. 'OB-03#0'
    play_power: dict[str, int] = field(default_factory=dict)  # each play card's power (a sort key)
    # what bars a play card from an execution, for the greedy look-ahead: (barred against a weak
    # obligor, barred against one not weak, 限制, least difficulty admitted or None)
    play_filter: dict[str, tuple[bool, bool, bool, int | None]] = field(default_factory=dict)
    costly: frozenset[str] = frozenset()  # play cards with a discard cost
    strategy: frozenset[str] = frozenset()  # play cards of the 策略 family
    # whether a card can never be played against an obligor, by (obligor id, weak) then card id:
    # worked out once when the rules are made (`actions.blocked_table`), read, never changed
    blocked: dict[tuple[str, bool], dict[str, bool]] = field(default_factory=dict, compare=False, repr=False)

    def instances(self, kind: str) -> list[CardInstance]:
        """Every physical copy of the cards of one type, in database order."""
        return [
            CardInstance(cid, copy)
            for cid, card_kind in self.kind.items()
            if card_kind == kind
            for copy in range(self.copies[cid])
        ]


# ---- loaders, one per card type ------------------------------------------------------------


def _track(card, name: str) -> Track:
    """A penalty track, cells such as -1 -3 -6 -10 X: cumulative losses, then elimination.

    The cells are one list field (the rulebook's first cells and pnpforge's later ones keep
    their provenance cell by cell); a track typed as one text is read by its words.
    """
    stored = card.fields.get(name)
    cells = text_field(card, name).split() if isinstance(stored, str) else list_field(card, name)
    raw = " ".join(cells)
    if not cells or cells[-1].upper() != "X":
        raise DeckError(f"card {card.id}: field '{name}' must list cells ending in X (got {raw!r})")
    try:
        values = tuple(int(c) for c in cells[:-1])
    except ValueError:
        raise DeckError(
            f"card {card.id}: field '{name}' cells must be integers before the final X (got {raw!r})"
        ) from None
    if not values or any(v > 0 for v in values):
        raise DeckError(
            f"card {card.id}: field '{name}' needs at least one cell, none positive (got {raw!r})"
        )
    return Track(values)


class _Loader:
    """Fills a CardData from card rows; effects the engine does not know are collected, not fatal."""

    def __init__(self) -> None:
        self.data = CardData()
        self.has_penalty = False

    def effect(self, card, allowed: tuple[str, ...], default: str = REQUIRED) -> str:
        effect = text_field(card, "effect", default=default)
        if effect not in allowed:
            self.data.unknown.append(UnknownEffect(card.id, effect))
        return effect

    def play(self, card, specialty: bool) -> None:
        family = enum_field(card, "family", FAMILIES)
        effect = self.effect(card, STRATEGY_EFFECTS if family == STRATEGY else PLAY_EFFECTS)
        value = int_field(card, "effect_value", default=1)
        if effect in DISCARD_COSTS and value != 1:
            raise DeckError(
                f"card {card.id}: the engine supports effect_value 1 for '{effect}' (got {value})"
            )
        requires = text_field(card, "requires", default=REQUIRED if effect == "requires_card" else None)
        key = text_field(card, "base") if specialty else card.id
        power = int_field(card, "power", default=0, min=0)
        self.data.play[card.id] = PlayCard(
            card.id, card.name, family, power, effect, value, requires, key, specialty
        )

    def execution(self, card) -> None:
        self.play(card, specialty=False)

    def specialty(self, card) -> None:
        self.play(card, specialty=True)

    def obligor(self, card) -> None:
        categories = list_field(card, "category")
        if not categories or any(c not in CATEGORIES for c in categories):
            raise DeckError(f"card {card.id}: field 'category' must list 稅/健/罰/費 (got {categories!r})")
        traits = list_field(card, "traits", default=[])
        objections = 0
        if "聲明異議" in traits:
            objections = int_field(card, "objections", default=1)
            if objections < 1:
                raise DeckError(
                    f"card {card.id}: has 聲明異議 but 'objections' is {objections} (must be ≥ 1)"
                )
        self.data.obligor[card.id] = Obligor(
            card.id, card.name, frozenset(categories), int_field(card, "score"),
            int_field(card, "difficulty", min=0), frozenset(traits), objections,
            text_field(card, "weakness", default=None), self.effect(card, OBLIGOR_EFFECTS, "none"),
        )  # fmt: skip

    def objection(self, card) -> None:
        effect = self.effect(card, OBJECTION_EFFECTS)
        family = text_field(card, "family", default=REQUIRED if effect == "void_family" else None)
        self.data.objection[card.id] = Objection(
            card.id, card.name, effect, int_field(card, "effect_value", default=0), family
        )

    def officer(self, card) -> None:
        effect = self.effect(card, OFFICER_EFFECTS)

        def needed_for(wanted: str) -> str | None:
            return REQUIRED if effect == wanted else None

        self.data.officer[card.id] = Officer(
            card.id, card.name, text_field(card, "family"), effect,
            text_field(card, "category", default=needed_for("specialist")),
            text_field(card, "specialty", default=needed_for("master")),
            text_field(card, "condition", default=needed_for("draw_on_success")),
            int_field(card, "effect_value", default=HAND_LIMIT if effect == "hand_limit" else 1),
        )  # fmt: skip

    def penalty(self, card) -> None:
        self.data.standard_track = _track(card, "track")
        self.data.rookie_track = _track(card, "rookie_track")
        self.has_penalty = True

    def check_references(self) -> None:
        """Weaknesses, requirements and masters' specialties must name cards of the right type."""
        data = self.data
        for obligor in data.obligor.values():
            if obligor.weakness and obligor.weakness not in data.play:
                raise DeckError(f"card {obligor.id}: weakness '{obligor.weakness}' is not an execution card")
        for card in data.play.values():
            if card.requires and card.requires not in data.play:
                raise DeckError(f"card {card.id}: requires '{card.requires}' is not an execution card")
        for officer in data.officer.values():
            if officer.effect == "master" and data.kind.get(officer.specialty or "") != "specialty":
                raise DeckError(f"card {officer.id}: specialty '{officer.specialty}' is not a specialty card")
        if not self.has_penalty:
            raise PnpError(f"{SLUG}: the database has no penalty marker card (type 'penalty')")


def load_cards(rows: Iterable[Card]) -> CardData:
    """The enforcer's card rows, checked for what the engine needs (DeckError naming the card)."""
    loader = _Loader()
    for card in rows:
        loader.data.copies[card.id] = card.copies
        loader.data.kind[card.id] = card.type
        loader.data.names[card.id] = card.name
        load = getattr(loader, card.type, None) if card.type in _CARD_TYPES else None
        if load is None:
            raise DeckError(f"card {card.id}: card type '{card.type}' is unknown to the {SLUG} engine")
        load(card)
    loader.check_references()
    data = loader.data
    data.obligor_at = {str(card): data.obligor[card.card] for card in data.instances("obligor")}
    data.play_power = {cid: card.power for cid, card in data.play.items()}
    data.play_filter = {cid: _play_filter(card) for cid, card in data.play.items()}
    data.costly = frozenset(cid for cid, card in data.play.items() if card.effect in DISCARD_COSTS)
    data.strategy = frozenset(cid for cid, card in data.play.items() if card.family == STRATEGY)
    return data


def auction_as_doubling_only(data: CardData) -> CardData:
    """The cards as the rulebook's worked examples read 拍賣 (option auction_power=doubling_only).

    Both examples with 拍賣 (執行範例 "15 vs 14" and "7 vs 9") add up only when
    拍賣's own 2 執行力 is not counted, only its doubling of a 查封 card; so here
    every card with the effect double_seizure plays with power 0.
    """
    play = {
        cid: replace(card, power=0) if card.effect == "double_seizure" else card
        for cid, card in data.play.items()
    }
    return replace(data, play=play, play_power={cid: card.power for cid, card in play.items()}, blocked={})


def _play_filter(card: PlayCard) -> tuple[bool, bool, bool, int | None]:
    """The facts about `card` that decide whether it may be played against an obligor."""
    return (
        card.family == SEIZURE or card.family == RESTRICTION or card.effect == "not_vs_weak",
        card.family == AID,
        card.family == RESTRICTION,
        card.value if card.effect == "min_difficulty" else None,
    )


_CARD_TYPES = ("execution", "specialty", "obligor", "objection", "officer", "penalty")
