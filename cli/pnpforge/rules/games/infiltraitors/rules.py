"""The rules bound to the database: the cards, the chosen mission and its deck.

The physical cards are the numbered and special playing cards and the mission
cards; a game lays out one mission card and leaves the other missions (and the
playing cards the mission does not use) in the box.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from pnpforge.errors import PnpError
from pnpforge.rules.engine import CardInstance, GameRules, Observation, UnknownEffect
from pnpforge.rules.kit import (
    DeckError,
    GameData,
    Option,
    check_players,
    game_cards,
    game_info,
    parse_options,
)

from .agents import SeatObservation
from .board import ASIDE
from .data import (
    CARD_EFFECTS,
    DEFAULT_MISSION,
    MISSION_EFFECTS,
    SLUG,
    SPECIAL_NUMBER,
    CardSpec,
    Mission,
    load_cards,
    mission_from_card,
    mission_id,
)
from .deduction import CardTables, Deduction


class InfiltraitorsRules(GameRules):
    """The cards and one mission from the database; makes initial states."""

    OPTIONS: ClassVar[tuple[Option, ...]] = (
        Option(
            "mission",
            str,
            DEFAULT_MISSION,
            "the mission to play: M01–M20, or T1–T3 for the training missions ('7' and 'm7' mean M07)",
        ),
    )
    USED: ClassVar[dict[str, str]] = {
        "card": "played as a hint beside a suspect (給予提示, 交換情報, or on the aside suspect)",
        "special": "played as a hint beside a suspect (suit only)",
        "mission": "completed: the team wins the mission (本項任務才算順利完成)",
    }

    def __init__(self, game: GameData, options: dict[str, Any]) -> None:
        chosen = parse_options(self.OPTIONS, options, game=SLUG)
        self.specs: dict[str, CardSpec] = load_cards(game)
        if not self.specs:
            raise PnpError(f"{SLUG}: the database has no numbered or special cards")
        self.mission_cards = {card.id: card for card in game_cards(game, card_type="mission")}
        wanted = mission_id(chosen["mission"])
        if wanted not in self.mission_cards:
            raise PnpError(
                f"{SLUG}: unknown mission '{chosen['mission']}' "
                f"(allowed: {', '.join(sorted(self.mission_cards))})"
            )
        # Every mission is read (not only the one played), so a broken mission card stops the
        # engine at once, naming the card, whichever mission was asked for.
        self.missions = {cid: self._checked_mission(card) for cid, card in self.mission_cards.items()}
        self.mission: Mission = self.missions[wanted]
        self._split_cards()
        size = len(self.in_play) + len(self.shared_specials)
        self.info = game_info(game, max_steps=0, cooperative=True)
        bullets = self.mission.bullet_count(self.info.players_max)
        self.info.max_steps = 40 * (size + 12 + bullets) + 400
        self.info.options = {"mission": wanted}
        self.guesses: list[tuple[str, int]] = self._possible_guesses()
        # target -> every 剷除叛徒 action against it, one per possible guess in the guesses'
        # sorted order (every seat a table may have and the aside suspect; read, never change)
        self.shots_at: Mapping[int, list[tuple[str, int, str, int]]] = {
            target: [("eliminate", target, s, n) for s, n in self.guesses]
            for target in (ASIDE, *range(self.info.players_max))
        }
        self.guess_index = {guess: index for index, guess in enumerate(self.guesses)}
        # The chance outcome "this card comes off the pile", one tuple per physical card.
        self.draw_action = {card: ("card", card.card, card.copy) for card in self.deck()}
        # each card's place among those outcomes sorted: a pile's outcomes sort by these ints
        by_outcome = sorted(self.draw_action, key=self.draw_action.__getitem__)
        self.draw_rank = {card: rank for rank, card in enumerate(by_outcome)}
        # The greedy agent's and the sampled worlds' per-card tables: static data of the cards
        self.card_tables = CardTables(self)

    def _checked_mission(self, card) -> Mission:
        """A mission card's parameters, refused when it names a suit no playing card has."""
        mission = mission_from_card(card)
        suits = {spec.suit for spec in self.specs.values()}
        missing = [suit for suit in mission.suits if suit not in suits]
        if missing:
            raise DeckError(f"card {mission.id}: the mission uses suit {missing[0]}, which no card has")
        return mission

    def shot_actions(self, target: int) -> list[tuple[str, int, str, int]]:
        """Every 剷除叛徒 action against `target`, one per possible guess (read, never change)."""
        return self.shots_at[target]

    def _possible_guesses(self) -> list[tuple[str, int]]:
        """Every (suit, number) a shot may name in this mission (number 1 when specials are suspects)."""
        mission = self.mission
        numbers = set(range(mission.number_min, mission.number_max + 1))
        if mission.has("specials_in_deck"):
            numbers.add(SPECIAL_NUMBER)
        return sorted({(suit, number) for suit in mission.suits for number in numbers})

    def _split_cards(self) -> None:
        """The mission's deck, its shared centre specials (mission 6), and the rest left in the box."""
        mission = self.mission
        self.in_play: list[CardInstance] = []
        self.shared_specials: list[CardInstance] = []
        self.box: list[CardInstance] = []
        for spec in self.specs.values():
            in_suits = spec.suit in mission.suits
            for copy in range(spec.copies):
                card = CardInstance(spec.id, copy)
                if spec.number is None:
                    if in_suits and mission.has("specials_in_deck"):
                        self.in_play.append(card)
                    elif in_suits and mission.has("shared_specials"):
                        self.shared_specials.append(card)
                    else:
                        self.box.append(card)
                elif in_suits and mission.number_min <= spec.number <= mission.number_max:
                    self.in_play.append(card)
                else:
                    self.box.append(card)
        # Which cards could be a suspect: what a seat's deduction starts from (public).
        self.suspect_pool: Counter[str] = Counter(card.card for card in self.in_play)
        self.shared_special_set = frozenset(self.shared_specials)
        missions = [CardInstance(c.id, copy) for c in self.mission_cards.values() for copy in range(c.copies)]
        chosen = CardInstance(mission.id, 0)
        self.mission_card: CardInstance | None = chosen if chosen in missions else None
        self.other_missions = [card for card in missions if card != chosen]

    def new_initial_state(self, players: int, rng: random.Random):
        from .state import InfiltraitorsState  # import cycle: state imports this module

        check_players(self.info, players)
        need = players * self.mission.hand_size + self.mission.suspect_count(players)
        if need > len(self.in_play):
            raise PnpError(
                f"{SLUG} mission {self.mission.id}: {players} agents need {need} cards "
                f"for hands and suspects, the mission's deck has {len(self.in_play)}"
            )
        return InfiltraitorsState(self, players)

    def deck(self) -> list[CardInstance]:
        cards = [CardInstance(spec.id, copy) for spec in self.specs.values() for copy in range(spec.copies)]
        return cards + ([self.mission_card] if self.mission_card else []) + self.other_missions

    def scenarios(self) -> list[str]:
        """Every mission card, training first: the check plays each one."""
        return sorted(self.mission_cards, key=lambda cid: (not cid.startswith("T"), cid))

    def unknown_effects(self) -> list[UnknownEffect]:
        out = [
            UnknownEffect(spec.id, spec.effect or "<none>")
            for spec in self.specs.values()
            if spec.special and spec.effect not in CARD_EFFECTS
        ]
        out += [
            UnknownEffect(card.id, card.fields["effect"])
            for card in self.mission_cards.values()
            if card.fields.get("effect") and card.fields["effect"] not in MISSION_EFFECTS
        ]
        return out

    def greedy_value(self, obs: Observation, action: Any) -> float:
        """The greedy agent's value of `action`, reasoned from the seat's observation alone.

        The agents ask `greedy_values` (one deduction per decision); this one works the
        deduction out afresh, keeping nothing on the rules every game shares.
        """
        return self._deduction(obs).greedy_value(action)

    def greedy_values(self, obs: Observation, legal: Sequence[Any]) -> list[float]:
        """`greedy_value` of every legal action of one decision: one deduction, one shot table."""
        deduction = self._deduction(obs)
        value = deduction.greedy_value
        values: list[float] = []
        index, count = 0, len(legal)
        while index < count:
            action = legal[index]
            if action[0] == "eliminate":
                # The shots at one target come as `shot_actions(target)` itself (legal actions
                # are sorted, guesses too): their values are filled in one slice, not per action.
                block = self.shots_at.get(action[1])
                if block is not None and legal[index : index + len(block)] == block:
                    values += deduction.shot_block(action[1], self.guess_index)
                    index += len(block)
                    continue
            values.append(value(action))
            index += 1
        return values

    def _deduction(self, obs: Observation) -> Any:
        if not isinstance(obs, SeatObservation):
            raise TypeError(f"{SLUG}: greedy_value needs an observation of this engine, got {obs!r}")
        return Deduction(self, obs, self.card_tables)
