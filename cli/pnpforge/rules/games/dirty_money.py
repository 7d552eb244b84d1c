"""Rules engine for Dirty Money: The Money Laundering Game (洗钱), 2–5 players.

Everything the engine knows about cards comes from the database: placement cards
(region, cost, printed points, effect + effect_value, the art set table), locations
(player count, region, display size, buy limit), currency cards (currency, value, dirty
marks), action cards (effect, amount) and villains (order, effect, effect_value).  The
numbers that are rules rather than cards (hand limit 7, end at 10 / 8 placement cards,
location refills 1 / 2 up to 4, the extra −2 blacklist penalty) are constants below.

How the state works: a stack of small data-only `Frame`s is the program counter.  Each
frame kind has an actor function (a seat, CHANCE, or AUTO for bookkeeping that needs no
decision), a legal-action function and an apply function; `_advance()` runs AUTO frames
until a decision or a chance draw is due.  Every draw from a deck (money, placement,
villain, the random cards of an inspection) is an explicit chance node whose outcomes are
card ids weighted by the copies left, so a game is a pure function of its seed.

Readings where the rulebook is silent or ambiguous (each is one line to change):
* The money deck is reshuffled from the discard pile when it runs out.
* "弃卡" markers (blacklist, cards under placement cards, the overpay slot) come from the
  top of the discard pile, else from the money deck (恶棍卡 text).
* A crypto exchange discounts placement cards of its own region, wherever bought; a card's
  own effect does not trigger on its own purchase (a casino does not tuck for itself).
* Accounting firms, like law firms, each take a discard per audit.
* Each digital bank scores its own 1 point per card in hand.
* Blacklist: when every player ties, the tie counts as lowest (no −2 for anyone).
* The Launderer acts at the end of each of its own turns; the Loan Shark's $2 is once per
  turn; the Wall Street Bear chooses a region deck for each of its 3 cards and may buy
  one of them per visit to the Banana Republic.
* A game also ends after a round in which no placement card is left to buy, or after
  `max_rounds` rounds (a safety net reported as its own end reason).
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Hashable

from pnpforge.errors import PnpError
from pnpforge.rules.engine import (CHANCE, TERMINAL, CardInstance, GameInfo, GameRules,
                                   RuleViolation, State, UnknownEffect)
from pnpforge.store import repo

SLUG = "dirty-money"
AUTO = -99                 # internal actor: the frame resolves without a decision

HAND_LIMIT = 7             # 游戏玩法 a): at most 7 money cards in hand
END_TARGET = 10            # 游戏结束: 10 placement cards trigger the last round
QUICK_TARGET = 8           # 快速模式
SETUP_SPOT = 2             # 游戏设定 5: two money cards under each location
REFILL_EMPTY = 2           # 回合结束 2: an empty location gets two cards
REFILL_SOME = 1            # 回合结束 1: a location with cards gets one more …
SPOT_CAP = 4               # … up to four
START_HAND = 3             # 游戏设定 3
LAST_PLAYER_EXTRA = 1      # 游戏设定 4
BLACKLIST_EXTRA = 2        # 最终得分: the highest loses 2 more
EMBEZZLER_POINTS = 1       # 贪污鼠: each card in the overpay slot scores 1
SELECTION_DISPLAY = 3      # 选择模式: three placement cards above a region location
MAX_ROUNDS = 60            # safety net only; real games end long before

REGION_CURRENCY = {"欧洲": "EUR", "日本": "JPY", "美国": "USD"}
REGIONS = tuple(REGION_CURRENCY)
CRYPTO = "CRYPTO"

PLACEMENT_EFFECTS = ("art", "art_gallery", "accounting_firm", "casino", "crypto_exchange",
                     "charity", "digital_bank", "law_firm", "remittance", "restaurant_chain")
ACTION_EFFECTS = ("inspect_neighbours", "inspect_one", "audit_most_dirty", "audit_threshold",
                  "trade", "bribe")
VILLAIN_EFFECTS = ("launderer", "embezzler", "crypto_fox", "wall_street_bear", "loan_shark")
LOCATION_EFFECTS = ("region_market", "banana_republic", "black_market", "auction_house")
# Effects whose number lives in effect_value (art uses set_scores instead).
_NEEDS_VALUE = {"art_gallery", "accounting_firm", "casino", "crypto_exchange", "charity",
                "digital_bank", "law_firm", "remittance", "restaurant_chain",
                "launderer", "embezzler", "crypto_fox", "wall_street_bear", "loan_shark"}
_TUCK_EFFECTS = ("accounting_firm", "casino", "law_firm")


# ---- static card data -------------------------------------------------------------------

@dataclass(frozen=True)
class Placement:
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
    id: str
    name: str
    effect: str
    min_players: int
    region: str | None
    display: int
    buy_limit: int


@dataclass(frozen=True)
class Villain:
    id: str
    name: str
    order: int
    effect: str
    value: int


def _field(card, name: str, *, required: bool = True, default: Any = None,
           kind: type = int) -> Any:
    """A card field of the expected type, or a PnpError naming the card and field."""
    value = card.fields.get(name)
    if value is None:
        if required:
            raise PnpError(f"{SLUG} card {card.id}: field '{name}' is missing "
                           f"(the rules engine needs it)")
        return default
    if kind is int and (isinstance(value, bool) or not isinstance(value, int)):
        raise PnpError(f"{SLUG} card {card.id}: field '{name}' must be a whole number, "
                       f"got {value!r}")
    if kind is str and not isinstance(value, str):
        raise PnpError(f"{SLUG} card {card.id}: field '{name}' must be text, got {value!r}")
    return value


def _effect_value(card, effect: str, known: tuple[str, ...]) -> int:
    needs = effect in _NEEDS_VALUE and effect in known
    return _field(card, "effect_value", required=needs, default=0)


def _parse_set_scores(card) -> tuple[int, ...]:
    raw = _field(card, "set_scores", kind=str)
    try:
        table = tuple(int(x) for x in raw.replace("，", ",").split(",") if x.strip())
    except ValueError:
        raise PnpError(f"{SLUG} card {card.id}: set_scores must be comma-separated whole "
                       f"numbers (e.g. 2,5,9,14,20), got {raw!r}") from None
    if not table:
        raise PnpError(f"{SLUG} card {card.id}: set_scores is empty")
    return table


def _bool_option(options: dict, key: str) -> bool:
    value = options.get(key, False)
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in ("true", "1", "yes"):
        return True
    if text in ("false", "0", "no", ""):
        return False
    raise PnpError(f"{SLUG} option {key}: expected true or false, got {value!r}")


def art_set_score(count: int, table: tuple[int, ...]) -> int:
    """Best split of `count` art cards into sets of at most len(table) (a DP, not greedy)."""
    best = [0] * (count + 1)
    for k in range(1, count + 1):
        best[k] = max(table[s - 1] + best[k - s] for s in range(1, min(len(table), k) + 1))
    return best[count]


# ---- rules -------------------------------------------------------------------------------

class DirtyMoneyRules(GameRules):
    """The game's cards and options, read once from the database."""

    def __init__(self, placements: list[Placement], money: list[Money],
                 locations: list[Location], villains: list[Villain],
                 art_table: tuple[int, ...], options: dict, players: tuple[int, int]) -> None:
        self.placements = {p.id: p for p in placements}
        self.money = {m.id: m for m in money}
        self.locations = locations
        self.location_by_id = {loc.id: loc for loc in locations}
        self.villains = {v.id: v for v in villains}
        self.art_table = art_table
        self.quick = _bool_option(options, "quick")
        self.selection = _bool_option(options, "selection")
        try:
            self.max_rounds = int(options.get("max_rounds", MAX_ROUNDS))
        except (TypeError, ValueError):
            raise PnpError(f"{SLUG} option max_rounds: expected a whole number, "
                           f"got {options.get('max_rounds')!r}") from None
        if self.max_rounds < 1:
            raise PnpError(f"{SLUG} option max_rounds must be at least 1")
        self.end_target = QUICK_TARGET if self.quick else END_TARGET
        self.info = GameInfo(slug=SLUG, players_min=players[0], players_max=players[1],
                             max_steps=self.max_rounds * players[1] * 80,
                             options=dict(options))
        self._unknown = self._find_unknown()

    def _find_unknown(self) -> list[UnknownEffect]:
        out = [UnknownEffect(p.id, p.effect) for p in self.placements.values()
               if p.effect not in PLACEMENT_EFFECTS]
        out += [UnknownEffect(m.id, m.effect) for m in self.money.values()
                if m.is_action and m.effect not in ACTION_EFFECTS]
        out += [UnknownEffect(v.id, v.effect) for v in self.villains.values()
                if v.effect not in VILLAIN_EFFECTS]
        out += [UnknownEffect(loc.id, loc.effect) for loc in self.locations
                if loc.effect not in LOCATION_EFFECTS]
        return out

    def unknown_effects(self) -> list[UnknownEffect]:
        return list(self._unknown)

    def deck(self) -> list[CardInstance]:
        out: list[CardInstance] = []
        for group in (self.placements.values(), self.money.values()):
            for c in group:
                out += [CardInstance(c.id, i) for i in range(c.copies)]
        out += [CardInstance(loc.id, 0) for loc in self.locations]
        out += [CardInstance(v.id, 0) for v in self.villains.values()]
        return out

    def locations_for(self, players: int) -> list[Location]:
        """Europe, USA, Japan, Banana Republic always; Black Market 4+; Auction House 5."""
        return [loc for loc in self.locations
                if loc.min_players <= players and loc.effect in LOCATION_EFFECTS]

    def new_initial_state(self, players: int,
                          rng: random.Random | None = None) -> "DirtyMoneyState":
        if not self.info.players_min <= players <= self.info.players_max:
            raise PnpError(f"{SLUG} is for {self.info.players_min}–{self.info.players_max} "
                           f"players, not {players}")
        if len(self.villains) < players:
            raise PnpError(f"{SLUG}: {players} players need {players} villain cards, "
                           f"the database has {len(self.villains)}")
        return DirtyMoneyState(self, players)


