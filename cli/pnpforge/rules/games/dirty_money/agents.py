"""What one seat may see (its observation) and the greedy agent's values, computed from it alone.

A seat sees its own hand and pending action cards; of the other seats only how many money
cards they hold.  Everything else on the table is face up: villains, tableaux, blacklist
and overpay counts, the money cards at each location, the placement cards on display, the
auction house and the Wall Street Bear's set-aside cards.  The decks' order is never seen.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any

from pnpforge.rules.engine import Observation
from pnpforge.rules.games.dirty_money.data import CRYPTO, REGION_CURRENCY, Location, Placement, art_set_score
from pnpforge.rules.kit.memo import Memo

if TYPE_CHECKING:
    from pnpforge.rules.games.dirty_money.rules import DirtyMoneyRules
    from pnpforge.rules.games.dirty_money.state import DirtyMoneyState


@dataclass(frozen=True)
class Purchase:
    """The purchase being paid for: chosen cards, their currency, the price and what is paid."""

    cards: tuple[str, ...]
    currency: str
    due: int
    paid: int
    shark_free: bool


@dataclass(frozen=True)
class PublicTable:
    """What every seat sees alike: the face-up cards and how many cards each seat holds."""

    hand_sizes: tuple[int, ...]  # per seat
    blacklists: tuple[int, ...]  # blacklist cards per seat
    overpay: tuple[int, ...]  # cards in each seat's overpay slot
    villains: tuple[str, ...]  # villain card id per seat ("" before dealing)
    tableaux: tuple[tuple[str, ...], ...]  # placement card ids per seat
    spots: tuple[tuple[str, tuple[str, ...]], ...]  # (location id, money cards face up under it)
    displays: tuple[tuple[str, tuple[str, ...]], ...]  # (pile, placement cards face up for sale)

    @classmethod
    def of(cls, parts: dict[str, Any]) -> PublicTable:
        """The table with these fields, every one named: its dictionary filled in one step rather
        than field by field through the frozen `__init__` (a table is rebuilt at most decisions)."""
        if parts.keys() != _TABLE_FIELDS:
            raise TypeError(f"PublicTable.of(): fields {sorted(parts)}, expected {sorted(_TABLE_FIELDS)}")
        table = object.__new__(cls)
        table.__dict__.update(parts)
        return table


_TABLE_FIELDS = frozenset(f.name for f in fields(PublicTable))


class ObservationReadouts:
    """What a position's observations keep between decisions, outside the position: the public
    table and its parts, and sorted hands, each rebuilt only after its piles moved."""

    __slots__ = ("parts", "sorted_of", "table", "untabled")

    def __init__(self, st: DirtyMoneyState) -> None:
        self.table: PublicTable | None = None
        self.parts: dict[str, tuple[Any, ...]] = {"villains": ()}  # PublicTable's fields
        self.sorted_of: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {}  # pile -> (ids, sorted)
        self.untabled = st.piles.watch()  # piles moved since the public table read them


OBSERVED_MEMO: Memo[DirtyMoneyState, ObservationReadouts] = Memo(ObservationReadouts)
OBSERVED = OBSERVED_MEMO.of  # a position\'s observation read-outs (made on first use)

# (location id -> its money cards face up, pile -> placement cards on sale) of one public table
TableLookups = tuple[dict[str, tuple[str, ...]], dict[str, tuple[str, ...]]]


def _table_lookups(table: PublicTable) -> TableLookups:
    return dict(table.spots), dict(table.displays)


# The greedy agent reads a table's look-ups for every action of a decision, and seats share one
# table until a face-up card moves: kept per table object (read them, never change them) and
# dropped with it, beside the observation rather than on the rules every game shares.
TABLE_LOOKUPS: Memo[PublicTable, TableLookups] = Memo(_table_lookups)
table_lookups = TABLE_LOOKUPS.of


def sorted_ids(st: DirtyMoneyState, pile: str) -> tuple[str, ...]:
    """A pile's card ids sorted, kept until the pile moves (its id read-out is then a new tuple):
    a hand is observed at most decisions but changes at few of them."""
    ids = st.piles.ids(pile)
    sorted_of = OBSERVED(st).sorted_of
    kept = sorted_of.get(pile)
    if kept is None or kept[0] is not ids:
        kept = sorted_of[pile] = (ids, tuple(sorted(ids)))
    return kept[1]


def public_table(st: DirtyMoneyState) -> PublicTable:
    """The face-up part of every observation, its parts rebuilt only after their piles moved
    (the same object while only hidden piles moved: decks, discards, payments)."""
    readouts = OBSERVED(st)
    untabled = readouts.untabled
    table = readouts.table
    names = st.names
    if table is not None and untabled.isdisjoint(names.public_set):
        untabled.clear()
        return table
    pile, ids = st.piles.view, st.piles.ids
    parts = readouts.parts
    fresh = table is None
    if fresh or not untabled.isdisjoint(names.hand_set):
        parts["hand_sizes"] = tuple(map(len, map(pile, names.hands)))
    if fresh or not untabled.isdisjoint(names.blacklist_set):
        parts["blacklists"] = tuple(map(len, map(pile, names.blacklists)))
    if fresh or not untabled.isdisjoint(names.overpay_set):
        parts["overpay"] = tuple(map(len, map(pile, names.overpay)))
    if fresh or not untabled.isdisjoint(names.tableau_set):
        parts["tableaux"] = tuple(map(ids, names.tableaux))
    if fresh or not untabled.isdisjoint(names.spot_set):
        parts["spots"] = tuple(zip(names.locations, map(ids, names.spots), strict=True))
    if fresh or not untabled.isdisjoint(names.on_sale_set):
        parts["displays"] = tuple(zip(names.on_sale, map(ids, names.on_sale), strict=True))
    untabled.clear()
    if fresh or "" in parts["villains"]:  # villains are dealt before any other public card moves
        parts["villains"] = tuple([v or "" for v in st.villain_of])
    table = readouts.table = PublicTable.of(parts)
    return table


@dataclass(frozen=True)
class DirtyMoneyObservation(Observation):
    """Everything `seat` may know when it decides; card ids only, never the state's objects."""

    phase: str  # the pending step's kind: turn, buy, hand_limit, resolve_actions, …
    hand: tuple[str, ...]  # own money cards, sorted
    pending: tuple[str, ...]  # own action cards picked up and not yet resolved
    hand_limit: int
    purchase: Purchase | None
    round_number: int
    first_player: int
    table: PublicTable  # shared by every seat's observation until a card moves
    looking_at: tuple[str, ...] = ()  # the other hand a trade (交易) lets the seat look at, sorted


