"""Accusation's rules bound to the database: declared options, each seat's cult, the physical cards.

Each seat plays one box of its cult's cards; a second seat with the same cult
plays a second box, whose copies are numbered after the first's so every
physical card keeps a distinct identity for the conservation check.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, cast

from pnpforge.errors import PnpError
from pnpforge.rules.engine import CardInstance, GameInfo, GameRules, Observation, UnknownEffect
from pnpforge.rules.games.accusation import agents
from pnpforge.rules.games.accusation.board import PILES, pile_name
from pnpforge.rules.games.accusation.data import CardDef
from pnpforge.rules.games.accusation.state import AccusationState
from pnpforge.rules.kit import Option, check_players, parse_options

SLUG = "accusation"
MODE_PLAYERS = {"duel": 2, "2v2": 4}
DEFAULT_CULTS = {2: ("鴉教團", "白狐神社"), 4: ("鴉教團", "白狐神社", "白狐神社", "鴉教團")}
STEPS_PER_SEAT = 3000
RITUALS_TO_WIN_ALONE = 2  # a duel is won with two; a 2v2 side needs four from two seats


class AccusationRules(GameRules):
    """Cards and options of one configuration; makes initial states."""

    OPTIONS: ClassVar[tuple[Option, ...]] = (
        Option(
            "mode",
            str,
            "duel",
            "duel (2 players) or 2v2 (4 players, seats 0+2 against 1+3)",
            choices=tuple(MODE_PLAYERS),
        ),
        Option(
            "cults",
            str,
            "",
            "each seat's cult, comma separated (default: 鴉教團 against 白狐神社); "
            "two seats of one cult play two boxes",
        ),
    )
    USED: ClassVar[dict[str, str]] = {
        "follower": "played from hand, or revealed from hand to accuse",
        "location": "played onto the field",
        "magic": "played from hand and not accused: its effect resolves (被控訴的魔法不會有任何效果)",
        "ritual": "executed: completed into the score pile",
        "leader": "played from the conspiracy zone onto the field",
    }

    def __init__(self, defs: list[CardDef], info: GameInfo, options: Mapping[str, Any]) -> None:
        self.options = parse_options(self.OPTIONS, options, game=SLUG)
        self.mode = self.options["mode"]
        self.players = MODE_PLAYERS[self.mode]
        check_players(info, self.players)
        self.defs = {d.id: d for d in defs}
        self.seat_cults = self._seat_cults(self.options["cults"])
        self.options["cults"] = ",".join(self.seat_cults)
        # One mode plays one player count: the checker and the shared tests cycle over this range.
        info.players_min = info.players_max = self.players
        info.max_steps = STEPS_PER_SEAT * self.players
        info.options = dict(self.options)
        self.info = info
        self.instances: list[CardInstance] = []
        self.instance_defs: list[CardDef] = []
        self.instance_owner: list[int] = []
        self._deal_boxes()
        self._per_card_values()
        self._table_order()
        self.leaders = [i for i, d in enumerate(self.instance_defs) if d.type == "leader"]
        # the greedy heuristic's value of each action that needs no observation (see `agents`)
        self.static_values: Mapping[tuple[int, ...], float | None] = agents.static_values(self)

    def _seat_cults(self, raw: str) -> list[str]:
        """The cult of each seat from the `cults` option (comma list), checked against the data."""
        known = sorted({d.cult for d in self.defs.values() if d.cult})
        if raw:
            seat_cults = [name.strip() for name in raw.replace("，", ",").split(",")]
        else:
            seat_cults = list(DEFAULT_CULTS[self.players])
        if len(seat_cults) != self.players:
            raise PnpError(
                f"accusation: option 'cults' needs {self.players} cult names "
                f"(one per seat), got {len(seat_cults)}"
            )
        for cult in seat_cults:
            if cult not in known:
                raise PnpError(
                    f"accusation: option 'cults' names unknown cult '{cult}' "
                    f"(cults in the database: {', '.join(known) or 'none'})"
                )
        if self.players == 4 and (seat_cults[0] == seat_cults[2] or seat_cults[1] == seat_cults[3]):
            raise PnpError("accusation 2v2: team-mates (seats 0+2, 1+3) may not play the same cult")
        return seat_cults

    def _deal_boxes(self) -> None:
        """One physical card per copy per seat; copies of a repeated cult numbered after the first box."""
        boxes_of_cult: Counter = Counter()
        for seat, cult in enumerate(self.seat_cults):
            box = boxes_of_cult[cult]
            boxes_of_cult[cult] += 1
            members = [d for d in self.defs.values() if d.cult == cult and d.copies > 0]
            if not members:
                raise PnpError(f"accusation: cult '{cult}' has no cards with copies > 0")
            rituals = sum(d.copies for d in members if d.type == "ritual")
            if rituals < RITUALS_TO_WIN_ALONE:
                raise PnpError(
                    f"accusation: cult '{cult}' has {rituals} ritual card(s) with copies > 0; a seat needs "
                    f"{RITUALS_TO_WIN_ALONE} completed rituals to win, so it could only lose"
                )
            for definition in members:
                for copy in range(definition.copies):
                    self.instances.append(CardInstance(definition.id, box * definition.copies + copy))
                    self.instance_defs.append(definition)
                    self.instance_owner.append(seat)

    def _per_card_values(self) -> None:
        """Per physical card, the printed values the board arithmetic reads at every step (the
        same for every position: read once here, never kept in a state)."""
        defs = self.instance_defs
        self.kind_of = [d.type for d in defs]
        # per card: stardust it gives on the field (1 + its passive) and its 'guard_others' passive
        self.stardust_of = [1 + d.effect.passives.get("extra_stardust", 0) for d in defs]
        # ... the same for followers and 0 for every other card (what a field's stardust sums)
        self.follower_stardust_of = [
            given if d.type == "follower" else 0 for given, d in zip(self.stardust_of, defs, strict=True)
        ]
        self.guard_others_of = [d.effect.passives.get("guard_others", 0) for d in defs]
        self.guard_of = [d.guard for d in defs]
        self.requirements_of = [tuple(Counter(d.requirements).items()) for d in defs]
        self.symbols_of = [tuple(d.symbols) for d in defs]  # per card: the symbols printed on it
        # per card, for the main-phase options: what it adds to a raid while innocent (聲量 and its
        # 'raid_bonus'; 0 for a card of 聲量 0, which cannot raid), its 'raid_bonus_all' passive,
        # and whether it has a free ability or a location action
        self.raider_value_of = [
            (d.volume or 0) + d.effect.passives.get("raid_bonus", 0) if (d.volume or 0) >= 1 else 0
            for d in defs
        ]
        self.raid_bonus_all_of = [d.effect.passives.get("raid_bonus_all", 0) for d in defs]
        self.has_ability = [bool(d.steps("ability")) for d in defs]
        self.has_action = [bool(d.steps("action")) for d in defs]

    def _table_order(self) -> None:
        """Each seat's pile names (and the seat and pile of each name), each seat's side (seats
        0+2 and 1+3 in 2v2, each seat alone in a duel), every seat's order of play from it, and its
        enemies in that order (asked at every step)."""
        players = self.players
        self.pile_names = [{pile: pile_name(seat, pile) for pile in PILES} for seat in range(players)]
        self.seat_pile_of = {
            name: (seat, pile) for seat in range(players) for pile, name in self.pile_names[seat].items()
        }
        self.team_of = [seat % 2 if players == 4 else seat for seat in range(players)]
        self.clockwise = [[(start + k) % players for k in range(players)] for start in range(players)]
        self.enemies = [
            [other for other in order if self.team_of[other] != self.team_of[order[0]]]
            for order in self.clockwise
        ]

    def deck(self) -> list[CardInstance]:
        return list(self.instances)

    def unknown_effects(self) -> list[UnknownEffect]:
        return [UnknownEffect(d.id, text) for d in self.defs.values() for text in d.effect.unknown]

    def new_initial_state(self, players: int, rng: random.Random | None = None):
        """A new game at its first chance decision (who goes first)."""

        if players != self.players:
            raise PnpError(
                f"accusation ({self.mode}) is played by {self.players} players, not {players} "
                f"(option mode=2v2 for four)"
            )
        return AccusationState(self)

    def greedy_value(self, obs: Observation, action: Any) -> float:
        """The greedy agent's heuristic, judged from the seat's observation alone (see `agents`)."""
        return agents.greedy_value(self, cast(agents.AccusationObservation, obs), action)

    def greedy_values(self, obs: Observation, legal: Sequence[Any]) -> list[float]:
        """`greedy_value` of every legal action of one decision (asked at every greedy decision,
        so the hook is a plain call: the runner hands back the observation `observe` made)."""
        return agents.greedy_values(self, cast(agents.AccusationObservation, obs), legal)
