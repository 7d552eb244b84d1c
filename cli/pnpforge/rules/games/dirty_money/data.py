"""Dirty Money's cards as the engine sees them, read once from the database.

Everything the engine knows about a card comes from its fields; the numbers that are rules
rather than cards (hand limit, end target, refills) are the constants below, each tied to the
rulebook section that states it.
"""

from __future__ import annotations

from dataclasses import dataclass

from pnpforge.model import Card
from pnpforge.rules.kit import REQUIRED, DeckError, enum_field, int_field, text_field

SLUG = "dirty-money"

HAND_LIMIT = 7  # 游戏玩法 a): at most 7 money cards in hand
END_TARGET = 10  # 游戏结束: 10 placement cards trigger the last round
QUICK_TARGET = 8  # 快速模式
SETUP_SPOT = 2  # 游戏设定 5: two money cards under each location
REFILL_EMPTY = 2  # 回合结束 2: an empty location gets two cards
REFILL_SOME = 1  # 回合结束 1: a location with cards gets one more …
SPOT_CAP = 4  # … up to four
START_HAND = 3  # 游戏设定 3
LAST_PLAYER_EXTRA = 1  # 游戏设定 4
BLACKLIST_EXTRA = 2  # 最终得分: the highest loses 2 more
EMBEZZLER_POINTS = 1  # 贪污鼠: each card in the overpay slot scores 1
SELECTION_DISPLAY = 3  # 选择模式: three placement cards above a region location
MAX_ROUNDS = 60  # a game still running then cannot be finished (real games take 10 to 20)

REGION_CURRENCY = {"欧洲": "EUR", "日本": "JPY", "美国": "USD"}
REGIONS = tuple(REGION_CURRENCY)
CRYPTO = "CRYPTO"
CURRENCIES = (*REGION_CURRENCY.values(), CRYPTO)

PLACEMENT_EFFECTS = (
    "art",
    "art_gallery",
    "accounting_firm",
    "casino",
    "crypto_exchange",
    "charity",
    "digital_bank",
    "law_firm",
    "remittance",
    "restaurant_chain",
)
ACTION_EFFECTS = (
    "inspect_neighbours",
    "inspect_one",
    "audit_most_dirty",
    "audit_threshold",
    "trade",
    "bribe",
)
VILLAIN_EFFECTS = ("launderer", "embezzler", "crypto_fox", "wall_street_bear", "loan_shark")
LOCATION_EFFECTS = ("region_market", "banana_republic", "black_market", "auction_house")
# Effects whose number lives in effect_value (art uses set_scores instead).
NEEDS_VALUE = frozenset(
    {
        "art_gallery",
        "accounting_firm",
        "casino",
        "crypto_exchange",
        "charity",
        "digital_bank",
        "law_firm",
        "remittance",
        "restaurant_chain",
        "launderer",
        "embezzler",
        "crypto_fox",
        "wall_street_bear",
        "loan_shark",
    }
)
# Placement effects that score per discard tucked under the card.
TUCK_EFFECTS = ("accounting_firm", "casino", "law_firm")


@dataclass(frozen=True)
class Placement:
    """A placement card (处置卡): bought with the currency of its region, scored at the end."""

    id: str
    name: str
    copies: int
    region: str
    cost: int
    points: int
    effect: str
    value: int


@dataclass(frozen=True)
class Money:
    """A card of the money deck: a currency card or an action card."""

    id: str
    name: str
    copies: int
    is_action: bool
    currency: str = ""
    value: int = 0
    dirty: int = 0
    effect: str = ""
    amount: int = 1


@dataclass(frozen=True)
class Location:
    """A location card: where a turn is spent, and what may be bought there."""

    id: str
    name: str
    effect: str
    min_players: int
    region: str | None
    display: int
    buy_limit: int


@dataclass(frozen=True)
class Villain:
    """A villain card: the turn order (lowest starts) and one standing power."""

    id: str
    name: str
    order: int
    effect: str
    value: int


@dataclass(frozen=True)
class CardSet:
    """Every card of the game by kind, plus the art set table shared by all art cards."""

    placements: tuple[Placement, ...]
    money: tuple[Money, ...]
    locations: tuple[Location, ...]
    villains: tuple[Villain, ...]
    art_table: tuple[int, ...]