def pay_value(rules: DirtyMoneyRules, villain_id: str, card_id: str, currency: str) -> int:
    """What a money card pays toward a price in `currency` (crypto as its holder values it)."""
    money = rules.money[card_id]
    if money.currency == CRYPTO:
        villain = rules.villains.get(villain_id)
        return villain.value if villain is not None and villain.effect == "crypto_fox" else money.value
    return money.value if money.currency == currency else 0


def _villain_value(rules: DirtyMoneyRules, obs: DirtyMoneyObservation, effect: str) -> int | None:
    """The seat's own villain power's number, or None when its villain has another power."""
    villain = rules.villains.get(obs.table.villains[obs.seat])
    return villain.value if villain is not None and villain.effect == effect else None


class Decision:
    """What the values of one decision's actions share, each part worked out once for it: placement
    cards' worth, the own crypto exchanges' discount per region, and the hand's pay values per
    currency (every location visited may offer the same cards to the same hand plus its cash)."""

    __slots__ = ("picks", "discounts", "hand_pays")

    def __init__(self) -> None:
        self.picks: dict[str, float] = {}  # placement card id -> its value
        self.discounts: dict[str, int] | None = None  # region -> what the own exchanges take off
        # currency -> (sum, min) the hand pays, what each money card pays, the Loan Shark's number
        self.hand_pays: dict[str, tuple[int, int | None, Mapping[str, int], int | None]] = {}