def make_rules(db, options: dict | None = None) -> DirtyMoneyRules:
    """Bind the engine to the database's cards (an edit changes the next check)."""
    options = dict(options or {})
    unknown = set(options) - {"quick", "selection", "max_rounds"}
    if unknown:
        raise PnpError(f"{SLUG}: unknown option(s) {', '.join(sorted(unknown))} "
                       f"(allowed: quick, selection, max_rounds)")
    game = repo.get_game(db, SLUG)
    placements, money, locations, villains = [], [], [], []
    art_tables: dict[tuple[int, ...], str] = {}
    for c in repo.list_cards(db, SLUG):
        if c.type == "placement":
            effect = _field(c, "effect", kind=str)
            region = _field(c, "region", kind=str)
            if region not in REGION_CURRENCY:
                raise PnpError(f"{SLUG} card {c.id}: region {region!r} is not one of "
                               f"{', '.join(REGIONS)}")
            placements.append(Placement(c.id, c.name, c.copies, region, _field(c, "cost"),
                                        _field(c, "points", required=False, default=0), effect,
                                        _effect_value(c, effect, PLACEMENT_EFFECTS)))
            if effect == "art":
                art_tables.setdefault(_parse_set_scores(c), c.id)
        elif c.type == "currency":
            money.append(Money(c.id, c.name, c.copies, False, _field(c, "currency", kind=str),
                               _field(c, "value"), _field(c, "dirty", required=False, default=0)))
        elif c.type == "action":
            money.append(Money(c.id, c.name, c.copies, True, effect=_field(c, "effect", kind=str),
                               amount=_field(c, "amount", required=False, default=1)))
        elif c.type == "location":
            effect = _field(c, "effect", kind=str)
            region = _field(c, "region", required=effect == "region_market", kind=str)
            if region is not None and region not in REGION_CURRENCY:
                raise PnpError(f"{SLUG} card {c.id}: region {region!r} is not one of "
                               f"{', '.join(REGIONS)}")
            locations.append(Location(c.id, c.name, effect, _field(c, "min_players"), region,
                                      _field(c, "display", required=False, default=0),
                                      _field(c, "buy_limit", required=False, default=1)))
        elif c.type == "villain":
            effect = _field(c, "effect", kind=str)
            villains.append(Villain(c.id, c.name, _field(c, "order"), effect,
                                    _effect_value(c, effect, VILLAIN_EFFECTS)))
    if len(art_tables) > 1:
        raise PnpError(f"{SLUG}: art cards disagree on set_scores "
                       f"({'; '.join(f'{k} on {v}' for k, v in art_tables.items())})")
    art_table = next(iter(art_tables), (0,))
    return DirtyMoneyRules(placements, money, locations, villains, art_table, options,
                           (game.players_min, game.players_max))


# ---- state -------------------------------------------------------------------------------

@dataclass
class Frame:
    """One pending step of the game's procedure (data only, so states deep-copy)."""

    kind: str
    p: int = -1
    step: int = 0
    d: dict = field(default_factory=dict)


class DirtyMoneyView:
    """What one seat may use: its own hand and public facts, plus the greedy hook."""

    def __init__(self, state: "DirtyMoneyState", seat: int) -> None:
        self._state = state
        self.seat = seat
        self.hand = sorted(c.card for c in state.z[f"hand:{seat}"])
        self.hand_sizes = [len(state.z[f"hand:{q}"]) for q in range(state.n)]
        self.blacklists = [len(state.z[f"blacklist:{q}"]) for q in range(state.n)]

    def greedy_value(self, action: Hashable) -> float:
        return self._state.greedy_value(action, self.seat)


