"""League of Hackers bound to one database: card data, declared options and the greedy hook."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar

from pnpforge.errors import PnpError
from pnpforge.rules.engine import CardInstance, GameInfo, GameRules, Observation, UnknownEffect
from pnpforge.rules.kit import Option, check_players, parse_options

from .agents import GreedyJudge, HackersObservation
from .data import EFFECTS, MAX_HANDICAP, Catalogue
from .state import HackersState

SLUG = "hackers"


def parse_handicap(text: str, players: int | None = None) -> tuple[int, ...]:
    """Extra cards per seat from '2,0,1' (the rulebook's optional rule allows 1-3 per player)."""
    bad = PnpError(
        f"{SLUG}: option 'handicap' got {text!r} (allowed: extra cards per seat, each "
        f"0–{MAX_HANDICAP}, separated by commas, e.g. 2,0,0)"
    )
    if not text.strip():
        return (0,) * (players or 0)
    try:
        extra = tuple(int(part) for part in text.split(","))
    except ValueError:
        raise bad from None
    if any(not 0 <= n <= MAX_HANDICAP for n in extra):
        raise bad
    if players is not None:
        if len(extra) > players:
            raise PnpError(
                f"{SLUG}: option 'handicap' gives {len(extra)} seats, the game has {players} players"
            )
        extra += (0,) * (players - len(extra))
    return extra


class HackersRules(GameRules):
    """League of Hackers bound to one database's cards."""

    OPTIONS: ClassVar[tuple[Option, ...]] = (
        Option(
            "handicap",
            str,
            "",
            "optional rule: extra cards drawn at set-up per seat, each 0–3, "
            "e.g. '2,0,0'; those seats then discard back to 8",
        ),
    )
    USED: ClassVar[dict[str, str]] = {
        "defence": "put into play in front of its owner (defend action)",
        "attack": "attacked with (attack action resolved)",
        "server": "installed by a player (starting pick or bought); gifts to the virtual player do not count",
    }

    def __init__(self, catalogue: Catalogue, info: GameInfo, options: Mapping[str, Any]) -> None:
        self.catalogue = catalogue
        self.options = parse_options(self.OPTIONS, options, game=SLUG)
        self.handicap = self.options["handicap"]
        parse_handicap(self.handicap)  # refuse a malformed value before any game starts
        info.options = dict(self.options)
        self.info = info

    def deck(self) -> list[CardInstance]:
        catalogue = self.catalogue
        return catalogue.instances([*catalogue.defence, *catalogue.attack, *catalogue.server])

    def unknown_effects(self) -> list[UnknownEffect]:
        return [
            UnknownEffect(d.id, d.effect) for d in self.catalogue.defence.values() if d.effect not in EFFECTS
        ]

    def new_initial_state(self, players: int, rng: random.Random) -> HackersState:
        check_players(self.info, players)
        return HackersState(self.catalogue, players, parse_handicap(self.handicap, players))

    def greedy_value(self, obs: Observation, action: Any) -> float:
        assert isinstance(obs, HackersObservation)
        return GreedyJudge(self.catalogue).value(obs, action)

    def greedy_values(self, obs: Observation, legal: Sequence[Any]) -> list[float]:
        """Every legal action of one decision, judged in a row (one judge keeps what they share)."""
        return GreedyJudge(self.catalogue).values(obs, legal)

    def greedy_agent_values(self) -> Callable[[Any, Sequence[Any]], list[float]]:
        """One greedy agent's values, by a judge of its own: it keeps what the decisions over one
        table share (a seat's board, key card and payments) from one decision to the next."""
        return GreedyJudge(self.catalogue).values