def _effect_value(card: Card, effect: str, known: tuple[str, ...]) -> int:
    """effect_value is required only by effects that use it; unknown effects are reported later."""
    if effect in NEEDS_VALUE and effect in known:
        return int_field(card, "effect_value", min=0)
    return int_field(card, "effect_value", default=0)


def _set_scores(card: Card) -> tuple[int, ...]:
    raw = text_field(card, "set_scores")
    try:
        table = tuple(int(x) for x in raw.replace("，", ",").split(",") if x.strip())
    except ValueError:
        raise DeckError(
            f"card {card.id}: field 'set_scores' must be comma-separated whole numbers "
            f"(e.g. 2,5,9,14,20), got {raw!r}"
        ) from None
    if not table:
        raise DeckError(f"card {card.id}: field 'set_scores' is empty")
    return table


def _placement(card: Card) -> Placement:
    effect = text_field(card, "effect")
    return Placement(
        id=card.id,
        name=card.name,
        copies=card.copies,
        region=enum_field(card, "region", REGIONS),
        cost=int_field(card, "cost", min=0),
        points=int_field(card, "points", default=0),
        effect=effect,
        value=_effect_value(card, effect, PLACEMENT_EFFECTS),
    )


def _currency(card: Card) -> Money:
    return Money(
        id=card.id,
        name=card.name,
        copies=card.copies,
        is_action=False,
        currency=enum_field(card, "currency", CURRENCIES),
        value=int_field(card, "value", min=0),
        dirty=int_field(card, "dirty", default=0, min=0),
    )


def _action(card: Card) -> Money:
    return Money(
        id=card.id,
        name=card.name,
        copies=card.copies,
        is_action=True,
        effect=text_field(card, "effect"),
        amount=int_field(card, "amount", default=1, min=0),
    )


def _location(card: Card) -> Location:
    effect = text_field(card, "effect")
    region_default = REQUIRED if effect == "region_market" else None
    return Location(
        id=card.id,
        name=card.name,
        effect=effect,
        min_players=int_field(card, "min_players", min=1),
        region=enum_field(card, "region", REGIONS, default=region_default),
        display=int_field(card, "display", default=0, min=0),
        buy_limit=int_field(card, "buy_limit", default=1, min=0),
    )


def _villain(card: Card) -> Villain:
    effect = text_field(card, "effect")
    return Villain(
        card.id, card.name, int_field(card, "order"), effect, _effect_value(card, effect, VILLAIN_EFFECTS)
    )


def _check_villain_orders(villains: list[Villain]) -> None:
    """The lowest villain order starts the game, so two villains with one order leave it undecided."""
    holders: dict[int, list[str]] = {}
    for villain in villains:
        holders.setdefault(villain.order, []).append(villain.id)
    for order, ids in sorted(holders.items()):
        if len(ids) > 1:
            raise DeckError(
                f"cards {', '.join(ids)}: field 'order' is {order} on each; the lowest order "
                f"plays first, so villain orders must differ"
            )


def read_cards(cards: list[Card]) -> CardSet:
    """The game's cards by kind; a missing or mistyped field is a DeckError naming the card."""
    placements: list[Placement] = []
    money: list[Money] = []
    locations: list[Location] = []
    villains: list[Villain] = []
    art_tables: dict[tuple[int, ...], str] = {}
    for card in cards:
        if card.type == "placement":
            placement = _placement(card)
            placements.append(placement)
            if placement.effect == "art":
                art_tables.setdefault(_set_scores(card), card.id)
        elif card.type == "currency":
            money.append(_currency(card))
        elif card.type == "action":
            money.append(_action(card))
        elif card.type == "location":
            locations.append(_location(card))
        elif card.type == "villain":
            villains.append(_villain(card))
    if len(art_tables) > 1:
        disagreement = "; ".join(f"{table} on {card_id}" for table, card_id in art_tables.items())
        raise DeckError(f"art cards disagree on field 'set_scores' ({disagreement})")
    _check_villain_orders(villains)
    art_table = next(iter(art_tables), (0,))
    return CardSet(tuple(placements), tuple(money), tuple(locations), tuple(villains), art_table)


def art_set_score(count: int, table: tuple[int, ...]) -> int:
    """Best split of `count` art cards into sets of at most len(table) (a DP, not greedy)."""
    best = [0] * (count + 1)
    for k in range(1, count + 1):
        best[k] = max(table[size - 1] + best[k - size] for size in range(1, min(len(table), k) + 1))
    return best[count]