def greedy_values(rules: DirtyMoneyRules, obs: Observation, legal: Sequence[Any]) -> list[float]:
    """`greedy_value` of every action of one decision, sharing the decision's common parts (the
    same sums, the same values)."""
    decision = Decision()
    return [greedy_value(rules, obs, action, decision) for action in legal]


def greedy_value(
    rules: DirtyMoneyRules, obs: Observation, action: Any, decision: Decision | None = None
) -> float:
    """One-step value of an action for the seat to act, from its observation alone; `decision` keeps
    what the actions of one decision share."""
    assert isinstance(obs, DirtyMoneyObservation)
    kind = action[0]
    money = rules.money
    if decision is None:
        decision = Decision()
    if kind == "go":
        return _visit_value(rules, obs, action[1], decision)
    if kind == "pick":
        return _kept_pick_value(rules, obs, rules.placements[action[1]], decision.picks)
    if kind == "pay":
        return _payment_value(rules, obs, action)
    if kind == "settle":
        return 4.0
    if kind in ("overflow", "launder_discard"):
        return 3.0 * money[action[1]].dirty - money[action[1]].value
    if kind == "trade":
        if not action[2]:
            return 0.0
        take, give = money[action[2]], money[action[3]]
        return take.value - give.value + 2 * (give.dirty - take.dirty)
    if kind in ("target", "trade_with"):
        return float(obs.table.hand_sizes[action[1]])
    if kind == "banana":
        return 1.0 + obs.table.blacklists[obs.seat]
    if kind == "launder":
        return 1.0
    if kind == "resolve":
        return 1.0 if money[action[1]].effect.startswith("audit") else 0.0
    return 0.0


def _visit_value(
    rules: DirtyMoneyRules, obs: DirtyMoneyObservation, location_id: str, decision: Decision
) -> float:
    """Half the cash to pick up (money is only a means), action cards a little, minus cards the hand
    limit would blacklist, plus the best placement card the hand could then buy there (buying is
    what scores and ends the game)."""
    money = rules.money
    spot = table_lookups(obs.table)[0][location_id]
    cash_cards = [card_id for card_id in spot if not money[card_id].is_action]
    cash = sum(money[card_id].value for card_id in cash_cards)
    over = max(0, len(obs.hand) + len(cash_cards) - obs.hand_limit)
    loc = rules.location_by_id[location_id]
    bonus = 0.0
    if loc.effect == "banana_republic":
        bonus = 0.5 + (2.0 if obs.table.blacklists[obs.seat] else 0.0)
    purchase = _best_purchase(rules, obs, loc, cash_cards, decision)
    return 0.5 * cash + 0.5 * (len(spot) - len(cash_cards)) - 3 * over + bonus + purchase


def _sale_piles(rules: DirtyMoneyRules, obs: DirtyMoneyObservation, loc: Location) -> list[str]:
    """The piles a visit to `loc` lets this seat buy from."""
    if loc.effect == "region_market" and loc.buy_limit > 0:
        return [f"display:{loc.region}"]
    if loc.effect == "black_market" and loc.buy_limit > 0:
        return [pile for pile, _cards in obs.table.displays if pile.startswith("display:")]
    if loc.effect == "auction_house" and loc.buy_limit > 0:
        return ["auction"]
    if loc.effect == "banana_republic" and _villain_value(rules, obs, "wall_street_bear") is not None:
        return ["bear"]
    return []


def _exchange_discounts(
    rules: DirtyMoneyRules, obs: DirtyMoneyObservation, decision: Decision
) -> dict[str, int]:
    """Region -> what the seat's own crypto exchanges take off a placement card's price."""
    discounts = decision.discounts
    if discounts is None:
        discounts = decision.discounts = {}
        for card_id in obs.table.tableaux[obs.seat]:
            owned = rules.placements[card_id]
            if owned.effect == "crypto_exchange":
                discounts[owned.region] = discounts.get(owned.region, 0) + owned.value
    return discounts