class DirtyMoneyState(State):
    """One position of a Dirty Money game."""

    def __init__(self, rules: DirtyMoneyRules, players: int) -> None:
        self.r = rules
        self.n = players
        self.z: dict[str, list[CardInstance]] = {}
        self.ledger: Counter = Counter()    # markers counted as they are placed (scoring path 1)
        self.villain_of: list[str | None] = [None] * players
        self.in_play = rules.locations_for(players)
        self.marker = 0                     # first-player marker holder
        self.round = 0
        self.round_order: list[int] = []
        self.shark_used = False
        self.terminal = False
        self.reason = ""
        self.played: list[str] = []
        self.stack: list[Frame] = []
        self._lay_out()
        self._advance()

    # ---- zones and small helpers ----------------------------------------------------------

    def _zone(self, name: str) -> list[CardInstance]:
        return self.z.setdefault(name, [])

    def _lay_out(self) -> None:
        r = self.r
        for name in ["box", "villain_pool", "money_deck", "action_setup", "discard", "auction",
                     "bear", "resolving", "payment"]:
            self.z[name] = []
        for region in REGIONS:
            self.z[f"pdeck:{region}"] = []
            self.z[f"display:{region}"] = []
        for q in range(self.n):
            for kind in ("villain", "hand", "blacklist", "tableau", "overpay", "pending"):
                self.z[f"{kind}:{q}"] = []
        for loc in self.in_play:
            self.z[f"spot:{loc.id}"] = []
        in_play = {loc.id for loc in self.in_play}
        for inst in r.deck():
            if inst.card in r.placements:
                self.z[f"pdeck:{r.placements[inst.card].region}"].append(inst)
            elif inst.card in r.money:
                pile = "action_setup" if r.money[inst.card].is_action else "money_deck"
                self.z[pile].append(inst)
            elif inst.card in r.villains:
                self.z["villain_pool"].append(inst)
            else:
                self._zone("locations" if inst.card in in_play else "box").append(inst)
        self._zone("locations")
        self.stack = [Frame("after_villains")] + [Frame("deal_villain", p=q)
                                                  for q in reversed(range(self.n))]

    def _move(self, inst: CardInstance, src: str, dst: str) -> None:
        self.z[src].remove(inst)
        self._zone(dst).append(inst)

    def _first(self, zone: str, card_id: str, exclude: tuple = ()) -> CardInstance:
        cands = [c for c in self.z.get(zone, []) if c.card == card_id and str(c) not in exclude]
        if not cands:
            raise RuleViolation(f"no {card_id} in {zone}")
        return min(cands, key=lambda c: c.copy)

    def _ids(self, zone: str) -> list[str]:
        return sorted({c.card for c in self.z.get(zone, [])})

    def _villain(self, p: int) -> Villain | None:
        vid = self.villain_of[p]
        return self.r.villains.get(vid) if vid else None

    def _has(self, p: int, effect: str) -> Villain | None:
        v = self._villain(p)
        return v if v is not None and v.effect == effect else None

    def _owned(self, p: int, effect: str) -> list[tuple[CardInstance, Placement]]:
        return [(c, self.r.placements[c.card]) for c in self.z[f"tableau:{p}"]
                if self.r.placements[c.card].effect == effect]

    def hand_limit(self, p: int) -> int:
        return HAND_LIMIT + sum(pl.value for _c, pl in self._owned(p, "digital_bank"))

    def crypto_value(self, p: int, card: Money) -> int:
        fox = self._has(p, "crypto_fox")
        return fox.value if fox else card.value

    def dirt(self, p: int) -> int:
        return sum(self.r.money[c.card].dirty for c in self.z[f"hand:{p}"])

    def money_in_hand(self, p: int) -> int:
        """Face value of a hand (crypto as its holder values it): the first tie-breaker."""
        total = 0
        for c in self.z[f"hand:{p}"]:
            m = self.r.money[c.card]
            total += self.crypto_value(p, m) if m.currency == CRYPTO else m.value
        return total

    def _add_marker(self, inst: CardInstance, src: str, dst: str) -> None:
        self._move(inst, src, dst)
        self.ledger[dst] += 1

    def _marker(self, dst: str) -> None:
        """Put one '弃卡' at dst: the discard pile's top, else a draw from the money deck."""
        if self.z["discard"]:
            self._add_marker(self.z["discard"][-1], "discard", dst)
        else:
            self.stack.append(Frame("draw_money", d={"dest": dst, "mode": "marker"}))

    def _pop(self, f: Frame) -> None:
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i] is f:
                del self.stack[i]
                return
        raise RuleViolation(f"frame {f.kind} is not on the stack")

    def _push_seq(self, frames: list[Frame]) -> None:
        """Push frames so that they run in list order."""
        self.stack.extend(reversed(frames))

    # ---- engine interface ------------------------------------------------------------------

    def current_player(self) -> int:
        if self.terminal:
            return TERMINAL
        return self._actor(self.stack[-1])

    def is_terminal(self) -> bool:
        return self.terminal

    def legal_actions(self) -> list[Hashable]:
        if self.terminal:
            return []
        f = self.stack[-1]
        return sorted(getattr(self, f"_legal_{f.kind}")(f))

    def chance_outcomes(self) -> list[tuple[Hashable, float]]:
        f = self.stack[-1]
        weights = Counter(c.card for c in self._chance_pool(f))
        total = sum(weights.values())
        return [(cid, weights[cid] / total) for cid in sorted(weights)]

    def apply(self, action: Hashable) -> None:
        if self.terminal:
            raise RuleViolation("the game is over")
        f = self.stack[-1]
        if action not in self.legal_actions():
            raise RuleViolation(f"illegal action {action!r} in {f.kind} "
                                f"(player {self.current_player()})")
        getattr(self, f"_apply_{f.kind}")(f, action)
        self._advance()

    def _actor(self, f: Frame) -> int:
        return getattr(self, f"_actor_{f.kind}")(f)

    def _advance(self) -> None:
        guard = 0
        while self.stack and self._actor(self.stack[-1]) == AUTO:
            f = self.stack[-1]
            getattr(self, f"_apply_{f.kind}")(f, None)
            guard += 1
            if guard > 10_000:
                raise RuleViolation(f"automatic steps do not settle (at {f.kind})")
        if not self.stack and not self.terminal:
            raise RuleViolation("no pending step but the game is not over")

    def zones(self) -> dict[str, list[CardInstance]]:
        return {k: list(v) for k, v in self.z.items()}

    def hidden_view(self, seat: int) -> DirtyMoneyView:
        return DirtyMoneyView(self, seat)

    def end_reason(self) -> str:
        return self.reason

    def cards_played(self) -> list[str]:
        return list(self.played)

    def phase(self) -> str:
        """The pending step's kind ('turn', 'buy', 'hand_limit', …) or 'over'."""
        return self.stack[-1].kind if self.stack else "over"

    # ---- building positions (tests, worked examples) -----------------------------------------

    _SUPPLY_FIRST = ("money_deck", "pdeck:", "discard", "action_setup")

    def place(self, card_id: str, zone: str) -> CardInstance:
        """Move one copy of `card_id` from wherever it lies (supplies first) into `zone`.

        For setting up worked examples; every card stays in exactly one zone and the
        marker ledger follows blacklist / under-card / overpay moves.
        """
        names = sorted((n for n in self.z if n != zone),
                       key=lambda n: (not n.startswith(self._SUPPLY_FIRST), n))
        for name in names:
            cands = [c for c in self.z[name] if c.card == card_id]
            if cands:
                inst = min(cands, key=lambda c: c.copy)
                self._relocate(inst, name, zone)
                return inst
        raise PnpError(f"{SLUG}: no copy of card '{card_id}' outside {zone}")

    def clear(self, zone: str) -> None:
        """Return every card in `zone` to its supply (money deck or region deck)."""
        for inst in list(self.z.get(zone, [])):
            pl = self.r.placements.get(inst.card)
            self._relocate(inst, zone, f"pdeck:{pl.region}" if pl else "money_deck")

    @staticmethod
    def _is_marker_zone(name: str) -> bool:
        return name.startswith(("blacklist:", "under:", "overpay:"))

    def _relocate(self, inst: CardInstance, src: str, dst: str) -> None:
        self._move(inst, src, dst)
        if self._is_marker_zone(src):
            self.ledger[src] -= 1
        if self._is_marker_zone(dst):
            self.ledger[dst] += 1

    # ---- chance pools ------------------------------------------------------------------------

    def _chance_pool(self, f: Frame) -> list[CardInstance]:
        if f.kind == "deal_villain":
            return self.z["villain_pool"]
        if f.kind == "draw_placement":
            return self.z[f"pdeck:{f.d['region']}"]
        if f.kind == "inspect":
            seen = set(f.d["seen"])
            return [c for c in self.z[f"hand:{f.d['target']}"] if str(c) not in seen]
        return self.z["money_deck"]

    def _legal_chance(self, f: Frame) -> list[str]:
        return sorted({c.card for c in self._chance_pool(f)})

    def _money_actor(self) -> int:
        """Draws from the money deck are chance; an empty deck first needs a reshuffle."""
        return CHANCE if self.z["money_deck"] else AUTO

    def _reshuffle(self) -> bool:
        """Discard pile becomes the money deck; False when both are empty."""
        if not self.z["discard"]:
            return False
        self.z["money_deck"].extend(self.z["discard"])
        self.z["discard"] = []
        return True

    # ---- set-up ----------------------------------------------------------------------------

    def _actor_deal_villain(self, f: Frame) -> int:
        return CHANCE

    _legal_deal_villain = _legal_chance

    def _apply_deal_villain(self, f: Frame, action: str) -> None:
        self._move(self._first("villain_pool", action), "villain_pool", f"villain:{f.p}")
        self.villain_of[f.p] = action
        self._pop(f)

    def _actor_after_villains(self, f: Frame) -> int:
        return AUTO

    def _apply_after_villains(self, f: Frame, action: None) -> None:
        """Set-up steps 2–5 once the villains (and so the first player) are known."""
        self._pop(f)
        for inst in list(self.z["villain_pool"]):
            self._move(inst, "villain_pool", "box")
        self.marker = min(range(self.n), key=lambda q: (self._villain(q).order, q))
        seq: list[Frame] = []
        for loc in self.in_play:
            if loc.effect == "region_market":
                k = SELECTION_DISPLAY if self.r.selection else loc.display
                seq += [Frame("draw_placement", d={"region": loc.region,
                                                   "dest": f"display:{loc.region}"})
                        for _ in range(k)]
            elif loc.effect == "auction_house":
                seq += [Frame("draw_placement", d={"region": region, "dest": "auction"})
                        for region in REGIONS]
        for q in range(self.n):
            bear = self._has(q, "wall_street_bear")
            if bear and self._bear_location():
                seq.append(Frame("bear_choose", p=q, d={"left": bear.value}))
        order = [(self.marker + i) % self.n for i in range(self.n)]
        for q in order:
            seq += [Frame("draw_money", p=q, d={"dest": f"hand:{q}", "mode": "deal"})
                    for _ in range(START_HAND)]
        seq += [Frame("draw_money", p=order[-1], d={"dest": f"hand:{order[-1]}", "mode": "deal"})
                for _ in range(LAST_PLAYER_EXTRA)]
        seq.append(Frame("merge_actions"))
        for loc in self.in_play:
            seq += [Frame("draw_money", d={"dest": f"spot:{loc.id}", "mode": "spot"})
                    for _ in range(SETUP_SPOT)]
        seq.append(Frame("round"))
        self._push_seq(seq)

    def _bear_location(self) -> Location | None:
        return next((loc for loc in self.in_play if loc.effect == "banana_republic"), None)

    def _actor_bear_choose(self, f: Frame) -> int:
        return f.p if any(self.z[f"pdeck:{r}"] for r in REGIONS) else AUTO

    def _legal_bear_choose(self, f: Frame) -> list:
        return [("bear_region", r) for r in REGIONS if self.z[f"pdeck:{r}"]]

    def _apply_bear_choose(self, f: Frame, action: tuple | None) -> None:
        if action is None:
            self._pop(f)
            return
        f.d["left"] -= 1
        if f.d["left"] <= 0:
            self._pop(f)
        self.stack.append(Frame("draw_placement", d={"region": action[1], "dest": "bear"}))

    def _actor_merge_actions(self, f: Frame) -> int:
        return AUTO

    def _apply_merge_actions(self, f: Frame, action: None) -> None:
        self._pop(f)
        self.z["money_deck"].extend(self.z["action_setup"])
        self.z["action_setup"] = []

    # ---- draws -------------------------------------------------------------------------------

    def _actor_draw_placement(self, f: Frame) -> int:
        return CHANCE if self.z[f"pdeck:{f.d['region']}"] else AUTO

    _legal_draw_placement = _legal_chance

    def _apply_draw_placement(self, f: Frame, action: str | None) -> None:
        self._pop(f)
        if action is not None:
            src = f"pdeck:{f.d['region']}"
            self._move(self._first(src, action), src, f.d["dest"])

    def _actor_draw_money(self, f: Frame) -> int:
        return self._money_actor()

    _legal_draw_money = _legal_chance

    def _apply_draw_money(self, f: Frame, action: str | None) -> None:
        if action is None:
            if not self._reshuffle():
                self._pop(f)          # nothing left to draw anywhere
            return
        self._pop(f)
        inst = self._first("money_deck", action)
        mode, p = f.d["mode"], f.p
        if mode == "marker":
            self._add_marker(inst, "money_deck", f.d["dest"])
        elif mode == "gallery":
            if self.r.money[inst.card].is_action:
                self._move(inst, "money_deck", "resolving")
                self.stack.append(Frame("resolve_card", p=p,
                                        d={"card": str(inst), "id": inst.card}))
            else:
                self._move(inst, "money_deck", f"hand:{p}")
                self.stack.append(Frame("hand_limit", p=p))
        else:
            self._move(inst, "money_deck", f.d["dest"])

    # ---- rounds and turns -------------------------------------------------------------------

    def _actor_round(self, f: Frame) -> int:
        return AUTO

    def _apply_round(self, f: Frame, action: None) -> None:
        if not f.d:
            self.round += 1
            f.d["order"] = [(self.marker + i) % self.n for i in range(self.n)]
            f.d["idx"] = 0
            self.round_order = list(f.d["order"])
        if f.d["idx"] < self.n:
            p = f.d["order"][f.d["idx"]]
            f.d["idx"] += 1
            self.shark_used = False
            self.stack.append(Frame("turn", p=p))
            return
        self._pop(f)
        self._end_of_round()

    def _end_of_round(self) -> None:
        """Game-end check, else 回合结束 refills and the next round."""
        if max(len(self.z[f"tableau:{q}"]) for q in range(self.n)) >= self.r.end_target:
            self._finish("placement target")
            return
        if not self._placements_left():
            self._finish("placements exhausted")
            return
        if self.round >= self.r.max_rounds:
            self._finish("round cap")
            return
        seq: list[Frame] = []
        for loc in self.in_play:
            have = len(self.z[f"spot:{loc.id}"])
            add = REFILL_EMPTY if have == 0 else min(REFILL_SOME, max(0, SPOT_CAP - have))
            seq += [Frame("draw_money", d={"dest": f"spot:{loc.id}", "mode": "spot"})
                    for _ in range(add)]
        for loc in self.in_play:
            if loc.effect == "region_market":
                want = SELECTION_DISPLAY if self.r.selection else loc.display
                need = want - len(self.z[f"display:{loc.region}"])
                seq += [Frame("draw_placement", d={"region": loc.region,
                                                   "dest": f"display:{loc.region}"})
                        for _ in range(max(0, need))]
            elif loc.effect == "auction_house":
                there = {self.r.placements[c.card].region for c in self.z["auction"]}
                seq += [Frame("draw_placement", d={"region": region, "dest": "auction"})
                        for region in REGIONS if region not in there]
        seq.append(Frame("round"))
        self._push_seq(seq)

    def _placements_left(self) -> bool:
        zones = [f"pdeck:{r}" for r in REGIONS] + [f"display:{r}" for r in REGIONS]
        zones += ["auction"] + (["bear"] if any(self._has(q, "wall_street_bear")
                                               for q in range(self.n)) else [])
        return any(self.z[zn] for zn in zones)

    def _finish(self, reason: str) -> None:
        self.terminal = True
        self.reason = reason
        self.stack = []

    def _actor_turn(self, f: Frame) -> int:
        return f.p if f.step == 0 else AUTO

    def _legal_turn(self, f: Frame) -> list:
        # 常见问题 1: only a location that still has money cards can be visited.
        open_ = [("go", loc.id) for loc in self.in_play if self.z[f"spot:{loc.id}"]]
        return open_ or [("pass",)]

    def _apply_turn(self, f: Frame, action: tuple | None) -> None:
        p = f.p
        if f.step == 0:
            if action == ("pass",):
                f.step = 2
                return
            loc = action[1]
            f.d["loc"] = loc
            f.step = 1
            # Take every card there (常见问题 2): money to hand, actions to be resolved.
            for inst in list(self.z[f"spot:{loc}"]):
                dst = f"pending:{p}" if self.r.money[inst.card].is_action else f"hand:{p}"
                self._move(inst, f"spot:{loc}", dst)
            self._push_seq([Frame("hand_limit", p=p), Frame("resolve_actions", p=p)])
        elif f.step == 1:
            f.step = 2
            self.stack.append(Frame("location", p=p, d={"loc": f.d["loc"]}))
        elif f.step == 2:
            f.step = 3
            launderer = self._has(p, "launderer")
            if launderer:
                self.stack.append(Frame("launder", p=p, d={"left": launderer.value}))
        else:
            self._pop(f)

    # ---- hand limit --------------------------------------------------------------------------

    def _actor_hand_limit(self, f: Frame) -> int:
        return f.p if len(self.z[f"hand:{f.p}"]) > self.hand_limit(f.p) else AUTO

    def _legal_hand_limit(self, f: Frame) -> list:
        return [("overflow", cid) for cid in self._ids(f"hand:{f.p}")]

    def _apply_hand_limit(self, f: Frame, action: tuple | None) -> None:
        if action is None:
            self._pop(f)
            return
        hand = f"hand:{f.p}"
        self._add_marker(self._first(hand, action[1]), hand, f"blacklist:{f.p}")

    # ---- action cards ----------------------------------------------------------------------

    def _actor_resolve_actions(self, f: Frame) -> int:
        return f.p if self.z[f"pending:{f.p}"] else AUTO

    def _legal_resolve_actions(self, f: Frame) -> list:
        return [("resolve", cid) for cid in self._ids(f"pending:{f.p}")]

    def _apply_resolve_actions(self, f: Frame, action: tuple | None) -> None:
        if action is None:
            self._pop(f)
            return
        inst = self._first(f"pending:{f.p}", action[1])
        self._move(inst, f"pending:{f.p}", "resolving")
        self.stack.append(Frame("resolve_card", p=f.p, d={"card": str(inst), "id": inst.card}))

    def _others(self, p: int) -> list[int]:
        return [q for q in range(self.n) if q != p]

    def _actor_resolve_card(self, f: Frame) -> int:
        effect = self.r.money[f.d["id"]].effect
        if f.step == 0 and effect in ("inspect_one", "trade"):
            return f.p
        return AUTO

    def _legal_resolve_card(self, f: Frame) -> list:
        p = f.p
        if self.r.money[f.d["id"]].effect == "inspect_one":
            return [("target", q) for q in self._others(p)]
        out = []
        mine = self._ids(f"hand:{p}")
        for q in self._others(p):
            theirs = self._ids(f"hand:{q}")
            if mine and theirs:
                out += [("trade", q, a, b) for a in theirs for b in mine]
            else:
                out.append(("trade", q, "", ""))    # look only (交易: no cards to give)
        return out

    def _apply_resolve_card(self, f: Frame, action: tuple | None) -> None:
        card = self.r.money[f.d["id"]]
        p = f.p
        if f.step == 1:
            self._finish_action(f, card)
            return
        f.step = 1
        effect = card.effect
        if effect == "bribe":
            self._drop_blacklist(p)
        elif effect in ("audit_most_dirty", "audit_threshold"):
            self._audit(p, card)
        elif effect == "inspect_neighbours":
            self._push_seq([Frame("inspect", p=p, d={"target": q, "left": k, "seen": []})
                            for q, k in self._neighbour_targets(p, card.amount)])
        elif effect == "inspect_one":
            self.stack.append(Frame("inspect", p=p, d={"target": action[1], "left": card.amount,
                                                       "seen": []}))
        elif effect == "trade":
            self._trade(p, action)

    def _finish_action(self, f: Frame, card: Money) -> None:
        """Discard the resolved card; law / accounting firms take their discard."""
        p = f.p
        self._pop(f)
        inst = next(c for c in self.z["resolving"] if str(c) == f.d["card"])
        self._move(inst, "resolving", "discard")
        self.played.append(card.id)
        self.stack.append(Frame("hand_limit", p=p))
        firm = {"inspect_neighbours": "law_firm", "inspect_one": "law_firm",
                "audit_most_dirty": "accounting_firm",
                "audit_threshold": "accounting_firm"}.get(card.effect)
        if firm:
            for inst_f, _pl in self._owned(p, firm):
                self._marker(f"under:{inst_f}")

    def _neighbour_targets(self, p: int, amount: int) -> list[tuple[int, int]]:
        """检查左右玩家: one card from each neighbour; 2 players: two from the opponent."""
        left, right = (p - 1) % self.n, (p + 1) % self.n
        if left == right:
            return [(left, amount * 2)]
        return [(left, amount), (right, amount)]

    def _audit(self, p: int, card: Money) -> None:
        others = self._others(p)
        dirt = {q: self.dirt(q) for q in others}
        if card.effect == "audit_most_dirty":
            top = max(dirt.values())
            caught = [q for q in others if top >= 1 and dirt[q] == top]
        else:
            caught = [q for q in others if dirt[q] >= card.amount]
        for q in caught:
            self._marker(f"blacklist:{q}")

    def _drop_blacklist(self, p: int) -> None:
        """贿赂 / 香蕉共和国: one blacklist card back to the discard pile (if any)."""
        zone = f"blacklist:{p}"
        if self.z[zone]:
            self._move(self.z[zone][-1], zone, "discard")
            self.ledger[zone] -= 1

    def _trade(self, p: int, action: tuple) -> None:
        _t, q, take, give = action
        if not take:
            return
        give_inst = self._first(f"hand:{p}", give)
        take_inst = self._first(f"hand:{q}", take)
        self._move(give_inst, f"hand:{p}", f"hand:{q}")
        self._move(take_inst, f"hand:{q}", f"hand:{p}")

    def _actor_inspect(self, f: Frame) -> int:
        return CHANCE if f.d["left"] > 0 and self._chance_pool(f) else AUTO

    _legal_inspect = _legal_chance

    def _apply_inspect(self, f: Frame, action: str | None) -> None:
        if action is None:
            self._pop(f)
            return
        q = f.d["target"]
        inst = self._first(f"hand:{q}", action, exclude=tuple(f.d["seen"]))
        f.d["seen"].append(str(inst))
        f.d["left"] -= 1
        if self.r.money[inst.card].dirty > 0:
            self._move(inst, f"hand:{q}", f"hand:{f.p}")
            self._marker(f"blacklist:{q}")

    # ---- locations ------------------------------------------------------------------------

    def _actor_location(self, f: Frame) -> int:
        loc = self.r.location_by_id[f.d["loc"]]
        return f.p if loc.effect == "banana_republic" and f.step == 0 else AUTO

    def _legal_location(self, f: Frame) -> list:
        return [("banana",), ("skip",)]

    def _apply_location(self, f: Frame, action: tuple | None) -> None:
        loc = self.r.location_by_id[f.d["loc"]]
        p = f.p
        if loc.effect == "banana_republic" and f.step == 0:
            f.step = 1
            if action == ("banana",):
                self._drop_blacklist(p)
                self.marker = p
            return
        self._pop(f)
        sources: list[str] = []
        limit = loc.buy_limit
        if loc.effect == "region_market":
            sources = [f"display:{loc.region}"]
        elif loc.effect == "black_market":
            sources = [f"display:{x.region}" for x in self.in_play if x.effect == "region_market"]
        elif loc.effect == "auction_house":
            sources = ["auction"]
        elif loc.effect == "banana_republic":
            bear = self._has(p, "wall_street_bear")
            if bear and self.z["bear"]:
                sources, limit = ["bear"], 1
        if sources and limit > 0:
            self.stack.append(Frame("buy", p=p, d={"sources": sources, "max": limit, "bought": 0,
                                                   "group": [], "paid": [], "value": 0}))

    # ---- buying -----------------------------------------------------------------------------

    def _group_cards(self, f: Frame) -> list[Placement]:
        return [self.r.placements[cid] for _zone, cid, _i in f.d["group"]]

    def due(self, p: int, cards: list[Placement]) -> int:
        """Total price of cards bought in this order (crypto exchanges bought first count)."""
        owned = [pl for _c, pl in self._owned(p, "crypto_exchange")]
        total = 0
        for pl in cards:
            discount = sum(x.value for x in owned if x.region == pl.region)
            total += max(0, pl.cost - discount)
            if pl.effect == "crypto_exchange":
                owned.append(pl)
        return total

    def pay_value(self, p: int, card_id: str, currency: str) -> int:
        m = self.r.money[card_id]
        if m.currency == CRYPTO:
            return self.crypto_value(p, m)
        return m.value if m.currency == currency else 0

    def _shark_free(self, p: int) -> Villain | None:
        shark = self._has(p, "loan_shark")
        return shark if shark and not self.shark_used else None

    def max_payable(self, p: int, hand: list[str], currency: str, shark: bool) -> int:
        values = [self.pay_value(p, cid, currency) for cid in hand]
        total = sum(values)
        if shark and values:
            as_any = self._has(p, "loan_shark").value
            total += max(0, max(as_any - v for v in values))
        return total

    def _legal_buy(self, f: Frame) -> list:
        p, d = f.p, f.d
        group = self._group_cards(f)
        hand = [c.card for c in self.z[f"hand:{p}"]]
        out: list = []
        if not d["paid"] and d["bought"] + len(group) < d["max"]:
            picked = {inst for _z, _c, inst in d["group"]}
            for zone in d["sources"]:
                for inst in self.z[zone]:
                    if str(inst) in picked:
                        continue
                    pl = self.r.placements[inst.card]
                    if group and pl.region != group[0].region:
                        continue
                    need = self.due(p, group + [pl])
                    if self.max_payable(p, hand, REGION_CURRENCY[pl.region],
                                        bool(self._shark_free(p))) >= need:
                        out.append(("pick", inst.card))
        if not group:
            return sorted(set(out)) + [("done",)]
        currency = REGION_CURRENCY[group[0].region]
        need = self.due(p, group)
        shark = self._shark_free(p)
        for cid in sorted(set(hand)):
            rest = list(hand)
            rest.remove(cid)
            for use_shark in ((0, 1) if shark else (0,)):
                v = shark.value if use_shark else self.pay_value(p, cid, currency)
                if v <= 0:
                    continue
                paid = d["value"] + v
                left_shark = bool(shark) and not use_shark
                if paid >= need or paid + self.max_payable(p, rest, currency, left_shark) >= need:
                    out.append(("pay", cid, use_shark))
        if d["value"] >= need:
            out.append(("settle",))
        return sorted(set(out))

    def _actor_buy(self, f: Frame) -> int:
        return f.p

    def _apply_buy(self, f: Frame, action: tuple) -> None:
        p, d = f.p, f.d
        kind = action[0]
        if kind == "done":
            self._pop(f)
        elif kind == "pick":
            picked = {inst for _z, _c, inst in d["group"]}
            for zone in d["sources"]:
                cands = [c for c in self.z[zone] if c.card == action[1] and str(c) not in picked]
                if cands:
                    d["group"].append((zone, action[1], str(cands[0])))
                    return
        elif kind == "pay":
            _k, cid, use_shark = action
            group = self._group_cards(f)
            inst = self._first(f"hand:{p}", cid)
            self._move(inst, f"hand:{p}", "payment")
            d["paid"].append(str(inst))
            if use_shark:
                self.shark_used = True
                d["value"] += self._has(p, "loan_shark").value
            else:
                d["value"] += self.pay_value(p, cid, REGION_CURRENCY[group[0].region])
        else:
            self._settle(f)

    def _settle(self, f: Frame) -> None:
        """Pay (no change), the 贪污鼠's overpay slot, then each card in purchase order."""
        p, d = f.p, f.d
        group = list(d["group"])
        over = d["value"] - self.due(p, self._group_cards(f))
        for inst in [c for c in self.z["payment"] if str(c) in set(d["paid"])]:
            self._move(inst, "payment", "discard")
        d["bought"] += len(group)
        d["group"], d["paid"], d["value"] = [], [], 0
        if d["bought"] >= d["max"]:
            self._pop(f)
        acquires = [Frame("acquire", p=p, d={"zone": z, "card": s}) for z, _c, s in group]
        self._push_seq(acquires)
        embezzler = self._has(p, "embezzler")
        if embezzler and over >= embezzler.value:
            self._marker(f"overpay:{p}")

    def _actor_acquire(self, f: Frame) -> int:
        return AUTO

    def _apply_acquire(self, f: Frame, action: None) -> None:
        """The bought card joins the tableau; casinos and galleries already owned react."""
        p = f.p
        self._pop(f)
        inst = next(c for c in self.z[f.d["zone"]] if str(c) == f.d["card"])
        pl = self.r.placements[inst.card]
        casinos = [c for c, x in self._owned(p, "casino") if x.region == pl.region]
        galleries = self._owned(p, "art_gallery") if pl.effect == "art" else []
        self._move(inst, f.d["zone"], f"tableau:{p}")
        self.played.append(inst.card)
        for c in casinos:
            self._marker(f"under:{c}")
        for _c, gal in galleries:
            self.stack += [Frame("draw_money", p=p, d={"dest": f"hand:{p}", "mode": "gallery"})
                           for _ in range(gal.value)]

    # ---- the Launderer ---------------------------------------------------------------------

    def _currency_left(self) -> bool:
        return any(not self.r.money[c.card].is_action
                   for zone in ("money_deck", "discard") for c in self.z[zone])

    def _actor_launder(self, f: Frame) -> int:
        if f.step == 0:
            return f.p if self._currency_left() else AUTO
        if f.step == 1:
            if not self._currency_left():
                return AUTO
            return self._money_actor()
        return f.p if self.z[f"hand:{f.p}"] and f.d["discards"] > 0 else AUTO

    def _legal_launder(self, f: Frame) -> list:
        if f.step == 0:
            return [("launder",), ("skip",)]
        if f.step == 1:
            return self._legal_chance(f)
        return [("launder_discard", cid) for cid in self._ids(f"hand:{f.p}")]

    def _apply_launder(self, f: Frame, action: Any) -> None:
        p = f.p
        if f.step == 0:
            if action == ("launder",):
                f.step, f.d["draws"], f.d["discards"] = 1, f.d["left"], 0
            else:
                self._pop(f)
            return
        if f.step == 1:
            if action is None:
                if not self._currency_left() or not self._reshuffle():
                    f.step = 2
                return
            inst = self._first("money_deck", action)
            if self.r.money[inst.card].is_action:
                self._move(inst, "money_deck", "discard")      # discard and draw again
                return
            self._move(inst, "money_deck", f"hand:{p}")
            f.d["discards"] += 1
            f.d["draws"] -= 1
            if f.d["draws"] <= 0:
                f.step = 2
            return
        if action is None:
            self._pop(f)
            self.stack.append(Frame("hand_limit", p=p))
            return
        self._move(self._first(f"hand:{p}", action[1]), f"hand:{p}", "discard")
        f.d["discards"] -= 1

    # ---- scoring -------------------------------------------------------------------------------

    def _raw_blacklists(self, count: Any) -> list[int]:
        out = []
        for q in range(self.n):
            charity = sum(pl.value for _c, pl in self._owned(q, "charity"))
            out.append(max(0, count(q) - charity))
        return out

    @staticmethod
    def blacklist_penalties(points: list[int]) -> list[int]:
        """−1 each; the fewest (ties too) lose nothing; the most (ties too) lose 2 more."""
        low, high = min(points), max(points)
        out = []
        for b in points:
            if b == low:
                out.append(0)
            else:
                out.append(-b - (BLACKLIST_EXTRA if b == high else 0))
        return out

    def score_breakdown(self, q: int) -> dict[str, int]:
        """Points of seat q by source, from the ledger of markers placed during play."""
        tableau = [self.r.placements[c.card] for c in self.z[f"tableau:{q}"]]
        by_region = Counter(pl.region for pl in tableau)
        out = Counter(printed=sum(pl.points for pl in tableau),
                      art=art_set_score(sum(pl.effect == "art" for pl in tableau),
                                        self.r.art_table))
        for c in self.z[f"tableau:{q}"]:
            pl = self.r.placements[c.card]
            if pl.effect in _TUCK_EFFECTS:
                out[pl.effect] += pl.value * self.ledger[f"under:{c}"]
            elif pl.effect == "digital_bank":
                out[pl.effect] += pl.value * len(self.z[f"hand:{q}"])
            elif pl.effect == "remittance":
                out[pl.effect] += pl.value * min(by_region[r] for r in REGIONS)
            elif pl.effect == "restaurant_chain":
                out[pl.effect] += pl.value * by_region[pl.region]
        out["overpay"] = EMBEZZLER_POINTS * self.ledger[f"overpay:{q}"]
        return dict(out)

    def returns(self) -> list[float]:
        bl = self._raw_blacklists(lambda q: self.ledger[f"blacklist:{q}"])
        pen = self.blacklist_penalties(bl)
        return [float(sum(self.score_breakdown(q).values()) + pen[q]) for q in range(self.n)]

    def scores_from_rules(self) -> list[float]:
        """Recount from the zones alone (an independent path from the marker ledger)."""
        zones = self.zones()
        table = self.r.art_table
        scores = []
        for q in range(self.n):
            mine = [(c, self.r.placements[c.card]) for c in zones[f"tableau:{q}"]]
            regions = [pl.region for _c, pl in mine]
            hand = len(zones[f"hand:{q}"])
            s = 0
            for c, pl in mine:
                under = len(zones.get(f"under:{c}", []))
                s += pl.points + {
                    "accounting_firm": pl.value * under, "casino": pl.value * under,
                    "law_firm": pl.value * under, "digital_bank": pl.value * hand,
                    "remittance": pl.value * min(regions.count(r) for r in REGIONS),
                    "restaurant_chain": pl.value * regions.count(pl.region),
                }.get(pl.effect, 0)
            s += art_set_score(sum(1 for _c, pl in mine if pl.effect == "art"), table)
            s += EMBEZZLER_POINTS * len(zones[f"overpay:{q}"])
            scores.append(s)
        bl = self._raw_blacklists(lambda q: len(zones[f"blacklist:{q}"]))
        return [float(s + pen) for s, pen in zip(scores, self.blacklist_penalties(bl))]

    def winners(self) -> list[int]:
        """Highest score; then most money left in hand; then who played last this round."""
        scores = self.returns()
        best = max(scores)
        tied = [q for q in range(self.n) if scores[q] == best]
        cash = {q: self.money_in_hand(q) for q in tied}
        tied = [q for q in tied if cash[q] == max(cash.values())]
        order = self.round_order or list(range(self.n))
        return [max(tied, key=order.index)]

    # ---- invariants -----------------------------------------------------------------------------

    def check_invariants(self) -> None:
        for zone, count in self.ledger.items():
            if count != len(self.z.get(zone, [])):
                there = len(self.z.get(zone, []))
                raise RuleViolation(f"{zone}: {count} markers placed, {there} there")
        fixers = {(f.kind, f.p) for f in self.stack}
        for q in range(self.n):
            size = len(self.z[f"hand:{q}"])
            if size > HAND_LIMIT and size > self.hand_limit(q) and not any(
                    (k, q) in fixers for k in ("hand_limit", "resolve_card", "launder")):
                raise RuleViolation(f"seat {q} holds {len(self.z[f'hand:{q}'])} money cards, "
                                    f"over the limit {self.hand_limit(q)}, with nothing to fix it")
            if any(self.r.money[c.card].is_action for c in self.z[f"hand:{q}"]):
                raise RuleViolation(f"seat {q} holds an action card in hand")
        for loc in self.in_play:
            if len(self.z[f"spot:{loc.id}"]) > SPOT_CAP:
                raise RuleViolation(f"{loc.id} has more than {SPOT_CAP} money cards")
        for region in REGIONS:
            if len(self.z[f"display:{region}"]) > SELECTION_DISPLAY:
                raise RuleViolation(f"display:{region} is too long")
        buys = [f for f in self.stack if f.kind == "buy"]
        paid = sum(len(f.d["paid"]) for f in buys)
        if paid != len(self.z["payment"]):
            raise RuleViolation("payment zone and open purchases disagree")
        resolving = sum(1 for f in self.stack if f.kind == "resolve_card")
        if len(self.z["resolving"]) != resolving:
            raise RuleViolation("an action card is resolving outside a resolution step")
        if not 0 <= self.marker < self.n:
            raise RuleViolation("first-player marker is off the table")

    # ---- text --------------------------------------------------------------------------------

    def _name(self, card_id: str) -> str:
        for table in (self.r.placements, self.r.money, self.r.villains):
            if card_id in table:
                return f"{table[card_id].name} [{card_id}]"
        loc = self.r.location_by_id.get(card_id)
        return f"{loc.name} [{card_id}]" if loc else card_id

    def _chance_target(self, f: Frame | None) -> str:
        if f is None:
            return ""
        if f.kind == "deal_villain":
            return f"for seat {f.p}"
        if f.kind == "inspect":
            return f"from seat {f.d['target']}'s hand (inspection)"
        if f.kind == "launder":
            return f"for seat {f.p} (launderer)"
        return f"to {f.d.get('dest', '?')}"

    def action_text(self, action: Hashable) -> str:
        f = self.stack[-1] if self.stack else None
        if isinstance(action, str):
            return f"draw {self._name(action)} {self._chance_target(f)}".rstrip()
        kind = action[0]
        if kind == "go":
            return f"go to {self._name(action[1])}"
        if kind in ("pick", "resolve", "overflow", "launder_discard"):
            verb = {"pick": "pick", "resolve": "resolve", "overflow": "blacklist (hand limit)",
                    "launder_discard": "launder away"}[kind]
            return f"{verb} {self._name(action[1])}"
        if kind == "pay":
            shark = " as $2 (loan shark)" if action[2] else ""
            return f"pay with {self._name(action[1])}{shark}"
        if kind == "trade":
            if not action[2]:
                return f"look at seat {action[1]}'s hand"
            return (f"trade: take {self._name(action[2])} from seat {action[1]}, "
                    f"give {self._name(action[3])}")
        if kind == "target":
            return f"inspect seat {action[1]}"
        if kind == "bear_region":
            return f"set aside a {action[1]} placement card (Wall Street Bear)"
        return " ".join(str(a) for a in action)

    # ---- greedy heuristic --------------------------------------------------------------------

    def greedy_value(self, action: Hashable, seat: int | None = None) -> float:
        """One-step value of an action for the seat to act, from what that seat can see."""
        f = self.stack[-1]
        p = f.p if seat is None else seat
        if isinstance(action, str):
            return 0.0
        kind = action[0]
        money = self.r.money
        if kind == "go":
            spot = self.z[f"spot:{action[1]}"]
            cash = sum(money[c.card].value for c in spot if not money[c.card].is_action)
            n_cash = sum(1 for c in spot if not money[c.card].is_action)
            over = max(0, len(self.z[f"hand:{p}"]) + n_cash - self.hand_limit(p))
            loc = self.r.location_by_id[action[1]]
            bonus = 2.0 * len(self.z[f"blacklist:{p}"]) if loc.effect == "banana_republic" else 0
            return cash + 0.5 * (len(spot) - n_cash) - 3 * over + bonus
        if kind == "pick":
            pl = self.r.placements[action[1]]
            return 10 + pl.points + self._effect_guess(p, pl) - 0.5 * pl.cost
        if kind == "pay":
            group = self._group_cards(f)
            cur = REGION_CURRENCY[group[0].region]
            v = self._has(p, "loan_shark").value if action[2] else self.pay_value(p, action[1], cur)
            need = self.due(p, group) - f.d["value"]
            dirty = money[action[1]].dirty
            embezzler = self._has(p, "embezzler")
            if need <= 0:
                hits = embezzler and -need < embezzler.value <= v - need
                return (5.0 if hits else -5.0) + 2 * dirty
            return 5 + 2 * dirty - max(0, v - need) - 0.1 * v
        if kind == "settle":
            return 4.0
        if kind in ("overflow", "launder_discard"):
            return 3.0 * money[action[1]].dirty - money[action[1]].value
        if kind == "trade":
            if not action[2]:
                return 0.0
            take, give = money[action[2]], money[action[3]]
            return take.value - give.value + 2 * (give.dirty - take.dirty)
        if kind == "target":
            return float(len(self.z[f"hand:{action[1]}"]))
        if kind == "banana":
            return 1.0 + len(self.z[f"blacklist:{p}"])
        if kind == "launder":
            return 1.0
        if kind == "resolve":
            return 1.0 if money[action[1]].effect.startswith("audit") else 0.0
        return 0.0

    def _effect_guess(self, p: int, pl: Placement) -> float:
        """Rough end-game worth of a placement card's effect, for the greedy agent."""
        if pl.effect == "art":
            arts = sum(1 for _c in self._owned(p, "art"))
            return art_set_score(arts + 1, self.r.art_table) - art_set_score(arts, self.r.art_table)
        if pl.effect == "restaurant_chain":
            return sum(1 for c in self.z[f"tableau:{p}"]
                       if self.r.placements[c.card].region == pl.region) + 1
        return 2.0
