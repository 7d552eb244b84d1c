"""The game bound to its cards and options: what `make_rules` returns."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from pnpforge.errors import PnpError
from pnpforge.rules.engine import CardInstance, GameInfo, GameRules, Observation, UnknownEffect
from pnpforge.rules.games.dirty_money.agents import greedy_value, greedy_values, pay_value
from pnpforge.rules.games.dirty_money.board import TablePlan
from pnpforge.rules.games.dirty_money.data import (
    ACTION_EFFECTS,
    CURRENCIES,
    END_TARGET,
    LOCATION_EFFECTS,
    MAX_ROUNDS,
    PLACEMENT_EFFECTS,
    QUICK_TARGET,
    REGION_CURRENCY,
    SLUG,
    VILLAIN_EFFECTS,
    CardSet,
    Location,
)
from pnpforge.rules.games.dirty_money.state import DirtyMoneyState, table_plan
from pnpforge.rules.kit import Option, check_players, parse_options

# Steps one seat can take in a round at most, generously: the step cap is a safety net only.
STEPS_PER_SEAT_ROUND = 80


class DirtyMoneyRules(GameRules):
    """The game's cards and options, read once from the database."""

    OPTIONS: ClassVar[tuple[Option, ...]] = (
        Option("quick", bool, False, "快速模式: the last round starts at 8 placement cards instead of 10"),
        Option("selection", bool, False, "选择模式: three placement cards above each region instead of two"),
        Option(
            "max_rounds",
            int,
            MAX_ROUNDS,
            "a game still running after this many rounds fails: no one can finish the deck",
            min=1,
        ),
    )
    USED: ClassVar[dict[str, str]] = {
        "placement": "bought into a tableau",
        "currency": "paid toward a placement card",
        "action": "resolved by the player who took it (from a location or an art gallery draw)",
        "location": "visited on a turn",
        "villain": "its power used (launder, overpay slot, crypto at its value, set-aside purchase, "
        "any card as $2)",
    }

    def __init__(self, cards: CardSet, info: GameInfo, options: Mapping[str, Any]) -> None:
        values = parse_options(self.OPTIONS, options, game=SLUG)
        self.placements = {card.id: card for card in cards.placements}
        # What a purchase reads of each placement card, in one look-up: region, currency, and the
        # price before discounts (a cost below 0 pays nothing either)
        self.on_sale = {
            pl.id: (pl.region, REGION_CURRENCY[pl.region], max(0, pl.cost)) for pl in cards.placements
        }
        self.money = {card.id: card for card in cards.money}
        self.action_ids = frozenset(card.id for card in cards.money if card.is_action)
        self.locations = list(cards.locations)
        self.location_by_id = {loc.id: loc for loc in cards.locations}
        self.villains = {card.id: card for card in cards.villains}
        # Every card's name for event texts, by id (placements first where ids are shared)
        self.card_names: dict[str, str] = {}
        for table in (self.location_by_id, self.villains, self.money, self.placements):
            self.card_names.update((card_id, str(card.name)) for card_id, card in table.items())
        self.art_table = cards.art_table
        self.quick: bool = values["quick"]
        self.selection: bool = values["selection"]
        self.max_rounds: int = values["max_rounds"]
        self.end_target = QUICK_TARGET if self.quick else END_TARGET
        info.max_steps = self.max_rounds * info.players_max * STEPS_PER_SEAT_ROUND
        info.options = values
        self.info = info
        self._unknown = self._find_unknown()
        self._deck = self._physical_cards()
        # Every physical action card: a hand holding one breaks the rules (a set check, in C).
        self.action_cards = frozenset(inst for inst in self._deck if inst.card in self.action_ids)
        # Static data of these rules, worked out here from the cards and never changed after
        # (the rules object is shared by every game played with it; a cache held here would be
        # shared too):
        # (villain id, currency) -> what each money card pays toward a price in that currency
        # for that villain's holder (crypto as the villain values it); "" before villains are dealt.
        self.pay_tables: Mapping[tuple[str, str], Mapping[str, int]] = {
            (villain_id, currency): {
                card_id: pay_value(self, villain_id, card_id, currency) for card_id in self.money
            }
            for villain_id in ("", *self.villains)
            for currency in CURRENCIES
        }
        # players -> the piles of a table and their starting cards (see `DirtyMoneyState._lay_out`)
        self.table_plans: Mapping[int, TablePlan] = {
            players: table_plan(self, players, self.locations_for(players))
            for players in range(info.players_min, info.players_max + 1)
        }

    def _find_unknown(self) -> list[UnknownEffect]:
        found = [
            UnknownEffect(card.id, card.effect)
            for card in self.placements.values()
            if card.effect not in PLACEMENT_EFFECTS
        ]
        found += [
            UnknownEffect(card.id, card.effect)
            for card in self.money.values()
            if card.is_action and card.effect not in ACTION_EFFECTS
        ]
        found += [
            UnknownEffect(card.id, card.effect)
            for card in self.villains.values()
            if card.effect not in VILLAIN_EFFECTS
        ]
        found += [
            UnknownEffect(loc.id, loc.effect) for loc in self.locations if loc.effect not in LOCATION_EFFECTS
        ]
        return found

    def unknown_effects(self) -> list[UnknownEffect]:
        return list(self._unknown)

    def _physical_cards(self) -> list[CardInstance]:
        instances: list[CardInstance] = []
        for group in (self.placements.values(), self.money.values()):
            for card in group:
                instances += [CardInstance(card.id, i) for i in range(card.copies)]
        instances += [CardInstance(loc.id, 0) for loc in self.locations]
        instances += [CardInstance(villain.id, 0) for villain in self.villains.values()]
        return instances

    def deck(self) -> list[CardInstance]:
        return list(self._deck)

    def locations_for(self, players: int) -> list[Location]:
        """Europe, USA, Japan, Banana Republic always; Black Market 4+; Auction House 5."""
        return [
            loc for loc in self.locations if loc.min_players <= players and loc.effect in LOCATION_EFFECTS
        ]

    def new_initial_state(self, players: int, rng: random.Random | None = None) -> DirtyMoneyState:
        check_players(self.info, players)
        if len(self.villains) < players:
            raise PnpError(
                f"{SLUG}: {players} players need {players} villain cards, the deck has {len(self.villains)}"
            )
        return DirtyMoneyState(self, players)

    def pay_values(self, villain_id: str, currency: str) -> Mapping[str, int]:
        """What each money card pays toward a price in `currency` for a holder of `villain_id`
        (crypto as that villain values it): fixed for the rules, so worked out once (`pay_tables`)."""
        table = self.pay_tables.get((villain_id, currency))
        if table is None:  # an id no villain card has: pays as a holder without a villain power
            table = {card_id: pay_value(self, villain_id, card_id, currency) for card_id in self.money}
        return table

    def greedy_value(self, obs: Observation, action: Any) -> float:
        return greedy_value(self, obs, action)

    def greedy_values(self, obs: Observation, legal: Sequence[Any]) -> list[float]:
        return greedy_values(self, obs, legal)
