"""Set-up, draws, rounds and turns: the game's procedure from dealing villains to the end check."""

from __future__ import annotations

from typing import Any

from pnpforge.rules.engine import CHANCE, RuleViolation
from pnpforge.rules.games.dirty_money.base import AUTO, Action, StateBase, Step
from pnpforge.rules.games.dirty_money.data import (
    HAND_LIMIT,
    LAST_PLAYER_EXTRA,
    REFILL_EMPTY,
    REFILL_SOME,
    REGIONS,
    SELECTION_DISPLAY,
    SETUP_SPOT,
    SPOT_CAP,
    START_HAND,
    Location,
)

# The piles a placement card can still come from (the Wall Street Bear's set-aside cards count too,
# for a seat that has the Bear: see `_placements_left`)
_PLACEMENT_PILES = (*(f"pdeck:{r}" for r in REGIONS), *(f"display:{r}" for r in REGIONS), "auction")

# Why a game ended, in words for the event log (the end reason itself stays a short key).
END_WORDS = {
    "placement target": "a seat reached the placement-card target; the round was played out",
    "placements exhausted": "no placement card is left to buy",
}


class FlowSteps(StateBase):
    """Steps of set-up (游戏设定), the round (回合), a turn and its hand-limit check."""

    # ---- set-up ---------------------------------------------------------------------------

    def _actor_deal_villain(self, step: Step) -> int:
        return CHANCE

    def _legal_deal_villain(self, step: Step) -> list[Action]:
        return self._legal_chance(step)

    def _apply_deal_villain(self, step: Step, action: tuple[str, str]) -> None:
        villain = action[1]
        self._move(self._first("villain_pool", villain), "villain_pool", f"villain:{step.seat}")
        self.villain_of[step.seat] = villain
        self._villain_cards[step.seat] = self.rules.villains[villain]
        self.faction(step.seat, f"{self.name(villain)} ({villain})")
        self._pop(step)

    def _actor_after_villains(self, step: Step) -> int:
        return AUTO

    def _apply_after_villains(self, step: Step, action: None) -> None:
        """Set-up steps 2–5 once the villains (and so the first player) are known."""
        self._pop(step)
        for inst in list(self.cards("villain_pool")):
            self._move(inst, "villain_pool", "box")
        self.marker = min(range(self.players), key=self._villain_order)
        seq: list[Step] = []
        for loc in self.in_play:
            seq += self._display_draws(loc)
        for seat in range(self.players):
            bear = self._has(seat, "wall_street_bear")
            if bear and self._bear_location():
                seq.append(Step("bear_choose", seat=seat, data={"left": bear.value}))
        order = [(self.marker + i) % self.players for i in range(self.players)]
        for seat in order:
            seq += [self._deal_to(seat) for _ in range(START_HAND)]
        seq += [self._deal_to(order[-1]) for _ in range(LAST_PLAYER_EXTRA)]
        seq.append(Step("merge_actions"))
        for loc in self.in_play:
            seq += [
                Step("draw_money", data={"dest": f"spot:{loc.id}", "mode": "spot"}) for _ in range(SETUP_SPOT)
            ]
        seq.append(Step("round"))
        self._push_seq(seq)

    def _villain_order(self, seat: int) -> tuple[int, int]:
        villain = self._villain(seat)
        assert villain is not None
        return (villain.order, seat)

    def _deal_to(self, seat: int) -> Step:
        return Step("draw_money", seat=seat, data={"dest": f"hand:{seat}", "mode": "deal"})

    def _display_draws(self, loc: Location) -> list[Step]:
        """The set-up draws that put placement cards above a region market or the auction house."""
        if loc.effect == "region_market":
            count = SELECTION_DISPLAY if self.rules.selection else loc.display
            return [
                Step("draw_placement", data={"region": loc.region, "dest": f"display:{loc.region}"})
                for _ in range(count)
            ]
        if loc.effect == "auction_house":
            return [Step("draw_placement", data={"region": region, "dest": "auction"}) for region in REGIONS]
        return []

    def _bear_location(self) -> Location | None:
        return next((loc for loc in self.in_play if loc.effect == "banana_republic"), None)

    def _actor_bear_choose(self, step: Step) -> int:
        return step.seat if any(self.cards(f"pdeck:{r}") for r in REGIONS) else AUTO

    def _legal_bear_choose(self, step: Step) -> list[Action]:
        return [("bear_region", r) for r in REGIONS if self.cards(f"pdeck:{r}")]

    def _apply_bear_choose(self, step: Step, action: tuple[Any, ...] | None) -> None:
        if action is None:
            self._pop(step)
            return
        step.data["left"] -= 1
        if step.data["left"] <= 0:
            self._pop(step)
        self.stack.append(Step("draw_placement", data={"region": action[1], "dest": "bear"}))

    def _actor_merge_actions(self, step: Step) -> int:
        return AUTO

    def _apply_merge_actions(self, step: Step, action: None) -> None:
        self._pop(step)
        self.piles.move_all("action_setup", "money_deck")
        self.version += 1

    # ---- draws ----------------------------------------------------------------------------

    def _actor_draw_placement(self, step: Step) -> int:
        return CHANCE if self.cards(f"pdeck:{step.data['region']}") else AUTO

    def _legal_draw_placement(self, step: Step) -> list[Action]:
        return self._legal_chance(step)

    def _apply_draw_placement(self, step: Step, action: tuple[str, str] | None) -> None:
        self._pop(step)
        if action is not None:
            src = f"pdeck:{step.data['region']}"
            self._move(self._first(src, action[1]), src, step.data["dest"])

    def _actor_draw_money(self, step: Step) -> int:
        return CHANCE if self._money_deck else AUTO  # `_money_actor`, the commonest actor, inline

    def _legal_draw_money(self, step: Step) -> list[Action]:
        return self._legal_chance(step)

    def _apply_draw_money(self, step: Step, action: tuple[str, str] | None) -> None:
        if action is None:
            if not self._reshuffle():
                self._pop(step)  # nothing left to draw anywhere
            return
        self._pop(step)
        inst = self._first("money_deck", action[1])
        mode, seat = step.data["mode"], step.seat
        if mode == "marker":
            self._add_marker(inst, "money_deck", step.data["dest"])
        elif mode == "gallery":
            if self.rules.money[inst.card].is_action:
                self._move(inst, "money_deck", "resolving")
                self.stack.append(Step("resolve_card", seat=seat, data={"card": str(inst), "id": inst.card}))
            else:
                self._move(inst, "money_deck", f"hand:{seat}")
                self.stack += self._hand_limit_step(seat)
        else:
            self._move(inst, "money_deck", step.data["dest"])

    # ---- rounds ---------------------------------------------------------------------------

    def _actor_round(self, step: Step) -> int:
        return AUTO

    def _apply_round(self, step: Step, action: None) -> None:
        data = step.data
        if not data:
            self.round_number += 1
            data["order"] = [(self.marker + i) % self.players for i in range(self.players)]
            data["idx"] = 0
            self.round_order = list(data["order"])
        if data["idx"] < self.players:
            seat = data["order"][data["idx"]]
            data["idx"] += 1
            self.shark_used = False
            self.stack.append(Step("turn", seat=seat))
            return
        self._pop(step)
        self._end_of_round()

    def _end_of_round(self) -> None:
        """Game-end check, else 回合结束 refills and the next round."""
        views = self.views
        tableaux = list(map(len, map(views.__getitem__, self.names.tableaux)))
        self.round(f"round {self.round_number} ends; placement cards per seat: {tableaux}")
        if max(tableaux) >= self.rules.end_target:
            self._finish("placement target")
            return
        if not self._placements_left():
            self._finish("placements exhausted")
            return
        if self.round_number >= self.rules.max_rounds:
            raise RuleViolation(
                f"the game did not end in {self.rules.max_rounds} rounds (placement cards per seat: "
                f"{tableaux}, the end needs {self.rules.end_target}): no one can finish this deck"
            )
        seq: list[Step] = []
        for spot in self.names.spots:  # the spots of the locations in play, in their order
            have = len(views[spot])
            add = REFILL_EMPTY if have == 0 else min(REFILL_SOME, max(0, SPOT_CAP - have))
            seq += [Step("draw_money", data={"dest": spot, "mode": "spot"}) for _ in range(add)]
        for loc in self.in_play:
            seq += self._display_refills(loc)
        seq.append(Step("round"))
        self._push_seq(seq)

    def _display_refills(self, loc: Location) -> list[Step]:
        """回合结束 3: region displays back to their size, the auction house to one card a region."""
        if loc.effect == "region_market":
            want = SELECTION_DISPLAY if self.rules.selection else loc.display
            need = want - len(self.cards(f"display:{loc.region}"))
            return [
                Step("draw_placement", data={"region": loc.region, "dest": f"display:{loc.region}"})
                for _ in range(max(0, need))
            ]
        if loc.effect == "auction_house":
            there = {self.rules.placements[c.card].region for c in self.cards("auction")}
            return [
                Step("draw_placement", data={"region": region, "dest": "auction"})
                for region in REGIONS
                if region not in there
            ]
        return []

    def _placements_left(self) -> bool:
        views = self.views
        if any(map(views.__getitem__, _PLACEMENT_PILES)):
            return True
        return bool(views["bear"]) and any(self._has(q, "wall_street_bear") for q in range(self.players))

    def _finish(self, reason: str) -> None:
        self.terminal = True
        self.reason = reason
        self.stack = []
        self._score_events()
        self.end(END_WORDS.get(reason, reason))

    # ---- a turn ---------------------------------------------------------------------------

    def _actor_turn(self, step: Step) -> int:
        return step.seat if step.stage == 0 else AUTO

    def _legal_turn(self, step: Step) -> list[Action]:
        # 常见问题 1: only a location that still has money cards can be visited.
        views = self.piles.all_views()
        open_locations: list[Action] = [
            ("go", loc.id) for loc, spot in zip(self.in_play, self.names.spots, strict=True) if views[spot]
        ]
        return open_locations or [("pass",)]

    def _apply_turn(self, step: Step, action: tuple[Any, ...] | None) -> None:
        seat = step.seat
        if step.stage == 0:
            if action == ("pass",):
                step.stage = 2
                return
            assert action is not None
            location_id = action[1]
            self.used(seat, location_id, f"visits {self.name(location_id)} and takes its money cards")
            # Take every card there (常见问题 2): money to hand, actions to be resolved.
            spot, hand = f"spot:{location_id}", self.names.hands[seat]
            there = self.views[spot]
            if self.rules.action_cards.isdisjoint(there):
                self._move_all(spot, hand)  # all money: the same order as one by one
            else:
                for inst in list(there):
                    dst = f"pending:{seat}" if self.rules.money[inst.card].is_action else hand
                    self._move(inst, spot, dst)
            # Then the hand limit, the action cards taken, and the location's own action; a hand
            # within its limit or no action card to resolve needs no step (nothing there to do).
            step.stage = 2
            after = self._hand_limit_step(seat)
            if self.cards(f"pending:{seat}"):
                after.append(Step("resolve_actions", seat=seat))
            after.append(Step("location", seat=seat, data={"loc": location_id}))
            self._push_seq(after)
        elif step.stage == 2:
            launderer = self._has(seat, "launderer")
            if launderer:
                step.stage = 3
                self.stack.append(Step("launder", seat=seat, data={"left": launderer.value}))
            else:
                self._pop(step)  # the turn is over: nothing acts at its end
        else:
            self._pop(step)

    # ---- hand limit -----------------------------------------------------------------------

    def _actor_hand_limit(self, step: Step) -> int:
        size = len(self.cards(f"hand:{step.seat}"))
        return step.seat if size > HAND_LIMIT and size > self.hand_limit(step.seat) else AUTO

    def _legal_hand_limit(self, step: Step) -> list[Action]:
        return [("overflow", card_id) for card_id in self._ids(f"hand:{step.seat}")]

    def _apply_hand_limit(self, step: Step, action: tuple[Any, ...] | None) -> None:
        if action is None:
            self._pop(step)
            return
        hand = f"hand:{step.seat}"
        self._add_marker(self._first(hand, action[1]), hand, f"blacklist:{step.seat}")
        self.outcome(
            step.seat,
            f"over the hand limit of {self.hand_limit(step.seat)}: "
            f"{self.name(action[1])} goes to the blacklist",
            action[1],
        )

    # ---- locations ------------------------------------------------------------------------

    def _actor_location(self, step: Step) -> int:
        loc = self.rules.location_by_id[step.data["loc"]]
        return step.seat if loc.effect == "banana_republic" and step.stage == 0 else AUTO

    def _legal_location(self, step: Step) -> list[Action]:
        return [("banana",), ("skip",)]

    def _apply_location(self, step: Step, action: tuple[Any, ...] | None) -> None:
        loc = self.rules.location_by_id[step.data["loc"]]
        seat = step.seat
        if loc.effect == "banana_republic" and step.stage == 0:
            step.stage = 1
            if action == ("banana",):
                dropped = self._drop_blacklist(seat)
                self.marker = seat
                self.outcome(
                    seat,
                    "takes the first-player marker"
                    + (" and drops a blacklist card" if dropped else " (no blacklist card to drop)"),
                    loc.id,
                )
            return
        self._pop(step)
        sources: list[str] = []
        limit = loc.buy_limit
        if loc.effect == "region_market":
            sources = [f"display:{loc.region}"]
        elif loc.effect == "black_market":
            sources = [f"display:{x.region}" for x in self.in_play if x.effect == "region_market"]
        elif loc.effect == "auction_house":
            sources = ["auction"]
        elif loc.effect == "banana_republic":
            bear = self._has(seat, "wall_street_bear")
            if bear and self.cards("bear"):
                sources, limit = ["bear"], 1
        if sources and limit > 0:
            self.stack.append(
                Step(
                    "buy",
                    seat=seat,
                    data={"sources": sources, "max": limit, "bought": 0, "group": [], "paid": [], "value": 0},
                )
            )
