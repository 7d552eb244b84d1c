"""Which actions are legal: the five turn actions, rewards, mission 19's look, hand limits.

Action shapes (tuples, first the kind):
  ("take",)                                   揪出嫌疑人
  ("hint", source_seat, card, copy)           給予提示 beside your own suspect
  ("exchange", source, target, card, copy, draw)  交換情報; source CENTRE for mission 6's specials
  ("wait", k)                                 等待時機: burn the top card, draw k
  ("eliminate", target, suit, number)         剷除叛徒 (ASIDE: the aside suspect)
  ("discard", hand_index), ("reward", card, copy), ("reward_blind",), ("reward_skip",),
  ("peek", 0|1), ("extra_hint", 0 hand | 1 discard, card, copy), ("pass",)
and at a chance step ("card", card, copy) or ("seat", seat).
"""

from __future__ import annotations

from .board import ASIDE, CENTRE, DECK, DISCARD_DOWN, DISCARD_UP, LINEUP, REWARDS, SHARED, Table

Action = tuple


class LegalActions(Table):
    """Legal actions of the seat to decide, or the outcomes of the pending chance event."""

    def compute_legal(self) -> list[Action]:
        """The legal actions, sorted (the state keeps them for a binary search).  Most lists are
        sorted as they are built; the long run of shots is never sorted again."""
        if self.result is not None:
            return []
        if self.chance_queue:
            return self._chance_legal()
        stage = self.stage
        if stage == "act":
            return self._act_legal()
        if stage == "reward":
            return sorted(self._reward_legal())
        if stage == "peek":
            return [("peek", 0), ("peek", 1)]
        if stage == "extra_hint":
            return sorted(self.extra_hint_legal())
        if stage == "final":
            return self._eliminations(self.actor, final=True)
        if stage == "discard":
            return [("discard", i) for i in range(self.hand_count(self.actor))]
        raise KeyError(stage)

    def _chance_legal(self) -> list[Action]:
        kind = self.chance_queue[0][0]
        if kind == "eliminator":
            return [("seat", s) for s in range(self.players)]
        outcome, rank = self.rules.draw_action, self.rules.draw_rank
        cards = sorted(self.piles.pile(self.chance_source(kind)), key=rank.__getitem__)
        return [outcome[card] for card in cards]

    def chance_source(self, kind: str) -> str:
        """The pile a chance event's card comes from."""
        if kind == "blind_reward":
            return DISCARD_DOWN
        if kind == "pool_deal":
            return REWARDS
        if kind == "take":
            return LINEUP
        return DECK

    def _act_legal(self) -> list[Action]:
        seat, mission = self.actor, self.mission
        acts: list[Action] = []
        if (
            not self.has_suspect(seat)
            and self.piles.count(LINEUP)
            and not self.final_phase
            and not (mission.has("sole_eliminator") and seat == self.eliminator)
        ):
            acts.append(("take",))
        sources = self._hand_sources(seat)
        if self.has_suspect(seat):
            acts += [("hint", src, card.card, card.copy) for src in sources for card in self.hand(src)]
        acts += self._exchanges(seat, sources)
        deck_size = self.piles.count(DECK)
        if deck_size and not self.final_phase:
            acts += [("wait", k) for k in range(min(3, deck_size - 1) + 1)]
        # 'eliminate' sorts before every other kind, and the shots come sorted (targets in seat
        # order, guesses sorted): only the few other actions need a sort.
        shots = self._eliminations(seat)
        if not shots:
            return sorted(acts) or [("pass",)]
        return shots + sorted(acts)

    def _hand_sources(self, seat: int) -> list[int]:
        """Whose hand a seat plays from: its own, or (mission 17) any other agent's."""
        if self.mission.has("hands_out"):
            return [o for o in range(self.players) if o != seat and not self.withdrawn[o]]
        return [seat]

    def _exchange_targets(self, seat: int) -> list[int]:
        targets = [t for t in range(self.players) if t != seat and self.has_suspect(t)]
        if self.mission.has("exchange_left"):
            targets = [t for t in targets if t == (seat + 1) % self.players]
        if self.aside() is not None and self.peeked:
            targets.append(ASIDE)  # the withdrawn agents who know it place the hints
        return targets

    def _exchanges(self, seat: int, sources: list[int]) -> list[Action]:
        targets = self._exchange_targets(seat)
        if not targets:
            return []
        can_draw = bool(self.piles.count(DECK)) and not self.final_phase  # mission 18's last round: no draws
        if self.mission.has("hands_out"):
            draws = [1] if can_draw else [0]  # mission 17: the draw is compulsory
        else:
            draws = [0, 1] if can_draw else [0]
        acts: list[Action] = [
            ("exchange", src, target, card.card, card.copy, draw)
            for src in sources
            for card in self.hand(src)
            for target in targets
            for draw in draws
        ]
        shared = self.piles.pile(SHARED)
        acts += [
            ("exchange", CENTRE, target, card.card, card.copy, 0) for card in shared for target in targets
        ]
        return acts

    def _eliminations(self, seat: int, final: bool = False) -> list[Action]:
        """Every shot open to `seat`, sorted: targets ascending, each target's shots as
        `shot_actions` gives them (in the sorted order of the mission's guesses)."""
        if self.bullets <= 0:
            return []
        if final:
            targets = [ASIDE] if self.aside() is not None else []
        else:
            targets = self._elimination_targets(seat)
        shots = self.rules.shot_actions
        return [action for target in targets for action in shots(target)]

    def _elimination_targets(self, seat: int) -> list[int]:
        mission = self.mission
        if mission.has("sole_eliminator") and seat != self.eliminator:
            return []
        targets = [t for t in range(self.players) if t != seat and self.has_suspect(t)]
        if mission.has("eliminate_right"):
            targets = [t for t in targets if t == (seat - 1) % self.players]
        if mission.has("ordered") and targets:
            lowest = min(self.tile_of[t] or 0 for t in range(self.players) if self.has_suspect(t))
            targets = [t for t in targets if self.tile_of[t] == lowest]
        if mission.has("balanced"):
            targets = [t for t in targets if self._balanced(t)]
        return targets

    def _balanced(self, target: int) -> bool:
        """Missions 7/13: as many upright as sideways hints, and at least 4 in all."""
        hints = self.hints(target)
        upright = sum(1 for _, up in hints if up)
        return len(hints) >= 4 and 2 * upright == len(hints)

    def _reward_legal(self) -> list[Action]:
        acts: list[Action] = [("reward", card.card, card.copy) for card in self.piles.pile(DISCARD_UP)]
        if self.piles.count(DISCARD_DOWN):
            acts.append(("reward_blind",))
        return acts + [("reward_skip",)]

    def extra_hint_legal(self) -> list[Action]:
        acts: list[Action] = [("extra_hint", 0, card.card, card.copy) for card in self.hand(self.actor)]
        return acts + [("extra_hint", 1, card.card, card.copy) for card in self.piles.pile(DISCARD_UP)]