def _best_purchase(
    rules: DirtyMoneyRules,
    obs: DirtyMoneyObservation,
    loc: Location,
    cash_cards: list[str],
    decision: Decision,
) -> float:
    """The greedy value of the best card on sale at `loc` that the hand and `cash_cards` can pay
    for, or 0."""
    piles = _sale_piles(rules, obs, loc)
    if not piles:
        return 0.0
    on_sale = table_lookups(obs.table)[1]
    placements = rules.placements
    discounts = _exchange_discounts(rules, obs, decision)
    power: dict[str, int] = {}
    best = 0.0
    for pile in piles:
        for card_id in on_sale.get(pile, ()):
            placement = placements[card_id]
            currency = REGION_CURRENCY[placement.region]
            if currency not in power:
                power[currency] = _buying_power(rules, obs, cash_cards, currency, decision)
            if power[currency] >= max(0, placement.cost - discounts.get(placement.region, 0)):
                best = max(best, _kept_pick_value(rules, obs, placement, decision.picks))
    return best


def _buying_power(
    rules: DirtyMoneyRules,
    obs: DirtyMoneyObservation,
    cash_cards: list[str],
    currency: str,
    decision: Decision,
) -> int:
    """The most the hand and `cash_cards` pay toward a price in `currency` (the Loan Shark's $2
    included); the hand's own part is summed once per decision."""
    hand = decision.hand_pays.get(currency)
    if hand is None:
        value_of = rules.pay_values(obs.table.villains[obs.seat], currency)
        values = [value_of[card_id] for card_id in obs.hand]
        shark = _villain_value(rules, obs, "loan_shark")
        hand = decision.hand_pays[currency] = (sum(values), min(values) if values else None, value_of, shark)
    total, low, value_of, shark = hand
    for card_id in cash_cards:
        value = value_of[card_id]
        total += value
        if low is None or value < low:
            low = value
    bonus = max(0, shark - low) if shark and low is not None else 0
    return total + bonus


def _kept_pick_value(
    rules: DirtyMoneyRules, obs: DirtyMoneyObservation, placement: Placement, picks: dict[str, float]
) -> float:
    """`_pick_value`, worked out once per card for the decision `picks` belongs to."""
    value = picks.get(placement.id)
    if value is None:
        value = picks[placement.id] = _pick_value(rules, obs, placement)
    return value


def _pick_value(rules: DirtyMoneyRules, obs: DirtyMoneyObservation, placement: Placement) -> float:
    """A placement card's worth: a card towards the end target, its points, its effect, less its cost."""
    return 10 + placement.points + _effect_guess(rules, obs, placement) - 0.5 * placement.cost


def _payment_value(rules: DirtyMoneyRules, obs: DirtyMoneyObservation, action: Any) -> float:
    """Pay with dirty money first, without overpaying, unless the Embezzler gains by it."""
    purchase = obs.purchase
    assert purchase is not None
    _kind, card_id, use_shark = action
    shark = _villain_value(rules, obs, "loan_shark") or 0
    value = shark if use_shark else rules.pay_values(obs.table.villains[obs.seat], purchase.currency)[card_id]
    need = purchase.due - purchase.paid
    dirty = rules.money[card_id].dirty
    embezzler = _villain_value(rules, obs, "embezzler")
    if need <= 0:
        hits = embezzler is not None and -need < embezzler <= value - need
        return (5.0 if hits else -5.0) + 2 * dirty
    return 5 + 2 * dirty - max(0, value - need) - 0.1 * value


def _effect_guess(rules: DirtyMoneyRules, obs: DirtyMoneyObservation, placement: Placement) -> float:
    """Rough end-game worth of a placement card's effect."""
    mine = [rules.placements[card_id] for card_id in obs.table.tableaux[obs.seat]]
    if placement.effect == "art":
        arts = sum(1 for pl in mine if pl.effect == "art")
        return art_set_score(arts + 1, rules.art_table) - art_set_score(arts, rules.art_table)
    if placement.effect == "restaurant_chain":
        return sum(1 for pl in mine if pl.region == placement.region) + 1
    return 2.0
